"""The Tensor as a NumPy value (issue 9, class 8): `.item()`, `.tolist()`, `round()`, format
specs in `autoconv.print`, `isinstance` / `np.isscalar`, run-time sizes in `x.shape`, in-place
operators. Each function runs eagerly and through `autoconv.function`: results must agree in
value, type, dtype and shape (and printed output), or the graph raises an `AutoconvError` that
names the user's file and line and says what to write instead."""

import inspect
import re

import numpy as np
import pytest

import autoconv

# --- helpers --------------------------------------------------------------------------------


def assert_same(g, e):
    """Same structure, Python type, dtype, shape and value."""
    assert type(g) is type(e), (g, e)
    if isinstance(e, (list, tuple)):
        assert len(g) == len(e)
        for a, b in zip(g, e):
            assert_same(a, b)
    elif isinstance(e, (np.ndarray, np.generic)):
        assert g.dtype == e.dtype and g.shape == e.shape
        np.testing.assert_array_equal(g, e)
    else:
        assert g == e


def copies(args):
    return tuple(a.copy() if isinstance(a, (np.ndarray, np.generic)) else a for a in args)


def check(f, *args, **options):
    """Runs `f` eagerly and as a graph (twice, so the second call reuses the graph); results
    and the arguments afterwards must agree."""
    graph = autoconv.function(f, **options)
    for _ in range(2):
        eager_args, graph_args = copies(args), copies(args)
        expected = f(*eager_args)
        got = graph(*graph_args)
        assert_same(got, expected)
        for a, b in zip(graph_args, eager_args):
            assert_same(a, b)


def line_of(f, text: str) -> int:
    """The line number, in this file, of the line of `f` that contains `text`."""
    lines, first = inspect.getsourcelines(f)
    for k, line in enumerate(lines):
        if text in line:
            return first + k
    raise AssertionError(f"{text!r} not in {f.__name__}")


def raises_at(f, args, text: str, *words, error=autoconv.AutoconvError, **options):
    """The graph raises `error`, whose message starts with this file and the line of `f` that
    holds `text`, and contains `words`."""
    with pytest.raises(error) as info:
        autoconv.function(f, **options)(*copies(args))
    message = str(info.value)
    assert isinstance(info.value, autoconv.AutoconvError)
    assert message.startswith(f"{__file__}:{line_of(f, text)}:"), message
    for word in words:
        assert word in message, message
    return message


F64 = np.array([1.5, -2.25, 3.0])
F32 = np.array([[0.5, 1.5], [2.5, -3.5]], dtype=np.float32)
I32 = np.array([3, -1, 4], dtype=np.int32)
U8 = np.array([7, 200], dtype=np.uint8)
B = np.array([True, False])
ONE = np.array([2.5])
SPEC_NONE = [autoconv.TensorSpec((None,), np.float64)]


# --- .item(), .tolist(), round() ------------------------------------------------------------


def item_of_element(x):
    return x[0].item(), x[1].item()


def item_of_reduction(x):
    total = np.sum(x).item()
    return total, total * 2, isinstance(total, (bool, int, float))


def item_of_size_one(x):
    return x.item(), x.item(0)


def item_of_scalar_argument(s):
    return s.item() + 1


@pytest.mark.usefixtures("pass_settings")
@pytest.mark.parametrize("x", [F64, F32.ravel(), I32, U8, B], ids=["f64", "f32", "i32", "u8", "b"])
def test_item_gives_python_numbers(x):
    check(item_of_element, x)
    check(item_of_reduction, x)


@pytest.mark.usefixtures("pass_settings")
def test_item_of_size_one_and_scalars():
    check(item_of_size_one, ONE)
    check(item_of_scalar_argument, np.float32(1.25))
    check(item_of_scalar_argument, np.int64(7))


def test_item_of_a_larger_array_raises_valueerror_at_run_time():
    with pytest.raises(ValueError):
        item_of_size_one(F64)
    with pytest.raises(ValueError, match="size 1"):
        autoconv.function(item_of_size_one)(F64)


def tolist_of(x):
    return x.tolist()


def tolist_loop(x):
    total = 0.0
    for v in x.tolist():
        total += v
    return total


