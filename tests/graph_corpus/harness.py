"""Runs a corpus program eagerly and as a graph, call by call, and classifies what differs.

One `autoconv.function` per program is called on all of its inputs in order, so later calls
reuse the traced graphs. Each call is compared with the eager call on its own deep copy of the
inputs: the result (Python type at every level, dtype, shape, bits with NaN equal to NaN), the
text printed (`autoconv.print`), the arguments and the bound object after the call, the global
random state for seeded programs, and the exception type when eager code raises.

Outcomes of a call (the first two are correct):

| outcome | meaning |
| --- | --- |
| `same` | the graph did what eager code did |
| `correct-error` | an `AutoconvError` naming the user's `file:line`, for an `expect="error"` program |
| `wrong-value` | same types, different values, printed text or effects |
| `wrong-type` | a different Python type, dtype, shape or structure; an exception of another type; or |
|              | the user's own `raise`/`assert` firing where eager code returned |
| `hang` | the graph call ran past the time limit |
| `crash` | an exception that is not an `AutoconvError`, raised in autoconv's own code or by an |
|         | ordinary line of the user's code run on a wrong value (not by a `raise` or `assert`) |
| `unexpected-error` | an `AutoconvError` where eager code returned or raised something else |
| `missing-error` | eager code raised; the graph returned |
"""

import contextlib
import copy
import dataclasses
import io
import os
import re
import traceback
import warnings

import numpy as np

import autoconv
from autoconv.graph.variables import Variable
from tests.differential import TimedOut, time_limit
from tests.graph_corpus import HERE

SAME = "same"
CORRECT_ERROR = "correct-error"
WRONG_VALUE = "wrong-value"
WRONG_TYPE = "wrong-type"
HANG = "hang"
CRASH = "crash"
UNEXPECTED = "unexpected-error"
MISSING = "missing-error"
LOWERING = "lowering-error"
OUTCOMES = (SAME, CORRECT_ERROR, WRONG_VALUE, WRONG_TYPE, HANG, CRASH, UNEXPECTED, MISSING)
CORRECT = (SAME, CORRECT_ERROR, LOWERING)
# Which outcome stands for a program whose calls had several: the worst first.
_SEVERITY = (
    HANG,
    CRASH,
    WRONG_VALUE,
    WRONG_TYPE,
    MISSING,
    UNEXPECTED,
    LOWERING,
    CORRECT_ERROR,
    SAME,
)

TIME_LIMIT = 10  # seconds per graph call
_AUTOCONV_DIR = os.path.dirname(os.path.abspath(autoconv.__file__)) + os.sep


@dataclasses.dataclass
class CallResult:
    """What happened on one input: its index, the outcome and a one-line description."""

    index: int
    outcome: str
    detail: str


def worst(results) -> str:
    """The outcome that stands for the whole program."""
    found = {r.outcome for r in results}
    return next(o for o in _SEVERITY if o in found)


def run_program(program, optimize=None, limit=TIME_LIMIT, backend="numpy") -> list:
    """Calls one `autoconv.function(program)` on each input after the eager call; returns a
    `CallResult` per input (stopping after a hang, which leaves the function unusable).
    `backend="jax"` runs the graphs with the JAX backend."""
    options = {"optimize": optimize}
    if backend != "numpy":
        options["backend"] = backend
    ROUNDING[0] = backend == "jax"
    # `raised_from` tells autoconv's crashes from the user's errors by the frames that raised:
    # tracebacks keep autoconv's frames here.
    shown = os.environ.get("AUTOCONV_TRACEBACK")
    os.environ["AUTOCONV_TRACEBACK"] = "full"
    try:
        return _run_program(program, options, limit)
    finally:
        ROUNDING[0] = False
        if shown is None:
            del os.environ["AUTOCONV_TRACEBACK"]
        else:
            os.environ["AUTOCONV_TRACEBACK"] = shown


def _run_program(program, options, limit):
    eager_self = graph_self = None
    eager_fn = graph_target = program.func
    if program.bind is not None:
        eager_self = program.bind()
        graph_self = copy.deepcopy(eager_self)
        eager_fn = program.func.__get__(eager_self)
        graph_target = program.func.__get__(graph_self)
    graph_fn = None
    results = []
    for i, args in enumerate(program.inputs):
        seed = None if program.seed is None else program.seed + i
        eager = _call(eager_fn, copy.deepcopy(args), eager_self, seed, 60)
        if eager.kind == "hang":
            raise AssertionError(f"{program.id}: the eager call on input {i} does not end")
        if graph_fn is None:
            graph = _call(lambda *a: autoconv.function(graph_target, **options), (), None, None, 60)
            if graph.kind != "return":
                results.append(CallResult(i, *classify(program, eager, graph)))
                break
            graph_fn = graph.value
        graph = _call(graph_fn, copy.deepcopy(args), graph_self, seed, limit)
        results.append(CallResult(i, *classify(program, eager, graph)))
        if graph.kind == "hang":
            break
        if graph_self is not None and graph.kind == "raise" and eager.kind != "raise":
            break  # the bound objects' states differ from here on: no fair comparison left
    return results


