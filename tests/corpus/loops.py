"""while / for with else, targets of every shape, nesting, break / continue at any depth."""

from tests.differential import cases


class Counter:
    def __init__(self):
        self.n = 0
        self.items = []


@cases((0,), (5,))
def while_else_runs_without_break(n):
    i = 0
    while i < n:
        i += 1
    else:
        print("else", i)
        i = -i
    return i


@cases((3,), (10,))
def while_else_skipped_by_break(n):
    i = 0
    while i < n:
        if i == 5:
            break
        i += 1
    else:
        i = 100
    return i


@cases(([1, 3, 5], 3), ([1, 3, 5], 4), ([], 0))
def for_else_search(xs, target):
    for i, x in enumerate(xs):
        if x == target:
            found = i
            break
    else:
        found = -1
    return found


@cases(([(1, (2, 3)), (4, (5, 6))],), ([],))
def tuple_targets(pairs):
    out = []
    for i, (a, (b, c)) in enumerate(pairs):
        out.append(i + a * b - c)
    return out


@cases(([[1, 2, 3], [4], [5, 6]],), ([[1]],))
def starred_targets(rows):
    heads, tails = [], []
    for first, *rest in rows:
        heads.append(first)
        tails.extend(rest)
    return heads, tails


@cases(([[1, 2, 3], [4, 5, 6]],), ([[1], [2]],))
def starred_target_middle(rows):
    out = []
    for *init, last in rows:
        out.append((init, last))
    return out, init, last


@cases(
    (3, 4),
)
def nested_loops_inner_break(n, m):
    pairs = []
    for i in range(n):
        for j in range(m):
            if j > i:
                break
            pairs.append((i, j))
    return pairs


@cases((4,), (0,))
def nested_loops_continue_both_levels(n):
    out = []
    for i in range(n):
        if i == 1:
            continue
        for j in range(n):
            if (i + j) % 2:
                continue
            out.append(i * 10 + j)
    return out


@cases(([[1, 2], [3, -1, 4], [5]],), ([[1], [2]],))
def break_at_depth_three(rows):
    total = 0
    for row in rows:
        for x in row:
            if x < 0:
                if total > 2:
                    if len(row) > 1:
                        break
            total += x
        else:
            print("row done", row)
    return total


@cases((10,), (3,))
def continue_in_nested_if_else(n):
    kept = []
    for i in range(n):
        if i % 2 == 0:
            if i % 4 == 0:
                continue
            else:
                kept.append(-i)
        else:
            if i > 5:
                continue
            kept.append(i)
        kept.append(0)
    return kept


@cases(({"a": 1, "b": 2, "c": 3},), ({},))
def loop_over_dict_items(d):
    out = {}
    for k, v in d.items():
        if v == 2:
            continue
        out[v] = k
    return out


@cases(("hello world",), ("",))
def loop_over_string(s):
    vowels = 0
    for ch in s:
        if ch in "aeiou":
            vowels += 1
        elif ch == " ":
            break
    return vowels


@cases(
    (5,),
)
def loop_over_generator_expression(n):
    total = 0
    for sq in (i * i for i in range(n)):
        total += sq
    return total


@cases((10,), (1,))
def negative_step_range(n):
    out = []
    for i in range(n, 0, -3):
        out.append(i)
    return out


@cases((5, 3), (0, 0), (7, 10))
def while_with_and_or_condition(a, b):
    steps = 0
    while a > 0 and b > 0 or steps < 2:
        a -= 1
        b -= 2
        steps += 1
    return a, b, steps


@cases((7,), (1,))
def while_true_with_break(n):
    collatz = [n]
    while True:
        if n == 1:
            break
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        collatz.append(n)
    return collatz


@cases(([1, 2, 3, 0, 4],), ([],))
def walrus_in_while_test(xs):
    it = iter(xs)
    seen = []
    while (x := next(it, 0)) != 0:
        seen.append(x)
    return seen, x


@cases(([3, 1, 2],), ([],))
def walrus_in_while_test_with_and(xs):
    i = 0
    while i < len(xs) and (v := xs[i]) > 1:
        i += 1
    return i, v  # v unbound when the list is empty


