"""`collections.Counter` and `defaultdict` holding keys known only when the graph runs
(`Counter(int(v) for v in x)`, `c[int(v)] += 1`, `d = defaultdict(int); d[k] += w`).

They are dicts with a shadow (`runtime.keyed`), as a plain dict holding such keys is; this
module gives what differs: a read of a missing key (a Counter's 0, a defaultdict's
`default_factory()`, stored as Python stores it), and a Counter's counting (`Counter(items)`,
`.update`, `.subtract`, `.most_common`, `.total`), each written with the staged `for`, reads
and stores that a loop counting into a plain dict would use. On Python values each is
`collections`' own."""

from collections import Counter, defaultdict
from collections.abc import Mapping

from autoconv.runtime import keyed, staging
from autoconv.runtime.control_flow import for_stmt

_traces = staging.traces


def made(*args, **kwargs):
    """`Counter(...)` as converted code calls it (`resolve.STAGED_NAMES`): while a graph is
    traced, a new Counter that counts `args[0]` (an iterable or a mapping) and `kwargs` with
    the staged reads and stores; else `Counter(*args, **kwargs)`."""
    if not _traces or len(args) > 1:
        return Counter(*args, **kwargs)  # (more than one argument: Python's TypeError)
    counts = Counter()
    _count(counts, args[0] if args else None, kwargs, 1)
    return _unnamed(counts)


def _unnamed(made: Counter) -> Counter:
    """`made`, whose shadow forgets the name this module's variable gave it (messages then
    name the user's variable that holds it)."""
    found = keyed.shadow(made)
    if found is not None:
        found.name = ""
    return made


def run_time(args, kwargs) -> bool:
    """Whether a method's arguments may hold items known only when the graph runs (any
    iterable may: a generator of them is seen only by iterating it)."""
    return bool(args or kwargs)


def item(obj, key):
    """`obj[key]` of a Counter or defaultdict at a key known only when the graph runs, or of
    one holding such keys: a Counter's count, 0 for a missing key (not stored, as Python's
    `Counter.__missing__`); a defaultdict's value, `default_factory()` stored for a missing one
    (`d[k] += 1`); a defaultdict without a factory, a dict's KeyError."""
    found = keyed.shadow(obj, make=True)
    tracer = staging.graph_tracer
    if type(obj) is Counter:
        return tracer.keyed("get", found, key, 0)
    factory = obj.default_factory
    if factory is None:
        if not found.active() and not obj:
            raise KeyError(key)
        return tracer.keyed("item", found, key)
    return tracer.keyed("setdefault", found, key, factory())


def method(name: str, obj: Counter, args: tuple, kwargs: dict):
    """`obj.<name>(*args, **kwargs)` of a Counter while a graph is traced (`keyed.method`)."""
    found = keyed.active(obj)
    if name in ("update", "subtract"):
        if len(args) > 1:
            raise TypeError(f"expected at most 1 argument, got {len(args)}")
        _count(obj, args[0] if args else None, kwargs, 1 if name == "update" else -1)
        return None
    if found is None:
        return getattr(obj, name)(*args, **kwargs)  # its keys are known now: Python's own
    if name == "total" and not args and not kwargs:
        from autoconv.runtime import py_builtins  # (it imports the control flow)

        return py_builtins.sum(staging.graph_tracer.keyed("values", found))
    if name == "most_common" and not kwargs and len(args) <= 1:
        n = args[0] if args else None
        return staging.graph_tracer.keyed("most_common", found, n)
    return staging.graph_tracer.keyed(name, found, *args)  # not staged: its clear error


def _count(counts: Counter, items, kwargs: dict, sign: int) -> None:
    """Adds `sign` times each of `items` (or, for a mapping, its counts) and of `kwargs` to
    `counts`, as `Counter.update` / `Counter.subtract` do."""
    if items is not None:
        if isinstance(items, Mapping):
            other = keyed.active(items)
            keys = list(other.keys) if other is not None else list(items)
            if sign > 0 and not counts and keyed.active(counts) is None:
                # (an empty Counter takes a mapping's counts as they are, as Python's does)
                for_stmt(keys, lambda k: keyed.store(counts, k, keyed.item(items, k)))
            else:
                for_stmt(keys, lambda k: _add(counts, k, keyed.item(items, k), sign))
        else:
            if not (staging.grown_list(items) or staging.symbolic(items)):
                items = list(items)  # (a generator: its items, made here)
            for_stmt(items, lambda k: _add(counts, k, 1, sign))
    for k, n in kwargs.items():
        _add(counts, k, n, sign)


