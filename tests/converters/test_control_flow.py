"""`if` / `for` / `while` to runtime calls: this source in, this source out."""

import pytest

from tests.converters.helpers import convert_source, dedent

CASES = {
    "if_assigns_state": (
        """
        def f(x):
            if x > 0:
                x = 1
            return x
        """,
        """
        def f(x):
            def get_state():
                return (x,)
            def set_state(state):
                nonlocal x
                [x] = state
            def if_body():
                nonlocal x
                x = 1
            ac.if_stmt(x > 0, if_body, None, get_state, set_state, ('x',))
            return x
        """,
    ),
    "if_without_state_has_no_state_functions": (
        """
        def f(x):
            if x:
                print(x)
        """,
        """
        def f(x):
            def if_body():
                ac.print(x)
            ac.if_stmt(x, if_body)
        """,
    ),
    "for_target_is_the_body_parameter": (
        """
        def cube(x):
            o = x
            for _ in range(2):
                o *= x
            return o
        """,
        """
        def cube(x):
            def get_state():
                return (o,)
            def set_state(state):
                nonlocal o
                [o] = state
            o = x
            def loop_body(_):
                nonlocal o
                o *= x
            ac.for_stmt(range(2), loop_body, get_state, set_state, ('o',))
            return o
        """,
    ),
    "tuple_target_read_by_a_branch_is_function_state": (
        """
        def f(xs):
            total = 0
            for i, x in enumerate(xs):
                if x < 0:
                    continue
                total += i * x
            return total
        """,
        """
        def f(xs):
            def get_state():
                return (total,)
            def set_state(state):
                nonlocal total
                [total] = state
            i: object
            x: object
            total = 0
            def else_body():
                nonlocal total
                total += i * x
            def loop_body(itr):
                nonlocal i, x
                i, x = itr
                ac.if_stmt(x < 0, None, else_body, get_state, set_state, ('total',))
            ac.for_stmt(ac.enumerate(xs), loop_body, get_state, set_state, ('total',))
            return total
        """,
    ),
    "target_used_after_the_loop_is_function_state": (
        """
        def f(xs):
            for x in xs:
                pass
            return x
        """,
        """
        def f(xs):
            def get_state():
                return (x,)
            def set_state(state):
                nonlocal x
                [x] = state
            x: object
            def loop_body(itr):
                nonlocal x
                x = itr
            ac.for_stmt(xs, loop_body, get_state, set_state, ('x',))
            return x
        """,
    ),
    "while_with_break_and_else": (
        """
        def f(n):
            while n > 0:
                n -= 1
                if n == 3:
                    break
            else:
                print("no break")
            return n
        """,
        """
        def f(n):
            def get_state():
                return (break_,)
            def set_state(state):
                nonlocal break_
                [break_] = state
            def get_state_1():
                return (n, break_)
            def set_state_1(state):
                nonlocal n, break_
                n, break_ = state
            break_ = False
            def if_body():
                nonlocal break_
                break_ = True
            def loop_body():
                nonlocal n
                n -= 1
                ac.if_stmt(n == 3, if_body, None, get_state, set_state, ('break_',))
                return break_
            ac.while_stmt(lambda: n > 0, loop_body, get_state_1, set_state_1, ('n', 'break_'))
            def if_body_1():
                ac.print('no break')
            ac.if_stmt(ac.not_(break_), if_body_1)
            return n
        """,
    ),
    "walrus_in_while_test_gets_a_def": (
        """
        def f(lines):
            while (line := lines.pop()):
                print(line)
        """,
        """
        def f(lines):
            def get_state():
                return (line,)
            def set_state(state):
                nonlocal line
                [line] = state
            line: object
            def loop_test():
                nonlocal line
                return (line := ac.list_method(lines, 'pop'))
            def loop_body():
                ac.print(line)
            ac.while_stmt(loop_test, loop_body, get_state, set_state, ('line',))
        """,
    ),
    "global_names_are_declared_global": (
        """
        def f(n):
            global total
            for i in range(n):
                total += i
        """,
        """
        def f(n):
            global total
            def get_state():
                return (total,)
            def set_state(state):
                global total
                [total] = state
            def loop_body(i):
                global total
                total += i
            ac.for_stmt(ac.range(n), loop_body, get_state, set_state, ('total',))
        """,
    ),
    "annotated_local_in_a_branch_loses_its_annotation": (
        """
        def f(c):
            if c:
                x: int = 1
            else:
                x: int = 2
            return x
        """,
        """
        def f(c):
            def get_state():
                return (x,)
            def set_state(state):
                nonlocal x
                [x] = state
            x: object
            def if_body():
                nonlocal x
                x = 1
            def else_body():
                nonlocal x
                x = 2
            ac.if_stmt(c, if_body, else_body, get_state, set_state, ('x',))
            return x
        """,
    ),
}


@pytest.mark.parametrize("source, expected", CASES.values(), ids=CASES.keys())
def test_converts_to(source, expected):
    assert convert_source(source) == dedent(expected)


def test_attribute_state_is_carried():
    out = convert_source(
        """
        def f(self, xs):
            for x in xs:
                self.n += x
        """
    )
    assert "return (self.n,)" in out
    assert "[self.n] = state" in out
    assert "('self.n',)" in out


def test_body_functions_are_defined_once_outside_loops():
    out = convert_source(
        """
        def f(xs):
            n = 0
            for x in xs:
                if x:
                    n += 1
            return n
        """
    )
    lines = out.splitlines()
    loop_body = next(i for i, line in enumerate(lines) if "def loop_body" in line)
    if_body = next(i for i, line in enumerate(lines) if "def if_body" in line)
    assert if_body < loop_body
    assert lines[if_body].startswith("    def ")  # at the function's top level


def test_identical_hoisted_bodies_are_shared_and_different_constants_are_not():
    out = convert_source(
        """
        def f(xs):
            n = 0
            for x in xs:
                if x > 2:
                    n = 1
                elif x > 1:
                    n = True
                elif x > 0:
                    n = 1.0
                elif x > -1:
                    n = -0.0
                elif x > -2:
                    n = 0.0
                else:
                    n = 1
            return n
        """
    )
    assert out.count("n = 1\n") == 1  # the first and the last branch share one body function
    for value in ("n = True", "n = 1.0", "n = -0.0", "n = 0.0"):
        assert out.count(value + "\n") == 1, value
