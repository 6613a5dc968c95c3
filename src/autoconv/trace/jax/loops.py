"""`while` and `for` loops on JAX tracers, staged to `lax.while_loop` and `lax.scan`.

The loop's variables are carried as arrays: those that are arrays before the loop, and Python
numbers or flags that an iteration changes (found by tracing the body once and tracing again,
see `_check`). A `break` or `return` (the converter's flag, which the body returns) is one more
carried flag that ends the loop. A `for` over an array, or an `enumerate` / `zip` of arrays, has
a static trip count and becomes `lax.scan`, which `jax.grad` can differentiate in reverse mode;
a traced `range` or a `while` becomes `lax.while_loop` (forward-mode only, as in JAX).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax import lax

from autoconv.runtime.staged_locals import StagedLocals
from autoconv.trace.core import messages
from autoconv.trace.core.fixed_point import settle
from autoconv.trace.core.hidden import HiddenState, carrying
from autoconv.trace.jax import choices, effects, growth, iterables, logical, merge
from autoconv.trace.jax import state as st
from autoconv.trace.jax.cond import Box, call_body, resolve, staged_cond
from autoconv.trace.jax.frames import named_after

_ALIAS = "alias"


class Peel(st._Retry):
    """Raised from a scan's first trace when a variable that is None before the loop is not
    None after an iteration (a `best = None` sentinel): the first iteration then runs on its
    own, where `best is None` is a Python True, and the scan covers the other items."""


class CarryHidden(Exception):  # noqa: N818 - a signal between two stagings of a loop
    """A function the loop's body calls changed a `nonlocal` variable or an attribute (hidden
    state, `trace.core.hidden`): the loop is staged again with `refs` among its variables."""

    def __init__(self, refs):
        super().__init__()
        self.refs = refs


def _carrying_hidden(stage_loop):
    """`stage_loop(refs)`, again with the hidden state it found changed (`CarryHidden`)."""
    refs = ()
    while True:
        try:
            return stage_loop(refs)
        except CarryHidden as carry:
            refs = carry.refs


class _Loop:
    """One staged loop: the variables `names`, read and written through the converter's
    closures, and the plans of their carried leaves."""

    def __init__(self, get_state, set_state, names, origin, what, refs=()):
        self.get_state, self.set_state = get_state, set_state
        self.own = tuple(names) if get_state is not None else ()
        # Hidden state carried ahead of the loop's own variables (`CarryHidden`).
        self.refs = tuple(refs)
        self._read, self._write = carrying(self._read_own, self._write_own, self.refs)
        self.names = (*(name for name, _, _ in self.refs), *self.own)
        self.origin, self.what = origin, what
        self.state_keys = effects.state_items(get_state, self.own)
        self.before = self._read()  # as they were: put back when the loop is staged again
        self.start = resolve(self.before)
        self.entries = [st.entry(v) for v in self.start]
        self.out: list = []  # the entries after an iteration (`_check`)
        self.plans = [self._initial(e) for e in self.entries]
        self.no_alias: set = set()
        self.hidden = None  # the `HiddenState` of the staging under way (`attempts`)
        self.bound_after: set = set()  # variables first bound in the loop, bound by each trip
        self.may_peel = False  # see `Peel`
        self._aliases()

    def _read_own(self):
        return st.read_state(self.get_state, self.own) if self.own else ()

    def _write_own(self, values):
        if self.own:
            st.write_state(self.get_state, self.set_state, self.own, values)

    @staticmethod
    def _initial(entry):
        kind, treedef, leaves = entry
        plans = []
        for leaf in leaves:
            # A loop's variables are the ones its body assigns: a Python number among them is
            # carried as an array from the start (a weak one, so the body may give it the
            # dtype of what it meets), which spares a second trace of the body.
            if st.is_array(leaf) or type(leaf) in (bool, int, float, complex):
                dtype, shape = st.aval(leaf)
                plans.append((st.DYN, dtype, shape, st.weak_type(leaf)))
            else:
                plans.append((st.SAME,))
        return [kind, treedef, plans]

    def _aliases(self):
        """Bool flags that start as the same object share one carried value (a `retval`'s
        flag and `do_return`), until an iteration gives them different values."""
        first = {}
        for i, plan in enumerate(self.plans):
            leaves = self.entries[i][2]
            for j, lp in enumerate(plan[2]):
                if lp[0] == _ALIAS:
                    plan[2][j] = lp = lp[2]
                if lp[0] != st.DYN or lp[1] != jnp.bool_ or lp[2] != () or (i, j) in self.no_alias:
                    continue
                key = id(leaves[j])
                if key in first:
                    plan[2][j] = (_ALIAS, first[key], lp)
                else:
                    first[key] = (i, j)
        # Output positions: DYN leaves in order; an alias reads its target's.
        index, where = 0, {}
        for i, plan in enumerate(self.plans):
            for j, lp in enumerate(plan[2]):
                if lp[0] == st.DYN or lp[0] == merge.CHOICE:  # a Choice's tag is an output
                    where[(i, j)] = index
                    index += 1
        self.frozen = [
            (
                plan[0],
                plan[1],
                [(_ALIAS, where[lp[1]]) if lp[0] == _ALIAS else lp for lp in plan[2]],
            )
            for plan in self.plans
        ]

    # --- carried values ---------------------------------------------------------------------

    def init(self):
        return merge.outputs(self.frozen, self.entries)

    def unpack(self, leaves):
        values = merge.rebuild(self.frozen, self.entries, leaves, self.names, None)
        self._write(values)
        return values

    def finish(self, leaves, ran: bool):
        """Sets the variables from the loop's outputs. `ran`: an iteration surely ran (a scan
        of one or more items; its first iteration always runs), so a variable that every
        iteration binds is bound: its value, without the flag."""
        values = merge.rebuild(self.frozen, self.entries, leaves, self.names, None)
        if ran:
            values = tuple(
                v.value if i in self.bound_after and isinstance(v, st.Maybe) else v
                for i, v in enumerate(values)
            )
        self._write(values)

    def pack(self):
        """Reads the variables after an iteration, checks them against the plans (raising
        `merge.Retry` when a plan must change) and returns the carried leaves."""
        self.bound_after = set()
        after = resolve(self._read())
        if self._check(after):
            self._aliases()
            raise merge.Retry(None)
        return merge.outputs(self.frozen, self.out)

    def _check(self, after) -> bool:
        """Whether the plans had to change for the values `after` an iteration; sets `out`,
        their entries."""
        changed = False
        carried = {}
        self.out = []
        for i, (name, plan, value) in enumerate(zip(self.names, self.plans, after)):
            before = self.start[i]
            lifted_before, value = st.lift_pair(name, before, value)
            if lifted_before is not before:
                # None (a sentinel) or unbound (first bound by an iteration) before the loop,
                # arrays after: carried with a flag that says whether it is there (graph
                # mode's Optional); see `finish` and `state.Maybe`.
                if self.may_peel and before is None:
                    raise Peel()
                self.start = (*self.start[:i], lifted_before, *self.start[i + 1 :])
                self.entries[i] = st.entry(lifted_before)
                self.plans[i] = plan = self._initial(self.entries[i])
                changed = True
            entry = st.entry(value)
            self.out.append(entry)
            kind, ko = plan[0], entry[0]
            if kind == st._UNDEF or ko == st._UNDEF:
                if kind == ko:
                    continue
                if kind == st._UNDEF:
                    self._fail(
                        name,
                        f"it is not defined before this {self.what} but an iteration gives it "
                        f"a value; give it a value before the {self.what}",
                    )
                self._fail(name, "an iteration deletes it")
            if entry[1] != plan[1]:
                whole = self._whole_choice(i, plan, entry)
                if whole is not None:  # None on some iterations, a string on others
                    changed = changed or whole
                    continue
                self._fail(
                    name,
                    f"it is {merge._describe(plan[1], self.entries[i][2])} before an iteration "
                    f"and {merge._describe(entry[1], entry[2])} after",
                )
            if isinstance(self.start[i], st.Maybe) and self.start[i].missing is not None:
                if not isinstance(after[i], st.Maybe):
                    self.bound_after.add(i)  # every iteration binds it
            for j, (lp, b) in enumerate(zip(plan[2], entry[2])):
                carried[(i, j)] = b
                if self._leaf(name, plan[2], j, lp, b, i):
                    changed = True
        for i, plan in enumerate(self.frozen):
            for j, lp in enumerate(plan[2]):
                if lp[0] == _ALIAS:
                    target = self.plans[i][2][j][1]
                    if carried.get((i, j)) is not carried.get(target):
                        self.no_alias.add((i, j))
                        changed = True
        return changed

    def _whole_choice(self, i, plan, entry):
        """For a variable that is None on some iterations and a string (or a Choice) on
        others: whether its plan (the tag of the option chosen, `merge._whole_choice`)
        changed; None for any other change of structure."""
        if len(plan[2]) == 1 and plan[2][0][0] == merge.CHOICE:
            if entry[1].num_nodes != 1 or entry[1].num_leaves > 1:
                return None
            after = entry[2][0] if entry[2] else None
            if not choices.carries(after):
                return None
            options = choices.options_of(*plan[2][0][1], after)
            if options == plan[2][0][1]:
                return False
            self.plans[i] = [plan[0], plan[1], [(merge.CHOICE, options)]]
            return True
        whole = merge._whole_choice(plan[1], self.entries[i][2], entry[1], entry[2])
        if whole is None:
            return None
        self.plans[i] = list(whole)
        return True

    def _leaf(self, name, leaf_plans, j, lp, b, i) -> bool:
        """Checks one leaf after an iteration; updates its plan and returns True if needed."""
        if lp[0] == _ALIAS:
            lp = lp[2]
        if lp[0] == merge.CHOICE:  # a string the loop changes: its tag, over every option
            if not choices.carries(b):
                self._fail(name, _not_an_option(lp[1], b))
            options = choices.options_of(*lp[1], b)
            if options == lp[1]:
                return False
            leaf_plans[j] = (merge.CHOICE, options)
            return True
        if lp[0] == st.SAME:
            a = self.entries[i][2][j]
            if st.same_static(a, b):
                return False
            if choices.merges(a, b):  # `state = "idle"`, then `state = "run"` in an iteration
                leaf_plans[j] = (merge.CHOICE, choices.options_of(a, b))
                return True
            plan = st.leaf_plan(a, b, lambda d: self._fail(name, d))
            if plan[0] == st.PRED:
                plan = (st.DYN, jnp.dtype(bool), ())
            leaf_plans[j] = (st.DYN, plan[1], plan[2], st.weak_type(a) and st.weak_type(b))
            return True
        _, dtype, shape, weak = lp
        if not (st.is_array(b) or type(b) in (bool, int, float, complex)):
            self._fail(
                name, f"it is {dtype.name}{list(shape)} before an iteration and {st.spec(b)} after"
            )
        db, sb = st.aval(b)
        if sb != shape:
            self._fail(
                name,
                f"it is {dtype.name}{list(shape)} before an iteration and {st.spec(b)} after: "
                "its shape must stay the same",
            )
        if db == dtype or (st.weak(b) and st.fits(b, dtype)):
            if weak and not st.weak_type(b):  # a strong value of its dtype: carried strong
                leaf_plans[j] = (st.DYN, dtype, shape, False)
                return True
            return False
        if weak:  # a Python number before the loop takes the kind the iteration gives it
            new = db if not st.weak(b) else jnp.dtype(jnp.result_type(st.as_weak(dtype), b))
            leaf_plans[j] = (st.DYN, new, shape, st.weak_type(b))
            return True
        self._fail(
            name,
            f"it is {dtype.name}{list(shape)} before an iteration and {st.spec(b)} after: its "
            "dtype must stay the same (cast with .astype)",
        )

    def _fail(self, name, detail):
        shown = messages.named(messages.shown(name, self.names))
        st.fail(
            self.origin,
            f"{shown} changes between iterations of this {self.what} (staged by JAX): {detail}.",
        )

    # --- running ------------------------------------------------------------------------------

    def attempts(self, stage, fns):
        """Calls `stage()` until the plans settle; returns what it returned. The locals that
        the body `fns` assign are put back after each trace (the loop's variables are then
        set from its outputs)."""
        saved = StagedLocals(fns)
        hidden = self.hidden = HiddenState(fns, self.names)

        def attempt():
            try:
                return (stage(),)
            except merge.Retry:
                return None  # a plan changed: trace again
            finally:
                hidden.undo()  # first: a helper's change may be in a cell `saved` resets
                saved.finish()

        def unsettled():
            st.fail(self.origin, f"the variables of this {self.what} do not settle on a dtype")

        result = settle(attempt, unsettled)[0]
        refs = hidden.carried() if hidden.changed else None
        if refs:
            self._write(self.before)
            raise CarryHidden((*refs, *self.refs))
        hidden.check(lambda m: st.fail(self.origin, m), self.what)
        return result


def _not_an_option(options, value) -> str:
    return (
        f"it is {' or '.join(repr(o) for o in options)} before an iteration (chosen when the "
        f"program runs) and {st.spec(value)} after; keep one kind of value in it"
    )


def _stop_flag(stop):
    """The body's stop value as a bool array (None: the loop goes on)."""
    if stop is None or stop is False:
        return jnp.bool_(False)
    if stop is True:
        return jnp.bool_(True)
    return (
        logical.pred(stop, st.user_origin())
        if isinstance(stop, jax.core.Tracer)
        else jnp.bool_(bool(stop))
    )


