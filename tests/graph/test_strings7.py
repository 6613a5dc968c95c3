"""`%`-formatting, `str.format`, `chr()` and items of the function's own lists of strings at a
key known only when the graph runs (issue 24, batch 6 C7, C11, L-python-value).

Each program runs eagerly and as one graph function on several inputs in turn; the result
(type and repr) and the printed output of every call must be eager's.
"""

import warnings

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS


def _same_as_eager(capsys, f, inputs, backend):
    g = autoconv.function(f, backend=backend)
    for args in inputs:
        capsys.readouterr()
        try:
            expected = ("return", f(*args))
        except Exception as e:  # noqa: BLE001 - an outcome
            expected = ("raise", type(e))
        eager = capsys.readouterr()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", autoconv.TraceEffectWarning)
            if expected[0] == "raise":
                with pytest.raises(expected[1]):
                    g(*args)
                continue
            got = g(*args)
        graph = capsys.readouterr()
        assert graph.out == eager.out, args
        assert type(got) is type(expected[1]), (got, expected[1])
        assert repr(got) == repr(expected[1])


# --- %-formatting --------------------------------------------------------------------------


def mean_line(x):
    return "mean: %.2f" % x.mean()  # noqa: UP031 - as users write it


def count_line(x):
    n = int(np.sum(x > 0))
    return "%d items, %5.1f%% positive" % (n, 100.0 * n / len(x))  # noqa: UP031


def key_value(x):
    return "%s=%r; %s=%s" % ("first", x[0], "last", x[-1])  # noqa: UP031


def python_kinds(x):
    return "%s %s %r %r %x %e" % (int(x[0]), float(x[1]), int(x[0]), x[1], int(x[0]), x[1])  # noqa: UP031


def mapping_range(x):
    return "[%(lo).2f .. %(hi)8.3f]" % {"lo": x.min(), "hi": x.max()}  # noqa: UP031


def printed_progress(x):
    total = 0.0
    for i in range(len(x)):
        total += x[i]
        if total > 2:
            print("step %d: total=%.3f (over)" % (i, total))  # noqa: UP031
        else:
            print("step %d: total=%.3f" % (i, total))  # noqa: UP031
    return total


def too_few(x):
    return "%d and %d" % (x[0],)  # noqa: UP031, F507 - eager raises TypeError


PERCENT = [mean_line, count_line, key_value, python_kinds, mapping_range, printed_progress]
INPUTS = [(np.array([1.5, -2.0, 3.25]),), (np.array([7.0, 0.5, 0.0, -1.0]),)]


