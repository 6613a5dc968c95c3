"""Sets and dicts whose keys are known only when the graph runs, staged (`runtime.keyed`
holds the user's object's *shadow*: a list of its keys and, for a dict, one of its values).
Each operation records one helper (`graph.keyed_helpers`) on the shadow's run-time lists and
puts the lists it gives back into the shadow, as a list method that changes a run-time list
does (`list_ops.list_method`); a staged loop carries the shadow lists as any list it changes."""

from __future__ import annotations

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph import keyed_helpers as kh
from autoconv.graph.errors import StagingError, where
from autoconv.graph.origin import user_origin
from autoconv.graph.tensor import Tensor
from autoconv.runtime import keyed as keyed_rt
from autoconv.runtime import tallies
from autoconv.trace.tensors import appends, choices
from autoconv.trace.tensors.accumulated import ListAccum, run_time_item
from autoconv.trace.tensors.appends import _NeedsAccumulator, in_staged_loop, one_run
from autoconv.trace.tensors.choices import Choice
from autoconv.trace.tensors.leaves import _spec_text
from autoconv.trace.tensors.optionals import Optional
from autoconv.trace.tensors.recording import emit
from autoconv.trace.tensors.rows import _weak, as_items, is_row, item_spec
from autoconv.trace.tensors.user_code import source_line, user_frame

_BOOL = ((), np.dtype(bool), True)
_CODED = (str, bytes)  # keys written in the code, held as indices into a table
_OBJECT = ((), np.dtype(object), False)


def _what(shadow) -> str:
    kind = "dict" if shadow.values is not None else "set"
    if not shadow.name:
        frame = user_frame()
        names = [n for n, v in frame.f_locals.items() if v is shadow.obj] if frame else []
        shadow.name = names[0] if names else ""
    return f"{kind} `{shadow.name}`" if shadow.name else f"this {kind}"


class KeyedTypeError(StagingError, TypeError):
    """A key autoconv cannot stage where eager Python would hash it (a TypeError, as the
    hash of a value known only when the graph runs is refused elsewhere)."""


def _fail(shadow, origin, message, error=StagingError):
    what = _what(shadow)
    frame = user_frame()
    line = f"`{source_line(frame)}`: " if frame is not None else ""
    raise error(f"{where(origin)}: {line}{what} {message}")


def _refuse_read(shadow, op, origin, e):
    """A read (`d.get(k)`, `d[k]`, `k in d`) at a run-time key of a dict whose keys are known
    now, which cannot become a run-time one here: what to write for a read, not a store."""
    if "does not carry it" not in str(e) and "holds the value" not in str(e):
        raise e
    shown = ", ".join(repr(k) for k in list(shadow.obj)[:3]) + (
        ", ..." if len(shadow.obj) > 3 else ""
    )
    read = {"get": "`.get()`", "contains": "`in`", "item": "`[]`"}.get(op, f"`.{op}()`")
    _fail(
        shadow,
        origin,
        f"holds keys known while tracing ({shown}) and is read ({read}) at a key known only "
        "when the graph runs, which needs its keys and values as run-time lists that this "
        "statement cannot keep (values that are not numbers of one kind, or a branch or loop "
        "that does not carry the dict). Choose by the number the key came from instead (a "
        "tuple of the values indexed as the keys are: `COSTS[int(v) - 1]`), or test each key "
        "(`if name == 'express': ...`).",
        KeyedTypeError,
    )


