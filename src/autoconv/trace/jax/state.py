"""The state of staged control flow under JAX: pytrees of arrays, and how two of them merge.

A statement's variables (the converter's `names`) are read with `read_state`, flattened with
`jax.tree_util`, and compared leaf by leaf between the two branches of an `if` or between a
loop's state before and after an iteration. Each leaf gets a `Plan`:

* the same object on both sides (a Python value, or an array that neither side changed) stays
  as it is, outside the staged statement;
* `True` on one side and `False` on the other is the condition itself (or its negation);
* arrays and numbers that differ become outputs of the staged statement, with one dtype and
  shape (a Python number takes the dtype of the array it meets, as JAX's weak types do);
* `None` on one side and an array on the other becomes a `Maybe`: the value with a flag that
  says whether it is there (the converter's `retval` before a `return` ran);
* anything else (a variable defined on one path only, a dtype, shape or structure that
  differs, a Python value that is not a number and changes) is a `JaxStagingError` naming the
  variable, the branches or iterations, and the user's file and line.
"""

from __future__ import annotations

import ast
import contextlib
import linecache
import operator
import os
import threading

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

import autoconv
from autoconv.errors import AutoconvError, StagingError
from autoconv.locations import describe, user_frame
from autoconv.runtime import staging
from autoconv.trace.core import choices as core_choices
from autoconv.trace.core import optional as core_optional
from autoconv.trace.core.join import SAME as CORE_SAME
from autoconv.trace.core.join import STAND_IN, Leaves, Policy, plan_leaf
from autoconv.trace.core.whole import read_whole, write_whole

_Tracer = jax.core.Tracer
_ARRAYS = (jax.Array, _Tracer, np.ndarray, np.generic)
_NUMBERS = (bool, int, float, complex)
_SKIP = (
    os.path.dirname(os.path.abspath(autoconv.__file__)) + os.sep,
    os.path.dirname(os.path.abspath(jax.__file__)) + os.sep,
    "<frozen ",
)


class JaxStagingError(StagingError):
    """Control flow on JAX tracers could not be staged (`jax.jit(convert(f))` and friends): a
    `StagingError`, as in graph mode."""


def user_origin() -> str:
    """`file:line` of the innermost frame outside autoconv and JAX: the user's statement."""
    frame = user_frame(_SKIP)
    if frame is None:
        return "<unknown location>"
    return describe(frame.f_code.co_filename, frame.f_lineno)


def fail(origin: str, message: str):
    raise JaxStagingError(f"{origin}: {message}")


@contextlib.contextmanager
def user_code(origin: str, what: str):
    """Runs a traced branch or loop body; an exception from the user's code there (a `raise`,
    or an operation JAX cannot trace) becomes a `JaxStagingError` that says so: under JAX it
    is raised while tracing, whichever path the data would take."""
    _BLOCKS.depth = getattr(_BLOCKS, "depth", 0) + 1
    try:
        yield
    except (AutoconvError, _Retry):
        raise
    except Exception as e:
        where = _raised_at(e)
        line = where[0] if where else origin
        text = f"{line}: {type(e).__name__}: {e}\n(raised while JAX traced {what} at {origin}"
        if where and where[1].startswith(("raise", "assert")):
            text += (
                ": JAX traces every branch and loop body whichever way the data goes, and a "
                "JAX program cannot raise when it runs. Check such conditions outside "
                "`jax.jit`, or with `jax.experimental.checkify`"
            )
        elif isinstance(e, jax.errors.TracerIntegerConversionError):
            # `params[i]` with a Python list or tuple and a traced index (a staged loop's
            # counter): Python needs the index now.
            text += (
                ": a Python list or tuple needs its index while JAX traces, and this one is "
                "known only when the program runs. "
                + sequence_index_advice(_indexed_name(where[1]) if where else None)
            )
        raise JaxStagingError(text + ".)") from e
    finally:
        _BLOCKS.depth -= 1


# How many staged branches and loop bodies JAX is tracing in this thread (`user_code`): a
# NumPy array written there gets a JAX array (`plain.setitem`), since both paths run.
_BLOCKS = threading.local()


def in_staged_block() -> bool:
    """Whether JAX is tracing a staged branch or loop body in this thread."""
    return getattr(_BLOCKS, "depth", 0) > 0


