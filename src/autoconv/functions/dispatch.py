"""The fast path of a call: generated guards that recognize a known signature and run its graph.

A `Function` call normally computes the key of its arguments (`signature.flatten`) and looks it
up. For the signatures it has seen, it also keeps a small generated function that checks the
arguments directly against them, most recent first, and calls the matching graph's executor:

    def dispatch(args):
        a0, a1 = args
        t0 = type(a0)
        t1 = type(a1)
        if t0 is ndarray and a0.dtype is d0_0 and a0.shape == (10, 10) and t1 is int and a1 == 100:
            try:
                return run_0(a0)
            except Exception as e:
                fail_0(e)
        return MISS

Arrays are recognized by dtype and shape (a JAX array as an ndarray, as the key has it), NumPy
scalars by type, Python values by type and value (except zero and NaN floats, which `==` cannot
tell apart as keys do), other objects (a method's instance) by identity, tuples, lists and
namedtuples by type and length, then item by item (a list of 20 `(w, b)` tuples of JAX arrays:
a few microseconds of tests, where computing and hashing its key took 60). A call that no guard
recognizes (other argument kinds, keywords, new signatures) takes the general path, so
the guards change nothing but speed.
"""

from __future__ import annotations

import math
import sys
from itertools import chain
from operator import attrgetter

import numpy as np

from autoconv.graph.signature import python_value

MISS = object()  # what a dispatcher returns when no guard matches
_MAX_ENTRIES = 8


def _miss(args):
    return MISS


def make(entries, nparams: int, track: bool = False):
    """A dispatcher for `entries` (`(key, concrete)` pairs, most recent first), each key being
    a per-parameter tuple key as `Function` computes it; `_miss` if none can be guarded.
    `track`: its `used` attribute, a list of flags, one per entry, is set as guards match (a
    `Function` reads it to know which graphs were used lately)."""
    lines = []
    used = [False] * min(len(entries), _MAX_ENTRIES)
    jarray = _jax_array()
    names: dict = {"MISS": MISS, "ndarray": np.ndarray, "used": used, "jarray": jarray}
    names["NoneType"] = type(None)
    names["javal"] = _has_aval(jarray)
    params = [f"a{i}" for i in range(nparams)]
    body = []
    for n, (key, concrete) in enumerate(entries[:_MAX_ENTRIES]):
        if concrete.writebacks:
            continue  # stores into the caller's arguments: the general path does that
        guard = _guard(key, params, names, n, concrete._objects)
        if guard is None:
            continue
        conds, leaves = guard
        names[f"run_{n}"] = concrete._fn
        names[f"fail_{n}"] = concrete._raise
        body.append(f"    if {' and '.join(conds) or 'True'}:")
        if track:
            body.append(f"        used[{n}] = True")
        body.append("        try:")
        body.append(f"            return run_{n}({', '.join(leaves)})")
        body.append("        except Exception as e:")
        body.append(f"            fail_{n}(e)")
    if not body:
        return _miss
    lines.append("def dispatch(args):")
    if nparams:
        lines.append(f"    {', '.join(params)}{',' if nparams == 1 else ''} = args")
        for i, p in enumerate(params):
            lines.append(f"    t{i} = type({p})")
    lines += body
    lines.append("    return MISS")
    namespace = dict(names)
    exec(compile("\n".join(lines) + "\n", "<autoconv dispatch>", "exec"), namespace)  # noqa: S102
    fn = namespace["dispatch"]
    fn.source = "\n".join(lines) + "\n"
    fn.used = used
    fn.entries = entries[:_MAX_ENTRIES]
    return fn


class _NoJax:
    """Stands for JAX's array type in guards while JAX is not imported (no value has it)."""


def _jax_array() -> type:
    """JAX's concrete array type where JAX is loaded: a JAX array argument is keyed as an
    ndarray of its dtype and shape (`signature.flatten`), so its guard accepts both. JAX is
    never imported here: a dispatcher made before it was sends JAX arrays to the general path."""
    module = sys.modules.get("jax._src.array")
    return getattr(module, "ArrayImpl", _NoJax) if module is not None else _NoJax


def _has_aval(jarray) -> bool:
    """Whether JAX's array type keeps its shaped type in an `aval` attribute of its own, the
    one its `dtype` and `shape` properties read."""
    if jarray is _NoJax:
        return False
    try:
        return (
            any("aval" in vars(c) for c in jarray.__mro__)
            and jarray.dtype.fget.__code__.co_names == ("aval", "dtype")
            and jarray.shape.fget.__code__.co_names == ("aval", "shape")
        )
    except AttributeError:
        return False


def _guard(key, params, names, n, objects):
    """`(conditions, leaf expressions)` recognizing `key`, or None when it cannot be guarded."""
    if not isinstance(key, tuple) or len(key) != 2 or key[0] is not tuple:
        return None
    subkeys = key[1]
    if len(subkeys) != len(params):
        return None
    types, checks, leaves = [], [], []
    for i, (sub, p) in enumerate(zip(subkeys, params)):
        if not _sub_guard(
            sub, p, f"t{i}", f"t{i}", f"{n}_{i}", names, objects, types, checks, leaves
        ):
            return None
    return types + checks, leaves


