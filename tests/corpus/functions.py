"""Signatures, defaults, decorators, lambdas, recursion, calls between user functions."""

import functools

from tests.differential import add_cases, call, cases, seq


@cases(call(1), call(1, 2), call(1, c=5), call(), call(1, 2, 3, 4), call(1, d=0))
def defaults_and_keywords(a, b=10, *, c=100):
    if b > a:
        return a + b + c
    return a - b - c


def _reset_shared_default():
    mutable_default_shared.__defaults__[0].clear()


@cases(
    seq((1,), (2,), (3,)),
    seq((5,), call(6, acc=[]), (7,)),
    reset=_reset_shared_default,
    observe=lambda: list(mutable_default_shared.__defaults__[0]),
)
def mutable_default_shared(x, acc=[]):  # noqa: B006 - the shared default is what is tested
    if x not in acc:
        acc.append(x)
    return list(acc)


@cases(call(1, 2), call(1, b=2), call(a=1, b=2), call(1, 2, 3), call(1))
def positional_only(a, /, b, c=0):
    for _ in range(c):
        a += b
    return a


@cases(call(1, key=2), call(1), call(1, key=2, other=3), call(1, 2))
def keyword_only(x, *, key):
    while key > 0:
        x *= 2
        key -= 1
    return x


@cases(call(), call(1, 2, 3), call(1, x=2, y=3), call(*range(5), z=0))
def star_args_kwargs(*args, **kwargs):
    total = 0
    for a in args:
        if a % 2:
            continue
        total += a
    names = []
    for k, v in sorted(kwargs.items()):
        if v:
            names.append(k)
    return total, names, args, kwargs


@cases(call(1, 2), call(1, "x"))
def annotated_signature(a: int, b: "int | str" = 0) -> "list[int]":
    out: list = []
    if isinstance(b, int):
        n: int = a + b
        out.append(n)
    else:
        for _ in range(a):
            total: int = len(b)
            out.append(total)
    return out


