"""The errors of staged state, worded once for both tracers."""

from __future__ import annotations


def named(name: str) -> str:
    """A variable's name as messages show it: `x`, or a description ("the `max()` choice's
    value") as it is."""
    return name if name.startswith("the ") else f"`{name}`"


# The converter's own variables (pyct's namer adds `_1`, `_2` where the user has the name):
# a description in messages, never the name the user did not write.
_CONVERTER_NAMES = {
    "retval": "the function's return value",
    "do_return": "whether the function has returned",
    "break_": "whether the loop has run `break`",
    "continue_": "whether the iteration has run `continue`",
}


def shown(name: str, names=()) -> str:
    """How messages name variable `name` of a statement whose variables are `names`: the
    converter's return value (with its `do_return` flag among `names`) and its `break` and
    `continue` flags by what they are; a user's variable by its name."""
    base = name.rstrip("0123456789").rstrip("_") if name[-1:].isdigit() else name
    what = _CONVERTER_NAMES.get(base) or _CONVERTER_NAMES.get(base + "_")
    if what is None:
        return name
    return what  # (a user's own `retval` makes the converter's `retval_1`, named alike)


def defined_on_one_path(name: str, defined: str, missing: str, what: str) -> str:
    return (
        f"{named(name)} is defined in the {defined} branch of this {what} but not in the {missing} "
        f"branch, and it is used after it. Give it a value before the {what} or in the "
        f"{missing} branch too."
    )


def _dims(spec: str):
    """The number of dimensions a spec's text shows (`float32[None, 3]`: 2; `int`, a Python
    number: 0), or None for a value that is not an array or a number."""
    if spec in ("bool", "int", "float", "complex"):
        return 0
    if spec.endswith("]") and "[" in spec:
        inner = spec[spec.rindex("[") + 1 : -1]
        return inner.count(",") + 1 if inner.strip() else 0
    return None


def _both(kind: str, first: str, second: str) -> str:
    """`kind`, with the number of dimensions added when that disagrees too (the join checks
    the dtype first: a fix of the dtype alone would lead straight to a second error)."""
    a, b = _dims(first), _dims(second)
    if kind == "dtype" and a is not None and b is not None and a != b:
        return "dtype and number of dimensions"
    return kind


_RESHAPE = "reshape or broadcast one of them (e.g. .reshape(...), np.broadcast_to(...))"


def _fix(kind: str) -> str:
    if kind == "dtype":
        return "Cast one of them (e.g. .astype(...))"
    if kind == "dtype and number of dimensions":
        return f"Cast one of them (e.g. .astype(...)) and {_RESHAPE}"
    return _RESHAPE[0].upper() + _RESHAPE[1:]


def branches_disagree(name: str, first: str, second: str, labels, what: str, kind: str) -> str:
    kind = _both(kind, first, second)
    return (
        f"{named(name)} is {first} in the {labels[0]} branch but {second} in the {labels[1]} "
        f"branch of this {what}: the branches must agree in {kind}. {_fix(kind)} so both give "
        f"the same {kind}."
    )


def iteration_changes(name: str, before: str, after: str, what: str, kind: str) -> str:
    kind = _both(kind, before, after)
    cast = "Give it the loop's dtype before the loop (e.g. np.float32(0)) or cast it in the body"
    reshape = "give it the same shape before the loop and after each iteration (e.g. .reshape"
    reshape += "(...), np.broadcast_to(...))"
    if kind == "dtype":
        fix = f"{cast} (.astype(...))"
    elif kind == "dtype and number of dimensions":
        fix = f"{cast} (.astype(...)), and {reshape}"
    else:
        fix = reshape[0].upper() + reshape[1:]
    return (
        f"{named(name)} is {before} before an iteration of this {what} but {after} after it: its "
        f"{kind} must stay the same. {fix}."
    )


def not_bound_before_loop(name: str, what: str) -> str:
    return (
        f"`{name}` is not defined before this {what} but an iteration gives it a value, and a "
        f"staged {what} may run no iteration. Give it a value before the {what}."
    )
