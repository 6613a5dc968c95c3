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
                ac.print(x)
                retval = 2
            ac.if_stmt(x, if_body, else_body, get_state, set_state, ('retval',))
            return retval
        """,
    ),
    "two_guard_clauses_nest_without_a_flag": (
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
                return (retval,)
            def set_state(state):
                nonlocal retval
                [retval] = state
            retval = None
            def if_body():
                nonlocal retval
                retval = 'a'
            def elif_body():
                nonlocal retval
                retval = 'b'
            def else_body():
                nonlocal retval
                retval = 'c'
            ac.if_stmt(c == 1, if_body, (lambda: c == 2, elif_body, else_body), get_state, set_state, ('retval',))
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
            if c == 3:
                return 'c'
            print(c)
            if c == 4:
                return 'd'
            if c == 5:
                return 'e'
            return 'f'
        """,
        None,
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
    # Guards after the first are joined to `not do_return` at the top level; only the last two
    # nest (into a guard's else branch), so no `ac.if_stmt(` is more than three levels deep.
    depths = [len(line) - len(line.lstrip()) for line in out.splitlines() if "ac.if_stmt(" in line]
    assert max(depths) <= 12, out
    assert out.count("ac.not_(do_return)") >= 3, out


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
    assert "finally:\n        ac.print('done')" in out
    assert "return retval" in out
