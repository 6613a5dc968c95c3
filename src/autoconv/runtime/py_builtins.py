"""Built-ins that staged code must see before Python consumes them.

`range(n)` with a symbolic `n` cannot be built by Python's own `range`, and `enumerate(t)` /
`zip(t, u)` would iterate a symbolic `t` at once. The converter routes these calls in a `for`
header here; on Python values they are Python's own.
"""

import builtins as _py
import sys as _sys
from collections.abc import Iterator as _Iterator
from collections.abc import KeysView as _KeysView
from collections.abc import ValuesView as _ValuesView

from autoconv.runtime import keyed, objects, sequences, staging

_TRACERS = staging.TRACERS
_traces = staging.traces
_modules = _sys.modules


def max(*args, **kwargs):  # noqa: A001
    """Python's `max`; while tracing, symbolic values are compared by staged choices."""
    if not _traces and not kwargs and "jax" not in _modules:
        return _py.max(*args)
    return _extreme("max", args, kwargs)


def min(*args, **kwargs):  # noqa: A001
    """Python's `min`; while tracing, symbolic values are compared by staged choices."""
    if not _traces and not kwargs and "jax" not in _modules:
        return _py.min(*args)
    return _extreme("min", args, kwargs)


def _extreme(which, args, kwargs):
    """`max` or `min` (`which`) where a graph or a JAX trace may be running, or with keywords."""
    if _traces and _py.len(args) == 1 and isinstance(args[0], (_Iterator, _ValuesView, _KeysView)):
        # `max(map(float, x))`, `max(d.values())`: its items, which Python's `max` would use
        # up anyway, so that symbolic ones are compared by staged choices as a list's are
        args = (_py.list(args[0]),)
    if _traces and _py.len(args) == 1 and type(args[0]) in keyed.KINDS:
        found = keyed.extreme(which, args[0], kwargs.get("key"))  # `max(d, key=d.get)`
        if found is not None:
            return found
        args = (keyed.view(args[0], keys=True),)
    if _traces and kwargs.get("key") is not None:
        kwargs = {**kwargs, "key": keyed.key_function(kwargs["key"])}  # `max(ks, key=d.get)`
    if _traces and ("key" in kwargs or _has_tuples(args)):
        return _keyed(which, args, kwargs)
    if kwargs:
        kwargs = _default_unused(args, kwargs)
    if not kwargs and (_traces or "jax" in _modules):  # a graph trace, or maybe a JAX one
        tracer = _items_tracer(args)
        if tracer is not None:
            return tracer.extreme(which, args)
    if kwargs and _traces and _py.len(args) == 1 and staging.grown_list(args[0]):
        return staging.tracer_for(args[0]).extreme(which, args, **kwargs)
    return (_py.max if which == "max" else _py.min)(*args, **kwargs)


def _has_tuples(args) -> bool:
    """Whether the items compared (`max(a, b)` or `max([a, b])`) are tuples (`max(pairs)`), or
    objects of a `@dataclass(order=True)`, compared as the tuples of their fields."""
    items = args[0] if _py.len(args) == 1 and type(args[0]) in (list, tuple) else args
    return _py.any(type(item) is tuple for item in items) or objects.ordered_objects(items)


def _converted(fn):
    """What converted code would call for `fn` (a key function): converted code calls a lambda
    or a function of the user's by its converted form."""
    from autoconv.runtime.calls import converted  # (it imports the control flow)

    return converted(fn)


def _keyed(which, args, kwargs):
    """`max`/`min` with `key=`, or of tuples, while a graph is traced: the key of each item taken
    once, as Python does; compared by the graph's tracer (staged choices, tuples item by item)
    when a key holds a symbolic value, else Python's own answer."""
    if _py.len(args) == 1 and staging.grown_list(args[0]):
        return staging.tracer_for(args[0]).extreme(which, args, **kwargs)
    key = kwargs.get("key")
    if set(kwargs) - {"key", "default"} or (_py.len(args) > 1 and "default" in kwargs):
        return (_py.max if which == "max" else _py.min)(*args, **kwargs)  # Python's TypeError
    items = list(args[0]) if _py.len(args) == 1 else list(args)
    if not items:
        if "default" in kwargs:
            return kwargs["default"]
        raise ValueError(f"{which}() arg is an empty sequence")
    if key is None:
        keys = [objects.order_key(item) for item in items]  # a dataclass: its fields
    else:
        key = _converted(key)  # (a lambda's body is converted where it is called)
        keys = [key(item) for item in items]
    if sequences.holds_symbolic(keys):
        return staging.graph_tracer.sequence("extreme", which, items, keys)
    pick = _py.max if which == "max" else _py.min
    return items[pick(_py.range(_py.len(items)), key=keys.__getitem__)]


