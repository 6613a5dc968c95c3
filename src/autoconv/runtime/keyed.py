"""Sets and dicts whose keys are known only when the graph runs (`seen.add(int(v))`,
`counts[v] = counts.get(v, 0) + 1`).

While a graph is traced, such a set or dict keeps its keys (and a dict its values) in two
private Python lists, its *shadow*, that the tracer makes run-time lists: the keys in insertion
order, distinct, and the values in the same order, as Python keeps them. The user's object stays
empty; every operation converted code routes here (`in`, `d[k]`, `d[k] = v`, the methods, `len`,
iteration, `sorted`, `max(d, key=d.get)`, returning it) reads or replaces the shadow, staged by
the graph's tracer (`autoconv.trace.tensors.keyed`). A staged loop or branch carries the shadow
lists as it carries any list it finds in its closures (`shadow_lists`).
"""

from collections import Counter, defaultdict

from autoconv.runtime import staging

_traces = staging.traces

# The dicts that hold keys known only when the graph runs: a plain dict, and the tallies of
# `collections` (`runtime.tallies` gives their own reads and methods), and with sets, every
# object with a shadow.
DICTS = (dict, Counter, defaultdict)
KINDS = (set, *DICTS)
_TALLIES = (Counter, defaultdict)

SET_METHODS = frozenset(("add", "discard", "remove"))
DICT_METHODS = frozenset(("get", "setdefault", "items", "values", "keys", "pop"))
# `Counter`'s own methods, which count (`runtime.tallies`)
_COUNTER_METHODS = frozenset(("update", "most_common", "total", "subtract", "elements"))
# set methods staged as set algebra (`runtime.keyed_sets.METHODS`)
_SET_ALGEBRA = frozenset(
    "union intersection difference symmetric_difference issubset issuperset update "
    "intersection_update difference_update symmetric_difference_update isdisjoint".split()
)


class Shadow:
    """The run-time keys (and values, for a dict) of `obj`: Python lists that hold one
    run-time list each once a key known only when the graph runs was stored."""

    __slots__ = ("obj", "keys", "values", "name", "snapped", "table", "coded", "nones")

    def __init__(self, obj, name):
        self.obj = obj
        self.name = name
        self.snapped = False  # whether a staged statement carries its lists (`shadow_lists`)
        # Keys written in the code (strings), held in the run-time list as indices into
        # `table`; `coded`: None until a key is seen, then whether its keys are such indices.
        self.table: list = []
        self.coded: bool | None = None
        self.nones = False  # whether a value may be None (reads are then Optionals)
        self.keys: list = []
        self.values: list | None = [] if type(obj) in DICTS else None

    def active(self) -> bool:
        return staging.grown_list(self.keys)


_SHADOWS: dict = {}  # id(obj) -> Shadow
# (a module's Counter a trace counted into keeps no run-time keys of a finished graph)
staging.when_idle.append(_SHADOWS.clear)


def shadow(obj, name: str = "", make: bool = False):
    """`obj`'s shadow, made if `make` (None if it has none)."""
    found = _SHADOWS.get(id(obj))
    if found is not None and found.obj is obj:
        return found
    if not make:
        return None
    if len(_SHADOWS) > 1024:
        # The oldest half, of traces done by now: clearing them all dropped the shadows of the
        # trace going on, whose sets then read as the empty Python objects (a wrong result).
        for key in list(_SHADOWS)[:512]:
            del _SHADOWS[key]
    found = _SHADOWS[id(obj)] = Shadow(obj, name)
    return found


def active(obj):
    """The shadow of a set or dict holding run-time keys, or None."""
    if type(obj) not in KINDS or not _SHADOWS:
        return None
    found = shadow(obj)
    return found if found is not None and found.active() else None


def rebound_in_loop(before, after) -> str | None:
    """Why a staged loop cannot carry a variable it rebinds from one set (or dict) to another
    holding keys known only when the graph runs (`seen = {int(v) for v in x if v < 0}` in the
    body: the keys live beside the object the body made), or None."""
    if type(before) not in KINDS or type(after) is not type(before) or before is after:
        return None
    if active(after) is None and active(before) is None:
        return None
    kind = "set" if type(after) is set else "dict"
    return (
        f"is bound in this loop to a new {kind} holding keys known only when the graph runs, "
        f"which a staged loop cannot carry from one iteration to the next. Build the {kind} "
        "once, after the loop (from values the loop carries), or make it before the loop and "
        "store its keys in the body (`.add(k)`, `d[k] = v`)"
    )


