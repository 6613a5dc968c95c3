"""Every warning and error the converter produces: what it names, where it points, and strict
mode; tracebacks of errors raised inside converted code.

Each test writes its functions to a fresh module file (`user_module`), so conversion caches and
once-per-function warnings from other tests cannot hide a warning here.
"""

import os
import re
import subprocess
import sys
import textwrap
import traceback
import warnings

import numpy as np
import pytest

import autoconv
from autoconv import AutoconvError, ConversionError, ConversionWarning
from autoconv.conversion.api import functional

# -- parts of a function left as Python --

KEPT = """
def gen(n):
    for i in range(n):
        if i % 2:
            continue
        yield i


async def coro(n):
    if n:
        return 1
    return 2


def uses_locals(n):
    if n:
        x = n
    return locals()


def uses_exec(n):
    for _ in range(n):
        exec("y = 1")
    return n


def uses_eval(n):
    if n:
        return eval("n + 1")
    return 0


def uses_vars():
    return vars()


def uses_dir(n):
    while n:
        n -= 1
    return dir()
"""


def _line(module, text, start=1):
    """The number of the first line of `module`'s file, from line `start` on, containing `text`."""
    with open(module.__file__) as f:
        for number, line in enumerate(f, 1):
            if number >= start and text in line:
                return number
    raise AssertionError(text)


@pytest.fixture
def kept(user_module):
    return user_module(KEPT)


# (function, construct named in the message, text of the offending line, why)
BLOCKERS = [
    ("gen", "yield", "yield i", "generators stay Python"),
    ("coro", "async def", "async def coro", "coroutines stay Python"),
    ("uses_locals", "locals()", "return locals()", "reads the function's own frame"),
    ("uses_exec", "exec()", 'exec("y = 1")', "reads the function's own frame"),
    ("uses_eval", "eval()", 'eval("n + 1")', "reads the function's own frame"),
    ("uses_vars", "vars()", "return vars()", "reads the function's own frame"),
    ("uses_dir", "dir()", "return dir()", "reads the function's own frame"),
]


@pytest.mark.parametrize(
    ("name", "construct", "text", "why"), BLOCKERS, ids=[b[0] for b in BLOCKERS]
)
def test_unconvertible_function_warns_and_runs_unconverted(kept, name, construct, text, why):
    func = getattr(kept, name)
    with pytest.warns(ConversionWarning) as record:
        converted = autoconv.convert(func)
        if converted is not func:
            # Outside traces the original's statements run; the warning comes when the
            # functional form is first needed (the first trace), which then runs unconverted.
            assert functional(converted) is func
    [warning] = [w for w in record if issubclass(w.category, ConversionWarning)]
    message = str(warning.message)
    path = kept.__file__
    line = _line(kept, text, start=func.__code__.co_firstlineno)
    assert f"{name} ({path}:{func.__code__.co_firstlineno})" in message
    assert f"the {construct} at {path}:{line} cannot be converted" in message
    assert why in message
    assert message.endswith("It runs unconverted.")
    # The warning is reported at the user's function, not inside autoconv.
    assert warning.filename == path
    assert warning.lineno == func.__code__.co_firstlineno


@pytest.mark.parametrize(
    ("name", "construct", "text", "why"), BLOCKERS, ids=[b[0] for b in BLOCKERS]
)
def test_unconvertible_function_raises_in_strict_mode(
    kept, strict_mode, name, construct, text, why
):
    strict_mode(True)
    func = getattr(kept, name)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        with pytest.raises(ConversionError, match=re.escape(f"the {construct} at ")) as info:
            autoconv.convert(func)
    assert why in str(info.value)
    assert isinstance(info.value, AutoconvError)


@pytest.mark.parametrize("name", [b[0] for b in BLOCKERS])
def test_to_code_of_unconvertible_function_raises(kept, name):
    with pytest.raises(ConversionError, match=rf"{name} \(.*\) stays Python: the "):
        autoconv.to_code(getattr(kept, name))


def test_unconverted_function_still_runs(kept):
    with pytest.warns(ConversionWarning):
        gen = autoconv.convert(kept.gen)
        uses_eval = autoconv.convert(kept.uses_eval)
    assert list(gen(5)) == [0, 2, 4]
    assert uses_eval(1) == 2


def test_frame_readers_with_explicit_namespaces_convert(user_module):
    """`exec`/`eval` given their namespaces, and `locals` as a local name, read no frame."""
    module = user_module("""
        def f(n):
            ns = {"n": n}
            if n:
                exec("m = n * 2", ns)
            return eval("n + 1", {"n": n}), ns.get("m")


        def g(locals):
            if locals:
                return locals()
            return None
    """)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        f = autoconv.convert(module.f)
        g = autoconv.convert(module.g)
    assert f.__autoconv_original__ is module.f
    assert f(3) == (4, 6)
    assert g(lambda: "mine") == "mine"