@dataclasses.dataclass
class _Side:
    kind: str  # "return", "raise" or "hang"
    value: object  # the result, or the exception
    stdout: str
    after: object  # picture of the arguments, the bound object, the random state after the call


def _call(fn, args, bound, seed, limit) -> _Side:
    # A loaded function draws from generators of its own, never NumPy's global one.
    generators = getattr(fn, "generators", None)
    numpy_generator = np.random if generators is None else generators.numpy
    if seed is not None:
        np.random.seed(seed)
        if generators is not None:
            generators.seed(seed)
    out = io.StringIO()
    kind = "return"
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy's RuntimeWarnings, retracing warnings
        try:
            with time_limit(limit):
                value = fn(*args)
        except TimedOut as e:
            kind, value = "hang", e
        except Exception as e:  # noqa: BLE001 - every exception is an observable outcome
            kind, value = "raise", e
    state = numpy_generator.get_state() if seed is not None else None
    return _Side(kind, value, out.getvalue(), picture((args, bound, state)))


def classify(program, eager: _Side, graph: _Side) -> tuple:
    """`(outcome, detail)` of one call."""
    if graph.kind == "hang":
        return HANG, f"graph call {graph.value}"
    if graph.kind == "raise" and not (
        eager.kind == "raise" and isinstance(graph.value, type(eager.value))
    ):
        was = "returned" if eager.kind == "return" else f"raised {_exc(eager.value)}"
        return _raised(program, graph.value, f"eager {was}")
    if eager.kind == "raise" and graph.kind == "return":
        return MISSING, f"eager raised {_exc(eager.value)}; graph returned {_short(graph.value)}"
    if eager.kind == "return":
        found = diff(picture(eager.value), picture(graph.value), "result")
        if found:
            return found
    if graph.stdout != eager.stdout:
        return WRONG_VALUE, f"printed {graph.stdout!r:.120}, eager printed {eager.stdout!r:.120}"
    found = diff(eager.after, graph.after, "after the call")
    if found:
        return found
    return SAME, ""


def _raised(program, exc, context) -> tuple:
    text = f"graph raised {_exc(exc)}; {context}"
    if type(exc).__name__ == "LoweringError" and located(str(exc), program.path):
        return LOWERING, text
    if isinstance(exc, autoconv.AutoconvError):
        if program.expect == "error" and located(str(exc), program.path):
            return CORRECT_ERROR, text
        if program.expect == "error":
            return UNEXPECTED, "no user file:line in the message: " + text
        return UNEXPECTED, text
    where, frame = raised_from(exc)
    if where == "user" and (frame.line or "").lstrip().startswith(("raise", "assert")):
        return WRONG_TYPE, text  # the user's own raise or assert, on a path eager code did not take
    at = f" (at {os.path.basename(frame.filename)}:{frame.lineno})" if frame else ""
    return CRASH, text + at


def located(message: str, path: str) -> bool:
    """Whether an error message names the user's file (`.../graph_corpus/mod.py`) and a line."""
    tail = os.path.join(os.path.basename(os.path.dirname(path)), os.path.basename(path))
    return re.search(re.escape(tail) + r"\"?(:|, line )\d+", message) is not None