@pytest.mark.usefixtures("pass_settings")
@pytest.mark.parametrize(
    "x",
    [F64, F32, I32, U8, B, np.array(2.5), np.zeros((2, 0)), np.zeros((0,))],
    ids=["f64", "f32-2d", "i32", "u8", "b", "0d", "2x0", "empty"],
)
def test_tolist_gives_nested_python_lists(x):
    check(tolist_of, x)


@pytest.mark.usefixtures("pass_settings")
def test_tolist_in_a_python_loop():
    check(tolist_loop, F64)


def test_tolist_of_a_run_time_length():
    # A flat array: a run-time list of its Python numbers. Deeper: the lists need the length.
    g = autoconv.function(tolist_of, input_signature=SPEC_NONE)
    for x in (F64, F64[:1], F64[:0]):
        got = g(x)
        assert got == x.tolist() and [type(v) for v in got] == [float] * len(x)
    rows = [autoconv.TensorSpec((None, 2), np.float32)]
    raises_at(tolist_of, (F32,), "x.tolist()", "tolist()", "only known", input_signature=rows)


def rounding(x):
    return round(x[0]), round(x[1], 1), round(np.sum(x).item()), round(np.sum(x).item(), 2)


@pytest.mark.usefixtures("pass_settings")
@pytest.mark.parametrize("x", [F64, F32.ravel(), I32], ids=["f64", "f32", "i32"])
def test_round_matches_python(x):
    check(rounding, x)


def round_array(x):
    return round(x)


def test_round_of_an_array_raises_typeerror_as_eagerly():
    with pytest.raises(TypeError):
        round_array(F64)
    raises_at(round_array, (F64,), "round(x)", "round()", error=TypeError)


def to_float(x):
    return float(x[0])


def to_int(x):
    return int(np.sum(x))


def to_int_of_rows(x):
    return int(x[:2])


def index_from_int(x):
    table = [10.0, 20.0, 30.0]
    b = int(np.sum(x) > 0)  # a Python int when the graph runs, not an index while tracing
    return b * 2, table[0] + b


@pytest.mark.parametrize("backend", ["numpy", "jax"])
def test_float_and_int_of_a_number_are_python_numbers_when_the_graph_runs(backend):
    check(to_float, F64, backend=backend)
    check(to_int, F64, backend=backend)
    check(to_int, -F64, backend=backend)
    check(index_from_int, F64, backend=backend)


def test_int_of_nan_raises_what_python_raises():
    with pytest.raises(ValueError, match="cannot convert float NaN to integer"):
        to_int(np.array([np.nan]))
    with pytest.raises(ValueError, match="cannot convert float NaN to integer"):
        autoconv.function(to_int)(np.array([np.nan]))


def test_int_of_an_array_says_to_use_item():
    raises_at(to_int_of_rows, (F64,), "int(x[:2])", "int()", "t.item()")


# --- format specs in autoconv.print ---------------------------------------------------------


def report(x):
    loss = np.sum(x**2)
    autoconv.print(f"loss={loss:.3f} first={x[0]:>9.2e} n={x.shape[0]}", f"[{loss}]")
    autoconv.print(
        "mean",
        f"{np.mean(x):08.4f}",
        sep=":",
    )
    autoconv.print("as text", str(loss), repr(x), f"{x!r} {loss!s}", "total=" + str(loss))
    return loss


@pytest.mark.usefixtures("pass_settings")
def test_format_specs_print_the_run_time_values_every_call(capsys):
    graph = autoconv.function(report)
    for x in (F64, F64 * 3, -F64):
        report(x)
        expected = capsys.readouterr().out
        graph(x)
        assert capsys.readouterr().out == expected


def format_returned(x):
    text = f"{np.sum(x):.2f}"
    return text


def format_as_key(x):
    table = {"3.00": 1}
    return table.get(f"{np.max(x):.2f}", 0)


def test_a_formatted_tensor_is_a_run_time_string_never_a_dict_key():
    # An f-string of a Tensor is a string made when the graph runs (tests/graph/test_staged_print)
    assert autoconv.function(format_returned)(F64) == format_returned(F64) == "2.25"
    # (a run-time string is a key of a dict holding run-time keys; this one holds a key
    # written in the code, which its keys cannot be mixed with)
    raises_at(format_as_key, (F64,), "table.get(", "dict `table`", "use keys of one sort")


