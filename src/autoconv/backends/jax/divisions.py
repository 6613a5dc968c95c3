"""Checks of divisions of Python numbers: XLA divides by zero silently (an infinity, a NaN or
some integer), where eager Python raises ZeroDivisionError.

`a / b`, `a // b` and `a % b` of Python numbers (and `divmod`, which the graph writes as `//`
and `%`) raise where `b` is 0, and `a ** b` where `a` is 0 and `b` negative. The NumPy backend
runs the Python operator itself, which raises; the lowered JAX code tests the operands when it
runs and sets the error flag there, and the program raises Python's exception after the call,
as for the index checks of `bounds.py`. NumPy scalars (`np.float64(1) / np.float64(0)`) give an
infinity eagerly, with a warning: they are not checked. Inside a staged `try` that handles the
error, the graph divides by a divisor that cannot be 0 (trace/tensors/staged_try.py), so the
check passes there and the handler is taken.
"""

from __future__ import annotations

import operator

from autoconv.graph.helpers import mixed_output
from autoconv.graph.tensor import Tensor

_OPERATORS = {
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "**": operator.pow,
}
_NUMBERS = (bool, int, float)


def checked(node) -> tuple | None:
    """`(a, b)`, the operands of a binop of Python numbers that may raise ZeroDivisionError
    when the graph runs; else None."""
    if node.kind != "binop" or node.fn not in _OPERATORS or len(node.args) != 2:
        return None
    a, b = node.args
    # (a Python number divided by a zero written in the code: NumPy's dtype, Python's error)
    zero = node.fn != "**" and type(b) in _NUMBERS and b == 0 and _python_number(a)
    if len(node.outputs) != 1 or not (node.outputs[0].weak or zero):
        return None
    if not all(_python_number(v) for v in (a, b)):
        return None
    if node.fn == "**":
        if not isinstance(a, Tensor) and a != 0:
            return None
        if not isinstance(b, Tensor) and not b < 0:
            return None
        if not isinstance(a, Tensor) and not isinstance(b, Tensor):
            return None  # known while tracing
        if isinstance(b, Tensor) and b.dtype.kind == "c":
            return None
    elif not isinstance(b, Tensor) and not zero:
        return None
    return a, b


def _python_number(v) -> bool:
    if isinstance(v, Tensor):
        return v.weak and v.shape == () and v.dtype.kind in "biuf"
    return type(v) in _NUMBERS


def valid(node, expr) -> str:
    """The test, in lowered code, that the operation does not raise (`expr` writes an
    operand)."""
    a, b = node.args
    if node.fn == "**":
        return f"({expr(a)} != 0) | ({expr(b)} >= 0)"
    return f"{expr(b)} != 0"


def error(node) -> ZeroDivisionError:
    """The exception eager Python raises for `node`, from numbers of its operands' kinds."""
    a, b = node.args
    op = _OPERATORS[node.fn]
    if node.fn == "**":
        a, b = _like(a, 0), (_like(b, -1) if isinstance(b, Tensor) else b)
    else:
        a, b = (_like(a, 1) if isinstance(a, Tensor) else a), _like(b, 0)
    try:
        op(a, b)
    except ZeroDivisionError as e:
        return e.with_traceback(None)
    return ZeroDivisionError("division by zero")


def _like(t, n):
    kind = t.dtype.kind if isinstance(t, Tensor) else "i"
    if kind == "b":
        return bool(n) if n >= 0 else n
    return float(n) if kind == "f" else int(n)


def recorder(node):
    """A host callback `(err)` keeping eager Python's ZeroDivisionError (only the first error
    of a call counts)."""
    exc = error(node)
    slot: list = []

    def record(err):
        if bool(err) or slot:
            return
        slot.append((type(exc)(*exc.args), node))

    record.slot = slot
    record.node = node
    return record


def found(node, plan):
    """`(division, check)` where lowering `node` checks a divisor: a division of Python
    numbers (`check` None), or the path's Python type given to a quotient of numbers read
    from run-time lists (`node` a `mixed_output`; `check` from `ListPlan.zero_checks`: the
    kind tag, and for each of its values whether it is a Python number); else None."""
    if checked(node) is not None:
        return node, None
    if node.kind == "helper" and node.fn is mixed_output:
        value = node.args[0]
        division = value.node if isinstance(value, Tensor) else None
        check = plan.zero_checks.get(id(division))
        if check is not None:
            return division, check
    return None


def test(division, check, expr) -> str:
    """The test, in lowered code, that `found`'s division does not raise: its divisor is
    not 0, or (`check`) its Python type is NumPy's, which gives an infinity."""
    if check is None:
        return valid(division, expr)
    tag, python = check
    flags = "jnp.asarray(" + repr(tuple(python)) + ")"
    return f"({valid(division, expr)}) | ~{flags}[{expr(tag)}]"
