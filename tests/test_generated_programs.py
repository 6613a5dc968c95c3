"""Random programs, original vs converted.

Hypothesis writes functions of two small-int parameters out of nested `if`/`elif`/`else`,
`while` and `for` (with `else`), `try`/`except`/`else`/`finally`, `with` (a context manager that
prints and swallows ValueError), `break`, `continue` and `return` (out of `finally` too), `raise`,
assignments, augmented assignments, `del`, prints, comparisons (chained too), `and`/`or`/`not` and conditional
expressions. Two locals, `c` and `d`, start unbound, so reading them may raise
UnboundLocalError; `%` may divide by zero. Every `while` has its own guard counter, decremented
first thing in each iteration, so every program ends (a converted one that does not fails after
a time limit instead of hanging the run).

Each program goes to a real file (autoconv reads the source from disk), is imported, converted,
and run on a few inputs: results (value and type), exceptions (type, message, line) and
printed output must match.
"""

import contextlib
import importlib.util
import io
import itertools
import os
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import autoconv
from tests.differential import TimedOut, time_limit, user_location

PARAMS = ("a", "b")
LOCALS = ("c", "d")  # unbound until the program assigns them
VARS = PARAMS + LOCALS
MAX_DEPTH = 3
MAX_STATEMENTS = 16  # keeps conversion fast: 1,000 programs in well under a minute