def _key(shadow, key, origin, held=False):
    """`key` as an item of the keys' run-time list: a number, or a tuple of numbers (a row).
    `held`: a key the object holds now, which becomes a run-time one."""
    if type(key) is tuple:
        key = as_items([key])[0]
    if isinstance(key, Choice) or type(key) in _CODED:
        return _coded(shadow, key, origin)
    if shadow.coded:
        _fail(
            shadow,
            origin,
            f"holds keys written in the code ({_table_text(shadow)}) and gets the key "
            f"{_spec_text(key)} while its keys are known only when the graph runs: use keys "
            "of one sort.",
            KeyedTypeError,
        )
    if isinstance(key, Optional):
        _fail(
            shadow,
            origin,
            f"gets the key `{key.name}`, which is None on some paths, while its keys are "
            "numbers known only when the graph runs: test `if k is not None:` before storing.",
            KeyedTypeError,
        )
    shadow.coded = False
    spec = item_spec(key)
    # (a string made when the graph runs is an object item: Python compares such keys)
    bad = spec is None or spec[0] != () or spec[1].kind not in "biufO" and not is_row(spec[1])
    if bad and held:
        _fail(
            shadow,
            origin,
            f"holds the key {key!r}, known while tracing, and gets one known only when the "
            "graph runs: its keys then become run-time ones, which are numbers or tuples of "
            "numbers. Keep run-time keys in a dict of their own.",
            KeyedTypeError,
        )
    if bad:
        _fail(
            shadow,
            origin,
            f"gets the key {_spec_text(key)} while its keys are known only when the graph runs: "
            "such keys are numbers, tuples of numbers or strings (an array or an object "
            "needs its value while tracing).",
            KeyedTypeError,
        )
    return key


def _coded(shadow, key, origin):
    """A key written in the code (a string), or a Choice among such (`"pos" if v > 0 else
    "neg"`): its index in the shadow's table of them, as the keys' run-time list holds it."""
    options = key.options if isinstance(key, Choice) else (key,)
    if shadow.coded is False and _object_keys(shadow) and all(type(o) in _CODED for o in options):
        # Its keys are strings made when the graph runs (a comprehension's, staged): Python
        # compares this one with them then.
        return choices.output(key) if isinstance(key, Choice) else key
    if shadow.coded is False or any(type(o) not in _CODED for o in options):
        _fail(
            shadow,
            origin,
            f"gets the key {_spec_text(key)} while its keys are known only when the graph "
            "runs: such keys are numbers or tuples of numbers, or strings written in the code "
            "(one sort in one dict).",
            KeyedTypeError,
        )
    shadow.coded = True
    table = shadow.table
    table.extend(o for o in dict.fromkeys(options) if o not in table)
    return choices.tag_of(key, tuple(table))


def _object_keys(shadow) -> bool:
    """Whether the shadow's keys are one run-time list of Python objects."""
    keys = shadow.keys
    return len(keys) == 1 and isinstance(keys[0], ListAccum) and keys[0].tensor.dtype.kind == "O"


def _table_text(shadow) -> str:
    return ", ".join(map(repr, shadow.table[:4])) + (", ..." if len(shadow.table) > 4 else "")


