"""Merging the values of a statement's variables from two traced blocks into a `cond` node."""

from __future__ import annotations

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph import shapes
from autoconv.graph import tensor as _tensor
from autoconv.graph.errors import StagingError, where
from autoconv.graph.tensor import format_spec
from autoconv.trace.core import messages
from autoconv.trace.core.join import SAME, plan_leaf
from autoconv.trace.core.values import Undefined, unbound
from autoconv.trace.tensors import keyed_runs, object_state, records, unions
from autoconv.trace.tensors.accumulated import ListAccum
from autoconv.trace.tensors.appends import (
    _LOOPS,
    _append,
    _NeedsAccumulator,
    _Replaced,
    _Rewritten,
    _Whole,
    one_run,
    run_spec,
)
from autoconv.trace.tensors.choices import _TAG, Choice, atom, options_of, tag_of
from autoconv.trace.tensors.leaves import (
    LEAVES,
    _as_tensor,
    _describe,
    _has_effect,
    _rebuild,
    _spec_text,
    _struct,
    _tag_for,
    _weak,
)
from autoconv.trace.tensors.nested_runs import inner_runs_of, refuse_changed_items
from autoconv.trace.tensors.optionals import Optional, lift_pair
from autoconv.trace.tensors.path_types import kinds_of, tagged
from autoconv.trace.tensors.records import layout_of
from autoconv.trace.tensors.rows import item_spec


