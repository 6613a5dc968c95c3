"""Logical and conditional expressions, and calls: this source in, this source out."""

import numpy
import pytest

from autoconv import do_not_convert
from tests.converters.helpers import convert_source, dedent


def _helper(x):
    return x


@do_not_convert
def _opted_out(x):
    return x


GLOBALS = {"np": numpy, "helper": _helper, "opted_out": _opted_out, "len": len}

CASES = {
    "and_or_not": (
        "lambda a, b: a and b or not a",
        "lambda a, b: ac.or_(ac.and_(a, lambda: b), lambda: ac.not_(a))",
    ),
    "three_operands": (
        "lambda a, b, c: a or b or c",
        "lambda a, b, c: ac.or_(a, lambda: b, lambda: c)",
    ),
    "conditional_expression": (
        "lambda x: 1 if x else 2",
        "lambda x: ac.if_exp(x, lambda: 1, lambda: 2)",
    ),
    "chained_comparison": ("lambda x: 0 < x <= 10", "lambda x: ac.and_(0 < x, lambda: x <= 10)"),
    # Where only the truth counts, the operator returns it: each `__bool__` runs once.
    "test_of_conditional_expression": (
        "lambda a, b: 1 if a and not (b or a) else 2",
        "lambda a, b: ac.if_exp(ac.and_(a, lambda: ac.not_(ac.or_(b, lambda: a, test=True)), test=True), lambda: 1, lambda: 2)",
    ),
    "chained_comparison_as_test": (
        "lambda x, y: [y for y in x if 0 < y < 9]",
        "lambda x, y: [y for y in x if ac.and_(0 < y, lambda: y < 9, test=True)]",
    ),
    "operand_in_value_context_keeps_its_value": (
        "lambda a, b: (a or b) if not a else b",
        "lambda a, b: ac.if_exp(ac.not_(a), lambda: ac.or_(a, lambda: b), lambda: b)",
    ),
    "chained_comparison_with_a_call_in_the_middle_evaluates_it_once": (
        "lambda x: 0 < f(x) <= 10",
        "lambda x: ac.compare_chain(('<', '<='), 0, lambda: ac.converted(f)(x), lambda: 10)",
    ),
    "chained_comparison_with_in_stays": (
        "lambda x: 0 < f(x) in (1, 2)",
        "lambda x: 0 < ac.converted(f)(x) in (1, 2)",
    ),
    "walrus_operand_stays_python": ("lambda a: a and (b := 1)", "lambda a: a and (b := 1)"),
    "numpy_and_builtins_are_called_as_they_are": (
        "lambda x: np.sum(x) + len(x)",
        "lambda x: np.sum(x) + len(x)",
    ),
    "user_functions_go_through_converted": (
        "lambda x: helper(x)",
        "lambda x: ac.converted(helper)(x)",
    ),
    "do_not_convert_is_called_as_it_is": ("lambda x: opted_out(x)", "lambda x: opted_out(x)"),
    "parameters_are_unknown": ("lambda f, x: f(x)", "lambda f, x: ac.converted(f)(x)"),
    "methods_of_literals_are_built_ins": ("lambda xs: ', '.join(xs)", "lambda xs: ', '.join(xs)"),
}


@pytest.mark.parametrize("source, expected", CASES.values(), ids=CASES.keys())
def test_converts_to(source, expected):
    assert convert_source(source, GLOBALS) == expected


def test_list_methods_need_no_conversion():
    out = convert_source(
        """
        def f(xs):
            out = []
            out.append(xs)
            return out
        """,
        GLOBALS,
    )
    assert out == dedent(
        """
        def f(xs):
            out = []
            out.append(xs)
            return out
        """
    )


def test_names_unpacked_from_displays_need_no_conversion_unless_rebound():
    out = convert_source(
        """
        def f(xs):
            stack, seen, n = [], {}, 0
            stack.append(xs)
            seen.update(xs)
            seen.get(xs)
            first, rest = xs
            first.append(rest)
            n = xs
            return n.pop()
        """,
        GLOBALS,
    )
    assert "    stack.append(xs)" in out
    # a set's or dict's lookups, additions and updates: a key may be known only when a graph
    # runs (`d.update(zip(x.tolist(), ...))`, `e.update(d)` of a run-time dict)
    assert "ac.converted(seen.update)(xs)" in out
    assert "ac.converted(seen.get)(xs)" in out
    assert "ac.converted(first.append)(rest)" in out  # bound from an unknown value
    assert "ac.converted(n.pop)()" in out  # rebound to an unknown value


def test_recursive_false_leaves_calls_alone():
    assert convert_source("lambda x: helper(x)", GLOBALS, recursive=False) == (
        "lambda x: helper(x)"
    )


def test_zero_argument_super_names_its_class_and_instance():
    out = convert_source(
        """
        def method(self, x):
            if x:
                return super().method(x)
            return 0
        """
    )
    assert "ac.converted(super(__class__, self).method)(x)" in out
