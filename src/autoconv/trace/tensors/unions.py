"""Values whose Python kind depends on the path a staged statement took: `return "none above"`
on one path and `return i` on another, `best = "silence"` or a list, `cheapest = o` among
objects.

A `Union` holds a run-time `tag` (an int Tensor) saying which of its `alternatives` the path
took, and each alternative: strings, None and other constants, and objects that already
existed before the statement, stay as they are (the function returns the very object); arrays,
numbers and containers of them are outputs of the staged statement, with stand-in zeros on the
paths that do not take them (never read there). Returning one gives the alternative the tag
picks, as eager code has it (`union_pick`).

Uses inside the graph that can be staged apply to every alternative and pick the result by the
tag: `is None`, `==` and `!=`, `isinstance`, and reading an attribute of objects (None among
them raises eager's AttributeError on its path). Any other use needs the one alternative while
tracing: a StagingError naming the variable, its kinds and the line.
"""

from __future__ import annotations

import numpy as np

from autoconv.errors import StagingError
from autoconv.graph import graph as _g
from autoconv.graph.eager_types import eager_type
from autoconv.graph.errors import where
from autoconv.graph.helpers import Slot, mixed_output, union_pick
from autoconv.graph.origin import user_origin
from autoconv.graph.tensor import Tensor
from autoconv.runtime import keyed as keyed_rt
from autoconv.trace.core.values import map_leaves, unbound
from autoconv.trace.tensors import choices
from autoconv.trace.tensors.accumulated import ListAccum
from autoconv.trace.tensors.choices import _TAG, Choice, atom
from autoconv.trace.tensors.optionals import STAND_INS, Optional, _zero, materialized, zeros_like
from autoconv.trace.tensors.path_types import tagged
from autoconv.trace.tensors.recording import emit

_NUMBERS = (bool, int, float, complex)


class Union:
    """One of `alternatives`, the one `tag` (an int Tensor) indexes when the graph runs."""

    __slots__ = ("ac_tag", "ac_alternatives", "ac_name")

    def __init__(self, tag, alternatives: tuple, name: str = "value"):
        # Named so that no attribute of the user's objects it holds hides behind them
        # (`it.name` of objects that have a `name`, read by `union_uses.attribute`).
        self.ac_tag = tag
        self.ac_alternatives = alternatives
        self.ac_name = name

    def __repr__(self):
        return f"<{self.ac_name}: {kinds_text(self.ac_alternatives)}, known when the graph runs>"

    def describe(self) -> str:
        """What it is, for messages (`leaves._spec_text`)."""
        return f"{kinds_text(self.ac_alternatives)} (by the path a staged statement took)"

    # --- uses staged for every alternative ----------------------------------------------
    # `==`, `!=` and reading an attribute: set by `union_uses`, which stages them.

    # --- uses that need the one alternative now -----------------------------------------
    def __bool__(self):
        _fail(self, "its truth")

    def __iter__(self):
        _fail(self, "iterating over it")

    def __len__(self):
        _fail(self, "len()")

    def __getitem__(self, key):
        _fail(self, "indexing it")

    def __setitem__(self, key, value):
        _fail(self, "storing into it")

    def __call__(self, *args, **kwargs):
        _fail(self, "calling it")

    def __hash__(self):
        _fail(self, "using it as a dict key or set member")

    def __str__(self):
        if _g.building():
            from autoconv.graph import tensor as _tensor

            # `autoconv.print(...)` of it: the chosen value's text, made when the graph runs.
            marker = _tensor.uses.printing.convert_tensor(output(self), "s")
            if marker is not None:
                return marker
        _fail(self, "str()")

    def __format__(self, spec):
        if _g.building():
            from autoconv.graph import tensor as _tensor

            return _tensor.uses.printing.format_tensor(output(self), spec)
        _fail(self, "formatting it")

    def __array__(self, dtype=None, copy=None):
        _fail(self, "using it as an array")

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        _fail(self, f"np.{ufunc.__name__}")

    def __array_function__(self, func, types, args, kwargs):
        _fail(self, f"np.{func.__name__}")


def _operator_error(symbol):
    def fail(self, *args):
        _fail(self, f"`{symbol}`")

    return fail