def _while(loop, test, step, stop0, fns):
    """lax.while_loop over the loop's variables; `step()` runs one iteration and returns the
    body's stop value; `test()` the loop test (None: always true)."""

    def stage():
        def cond_fun(carry):
            leaves, stop = carry
            go = jnp.logical_not(stop)
            with st.user_code(loop.origin, "the test of this loop"):
                loop.unpack(leaves)
                if test is None:
                    return go
                c = call_body(test)
            fact = logical.known(c) if isinstance(c, jax.core.Tracer) else bool(c)
            if fact is not None:
                return go if fact else jnp.bool_(False)
            return jnp.logical_and(go, logical.pred(c, loop.origin))

        def body_fun(carry):
            leaves, _ = carry
            with st.user_code(loop.origin, "the body of this loop"):
                with effects.unchanged_containers(
                    fns, loop.origin, "the body of this loop", loop.state_keys, hidden=loop.hidden
                ):
                    loop.unpack(leaves)
                    stop = step()
                    carried = loop.pack()  # before the containers are put back
                return carried, _stop_flag(stop)

        named_after(cond_fun, test or fns[0])  # in JAX's messages, the user's function
        named_after(body_fun, fns[0])
        return lax.while_loop(cond_fun, body_fun, (loop.init(), jnp.asarray(stop0, bool)))

    leaves, _ = loop.attempts(stage, fns)
    loop.unpack(leaves)


