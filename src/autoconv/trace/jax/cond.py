"""`if` statements and conditional values on JAX tracers, staged to `lax.cond`.

Both branches are traced from the state before the `if`; their variables are merged as
`merge.plan_pair` says. The first trace returns every array leaf as it is; when that guess is
wrong (a Python number that one branch changes, None against an array), the branches are traced
once more with the plan.
"""

from __future__ import annotations

from jax import lax

from autoconv.runtime import staging
from autoconv.runtime.staged_locals import StagedLocals
from autoconv.runtime.unbound import unbound_error
from autoconv.trace.core import messages
from autoconv.trace.core.hidden import HiddenState, carrying
from autoconv.trace.jax import effects, logical, merge
from autoconv.trace.jax import state as st
from autoconv.trace.jax.frames import named_after


class Box:
    """One mutable value shared by closures (not a list: lists that traced code changes are
    errors, see `effects`)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def call_body(fn, *args):
    """`fn(*args)` with the runtime's error for a local read before assignment."""
    try:
        return fn(*args)
    except NameError as e:
        new = unbound_error(e)
        if new is None:
            raise
        raise new from None


def resolve(values):
    """`values` with what the branch being traced knows put in: a flag known here becomes a
    Python bool, and a `Maybe` whose flag is known its value or None."""
    facts = logical._facts
    if not facts and not any(isinstance(v, st.Maybe) for v in values):
        return values
    out = []
    for v in values:
        if isinstance(v, st.Maybe):
            fact = logical.known(v.present)
            if fact is not None:
                v = v.value if fact else (staging._Undefined(v.name) if v.unbound else None)
        elif facts:
            fact = facts.get(id(v))
            if fact is not None and fact[0] is v:
                v = fact[1]
        out.append(v)
    return tuple(out)


def staged_cond(p, branches, read, write, names, origin, what, labels, state_keys=None):
    """Runs the two `branches` (callables updating the variables `names` through closures,
    None for an empty branch) under `lax.cond(p, ...)`; `read()` / `write(values)` get and set
    the variables; `state_keys`: the items among them (`effects.state_items`)."""
    start = resolve(read())
    saved = StagedLocals(branches)
    hidden = HiddenState(branches, names)
    fail = _failer(origin, what, labels, names)

    def lift(values, others, side):
        def why(name, k):  # a variable that branch `k` leaves unbound, used where not known
            return messages.defined_on_one_path(name, labels[1 - k], labels[k], what)

        return merge.lifted(names, values, others, side, origin, why)

    plans = others = None  # the second trace's: the plans, and each side's first-trace values
    for _attempt in range(3):
        records = [None, None]  # each side's entries (of values lifted as the plan says)

        def branch(k, plans=plans, others=others, records=records):
            def traced():
                branch_name = f"the {labels[k]} branch of this {what}"
                fns = (branches[k],)
                with logical.assuming(p, k == 0), st.user_code(origin, branch_name):
                    with effects.unchanged_containers(
                        fns, origin, branch_name, state_keys, hidden=hidden
                    ):
                        hidden.undo()  # first: a helper's change may be in a cell `saved` resets
                        saved.start()
                        write(start)
                        if branches[k] is not None:
                            call_body(branches[k])
                        values = resolve(read())
                if plans is not None:
                    records[k] = [st.entry(v) for v in lift(values, others[k], k)]
                    return merge.outputs(plans, records[k])
                records[k] = values
                if k == 0:
                    return merge.natural_outputs([st.entry(v) for v in values])
                first, second = lift(records[0], values, 0), lift(values, records[0], 1)
                ea, eb = [st.entry(v) for v in first], [st.entry(v) for v in second]
                found = merge.plan_pair(ea, eb, names, fail)
                alike = all(x is y for x, y in zip(first, records[0])) and all(
                    x is y for x, y in zip(second, values)
                )
                if not alike or not merge.natural_ok(found, ea, eb):
                    raise merge.Retry((found, (values, records[0])))
                records[:] = [ea, eb]
                return merge.natural_outputs(eb)

            return named_after(traced, branches[k] or branches[0])  # in JAX's messages

        try:
            outs = lax.cond(p, branch(0), branch(1))
        except merge.Retry as retry:
            plans, others = retry.plans
            continue
        except BaseException:
            saved.finish()
            raise
        break
    else:  # pragma: no cover - the second trace follows its plan
        raise AssertionError("autoconv: staging an `if` did not settle")
    final = plans or merge.plan_pair(records[0], records[1], names, fail)
    negation = []

    def choose(first_value):
        if first_value:
            return p
        if not negation:
            negation.append(logical.negate(p))
        return negation[0]

    values = merge.rebuild(final, records[0], outs, names, choose, plans is None)
    saved.finish()
    hidden.undo()
    refs = hidden.carried() if hidden.changed else None
    if refs:
        # A function a branch calls changes a `nonlocal` variable or an attribute: stage the
        # `if` again with it among its variables, which merges it as theirs (as graph mode).
        write(start)
        get, put = carrying(read, write, refs)
        carried = (*(name for name, _, _ in refs), *names)
        both = staged_cond(p, branches, get, put, carried, origin, what, labels, state_keys)
        return both[len(refs) :]
    hidden.check(lambda m: st.fail(origin, m), what)
    write(values)
    return values


def _failer(origin, what, labels, names=()):
    def fail(name, detail):
        if type(detail) is tuple:  # ("undefined", index of the branch without it)
            missing, defined = labels[detail[1]], labels[1 - detail[1]]
            st.fail(
                origin,
                messages.defined_on_one_path(messages.shown(name, names), defined, missing, what),
            )
        st.fail(
            origin,
            f"{messages.named(messages.shown(name, names))} differs between the {labels[0]} "
            f"branch and the {labels[1]} branch of this {what} (staged by JAX): {detail}.",
        )

    return fail


def if_stmt(cond, body, orelse, get_state, set_state, names):
    """`if cond:` with a tracer `cond`."""
    origin = st.user_origin()
    fact = logical.known(cond)
    if fact is not None:
        fn = body if fact else orelse
        if fn is not None:
            call_body(fn)
        return
    p = logical.pred(cond, origin)
    if get_state is None or not names:
        read, write, names = tuple, _ignore, ()
    else:

        def read():
            return st.read_state(get_state, names)

        def write(values):
            st.write_state(get_state, set_state, names, values)

    keys = effects.state_items(get_state, names)
    staged_cond(p, (body, orelse), read, write, names, origin, "`if`", ("if", "else"), keys)


def _ignore(values):
    pass


def staged_value(p, if_true, if_false, origin, what):
    """`if_true() if p else if_false()` staged, for a bool tracer `p`."""
    box = Box(None)

    def side(fn):
        def run():
            box.value = fn()

        return run

    def write(values):
        box.value = values[0]

    values = staged_cond(
        p,
        (side(if_true), side(if_false)),
        lambda: (box.value,),
        write,
        (f"the value of this {what}",),
        origin,
        what,
        ("true", "false"),
    )
    return values[0]


def if_exp(cond, if_true, if_false):
    """`if_true() if cond else if_false()` with a tracer `cond`."""
    origin = st.user_origin()
    fact = logical.known(cond)
    if fact is not None:
        return call_body(if_true if fact else if_false)
    return staged_value(
        logical.pred(cond, origin), if_true, if_false, origin, "conditional expression"
    )
