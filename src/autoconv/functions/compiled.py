"""`CompiledGraph`: a graph compiled for one input signature, as a `ConcreteFunction` and a
`LoadedFunction`'s saved signatures hold it.

It holds the signature's key, the graph, the backend's program and the stores into the
arguments (`graph.mutations`); it checks and converts a call's arguments against the key
(`leaves`), runs the program with its errors re-made to name the user's line (`run`), stores
into the arguments (`store`), and is what the fast path's guards call (`dispatch.make`:
`_fn`, `_raise`, `writebacks`, `_objects`). Building the program is the caller's: the IR
imports no backend.
"""

from __future__ import annotations

import numpy as np

from autoconv.functions.writebacks import apply as apply_writebacks
from autoconv.graph import signature as sig
from autoconv.graph.origin import SavedOrigin
from autoconv.graph.signature import TensorSpec
from autoconv.graph.tensor import Tensor
from autoconv.tracebacks import end_at_user_line


class CompiledGraph:
    """`key`, `graph` and its compiled `_program` (`_fn` runs it); `writebacks`: the
    `(kind, path)` of each store into the arguments, taken from the extra outputs."""

    def __init__(self, key, graph, program, writebacks=()):
        self.key = key
        self.graph = graph
        self._program = program
        self._fn = program.fn
        self.writebacks = list(writebacks)
        # id -> a callable returning an object the key holds by identity (the guards ask)
        self._objects: dict = {}

    @property
    def code(self) -> str:
        """The generated Python source that executes the graph (its optimized form)."""
        return self._program.source

    @property
    def structured_outputs(self):
        return self.graph.outputs[0] if self.writebacks else self.graph.outputs

    def leaves(self, values, params, fname) -> list:
        """The program's inputs for a call's `values` (one per parameter of `params`); raises
        TypeError or ValueError naming the parameter whose value does not fit the key."""
        leaves: list = []
        if self.key[0] is tuple:
            for value, sub, p in zip(values, self.key[1], params):
                conform(sub, value, p.name, leaves, fname)
        else:
            conform(self.key, values, "args", leaves, fname)
        return leaves

    def run(self, leaves):
        """The program's result for `leaves`; an error re-made to name the user's line."""
        try:
            return self._fn(*leaves)
        except Exception as e:
            new = self._program.rewrite(e)
            if new is e:
                self._at_users_raise(e)
                raise
            raise new from e

    def _at_users_raise(self, e) -> None:
        """A user's exception the graph raised (`raise` under a staged condition) ends its
        traceback at the user's `raise` line, as eagerly (its note names the line too)."""
        node_of = getattr(self._program, "node_of", None)
        node = node_of(e) if node_of is not None else None
        if node is None or not node.attrs.get("raises") or node.origin is None:
            return
        if isinstance(node.origin, SavedOrigin):
            return  # a loaded file's path is never opened (it could name any file)
        end_at_user_line(e, node.origin[0], node.origin[1])

    def store(self, result, values, instance=None):
        """The outputs in the program's `result` of a graph with `writebacks`, after storing
        the rest into the arguments (`values`; `instance`: a method's object)."""
        result, stored = result
        apply_writebacks(self.writebacks, values, stored, instance)
        return result

    def _raise(self, e):
        """Raises `e` (from the program) as `run` would: naming the user's line."""
        new = self._program.rewrite(e)
        if new is e:
            self._at_users_raise(e)
            raise e
        raise new from e

    def signature_text(self, name: str, params) -> str:
        """`name(params)` with each parameter's spec and the output spec."""
        lines = [f"{name}({', '.join(p.name for p in params)})", "  Args:"]
        for sub, p in zip(self.key[1], params):
            lines.append(f"    {p.name}: {sig.describe(sub)}")
        lines += ["  Returns:", f"    {describe_output(self.structured_outputs)}"]
        return "\n".join(lines)


def bind_arguments(signature, fname, args, kwargs) -> tuple:
    """A call's arguments as one value per parameter of `signature`, defaults filled in."""
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as e:
        raise TypeError(f"{fname}(): {e}") from None
    bound.apply_defaults()
    return tuple(bound.arguments.values())


