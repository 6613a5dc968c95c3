"""Plans for the variables of a staged statement: which leaves stay Python, which are outputs.

`plan_pair` compares two sides (the branches of an `if`, or a loop's state before and after an
iteration) variable by variable; `outputs` lists one side's leaves that the staged statement
returns, cast as the plan says; `rebuild` puts the variables back together from the outputs.
"""

from __future__ import annotations

import jax.numpy as jnp

from autoconv.trace.jax import state as st


class Retry(st._Retry):
    """Raised from inside a trace when its outputs were guessed wrong: trace again with
    `plans`. (Derives from Exception only so that JAX passes it through unchanged.)"""

    def __init__(self, plans):
        super().__init__("autoconv: internal retry")
        self.plans = plans


def plan_pair(first, second, names, fail):
    """Per variable: `(kind, treedef, leaf_plans)`; `fail(name, detail)` raises a mismatch.

    `first` and `second` are lists of `state.entry` tuples. Leaves that are the same pair of
    objects as an earlier output become aliases of it (one output for both), which keeps a
    `retval` flag and `do_return` the very same tracer through staged statements.
    """
    plans, seen = [], {}
    for name, (ka, ta, la), (kb, tb, lb) in zip(names, first, second):
        if ka == st._UNDEF or kb == st._UNDEF:
            if ka != kb:
                fail(name, ("undefined", 0 if ka == st._UNDEF else 1))
            plans.append((st._UNDEF, None, ()))
            continue
        if st.optional_pair((ka, ta, la), (kb, tb, lb)):
            (ta, la), (tb, lb) = (
                st.as_maybe((ka, ta, la), (kb, tb, lb)),
                st.as_maybe((kb, tb, lb), (ka, ta, la)),
            )
            if ta != tb:
                fail(name, f"structure: None or {ta} and None or {tb}")
            kind, treedef = (st._UNBOUND if st._UNBOUND in (ka, kb) else st._MAYBE), ta
        elif ka == st._NONE and kb == st._NONE:
            plans.append((st._NONE, None, ()))
            continue
        elif ka != kb or ta != tb:
            fail(name, f"structure: {_describe(ka, ta, la)} and {_describe(kb, tb, lb)}")
        else:
            kind, treedef = ka, ta
        leaf_plans = []
        for a, b in zip(la, lb):
            plan = st.leaf_plan(a, b, lambda detail, name=name: fail(name, detail))
            if plan[0] == st.DYN:
                key = (id(a), id(b), plan[1])
                if key in seen:
                    plan = ("alias", seen[key])
                else:
                    seen[key] = len(seen)
            leaf_plans.append(plan)
        plans.append((kind, treedef, leaf_plans))
    return plans


def _describe(kind, treedef, leaves):
    if kind == st._NONE:
        return "None"
    if kind in st._OPTIONAL:
        return "None or an array" if kind == st._MAYBE else "unbound or an array"
    if treedef is not None and treedef.num_nodes == 1 and treedef.num_leaves == 1:
        return st.spec(leaves[0])
    return f"a structure {treedef}"


def side_leaves(plan, entry, other=None):
    """One side's leaves of a variable under its plan: None against a value is an absent
    `Maybe` (zeros of the planned dtypes and shapes), a value a present one."""
    if plan[0] not in st._OPTIONAL or entry[0] in st._OPTIONAL:
        return entry[2]
    if entry[0] in (st._NONE, st._UNDEF):
        zeros = (jnp.zeros(lp[2], lp[1]) if lp[0] == st.DYN else None for lp in plan[2][1:])
        return (False, *zeros)
    return (True, *entry[2])


def outputs(plans, entries):
    """The leaves one side returns from the staged statement, cast to the plan's dtypes."""
    out = []
    for plan, entry in zip(plans, entries):
        for leaf_plan, leaf in zip(plan[2], side_leaves(plan, entry)):
            if leaf_plan[0] == st.DYN:
                out.append(st.cast(leaf, leaf_plan[1], len(leaf_plan) > 3 and leaf_plan[3]))
    return out


def rebuild(plans, first, second, outs, names, choose, natural=False):
    """The merged variables: outputs where the plan says DYN (or alias), the first side's
    leaf where SAME, and `choose(first_leaf)` (the condition or its negation) where PRED.
    `natural`: the outputs were returned without a plan (see `natural_ok`): one per array."""
    outs = list(outs)
    values, dyn = [], 0
    for name, plan, ea, eb in zip(names, plans, first, second):
        kind, treedef, leaf_plans = plan
        if kind == st._UNDEF:
            values.append(ea[1])
            continue
        leaves = []
        for leaf_plan, a in zip(leaf_plans, side_leaves(plan, ea, eb)):
            tag = leaf_plan[0]
            if natural and st.is_array(a):
                leaves.append(outs[dyn])
                dyn += 1
            elif tag == st.SAME:
                leaves.append(a)
            elif tag == st.PRED:
                leaves.append(choose(leaf_plan[1]))
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
        if plan[0] in st._OPTIONAL and (ea[0] != plan[0] or eb[0] != plan[0]):
            return False
        for leaf_plan, a, b in zip(plan[2], ea[2], eb[2]):
            if leaf_plan[0] == "alias":
                return False  # one output for two leaves needs a plan
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
