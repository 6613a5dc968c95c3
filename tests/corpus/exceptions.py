"""try / except / else / finally with control flow in every part; raising and re-raising."""

from tests.differential import cases


@cases(
    (5,),
)
def break_in_try_runs_finally(n):
    log = []
    for i in range(n):
        try:
            if i == 2:
                break
            log.append(i)
        finally:
            log.append(("finally", i))
    return log


@cases(
    (4,),
)
def continue_in_try_runs_finally(n):
    log = []
    for i in range(n):
        try:
            if i % 2:
                continue
            log.append(i)
        finally:
            print("finally", i)
    return log


@cases(
    ([1, 0, 2, 0],),
)
def continue_and_break_in_except(xs):
    out = []
    errors = 0
    for x in xs:
        try:
            out.append(10 // x)
        except ZeroDivisionError:
            errors += 1
            if errors > 1:
                break
            continue
        out.append("ok")
    return out, errors


@cases((["1", "2", "x"],), (["5"],))
def break_in_try_else(items):
    for s in items:
        try:
            v = int(s)
        except ValueError:
            v = None
        else:
            if v == 2:
                break
        print("item", s, v)
    return v


@cases(
    (3,),
)
def loop_in_finally_with_break(n):
    log = []
    try:
        log.append("body")
    finally:
        for i in range(n):
            if i == 1:
                break
            log.append(i)
    return log


@cases((0,), (1,), (2,), (3,))
def try_in_every_part_with_flow(k):
    log = []
    for i in range(3):
        try:
            if k == 0 and i == 1:
                continue
            if k == 1 and i == 1:
                raise ValueError(i)
        except ValueError:
            if k == 1:
                log.append("caught")
                break
        else:
            if k == 2 and i == 2:
                break
        finally:
            log.append(("fin", i))
            if k == 3:
                for j in range(2):
                    if j:
                        break
                    log.append("fin-loop")
        log.append(i)
    return log


@cases(("x",), ("3",))
def raise_from_in_loop(s):
    for _ in range(2):
        try:
            return int(s)
        except ValueError as e:
            raise RuntimeError(f"bad input {s!r}") from e


@cases((0,), (1,))
def reraise_bare(n):
    try:
        if n:
            raise KeyError("k")
        return "ok"
    except KeyError:
        print("cleanup")
        raise


@cases((0,), (1,))
def raise_in_except_keeps_context(n):
    try:
        1 / n
        if n:
            raise LookupError("inner")
    except (ZeroDivisionError, LookupError) as e:
        raise ValueError("outer: " + type(e).__name__)  # noqa: B904 - the implicit context is tested


@cases((1,), (0,))
def except_as_name_is_deleted(n):
    try:
        1 / n
    except ZeroDivisionError as e:
        print("caught", e)
    # UnboundLocalError: the handler deleted `e` (and nothing bound it when nothing was raised)
    return e  # noqa: F821


@cases(
    (3,),
)
def exception_caught_outside_loop(n):
    seen = []
    try:
        for i in range(n):
            for j in range(n):
                seen.append((i, j))
                if i * j == 2:
                    raise IndexError(f"stop at {i},{j}")
    except IndexError as e:
        seen.append(str(e))
    return seen


@cases(({"a": [1, 2]}, "a", 5), ({"a": [1, 2]}, "b", 0))
def lookup_errors_from_deep_inside(d, key, index):
    for _ in range(1):
        if key:
            while True:
                return d[key][index]
    return None


@cases((3,), (0,))
def exception_in_while_test(n):
    xs = list(range(n))
    i = 0
    while xs[i] < 10:
        i += 1
    return i


@cases(
    (2,),
)
def nested_try_reraise(n):
    log = []
    try:
        try:
            for i in range(n + 1):
                if i == n:
                    raise TypeError("deep")
        except TypeError:
            log.append("inner")
            raise
        finally:
            log.append("inner finally")
    except TypeError as e:
        log.append(("outer", str(e)))
    return log


class MyError(Exception):
    def __init__(self, code):
        super().__init__(f"code {code}")
        self.code = code


@cases((3,), (7,))
def custom_exception_attributes(n):
    try:
        for i in range(10):
            if i == n:
                raise MyError(i)
    except MyError as e:
        if e.code > 5:
            raise
        return e.code
    return None


@cases((1,), (0,))
def exception_group_like_sequence(n):
    errors = []
    for f in (lambda: 1 / n, lambda: [][n], lambda: {}[n]):
        try:
            f()
        except (ZeroDivisionError, IndexError, KeyError) as e:
            errors.append(type(e).__name__)
    return errors


@cases(
    (2,),
)
def finally_order_nested(n):
    for i in range(n):
        try:
            try:
                print("body", i)
                if i == 1:
                    return "returned"
            finally:
                print("inner finally", i)
        finally:
            print("outer finally", i)
    return "end"


# The nested generator stays Python, with a warning naming it the first time it is called
# (asserted in test_errors_and_warnings); the rest is converted.
@cases((0,), (1,), warns_once=r"\.cm \(.*exceptions\.py:\d+\) stays Python: the yield")
def with_statement_exception_propagates(n):
    from contextlib import contextmanager

    @contextmanager
    def cm():
        print("setup")
        try:
            yield "res"
        finally:
            print("teardown")

    with cm() as r:
        if n:
            raise ValueError(r)
    return r


@cases((True,), (False,))
def unbound_local_caught_inside_branch(flag):
    if flag:
        try:
            return x  # noqa: F821 - unbound here: the test
        except UnboundLocalError as e:
            return "caught: " + str(e)
    x = 1
    return x


class _Suppress:
    """Prints the type of the exception leaving its block, and swallows it."""

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        print("exit", kind.__name__ if kind else None, value)
        return True


@cases(
    (2,),
)
def unbound_local_seen_by_with_in_loop(n):
    for i in range(n):
        with _Suppress():
            print(y + i)  # noqa: F821 - unbound on the first iteration
        y = i
    return y


@cases(
    (2,),
)
def unbound_local_message_seen_by_handler(n):
    for _ in range(n):
        try:
            print(z)  # noqa: F821 - unbound on the first iteration
        except NameError as e:
            return type(e).__name__, str(e)
        z = 1  # noqa: F841 - read on the next iteration
    return None


# An exception raised in `finally` cancels the return / break / continue in flight; when it is
# then caught or suppressed, the function goes on as if the jump had never been.


@cases(())
def return_cancelled_by_exception_in_finally_then_suppressed():
    from contextlib import suppress

    with suppress(ValueError):
        try:
            return "from try"
        finally:
            raise ValueError
    return "after with"


@cases(())
def return_cancelled_by_exception_in_finally_then_caught():
    try:
        try:
            return "inner"
        finally:
            raise ValueError
    except ValueError:
        pass
    return "after"


@cases(
    (3,),
)
def break_cancelled_by_exception_in_finally(n):
    out = []
    for i in range(n):
        try:
            try:
                break
            finally:
                raise ValueError
        except ValueError:
            out.append(i)
    return out


@cases(
    (2,),
)
def continue_cancelled_by_exception_in_finally(n):
    out = []
    for i in range(n):
        try:
            try:
                continue
            finally:
                raise ValueError
        except ValueError:
            out.append(i)
        out.append("after")
    return out


@cases(([1, 0],), ([1],))
def except_as_name_deleted_in_loop(xs):
    for x in xs:
        try:
            print(1 / x)
        except ZeroDivisionError as e:
            print("caught", e)
    return e  # noqa: F821 - always unbound here: the handler deletes it
