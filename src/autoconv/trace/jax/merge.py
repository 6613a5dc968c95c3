"""Plans for the variables of a staged statement: which leaves stay Python, which are outputs.

`plan_pair` compares two sides (the branches of an `if`, or a loop's state before and after an
iteration) variable by variable; `outputs` lists one side's leaves that the staged statement
returns, cast as the plan says; `rebuild` puts the variables back together from the outputs.
"""

from __future__ import annotations

from autoconv.runtime import staging
from autoconv.trace.jax import choices
from autoconv.trace.jax import state as st

CHOICE = "choice"  # two atoms (strings, None, ...): the tag of the one chosen (`choices`)


class Retry(st._Retry):
    """Raised from inside a trace when its outputs were guessed wrong: trace again with
    `plans`. (Derives from Exception only so that JAX passes it through unchanged.)"""

    def __init__(self, plans):
        super().__init__("autoconv: internal retry")
        self.plans = plans


def lifted(names, values, others, side, origin=None, why=None):
    """`values` (one side's variables) made alike to `others` (the other side's) where one
    leaves a variable None or unbound (`state.lift_pair`); `side`: 0 when `values` is the
    first side. `why(name, k)`: the message for a variable that side `k` leaves unbound, used
    where its flag is not known."""
    out = []
    for name, v, o in zip(names, values, others):
        a, b = (v, o) if side == 0 else (o, v)
        la, lb = st.lift_pair(name, a, b, origin)
        value = (la, lb)[side]
        if why is not None and isinstance(value, st.Maybe) and value.missing is not None:
            k = 0 if staging.is_undefined(a) else 1 if staging.is_undefined(b) else None
            if k is not None:
                value.why = why(name, k)
        out.append(value)
    return out


def plan_pair(first, second, names, fail):
    """Per variable: `(kind, treedef, leaf_plans)`; `fail(name, detail)` raises a mismatch.

    `first` and `second` are lists of `state.entry` tuples (of lifted values). Leaves that are
    the same pair of objects as an earlier output become aliases of it (one output for both),
    which keeps a `retval` flag and `do_return` the very same tracer through staged statements.
    """
    plans, seen = [], {}
    for name, (ka, ta, la), (kb, tb, lb) in zip(names, first, second):
        if ka == st._UNDEF or kb == st._UNDEF:
            if ka != kb:
                fail(name, ("undefined", 0 if ka == st._UNDEF else 1))
            plans.append((st._UNDEF, None, ()))
            continue
        if ta != tb:
            whole = _whole_choice(ta, la, tb, lb)
            if whole is not None:  # None on one path, a string on the other
                plans.append(whole)
                continue
            fail(name, f"structure: {_describe(ta, la)} and {_describe(tb, lb)}")
        leaf_plans = []
        for a, b in zip(la, lb):
            if choices.merges(a, b):  # two strings (or None, ...): the one chosen (`Choice`)
                leaf_plans.append((CHOICE, choices.options_of(a, b)))
                continue
            plan = st.leaf_plan(a, b, lambda detail, name=name: fail(name, detail))
            if plan[0] == st.DYN:
                key = (id(a), id(b), plan[1])
                if key in seen:
                    plan = ("alias", seen[key])
                else:
                    seen[key] = len(seen)
            leaf_plans.append(plan)
        plans.append((ka, ta, leaf_plans))
    return plans


def _whole_choice(ta, la, tb, lb):
    """The plan of a variable that is None on one path and a string (or a Choice) on the
    other: one leaf, the tag of the option chosen (None flattens to no leaf at all)."""

    def alone(treedef, leaves):  # the value when it is None or one leaf; () otherwise
        if treedef.num_nodes != 1:
            return ()
        return None if treedef.num_leaves == 0 else leaves[0]

    a, b = alone(ta, la), alone(tb, lb)
    if (a is not None and b is not None) or not choices.merges(a, b):
        return None
    leaf = ta if a is not None else tb
    return (st._TREE, leaf, [(CHOICE, choices.options_of(a, b))])


def _leaves(plan, entry):
    """An entry's leaves as `plan` takes them: None (no leaf) where the plan is a choice."""
    leaves = entry[2]
    if not leaves and len(plan[2]) == 1 and plan[2][0][0] == CHOICE:
        return (None,)
    return leaves


def _describe(treedef, leaves):
    """A value's kind as messages say it, from its flattened form."""
    if treedef.num_nodes == 1 and treedef.num_leaves == 1:
        return st.spec(leaves[0])
    return st.spec(st.rebuild(st._TREE, treedef, leaves, "value"))


def outputs(plans, entries):
    """The leaves one side returns from the staged statement, cast to the plan's dtypes."""
    out = []
    for plan, entry in zip(plans, entries):
        for leaf_plan, leaf in zip(plan[2], _leaves(plan, entry)):
            if leaf_plan[0] == st.DYN:
                out.append(st.cast(leaf, leaf_plan[1], len(leaf_plan) > 3 and leaf_plan[3]))
            elif leaf_plan[0] == CHOICE:
                out.append(choices.tag_of(leaf, leaf_plan[1]))
    return out


def rebuild(plans, first, outs, names, choose, natural=False):
    """The merged variables: outputs where the plan says DYN (or alias), the first side's
    leaf where SAME, and `choose(first_leaf)` (the condition or its negation) where PRED.
    `natural`: the outputs were returned without a plan (see `natural_ok`): one per array."""
    outs = list(outs)
    values, dyn = [], 0
    for name, plan, ea in zip(names, plans, first):
        kind, treedef, leaf_plans = plan
        if kind == st._UNDEF:
            values.append(ea[1])
            continue
        leaves = []
        for leaf_plan, a in zip(leaf_plans, _leaves(plan, ea)):
            tag = leaf_plan[0]
            if natural and st.is_array(a):
                leaves.append(outs[dyn])
                dyn += 1
            elif tag == st.SAME:
                leaves.append(a)
            elif tag == st.PRED:
                leaves.append(choose(leaf_plan[1]))
            elif tag == CHOICE:
                leaves.append(choices.Choice(outs[dyn], leaf_plan[1], name))
                dyn += 1
            elif tag == st.DYN:
                leaves.append(outs[dyn])
                dyn += 1
            else:
                leaves.append(outs[leaf_plan[1]])
        values.append(st.rebuild(kind, treedef, leaves, name))
    return tuple(values)


def natural_ok(plans, first, second) -> bool:
    """Whether outputs returned without a plan (every array leaf as it is, every other leaf
    kept Python) already follow `plans`."""
    for plan, ea, eb in zip(plans, first, second):
        for leaf_plan, a, b in zip(plan[2], _leaves(plan, ea), _leaves(plan, eb)):
            if leaf_plan[0] in ("alias", CHOICE):
                return False  # one output for two leaves, or a tag, needs a plan
            if leaf_plan[0] == st.DYN:
                if not (st.is_array(a) and st.is_array(b)):
                    return False
                if st.aval(a) != st.aval(b) or st.weak(a) != st.weak(b):
                    return False
            elif st.is_array(a) != st.is_array(b):
                return False
    return True


def natural_outputs(entries):
    """Every array leaf as it is (the first guess, before any plan)."""
    return [leaf for entry in entries for leaf in entry[2] if st.is_array(leaf)]
