"""Effects of a traced function on its arguments: found after the trace, repeated on each run.

Eagerly, `params["w"] = params["w"] - g` changes the caller's dict. While tracing, the function
changes the copies of its arguments' containers that hold its placeholders. `snapshot` records
the containers and objects reachable from the arguments before the trace; `changes` compares
after it, undoes what the trace did to the user's own objects (no Tensor is left on them), and
returns the write-backs: each changed container item becomes an extra output of the graph, and
`apply` stores it into the caller's containers after every run, as eager code would.

Object attributes (and containers reached through objects) are read while tracing, as
constants. When the function changes one that holds an array or a number (`self.w = self.w -
lr * g`, `self.steps += 1`), the function is traced again with it as a graph input, read from
the object on every call and stored back after it (`StateNeeded`). Changing one that holds
anything else (None, a string, an object) would leave the graph reading a stale value: an error
that says what to do. A new attribute is written back.
"""

from __future__ import annotations

import types

import numpy as np

from autoconv.graph.errors import StagingError
from autoconv.graph.tensor import Tensor
from autoconv.graph.variables import Variable
from autoconv.trace.tensors.optionals import Optional

_LEAVES = (str, bytes, int, float, complex, bool, type(None), np.ndarray, np.generic)
_OPAQUE = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType, types.MethodType)
_DEPTH = 4


class Snapshot:
    """What the arguments held before the trace: `(path, container, copy, via_object)`."""

    def __init__(self, values, names, bound=None):
        self.entries: list = []
        seen: set = set()
        if bound is not None:  # the instance of a method: index None
            self._walk(bound, ((None, "self"),), True, seen, 0)
        for i, value in enumerate(values):
            self._walk(value, ((i, names[i]),), False, seen, 0)

    def _walk(self, value, path, via_object, seen, depth):
        if depth > _DEPTH or isinstance(value, (_LEAVES, Tensor, Variable, _OPAQUE)):
            return
        if id(value) in seen:
            return
        seen.add(id(value))
        t = type(value)
        if t is dict:
            self.entries.append((path, value, dict(value), via_object))
            for k, v in value.items():
                self._walk(v, (*path, ("item", k)), via_object, seen, depth + 1)
        elif t is list:
            self.entries.append((path, value, list(value), via_object))
            for k, v in enumerate(value):
                self._walk(v, (*path, ("item", k)), via_object, seen, depth + 1)
        elif isinstance(value, tuple):
            for k, v in enumerate(value):
                self._walk(v, (*path, ("item", k)), via_object, seen, depth + 1)
        elif isinstance(getattr(value, "__dict__", None), dict) and t.__module__ != "builtins":
            attrs = vars(value)
            self.entries.append((path, value, dict(attrs), True))
            for k, v in list(attrs.items()):
                self._walk(v, (*path, ("attr", k)), True, seen, depth + 1)

    def restore(self) -> None:
        """Undoes what a failed trace did to the user's own objects."""
        for _, container, before, via_object in self.entries:
            if via_object:
                now = container if type(container) in (dict, list) else vars(container)
                if type(now) is list:
                    now[:] = before
                else:
                    now.clear()
                    now.update(before)

    def changes(self, origin_of, state=()) -> list:
        """The write-backs `(kind, path, value)`; restores the user's objects as they were.
        `state`: attribute paths read as graph inputs (see `StateNeeded`), stored back freely."""
        out = []
        problems = []
        for path, container, before, via_object in self.entries:
            is_object = type(container) not in (dict, list)
            now = vars(container) if is_object else container
            if type(now) is list:
                if len(now) != len(before) or any(a is not b for a, b in zip(now, before)):
                    if via_object:
                        problems.append((path, None))
                        now[:] = before
                    else:
                        out.append(("list", path, list(now)))
                continue
            changed = [k for k in now if k not in before or now[k] is not before[k]]
            removed = [k for k in before if k not in now]
            accessor = "attr" if is_object else "item"
            # A Variable made by the trace (`self.v = Variable(...)`, the lazy-state idiom)
            # stays: it is the state that later calls update (see variables.py).
            kept = {k: now[k] for k in changed if isinstance(now[k], Variable)}
            changed = [k for k in changed if k not in kept]
            for k in changed:
                value = now[k]
                if via_object and k in before and (*path, (accessor, k)) not in state:
                    problems.append(((*path, (accessor, k)), before[k]))
                    continue
                if isinstance(value, Optional) and value.missing is not None:
                    # Set on some paths only: stored where set, left absent elsewhere.
                    out.append(("maybe", (*path, (accessor, k)), (value.flag, value.value)))
                else:
                    out.append(("set", (*path, (accessor, k)), value))
            for k in removed:
                out.append(("del", (*path, (accessor, k)), None))
            if via_object:
                now.clear()
                now.update(before)
                now.update(kept)
        numeric = [path for path, before in problems if state_spec(before) is not None]
        if problems and len(numeric) == len(problems):
            raise StateNeeded(numeric)
        if problems:
            path, before = next(p for p in problems if state_spec(p[1]) is None)
            raise StagingError(
                f"{origin_of()}: this function changes `{describe(path)}`, which held "
                f"{_what(before)} when it was traced; a graph reads such an attribute once, "
                "while tracing (attributes holding arrays or numbers are read on every call "
                "instead). Give it an array or number before the first call, keep it in an "
                "autoconv.Variable (`.assign(...)` to update it), or pass it in and return the "
                "new value."
            )
        return out


