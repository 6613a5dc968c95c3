"""Variables whose kind depends on the path, on the third path, `jax.jit(autoconv.convert(f))`
(issue 24): `res = None`, then `res = ("neg", i)` in a traced branch; `best = None`, then
`if best is not None:`; a string chosen by a traced condition looked up with `in`; a string on
one path and a number on another. Each program runs eagerly with NumPy and under `jax.jit`
(`tests/jax/corpus.outcome`): eager's answer, or an `AutoconvError` naming the program's line
and saying what to write instead.
"""

import enum
from collections import namedtuple

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import autoconv  # noqa: E402
from tests.jax import corpus  # noqa: E402

INPUTS = (
    (np.array([1.0, 2.5, 3.0]),),
    (np.array([1.0, 2.5, 3.0, -1.0, 2.0, -4.0]),),
    (np.array([-1.0, 0.5]),),
    (np.array([], dtype=float),),
    (np.array([3, -2, 5]),),
)
Hit = namedtuple("Hit", "kind at")


def first_negative(x):
    res = None
    for i in range(len(x)):
        if x[i] < 0:
            res = ("neg", i)
    if res is None:
        return -1
    return res[1]


def last_big_in_a_while(x):
    found = None
    i = 0
    while i < len(x):
        if x[i] > 2:
            found = {"kind": "big", "at": i, "value": x[i] * 1.0}
        i += 1
    if found is not None:
        return found["value"] * 2
    return 0.0


def hit_in_a_branch(x):
    hit = None
    if x.sum() > 1:
        hit = Hit("sum", x.sum())
    if hit is None:
        return -x.sum()
    return hit.at


def two_labels(x):
    res = None
    for i in range(len(x)):
        if x[i] < 0:
            res = ("neg", i)
        elif x[i] > 2:
            res = ("big", i)
    if res is None:
        return -1, False
    return res[1], res[0] == "neg"


def best_index_is_not_none(x):
    best = None
    for i in range(len(x)):
        if x[i] > 0.75:
            best = i
    if best is not None:
        return best * 10
    return -1


def chosen_mode_in(x):
    mode = "a" if x.sum() > 1 else "b"
    other = "c"
    if x.sum() > 3:
        other = "a"
    return mode in ("a", "c"), other not in ["a"], mode in [other], mode == other


class Color(enum.Enum):
    RED = 1
    BLUE = 2


def chosen_member_is(x):
    c = Color.RED if x.sum() > 1 else Color.BLUE
    if c is Color.RED:
        return x.sum() * 2
    return -x.sum()


def chosen_members_is_not(x):
    first = Color.RED if x.sum() > 1 else Color.BLUE
    second = Color.BLUE
    if x.sum() < 2:
        second = Color.RED
    return first is not Color.BLUE, first is second


def none_on_some_paths_is_a_sentinel(x):
    sentinel = None
    best = None
    for v in x:
        if v > 2:
            best = v
    return best is sentinel, best is not sentinel


# `is` against a value chosen by a traced condition: Python's `is` of the stand-in was False
# on every path (a silent wrong value); now it compares the option chosen.
IS_PROGRAMS = [chosen_member_is, chosen_members_is_not, none_on_some_paths_is_a_sentinel]


def state_machine(x):
    state = "idle"
    count = 0
    for v in x:
        if state == "idle" and v > 1:
            state = "run"
        elif state == "run" and v < 0:
            state = "stop"
        if state == "run":
            count += 1
    return count, state == "stop"


def mode_in_a_while(x):
    mode = "up"
    i = 0
    total = 0.0
    while i < len(x):
        if mode == "up":
            total += x[i]
            if total > 3:
                mode = "down"
        else:
            total -= x[i]
        i += 1
    return total, mode.upper() == "DOWN"


def none_then_a_label(x):
    last = None
    for v in x:
        if v > 2:
            last = "big"
        elif v < 0:
            last = "neg"
    return last is None, last == "big", last in ("neg", None)


def colour_in_a_loop(x):
    colour = Color.BLUE
    flips = 0
    for v in x:
        if v < 0:
            colour = Color.RED if colour is Color.BLUE else Color.BLUE
            flips += 1
    return flips, colour is Color.RED


def phase_until_break(x):
    phase = "search"
    for v in x:
        if v < 0:
            phase = "found"
            break
    return phase == "found"


def parity_over_a_traced_range(x):
    mode = "even"
    for _ in range((x > 0).sum()):
        mode = "odd" if mode == "even" else "even"
    return mode == "odd"


def nested_loops(x):
    st = "a"
    for v in x:
        for w in x:
            if v * w > 4:
                st = "b" if st == "a" else "c"
    return st in ("b",), st == "c"