def _ensure(shadow, lst, example, origin):
    """Makes `lst` (a list of the shadow) one run-time list, whose items are of `example`'s
    kind: a staged loop that carries it restarts with it so (`_NeedsAccumulator`)."""
    if len(lst) == 1 and isinstance(lst[0], ListAccum):
        return
    # The items it holds now (keys known while tracing) become the run-time list's first
    # items: the Python object keeps them, unread while its shadow is a run-time one.
    obj = shadow.obj
    held = example is None  # (its held items give the kind)
    items = list(obj if lst is shadow.keys else obj.values()) if obj else []
    if lst is shadow.keys:
        items = [_key(shadow, k, origin, held=True) for k in items]
    elif example is None:
        # None before any number: float64 values, whose run-time list (a Python list when the
        # graph runs) holds the Python ints and floats stored later as they are.
        example = next((v for v in items if v is not None), 0.0)
    nones = tuple(i for i, v in enumerate(items) if v is None)
    if in_staged_loop(lst):
        if nones:
            _fail(
                shadow,
                origin,
                "holds None values known while tracing and gets a key known only when the graph "
                "runs in this loop: store a number standing for None (e.g. -1) instead.",
                KeyedTypeError,
            )
        # the loop carries it from its items before the loop (its snapshot of the mirror)
        raise _NeedsAccumulator(lst, [example] if example is not None else items[:1], whole=True)
    if items and not _carried(shadow):
        _fail(
            shadow,
            origin,
            "holds keys known while tracing and gets one known only when the graph runs, in a "
            "staged branch or loop that does not carry it: start it empty (`seen = set()`, "
            "`d = {}`) and add every key in the graph, or make each key a Python value known "
            "now.",
            KeyedTypeError,
        )
    kind = example if example is not None or not items else items[0]
    spec = item_spec(kind)
    if spec is None and held:
        _fail(
            shadow,
            origin,
            f"holds the value {_spec_text(kind)}, known while tracing, and gets a key known "
            "only when the graph runs: its values then become run-time ones, which are numbers "
            "or arrays of one kind. Keep run-time keys in a dict of their own.",
            KeyedTypeError,
        )
    if spec is None:
        _fail(shadow, origin, f"cannot hold {_spec_text(kind)} when the graph runs.")
    what = "keys" if lst is shadow.keys else "values"
    zero = np.zeros(spec[0], spec[1])[()] if nones else None
    items = [zero if v is None else v for v in items]
    for item in items:
        _check_kind_of(shadow, spec, item, origin, what)
    run = one_run(items, shadow.name, origin, (tuple(spec[0]), spec[1]))
    if nones:
        shadow.nones = True
        run_spec = [((None, *spec[0]), spec[1], False)]
        run = emit("helper", "with_nones", kh.with_nones, (run, nones), {}, run_spec)[0]
    lst[:] = [ListAccum(run)]


def _carried(shadow) -> bool:
    """Whether the shadow's lists, made run-time ones here, reach the code after: at the top
    level of the function, or in a staged `if` (outside staged loops) that carries them."""
    scope = _g.current()
    if scope.block is scope.graph.block:
        return True
    return shadow.snapped and not appends._LOOPS


def _promote(shadow, origin, added=None):
    """Makes the shadow's lists run-time ones (from the items the object holds now; of the
    kinds of `added`, a `(key, value)` a path stores, where it holds none)."""
    key, value = added if added is not None and not shadow.obj else (None, None)
    if shadow.values is not None:
        _ensure(shadow, shadow.values, value, origin)
    _ensure(shadow, shadow.keys, key, origin)


def promote_added(hidden, origin) -> bool:
    """Makes each dict to which a staged `if` adds number keys known while tracing on some
    paths only (`hidden.added`, restored by `hidden.undo`) a dict of run-time keys, its keys
    now first; whether one became so (the `if` is then traced again, storing into it). A dict
    that cannot (other keys or values) keeps the `if`'s own error."""
    promoted = False
    for d, _, name in hidden.dicts:
        prefix = f"`{name}["
        added = [item for label, item in hidden.added.items() if label.startswith(prefix)]
        if not added or type(d) is not dict or not all(map(keyed_rt.number_key, d)):
            continue
        if not all(keyed_rt.number_key(k) for k, _ in added):
            continue  # (`trades[f"asset{i}"] = n`: the `if`'s own error names the key)
        shadow = keyed_rt.shadow(d, name, make=True)
        if shadow.active() or not _promotable(shadow):
            continue
        _promote(shadow, origin, added[0])
        promoted = True
    return promoted


def promote_sets(hidden, origin) -> bool:
    """Makes each set of numbers to which a staged `if` adds (or from which it removes) a
    number known while tracing on some paths only (`hidden.set_changes`, restored by
    `hidden.undo`) a set of run-time members; whether one became so (the `if` is then traced
    again, adding to it when the graph runs). Other sets keep the `if`'s error."""
    promoted = False
    for name, (members, keys) in list(hidden.set_changes.items()):
        if not all(map(keyed_rt.number_key, (*members, *keys))):
            continue
        shadow = keyed_rt.shadow(members, name, make=True)
        if shadow is None or shadow.active():
            continue
        _promote(shadow, origin, (keys[0], None))
        del hidden.set_changes[name]
        promoted = True
    return promoted