class _Writer:
    """Draws one program; `lines` is its source."""

    def __init__(self, draw, finally_jumps=False):
        self.draw = draw
        # Mostly `try` statements, each with a `finally` that may jump (break, continue,
        # return) and so discard the exception or jump in flight.
        self.finally_jumps = finally_jumps
        self.lines = []
        self.guards = itertools.count()
        self.budget = draw(st.integers(3, MAX_STATEMENTS))  # statements, roughly

    def emit(self, indent, text):
        self.lines.append("    " * indent + text)

    def choice(self, options):
        return self.draw(st.sampled_from(options))

    # -- expressions --

    def atom(self):
        if self.draw(st.booleans()):
            return self.choice(VARS)
        return str(self.draw(st.integers(-2, 3)))

    def expr(self, depth=0):
        kind = self.draw(st.integers(0, 9 if depth < 2 else 0))
        if kind <= 3:
            return self.atom()
        if kind <= 5:
            op = self.choice(["+", "-", "*", "%"])
            return f"({self.expr(depth + 1)} {op} {self.expr(depth + 1)})"
        if kind == 6:
            return self.cond(depth + 1)
        if kind == 7:
            op = self.choice(["and", "or"])
            return f"({self.expr(depth + 1)} {op} {self.expr(depth + 1)})"
        if kind == 8:
            return f"({self.expr(depth + 1)} if {self.cond(depth + 1)} else {self.expr(depth + 1)})"
        return f"(not {self.expr(depth + 1)})"

    def cond(self, depth=0):
        kind = self.draw(st.integers(0, 5 if depth < 2 else 1))
        if kind == 0:
            return self.atom()
        if kind == 1:
            op = self.choice(["<", "<=", "==", "!=", ">", ">="])
            return f"{self.atom()} {op} {self.atom()}"
        if kind == 2:  # chained comparison
            ops = self.draw(
                st.lists(st.sampled_from(["<", "<=", "==", "!="]), min_size=2, max_size=3)
            )
            parts = [self.atom()]
            for op in ops:
                parts += [op, self.atom()]
            return " ".join(parts)
        if kind == 3:
            return f"not ({self.cond(depth + 1)})"
        op = self.choice(["and", "or"])
        return f"({self.cond(depth + 1)}) {op} ({self.cond(depth + 1)})"

    # -- statements --

    def block(self, indent, depth, jumps):
        """1-3 statements; `jumps`: which of break / continue / return may appear here."""
        n = self.draw(st.integers(1, 3)) if self.budget > 0 else 1
        for _ in range(n):
            if self.stmt(indent, depth, jumps):
                break  # an unconditional jump ends the block

    def stmt(self, indent, depth, jumps) -> bool:
        """Emits one statement; returns True if it always jumps (nothing after it runs)."""
        self.budget -= 1
        kinds = ["assign", "assign", "aug", "print", "del", "raise", *sorted(jumps)]
        if self.finally_jumps:
            kinds += sorted(jumps) * 2
        if depth < MAX_DEPTH and self.budget > 0:
            kinds += ["if", "if", "while", "for", "try", "with"]
            if self.finally_jumps:
                kinds += ["try"] * 6
        kind = self.choice(kinds)
        if kind == "assign":
            self.emit(indent, f"{self.choice(VARS)} = {self.expr()}")
        elif kind == "aug":
            self.emit(
                indent, f"{self.choice(VARS)} {self.choice(['+=', '-=', '*='])} {self.atom()}"
            )
        elif kind == "print":
            self.emit(indent, f"print({self.expr()}, {self.choice(VARS)!r}, {self.atom()})")
        elif kind == "del":
            self.emit(indent, f"del {self.choice(LOCALS)}")
        elif kind == "raise":
            self.emit(indent, f"raise ValueError({self.expr()})")
            return True
        elif kind in ("break", "continue"):
            self.emit(indent, kind)
            return True
        elif kind == "return":
            self.emit(indent, f"return {self.expr()}")
            return True
        elif kind == "if":
            self.emit(indent, f"if {self.cond()}:")
            self.block(indent + 1, depth + 1, jumps)
            for _ in range(self.draw(st.integers(0, 2))):
                self.emit(indent, f"elif {self.cond()}:")
                self.block(indent + 1, depth + 1, jumps)
            if self.draw(st.booleans()):
                self.emit(indent, "else:")
                self.block(indent + 1, depth + 1, jumps)
        elif kind == "while":
            guard = f"g{next(self.guards)}"
            self.emit(indent, f"{guard} = {self.draw(st.integers(0, 3))}")
            test = (
                f"{guard} > 0" if self.draw(st.booleans()) else f"{guard} > 0 and ({self.cond()})"
            )
            self.emit(indent, f"while {test}:")
            self.emit(indent + 1, f"{guard} -= 1")
            self.block(indent + 1, depth + 1, jumps | LOOP_JUMPS)
            self.loop_else(indent, depth, jumps)
        elif kind == "for":
            target = self.choice(VARS)
            source = self.choice(
                [
                    f"range({self.draw(st.integers(0, 3))})",
                    f"range({self.atom()} % 4)",
                    "(1, 2, 3)",
                    f"[{self.atom()}, {self.atom()}]",
                ]
            )
            self.emit(indent, f"for {target} in {source}:")
            self.block(indent + 1, depth + 1, jumps | LOOP_JUMPS)
            self.loop_else(indent, depth, jumps)
        elif kind == "try":
            self.emit(indent, "try:")
            self.block(indent + 1, depth + 1, jumps)
            handler = self.draw(st.booleans())
            if handler:
                self.emit(indent, "except (ZeroDivisionError, ValueError):")
                self.block(indent + 1, depth + 1, jumps)
                if self.draw(st.booleans()):
                    self.emit(indent, "else:")
                    self.block(indent + 1, depth + 1, jumps)
            if not handler or self.finally_jumps or self.draw(st.booleans()):
                # A jump out of `finally` discards the exception or jump in flight.
                self.emit(indent, "finally:")
                self.block(indent + 1, depth + 1, jumps)
        else:
            self.emit(indent, f"with Ctx({self.atom()}) as {self.choice(VARS)}:")
            self.block(indent + 1, depth + 1, jumps)
        return False

    def loop_else(self, indent, depth, jumps):
        if self.draw(st.booleans()):
            self.emit(indent, "else:")
            self.block(indent + 1, depth + 1, jumps)  # break/continue here: the outer loop's


LOOP_JUMPS = frozenset({"break", "continue"})

# Every program starts with this context manager: it prints, and swallows ValueError.
PRELUDE = """\
class Ctx:
    def __init__(self, v):
        self.v = v

    def __enter__(self):
        print("enter", self.v)
        return self.v

    def __exit__(self, kind, value, tb):
        print("exit", self.v, kind.__name__ if kind else None)
        return kind is ValueError


"""


