"""Python values that a staged condition chooses: `label = "pos" if x > 0 else "neg"`,
`return "X"` in one branch and `return None` in another.

A `Choice` is one of a few Python values fixed while tracing (`options`: strings, bytes, None,
enum members, types), picked when the graph runs by `tag`, an int Tensor. Staged statements
join and carry it by its tag; the function returns the option itself. Comparing it with a
value (`label == "pos"`, `winner is None`) or calling a method of it (`label.upper()`) applies
the operation to every option now: the results are a new Choice with the same tag, or numbers
picked from a table when the graph runs. A use that needs the one value while tracing (a dict
key, `str()` of it outside `autoconv.print`) is an error naming the variable.
"""

from __future__ import annotations

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph import tensor as _tensor
from autoconv.graph.errors import StagingError, where
from autoconv.graph.helpers import choose
from autoconv.graph.operators import BINARY_OPERATORS
from autoconv.graph.origin import user_origin
from autoconv.graph.tensor import PY_TYPES, Tensor
from autoconv.trace.core import choices as core_choices
from autoconv.trace.core.choices import atom as atom  # the tracer's modules import it here
from autoconv.trace.core.choices import mapped_results
from autoconv.trace.core.optional import Optional
from autoconv.trace.core.values import map_leaves
from autoconv.trace.tensors.recording import cast, emit

_TAG = ((), np.dtype(np.int64), False)
_NUMBERS = (bool, int, float, complex)


class Choice(core_choices.MapsOptions):
    """One of `options`, the one `tag` (an int Tensor) indexes when the graph runs."""

    __slots__ = ("tag", "options", "ac_name")

    def __init__(self, tag, options: tuple, name: str = "value"):
        self.tag = tag
        self.options = options
        self.ac_name = name  # not `name`: an enum member's `.name` is read through it

    def __repr__(self):
        if not _tensor._internal() and _g.building() and len({repr(o) for o in self.options}) > 1:
            # `f"{labels}"` of a list holding it in converted code: the chosen value's repr,
            # made when the graph runs (as Tensor.__repr__ does).
            marker = _tensor.uses.printing.convert_tensor(output(self), "r")
            if marker is not None:
                return marker
        shown = " or ".join(repr(o) for o in self.options)
        return f"<{self.ac_name}: {shown}, known when the graph runs>"

    # --- uses that map over the options -------------------------------------------------
    def _map(self, fn, what):
        return mapped(self, fn, what)

    def _operand(self, other, option):
        return _value_of(other, option)

    def __add__(self, other):
        if type(other) is Choice and _joins_text(self, other):
            paired = _paired(self, other)
            if paired is not None:
                return paired
        if _joins_text(self, other):
            return _tensor.uses.printing.concat(self, other)
        return self._map(lambda o: o + other, "+")

    def __radd__(self, other):
        if _joins_text(self, other):
            return _tensor.uses.printing.concat(other, self)
        return self._map(lambda o: other + o, "+")

    def __mod__(self, other):
        return self._map(lambda o: o % other, "%")

    def __mul__(self, other):
        if isinstance(other, Tensor) and all(type(o) is str for o in self.options):
            return output(self) * other  # `label * int(c)`: a string made when the graph runs
        return self._map(lambda o: o * other, "*")

    def __rmul__(self, other):
        if isinstance(other, Tensor) and all(type(o) is str for o in self.options):
            return other * output(self)
        return self._map(lambda o: other * o, "*")

    def __eq__(self, other):
        if type(other) is Choice:
            return pairwise(self, other, core_choices.same_atom)
        return core_choices.MapsOptions.__eq__(self, other)

    def __ne__(self, other):
        if type(other) is Choice:
            return pairwise(self, other, lambda a, b: not core_choices.same_atom(a, b))
        return core_choices.MapsOptions.__ne__(self, other)

    def __contains__(self, item):
        return self._one(lambda o: item in o, "`in` on it (Python makes the answer a bool)")

    def __getitem__(self, key):
        return self._map(lambda o: o[key], "[]")

    def __len__(self):
        return self._one(len, "len()")

    def __bool__(self):
        return self._one(bool, "its truth")

    def __hash__(self):
        self._fail("is used as a dict key or set member, which needs the one value now")

    def __str__(self):
        if len({str(o) for o in self.options}) > 1 and _g.building():
            # `str(label)` inside `autoconv.print(...)`: the chosen value's, printed then.
            marker = _tensor.uses.printing.convert_tensor(output(self), "s")
            if marker is not None:
                return marker
        return self._one(str, "str()")

    def __format__(self, spec):
        if len({format(o, spec) for o in self.options}) > 1 and _g.building():
            # An f-string: inside `autoconv.print(...)` formatted when the graph runs; else an
            # error saying so.
            return _tensor.uses.printing.format_tensor(output(self), spec)
        return self._one(lambda o: format(o, spec), "formatting it")

    def __iter__(self):
        self._fail("is iterated, which needs the one value now")

    def _one(self, fn, what):
        """`fn` of the value, where every option gives the same answer; else an error."""
        answers = {fn(o) for o in self.options}
        if len(answers) == 1:
            return answers.pop()
        self._fail(f"needs {what} while tracing, and that differs between them")

    def _fail(self, why):
        shown = " or ".join(repr(o) for o in self.options)
        name = _held_as(self) or self.ac_name
        # A conditional expression's value has no name of its own: its hint says `value`.
        named = name.replace(".", "").replace("_", "").replace("[", "").replace("]", "")
        named = named.isalnum()
        hint = name if named else "value"
        raise StagingError(
            f"{where(user_origin(3))}: {f'`{name}`' if named else name} is {shown}, chosen by "
            f"a condition known only when the graph runs, and {why}. Compare it (`{hint} == "
            "...`), return it, or choose numbers (an index) in the graph and map them to values "
            "outside it."
        )