class _Merger:
    """Merges the values of variables from two traced blocks into the outputs of a `cond`."""

    def __init__(self, labels, blocks, origin, what, names=()):
        self.labels = labels
        self.names = names  # the statement's variables, to name the converter's in messages
        self.blocks = blocks
        self.origin = origin
        self.what = what
        self.pairs = []  # (value in block 0, value in block 1, shape, dtype)
        self.node = None
        # Per block, the changes of the lists the statement carries (`(list, name, added,
        # before)`, as `TensorTracer.if_stmt` collects them): what a set's or dict's run-time
        # lists hold at the end of each block (`keyed_runs`).
        self.block_lists = ([], [])

    def _error(self, message):
        raise StagingError(f"{where(self.origin)}: {message}")

    def merge(self, name, init, a, b, expression=False):
        """Returns a merged value (leaves are ints: indices into self.pairs) or a final value."""
        if a is b:
            return ("same", a)
        a, b = lift_pair(name, a, b, self.origin)
        a_undef, b_undef = unbound(a), unbound(b)
        if a_undef or b_undef:
            if a_undef and b_undef:
                return ("same", a)
            defined, missing = (
                (self.labels[1], self.labels[0]) if a_undef else (self.labels[0], self.labels[1])
            )
            message = f"{where(self.origin)}: " + messages.defined_on_one_path(
                name, defined, missing, self.what
            )
            return ("same", Undefined(name, message))
        # Two sets or dicts, either holding run-time keys: their run-time lists (`keyed_runs`).
        a, b = keyed_runs.lift(name, a, b, self, self.names)
        if object_state.by_fields(a, b) and any(
            object_state.made_in(v, self.blocks) for v in (a, b)
        ):
            # Objects of one class, made in the branches: joined by their fields, into a new
            # object of the class (`object_state`).
            a, b = object_state.fields_of(a), object_state.fields_of(b)
        la, lb = [], []
        sa, sb = _struct(a, la), _struct(b, lb)
        name = messages.shown(name, self.names)  # from here on, for messages only
        lifted = self._one_run_each(name, a, b)
        if lifted is not None:
            a, b = lifted
            la, lb = [], []
            sa, sb = _struct(a, la), _struct(b, lb)
        if sa != sb and unions.joins(a, b):
            # A value of another kind on each path (`"silence"` or a list): which, at run time.
            return ("struct", "*", [unions.join(self, name, a, b)], (a, b))
        if sa != sb:
            self._error(
                f"{messages.named(name)} has a different structure in the {self.labels[0]} branch "
                f"({_describe(a)}) and in the {self.labels[1]} branch ({_describe(b)}) of this "
                f"{self.what}; both branches must give it the same kind of value."
            )
        leaves = []
        for j, (x, y) in enumerate(zip(la, lb)):
            leaves.append(self._leaf(f"{name}" + (f" (item {j})" if len(la) > 1 else ""), x, y))
        return ("struct", sa, leaves, (a, b))

    def _leaf(self, name, x, y):
        def fail(kind):
            if kind == "value":
                self._error(
                    f"{messages.named(name)} is {_spec_text(x)} in the {self.labels[0]} branch and "
                    f"{_spec_text(y)} in the {self.labels[1]} branch of this {self.what}. Values "
                    "that are not arrays or numbers must be the same in both branches."
                )
            text = messages.branches_disagree(
                name, _spec_text(x), _spec_text(y), self.labels, self.what, kind
            )
            self._error(text)

        if isinstance(x, ListAccum) and isinstance(y, ListAccum):
            return self._run_time_lists(name, x.tensor, y.tensor)
        if _chooses(x, y):
            return self._choice(name, x, y)
        # An f-string made at run time on one path, a str on the other (trace/tensors/printing).
        x, y = _tensor.uses.printing.text_pair(x, y, self.blocks)
        if _kinds_differ(x, y):
            return unions.join(self, name, x, y)  # a str on one path, an int on the other
        plan = plan_leaf(x, y, LEAVES, fail)
        if plan[0] == SAME:
            return ("value", x)
        if kinds_of(x) != kinds_of(y) or len(kinds_of(x)) > 1:
            return self._mixed(name, x, y, plan[1])  # a Python number on some paths
        self.pairs.append((x, y, plan[1]))
        return ("pair", len(self.pairs) - 1)

    def _choice(self, name, x, y):
        """Strings, None or other such values that differ between the branches: the one the
        path took, by a tag the `cond` gives (`choices.Choice`)."""
        options = options_of(x, y)
        graph = _g.current().graph
        tags = []
        for block, v in zip(self.blocks, (x, y)):
            with _g.build(graph, block):
                tags.append(tag_of(v, options))
        self.pairs.append((tags[0], tags[1], _TAG))
        return ("choice", len(self.pairs) - 1, options, unions.named(name, self.origin))

    def _one_run_each(self, name, a, b):
        """`(a, b)` where a list holds items known while tracing on one path and is one
        run-time list on the other (`a = lows` of a comprehension; `a` as it was), inside
        tuples and optionals too: both as run-time lists. None where there is no such list."""
        if isinstance(a, Optional) and isinstance(b, Optional):
            pair = self._one_run_each(name, a.value, b.value)
            return pair and (a.like(a.flag, pair[0]), b.like(b.flag, pair[1]))
        if type(a) is tuple and type(b) is tuple and len(a) == len(b):
            pairs = [self._one_run_each(name, x, y) or (x, y) for x, y in zip(a, b)]
            lifted = any(p[0] is not x or p[1] is not y for p, x, y in zip(pairs, a, b))
            return (tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)) if lifted else None
        if type(a) is not list or type(b) is not list:
            return None
        whole = [len(v) == 1 and isinstance(v[0], ListAccum) for v in (a, b)]
        if whole[0] == whole[1]:
            return None
        run = (a if whole[0] else b)[0].tensor
        pair = []
        for block, v, is_whole in zip(self.blocks, (a, b), whole):
            if not is_whole:
                with _g.build(block_graph(run), block):
                    t = one_run(v, name, self.origin, (tuple(run.shape[1:]), run.dtype))
                if t is None:
                    return None
                v = [ListAccum(t)]
            pair.append(v)
        return tuple(pair)

    def _whole(self, name, before, added_a, added_b) -> int:
        """A list that one branch made one run-time list (`_Whole`) and the other appended to:
        the other's list as one run-time list too, and the one the path took (its pair)."""
        whole = added_a if type(added_a) is _Whole else added_b
        like = (tuple(whole.tensor.shape[1:]), whole.tensor.dtype)
        runs = []
        for block, added in zip(self.blocks, (added_a, added_b)):
            if type(added) is _Whole:
                runs.append(added.tensor)
                continue
            if isinstance(added, _Replaced):
                content = [*before[:-1], ListAccum(added.tensor), *added]
            else:
                content = [*before, *added]
            with _g.build(block_graph(whole.tensor), block):
                runs.append(one_run(content, name, self.origin, like))
            if runs[-1] is None:
                self._error(
                    f"list `{name}` is one list of items known only when the graph runs after "
                    f"a branch of this {self.what} and holds other items after the other; give "
                    "it items of one kind (arrays or numbers of one dtype)"
                )
        return self._run_time_lists(name, *runs)[1]

    def _joined_runs(self, name, before, added_a, added_b) -> int:
        """A list holding a run-time list and items known now, `before`, that the branches
        append to: each path's content as one run-time list; returns its pair."""
        like = run_spec(before)
        graph = block_graph(next(v for v in before if isinstance(v, ListAccum)).tensor)
        runs = []
        for block, added in zip(self.blocks, (added_a, added_b)):
            with _g.build(graph, block):
                runs.append(one_run([*before, *added], name, self.origin, like))
            if runs[-1] is None:
                self._error(
                    f"list `{name}` holds items known only when the graph runs and gets items "
                    f"of another kind in a branch of this {self.what}; give it items of one "
                    "kind (arrays, numbers or tuples of them, of one dtype)"
                )
        return self._run_time_lists(name, *runs)[1]

    def _run_time_lists(self, name, a, b):
        """Two lists whose items a staged statement appended (`return i, seen` and `return n,
        seen[-3:]`): the one the path took, when the graph runs."""
        if a.dtype != b.dtype or a.ndim != b.ndim:
            self._error(
                f"{messages.named(name)} is a list of {format_spec(a.shape[1:], a.dtype)} items "
                f"in the {self.labels[0]} branch and of {format_spec(b.shape[1:], b.dtype)} "
                "items in the "
                f"{self.labels[1]} branch of this {self.what}; give it items of one kind."
            )
        self.pairs.append((a, b, (shapes.generalize(a.shape, b.shape), a.dtype, False)))
        return ("list", len(self.pairs) - 1)

    def _mixed(self, name, x, y, spec):
        """A number whose Python type differs between the branches (`-1` and `x[i]`): its
        value in the joined dtype (NumPy's weak-scalar rule: operations on it give what they
        give on the NumPy path), and a run-time tag saying which type to return or print."""
        kinds = tuple(dict.fromkeys(kinds_of(x) + kinds_of(y)))
        tags = []
        for block, v in zip(self.blocks, (x, y)):
            with _g.build(_g.current().graph, block):
                tags.append(_tag_for(v, kinds))
        self.pairs.append((x, y, spec))
        self.pairs.append((tags[0], tags[1], ((), np.dtype(np.int64), True)))
        return ("mixed", len(self.pairs) - 2, len(self.pairs) - 1, kinds, name)

    def merge_lists(self, a_lists, b_lists):
        for lists in (a_lists, b_lists):
            refuse_changed_items(lists, self.origin, f"branch of this {self.what}")
        out = []
        for (lst, name, added_a, before), (_, _, added_b, _) in zip(a_lists, b_lists):
            if type(added_a) is list and type(added_b) is list and not added_a and not added_b:
                continue
            if _Rewritten in (type(added_a), type(added_b)) and None not in (added_a, added_b):
                # Items replaced in a branch (`layers[k] = layers[k] * 2`): each item that
                # differs between the branches is chosen when the graph runs.
                a = added_a if type(added_a) is _Rewritten else [*before, *added_a]
                b = added_b if type(added_b) is _Rewritten else [*before, *added_b]
                if len(a) != len(b) and self._all_items(a, b):
                    # A stack that one branch pops and pushes and the other pushes onto
                    # (`stack.append(stack.pop() + 1)`): its whole content, one run-time list
                    # (in a staged loop that sees it: the loop carries it whole).
                    if _carried_by_loop(lst):
                        raise _NeedsAccumulator(lst, [*a, *b][:1], whole=True)
                    out.append((lst, [], "accum", self._uneven(name, a, b)))
                    continue
                if len(a) != len(b):
                    self._error(
                        f"list `{name}` has {len(a)} items after the {self.labels[0]} branch "
                        f"and {len(b)} after the {self.labels[1]} branch of this {self.what}, "
                        "which also replaces items of it. Keep its length the same in both."
                    )
                items = [
                    self.merge(f"{name}[{k}]", before[k] if k < len(before) else None, x, y)
                    for k, (x, y) in enumerate(zip(a, b))
                ]
                out.append((lst, [], "items", items))
                continue
            if _Whole in (type(added_a), type(added_b)) and None not in (added_a, added_b):
                out.append((lst, [], "accum", self._whole(name, before, added_a, added_b)))
                continue
            if added_a is None or added_b is None:
                self._error(
                    f"list `{name}` is changed in a branch of this {self.what} in a way other "
                    "than append(); only append() can be staged"
                )
            marker = before[-1] if before and isinstance(before[-1], ListAccum) else None
            if marker is not None and _carried_by_loop(lst):
                widened = _optional_of(marker.tensor, [*added_a, *added_b])
                if widened is not None:
                    # None on this path, numbers on another statement's: the loop carries
                    # the list's items as values-or-None (trace again).
                    raise _NeedsAccumulator(lst, [*added_a, *added_b], widen=widened)
                widened = inner_runs_of(marker.tensor.dtype, [*added_a, *added_b])
                if widened is not None:  # `[]` first, lists of run-time length now
                    raise _NeedsAccumulator(lst, [*added_a, *added_b], widen=widened)
            if marker is not None:
                accs = []
                for block, added in zip(self.blocks, (added_a, added_b)):
                    base = added.tensor if isinstance(added, _Replaced) else marker.tensor
                    with _g.build(block_graph(marker.tensor), block):
                        accs.append(_append(base, added, name, self.origin) if added else base)
                self.pairs.append(
                    (
                        accs[0],
                        accs[1],
                        (shapes.generalize(accs[0].shape, accs[1].shape), accs[0].dtype, False),
                    )
                )
                if accs[0].dtype != accs[1].dtype:
                    self._error(
                        f"items appended to list `{name}` have dtype {accs[0].dtype} in the "
                        f"{self.labels[0]} branch and {accs[1].dtype} in the {self.labels[1]} "
                        f"branch of this {self.what}"
                    )
                out.append((lst, before[:-1], "accum", len(self.pairs) - 1))
            elif run_spec(before) is not None:
                # A run-time list followed by items known now (a loop carries `stack` whole
                # and the body pushed `(v, i + 1)`) appended to unevenly: all of it, one
                # run-time list on each path.
                out.append((lst, [], "accum", self._joined_runs(name, before, added_a, added_b)))
            elif _carried_by_loop(lst):
                # Inside a staged loop: make the loop carry this list as a run-time list.
                raise _NeedsAccumulator(lst, [*added_a, *added_b])
            elif len(added_a) == len(added_b) and not any(
                isinstance(it, ListAccum) for it in (*added_a, *added_b)
            ):
                items = [
                    self.merge(f"{name}[{len(before) + k}]", None, x, y)
                    for k, (x, y) in enumerate(zip(added_a, added_b))
                ]
                out.append((lst, before, "items", items))
            else:
                # Different numbers of items: the appended ones become a run-time list (in a
                # staged loop, a list the body made, or one a loop variable holds: the loop
                # then carries that variable's run-time list).
                out.append((lst, before, "accum", self._uneven(name, added_a, added_b)))
        return out

    @staticmethod
    def _all_items(a, b) -> bool:
        """Whether every item of `a` and `b` can be an item of a run-time list."""
        return all(item_spec(it) is not None for it in (*a, *b))

    def _uneven(self, name, added_a, added_b) -> int:
        """A run-time list per branch holding the items it appended; returns its pair."""
        runs = [it.tensor for it in (*added_a, *added_b) if isinstance(it, ListAccum)]
        items = [it for it in (*added_a, *added_b) if not isinstance(it, ListAccum)]
        specs = [item_spec(it) for it in items]
        for it, spec in zip(items, specs):
            if spec is None:
                self._error(
                    f"{_list_text(name)} gets {len(added_a)} item(s) appended in the "
                    f"{self.labels[0]} branch and {len(added_b)} in the {self.labels[1]} "
                    f"branch of this {self.what}, so its length is known only when the graph "
                    "runs; that needs arrays, numbers or tuples of them as items, not "
                    f"{_spec_text(it)}."
                )
        shapes_ = [tuple(r.shape[1:]) for r in runs] + [spec[0] for spec in specs]
        elem = shapes_[0]
        for shape in shapes_[1:]:
            if len(shape) != len(elem):
                self._error(f"items appended to list `{name}` differ in number of dimensions")
            elem = shapes.generalize(elem, shape)
        dtype = next((r.dtype for r in runs), None) or next(
            (spec[1] for it, spec in zip(items, specs) if not _weak(it)), None
        )
        dtype = dtype if dtype is not None else specs[0][1]
        if any(r.dtype != dtype for r in runs):
            self._error(f"items appended to list `{name}` differ in dtype")
        graph = _g.current().graph
        accs = []
        for block, added in zip(self.blocks, (added_a, added_b)):
            with _g.build(graph, block):
                accs.append(one_run(added, name, self.origin, (elem, dtype)))
        self.pairs.append((accs[0], accs[1], ((None, *elem), dtype, False)))
        return len(self.pairs) - 1

    def finish(self, cond):
        node = _g.Node("cond", "cond", args=(cond,))
        graph = _g.current().graph
        for k, block in enumerate(self.blocks):
            with _g.build(graph, block):
                block.outputs = [_as_tensor(pair[k], pair[2]) for pair in self.pairs]
        node.blocks = list(self.blocks)
        node.effect = any(_has_effect(b) for b in self.blocks)
        _g.add_node(node, [p[2] for p in self.pairs], self.origin)
        self.node = node

    def _resolve_leaf(self, leaf):
        if leaf[0] == "value":
            return leaf[1]
        if leaf[0] == "list":
            return ListAccum(self.node.outputs[leaf[1]])
        if leaf[0] == "choice":
            _, index, options, name = leaf
            return Choice(self.node.outputs[index], options, name)
        if leaf[0] == "union":
            return unions.resolve(self.node, leaf)
        if leaf[0] == "mixed":
            _, value, tag, kinds, name = leaf
            return tagged(self.node.outputs[value], self.node.outputs[tag], kinds, name)
        return self.node.outputs[leaf[1]]

    def resolve(self, merged):
        if merged[0] == "same":
            return merged[1]
        _, struct, leaves, originals = merged
        return _rebuild(struct, [self._resolve_leaf(leaf) for leaf in leaves], originals)

    def resolve_lists(self, results):
        for lst, prefix, kind, data in results:
            if kind == "accum":
                lst[:] = [*prefix, ListAccum(self.node.outputs[data])]
            else:
                lst[:] = [*prefix, *(self.resolve(item) for item in data)]


