"""Staged loops: traced until their variables settle, then recorded as a `while` node."""

from __future__ import annotations

import numpy as np

from autoconv.errors import AutoconvError
from autoconv.graph import graph as _g
from autoconv.graph import shapes
from autoconv.graph import tensor as _tensor
from autoconv.graph.errors import StagingError, where
from autoconv.graph.tensor import Tensor, format_spec
from autoconv.runtime import keyed as keyed_rt
from autoconv.runtime import staging as rt
from autoconv.runtime.staged_locals import StagedLocals
from autoconv.trace.core import messages
from autoconv.trace.core.fixed_point import settle
from autoconv.trace.core.hidden import HiddenState, with_carried
from autoconv.trace.core.values import unbound
from autoconv.trace.core.whole import carried_whole, removing_undefined
from autoconv.trace.tensors import item_kinds as _kinds
from autoconv.trace.tensors import loop_texts, loop_unions, mutation, object_state, records
from autoconv.trace.tensors.accumulated import ListAccum
from autoconv.trace.tensors.appends import (
    _LOOPS,
    _append,
    _appended,
    _closure_lists,
    _ConcreteArrays,
    _NeedsAccumulator,
    _prefix,
    _Replaced,
    _restore,
    _set_final_state,
    _snapshot,
    _tracked,
    _Whole,
    fold_tails,
    held_elsewhere,
    one_run,
    run_spec,
    unsettled_appends,
)
from autoconv.trace.tensors.choices import _TAG, Choice, atom, options_of, tag_of
from autoconv.trace.tensors.leaves import (
    _as_tensor,
    _can_change,
    _cond_tensor,
    _const,
    _describe,
    _has_effect,
    _inherit_eager_type,
    _join,
    _numeric,
    _param,
    _rebuild,
    _same_python,
    _spec,
    _spec_text,
    _struct,
    _tag_for,
    _weak,
)
from autoconv.trace.tensors.list_ops import noted_kind
from autoconv.trace.tensors.loop_lists import one_run_each
from autoconv.trace.tensors.loop_messages import whole_list_text
from autoconv.trace.tensors.loop_objects import in_place as _in_place
from autoconv.trace.tensors.loop_objects import kept as _kept
from autoconv.trace.tensors.merge import _Merger
from autoconv.trace.tensors.nested_runs import (
    as_one_run,
    refuse_kept_items,
    refuse_nested_runs,
    widens,
)
from autoconv.trace.tensors.object_state import items_written
from autoconv.trace.tensors.optionals import Optional, lift_pair, raise_node
from autoconv.trace.tensors.path_types import kept_kinds, kinds_of, tagged
from autoconv.trace.tensors.raising import staged_error_origin, traced_body_failed
from autoconv.trace.tensors.rows import item_spec
from autoconv.trace.tensors.unions import Union
from autoconv.trace.tensors.user_code import user_frame

_HIDDEN_ROUNDS = 8  # traces of a loop that may each find more hidden state to carry


_CarryHidden = object_state.CarryHidden


class _BodyRaises(Exception):  # noqa: N818 - a signal from a trace of the body to `run`
    """Tracing the body raised `error`, an exception the graph can raise when the body runs
    (the user's `raise`, or Python's own error in the user's code): the body never completes
    an iteration, so the loop is an `if` on its test whose branch raises."""

    def __init__(self, error):
        super().__init__()
        self.error = error


class _Traced:
    """One trace of a loop's test and body whose variables settled: what `_record` makes the
    `while` node of."""

    __slots__ = (
        "params",
        "acc_params",
        "cond_block",
        "body_block",
        "cond",
        "stop",
        "out",
        "appended",
        "kept",
    )

    def __init__(self, params, acc_params, cond_block, body_block, cond, stop, out, appended):
        self.params, self.acc_params = params, acc_params
        self.cond_block, self.body_block, self.cond = cond_block, body_block, cond
        self.stop, self.out, self.appended = stop, out, appended
        self.kept = ()  # per variable: the body left it the very list or dict it was given