def sequence_index_advice(name) -> str:
    """What to write instead of indexing Python list or tuple `name` (None: not known) with
    an index JAX knows only when the program runs."""
    first = f"`{name} = jnp.asarray({name})`" if name else "`jnp.asarray(...)`"
    return f"Make the list an array first ({first}), or use `jnp.take` or `lax.switch`"


def indexed_names(line: str) -> list:
    """The names that `line` (one line of source) indexes, outermost first (`hits`, `p` in
    `hits[p[0]] = 1`)."""
    try:
        tree = ast.parse(line + " pass" if line.endswith(":") else line)  # `while s[j]:`
    except SyntaxError:
        return []
    names = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name):
            if n.value.id not in names:
                names.append(n.value.id)
    return names


def _indexed_name(line: str):
    """The one name that `line` indexes (`params` in `theta = theta + params[i]`), else None."""
    names = indexed_names(line)
    return names[0] if len(names) == 1 else None


class _Retry(Exception):
    """Base of `merge.Retry` (a plan changed: trace again), passed through `user_code`."""


def _raised_at(e):
    """`(file:line, stripped source line)` of the innermost user frame in the traceback of
    `e`, or None."""
    found = None
    tb = e.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if not name.startswith(_SKIP):
            found = (name, tb.tb_lineno)
        tb = tb.tb_next
    if found is None:
        return None
    return describe(*found), linecache.getline(*found).strip()


class Maybe(core_optional.Optional):
    """A value that is None on some paths (or not bound on some: a variable first bound in a
    loop that may run no iteration; `missing` says which, as `trace.core.optional` does):
    `flag` (a bool, maybe traced) and `value` (arrays, zeros where it is absent). Where the
    flag is known (inside the branch of `if x is not None`, or of `if not do_return` for the
    converter's `retval`), it acts as its value or as None (unbound: Python's
    UnboundLocalError); anywhere else any use of it is a `JaxStagingError` (JAX cannot raise at
    run time, nor give zeros for a missing value)."""

    __slots__ = ("why",)  # the message for a use where the flag is not known, if not the usual

    def __init__(self, flag, value, missing, name="value", origin=None, why=None):
        super().__init__(flag, value, missing, name, origin or user_origin())
        self.why = why

    def like(self, flag, value):
        return Maybe(flag, value, self.missing, self.name, self.origin, self.why)

    @property
    def present(self):
        return self.flag

    @property
    def unbound(self) -> bool:
        return self.missing is not None

    def resolved(self):
        """The value (or None) when the flag is known here; otherwise raises."""
        from autoconv.trace.jax.logical import known

        fact = known(self.present)
        if fact is None:
            self._fail()
        if not fact and self.unbound:
            raise UnboundLocalError(
                f"cannot access local variable '{self.name}' where it is not associated with a "
                "value"
            )
        return self.value if fact else None

    def _fail(self, *args, **kwargs):
        if self.why is not None:
            fail(self.origin, self.why)
        if self.unbound:
            fail(
                self.origin,
                f"`{self.name}` is bound only once an iteration of this loop ran, and JAX "
                "cannot tell while tracing whether one did (the trip count is traced, or this "
                "is an iteration's own use of the value before it binds it): it cannot raise "
                "UnboundLocalError at run time, and zeros would be a silently different value. "
                "Give it a value before the loop.",
            )
        if self.name.startswith("retval"):
            what = "the function returns None on some paths (a bare `return`, or none)"
        else:
            what = f"`{self.name}` is None on some paths"
        fail(
            self.origin,
            f"{what} and an array on others; under JAX one program is traced for all paths, so "
            "it cannot be None on some of them only. Give it an array value on every path, or "
            "test `is None` before using it.",
        )

    def __repr__(self):
        what = "unbound" if self.missing is not None else "None"
        return f"<autoconv: `{self.name}` is {what} on some paths (under JAX)>"


def _forward(func, reflected=False):
    if reflected:

        def method(self, other):
            return func(other, self.resolved())

    else:

        def method(self, *args):
            return func(self.resolved(), *args)

    return method


for (
    _op
) in "add sub mul truediv floordiv mod pow matmul and or xor lt le gt ge eq ne getitem".split():
    _func = getattr(operator, _op if _op not in ("and", "or") else _op + "_")
    setattr(Maybe, f"__{_op}__", _forward(_func))
    if _op not in ("lt", "le", "gt", "ge", "eq", "ne", "getitem"):
        setattr(Maybe, f"__r{_op}__", _forward(_func, reflected=True))
