"""autoconv's own run-time helpers: the functions a graph's `helper` nodes call, named once.

Tracing records them, backends run them (the NumPy executor calls them, the JAX backend maps
them to its own forms or calls them on the host), and a saved file names them by the keys of
`TABLE`. Each is a plain function of run-time values: it imports nothing but NumPy.
"""

from __future__ import annotations

import numpy as np

from autoconv.runtime import heaps as _heaps

# --- values that exist on some paths only (see trace.tensors.optionals) ---------------------


def missing_error(missing, name) -> Exception:
    """What eager Python raises on a path where a variable is None, or not bound at all."""
    if missing is None:
        return TypeError(
            f"`{name}` is None here (eager NumPy would raise this TypeError on the same path)"
        )
    return UnboundLocalError(
        f"cannot access local variable '{missing[1]}' where it is not associated with a value"
    )


def optional_output(flag, value, missing, name):
    """What a graph returns for an Optional output: the value, None, or the eager error."""
    if flag:
        return value
    if missing is None:
        return None
    raise missing_error(missing, name)


def checked(flag, value, missing, name):
    """An Optional's value where it is used: the eager error where it is missing."""
    if not flag:
        raise missing_error(missing, name)
    return value


class Mixed:
    """In a graph's outputs only: a number whose Python type depends on the path that ran
    (`return -1` after a loop that may `return x[i]`). `value` holds it in the joined dtype,
    `tag` (an int known at run time) indexes `kinds`, the Python type each path gives (None:
    the NumPy value as computed). Traced code never sees one: there the value is a Tensor whose
    `py_kinds` hold the tag and kinds (trace.tensors.path_types)."""

    __slots__ = ("value", "tag", "kinds", "name")

    def __init__(self, value, tag, kinds, name="value"):
        self.value = value
        self.tag = tag
        self.kinds = kinds
        self.name = name

    def __repr__(self):
        kinds = " or ".join(
            "a NumPy value" if k is None else f"a Python {k.__name__}" for k in self.kinds
        )
        return f"<{self.name}: {kinds}>"


def mixed_output(value, tag, kinds):
    """What a graph returns for a Mixed output (or stores in a run-time list): the value as
    the type its path gives (None: the NumPy value)."""
    if type(value) is str:
        return value  # a string made when the graph runs (its kinds are the stand-in's)
    kind = kinds[tag]
    if kind is not None:
        return kind(value)
    return value if isinstance(value, (np.generic, np.ndarray)) else np.asarray(value)[()]


def range_bound(value, tag, kinds) -> int:
    """A `range()` bound whose Python type is `kinds[tag]`: the int, or eager's TypeError."""
    kind = kinds[tag]
    if kind is int or kind is bool:
        return int(value)
    name = kind.__name__ if kind is not None else f"numpy.{np.asarray(value).dtype.name}"
    raise TypeError(f"'{name}' object cannot be interpreted as an integer")


# --- the user's exceptions, raised where the graph runs into them ---------------------------


def fresh(exc: BaseException) -> BaseException:
    """A new exception like `exc` (the recorded one must not collect tracebacks run by run)."""
    try:
        new = type(exc)(*exc.args)
    except Exception:
        return exc.with_traceback(None)
    new.__dict__.update(getattr(exc, "__dict__", {}))
    return new


def raise_copy(exc):
    raise fresh(exc)


def checked_raise(flag, value, exc):
    """A chosen value where it is used: `exc` (what eager code raised on that option, `None.upper`
    say) where `flag` is false, else `value`."""
    if not flag:
        raise fresh(exc)
    return value


def raise_new(cls, *args):
    raise cls(*args)


def raise_key(*items):
    """`KeyError((a, b))`: a tuple key, its items passed one by one (as device values are)."""
    raise KeyError(items)


# --- values, shapes and arrays ----------------------------------------------------------------


def dim(a, i):
    return np.shape(a)[i]  # a Python int, as eagerly


def size(a, axis=None):
    return np.size(a, axis)


def flat_items(a):
    """`a.item()` / `a.tolist()` of a 0-d or flat array: its Python numbers."""
    items = a.ravel().tolist()
    return items[0] if len(items) == 1 else items


def set_copy(a, key, value):
    """`a[key] = value` on a copy of `a` (what item assignment records)."""
    a = a.copy()
    a[key] = value
    return a


set_copy.returns_new = True  # a new array (see passes.analysis.returns_new)


def ufunc_at(a, indices, values, name):
    """`np.<name>.at(a, indices, values)` on a copy of `a` (what an in-place `ufunc.at` call
    on a name records: trace.tensors.inplace)."""
    a = a.copy()
    getattr(np, name).at(a, indices, values)
    return a


