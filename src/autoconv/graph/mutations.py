"""Effects of a traced function on its arguments: found after the trace, repeated on each run.

Eagerly, `params["w"] = params["w"] - g` changes the caller's dict. While tracing, the function
changes the copies of its arguments' containers that hold its placeholders. `snapshot` records
the containers and objects reachable from the arguments before the trace; `changes` compares
after it, undoes what the trace did to the user's own objects (no Tensor is left on them), and
returns the write-backs: each changed container item becomes an extra output of the graph, and
`apply` stores it into the caller's containers after every run, as eager code would.

Object attributes (and containers reached through objects) are read while tracing, as
constants. A function that changes one that existed before would read a stale value on its
next call, so that is an error that says to use an `autoconv.Variable`; setting a new attribute
is written back.
"""

from __future__ import annotations

import types

import numpy as np

from autoconv.graph.errors import StagingError
from autoconv.graph.optionals import Optional
from autoconv.graph.variables import Variable

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
        from autoconv.graph.tensor import Tensor
        from autoconv.graph.variables import Variable

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

    def changes(self, origin_of) -> list:
        """The write-backs `(kind, path, value)`; restores the user's objects as they were."""
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
                if via_object and k in before:
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
        if problems:
            path, before = problems[0]
            raise StagingError(
                f"{origin_of()}: this function changes `{describe(path)}`, which it reads while "
                "being traced: the graph would keep the value it had then, and later calls "
                "would not see the update. Keep it in an autoconv.Variable "
                "(`.assign(...)` to update it), or pass it in and return the new value."
            )
        return out


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