for _op, _func in (
    ("neg", operator.neg),
    ("pos", operator.pos),
    ("abs", abs),
    ("invert", operator.invert),
    ("iter", iter),
    ("len", len),
    ("bool", bool),
    ("float", float),
    ("int", int),
    ("index", operator.index),
    ("jax_array", lambda v: v),
):
    setattr(Maybe, f"__{_op}__", _forward(_func))
Maybe.__hash__ = None
Maybe.__getattr__ = lambda self, name: getattr(self.resolved(), name)

# Flattening one (as `jax.jit` does with what a function returns) needs its flag known.
jax.tree_util.register_pytree_node(
    Maybe, lambda m: ((m.resolved(),), None), lambda aux, children: children[0]
)
staging._JAX_TYPES.add(Maybe)  # `is None`, `if` and the logical operators come to us


# --- describing values ----------------------------------------------------------------------


def is_array(x) -> bool:
    return isinstance(x, _ARRAYS)


def weak(x) -> bool:
    """Whether `x` takes the dtype of what it meets (a Python number or a weak JAX value)."""
    if type(x) in _NUMBERS:
        return True
    aval = getattr(x, "aval", None)
    return bool(getattr(aval if aval is not None else x, "weak_type", False))


def spec(x) -> str:
    """`float32[3]`, `int64[]`, `a Python int 3`, `None`, ..."""
    if x is None:
        return "None"
    if type(x) in _NUMBERS:
        return f"a Python {type(x).__name__} ({x!r})"
    if is_array(x):
        shape = ",".join(str(d) for d in np.shape(x))
        return f"{np.dtype(x.dtype).name}[{shape}]"
    if isinstance(x, Maybe):
        return f"None or {spec(x.value)}"
    if isinstance(x, (tuple, list)):
        return f"a {type(x).__name__} of {len(x)}"
    if isinstance(x, dict):
        return f"a dict with keys {list(x)}"
    text = repr(x)
    if len(text) > 40:
        return f"a {type(x).__name__}"
    return f"a {type(x).__name__} ({text})"


def aval(x):
    """(dtype, shape) of an array or number as JAX sees it."""
    if type(x) in _NUMBERS:
        return jnp.result_type(x), ()
    return np.dtype(x.dtype), tuple(np.shape(x))


def same_static(a, b) -> bool:
    """Whether two Python values are interchangeable as constants of a trace."""
    if a is b:
        return True
    if type(a) is not type(b) or is_array(a):
        return False
    try:
        return bool(a == b)
    except Exception:  # a value whose == is not a plain bool
        return False


def _immutable(value) -> bool:
    return isinstance(value, (jax.Array, _Tracer))


def read_state(get_state, names) -> tuple:
    """The values of `names` (`staging.read_state`), an item with an int key of a JAX array,
    `x[0]`, as the whole array: the statement carries the array (`trace.core.whole`)."""
    return read_whole(get_state, names, _immutable)


def write_state(get_state, set_state, names, values) -> None:
    """`set_state(values)`, leaving the plain names whose value is undefined unbound (so that
    reading one raises Python's UnboundLocalError, as the original would). A JAX array carried
    whole for its item (`read_state`) is set in its variable's cell."""
    values = write_whole(get_state, names, values, _immutable)
    set_state(values)
    undefined = [n for n, v in zip(names, values) if staging.is_undefined(v)]
    if undefined:
        cells = dict(zip(get_state.__code__.co_freevars, get_state.__closure__ or ()))
        for name in undefined:
            root, accessors = staging._parse(name)
            if accessors:  # `d['k']` or `o.attr` that does not exist: remove what was set
                _remove(cells, get_state.__globals__, root, accessors)
                continue
            cell = cells.get(name)
            if cell is not None:
                try:
                    del cell.cell_contents
                except ValueError:
                    pass


def _remove(cells, globals_, root, accessors):
    try:
        value = cells[root].cell_contents if root in cells else globals_[root]
        for is_attr, key in accessors[:-1]:
            value = getattr(value, key) if is_attr else value[key]
        is_attr, key = accessors[-1]
        if is_attr:
            delattr(value, key)
        elif type(value) is dict:
            del value[key]
    except (ValueError, LookupError, AttributeError, TypeError):
        pass


# --- flattening ---------------------------------------------------------------------------

_UNDEF = "undefined"
_TREE = "tree"


