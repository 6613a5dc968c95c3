"""Python's `print` and f-strings of values known only when the graph runs (issue 24).

Each program runs eagerly and as a graph (NumPy and JAX backends) on several inputs in turn; the
printed output (and the result) of every call must be eager's, the second call included.
"""

import sys
import warnings

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import follows_the_rule

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


# --- f-strings of values known only when the graph runs --------------------------------------

PRICES = np.array([10.0, 11.0, 10.5, 12.0])


def report_lines(p):
    lines = []
    for day, (a, b) in enumerate(zip(p[:-1], p[1:]), start=1):
        change = (b - a) / a * 100
        lines.append(f"day {day}: {change:+.1f}%")
    return "\n".join(lines)


def returned_f_string(x):
    s = np.sum(x)
    n = 0
    for v in x:
        if v > 0:
            n += 1
    return f"total {s:.2f} ({n} positive, {s!r}, {n:>3}, {s:>8.3f}|{n:<4}|)"


def concatenated(x):
    s = np.max(x)
    head = "<" + f"{s:.1f}" + ">"
    return head + " " + f"{np.min(x):+.1f}", {"sum": f"{np.sum(x)!s}"}


def nested_f_string(x):
    inner = f"{np.sum(x):.1f}"
    return f"[{inner}] [{inner:>8}]"


def ints_and_floats(x):
    i = len(x)
    k = 0
    m = 0.0
    for v in x:
        if v > 0:
            k += 1
            m = m + v
    return f"{i} {k} {m} {k / max(i, 1)} {float(k)}"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "f", [report_lines, returned_f_string, concatenated, nested_f_string, ints_and_floats]
)
def test_f_strings_are_values_of_the_graph(capsys, f, backend):
    _same_as_eager(capsys, f, [(X,), (Y,), (PRICES,)], backend)


def format_table(probs):
    rows = ["p     odds"]
    for p in probs:
        rows.append(f"{p:<5.2f} {p / (1 - p):.3f}")
    return rows


@pytest.mark.parametrize("backend", BACKENDS)
def test_f_strings_appended_in_a_staged_loop(capsys, backend):
    _same_as_eager(
        capsys, format_table, [(np.array([0.1, 0.5, 0.9]),), (np.zeros(0),), (Y / 4,)], backend
    )
    lines = autoconv.function(format_table, backend=_backend(backend))(np.array([0.25]))
    assert lines == ["p     odds", "0.25  0.333"] and type(lines[1]) is str


def test_a_conversion_with_a_format_spec_is_refused():
    def f(x):
        s = np.sum(x)
        return f"{s!r:>20}"

    with pytest.raises(autoconv.AutoconvError, match=r"f\"\{s!r:>20\}\"") as e:
        autoconv.function(f)(X)
    assert "Drop the spec or the conversion" in str(e.value)


def str_repr_format(x):
    s = np.sum(x)
    n = 0
    for v in x:
        if v > 0:
            n += 1
    parts = [s, n]
    return "total=" + str(s), repr(s), format(s, ".2f"), str(n) + "/" + repr(parts), str(parts)


@pytest.mark.parametrize("backend", BACKENDS)
def test_str_repr_and_format_of_symbolic_values(capsys, backend):
    _same_as_eager(capsys, str_repr_format, [(X,), (Y,), (PRICES,)], backend)


def test_str_of_a_tensor_in_code_left_unconverted_names_the_line():
    def f(x):
        s = np.sum(x)
        return "total=" + str(s)

    with pytest.raises(autoconv.AutoconvError, match=r"makes a string of .* with str\(\)"):
        autoconv.function(f, autograph=False)(X)


def test_f_strings_of_python_values_stay_python_strings():
    def f(x):
        return f"{len(x)} items", x + 1

    assert "ac.text(f'{ac.formatted(ac.len(x))} items')" in autoconv.to_code(f)
    label, _ = autoconv.function(f)(X)
    assert label == "3 items" and type(label) is str