def _add(counts: Counter, key, n, sign: int) -> None:
    """`counts[key] = counts[key] + n` (or `- n`), staged where the key or count is known
    only when the graph runs."""
    if not keyed.stages(counts, key):
        counts[key] = counts[key] + n if sign > 0 else counts[key] - n
        return
    held = item(counts, key)
    keyed.setitem(counts, key, held + n if sign > 0 else held - n)


def output_kind(obj):
    """What the graph gives back for `obj` when it runs, made from a plain dict of its items
    (`keyed_helpers.keyed_dict`): None for a plain dict, `Counter`, or a defaultdict's
    factory in a tuple."""
    if type(obj) is Counter:
        return Counter
    if type(obj) is defaultdict:
        return (obj.default_factory,)
    return None


def equal(a, b, eq: bool):
    """`a == b` (`eq`) or `a != b` where a dict holds keys known only when the graph runs:
    Python's dict equality (the same keys, each with an equal value), or of two Counters,
    Counter's (a missing key counts 0), as the number of keys that differ, staged."""
    from autoconv.runtime import py_builtins  # (they import the control flow)
    from autoconv.runtime.logical import not_

    if type(a) not in keyed.DICTS or type(b) not in keyed.DICTS:
        return not eq  # a dict never equals a set (or another type)
    length = py_builtins.len
    if type(a) is Counter and type(b) is Counter:
        same = (length(_differ(a, b, True)) == 0) & (length(_differ(b, a, True)) == 0)
    else:
        same = (length(a) == length(b)) & (length(_differ(a, b, False)) == 0)
    return same if eq else not_(same)


def _differ(a, b, counts: bool) -> set:
    """The keys of `a` whose value `b` lacks or holds otherwise (`counts`: a missing key's
    count is 0, as a Counter reads it), a set made when the graph runs."""
    from autoconv.runtime import keyed_comprehensions, py_builtins
    from autoconv.runtime.logical import not_

    def test(k):
        mine = keyed.item(a, k)
        if counts:
            return item(b, k) != mine
        found = py_builtins.in_(k, b)
        return not_(found & (keyed.method(b.get)(k, mine) == mine))

    keys = keyed_comprehensions.keys_of(a)
    return keyed_comprehensions.built("set", keys, test, lambda k: k)


def combined(symbol: str, a: Counter, b: Counter) -> Counter:
    """`a + b`, `a - b`, `a | b` or `a & b` of Counters, one holding keys known only when the
    graph runs: a new Counter as Python's operators make it (each key of `a`, then each key
    of `b` it lacks, kept where its new count is positive), with staged tests and stores."""
    from autoconv.runtime import keyed_comprehensions, py_builtins
    from autoconv.runtime.control_flow import if_stmt
    from autoconv.runtime.logical import not_

    out = Counter()

    def put(k, n):
        def store():
            keyed.setitem(out, k, n)

        if_stmt(n > 0, store)

    def mine(k):
        count, other = keyed.item(a, k), item(b, k)
        if symbol == "+":
            put(k, count + other)
        elif symbol == "-":
            put(k, count - other)
        else:
            put(k, (py_builtins.max if symbol == "|" else py_builtins.min)(count, other))

    def theirs(k):
        count = keyed.item(b, k)
        count = 0 - count if symbol == "-" else count
        if_stmt(not_(py_builtins.in_(k, a)), lambda: put(k, count))

    for_stmt(keyed_comprehensions.keys_of(a), mine)
    if symbol != "&":
        for_stmt(keyed_comprehensions.keys_of(b), theirs)
    return _unnamed(out)


def delete(obj: Counter, key) -> None:
    """`del obj[key]` of a Counter holding keys known only when the graph runs (or at such a
    key): removed where it is there; a missing key is no error, as Python's Counter has it."""
    from autoconv.runtime.control_flow import if_stmt

    found = keyed.shadow(obj, make=True)
    tracer = staging.graph_tracer

    def remove():  # (it names `obj`: the staged `if` carries its shadow lists)
        tracer.keyed("pop", keyed.shadow(obj), key)

    if_stmt(tracer.keyed("contains", found, key), remove)
