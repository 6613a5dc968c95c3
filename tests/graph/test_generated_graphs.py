"""Random programs, eager NumPy against `autoconv.function`: the rule of graph mode.

`graph_programs.programs()` writes functions over arrays, NumPy scalars and Python numbers
with staged and Python `if` / `while` / `for`, `break` / `continue` / `return`, `None`
sentinels, dict and attribute state, lists that grow and mixed dtypes (its docstring lists
them). Each program goes to a real file (autoconv reads the source from disk, and errors must
point into it), is imported, run eagerly, and run as `autoconv.function(f)` on two inputs of
the same signature (so a value frozen while tracing shows on the second). Each example draws
one pass setting of `conftest.SETTINGS` to trace with.

For each call, the graph must either
- return what the eager call returns: the same Python types, dtypes, shapes and bits (NaN
  equals NaN), the same structure, the same `autoconv.print` output, the same arguments
  afterwards; where the eager call raises, raise an exception of the same type; or
- raise an `AutoconvError` of a limit docs/graph-mode.md documents (`LIMITS`, by message),
  whose message holds the generated file's path and a line of it other than the `def` line,
  and names no converter-made thing (`retval`, `Optional <...>`, "this list").
Classes found and not fixed yet (`KNOWN`, tools/generator_findings.md) are let through; each
has a strict xfail test with its minimal program in tests/graph/test_generator_findings.py.
Anything else fails with the program's source: a wrong value or type, a value where eager code
raises, another exception (a TypeError from autoconv's own code, say), or a call still running
after a few seconds. Results must not depend on the pass settings either: an `AutoconvError`
under another setting must be raised with all passes on too.

Examples per run: 1,000, the same ones every run when the environment variable CI is set
(derandomized, no example database), new ones otherwise. To explore on the command line:

    AUTOCONV_GRAPH_EXAMPLES=5000 AUTOCONV_GRAPH_SEED=7 python -m pytest \\
        tests/graph/test_generated_graphs.py::test_generated_graph_follows_the_rule

To count every failure of a seed (and the limits met) instead of stopping at the first:
`python tools/generator_hunt.py --seed 7 --examples 1500`.

`AUTOCONV_GRAPH_EXAMPLES` sets the number of examples (CI too), `AUTOCONV_GRAPH_SEED` fixes
hypothesis's seed (and overrides CI's derandomizing); either works alone. A failure prints the
program, the inputs and the pass setting; the program also lies in pytest's temporary folder.
"""

import contextlib
import copy
import io
import os
import re
import signal
import threading
import traceback
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

import autoconv
from autoconv.graph import passes
from tests.differential import TimedOut
from tests.graph import graph_programs, graph_programs8
from tests.graph.conftest import SETTINGS
from tests.graph.graph_programs import Program, inputs, programs
from tests.test_generated_programs import _load

# A graph call of these tiny programs takes milliseconds; the first one traces too. Longer is
# a hang (with room for a pause of the garbage collector on a busy machine).
TRACE_SECONDS, CALL_SECONDS = 10, 5
AUTOCONV_DIR = os.path.dirname(os.path.abspath(autoconv.__file__))