def _paired(a: Choice, b: Choice):
    """`a + b` of strings two staged conditions chose: a choice among the joined strings
    (compared, printed and returned as any; kept by the JAX backend as a tag), picked by both
    tags; None for more than `PAIRS` pairs (then a string made when the graph runs)."""
    joined = [x + y for x in a.options for y in b.options]
    if len(joined) > PAIRS:
        return None
    options = options_of(*joined)
    remap = np.asarray([options.index(j) for j in joined], np.int64)
    at = a.tag * len(b.options) + b.tag
    return Choice(np.take(_g.add_const(remap, (remap.shape, remap.dtype), True), at), options)


PAIRS = 64


def _joins_text(choice: Choice, other) -> bool:
    """Whether `choice + other` (or `other + choice`) joins strings into one made when the graph
    runs: `choice`'s options are strings and `other` is one known only then (another choice
    of strings, an f-string of a run-time value)."""
    if not all(type(o) is str for o in choice.options):
        return False
    if type(other) is Choice:
        return all(type(o) is str for o in other.options)
    return _tensor.uses.printing.is_text(other)


def pairwise(a: Choice, b: Choice, compare):
    """`compare` of two values that different staged conditions chose (`a == b`): a bool
    where every pair of options agrees, else a bool picked by both tags when the graph runs."""
    table = [[compare(x, y) for y in b.options] for x in a.options]
    flat = {v for row in table for v in row}
    if len(flat) == 1:
        return flat.pop()
    cells = np.asarray(table, dtype=bool).reshape(-1)
    at = a.tag * len(b.options) + b.tag
    return _weak(np.take(_g.add_const(cells, (cells.shape, cells.dtype), True), at))


def _value_of(other, option):
    """The other operand of a comparison, for one option (a Choice compares option-wise only
    when it is the same choice: `a == a`)."""
    if isinstance(other, Choice):
        raise StagingError(
            f"{where(user_origin(4))}: comparing two values that staged conditions chose "
            f"(`{other.ac_name}`): compare the numbers or conditions that chose them instead."
        )
    return other