def test_match_statement_stays_python_with_a_warning(user_module):
    module = user_module("""
        def f(v):
            for i in range(2):
                match v:
                    case [x, *_]:
                        return x + i
                    case _:
                        pass
            return None
    """)
    line = _line(module, "match v:")
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        converted = autoconv.convert(module.f)  # no warning yet: the original's statements run
    with pytest.warns(ConversionWarning) as record:
        functional(converted)  # what the first trace does
    [warning] = record
    message = str(warning.message)
    assert f"in f, the match at {module.__file__}:{line} stays Python" in message
    assert "match" in message and "if/elif" in message  # says why, and what to do instead
    assert (warning.filename, warning.lineno) == (module.__file__, line)
    # The rest of the function is converted and behaves as before.
    assert converted.__autoconv_original__ is module.f
    assert "for_stmt" in autoconv.to_code(module.f)
    autoconv.set_always_converted(True)
    try:
        assert converted([5, 6]) == module.f([5, 6]) == 5
        assert converted(7) is module.f(7) is None
    finally:
        autoconv.set_always_converted(False)
    assert converted([5, 6]) == module.f([5, 6]) == 5
    assert converted(7) is module.f(7) is None


def test_to_code_says_that_a_match_stays_python(user_module):
    module = user_module("""
        def f(v):
            match v:
                case [1]:
                    return "one"
            def inner(w):
                match w:
                    case [*_]:
                        return w
            return inner(v)

        def g(v):
            if v:
                match v:
                    case [1]:
                        return "one"
            return "other"
    """)
    note = (
        "# autoconv: stays Python: a `match` statement runs as Python; its subject cannot be "
        "symbolic (use if/elif to stage it)"
    )
    lines = autoconv.to_code(module.g).splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() == "match v:")
    assert lines[at - 1] == lines[at][: lines[at].index("match")] + note
    assert sum("# autoconv" in line for line in lines) == 1
    # Two `match` lines, one of them in a function it defines (converted when called): one note.
    text = autoconv.to_code(module.f)
    assert text.startswith("# autoconv: its `match` statements stay Python: a `match` statement")
    assert text.count("# autoconv") == 1
    compile(text, "<to_code>", "exec")


def test_match_statement_raises_in_strict_mode(user_module, strict_mode):
    module = user_module("""
        def f(v):
            match v:
                case [1]:
                    return "one"
            return "other"
    """)
    strict_mode(True)
    with pytest.raises(ConversionError, match=r"in f, the match at .* stays Python"):
        autoconv.convert(module.f)


def _assert_generator_warning(record, module, name, qualname):
    """One ConversionWarning about generator `name` of `module`: it names the function, the
    `yield` and its line in the user's file, and points at the function."""
    func_line = _line(module, f"def {name}(")
    yield_line = _line(module, "yield", start=func_line)
    messages = [w for w in record if issubclass(w.category, ConversionWarning)]
    assert len(messages) == 1, [str(w.message) for w in messages]
    [warning] = messages
    message = str(warning.message)
    assert f"{qualname} ({module.__file__}:{func_line}) stays Python" in message
    assert f"the yield at {module.__file__}:{yield_line}" in message
    assert "generators stay Python" in message
    assert (warning.filename, warning.lineno) == (module.__file__, func_line)


def test_nested_generator_stays_python_with_a_warning(user_module):
    module = user_module(
        """
        def outer(n):
            def evens():
                for i in range(n):
                    if i % 2 == 0:
                        yield i
            total = 0
            for v in evens():
                total += v
            return total
        """
    )
    with pytest.warns(ConversionWarning) as record:
        converted = autoconv.convert(module.outer)
        assert converted(5) == module.outer(5) == 6
        autoconv.set_always_converted(True)
        try:
            assert converted(5) == 6
        finally:
            autoconv.set_always_converted(False)
    _assert_generator_warning(record, module, "evens", "outer.<locals>.evens")


def test_generator_called_from_converted_code_warns_once(user_module, always_converted):
    module = user_module(
        """
        def countdown(n):
            while n:
                yield n
                n -= 1


        def total(n):
            out = 0
            for v in countdown(n):
                if v % 2:
                    continue
                out += v
            return out
        """
    )
    converted = autoconv.convert(module.total)
    with pytest.warns(ConversionWarning) as record:
        assert converted(4) == module.total(4) == 6
    _assert_generator_warning(record, module, "countdown", "countdown")
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        assert converted(6) == 12  # once is enough


