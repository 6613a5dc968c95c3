"""`in` and the methods other than `append` of a list that converted code appends to
(`converters/list_items.py`): plain Python, except for a list a staged loop appended to while a
graph is traced, whose items are known only when the graph runs."""

import sys

from autoconv.runtime import sequences, staging
from autoconv.runtime.calls import converted
from autoconv.runtime.control_flow import for_stmt, if_stmt
from autoconv.runtime.py_builtins import _jax_items, in_

_traces = staging.traces
_modules = sys.modules
CHANGES = frozenset(("pop", "insert", "remove", "sort", "reverse"))
"""The list methods that change the list (the others read it)."""


def list_contains(target, value):
    """`value in target`."""
    if _traces and staging.grown_list(target):
        return staging.graph_tracer.list_contains(target, value)
    # A list or tuple of symbolic values or items is compared when the graph runs; a set or
    # dict (`k in self.d` of an attribute) is searched by key, staged for run-time keys.
    return in_(value, target)


def list_equal(a, b, equal: bool = True):
    """`a == b` (`a != b` where not `equal`) where either may be a list: two lists, one of
    them grown by a staged loop (its items known only when the graph runs), are equal where
    they have the same length and items then."""
    if _traces and type(a) is list and type(b) is list:
        if staging.grown_list(a) or staging.grown_list(b) or _symbolic_numbers(a, b):
            import numpy as np

            from autoconv.runtime.logical import not_

            same = converted(np.array_equal)(a, b)
            return same if equal else not_(same)
    return a == b if equal else a != b


def _symbolic_numbers(a, b) -> bool:
    """Lists of the same length whose items are numbers, some known only when the graph runs
    (`a.tolist() == [1, 2]`): Python's `==` would take an item's comparison as a bool."""
    if len(a) != len(b) or not sequences.holds_symbolic(a, b):
        return False
    return all(type(v) not in _CONTAINERS and getattr(v, "ndim", 0) == 0 for v in (*a, *b))


_CONTAINERS = (list, tuple, dict, set, str, bytes)


def deque(items=(), maxlen=None, /):
    """`collections.deque(items, maxlen)` used as a worklist (converters/deques.py): while a
    graph is traced, a list, whose items staged loops and branches carry (`popleft()` is its
    `pop(0)`; the converter keeps its `maxlen`); otherwise the deque."""
    if _traces:
        import collections

        if maxlen is None or type(items) in (list, tuple, range):
            return list(collections.deque(items, maxlen))  # (its last `maxlen` items)
        return list(items)  # (a run-time list: the converter's statements trim it)
    import collections

    return collections.deque(items, maxlen)


# A worklist deque's methods, of the list it is while a graph is traced.
_DEQUE_METHODS = {
    "popleft": lambda args: ("pop", (0, *args)),
    "appendleft": lambda args: ("insert", (0, *args)),
}


