"""`TensorSpec` and input signatures: how a call's arguments become a cache key.

A key is a tree mirroring the arguments. Arrays are leaves `("A", dtype, shape)` (shape entries
may be None in a relaxed key), NumPy scalars `("S", dtype)`; Python scalars and strings are
`("P", type, value)`, exact to the type and the bits: `1`, `True` and `1.0` differ, and so do
`0.0` and `-0.0` (a float is keyed by its bit pattern, so all NaNs with the same bits share a
key). Tuples, lists, dicts and namedtuples keep their structure; Variables and other objects
are keyed by identity. `flatten` builds the key and collects the leaf values in the order the
traced graph takes them as inputs.
"""

from __future__ import annotations

import struct

import numpy as np

from autoconv.graph.tensor import format_spec

_PY = (int, float, bool, str, bytes, complex, type(None))


class TensorSpec:
    """A shape (entries may be None, an unknown size) and a NumPy dtype.

    Use it with `Function.get_concrete_function` and `input_signature` to describe array
    arguments without giving values.
    """

    __slots__ = ("shape", "dtype", "name")

    def __init__(self, shape, dtype=np.float32, name: str | None = None):
        if shape is None:
            raise ValueError("TensorSpec needs a shape (a tuple; None entries for unknown sizes)")
        self.shape = tuple(None if d is None else int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        self.name = name

    @classmethod
    def from_value(cls, value, name=None) -> TensorSpec:
        """The spec of an array or scalar."""
        array = np.asarray(value)
        return cls(array.shape, array.dtype, name)

    def is_compatible_with(self, value) -> bool:
        """True if `value` (an array, a scalar or a TensorSpec) has this dtype and a shape this
        spec covers."""
        other = value if isinstance(value, TensorSpec) else TensorSpec.from_value(value)
        return other.dtype == self.dtype and shape_covers(self.shape, other.shape)

    def __eq__(self, other):
        return isinstance(other, TensorSpec) and (self.shape, self.dtype, self.name) == (
            other.shape,
            other.dtype,
            other.name,
        )

    def __hash__(self):
        return hash((self.shape, self.dtype, self.name))

    def _repr_html_(self) -> str:
        from autoconv.graph import display

        return display.spec_html(self)

    def __repr__(self):
        return f"TensorSpec(shape={self.shape}, dtype={self.dtype.name}, name={self.name!r})"

    def __str__(self):
        return format_spec(self.shape, self.dtype)


def dtype_matches(expected: np.dtype, actual: np.dtype) -> bool:
    """Equal dtypes; a flexible spec dtype (`np.str_`, `np.bytes_` without a size) accepts any
    size of its kind."""
    return expected == actual or (expected.itemsize == 0 and expected.kind == actual.kind)


def shape_covers(general: tuple, specific: tuple) -> bool:
    return len(general) == len(specific) and all(
        g is None or g == s for g, s in zip(general, specific)
    )


_JAX_TYPES: set = set()  # the JAX array types `flatten` met (tested first from then on)


def flatten(value, leaves: list):
    """The key of `value`; appends its array-like leaves to `leaves`."""
    t = type(value)
    if t is np.ndarray:
        leaves.append(value)
        return ("A", value.dtype, value.shape)
    if t in _JAX_TYPES:  # (a list of 40 of them: the tests below took 1 us each)
        leaves.append(value)
        return ("A", np.dtype(value.dtype), tuple(value.shape))
    if t in _PY:
        return python_key(value, t)
    if t is tuple or t is list:
        return (t, tuple([flatten(v, leaves) for v in value]))
    if t is dict:
        return ("D", tuple([(k, flatten(v, leaves)) for k, v in value.items()]))
    if isinstance(value, np.generic):
        leaves.append(value)
        return ("S", value.dtype)
    if isinstance(value, TensorSpec):
        leaves.append(value)
        return ("A", value.dtype, value.shape)
    if isinstance(value, tuple) and hasattr(t, "_fields"):
        return (t, tuple([flatten(v, leaves) for v in value]))
    if is_jax_array(value):
        # A JAX array (any device or sharding) is keyed as an ndarray of its dtype and shape.
        _JAX_TYPES.add(t)
        leaves.append(value)
        return ("A", np.dtype(value.dtype), tuple(value.shape))
    return ("O", id(value))


_DOUBLE = struct.Struct("<d")
_BITS = struct.Struct("<Q")


def _bits(x: float) -> int:
    return _BITS.unpack(_DOUBLE.pack(x))[0]


def _float(bits: int) -> float:
    return _DOUBLE.unpack(_BITS.pack(bits))[0]


def python_key(value, t=None):
    """The key of a Python scalar, string or None: its exact type, and its value (a float's
    bit pattern, a complex number's two)."""
    t = t or type(value)
    if t is float:
        return ("P", float, _bits(value))
    if t is complex:
        return ("P", complex, (_bits(value.real), _bits(value.imag)))
    return ("P", t, value)


def python_value(key):
    """The Python value a `("P", ...)` key stands for."""
    t, v = key[1], key[2]
    if t is float:
        return _float(v)
    if t is complex:
        return complex(_float(v[0]), _float(v[1]))
    return v


def is_jax_array(value) -> bool:
    """Whether `value` is a JAX array (JAX is not imported to tell)."""
    return type(value).__module__.startswith("jax") and hasattr(value, "sharding")


def substitute(value, key, path: str, make_leaf):
    """`value` with each leaf replaced by `make_leaf(path, leaf_key)`, walking as `flatten` does."""
    kind = key[0]
    if kind in ("A", "S"):
        return make_leaf(path, key)
    if kind is tuple or kind is list:
        return kind(
            substitute(v, k, f"{path}[{i}]", make_leaf)
            for i, (v, k) in enumerate(zip(value, key[1]))
        )
    if kind == "D":
        return {k: substitute(value[k], sub, f"{path}[{k!r}]", make_leaf) for k, sub in key[1]}
    if isinstance(kind, type) and hasattr(kind, "_fields"):
        return kind(
            *(
                substitute(v, k, f"{path}.{f}", make_leaf)
                for f, v, k in zip(kind._fields, value, key[1])
            )
        )
    return value


def leaf_specs(key) -> list:
    """The `(shape, dtype)` of each leaf of `key`, in order."""
    out = []

    def walk(k):
        kind = k[0]
        if kind == "A":
            out.append((k[2], k[1]))
        elif kind == "S":
            out.append(((), k[1]))
        elif kind == "D":
            for _, sub in k[1]:
                walk(sub)
        elif kind in ("P", "O"):
            pass
        else:
            for sub in k[1]:
                walk(sub)

    walk(key)
    return out


def covers(general, specific) -> bool:
    """True if a graph traced for key `general` accepts a call with key `specific`."""
    if general is specific or general == specific:
        return True
    kind = general[0]
    if kind == "A":
        if specific[0] == "A":
            return dtype_matches(general[1], specific[1]) and shape_covers(general[2], specific[2])
        return specific[0] == "S" and dtype_matches(general[1], specific[1]) and general[2] == ()
    if kind in ("S", "P", "O") or specific[0] != kind:
        return False
    if kind == "D":
        return [k for k, _ in general[1]] == [k for k, _ in specific[1]] and all(
            covers(g, s) for (_, g), (_, s) in zip(general[1], specific[1])
        )
    return len(general[1]) == len(specific[1]) and all(
        covers(g, s) for g, s in zip(general[1], specific[1])
    )


def generalize(a, b):
    """The most specific key covering both (differing array dimensions become None), or None
    if they differ in anything but array shapes."""
    if a == b:
        return a
    kind = a[0]
    if kind == "A" and b[0] == "A":
        if a[1] != b[1] or len(a[2]) != len(b[2]):
            return None
        return ("A", a[1], tuple(x if x == y else None for x, y in zip(a[2], b[2])))
    if kind != b[0] or kind in ("A", "S", "P", "O"):
        return None
    if kind == "D":
        if [k for k, _ in a[1]] != [k for k, _ in b[1]]:
            return None
        items = [(k, generalize(x, y)) for (k, x), (_, y) in zip(a[1], b[1])]
        return None if any(v is None for _, v in items) else ("D", tuple(items))
    if len(a[1]) != len(b[1]):
        return None
    items = [generalize(x, y) for x, y in zip(a[1], b[1])]
    return None if any(v is None for v in items) else (kind, tuple(items))


def mentions(key, ids) -> bool:
    """Whether `key` holds, by identity, an object whose id is in `ids`."""
    kind = key[0]
    if kind == "O":
        return key[1] in ids
    if kind in ("A", "S", "P"):
        return False
    if kind == "D":
        return any(mentions(sub, ids) for _, sub in key[1])
    return any(mentions(sub, ids) for sub in key[1])


def describe(key) -> str:
    """A key as people read it in signatures: `float32 Tensor, shape=(None, 3)`, `3`, ..."""
    kind = key[0]
    if kind == "A":
        return f"{key[1].name} Tensor, shape={key[2]}"
    if kind == "S":
        return f"{key[1].name} Tensor, shape=()"
    if kind == "P":
        return repr(python_value(key))
    if kind == "O":
        return "<object>"
    if kind == "D":
        return "{" + ", ".join(f"{k!r}: {describe(v)}" for k, v in key[1]) + "}"
    items = ", ".join(describe(k) for k in key[1])
    if kind is tuple:
        return f"({items}{',' if len(key[1]) == 1 else ''})"
    if kind is list:
        return f"[{items}]"
    return f"{kind.__name__}({items})"


def spec_text(spec) -> str:
    return f"{np.dtype(spec[1]).name} Tensor, shape={tuple(spec[0])}"