# --- isinstance and np.isscalar -------------------------------------------------------------


def kinds(x, s, a):
    e = x[0]
    total = np.sum(x).item()
    return (
        isinstance(x, np.ndarray),
        isinstance(e, np.ndarray),
        isinstance(e, np.floating),
        isinstance(e, float),
        isinstance(e, (tuple, list)),
        isinstance(total, float),
        isinstance(total, np.generic),
        np.isscalar(x),
        np.isscalar(e),
        np.isscalar(total),
        isinstance(s, np.ndarray),
        np.isscalar(s),
        isinstance(a, np.ndarray),
        np.isscalar(a),
        isinstance(x.astype(np.float32)[0], float),
    )


def normalize(v):
    if isinstance(v, np.ndarray):
        v = v / np.sum(v)
    else:
        v = v * 1.0
    return v


def as_list(v):
    if not isinstance(v, (list, tuple)):
        v = [v]
    return np.stack(v)


@pytest.mark.usefixtures("pass_settings")
def test_isinstance_and_isscalar_answer_as_eagerly():
    check(kinds, F64, np.float64(2.0), np.array(3.0))
    check(kinds, F64, np.float32(2.0), np.array(3, dtype=np.int8))
    check(normalize, F64)
    check(normalize, np.float64(4.0))
    check(as_list, np.array(1.0))
    check(as_list, F64)


# --- run-time sizes in x.shape --------------------------------------------------------------


def count_up(x):
    total = 0
    for i in range(x.shape[0]):
        total += i
    return total


def size_arithmetic(x):
    n = x.shape[0]
    return n * 2 + 1, x.reshape(x.shape[0], -1), np.sum(x) / n


def loop_over_rows(x):
    acc = np.zeros(x.shape[1])
    for i in range(x.shape[0]):
        acc += x[i]
    return acc


@pytest.mark.usefixtures("pass_settings")
def test_unknown_sizes_are_run_time_ints():
    for x in (F64, np.arange(5.0)):
        check(count_up, x, input_signature=SPEC_NONE)
        check(size_arithmetic, x, input_signature=SPEC_NONE)
    check(loop_over_rows, F32, reduce_retracing=True)
    graph = autoconv.function(loop_over_rows, reduce_retracing=True)
    for x in (F32, np.ones((3, 2), np.float32), np.ones((1, 2), np.float32)):
        assert_same(graph(x), loop_over_rows(x))


# --- indexing and sizes that need a value while tracing -------------------------------------

TABLE = np.array([10.0, 20.0, 30.0])


def index_table(i):
    return TABLE[i]


def take_table(i):
    return np.take(TABLE, i)


def arange_of(n):
    return np.arange(n)


def zeros_of(x):
    return np.zeros(x.shape[0])


def test_values_needed_while_tracing_raise_with_what_to_write():
    raises_at(index_table, (np.int64(1),), "TABLE[i]", "indexes a NumPy array", "np.take")


@pytest.mark.usefixtures("pass_settings")
def test_numpy_calls_that_need_a_size_or_index_are_staged():
    # Converted code routes np.take / np.arange / np.zeros through the runtime while tracing.
    for i in (0, 2):
        check(take_table, np.int64(i))
    for n in (0, 3):
        check(arange_of, np.int64(n))
    for x in (F64, np.arange(5.0)):
        check(zeros_of, x, input_signature=SPEC_NONE)


@pytest.mark.usefixtures("pass_settings")
def test_python_ints_still_index_constant_tables():
    check(lambda x: TABLE[x.shape[0] - 1] * x, F64)


# --- in-place operators ---------------------------------------------------------------------


def local_accumulator(v):
    s = np.zeros(3)
    s += v
    s *= 2
    return s


def staged_accumulator(x):
    s = np.zeros(x.shape[1], dtype=x.dtype)
    for i in range(x.shape[0]):
        s += x[i]
    return s


def staged_branch(x):
    y = x * 1
    if np.sum(x) > 0:
        y += 1
    else:
        y -= 1
    return y


def new_array_updates(x):
    y = x * 2
    y += 1
    y **= 2
    z = x.astype(np.int64)
    z //= 2
    return y, z