def sorted(iterable, /, *, key=None, reverse=False):  # noqa: A001
    """Python's `sorted`; while a graph is traced, items whose keys are symbolic numbers are
    placed by a stable argsort when the graph runs (trace.tensors.sequences)."""
    if _traces:
        key = keyed.key_function(key, iterable)  # `key=counts.get`: read when it runs
        iterable = keyed.view(iterable, keys=True)  # a set or dict holding run-time keys
        shape = getattr(iterable, "shape", None) if type(iterable) is not list else None
        if type(shape) is tuple and shape == (None,) and staging.symbolic(iterable):
            from autoconv.runtime.lists import filtered

            # `sorted(np.bincount(d)[1:])`: of a length known when the graph runs, a run-time
            # list (its items read by a staged loop)
            iterable = filtered(iterable, None, lambda v: v)
        items = list(iterable)
        if staging.grown_list(iterable):
            # A list a staged loop appended to: its `sort` method, on a copy.
            options = {} if key is None else {"key": key}
            if reverse:
                options["reverse"] = reverse
            staging.graph_tracer.list_method(items, "sort", (), options)
            return items
        if key is None:
            keys = [objects.order_key(item) for item in items]  # a dataclass: its fields
        else:
            key = _converted(key)
            keys = [key(item) for item in items]
        if sequences.holds_symbolic(keys):
            return staging.graph_tracer.sequence("sort", items, keys, reverse)
        order = _py.sorted(_py.range(_py.len(items)), key=keys.__getitem__, reverse=reverse)
        return [items[k] for k in order]
    if key is not None and "jax" in _modules:
        items = list(iterable)
        keys = [key(item) for item in items]  # once each, as Python's sort calls it
        if _py.any(map(staging.jax_value, _flat(keys))):
            from autoconv.trace.jax import lists

            lists.refuse_sort(_flat(keys))  # keys JAX traces: refused, not compared
        order = _py.sorted(_py.range(_py.len(items)), key=keys.__getitem__, reverse=reverse)
        return [items[k] for k in order]
    return _py.sorted(iterable, key=key, reverse=reverse)


def _flat(values) -> list:
    return [i for v in values for i in (v if type(v) is tuple else (v,))]


def reversed(seq, /):  # noqa: A001
    """Python's `reversed`; of a list a staged loop appended to (its items known only when the
    graph runs), that list's items in reverse order, as a run-time list."""
    if _traces and staging.grown_list(seq):
        from autoconv.runtime.items import list_item

        return list_item(seq, _py.slice(None, None, -1))
    return _py.reversed(seq)


def _default_unused(args, kwargs):
    """`kwargs` without `default=`, which Python reads only for an empty iterable, when the one
    argument is a list or tuple with items (whose symbolic items are then compared staged)."""
    if (
        "default" in kwargs
        and _py.len(args) == 1
        and type(args[0]) in (list, tuple)
        and args[0]
        and not staging.grown_list(args[0])
    ):
        kwargs = dict(kwargs)
        del kwargs["default"]
    return kwargs


def _items_tracer(args):
    """The tracer of the first symbolic item compared (`max(a, b)` or `max([a, b])`), or of a
    list that a staged loop appended to."""
    if _py.len(args) == 1 and staging.grown_list(args[0]):
        return staging.tracer_for(args[0])
    items = args[0] if _py.len(args) == 1 and type(args[0]) in (list, tuple) else args
    for item in items:
        tracer = _TRACERS[type(item)]
        if tracer is not None:
            return tracer
    return None


def sum(iterable, /, start=0):  # noqa: A001
    """Python's `sum`; while a graph is traced, the sum of a list that a staged loop appended
    to is Python's own sum of its items when the graph runs."""
    if _traces and staging.grown_list(iterable):
        return staging.tracer_for(iterable).list_call(_py.sum, iterable, start)
    return _py.sum(iterable, start)