# A string (None, an enum member) a loop changes on a traced condition: carried as the tag of
# the option chosen (it was an error: "a str before an iteration and a Choice after").
LOOP_PROGRAMS = [
    state_machine,
    mode_in_a_while,
    none_then_a_label,
    colour_in_a_loop,
    phase_until_break,
    parity_over_a_traced_range,
    nested_loops,
]

SAME = [
    *LOOP_PROGRAMS,
    *IS_PROGRAMS,
    first_negative,
    last_big_in_a_while,
    hit_in_a_branch,
    two_labels,
    best_index_is_not_none,
    chosen_mode_in,
]


@pytest.mark.parametrize("func", SAME, ids=lambda f: f.__name__)
def test_values_none_on_some_paths_give_eager_s_answer(func):
    for args in INPUTS:
        kind, detail = corpus.outcome(func, args, __file__)
        if kind == "jax-design":  # an int on one path and a float on another: one dtype
            assert detail == "one-dtype" and args[0].dtype.kind == "i", (args, detail)
            continue
        assert (kind, detail) == ("same", ""), (args, kind, detail)


def number_or_text(x):
    out = "none"
    for v in x:
        if v > 2:
            out = v
    return out


def status_code_or_text(x):
    status = "ok"
    if x.sum() > 5:
        status = 0
    return status == "ok"


@pytest.mark.parametrize("func", [number_or_text, status_code_or_text], ids=lambda f: f.__name__)
def test_a_string_on_one_path_and_a_number_on_another_is_an_error_saying_what_to_write(func):
    args = INPUTS[0]
    assert corpus.outcome(func, args, __file__)[0] == "autoconv-error"
    with pytest.raises(autoconv.AutoconvError) as caught:
        corpus.traced_call(corpus.jax_version(func), args)
    message = str(caught.value)
    assert f"{__file__}:" in message and "a str" in message, message
    assert "cannot be a str on one path and a number on another" in message, message
    assert "Keep a number on every path" in message, message


def test_a_value_none_on_some_paths_returned_from_jit_is_an_error():
    def last_positive(x):
        best = None
        for i in range(len(x)):
            if x[i] > 0:
                best = i
        return best

    kind, detail = corpus.outcome(last_positive, INPUTS[0], __file__)
    assert kind == "autoconv-error", (kind, detail)
    assert "`best` is None on some paths" in detail, detail


def test_a_string_a_loop_changes_returned_from_jit_is_an_error_naming_it():
    def last_state(x):
        state = "low"
        for v in x:
            if v > 2:
                state = "high"
        return state

    kind, detail = corpus.outcome(last_state, INPUTS[0], __file__)
    assert kind == "autoconv-error", (kind, detail)
    assert "`state` is 'low' or 'high'" in detail and "returning it" in detail, detail


def count_by_label(x):
    counts = {"big": 0, "small": 0}
    for v in x:
        label = "big" if v > 2 else "small"
        counts[label] += 1
    return counts


def sums_by_sign(x):
    sums = {"neg": 0.0, "zero": 0.0, "pos": 0.0}
    for v in x:
        if v < 0:
            k = "neg"
        elif v == 0:
            k = "zero"
        else:
            k = "pos"
        sums[k] = sums[k] + v
    return sums["neg"], sums["pos"], sums["zero"]


def rows_by_class(x):
    acc = {"low": np.zeros(2), "high": np.zeros(2)}
    for v in x:
        cls = "high" if v > 1 else "low"
        acc[cls] += np.array([v, 1.0])
    picked = "high" if x.sum() > 3 else "low"
    return acc["low"], acc["high"], acc[picked]


# A dict keyed by a string a traced condition chose: the chosen option's entry is read and
# written when the program runs (it was an error: "a dict key ... needs the one value").
KEYED_PROGRAMS = [count_by_label, sums_by_sign, rows_by_class]


@pytest.mark.parametrize("func", KEYED_PROGRAMS, ids=lambda f: f.__name__)
def test_dict_items_at_a_chosen_key_give_eager_s_answer(func):
    for args in INPUTS:
        kind, detail = corpus.outcome(func, args, __file__)
        assert (kind, detail) == ("same", ""), (args, kind, detail)


def test_a_chosen_key_missing_for_some_option_is_an_error_naming_it():
    def tally(x):
        counts = {"big": 0}
        for v in x:
            label = "big" if v > 2 else "small"
            counts[label] = counts.get("big", 0) + 1
        return counts

    assert corpus.outcome(tally, INPUTS[0], __file__)[0] == "autoconv-error"
    with pytest.raises(autoconv.AutoconvError) as caught:
        corpus.traced_call(corpus.jax_version(tally), INPUTS[0])
    message = str(caught.value)
    assert "'big' or 'small'" in message and "no key 'small'" in message, message