def list_method(target, name, *args, **kwargs):
    """`target.name(*args, **kwargs)`, for `name` one of converters.list_items.METHODS (or
    `index`, `count`, `remove`, `sort` of any local name: converters/calls.py). While a graph
    is traced: staged on a list a staged loop appended to, or that a staged loop's body
    changes (the loop carries it as a run-time list), or on a plain list or tuple with
    symbolic items (runtime.sequences), or given a symbolic argument; other objects' methods
    are called converted, as any call."""
    if name in _DEQUE_METHODS and type(target) is list:
        name, args = _DEQUE_METHODS[name](args)
    if name == "extend" and type(target) is list and len(args) == 1 and not kwargs:
        return _extend(target, args[0])
    if _traces:
        tracer = staging.graph_tracer
        if staging.grown_list(target) or (
            type(target) is list and name in CHANGES and tracer.in_staged_loop(target)
        ):
            return tracer.list_method(target, name, args, kwargs)
        result = sequences.staged_method(target, name, args, kwargs)
        if result is not sequences.PYTHON:
            return result
        if type(target) is list and any(map(staging.symbolic, args)):
            return tracer.list_method(target, name, args, kwargs)
        if type(target) is list and name in CHANGES and target:
            tracer.note_kind(target)  # a staged loop that later pops it may find it empty
    if name in _COMPARING and len(args) == 1 and type(target) in (list, tuple) and not kwargs:
        found = _jax_method(target, name, args[0])
        if found is not _PYTHON:
            return found
    if name == "sort" and type(target) is list and "jax" in _modules:
        _jax_sort(target)
        if kwargs.get("key") is not None and not args and set(kwargs) <= {"key", "reverse"}:
            keys = [kwargs["key"](v) for v in target]  # once each, as Python's sort calls it
            _jax_sort(keys)  # keys JAX traces (`it.ratio` of objects): refused, not compared
            order = sorted(
                range(len(target)), key=keys.__getitem__, reverse=kwargs.get("reverse", False)
            )
            target[:] = [target[k] for k in order]
            return None
    if type(target) is list:
        try:
            return getattr(target, name)(*args, **kwargs)  # (`converted` would route it here)
        except (IndexError, ValueError) as e:
            e.as_written = True  # the user's own `lst.pop()`: staged where a branch runs
            raise
    return converted(getattr(target, name))(*args, **kwargs)


def _extend(target: list, value) -> None:
    """`target.extend(value)`. While a graph is traced, a `value` whose length is known only
    when the graph runs (`[v] * int(c)`, a list a staged loop appended to, `a[i:]` of an array)
    is a staged loop appending its items, as eager code does one by one; a list of items known
    now joins a run-time `target` as appended items."""
    if _traces:
        if staging.grown_list(value) or _run_time_rows(value):

            def body(item):  # (a closure: the loop finds the lists it changes in its cells)
                target.append(item)

            for_stmt(value, body)
            return None
        if staging.grown_list(target):
            staging.graph_tracer.list_iadd(target, value)
            return None
    target.extend(value)
    return None


def _run_time_rows(value) -> bool:
    """Whether `value` is an array of the graph whose first dimension is known only when the
    graph runs."""
    shape = getattr(value, "shape", None) if staging.symbolic(value) else None
    return bool(shape) and shape[0] is None


_COMPARING = frozenset(("index", "count", "remove"))
_PYTHON = object()


def _jax_method(target, name, value):
    """`index`, `count` or `remove` staged when JAX tracers are compared (trace/jax/lists.py),
    else `_PYTHON`."""
    if "jax" not in _modules or not _jax_items(value, target):
        return _PYTHON
    from autoconv.trace.jax import lists

    if not lists.applies(value, target) or (name == "remove" and type(target) is not list):
        return _PYTHON
    return getattr(lists, name)(target, value)


def _jax_sort(target) -> None:
    """Refuses `sort()` of a list holding JAX tracers (trace/jax/lists.py)."""
    items = [i for v in target for i in (v if type(v) is tuple else (v,))]
    if any(map(staging.jax_value, items)):
        from autoconv.trace.jax import lists

        lists.refuse_sort(items)


def _star(fn):
    return lambda item: fn(*item)


_generator = type(_ for _ in ())


def joined(sep, items):
    """`sep.join(items)` (`converters/list_items.py`)."""
    if _traces and type(sep) is str and staging.grown_list(items):
        return staging.graph_tracer.join(sep, items)
    if _traces and type(sep) is str and hasattr(type(items), "__next__"):
        # `"".join(chr(c) for c in codes)`, `"-".join(map(str, xs))`: an iterator's strings,
        # as join reads them
        items = list(items)
    if (
        _traces
        and type(sep) is str
        and type(items) in (list, tuple)
        and (sequences.holds_symbolic(*items) or any(type(v) is not str for v in items))
    ):
        # (symbolic items, or strings a staged condition chose, `names[int(c)]`)
        from autoconv.trace.tensors import printing  # strings made when the graph runs

        return printing.join(sep, items)
    if staging.jax_tracing() and type(items) in (list, tuple):
        if type(sep) is str and any(type(v).__module__.startswith("autoconv") for v in items):
            from autoconv.trace.jax import strings  # (under jax.jit: a traced choice)

            strings.refuse("strings chosen by a traced condition")
    return sep.join(items)