def scalar_updates(x, s):
    e = x[0]
    e += 1
    s *= 2
    n = x.shape[0]
    n += 1
    return e, s, n


def zero_d_array_update(x):
    s = np.zeros(())
    s += np.sum(x)
    return s


@pytest.mark.usefixtures("pass_settings")
def test_in_place_updates_that_no_one_else_sees_match_eager():
    check(local_accumulator, F64)
    check(staged_accumulator, F32, reduce_retracing=True)
    check(staged_branch, F64)
    check(staged_branch, -F64)
    check(new_array_updates, F64)
    check(scalar_updates, F64, np.float32(1.5))
    check(zero_d_array_update, F64)


def update_argument(x):
    x += 1
    return x


def update_argument_view(x):
    row = x[0]
    row *= 2
    return x


def store_item(x):
    x[0] = 5
    return x


def alias_of_new_array(x):
    y = x * 2
    keep = [y]
    y += 1
    return keep[0] * 1


def alias_of_local_array(v):
    s = np.zeros(3)
    keep = [s]
    s += v
    return keep[0] + 0


GLOBAL_TOTAL = np.zeros(3)


def update_global(v):
    global GLOBAL_TOTAL
    GLOBAL_TOTAL += v
    return v


def cast_error(x):
    y = x.astype(np.int32)
    y += 1.5
    return y


def explicit_out(v):
    s = np.zeros(3)
    np.add(s, v, out=s)
    return s


def test_in_place_updates_others_would_see_raise():
    raises_at(update_argument, (F64,), "x += 1", "`x`", "argument", "x = x + ...")
    raises_at(update_argument_view, (F32,), "row *= 2", "`row`", "view", "row = row * ...")
    raises_at(store_item, (F64,), "x[0] = 5", "`x`", "np.where")
    raises_at(alias_of_new_array, (F64,), "return keep[0] * 1", "y += 1", "changed in place")
    raises_at(alias_of_local_array, (F64,), "s += v", "`s`", "something else also refers")
    raises_at(update_global, (F64,), "GLOBAL_TOTAL += v", "`GLOBAL_TOTAL`")
    assert not GLOBAL_TOTAL.any()
    raises_at(explicit_out, (F64,), "np.add(s, v, out=s)", "out=")


def test_in_place_cast_errors_are_typeerrors_as_eagerly():
    with pytest.raises(TypeError):
        cast_error(I32)
    message = raises_at(cast_error, (I32,), "y += 1.5", "same_kind", error=TypeError)
    assert re.search(r"int32", message)


def test_in_place_arguments_are_untouched_after_an_error():
    x = F64.copy()
    with pytest.raises(autoconv.AutoconvError):
        autoconv.function(update_argument)(x)
    assert_same(x, F64)


def alias_before_staged_loop(x):
    acc = np.zeros(x.shape[1])
    before = acc
    for i in range(x.shape[0]):
        acc += x[i]
    return before


def test_in_place_updates_in_staged_loops_check_other_names():
    raises_at(
        alias_before_staged_loop,
        (F32,),
        "acc += x[i]",
        "`acc`",
        reduce_retracing=True,
        input_signature=[autoconv.TensorSpec((None, 2), np.float32)],
    )


def alias_returned_directly(x):
    y = x * 2
    z = y
    y += 1
    return z


def alias_in_staged_branch(x):
    y = x * 2
    z = y
    if np.sum(x) > 0:
        y += 1
    return z


def test_in_place_updates_of_tensors_with_another_name_raise():
    raises_at(alias_returned_directly, (F64,), "y += 1", "`y`", "`z` also refers")
    raises_at(alias_in_staged_branch, (F64,), "y += 1", "`y`", "`z` also refers")


# --- calls that need a value while tracing, through staged_calls.call -----------------------
# (converted code reaches them this way once the converter routes these callables through the
# runtime; here the functions call it themselves)

from autoconv.trace.tensors.staged_calls import call  # noqa: E402


def staged_creation(x, n):
    m = x.shape[0]
    return (
        call(np.arange, n),
        call(np.arange, 1, m, 2.0),
        call(np.zeros, m),
        call(np.ones, (2, m), np.int32),
        call(np.full, m, 7),
        call(np.full, 2, x[0]),
        call(np.take, TABLE, n - 1),
        call(np.take, TABLE, call(np.arange, n)),
    )