def chosen_label(x):
    if np.sum(x) > 0:
        label = f"up {np.sum(x):.1f}"
    else:
        label = "down"
    return label + "!", f"[{label:>10}]"


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_f_string_on_one_path_and_a_str_on_the_other(capsys, backend):
    _same_as_eager(capsys, chosen_label, [(X,), (Y,), (PRICES,)], backend)


def chosen_constant(x):
    label = "pos" if np.sum(x) > 0 else "neg"
    print(label, f"[{label:>5}]")
    return str(label) + "!", f"<{label}>"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_string_chosen_among_constants_prints_and_formats(capsys, backend):
    _same_as_eager(capsys, chosen_constant, [(X,), (Y,), (X,)], backend)


def test_print_of_a_list_grown_in_a_staged_loop(capsys):
    def f(x):
        out = [0.5]
        for v in x:
            if v > 0:
                out.append(v)
        print(out, len(out))
        rows = [f"{v:.1f}" for v in x if v > 0]
        print(rows)
        return len(out)

    _same_as_eager(capsys, f, [(X,), (Y,), (E,)], "numpy")


def test_print_under_jax_jit_of_converted_code(capsys):
    jax = pytest.importorskip("jax")
    jnp = jax.numpy

    def f(x):
        s = jnp.sum(x)
        print("sum", s, [s], {"b": s, "a": 1})
        return s

    x = jnp.array([1.0, 2.0])
    f(x)
    eager = capsys.readouterr().out
    g = jax.jit(autoconv.convert(f))
    g(x).block_until_ready()
    g(x).block_until_ready()
    jax.effects_barrier()
    assert capsys.readouterr().out == eager * 2


def test_python_print_in_code_left_unconverted_shows_the_placeholder_once(capsys):
    def f(x):
        print(f"sum {np.sum(x):.2f}", str(x))
        return x

    g = autoconv.function(f, autograph=False)
    with pytest.warns(autoconv.TraceEffectWarning):
        g(X)
    g(X)
    out = capsys.readouterr().out
    assert out.startswith("sum <autoconv.Tensor ") and out.count("\n") == 1


def joined_names_upper(codes):
    names = ["cat", "dog"]
    s = ", ".join([names[int(c)] for c in codes])
    return s.upper(), s.startswith("dog"), s.count("a")


def formatted_total(x):
    s = f"total {np.sum(x):.1f} "
    return s.strip().title(), s.endswith(" "), s.replace("total", "sum")


def test_str_methods_of_a_string_made_when_the_graph_runs():
    # (an AttributeError of the Tensor escaped before: batch 6's label_names)
    for fn in (joined_names_upper, formatted_total):
        for x in (np.array([1, 0]), np.array([0])):
            follows_the_rule(fn, x)


def test_a_str_method_giving_a_list_is_a_clear_error():
    def split_it(x):
        return f"{x[0]}".split(".")

    with pytest.raises(autoconv.AutoconvError, match=r"calls `.split\(\)` of a string made"):
        autoconv.function(split_it)(np.array([1.5]))


def returned_from_the_loop(x):
    for v in x:
        if v > 3:
            return f"{v} big"
    return "none"


def none_then_a_message(x):
    msg = None
    for i, v in enumerate(x):
        if v < 0:
            msg = f"negative at {i}"
    return msg


def a_label_made_in_the_loop(x):
    label = "start"
    for v in x:
        if v > 0:
            label = f"pos {v:.1f}"
    return label


@pytest.mark.parametrize(
    "fn", [returned_from_the_loop, none_then_a_message, a_label_made_in_the_loop]
)
def test_a_string_made_in_a_staged_loop_is_carried_by_it(fn):
    # An AttributeError from the join of the return value (batch 7 E1), and "str 'start'
    # before this `for` loop and object[] after an iteration".
    for x in (np.array([1.0, 5.0, -1.0]), np.array([1.0]), np.zeros(0)):
        follows_the_rule(fn, x)