class _Node:
    """A `Maybe` inside a flattened value: its flag and its value are leaves like any other
    (a `Maybe` itself flattens as its resolved value, which is what `jax.jit` returns)."""

    __slots__ = ("flag", "value", "aux")

    def __init__(self, flag, value, aux):
        self.flag, self.value, self.aux = flag, value, aux


class _Aux:
    """A `_Node`'s static part: only what is missing counts for structure (the variable's name
    and line, kept for messages, do not)."""

    __slots__ = ("missing", "name", "origin", "why")

    def __init__(self, missing, name, origin, why):
        self.missing, self.name, self.origin, self.why = missing, name, origin, why

    def __eq__(self, other):
        return type(other) is _Aux and other.missing == self.missing

    def __hash__(self):
        return hash(self.missing)


jax.tree_util.register_pytree_node(
    _Node,
    lambda n: ((n.flag, n.value), n.aux),
    lambda aux, children: _Node(children[0], children[1], aux),
)


LEAF_TYPES: set = set()
"""Pytree nodes that a variable's entry keeps whole, as leaves (a `choices.Choice`, whose own
flattening is `jax.jit` returning it: an error)."""


def _is_leaf(x) -> bool:
    return isinstance(x, Maybe) or staging.is_undefined(x) or type(x) in LEAF_TYPES


def _kept(x) -> bool:
    return type(x) in LEAF_TYPES


def _as_nodes(value):
    def node(x):
        if isinstance(x, Maybe):
            return _Node(x.flag, _as_nodes(x.value), _Aux(x.missing, x.name, x.origin, x.why))
        return x

    return jax.tree_util.tree_map(node, value, is_leaf=_is_leaf)


def _from_nodes(value, name):
    def maybe(x):
        if not isinstance(x, _Node):
            return x
        inner, aux = _from_nodes(x.value, name), x.aux
        if x.flag is True:
            return inner
        if x.flag is False:
            return staging._Undefined(aux.name) if aux.missing is not None else None
        return Maybe(x.flag, inner, aux.missing, aux.name, aux.origin, aux.why)

    return jax.tree_util.tree_map(
        maybe, value, is_leaf=lambda x: isinstance(x, _Node) or type(x) in LEAF_TYPES
    )


def entry(value):
    """`(kind, treedef, leaves)` of one variable's value: `(_UNDEF, marker, ())` for a
    variable without a value, else its pytree's (a `Maybe`'s flag and value are leaves)."""
    if staging.is_undefined(value):
        return (_UNDEF, value, ())  # the marker itself, to put back
    leaves, treedef = jax.tree_util.tree_flatten(_as_nodes(value), is_leaf=_kept)
    return (_TREE, treedef, tuple(leaves))


def rebuild(kind, treedef, leaves, name):
    """The value of an entry from its (merged) leaves."""
    if kind == _UNDEF:
        return treedef
    return _from_nodes(jax.tree_util.tree_unflatten(treedef, leaves), name)


def _zero(x):
    """A stand-in of a leaf where the value is missing (never read there)."""
    if type(x) in _NUMBERS:
        return type(x)(0)
    dtype, shape = aval(x)
    return jnp.zeros(shape, dtype)


# Atoms (strings, None, ...) inside a value stay as they are on the missing path too, as in
# graph mode: `res = ("neg", i)` against `res = None` is a Maybe of the tuple.
LIFTING = core_optional.Lifting(
    Maybe, lambda x: is_array(x) or type(x) in _NUMBERS, lambda x: _zero(x), core_choices.atom
)


def lift_pair(name, a, b, origin=None):
    """One variable's values on two paths made alike (`trace.core.optional.lift_pair`): None
    or unbound on one, arrays and numbers on the other, become two `Maybe`s."""
    return core_optional.lift_pair(name, a, b, origin, LIFTING)


# --- plans ----------------------------------------------------------------------------------

SAME = "same"  # the first side's value, kept outside the staged statement
PRED = "pred"  # the condition (True on the first side) or its negation
DYN = "dyn"  # an output of the staged statement, cast to (dtype, shape)


