"""Checks a file's contents and builds its graphs again, before anything in it runs.

Everything a file says is checked against what autoconv would have written: node kinds, table
names of callables, method and attribute names, operator symbols, keyword names (identifiers),
attributes and their types, dtypes, shapes, and every Tensor reference (it must name a Tensor
defined earlier in its block or an enclosing one; ids are unique). Any mismatch raises
`LoadError` naming the place in the file. Only values of the tagged kinds `encode.py` writes can
come out of a file; strings from it reach generated code only through `repr`.
"""

from __future__ import annotations

import keyword
import math
import re

import numpy as np

from autoconv.functions.saving import limits, specs, table
from autoconv.functions.saving.errors import LoadError
from autoconv.graph import graph as _g
from autoconv.graph.origin import SavedOrigin
from autoconv.graph.tensor import Tensor

MAX_ID = 1 << 31
MAX_DIM = 1 << 48
MAX_DEPTH = 64
MAX_INT_DIGITS = 4000
_DTYPE = re.compile(
    r"[<>|=]?(b1|[iu][1248]|f(2|4|8|12|16)|c(8|16|24|32)|[US][0-9]{1,6}|O|"
    r"[mM]8(\[(Y|M|W|D|h|m|s|ms|us|ns|ps|fs|as)\])?)"
)


def brief(value) -> str:
    """A short, printable description of a value from a file, for messages: never the whole
    repr of a container (a file's list can be huge or nested thousands deep)."""
    t = type(value)
    if t in (list, dict):
        return f"a JSON {'array' if t is list else 'object'} of {len(value)} items"
    if t is str:
        return ascii(value[:60]) + ("..." if len(value) > 60 else "")
    if t is int and abs(value) >= 10**20:
        return "a very large integer"
    if t in (int, float, bool) or value is None:
        return repr(value)
    return f"a {t.__name__}"


def name_of(value, where: str, limit=200) -> str:
    """A name from a file (of a graph, input, Variable, variable): printable text only."""
    text = text_of(value, where, limit)
    if not text.isprintable():
        fail(where, f"the name {brief(text)} holds control characters")
    return text


def fail(where: str, message: str):
    raise LoadError(f"{where}: {message}")


def dtype_of(text, where: str) -> np.dtype:
    if type(text) is not str or not _DTYPE.fullmatch(text):
        fail(where, f"invalid dtype {brief(text)}")
    try:
        return np.dtype(text)
    except TypeError as e:
        fail(where, f"invalid dtype {brief(text)} ({e})")


def shape_of(value, where: str, allow_unknown=True) -> tuple:
    if type(value) is not list or len(value) > 64:
        fail(where, f"invalid shape {brief(value)}")
    for d in value:
        if d is None and allow_unknown:
            continue
        if type(d) is not int or d < 0 or d > MAX_DIM:
            fail(where, f"invalid dimension {brief(d)} in shape")
    return tuple(value)


def identifier(text, where: str) -> str:
    """An ASCII identifier (Python reads some other letters as ASCII ones: `\ufb01le` is
    `file`), not a keyword: a name that may stand in code (keywords, namedtuple fields)."""
    if (
        type(text) is not str
        or not text.isascii()
        or not text.isidentifier()
        or keyword.iskeyword(text)
    ):
        fail(where, f"{brief(text)} is not a valid name")
    return text


def text_of(value, where: str, limit=10_000) -> str:
    if type(value) is not str or len(value) > limit:
        fail(where, f"expected a string, got {brief(value)}")
    return value


def bool_of(value, where: str) -> bool:
    if type(value) is not bool:
        fail(where, f"expected true or false, got {brief(value)}")
    return value


def int_of(value, where: str, low=0, high=MAX_ID) -> int:
    if type(value) is not int or not low <= value <= high:
        fail(where, f"expected an integer from {low} to {high}, got {brief(value)}")
    return value


def list_of(value, where: str) -> list:
    if type(value) is not list:
        fail(where, f"expected a list, got {type(value).__name__}")
    return value


