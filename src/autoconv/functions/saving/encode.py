"""Traced graphs as JSON-able data: nodes, blocks, values with explicit tags, and arrays.

Every value is a list whose first item says what it is: `["t", 7]` (the Tensor `%7`),
`["int", "3"]`, `["float", "nan"]`, `["str", "..."]`, `["tuple", [...]]`, `["array", 0]` (the
array in `arrays/0.npy`), `["fn", "numpy.sum"]` (a callable of the closed table), ... Anything a
file cannot hold raises `SaveError` naming the user's line and what to write instead.
"""

from __future__ import annotations

import os

import numpy as np

from autoconv.functions.saving import table
from autoconv.functions.saving.errors import SaveError
from autoconv.graph.errors import where
from autoconv.graph.origin import source_text
from autoconv.graph.tensor import Tensor

FORMAT = "autoconv-graph"
VERSION = 1


def dtype_text(dtype) -> str:
    return np.dtype(dtype).str


class Encoder:
    """Collects the arrays and Variables that the graphs of one file refer to."""

    def __init__(self):
        self.arrays: list = []
        self.variables: list = []
        self._variable_ids: dict = {}
        self.origin = None

    # --- values -------------------------------------------------------------------------
    def fail(self, what: str, hint: str):
        raise SaveError(f"{where(self.origin)}: {what} cannot be saved: {hint}")

    def array(self, value) -> int:
        array = np.asarray(value)
        if array.dtype.hasobject:
            self.fail(
                f"an array of Python objects ({array!r:.60})",
                "a saved file holds numeric, boolean and string arrays only",
            )
        self.arrays.append(np.array(array, order="C"))
        return len(self.arrays) - 1

    def variable(self, var) -> int:
        index = self._variable_ids.get(id(var))
        if index is None:
            index = self._variable_ids[id(var)] = len(self.variables)
            self.variables.append(var)
        return index

    def value(self, v):
        """The tagged form of a value in a call template or an output structure."""
        from autoconv.trace.tensors.accumulated import ListAccum
        from autoconv.trace.tensors.optionals import Mixed, Optional

        t = type(v)
        if isinstance(v, Tensor):
            return ["t", v.id]
        if v is None:
            return ["none"]
        if v is Ellipsis:
            return ["ellipsis"]
        if t is bool:
            return ["bool", v]
        if t is int:
            return ["int", str(v)]
        if t is float:
            return ["float", repr(v)]
        if t is complex:
            return ["complex", repr(v.real), repr(v.imag)]
        if t is str:
            return ["str", v]
        if t is bytes:
            return ["bytes", v.hex()]
        if t is tuple or t is list:
            return [t.__name__, [self.value(x) for x in v]]
        if t is dict:
            return ["dict", [[self.value(k), self.value(x)] for k, x in v.items()]]
        if t is slice:
            return ["slice", self.value(v.start), self.value(v.stop), self.value(v.step)]
        if t is ListAccum:
            return ["listaccum", self.value(v.tensor)]
        if t is Optional:
            missing = v.missing
            if missing is not None:
                missing = [str(missing[0]), _printable(str(missing[1]))]
            return [
                "optional",
                self.value(v.flag),
                self.value(v.value),
                missing,
                _printable(str(v.name)),
            ]
        if t is Mixed:
            kinds = [None if k is None else self.type_name(k) for k in v.kinds]
            return ["mixed", self.value(v.value), self.value(v.tag), kinds, _printable(str(v.name))]
        if isinstance(v, tuple) and hasattr(t, "_fields"):
            return ["namedtuple", t.__name__, list(t._fields), [self.value(x) for x in v]]
        if t is np.ndarray:
            return ["array", self.array(v)]
        if isinstance(v, np.generic):
            return ["scalar", self.array(v)]
        if isinstance(v, np.dtype):
            return ["dtype", dtype_text(v)]
        if isinstance(v, type):
            if issubclass(v, BaseException):
                return ["exctype", self.exception_name(v)]
            return ["type", self.type_name(v)]
        if isinstance(v, BaseException):
            return ["exc", self.exception_name(type(v)), [self.value(a) for a in v.args]]
        name = table.name_of(v) if callable(v) else None
        if name is not None:
            return ["fn", name]
        from autoconv.graph.variables import Variable

        if isinstance(v, Variable):
            return ["variable", self.variable(v)]
        self.fail(
            f"the value {_short(v)} (a {t.__name__})",
            "a saved file holds arrays, numbers, strings, None, tuples, lists, dicts and "
            "namedtuples of them; pass other objects' data in as arrays",
        )

    def type_name(self, kind) -> str:
        for name, value in table.TYPES.items():
            if value is kind:
                return name
        self.fail(f"the type {kind!r}", "only Python's and NumPy's number and string types can")

    def exception_name(self, cls) -> str:
        name = cls.__name__
        if table.EXCEPTIONS.get(name) is not cls:
            self.fail(
                f"raising the exception class {cls.__module__}.{cls.__qualname__}",
                "a saved graph can raise Python's built-in exceptions only (ValueError, "
                "RuntimeError, ...); raise one of those, or keep this function unsaved",
            )
        return name

    # --- graphs ---------------------------------------------------------------------------
    def decl(self, t) -> dict:
        if t.dtype.fields is not None:
            self.fail(
                "a list of tuples, lists or dicts appended in a staged loop",
                "append each of their items to a list of its own, or keep this function unsaved",
            )
        out = {"id": t.id, "shape": list(t.shape), "dtype": dtype_text(t.dtype)}
        if t.weak:
            out["weak"] = True
        return out

    def graph(self, graph, writebacks=()) -> dict:
        inputs = []
        for t, name in zip(graph.inputs, graph.input_names):
            decl = self.decl(t)
            decl["name"] = _printable(str(name))
            if "scalar" in t.node.attrs:
                decl["scalar"] = bool(t.node.attrs["scalar"])
            inputs.append(decl)
        return {
            "name": _printable(str(graph.name)),
            "inputs": inputs,
            "block": self.block(graph.block),
            "outputs": self.value(graph.outputs),
            "next_id": graph._next_id,
        }

    def block(self, block) -> dict:
        return {
            "params": [self.decl(p) for p in block.params],
            "nodes": [self.node(n) for n in block.nodes],
            "outputs": [self.value(v) for v in block.outputs],
        }

    def node(self, node) -> dict:
        self.origin = node.origin
        kind = node.kind
        if kind not in table.KINDS:
            self.fail(f"an operation of kind {kind!r}", "it is not in the table of saved kinds")
        fn = None
        if kind in ("call", "helper"):
            fn = table.name_of(node.fn)
            if fn is None:
                self.fail(
                    f"`{node.op}` (a call of {_describe_callable(node.fn)})",
                    "a saved file can only name NumPy's and autoconv's own operations. Make "
                    "generators and other objects inside the function, or pass their data in "
                    "as arrays",
                )
        elif kind in ("binop", "unop", "method", "attr"):
            fn = node.fn
        if kind == "print" and "file" in node.kwargs:
            self.fail(
                "autoconv.print(..., file=...)",
                "a saved graph prints to standard output only; drop file=",
            )
        attrs = {}
        for key, value in node.attrs.items():
            schema = table.ATTRS.get(key)
            if schema is None:
                self.fail(f"the operation attribute {key!r} of `{node.op}`", "not in the table")
            if schema == "variable":
                attrs[key] = self.variable(value)
            elif schema == "value":
                attrs[key] = self.value(value)
            elif schema == "int":
                attrs[key] = int(value)
            elif schema == "str":
                attrs[key] = str(value)
            else:
                attrs[key] = bool(value)
        out = {
            "kind": kind,
            "op": str(node.op),
            "fn": fn,
            "args": [self.value(a) for a in node.args],
            "kwargs": [[str(k), self.value(v)] for k, v in node.kwargs.items()],
            "attrs": attrs,
            "origin": _saved_origin(node.origin),
            "effect": bool(node.effect),
            "outputs": [self.decl(t) for t in node.outputs],
        }
        if node.blocks:
            out["blocks"] = [self.block(b) for b in node.blocks]
        return out

    # --- signatures -----------------------------------------------------------------------
    def key(self, key, path: str):
        kind = key[0]
        if kind == "A":
            return ["A", dtype_text(key[1]), list(key[2])]
        if kind == "S":
            return ["S", dtype_text(key[1])]
        if kind == "P":
            from autoconv.graph.signature import python_value

            return ["P", self.value(python_value(key))]
        if kind == "O":
            self.fail(
                f"the argument `{path}`, an object (a Variable, a generator, ...)",
                "a saved signature holds arrays, NumPy scalars, Python numbers, strings and "
                "tuples, lists and dicts of them. Use a Variable or generator from the "
                "enclosing scope instead of passing it in (it is saved with the graph), or "
                "pass arrays",
            )
        if kind == "D":
            return ["D", [[self.value(k), self.key(s, f"{path}[{k!r}]")] for k, s in key[1]]]
        if kind is tuple or kind is list:
            return [kind.__name__, [self.key(s, f"{path}[{i}]") for i, s in enumerate(key[1])]]
        self.fail(
            f"the argument `{path}`, a {getattr(kind, '__name__', kind)}",
            "pass a plain tuple, list or dict of arrays instead",
        )