ufunc_at.returns_new = True


def render(pieces, *values):
    """The string of an f-string of run-time values: `pieces` are literal text or
    `(index, spec)` of a value (`!r` / `!s`: its repr / str)."""
    return "".join(p if type(p) is str else _piece(values[p[0]], p[1]) for p in pieces)


def _piece(value, spec: str) -> str:
    if spec[:1] == "%":  # a conversion of %-formatting (`%.2f`, `%-8s`, `%d`)
        return spec % (value,)
    if spec[:1] == "!" and spec[2:3] == ":":  # `{v!r:>8}`: the conversion, then the spec
        return format(_CONVERSIONS[spec[1]](value), spec[3:])
    if spec == "!a":
        return ascii(value)
    if spec == "!c":  # chr(value)
        return chr(value)
    if spec in _INT_TEXTS:  # hex(value), oct(value), bin(value)
        return _INT_TEXTS[spec](value)
    if spec == "!r":
        return repr(value)
    if spec == "!s":
        return str(value)
    if spec == "!str":  # a part of `a + b` or `sep.join(items)`: a `str`, as Python requires
        if type(value) is not str:
            raise TypeError(f'can only concatenate str (not "{type(value).__name__}") to str')
        return value
    return format(value, spec)


_CONVERSIONS = {"r": repr, "s": str, "a": ascii}
_INT_TEXTS = {"!hex": hex, "!oct": oct, "!bin": bin}


def repeat_text(text, count):
    """`text * count` of a string and an int, one of them known only when the graph runs."""
    return text * count


def parse_number(value, kind: str):
    """`int(s)` ("int") or `float(s)` ("float") of a string made when the graph runs."""
    return int(value) if kind == "int" else float(value)


STR_METHODS = {
    **dict.fromkeys(
        "upper lower strip lstrip rstrip title capitalize casefold swapcase replace zfill "
        "center ljust rjust removeprefix removesuffix expandtabs __getitem__".split(),
        object,
    ),
    **dict.fromkeys(
        "startswith endswith isdigit isalpha isalnum isspace islower isupper isnumeric "
        "isdecimal istitle isascii isidentifier isprintable".split(),
        bool,
    ),
    **dict.fromkeys("count find rfind __len__".split(), int),
}
"""The `str` methods staged on a string made when the graph runs, by what they give."""


def str_method(value, name: str, *args):
    """`value.name(*args)` of a string made when the graph runs (a `name` of STR_METHODS)."""
    if name not in STR_METHODS:
        raise ValueError(f"not a staged str method: {name!r}")  # (a saved file's attribute)
    return getattr(value, name)(*args)


# --- lists grown in staged loops (see trace.tensors.accumulated) ---------------------------

ARRAY_MAKERS = (np.array, np.asarray, np.asanyarray, np.ascontiguousarray)
STACKERS: dict = {}
"""NumPy function -> its form on lists that hold run-time lists (`stacker`)."""


def expand_lists(arrays) -> list:
    """`arrays` with each run-time list (the items a staged loop appended) spliced in."""
    out = []
    for a in arrays:
        if type(a) is list:
            out.extend(a)
        else:
            out.append(a)
    return out


def list_item(prefix, run, tail, key):
    """Item `key` of a list whose middle part (`run`) a staged statement appended."""
    return [*prefix, *run, *tail][key]


def choose(tag, options: tuple):
    """The option a staged condition chose (trace.tensors.choices)."""
    return options[int(tag)]


class Slot:
    """Where a graph value stands in an alternative of a union (trace.tensors.unions): its
    index among the alternative's values, and the type eager code gives it (`eager_type`: a
    Python number type, a NumPy scalar type, np.ndarray, or None for the value as computed)."""

    __slots__ = ("index", "kind")

    def __init__(self, index, kind):
        self.index = index
        self.kind = kind

    def __repr__(self):
        return f"<slot {self.index}>"


def union_pick(tag, shells: tuple, values: tuple):
    """The alternative of a union the path took (trace.tensors.unions): its shell with its
    run-time values in their slots, as the types eager code gives them."""
    k = int(tag)
    return _filled(shells[k], values[k])


