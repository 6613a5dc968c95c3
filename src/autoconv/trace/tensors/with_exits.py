"""A staged `raise` inside a `with` block whose manager may suppress it.

Eagerly the exception passes through the manager's `__exit__`, which may return True and let
the function go on (`def __exit__(self, kind, exc, tb): return kind is ValueError`). A graph
records the `raise` to fire when it runs, where no `__exit__` sees it: it would raise where
eager code goes on. `suppressing_with(e)` finds such a block around the user's statement that
raised `e` while a branch was traced (a `with` of the user's class whose `__exit__` returns
something other than None or False), so that the tracer can say so instead.
(`with contextlib.suppress(...)` is a `try` by then: converters.suppress.)
"""

from __future__ import annotations

import ast
import inspect
import linecache
import sys
import textwrap

_WITHS: dict = {}  # (file, hash of its text) -> its `with` statements
_EXITS: dict = {}  # code of an `__exit__` -> whether it may return a true value


def suppressing_with(e: BaseException):
    """`(line, manager text, class name)` of the innermost `with` around the user's code that
    raised `e` whose manager may suppress it, or None."""
    from autoconv.conversion.library import generated_codes

    frames = []
    tb = e.__traceback__
    while tb is not None:
        frames.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    frame = sys._getframe(1)
    while frame is not None:
        frames.append((frame, frame.f_lineno))
        frame = frame.f_back
    for frame, line in frames:
        code = frame.f_code
        if id(code) not in generated_codes:
            continue
        for node in _withs_around(code.co_filename, line):
            for item in node.items:
                kind = _manager_class(item.context_expr, frame)
                if kind is not None and _may_suppress(kind):
                    return node.lineno, ast.unparse(item.context_expr), kind.__name__
    return None


def _withs_around(filename: str, line: int) -> list:
    """The `with` statements whose bodies hold `line`, innermost first."""
    text = "".join(linecache.getlines(filename))
    key = (filename, hash(text))
    found = _WITHS.get(key)
    if found is None:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            tree = ast.Module(body=[], type_ignores=[])
        found = _WITHS[key] = [n for n in ast.walk(tree) if isinstance(n, ast.With) and n.body]
    around = [n for n in found if n.body[0].lineno <= line <= n.body[-1].end_lineno]
    return sorted(around, key=lambda n: -n.lineno)


def _manager_class(expr, frame):
    """The class of the manager `expr` makes (`Ctx()`: Ctx; `ctx`: its value's type), looked
    up in `frame`; None where that cannot be known now."""
    if isinstance(expr, ast.Call):
        value = _lookup(expr.func, frame)
        return value if isinstance(value, type) else None
    value = _lookup(expr, frame)
    return None if value is _MISSING else type(value)


_MISSING = object()


def _lookup(expr, frame):
    if isinstance(expr, ast.Name):
        for scope in (frame.f_locals, frame.f_globals, frame.f_builtins):
            if expr.id in scope:
                return scope[expr.id]
        return _MISSING
    if isinstance(expr, ast.Attribute):
        owner = _lookup(expr.value, frame)
        if owner is _MISSING:
            return _MISSING
        try:
            return inspect.getattr_static(owner, expr.attr)
        except AttributeError:
            return _MISSING
    return _MISSING


def _may_suppress(kind: type) -> bool:
    """Whether `kind.__exit__`, a function of the user's, may return a true value."""
    exit_ = getattr(kind, "__exit__", None)
    code = getattr(exit_, "__code__", None)
    if code is None or code.co_filename.startswith(_LIBRARIES):
        return False
    found = _EXITS.get(code)
    if found is None:
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(exit_)))
        except (OSError, TypeError, SyntaxError):
            return False
        found = _EXITS[code] = any(
            isinstance(n, ast.Return)
            and n.value is not None
            and not (isinstance(n.value, ast.Constant) and n.value.value in (None, False))
            for n in ast.walk(tree)
        )
    return found


_LIBRARIES = tuple({p for p in (sys.prefix, sys.base_prefix, sys.exec_prefix) if p})