# The errors a generated program may meet instead of the eager answer: the limits that
# docs/graph-mode.md documents (its table "Errors, and what to write instead" and "Limits"),
# each by a pattern of its message. Any other AutoconvError, even at the right line, fails the
# test: the docs say that code runs. Keep this list short and each entry tied to the docs.
LIMITS = {
    # "branches give a variable different dtypes, shapes or structures"
    "branches disagree": r"in the if branch .* in the else branch"
    r"|in the true branch .* in the false branch of this conditional expression"
    # (`max()`/`min()` of Tensors are staged choices: docs, "Python values")
    r"|in the true branch .* in the false branch of this `(max|min)\(\)` choice",
    # "a loop changes a variable's dtype"
    "loop changes dtype": r"before an iteration of this `\w+` loop but .* after it"
    r"|changes structure in this `\w+` loop|before this `\w+` loop and .* after an iteration"
    # (the same, for a value whose alternatives a staged statement chose: docs, "a variable that
    # a staged loop changes to a value of another kind where an alternative is a ... tuple")
    r"|before an iteration of this `\w+` loop and .* after it",
    # "a method that does not exist, or an error from autoconv's own code, inside a staged
    # branch": Python's own error of a branch the data may not take, raised while tracing
    "error in a traced branch": r"while tracing a branch of a staged `if`"
    r"|while tracing the body of this staged `\w+` loop",
    "eager NumPy raises too": r"\(eager NumPy raises this too\)",
    # "an argument changed in place in a staged loop"
    "argument changed in place": r"is an argument of the function, so the caller would see"
    r"|changes `[^`]+` in place, and `\w+` is a view of, or the same array as"
    r"|changes `[^`]+` in place, and `\w+` is a loop variable whose value before the loop is"
    r"|is changed in place in this `\w+` loop, and at the end of an iteration it is",
    # "an operation whose NumPy result would have another dtype on each path"
    "kind by path": r"depending on the path taken",
    # "a function or method called in a staged loop or branch changes state ..."
    "state changed in a call": r"changes while this `\w+` (loop )?is traced, in a function",
    # "a raise under a condition known only when the graph runs, inside a try ..."
    "staged raise in try": r"inside the `try` at line \d+ whose `except",
    # "an item of an array assigned with a constant key in a staged loop or branch"
    "constant key": r"is assigned inside a staged branch or loop with a constant key",
    # "an item assigned ... in an array that something else shares"
    "shared array": r"something else also refers to that array|is also reachable through"
    r"|writes into `\w+` in place, and `\w+` is a view of, or the same array as"
    # (docs: "an item assigned ... on an array that another name also holds (`b = a`, ...)")
    r"|writes into `\w+` in place, and `\w+` also refers to that array",
    # "an item of a NumPy array made outside the graph updated at an index known only when the
    # graph runs, with a key the converter leaves as written"
    "call in the key of a NumPy array": r"updates an item of `[\w.]+` at an index known only",
    # "an item of a Python list written at an index known only when the graph runs"
    "list index at run time": r"a Python list or dict needs the index now",
    # "a Tensor used as a Python value outside converted code (... indexing a NumPy array or
    # list with it)"
    "Tensor index into NumPy": r"indexes a NumPy array or a Python list with",
    # "A Tensor cannot become a Python value while tracing" (Limits)
    "Tensor as a Python value": r"as a Python int while tracing|was used as a Python bool",
    # "a tuple appended in a staged loop"
    "tuple appended": r"only arrays and numbers can be appended inside a staged loop",
    # "an operation whose NumPy result would have another dtype on each path"
    "list items of kinds by path": r"has a kind known only when the graph runs",
    # "a while test reads nothing the loop changes"
    "while test unchanged": r"reads nothing that the loop changes",
    # "items of different dtypes, or numbers of dimensions, appended to one list"
    "appends of two kinds": r"in a staged loop or branch must all have the same",
    # "a dict key added in a staged branch or loop on some paths or iterations only"
    "dict key by path": r"is added to its dict in this|is set on some paths only",
    # "a name that holds, after one branch of a staged `if`, a list the branch appended to"
    "list shared on one path": r"a list that the branch appends to",
    # "a staged loop that binds a variable to a new set or dict holding keys known only when
    # the graph runs in each iteration"
    "new keyed container each iteration": r"is bound in this loop to a new (set|dict) holding",
    # "a variable bound in a staged `if` to a run-time set or dict made in a branch and to
    # another one on the other path"
    "keyed container by path": r"is bound in this `if` to a (set|dict) holding keys known only",
    # "a list of lists (or dicts) indexed at a key known only when the graph runs"
    "list of lists at a run-time key": r"holds lists and is indexed at a key known only",
    # "a `defaultdict` or `Counter` (any dict subclass) given a key known only when the graph
    # runs" / "a value known only when the graph runs given to standard-library code that keys
    # it"
    "run-time key of a library dict": r"as a dict key or set member, which needs its value"
    r"|is read at a key known only when the graph runs: only a plain dict",
    # "a list a staged loop appended to, given to library code that reads or changes it item
    # by item (`heapq.heappush(pq, item)` ...)"
    "grown list to library code": r"and it reached code that uses it as a Python list",
    # "an array a function wrote into in place, read where its caller did not get the new
    # array ... and an array a staged loop iterates over that its body changes in place"
    "read after an in-place change": r"reads an array that `[^`]+` \(\S+\) changed in place, "
    r"through another name or a view",
}