def _filled(v, values):
    t = type(v)
    if t is Slot:
        kind, value = v.kind, values[v.index]
        if value is None:
            return None  # a number that is None on this path (an optional's `or_none`)
        if type(value) in (str, bytes) or kind is object:
            # a string made when the graph ran (np.asarray would make np.str_), or a number
            # whose Python type the graph gave it (`as_kind`)
            return value
        if kind in (bool, int, float, complex):
            return kind(np.asarray(value).item())
        if kind is np.ndarray or (kind is None and np.ndim(value)):
            return np.array(value)
        array = np.asarray(value)
        return array[()] if kind is None else array.astype(kind)[()]
    if t is tuple or t is list:
        return t(_filled(x, values) for x in v)
    if t is dict:
        return {k: _filled(x, values) for k, x in v.items()}
    if isinstance(v, tuple) and hasattr(t, "_fields"):
        return t(*(_filled(x, values) for x in v))
    return v


def row_field(row: tuple, index: int):
    """Item `index` of a tuple a run-time list holds (trace.tensors.rows)."""
    return row[index]


def inner_list(value: list) -> list:
    """A list of run-time length that a run-time list holds as (a field of) an item, read
    back: the list object itself (trace.tensors.records, layout "r")."""
    return value


def inner_list_copy(value: list) -> list:
    """A list of run-time length going into a run-time list as (a field of) an item: a copy,
    so that the item keeps what the list held then (autoconv refuses code that changes the
    list afterwards, where eagerly the item would show it)."""
    return list(value)


def decimal_round(a, decimals, xp, keep):
    """`np.round(a, decimals)` as NumPy computes it, in the array module `xp` (jax.numpy): of
    floats, `rint(a * 10**d) / 10**d` (`rint(a / 10**-d) * 10**-d` for a negative `d`), of
    complex numbers each part so, of integers (or `d` 0) `xp.round`'s own. `keep(v)` hides the
    power from a compiler that would multiply by its inverse instead, which is not exact
    (`np.round(2.4, 1)` gave 2.4000000000000004)."""
    a = xp.asarray(a)
    decimals = int(decimals)
    if decimals == 0 or a.dtype.kind not in "fc":
        return xp.round(a, decimals)
    if a.dtype.kind == "c":
        return decimal_round(a.real, decimals, xp, keep) + 1j * decimal_round(
            a.imag, decimals, xp, keep
        )
    f = keep(xp.asarray(10.0 ** abs(decimals), a.dtype))
    return xp.rint(a * f) / f if decimals > 0 else xp.rint(a / f) * f


def text_or_none(flag, text: str) -> str:
    """An f-string's piece for a value that may be None: its text, or "None"."""
    return text if flag else "None"


def array_list(a) -> list:
    """`a.tolist()` of a flat array of a length known only when the graph runs: a run-time
    list of its Python numbers."""
    return a.tolist()


def concat_lists(a: list, b: list) -> list:
    """Two run-time lists, one after the other (a new list)."""
    return [*a, *b]


def kind_index(value, kinds) -> int:
    """The index in `kinds` of `value`'s Python number type (0, for None, if not one)."""
    t = type(value)
    return kinds.index(t) if t in kinds else 0


def sum_list(prefix, run, tail, *args):
    """Python's `sum` of a list whose middle part a staged statement appended."""
    return sum([*prefix, *run, *tail], *args)


def max_list(prefix, run, tail, *default):
    """Python's `max` of such a list (`default`: max's keyword, when given)."""
    items = [*prefix, *run, *tail]
    return max(items, default=default[0]) if default else max(items)


def min_list(prefix, run, tail, *default):
    """Python's `min` of such a list (`default`: min's keyword, when given)."""
    items = [*prefix, *run, *tail]
    return min(items, default=default[0]) if default else min(items)


def any_list(prefix, run, tail) -> bool:
    """Python's `any` of such a list."""
    return any([*prefix, *run, *tail])


def all_list(prefix, run, tail) -> bool:
    """Python's `all` of such a list."""
    return all([*prefix, *run, *tail])


LIST_CALLS = {sum: sum_list, max: max_list, min: min_list, any: any_list, all: all_list}


def join_list(sep: str, prefix, run, tail) -> str:
    """`sep.join(lst)` of a list whose middle part a staged statement appended."""
    return sep.join([*prefix, *run, *tail])


def repeat_list(count, *items) -> list:
    """`[*items] * count`, as Python repeats a list."""
    return [*items] * count


def slice_list(prefix, run, tail, start, stop, step) -> list:
    """`items[start:stop:step]` of such a list (a new list)."""
    return [*prefix, *run, *tail][start:stop:step]


def contains_list(prefix, run, tail, value) -> bool:
    """`value in items` of such a list."""
    return value in [*prefix, *run, *tail]


