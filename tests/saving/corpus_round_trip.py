"""Shared by the corpus round-trip tests: trace a corpus program, save it, load it, and call
the original `Function`, the loaded function and the eager function on the same inputs."""

import copy
import os

import numpy as np

import autoconv
from autoconv.functions.saving import SaveError
from tests.graph_corpus import programs
from tests.graph_corpus.harness import _call, diff, picture

PROGRAMS = [p for p in programs() if p.bind is None]


def canonical(value):
    """A JSON-able picture of a result: Python types, dtypes, shapes and bits."""
    if isinstance(value, np.ndarray):
        return ["ndarray", value.dtype.str, list(value.shape), value.tobytes().hex()]
    if isinstance(value, np.generic):
        return ["np", value.dtype.str, value.tobytes().hex()]
    if isinstance(value, float):
        return ["float", value.hex()]
    if isinstance(value, (bool, int, str, type(None))):
        return [type(value).__name__, value]
    if isinstance(value, complex):
        return ["complex", value.real.hex(), value.imag.hex()]
    if isinstance(value, dict):
        return ["dict", [[repr(k), canonical(v)] for k, v in value.items()]]
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):
        return ["namedtuple", type(value).__name__, [canonical(v) for v in value]]
    if isinstance(value, (tuple, list)):
        return [type(value).__name__, [canonical(v) for v in value]]
    if isinstance(value, BaseException):
        return ["raise", type(value).__name__]
    return ["other", type(value).__name__]


def trace_and_save(program, path, optimize=None):
    """Calls a Function of `program` on all its inputs (tracing them), then saves it.
    Returns the Function, or the SaveError / AutoconvError that stopped it."""
    f = autoconv.function(program.func, optimize=optimize)
    f.untraced = set()  # inputs whose trace raised: no graph of theirs is saved
    for i, args in enumerate(program.inputs):
        count = f.tracing_count
        side = _call(f, copy.deepcopy(args), None, _seed(program, i), 30)
        if side.kind == "raise" and isinstance(side.value, autoconv.AutoconvError):
            return side.value
        if side.kind == "raise" and f.tracing_count == count and _is_new(f, args):
            f.untraced.add(i)
    try:
        f.save(path)
    except SaveError as e:
        return e
    return f


def _is_new(f, args) -> bool:
    from autoconv.graph import signature as sig

    key = sig.flatten(f._canonical(args, {}), [])
    return not any(sig.covers(c.key, key) for c in f._concretes)


def _seed(program, i):
    return None if program.seed is None else program.seed + i


def sides(program, fn):
    """What `fn` did on each input: result or exception, printed text, arguments after."""
    out = []
    for i, args in enumerate(program.inputs):
        out.append(_call(fn, copy.deepcopy(args), None, _seed(program, i), 30))
    return out


def compare(expected, got, untraced=()) -> str | None:
    """None when the two sides did the same thing, else what differs. On an input whose trace
    raised (`untraced`), the loaded function has no graph: it must raise the same error or a
    TypeError saying no saved signature matches."""
    for i, (a, b) in enumerate(zip(expected, got)):
        if i in untraced and b.kind == "raise" and "runs only its saved signatures" in str(b.value):
            continue
        if a.kind != b.kind:
            return f"input {i}: {a.kind} {a.value!r:.80} vs {b.kind} {b.value!r:.80}"
        if a.kind == "raise":
            if type(a.value).__name__ != type(b.value).__name__:
                return f"input {i}: raised {a.value!r:.80} vs {b.value!r:.80}"
        else:
            d = diff(picture(a.value), picture(b.value), "result")
            if d is not None:
                return f"input {i}: {d}"
        if a.stdout != b.stdout:
            return f"input {i}: printed {a.stdout!r:.80} vs {b.stdout!r:.80}"
        d = diff(a.after, b.after, "arguments after")
        if d is not None:
            return f"input {i}: {d}"
    return None


HERE = os.path.dirname(os.path.abspath(__file__))
