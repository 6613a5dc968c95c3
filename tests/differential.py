"""Differential testing: run a function and its converted form on the same inputs and compare
everything Python lets a caller observe.

Compared for each call: the result (value and type, deeply), the exception (type, message, its
cause and context, and the user's line it was raised from), what was printed, the arguments after
the call (each side gets its own deep copy), and optionally some outside state (`observe`).

Corpus modules register inputs next to each function:

    @cases((1,), (0,), call(2, flag=True))
    def f(x, flag=False): ...

    add_cases(Counter.bump, (Counter(), 3))           # methods, lambdas, bound methods

A case is a tuple of positional arguments, a `call(...)` (keywords too), or a `seq(...)` of calls
made one after the other on the same function (for state shared across calls, such as a mutable
default). `reset` runs before each side so both start from the same outside state.
"""

import contextlib
import copy
import dataclasses
import inspect
import io
import math
import os
import re
import signal
import threading
import traceback
import types
import warnings
from unittest import mock

import autoconv
from autoconv import ConversionWarning

CORPUS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


@dataclasses.dataclass(frozen=True)
class Call:
    args: tuple = ()
    kwargs: dict = dataclasses.field(default_factory=dict)

    def __repr__(self):
        parts = [_short(a) for a in self.args]
        parts += [f"{k}={_short(v)}" for k, v in self.kwargs.items()]
        return ", ".join(parts)


@dataclasses.dataclass(frozen=True)
class Seq:
    calls: tuple

    def __repr__(self):
        return " ; ".join(repr(c) for c in self.calls)


def call(*args, **kwargs) -> Call:
    return Call(args, kwargs)


def seq(*calls) -> Seq:
    return Seq(tuple(_as_call(c) for c in calls))


@dataclasses.dataclass
class Entry:
    """One function of the corpus with its inputs and expectations."""

    target: object  # what `autoconv.convert` receives
    cases: list
    name: str
    module: str
    reset: object = None
    observe: object = None
    warns: str = None  # regex of a ConversionWarning that conversion or the call must emit
    warns_once: str = None  # a warning emitted only the first time in a process (callee)
    converted: bool = True  # whether `convert` is expected to return a converted function


REGISTRY: list = []


def cases(*inputs, **options):
    """Decorator registering `inputs` for the decorated function (see `add_cases`)."""

    def register(func):
        add_cases(func, *inputs, **options)
        return func

    return register


def add_cases(target, *inputs, name=None, **options) -> None:
    func = _innermost(target)
    module = func.__module__.rpartition(".")[2]
    REGISTRY.append(
        Entry(target, [_as_case(i) for i in inputs], name or func.__qualname__, module, **options)
    )


def _innermost(obj):
    while isinstance(obj, (types.MethodType, staticmethod, classmethod)):
        obj = obj.__func__
    return obj


def _as_call(case) -> Call:
    if isinstance(case, Call):
        return case
    if isinstance(case, tuple):
        return Call(case, {})
    raise TypeError(f"a case is a tuple of arguments, call(...) or seq(...), got {case!r}")


def _as_case(case):
    return case if isinstance(case, Seq) else _as_call(case)


def params(modules) -> list:
    """pytest parameters `(entry, case)` with ids `module.function[args]`, for the entries
    registered by `modules`."""
    import pytest

    wanted = {m.__name__.rpartition(".")[2] for m in modules}
    out, seen = [], set()
    for entry in REGISTRY:
        if entry.module not in wanted:
            continue
        for case in entry.cases:
            base = f"{entry.module}.{entry.name}[{case!r}]"
            ident, n = base, 1
            while ident in seen:
                n += 1
                ident = f"{base}#{n}"
            seen.add(ident)
            out.append(pytest.param(entry, case, id=ident))
    return out


# -- running --


@dataclasses.dataclass
class Outcome:
    results: list  # per call: ("return", snapshot) or ("raise", exception summary)
    stdout: str
    arguments: list  # per call: snapshot of the arguments after the call
    observed: object


class TimedOut(BaseException):
    """A call ran past its time limit."""