def while_stmt(test, body, get_state, set_state, names, first_cond=None, mark=None):
    """`while test():` once the test gave a tracer (`first_cond`); the iterations before ran
    as Python."""
    origin = st.user_origin()
    cond = first_cond
    while True:  # a concrete tracer (jax.grad without jit) keeps the loop in Python
        fact = logical.known(cond) if isinstance(cond, jax.core.Tracer) else bool(cond)
        if fact is None:
            break
        if not fact:
            return
        stop = call_body(body)
        if stop is not None and stop is not False:
            if isinstance(stop, jax.core.Tracer) and logical.known(stop) is None:
                return while_rest(stop, test, body, get_state, set_state, names)
            if (
                stop is True
                or logical.known(stop)
                or (not isinstance(stop, jax.core.Tracer) and stop)
            ):
                return
        cond = call_body(test)

    def stage_loop(refs):
        loop = _Loop(get_state, set_state, names, origin, "`while` loop", refs)
        _while(loop, test, lambda: call_body(body), False, (body, test))

    _carrying_hidden(stage_loop)


def while_rest(stop, test, body, get_state, set_state, names):
    """The rest of a `while` loop whose body returned a traced stop (a `break` on a tracer)."""
    origin = st.user_origin()

    def stage_loop(refs):
        loop = _Loop(get_state, set_state, names, origin, "`while` loop", refs)
        _while(loop, test, lambda: call_body(body), logical.pred(stop, origin), (body, test))

    _carrying_hidden(stage_loop)