@cases((3,), (0,))
def loop_variable_after_loop(n):
    for i in range(n):  # noqa: B007
        pass
    return i  # unbound when n == 0


@cases(
    (3,),
)
def loop_variable_rebinds_outer_name(n):
    i = "before"
    for i in range(n):
        i = i * 2
    return i


@cases(([1, 2, 3],), ([],))
def loop_mutates_argument_by_index(xs):
    for i in range(len(xs)):
        xs[i] = xs[i] * 10
        if i == 1:
            xs[i] += 1
    return xs


@cases(
    (4,),
)
def attribute_state_in_loop(n):
    c = Counter()
    for i in range(n):
        c.n += i
        if i % 2:
            c.items.append(i)
    while c.n > 2:
        c.n -= 2
    return c.n, c.items


@cases(
    ([1, 2, 3, 4, 5, 6],),
)
def break_does_not_consume_extra_item(xs):
    it = iter(xs)
    first = []
    for x in it:
        first.append(x)
        if x == 3:
            break
    return first, list(it)


@cases(
    ([1, 2],),
)
def loop_appends_to_iterated_list(xs):
    for x in xs:
        if x < 10:
            xs.append(x * 10)
    return xs


@cases(
    (5,),
)
def for_else_with_continue(n):
    odd = []
    for i in range(n):
        if i % 2 == 0:
            continue
        odd.append(i)
    else:
        odd.append("done")
    return odd


@cases((0,), (5,))
def for_with_attribute_target(n):
    c = Counter()
    for c.n in range(n):
        c.items.append(c.n)
    return c.n, c.items


@cases(
    (["a", "b"],),
)
def for_with_subscript_target(keys):
    d = {"k": None}
    seen = []
    for d["k"] in keys:
        seen.append(d["k"] * 2)
    return d, seen


@cases((3,), (6,))
def while_inside_for(n):
    out = []
    for i in range(n):
        j = 0
        while True:
            j += 1
            if j > i:
                break
            if j == 2:
                continue
            out.append((i, j))
        if i == 4:
            break
    return out


@cases(([1, 2, "x", 4],), ([1, 2],))
def exception_deep_inside_loops(xs):
    total = 0
    for _ in range(2):
        for x in xs:
            if x == 2:
                total += 1
            else:
                total += x * 2 + 1  # TypeError for the string
    return total


@cases(
    (2,),
)
def lambdas_in_loop_bind_late(n):
    fs = []
    for i in range(n):
        fs.append(lambda: i)  # noqa: B023 - late binding is tested
    gs = []
    for j in range(n):
        gs.append(lambda j=j: j)
    return [f() for f in fs], [g() for g in gs]


@cases(
    (["a", "b", "c"],),
)
def zip_and_enumerate_with_start(names):
    out = []
    for n, (i, name) in zip(range(10, 0, -1), enumerate(names, start=1)):
        out.append(f"{n}:{i}:{name}")
    return out


@cases((3, 2), (0, 1))
def for_else_inside_while_else(n, m):
    log = []
    i = 0
    while i < n:
        for j in range(m):
            if i == j == 1:
                log.append("break inner")
                break
        else:
            log.append(("inner else", i))
        i += 1
    else:
        log.append("outer else")
    return log


@cases(
    (["1", "x", "3", "y"],),
)
def try_except_continue_in_loop(items):
    values = []
    for s in items:
        try:
            v = int(s)
        except ValueError:
            print("skip", s)
            continue
        values.append(v)
    return values


@cases(
    (3,),
)
def prints_in_order(n):
    for i in range(n):
        print("outer", i)
        j = 0
        while j < i:
            print("  inner", j)
            j += 1
    print("done")


@cases(
    (3,),
)
def closures_defined_in_loop(n):
    funcs = []
    for i in range(n):

        def f(x, i=i):
            return x + i

        funcs.append(f)
    return [f(100) for f in funcs]


@cases(("abracadabra",), ("",))
def counting_with_get(s):
    counts = {}
    for c in s:
        counts[c] = counts.get(c, 0) + 1
    return sorted(counts.items())


