"""Variables created inside a traced function behave as eagerly: a local Variable starts afresh
on every call (it is re-created where the function creates it, also in loops and branches, from
an array or a Tensor), and a Variable created on the first call and kept on an object (the lazy
`if self.v is None:` idiom) persists across calls. Every pass setting."""

import contextlib
import io

import numpy as np
import pytest

import autoconv

pytestmark = pytest.mark.usefixtures("pass_settings")


def _calls(fn, inputs):
    """Results and printed output of calling `fn` on each input in turn; Variables returned
    are read right after their call."""
    out = []
    for x in inputs:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            r = fn(x)
        if isinstance(r, autoconv.Variable):
            r = ("variable", r.numpy())
        out.append((r, buf.getvalue()))
    return out


def _same(graph, eager):
    assert len(graph) == len(eager)
    for (g, g_out), (e, e_out) in zip(graph, eager):
        assert g_out == e_out
        if isinstance(e, tuple):
            assert type(g) is tuple and len(g) == len(e)
            for a, b in zip(g, e):
                assert type(a) is type(b)
                np.testing.assert_array_equal(a, b)
        else:
            assert type(g) is type(e)
            assert np.asarray(g).dtype == np.asarray(e).dtype
            np.testing.assert_array_equal(g, e)


def local_counter(x):
    v = autoconv.Variable(1.0)
    v.assign_add(x)
    return v.read_value()


def from_tensor(x):
    v = autoconv.Variable(x * 2)
    v.assign_add(np.ones_like(x))
    autoconv.print("v", v.read_value())
    return v.read_value()


def created_in_loop(xs):
    total = 0.0
    for x in xs:
        acc = autoconv.Variable(np.float64(0.0))
        acc.assign_add(x)
        acc.assign_add(x)
        total = total + acc.read_value()
    return total


def created_in_branch(xs):
    v = autoconv.Variable(np.zeros(3))
    if np.sum(xs) > 0:
        w = autoconv.Variable(xs + 1.0)
        v.assign(w * 2)
    else:
        v.assign_sub(xs)
    return v.read_value()


def copied_from_variable(xs):
    a = autoconv.Variable(xs)
    b = autoconv.Variable(a)
    a.assign_add(xs)
    return a.read_value(), b.read_value()


def with_dtype(xs):
    v = autoconv.Variable(xs, dtype=np.float32)
    v.assign_add(xs)
    return v.read_value()


def from_list_of_tensors(xs):
    v = autoconv.Variable([xs[0], 2.0 * xs[1], 3.0])
    v.assign_add(xs)
    return v.read_value()


def returned(xs):
    v = autoconv.Variable(np.zeros(3))
    v.assign(xs * 3)
    return v


XS = [np.array([1.0, 2.0, 3.0]), np.array([-4.0, 0.5, 1.0]), np.array([1.0, 2.0, 3.0])]
PROGRAMS = [
    (local_counter, [np.float64(2.0), np.float64(3.0), np.float64(2.0)]),
    (from_tensor, XS),
    (created_in_loop, XS),
    (created_in_branch, XS),
    (copied_from_variable, XS),
    (with_dtype, XS),
    (from_list_of_tensors, XS),
    (returned, XS),
]


@pytest.mark.parametrize("fn, inputs", PROGRAMS, ids=[p[0].__name__ for p in PROGRAMS])
def test_local_variables_start_afresh_each_call(fn, inputs):
    _same(_calls(autoconv.function(fn), inputs), _calls(fn, inputs))


def test_issue_repro_three_then_four():
    f = autoconv.function(local_counter)
    assert f(np.float64(2.0)) == 3.0
    assert f(np.float64(3.0)) == 4.0
    assert f(np.float64(3.0)) == 4.0


class Lazy:
    """Creates its state on the first call, as a layer creates its weights."""

    def __init__(self):
        self.v = None
        self.calls = 0

    def __call__(self, x):
        if self.v is None:
            self.v = autoconv.Variable(np.zeros_like(x))
        self.v.assign_add(x)
        return self.v.read_value()


class Recreated:
    """Makes a new Variable on every call and keeps it."""

    def __init__(self):
        self.v = None

    def __call__(self, x):
        self.v = autoconv.Variable(x)
        self.v.assign_add(x)
        return np.sum(self.v)


@pytest.mark.parametrize("cls", [Lazy, Recreated])
def test_variables_kept_on_objects(cls):
    eager, staged = cls(), cls()
    fn = autoconv.function(staged.__call__)
    for x in XS:
        e = eager(x)
        g = fn(x)
        np.testing.assert_array_equal(g, e)
        assert np.asarray(g).dtype == np.asarray(e).dtype
        np.testing.assert_array_equal(staged.v.numpy(), eager.v.numpy())
    # The first call's graph ran once; every later call uses the one traced next.
    assert fn.tracing_count == 2


def test_variable_of_unknown_shape_is_a_clear_error():
    f = autoconv.function(from_tensor, input_signature=[autoconv.TensorSpec((None,), np.float64)])
    with pytest.raises(
        autoconv.AutoconvError, match=r"test_created_variables\.py:\d+: .*fixed shape"
    ):
        f(XS[0])