def logged(fn):
    """A functools.wraps-based decorator defined in user code: it is converted too."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        print("call", fn.__name__, args)
        result = fn(*args, **kwargs)
        if result is None:
            print("no result")
        return result

    return wrapper


@logged
def decorated_loop(n):
    out = []
    for i in range(n):
        if i == 2:
            break
        out.append(i)
    return out or None


add_cases(decorated_loop, (0,), (3,), name="decorated_loop (wrapper)")
add_cases(decorated_loop.__wrapped__, (3,), name="decorated_loop (wrapped)")


def memoize(fn):
    cache = {}

    @functools.wraps(fn)
    def wrapper(n):
        if n not in cache:
            cache[n] = fn(n)
        return cache[n]

    return wrapper


@memoize
def fib_memo(n):
    if n < 2:
        return n
    return fib_memo(n - 1) + fib_memo(n - 2)


add_cases(fib_memo, (0,), (20,))

add_one, negate = (lambda x: x + 1), (lambda x: -x)
pick = lambda x, y: x if x > y else y  # noqa: E731
first_true = lambda a, b, c: a or b or c  # noqa: E731
both, either = (lambda p, q: p and q), (lambda p, q: p or q)
nested_lambda = lambda n: (lambda m: n if m else -n)(n % 2)  # noqa: E731

add_cases(add_one, (1,), (-1.5,), name="add_one (lambda)")
add_cases(negate, (3,), name="negate (lambda)")
add_cases(pick, (1, 2), (3, 2), name="pick (lambda)")
add_cases(first_true, (0, "", [1]), (0, None, ""), (2, 0, 0), name="first_true (lambda)")
add_cases(both, (1, 0), ([], 5), ("a", "b"), name="both (lambda)")
add_cases(either, (0, ""), ([], 5), ("a", "b"), name="either (lambda)")
add_cases(nested_lambda, (3,), (4,), name="nested_lambda (lambda)")


@cases((0,), (5,), (10,))
def factorial(n):
    if n <= 1:
        return 1
    return n * factorial(n - 1)


@cases((0,), (1,), (10,))
def fib_loop_recursive(n):
    if n < 2:
        return n
    total = 0
    for k in (1, 2):
        total += fib_loop_recursive(n - k)
    return total


def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


add_cases(is_even, (0,), (7,), (10,))


@cases(([1, [2, [3, [4]]], 5],), ([],))
def flatten(xs):
    out = []
    for x in xs:
        if isinstance(x, list):
            out.extend(flatten(x))
        else:
            out.append(x)
    return out


def _square(x):
    return x * x


def _apply_twice(f, x):
    for _ in range(2):
        x = f(x)
    return x


@cases((2,), (-1,))
def calls_user_functions(x):
    y = _apply_twice(_square, x)
    z = _apply_twice(lambda v: v - 1 if v > 0 else v + 1, x)
    return y, z, list(map(_square, range(x if x > 0 else 0)))


@cases(
    ([3, 1, 2],),
)
def sorted_with_key_lambda(xs):
    return sorted(xs, key=lambda v: -v if v % 2 else v), max(xs, key=lambda v: (v % 2, v))


def countdown(n):
    while n > 0:
        print("yield", n)
        yield n
        n -= 1
    print("generator done")


@cases((4,), (0,), warns_once=r"countdown \(.*functions\.py:\d+\) stays Python: the yield")
def uses_generator_in_for(n):
    total = 0
    for v in countdown(n):
        if v == 2:
            continue
        print("got", v)
        total += v
    return total


@cases((5,), warns_once=r"countdown \(.*functions\.py:\d+\) stays Python: the yield")
def breaks_out_of_generator(n):
    gen = countdown(n)
    for v in gen:
        if v < 4:
            break
    return v, next(gen), sum(gen)


# Warned about once, when first called (asserted in test_errors_and_warnings).
@cases((3,), warns_once=r"\.squares \(.*functions\.py:\d+\) stays Python: the yield")
def nested_generator_function(n):
    def squares():
        for i in range(n):
            if i % 2:
                continue
            yield i * i

    return list(squares()), sum(squares())


@cases(
    (3,),
)
def generator_expressions_and_builtins(n):
    evens = sum(i for i in range(n * 2) if i % 2 == 0)
    has = any(x > n for x in range(n + 2))
    every = all(x < n for x in range(n))
    return evens, has, every


@cases((2,), (0,))
def closure_factory(n):
    def make(k):
        def f(x):
            if x > k:
                return x - k
            return k - x

        return f

    fs = []
    for i in range(n):
        fs.append(make(i))
    return [f(1) for f in fs]


@cases((3, 0), (3, 5))
def missing_argument_errors(a, b):
    def needs_two(x, y):
        return x + y

    if b:
        return needs_two(a, b)
    return needs_two(a)  # TypeError naming needs_two


@cases((1,), ("a",))
def type_error_from_operator(x):
    for _ in range(1):
        if x:
            return x + 1


@cases(
    ([5, 3, 8],),
)
def higher_order_builtins(xs):
    doubled = list(map(lambda v: v * 2 if v > 4 else v, xs))
    kept = list(filter(lambda v: v % 2 and v > 3, xs))
    total = functools.reduce(lambda a, b: a + b if a < 10 else a, xs)
    return doubled, kept, total


_counter = {"calls": 0}


def _count_calls():
    _counter["calls"] += 1
    return _counter["calls"]


def _reset_counter():
    _counter["calls"] = 0


@cases((3,), reset=_reset_counter, observe=lambda: dict(_counter))
def side_effects_in_calls_order(n):
    seen = []
    while _count_calls() <= n:
        seen.append(_count_calls())
    return seen


@cases(
    (4,),
)
def recursive_nested_function(n):
    def down(k):
        if k == 0:
            return [0]
        return [k] + down(k - 1)

    return down(n)


@cases((2,), (5,))
def recursion_with_loop_around_call(n):
    if n <= 0:
        return 1
    total = 0
    for i in range(2):
        if i:
            total += recursion_with_loop_around_call(n - 2)
        else:
            total += recursion_with_loop_around_call(n - 1)
    return total


@cases(
    (1,),
)
def nested_definitions_keep_qualnames(n):
    def inner():
        return n

    class Local:
        def method(self):
            return n

    lam = lambda: n  # noqa: E731
    names = []
    for obj in (inner, Local, Local.method, lam, [lambda: 0 for _ in range(1)][0]):
        names.append(obj.__qualname__)
    return names


@cases(
    (3,),
)
def decorated_function_defined_in_loop(n):
    calls = []

    def deco(fn):
        calls.append(fn.__name__)
        return fn

    out = []
    for i in range(n):

        @deco
        def inner(v=i):
            return v * 2

        out.append(inner())
    return out, calls


@cases(call(1, 2, 3), call(), call(2))
def rebinding_star_args(*args):
    while args:
        head, *rest = args
        args = tuple(rest)
        if head == 2:
            break
    return args


@cases(
    (8,),
)
def lru_cached_nested_function(n):
    @functools.cache
    def fib(k):
        if k < 2:
            return k
        return fib(k - 1) + fib(k - 2)

    return [fib(i) for i in range(n)], fib.cache_info().hits