def _saved_origin(origin):
    """`[path, line, text]`: the path relative to the current folder when the file is inside
    it (else its base name: a saved file does not carry the author's folders), and the user's
    source line, stored so that a loaded graph shows it without reading any file."""
    if origin is None:
        return None
    path, line = str(origin[0]), int(origin[1])
    if not path.startswith("<"):
        try:
            relative = os.path.relpath(path)
        except ValueError:  # another drive (Windows)
            relative = ".."
        path = os.path.basename(path) if relative.startswith("..") else relative
    return [_printable(path), line, _printable(source_text(origin))[:1000]]


def _printable(text: str) -> str:
    return "".join(c if c.isprintable() else " " for c in text)


def _short(v) -> str:
    text = repr(v).replace("\n", " ")
    return text if len(text) <= 60 else text[:57] + "..."


def _describe_callable(fn) -> str:
    owner = getattr(fn, "__self__", None)
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)
    if owner is not None and not isinstance(owner, type(np)):
        return f"the method {name} of a {type(owner).__name__} object"
    module = getattr(fn, "__module__", None)
    return f"{module}.{name}" if module else name


def encode_function(name: str, params: list, entries: list, origin=None) -> tuple:
    """`(document, arrays)` of a file: `params` as `(name, kind, has_default, default)`,
    `entries` as `(key, optimized graph, writebacks)`; arrays[i] goes to `arrays/i.npy`."""
    enc = Encoder()
    params_out = []
    for pname, kind, has_default, default in params:
        entry = {"name": pname, "kind": kind}
        if has_default:
            try:
                entry["default"] = enc.value(default)
            except SaveError:
                pass  # a default a file cannot hold: callers pass the parameter
        params_out.append(entry)
    signatures = []
    for key, graph, writebacks in entries:
        enc.origin = origin
        if key[0] is not tuple:
            enc.fail("a Function traced from a key that is not a tuple", "internal")
        keys = [enc.key(k, p[0]) for k, p in zip(key[1], params)]
        stores = []
        for kind, path in writebacks:
            (index, pname), *rest = path
            if index is None or any(step != "item" for step, _ in rest):
                enc.fail(
                    f"a change to the attribute `{pname}`",
                    "a loaded function has no object; keep the state in an autoconv.Variable",
                )
            stores.append([kind, index, pname, [enc.value(k) for _, k in rest]])
        signatures.append({"key": keys, "graph": enc.graph(graph), "writebacks": stores})
    variables = []
    for var in enc.variables:
        enc.origin = None
        variables.append(
            {
                "name": _printable(str(var.name)),
                "trainable": bool(var.trainable),
                "array": enc.array(var._value),
            }
        )
    document = {
        "name": _printable(str(name)),
        "params": params_out,
        "signatures": signatures,
        "variables": variables,
    }
    return document, enc.arrays


def graph_as_dict(graph) -> dict:
    """`Graph.as_dict()`: one graph in its saved form, with its arrays and Variables."""
    enc = Encoder()
    data = enc.graph(graph)
    variables = [
        {
            "name": _printable(str(v.name)),
            "trainable": bool(v.trainable),
            "array": enc.array(v._value),
        }
        for v in enc.variables
    ]
    return {
        "format": FORMAT,
        "version": VERSION,
        "graph": data,
        "arrays": enc.arrays,
        "variables": variables,
    }
