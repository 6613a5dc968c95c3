"""`and`, `or`, `not` and conditional expressions as functions.

Operands after the first arrive as thunks, so evaluation stays short-circuit and lazy, and the
values are Python's own: `or_(a, lambda: b)` returns `a` itself when `a` is true, not `True`.
"""

from autoconv.runtime import keyed, objects, staging
from autoconv.runtime.sequences import COMPARISONS
from autoconv.runtime.unbound import past_operators, register, throw, unbound_error

_tracer_for = staging.tracer_for
_traces = staging.traces


def and_(value, operand, *more, test=False):
    """`value and operand() and ...`, evaluated left to right as Python does.

    With `test=True` (the test of an `if`, `while`...), returns the truth of that value instead,
    having called each operand's `__bool__` once, as Python does there."""
    # The two-operand case, by far the most common, runs once through; more operands loop.
    while True:
        if value is not True and value is not False:
            if _traces and type(value) in keyed.KINDS:
                value = keyed.operand(value, test)  # holding keys known only when it runs
            elif test:
                value = objects.tested(value)  # a user's object: its `__bool__`, converted
            tracer = _tracer_for(value)
            if tracer is not None:
                if test and getattr(tracer, "folds_tests", False):
                    return tracer.and_(value, (operand, *more), test=True)
                return tracer.and_(value, (operand, *more))
        if not value:
            return False if test else value
        try:
            value = operand()
        except NameError as e:
            new = unbound_error(e, operand)
            if new is None:
                past_operators(e)
                raise
            break
        except BaseException as e:
            past_operators(e)
            raise
        if not more:
            if _traces and type(value) in keyed.KINDS:
                value = keyed.operand(value, test)
            elif test:
                value = objects.tested(value)
            if test and value is not True and value is not False and _tracer_for(value) is None:
                return True if value else False
            return value
        operand, *more = more
    throw(new)  # out of the `except` block, which would chain the `NameError`


def compare_chain(ops, left, *operands, test=False):
    """`left op0 operand0() op1 operand1() ...`, a chained comparison, as Python evaluates it:
    each operand once, left to right, and `and` between the comparisons (`and_`: staged where
    one is known only when the graph runs), stopping at the first false one."""
    values = [left]

    def comparison(i):
        def compared():
            if len(values) == i + 1:
                values.append(operands[i]())
            return COMPARISONS[ops[i]](values[i], values[i + 1])

        return compared

    first = comparison(0)()
    return and_(first, *(comparison(i) for i in range(1, len(ops))), test=test)


def or_(value, operand, *more, test=False):
    """`value or operand() or ...`, evaluated left to right as Python does.

    With `test=True` (the test of an `if`, `while`...), returns the truth of that value instead,
    having called each operand's `__bool__` once, as Python does there."""
    # The two-operand case, by far the most common, runs once through; more operands loop.
    while True:
        if value is not True and value is not False:
            if _traces and type(value) in keyed.KINDS:
                value = keyed.operand(value, test)  # holding keys known only when it runs
            elif test:
                value = objects.tested(value)  # a user's object: its `__bool__`, converted
            tracer = _tracer_for(value)
            if tracer is not None:
                if test and getattr(tracer, "folds_tests", False):
                    return tracer.or_(value, (operand, *more), test=True)
                return tracer.or_(value, (operand, *more))
        if value:
            return True if test else value
        try:
            value = operand()
        except NameError as e:
            new = unbound_error(e, operand)
            if new is None:
                past_operators(e)
                raise
            break
        except BaseException as e:
            past_operators(e)
            raise
        if not more:
            if _traces and type(value) in keyed.KINDS:
                value = keyed.operand(value, test)
            elif test:
                value = objects.tested(value)
            if test and value is not True and value is not False and _tracer_for(value) is None:
                return True if value else False
            return value
        operand, *more = more
    throw(new)  # out of the `except` block, which would chain the `NameError`


def not_(value):
    """`not value`."""
    if value is not True and value is not False:
        if _traces and type(value) in keyed.KINDS:
            value = keyed.view(value)  # holding keys known only when the graph runs
        else:
            value = objects.tested(value)  # a user's object: its `__bool__`, converted
        tracer = _tracer_for(value)
        if tracer is not None:
            return tracer.not_(value)
    return not value


def truth(value):
    """`not not value`: the truth of a test's operand (converters/walrus_tests.py), a Python
    bool, or on a symbolic value a bool its tracer stages (known when the graph runs)."""
    if value is not True and value is not False:
        if _traces and type(value) in keyed.KINDS:
            value = keyed.view(value)  # holding keys known only when the graph runs
        else:
            value = objects.tested(value)  # a user's object: its `__bool__`, converted
        tracer = _tracer_for(value)
        if tracer is not None:
            return tracer.not_(tracer.not_(value))
    return not not value


def if_exp(cond, if_true, if_false):
    """`if_true() if cond else if_false()`."""
    if cond is not True and cond is not False:
        if _traces and type(cond) in keyed.KINDS:
            cond = keyed.view(cond)  # holding keys known only when the graph runs
        else:
            cond = objects.tested(cond)  # a user's object: its `__bool__`, converted
        tracer = _tracer_for(cond)
        if tracer is not None:
            return tracer.if_exp(cond, if_true, if_false)
    try:
        return if_true() if cond else if_false()
    except NameError as e:
        new = unbound_error(e, if_true, if_false)
        if new is None:
            past_operators(e)
            raise
    except BaseException as e:
        past_operators(e)
        raise
    throw(new)


register(and_, or_, if_exp)