def dict_of(value, where: str) -> dict:
    if type(value) is not dict:
        fail(where, f"expected an object, got {type(value).__name__}")
    return value


class Decoder:
    """Builds the graphs of one file; `arrays` are the checked arrays, `variables` the
    Variables made from the file's variable table."""

    def __init__(self, arrays: list, variables: list, owned=frozenset(), generators=None):
        self.arrays = arrays
        self.variables = variables
        self.owned = owned  # indices of the arrays that Variables hold
        self.generators = generators or table.Generators()
        self._namedtuples: dict = {}

    # --- values -------------------------------------------------------------------------
    def value(self, v, where: str, scope=None, depth=0):
        """The value of a tagged item; `scope` resolves Tensor references (None: none allowed)."""
        if depth > MAX_DEPTH:
            fail(where, "values nested too deeply")
        if type(v) is not list or not v or type(v[0]) is not str:
            fail(where, f"expected a tagged value, got {brief(v)}")
        tag, rest = v[0], v[1:]
        sub = depth + 1

        def arity(n):
            if len(rest) != n:
                fail(where, f"a {brief(tag)} value needs {n} items")

        if tag == "t":
            arity(1)
            if scope is None:
                fail(where, "a Tensor reference where none may be")
            return scope.ref(rest[0], where)
        if tag == "none":
            arity(0)
            return None
        if tag == "ellipsis":
            arity(0)
            return Ellipsis
        if tag == "bool":
            arity(1)
            return bool_of(rest[0], where)
        if tag == "int":
            arity(1)
            text = text_of(rest[0], where, MAX_INT_DIGITS)
            if not re.fullmatch(r"-?[0-9]+", text):
                fail(where, f"invalid int {brief(text)}")
            return int(text)
        if tag == "float":
            arity(1)
            return self.float(rest[0], where)
        if tag == "complex":
            arity(2)
            return complex(self.float(rest[0], where), self.float(rest[1], where))
        if tag == "str":
            arity(1)
            return text_of(rest[0], where, 1 << 20)
        if tag == "bytes":
            arity(1)
            text = text_of(rest[0], where, 1 << 21)
            try:
                return bytes.fromhex(text)
            except ValueError:
                fail(where, "invalid hex bytes")
        if tag in ("tuple", "list"):
            arity(1)
            items = [self.value(x, where, scope, sub) for x in list_of(rest[0], where)]
            return tuple(items) if tag == "tuple" else items
        if tag == "dict":
            arity(1)
            out = {}
            for pair in list_of(rest[0], where):
                if type(pair) is not list or len(pair) != 2:
                    fail(where, "a dict item must be a [key, value] pair")
                key = self.value(pair[0], where, None, sub)
                try:
                    out[key] = self.value(pair[1], where, scope, sub)
                except TypeError:
                    fail(where, f"unhashable dict key {brief(key)}")
            return out
        if tag == "slice":
            arity(3)
            return slice(*(self.value(x, where, scope, sub) for x in rest))
        if tag == "listaccum":
            arity(1)
            from autoconv.trace.tensors.accumulated import ListAccum

            tensor = self.value(rest[0], where, scope, sub)
            if not isinstance(tensor, Tensor):
                fail(where, "a list accumulator that is not a Tensor")
            return ListAccum(tensor)
        if tag == "optional":
            arity(4)
            from autoconv.trace.tensors.optionals import Optional

            missing = rest[2]
            if missing is not None:
                if type(missing) is not list or len(missing) != 2:
                    fail(where, "invalid optional")
                if missing[0] != "unbound":
                    fail(where, "invalid optional")
                missing = ("unbound", name_of(missing[1], where))
            flag = self.value(rest[0], where, scope, sub)
            if type(flag) is not bool and not isinstance(flag, Tensor):
                fail(where, "an optional's flag that is neither a bool nor a Tensor")
            value = self.value(rest[1], where, scope, sub)
            return Optional(flag, value, missing, name_of(rest[3], where))
        if tag == "mixed":
            arity(4)
            from autoconv.trace.tensors.optionals import Mixed

            kinds = tuple(
                None if k is None else self.type(k, where) for k in list_of(rest[2], where)
            )
            value = self.value(rest[0], where, scope, sub)
            tag_value = self.value(rest[1], where, scope, sub)
            if type(tag_value) is not int and not isinstance(tag_value, Tensor):
                fail(where, "a mixed value's tag that is neither an int nor a Tensor")
            return Mixed(value, tag_value, kinds, name_of(rest[3], where))
        if tag == "namedtuple":
            arity(3)
            cls = self.namedtuple(rest[0], rest[1], where)
            items = [self.value(x, where, scope, sub) for x in list_of(rest[2], where)]
            if len(items) != len(cls._fields):
                fail(where, "a namedtuple with the wrong number of items")
            return cls(*items)
        if tag in ("array", "scalar"):
            arity(1)
            index = int_of(rest[0], where, 0, len(self.arrays) - 1)
            if index in self.owned:
                fail(where, "a constant that shares a Variable's array")
            array = self.arrays[index]
            if tag == "scalar":
                if array.shape != ():
                    fail(where, "a scalar must be stored as a 0-d array")
                return array[()]
            return array
        if tag == "dtype":
            arity(1)
            return dtype_of(rest[0], where)
        if tag == "type":
            arity(1)
            return self.type(rest[0], where)
        if tag == "exctype":
            arity(1)
            return self.exception(rest[0], where)
        if tag == "exc":
            arity(2)
            cls = self.exception(rest[0], where)
            args = [self.value(x, where, scope, sub) for x in list_of(rest[1], where)]
            try:
                return cls(*args)
            except Exception as e:  # noqa: BLE001 - a built-in exception refusing its arguments
                fail(where, f"invalid arguments for {cls.__name__} ({e})")
        if tag == "fn":
            arity(1)
            return self.function(rest[0], where)
        if tag == "variable":
            arity(1)
            return self.variables[int_of(rest[0], where, 0, len(self.variables) - 1)]
        fail(where, f"unknown value tag {brief(tag)}")

    def float(self, text, where) -> float:
        text = text_of(text, where, 64)
        if not re.fullmatch(r"-?(inf|nan|[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?)", text):
            fail(where, f"invalid float {brief(text)}")
        value = float(text)
        if math.isnan(value):
            return math.copysign(math.nan, -1.0) if text.startswith("-") else math.nan
        return value

    def type(self, name, where):
        kind = table.TYPES.get(name) if type(name) is str else None
        if kind is None:
            fail(where, f"unknown type {brief(name)}")
        return kind

    def exception(self, name, where):
        cls = table.EXCEPTIONS.get(name) if type(name) is str else None
        if cls is None:
            fail(where, f"unknown exception class {brief(name)}")
        return cls

    def function(self, name, where):
        fn = table.lookup(name, self.generators) if type(name) is str else None
        if fn is None:
            fail(where, f"unknown operation {brief(name)} (not in autoconv's table)")
        return fn

    def origin(self, data, where):
        """A node's `[path, line, text]` (or `[path, line]`): text to show, never a file to
        read (see `SavedOrigin`)."""
        data = list_of(data, where)
        if len(data) not in (2, 3):
            fail(where, "invalid origin")
        path = name_of(data[0], f"{where}.origin", 4096)
        text = name_of(data[2], f"{where}.origin", 1000) if len(data) == 3 else ""
        return SavedOrigin(path, int_of(data[1], where), text)

    def namedtuple(self, name, fields, where):
        import collections

        name = identifier(name, where)
        fields = tuple(identifier(f, where) for f in list_of(fields, where))
        if len(fields) > 255 or len(set(fields)) != len(fields) or any(f[0] == "_" for f in fields):
            fail(where, "invalid namedtuple fields")
        key = (name, fields)
        cls = self._namedtuples.get(key)
        if cls is None:
            if len(self._namedtuples) >= limits.MAX_NAMEDTUPLES:
                fail(where, f"more than {limits.MAX_NAMEDTUPLES} kinds of namedtuple")
            cls = self._namedtuples[key] = collections.namedtuple(
                name, fields, module="autoconv.saved"
            )
        return cls

    # --- graphs ---------------------------------------------------------------------------
    def graph(self, data, where: str):
        data = dict_of(data, where)
        graph = _g.Graph(name_of(data.get("name"), where))
        scope = Scope(graph)
        for i, decl in enumerate(list_of(data.get("inputs"), where)):
            at = f"{where}.inputs[{i}]"
            node = _g.Node("placeholder", "placeholder")
            name = name_of(dict_of(decl, at).get("name"), at)
            node.attrs["name"] = name
            if "scalar" in decl:
                node.attrs["scalar"] = bool_of(decl["scalar"], at)
            t = scope.declare(decl, node, 0, at)
            node.outputs.append(t)
            graph.inputs.append(t)
            graph.input_names.append(name)
        graph.block = self.block(data.get("block"), scope, f"{where}.block", own_scope=False)
        graph.outputs = self.value(data.get("outputs"), f"{where}.outputs", scope)
        graph._next_id = max(scope.ids, default=-1) + 1
        specs.check(graph, where)
        _check_inplace(graph)
        return graph

    def block(self, data, scope, where, params=None, own_scope=True):
        data = dict_of(data, where)
        block = _g.Block()
        if own_scope:
            scope.push()
        if params is None:
            for i, decl in enumerate(list_of(data.get("params"), where)):
                node = _g.Node("param", "param")
                block.params.append(scope.declare(decl, node, 0, f"{where}.params[{i}]"))
        else:
            declared = list_of(data.get("params"), where)
            if [d.get("id") if type(d) is dict else None for d in declared] != [
                p.id for p in params
            ]:
                fail(where, "a loop block's variables differ from its loop's")
            block.params = params
        for i, node in enumerate(list_of(data.get("nodes"), where)):
            block.nodes.append(self.node(node, scope, f"{where}.nodes[{i}]"))
        block.outputs = [
            self.value(v, f"{where}.outputs", scope) for v in list_of(data.get("outputs"), where)
        ]
        if own_scope:
            scope.pop()
        return block

    def node(self, data, scope, where):
        data = dict_of(data, where)
        kind = data.get("kind")
        if kind not in table.KINDS:
            fail(where, f"unknown operation kind {brief(kind)}")
        op = text_of(data.get("op"), where, 200)
        where = f"{where} ({kind} {brief(op)})"
        fn = self.fn_of(kind, data.get("fn"), where)
        args = tuple(
            self.value(a, f"{where}.args", scope) for a in list_of(data.get("args"), where)
        )
        kwargs = {}
        for pair in list_of(data.get("kwargs"), where):
            if type(pair) is not list or len(pair) != 2:
                fail(where, "a keyword argument must be a [name, value] pair")
            name = identifier(pair[0], f"{where}.kwargs")
            if kind == "print" and name not in table.PRINT_KWARGS:
                fail(where, f"print() takes no keyword {name!r} in a saved graph")
            kwargs[name] = self.value(pair[1], f"{where}.kwargs", scope)
        attrs = self.attrs(kind, data.get("attrs", {}), args, where, scope)
        origin = data.get("origin")
        if origin is not None:
            origin = self.origin(origin, where)
        node = _g.Node(kind, op, fn, args, kwargs, attrs, origin)
        node.effect = bool_of(data.get("effect", False), where)
        self.check_arity(node, where)
        _check_raising(node, where)
        blocks = data.get("blocks", [])
        if len(list_of(blocks, where)) != table.BLOCKS.get(kind, 0):
            fail(where, f"a {kind} operation has {len(blocks)} nested blocks")
        if kind == "cond":
            node.blocks = [
                self.block(b, scope, f"{where}.blocks[{i}]") for i, b in enumerate(blocks)
            ]
        elif kind == "while":
            # The body declares the loop variables; the test block sees the same ones.
            body_data = dict_of(blocks[1], f"{where}.blocks[1]")
            scope.push()
            params = []
            for i, decl in enumerate(list_of(body_data.get("params"), where)):
                params.append(scope.declare(decl, _g.Node("param", "param"), 0, f"{where}.p{i}"))
            if len(params) != len(args):
                fail(where, f"a loop with {len(args)} initial values and {len(params)} variables")
            test = self.block(blocks[0], scope, f"{where}.blocks[0]", params)
            body = self.block(body_data, scope, f"{where}.blocks[1]", params)
            scope.pop()
            if not test.outputs:
                fail(where, "a loop test block has no result")
            if len(body.outputs) != len(params) + (1 if attrs.get("stop") else 0):
                fail(where, "a loop body's results do not match its variables")
            node.blocks = [test, body]
        for i, decl in enumerate(list_of(data.get("outputs"), where)):
            node.outputs.append(scope.declare(decl, node, i, f"{where}.outputs[{i}]"))
        if table.OUTPUTS.get(kind, len(node.outputs)) != len(node.outputs):
            fail(where, f"a {kind} operation has {len(node.outputs)} results")
        if kind == "list_append" and not isinstance(args[0], Tensor):
            fail(where, "an append to something that is not a list")
        if kind in ("method", "attr", "getitem") and not isinstance(args[0], Tensor):
            fail(where, f"a {kind} of something that is not a Tensor")
        if kind == "method" and attrs.get("random") and args[0].dtype.kind != "O":
            fail(where, "a draw from something that is not a generator")
        if (
            kind == "call"
            and attrs.get("random")
            and not data["fn"].startswith(("numpy.random.", "random."))
        ):
            # A draw's errors are the user's (the JAX backend records them as such).
            fail(where, "a draw must be a call of numpy.random or random")
        if kind == "method" and (fn in table.RANDOM_METHODS) != bool(attrs.get("random")):
            fail(
                where,
                f"the method {fn!r} is not a draw"
                if attrs.get("random")
                else f"the draw {fn!r} is not marked random",
            )
        if kind == "cond":
            for b in node.blocks:
                if len(b.outputs) != len(node.outputs):
                    fail(where, "a branch's results do not match the conditional's outputs")
        return node

    def fn_of(self, kind, fn, where):
        if fn is not None and type(fn) is not str:
            fail(where, f"invalid function name {brief(fn)}")
        if kind in ("call", "helper"):
            return self.function(fn, where)
        if kind == "binop":
            if fn not in table.BINOPS:
                fail(where, f"unknown operator {brief(fn)}")
            return fn
        if kind == "unop":
            if fn not in table.UNOPS:
                fail(where, f"unknown operator {brief(fn)}")
            return fn
        if kind == "method":
            if fn not in table.METHODS:
                fail(where, f"unknown method {brief(fn)}")
            return fn
        if kind == "attr":
            if fn not in table.ATTRIBUTES:
                fail(where, f"unknown attribute {brief(fn)}")
            return fn
        if fn is not None:
            fail(where, f"a {kind} operation names no function")
        if kind == "print":
            import builtins

            return builtins.print
        return None

    def attrs(self, kind, data, args, where, scope) -> dict:
        out = {}
        for key, value in dict_of(data, where).items():
            schema = table.ATTRS.get(key)
            at = f"{where}.attrs.{brief(key)}"
            if schema is None:
                fail(where, f"unknown attribute {brief(key)}")
            if schema == "str":
                out[key] = text_of(value, at, 200)
            elif schema == "bool":
                out[key] = bool_of(value, at)
            elif schema == "int":
                out[key] = int_of(value, at, 0, max(len(args) - 1, 0))
            elif schema == "variable":
                out[key] = self.variables[int_of(value, at, 0, len(self.variables) - 1)]
            else:
                out[key] = self.value(value, at, None)
        if kind == "const" and "value" not in out:
            fail(where, "a constant without a value")
        if kind in ("read", "assign") and "variable" not in out:
            fail(where, f"a {kind} operation without a Variable")
        return out

    def check_arity(self, node, where):
        kind, n = node.kind, len(node.args)
        need = {"binop": 2, "unop": 1, "getitem": 2, "attr": 1, "assign": 1, "cond": 1}.get(kind)
        if need is not None and n != need:
            fail(where, f"a {kind} operation takes {need} arguments, got {n}")
        if kind in ("method", "list_append") and n < 1:
            fail(where, f"a {kind} operation needs an argument")
        if kind in ("const", "read", "list_new") and n:
            fail(where, f"a {kind} operation takes no arguments")
        if kind == "getitem" and node.attrs.get("tuple") and type(node.args[1]) is not tuple:
            fail(where, "a tuple index that is not a tuple")


