"""global / nonlocal, closures, lambdas and comprehensions keep Python's scoping rules; names
that clash with the converter's own (retval, ac, loop_body, state...)."""

from tests.differential import cases

counter = 0
registry = []


def _reset_globals():
    global counter
    counter = 0
    registry.clear()


def _globals():
    return counter, list(registry)


@cases((3,), (0,), reset=_reset_globals, observe=_globals)
def global_counter_in_loop(n):
    global counter
    for i in range(n):
        if i % 2 == 0:
            counter += 1
        registry.append(i)
    return counter


@cases((True,), (False,), reset=_reset_globals, observe=_globals)
def global_assigned_in_branch(flag):
    if flag:
        global counter
        counter = 42
    else:
        registry.append("no")
    return counter


@cases((True,), (False,), reset=_reset_globals, observe=_globals)
def global_declared_then_deleted(flag):
    global counter
    if flag:
        del counter
        try:
            return counter
        except NameError as e:
            counter = str(e)
    return counter


@cases(
    (4,),
)
def nonlocal_in_nested_function(n):
    total = 0

    def add(v):
        nonlocal total
        if v % 2:
            total += v
        else:
            total -= 1

    for i in range(n):
        add(i)
    return total


@cases(
    (3,),
)
def nonlocal_loops_in_nested_function(n):
    log = []
    count = 0

    def work():
        nonlocal count
        for i in range(n):
            if i == 2:
                break
            count += 1
            log.append(count)
        else:
            count = -1

    work()
    work()
    return count, log


@cases(
    (1,),
)
def closure_sees_later_assignment(x):
    def inner():
        return y * 2

    y = x
    first = inner()
    if x:
        y = 10
    second = inner()
    for y in range(3):  # noqa: B007
        pass
    return first, second, inner()


@cases((0,), (1,))
def closure_reads_name_not_yet_assigned(flag):
    def inner():
        return late

    if flag:
        late = "set"
    return inner()  # NameError (free variable) when flag is false


@cases(
    (3,),
)
def late_binding_lambdas_comprehension(n):
    fs = [lambda: i for i in range(n)]  # noqa: B023 - late binding is tested
    gs = [lambda i=i: i for i in range(n)]
    return [f() for f in fs], [g() for g in gs]


@cases(
    (3,),
)
def comprehension_variable_does_not_leak(n):
    x = "outer"
    squares = [x * x for x in range(n)]
    pairs = {x: y for x in range(n) for y in "ab" if x}
    gen = list(x for x in "zz")
    return x, squares, pairs, gen


@cases(
    (3,),
)
def comprehension_in_loop_uses_loop_variable(n):
    rows = []
    for i in range(n):
        rows.append([i * j for j in range(i + 1) if j != i or i == 0])
    return rows


@cases(([1, 5, 2, 8],), ([],))
def walrus_in_comprehension_binds_outside(xs):
    big = [y for x in xs if (y := x * 2) > 4]
    return big, y  # y is the last value bound; unbound for an empty list


@cases(
    ([3, 4],),
)
def walrus_in_comprehension_inside_loop(xs):
    out = []
    for k in range(2):
        if any((last := x + k) > 4 for x in xs):
            out.append(last)
    return out, last


@cases((True,), (False,))
def nested_function_reads_branch_variable(flag):
    if flag:
        value = "a"
    else:
        value = "b"

    def get():
        return value

    return get()


@cases(
    (2,),
)
def class_body_in_function_sees_locals(n):
    base = n * 10
    for i in range(n):
        base += i

    class K:
        attr = base
        doubled = [base * 2 for _ in range(2)]

    return K.attr, K.doubled


@cases(
    (3,),
)
def names_like_generated_ones(n):
    retval = "mine"
    do_return = 0
    ac = [1]
    loop_body = "lb"
    get_state = set_state = None
    state = 5
    if_body = else_body = "body"
    break_ = []
    itr = 0
    for i in range(n):
        if i == 1:
            continue
        do_return += i
        ac.append(state)
        state += 1
        break_.append(itr)
        itr += 1
        if i == 5:
            return "never"
    return (
        retval,
        do_return,
        ac,
        loop_body,
        get_state,
        set_state,
        state,
        if_body,
        else_body,
        break_,
        itr,
    )


@cases(
    (2,),
)
def parameter_named_range(range):
    out = []
    for i in range(2):
        out.append(i)
    while range > 0:
        range -= 1
        out.append(range)
    return out


@cases(
    (3,),
)
def local_shadows_builtin_len(n):
    total = 0
    len = 2
    for i in [1, 2, 3][:n]:
        if i > len:
            total += i
    return total, len


@cases(
    (3,),
)
def nonlocal_chain_three_levels(n):
    a = 0

    def mid():
        b = 0

        def inner():
            nonlocal a, b
            for i in range(n):
                if i:
                    a += i
                    b -= i
            return a, b

        return inner()

    return mid(), a


@cases(
    (2,),
)
def lambda_in_loop_with_default_from_state(n):
    acc = []
    x = 0
    while x < n:
        x += 1
        acc.append(lambda k=x: k * 10)
    return [f() for f in acc]


@cases((1,), (0,))
def nested_function_defined_in_loop_reads_state(flag):
    out = []
    for i in range(3):
        scale = i + 1 if flag else 1

        def scaled(v):
            return v * scale  # noqa: B023

        out.append(scaled)
    return [f(2) for f in out]


@cases(
    (2,),
)
def comprehension_reads_function_local_assigned_in_loop(n):
    for i in range(n):
        limit = i
    return [j for j in range(5) if j <= limit]


@cases((True,), (False,))
def del_then_read_in_nested_scope(flag):
    x = 1
    if flag:
        del x

    def read():
        return x

    try:
        return read()
    except NameError as e:
        return type(e).__name__, str(e)


items = [1, 2, 3]


@cases(())
def loop_target_named_like_global_iterable():
    # `items` is local here (the loop binds it), so reading it for the iterable raises
    # UnboundLocalError; it must not read the global of the same name.
    for items in items:  # noqa: B007, B020, F823
        pass
    return "done"


@cases((3,))
def generator_expressions_see_loop_variable_late(n):
    # A generator expression reads `i` when it runs, after the loop: every one sees the last i.
    gens = []
    for i in range(n):
        gens.append(x * i for x in range(2))
    return [list(g) for g in gens]


@cases((3,))
def comprehension_in_loop_reads_variable_at_once(n):
    # A list comprehension runs at once: each sees its own iteration's i.
    out = []
    for i in range(n):
        out.append([x * i for x in range(2)])
    return out


@cases((3,), (0,), reset=_reset_globals, observe=_globals)
def global_as_loop_target(n):
    global counter
    for counter in range(n):
        registry.append(counter)
    return counter


@cases((1,), (0,), reset=_reset_globals, observe=_globals)
def global_list_augmented_in_branch(x):
    global registry
    if x:
        registry += [x]  # in place: the same list object
    else:
        registry = registry + ["none"]  # a new list bound to the global
    return list(registry)