for _name, _symbol in (
    ("add", "+"),
    ("sub", "-"),
    ("mul", "*"),
    ("truediv", "/"),
    ("floordiv", "//"),
    ("mod", "%"),
    ("pow", "**"),
    ("matmul", "@"),
    ("and", "&"),
    ("or", "|"),
    ("xor", "^"),
):
    setattr(Union, f"__{_name}__", _operator_error(_symbol))
    setattr(Union, f"__r{_name}__", _operator_error(_symbol))
for _name, _symbol in (
    ("lt", "<"),
    ("le", "<="),
    ("gt", ">"),
    ("ge", ">="),
    ("neg", "-"),
    ("pos", "+"),
    ("abs", "abs()"),
    ("invert", "~"),
    ("int", "int()"),
    ("float", "float()"),
    ("index", "an index"),
    ("contains", "`in`"),
):
    setattr(Union, f"__{_name}__", _operator_error(_symbol))


def kind_of(v) -> str:
    """The kind of one alternative, for messages."""
    if v is None:
        return "None"
    if isinstance(v, Tensor):
        kind = eager_type(v)
        if kind is np.ndarray:
            return "an array"
        return _a(getattr(kind, "__name__", "number")) if kind is not None else "a number"
    if type(v) in (str, bytes) or type(v) in _NUMBERS:
        return f"{type(v).__name__} {v!r}"
    if type(v) in (tuple, list, dict):
        return f"a {type(v).__name__} of {len(v)}"
    if isinstance(v, np.ndarray):
        return "an array"
    if isinstance(v, np.generic):
        return _a(type(v).__name__)  # a NumPy scalar: "a float64", as for a graph value
    return f"{_a(type(v).__name__)} object"


def _a(noun: str) -> str:
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def kinds_text(alternatives) -> str:
    return " or ".join(dict.fromkeys(kind_of(a) for a in alternatives))


def _fail(union: Union, what: str, depth: int = 3):
    name = _held_as(union) or union.ac_name
    # A conditional expression's value has no name of its own: its hints say `value`.
    named = name.replace(".", "").replace("_", "").isalnum()
    hint = name if named else "value"
    raise StagingError(
        f"{where(user_origin(depth))}: {f'`{name}`' if named else name} is "
        f"{kinds_text(union.ac_alternatives)} depending on the path a staged statement took "
        f"(known only when the graph runs), and {what} needs the one it is while tracing. "
        f"Test which it is first (`{hint} is None`, `{hint} == ...` or "
        f"`isinstance({hint}, ...)` in an `if`), or give the variable one kind on every path "
        "(a number, and a flag for the special case)."
    )


# --- joining two paths' values (trace.tensors.merge) ----------------------------------------


def joins(x, y) -> bool:
    """Whether `x` (one path) and `y` (another) join as a Union: either is one, or both can be
    alternatives and they are not of one kind that the merge joins leaf by leaf."""
    return _alternative(x) and _alternative(y)


def _alternative(v, top: bool = True) -> bool:
    """A value a Union can hold: a constant, an array or number (or one that may be None), an
    object, or tuples, lists and dicts of them; at the top, also a Union, a Choice or a value
    that may be None (an Optional), whose alternatives it takes; not a run-time list or an
    unbound name."""
    if atom(v):
        return True
    if isinstance(v, (Union, Choice)):
        return top
    if isinstance(v, Optional) and v.missing is None:
        if top:
            return _alternative(v.value, False)  # None, or its value: two alternatives
        return isinstance(v.value, Tensor) and v.value.py_kinds is None  # returned as it is
    if isinstance(v, ListAccum) or unbound(v):
        return False
    if isinstance(v, Tensor):
        return v.py_kinds is None
    if type(v) in _NUMBERS or isinstance(v, (np.ndarray, np.generic)):
        return True
    t = type(v)
    if t is tuple or t is list or (isinstance(v, tuple) and hasattr(t, "_fields")):
        return all(_alternative(x, False) for x in v)
    if t in keyed_rt.KINDS and _run_time_keys(v):
        return False  # its keys live beside it (`runtime.keyed`), which a Union does not hold
    if t is dict:
        return all(_alternative(x, False) for x in v.values())
    return _object(v)