@st.composite
def programs(draw, finally_jumps=False):
    writer = _Writer(draw, finally_jumps)
    writer.emit(0, "def generated(a, b):")
    if draw(st.booleans()):
        writer.emit(1, f"c = {writer.expr()}")
    writer.block(1, 0, frozenset({"return"}))
    writer.emit(1, f"return {draw(st.sampled_from(['(a, b, c, d)', '(a, b)', '(a, c)', 'b']))}")
    return PRELUDE + "\n".join(writer.lines) + "\n"


small_ints = st.integers(-3, 4)
inputs = st.lists(st.tuples(small_ints, small_ints), min_size=1, max_size=3)


_modules = itertools.count()


@pytest.fixture(scope="module")
def program_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("generated_programs")


def _load(folder, source):
    """Imports `source` from a file of its own (the shrinker repeats programs: identical
    functions in different files must each convert on their own)."""
    name = f"generated_program_{next(_modules)}"
    path = folder / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module.generated, str(path)


def _outcome(fn, args, path):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            with time_limit(5):
                value = fn(*args)
            result = ("return", value, _types(value))
        except TimedOut:
            result = ("timed out", "after 5 s")
        except Exception as e:  # noqa: BLE001 - exceptions are results too
            result = ("raise", type(e), str(e), user_location(e, os.path.dirname(path)))
    return result, out.getvalue()


def _types(value):
    if isinstance(value, tuple):
        return tuple(_types(v) for v in value)
    return type(value)


@settings(
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    # In CI the "ci" profile (tests/conftest.py) draws the same 1,000 programs every run.
)
@given(source=programs(), args_list=inputs)
def test_generated_program_behaves_the_same(program_dir, source, args_list):
    _check(program_dir, source, args_list)


def _check(program_dir, source, args_list):
    original, path = _load(program_dir, source)
    with time_limit(20):
        converted = autoconv.convert(original)
    assert converted.__autoconv_original__ is original
    for args in args_list:
        expected = _outcome(original, args, path)
        assert expected[0][0] != "timed out", (
            f"the generator promised a program that ends\n{source}"
        )
        got = _outcome(converted, args, path)  # the original's statements, behind the guard
        assert got == expected, f"inputs {args}\n{source}"
        autoconv.set_always_converted(True)
        try:
            got = _outcome(converted, args, path)  # the functional form
        finally:
            autoconv.set_always_converted(False)
        assert got == expected, f"inputs {args} (functional form)\n{source}"


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(source=programs(finally_jumps=True), args_list=inputs)
def test_generated_program_with_finally_jumps_behaves_the_same(program_dir, source, args_list):
    """Programs made mostly of `try`/`finally`, where `finally` may break, continue or return."""
    _check(program_dir, source, args_list)


def test_generator_makes_every_construct(program_dir):
    """The strategy really produces what the module docstring promises."""
    sources = []

    @settings(max_examples=300, deadline=None, database=None, derandomize=True)
    @given(programs())
    def collect(source):
        sources.append(source)

    collect()
    text = "\n".join(sources)
    for construct in (
        "elif ",
        "else:",
        "while ",
        "for ",
        "break",
        "continue",
        "        return ",
        " and ",
        " or ",
        "not ",
        " if ",
        "del ",
        "+=",
        "print(",
        "%",
    ):
        assert construct in text, construct
    assert any("    else:" in s and ("for " in s or "while " in s) for s in sources)
    assert any(s.count("<") + s.count("==") >= 2 for s in sources)


def test_ci_profile_draws_the_same_programs_every_run():
    """Under CI (tests/conftest.py) the examples are derandomized and no database is kept, so
    the 1,000 programs above are the same on every run."""
    profile = settings.get_profile("ci")
    assert profile.derandomize is True
    assert profile.database is None
    if os.environ.get("CI"):
        assert settings.default.derandomize is True
        assert settings.default.database is None
