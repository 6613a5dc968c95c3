"""Set algebra on sets holding keys known only when the graph runs (`converters/keyed.py`):
`a & b`, `a | b`, `a - b`, `a ^ b`, `a == b`, `a <= b`, `a |= b`, `set(xs)` of values known only
then, and the methods of the same meaning (`a.union(b)`, `a.issubset(b)`, `a.update(xs)`).
Python would see such a set empty (its keys are in its shadow, `runtime.keyed`); these build
the result from the shadows with the staged `add`, `in` and `for` that a loop written out would
use. A set's order is its hashes', which a result's only staged readers (`sorted`, `len`, `in`,
returning it) do not see. On Python values each is Python's own operator."""

import operator
from collections import Counter, defaultdict
from collections.abc import Mapping

from autoconv.runtime import keyed, py_builtins, staging
from autoconv.runtime.control_flow import for_stmt, if_stmt
from autoconv.runtime.logical import not_

_traces = staging.traces

_OPERATORS = {
    "&": operator.and_,
    "|": operator.or_,
    "-": operator.sub,
    "^": operator.xor,
    "+": operator.add,
    "==": operator.eq,
    "!=": operator.ne,
    "<=": operator.le,
    "<": operator.lt,
    ">=": operator.ge,
    ">": operator.gt,
    "|=": operator.ior,
    "&=": operator.iand,
    "-=": operator.isub,
    "^=": operator.ixor,
}
# set methods and the operator each means (their argument may be any iterable)
METHODS = {
    "union": "|",
    "intersection": "&",
    "difference": "-",
    "symmetric_difference": "^",
    "issubset": "<=",
    "issuperset": ">=",
    "update": "|=",
    "intersection_update": "&=",
    "difference_update": "-=",
    "symmetric_difference_update": "^=",
}


def run_time(value) -> bool:
    """Whether `value` holds items known only when the graph runs: a set or dict holding
    run-time keys, a list a staged loop appended to, a Tensor, or a list or tuple holding one
    (`x.tolist()`)."""
    return (
        keyed.active(value) is not None
        or staging.grown_list(value)
        or staging.symbolic(value)
        or _holds_symbolic(value)
    )


def _members(value) -> list:
    """The items of a set (its run-time keys' list where it holds run-time keys), or of
    another iterable (a list a staged loop appended to stays that list)."""
    found = keyed.active(value)
    if found is not None:
        return list(found.keys)
    return value if staging.grown_list(value) or staging.symbolic(value) else list(value)


def _into(out, items, keep=None) -> None:
    """Adds each of `items` to the set `out` (those `keep` holds true for)."""

    def body(item):
        if keep is None:
            keyed.method(out.add)(item)
        else:
            if_stmt(keep(item), lambda: keyed.method(out.add)(item))

    for_stmt(items, body)


def _set_of(items) -> set:
    out = set()
    _into(out, _members(items))
    return out


def _has(container):
    return lambda item: py_builtins.in_(item, container)


_COMPARED = frozenset(("==", "!=", "<", "<=", ">", ">="))


def op(symbol: str, a, b):
    """`a <symbol> b` (an in-place symbol rebinds `a` to the result, as Python does)."""
    a_set, b_set = type(a) in (set, frozenset), type(b) in (set, frozenset)
    if _traces and (type(a) in keyed.DICTS or type(b) in keyed.DICTS):
        found = keyed.active(a) or keyed.active(b)
        if found is not None and symbol in ("==", "!="):
            from autoconv.runtime import tallies  # (it imports this module)

            return tallies.equal(a, b, symbol == "==")
        if found is not None and symbol in "+-|&" and type(a) is type(b) is Counter:
            from autoconv.runtime import tallies

            return tallies.combined(symbol, a, b)
        if found is not None:  # Python would compare the empty object
            staging.graph_tracer.keyed("operator", found, symbol)
    if not (_traces and (a_set or b_set) and (run_time(a) or run_time(b))):
        if _traces and symbol in _COMPARED and type(a) is type(b) and type(a) in (tuple, list):
            # `c == START` of tuples holding run-time items (the converter could not tell
            # them from sets): item by item when the graph runs, as `ac.compare` does.
            from autoconv.runtime.sequences import compare

            return compare(symbol, a, b)
        return _OPERATORS[symbol](a, b)
    if not (a_set and b_set):
        if symbol in ("==", "!="):
            return symbol == "!="  # a set never equals another type
        return _OPERATORS[symbol](a, b)  # Python's TypeError (its types decide it)
    if symbol == "|=":
        _into(a, _members(b))
        return a
    if symbol == "-=":
        # (a key known only when the graph runs makes `a` a run-time set, its keys first)
        for_stmt(_members(b), lambda item: keyed.method(a.discard)(item))
        return a
    if symbol == "&=":
        return op("-=", a, op("-", a, b))
    if symbol == "^=":
        new = op("-", b, a)  # (found before `a` changes)
        op("-=", a, b)
        return op("|=", a, new)
    if symbol == "&":
        if not run_time(a):
            a, b = b, a  # (a staged test adds the run-time set's keys, never Python ones)
        out = set()
        _into(out, _members(a), _has(b))
        return out
    if symbol == "|":
        out = set()
        _into(out, _members(a))
        _into(out, _members(b))
        return out
    if symbol == "-":
        out = set()
        _into(out, _members(a))
        return op("-=", out, b)
    if symbol == "^":
        return op("|", op("-", a, b), op("-", b, a))
    return _compare(symbol, a, b)