def _run_time_keys(v) -> bool:
    """Whether set or dict `v` holds keys known only when the graph runs, or a staged
    statement carries its keys' lists (which a branch may have made run-time ones)."""
    shadow = keyed_rt.shadow(v)
    return shadow is not None and (shadow.snapped or shadow.active())


def _object(v) -> bool:
    """A user's object (chosen by identity, its attributes read by a pick)."""
    if isinstance(v, (type, tuple, list, dict, Tensor, np.ndarray, np.generic, Union, Choice)):
        return False
    if isinstance(v, (Optional, ListAccum)) or atom(v) or type(v) in _NUMBERS:
        return False
    return hasattr(v, "__dict__") or hasattr(type(v), "__slots__")


is_object = _object


def _same(a, b) -> bool:
    return a is b or (atom(a) and atom(b) and type(a) is type(b) and a == b)


def _stand_in(union: Union) -> Union:
    """A value of another kind on each path, where it does not exist: its first alternative,
    each alternative a stand-in (`optionals.zeros_like`)."""
    tag = _g.add_const(np.int64(0), _TAG, True)
    return Union(tag, tuple(zeros_like(a) for a in union.ac_alternatives), union.ac_name)


STAND_INS[Union] = _stand_in


def join(merger, name: str, x, y):
    """The leaf plan of a variable that is `x` in one block of `merger` (a `merge._Merger`)
    and `y` in the other, as a Union: pairs for its tag and its alternatives' graph values."""
    alternatives: list = []

    def index(v) -> int:
        for k, a in enumerate(alternatives):
            if _same(a, v):
                return k
        alternatives.append(v)
        return len(alternatives) - 1

    paths = []  # per block: (its tag, or None for one alternative; its alternatives' indices)
    for v in (x, y):
        if isinstance(v, Union):
            paths.append((v.ac_tag, [index(a) for a in v.ac_alternatives]))
        elif isinstance(v, Choice):
            paths.append((v.tag, [index(a) for a in v.options]))
        elif isinstance(v, Optional):
            paths.append((v.flag, [index(None), index(v.value)]))  # its flag: 0 None, 1 value
        else:
            paths.append((None, [index(v)]))
    graph = _g.current().graph
    tags = []
    for block, (tag, own) in zip(merger.blocks, paths):
        with _g.build(graph, block):
            if tag is None:
                tags.append(_g.add_const(np.int64(own[0]), _TAG, True))
            elif type(tag) is bool:  # an Optional whose flag is known now
                tags.append(_g.add_const(np.int64(own[1] if tag else own[0]), _TAG, True))
            elif isinstance(tag, Tensor) and tag.dtype.kind == "b":
                tags.append(np.where(tag, np.int64(own[1]), np.int64(own[0])))
            elif own == list(range(len(own))):
                tags.append(tag)
            else:
                table = np.asarray(own, np.int64)
                tags.append(np.take(_g.add_const(table, (table.shape, table.dtype), True), tag))
    merger.pairs.append((tags[0], tags[1], _TAG))
    tag_pair = len(merger.pairs) - 1
    slots = []
    for k, alt in enumerate(alternatives):
        found = _g.tensors_in(alt)
        if _object(alt):
            _check_object(merger, name, alt)
            slots.append(None)
            continue
        if not found:
            slots.append(None)
            continue
        pairs = []
        for t in found:
            on = [t if k in own else _zero(t) for _, own in paths]
            merger.pairs.append((on[0], on[1], (t.shape, t.dtype, t.weak)))
            pairs.append(len(merger.pairs) - 1)
            if t.py_kinds is not None:
                # A number whose Python type is its path's (`m[0] += s` in a branch not taken
                # keeps a Python 0.0): its kind tag goes along (`resolve` tags the value).
                tag, kinds, what = t.py_kinds
                on = [tag if k in own else np.int64(0) for _, own in paths]
                merger.pairs.append((*on, _TAG))
                pairs[-1] = (pairs[-1], len(merger.pairs) - 1, kinds, what)
        slots.append(pairs)
    return ("union", tag_pair, tuple(alternatives), slots, named(name, merger.origin))