def _check_raising(node, where) -> None:
    """A node whose exception reaches the caller as the user's own (`raises`) is one of the
    helpers that raise what eager code raises, with the arguments they take."""
    fn, args = node.fn, node.args
    raising = table.RAISING.get(table.name_of(fn)) if node.kind == "helper" else None
    if bool(node.attrs.get("raises")) != (raising is not None):
        fail(where, "only autoconv's raising helpers raise the user's exceptions")
    if raising == "raise" and not (len(args) == 1 and type(args[0]) in table.EXCEPTION_TYPES):
        fail(where, "a raise of something that is not a built-in exception")
    if raising == "raise_new" and not (args and args[0] in table.EXCEPTION_TYPES):
        fail(where, "a raise of something that is not a built-in exception class")
    if raising == "checked_raise" and not (
        len(args) == 3 and type(args[2]) in table.EXCEPTION_TYPES
    ):
        fail(where, "invalid arguments of a check for a chosen value")
    if raising == "checked" and not (
        len(args) == 4 and type(args[3]) is str and _missing_ok(args[2])
    ):
        fail(where, "invalid arguments of a check for a missing value")


def _missing_ok(missing) -> bool:
    """What an optional holds when its flag is false: None, or `("unbound", name)`."""
    return missing is None or (
        type(missing) is tuple
        and len(missing) == 2
        and missing[0] == "unbound"
        and type(missing[1]) is str
    )


