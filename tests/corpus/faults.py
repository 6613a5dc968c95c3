# ruff: noqa: F821, F841, B007 - locals read before assignment are what these cases test
"""Exact behaviour under faults, on Python values: an unbound local read inside converted
control flow is the `UnboundLocalError` the original raises (to its `except` clauses, to a
context manager's `__exit__`, with the same context), `__bool__` runs as often as in the
original, and a generator looped over is closed as the loop is left by an exception."""

from tests.differential import cases

# -- unbound locals: `except UnboundLocalError` catches, `except NameError` does not run first --


def _which(run):
    try:
        run()
    except UnboundLocalError as e:
        return "UnboundLocalError", str(e)
    except NameError as e:
        return "NameError", str(e)
    return "nothing"


@cases((True,), (False,))
def unbound_read_in_try_in_if(flag):
    if flag:
        try:
            print(c)
        except UnboundLocalError:
            return "UnboundLocalError"
        except NameError:
            return "NameError"
    c = 1
    return c


@cases((2,), (0,))
def unbound_after_del_in_same_try(n):
    c = 1
    if n:
        try:
            c += 1
            del c
            c += 1
        except UnboundLocalError:
            return "UnboundLocalError"
        except NameError:
            return "NameError"
    return n


@cases((True,), (False,))
def unbound_in_finally_after_handler_del(flag):
    c = 1
    if flag:
        try:
            try:
                raise ValueError
            except ValueError:
                del c
            finally:
                print(c)
        except UnboundLocalError:
            return "UnboundLocalError"
        except NameError:
            return "NameError"
    return c


@cases((True,), (False,))
def unbound_after_del_in_finally(flag):
    c = 1
    if flag:
        try:
            pass
        finally:
            del c
        try:
            return c
        except UnboundLocalError:
            return "UnboundLocalError"
        except NameError:
            return "NameError"
    return c


@cases((True,), (False,))
def unbound_after_del_in_loop_else(flag):
    c = 1
    if flag:
        try:
            for c in range(0):
                pass
            else:
                del c
            print(c)
        except UnboundLocalError:
            return "UnboundLocalError"
        except NameError:
            return "NameError"
    return c


@cases((3,), (0,))
def unbound_in_loop_second_iteration(n):
    c = 1
    for i in range(n):
        try:
            print(i, c)
        except UnboundLocalError:
            return "UnboundLocalError"
        except NameError:
            return "NameError"
        del c
    return n


@cases((True,), (False,))
def unbound_read_in_handler_keeps_context(flag):
    # The original's error has the ValueError being handled as its context.
    if flag:
        try:
            raise ValueError("first")
        except ValueError:
            print(c)
    c = 1
    return c


@cases((True,), (False,))
def unbound_read_in_nested_handler_keeps_context(flag):
    try:
        raise KeyError("outer")
    except KeyError:
        if flag:
            try:
                raise ValueError("inner")
            except ValueError:
                print(c)
    c = 1
    return c


class ExitLog:
    """Swallows everything and records what `__exit__` received."""

    def __init__(self, log):
        self.log = log

    def __enter__(self):
        return self

    def __exit__(self, kind, error, tb):
        context = error.__context__ if error is not None else None
        self.log.append(
            (
                kind.__name__ if kind else None,
                type(context).__name__ if context is not None else None,
                error.__suppress_context__ if error is not None else None,
            )
        )
        return True


@cases((True,), (False,))
def unbound_read_in_with_in_if(flag):
    log = []
    if flag:
        with ExitLog(log):
            print(c)
    c = 1
    return log


@cases((True,), (False,))
def unbound_read_in_with_in_handler(flag):
    log = []
    try:
        raise KeyError("k")
    except KeyError:
        if flag:
            with ExitLog(log):
                print(c)
    c = 1
    return log