def shadow_lists(obj, name: str) -> list:
    """`(list, name)` of the shadow lists of a set or dict a staged statement's closures reach,
    made for an empty one (a key known only when the graph runs may arrive in the statement)
    and for one holding number keys known now, whose lists then mirror its items (such a key
    may arrive, and its keys become run-time ones: `trace.tensors.keyed`); [] for anything
    else."""
    if type(obj) not in KINDS:
        return []
    found = shadow(obj)
    if obj and (found is None or not found.active()):
        if not all(map(number_key, obj)):
            return []
        found = found or shadow(obj, name, make=True)
        # The statement starts from its items as they are now (a list a loop made run-time
        # already, before its other one, stays so).
        if not staging.grown_list(found.keys):
            found.keys[:] = obj
        if found.values is not None and not staging.grown_list(found.values):
            found.values[:] = obj.values()
    if found is None:
        found = shadow(obj, name, make=True)
    elif not obj:
        for lst in (found.keys, found.values or []):
            if lst and not staging.grown_list(lst):
                lst.clear()  # (a mirror of items since removed)
    found.snapped = True
    name = name or found.name
    lists = [(found.keys, f"{name}.keys()" if name else "")]
    if found.values is not None:
        lists.append((found.values, f"{name}.values()" if name else ""))
    return lists


def number_key(key) -> bool:
    """Whether `key` is a Python number, or a tuple of them."""
    t = type(key)
    if t is tuple:
        return all(map(number_key, key))
    return t is int or t is float or t is bool


def stages(obj, key) -> bool:
    """Whether `key` stored into or looked up in `obj` goes to the graph's tracer: a run-time
    key, a dict holding such keys, or a Counter or defaultdict inside a staged branch or loop
    (a key it gets there exists where that path runs: a run-time key of its)."""
    if not _traces:
        return False
    if active(obj) is not None or staging.symbolic_key(key):
        return True
    return type(obj) in _TALLIES and staging.graph_tracer.in_staged_block()


def contains(obj, key):
    """`key in obj` for a set or dict holding run-time keys (else None: not handled)."""
    found = active(obj) if _traces else None
    if found is None:
        return None
    return staging.graph_tracer.keyed("contains", found, key)


def setitem(obj, key, value):
    """`obj[key] = value` of a dict, staged."""
    found = shadow(obj, make=True)
    staging.graph_tracer.keyed("store", found, key, value)
    return obj


def store(target, key, value) -> None:
    """`target[key] = value` for a target converted code cannot rebind (`self.counts[key] =
    n`): a dict holding run-time keys, or given a key known only when the graph runs, stores
    through the graph's tracer (which keeps the dict object); anything else as Python does."""
    if _traces and type(target) in DICTS and stages(target, key):
        staging.graph_tracer.setitem(target, key, value)
        return
    target[key] = value


def delete(obj, key) -> None:
    """`del obj[key]` (converted code: a name bound only to sets and dicts, or an attribute's
    dict): `obj.pop(key)`, staged, for a dict holding run-time keys or given a key known only
    when the graph runs (KeyError when it runs, as eagerly, where the key is missing)."""
    if _traces and type(obj) is Counter and stages(obj, key):
        from autoconv.runtime import tallies  # (it imports this module)

        tallies.delete(obj, key)  # (no KeyError for a missing key, as Python's Counter)
        return
    if _traces and type(obj) in DICTS and stages(obj, key):
        found = shadow(obj, make=True)
        staging.graph_tracer.keyed("pop", found, key)
        return
    try:
        del obj[key]
    except LookupError as e:
        e.as_written = True  # the user's own `del obj[key]` (trace.raising)
        raise


def item(obj, key):
    """`obj[key]` (converted code: a name bound only to sets and dicts)."""
    if _traces and type(obj) in DICTS and type(obj) is not dict and stages(obj, key):
        from autoconv.runtime import tallies  # (it imports this module)

        return tallies.item(obj, key)  # a missing key's count, or default
    if type(obj) is dict and stages(obj, key):
        found = active(obj)
        if found is None:
            if not obj:
                raise KeyError(key)
            return staging.graph_tracer.chosen_item(obj, key)  # (a choice among its keys)
        return staging.graph_tracer.keyed("item", found, key)
    if type(obj) is dict and staging.jax_value(key):  # a key chosen under JAX (`Choice`)
        return staging.jax_ops().keyed_item(obj, key)
    if type(obj) not in DICTS:
        from autoconv.runtime.items import item_at  # (it imports this module)

        return item_at(obj, key)  # `self.arr[i]`: a list or array at a run-time index too
    try:
        return obj[key]
    except LookupError as e:
        e.as_written = True  # the user's own `obj[key]`, read here for them (trace.raising)
        raise


def view(value, ordered: bool = False, keys: bool = False):
    """What `for k in value`, `sorted(value)`, `len(value)`, `max(value)` read: the keys of a
    set or dict holding run-time keys, as a run-time list; else `value`. `ordered`: the order
    matters (a `for` loop), which Python gives a set by hash, not by insertion: refused.
    `keys` (or `ordered`): the keys themselves are read, not only their number."""
    found = active(value) if _traces else None
    if found is None:
        return value
    if ordered and found.values is None:
        staging.graph_tracer.keyed("iterate", found)
    if (ordered or keys) and found.coded:
        staging.graph_tracer.keyed("coded_keys", found)
    return list(found.keys)