def _compare(symbol, a, b):
    """`a == b`, `a <= b` ...: counts of members the other lacks, compared when the graph
    runs."""
    missing = py_builtins.len(op("-", a, b)) == 0  # a <= b
    extra = py_builtins.len(op("-", b, a)) == 0  # b <= a
    if symbol in ("==", "!="):
        same = missing & extra
        return same if symbol == "==" else not_(same)
    if symbol == "<=":
        return missing
    if symbol == ">=":
        return extra
    if symbol == "<":
        return missing & not_(extra)
    return extra & not_(missing)


def method(name: str, obj, args):
    """`obj.<name>(*args)` of a set holding run-time keys (`METHODS`)."""
    if name == "isdisjoint":
        other = args[0] if type(args[0]) in (set, frozenset) else _set_of(args[0])
        return py_builtins.len(op("&", obj, other)) == 0
    symbol = METHODS[name]
    if symbol.endswith("=") and symbol not in ("<=", ">="):
        for other in args:
            op(symbol, obj, other if type(other) in (set, frozenset) else _set_of(other))
        return None
    out = obj
    if not args:
        return op("|", obj, set())  # `a.union()`: a copy
    for other in args:
        other = other if type(other) in (set, frozenset) else _set_of(other)
        out = op(symbol, out, other)
    return out


def made(items):
    """`set(items)`: staged where an item is known only when the graph runs (`set(x.tolist())`,
    a list a staged loop appended to), else Python's."""
    if _traces and type(items) not in _COLLECTIONS and iter(items) is items:
        items = list(items)  # (a generator of values known only when the graph runs)
    if _traces and run_time(items):
        return _set_of(items)
    return set(items)


_COLLECTIONS = (list, tuple, set, frozenset, dict, str)


def dict_made(*args, **kwargs):
    """`dict(items)` (converted code: one argument): while a graph is traced, a plain dict of
    the items of a dict, Counter or defaultdict holding keys known only when the graph runs
    (which Python would see empty), or of pairs whose keys may be known only then (each
    stored as `d[k] = v` is); else Python's `dict(...)`."""
    if _traces and len(args) == 1 and not kwargs:
        items = args[0]
        if type(items) in keyed.DICTS and keyed.active(items) is not None:
            return copied(items, dict)
        if type(items) in keyed.DICTS or not isinstance(items, Mapping):
            out: dict = {}
            keyed.method(out.update)(items)  # (Python's errors for a bad pair)
            return out
    return dict(*args, **kwargs)


def _holds_symbolic(items) -> bool:
    return type(items) in (list, tuple) and any(map(staging.symbolic_key, items))


def copied(obj, kind=None):
    """`obj.copy()` of a set or dict holding run-time keys (or `dict(obj)`: `kind` dict): a new
    one holding them, in the same order (its shadow's lists are values: the new one shares
    them, with the table of keys written in the code)."""
    if type(obj) is set:
        return _set_of(obj)
    if kind is None:
        kind = type(obj)
    new = kind(obj.default_factory) if kind is defaultdict else kind()
    found, made = keyed.active(obj), keyed.shadow(new, make=True)
    made.keys, made.values = list(found.keys), list(found.values)
    made.table, made.coded, made.nones = list(found.table), found.coded, found.nones
    return new
