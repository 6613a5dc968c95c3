"""The warning for an `autoconv.function` made anew for every call.

`for x in xs: autoconv.function(f)(x)` (or a decorated `def` inside a loop body, or inside a
function that is called repeatedly) makes a new `Function` each time, and each one traces
afresh: the graphs of the one before are thrown away with it. Each `Function` remembers where
it was made (the first frame outside autoconv); when the first trace of a new `Function` for
the same Python function made at the same place is the `THRESHOLD`-th, a `RetracingWarning`
points at that place, once per place.

Counts are kept per code object of the making frame, weakly: a notebook cell run again, or a
module reloaded, is compiled into a new code object and starts from zero (making a `Function`
anew there is what the user meant), while a loop, or a helper called again and again, runs the
same code. Within it they are keyed by plain values (line, the function's code location), so
they keep no function or frame alive; they are bounded (`_LIMIT` per code object) and cleared
by `clear_caches()`.
"""

from __future__ import annotations

import inspect
import os
import sys
import types

import autoconv
from autoconv.caches import IdentityCache, register_cache
from autoconv.graph.errors import RetracingWarning, warn_at

THRESHOLD = 3
_LIMIT = 4096
_PACKAGE = os.path.dirname(os.path.abspath(autoconv.__file__)) + os.sep

# code of the making frame -> {(line, function key): Functions traced so far, None once warned}
_counts = IdentityCache()
register_cache("functions made per call (loop warning)", _counts)


def creation_site():
    """`(code, line, module globals)` of the first frame outside autoconv: the user's line
    that made the `Function` (a decorator's line, or the `function(...)` call); or None."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
    if frame is None:
        return None
    return (frame.f_code, frame.f_lineno, frame.f_globals)


def _function_key(python_function):
    """What identifies the Python function across the Functions made for it: its code's
    location (a `def` run again makes a new function with the same code), and for a bound
    method the instance too (a method wrapped for each of several objects is no mistake)."""
    instance = None
    if isinstance(python_function, types.MethodType):
        instance = id(python_function.__self__)
        python_function = python_function.__func__
    code = getattr(inspect.unwrap(python_function), "__code__", None)
    if code is None:
        return (id(python_function), instance)
    return (code.co_filename, code.co_firstlineno, code.co_name, instance)


def first_trace(function) -> None:
    """Counts the first trace of `function` (a `Function`); warns at the `THRESHOLD`-th
    `Function` made at the same place for the same Python function."""
    site = function._made_at
    if site is None:
        return
    code, line, module_globals = site
    counts = _counts.get(code)
    if counts is None:
        counts = {}
        _counts.put(code, counts)
    key = (line, _function_key(function.python_function))
    count = counts.get(key, 0)
    if count is None:  # warned already
        return
    count += 1
    if count < THRESHOLD:
        if len(counts) >= _LIMIT:
            counts.clear()
        counts[key] = count
        return
    counts[key] = None
    message = (
        f"autoconv.function `{function._name}` was made anew and traced {count} times at this "
        "line (in a loop, or in a function called again and again): each new "
        "autoconv.function traces from scratch, and its graphs go with it. Create the "
        "autoconv.function once, outside the loop, and call that same object; it keeps one "
        "graph per input signature."
    )
    warn_at(message, RetracingWarning, code.co_filename, line, module_globals)