@cases(
    ([3, 1, 2],),
)
def loop_over_sorted_and_reversed(xs):
    out = []
    for x in sorted(xs):
        out.append(x)
    for x in reversed(xs):
        out.append(-x)
    return out


@cases((4,), (0,))
def loop_variable_shadows_parameter(n):
    for n in range(n):  # noqa: B007, B020
        pass
    return n


@cases(
    (5,),
)
def del_in_loop_then_rebind(n):
    acc = []
    for i in range(n):
        tmp = i * 2
        acc.append(tmp)
        del tmp
        if i == 3:
            tmp = "kept"
    return acc, tmp


@cases(
    ({"a": 1, "b": 2, "c": 3},),
)
def del_subscript_in_loop(d):
    for k in list(d):
        if d[k] % 2:
            del d[k]
    return d


@cases((3,), (0,))
def while_else_with_return(n):
    while n > 0:
        n -= 1
        if n == 10:
            return "unreachable"
    else:
        return "else ran"
    return "after"


@cases(
    (5,),
)
def slice_assignment_in_loop(n):
    xs = list(range(n))
    for i in range(0, n, 2):
        xs[i : i + 1] = [xs[i]] * 2
    return xs


@cases(
    (2, 3),
)
def triple_nested_with_else_everywhere(a, b):
    log = []
    for i in range(a):
        for j in range(b):
            k = 0
            while k < 2:
                if i == j == k == 1:
                    break
                k += 1
            else:
                log.append(("while-else", i, j))
                continue
            log.append(("broke", i, j))
        else:
            log.append(("for-else", i))
    else:
        log.append("outer-else")
    return log


@cases(
    (3,),
)
def nested_function_reads_loop_state(n):
    total = 0

    def add(v):
        return total + v

    for i in range(n):
        total = add(i)
    return total


@cases(
    (6,),
)
def loop_with_bool_flags(n):
    found_even = False
    found_big = False
    for i in range(n):
        found_even = found_even or i % 2 == 0 and i > 0
        found_big = found_big or i > 4
    return found_even, found_big


@cases(({"a": 1, "b": 2},), ({"b": 2},))
def dict_changed_during_iteration(d):
    for k in d:
        if k == "a":
            d["z"] = 1  # RuntimeError on the next step of the loop
    return d


@cases((3,), (0,))
def inner_loop_else_continues_outer(n):
    out = []
    for i in range(n):
        for j in range(n):
            if j == i:
                break
        else:
            continue
        out.append(i)
    return out


@cases((["a", "", "b"],), ([""],))
def with_as_in_loop(texts):
    import io

    out = []
    for t in texts:
        with io.StringIO(t) as f:
            if not t:
                continue
            line = f.read()
        out.append(line)
    return out, line  # unbound when every text was empty


@cases(([1, 2],), ([],))
def loop_over_exhausted_iterator(xs):
    it = iter(xs)
    for _ in it:
        pass
    got = []
    for x in it:
        got.append(x)
    else:
        got.append("empty")
    return got


@cases((3,), (0,))
def chained_assignment_in_loop(n):
    a = b = c = 0
    for i in range(n):
        a = b = i
        c += a + b
    return a, b, c


@cases(
    (3,),
)
def break_at_end_of_suppressing_with(n):
    from contextlib import suppress

    out = []
    for i in range(n):
        with suppress(ValueError):
            if i < 2:
                raise ValueError(i)
            break
        out.append(i)  # reached when the with swallowed the error
    return out


@cases(
    (3,),
)
def continue_at_end_of_suppressing_with(n):
    from contextlib import suppress

    out = []
    for i in range(n):
        with suppress(ValueError):
            if i == 1:
                raise ValueError(i)
            continue
        out.append(i)
    return out


@cases(
    (3,),
)
def del_loop_variable_then_continue(n):
    out = []
    for i in range(n):
        if i == 1:
            del i
            continue
        out.append(i)
    return out


@cases((3,), (0,))
def with_target_read_after_loop(n):
    import io

    for k in range(n):
        with io.StringIO("x" * k) as f:
            if k == 1:
                break
    return f.closed, k  # unbound when the loop never ran
