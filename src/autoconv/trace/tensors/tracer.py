"""The tracer of Tensors: `if`, `while`, `for`, conditional expressions and logical operators
on Tensors, staged into `cond` and `while` nodes (registered with `autoconv.runtime.staging`).
"""

from __future__ import annotations

import re
import sys

import numpy as np

from autoconv.errors import AutoconvError
from autoconv.graph import graph as _g
from autoconv.graph import shapes
from autoconv.graph import tensor as _tensor
from autoconv.graph.errors import StagingError, where
from autoconv.graph.origin import pinned, user_origin
from autoconv.graph.tensor import Tensor
from autoconv.graph.unrolled import Steps
from autoconv.runtime import keyed as keyed_rt
from autoconv.runtime import pure_steps
from autoconv.runtime import staging as rt
from autoconv.runtime.control_flow import ElifChain
from autoconv.runtime.control_flow import for_stmt as py_for_stmt
from autoconv.runtime.items import basic_key
from autoconv.runtime.staged_locals import StagedLocals
from autoconv.trace.core.hidden import HiddenState, with_carried
from autoconv.trace.core.whole import carried_whole, removing_undefined
from autoconv.trace.tensors import (
    accumulated,
    arraylike,
    branch_dicts,
    choices,
    implied,
    keyed,
    list_ops,
    mutation,
    run_time_index,
    sequences,
    staged_try,
    switch,
    union_uses,  # noqa: F401 - stages the uses of values of another kind by path
)
from autoconv.trace.tensors.accumulated import ListAccum
from autoconv.trace.tensors.appends import (
    _appended,
    _Box,
    _closure_lists,
    _ConcreteArrays,
    _NeedsAccumulator,
    _restore,
    _set_final_state,
    _snapshot,
    _tracked,
    as_left,
    in_staged_loop,
    rebound_lists,
)
from autoconv.trace.tensors.choices import Choice
from autoconv.trace.tensors.iteration import (
    StagedEnumerate,
    StagedNdenumerate,
    StagedRange,
    StagedZip,
    _iteration,
    _remaining,
    _Settled,
)
from autoconv.trace.tensors.leaves import _cast, _cond_tensor, _run_time_len, grown_len
from autoconv.trace.tensors.loops import _Loop
from autoconv.trace.tensors.merge import _Merger
from autoconv.trace.tensors.optionals import (
    Optional,
    Raises,
    index_value,
    is_none,
    raise_node,
)
from autoconv.trace.tensors.raising import (
    _check_lists_not_rebound,
    _check_no_effects_before_raise,
    _stand_in,
    _trace_branch,
)
from autoconv.trace.tensors.user_code import fail, source_line, target_name, user_frame

_UNROLL_REST = 64
"""A Python loop whose body stops under a staged condition (`if np.sum(...) > 5: return r`)
unrolls up to this many further items, nested in staged `if`s; more become a graph loop."""


def _python_constant(seen) -> bool:
    """Whether the later operand of a staged `and`/`or` gave one plain Python value (None, a
    bool, number or string), whose truth is known while tracing."""
    return len(seen) == 1 and type(seen[0]) in (type(None), bool, int, float, str)


def _known_item(key, before: int, after: int) -> bool:
    """Whether int `key` is an item known now of a list with `before` such items, then the
    run-time ones, then `after` more: the Python list's own item."""
    return type(key) is int and (0 <= key < before or -after <= key < 0)