def _promotable(shadow) -> bool:
    """Whether the shadow's items can become run-time lists here (else its `_promote` raises)."""
    values = list(shadow.obj.values())
    specs = {None if item_spec(v) is None else tuple(item_spec(v)[0]) for v in values}
    return None not in specs and len(specs) <= 1 and _carried(shadow) or in_staged_loop(shadow.keys)


def _check_kind(shadow, lst, item, origin, what):
    acc = lst[0].tensor
    _check_kind_of(shadow, (tuple(acc.shape[1:]), acc.dtype), item, origin, what)


def _check_kind_of(shadow, held, item, origin, what):
    shape, dtype = tuple(held[0]), held[1]
    spec = item_spec(item)
    same = spec is not None and tuple(spec[0]) == shape
    if same and spec[1] != dtype:
        same = not (is_row(spec[1]) or is_row(dtype)) and _weak(item)
    if not same:
        _fail(
            shadow,
            origin,
            f"holds {what} of {np.dtype(dtype)} {shape} known only when the graph runs, and "
            f"gets {_spec_text(item)}: use {what} of one kind.",
        )


def _run(lst):
    return lst[0].tensor


def _spec(lst):
    t = _run(lst)
    return (None, *t.shape[1:]), t.dtype, False


def _item_spec(lst):
    t = _run(lst)
    return tuple(t.shape[1:]), t.dtype, False


def _handled_missing(keys, key) -> bool:
    """Whether a staged `try` handles the KeyError of `d[key]` here: then records the failure
    point (the key missing from the run-time `keys` when the graph runs)."""
    from autoconv.runtime import tries
    from autoconv.trace.tensors import staged_try

    if tries.accepting(KeyError, staged_try._block())[0] is None:
        return False
    found = emit("helper", "in", kh.keyed_contains, (_run(keys), key), {}, [_BOOL])[0]
    return staged_try.failure_point(KeyError, KeyError(key), np.logical_not(found))


