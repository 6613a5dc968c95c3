"""Values whose Python kind depends on the path a staged statement took (trace/tensors/unions.py):
a str on one path and an int or a list on another, one of several objects. Each program runs
eagerly and in graph mode on every backend, and both must agree (type, value, identity); a use
that cannot be staged is an error naming the variable, its kinds and the user's line."""

import dataclasses

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule, message

HERE = "test_path_kinds.py"


def while_else_search(x, t):
    i = 0
    while i < len(x):
        if x[i] > t:
            break
        i += 1
    else:
        return "none above"
    return i


def envelope(x):
    frames = []
    for start in range(0, len(x) - 1, 2):
        frames.append(float(np.sqrt(np.mean(x[start : start + 2] ** 2))))
    if max(frames) == 0:
        return "silence"
    return frames


def three_kinds(x):
    if x[0] > 0:
        r = "positive"
    elif x[0] < 0:
        r = (x[0], x[1:])  # a tuple of a number and an array
    else:
        r = None
    return r


def python_int_or_text(x):
    code = "ok" if x.sum() > 0 else 7  # a Python int constant on one path
    return code, isinstance(code, str), code is None


def compared_later(x):
    label = "big" if x.max() > 5 else x.max()
    if label == "big":
        return -1.0
    return label


def nested_branches(x):
    if x[0] > 0:
        if x[1] > 0:
            out = "both"
        else:
            out = np.int32(1)
    else:
        out = [x[0], 2.0]
    return out


def empty_or_array(x):
    result = "nothing" if np.all(x <= 0) else np.maximum(x, 0) * 2
    return result


def kinds_in_python_loop(x):
    names = []
    for k in range(3):
        if x[k] > 0:
            v = k  # a Python int
        else:
            v = "neg"
        names.append(v)
    return names


@dataclasses.dataclass
class Order:
    price: float
    qty: int


def cheapest_order(prices, qtys):
    orders = [Order(p, q) for p, q in zip(prices, qtys)]
    cheapest = orders[0]
    for o in orders[1:]:
        if o.price < cheapest.price:
            cheapest = o
    return cheapest.qty, cheapest.price * 2


def best_or_none(x, boxes):
    best = None
    for b in boxes:
        if x[0] > b.price and (best is None or b.qty > best.qty):
            best = b
    return best


def p_fstring(x):
    if x[0] < 0:
        r = "neg"
    else:
        r = x[0]
    return f"result: {r}"


def p_dict(x):
    if x.sum() > 0:
        status = "ok"
    else:
        status = int(x.sum())
    return {"status": status, "n": len(x)}


def helper(v):
    if v > 0:
        return "pos"
    return v


def p_nested_call(x):
    return helper(x[0]), helper(x[1])


def p_int32_bool(x):
    if x[0] > 0:
        r = np.int32(x[0])
    elif x[0] < 0:
        r = True
    else:
        r = "zero"
    return r


def p_tuple_leaf(x):
    if x[0] > 0:
        r = ("err", 0)
    else:
        r = (x[0], x[1])
    return r


def p_loop_body(x):
    n = 0
    for v in x:
        r = "big" if v > 2 else v
        if r == "big":
            n += 1
    return n


def p_truth(x):
    r = "none" if x[0] > 0 else x[0]
    if r:
        return 1
    return 0


def p_empty(x):
    if len(x) == 0 or x.sum() == 0:
        return "empty"
    return x / x.sum()


def first_negative(x):
    pos = None
    val = None
    for i, v in enumerate(x):
        if v < 0 and pos is None:
            pos = i
            val = v * 2
    if pos is None:
        return "none"
    return {"at": pos, "value": val}


class Private:
    def __init__(self, v):
        self._v = v


def private_attribute(x):
    a, b = Private(1), Private(2.5)
    chosen = a if x[0] > 0 else b
    return chosen._v