def raised_from(exc):
    """`("autoconv" | "user" | "other", frame)`: the innermost traceback frame in autoconv's
    own code (or code it generated) or in the corpus."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        name = frame.filename
        if name.startswith("<autoconv") or os.path.abspath(name).startswith(_AUTOCONV_DIR):
            return "autoconv", frame
        if os.path.abspath(name).startswith(HERE + os.sep) and not name.endswith("harness.py"):
            return "user", frame
    return "other", None


# -- pictures: what a caller can observe of a value, as nested tuples --

_CONTAINER = "container"


class _Leaf:
    """A compared key with a short text for messages; equal when the keys are equal."""

    def __init__(self, key, shown, raw=None):
        self.key, self.shown, self.raw = key, shown, raw

    def __eq__(self, other):
        return isinstance(other, _Leaf) and self.key == other.key

    def __repr__(self):
        return self.shown


def picture(value, _seen=frozenset()):
    """`(type tag, type details, payload)`: payload is a `_Leaf` or, for containers, a tuple of
    `(label, picture)`. Equal pictures mean equal types at every level and equal bits."""
    kind = type(value)
    if value is None or kind in (bool, int, str, bytes):
        return (kind.__name__, None, _Leaf(value, _short(value)))
    if kind in (float, complex):
        key = "nan" if value != value else repr(value)  # -0.0 and 0.0 differ; NaN equals NaN
        return (kind.__name__, None, _Leaf(key, repr(value), np.array(value)))
    if isinstance(value, (np.ndarray, np.generic)):
        arr = np.array(value, copy=True)
        tag = "ndarray" if kind is np.ndarray else kind.__name__
        details = (arr.dtype.str, arr.shape)
        if arr.dtype.kind == "O":
            children = tuple((str(i), picture(v, _seen)) for i, v in enumerate(arr.ravel()))
            return (tag, details, (_CONTAINER, children))
        if arr.dtype.kind in "fc":
            arr[np.isnan(arr)] = np.nan
            return (tag, details, _Leaf(arr.tobytes(), _short(value), arr))
        return (tag, details, _Leaf(arr.tobytes(), _short(value)))
    if isinstance(value, Variable):
        return ("Variable", None, (_CONTAINER, (("value", picture(value.numpy(), _seen)),)))
    if isinstance(value, np.random.Generator):
        state = value.bit_generator.state
        return ("Generator", state["bit_generator"], _Leaf(repr(state), "<Generator>"))
    if isinstance(value, BaseException):
        return ("exception", kind.__name__, _Leaf(str(value), _short(value)))
    if callable(value) and not hasattr(value, "__dict__") or isinstance(value, type):
        return ("callable", getattr(value, "__qualname__", repr(value)), _Leaf(None, ""))
    if id(value) in _seen:
        return ("cycle", kind.__qualname__, _Leaf(None, "..."))
    _seen = _seen | {id(value)}
    if isinstance(value, (list, tuple)):
        children = tuple((str(i), picture(v, _seen)) for i, v in enumerate(value))
        return (kind.__qualname__, len(value), (_CONTAINER, children))
    if isinstance(value, dict):
        children = tuple((repr(k), picture(v, _seen)) for k, v in value.items())
        return (kind.__qualname__, tuple(repr(k) for k in value), (_CONTAINER, children))
    if isinstance(value, (set, frozenset)):
        return (kind.__name__, None, _Leaf(sorted(map(repr, value)), _short(value)))
    if callable(value) and type(value).__name__ in ("function", "method"):
        return ("callable", getattr(value, "__qualname__", repr(value)), _Leaf(None, ""))
    state = getattr(value, "__dict__", None)
    if state is not None and kind.__module__ != "builtins":
        names = tuple(sorted(state))
        children = tuple((f".{n}", picture(state[n], _seen)) for n in names)
        return (f"object {kind.__qualname__}", names, (_CONTAINER, children))
    return (f"opaque {kind.__module__}.{kind.__qualname__}", None, _Leaf(None, _short(value)))


def diff(expected, got, path: str):
    """`(outcome, detail)` for the first difference of two pictures, or None."""
    if expected[:2] != got[:2]:
        return WRONG_TYPE, f"{path}: {_kind(got)}, eager gives {_kind(expected)}"
    e, g = expected[2], got[2]
    if isinstance(e, _Leaf):
        if e == g or ROUNDING[0] and _rounding_apart(e.raw, g.raw):
            return None
        return WRONG_VALUE, f"{path}: {g!r}, eager gives {e!r}"
    for (label, a), (_, b) in zip(e[1], g[1]):
        found = diff(a, b, f"{path}[{label}]" if not label.startswith(".") else path + label)
        if found:
            return found
    return None


# Set (by `run_program(..., backend="jax")`) while comparing XLA's results: floats then agree
# when they differ by rounding only (XLA orders sums and fuses multiply-adds differently).
ROUNDING = [False]


def _rounding_apart(a, b) -> bool:
    if a is None or b is None or a.shape != b.shape:
        return False
    rtol = 1e-9 if a.dtype.itemsize >= 8 and a.dtype.kind == "f" or a.dtype.itemsize >= 16 else 1e-4
    return bool(np.allclose(a, b, rtol=rtol, atol=rtol * 1e-3, equal_nan=True))


def _kind(pic) -> str:
    tag, details, payload = pic
    if tag == "ndarray" or details and isinstance(details, tuple) and len(details) == 2:
        if isinstance(details[0], str) and isinstance(details[1], tuple):
            return f"{tag} {np.dtype(details[0]).name}{list(details[1])}"
    if isinstance(payload, _Leaf) and tag in ("int", "float", "bool", "complex", "NoneType"):
        return f"{tag} {payload!r}"
    return tag if details is None else f"{tag} {_short(details)}"


def _exc(e) -> str:
    return f"{type(e).__name__}: {_short(str(e), 300)}"


def _short(value, limit=80) -> str:
    text = value if isinstance(value, str) else repr(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def summary(results) -> str:
    """One line per call that went wrong."""
    return "\n".join(
        f"  input {r.index}: {r.outcome}: {r.detail}" for r in results if r.outcome not in CORRECT
    )
