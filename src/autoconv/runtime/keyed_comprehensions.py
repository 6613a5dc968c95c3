"""Comprehensions over a set or dict holding keys known only when the graph runs
(`converters/keyed.py`): `{k: f(k) for k in sorted(d)}`, `{v for v in d.values()}`,
`[k for k in d]`. Python would see the object empty (its keys are in its shadow,
`runtime.keyed`); these run the comprehension as the `for` statement with an `if` and a store
would, so the graph builds the new dict or set when it runs. So does every set or dict
comprehension with one `for` (`{int(v) for v in x}`, `{i: int(v) for i, v in enumerate(x) if v
!= 0}`): its keys, or its filter, may be known only when the graph runs. Outside a trace each is
the comprehension itself."""

from autoconv.runtime import keyed, staging
from autoconv.runtime.control_flow import for_stmt, if_stmt

_traces = staging.traces


def keys_of(obj):
    """What a comprehension iterating `obj` itself visits: a dict's run-time keys in
    insertion order (a set's hash order is refused, naming it), else `obj`."""
    if _traces and type(obj) in keyed.KINDS:
        return keyed.view(obj, ordered=True)
    return obj


def built(kind, items, test, key, value=None, unpack=False):
    """`{key(v): value(v) for v in items if test(v)}` (`kind` "dict") or `{key(v) for v in
    items if test(v)}` ("set"); `test` None: no filter; `unpack`: the functions take the
    item's parts (`for k, v in d.items()`). While tracing, a `for` statement builds it, each
    key stored as `d[k] = v` or `s.add(k)` is (staged where it is known only when the graph
    runs; a Python loop and Python's own store on Python values)."""
    if unpack:
        test = None if test is None else _star(test)
        key = _star(key)
        value = None if value is None else _star(value)
    if not _traces:
        if kind == "dict":
            return {key(v): value(v) for v in items if test is None or test(v)}
        return {key(v) for v in items if test is None or test(v)}
    # (messages name a container by the variable holding it: here, the comprehension)
    comprehension = {} if kind == "dict" else set()

    def put(item):
        if kind == "dict":
            k = key(item)  # (Python evaluates the key first)
            keyed.store(comprehension, k, value(item))
        else:
            keyed.method(comprehension.add)(key(item))

    if test is None:
        body = put
    else:

        def body(item):
            if_stmt(test(item), lambda: put(item))

    for_stmt(items, body)
    return comprehension


def _star(fn):
    return lambda item: fn(*item)