def next(iterator, *default):  # noqa: A001
    """Python's `next`; while a graph is traced, of a list a staged loop appended to (a
    generator expression with a staged filter, `ac.filtered`): its first item, or `default`
    where it is empty when the graph runs."""
    if _traces and type(iterator) is list and staging.grown_list(iterator):
        from autoconv.runtime.items import list_item
        from autoconv.runtime.logical import if_exp

        if not default:
            from autoconv.errors import StagingError

            raise StagingError(
                "`next()` of a generator whose items a condition known only when the graph "
                "runs selects, without a default: give one (`next(gen, None)`)."
            )
        empty = len(iterator) == 0
        return if_exp(empty, lambda: default[0], lambda: list_item(iterator, 0))
    return _py.next(iterator, *default)


def any(iterable, /):  # noqa: A001
    """Python's `any`; while a graph is traced, a symbolic item's truth is known only when the
    graph runs, so the items after it are all read and the answer is staged."""
    if _traces and staging.grown_list(iterable):
        return staging.tracer_for(iterable).list_call(_py.any, iterable)
    if _traces:
        return _truth(iterable, True)
    return _py.any(iterable)


def all(iterable, /):  # noqa: A001
    """Python's `all`; while a graph is traced, staged past the first symbolic item."""
    if _traces and staging.grown_list(iterable):
        return staging.tracer_for(iterable).list_call(_py.all, iterable)
    if _traces:
        return _truth(iterable, False)
    return _py.all(iterable)


def bool(value=False, /):  # noqa: A001
    """Python's `bool`; while a graph is traced, the truth of a symbolic value is a Python bool
    when the graph runs."""
    if _traces:
        if type(value) is list:
            tracer = staging.tracer_for(value)  # a list holding items a staged loop appended
        else:
            value = objects.tested(value)  # a user's object: its `__bool__`, converted
            tracer = _TRACERS[type(value)]
        truth = getattr(tracer, "truth", None)
        if truth is not None:
            return truth([value], False)
    return _py.bool(value)


def in_(value, items):
    """`value in items`, where `items` is a tuple, list or set written in place (`live in (2,
    3)`) or a name the function binds only to lists (`v in vals` for `vals = list(x)`); while
    a graph is traced, a symbolic value or item of a plain tuple, list or set is compared when
    the graph runs."""
    if _traces and type(items) in keyed.KINDS:
        found = keyed.contains(items, value)  # a set or dict holding run-time keys
        if found is not None:
            return found
    if _traces and type(items) in (tuple, list, set, frozenset, dict):
        if type(value) is list and type(items) in (tuple, list) and _lists_among(items):
            # `sorted(c) in ([1, 2, 3], [2, 3, 4])`: each list compared as `==` compares it
            # (`list_equal`: a run-time list by its length and items when the graph runs).
            from autoconv.runtime.lists import list_equal

            equal = (list_equal(value, i) if type(i) is list else value == i for i in items)
            return _truth(equal, True)
        if staging.grown_list(items):
            return staging.graph_tracer.list_contains(items, value)
        if type(items) in (tuple, list) and sequences.holds_symbolic(value, items):
            return staging.graph_tracer.sequence("contains", items, value)
        if _TRACERS[type(value)] is not None or _py.any(_TRACERS[type(i)] for i in items):
            return _truth((value == item for item in items), True)
        if type(value) is tuple and _symbolic_leaf(value):
            # `(a, b) in {(3, 0), (3, 2)}`: Python hashes the tuple, which a value known only
            # when the graph runs cannot be; each key is compared item by item instead.
            return _truth((_tuple_equal(value, item) for item in items), True)
    if type(items) in (tuple, list) and "jax" in _modules and _jax_items(value, items):
        from autoconv.trace.jax import lists  # compared when the JAX program runs

        if lists.applies(value, items):
            return lists.contains(items, value)
    return value in items


def _lists_among(items) -> bool:
    return _py.any(type(i) is list for i in items)


def _symbolic_leaf(value) -> bool:
    """Whether a tuple (nested tuples too) holds a value of a tracer's."""
    return _py.any(
        _symbolic_leaf(v) if type(v) is tuple else _TRACERS[type(v)] is not None for v in value
    )


def _tuple_equal(a: tuple, b):
    """`a == b` for a tuple `a` holding symbolic values: False for another length or kind,
    else the items' equalities, all of them (staged where symbolic)."""
    if type(b) is not tuple or len(a) != len(b):
        return False
    return _truth((_tuple_equal(x, y) if type(x) is tuple else x == y for x, y in zip(a, b)), False)


def _jax_items(value, items) -> bool:
    return staging.jax_value(value) or _py.any(map(staging.jax_value, items))


