"""Python values that a staged condition chooses under JAX: `mode = "abs" if x[0] > 0 else
"square"`, then `if mode == "abs":`. As graph mode's (`trace.tensors.choices`), a `Choice` is
one of a few Python values fixed while tracing (`options`: strings, bytes, None, enum members,
types), picked by `tag`, an int32 JAX value. A staged `if` merges two different options into
one (`state.leaf_plan`); comparing it (`==`, `!=`, `is None`), its truth and its methods
(`mode.upper()`) apply to every option now (`trace.core.choices.mapped_results`): a new Choice,
one Python value, or numbers picked from a table by the tag. A use that needs the one value
while tracing (returning it from `jax.jit`, a dict key, `str()`, `print`) is an error naming
it: under JAX the chosen value is known only when the program runs.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from autoconv.runtime import staging
from autoconv.trace.core import choices as core
from autoconv.trace.jax import state as st


class Choice(core.MapsOptions):
    """One of `options`, the one `tag` (an int32 JAX value) indexes when the program runs."""

    __slots__ = ("tag", "options", "ac_name", "origin")

    def __init__(self, tag, options: tuple, name: str = "value", origin=None):
        self.tag = tag
        self.options = options
        self.ac_name = name  # not `name`: an enum member's `.name` is read through it
        self.origin = origin or st.user_origin()  # the statement that chose it

    def __repr__(self):
        return f"<{' or '.join(repr(o) for o in self.options)}, chosen when JAX runs>"

    def _fail(self, use, origin=None):
        st.fail(
            origin or st.user_origin(),
            f"{_shown(self.ac_name)} is {' or '.join(repr(o) for o in self.options)}, chosen by a "
            f"condition JAX knows only when the program runs, and {use} needs the one value "
            "while tracing. Compare it instead (`if label == 'pos':`), or keep a number or an "
            "array (an index into the options) and choose the text outside `jax.jit`.",
        )

    def _map(self, fn, what):
        return mapped(self, fn, what)

    def _operand(self, other, option):
        return _value_of(other, option)

    def __eq__(self, other):
        if isinstance(other, Choice):
            return pairwise(self, other, lambda a, b: core.same_atom(a, b))
        return core.MapsOptions.__eq__(self, other)

    def __ne__(self, other):
        if isinstance(other, Choice):
            return pairwise(self, other, lambda a, b: not core.same_atom(a, b))
        return core.MapsOptions.__ne__(self, other)

    def __add__(self, other):
        if isinstance(other, Choice):
            paired = _paired(self, other)
            if paired is not None:
                return paired
        return core.MapsOptions.__add__(self, other)

    def __hash__(self):
        self._fail("a dict key or a set item")

    def __str__(self):
        self._fail("`str()` or `print`")

    def __format__(self, spec):
        self._fail("formatting it")

    def __bool__(self):
        self._fail("its truth outside a converted `if`")

    def __len__(self):
        self._fail("`len()`")

    def __iter__(self):
        self._fail("iterating over it")


def _paired(a: Choice, b: Choice):
    """`a + b` of strings two staged conditions chose: a Choice among the joined strings,
    picked by both tags (None where an option is not a string, or for more than 64 pairs)."""
    if not all(type(o) is str for o in (*a.options, *b.options)):
        return None
    joined = [x + y for x in a.options for y in b.options]
    if len(joined) > 64:
        return None
    options = options_of(*joined)
    remap = jnp.asarray([options.index(j) for j in joined], jnp.int32)
    return Choice(remap[a.tag * len(b.options) + b.tag], options, a.ac_name, a.origin)


def pairwise(a: Choice, b: Choice, compare):
    """`compare` of two values chosen by different conditions (`mode == other`): a bool where
    every pair of options agrees, else a table picked by both tags when the program runs."""
    table = [[compare(x, y) for y in b.options] for x in a.options]
    flat = {v for row in table for v in row}
    if len(flat) == 1:
        return flat.pop()
    return jnp.asarray(table)[a.tag, b.tag]


def _shown(name: str) -> str:
    """A variable's name in backquotes; a description (`the value of this ...`) as it is."""
    return name if " " in name else f"`{name}`"


def _value_of(other, option):
    """`other` for comparing with `option` (two Choices compare by `_pairwise`)."""
    if isinstance(other, Choice):
        raise TypeError("comparing two values chosen by different conditions")
    return other


def mapped(choice: Choice, fn, what: str):
    """`fn` applied to every option: one value, a new Choice with the same tag, or numbers
    picked from a table by the tag."""
    try:
        results = [fn(o) for o in choice.options]
    except st.JaxStagingError:
        raise
    except Exception as e:  # the operation fails on some option: eagerly it may not
        st.fail(
            st.user_origin(),
            f"{_shown(choice.ac_name)} is {' or '.join(repr(o) for o in choice.options)}, chosen "
            f"by a condition JAX knows only when the program runs, and {what} of one of them "
            f"raises {type(e).__name__}: {e}",
        )
    kind = core.mapped_results(results)
    if kind == "one":
        return results[0]
    if kind == "choice":
        return Choice(choice.tag, tuple(results), choice.ac_name, choice.origin)
    if kind == "table":
        return jnp.asarray(results)[choice.tag]
    choice._fail(f"{what}, which gives values that are not strings or numbers of one type,")


def truth(choice: Choice):
    """`bool(choice)` when the program runs: a bool JAX value (or a bool, if all agree)."""
    return mapped(choice, bool, "its truth")


def is_none(choice: Choice):
    return mapped(choice, lambda o: o is None, "`is None`")


def merges(a, b) -> bool:
    """Whether leaves `a` and `b` of two paths merge as a Choice: atoms or Choices, not the
    same value."""
    if a is b:
        return False
    if not (carries(a) and carries(b)):
        return False
    if isinstance(a, Choice) and isinstance(b, Choice):  # (never `==`: a traced bool)
        return not (a.tag is b.tag and a.options == b.options)
    return not core.same_atom(a, b)


def carries(value) -> bool:
    """Whether `value` can be one of a Choice's options (or is a Choice)."""
    return isinstance(value, Choice) or core.atom(value)


def options_of(*values) -> tuple:
    return core.options_of(*values, options=lambda v: v.options if isinstance(v, Choice) else None)


def tag_of(value, options: tuple):
    """The tag of `value` (an atom, or a Choice) among `options`."""
    if isinstance(value, Choice):
        remap = [_index(options, o) for o in value.options]
        if remap == list(range(len(remap))):
            return value.tag
        return jnp.asarray(remap, jnp.int32)[value.tag]
    return jnp.asarray(_index(options, value), jnp.int32)


def _index(options, value) -> int:
    return next(k for k, o in enumerate(options) if core.same_atom(o, value))


def _returned(choice):
    """`jax.jit` flattening a Choice it returns (the client's own entries keep it a leaf)."""
    choice._fail("returning it from `jax.jit` (which returns arrays)", choice.origin)


jax.tree_util.register_pytree_node(Choice, _returned, lambda aux, children: None)
st.LEAF_TYPES.add(Choice)
staging._JAX_TYPES.add(Choice)  # `if`, `is None` and the logical operators come to us
