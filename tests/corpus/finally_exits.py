"""`return`, `break` and `continue` out of a `finally` block: the escape discards the exception
in flight and overrides an escape in flight (a `return` value, a `break`, a `continue`)."""

# ruff: noqa: B012 - jumps out of `finally` are what this module tests

from tests.differential import cases


class Interrupt(BaseException):
    """Not an `Exception`: a `finally` escape discards it too."""


class Closing:
    """A context manager that prints, and raises on exit when `fail`."""

    def __init__(self, fail=False):
        self.fail = fail

    def __enter__(self):
        print("enter")
        return self

    def __exit__(self, kind, value, tb):
        print("exit", kind.__name__ if kind else None)
        if self.fail:
            raise RuntimeError("exit failed")
        return False


# -- return --


@cases((0,), (1,))
def return_in_finally_overrides_return(n):
    try:
        return 1
    finally:
        if n:
            return 2


@cases((0,), (1,), (2,))
def return_in_finally_discards_exception(n):
    try:
        if n == 1:
            raise ValueError("in body")
        print("body done")
    finally:
        print("finally")
        if n:
            return "discarded"
    return "after"


@cases((0,), (1,))
def unconditional_return_in_finally(n):
    try:
        print(10 // n)
    finally:
        return "always"


@cases((0,), (1,), (2,), (3,))
def try_except_else_finally_return(n):
    try:
        if n == 1:
            raise KeyError(n)
        if n == 2:
            return "body"
    except KeyError:
        print("handler")
        raise TypeError("from handler")  # noqa: B904 - the context is compared
    else:
        print("else")
        if n == 3:
            return "else"
    finally:
        print("finally")
        if n != 0:
            return "finally"
    return "end"


@cases((0,), (1,))
def return_in_finally_discards_base_exception(n):
    try:
        if n:
            raise Interrupt("stop")
    finally:
        return "kept going"


@cases((0,), (1,), (2,))
def bare_return_in_finally(n):
    try:
        if n == 1:
            return "body"
        if n == 2:
            raise ValueError(n)
    finally:
        if n:
            return
    return "end"


@cases((0,), (1,), (2,), (3,))
def return_in_loop_in_finally(n):
    try:
        if n == 3:
            raise ValueError("lost")
        return "body"
    finally:
        for i in range(3):
            print("finally loop", i)
            if i == n:
                return i


@cases((0,), (1,), (4,))
def return_in_while_in_finally(n):
    i = 0
    try:
        1 / n
    finally:
        while i < 3:
            i += 1
            if i == n:
                return "found"
    return i


@cases((0,), (1,), (2,))
def finally_raises_before_return(n):
    try:
        if n == 2:
            raise KeyError("first")
    finally:
        if n:
            raise ValueError("from finally")
        return "quiet"


@cases((0,), (1,), (2,))
def exception_from_finally_caught_outside(n):
    try:
        try:
            return "inner"
        finally:
            if n == 1:
                raise ValueError("cancels the return")
            if n == 2:
                return "finally"
    except ValueError:
        print("caught")
    return "after"


@cases((0,), (1,), (2,))
def nested_finally_returns(n):
    try:
        try:
            if n == 2:
                raise ValueError("deep")
            return "inner body"
        finally:
            if n:
                return "inner finally"
    finally:
        print("outer finally")
        if n == 2:
            return "outer finally"


@cases((0,), (1,), (2,))
def nested_try_in_finally(n):
    try:
        raise KeyError("outer")
    finally:
        try:
            if n == 1:
                raise ValueError("inner")
            if n == 2:
                return "inner body"
        except ValueError:
            return "inner handler"
        finally:
            print("inner finally")


@cases((False,), (True,))
def with_in_finally_exit_raises(fail):
    try:
        raise KeyError("in flight")
    finally:
        with Closing(fail):
            return "from with"


@cases((False,), (True,))
def with_in_finally_caught_outside(fail):
    try:
        try:
            pass
        finally:
            with Closing(fail):
                return "from with"
    except RuntimeError as e:
        print("caught", e)
    return "after"


@cases((0,), (1,))
def later_exception_has_no_context(n):
    for _ in range(1):
        try:
            raise KeyError("discarded")
        finally:
            break
    if n:
        raise ValueError("later")
    return "ok"


@cases((0,), (1,))
def return_in_finally_of_method_like_cleanup(n):
    log = []
    try:
        log.append("open")
        if n:
            raise OSError("read failed")
        log.append("read")
    finally:
        log.append("close")
        return log


# -- break and continue --


@cases(([1, 2, 3],), ([0, 1],), ([],))
def break_in_finally_discards_exception(xs):
    out = []
    for x in xs:
        try:
            out.append(10 // x)
        finally:
            if x < 2:
                break
    else:
        out.append("no break")
    return out


@cases(([1, 0, 2],), ([0, 0],))
def continue_in_finally_discards_exception(xs):
    out = []
    for x in xs:
        try:
            out.append(10 // x)
        finally:
            print("finally", x)
            continue
        out.append("unreachable")  # noqa: F841
    return out


@cases(([1, 2, 3],), ([5],))
def continue_in_finally_discards_return(xs):
    seen = []
    for x in xs:
        try:
            seen.append(x)
            if x == 2:
                return "returned"
        finally:
            if x == 2:
                continue
        seen.append("after")
    return seen


@cases(([1, 2, 3],), ([1],))
def continue_in_finally_discards_break(xs):
    seen = []
    for x in xs:
        try:
            if x == 2:
                break
        finally:
            continue
    else:
        seen.append("else ran")
    return seen, x


@cases(([1, 2, 3],))
def break_in_finally_discards_continue(xs):
    seen = []
    for x in xs:
        try:
            continue
        finally:
            seen.append(x)
            if x == 2:
                break
    else:
        seen.append("else")
    return seen


@cases(([1, 2, 3],), ([3],))
def break_in_finally_discards_return(xs):
    for x in xs:
        try:
            return x
        finally:
            if x < 3:
                break
    return "broke"


@cases(([1, 2, 3],), ([],))
def return_in_finally_discards_break(xs):
    for x in xs:
        try:
            if x == 2:
                break
        finally:
            if x == 2:
                return "returned"
    return "fell off"


@cases(([1, 2, 3],), ([4],))
def return_in_finally_discards_continue(xs):
    log = []
    for x in xs:
        try:
            if x == 1:
                continue
            log.append(x)
        finally:
            if x == 1:
                return log
    return "end"


@cases((3,), (0,))
def nested_loops_finally_breaks_inner(n):
    log = []
    for i in range(n):
        for j in range(n):
            try:
                if j == 1:
                    raise ValueError(j)
                log.append((i, j))
            finally:
                if j == 1:
                    break
        log.append(("outer", i))
    return log


@cases((4,), (1,))
def while_with_continue_in_finally(n):
    i = 0
    log = []
    while i < n:
        i += 1
        try:
            if i % 2:
                raise ValueError(i)
            log.append(i)
        finally:
            if i % 2:
                continue
        log.append("even")
    return log


@cases(([1, 2],), ([],))
def break_in_finally_in_except_handler(xs):
    log = []
    for x in xs:
        try:
            raise KeyError(x)
        except KeyError:
            try:
                raise ValueError("while handling")
            finally:
                log.append(x)
                break
    return log


@cases((0,), (1,), (2,))
def finally_loop_and_return_mixed(n):
    log = []
    for i in range(3):
        try:
            if i == n:
                raise ValueError(i)
        finally:
            for j in range(2):
                if j == 1:
                    break
                log.append((i, j))
            if i == n:
                return log
    return "end", log


@cases(([1, 2],), ([],), (["x"],))
def return_in_loop_waits_for_finally(xs):
    """The loop stops at the `return` even though the return waits for the `finally`."""
    try:
        try:
            for x in xs:
                print("item", x)
                return x + 1
        finally:
            print("finally")
    except TypeError:
        print("caught")
    return "end"
