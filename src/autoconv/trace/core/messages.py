"""The errors of staged state, worded once for both tracers."""

from __future__ import annotations


def named(name: str) -> str:
    """A variable's name as messages show it: `x`, or a description ("the `max()` choice's
    value") as it is."""
    return name if name.startswith("the ") else f"`{name}`"


def defined_on_one_path(name: str, defined: str, missing: str, what: str) -> str:
    return (
        f"{named(name)} is defined in the {defined} branch of this {what} but not in the {missing} "
        f"branch, and it is used after it. Give it a value before the {what} or in the "
        f"{missing} branch too."
    )


def branches_disagree(name: str, first: str, second: str, labels, what: str, kind: str) -> str:
    return (
        f"{named(name)} is {first} in the {labels[0]} branch but {second} in the {labels[1]} "
        f"branch of this {what}: the branches must agree in {kind}. Cast one of them (e.g. "
        f".astype(...)) so both give the same {kind}."
    )


def iteration_changes(name: str, before: str, after: str, what: str, kind: str) -> str:
    return (
        f"{named(name)} is {before} before an iteration of this {what} but {after} after it: its "
        f"{kind} must stay the same. Give it the loop's dtype before the loop (e.g. "
        "np.float32(0)) or cast it in the body (.astype(...))."
    )


def not_bound_before_loop(name: str, what: str) -> str:
    return (
        f"`{name}` is not defined before this {what} but an iteration gives it a value, and a "
        f"staged {what} may run no iteration. Give it a value before the {what}."
    )
