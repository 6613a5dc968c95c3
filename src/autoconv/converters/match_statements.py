"""A `match` statement whose cases test values, as the `if` / `elif` chain it means, so that a
subject known only when the graph runs stages it as any `if`:

    match k:                          subject = k        (a name is used as it is)
        case 0:                       if subject == 0:
            a()                           a()
        case 1 | 2:               ->  elif subject == 1 or subject == 2:
            b()                           b()
        case n if n > 9:              else:
            c(n)                          n = subject
        case _:                           if n > 9:
            d()                               c(n)
                                          else:
                                              d()

Patterns rewritten: literals and dotted names (`==`, as Python's value patterns compare),
`None` / `True` / `False` (`is`), `|` of those, `_`, a capture name, and `P as name`. A
`match` with any other pattern (sequences, mappings, classes) stays as written: Python runs it,
and a subject known only when the graph runs is a clear error there (checks.find_kept warns).
"""

import gast

from autoconv.converters import blocks, expressions, lowering
from autoconv.pyct import templates


def transform(function_node, namer) -> bool:
    """Rewrites the `match` statements of `function_node` whose patterns all test values;
    whether it rewrote one."""
    done = []

    def lower(stmt):
        if isinstance(stmt, gast.Match) and all(_supported(c) for c in stmt.cases):
            done.append(stmt)
            return _chain(stmt, namer)
        return [stmt]

    function_node.body = blocks.rewrite(function_node.body, lower)
    return bool(done)


def _supported(case) -> bool:
    pattern, names = case.pattern, _captured(case.pattern)
    if names is None:
        return False
    # a capture under a test, with a guard, would bind only where the test holds
    return not (names and case.guard is not None and _test(pattern, None) is not None)


def _captured(pattern):
    """The names `pattern` binds to the whole subject (None: a pattern not rewritten)."""
    if isinstance(pattern, (gast.MatchValue, gast.MatchSingleton)):
        return []
    if isinstance(pattern, gast.MatchOr):
        found = [_captured(p) for p in pattern.patterns]
        return [] if all(f == [] for f in found) else None  # (no name in an alternative)
    if isinstance(pattern, gast.MatchAs):
        inner = [] if pattern.pattern is None else _captured(pattern.pattern)
        if inner is None:
            return None
        return inner + ([pattern.name] if pattern.name else [])
    return None


def _test(pattern, subject):
    """The expression testing `subject` against `pattern`; None where it always matches."""
    if isinstance(pattern, gast.MatchValue):
        return templates.expr("s == v", s=subject, v=pattern.value)
    if isinstance(pattern, gast.MatchSingleton):
        value = gast.Constant(value=pattern.value, kind=None)
        return templates.expr("s is v", s=subject, v=value)
    if isinstance(pattern, gast.MatchOr):
        tests = [_test(p, subject) for p in pattern.patterns]
        if any(t is None for t in tests):
            return None
        return gast.BoolOp(op=gast.Or(), values=tests)
    return None if pattern.pattern is None else _test(pattern.pattern, subject)  # MatchAs


def _chain(node, namer) -> list:
    """The statements standing for `match` statement `node`."""
    first = []
    if isinstance(node.subject, gast.Name):
        subject = node.subject.id
    else:
        subject = namer.new("subject")
        first = templates.stmts("s = value", s=subject, value=node.subject)
    body = _cases(node.cases, subject)
    return [expressions.located(s, node) for s in first] + body


def _cases(cases, subject) -> list:
    if not cases:
        return []
    case, rest = cases[0], cases[1:]
    binds = [
        expressions.located(templates.stmts("n = s", n=name, s=subject)[0], case.pattern)
        for name in _captured(case.pattern)
    ]
    test = _test(case.pattern, lowering.name(subject, gast.Load()))
    if test is not None and case.guard is not None:
        test = gast.BoolOp(op=gast.And(), values=[test, case.guard])
    elif test is None:
        test = case.guard
    if test is None:  # `case _:`, `case n:`: the rest cannot be reached
        return binds + case.body
    branch = gast.If(test=test, body=binds + case.body if case.guard is None else case.body)
    branch.orelse = _cases(rest, subject)
    branch = expressions.located(branch, case.pattern)
    # (a capture with a guard binds before the guard is tested, as Python does)
    return binds + [branch] if case.guard is not None else [branch]