def for_stmt(iterable, body, get_state, set_state, names):
    """`for` over a traced array, or a range / enumerate / zip with traced parts."""
    origin = st.user_origin()
    items = iterables.rows(iterable, origin)
    if isinstance(items.length, int) and items.length == 0:
        return  # zero trips, known while tracing: the body never runs, as in Python
    return _carrying_hidden(
        lambda refs: _for(items, body, get_state, set_state, names, origin, refs)
    )


def _for(items, body, get_state, set_state, names, origin, refs):
    loop = _Loop(get_state, set_state, names, origin, "`for` loop", refs)
    if isinstance(items.length, int):
        loop.may_peel = True
        try:
            return _scan(loop, items, body)
        except Peel:
            loop._write(loop.start)
        return _peeled(items, body, get_state, set_state, names, origin)
    # A traced trip count: a counter in a while loop (what lax.fori_loop does).
    index = Box(jnp.asarray(0, jnp.result_type(items.length)))

    def step():
        i = index.value
        index.value = i + 1
        return call_body(body, items.item(i))

    count = _CountedLoop(loop, index, items.length)
    _while(count, count.test, step, False, (body,))


class _CountedLoop:
    """A `_Loop` that also carries the index of a traced `range`."""

    def __init__(self, loop, index, length):
        self.loop, self.index, self.length = loop, index, length
        self.origin, self.state_keys = loop.origin, loop.state_keys
        self.start = index.value  # a retried trace starts from it again

    def attempts(self, stage, fns):
        return self.loop.attempts(stage, fns)

    @property
    def hidden(self):
        return self.loop.hidden

    def init(self):
        return (self.loop.init(), self.start)

    def unpack(self, leaves):
        self.index.value = leaves[1]
        return self.loop.unpack(leaves[0])

    def pack(self):
        return (self.loop.pack(), self.index.value)

    def test(self):
        return self.index.value < self.length