def test_generator_called_while_tracing_warns(user_module):
    """A generator that converted code calls while `autoconv.function` traces stays Python,
    with a warning."""
    module = user_module("""
        def countdown(n):
            while n:
                yield n
                n -= 1


        def traced(x):
            for v in countdown(3):
                x = x + v
            return x
    """)
    fn = autoconv.function(module.traced)
    with pytest.warns(ConversionWarning) as record:
        assert fn(np.float32(1.0)) == 7.0
    messages = [str(w.message) for w in record if issubclass(w.category, ConversionWarning)]
    line = _line(module, "yield n")
    first = module.countdown.__code__.co_firstlineno
    assert any(
        f"countdown ({module.__file__}:{first}) stays Python: the yield at "
        f"{module.__file__}:{line}" in m
        for m in messages
    ), messages


# -- functions without source, and things that are not functions --


def test_function_defined_by_exec_of_a_string():
    namespace = {}
    exec("def from_string(x):\n    if x:\n        return 1\n    return 2\n", namespace)
    func = namespace["from_string"]
    with pytest.warns(ConversionWarning) as record:
        converted = autoconv.convert(func)
    assert converted is func and converted(0) == 2
    message = str(record[0].message)
    assert "from_string" in message
    assert "<string>" in message and "keeps no source text" in message
    with pytest.raises(ConversionError, match="keeps no source text"):
        autoconv.to_code(func)


@pytest.mark.parametrize(
    "builtin",
    [len, print, sorted, str.join, [].append],
    ids=["len", "print", "sorted", "str.join", "list.append"],
)
def test_builtins_cannot_be_converted(builtin):
    with pytest.warns(ConversionWarning, match="built-in or C function, with no Python source"):
        converted = autoconv.convert(builtin)
    assert converted is builtin
    with pytest.raises(ConversionError, match="built-in or C function"):
        autoconv.to_code(builtin)


def test_builtin_warning_points_at_the_caller():
    with pytest.warns(ConversionWarning) as record:
        autoconv.convert(len)
    assert record[0].filename == __file__


def test_builtins_raise_in_strict_mode(strict_mode):
    strict_mode(True)
    with pytest.raises(ConversionError, match="cannot convert len: it is a built-in"):
        autoconv.convert(len)


@pytest.mark.parametrize("value", [5, "f", [len]], ids=["int", "str", "list"])
def test_convert_of_non_callable_raises_type_error(value):
    with pytest.raises(TypeError, match=f"expects a function.*got {type(value).__name__}"):
        autoconv.convert(value)


@pytest.mark.parametrize("value", [5, "f", None], ids=["int", "str", "None"])
def test_to_code_of_non_function_raises_conversion_error(value):
    with pytest.raises(ConversionError, match=f"not a function \\(got {type(value).__name__}\\)"):
        autoconv.to_code(value)


def test_to_code_of_a_class_raises_conversion_error():
    class K:
        pass

    with pytest.raises(ConversionError):
        autoconv.to_code(K)


# -- strict mode --


def test_set_strict_round_trip(strict_mode):
    strict_mode(True)
    assert autoconv.is_strict()
    strict_mode(False)
    assert not autoconv.is_strict()


def test_strict_mode_converts_clean_functions(user_module, strict_mode):
    module = user_module("""
        def f(n):
            return [i for i in range(n) if i % 2] if n else None
    """)
    strict_mode(True)
    assert autoconv.convert(module.f)(5) == [1, 3]


_ENV_SCRIPT = textwrap.dedent("""
    import sys, warnings
    sys.path.insert(0, sys.argv[1])
    import autoconv, strict_env_mod
    warnings.simplefilter("error")
    try:
        autoconv.convert(strict_env_mod.gen)
    except autoconv.ConversionError as e:
        print("ConversionError", e)
    except autoconv.ConversionWarning as w:
        print("ConversionWarning", w)
    print("strict", autoconv.is_strict())
""")