def operand(value, test: bool):
    """An operand of `and` / `or` that is a set or dict: in a test (`if d and ...`), what its
    truth reads (`view`); as a value, refused where it holds run-time keys (its truth, and
    so which operand is the result, is known only when the graph runs)."""
    found = active(value)
    if found is None:
        return value
    if test:
        return list(found.keys)
    staging.graph_tracer.keyed("operand", found)
    return value


def iterated(obj):
    """`obj`, which a comprehension or a builtin such as `list()` iterates: refused, naming
    the line, for a set or dict holding run-time keys (Python would see it empty)."""
    found = active(obj) if _traces else None
    if found is not None:
        staging.graph_tracer.keyed("iterated", found)
    return obj


def method(f):
    """The bound method `f` of a set or dict, as converted code calls it: staged where the
    object holds run-time keys or an argument is a key known only when the graph runs."""
    obj, name = f.__self__, f.__name__

    def call(*args, **kwargs):
        symbolic = staging.symbolic_key
        if _traces and type(obj) is Counter and name in _COUNTER_METHODS:
            from autoconv.runtime import tallies  # (it imports this module)

            if active(obj) is not None or tallies.run_time(args, kwargs):
                return tallies.method(name, obj, args, kwargs)
        if _traces and not kwargs and type(obj) is set and name in _SET_ALGEBRA:
            from autoconv.runtime import keyed_sets  # (it imports the control flow, which
            # imports this module)

            if active(obj) is not None or any(map(keyed_sets.run_time, args)):
                return keyed_sets.method(name, obj, args)
        if _traces and not kwargs and not args and name == "copy" and active(obj) is not None:
            from autoconv.runtime import keyed_sets

            return keyed_sets.copied(obj)
        dict_update = name == "update" and type(obj) in DICTS and len(args) == 1
        if _traces and dict_update and active(obj) is None and staging.grown_list(args[0]):
            return _dict_update(obj, args[0], kwargs)  # (`dict(sorted(d.items()))`)
        if _traces and not kwargs and (active(obj) is not None or any(map(symbolic, args))):
            found = shadow(obj, make=True)
            return staging.graph_tracer.keyed(name, found, *args)
        if _traces and dict_update:
            return _dict_update(obj, args[0], kwargs)
        return f(*args, **kwargs)

    return call


def _dict_update(obj, other, kwargs) -> None:
    """`d.update(pairs)` of a dict holding no run-time keys: each pair stored as `d[k] = v` is
    (staged for a key known only when the graph runs; a hash here, in autoconv's code, would
    take a Tensor by identity)."""
    if type(other) in DICTS and active(other) is not None:
        from autoconv.runtime.control_flow import for_stmt  # (it imports this module)

        for_stmt(list(active(other).keys), lambda k: store(obj, k, item(other, k)))
        for k, v in kwargs.items():
            store(obj, k, v)
        return
    if staging.grown_list(other):  # pairs a staged loop appended: each stored when it runs
        from autoconv.runtime.control_flow import for_stmt

        def store_pair(pair):
            k, v = pair  # (a pair of another length: Python's ValueError while tracing)
            store(obj, k, v)

        for_stmt(other, store_pair)
        for k, v in kwargs.items():
            store(obj, k, v)
        return
    pairs = list(other.items() if isinstance(other, dict) else other)
    for pair in pairs:
        if type(pair) is str or len(pair) != 2:
            raise ValueError(
                f"dictionary update sequence element has length {len(pair)}; 2 is required"
            )
        k, v = pair
        store(obj, k, v)
    for k, v in kwargs.items():
        obj[k] = v


def key_function(key, over=None):
    """A sort or `max` key: `d.get` of a dict holding run-time keys as converted code calls
    it (staged: Python's would see the dict empty); of the dict's own keys (`over` is the
    dict: `sorted(d, key=d.get)`), its values, each there; else `key`."""
    owner = getattr(key, "__self__", None)
    if type(owner) in DICTS and getattr(key, "__name__", None) == "get":
        if _traces and active(owner) is not None:
            return (lambda k: item(owner, k)) if owner is over else method(key)
    return key


def extreme(which, obj, key):
    """`max(d, key=d.get)` / `min(...)` of a dict holding run-time keys (else None)."""
    found = active(obj) if _traces else None
    if found is None or getattr(key, "__self__", None) is not obj:
        return None
    if getattr(key, "__name__", None) != "get" or found.values is None:
        return None
    return staging.graph_tracer.keyed(which, found)


def output(value):
    """A set or dict holding run-time keys, among a function's outputs: what the graph gives
    back for it (the Python set or dict, built when it runs); else `value`."""
    found = active(value)
    if found is None:
        return value
    return staging.graph_tracer.keyed("output", found)