def _check_inplace(graph) -> None:
    """Keeps a file's in-place marks (write into an operand's buffer) only where autoconv's own
    pass puts them: a hostile mark could make a graph write into the caller's arrays."""
    from autoconv.graph.passes import inplace

    marked = {id(n) for n in graph.walk() if "inplace" in n.attrs}
    inplace.run(graph)
    for node in graph.walk():
        if "inplace" in node.attrs and id(node) not in marked:
            del node.attrs["inplace"]


class Scope:
    """The Tensors visible at each point: a stack of sets of ids, one per open block."""

    def __init__(self, graph):
        self.graph = graph
        self.tensors: dict = {}
        self.ids: set = set()
        self.stack: list = [set()]

    def push(self):
        self.stack.append(set())

    def pop(self):
        self.stack.pop()

    def declare(self, decl, node, index, where):
        decl = dict_of(decl, where)
        tid = int_of(decl.get("id"), where)
        if tid in self.ids:
            fail(where, f"the Tensor id %{tid} is defined twice")
        shape = shape_of(decl.get("shape"), where)
        dtype = dtype_of(decl.get("dtype"), where)
        weak = bool_of(decl.get("weak", False), where)
        if weak and (shape or dtype.kind not in "bifc"):
            fail(where, f"a Python number of dtype {dtype} and shape {shape}")
        t = _g.new_tensor(self.graph, node, index, shape, dtype, weak, tid)
        self.ids.add(tid)
        self.tensors[tid] = t
        self.stack[-1].add(tid)
        return t

    def ref(self, tid, where):
        if type(tid) is not int or not any(tid in s for s in self.stack):
            fail(where, f"the reference %{brief(tid)} names no Tensor defined before it")
        return self.tensors[tid]