PROGRAMS = [
    (while_else_search, (np.array([1.0, 5.0, 2.0]), 3.0)),
    (while_else_search, (np.array([1.0, 2.0]), 3.0)),
    (while_else_search, (np.array([], dtype=np.float64), 0.0)),
    (envelope, (np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),)),
    (envelope, (np.zeros(4),)),
    (three_kinds, (np.array([1.0, 2.0, 3.0]),)),
    (three_kinds, (np.array([-1.0, 2.0, 3.0]),)),
    (three_kinds, (np.array([0.0, 2.0, 3.0]),)),
    (python_int_or_text, (np.array([1, 2]),)),
    (python_int_or_text, (np.array([-1, -2]),)),
    (compared_later, (np.array([1.0, 9.0]),)),
    (compared_later, (np.array([1.0, 2.0]),)),
    (compared_later, (np.array([1, 2], dtype=np.int32),)),
    (nested_branches, (np.array([1.0, 1.0]),)),
    (nested_branches, (np.array([1.0, -1.0]),)),
    (nested_branches, (np.array([-1.0, 1.0]),)),
    (empty_or_array, (np.array([-1.0, 2.0, 3.0]),)),
    (empty_or_array, (np.array([-1.0, -2.0]),)),
    (empty_or_array, (np.array([], dtype=np.float32),)),
    (kinds_in_python_loop, (np.array([1.0, -1.0, 2.0]),)),
    (cheapest_order, (np.array([10.0, 9.5, 11.0]), np.array([3, 5, 2]))),
    (cheapest_order, (np.array([1.0]), np.array([4]))),
    (best_or_none, (np.array([5.0]), [Order(1.0, 2), Order(2.0, 7), Order(9.0, 9)])),
    (best_or_none, (np.array([0.0]), [Order(1.0, 2), Order(2.0, 7)])),
    (p_fstring, (np.array([1.0, 2.0]),)),
    (p_fstring, (np.array([-1.0, 2.0]),)),
    (p_dict, (np.array([1.0, 2.0]),)),
    (p_dict, (np.array([-1.0, -2.0]),)),
    (p_nested_call, (np.array([1.0, -2.0]),)),
    (p_int32_bool, (np.array([1.0, 2.0]),)),
    (p_int32_bool, (np.array([-1.0, 2.0]),)),
    (p_int32_bool, (np.array([0.0, 2.0]),)),
    (p_tuple_leaf, (np.array([1.0, 2.0]),)),
    (p_tuple_leaf, (np.array([-1.0, 2.0]),)),
    (p_loop_body, (np.array([1.0, 3.0, 5.0]),)),
    (p_truth, (np.array([1.0, 3.0]),)),
    (p_truth, (np.array([-1.0, 3.0]),)),
    (p_truth, (np.array([0.0, 3.0]),)),
    (p_empty, (np.array([0.0, 0.0]),)),
    (p_empty, (np.array([1.0, 3.0]),)),
    (p_empty, (np.zeros(0, np.float32),)),
    (first_negative, (np.array([3.0, -1.0, -2.0]),)),
    (first_negative, (np.array([3.0, 1.0]),)),
    (first_negative, (np.zeros(0),)),
    (private_attribute, (np.array([1.0]),)),
    (private_attribute, (np.array([-1.0]),)),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "fn,args", PROGRAMS, ids=[f"{fn.__name__}-{k}" for k, (fn, _) in enumerate(PROGRAMS)]
)
def test_agrees_with_eager(fn, args, backend):
    follows_the_rule(fn, *args, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_chosen_object_is_the_callers_own(backend):
    boxes = [Order(1.0, 2), Order(2.0, 7), Order(9.0, 9)]
    graph = autoconv.function(best_or_none, backend=backend)
    assert graph(np.array([5.0]), boxes) is boxes[1]
    assert graph(np.array([1.5]), boxes) is boxes[0]
    assert graph(np.array([0.0]), boxes) is None


def read_of_none(x, boxes):
    best = None
    for b in boxes:
        if x[0] > b.price:
            best = b
    return best.qty  # AttributeError on the path that found none, as eagerly


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_attribute_of_none_raises_on_its_path(backend):
    boxes = [Order(1.0, 2), Order(2.0, 7)]
    follows_the_rule(read_of_none, np.array([1.5]), boxes, backend=backend)
    follows_the_rule(read_of_none, np.array([0.0]), boxes, backend=backend)


def arithmetic_on_it(x):
    if x.sum() > 0:
        r = "none"
    else:
        r = x.sum()
    return r + 1


def loop_carries_it(x):
    out = "empty"
    for v in x:
        if v > 2:
            out = v
    return out


def made_in_a_branch(x):
    o = Order(1.0, 1)
    if x[0] > 0:
        o = Order(x[0], 2)
    return o.qty


def test_a_use_that_needs_one_kind_names_the_variable_and_its_kinds():
    text = message(arithmetic_on_it, np.array([1.0, 2.0]))
    assert "`r`" in text and "str 'none' or a float64" in text and "`+`" in text
    assert f"{HERE}:" in text and "isinstance(r, ...)" in text


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_loop_that_changes_its_kind_carries_a_union(backend):
    # (trace.tensors.loop_unions; a clear error before)
    for x in (np.array([1.0, 3.0]), np.array([1.0]), np.zeros(0)):
        follows_the_rule(loop_carries_it, x, backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
def test_an_object_made_in_a_branch_is_carried_by_its_fields(backend):
    # (a clear error before objects8: the object is now carried by its attributes)
    follows_the_rule(made_in_a_branch, np.array([1.0]), backend=backend)
    follows_the_rule(made_in_a_branch, np.array([-1.0]), backend=backend)


def is_which(x, boxes):
    best = boxes[0]
    for b in boxes[1:]:
        if b.price * x[0] > best.price * x[0]:
            best = b
    return best is boxes[1], best is not boxes[0], boxes[1] is best


@pytest.mark.parametrize("backend", BACKENDS)
def test_is_of_a_chosen_object_is_staged(backend):
    boxes = [Order(1.0, 2), Order(2.0, 7), Order(9.0, 9)]
    follows_the_rule(is_which, np.array([1.0]), boxes, backend=backend)
    follows_the_rule(is_which, np.array([-1.0]), boxes, backend=backend)


def printed(x):
    if x[0] < 0:
        r = "neg"
    else:
        r = x[0]
    print("r is", r)
    return 1


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("first", [1.0, -1.0])
def test_printed_as_its_path_gives_it(first, backend, capsys):
    x = np.array([first, 2.0])
    printed(x)
    eager = capsys.readouterr().out
    autoconv.function(printed, backend=backend)(x)
    assert capsys.readouterr().out == eager


def array_truth(x):
    r = "none" if x[0] > 0 else x
    if r:
        return 1
    return 0


def test_the_truth_of_an_array_alternative_is_a_clear_error():
    text = message(array_truth, np.array([1.0, 2.0]))
    assert "its truth (an array's is ambiguous)" in text and f"{HERE}:" in text


def expression_then_arithmetic(x):
    r = "none" if x[0] > 0 else x[0]
    return r + 1


def test_a_conditional_expressions_union_is_named_by_its_target():
    text = message(expression_then_arithmetic, np.array([1.0, 2.0]))
    assert "`r` is str 'none' or a float64" in text and "isinstance(r, ...)" in text


def chosen_string_as_key(x):
    label = "pos" if x[0] > 0 else "neg"
    return {label: 1}


def test_a_conditional_expressions_choice_is_named_by_its_target():
    text = message(chosen_string_as_key, np.array([1.0]))
    assert "`label` is 'pos' or 'neg'" in text and "conditional expression" not in text


@pytest.mark.parametrize("backend", BACKENDS)
def test_equal_objects_are_chosen_by_identity(backend):
    boxes = [Order(1.0, 2), Order(1.0, 2)]  # equal, not the same

    def pick(x, boxes):
        return boxes[0] if x[0] > 0 else boxes[1]

    graph = autoconv.function(pick, backend=backend)
    assert graph(np.array([1.0]), boxes) is boxes[0]
    assert graph(np.array([-1.0]), boxes) is boxes[1]


def iterated(x):
    r = "text" if x[0] > 0 else x
    t = 0
    for _c in r:
        t += 1
    return t


def test_iterating_over_it_is_a_clear_error():
    text = message(iterated, np.array([1.0, 2.0]))
    assert "`r` is str 'text' or an array" in text and "iterating over it" in text


def sentinel_tests(x):
    best = None
    for v in x:
        if v > 0:
            best = v
    return best is None, best is not None


def item_is_none(x):
    out = []
    for v in x:
        out.append(v if v > 1 else None)
    return out[0] is None if out else True


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [sentinel_tests, item_is_none])
def test_is_none_of_a_value_known_per_path_is_a_python_bool(fn, backend):
    # It was an np.bool_: `is` gives a Python bool whatever its operands are.
    for x in (np.array([0.5, -3.0]), np.array([-1.0]), np.zeros(0)):
        follows_the_rule(fn, x, backend=backend)
        got = autoconv.function(fn, backend=backend)(x)
        assert all(type(v) is bool for v in (got if type(got) is tuple else (got,)))