def _sub_guard(sub, p, first, t, tag, names, objects, types, checks, leaves) -> bool:
    """Adds the tests recognizing `sub` (one argument's key, or an item's in a tuple or list)
    to `types` and `checks`, and its leaves' expressions to `leaves`; False if it cannot be
    guarded. `p` names the value, `t` its type; `first` is the expression to write at the
    first mention of the type (for an item, it binds both: `(T := type(x := seq[j]))`), so
    that every name is bound by the tests of `types` before `checks` read it."""
    kind = sub[0]
    if kind == "A":
        dtype, shape = sub[1], sub[2]
        if dtype.itemsize == 0 or dtype.kind in "OmMV":
            return False
        if not all(d is None or type(d) is int for d in shape):
            return False  # only ints are written into the guard's text (a loaded key's too)
        names[f"d{tag}"] = dtype

        def facts(a):
            tests = [f"{a}.dtype is d{tag}"]
            if None in shape:
                tests.append(f"len({a}.shape) == {len(shape)}")
                tests += [f"{a}.shape[{j}] == {d}" for j, d in enumerate(shape) if d is not None]
            else:
                tests.append(f"{a}.shape == {shape!r}")
            return " and ".join(tests)

        if names["javal"]:
            # A JAX array's `dtype` and `shape` are properties reading its `aval` (about
            # 0.1 us each): the guard reads the aval's fields, a NumPy array's its own.
            types.append(
                f"(({first} is ndarray and {facts(p)}) or ({t} is jarray and {facts(f'{p}.aval')}))"
            )
        else:
            types.append(f"({first} is ndarray or {t} is jarray)")
            checks.append(facts(p))
        leaves.append(p)
    elif kind == "S":
        dtype = sub[1]
        if dtype.itemsize == 0 or dtype.kind in "OmMVSU":
            return False
        names[f"s{tag}"] = dtype.type
        types.append(f"{first} is s{tag}")
        leaves.append(p)
    elif kind == "P":
        ptype, value = sub[1], python_value(sub)
        if value is None:
            types.append(f"{first} is NoneType")
            return True
        if ptype not in (int, float, bool, str, bytes, complex):
            return False
        parts = (value.real, value.imag) if ptype is complex else (value,) if ptype is float else ()
        if any(math.isnan(x) or x == 0.0 for x in parts):
            # `==` cannot tell NaNs apart, nor 0.0 from -0.0: the general path does.
            return False
        names[f"p{tag}"] = value
        names[f"T{tag}"] = ptype
        types.append(f"{first} is T{tag}")
        checks.append(f"{p} == p{tag}")
    elif kind == "O" and first == t and sub[1] in objects:
        # The object itself, through the weak reference its graph holds (the guard must
        # not keep it alive): a dead one's reference gives None, and no argument is it.
        # (An argument's only: an item's name would be read before its binding.)
        names[f"o{tag}"] = objects[sub[1]]
        checks.append(f"{p} is not None and {p} is o{tag}()")
    elif kind is tuple or kind is list or (isinstance(kind, type) and hasattr(kind, "_fields")):
        # A tuple, list or namedtuple: its type and length, then each item in the order
        # `signature.flatten` takes their leaves (a list of (w, b) tuples skips the key).
        if _size(sub) > _INLINE:
            # Many items: one call of a matcher made of closures. Python's compiler takes
            # about 10 ms for a guard of 40 arrays written out (its jumps), at every trace.
            match = _matcher(sub, names["jarray"], names["javal"])
            if match is None:
                return False
            match = _flat_matcher(sub, names["jarray"], names["javal"], match) or match
            names[f"M{tag}"] = match
            types.append(f"{first} is not None and M{tag}({p}, (L{tag} := []))")
            leaves.append(f"*L{tag}")
            return True
        names[f"c{tag}"] = kind
        types.append(f"{first} is c{tag} and len({p}) == {len(sub[1])}")
        for j, item in enumerate(sub[1]):
            x = f"{p}_{j}"
            bind = f"(T{x} := type({x} := {p}[{j}]))"
            if not _sub_guard(
                item, x, bind, f"T{x}", f"{tag}_{j}", names, objects, types, checks, leaves
            ):
                return False
    else:
        return False
    return True


_INLINE = 8  # the most items and containers a container's guard writes out


def _size(sub) -> int:
    """The number of items and containers under a container's key."""
    return sum(1 + (_size(item) if isinstance(item[0], type) else 0) for item in sub[1])