@pytest.mark.parametrize(
    ("value", "expected"),
    [("1", "ConversionError"), ("", "ConversionWarning"), ("0", "ConversionWarning")],
    ids=["AUTOCONV_STRICT=1", "unset", "AUTOCONV_STRICT=0"],
)
def test_strict_mode_from_environment(tmp_path, value, expected):
    (tmp_path / "strict_env_mod.py").write_text("def gen(n):\n    yield n\n")
    env = {k: v for k, v in os.environ.items() if k != "AUTOCONV_STRICT"}
    if value:
        env["AUTOCONV_STRICT"] = value
    result = subprocess.run(
        [sys.executable, "-c", _ENV_SCRIPT, str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    first, strict = result.stdout.splitlines()
    assert first.startswith(expected + " autoconv: gen (")
    assert "stays Python: the yield" in first
    assert strict == f"strict {expected == 'ConversionError'}"


def test_set_strict_overrides_environment(monkeypatch, strict_mode, user_module):
    module = user_module("def gen(n):\n    yield n\n")
    monkeypatch.setenv("AUTOCONV_STRICT", "1")
    strict_mode(False)
    with pytest.warns(ConversionWarning):
        autoconv.convert(module.gen)


# -- tracebacks of errors raised inside converted code --

TRACEBACKS = """
def in_loop(xs):
    total = 0
    for x in xs:
        if x > 1:
            total += 10 // (x - 2)
    return total


def in_while_test(n):
    i = 0
    while i < 3 and 10 // (n - i):
        i += 1
    return i


def in_conditional_expression(x):
    return 1 if x else [][0]


def in_nested_return(d, keys):
    for k in keys:
        while True:
            if k:
                return d[k]
            break
    return None


def helper(v):
    if v < 0:
        raise ValueError(f"negative: {v}")
    return v


def calls_helper(xs):
    out = []
    for x in xs:
        out.append(helper(x) if x else 0)
    return out
"""

# Names only generated code has; a traceback line showing one is generated text, not the user's.
_GENERATED = re.compile(
    r"\b(if_body|else_body|loop_body|loop_test|get_state|set_state|ac\.|"
    r"retval|do_return|break_|continue_)\w*"
)


@pytest.mark.parametrize(
    ("name", "args", "error", "text"),
    [
        ("in_loop", ([3, 2],), ZeroDivisionError, "total += 10 // (x - 2)"),
        ("in_while_test", (1,), ZeroDivisionError, "while i < 3 and 10 // (n - i):"),
        ("in_conditional_expression", (0,), IndexError, "return 1 if x else [][0]"),
        ("in_nested_return", ({}, [0, "k"]), KeyError, "return d[k]"),
        ("calls_helper", ([1, -2],), ValueError, 'raise ValueError(f"negative: {v}")'),
    ],
    ids=["loop", "while test", "conditional expression", "return in loop", "callee"],
)
def test_traceback_shows_user_file_line_and_source(user_module, name, args, error, text):
    module = user_module(TRACEBACKS)
    with pytest.raises(error) as info:
        autoconv.convert(getattr(module, name))(*args)
    with pytest.raises(error) as expected:
        getattr(module, name)(*args)
    assert str(info.value) == str(expected.value)

    frames = traceback.extract_tb(info.value.__traceback__)
    user_frames = [f for f in frames if f.filename == module.__file__]
    line = _line(module, text)
    # The innermost frame of the user's file is the line that raised, with its source text.
    assert (user_frames[-1].lineno, user_frames[-1].line) == (line, text)
    with open(module.__file__) as f:
        source = f.read().splitlines()
    for frame in user_frames:  # every frame in the user's file shows that file's real line
        assert frame.line == source[frame.lineno - 1].strip()
    # And nothing generated shows up as a source line anywhere in the formatted traceback.
    formatted = "".join(traceback.format_exception(info.value))
    assert f'File "{module.__file__}", line {line}' in formatted
    assert text in formatted
    shown = [ln.strip() for ln in formatted.splitlines() if not ln.lstrip().startswith("File ")]
    assert not [ln for ln in shown if _GENERATED.search(ln)], formatted


def test_traceback_of_unbound_local_points_at_the_read(user_module):
    module = user_module("""
        def f(flag):
            for i in range(2):
                if flag:
                    y = i
            return y
    """)
    with pytest.raises(UnboundLocalError) as info:
        autoconv.convert(module.f)(False)
    assert (
        str(info.value)
        == "cannot access local variable 'y' where it is not associated with a value"
    )
    last = traceback.extract_tb(info.value.__traceback__)[-1]
    assert (last.filename, last.lineno, last.line) == (
        module.__file__,
        _line(module, "return y"),
        "return y",
    )


def test_conversion_error_is_an_autoconv_error():
    assert issubclass(ConversionError, AutoconvError)
    assert issubclass(AutoconvError, Exception)
    assert issubclass(ConversionWarning, UserWarning)


@pytest.mark.parametrize(
    "call", ["traceback.extract_stack()", "traceback.format_stack()", "inspect.stack()"]
)
def test_functions_that_walk_the_stack_stay_python(user_module, call):
    """Their functional form would see the runtime's frames (pyparsing finds the line of its
    own call with `traceback.extract_stack`); outside traces the original runs anyway."""
    module = user_module(f"""
        import inspect
        import traceback

        def f(x):
            if x:
                return len({call})
            return 0
    """)
    with pytest.raises(ConversionError, match="frames that called it"):
        autoconv.to_code(module.f)
    assert autoconv.convert(module.f)(1) == module.f(1)