def conform(key, value, path, leaves, fname):
    """Checks `value` against the key a graph was traced for, appending its leaves; raises
    TypeError or ValueError naming the parameter and the expected spec."""
    kind = key[0]
    if kind in ("A", "S"):
        dtype = key[1]
        shape = key[2] if kind == "A" else ()
        expected = f"{np.dtype(dtype).name} Tensor, shape={shape}"
        if isinstance(value, (np.ndarray, np.generic)) or sig.is_jax_array(value):
            # (a JAX array is keyed as the ndarray it stands for, and passed on as it is)
            if not sig.dtype_matches(dtype, np.dtype(value.dtype)):
                raise TypeError(
                    f"{fname}: parameter `{path}` expects {expected}, got an array of dtype "
                    f"{value.dtype.name}"
                )
            array = value
        elif isinstance(value, TensorSpec):
            if value.dtype != dtype or not sig.shape_covers(shape, value.shape):
                got = f"{np.dtype(value.dtype).name} Tensor, shape={tuple(value.shape)}"
                raise TypeError(f"{fname}: parameter `{path}` expects {expected}, got {got}")
            leaves.append(value)
            return
        elif type(value) in (int, float, bool, complex, list, tuple):
            try:
                array = np.asarray(value)
            except ValueError as e:
                raise TypeError(
                    f"{fname}: parameter `{path}` expects {expected}, got {value!r} ({e})"
                ) from None
            if not np.can_cast(array.dtype, dtype, "same_kind"):
                raise TypeError(
                    f"{fname}: parameter `{path}` expects {expected}, got {value!r} of dtype "
                    f"{array.dtype.name}"
                )
            array = np.asarray(value, dtype=dtype)
        else:
            raise TypeError(
                f"{fname}: parameter `{path}` expects {expected}, got {type(value).__name__}"
            )
        if not sig.shape_covers(shape, tuple(array.shape)):
            raise ValueError(
                f"{fname}: parameter `{path}` expects {expected}, got shape {array.shape}"
            )
        if kind == "S" and isinstance(array, np.ndarray):
            array = array[()]
        leaves.append(array)
        return
    if kind == "P":
        if type(value) is not key[1] or sig.python_key(value) != key:
            raise TypeError(
                f"{fname}: parameter `{path}` was traced with the Python value "
                f"{sig.python_value(key)!r}, got "
                f"{value!r}. A concrete function is fixed to its Python arguments; call the "
                "autoconv.function itself to trace for a new value."
            )
        return
    if kind == "O":
        if id(value) != key[1]:
            raise TypeError(
                f"{fname}: parameter `{path}` was traced with another object; call the "
                "autoconv.function itself to trace for this one"
            )
        return
    if kind == "D":
        if type(value) is not dict or list(value) != [k for k, _ in key[1]]:
            raise TypeError(
                f"{fname}: parameter `{path}` expects a dict with keys {[k for k, _ in key[1]]}, "
                f"got {value!r}"
            )
        for k, sub in key[1]:
            conform(sub, value[k], f"{path}[{k!r}]", leaves, fname)
        return
    if type(value) is not kind or len(value) != len(key[1]):
        raise TypeError(f"{fname}: parameter `{path}` expects {sig.describe(key)}, got {value!r}")
    for i, (v, sub) in enumerate(zip(value, key[1])):
        conform(sub, v, f"{path}[{i}]", leaves, fname)


def describe_output(value) -> str:
    """The spec of a graph's output structure, as signatures show it."""
    if isinstance(value, Tensor):
        return f"{value.dtype.name} Tensor, shape={value.shape}"
    if isinstance(value, tuple) and not hasattr(type(value), "_fields"):
        inner = ", ".join(describe_output(v) for v in value)
        return f"({inner}{',' if len(value) == 1 else ''})"
    if isinstance(value, list):
        return "[" + ", ".join(describe_output(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {describe_output(v)}" for k, v in value.items()) + "}"
    if isinstance(value, np.ndarray):
        return f"{value.dtype.name} Tensor, shape={value.shape}"
    return repr(value)
