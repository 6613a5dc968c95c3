"""Python's `print` and f-strings of values known only when the graph runs (issue 24).

Each program runs eagerly and as a graph (NumPy and JAX backends) on several inputs in turn; the
printed output (and the result) of every call must be eager's, the second call included.
"""

import sys
import warnings

import numpy as np
import pytest

import autoconv

BACKENDS = ["numpy", "jax"]


def _backend(backend):
    if backend == "jax":
        pytest.importorskip("jax")
    return backend


def _same_as_eager(capsys, f, inputs, backend, **options):
    """Runs `f` on each input eagerly, then as one graph function; compares stdout, stderr and
    results call by call."""
    g = autoconv.function(f, backend=_backend(backend), **options)
    for args in inputs:
        capsys.readouterr()
        expected = f(*args)
        eager = capsys.readouterr()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", autoconv.TraceEffectWarning)
            got = g(*args)
        graph = capsys.readouterr()
        assert graph.out == eager.out, args
        assert graph.err == eager.err, args
        assert type(got) is type(expected)
        assert repr(got) == repr(expected)


X = np.array([1.0, -2.0, 3.5])
Y = np.array([-1.0, -0.25])
E = np.zeros(0)


def progress(x):
    s = 0.0
    for i in range(len(x)):
        s = s + x[i]
        print("step", i, s)
    return s


def print_when_positive(x):
    n = 0
    for v in x:
        if v > 0:
            print("positive:", v)
            n += 1
    print("count", n)
    return n


def branch_prints_constants(x):
    if np.sum(x) > 0:
        print("up")
    else:
        print("down", "and", "out", sep="-")
    return x * 2


def loop_prints_constant(x):
    for _ in x:
        print("tick", end=";")
    print()
    return len(x)


def sep_end(x):
    for i, v in enumerate(x):
        print(i, round(float(v), 2), sep=":", end=" ")
    print()
    return len(x)


def containers(x):
    m = np.max(x) if x.size else np.float64(0.0)
    n = 0
    if m > 1:
        n = 3
    print([m, n], (n, m), {"m": m, "n": n})
    print(x, x[:1], float(m), int(n))
    return m


def f_strings(x):
    s = np.sum(x)
    n = 0
    for v in x:
        if v > 0:
            n += 1
    print(f"total {s:.2f} {s:+.1f} {n:>5} {s!r} {n!r} {s!s}|{s:>8}|{n:03d}")
    print(f"mean={np.mean(x) if x.size else 0.0:.4f}", str(n), repr(s))
    return n


def to_stderr(x):
    s = np.sum(x)
    print("err", s, file=sys.stderr, flush=True)
    print("out", s)
    return s


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "f",
    [
        progress,
        print_when_positive,
        branch_prints_constants,
        loop_prints_constant,
        sep_end,
        containers,
        f_strings,
        to_stderr,
    ],
)
def test_print_is_staged_like_eager(capsys, f, backend):
    _same_as_eager(capsys, f, [(X,), (Y,), (X,), (E,)], backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_print_without_optimizing(capsys, backend):
    for f in (print_when_positive, f_strings, containers):
        _same_as_eager(capsys, f, [(X,), (Y,)], backend, optimize=False)


def test_python_values_outside_staged_blocks_print_while_tracing(capsys):
    def f(x):
        print("tracing", len(x))
        return x + 1

    g = autoconv.function(f)
    with pytest.warns(autoconv.TraceEffectWarning, match="known while tracing"):
        g(np.ones(2))
    g(np.ones(2))
    assert capsys.readouterr().out == "tracing 2\n"


def test_staged_print_does_not_warn(capsys):
    g = autoconv.function(print_when_positive)
    with warnings.catch_warnings():
        warnings.simplefilter("error", autoconv.TraceEffectWarning)
        g(X)
        g(Y)
    assert capsys.readouterr().out == "positive: 1.0\npositive: 3.5\ncount 2\ncount 0\n"


def test_bad_print_arguments_raise_pythons_error():
    def f(x):
        print(x, sep=1)
        return x

    with pytest.raises(TypeError) as eager:
        f(X)
    with pytest.raises(TypeError) as graph:
        autoconv.function(f)(X)
    assert str(graph.value) == str(eager.value)


def test_converted_code_calls_ac_print():
    assert "ac.print('step', i, s)" in autoconv.to_code(progress)