def _held_as(value) -> str | None:
    """The name of the user's local that holds `value` where the error is raised (`r` in
    `r = helper(x)`, where the union is named for the helper's return value), or None."""
    from autoconv.trace.tensors.user_code import user_frame

    frame = user_frame()
    if frame is None:
        return None
    names = [k for k, v in frame.f_locals.items() if v is value and k.isidentifier()]
    return names[0] if len(names) == 1 else None


def named(name: str, origin) -> str:
    """`name`, or for a conditional expression's value the name its line binds (for
    messages about what the statement chose)."""
    return name if name.isidentifier() else _assigned(origin) or name


def _assigned(origin) -> str | None:
    """The name a conditional expression's value is bound to on the user's line (`r` in
    `r = "none" if c else v`), for messages; None when the line binds no one name."""
    import ast
    import linecache

    if not origin:
        return None
    try:
        body = ast.parse(linecache.getline(origin[0], origin[1]).strip()).body
    except SyntaxError:
        return None
    if len(body) == 1 and isinstance(body[0], ast.Assign) and len(body[0].targets) == 1:
        target = body[0].targets[0]
        return target.id if isinstance(target, ast.Name) else None
    return None


def _check_object(merger, name, obj) -> None:
    """An object chosen by a staged statement is returned as itself: the graph values it holds
    must exist before the statement (an object made in a branch holds that branch's)."""
    held = _g.tensors_in(list(vars(obj).values())) if hasattr(obj, "__dict__") else []
    inside = {id(n) for block in merger.blocks for n in _g.walk(block)}
    if any(t.node is not None and id(t.node) in inside for t in held):
        merger._error(
            f"`{name}` is {_a(type(obj).__name__)} object made in a branch of this {merger.what}, "
            "holding values computed there, and another value on the other path. Make the "
            "objects before the statement and choose among them there, or choose the values "
            "(its attributes) in the branches and make the object after it."
        )


def resolve(node, leaf) -> Union:
    """The Union a merged leaf (`join`'s plan) stands for after the staged statement `node`."""
    _, tag, alternatives, slots, name = leaf
    alts = []
    for alt, pairs in zip(alternatives, slots):
        if pairs is None:
            alts.append(alt)
            continue
        outputs = iter(_slot_value(node, j) for j in pairs)
        alts.append(_g.map_tensors(alt, lambda t, it=outputs: next(it)))
    return Union(node.outputs[tag], tuple(alts), name)


def _slot_value(node, j):
    """A value of an alternative after the statement `node`: its output, tagged with its
    kinds where its Python type depends on the path (`join`)."""
    if type(j) is not tuple:
        return node.outputs[j]
    value, tag, kinds, what = j
    return tagged(node.outputs[value], node.outputs[tag], kinds, what)


def _slot(j, t) -> Slot:
    """Where value `t` goes in an alternative's shell: a number its path's type (`as_kind`)
    as the graph gives it (`object`), anything else as eager code types it."""
    mixed = t.node is not None and t.node.kind == "helper" and t.node.fn is mixed_output
    return Slot(j, object if mixed else eager_type(t))


def output(union: Union):
    """The alternative the path took, for a function's result or a print: a node giving it."""
    from autoconv.trace.tensors.accumulated import check_output

    for alt in union.ac_alternatives:
        check_output(alt)
    shells, values = [], []
    for alt in union.ac_alternatives:
        # A number that may be None inside the alternative: its value, or None, then.
        # (and a number whose Python type is its path's: as that type)
        alt = map_leaves(alt, lambda v: materialized(v) if _materialize(v) else v)
        found = _g.tensors_in(alt)
        slots = iter(_slot(j, t) for j, t in enumerate(found))
        shells.append(_g.map_tensors(alt, lambda t, it=slots: next(it)))
        values.append(tuple(found))
    args = (union.ac_tag, tuple(shells), tuple(values))
    return emit("helper", "union", union_pick, args, {}, [((), object)])[0]


def _materialize(v) -> bool:
    return isinstance(v, Optional) or (isinstance(v, Tensor) and v.py_kinds is not None)


_g.HOLDERS[Union] = (
    lambda v: (v.ac_tag, v.ac_alternatives),
    lambda v, new: Union(new[0], tuple(new[1]), v.ac_name),
)
choices.CHOSEN[Union] = output  # a function's result: the alternative the path took