def leaf_plan(a, b, where):
    """How leaf `a` (first side) and `b` (second side) merge: `(SAME,)`, `(PRED, a)` or
    `(DYN, dtype, shape, weak)`; `where(detail)` raises the error for a mismatch. `weak`: both
    sides are weakly typed, and so is the output (see `cast`)."""
    if a is not b and type(a) is bool and type(b) is bool:
        return (PRED, a)  # the condition itself, or its negation: no output needed

    def fail(kind):
        if kind == "value":
            where(
                f"{spec(a)} and {spec(b)}. Values that are not arrays or numbers must be the "
                f"same on every path{_kinds_advice(a, b)}"
            )
        if kind == "dtype":
            where(f"{spec(a)} and {spec(b)}: the dtypes must agree (cast one with .astype)")
        where(f"{spec(a)} and {spec(b)}: the shapes must agree")

    plan = plan_leaf(a, b, LEAVES, fail)
    if plan[0] == CORE_SAME:
        return (SAME,)
    shape, dtype, _ = plan[1]
    return (DYN, dtype, shape, weak_type(a) and weak_type(b))


def _kinds_advice(a, b) -> str:
    """What to write instead when a variable is a number on one path and a string (or another
    Python value) on the other: `out = "none"`, then `out = v` in a traced branch."""
    if _numeric(a) == _numeric(b):
        return ""
    other = b if _numeric(a) else a
    return (
        ": JAX traces one program for every path, and a variable of it holds one kind of "
        f"value, so it cannot be a {type(other).__name__} on one path and a number on another. "
        "Keep a number on every path (`-1` or `nan` where eager code keeps the "
        f"{type(other).__name__}) with a flag saying which it is, and choose the "
        f"{type(other).__name__} outside `jax.jit`"
    )


def _numeric(x) -> bool:
    return type(x) in _NUMBERS or is_array(x)


def _spec(x) -> tuple:
    dtype, shape = aval(x)
    return (shape, dtype, weak(x))


def _promotion(strong, weak_dtype):
    """JAX's promotion: a weak number takes the array's dtype, or its kind (a Python float
    next to an int32 array gives float32, where NumPy gives float64)."""
    return np.dtype(jnp.result_type(jnp.zeros((), strong), STAND_IN[weak_dtype.kind]))


def _weak_join(a, b):
    return np.dtype(jnp.result_type(STAND_IN[a.kind], STAND_IN[b.kind]))


# What differs by design from graph mode (trace.core.join): XLA needs static shapes, and JAX's
# weak types promote by their own rules.
POLICY = Policy(
    dynamic_sizes=False, promotion=_promotion, weak_join=_weak_join, kind_may_change=True
)
LEAVES = Leaves(numeric=_numeric, same=lambda a, b: same_static(a, b), spec=_spec, policy=POLICY)


def fits(x, dtype) -> bool:
    """Whether `x` becomes `dtype` without changing kind (a weak int into a float array)."""
    return np.dtype(jnp.result_type(jnp.zeros((), dtype), x)) == dtype


def as_weak(dtype):
    """A Python number of `dtype`'s kind (weakly typed for JAX)."""
    return np.zeros((), dtype).item()


def weak_type(x) -> bool:
    """Whether JAX types `x` weakly (a Python int, float or complex, or a weak JAX value; a
    Python bool is JAX's strong `bool`)."""
    return type(x) is not bool and weak(x)


_KINDS = {"i": int, "f": float, "c": complex}


def cast(x, dtype, weak_out=False):
    """`x` as a JAX value of `dtype` (a no-op when it is one already); weakly typed when
    `weak_out` and JAX can type it so (a Python `0` carried by a loop must still take the dtype
    of the int32 array it meets, as it does in NumPy and in JAX's own eager code)."""
    dtype = np.dtype(dtype)
    if weak_out and dtype.kind in _KINDS and weak_type(x):
        y = _weak_as(x, dtype)
        if y is not None:
            return y
    if isinstance(x, _Tracer) and x.dtype == dtype and not weak(x):
        return x
    return jnp.asarray(x, dtype)


def _weak_as(x, dtype):
    """A weakly typed JAX value of `dtype` equal to the weak value `x`, or None (`dtype` is not
    the dtype JAX gives weak values of its kind)."""
    kind = _KINDS[dtype.kind]
    if type(x) in _NUMBERS:
        y = jnp.asarray(kind(x))
    else:
        y = jnp.asarray(x)
        if y.dtype.kind == "f" and dtype.kind == "c":
            y = lax.complex(y, jnp.zeros_like(y))  # keeps -0.0, as NumPy's cast does
        elif y.dtype.kind != dtype.kind:
            y = y + kind(0)  # an int: exact, and the sum of weak values stays weak
    return y if y.dtype == dtype and weak(y) else None
