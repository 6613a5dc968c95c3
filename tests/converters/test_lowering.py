"""`return`, `break` and `continue` lowered to flags: this source in, this source out."""

import numpy
import pytest

from tests.converters.helpers import convert_source, dedent

CASES = {
    "returns_in_both_branches_need_no_flag": (
        """
        def my_function(x):
            if np.sum(x) <= 1:
                return x * x
            else:
                return x - 1
        """,
        """
        def my_function(x):
            def get_state():
                return (retval,)
            def set_state(state):
                nonlocal retval
                [retval] = state
            retval = None
            def if_body():
                nonlocal retval
                retval = x * x
            def else_body():
                nonlocal retval
                retval = x - 1
            ac.if_stmt(np.sum(x) <= 1, if_body, else_body, get_state, set_state, ('retval',))
            return retval
        """,
    ),
    "guard_clause_merges_the_rest_into_else": (
        """
        def f(x):
            if x:
                return 1
            print(x)
            return 2
        """,
        """
        def f(x):
            def get_state():
                return (retval,)
            def set_state(state):
                nonlocal retval
                [retval] = state
            retval = None
            def if_body():
                nonlocal retval
                retval = 1
            def else_body():
                nonlocal retval
                print(x)
                retval = 2
            ac.if_stmt(x, if_body, else_body, get_state, set_state, ('retval',))
            return retval
        """,
    ),
    "guard_clauses_after_the_first_are_guarded_by_the_flag": (
        """
        def f(c):
            if c == 1:
                return 'a'
            if c == 2:
                return 'b'
            return 'c'
        """,
        """
        def f(c):
            def get_state():
                return (retval, do_return)
            def set_state(state):
                nonlocal retval, do_return
                retval, do_return = state
            do_return = False
            retval = None
            def if_body():
                nonlocal retval, do_return
                retval = 'a'
                do_return = True
            ac.if_stmt(c == 1, if_body, None, get_state, set_state, ('retval', 'do_return'))
            def if_body_2():
                def if_body_1():
                    nonlocal retval
                    retval = 'b'
                def else_body():
                    nonlocal retval
                    retval = 'c'
                ac.if_stmt(c == 2, if_body_1, else_body, get_state, set_state, ('retval', 'do_return'))
            ac.if_stmt(ac.not_(do_return), if_body_2, None, get_state, set_state, ('retval', 'do_return'))
            return retval
        """,
    ),
    "guard_clauses_in_a_row_stay_flat": (
        """
        def f(c):
            if c == 1:
                return 'a'
            if c == 2:
                return 'b'
            print(c)
            if c == 3:
                return 'c'
            return 'd'
        """,
        None,
    ),
    "return_in_a_loop_stops_it": (
        """
        def g(xs):
            for x in xs:
                if x > 2:
                    return x
            return -1
        """,
        """
        def g(xs):
            def get_state():
                return (retval, do_return)
            def set_state(state):
                nonlocal retval, do_return
                retval, do_return = state
            x: object
            do_return = False
            retval = None
            def if_body():
                nonlocal retval, do_return
                retval = x
                do_return = True
            def loop_body(itr):
                nonlocal x
                x = itr
                ac.if_stmt(x > 2, if_body, None, get_state, set_state, ('retval', 'do_return'))
                return do_return
            ac.for_stmt(xs, loop_body, get_state, set_state, ('retval', 'do_return'))
            def if_body_1():
                nonlocal retval
                retval = -1
            ac.if_stmt(ac.not_(do_return), if_body_1, None, get_state, set_state, ('retval', 'do_return'))
            return retval
        """,
    ),
    "top_level_returns_stay_returns": (
        """
        def f(x):
            y = x + 1
            return y
        """,
        """
        def f(x):
            y = x + 1
            return y
        """,
    ),
}


@pytest.mark.parametrize("source, expected", CASES.values(), ids=CASES.keys())
def test_converts_to(source, expected):
    if expected is None:
        return
    globals_ = {"np": numpy}
    assert convert_source(source, globals_) == dedent(expected)


def test_guard_clauses_do_not_nest_deeper_and_deeper():
    source = CASES["guard_clauses_in_a_row_stay_flat"][0]
    out = convert_source(source)
    # Every guarded piece sits at the function's top level: `ac.if_stmt(` calls are indented
    # at most two levels (function body, and one body function for the final if/else).
    depths = [len(line) - len(line.lstrip()) for line in out.splitlines() if "ac.if_stmt(" in line]
    assert max(depths) <= 8, out
    assert out.count("ac.not_(do_return)") == 2, out


def test_return_in_try_finally_keeps_the_finally():
    out = convert_source(
        """
        def f(x):
            try:
                if x:
                    return 1
                x += 1
            finally:
                print('done')
            return x
        """
    )
    assert "finally:\n        print('done')" in out
    assert "return retval" in out