@cases((2,), (0,))
def unbound_read_in_with_in_while(n):
    log = []
    while n:
        n -= 1
        with ExitLog(log):
            print(c)
        c = n
    return log


@cases((2,), (0,), warns_once=r"\.gen \(.*faults\.py:\d+\) stays Python: the yield")
def free_variable_read_by_generator_stays_name_error(n):
    # The generator reads `c` as a free variable: the original raises NameError, not
    # UnboundLocalError, although the loop that runs it is converted.
    def gen():
        yield c

    for i in range(n):
        for x in gen():
            print(x)
    c = 1
    return n


@cases((True,), (False,))
def unbound_in_operand_of_and(flag):
    try:
        if flag and c:
            return "yes"
    except UnboundLocalError:
        return "UnboundLocalError"
    except NameError:
        return "NameError"
    c = 1
    return c


# -- `__bool__` runs as often as in the original --


class Truth:
    """A value whose truth is asked for is logged (as lazy values and proxies may do work)."""

    def __init__(self, value, name, log):
        self.value, self.name, self.log = value, name, log

    def __bool__(self):
        self.log.append(self.name)
        return self.value

    def __lt__(self, other):
        return Truth(self.value, f"{self.name}<", self.log)


@cases((False, True), (True, False), (True, True))
def bool_once_in_if_and(x, y):
    log = []
    a, b = Truth(x, "a", log), Truth(y, "b", log)
    if a and b:
        log.append("then")
    return log


@cases((False, True), (True, False), (False, False))
def bool_once_in_if_or_not(x, y):
    log = []
    a, b = Truth(x, "a", log), Truth(y, "b", log)
    if a or b:
        log.append("then")
    if not (a or b):
        log.append("not")
    return log


@cases((False,), (True,))
def bool_once_in_chained_comparison(x):
    log = []
    a, b, c = Truth(x, "a", log), Truth(x, "b", log), Truth(x, "c", log)
    if a < b < c:
        log.append("then")
    return log


@cases((False, True), (True, True), (True, False))
def bool_once_in_while_test(x, y):
    log = []
    a, b = Truth(x, "a", log), Truth(y, "b", log)
    n = 0
    while (a and b) and n < 2:
        n += 1
    return log, n


@cases((False, True), (True, True), (True, False))
def bool_once_in_conditional_expression_and_comprehension(x, y):
    log = []
    a, b = Truth(x, "a", log), Truth(y, "b", log)
    first = "yes" if a and b else "no"
    kept = [i for i in range(2) if a or b]
    return log, first, kept


@cases((False, True), (True, True))
def bool_in_value_context_keeps_python_values(x, y):
    log = []
    a, b = Truth(x, "a", log), Truth(y, "b", log)
    value = a and b
    return log, value.name


# -- a generator looped over is closed as the loop is left by an exception --


def _numbers(log):
    try:
        yield 1
        yield 2
    finally:
        log.append("generator closed")


@cases((1,), (2,), (3,), warns_once=r"_numbers \(.*faults\.py:\d+\) stays Python: the yield")
def generator_closed_before_handler(n):
    log = []
    try:
        for x in _numbers(log):
            if x == n:
                raise ValueError(x)
    except ValueError:
        log.append("handler")
    return log


@cases((1,), (2,), warns_once=r"_numbers \(.*faults\.py:\d+\) stays Python: the yield")
def generators_of_nested_loops_closed_before_handler(n):
    log = []
    try:
        for x in _numbers(log):
            for y in _numbers(log):
                if y == n:
                    raise KeyError(x)
    except KeyError:
        log.append("handler")
    return log


@cases((1,), warns_once=r"_numbers \(.*faults\.py:\d+\) stays Python: the yield")
def generator_held_by_a_name_stays_open(n):
    log = []
    numbers = _numbers(log)
    try:
        for x in numbers:
            if x == n:
                raise ValueError(x)
    except ValueError:
        log.append("handler")
    log.append(next(numbers))
    return log
