"""Parsing `--spec` arguments: `float32[10,10]`, `int64[]`, `float32[None,3]`, or a Python literal.

`parse` returns a `Spec` (dtype name and shape, with `None` for a dimension of any size) or the
literal's value; `to_argument` makes the `autoconv.TensorSpec` the graph backend takes.
"""

import ast
import dataclasses
import re

from autoconv.cli.files import UsageError

_TENSOR = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\[(.*)\]\s*$")
_EXAMPLES = "e.g. float32[10,10], int64[], float32[None,3], or a Python literal such as 3"


@dataclasses.dataclass(frozen=True)
class Spec:
    """An array input: a NumPy dtype name and a shape whose entries may be None."""

    dtype: str
    shape: tuple

    def __str__(self) -> str:
        dims = ",".join("None" if d is None else str(d) for d in self.shape)
        return f"{self.dtype}[{dims}]"


def parse(text: str):
    """A `Spec` for `dtype[dims]`, else the value of a Python literal. Raises `UsageError`."""
    match = _TENSOR.match(text)
    if match:
        return Spec(_dtype(text, match.group(1)), _shape(text, match.group(2)))
    try:
        return ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        pass
    if text.strip().isidentifier() and _is_dtype(text.strip()):
        raise UsageError(
            f"--spec {text!r}: give a shape, e.g. {text.strip()}[] for a scalar "
            f"or {text.strip()}[3] for a vector"
        )
    name, sep, value = text.partition("=")
    if sep and name.strip().isidentifier():  # `n=2`: specs are positional, one per parameter
        raise UsageError(
            f"--spec {text!r}: specs are positional, one per parameter in order; write "
            f"--spec {value.strip() or '...'} in {name.strip()}'s place, without '{name.strip()}='"
        )
    raise UsageError(f"--spec {text!r}: not a spec or a Python literal; {_EXAMPLES}")


def _dtype(text: str, name: str) -> str:
    if not _is_dtype(name):
        raise UsageError(
            f"--spec {text!r}: unknown dtype {name!r}; use a NumPy number type such as float32, "
            "float64, int32, int64, bool or complex64"
        )
    return name


def _is_dtype(name: str) -> bool:
    import numpy

    try:
        dtype = numpy.dtype(name)
    except TypeError:
        return False
    return dtype.kind in "biufc" and name == name.lower()


def _shape(text: str, dims: str) -> tuple:
    dims = dims.strip()
    if not dims:
        return ()
    shape = []
    for dim in dims.split(","):
        dim = dim.strip()
        if dim in ("None", "?"):
            shape.append(None)
        elif dim.isdigit():
            shape.append(int(dim))
        else:
            raise UsageError(
                f"--spec {text!r}: dimension {dim!r} must be a size (0 or more) or "
                f"None; {_EXAMPLES}"
            )
    return tuple(shape)


def to_argument(value):
    """What to pass to `get_concrete_function` for a parsed spec."""
    if isinstance(value, Spec):
        import numpy

        import autoconv

        return autoconv.TensorSpec(value.shape, dtype=numpy.dtype(value.dtype).type)
    return value
