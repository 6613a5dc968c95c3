"""Conditional expressions, and / or / not with Python's values and short-circuit, chained
comparisons, walrus, augmented assignment and del on every kind of target."""

from tests.differential import cases


def trace(label, value):
    print("eval", label)
    return value


class Loud:
    def __init__(self, v):
        self.v = v

    def __lt__(self, other):
        print("lt", self.v, other.v)
        return self.v < other.v

    def __bool__(self):
        print("bool", self.v)
        return bool(self.v)


@cases((0, ""), (1, ""), ([], [0]), (None, 0), ("a", "b"))
def and_or_return_operands(a, b):
    return a or b, a and b, not a, (a or b) and (b or a), a and b or "fallback"


@cases((0,), (1,), (2,))
def short_circuit_side_effects(k):
    r1 = trace("a", k > 0) and trace("b", k > 1) and trace("c", k)
    r2 = trace("d", k == 0) or trace("e", k == 1) or trace("f", k)
    r3 = not trace("g", k)
    return r1, r2, r3


@cases((0,), (1,))
def bool_called_once_per_operand(v):
    a, b = Loud(v), Loud(1 - v)
    r = a or b
    s = a and b
    return r.v, s.v


@cases((-5,), (0,), (5,), (50,))
def nested_conditional_expressions(x):
    label = "neg" if x < 0 else "zero" if x == 0 else "small" if x < 10 else "big"
    parity = ("even" if x % 2 == 0 else "odd") if x else None
    return label, parity


@cases((True,), (False,))
def conditional_expression_evaluates_one_side(flag):
    return trace("yes", 1) if trace("test", flag) else trace("no", 2)


@cases((1, 2, 3), (3, 2, 1), (1, 1, 2), (2, 2, 2))
def chained_comparisons(a, b, c):
    return a < b < c, a <= b <= c, a < b > c, a == b == c, a != b != c, 0 <= a < b <= c < 10


@cases((1,), (5,))
def chained_comparison_middle_evaluated_once(x):
    return 0 < trace("mid", x) < 3, trace("l", 1) < trace("m", x) < trace("r", 10)


@cases((0,), (2,))
def chained_comparison_with_objects(v):
    a, b, c = Loud(1), Loud(v), Loud(3)
    return a < b < c


@cases(([1, 2], 1), ([1, 2], 3))
def membership_and_identity_chains(xs, v):
    return v in xs in [xs], v not in xs is not None, xs is xs is not None


@cases((3,), (12,))
def chained_comparisons_in_loop_and_if_tests(n):
    i, out = 0, []
    while 0 <= i < n <= 10:
        if 1 < i < 3 or i == n - 1:
            out.append(i)
        i += 1
    return out


@cases((0,), (5,))
def walrus_in_and_or_may_leave_unbound(n):
    if (a := n) and (b := n * 2):
        return a, b
    return a, b  # b unbound when n == 0


@cases(
    ([1, 2, 3],),
)
def not_of_various_values(xs):
    return [not x for x in (0, 1, "", "a", None, [], xs, 0.0)], not not xs


@cases(
    ({"a": [1]},),
)
def augmented_nested_targets(d):
    d["a"][0] += 10
    d["a"] += [2]
    for k in ("b", "c"):
        d.setdefault(k, 0)
        d[k] += len(k)
        d[k] **= 2
    return d


@cases(
    (7,),
)
def augmented_operators(x):
    y = x
    y += 1
    y -= 2
    y *= 3
    y //= 4
    y %= 5
    y **= 2
    y <<= 3
    y >>= 1
    y |= 64
    y &= 127
    y ^= 5
    z = float(x)
    z /= 2
    s = "a"
    s *= x
    return y, z, s


@cases(
    (3,),
)
def del_in_various_forms(n):
    d = {i: i * i for i in range(n)}
    lst = list(range(n))
    obj = type("O", (), {})()
    obj.a, obj.b = 1, 2
    for i in range(n):
        if i % 2:
            del d[i]
    del lst[0], lst[-1]
    del obj.a
    a = b = 1
    del a, b
    return d, lst, vars(obj)


@cases(
    (2,),
)
def del_then_read_raises(n):
    value = n
    if n > 1:
        del value
    return value


@cases((3,), (0,))
def fstrings_with_expressions(n):
    return f"{n if n else 'zero'}|{'x' * n or '-'}|{[i for i in range(n) if i and i % 2]}"


@cases(
    ([1, 0, 3],),
)
def conditionals_in_comprehensions(xs):
    a = [x if x else -1 for x in xs]
    b = [x for x in xs if x and x > 1 or not x]
    c = {x: (x > 0 and "pos") or "zero" for x in xs}
    return a, b, c


@cases((5,), (-5,))
def lambda_with_conditional_and_logic(x):
    f = lambda v: v > 0 and v or -v  # noqa: E731
    g = lambda v: "p" if v > 0 else ("z" if v == 0 else "n")  # noqa: E731
    return f(x), g(x), g(0)


@cases((1, 2), (4, 2))
def tuple_swap_and_unpack_in_branches(a, b):
    if a < b:
        a, b = b, a
    (c, d), e = (a, b), a - b
    return a, b, c, d, e


@cases(([3, 1, 2],), ([],))
def ternary_with_walrus_and_calls(xs):
    result = (m := max(xs)) * 2 if xs else None
    return result, m if xs else "no m"


@cases(
    (2,),
)
def boolean_ops_returning_objects(n):
    empty, full = [], [n]
    chosen = empty or full
    chosen.append("x")  # mutates `full`: `or` returned the object itself
    other = full and empty
    other.append("y")
    return empty, full, chosen is full, other is empty


@cases((0,), (1,))
def not_in_while_condition(flag):
    done = bool(flag)
    steps = 0
    while not done:
        steps += 1
        done = steps >= 3
    return steps


@cases((1,), (0,))
def assert_with_logic(x):
    assert x or not x, "tautology"
    assert x and True, "x is falsy"
    return x


@cases((1,), (0,))
def walrus_in_conditional_expression_branches(c):
    r = (y := 10) if c else (y := 20)
    return r, y


@cases(([1, 2],), ([],), ([5],))
def walrus_in_second_operand_of_and(xs):
    if xs and (n := len(xs)) > 1:
        return n
    return "short"