def _peeled(items, body, get_state, set_state, names, origin):
    """The first iteration traced on its own (see `Peel`), then a scan over the other items
    (skipped when the first one stopped the loop on a traced condition)."""
    stop = call_body(body, items.item(0))
    if stop is not None and stop is not False and not isinstance(stop, jax.core.Tracer):
        return  # a `break` or `return` known while tracing
    if items.length == 1:
        return
    rest = iterables.Iteration(items.length - 1, lambda i: items.item(i + 1))
    stop0 = None if stop is None or stop is False else logical.pred(stop, origin)

    def stage_loop(refs):
        _scan(_Loop(get_state, set_state, names, origin, "`for` loop", refs), rest, body, stop0)

    _carrying_hidden(stage_loop)


def _scan(loop, items, body, stop0=None):
    """lax.scan over a static number of items; a stop flag skips the rest (lax.cond). Lists
    the body appends to get the items each iteration appends (see `growth`). `stop0`: a traced
    stop flag before the first item (see `_peeled`)."""
    guarded = Box(stop0 is not None)
    growing: dict = {}

    def stage():
        def run(leaves, i):
            # After a `break` or `return` the number of appended items depends on the data:
            # no stand-ins then, so that `effects` reports a list that grows.
            active = {} if guarded.value else growing
            with st.user_code(loop.origin, "the body of this loop"):
                with growth.standing_in((body,), active, loop.origin) as stand_ins:
                    with effects.unchanged_containers(
                        (body,),
                        loop.origin,
                        "the body of this loop",
                        loop.state_keys,
                        None if guarded.value else growing,
                        {id(a) for a in stand_ins.values()},
                        loop.hidden,
                    ):
                        loop.unpack(leaves)
                        stop = call_body(body, items.item(i))
                        if stop is not None and stop is not False and not guarded.value:
                            guarded.value = True
                            raise merge.Retry(None)
                        # Read before the containers are put back: items may be variables.
                        carried = loop.pack()
                    ys = growth.outputs(active, stand_ins, loop.origin)
            return (carried, _stop_flag(stop)), ys

        def step(carry, i):
            leaves, stop = carry
            if not guarded.value:
                return run(leaves, i)
            return lax.cond(stop, lambda: (leaves, stop), lambda: run(leaves, i)[0]), ()

        init = (loop.init(), jnp.bool_(False) if stop0 is None else stop0)
        named_after(step, body)  # in JAX's messages, the user's loop body
        return lax.scan(step, init, jnp.arange(items.length))

    (leaves, _), ys = loop.attempts(stage, (body,))
    loop.finish(leaves, True)
    if not guarded.value:
        growth.extend(growing, ys, items.length)


def for_rest(stop, iterable, items, item, body, get_state, set_state, names):
    """The rest of a Python `for` loop whose body returned a traced stop: each remaining item's
    iteration runs under `lax.cond` on the flag (the items are Python's, so it unrolls)."""
    origin = st.user_origin()
    flag = Box(stop)
    names = tuple(names) if get_state is not None else ()
    label = "the loop's stop flag"

    def read():
        values = st.read_state(get_state, names) if names else ()
        return (*values, flag.value)

    def write(values):
        if names:
            st.write_state(get_state, set_state, names, values[:-1])
        flag.value = values[-1]

    for item in items:
        fact = (
            logical.known(flag.value)
            if isinstance(flag.value, jax.core.Tracer)
            else bool(flag.value)
        )
        if fact:
            return

        def run(item=item):
            result = call_body(body, item)
            flag.value = False if result is None else result

        if fact is False:
            run()
            continue
        go = logical.negate(logical.pred(flag.value, origin))
        staged_cond(
            go,
            (run, None),
            read,
            write,
            (*names, label),
            origin,
            "`for` loop",
            ("iteration", "skipped"),
        )