def mapped(choice: Choice, fn, what: str):
    """`fn` of each option: a Choice of the results (atoms), or the results as a number
    picked when the graph runs (all of one Python number type), or the one result. Options on
    which `fn` raises a built-in exception (`None.upper()`) raise it when the graph runs, on
    the path that picked one, as eager code does there."""
    results, raised = [], {}
    for k, o in enumerate(choice.options):
        try:
            results.append(fn(o))
        except StagingError:
            raise
        except Exception as e:  # noqa: BLE001 - the operation fails on this option
            results.append(None)
            raised[k] = e
    if raised and len(raised) == len(results):
        first = next(iter(raised.values()))
        if all(type(e) is type(first) for e in raised.values()):
            raise first  # (every option raises it: eager code does, whichever the graph picks)
        _refuse(choice, what, first)
    tag = choice.tag
    if raised:
        if not all(type(e) in _STAGED_RAISES for e in raised.values()):
            _refuse(choice, what, next(iter(raised.values())))
        tag = _checked_tag(choice, raised)
        stand_in = next(r for k, r in enumerate(results) if k not in raised)
        results = [stand_in if k in raised else r for k, r in enumerate(results)]
    kind = mapped_results(results)
    if kind == "one":
        return results[0]  # (a check above runs where it is recorded: it is an effect)
    if kind == "choice":
        return Choice(tag, tuple(results), choice.ac_name)
    if kind == "table":
        table = np.asarray(results)
        picked = np.take(_g.add_const(table, (table.shape, table.dtype), True), tag)
        return _weak(picked)
    choice._fail(f"{what} gives values that are not strings or numbers of one type")


def _refuse(choice: Choice, what: str, e: Exception):
    advice = (
        f"test `if {choice.ac_name} is not None:` before it"
        if None in choice.options
        else "give it values for which this works on every path"
    )
    raise StagingError(
        f"{where(user_origin(4))}: `{choice.ac_name}` is "
        f"{' or '.join(repr(o) for o in choice.options)}, chosen by a condition known only "
        f"when the graph runs, and {what} of one of them raises {type(e).__name__}: {e}. "
        f"The graph cannot raise that on that path only: {advice}."
    ) from None


# Exceptions the graph raises where an option that raised one is picked (a saved graph holds
# only built-in ones).
_STAGED_RAISES = (TypeError, AttributeError, ValueError, KeyError, IndexError, ZeroDivisionError)


def _checked_tag(choice: Choice, raised: dict):
    """`choice`'s tag behind one check per option in `raised`, which raises that option's
    exception when the graph runs where the tag picks it."""
    from autoconv.graph.helpers import checked_raise

    tag = choice.tag
    for k, e in raised.items():
        ok = np.not_equal(tag, _g.add_const(np.int64(k), _TAG, True))
        node = _g.Node("helper", "require", checked_raise, (ok, tag, e), attrs={"raises": True})
        node.effect = True  # it raises where eager code would, even if the result is unused
        _g.add_node(node, [_TAG], user_origin(4))
        tag = node.outputs[0]
    return tag


def _held_as(value) -> str | None:
    """The name of the user's local that holds `value` where the error is raised, or None."""
    from autoconv.trace.tensors.user_code import user_frame

    frame = user_frame()
    if frame is None:
        return None
    names = [k for k, v in frame.f_locals.items() if v is value and k.isidentifier()]
    return names[0] if len(names) == 1 else None


def _weak(t: Tensor) -> Tensor:
    """`t` as the Python number it is when the graph runs (a weak Tensor)."""
    return cast(t, PY_TYPES[t.dtype.kind])


