"""State a staged statement changes behind its variables' backs: a helper's `nonlocal` counter
(`calls += 1` in a function the loop calls) or an attribute a called method sets
(`self.evals += 1`). The converter sees neither, so neither is carried: a staged body is traced
once or a few times for every iteration, and the count would be the number of traces.

`HiddenState` snapshots what a staged statement's functions can reach that way (the cells of
the user's own functions they hold, the attributes of the user's objects they hold) and, after
each trace, puts it back and remembers what changed; `check` then raises an error naming it.
The statement's own variables (`names`, `self.total` among them) are not hidden state.
"""

from __future__ import annotations

import dis
import functools
import os
from collections import deque
from collections.abc import Callable

from autoconv.runtime.staged_locals import converter_body
from autoconv.runtime.staging import read_state
from autoconv.trace.core.closures import held_functions, user_object

_EMPTY = object()
_FunctionType = type(lambda: None)
_MethodType = type(user_object.__get__(object()))
_LIMIT = 256  # functions and objects looked into


def _get(cell):
    try:
        return cell.cell_contents
    except ValueError:
        return _EMPTY


class HiddenState:
    """What the functions `fns` of a staged statement (whose variables are `names`) can change
    without the converter seeing it: `undo()` after each trace, `check(fail)` at the end."""

    def __init__(self, fns, names=()):
        self.cells: list = []  # (cell, value, label, variable)
        self.objects: list = []  # (object, its attributes before, its name, carried ones)
        self.dicts: list = []  # (dict an object holds, its items before, its name)
        self.deques: list = []  # (deque a variable holds, its items before, its name)
        self.sets: list = []  # (set a variable holds, its members before, its name)
        self.set_changes: dict = {}  # name -> (the set, the members a trace added or removed)
        self.deque_changed: dict = {}  # label -> None
        self.names = frozenset(names)  # the statement's own (`self.stock['a']` once carried)
        # label -> (key, value): dict entries a trace added (not there before), as it left them
        self.added: dict = {}
        self.rounds: list = []  # the labels each `undo()` found added (one set per trace)
        self.changed: dict = {}  # label -> None, in order
        self.refs: dict = {}  # label -> (state name, read, write) of what changed
        carried = _carried_attributes(names)
        seen: set = set()
        own: set = set()  # cells the statement's own functions rebind: its locals
        todo = [(fn, None) for fn in fns if fn is not None]
        while todo and len(seen) < _LIMIT:
            fn, helper = todo.pop()
            if isinstance(fn, _MethodType):
                fn = fn.__func__
            if type(fn) is not _FunctionType or id(fn) in seen:
                continue
            seen.add(id(fn))
            user_helper = helper or (None if _converter_body(fn) else fn.__name__)
            stores = _stored_cells(fn.__code__) if user_helper is None else ()
            for var, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
                if var in stores:
                    own.add(id(cell))
                value = _get(cell)
                if user_helper is not None and var not in names and id(cell) not in seen:
                    seen.add(id(cell))
                    label = f"`{var}` (a variable that `{user_helper}` changes with `nonlocal`)"
                    self.cells.append((cell, value, label, var))
                if type(value) is dict and id(value) not in seen:
                    # `best["value"] = v` in a helper, or at a key the converter does not
                    # carry by its path (the name it rebinds holds the same dict): the entries
                    # are hidden state too.
                    seen.add(id(value))
                    self.dicts.append((value, dict(value), var))
                if type(value) is set and id(value) not in seen:
                    # `seen.add(k)` of a key known now in a staged branch: Python's method
                    # runs while each branch is traced (promoted, or refused, by the tracer).
                    seen.add(id(value))
                    self.sets.append((value, set(value), var))
                if type(value) is deque and id(value) not in seen:
                    # A deque is no list: a staged statement cannot carry its items (a worklist
                    # would grow in every traced branch, or never empty).
                    seen.add(id(value))
                    self.deques.append((value, list(value), var))
                todo.extend(self._reach(value, var, user_helper, carried, seen))
            if user_helper is None and not fn.__code__.co_filename.startswith(_PACKAGE):
                # (autoconv's own functions, a tracer's loop test or `assign_item` called
                # directly: their module's tables are no state of the user's)
                todo.extend(self._globals(fn, names, carried, seen))
            else:
                # `global calls; calls += 1` in a helper: the module's entry, as a cell.
                for var in _global_stores(fn.__code__):
                    if var not in names and (id(fn.__globals__), var) not in seen:
                        seen.add((id(fn.__globals__), var))
                        label = f"`{var}` (a global that `{user_helper}` changes)"
                        cell = _GlobalCell(fn.__globals__, var)
                        self.cells.append((cell, _get(cell), label, var))
        # A local the statement's own functions rebind (a loop's target, `nonlocal k, v`) is
        # theirs, even where a helper also reaches it (a lambda of an `elif` test reading `v`).
        self.cells = [c for c in self.cells if id(c[0]) not in own]

    def _globals(self, fn, names, carried, seen):
        """Notes the containers, user objects and user classes of the module that a statement's
        own function reads by a global name (`Reg.table["n"] += 1`, `G.n += 1`, `TABLE[k] =
        v`): the converter carries paths of its locals only, so a change to these is hidden
        state as a closure's is. A helper's globals are not looked into: a cache it fills
        while tracing is no state of the statement. (A set or deque of the module stays as
        Python changes it: `trace_effects` warns of it.)"""
        module = fn.__globals__
        for var in global_reads(fn.__code__):
            value = module.get(var, _EMPTY)
            if value is _EMPTY or var in names or id(value) in seen:
                continue
            if type(value) is dict:
                seen.add(id(value))
                self.dicts.append((value, dict(value), var))
            elif type(value) not in (set, deque):
                yield from self._reach(value, var, None, carried, seen)

    def _reach(self, value, var, helper, carried, seen):
        """The functions `value` holds (to look into), after noting the user objects it is."""
        if isinstance(value, _MethodType):
            yield value.__func__, helper
            value, var = value.__self__, var + ".__self__"
        if type(value) is _FunctionType or type(value) is tuple:
            for fn in held_functions(value):
                yield fn, helper
            return
        if _user_class(value):
            # `Reg.count += 1`, `Reg.table["n"] += 1`: the class's own attributes, and the
            # entries of the dicts they are (not its methods: they change no class state).
            if id(value) not in seen:
                seen.add(id(value))
                attrs = dict(value.__dict__)
                self.objects.append((value, attrs, var, {a for (o, a) in carried if o == var}))
                for attr, inner in attrs.items():
                    if type(inner) is dict and id(inner) not in seen:
                        seen.add(id(inner))
                        self.dicts.append((inner, dict(inner), f"{var}.{attr}"))
            return
        for obj, name in _objects(value, var):
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            # Two objects reached by one name (`method.__self__` of each branch of a method
            # called on a `Union`): each its own label, or one's change would hide the other's.
            taken = {o[2] for o in self.objects}
            if name in taken:
                name = next(
                    f"{name}#{k}" for k in range(2, _LIMIT + 2) if f"{name}#{k}" not in taken
                )
            attrs = dict(object.__getattribute__(obj, "__dict__"))
            skip = {a for (o, a) in carried if o == name}
            self.objects.append((obj, attrs, name, skip))
            for attr, inner in attrs.items():
                # `self.stock[item] = ...` in a method: the entries of a dict it holds.
                if type(inner) is dict and id(inner) not in seen and attr not in skip:
                    seen.add(id(inner))
                    self.dicts.append((inner, dict(inner), f"{name}.{attr}"))
            for inner in attrs.values():
                if isinstance(inner, _MethodType) or type(inner) is _FunctionType:
                    yield inner, helper

    def undo(self) -> None:
        """After a trace: puts back what it changed, and remembers it."""
        for cell, before, label, var in self.cells:
            now = _get(cell)
            if now is not before:
                self.changed[label] = None
                self.refs[label] = (var, lambda cell=cell: _get(cell), _setter(cell))
                if before is _EMPTY:
                    try:
                        del cell.cell_contents
                    except ValueError:
                        pass
                else:
                    cell.cell_contents = before
        for obj, before, name, skip in self.objects:
            now = object.__getattribute__(obj, "__dict__")
            for attr in set(now) | set(before):
                if attr in skip:
                    continue
                if now.get(attr, _EMPTY) is not before.get(attr, _EMPTY):
                    self.changed[f"`{name}.{attr}`"] = None
                    self.refs[f"`{name}.{attr}`"] = (f"{name}.{attr}", *_attribute(obj, attr))
                    _put_back(obj, now, attr, before.get(attr, _EMPTY))

        for members, before, name in self.sets:
            if members != before:
                _, known = self.set_changes.get(name, (None, []))
                self.set_changes[name] = (members, known + list(members ^ before))
                members.clear()
                members.update(before)
        for q, before, name in self.deques:
            if len(q) != len(before) or any(a is not b for a, b in zip(q, before)):
                self.deque_changed[f"`{name}`"] = None
                q.clear()
                q.extend(before)
        added = set()
        self.rounds.append(added)
        for d, before, name in self.dicts:
            if len(d) == len(before) and all(d.get(k, _EMPTY) is v for k, v in before.items()):
                continue
            for key in list(set(d) | set(before)):
                now, old = d.get(key, _EMPTY), before.get(key, _EMPTY)
                if now is old or _same_plain(now, old) or f"{name}[{key!r}]" in self.names:
                    continue
                label = f"`{name}[{key!r}]`"
                self.changed[label] = None
                self.refs[label] = (f"{name}[{key!r}]", *_entry(d, key))
                if old is _EMPTY:
                    self.added[label] = (key, now)
                    added.add(label)
                    del d[key]
                else:
                    d[key] = old

    def carried(self, everywhere=frozenset()) -> list | None:
        """`(state name, read, write)` of each thing a trace changed, for the statement to carry
        as more of its variables and trace again; None when something cannot be carried (a
        variable unbound before the statement, an attribute it did not have, or a dict entry
        it added, unless `everywhere`: labels of entries that every path adds)."""
        refs = [self.refs[label] for label in self.changed]
        missing = [label for label in self.changed if self.refs[label][1]() is _EMPTY]
        if any(label not in everywhere for label in missing):
            return None
        return refs

    def added_everywhere(self, traces: int, raised) -> set:
        """The labels of the dict entries each of the last `traces` traces (the paths of a
        staged `if`) added, leaving out the paths that raise (`raised`, one flag a trace)."""
        rounds = [r for r, r_raised in zip(self.rounds[-traces:], raised) if not r_raised]
        return set.intersection(*rounds) if rounds else set()

    def check(self, fail: Callable[[str], None], what: str) -> None:
        """Raises (`fail(message)`) when a trace changed hidden state."""
        if self.set_changes:
            name, (_, keys) = next(iter(self.set_changes.items()))
            fail(
                f"set `{name}` gets or loses {keys[0]!r} in this {what} on some paths or "
                "iterations only, so which members it holds would be known only when the graph "
                "runs, and it holds values that cannot be run-time members (strings, tuples, "
                f"or other kinds than numbers). Keep a flag instead (`has_{name} = ...`), or "
                "store numbers."
            )
        if self.deque_changed:
            shown = ", ".join(self.deque_changed)
            q = next(iter(self.deque_changed)).strip("`")
            fail(
                f"{shown}, a collections.deque, is changed in this {what}: autoconv stages the "
                "items of lists, not of deques, so the deque would change on every traced path. "
                f"Use a list: `{q} = [...]`, `{q}.pop(0)` for `{q}.popleft()`, `{q}.append(v)`, "
                f"`{q}[0]` (a run-time list, whose length is known when the graph runs)."
            )
        if self.added:
            shown = ", ".join(self.added)
            fail(
                f"{shown} is added to its dict in this {what}, on some paths or iterations "
                "only, so which keys the dict holds would be known only when the graph runs. "
                "Give each key a value before the statement (e.g. `d[k] = None`), or keep the "
                "values in an array indexed by the key."
            )
        if self.changed:
            fail(hidden_changes(list(self.changed), what))