def _list_method(name: str):
    def method(prefix, run, tail, *args):
        items = [*prefix, *run, *tail]
        if name == "sort":  # `sort(reverse=...)`: its arguments are keywords
            items.sort(reverse=bool(args[0]) if args else False)
            return items
        if name == "setitem":  # `items[key] = value`
            items[args[0]] = args[1]
            return items
        result = getattr(items, name)(*args)
        return (items, result) if name in ("pop", "index", "count") else items

    method.__name__ = f"{name}_list"
    method.__doc__ = f"`items.{name}(*args)` of such a list: the list after it (and its result)."
    return method


HEAP_FUNCS = _heaps.FUNCTIONS
"""The functions of `heapq` and `bisect` that take a list first, by name: staged on run-time
lists as list methods (trace.tensors.heaps)."""
HEAP_RESULTS = frozenset(("heappop", "heappushpop", "heapreplace", "bisect_left", "bisect_right"))


def _heap_function(name: str):
    fn = HEAP_FUNCS[name]

    def method(prefix, run, tail, *args):
        items = [*prefix, *run, *tail]
        result = fn(items, *args)  # the library's own algorithm: eager's layout, exactly
        return (items, result) if name in HEAP_RESULTS else items

    method.__name__ = f"{name}_list"
    method.__doc__ = f"`{fn.__module__.lstrip('_')}.{name}(items, *args)` of such a list."
    return method


# The list methods that read or change a list besides `append`: each gives the list after it
# and the method's result.
LIST_METHODS = {
    **{
        name: _list_method(name)
        for name in ("pop", "insert", "remove", "sort", "reverse", "index", "count", "setitem")
    },
    **{name: _heap_function(name) for name in HEAP_FUNCS},
}

POPS = frozenset(LIST_METHODS[m] for m in ("pop", "heappop", "heapreplace", "heappushpop"))
"""The list methods whose last output is an item of the list (or, `heappushpop`, the one
pushed)."""


def stacker(func):
    """`func` (np.stack, np.array, ...) taking a list whose run-time lists are spliced in."""
    made = STACKERS.get(func)
    if made is None:

        def made(arrays, *args, **kwargs):
            return func(expand_lists(arrays), *args, **kwargs)

        made.__name__ = f"{func.__name__}_lists"
        made.returns_new = True  # made from a list: a new array (passes.analysis.returns_new)
        STACKERS[func] = made
    return made


# --- random generators ----------------------------------------------------------------------


def generator_state(obj):
    """The state of a NumPy `RandomState` or `Generator` or a Python `random.Random`, as
    `set_generator_state` takes it back."""
    if isinstance(obj, np.random.RandomState):
        return obj.get_state(legacy=False)
    if isinstance(obj, np.random.Generator):
        return obj.bit_generator.state
    return obj.getstate()


def set_generator_state(obj, state) -> None:
    """Puts a generator back to a state `generator_state` gave."""
    if isinstance(obj, np.random.RandomState):
        obj.set_state(state)
    elif isinstance(obj, np.random.Generator):
        obj.bit_generator.state = state
    else:
        obj.setstate(state)


# The names a saved file calls them by.
TABLE = {
    "autoconv.dim": dim,
    "autoconv.size": size,
    "autoconv.format": render,
    "autoconv.flat_items": flat_items,
    "autoconv.set_copy": set_copy,
    "autoconv.ufunc_at": ufunc_at,
    "autoconv.as_kind": mixed_output,
    "autoconv.row_field": row_field,
    "autoconv.choose": choose,
    "autoconv.str_method": str_method,
    "autoconv.parse_number": parse_number,
    "autoconv.union_pick": union_pick,
    "autoconv.list_item": list_item,
    "autoconv.concat_lists": concat_lists,
    "autoconv.array_list": array_list,
    "autoconv.text_or_none": text_or_none,
    "autoconv.kind_index": kind_index,
    "autoconv.sum_list": sum_list,
    "autoconv.max_list": max_list,
    "autoconv.min_list": min_list,
    "autoconv.slice_list": slice_list,
    "autoconv.contains_list": contains_list,
    **{f"autoconv.{name}_list": fn for name, fn in LIST_METHODS.items()},
    "autoconv.or_none": optional_output,
    "autoconv.checked": checked,
    "autoconv.checked_raise": checked_raise,
    "autoconv.raise": raise_copy,
    "autoconv.raise_new": raise_new,
    "autoconv.raise_key": raise_key,
    "autoconv.repeat_text": repeat_text,
}
for _f in (*ARRAY_MAKERS, np.stack, np.concatenate, np.vstack, np.hstack):
    TABLE[f"autoconv.{_f.__name__}_lists"] = stacker(_f)