def tag_of(value, options: tuple):
    """The tag of `value` (an atom, or a Choice) among `options`, in the block being built."""
    if isinstance(value, Choice):
        remap = [options.index(o) for o in value.options]
        if remap == list(range(len(remap))):
            return value.tag
        table = np.asarray(remap, np.int64)
        return np.take(_g.add_const(table, (table.shape, table.dtype), True), value.tag)
    return _g.add_const(np.int64(options.index(value)), _TAG, True)


def options_of(*values) -> tuple:
    """The options of values that are atoms or Choices, each once, in order."""
    return core_choices.options_of(
        *values, options=lambda v: v.options if isinstance(v, Choice) else None
    )


def output(choice: Choice):
    """The chosen value itself, for a function's result or a print: a node giving it."""
    return emit("helper", "choose", choose, (choice.tag, choice.options), {}, [((), object)])[0]


CHOSEN: dict = {}
"""Other values a staged statement chose, by type (`unions.Union`, which builds on this
module, registers itself): what a function's result (or a print) holds of one."""

TRUTHS: dict = {}
"""The same types: the truth of one (`if value:`), a bool Tensor."""


def chosen(value):
    """`value` (a function's outputs) with each Choice made the value it picks (`output`),
    inside Optionals too (`return "first", (i, n)` on one path, None on another)."""

    def leaf(v):
        if type(v) is Choice:
            return output(v)
        if type(v) in CHOSEN:
            return CHOSEN[type(v)](v)
        if isinstance(v, Optional):
            return v.like(v.flag, chosen(v.value))
        return v

    return map_leaves(value, leaf)


def truth(choice: Choice):
    """`bool(choice)` when the graph runs: a bool Tensor (or a bool, if all agree)."""
    return mapped(choice, bool, "its truth")


_g.HOLDERS[Choice] = (
    lambda v: (v.tag,),
    lambda v, new: Choice(new[0], v.options, v.ac_name),
)


# --- comparisons of chosen values with each other, and their order -------------------------
# `a < b` where `a = "b" if x > 0 else "a"`, or the names of two objects a sort placed
# (`min(tasks)` of a `@dataclass(order=True)` compares `(priority, name)` tuples): every pair of
# options is compared now, as Python compares them, and the answer is a table of bools read at
# the two tags when the graph runs.

_OPS = {op: BINARY_OPERATORS[op] for op in ("<", "<=", ">", ">=", "==", "!=")}


def compared(a, b, symbol: str):
    """`a symbol b` of a Choice and another Choice or constant: a Python bool when every pair
    of options agrees, else a bool picked from a table when the graph runs; NotImplemented
    for another kind of operand."""
    if not all(isinstance(v, Choice) or atom(v) for v in (a, b)):
        return NotImplemented
    op = _OPS[symbol]
    left = a.options if isinstance(a, Choice) else (a,)
    right = b.options if isinstance(b, Choice) else (b,)
    try:
        table = np.asarray([[bool(op(x, y)) for y in right] for x in left], np.bool_)
    except TypeError as e:
        name = a.ac_name if isinstance(a, Choice) else b.ac_name
        raise StagingError(
            f"{where(user_origin(3))}: `{name}` is chosen by a condition known only when the "
            f"graph runs, and `{symbol}` of one of its values raises TypeError: {e}. Compare "
            "values of one kind."
        ) from None
    if table.all() or not table.any():
        return bool(table.flat[0])
    ta = a.tag if isinstance(a, Choice) else _g.add_const(np.int64(0), _TAG, True)
    tb = b.tag if isinstance(b, Choice) else _g.add_const(np.int64(0), _TAG, True)
    flat = table.reshape(-1)
    const = _g.add_const(flat, (flat.shape, flat.dtype), True)
    return _weak(np.take(const, ta * len(right) + tb))


def _method(symbol: str, reflected: bool = False):
    def compare(self, other):
        return compared(other, self, symbol) if reflected else compared(self, other, symbol)

    return compare


for _name, _symbol in (("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">=")):
    setattr(Choice, f"__{_name}__", _method(_symbol))