class TensorTracer:
    """Implements `autoconv.runtime.staging`'s protocol for Tensors."""

    # item assignment -----------------------------------------------------------------------
    def view_taken(self, view, base) -> None:
        """`view = base[...]` that writes go through (runtime.items.view_of)."""
        mutation.note_view(view, base)

    def setitem_view(self, view, key, value, base, at, name):
        """`view[key] = value` where `view = base[at]` (runtime.items.setitem_view): `(view,
        base)` afterwards, `base` with the new `view` stored where NumPy's view shares it."""
        if not isinstance(view, (Tensor, np.ndarray)):
            return self.setitem(view, key, value), base
        new = mutation.assign_item(view, key, value, view=True)
        if new is view or not isinstance(base, (Tensor, np.ndarray)) or not basic_key(at):
            return new, base  # changed in place (NumPy's own view), or a copy eagerly too
        return new, mutation.assign_item(base, at, new, name=name)

    def setitem(self, target, key, value, slot=None):
        """`slot`: (object, attribute name) when the array is `object.attribute`, which the
        caller rebinds to the result (`self.stock[i] -= q`)."""
        if not isinstance(target, (Tensor, np.ndarray)):
            if type(target) is dict and isinstance(key, Choice) and target:
                if not keyed_rt.active(target):
                    # `d["pos" if v > 0 else "neg"] = n`: one of the keys it holds, chosen when
                    # the graph runs (a switch over them: trace.tensors.switch)
                    switch.dict_write(target, key, value, user_origin(2))
                    return target
            if type(target) in keyed_rt.DICTS and keyed_rt.stages(target, key):
                return keyed_rt.setitem(target, key, value)  # keys known when the graph runs
            n = accumulated.accum_index(target) if type(target) is list else None
            if n is not None and not _known_item(key, n, len(target) - n - 1):
                # an item of a run-time list (`counts[-1] += 1` where a staged loop appends)
                list_ops.list_method(target, "setitem", (key, value), {})
                return target
            if isinstance(target, dict):
                for k in key if type(key) is tuple else (key,):
                    if isinstance(k, Tensor):
                        arraylike.unhashable(k)  # `d[i] = v`: eager files it by i's value
            elif type(target) is list and switch.key_of(index_value(key)) is not None:
                # `seen[u] = True`: a switch over the items (trace.tensors.switch)
                if switch.list_write(target, index_value(key), value, user_origin(2)):
                    return target
            target[key] = value  # a list or dict holds Tensors as they are
            return target
        key = tuple(map(index_value, key)) if type(key) is tuple else index_value(key)
        return mutation.assign_item(target, key, index_value(value), slot)

    def inplace(self, owner, name, target, args, kwargs):
        """`owner.name(target, ...)` or, with `owner` None, `target.name(...)`: an in-place
        NumPy call; gives what `target`'s name holds afterwards (trace.tensors.inplace)."""
        from autoconv.trace.tensors import inplace

        return inplace.call(owner, name, target, args, kwargs)

    def params_entered(self, frame, given):
        """A function that writes its parameters in place begins (runtime.items)."""
        mutation.params_entered(frame, given)

    def params_written(self, frame, changes):
        """A function that writes its parameters in place ended (runtime.items)."""
        mutation.params_written(frame, changes)

    def written_back(self, value):
        return mutation.written_back(value)

    def keyed(self, op, shadow, *args):
        """A set or dict operation on keys known only when the graph runs (`runtime.keyed`)."""
        if op == "get" and type(shadow.obj) is dict and shadow.obj and not shadow.active():
            # `jumps.get(pos, pos)`: a dict of number keys known now (trace.tensors.run_time_index)
            default = args[1] if len(args) > 1 else None
            value = run_time_index.dict_read(
                shadow.obj, index_value(args[0]), user_origin(2), default
            )
            if value is not switch.NOT_MINE:
                return value
        return keyed.keyed(op, shadow, *args)

    # if / conditional expressions ----------------------------------------------------------
    def if_stmt(self, cond, body, orelse, get_state, set_state, names):
        origin = user_origin(2)
        cond = _cond_tensor(cond, origin)
        names = tuple(names or ())
        # `x[0] = v` of a graph array `x` in a branch: `x` is carried whole (trace.core.whole).
        get_state, set_state = carried_whole(get_state, set_state, names, _is_tensor)
        set_state = removing_undefined(get_state, set_state, names)
        init = rt.read_state(get_state, names) if names else ()
        adopted = mutation.adopt_arrays(names, init, user_frame()) if names else init
        if adopted is not init:
            init = adopted
            set_state(init)
        # The rest of an `elif` chain is an object holding the branches' functions.
        chain = orelse.functions() if isinstance(orelse, ElifChain) else (orelse,)
        snap = _snapshot(_closure_lists(body, *chain, get_state))
        arrays = _ConcreteArrays(names, init, origin, "`if`")
        branch_locals = StagedLocals((body, *chain))
        hidden = HiddenState((body, *chain), names)
        results = []
        blocks = []
        raised = []
        left: dict = {}  # lists a branch changed, as it left them (`as_left`)
        pending = None  # a list a branch changes otherwise than by appending (`_NeedsAccumulator`)
        for fn in (body, orelse):
            hidden.undo()  # first: what a helper changed may be in a cell the next line resets
            branch_locals.start()  # each branch from the state before the `if`
            if names:
                set_state(init)
            with _g.sub_block() as block:
                try:
                    raises = _trace_branch(fn)
                except _NeedsAccumulator as e:
                    if e.items or not e.whole:
                        raise
                    # An empty list a branch pops from: the items the other branch appends
                    # give the kind of the run-time list the loop must carry.
                    pending, raises = e, True
                values = as_left(rt.read_state(get_state, names), snap, left) if names else ()
                dicts = branch_dicts.noted(values)  # (the next branch may change them)
            arrays.check()
            if raises:
                _check_no_effects_before_raise(names, init, values, origin, raises)
                values = ()
            lists = [
                (
                    lst,
                    name,
                    _settled(_appended(lst, before, _tracked(names, name), True), cond, fn is body),
                    before,
                )
                for lst, name, before in snap
            ]
            _restore(snap)
            results.append((values, lists, dicts))
            blocks.append(block)
            raised.append(raises)
        results = [(branch_dicts.as_left(v, d), lists) for v, lists, d in results]
        hidden.undo()
        if pending is not None:
            branch_locals.finish()
            if names:
                set_state(init)
            added = [a for _, lists in results for lst, _, a, _ in lists if lst is pending.lst]
            raise _NeedsAccumulator(
                pending.lst, next((a for a in added if type(a) is list and a), []), whole=True
            )
        # `d[k] = v` on every path of the `if` at a key `d` lacks: carried, as a variable both
        # branches assign (which the next trace makes the `if`'s own).
        everywhere = hidden.added_everywhere(2, raised) if not all(raised) else set()
        refs = hidden.carried(everywhere) if hidden.changed else None
        if refs:
            # A function a branch calls changes a `nonlocal` variable or an attribute: trace
            # the `if` again with it among its variables, which joins it as theirs.
            branch_locals.finish()
            mutation.forget_marks(blocks)  # (the branches' item writes are traced again)
            if names:
                set_state(init)
            get_state, set_state, names = with_carried(get_state, set_state, names, refs)
            return self.if_stmt(cond, body, orelse, get_state, set_state, names)
        if (
            hidden.added
            and keyed.promote_added(hidden, origin)
            or (hidden.set_changes and keyed.promote_sets(hidden, origin))
        ):
            # `d[k] = v` adds a key on some paths only: the dict's keys are run-time ones now
            # (trace.tensors.keyed), and the `if` is traced again storing into them.
            branch_locals.finish()
            mutation.forget_marks(blocks)
            if names:
                set_state(init)
            return self.if_stmt(cond, body, orelse, get_state, set_state, names)
        merger = _Merger(("if", "else"), blocks, origin, "`if`", names)
        if all(raised):
            staged_try.branches_raised(cond, raised, origin)
            merger.finish(cond)
            if names:
                set_state(init)
            raise Raises(origin)
        for k in (0, 1):
            if raised[k]:
                # This path raises when it runs: its values are never read. Stand-ins of the
                # other path's kinds and shapes fill its outputs.
                other = results[1 - k]
                values = tuple(_stand_in(v, blocks[1 - k]) for v in other[0])
                lists = [
                    (lst, name, None if added is None else _stand_in(added, blocks[1 - k]), bef)
                    for lst, name, added, bef in other[1]
                ]
                results[k] = (values, lists)
        # A value-or-None the condition decides (`retval` where `not do_return` is false).
        results = [
            (implied.settled(v, cond, k == 0), lists) for k, (v, lists) in enumerate(results)
        ]
        kept = rebound_lists(names, results, blocks, origin, left)
        _check_lists_not_rebound(names, results, origin)
        merger.block_lists = (results[0][1], results[1][1])
        merged = [
            merger.merge(name, init[i], results[0][0][i], results[1][0][i])
            for i, name in enumerate(names)
        ]
        list_results = merger.merge_lists(results[0][1], results[1][1])
        merger.finish(cond)
        staged_try.branches_raised(cond, raised, origin)
        final = [merger.resolve(m) for m in merged]
        branch_locals.finish()
        hidden.undo()
        hidden.check(lambda m: _fail_at(origin, m), "`if`")
        # The lists first: a composite name (`lst[0]`, carried by its path) is stored into its
        # list afterwards, or the list's items before the `if` would overwrite it.
        merger.resolve_lists(list_results)
        merged_lists = {id(entry[0]) for entry in results[0][1]}
        for i, lst in kept.items():
            # One list, an item written in a branch: the same object after. Where the two
            # values did not merge as a list (`r = xs` on both paths, `xs.insert(0, v)` on
            # one), the list's own merge above gave its items, and the variable holds it.
            if type(final[i]) is list or id(lst) not in merged_lists:
                lst[:] = final[i]
            final[i] = lst
        if names:
            _set_final_state(set_state, final, names, origin, "this `if`")

    def is_none(self, value):
        if isinstance(value, Choice):
            return choices.mapped(value, lambda o: o is None, "`is None`")
        return is_none(value)

    def assert_(self, test, message):
        origin = user_origin(2)
        test = _cond_tensor(test, origin)
        text = message() if message is not None else None
        exc = AssertionError() if text is None else AssertionError(text)
        if staged_try.handled_assert(exc, np.logical_not(test), origin):
            return  # `try: assert ok` / `except AssertionError:` takes its handler then
        _raise_where(np.logical_not(test), exc, origin, "`assert`")

    def require(self, ok, exc):
        """Raises `exc` when the graph runs where `ok` is false (a check autoconv makes on the
        user's line, as eager Python's own: `a, b = lst` of a list of run-time length)."""
        origin = user_origin(3)
        ok = _cond_tensor(ok, origin)
        if not isinstance(ok, Tensor):
            if not ok:
                raise exc
            return
        _raise_where(np.logical_not(ok), exc, origin, "check")

    def if_exp(self, cond, if_true, if_false):
        return self._choice(cond, if_true, if_false, user_origin(2), "conditional expression")

    def _choice(self, cond, if_true, if_false, origin, what, labels=("true", "false")):
        """`if_true() if cond else if_false()`, staged; `what` and `labels` name the construct
        and its two sides in errors (a conditional expression, or a `max()` choice)."""
        cond = _cond_tensor(cond, origin)
        # A side may append to a list or change an object (`v > 0 and log.append(v)`): as in
        # a staged `if`, each side from the state before, and the lists joined after.
        snap = _snapshot(_closure_lists(if_true, if_false))
        hidden = HiddenState((if_true, if_false), ())
        values, blocks, lists = [], [], []
        for fn in (if_true, if_false):
            hidden.undo()
            with _g.sub_block() as block:
                values.append(fn())
            lists.append([(lst, n, _appended(lst, b, frozenset(), True), b) for lst, n, b in snap])
            _restore(snap)
            blocks.append(block)
        hidden.undo()
        hidden.check(lambda m: _fail_at(origin, m), what)
        # A value-or-None the condition decides (`s if s is not None else 0.0`): its value.
        values = [implied.settled((v,), cond, k == 0)[0] for k, v in enumerate(values)]
        merger = _Merger(labels, blocks, origin, what)
        merged = merger.merge(
            f"the {what}'s value", rt._Undefined("?"), values[0], values[1], expression=True
        )
        list_results = merger.merge_lists(lists[0], lists[1])
        merger.finish(cond)
        merger.resolve_lists(list_results)
        result = merger.resolve(merged)
        if type(values[0]) is list and type(values[1]) is list and values[0] is not values[1]:
            if type(result) is list and result is not values[0] and result is not values[1]:
                return ChosenList(result, origin, what)
        return result

    # `a and b` in a test (`if`, `while`) whose later operand turns out a Python constant that
    # decides it (`x[i] <= 0 and start is not None` with `start` None): its truth is known now,
    # so the statement is not staged and its dead branch is not traced.
    folds_tests = True

    def and_(self, value, operands, test=False):
        return self._logical(value, operands, test, is_and=True)

    def or_(self, value, operands, test=False):
        return self._logical(value, operands, test, is_and=False)

    def _logical(self, value, operands, test, is_and):
        """`value and operands...` (`is_and`) or `value or operands...`: the later operands
        are the side a staged choice takes when `value` is true (`and`) or false (`or`)."""
        from autoconv.runtime import logical

        first, rest = operands[0], operands[1:]
        seen = _Box(())  # not a list: the staged choice must not take it for the user's

        def right():
            v = first()
            if rest:
                v = (logical.and_ if is_and else logical.or_)(v, *rest, test=test)
            seen.value = (v,)
            return self._truthy(v) if test else v

        # In a test only the truth counts: `adj[v] and level[v] < 0` joins an int and a bool.
        other = (lambda: self._truthy(value)) if test else (lambda: value)
        sides = (right, other) if is_and else (other, right)
        result = self._choice(value, *sides, user_origin(3), "`and`" if is_and else "`or`")
        if test and _python_constant(seen.value) and bool(seen.value[0]) is not is_and:
            # The later operand decides it the same on both paths (the staged choice is left
            # to dead-code removal): falsy for `and`, true for `or`.
            return not is_and
        return result

    def _truthy(self, v):
        """The truth of `v` (a Python bool, or a bool Tensor known when the graph runs)."""
        if rt.tracer_for(v) is self:
            return self.truth([v], False)
        return bool(v)

    def not_(self, value):
        # `not x` is a Python bool whatever x is: a weak bool Tensor, never an np.bool_.
        result = np.logical_not(_cond_tensor(value, user_origin(2)))
        return result if result.weak else _cast(result, bool)

    def in_staged_block(self) -> bool:
        """Whether a staged branch or loop body is being traced (in this thread)."""
        return _g.building() and len(_g._SCOPES.stack) > 1

    # loops --------------------------------------------------------------------------------
    def mark(self):
        """Where the block being built ends now (None when this thread is not tracing)."""
        return len(_g.current().block.nodes) if _g.building() else None

    def python_loop(self):
        """Records where each iteration of a Python loop begins (None when not tracing)."""
        return Steps(user_origin(3)) if _g.building() else None

    def while_stmt(self, test, body, get_state, set_state, names, first_cond=None, mark=None):
        if mark is not None:
            # The runtime ran the test once to see that it is symbolic; the loop's test block
            # runs it again. Drop the first run's operations: its effects (random draws,
            # prints, Variable updates) would run once more than eagerly.
            del _g.current().block.nodes[mark:]
        _Loop(
            test, body, get_state, set_state, tuple(names or ()), user_origin(2), "`while` loop"
        ).run()

    def for_stmt(self, iterable, body, get_state, set_state, names):
        origin = user_origin(2)
        if isinstance(iterable, StagedZip) and iterable.sources is None:
            # A zip with a list of strings, all of known length: a Python loop, unrolled.
            return py_for_stmt(iterable.items, body, get_state, set_state, names)
        if type(iterable) is list:
            accumulated.accum_index(iterable)  # two runs (`up + down`) joined here, not inside
        source = _iteration(iterable, origin)
        names = tuple(names or ())
        get_state, set_state = carried_whole(get_state, set_state, names, _is_tensor)
        set_state = removing_undefined(get_state, set_state, names)  # (see _Loop.run)
        length = source.length()
        if type(length) is int and length == 0:
            # No items, known now (an empty array's graph is only used for empty arrays): the
            # body never runs, as eagerly; a traced body could not even index its arrays.
            return
        counter = _Box(0)  # not a list: lists in closures are taken for accumulators

        def get2():
            state = rt.read_state(get_state, names) if names else ()
            return (*state, counter.value)

        def set2(state):
            if names:
                set_state(tuple(state[:-1]))
            counter.value = state[-1]

        def test():
            return counter.value < length

        def body2():
            i = counter.value
            stop = body(source.item(i))
            counter.value = i + 1
            return stop

        loop = _Loop(
            test,
            body2,
            get2,
            set2,
            (*names, "<loop counter>"),
            origin,
            "`for` loop",
            carry_last=True,
            fns=(body,),
        )
        loop.first_trip = type(length) is int  # (and not 0: returned above)
        loop.run()

    def while_rest(self, stop, test, body, get_state, set_state, names):
        """A Python `while` loop whose body just returned a symbolic stop: unless it stops,
        the rest of the loop is staged from the current state."""

        def rest():
            _Loop(
                test, body, get_state, set_state, tuple(names or ()), origin, "`while` loop"
            ).run()

        origin = user_origin(2)
        with pinned(sys._getframe()):  # (the `if`'s walks to the user's frame stop here)
            self.if_stmt(np.logical_not(stop), rest, None, get_state, set_state, names)

    def for_rest(self, stop, iterable, items, item, body, get_state, set_state, names):
        """A Python `for` loop whose body just returned a symbolic stop: unless it stops, the
        remaining items are iterated by a staged loop, from the current state."""
        if type(iterable) is range:
            left = range(item + iterable.step, iterable.stop, iterable.step)
        else:
            left = items = list(items)
        if not left:
            return  # that was the last item: the loop ends either way
        if len(left) <= _UNROLL_REST:
            # As documented, a loop over a Python range unrolls: each remaining item is one
            # more staged `if` (the index stays a Python int, so `x[r:r + 2]` keeps its size).
            def rest():
                from autoconv.runtime.control_flow import for_stmt

                for_stmt(left, body, get_state, set_state, names)
        else:
            source = _remaining(iterable, iter(left), item, user_origin(2))

            def rest():
                self.for_stmt(source, body, get_state, set_state, names)

        # Each remaining step nests in the `if` of the one before, called after that step's
        # own frame returned: walks from inside to the user's frame stop here (`pinned`).
        with pinned(sys._getframe()):
            self.if_stmt(np.logical_not(stop), rest, None, get_state, set_state, names)

    def range(self, *args):
        return StagedRange(*args)

    def rolls(self) -> bool:
        """Whether the graph being built re-rolls its Python loops (the `roll` pass is on)."""
        return getattr(_g.current().graph, "early_roll", False)

    def roll_rest(self, rest, body, get_state, set_state, names, undo, aliases, subscripts, steps):
        """The steps `rest` (a Python range) of a loop whose body leaves its state as it finds
        it and does nothing Python sees (`runtime.pure_steps`), as one staged loop: what the
        `roll` pass makes of their unrolled copies. The body's index is a `pure_steps.Index`:
        comparisons that answer alike for every step left, nothing else; or the loop's counter
        where it only reads and writes items of arrays (`subscripts`, see
        `pure_steps.tensor_keys`). `undo`: (mark, state), where the graph and the state stand
        before the first of them (a step traced after `mark` is dropped); `aliases`: the cells
        the body sets to the index, which hold the last one after the loop, as unrolled;
        `steps`: the loop's `Steps` before. True when staged; else the graph and the state are
        as they were at `undo`, and the result is the step from which it may be staged (the
        index compared with a step of `rest`: `if i < 10`), or None.
        """
        block = _g.current().block
        mark, state = undo

        def back():
            del block.nodes[mark:]
            for v in state:
                if type(v) is Tensor:
                    v._stale = None  # (none was, `pure_steps.Settling`: the step's writes)
            set_state(state)

        back()
        steps.end()  # (the `roll` pass's hint on the steps before, unrolled)
        index = pure_steps.Index(rest)
        if pure_steps.tensor_keys(body, subscripts, rest):
            source = _remaining(rest, None, rest.start - rest.step, None)  # (Tensor items)
        else:
            source = _Settled(rest, index)
        try:
            self.for_stmt(source, body, get_state, set_state, names)
            made = block.nodes[mark:]
            nodes = [*made, *(n for top in made for sub in top.blocks for n in _g.walk(sub))]
            if index.touched or any(
                pure_steps.holds((n.args, n.kwargs, n.attrs), index) for n in nodes
            ):
                raise pure_steps.IndexNeeded("the index was used")
        except AutoconvError:
            back()
            return None if index.touched else index.resume
        for cell in aliases.values():
            cell.cell_contents = rest[-1]
        return True

    def extreme(self, which, args, **kwargs):
        """`max(*args)` / `min(*args)` with symbolic values, as Python computes them: the first
        item, replaced by each later one that is greater (smaller), as staged choices. A list a
        staged loop appended to takes `default=` too."""
        if len(args) == 1 and rt.grown_list(args[0]):
            if set(kwargs) == {"key"} and kwargs["key"] is not None:
                try:  # `max(records, key=lambda r: r["score"])`: keys that are numbers
                    found = list_ops.extreme_by_key(which, args[0], kwargs["key"])
                except AutoconvError:
                    found = None  # (keys the graph cannot compute: the error below)
                if found is not None:
                    return found
            if set(kwargs) - {"default"} or kwargs.get("default", 0) is None:
                raise StagingError(
                    f"{where(user_origin(2))}: `{which}(..., "
                    f"{', '.join(f'{k}=' for k in kwargs)})` of a list that a staged loop "
                    "appended to: only a `key=` that gives numbers, or a number as `default=`, "
                    "can be staged. Compare the "
                    f"values yourself (np.arg{which}(np.stack(lst)), or `if lst:` before "
                    f"`{which}(lst)`)."
                )
            fn = max if which == "max" else min
            return accumulated.list_call(fn, args[0], *kwargs.values())
        items = list(args[0]) if len(args) == 1 else list(args)
        if not items:
            raise ValueError(f"{which}() iterable argument is empty")
        origin = user_origin(2)
        result = items[0]
        for item in items[1:]:
            better = item > result if which == "max" else item < result
            result = self._choice(
                better,
                lambda item=item: item,
                lambda r=result: r,
                origin,
                f"`{which}()` choice",
                ("greater" if which == "max" else "smaller", "earlier"),
            )
        return result

    def truth(self, items, stop):
        """`any` (`stop` True) or `all` (False) of symbolic `items`: a Python bool when the
        graph runs."""
        combine = np.logical_or if stop else np.logical_and
        origin = user_origin(3)
        result = _cond_tensor(items[0], origin)
        for item in items[1:]:
            result = combine(result, _cond_tensor(item, origin))
        return _cast(result, bool)

    def chosen_item(self, d: dict, key):
        """`d[key]` of a dict holding keys known now, at a key known only when the graph runs
        (`runtime.keyed.item`): a choice among its keys is a switch over them; any other key
        is refused (its keys would be of both sorts)."""
        if isinstance(key, Choice):
            return switch.dict_read(d, key, user_origin(3))  # `d[label] += 1`
        value = run_time_index.dict_read(d, index_value(key), user_origin(3))  # `jumps[pos]`
        if value is not switch.NOT_MINE:
            return value
        return keyed.keyed("mixed", keyed_rt.shadow(d, make=True), None)

    def item_at(self, target, key):
        """`target[key]` of a NumPy array, list, tuple or dict made while tracing, at a key
        known only when the graph runs (`runtime.items.item_at`)."""
        return run_time_index.item_at(target, key, user_origin(2))

    def concrete_item(self, target, key):
        """`target[key]` of a NumPy array made outside the graph at a symbolic key (read for
        `target[key] op= value`): a copy of the array as a constant of the graph, indexed in
        it (a copy: the write that follows checks who else holds the array by its references)."""
        if isinstance(target, np.ndarray) and target.dtype != object:
            target = _g.add_const(target.copy(), (target.shape, target.dtype), True)
        elif type(target) is dict and isinstance(key, Choice):
            return switch.dict_read(target, key, user_origin(2))  # `d[label] += 1`
        elif type(target) in (list, dict):
            if type(target) is list and switch.key_of(index_value(key)) is not None:
                # `pos[turn] += roll`: a switch over the items (trace.tensors.switch)
                value = switch.list_read(target, index_value(key), user_origin(2))
                if value is not switch.NOT_MINE:
                    return value
            frame = user_frame()
            line = source_line(frame)
            name = target_name(line) or f"the {type(target).__name__}"
            fail(
                frame,
                f"`{line}` updates an item of the Python {type(target).__name__} `{name}` at an "
                "index known only when the graph runs; a Python list or dict needs the index now. "
                f"Make `{name}` a NumPy array (`{name} = np.zeros(n, dtype=int)`, `.tolist()` "
                "at the end if a list is wanted): item updates of an array are staged.",
                TypeError,
            )
        return target[key]

    def list_item(self, lst, key):
        """`lst[key]` of a list converted code appends to (see accumulated.list_item)."""
        if type(key) is slice:
            run_time_index.check_slice(lst, key, user_origin(2))
            return list_ops.list_slice(lst, key)
        index = switch.key_of(index_value(key))
        if index is not None:  # (a list a staged loop appended to is not switched over)
            value = switch.list_read(lst, index, user_origin(2))  # `names[np.argmax(x)]`
            if value is switch.NOT_MINE:  # (a long list of numbers: one array)
                value = run_time_index.numbers_read(lst, index, user_origin(2))
            if value is not switch.NOT_MINE:
                return value
        return accumulated.list_item(lst, key)

    def list_contains(self, lst, value):
        """`value in lst` of a list a staged loop appended to."""
        return list_ops.list_contains(lst, value)

    def join(self, sep, lst):
        """`sep.join(lst)` of a list of strings a staged statement appended."""
        return list_ops.joined(sep, lst)

    def list_iadd(self, lst, value):
        """`lst += value` where either holds items a staged loop appended."""
        return list_ops.list_iadd(lst, value)

    def note_kind(self, lst) -> None:
        """Remembers an item of `lst` as its items' kind, for a staged loop that carries it
        once it is empty (`queue.pop(0)` in a Python iteration, then a staged one)."""
        list_ops.note_kind(lst)

    def in_staged_loop(self, lst) -> bool:
        """Whether `lst` is among the lists of the staged loop being traced (its body changes
        it: the loop must carry it as a run-time list)."""
        return in_staged_loop(lst)

    def list_method(self, lst, name, args, kwargs):
        """`lst.name(*args)` (pop, sort, ...) of a list a staged loop appended to."""
        return list_ops.list_method(lst, name, args, kwargs)

    def sequence(self, name, *args):
        """Python's comparisons, built-ins and list methods (compare, extreme, index, count,
        contains, remove) over plain tuples and lists with symbolic items: see sequences."""
        if self._sequences is None:
            self._sequences = sequences.Sequences(
                lambda cond, if_true, if_false, what: self._choice(
                    cond, if_true, if_false, user_origin(2), what
                )
            )
        return getattr(self._sequences, name)(*args)

    _sequences = None

    def list_call(self, fn, lst, *args):
        """`fn(lst, *args)` (sum, max, min) of a list a staged loop appended to."""
        return accumulated.list_call(fn, lst, *args)

    def number(self, value, kind):
        """`int(t)` / `float(t)` (`kind`) in converted code: a 0-d Tensor of numbers becomes a
        Python number when the graph runs (NumPy's scalar conversion, its errors included)."""
        if isinstance(value, Optional):
            value = value.unwrap()
        if isinstance(value, Tensor) and not value.shape and value.dtype.kind in "biuf":
            return _cast(value, kind)
        if _tensor.uses.printing.is_text(value):
            return _tensor.uses.printing.parsed(value, kind)  # `int(s)` of an f-string
        return kind(value)

    def isinstance_(self, value, classinfo):
        """`isinstance(value, classinfo)` in converted code (`ac.isinstance`), of the type
        eager code has (a Tensor's is `Tensor.__class__` to user code, not to autoconv's)."""
        if isinstance(value, Tensor):
            return issubclass(arraylike.eager_class(value), classinfo)
        return isinstance(value, classinfo)

    def type_of(self, value):
        """`type(value)` as eager code has it: a Tensor's eager NumPy or Python type."""
        if isinstance(value, Optional):
            from autoconv.graph.origin import source_text
            from autoconv.trace.core.messages import shown

            origin = user_origin(2)
            what, test = f"`{value.name}`", f"`{value.name} is None`"
            if shown(value.name) != value.name:  # the converter's `retval` (a helper's result)
                arg = re.search(r"\btype\(([^()]+)\)", source_text(origin) or "")
                name = arg.group(1) if arg else "the value"
                what, test = f"`{name}`", f"`{name} is None`"
            raise StagingError(
                f"{where(origin)}: `type()` of {what}, which is None on some paths and a value "
                f"on others (known only when the graph runs). Test {test} instead."
            )
        if isinstance(value, Tensor):
            return arraylike.eager_class(value)
        return type(value)

    def len(self, value):
        if type(value) is list:
            return grown_len(value)
        if isinstance(value, Optional):
            value = value.unwrap()
        if type(value) is Choice:
            return choices.mapped(value, len, "len()")  # by the option the graph picks
        if _tensor.uses.printing.is_text(value):
            return _tensor.uses.printing.text_len(value)
        if isinstance(value, Tensor):
            if not value.shape:
                raise TypeError("len() of unsized object")
            if value.shape[0] is not None:
                return value.shape[0]
            return _run_time_len(value)
        return len(value)

    def enumerate(self, iterable, start=0):
        return StagedEnumerate(iterable, start)

    def zip(self, *iterables, **kwargs):
        if kwargs.get("strict"):
            shapes.fail("zip(..., strict=True) over Tensors is not supported; drop strict=True")
        return StagedZip(*iterables)