def keyed(op: str, shadow, *args):
    """Stages `op` (a set or dict method's name, or `contains`, `store`, `item`, `max`, `min`,
    `output`) on the set or dict whose shadow is `shadow`."""
    origin = user_origin(3)
    keys, values = shadow.keys, shadow.values
    is_dict = values is not None
    if op == "mixed":
        _promote(shadow, origin)
    if op == "operand":
        _fail(
            shadow,
            origin,
            "holds keys known only when the graph runs, and is an operand of `and` / `or` "
            "whose value is used, which is the set or dict or the other operand by its truth: "
            "write the choice as an `if` statement.",
        )
    if op == "operator":
        _fail(
            shadow,
            origin,
            f"holds keys known only when the graph runs, and is an operand of `{args[0]}`, "
            "which is not staged on a dict (`==` and `!=` are): loop over the keys "
            "(`for k in e: d[k] = e[k]`), storing each.",
        )
    if op == "iterated":
        _fail(
            shadow,
            origin,
            "holds keys known only when the graph runs, and a comprehension or a builtin "
            "such as `list()` iterates it here, which is not staged: loop over it with a `for` "
            "statement, or use `sorted(d)`.",
        )
    if op == "iterate":
        _fail(
            shadow,
            origin,
            "holds keys known only when the graph runs, and a `for` loop over a set visits "
            "them in the order of their hashes, which autoconv does not reproduce. Loop over "
            "`sorted(s)`, or keep the keys in a dict (`d[k] = True`, insertion order).",
        )
    if op in ("add", "store", "setdefault"):
        key = _key(shadow, args[0], origin)
        if is_dict:
            value = args[1] if len(args) > 1 else None
            if op == "setdefault" and len(args) < 2:
                value = None
            value = _stored_value(shadow, value, origin)
        _ensure(shadow, keys, key, origin)
        _check_kind(shadow, keys, key, origin, "keys")
    elif op in ("contains", "discard", "remove", "get", "pop", "item"):
        if not args or len(args) > (2 if op == "get" else 1):
            if shadow.active():  # `s.pop()`, `d.pop(k, default)`
                _fail(
                    shadow,
                    origin,
                    f"holds keys known only when the graph runs, and `.{op}()` with "
                    f"{len(args)} argument(s) is not staged: test `k in d` first.",
                )
            return getattr(shadow.obj, op)(*args)  # Python's own answer on the empty object
        if not shadow.active() and shadow.obj:
            try:
                _promote(shadow, origin)  # its keys known now become run-time ones
            except KeyedTypeError as e:
                _refuse_read(shadow, op, origin, e)
        key, present = _maybe_none(args[0], op)
        key = _key(shadow, key, origin)
        if not shadow.active():
            return _empty(op, key, args)  # no key stored yet, on any path: Python's answer
    elif not shadow.active():
        _promote(shadow, origin)
    flag = () if op not in ("contains", "get", "discard") or present is True else (present,)
    if op in ("add", "discard", "remove"):
        fn = getattr(kh, f"keyed_{op}")
        _set(keys, emit("helper", f"set_{op}", fn, (_run(keys), key, *flag), {}, [_spec(keys)]))
        return None
    if op == "contains":
        return emit("helper", "in", kh.keyed_contains, (_run(keys), key, *flag), {}, [_BOOL])[0]
    if op == "store":
        outs = emit(
            "helper",
            "dict_store",
            kh.keyed_store,
            (_run(keys), _run(values), key, value),
            {},
            [_spec(keys), _spec(values)],
        )
        _set(keys, outs[:1])
        _set(values, outs[1:])
        return None
    if op == "item" and _handled_missing(keys, key):
        # a `try` around it handles KeyError: the handler where the key is missing, and the
        # read gives a stand-in there (never used)
        shape, dtype, _ = _item_spec(values)
        op, args = "get", (key, np.zeros(shape, dtype)[()] if shape else dtype.type(0))
    if op in ("item", "get"):
        fn_args = (_run(keys), _run(values), key)
        if op == "get":
            fn_args += (args[1] if len(args) > 1 else None, *flag)
        fn = kh.keyed_item if op == "item" else kh.keyed_get
        out = emit("helper", f"dict_{op}", fn, fn_args, {}, [_item_spec(values)])[0]
        if op == "item":
            out.node.effect = True  # raises KeyError when the graph runs, read or not
        if shadow.nones or op == "get" and fn_args[3] is None:
            return _maybe_none_read(shadow, out, _extra(args[1:]))
        return run_time_item(out, _extra(args[1:]))
    if op in ("setdefault", "pop"):
        fn_args = (_run(keys), _run(values), key) + ((value,) if op == "setdefault" else ())
        fn = kh.keyed_setdefault if op == "setdefault" else kh.keyed_pop
        specs = [_spec(keys), _spec(values), _item_spec(values)]
        outs = emit("helper", f"dict_{op}", fn, fn_args, {}, specs)
        outs[2].node.effect = True
        _set(keys, outs[:1])
        _set(values, outs[1:2])
        if shadow.nones:
            return _maybe_none_read(shadow, outs[2], ())
        return run_time_item(outs[2])
    if op in ("max", "min"):
        fn = kh.keyed_max if op == "max" else kh.keyed_min
        out = emit("helper", f"dict_{op}", fn, (_run(keys), _run(values)), {}, [_item_spec(keys)])
        out[0].node.effect = True
        if shadow.coded:
            return choices.Choice(out[0], tuple(shadow.table), shadow.name or "key")
        return run_time_item(out[0])
    if shadow.coded and op in ("keys", "items", "coded_keys"):
        _fail(
            shadow,
            origin,
            f"holds keys written in the code ({_table_text(shadow)}), stored when the graph "
            "runs, and its keys are read here as values, which is not staged: return the dict, "
            "or read `d.get(k, default)` for each key `k` you expect.",
        )
    if op == "keys":
        return list(keys)
    if shadow.nones and op in ("values", "items"):
        _fail(
            shadow,
            origin,
            f"holds values known only when the graph runs, some of them None, and `.{op}()` "
            "would give them as a run-time list, which holds numbers only: loop over the keys "
            "(`for k in d:`) and read `d[k]`, or return the dict.",
        )
    if op == "values":
        return list(values)
    if op in ("items", "most_common"):
        k, v = _run(keys), _run(values)
        if is_row(k.dtype) or is_row(v.dtype) or v.ndim > 1:
            _fail(
                shadow,
                origin,
                "holds tuple keys or array values known only when the graph runs, and its "
                "`.items()` pairs cannot be staged: loop over the keys (`for k in d:`) and read "
                "`d[k]`.",
            )
        pair = np.dtype([("p0", k.dtype), ("p1", v.dtype)])  # Python numbers, as eagerly
        spec = [((None,), pair, False)]
        if op == "most_common":
            return _most_common(shadow, k, v, spec, args[0], origin)
        return [ListAccum(emit("helper", "dict_items", kh.keyed_pairs, (k, v), {}, spec)[0])]
    if op == "output":
        if is_dict:
            fn_args, fn = (_run(keys), _run(values)), kh.keyed_dict
        else:
            fn_args, fn = (_run(keys),), kh.keyed_set
        kind = tallies.output_kind(shadow.obj)
        if shadow.coded or kind is not None:
            fn_args += (tuple(shadow.table) if shadow.coded else None,)
        if kind is not None:
            fn_args += (kind,)  # a Counter or defaultdict, as the function made
        name = "dict_output" if is_dict else "set_output"
        return emit("helper", name, fn, fn_args, {}, [_OBJECT])[0]
    if shadow.active():  # Python's method would see the object empty
        _fail(
            shadow,
            origin,
            f"holds keys known only when the graph runs, and `.{op}()` is not staged on it: "
            "write it as a `for` loop over the keys (`for k in d:`), storing or removing each.",
        )
    return getattr(shadow.obj, op)(*args)  # a method autoconv does not stage: Python's