@st.composite
def examples(draw):
    """A program, two inputs of its signature and the name of a pass setting."""
    program = draw(programs())
    args = [draw(inputs(program.signature)) for _ in range(2)]
    setting = draw(st.sampled_from([name for name, _ in SETTINGS]))
    return program, args, setting


def _settings():
    ci = bool(os.environ.get("CI"))
    chosen_seed = os.environ.get("AUTOCONV_GRAPH_SEED")
    options = dict(
        max_examples=int(os.environ.get("AUTOCONV_GRAPH_EXAMPLES", 1000)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        derandomize=ci and chosen_seed is None,
    )
    if ci:
        options["database"] = None
    decorate = settings(**options)
    if chosen_seed is not None:
        return lambda test: seed(int(chosen_seed))(decorate(test))
    return decorate


@contextlib.contextmanager
def _time_limit(seconds):
    """Raises TimedOut in the block after `seconds`, and again every 0.1 s after that: an
    exception raised inside a garbage-collector callback (hypothesis installs one) is swallowed,
    and a single alarm would then let a graph that never ends hang the run."""
    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return

    def alarm(signum, frame):
        raise TimedOut(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.1)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# -- what a caller can observe --


def picture(value):
    """A comparable picture of `value`: equal pictures mean the same types, dtypes, shapes and
    bits, all the way down."""
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return (kind.__name__, value)
    if kind is float:
        return ("float", np.float64(value).tobytes())
    if isinstance(value, (np.ndarray, np.generic)):
        return (kind.__name__, value.dtype.str, np.shape(value), np.asarray(value).tobytes())
    if kind in (tuple, list):
        return (kind.__name__, tuple(picture(v) for v in value))
    if kind is dict:
        return ("dict", tuple((k, picture(v)) for k, v in value.items()))
    if kind.__name__ == "Box":
        return ("Box", picture(vars(value)))
    return ("other", kind.__qualname__, repr(value))


def _run(fn, args, seconds=CALL_SECONDS):
    """(`("return", picture, repr)` or `("raise", exception, None)`, printed text, arguments
    afterwards)."""
    args = copy.deepcopy(args)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # overflow and the like warn eagerly and in graphs alike
        try:
            with _time_limit(seconds):
                value = fn(*args)
            result = ("return", picture(value), repr(value))
        except TimedOut:
            result = ("hang", None, None)
        except Exception as e:  # noqa: BLE001 - exceptions are outcomes too
            result = ("raise", e, None)
    return result, out.getvalue(), picture(args)


def _located(e, path, source) -> bool:
    """Whether the message of `e` names `path` and one of its lines."""
    lines = source.count("\n")
    found = re.findall(re.escape(path) + r":(\d+)", str(e))
    return any(1 <= int(n) <= lines for n in found)


def _describe(e) -> str:
    frames = traceback.extract_tb(e.__traceback__)
    own = [f for f in frames if os.path.abspath(f.filename).startswith(AUTOCONV_DIR)]
    at = f" (raised at {own[-1].filename}:{own[-1].lineno})" if own else ""
    return f"{type(e).__name__}: {e}{at}"


def _ints_hidden(picture):
    """`picture` with the values of Python ints left out."""
    if isinstance(picture, tuple):
        if len(picture) == 2 and picture[0] == "int":
            return ("int",)
        return tuple(_ints_hidden(p) for p in picture)
    return picture


def _known(pattern):
    return lambda problem, expected, got, source: re.search(pattern, problem) is not None


def _floats_as_numpy(picture):
    """`picture` with Python floats shown as NumPy float64 scalars of the same bits."""
    if isinstance(picture, tuple):
        if len(picture) == 2 and picture[0] == "float":
            return ("float64", "<f8", (), picture[1])
        return tuple(_floats_as_numpy(p) for p in picture)
    return picture


def _float_became_numpy(problem, expected, got, source):
    """W4: the graph returns a NumPy float64 where eager returns a Python float of the same
    value, in a program that calls a helper returning from inside its loop."""
    values = expected[0][1], got[0][1]
    return (
        ("first_above(" in source or "index_above(" in source)
        and problem.startswith("graph returned")
        and expected[0][0] == "return"
        and _floats_as_numpy(values[0]) == _floats_as_numpy(values[1])
    )


def _python_numbers_as_values(picture):
    """`picture` with Python ints and floats shown as their float values."""
    if isinstance(picture, tuple):
        if len(picture) == 2 and picture[0] == "int":
            return ("number", float(picture[1]))
        if len(picture) == 2 and picture[0] == "float":
            return ("number", float(np.frombuffer(picture[1])[0]))
        return tuple(_python_numbers_as_values(p) for p in picture)
    return picture


# Classes the generator found that break the rule and that the trace core does not fix yet
# (tools/generator_findings.md): each names the strict xfail test of
# tests/graph/test_generator_findings.py that holds its minimal program, and matches the problem
# `_judge` reports. Remove an entry when its test starts to pass.
KNOWN = {
    "B2 object returned": (
        "test_returning_an_object_runs_or_is_a_documented_limit",
        _known(r"^undocumented AutoconvError: .*returns a \w+ object whose attribute"),
    ),
}


def _poor_message(e, path, source) -> str | None:
    """What breaks the rule's promise about messages in the AutoconvError `e` (it names the
    user's variable or construct at the user's line), or None."""
    text = str(e)
    made = re.search(r"`retval\b|Optional <|\bthis list\b|<autoconv\.|ListAccum <", text)
    if made:
        return f"poor message: names the converter's {made.group()!r}: {_describe(e)}"
    lines = source.split("\n")
    cited = {int(n) for n in re.findall(re.escape(path) + r":(\d+)", text)}
    if cited and all(lines[n - 1].startswith("def generated") for n in cited):
        return f"poor message: points at the `def` line: {_describe(e)}"
    return None


def limit_of(e) -> str | None:
    """The documented limit (a key of `LIMITS`) whose message `e` gives, or None."""
    text = str(e)
    for name, pattern in LIMITS.items():
        if re.search(pattern, text):
            return name
    return None


def judge(expected, got, path, source, tally=None):
    """Returns None when `got` follows the rule given the eager `expected`, else what is wrong.
    Both are `_run` results. `tally` (a Counter), when given, counts the limits and the known
    findings met. A problem of a finding in `KNOWN` is let through (its own test holds it)."""
    problem = _judge(expected, got, path, source, tally)
    if problem is None:
        return None
    for finding, (_, matches) in KNOWN.items():
        if matches(problem, expected, got, source):
            if tally is not None:
                tally["known: " + finding] += 1
            return None
    return problem


def _judge(expected, got, path, source, tally):
    (e_result, e_out, e_args), (g_result, g_out, g_args) = expected, got
    kind, value, shown = g_result
    if kind == "hang":
        return "graph call still running after its time limit (a hang)"
    if kind == "raise":
        if e_result[0] == "raise" and isinstance(value, type(e_result[1])):
            return None
        if isinstance(value, autoconv.AutoconvError) and _located(value, path, source):
            limit = limit_of(value)
            if tally is not None and limit is not None:
                tally[limit] += 1
            if limit is None:
                return f"undocumented AutoconvError: {_describe(value)}"
            return _poor_message(value, path, source)
        if isinstance(value, autoconv.AutoconvError):
            return f"AutoconvError without the file and line: {_describe(value)}"
        eager = "raised " + _describe(e_result[1]) if e_result[0] == "raise" else "returned"
        return f"graph raised {_describe(value)}; eager {eager}"
    if e_result[0] == "raise":
        return f"graph returned {shown}; eager raised {_describe(e_result[1])}"
    if value != e_result[1]:
        return f"graph returned\n  {shown}\n  {value}\neager returned\n  {e_result[2]}\n  {e_result[1]}"
    if g_out != e_out:
        return f"printed {g_out!r}, eager printed {e_out!r}"
    if g_args != e_args:
        return f"arguments afterwards\n  {g_args}\neager\n  {e_args}"
    return None


def check(program: Program, args_list, setting: str, folder, tally=None) -> list:
    """Runs `program` eagerly and as a graph on each of `args_list`; returns the problems."""
    original, path = _load(folder, program.source)
    expected = [_run(original, args) for args in args_list]
    for result, _, _ in expected:
        assert result[0] != "hang", f"the generator promised a program that ends\n{program.source}"
    problems = []
    with passes.options(dict(SETTINGS)[setting]):
        graph = autoconv.function(original)
        for i, (args, want) in enumerate(zip(args_list, expected)):
            got = _run(graph, args, TRACE_SECONDS if i == 0 else CALL_SECONDS)
            problem = judge(want, got, path, program.source, tally)
            if problem:
                problems.append(f"inputs {args}: {problem}")
            if got[0][0] == "hang":
                break  # one is enough: waiting again costs time and shows nothing new
            if i == 0 and setting != "all" and isinstance(got[0][1], autoconv.AutoconvError):
                problem = _same_with_all_passes(original, args, got)
                if problem:
                    problems.append(f"inputs {args}: {problem}")
    return problems


def _same_with_all_passes(original, args, got):
    """Results must not depend on the pass settings: an error raised under some setting is
    raised with all passes on too (tracing is the same; only the passes and the code generated
    after them differ). Returns what is wrong, or None."""
    with passes.options(dict(SETTINGS)["all"]):
        default = _run(autoconv.function(original), args, TRACE_SECONDS)
    if default[0][0] == "raise":
        return None
    return f"raises {_describe(got[0][1])}\nbut with all passes on it " + (
        "returns" if default[0][0] == "return" else "hangs"
    )


@pytest.fixture(scope="module")
def program_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("generated_graphs")


@_settings()
@given(example=examples())
def test_generated_graph_follows_the_rule(program_dir, example):
    program, args_list, setting = example
    problems = check(program, args_list, setting, program_dir)
    assert not problems, "\n".join([f"pass setting {setting}", *problems, program.source])


def _sources(examples: int) -> str:
    sources = []

    # (a fixed seed rather than derandomized examples: those explore the first choices of
    # each draw more than the rest, so a rare construct comes and goes as the strategy grows)
    @seed(20261130)
    @settings(max_examples=examples, deadline=None, database=None)
    @given(programs())
    def collect(program):
        sources.append(program.source)

    collect()
    return "\n".join(sources)


# The statements of graph_programs8 that met a finding, by finding: CI does not draw those of
# the findings not fixed yet (graph_programs8.CI_OUT).
LEFT_OUT_IN_CI = {
    "G2": ["list(filter(lambda e: ", "list(map(float, "],
    "G10": ["for i, v in enumerate(", "{int(v) % 3 for v in "],
    "G3": ['parts.append("hi" if ', ".join(parts)"],
    "G4": ["sorted(vals)[", "sorted(vals, reverse=True)[1]", "if vals else "],
    "G5": ["m2[0]["],
    "G8": ["seen.add("],
    # graph_programs9 (tools/generator_hunt9_findings.md)
    "H1": ["heapq.heappush(h, hv)"],
    "H6": ["cnt9[ck] += 1", "dd[ck] += "],
    "H7": ["][0] ", "][1] ", "][-1] "],
    "H8": ["cnt9[int(", "dd[int("],
    "H9": ["q9 = (", "r9 = ("],
}


def test_generator_makes_every_construct(monkeypatch):
    """The strategy really produces what graph_programs' docstring promises (all of it, as the
    hunt and the randomized runs draw: the same examples with CI set or not)."""
    monkeypatch.setattr(graph_programs8, "left_out", frozenset)
    text = _sources(1500)
    # (the fifth and sixth rounds' statements, from programs that have one of their features
    # each: a program has at most one, so they are thin among all programs)
    late = []
    for feature in graph_programs.NEW11 + graph_programs.NEW12:
        monkeypatch.setattr(graph_programs, "LATE", (feature,))
        late.append(_sources(100))
    late = "\n".join(late)
    text += late  # (their other statements count for all)
    for construct in (
        "np.sum(",
        "while ",
        "while True:",
        "while delta > 0.1",
        "bal *= 1 +",
        "for ",
        "in range(k)",
        "in enumerate(",
        "in zip(range(",
        "break",
        "continue",
        "        return ",
        "raise ValueError",
        "best is None or",
        'd["k"] = ',
        "o.v = ",
        "lst.append(",
        "np.stack(lst)",
        "len(lst)",
        "n += 1",
        "u = ",
        "t = 0.5",
        "a += ",
        "autoconv.print(",
        "elif ",
        "else:",
        "k % 2 == 0",
        "helper(",
        ".item()",
        "in range(np.argmax(x), ",
        "delta = np.",
        # the second round's features (graph_programs.NEW)
        "b[0], b[",
        "piv = b[",
        "w = b[1:]",
        "c[",
        "nonlocal calls",
        "bump(",
        "acc.add(",
        "first_above(",
        "index_above(",
        "round(",
        "k + np.float32(p)",
        "abs(",
        "int(",
        "(a > 0).astype(np.int32)",
        "try:",
        "except IndexError:",
        'raise ValueError("negative")',
        "found = None",
        "if found is None",
        "best_i = ",
        "lo, hi = hi, lo",
        "u1, u2 = pair",
        "r0, *rest = ",
        "e0, e1 = ",
        "in enumerate(zip(",
        "w[0] ",  # a write through a view of `b`
        "raise KeyError",  # in a loop of a `try` body
        "cnt[",
        "out.append(",
        "rows.append(",
        "acc2[",
        # the third round's features (graph_programs8.NEW8)
        "m.record(",
        "m.observe(",
        "t = m.mean",
        "sum([u ",
        "sq.values()",
        'lab = lab + ("hi" if ',
        "max(sq.values(), default=",
        "for j in range(k + 1) if j % 2 == 0}",
        "sum(map(abs, ",
        "key=abs)",
        "key=lambda i: ",
        "key=lambda q: q[1])[0]",
        "vals.append(",
        "grid[",
        "sum(r[0] for r in m2)",
        'lab = f"{lab}{len(parts)}:',
        " -= 1",
        # the fourth round's features (graph_programs9.NEW9)
        "heapq.heapify(h)",
        "heapq.heappop(h)",
        "heapq.nsmallest(",
        "cnt9[int(",
        "dd[int(",
        "cnt9.most_common(1)",
        "itertools.accumulate(",
        "itertools.pairwise(",
        "itertools.product(",
        'lab9 = f"{',
        "divmod(",
        "q9 = (",
        "r9 = (",
        "t = round(",
        "abs(k - 3)",
        "while True:",
        "        break\n    else:",
        "t = pick(",
        "hi9, lo9 = split(",
        "if -1 < ",
        "t = int(-1 < ",
    ):
        assert construct in text, construct
    late_constructs = (
        # the fifth round's features (graph_programs11.NEW11)
        "M = np.outer(x, y)",
        "] = min(M[",
        "piv = M[",
        "(m0, *mrest) in enumerate(M)",
        "counts.get(v",
        "in seen11:",
        "in range(3)])",  # a comprehension's variable named as a loop's before it
        " * 0.5 for v",
        "f11 = lambda v",
        "hist.append(hist[-1]",
        "np.array([acc11, acc11])",
        "round(acc11, 2)",
        "rows11.append((",
        "best_val = cur",
        "and start is not None",
        "if st11.step(",
        "hits += int(",
        "sum(1 for v",
        # the sixth round's features (graph_programs12.NEW12)
        ") * 0.5",
        ")) // 2",
        "pow(k, 2)",
        "2 ** -k",
        "np.float32(p) * 1.5",
        "z12 = z12 + (",
        "z12 = True + (",
        "round(float(",
        "if 0 < ",
        "h12 = g12",
        "g12 = g12.copy()",
        "row12 = R12[",
        "w12 = g12[",
        "q12 = np.asarray(g12)",
        "ys12.append(",
        "del xs[",
        "xs.insert(0, ",
        "xs.extend([",
        "xs.sort(",
        "xs.reverse()",
        "xs[0:2] = [",
        "ys12.extend([",
        "ll12[",
        "tick()",
        'Reg12.table["n"] += 1',
        "cn12.note(",
        ") and not (",
        "except KeyError as e:",
        'raise ValueError("wrapped") from e',
        "finally:",
        's12 += f"{v',
        '"-".join(map(str, ',
        "str(int(",
        ", start=1):",
        " in zip(x, y, a):",
        " in reversed(range(len(x))):",
        " in range(len(x) - 1, -1, -1):",
    )
    assert [c for c in late_constructs if c not in late] == []
    for constructs in LEFT_OUT_IN_CI.values():
        for construct in constructs:
            assert construct in text, construct


def test_ci_leaves_out_the_statements_of_open_findings(monkeypatch):
    """With the findings of `graph_programs8.CI_OUT` left out (as in CI), their statements
    are not drawn; every finding left out has its statements listed here."""
    assert set(graph_programs8.CI_OUT) <= set(LEFT_OUT_IN_CI)
    monkeypatch.setattr(graph_programs8, "left_out", lambda: graph_programs8.CI_OUT)
    text = _sources(400)
    assert "seen = set()" in text and "lab = " in text  # (the features are drawn)
    for finding in graph_programs8.CI_OUT:
        for construct in LEFT_OUT_IN_CI[finding]:
            assert construct not in text, construct