class StateNeeded(Exception):
    """The traced function changes attributes of an object that hold arrays or numbers
    (`self.w = self.w - lr * g`, `self.steps += 1`): trace again with them as graph inputs,
    read from the object on every call and stored back after it."""

    def __init__(self, paths):
        super().__init__()
        self.paths = paths


def state_spec(value):
    """`(shape, dtype, weak)` of an attribute value a graph can take as an input, else None."""
    if type(value) in (bool, int, float, complex):
        return ((), np.asarray(value).dtype if type(value) is not int else np.dtype(np.int64), True)
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype.kind in "biufc":
        return (tuple(value.shape), value.dtype, False)
    return None


def read(path, values, bound=None):
    """The value at `path` among the call's arguments `values` (or a method's instance)."""
    (index, _), *rest = path
    target = bound if index is None else values[index]
    for kind, key in rest:
        target = getattr(target, key) if kind == "attr" else target[key]
    return target


def put(path, values, bound, value) -> None:
    """Stores `value` at `path` (see `read`)."""
    (index, _), *rest = path
    target = bound if index is None else values[index]
    for kind, key in rest[:-1]:
        target = getattr(target, key) if kind == "attr" else target[key]
    kind, key = rest[-1]
    if kind == "attr":
        setattr(target, key, value)
    else:
        target[key] = value


def _what(value) -> str:
    return "None" if value is None else f"a {type(value).__name__}"


def describe(path) -> str:
    (_, name), *rest = path
    text = name
    for kind, key in rest:
        text += f".{key}" if kind == "attr" else f"[{key!r}]"
    return text


def apply(writebacks, values, results, bound=None) -> None:
    """Repeats the write-backs on the caller's arguments `values` (and a method's instance
    `bound`), with the run's results."""
    for (kind, path), result in zip(writebacks, results):
        (index, _), *rest = path
        target = bound if index is None else values[index]
        for step_kind, key in rest[:-1] if rest else ():
            target = getattr(target, key) if step_kind == "attr" else target[key]
        if kind == "list":
            if rest:
                step_kind, key = rest[-1]
                target = getattr(target, key) if step_kind == "attr" else target[key]
            target[:] = result
            continue
        step_kind, key = rest[-1]
        if kind == "maybe":
            flag, result = result
            kind = "set" if flag else "del"
            if not flag and (
                not hasattr(target, key) if step_kind == "attr" else key not in target
            ):
                continue
        if kind == "del":
            if step_kind == "attr":
                delattr(target, key)
            else:
                del target[key]
        elif step_kind == "attr":
            setattr(target, key, result)
        else:
            target[key] = result
