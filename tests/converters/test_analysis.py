"""Static analysis: what code binds and reads, and liveness."""

import textwrap

import gast
import pytest

from autoconv.pyct import anno, liveness, scopes


def _function(source):
    return gast.parse(textwrap.dedent(source)).body[0]


@pytest.mark.parametrize(
    "source, expected",
    [
        ("x = 1", {"x"}),
        ("x += 1", {"x"}),
        ("a, (b, *c) = t", {"a", "b", "c"}),
        ("for i in r: j = i", {"i", "j"}),
        ("with m as (p, q): pass", {"p", "q"}),
        ("import os.path, sys as system", {"os", "system"}),
        ("from m import a as b", {"b"}),
        ("def g(): y = 1", {"g"}),
        ("class C: z = 1", {"C"}),
        ("[k for k in r]", set()),
        ("[(w := k) for k in r]", {"w"}),
        ("lambda v: v", set()),
        ("del d", {"d"}),
        ("try:\n    pass\nexcept E as e:\n    pass", {"e"}),
        (
            "match s:\n    case [a, *rest]: pass\n    case {'k': v, **kw}: pass",
            {"a", "rest", "v", "kw"},
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_bound_names(source, expected):
    assert scopes.bound_names(gast.parse(source).body) == expected


def test_local_names_exclude_globals_and_nonlocals():
    node = _function(
        """
        def f(a, *args, b, **kw):
            global g
            g = 1
            x = 2
        """
    )
    assert scopes.local_names(node) == {"a", "args", "b", "kw", "x"}


def _live(source):
    node = _function(source)
    liveness.analyze(node, scopes.local_names(node))
    return node


def test_if_live_out():
    node = _live(
        """
        def f(c):
            x = 0
            y = 0
            if c:
                x = 1
                y = 1
            return x
        """
    )
    assert anno.get(node.body[2], "live_out") == {"x"}


def test_loop_carried_variable_is_live_into_the_body():
    node = _live(
        """
        def f(n):
            s = 0
            t = 0
            for i in range(n):
                t = i
                s = s + t
            return s
        """
    )
    loop = node.body[2]
    assert anno.get(loop, "live_in_body") == {"s"}  # t is bound before it is read
    assert anno.get(loop, "live_out") == {"s"}


def test_variables_read_in_an_exception_handler_are_live_through_the_try():
    node = _live(
        """
        def f(c):
            x = 0
            try:
                if c:
                    x = 1
                risky()
            except E:
                return x
            return 0
        """
    )
    inner_if = node.body[1].body[0]
    assert "x" in anno.get(inner_if, "live_out")