def _chooses(x, y) -> bool:
    """Whether leaves `x` and `y` join as a Choice: either is one, or both are atoms (strings,
    None, ...) that differ."""
    if isinstance(x, Choice) or isinstance(y, Choice):
        return (isinstance(x, Choice) or atom(x)) and (isinstance(y, Choice) or atom(y))
    return atom(x) and atom(y) and not (x is y or (type(x) is type(y) and x == y))


def _kinds_differ(x, y) -> bool:
    """Whether leaves `x` and `y` join as a `unions.Union`: either is one, or they are values
    of different kinds (a str and a number, two objects) that can be alternatives."""
    if isinstance(x, unions.Union) or isinstance(y, unions.Union):
        return unions.joins(x, y)
    if unions.is_object(x) or unions.is_object(y):
        return x is not y and unions.joins(x, y)  # objects by identity: equal ones too
    if LEAVES.numeric(x) and LEAVES.numeric(y) or LEAVES.same(x, y):
        return False
    return unions.joins(x, y)


def _carried_by_loop(lst) -> bool:
    """Whether the staged loop being traced sees list `lst` (it may carry it as a run-time
    list)."""
    return bool(_LOOPS) and any(lst is seen for seen, _, _ in _LOOPS[-1])


def block_graph(t):
    return t.graph


def _optional_of(acc, items):
    """The row dtype of values-or-None for the run-time list `acc` of numbers or arrays when
    `items` appended to it hold None (or values-or-None); else None."""
    if layout_of(acc.dtype) is not None or acc.dtype.kind == "O":
        return None
    if not any(it is None or isinstance(it, Optional) for it in items):
        return None
    elem = tuple(acc.shape[1:])
    if None in elem:
        return None
    like = np.zeros(elem, acc.dtype) if elem else acc.dtype.type(0)
    return records.optional_dtype([like, *items])


def _list_text(name: str) -> str:
    """`list `out``, or what a list with no name of the user's is: a comprehension's."""
    return f"list `{name}`" if name else "the list this comprehension (or `filter`/`map`) builds"
