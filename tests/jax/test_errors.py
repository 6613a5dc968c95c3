"""Mismatches JAX cannot stage: an `AutoconvError` naming the variable, the branches or
iterations, and the user's own line."""

import inspect
import re

import pytest

import autoconv

jax = pytest.importorskip("jax")
jnp = jax.numpy


def defined_in_one_branch(x):
    if x > 0:  # line: one_branch
        y = x
    return y


def dtypes_differ(x):
    if x > 0:  # line: dtypes
        y = jnp.float32(1)
    else:
        y = jnp.int32(2)
    return y


def shapes_differ(x):
    if x > 0:  # line: shapes
        y = jnp.ones(2)
    else:
        y = jnp.ones(3)
    return y


def structures_differ(x):
    if x > 0:  # line: structures
        y = (x, x)
    else:
        y = [x, x]
    return y


def python_values_differ(x):
    if x > 0:  # line: python
        label = "positive"
    else:
        label = "other"
    return x, label


def loop_dtype_changes(x):
    y = jnp.int32(0)
    while x > 0:  # line: loop_dtype
        x = x - 1
        y = y + 0.5
    return y


def loop_shape_changes(x):
    y = jnp.ones(1)
    while x > 0:  # line: loop_shape
        x = x - 1
        y = jnp.concatenate([y, y])
    return y


def defined_only_in_loop(x):
    while x > 0:  # line: loop_undefined
        x = x - 1
        z = x
    return z


def returns_none_on_a_path(x):
    if x > 0:  # line: none
        return x


def array_condition(x):
    if x:  # line: array_condition
        return 1
    return 2


def asserts_on_tracer(x):
    assert x > 0  # line: assert
    return x


def uses_maybe_none(x):
    y = None
    if x > 0:  # line: maybe_use
        y = x
    return y + 1


ERRORS = [
    (defined_in_one_branch, "one_branch", ["`y`", "defined in the if branch", "not in the else"]),
    (dtypes_differ, "dtypes", ["`y`", "if branch", "else branch", "float32[]", "int32[]"]),
    (shapes_differ, "shapes", ["`y`", "float64[2]", "float64[3]", "shapes"]),
    (structures_differ, "structures", ["`y`", "structure"]),
    (python_values_differ, "python", ["`label`", "'positive'", "'other'"]),
    (loop_dtype_changes, "loop_dtype", ["`y`", "iterations", "int32[]", "float64[]", "dtype"]),
    (loop_shape_changes, "loop_shape", ["`y`", "iterations", "float64[1]", "float64[2]"]),
    (
        defined_only_in_loop,
        "loop_undefined",
        ["`z`", "bound only once an iteration", "before the loop"],
    ),
    (returns_none_on_a_path, "none", ["returns None on some paths"]),
    (array_condition, "array_condition", ["shape (3,)", "jnp.any"]),
    (asserts_on_tracer, "assert", ["`assert`", "checkify"]),
    (uses_maybe_none, "maybe_use", ["`y` is None on some paths"]),
]


def _line(func, tag):
    lines, first = inspect.getsourcelines(func)
    return first + next(i for i, text in enumerate(lines) if f"# line: {tag}" in text)


@pytest.mark.parametrize("func,tag,parts", ERRORS, ids=[e[1] for e in ERRORS])
def test_mismatch_names_variable_paths_and_user_line(func, tag, parts):
    arg = jnp.ones(3) if tag == "array_condition" else 2.0
    with pytest.raises(autoconv.AutoconvError) as info:
        jax.jit(autoconv.convert(func))(arg)
    message = str(info.value)
    assert message.startswith(f"{__file__}:{_line(func, tag)}: "), message
    for part in parts:
        assert part in message, (part, message)


def test_undefined_variable_is_never_zeros():
    """A variable left unbound on the path JAX takes is an error at trace time, not zeros."""
    with pytest.raises(autoconv.AutoconvError, match=re.escape("`y`")):
        jax.jit(autoconv.convert(defined_in_one_branch))(-1.0)


def test_python_values_keep_python_errors():
    """The same functions on Python values behave as Python: Python's own errors."""
    with pytest.raises(UnboundLocalError):
        autoconv.convert(defined_in_one_branch)(-1.0)


def test_one_staging_error_class_for_every_tracer():
    """`except autoconv.StagingError` catches what graph mode and JAX tracing raise alike."""
    from autoconv.errors import StagingError
    from autoconv.graph.errors import StagingError as GraphStagingError
    from autoconv.trace.jax.state import JaxStagingError

    assert GraphStagingError is StagingError
    assert issubclass(JaxStagingError, StagingError)