@functools.lru_cache(maxsize=4096)
def _stored_cells(code) -> frozenset:
    """The free variables `code` assigns or deletes (`nonlocal x; x = ...`)."""
    return frozenset(
        ins.argval
        for ins in dis.get_instructions(code)
        if ins.opname in ("STORE_DEREF", "DELETE_DEREF") and ins.argval in code.co_freevars
    )


@functools.lru_cache(maxsize=4096)
def _global_stores(code) -> tuple:
    """The global names `code` assigns (`global calls; calls += 1`)."""
    return tuple(
        dict.fromkeys(
            ins.argval for ins in dis.get_instructions(code) if ins.opname == "STORE_GLOBAL"
        )
    )


class _GlobalCell:
    """A module's entry `name` read and written as a closure's cell is (`cell_contents`)."""

    __slots__ = ("module", "name")

    def __init__(self, module: dict, name: str):
        self.module, self.name = module, name

    @property
    def cell_contents(self):
        try:
            return self.module[self.name]
        except KeyError:
            raise ValueError("empty") from None

    @cell_contents.setter
    def cell_contents(self, value):
        self.module[self.name] = value

    @cell_contents.deleter
    def cell_contents(self):
        self.module.pop(self.name, None)


def _setter(cell):
    def write(value):
        cell.cell_contents = value

    return write