def _matcher(sub, jarray, javal):
    """A function `(value, leaves) -> bool` recognizing the key `sub` (arrays of fixed shapes,
    NumPy scalars, tuples, lists and namedtuples of them) and appending its leaves in the
    order `signature.flatten` does; None for other keys."""
    kind = sub[0]
    if kind == "A":
        dtype, shape = sub[1], sub[2]
        if dtype.itemsize == 0 or dtype.kind in "OmMV" or None in shape:
            return None

        def array(v, leaves):
            t = type(v)
            a = v.aval if t is jarray and javal else v if t is np.ndarray or t is jarray else None
            if a is None or a.dtype is not dtype or a.shape != shape:
                return False
            leaves.append(v)
            return True

        return array
    if kind == "S":
        if sub[1].itemsize == 0 or sub[1].kind in "OmMVSU":
            return None
        scalar_type = sub[1].type

        def scalar(v, leaves):
            if type(v) is not scalar_type:
                return False
            leaves.append(v)
            return True

        return scalar
    if isinstance(kind, type) and (kind is tuple or kind is list or hasattr(kind, "_fields")):
        items = [_matcher(item, jarray, javal) for item in sub[1]]
        if None in items:
            return None
        n = len(items)

        def container(v, leaves):
            if type(v) is not kind or len(v) != n:
                return False
            for match, item in zip(items, v):
                if not match(item, leaves):
                    return False
            return True

        return container
    return None


def _flat_matcher(sub, jarray, javal, slow=None):
    """For a container whose leaves are all arrays of fixed shapes: a matcher that flattens the
    value (`_flattener`), then compares the leaves' types, dtypes and shapes with the key's as
    lists, in C where all leaves are of one array type (a mix takes the closures of
    `_matcher`: `slow`, made here if not given). A list of 20 `(w, b)` tuples: a few maps and
    list compares instead of 61 Python calls. None for other keys."""
    specs: list = []
    if _skeleton(sub, specs) is None:
        return None
    flatten = _flattener(sub, jarray)
    if flatten is None:
        return None
    slow = slow or _matcher(sub, jarray, javal)
    if slow is None:
        return None
    n = len(specs)
    of_jax, of_numpy = [jarray] * n, [np.ndarray] * n
    facts_of = attrgetter("dtype", "shape")
    aval = attrgetter("aval") if javal else None

    def match(v, leaves):
        flat = flatten(v)
        if flat is None:
            return False
        types = list(map(type, flat))
        if types == of_numpy:
            facts = list(map(facts_of, flat))
        elif types == of_jax:
            facts = list(map(facts_of, map(aval, flat) if aval else flat))
        else:
            return slow(v, leaves)
        if facts != specs:
            return False
        leaves += flat
        return True

    return match


def _flattener(sub, jarray):
    """A function giving the leaves of a value of the key `sub`'s structure in the order
    `signature.flatten` takes them, or None for a value of another structure. A container of
    arrays, or of containers of arrays (a list of `(w, b)` tuples), is checked and flattened
    by maps over its items; deeper ones by JAX's pytree flattening (C++) where JAX is loaded,
    its structure compared with the key's. None where neither applies."""
    kind, items = sub[0], sub[1]
    n = len(items)
    if all(item[0] == "A" for item in items):

        def flat1(v):
            if type(v) is not kind or len(v) != n:
                return None
            return list(v)

        return flat1
    if all(isinstance(item[0], type) and all(x[0] == "A" for x in item[1]) for item in items):
        kinds = [item[0] for item in items]
        lengths = [len(item[1]) for item in items]
        join = chain.from_iterable

        def flat2(v):
            if type(v) is not kind or len(v) != n:
                return None
            if list(map(type, v)) != kinds or list(map(len, v)) != lengths:
                return None
            return list(join(v))

        return flat2
    if jarray is _NoJax:
        return None
    from jax import tree_util  # (loaded: its array type is)

    specs: list = []
    try:
        leaves, treedef = tree_util.tree_flatten(_skeleton(sub, specs))
    except Exception:  # a namedtuple class that cannot be made from its items
        return None
    if leaves != list(range(len(specs))):
        return None  # a class registered with JAX flattens otherwise: the closures do
    flatten = tree_util.tree_flatten

    def by_jax(v):
        try:
            leaves, tree = flatten(v)
        except Exception:  # a user's class registered with JAX that fails to flatten
            return None  # (the general path says what is wrong)
        return leaves if tree == treedef else None

    return by_jax


def _skeleton(sub, specs: list):
    """The key's containers with the leaves' positions as their items, each leaf's
    `(dtype, shape)` appended to `specs`; None unless every leaf is an array of fixed shape."""
    kind = sub[0]
    if kind == "A":
        dtype, shape = sub[1], sub[2]
        if dtype.itemsize == 0 or dtype.kind in "OmMV" or None in shape:
            return None
        specs.append((dtype, shape))
        return len(specs) - 1
    if kind is tuple or kind is list or (isinstance(kind, type) and hasattr(kind, "_fields")):
        items = []
        for item in sub[1]:
            made = _skeleton(item, specs)
            if made is None:
                return None
            items.append(made)
        return kind(items) if kind is tuple or kind is list else kind(*items)
    return None