def _most_common(shadow, k, v, spec, n, origin):
    """`c.most_common(n)` of a Counter: its `(key, count)` pairs by count, largest first, ties
    in insertion order (a stable sort, as Python's), the first `n` (all for None)."""
    if n is not None and type(n) is not int:
        _fail(
            shadow,
            origin,
            f"holds keys known only when the graph runs, and `.most_common(n)` gets "
            f"{_spec_text(n)}: "
            "give `n` as a Python int (the number of pairs it gives is then known), or slice "
            "`c.most_common()`.",
        )
    if v.dtype.kind not in "biuf":
        _fail(shadow, origin, f"holds counts of {v.dtype}, which `.most_common()` cannot order.")
    pairs = emit("helper", "most_common", kh.keyed_most_common, (k, v, n), {}, spec)[0]
    return [ListAccum(pairs)]


def _stored_value(shadow, value, origin):
    """`value`, stored into the dict's run-time values (made here, of its kind, if need be);
    None, or an Optional, is stored as None (when the graph runs, the list is a Python list),
    and reads then give Optionals (`shadow.nones`)."""
    values = shadow.values
    if type(value) in (list, dict, set):
        # A read would give a new one, which `.append` would not reach (`d.setdefault(k,
        # []).append(i)`): each key's items in a list of their own is not staged.
        _fail(
            shadow,
            origin,
            f"gets a {type(value).__name__} as the value of a key known only when the graph "
            "runs, and a read of it would be a new one that a change (`.append`) does not "
            "reach. Keep the values in lists of keys and items (`keys.append(k); "
            "items.append(i)`), or count with numbers (`d[k] = d.get(k, 0) + 1`).",
            KeyedTypeError,
        )
    if value is None:
        shadow.nones = True
        _ensure(shadow, values, None, origin)
        return None
    if isinstance(value, Optional) and value.missing is None and value.flag is not True:
        shadow.nones = True
        inner = value.value
        _ensure(shadow, values, inner, origin)
        _check_kind(shadow, values, inner, origin, "values")
        spec = [_item_spec(values)]
        return emit("helper", "some_or_none", kh.some_or_none, (value.flag, inner), {}, spec)[0]
    if isinstance(value, Optional):
        value = value.unwrap()
    _ensure(shadow, values, value, origin)
    _check_kind(shadow, values, value, origin, "values")
    # A string a staged condition chose: the one it picks. A number whose Python type depends
    # on the path (`d.get(k, 0) + e.get(k, 0)` of reads): a node giving its path's type, as
    # `append` stores it, so a backend keeping the values in a buffer knows their types.
    return appends.as_its_kind(as_items([value])[0])