_PLAIN = (bool, int, float, complex, str, bytes, type(None))


def _same_plain(a, b) -> bool:
    """Equal Python numbers or strings of one type (the same value stored again)."""
    return type(a) is type(b) and type(a) in _PLAIN and a == b


def _entry(d, key):
    """`(read, write)` of entry `key` of dict `d` (read: _EMPTY where it is missing)."""

    def write(value):
        if value is _EMPTY:
            d.pop(key, None)  # (missing before a statement that adds it on every path)
        else:
            d[key] = value

    return (lambda: d.get(key, _EMPTY)), write


def _attribute(obj, attr):
    """Reads and writes an attribute in the object's own `__dict__` (as `HiddenState` sees
    it): `_EMPTY` when it has none."""
    namespace = object.__getattribute__(obj, "__dict__")

    def write(value):
        _put_back(obj, namespace, attr, value)

    return (lambda: namespace.get(attr, _EMPTY)), write


def _put_back(obj, namespace, attr, value) -> None:
    """Sets (or, for `_EMPTY`, deletes) `attr` in `namespace`, the `__dict__` of `obj`: a
    class's is read-only, so through `type.__setattr__` there."""
    if isinstance(obj, type):
        if value is _EMPTY:
            if attr in namespace:
                type.__delattr__(obj, attr)
        else:
            type.__setattr__(obj, attr, value)
    elif value is _EMPTY:
        namespace.pop(attr, None)
    else:
        namespace[attr] = value