def _truth(iterable, stop):
    """`any` (`stop` True) or `all` (False): Python's answer as soon as a concrete item decides
    it, as Python stops there; the symbolic items before it otherwise combined when the graph
    runs."""
    symbolic = []
    for item in iterable:
        tracer = _TRACERS[type(item)]
        if tracer is None:
            if _py.bool(item) is stop:
                return stop
        else:
            symbolic.append(item)
    if not symbolic:
        return not stop
    return _TRACERS[type(symbolic[0])].truth(symbolic, stop)


def len(value):  # noqa: A001
    """Python's `len(value)`; while tracing, the run-time length of a list a staged loop
    appended to (or of a Tensor whose length is known only when the graph runs)."""
    if _traces:
        value = keyed.view(value)  # a set or dict holding run-time keys: their list
        tracer = staging.tracer_for(value)
        if tracer is not None:
            return tracer.len(value)
        found = objects.length(value)  # a user's object: its `__len__`, converted
        if found is not None:
            return found
    return _py.len(value)


_MISSING = object()


def type_of(obj, *args):
    """Python's `type` (`ac.type` in converted code); while tracing, a symbolic value's type is
    the one eager code gives it (`type(t).__name__` is 'float64', not 'Tensor')."""
    if _traces and not args:
        type_of = getattr(_TRACERS[type(obj)], "type_of", None)
        if type_of is not None:
            return type_of(obj)
    elif not args and staging.jax_value(obj):
        from autoconv.trace.jax import types  # eager NumPy's type, not JAX's tracer class

        return types.type_of(obj)
    return type(obj, *args)


def isinstance(obj, classinfo, /):  # noqa: A001
    """Python's `isinstance`; while a graph is traced, of a value whose Python type depends on
    the path the graph takes (trace.tensors.unions), a bool known when the graph runs."""
    if _traces:
        check = getattr(_TRACERS[type(obj)], "isinstance_", None)
        if check is not None:
            return check(obj, classinfo)
    return _py.isinstance(obj, classinfo)


def int(value=_MISSING, /, base=_MISSING):  # noqa: A001
    """Python's `int`; while a graph is traced, `int(t)` of a one-item symbolic number is a
    Python int when the graph runs (Python's own would need the value now)."""
    if base is _MISSING:
        if _traces:
            number = getattr(_TRACERS[type(value)], "number", None)
            if number is not None:
                return number(value, _py.int)
        return 0 if value is _MISSING else _py.int(value)
    return _py.int(base=base) if value is _MISSING else _py.int(value, base)


def float(value=_MISSING, /):  # noqa: A001
    """Python's `float`; while a graph is traced, `float(t)` of a one-item symbolic number is
    a Python float when the graph runs."""
    if _traces:
        number = getattr(_TRACERS[type(value)], "number", None)
        if number is not None:
            return number(value, _py.float)
    return 0.0 if value is _MISSING else _py.float(value)


def round(number, ndigits=None):  # noqa: A001
    """Python's `round`; `round(t, d)` of a JAX tracer is NumPy's decimal rounding (its
    `__round__` is jax.numpy's, which multiplies by a power of ten and differs in the last
    bit: `round(t, 1)` of 2.4 was 2.4000000000000004)."""
    if ndigits is not None:
        rounded = getattr(_TRACERS[type(number)], "round", None)
        if rounded is not None:
            return rounded(number, ndigits)
        return _py.round(number, ndigits)
    return _py.round(number)


def range(*args):  # noqa: A001 - mirrors the built-in it stands for
    """Python's `range(*args)`, or a staged range when a bound is symbolic."""
    for arg in args:
        tracer = _TRACERS[type(arg)]
        if tracer is not None:
            return tracer.range(*args)
    return _py.range(*args)


def enumerate(iterable, start=0):  # noqa: A001
    """Python's `enumerate`, or a staged one over a symbolic iterable."""
    tracer = _TRACERS[type(iterable)] or _TRACERS[type(start)] or _grown(iterable)
    if tracer is not None:
        return tracer.enumerate(iterable, start)
    return _py.enumerate(iterable, start)


def zip(*iterables, **kwargs):  # noqa: A001
    """Python's `zip`, or a staged one when an iterable is symbolic."""
    for iterable in iterables:
        tracer = _TRACERS[type(iterable)] or _grown(iterable)
        if tracer is not None:
            return tracer.zip(*iterables, **kwargs)
    return _py.zip(*iterables, **kwargs)


def _grown(iterable):
    """The graph tracer, for a list whose items a staged loop appended (its length is known
    only when the graph runs); else None."""
    if staging.traces and staging.grown_list(iterable):
        return staging.graph_tracer
    return None