def _maybe_none_read(shadow, raw, extra):
    """A value read from the dict that may be None when the graph runs: an Optional."""
    dtype = raw.dtype
    flag = emit("helper", "is_not_none", kh.present, (raw,), {}, [_BOOL])[0]
    zero = np.zeros(raw.shape, dtype)[()]
    spec = [(tuple(raw.shape), dtype, False)]
    value = emit("helper", "none_as_zero", kh.or_zero, (raw, zero), {}, spec)[0]
    return Optional(flag, run_time_item(value, extra), None, f"{shadow.name or 'd'}[...]")


def _maybe_none(key, op):
    """`key`, or the value of an Optional key (`best` of `best = None ... best = k`), and
    whether it is there: a bool known at run time for `in`, `.get()` and `.discard()`, which
    answer for None as Python does (no number key equals it); `d[best]`, `.pop()` and
    `.remove()` read the value behind a check raising Python's KeyError(None)."""
    if not isinstance(key, Optional):
        return key, True
    if key.missing is not None or key.flag is True:
        return key.unwrap(), True  # (unbound on some path: UnboundLocalError, as eagerly)
    if op in ("contains", "get", "discard"):
        return key.value, key.flag
    t = key.value
    spec = item_spec(t)
    if spec is None:
        return key, True  # (a structure: refused by `_key`)
    out = emit("helper", "key_not_none", kh.key_not_none, (key.flag, t), {}, [spec])[0]
    out.node.effect = True  # raises where eager code reads it, even if unused
    return out, True


def _empty(op, key, args):
    """`op` of an empty set or dict, as Python answers it."""
    if op == "contains":
        return False
    if op == "get":
        return args[1] if len(args) > 1 else None
    if op in ("remove", "pop", "item"):
        raise KeyError(key)
    return None  # discard


def _extra(defaults) -> tuple:
    return tuple(type(d) for d in defaults if type(d) in (bool, int, float))


def _set(lst, outs) -> None:
    lst[:] = [ListAccum(outs[0])]


def outputs(value):
    """A function's outputs with each set or dict holding run-time keys replaced by the value
    that builds it when the graph runs (a real Python set or dict, as eagerly)."""
    t = type(value)
    if t in keyed_rt.KINDS:
        found = keyed_rt.active(value)
        if found is not None:
            return keyed("output", found)
        if t is not dict and t is not set and any(isinstance(v, Tensor) for v in value.values()):
            # a Counter or defaultdict holding values known only when the graph runs (`c["a"]
            # += 1` in a staged loop): made when it runs, as one of run-time keys is
            return keyed("output", keyed_rt.shadow(value, make=True))
        if t is dict:
            return {k: outputs(v) for k, v in value.items()} if value else value
        return value
    if t is tuple or t is list and not (value and isinstance(value[-1], ListAccum)):
        new = [outputs(v) for v in value]
        if all(a is b for a, b in zip(new, value)):
            return value
        return tuple(new) if t is tuple else new
    return value