@functools.lru_cache(maxsize=4096)
def global_reads(code) -> tuple:
    """The global names `code` reads (not its nested functions')."""
    return tuple(
        dict.fromkeys(
            ins.argval for ins in dis.get_instructions(code) if ins.opname == "LOAD_GLOBAL"
        )
    )


def _user_class(value) -> bool:
    """A class of the user's (not of Python, NumPy, JAX or autoconv), whose attributes a
    staged statement may change (`Reg.count += 1`)."""
    if not isinstance(value, type) or type(value) is not type:
        return False
    module = getattr(value, "__module__", None) or ""
    if module == "__main__":
        return True
    return module not in ("builtins", "numpy", "jax", "jaxlib", "abc", "typing") and not (
        module.startswith(("autoconv.", "jax.", "jaxlib.", "numpy.", "_", "collections"))
    )


def with_carried(get_state, set_state, names, refs):
    """A statement's `(get_state, set_state, names)` that also carry `refs` (`carried()`),
    ahead of its own variables."""

    def own_read():
        return read_state(get_state, names) if names else ()

    def own_write(state):
        if names:
            set_state(state)

    get, put = carrying(own_read, own_write, refs)
    return get, put, (*(name for name, _, _ in refs), *names)


def carrying(read, write, refs):
    """`(read, write)` of a statement's variables (`read()` gives their values, `write(values)`
    sets them) that also carry `refs` (`carried()`) ahead of them: the tensor tracer's and the
    JAX client's way of making hidden state a statement's own."""
    count = len(refs)

    def get():
        return (*(ref_read() for _, ref_read, _ in refs), *read())

    def put(state):
        state = tuple(state)
        for (_, _, ref_write), value in zip(refs, state[:count]):
            ref_write(value)
        write(state[count:])

    return get, put


def hidden_changes(labels, what: str) -> str:
    shown = ", ".join(labels)
    return (
        f"{shown} changes while this {what} is traced, in a function or method it calls: a "
        f"staged {what} is traced once (or a few times) for every iteration and path, so the "
        "change would happen that many times, not once per iteration. Return the new value "
        "from the function and assign it in this statement (`calls = calls + 1` here, "
        "`self.evals = self.evals + 1` in the statement itself), which carries it."
    )


_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep


def _converter_body(fn) -> bool:
    """A function of the converter's (a statement's part) or of autoconv's own (a tracer's
    loop test and body): not a user's helper."""
    if fn.__code__.co_filename.startswith(_PACKAGE):
        return True
    return converter_body(fn)


def _objects(value, name, depth=2):
    """`(object, name)` for the user's objects `value` is or holds as attributes, or as items
    of a list or tuple (`invs[0]` of `for inv in invs: inv.take(q)`)."""
    if type(value) in (list, tuple):
        if depth:
            for k, inner in enumerate(value[:_ITEMS]):
                yield from _objects(inner, f"{name}[{k}]", depth - 1)
        return
    if not user_object(value):
        return
    yield value, name
    if depth:
        for attr, inner in object.__getattribute__(value, "__dict__").items():
            yield from _objects(inner, f"{name}.{attr}", depth - 1)


_ITEMS = 64  # items of a list looked into for objects


def _carried_attributes(names) -> set:
    """`(object name, attribute)` of the statement's variables that are attributes."""
    out = set()
    for name in names:
        head, dot, rest = name.rpartition(".")
        if dot and rest.isidentifier() and "[" not in head:
            out.add((head, rest))
    return out
