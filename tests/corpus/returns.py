"""`return` anywhere: in loops, in `with`, in every part of `try`, in loop `else`."""

from tests.differential import cases


class Logged:
    """A context manager that prints when it is entered and left, and what it saw."""

    def __init__(self, name, suppress=False):
        self.name = name
        self.suppress = suppress

    def __enter__(self):
        print("enter", self.name)
        return self.name

    def __exit__(self, kind, value, tb):
        print("exit", self.name, kind.__name__ if kind else None)
        return self.suppress


@cases(([[1, 2], [3, 4]], 3), ([[1, 2], [3, 4]], 9), ([], 1))
def return_from_nested_loop(grid, target):
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if v == target:
                return r, c
    return None


@cases((3,), (0,))
def return_in_while_else(n):
    i = 0
    while i < n:
        i += 1
        if i > 10:
            break
    else:
        return "completed", i
    return "broke", i


@cases(([1, 2],), ([5],))
def return_in_for_else(xs):
    for x in xs:
        if x > 3:
            break
    else:
        return "no big value"
    print("found", x)
    return x


@cases((True,), (False,))
def return_inside_with(flag):
    with Logged("a") as name:
        if flag:
            return name * 2
        print("still inside")
    return "after"


@cases((1,), (2,), (3,))
def return_inside_nested_with_in_loop(k):
    for i in range(3):
        with Logged("outer"):
            with Logged("inner"):
                if i == k:
                    return i
    return -1


@cases((0,), (1,))
def return_in_suppressing_with(n):
    with Logged("s", suppress=True):
        if n:
            return 1 // (n - 1)
        x = 1 // n  # noqa: F841
    return "suppressed"


@cases((True,), (False,))
def return_in_try_finally_runs_finally(flag):
    try:
        print("try")
        if flag:
            return "from try"
        print("no return")
    finally:
        print("finally")
    return "after"


@cases(
    (1,),
)
def return_value_evaluated_before_finally(x):
    out = [x]
    try:
        if x:
            return out[:]
    finally:
        out.append("finally")
        print("finally sees", out)
    return None


@cases(
    (3,),
)
def return_in_loop_in_try_finally(n):
    log = []
    for i in range(n):
        try:
            if i == 1:
                return log + ["ret"]
            log.append(i)
        finally:
            log.append(("fin", i))
            print("finally", i)
    return log


@cases(("5",), ("x",), (None,))
def return_in_except(s):
    try:
        v = int(s)
    except ValueError as e:
        return "bad: " + str(e)
    except TypeError:
        print("type error")
        return None
    return v * 2


@cases(("5",), ("x",))
def return_in_try_else(s):
    try:
        v = int(s)
    except ValueError:
        v = 0
    else:
        if v > 3:
            return "big"
        v += 1
    finally:
        print("finally", s)
    return v


@cases((0,), (1,), (2,))
def returns_in_every_try_part(k):
    try:
        if k == 0:
            return "try"
        if k == 1:
            raise KeyError(k)
    except KeyError:
        if k == 1:
            return "except"
    else:
        return "else"
    finally:
        print("finally", k)
    return "end"


@cases((True,), (False,))
def bare_return_and_implicit_none(flag):
    if flag:
        print("bare")
        return
    print("fell off")


@cases((-2,), (0,), (2,))
def return_tuples_from_branches(x):
    if x < 0:
        return x, "neg"
    if x == 0:
        return (x,)
    return [x] * x


@cases(([4, 7, 9],), ([2, 4],))
def early_return_then_code_after(xs):
    total = 0
    for x in xs:
        if x % 2:
            print("odd found", x)
            return total + x
        total += x
    print("all even")
    total *= 2
    return total


@cases((3, 1), (3, 5))
def return_in_elif_chain_in_loop(n, stop):
    for i in range(n):
        if i == stop:
            return "stop"
        elif i > stop:
            return "past"
        elif i == n - 1:
            return "last"
        else:
            print("step", i)
    return "never"


@cases((4,), (-1,))
def return_raises_inside_loop(n):
    for i in range(3):
        if i == 2:
            return 10 // (n - 4)
    return 0


@cases(
    (5,),
)
def return_in_while_true(n):
    while True:
        n -= 1
        if n < 2:
            return n


@cases((3,), (1,))
def code_after_return_in_loop_is_skipped(n):
    out = []
    for i in range(n):
        out.append(i)
        if i == 1:
            return out
        out.append("after")
    out.append("end")
    return out


@cases((2,), (5,))
def return_from_while_inside_for(n):
    for i in range(n):
        j = 0
        while j < 10:
            if i * j == 6:
                return i, j
            j += 1
    return None


@cases((True, True), (True, False), (False, True))
def return_in_with_in_try(a, b):
    try:
        with Logged("w"):
            if a:
                if b:
                    return "both"
                raise RuntimeError("only a")
    except RuntimeError as e:
        return str(e)
    finally:
        print("outer finally")
    return "neither"


@cases(
    (2,),
)
def generator_expression_with_return(n):
    for i in range(n):
        if any(j > i for j in range(3)):
            return i
    return -1


@cases((5,), (1,))
def return_in_for_else_inside_while(n):
    while n > 0:
        n -= 1
        for i in range(n):
            if i == 5:
                break
        else:
            if n == 2:
                return "else", n
    return "end", n


@cases(())
def return_in_try_and_except_with_else():
    try:
        return 0
    except ValueError:
        return 1
    else:
        print("else never runs: the try body returned")
    return 2


@cases((0,), (2,))
def return_at_end_of_suppressing_with(x):
    from contextlib import suppress

    with suppress(ZeroDivisionError):
        y = 10 // x
        return y
    return "suppressed, so the function goes on"


@cases(
    (3,),
)
def return_after_loop_in_suppressing_with(n):
    with Logged("s", suppress=True):
        for i in range(n):
            if i == 1:
                raise ValueError(i)
        return "no error"
    return "after with"