def staged_arrays(x, s):
    a = call(np.asarray, x)
    b = call(np.array, x[0])
    c = call(np.asarray, s, dtype=np.float32)
    d = call(np.array, x, ndmin=2)
    e = call(np.asarray, np.sum(x).item())
    return a is x, a * 2, b, c, d, e, isinstance(b, np.ndarray), call(np.ascontiguousarray, x.T)


def staged_numbers(x):
    return (
        call(len, x),
        call(float, x[0]),
        call(int, np.sum(x)),
        call(int, x[1]) + 1,
        call(type, x) is np.ndarray,
        call(type, x[0]),
        call(type, np.sum(x).item()) is float,
    )


@pytest.mark.usefixtures("pass_settings")
def test_staged_calls_match_eager():
    specs = [autoconv.TensorSpec((None,), np.float64), autoconv.TensorSpec((), np.int64)]
    for x, n in ((F64, np.int64(2)), (np.arange(5.0), np.int64(3))):
        check(staged_creation, x, n, input_signature=specs)
    check(staged_arrays, F64, np.float64(2.5))
    check(staged_arrays, F32.ravel(), np.int32(3))
    check(staged_numbers, F64)
    check(staged_numbers, F32.ravel())
    check(staged_numbers, F64, input_signature=SPEC_NONE)


# --- item assignment, through mutation.assign_item ------------------------------------------
# (converted code reaches it once the converter rewrites `name[key] = value` as
# `name = ac.setitem(name, key, value)`; here the functions call it themselves)

from autoconv.trace.tensors.mutation import assign_item  # noqa: E402


def fill_local(x):
    out = np.zeros(3)
    for i in range(3):
        out = assign_item(out, i, x[i] * 2)
    return out


def fill_staged(x):
    out = call(np.zeros, x.shape[0], dtype=np.int32)
    for i in range(x.shape[0]):
        out = assign_item(out, i, x[i])
    return out


def set_new_array(x, i):
    y = x * 1
    y = assign_item(y, i, -1.0)
    y = assign_item(y, (slice(None, 2),), 7)
    return y


@pytest.mark.usefixtures("pass_settings")
def test_item_assignment_matches_eager():
    check(fill_local, F64)
    check(fill_staged, F64 * 1.7, input_signature=SPEC_NONE)
    check(set_new_array, F64, np.int64(2))
    check(set_new_array, F64, np.int64(-3))


def set_argument(x):
    x = assign_item(x, 0, 5.0)
    return x


def set_aliased_local(x):
    out = np.zeros(3)
    keep = out
    out = assign_item(out, 0, x[0])
    return keep


def set_scalar(x):
    e = x[0]
    e = assign_item(e, (), 1.0)
    return e


def test_item_assignment_others_would_see_raises():
    raises_at(set_argument, (F64,), "assign_item(x, 0, 5.0)", "`x`", "argument")
    raises_at(set_aliased_local, (F64,), "assign_item(out, 0, x[0])", "`out`", "also refers")
    raises_at(set_scalar, (F64,), "assign_item(e, (), 1.0)", "item assignment", error=TypeError)


def loop_over_new_array(x):
    y = x[0] * 2
    for i in range(x.shape[0]):
        y += x[i]
    return y


def while_doubling(x):
    y = x[0] * 1
    while np.sum(y) < 100:
        y *= 2
        y += 1
    return y


def other_branch_reads(x):
    y = x[0] * 1
    if np.sum(y) > 0:
        y += 1
        z = y * 2
    else:
        z = y * 3
    return y, z


def break_after_update(x):
    y = x[0] * 1
    for i in range(x.shape[0]):
        y += x[i]
        if np.sum(y) > 5:
            break
    return y


@pytest.mark.usefixtures("pass_settings")
def test_in_place_updates_in_staged_control_flow_match_eager():
    spec = [autoconv.TensorSpec((None, 2), np.float32)]
    for x in (F32, -F32, np.ones((3, 2), np.float32)):
        check(loop_over_new_array, x, input_signature=spec)
        check(while_doubling, np.abs(x) + 1)
        check(other_branch_reads, x)
        check(break_after_update, x, input_signature=spec)