def list_del(target, key) -> None:
    """`del target[key]` (`converters/list_items.py`): while a graph is traced, `target.pop(key)`
    of a list (staged on a list a staged loop grew or changes: a queue's `del q[0]`)."""
    if _traces and type(target) is list and type(key) is not slice:
        list_method(target, "pop", key)
        return
    del target[key]


def list_iadd(target, value):
    """`target += value` (`converters/list_items.py`): what the name holds afterwards."""
    if _traces and (staging.grown_list(target) or staging.grown_list(value)):
        return staging.graph_tracer.list_iadd(target, value)
    target += value
    return target


def filtered(items, test, value, generator=False, unpack=False):
    """`[value(v) for v in items if test(v)]` (`converters/comprehensions.py`; `test` None: no
    filter; `generator`: the generator expression). While tracing, a test known only when the
    graph runs, or a list a staged loop appended to (`converters/list_items.py`), appends under
    staged statements, as the `for` statement with an `if` and an append would: the result is
    a list whose length is known when the graph runs. `unpack`: `test` and `value` take the
    item's parts (`for a, b in ...`)."""
    if unpack:
        test = None if test is None else _star(test)
        value = _star(value)
    if (not _traces and not staging.jax_tracing()) or (
        test is None
        and not (_traces and staging.grown_list(items))
        and not staging.symbolic(items)  # a staged `ac.zip(...)`, `ac.range(n)`
    ):
        made = (value(v) for v in items if test is None or test(v))
        return made if generator else list(made)
    # (messages name a list by the variable holding it: here, the comprehension)
    comprehension = []

    if test is None:

        def body(item):
            comprehension.append(value(item))

    else:

        def body(item):
            if_stmt(test(item), lambda: comprehension.append(value(item)))

    for_stmt(items, body)
    return comprehension


def filtered_nested(items, levels, value, generator=False):
    """`[value(a, b) for a in items if t0(a) for b in f1(a) if t1(a, b)]`: a comprehension with
    several `for`s (`converters/comprehensions.py`). `levels` holds one `(iterable, test,
    width)` per `for`: `iterable(*names bound so far)` (None for the first, `items`, which
    Python evaluates at once), `test(*names)` (None: no filter) and `width`, the count of names
    a tuple target unpacks (None: one name). While tracing, each `for` is a staged loop and
    each test a staged `if`, as the nested statements with an append would be."""

    def rows(k, bound):
        source, test, width = levels[k]
        for item in items if k == 0 else source(*bound):
            names = bound + _parts(item, width)
            if test is None or test(*names):
                if k + 1 == len(levels):
                    yield value(*names)
                else:
                    yield from rows(k + 1, names)

    if not _traces and not staging.jax_tracing():
        made = rows(0, ())
        return made if generator else list(made)
    comprehension = []

    def level(k, bound):
        source, test, width = levels[k]

        def body(item):
            names = bound + _parts(item, width)

            def inner():
                if k + 1 == len(levels):
                    comprehension.append(value(*names))
                else:
                    level(k + 1, names)

            if test is None:
                inner()
            else:
                if_stmt(test(*names), inner)

        for_stmt(items if k == 0 else source(*bound), body)

    level(0, ())
    return comprehension


def _parts(item, width) -> tuple:
    """The names a `for` target binds from `item`: itself, or its `width` parts (Python's
    ValueError where it has another count)."""
    if width is None:
        return (item,)
    parts = tuple(item)
    if len(parts) != width:
        got = len(parts)
        if got > width:
            raise ValueError(f"too many values to unpack (expected {width})")
        raise ValueError(f"not enough values to unpack (expected {width}, got {got})")
    return parts