class _Loop:
    """Traces a loop until its variables settle, then records a `while` node."""

    # The body surely runs once (a `for` over items whose number is known now): what it
    # leaves is a loop variable's Python type, not what came before.
    first_trip = False

    def __init__(
        self, test, body, get_state, set_state, names, origin, what, carry_last=False, fns=()
    ):
        self.test = test
        self.body = body
        self.get_state = get_state
        self.set_state = set_state
        self.names = names
        self.origin = origin
        self.what = what
        self.carry_last = carry_last
        self.fns = fns

    def _error(self, message):
        raise StagingError(f"{where(self.origin)}: {message}")

    def _read(self):
        return rt.read_state(self.get_state, self.names) if self.names else ()

    def run(self):
        # `x[0] = v` of a graph array `x` in the body: `x` is carried whole (trace.core.whole).
        self.get_state, self.set_state = carried_whole(
            self.get_state, self.set_state, self.names, lambda v: isinstance(v, Tensor)
        )
        # `d['k']` not in `d` before the loop: missing again at its start, not a stand-in
        self.set_state = removing_undefined(self.get_state, self.set_state, self.names)
        try:
            for _ in range(_HIDDEN_ROUNDS):
                try:
                    self._run()
                    break
                except object_state.CarryFields as carry:  # `pos = pos + step`: by its fields
                    self.get_state, self.set_state = carry.state(self.get_state, self.set_state)
                except _CarryHidden as carry:
                    # A function the body calls changes a `nonlocal` variable or an attribute
                    # (hidden state), or an item of a list it reaches: carry it too, which may
                    # show more (`self.buf[self.pos] = v` once `self.pos` is carried).
                    self.get_state, self.set_state, self.names = with_carried(
                        self.get_state, self.set_state, self.names, carry.refs
                    )
            else:
                self._error("the state this loop's body changes through its calls does not settle")
        except _BodyRaises as raised:
            self._raising_body(raised.error)

    def _raising_body(self, error):
        """The loop whose body raised `error` while traced: eagerly the first iteration raises
        it, and no iteration, none. So the graph raises it where the test is true on entry,
        as an `if` on the test whose branch is the body (which records the raise)."""
        body, failed = self.body, traced_body_failed(error, self.what)

        def first_iteration():
            body()
            raise failed  # traced from the loop's first state, the body did not raise

        cond = self.test()  # the state is the loop's initial one
        tracer = rt.tracer_for(cond)
        if tracer is None:
            if cond:
                raise error  # the first iteration runs now, as eagerly
            return
        cells = StagedLocals((self.test, self.body, *self.fns))
        try:
            tracer.if_stmt(cond, first_iteration, None, self.get_state, self.set_state, self.names)
        finally:
            cells.finish()  # the body's own locals, as before the loop

    def _run(self):
        graph = _g.current().graph
        # A NumPy array among the loop's variables becomes a graph value that the body may
        # write into (`counts[b] += 1`), when nothing else sees it (see mutation.adopt_arrays).
        init = list(mutation.adopt_arrays(self.names, self._read(), user_frame()))
        # Items appended after an enclosing loop's run-time ones join them first: the loop's
        # variables are planned from the lists as the body will find them.
        lists = _closure_lists(self.body, self.test, self.get_state, *self.fns)
        lists = object_state.not_carried(lists, self.names)  # (`list_ref`'s are)
        self.held = object_state.held_items(init, self.names)  # (restored by each attempt)
        fold_tails(lists, self.origin)
        init_leaves = [[] for _ in init]
        structs = [_struct(v, leaves) for v, leaves in zip(init, init_leaves)]
        # carried[(i, j)] = (shape, dtype): the loop variables, by variable and leaf;
        # carried[(i, j, 1)]: the kind tag of a leaf that is a Python number on some paths
        # and a NumPy value on others (self.kinds[(i, j)] lists the kinds, see `tagged`).
        carried: dict = {}
        self.kinds: dict = {}
        self.choices: dict = {}  # (i, j) -> the options of a leaf a staged condition chooses
        self.grown_texts: dict = {}  # (i, j) -> how often its chosen strings grew (loop_texts)
        self.unions: dict = {}  # (i, j) -> the plan of a leaf whose kind depends on the path
        self.runs: set = set()  # (i, j) of leaves that are run-time lists (`frontier = nxt`)
        self.unknown_kind: set = set()  # lists carried whole from empty: kind from an append
        self.item_kinds: dict = {}  # per run-time list: its items' kinds (`item_kinds`)
        self.item_like: dict = {}  # per list: an item an append gave (its Python kind too)
        self.nones_first: set = set()  # lists an attempt appended only None to (`_settle_lists`)
        for i, leaves in enumerate(init_leaves):
            for j, v in enumerate(leaves):
                if isinstance(v, Choice):  # a value a staged condition chose before the loop
                    carried[(i, j)] = _TAG
                    self.choices[(i, j)] = v.options
                elif isinstance(v, Tensor) or (self.carry_last and i == len(init) - 1):
                    carried[(i, j)] = _spec(v)
        snap = _snapshot(lists)
        accums: dict = {}  # index in snap -> [elem shape, dtype, initial acc tensor or None]
        made: list = []  # every attempt's parameters (mutation keeps their first values)
        self.arrays = _ConcreteArrays(self.names, init, self.origin, self.what)
        try:
            self._attempts(graph, init, structs, init_leaves, carried, snap, accums, made)
        finally:
            mutation.forget_loop_params(made)
        # An item read from a run-time list and changed in place in the body (`groups[-1]
        # .append(x)`): refused here, before code after the loop reads the list as unchanged.
        records.check_reads(clear=False)

    def _attempts(self, graph, init, structs, init_leaves, carried, snap, accums, made):
        body_locals = StagedLocals((self.test, self.body, *self.fns))
        hidden = HiddenState((self.test, self.body, *self.fns), self.names)

        def attempt():
            hidden.undo()  # first: what a helper changed may be in a cell the next line resets
            _restore(self.held)  # (the lists `list_ref` carries: their items before the loop)
            body_locals.start()  # each attempt from the state before the loop
            return self._trace(graph, init, structs, init_leaves, carried, snap, accums, made)

        def unsettled():
            self._error(f"the variables of this {self.what} do not settle on a shape and dtype")

        try:
            traced = settle(attempt, unsettled)
        except (_BodyRaises, _CarryHidden, object_state.CarryFields) as e:
            if not isinstance(e, _BodyRaises):  # (traced again: from the state before)
                _restore([*snap, *self.held])
                self.set_state(tuple(init)) if self.names else None
            body_locals.finish()
            hidden.undo()
            raise
        self._check_updated_in_place(traced.params, traced.out)
        hidden.undo()
        body_locals.finish()
        refs = hidden.carried() if hidden.changed else None
        if refs:
            raise _CarryHidden(refs)
        hidden.check(self._error, self.what)
        self._record(graph, init, structs, init_leaves, carried, traced, snap, accums)

    def _trace(self, graph, init, structs, init_leaves, carried, snap, accums, made):
        """Traces the test and the body once from the loop's variables as planned; returns
        what it traced, or None when the plan had to change (trace again)."""
        state_in, params, acc_params = self._inputs(
            graph, init, structs, init_leaves, carried, snap, accums
        )
        made.extend(params.values())
        given = [list(v) if type(v) is list else None for v in state_in]  # before the body
        if self.names:
            _set_final_state(self.set_state, state_in, self.names, self.origin, f"this {self.what}")
        with _g.sub_block() as cond_block:
            cond = self.test()
            if type(cond) is list:  # `while queue:`: its length now, before the body changes it
                cond = _cond_tensor(cond, self.origin)
        cond_block.outputs = [cond]
        _LOOPS.append(snap)
        try:
            with _g.sub_block() as body_block:
                try:
                    stop = self.body()
                except (AutoconvError, RecursionError, _NeedsAccumulator, _CarryHidden):
                    raise
                except Exception as e:  # Python's error from code the data may never reach
                    if staged_error_origin(e) is None:
                        raise traced_body_failed(e, self.what) from e
                    _restore(snap)
                    if self.names:
                        self.set_state(tuple(init))
                    raise _BodyRaises(e) from None
                out = list(self._read())
                appended = self._appended_lists(snap, accums)
                changes = [
                    (*snap[k][:2], a[1] if type(a) is tuple else a, snap[k][2])
                    for k, a in enumerate(appended)
                ]
                refuse_kept_items(out, changes, self.what, self.origin)
                one_run_each(out, state_in, given, snap, self.names, self.origin)
            self.arrays.check()
        except _NeedsAccumulator as e:
            k = next((k for k, (lst, _, _) in enumerate(snap) if lst is e.lst), None)
            if k is None:
                raise  # an enclosing loop's list
            widen = e.widen
            if widen is not None and k in self.item_like:  # (a Python float stays one)
                widen = records.optional_dtype([self.item_like[k], *e.items]) or widen
            if k in accums and widen is not None and accums[k][1] != widen:
                accums[k][1] = widen  # numbers, and now None: values-or-None (trace again)
                _restore(snap)
                if self.names:
                    self.set_state(tuple(init))
                return None
            if k in accums:
                raise unsettled_appends(self.origin, self.what) from None
            _restore(snap)
            if self.names:
                self.set_state(tuple(init))
            if e.whole:
                self._accumulate_whole(k, snap, accums, e.items)
                return None
            appended = [e.items if n == k else [] for n in range(len(snap))]
            self._settle_lists(snap, accums, appended)
            _kinds.settle(self.item_kinds, accums, appended)  # (its items' kinds, from these)
            return None
        finally:
            _LOOPS.pop()
        _restore(snap)
        if self.names:
            self.set_state(tuple(init))
        wholes = [k for k, items in enumerate(appended) if isinstance(items, _Whole)]
        for k in wholes:
            known = [v for v in snap[k][2] if not isinstance(v, ListAccum)]
            self._accumulate_whole(k, snap, accums, known[:1])
        if wholes:
            return None  # trace again, carrying them whole
        grown = {id(snap[k][0]) for k in accums}
        changed = self._settle(init, structs, init_leaves, carried, out, state_in, grown)
        changed |= self._settle_lists(snap, accums, appended)
        changed |= _kinds.settle(self.item_kinds, accums, appended)
        if changed:
            return None
        traced = _Traced(params, acc_params, cond_block, body_block, cond, stop, out, appended)
        traced.kept = [o is v and type(v) in (list, dict) for o, v in zip(out, state_in)]
        return traced

    def _check_updated_in_place(self, params, out):
        """A loop variable that the body changes in place (`d += 1`) is, in the next
        iteration, whatever the body left in it: that must be an array nothing else sees."""
        for key, param in params.items():
            if len(key) != 2 or getattr(param, "_stale", None) is None:
                continue
            leaves: list = []
            _struct(out[key[0]], leaves)
            v = leaves[key[1]] if key[1] < len(leaves) else None
            if isinstance(v, Tensor) and v is not param and not mutation._private(v):
                self._error(
                    f"`{self.names[key[0]]}` is changed in place in this {self.what}, and at the "
                    f"end of an iteration it is {mutation._why_shared(v)}: eager NumPy would "
                    "write into that array in the next iteration, which a graph cannot. Copy it "
                    f"(`{self.names[key[0]]} = ....copy()`) or write `{self.names[key[0]]} = "
                    f"{self.names[key[0]]} + ...` instead of the in-place operator."
                )

    def _guard_never_ends(self):
        """The test reads nothing the loop changes: where it is true on entry, the loop would
        never end (eagerly it hangs). A check raises there instead, when the graph runs."""
        message = (
            f"{where(self.origin)}: the test of this {self.what} is true and reads nothing that "
            "the loop changes, so the loop would never end (eager Python would hang). Make the "
            "body update a variable that the test reads, or add a `break`."
        )
        entry = _cond_tensor(self.test(), self.origin)  # the state is the loop's initial one
        if not isinstance(entry, Tensor):
            if entry:
                raise StagingError(message)
            return
        with _g.sub_block() as fails:
            raise_node(StagingError(message), self.origin)
        with _g.sub_block() as passes:
            pass
        _Merger(("true", "false"), [fails, passes], self.origin, self.what).finish(entry)

    def _accumulate_whole(self, k, snap, accums, kind):
        """List `k` of `snap`, which the body pops from or changes otherwise, carried by the
        loop as one run-time list from its items before the loop (`kind`: items of its kind; a
        list that never gets one only raises IndexError when popped, so any kind does)."""
        lst, name, before = snap[k]
        kind = kind or noted_kind(lst)  # the items it held before it was emptied
        if not kind and not before:
            self.unknown_kind.add(k)  # the items an append gives settle it (`_settle_lists`)
        spec = item_spec(kind[0]) if kind else ((), np.dtype(np.float64))
        if spec is None:
            self._error(whole_list_text(name, self.what, _spec_text(kind[0])))
        run = one_run(list(before), name, self.origin, (tuple(spec[0]), spec[1]))
        if run is None:
            self._error(whole_list_text(name, self.what, None))
        before = [ListAccum(run)]
        snap[k] = (lst, name, before)
        lst[:] = before
        accums[k] = [tuple(run.shape[1:]), run.dtype, before[0]]

    def _lifted_to_run(self, name, before, o):
        """The list a variable holds before the loop, as one run-time list (its items and runs
        joined), when an iteration leaves it one (`frontier = [start]`, then `frontier = nxt`);
        else `before`."""
        if type(before) is not list or type(o) is not list or len(o) != 1:
            return before
        if not isinstance(o[0], ListAccum) or (
            len(before) == 1 and isinstance(before[0], ListAccum)
        ):
            return before  # not one run-time list after, or one already before
        if held_elsewhere(before, name):
            return before  # another name sees that list: it must stay the one object
        t = one_run(before, name, self.origin, run_spec(o))
        return before if t is None else [ListAccum(t)]

    def _run_leaf(self, key, before, v, carried) -> bool:
        """Settles leaf `key` where the loop carries a run-time list; True if its spec grew."""
        if not (isinstance(before, ListAccum) and isinstance(v, ListAccum)):
            return False
        a, b = before.tensor, v.tensor
        name = messages.named(messages.shown(self.names[key[0]], self.names))
        if a.dtype != b.dtype or a.ndim != b.ndim:
            self._error(
                f"{name} is a list of {format_spec(a.shape[1:], a.dtype)} items before an "
                f"iteration of this {self.what} and of {format_spec(b.shape[1:], b.dtype)} items "
                "after it; give it items of one kind."
            )
        old = carried.get(key, (tuple(a.shape), a.dtype, False))
        new = (shapes.generalize(old[0], tuple(b.shape)), a.dtype, False)
        self.runs.add(key)
        if carried.get(key) == new:
            return False
        carried[key] = new
        return True

    def _appended_lists(self, snap, accums):
        """Per list: the items the body appended (None if changed otherwise); for accumulated
        lists `(acc, items)`: the run-time list after the body (a cond may have replaced it)
        and the items appended after that."""
        out = []
        for k, (lst, name, before) in enumerate(snap):
            # (items carried as loop variables, `seen[0]`, keep it a list of known items)
            tracked = _tracked(self.names, name)
            if k not in accums:
                added = _appended(lst, before, tracked)
                if added is None and not tracked and items_written(lst, before, name, self.names):
                    # `self.free_at[k] = t`: carried item by item (`object_state.list_ref`)
                    ref = object_state.list_ref(object_state.carried_name(name), lst)
                    raise _CarryHidden([ref])
                if added is None and not tracked:
                    # Changed otherwise than by appends (`pop()`, `insert()`, `del`): the loop
                    # carries it as one run-time list, whose methods are staged.
                    added = _Whole(None)
                # (a `_Whole`: the body made it one run-time list, `pop(0)` of `[1, 2, *run]`:
                # `_trace` carries it whole)
                if isinstance(added, _Replaced):
                    # A staged `if` or loop in the body appended to the enclosing loop's
                    # run-time items: `_settle_lists` makes this loop carry them.
                    added = [ListAccum(added.tensor), *added]
                out.append(added)
                continue
            prefix = _prefix(before)
            n = len(prefix)
            if (
                len(lst) <= n
                or any(a is not b and i not in tracked for i, (a, b) in enumerate(zip(lst, prefix)))
                or not isinstance(lst[n], ListAccum)
            ):
                # the items before its run-time ones changed (`seen[0] += 1`), or it was made
                # one run-time list: carried whole, unless it already is
                out.append(None if n == 0 or tracked else _Whole(None))
            else:
                out.append((lst[n].tensor, lst[n + 1 :]))
        return out

    def _inputs(self, graph, init, structs, init_leaves, carried, snap, accums):
        params = {}
        state_in = []
        for i, _v in enumerate(init):
            leaves = list(init_leaves[i])
            for j in range(len(leaves)):
                if (i, j) in self.unions:
                    plan = self.unions[(i, j)]
                    tag = params[(i, j)] = _param(graph, _TAG, self.names[i])
                    values = {}
                    for n in loop_unions.slots(plan):
                        values[n] = params[(i, j, 2, n)] = _param(graph, plan[n][1], self.names[i])
                    leaves[j] = loop_unions.union(plan, tag, values, self.names[i])
                elif (i, j) in self.choices:
                    tag = params[(i, j)] = _param(graph, _TAG, self.names[i])
                    leaves[j] = Choice(tag, self.choices[(i, j)], self.names[i])
                elif (i, j) in self.runs:
                    params[(i, j)] = _param(graph, carried[(i, j)], self.names[i])
                    leaves[j] = ListAccum(params[(i, j)])
                elif (i, j) in carried:
                    leaf = params[(i, j)] = _param(graph, carried[(i, j)], self.names[i])
                    _inherit_eager_type(leaf, leaves[j])
                    mutation.note_loop_param(leaf, leaves[j], self.names[i] if j == 0 else "")
                    if (i, j, 1) in carried:
                        tag = params[(i, j, 1)] = _param(graph, carried[(i, j, 1)], "<kind>")
                        leaf = tagged(leaf, tag, self.kinds[(i, j)], self.names[i])
                    leaves[j] = leaf
            state_in.append(_rebuild(structs[i], leaves, _kept(init[i])))
        acc_params = {}
        for k, (elem, dtype, _) in accums.items():
            lst, name, before = snap[k]
            acc_params[k] = _param(graph, ((None, *elem), dtype, False), name)
            _kinds.assume(
                acc_params[k], self.item_kinds.setdefault(k, _kinds.initial(accums[k][2]))
            )
            lst[:] = [*_prefix(before), ListAccum(acc_params[k])]
        return state_in, params, acc_params

    def _settle(self, init, structs, init_leaves, carried, out, state_in, grown) -> bool:
        """`grown`: the ids of the lists the loop carries as run-time lists (`accums`)."""
        changed = False
        for i, name in enumerate(self.names):
            shown = messages.shown(name, self.names)  # for messages
            who = messages.named(shown)
            o = out[i]
            if (why := keyed_rt.rebound_in_loop(state_in[i], o)) is not None:
                self._error(f"{who} {why}")
            if o is state_in[i] and (type(o) not in (list, dict) or id(o) in grown):
                # (a list or dict may have had an item written in place; a run-time list's
                # items, written or appended, are the loop's `accums`)
                changed |= kept_kinds(self.kinds, i, init_leaves[i], carried)
                continue
            if unbound(o) and not isinstance(state_in[i], Optional):
                continue  # only assigned on some paths of the body: not carried
            # None or unbound before the loop (or after an iteration) and a value on other
            # paths: the variable is carried as an Optional (a flag and a value).
            lifted, o = lift_pair(name, init[i], o, self.origin)
            out[i] = o
            lifted = self._lifted_to_run(name, lifted, o)
            if lifted is not init[i]:
                init[i] = lifted
                leaves = []
                structs[i] = _struct(lifted, leaves)
                init_leaves[i] = leaves
                for key in [k for k in carried if k[0] == i]:
                    del carried[key]
                    self.kinds.pop(key, None)
                changed = True
            leaves = []
            struct = _struct(o, leaves)
            if struct != structs[i]:
                if rt.is_undefined(init[i]) and not any(_numeric(v) for v in leaves):
                    self._error(
                        f"{who} is first given a value inside this {self.what}, and it is "
                        f"{_describe(o)}; only arrays and numbers can be staged loop variables"
                    )
                self._error(
                    f"{who} changes structure in this {self.what}: before an iteration "
                    f"it is {_describe(state_in[i])}, after it {_describe(o)}. Keep the "
                    "same structure in every iteration."
                )
            for j, v in enumerate(leaves):
                before = init_leaves[i][j]
                key = (i, j)
                if key in self.unions or isinstance(v, Union) or isinstance(before, Union):
                    plan = self.unions.get(key) or loop_unions.grown((), before)
                    plan = plan and loop_unions.grown(plan, v)
                    if plan is not None:
                        changed |= self._carry_union(key, plan, carried)
                        continue
                if loop_texts.carries(key, before, v, carried, self.choices):
                    changed |= loop_texts.carry(key, carried, self.choices)
                    continue
                if self._chosen(key, before, v):
                    known = self.choices.get(key, ())
                    options = options_of(*known, before, v)
                    if options != known and loop_texts.grows(key, known, options, self.grown_texts):
                        changed |= loop_texts.carry(key, carried, self.choices)
                    elif options != known:
                        self.choices[key] = options
                        carried[key] = _TAG
                        changed = True
                    continue
                if isinstance(v, ListAccum) or key in self.runs:
                    changed |= self._run_leaf(key, before, v, carried)
                    continue
                if key in carried:
                    old = carried[key]
                    if not _numeric(v):
                        self._error(
                            f"{who} is {format_spec(*old)} before an iteration of this "
                            f"{self.what} and {_spec_text(v)} after it"
                        )
                    start = old
                else:
                    if v is before or _same_python(v, before):
                        continue
                    if type(before) is str and _tensor.uses.printing.is_text(v):
                        # A string written in the code before, one made when the graph runs
                        # after an iteration (`label = f"pos {v}"`): a string of the graph.
                        carried[key] = ((), np.dtype(object), False)
                        # (a constant autoconv owns: `s += ...` may then rebind it in place)
                        init_leaves[i][j] = _g.add_const(before, carried[key], True)
                        changed = True
                        continue
                    if object_state.by_fields(before, v):
                        raise object_state.CarryFields(i, self.names)
                    if not (_numeric(v) and _numeric(before)):
                        self._error(
                            f"{who} is {_spec_text(before)} before this {self.what} and "
                            f"{_spec_text(v)} after an iteration. A staged loop can only change "
                            "arrays and numbers; keep other values the same in every iteration."
                        )
                    start = _spec(before)

                def fail(kind, start=start, v=v, shown=shown):
                    before_text, after_text = format_spec(*start), _spec_text(v)
                    self._error(
                        messages.iteration_changes(shown, before_text, after_text, self.what, kind)
                    )

                new = _join(start, _spec(v), fail, (before, v))
                if key not in carried or new != carried[key]:
                    carried[key] = new
                    changed = True
                known = self.kinds.get(key, kinds_of(before))
                seen = kinds_of(v)
                kinds = tuple(dict.fromkeys(known + seen))
                if len(kinds) > 1 and self.kinds.get(key) != kinds:
                    # A Python number before, a NumPy value after some iterations: which one
                    # the loop leaves is known at run time (eager code gives either type).
                    self.kinds[key] = kinds
                    carried[(i, j, 1)] = ((), np.dtype(np.int64), True)
                    changed = True
        return changed

    def _carry_union(self, key, plan, carried) -> bool:
        """Carries leaf `key` as a union of `plan` (`loop_unions`): its tag and a value per
        graph alternative; whether that changed the plan."""
        if self.unions.get(key) == plan:
            return False
        for k in [k for k in carried if k[:2] == key]:
            del carried[k]
        self.kinds.pop(key, None)
        self.unions[key] = plan
        carried[key] = _TAG
        for n in loop_unions.slots(plan):
            carried[(*key, 2, n)] = plan[n][1]
        return True

    def _chosen(self, key, before, v) -> bool:
        """Whether leaf `key` is a value that a staged condition chooses (a Choice, or atoms
        that differ: `status = "running"` before, `"done"` after an iteration)."""
        if key in self.choices or isinstance(v, Choice):
            return True
        if not (atom(before) and atom(v)):
            return False
        return not (before is v or (type(before) is type(v) and before == v))

    def _settle_lists(self, snap, accums, appended) -> bool:
        changed = False
        for k, items in enumerate(appended):
            lst, name, before = snap[k]
            if items is None:
                self._error(
                    f"list `{name}` is changed inside this {self.what} in a way other than "
                    "append(); only append() can be staged"
                )
            if type(items) is tuple:
                acc, items = items
                old = accums[k][0]
                general = shapes.generalize(old, tuple(acc.shape[1:]))
                if general != old:
                    accums[k][0] = general
                    changed = True
            nested = next((it for it in items or () if isinstance(it, ListAccum)), None)
            if nested is not None and k not in accums:
                # A staged statement nested in this loop appended: the list holds its
                # run-time items, which this loop carries on (appending after them) from now on.
                outer = before[-1] if before and isinstance(before[-1], ListAccum) else None
                inner = nested.tensor
                accums[k] = [tuple(inner.shape[1:]), inner.dtype, outer]
                changed = True
                continue
            if not items:
                continue
            optional = records.optional_dtype(items)
            if optional is None and all(it is None for it in items):
                if k not in self.nones_first:
                    # Only None so far (`d = None if prev is None else v - prev` while `prev`
                    # is still the None before the loop): the next attempt, with the loop's
                    # variables settled, may append values-or-None that give the kind.
                    self.nones_first.add(k)
                    changed = True
                    continue
                optional = records.optional_dtype([*items, 0.0])  # None every time: any kind
            if optional is not None:  # a value on some paths, None on others: one row each
                specs = [((), optional)] * len(items)
            else:  # (a grown list with items after its run-time ones: as one run-time list)
                specs = [item_spec(as_one_run(it)) for it in items]
            self.item_like.setdefault(k, next((it for it in items if it is not None), None))
            refuse_nested_runs(items, name, self.origin)
            for it, spec in zip(items, specs):
                if spec is None:
                    self._error(
                        f"list `{name}`: only arrays, numbers, strings written in the code and "
                        "dicts, lists and tuples of them (of known shapes) can be appended inside "
                        "a staged loop (its length is known only when the graph runs), got "
                        f"{_spec_text(it)}. Instead, {records.fix_for(it, name)}."
                    )
            item_shapes = [spec[0] for spec in specs]
            dtype = next(
                (spec[1] for it, spec in zip(items, specs) if not _weak(it)),
                specs[0][1],
            )
            elem = item_shapes[0]
            for s in item_shapes[1:]:
                if len(s) != len(elem):
                    self._error(
                        f"list `{name}`: items appended in this {self.what} must all have the "
                        "same number of dimensions"
                    )
                elem = shapes.generalize(elem, s)
            if k not in accums:
                outer = before[-1] if before and isinstance(before[-1], ListAccum) else None
                if outer is not None:
                    elem = shapes.generalize(tuple(outer.tensor.shape[1:]), elem)
                    dtype = outer.tensor.dtype
                accums[k] = [elem, dtype, outer]
                changed = True
            elif k in self.unknown_kind:
                # An empty list carried whole (it was popped from) meets its first items: a
                # run-time list of their kind from the start.
                self.unknown_kind.discard(k)
                run = one_run([], name, self.origin, (elem, dtype))
                snap[k] = (lst, name, [ListAccum(run)])
                accums[k] = [elem, dtype, snap[k][2][0]]
                changed = True
            elif widens(accums[k][1], dtype):  # `[]` first, then lists of run-time length
                accums[k][1] = dtype
                changed = True
            else:
                widened = optional is not None and self._widened(k, accums[k][1], items)
                if widened:  # None after numbers (`out.append(v if ok else None)`)
                    accums[k][1] = widened
                    changed = True
                old = accums[k][0]
                general = shapes.generalize(old, elem) if len(old) == len(elem) else None
                if general is None:
                    self._error(
                        f"list `{name}`: items appended in this {self.what} must all have the "
                        "same number of dimensions"
                    )
                if general != old:
                    accums[k][0] = general
                    changed = True
        return changed

    def _widened(self, k, dtype, items):
        """The values-or-None row dtype that list `k`, a run-time list of numbers of `dtype`,
        takes for `items` that hold None; None where it holds that already, or cannot."""
        if records.layout_of(dtype) is not None or dtype.kind == "O":
            return None
        like = self.item_like.get(k)
        made = records.optional_dtype([dtype.type(0) if like is None else like, *items])
        return made if made is not None and made != dtype else None

    def _union_part(self, v, key):
        """The tag (`key` of two) or a graph alternative's value (`(i, j, 2, n)`) of `v`, a
        leaf carried as a union (`loop_unions`), in the block being built."""
        plan = self.unions[key[:2]]
        return loop_unions.tag(v, plan) if len(key) == 2 else loop_unions.slot(v, plan, key[3])

    def _record(self, graph, init, structs, init_leaves, carried, traced, snap, accums):
        params, acc_params = traced.params, traced.acc_params
        cond_block, body_block, cond = traced.cond_block, traced.body_block, traced.cond
        stop, out, appended = traced.stop, traced.out, traced.appended
        keys = sorted(carried)
        # Initial values, in the enclosing block.
        inits = []
        for key in keys:
            shape, dtype, _ = carried[key]
            v = init_leaves[key[0]][key[1]]
            if key[:2] in self.unions:
                inits.append(self._union_part(v, key))
                continue
            if key in self.choices:
                inits.append(tag_of(v, self.choices[key]))
                continue
            if isinstance(v, ListAccum):
                v = v.tensor
            if carried[key] == loop_texts.TEXT:
                v = loop_texts.value(v)
            if len(key) == 3:
                v = _tag_for(v, self.kinds[key[:2]])
            elif v is None or unbound(v):
                v = np.zeros(tuple(0 if d is None else d for d in shape), dtype)
            inits.append(_as_tensor(v, carried[key]))
        acc_keys = sorted(accums)
        for k in acc_keys:
            outer = accums[k][2]
            if outer is not None:
                inits.append(outer.tensor)
            else:
                node = _g.Node("list_new", "list", attrs={"list": snap[k][1]})
                _g.add_node(node, [((None, *accums[k][0]), accums[k][1], False)], self.origin)
                inits.append(node.outputs[0])
        # Loop outputs, in the body block.
        outs = []
        settled = set()  # (i, j) of the leaves whose tag the first trip settles
        with _g.build(graph, body_block):
            for key in keys:
                i, j = key[:2]
                leaves = []
                _struct(out[i], leaves)
                value = leaves[j] if j < len(leaves) else params[key]
                if key[:2] in self.unions:
                    outs.append(self._union_part(value, key))
                    continue
                if key in self.choices:
                    outs.append(tag_of(value, self.choices[key]))
                    continue
                if len(key) == 3:
                    if self.first_trip and kinds_of(value) == (None,):
                        settled.add((i, j))  # a NumPy value after any trip (`c += v > 1`)
                    value = _tag_for(value, self.kinds[(i, j)])
                elif isinstance(value, ListAccum):
                    value = value.tensor
                elif carried[key] == loop_texts.TEXT:
                    value = loop_texts.value(value)
                outs.append(_as_tensor(value, carried[key]))
            for k in sorted(accums):
                acc, items = appended[k]
                outs.append(_append(acc, items, snap[k][1], self.origin) if items else acc)
            has_stop = stop is not None and stop is not False
            if has_stop:
                if isinstance(stop, Tensor):
                    outs.append(stop)
                elif _numeric(stop) or isinstance(stop, bool):
                    outs.append(_const(bool(stop), np.bool_, True))
                else:
                    outs.append(_const(bool(stop), np.bool_, True))
        with _g.build(graph, cond_block):
            cond_block.outputs = [_cond_tensor(cond, self.origin)]
        body_block.params = [params[k] for k in keys] + [acc_params[k] for k in acc_keys]
        cond_block.params = body_block.params
        body_block.outputs = outs
        if not has_stop and not _can_change(cond_block, body_block.params):
            self._guard_never_ends()
        node = _g.Node("while", "while", args=tuple(inits), attrs={"stop": has_stop})
        node.blocks = [cond_block, body_block]
        node.effect = _has_effect(cond_block) or _has_effect(body_block)
        specs = [carried[k] for k in keys] + [
            ((None, *accums[k][0]), accums[k][1], False) for k in acc_keys
        ]
        _g.add_node(node, specs, self.origin)
        results = dict(zip(keys, node.outputs))
        final = []
        for i, _v in enumerate(init):
            leaves = list(init_leaves[i])
            for j in range(len(leaves)):
                if (i, j) in self.unions:
                    plan = self.unions[(i, j)]
                    values = {n: results[(i, j, 2, n)] for n in loop_unions.slots(plan)}
                    leaves[j] = loop_unions.union(plan, results[(i, j)], values, self.names[i])
                elif (i, j) in self.choices:
                    leaves[j] = Choice(results[(i, j)], self.choices[(i, j)], self.names[i])
                elif (i, j, 1) in results and (i, j) in settled and not results[(i, j)].weak:
                    leaves[j] = results[(i, j)]
                elif (i, j, 1) in results:
                    kinds = self.kinds[(i, j)]
                    leaves[j] = tagged(results[(i, j)], results[(i, j, 1)], kinds, self.names[i])
                elif (i, j) in self.runs:
                    leaves[j] = ListAccum(results[(i, j)])
                elif (i, j) in results:
                    leaves[j] = results[(i, j)]
            rebuilt = _rebuild(structs[i], leaves, _kept(init[i]))
            final.append(_in_place(init[i], rebuilt, traced.kept, i))
        if self.names:
            _set_final_state(self.set_state, final, self.names, self.origin, f"this {self.what}")
        for n, k in enumerate(acc_keys):
            lst, name, before = snap[k]
            prefix = list(_prefix(before))
            for i in _tracked(self.names, name):  # (`seen[0]`, carried: set above)
                if i < len(prefix) and i < len(lst):
                    prefix[i] = lst[i]
            lst[:] = [*prefix, ListAccum(node.outputs[len(keys) + n])]
