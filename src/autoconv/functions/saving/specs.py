"""A file's declared shapes and dtypes are the ones autoconv computes for its operations.

A graph's Tensors declare their shape, dtype and weakness; the backends rely on them (a loop's
carried values, where a result may be written, what a call returns). A file could declare
anything, so `check` computes them again, as tracing does, before the graph is built to run:

* each operation (`call`, `binop`, `unop`, `getitem`, `method`, `attr`) is traced again on
  stand-in Tensors with its inputs' declared specs, in a scratch graph, and must give its
  declared outputs (operations the tracer cannot take on stand-ins, such as random draws, are
  left to the run-time checks);
* a constant declares its value's spec, a Variable read the Variable's, and an assignment gives
  a value the Variable can hold;
* a conditional's results cover both branches' (the same dtype and weakness, a dimension of
  any size where they differ), and a loop's results are its variables, which cover the initial
  values and the body's results.
"""

from __future__ import annotations

import warnings

import numpy as np

from autoconv.functions.saving.errors import LoadError
from autoconv.graph import graph as _g
from autoconv.graph import shapes
from autoconv.graph.passes.fold import _BINARY, _UNARY
from autoconv.graph.tensor import Tensor

_RETRACED = ("call", "binop", "unop", "getitem", "method", "attr")
_PY_NUMBERS = (bool, int, float, complex)


def check(graph, where: str) -> None:
    """Raises LoadError naming the first operation whose declared outputs are not what it
    computes."""
    scratch = _g.Graph("check")
    for node in graph.walk():
        declared = [_spec(t) for t in node.outputs]
        kind = node.kind
        if kind in _RETRACED:
            computed = _retraced(node, scratch)
            if computed is not None and computed != declared:
                _fail(node, where, declared, computed)
        elif kind == "const":
            if declared != [_spec(node.attrs["value"])]:
                _fail(node, where, declared, [_spec(node.attrs["value"])])
        elif kind == "read":
            var = node.attrs["variable"]
            if declared != [(var.shape, var.dtype, False)]:
                _fail(node, where, declared, [(var.shape, var.dtype, False)])
        elif kind == "assign":
            var, value = node.attrs["variable"], _spec(node.args[0])
            shape = value[0]
            if (
                len(shape) != len(var.shape)
                or any(d is not None and d != s for d, s in zip(shape, var.shape))
                or not np.can_cast(value[1], var.dtype, "same_kind")
            ):
                raise LoadError(
                    f"{where}: {_name(node)} assigns a {_text(value)} to a Variable of "
                    f"{_text((var.shape, var.dtype, False))}"
                )
        elif kind == "cond":
            for block in node.blocks:
                _check_results(node, where, declared, block.outputs)
        elif kind == "while":
            body = node.blocks[1]
            params = [_spec(p) for p in body.params]
            if declared != params:
                _fail(node, where, declared, params)
            _check_results(node, where, params, node.args)
            _check_results(node, where, params, body.outputs[: len(params)])


def _check_results(node, where, declared, values) -> None:
    if len(values) != len(declared) or not all(
        _covers(d, _spec(v)) for d, v in zip(declared, values)
    ):
        _fail(node, where, declared, [_spec(v) for v in values])


def _covers(outer, inner) -> bool:
    """`outer` describes every value `inner` does: same rank, dtype and weakness, its known
    dimensions equal."""
    (shape, dtype, weak), (ishape, idtype, iweak) = outer, inner
    return (
        len(shape) == len(ishape)
        and all(d is None or d == i for d, i in zip(shape, ishape))
        and dtype == idtype
        and weak == iweak
    )


def _spec(value) -> tuple:
    if isinstance(value, Tensor):
        return (value._shape, value.dtype, value.weak)
    return (
        tuple(shapes.shape_of(value)),
        shapes.result_dtype(value),
        type(value) in _PY_NUMBERS,
    )


def _retraced(node, scratch):
    """The specs tracing gives `node`'s operation on stand-ins of its inputs, or None when it
    cannot tell (the operation needs values, not specs, or is a random draw)."""
    if node.attrs.get("random") or (node.kind == "call" and _draws(node.fn)):
        return None
    if not node.inputs or not _small((node.args, node.kwargs)):
        # Without a Tensor the tracer would compute the value; large Python ints (sizes,
        # exponents) could make even a stand-in's computation huge.
        return None
    holder = _g.Node("placeholder", "placeholder")
    stand = {t.id: Tensor(scratch, holder, 0, t._shape, t.dtype, t.weak) for t in node.inputs}
    args = _g.map_tensors(node.args, lambda t: stand[t.id])
    kwargs = _g.map_tensors(node.kwargs, lambda t: stand[t.id])
    kind = node.kind
    with _g.build(scratch), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if kind == "call":
                out = node.fn(*args, **kwargs)
            elif kind == "binop":
                out = _BINARY[node.fn](args[0], args[1])
            elif kind == "unop":
                out = _UNARY[node.fn](args[0])
            elif kind == "getitem":
                out = args[0][args[1]]
            elif kind == "method":
                out = getattr(args[0], node.fn)(*args[1:], **kwargs)
            else:
                out = getattr(args[0], node.fn)
        except Exception:  # noqa: BLE001 - not traceable on stand-ins: checked when it runs
            return None
    outs = out if type(out) is tuple else (out,)
    if not all(isinstance(o, Tensor) and o.graph is scratch for o in outs):
        return None
    return [_spec(o) for o in outs]


_MAX_INT = 1 << 16
_MAX_PRODUCT = 1 << 20


def _small(value) -> bool:
    """Whether the Python numbers among `value`'s items (not its Tensors and arrays, which
    stand-ins replace) keep a stand-in computation small: ints of at most 2**16, whose
    product (as a shape's size) is at most 2**20."""
    product = 1
    stack = [value]
    while stack:
        v = stack.pop()
        t = type(v)
        if t in (tuple, list):
            stack.extend(v)
        elif t is dict:
            stack.extend(v.values())
        elif t is slice:
            stack.extend((v.start, v.stop, v.step))
        elif t is int:
            if abs(v) > _MAX_INT:
                return False
            product *= max(abs(v), 1)
            if product > _MAX_PRODUCT:
                return False
        elif t in (float, complex) and abs(v) > _MAX_INT:
            return False
    return True


def _draws(fn) -> bool:
    module = getattr(fn, "__module__", None) or ""
    owner = getattr(fn, "__self__", None)
    return (
        module.startswith(("numpy.random", "random"))
        or isinstance(owner, (np.random.RandomState, np.random.Generator))
        or type(owner).__module__ == "random"
    )


def _fail(node, where, declared, computed):
    raise LoadError(
        f"{where}: {_name(node)} declares {', '.join(map(_text, declared)) or 'no results'} "
        f"but computes {', '.join(map(_text, computed)) or 'no results'}"
    )


def _name(node) -> str:
    return f"the {node.kind} operation {ascii(str(node.op))[:40]}"


def _text(spec) -> str:
    shape, dtype, weak = spec
    dims = ", ".join("?" if d is None else str(d) for d in shape)
    return f"{'Python ' if weak else ''}{dtype.name}[{dims}]"
