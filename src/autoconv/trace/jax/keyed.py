"""Dict items keyed by a value a traced condition chose (`counts[label] += 1` with `label =
"big" if v > 2 else "small"`), under JAX (issue 24). The key is a `Choice`: one of a few
Python values, picked by a tag when the program runs. Reading `d[key]` picks the option's value
by the tag (`jnp.stack(values)[tag]`); writing `d[key] = v` changes every option's entry,
where it is the one chosen (`jnp.where(tag == k, v, old)`), so the dict keeps its keys on every
path, as a staged statement needs. A key missing for some option (eagerly a `KeyError`, or a
key added, on that path only) is an error naming it: a JAX program cannot raise, nor add keys,
when it runs.
"""

from __future__ import annotations

import jax.numpy as jnp

from autoconv.trace.jax import choices
from autoconv.trace.jax import state as st


def item(target: dict, key):
    """`target[key]`: the chosen option's value (the values of one shape, joined dtype)."""
    if not isinstance(key, choices.Choice):
        return target[key]
    values = [_present(target, key, option, "reading") for option in key.options]
    if all(v is values[0] for v in values):
        return values[0]
    if not all(st.is_array(v) or type(v) in (bool, int, float, complex) for v in values):
        key._fail("reading `d[key]` whose values are not all numbers or arrays")
    shapes = {jnp.shape(v) for v in values}
    if len(shapes) != 1:
        key._fail(f"reading `d[key]` whose values have different shapes ({sorted(shapes)})")
    return jnp.stack([jnp.asarray(v) for v in values])[key.tag]


def setitem(target: dict, key, value) -> dict:
    """`target[key] = value`: each option's entry, changed where that option is chosen."""
    if not isinstance(key, choices.Choice):
        target[key] = value
        return target
    olds = [_present(target, key, option, "writing") for option in key.options]
    for k, (option, old) in enumerate(zip(key.options, olds)):
        target[option] = jnp.where(key.tag == k, value, old)
    return target


def _present(target: dict, key, option, what: str):
    if option not in target:
        key._fail(
            f"{what} `d[key]` of a dict with no key {option!r} (eagerly a KeyError, or a key "
            "added, on that path only; give every option a key before),"
        )
    return target[option]