@pytest.mark.parametrize("fn", PERCENT, ids=lambda f: f.__name__)
@pytest.mark.parametrize("backend", BACKENDS)
def test_percent_formatting_as_eager(capsys, fn, backend):
    _same_as_eager(capsys, fn, INPUTS, backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_percent_formatting_raises_as_eager(capsys, backend):
    _same_as_eager(capsys, too_few, INPUTS, backend)


# --- str.format ----------------------------------------------------------------------------


def spec_line(x):
    return "{:.3f} / {:>8.2e}".format(x.mean(), x.max())  # noqa: UP032


def named_fields(x):
    name = "peak"
    return "{name}: {v} at {i}".format(name=name, v=x.max(), i=int(np.argmax(x)))  # noqa: UP032


def conversions(x):
    return "{0!r:>22}|{0!s:<6}|{1!r}".format(x[0], int(x[1]))


def table_row(x):
    names = ["alpha", "beta"]
    fmt = "{:<6}|{:>8.2f}|{:+d}"
    return [fmt.format(names[i], x[i], int(x[i])) for i in range(2)]


def printed_format(x):
    print("max {} min {:.1f}".format(x.max(), x.min()))  # noqa: UP032
    return None


FORMAT = [spec_line, named_fields, conversions, table_row, printed_format]


@pytest.mark.parametrize("fn", FORMAT, ids=lambda f: f.__name__)
@pytest.mark.parametrize("backend", BACKENDS)
def test_str_format_as_eager(capsys, fn, backend):
    _same_as_eager(capsys, fn, INPUTS, backend)


# --- in staged branches and loops: on JAX, kept on the device as handles --------------------


def sign_label(x):
    m = x.mean()
    if m > 0:
        s = "pos %.1f" % m  # noqa: UP031
    else:
        s = "neg"
    return s


def csv_lines(m):
    lines = []
    for row in m:
        lines.append(",".join("%.1f" % v for v in row))  # noqa: UP031
    return "\n".join(lines)


def report_lines(x):
    out = []
    for i, v in enumerate(x):
        if v > 1:
            out.append("{}: big {:.1f}".format(i, v))  # noqa: UP032
        else:
            out.append("%d: small" % i)  # noqa: UP031
    return out


def while_label(x, target):
    i = 0
    label = "start"
    while i < len(x):
        if x[i] > target:
            label = f"hit {x[i]:.1f} at {i}"
            break
        label = "miss %d" % i  # noqa: UP031
        i += 1
    return label, f"<{label}>"


def tuple_rows(x):
    rows = []
    for i, v in enumerate(x):
        rows.append((i, f"{v:.2f}" if v > 0 else "neg"))
    return rows


def popped(x):
    names = []
    for v in x:
        names.append("v=%s" % v)  # noqa: UP031
    last = names.pop() if names else "none"
    return last, names


def popped_constant(x):
    names = []
    for v in x:
        names.append("big" if v > 1 else "small")
    return names.pop() if names else "none"


def mixed_and_printed(x):
    out = ["header"]
    for v in x:
        if v > 1:
            out.append("big")
        else:
            out.append("{:+.1f}".format(v))  # noqa: UP032
        print(out[-1])
    out.append("footer")
    return out


def nested_choice(x):
    s = "zero"
    if x.sum() > 0:
        if x.max() > 2:
            s = "large %.1f" % x.max()  # noqa: UP031
        else:
            s = "small"
    elif x.sum() < 0:
        s = f"neg {x.sum()}"
    return s.upper(), s


def text_or_choice(x):
    if x.sum() > 5:
        s = f"big {x.sum()}"
    else:
        s = "pos" if x[0] > 0 else "neg"
    return s


FLOW = [
    (text_or_choice, [(np.array([3.0, 4.0]),), (np.array([1.0]),), (-np.ones(1),)]),
    (sign_label, INPUTS),
    (csv_lines, [(np.array([[1.0, 2.25], [-3.5, 0.0]]),), (np.zeros((0, 2)),)]),
    (report_lines, INPUTS + [(np.zeros(0),)]),
    (while_label, [(np.array([1.0, 5.0, 2.0]), 3.0), (np.array([1.0]), 3.0), (np.zeros(0), 1.0)]),
    (tuple_rows, [(np.array([1.0, -2.0]),), (np.zeros(0),)]),
    (popped, [(np.array([1, 2, 3]),), (np.zeros(0, np.int64),)]),
    (popped_constant, [(np.array([0.5, 3.0]),), (np.array([3.0, 0.5]),), (np.zeros(0),)]),
    (mixed_and_printed, [(np.array([0.5, 3.0]),), (np.zeros(0),)]),
    (nested_choice, [(np.array([1.0, 3.0]),), (np.array([0.5]),), (-np.ones(1),), (np.zeros(1),)]),
]


@pytest.mark.parametrize("fn, inputs", FLOW, ids=lambda v: getattr(v, "__name__", ""))
@pytest.mark.parametrize("backend", BACKENDS)
def test_strings_in_staged_flow(capsys, fn, inputs, backend):
    _same_as_eager(capsys, fn, inputs, backend)


# --- chr() and items of the function's own lists of strings -----------------------------------


def decode(codes):
    return "".join(chr(c) for c in codes)


def shouted(codes):
    return chr(codes[0] - 32) + chr(codes[1]) + str(codes[2]) + repr(codes[0])


def label_of_argmax(p):
    classes = ["cat", "dog", "bird"]
    k = int(np.argmax(p))
    return f"{classes[k]} ({p[k]:.0%})"


def label_and_code(p):
    classes = ("low", "high")
    k = int(p[0] > 0.5)
    return classes[k], "%s/%d" % (classes[k], k)  # noqa: UP031


CHARS = [
    (decode, [(np.array([104, 105, 33]),), (np.array([65]),), (np.zeros(0, np.int64),)]),
    (shouted, [(np.array([104, 105, 72]),)]),
    (label_of_argmax, [(np.array([0.2, 0.7, 0.1]),), (np.array([0.1, 0.2, 0.7]),)]),
    (label_and_code, [(np.array([0.7]),), (np.array([0.2]),)]),
]


@pytest.mark.parametrize("fn, inputs", CHARS, ids=lambda v: getattr(v, "__name__", ""))
@pytest.mark.parametrize("backend", BACKENDS)
def test_chr_and_own_list_items(capsys, fn, inputs, backend):
    _same_as_eager(capsys, fn, inputs, backend)


def compared_label(x):
    s = "none"
    if x.sum() > 2:
        s = f"{x.sum()}"
    return s != "6.0"


def test_a_compared_run_time_string_is_refused_on_jax(capsys):
    _same_as_eager(capsys, compared_label, [(np.array([1.0, 2.0, 3.0]),)], "numpy")
    if "jax" in BACKENDS:
        with pytest.raises(autoconv.AutoconvError, match="compares or computes with a string"):
            autoconv.function(compared_label, backend="jax")(np.array([1.0, 2.0, 3.0]))


# --- strings carried by staged loops ---------------------------------------------------------


def carried_state(speeds):
    # (it was NumPy's DTypePromotionError while the graph ran: a string chosen among the
    # code's strings and an f-string, merged by a staged `if` in the loop)
    state = "stopped"
    for v in speeds:
        if v > 80:
            state = "speeding at %d km/h" % int(v)  # noqa: UP031
        elif v > 0:
            state = "moving"
    return state


def accumulated(x):
    s = ""
    for v in x:
        s += f"{v:.1f},"
    return s


def last_big(x):
    label = "none"
    for v in x:
        if v > 1:
            label = f"big {v}"
    return label.upper()


def printed_trail(x):
    s = "go"
    for v in x:
        s = f"{s}>{int(v)}"
        print(s)
    return s


def first_over(readings):
    # (an internal AttributeError, 'int' object has no attribute 'item', while tracing; with
    # str.format, np.str_ instead of str)
    i = 0
    while i < len(readings):
        if readings[i] > 50:
            msg = "sensor {} over by {:.2f}".format(i, readings[i] - 50)  # noqa: UP032
            break
        i += 1
    else:
        msg = "all %d ok" % len(readings)  # noqa: UP031
    return msg


def none_or_text(x):
    msg = None
    for v in x:
        if v > 50:
            msg = f"over {v}"
    return msg


CARRIED = [carried_state, accumulated, last_big, printed_trail, first_over, none_or_text]
LOOP_INPUTS = [(np.array([10.0, 95.5, 50.0]),), (np.zeros(0),), (np.array([81.0, -1.0]),)]


@pytest.mark.parametrize("fn", CARRIED, ids=lambda f: f.__name__)
@pytest.mark.parametrize("backend", BACKENDS)
def test_strings_carried_by_staged_loops(capsys, fn, backend):
    _same_as_eager(capsys, fn, LOOP_INPUTS, backend)


# --- under jax.jit of a converted function (JAX tracers, not the JAX backend) ------------------


def printed_under_jit(x):
    print("mean: %.2f, n=%d" % (x.mean(), x.shape[0]))  # noqa: UP031
    print("{:.3f} | {!r}".format(x.max(), 5))  # noqa: UP032
    return x * 2


def returned_under_jit(x):
    return "mean: %.2f" % x.mean()  # noqa: UP031


def test_percent_and_format_under_jax_jit(capsys):
    jax = pytest.importorskip("jax")
    x = np.array([1.0, 2.0])
    printed_under_jit(x)
    eager = capsys.readouterr().out
    jax.jit(autoconv.convert(printed_under_jit))(x)
    jax.effects_barrier()
    assert capsys.readouterr().out == eager
    with pytest.raises(autoconv.AutoconvError, match="makes a string of a traced"):
        jax.jit(autoconv.convert(returned_under_jit))(x)


# --- int() and float() of strings made when the graph runs --------------------------------------


def parsed_back(x):
    s = f"{int(x[0])}{int(x[1])}"
    return int(s), float(f"{x[0]}"), int("%d0" % x[1])  # noqa: UP031


def not_a_number(x):
    return int(f"{x[0]}")


@pytest.mark.parametrize("backend", BACKENDS)
def test_int_and_float_of_run_time_strings(capsys, backend):
    _same_as_eager(capsys, parsed_back, [(np.array([1, 2]),), (np.array([40, 7]),)], backend)
    _same_as_eager(capsys, not_a_number, [(np.array([1.5]),)], backend)  # ValueError


def computed_with(x):
    return int(f"{x[0]}") + 1


def test_a_parsed_number_in_arithmetic(capsys):
    _same_as_eager(capsys, computed_with, [(np.array([3]),)], "numpy")
    if "jax" in BACKENDS:
        with pytest.raises(autoconv.AutoconvError, match="`int\\(\\)` cannot be lowered to JAX"):
            autoconv.function(computed_with, backend="jax")(np.array([3]))


def formatted_and_parsed(x):
    s = "%.1f|%c" % (x[0], 65 + int(x[1]))  # noqa: UP031
    return "{!r:>20}".format(x[0]), s, int(f"{int(x[0])}7"), chr(int(x[1]) + 97)  # noqa: UP032


def test_saved_and_loaded(tmp_path):
    x = np.array([1.0, 2.0])
    g = autoconv.function(formatted_and_parsed)
    want = formatted_and_parsed(x)
    assert repr(g(x)) == repr(want)
    g.save(tmp_path / "f.acg")
    assert repr(autoconv.load(tmp_path / "f.acg")(x)) == repr(want)