@contextlib.contextmanager
def time_limit(seconds):
    """Raises TimedOut in the block after `seconds` (in the main thread, where SIGALRM exists),
    so that converted code that never ends fails its test instead of hanging the run."""
    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return

    def alarm(signum, frame):
        raise TimedOut(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run(fn, case, reset=None, observe=None) -> Outcome:
    """Runs `case` against `fn` with fresh deep copies of its arguments."""
    calls = case.calls if isinstance(case, Seq) else (case,)
    calls = copy.deepcopy(calls)
    if reset is not None:
        reset()
    out = io.StringIO()
    results, arguments = [], []
    with contextlib.redirect_stdout(out):
        for c in calls:
            try:
                with time_limit(10):
                    value = fn(*c.args, **c.kwargs)
                    if inspect.isgenerator(value):
                        value = list(value)  # inside the capture: the body prints as it runs
                results.append(("return", snapshot(value)))
            except TimedOut as e:
                results.append(("timed out", str(e)))
            except Exception as e:  # noqa: BLE001 - every exception is an observable result
                results.append(("raise", exception_summary(e)))
            arguments.append(snapshot((c.args, c.kwargs)))
    observed = snapshot(observe()) if observe is not None else None
    return Outcome(results, out.getvalue(), arguments, observed)


def convert(entry):
    """`autoconv.convert(entry.target)`, checked to be (or not be) a converted function."""
    converted = autoconv.convert(entry.target)
    inner = _innermost(converted)
    original = _innermost(entry.target)
    if entry.converted:
        assert getattr(inner, "__autoconv_original__", None) is original, (
            f"{entry.name} was not converted"
        )
    else:
        assert inner is original, f"{entry.name} was expected to stay Python"
    return converted


def check(entry, case) -> None:
    """Asserts that `entry.target` and its converted form behave the same on `case`: in the
    default mode (the original's statements run outside traces) and in the always-converted
    mode (the functional form runs, with the conversion's warnings)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConversionWarning)  # a frame reader warns at conversion
        _compare(*_both(entry, case))
    saved = autoconv.always_converted()
    autoconv.set_always_converted(True)
    try:
        _check_converted(entry, case)
    finally:
        autoconv.set_always_converted(saved)


def _check_converted(entry, case) -> None:
    import pytest

    if entry.warns is not None:
        with pytest.warns(ConversionWarning, match=entry.warns):
            expected, got = _both(entry, case)
    else:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            expected, got = _both(entry, case)
        messages = [str(w.message) for w in caught if issubclass(w.category, ConversionWarning)]
        if entry.warns_once is not None:
            messages = [m for m in messages if not re.search(entry.warns_once, m)]
        assert messages == [], "unexpected ConversionWarning"
    _compare(expected, got)


def _compare(expected, got) -> None:
    assert got.stdout == expected.stdout, "printed output differs"
    assert got.results == expected.results, "results or exceptions differ"
    assert got.arguments == expected.arguments, "arguments after the call differ"
    assert got.observed == expected.observed, "outside state differs"


def _both(entry, case):
    expected = run(entry.target, case, entry.reset, entry.observe)
    got = run(convert(entry), case, entry.reset, entry.observe)
    return expected, got


def exception_summary(e: BaseException) -> tuple:
    """What a caller can see of an exception: type, message, where in the user's code it was
    raised, and (as type and message) the chained exception its traceback shows."""
    shown = e.__cause__ if e.__cause__ is not None or e.__suppress_context__ else e.__context__
    return type(e), str(e), user_location(e), _brief(shown)


def _brief(e):
    return None if e is None else (type(e), str(e))


def user_location(e: BaseException, folder=None):
    """(file name, line) of the innermost traceback frame in `folder` (default: the test
    folder, this file excepted).

    CPython 3.11 may report an unbound local on the line of the statement before (a
    superinstruction such as STORE_FAST__LOAD_FAST, once the code is specialised, raises at the
    offset of its first half). When the reported line does not mention the unbound name, the
    line is `mock.ANY`: the original's own line cannot be trusted there.
    """
    folder = folder or os.path.dirname(os.path.abspath(__file__))
    frames = [
        f
        for f in traceback.extract_tb(e.__traceback__)
        if os.path.abspath(f.filename).startswith(folder + os.sep)
        and os.path.basename(f.filename) != "differential.py"
    ]
    if not frames:
        return None
    frame = frames[-1]
    named = re.search(r"variable '(\w+)'|name '(\w+)'", str(e))
    name = named and (named[1] or named[2])
    if isinstance(e, NameError) and name and not re.search(rf"\b{name}\b", frame.line or ""):
        return os.path.basename(frame.filename), mock.ANY
    return os.path.basename(frame.filename), frame.lineno


def snapshot(value, _seen=None):
    """A comparable picture of `value`: equal pictures mean equal values of the same types, down
    to the elements and to the attributes of plain objects."""
    if _seen is None:
        _seen = set()
    kind = type(value)
    if value is None or kind in (bool, int, str, bytes, complex, type(Ellipsis)):
        return (kind.__name__, value)
    if kind is float:
        return ("float", "nan" if math.isnan(value) else value)
    if isinstance(value, (type, types.FunctionType, types.BuiltinFunctionType)):
        return ("callable", getattr(value, "__qualname__", repr(value)))
    if id(value) in _seen:
        return ("cycle", kind.__name__)
    _seen = _seen | {id(value)}
    if isinstance(value, (list, tuple)):
        return (kind.__name__, tuple(snapshot(v, _seen) for v in value))
    if isinstance(value, dict):
        return (
            kind.__name__,
            tuple((snapshot(k, _seen), snapshot(v, _seen)) for k, v in value.items()),
        )
    if isinstance(value, (set, frozenset)):
        return (kind.__name__, tuple(sorted(repr(snapshot(v, _seen)) for v in value)))
    if isinstance(value, types.MethodType):
        return ("method", value.__func__.__qualname__, snapshot(value.__self__, _seen))
    if isinstance(value, BaseException):
        return ("exception", kind.__name__, str(value))
    state = getattr(value, "__dict__", None)
    if state is not None and kind.__module__ != "builtins":
        return ("object", kind.__qualname__, snapshot(dict(state), _seen))
    slots = [s for cls in kind.__mro__ for s in getattr(cls, "__slots__", ())]
    if slots:
        return (
            "object",
            kind.__qualname__,
            tuple((s, snapshot(getattr(value, s, "<unset>"), _seen)) for s in slots),
        )
    return ("opaque", kind.__qualname__)


def _short(value, limit=30) -> str:
    text = repr(value)
    text = re.sub(r" at 0x[0-9a-f]+", "", text)
    text = re.sub(r"<(?:\w+\.)*(\w+) object>", r"\1()", text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def corpus_modules():
    """The corpus modules, imported (which registers their entries)."""
    import importlib

    names = sorted(
        f[:-3] for f in os.listdir(CORPUS_DIR) if f.endswith(".py") and not f.startswith("_")
    )
    return [importlib.import_module(f"tests.corpus.{n}") for n in names]