TRACER = TensorTracer()


rt.register(
    (
        Tensor,
        Optional,
        ListAccum,
        Choice,
        StagedRange,
        StagedEnumerate,
        StagedNdenumerate,
        StagedZip,
        StagedNdenumerate,
    ),
    TRACER,
    accumulators=(ListAccum,),
    builds_graphs=True,
)


def _is_tensor(value) -> bool:
    return isinstance(value, Tensor)


def _raise_where(fails, exc, origin, what: str) -> None:
    """Records that `exc` is raised when the graph runs where bool Tensor `fails` is true."""
    with _g.sub_block() as failing:
        raise_node(exc, origin)
    with _g.sub_block() as passing:
        pass
    _Merger(("failing", "passing"), [failing, passing], origin, what).finish(fails)


def _settled(added, cond, truth: bool):
    """Items a branch appended (`_appended`), each value-or-None that the branch's condition
    decides as the value or None (`if cur is not None: out.append(cur)` appends numbers)."""
    if type(added) is not list or not any(type(v) is Optional for v in added):
        return added
    return list(implied.settled(tuple(added), cond, truth))


class ChosenList(list):
    """The items of one of two lists a staged condition chooses between (`pos if v > 0 else
    neg`): read as a list, but a change made through it would reach neither list object."""

    def __init__(self, items, origin, what):
        super().__init__(items)
        self.origin, self.what = origin, what

    def _changed(self, *args, **kwargs):
        _fail_at(
            self.origin,
            f"the {self.what} chooses between two lists by a condition known only when the "
            "graph runs, and the list is then changed: a value of the graph cannot be either "
            "list object, so the change would reach neither. Write an `if` statement: "
            "`if v > 0: pos.append(x)` / `else: neg.append(x)`.",
        )

    append = extend = insert = remove = pop = clear = sort = reverse = _changed
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _changed


# Returned (or printed), a chosen list is the plain list of its items: the executors build
# only plain lists, and would hand the caller the items' Tensors themselves.
choices.CHOSEN[ChosenList] = lambda v: choices.chosen(list(v))


def _fail_at(origin, message: str):
    raise StagingError(f"{where(origin)}: {message}")
