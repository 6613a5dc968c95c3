"""Exceptions while tracing: the user's `raise` recorded to fire at run time, and the errors
for code that only works on the path the data takes.
"""

from __future__ import annotations

import operator
import os
import re
import sys
from typing import NamedTuple

import numpy as np

import autoconv
from autoconv.errors import AutoconvError
from autoconv.graph import graph as _g
from autoconv.graph import shapes
from autoconv.graph.errors import StagingError, raised_by_autoconv, where
from autoconv.graph.origin import source_text, user_origin
from autoconv.graph.tensor import Tensor
from autoconv.trace.core import messages
from autoconv.trace.tensors import staged_try
from autoconv.trace.tensors.appends import _NeedsAccumulator, _Rewritten, unsettled_appends
from autoconv.trace.tensors.leaves import _same_python
from autoconv.trace.tensors.optionals import (
    Optional,
    Raises,
    raise_node,
    user_raise,
    zeros_like,
)
from autoconv.trace.tensors.unions import Union
from autoconv.trace.tensors.user_code import _try_around, target_name

_AUTOCONV_DIR = os.path.dirname(os.path.abspath(autoconv.__file__)) + os.sep
_NUMPY_DIR = os.path.dirname(os.path.abspath(np.__file__)) + os.sep


def _trace_branch(fn):
    """Traces `fn` into the current block; true when every path through it raises (the user's
    `raise` or failed `assert`, or Python's own error in the user's code, then given as a
    `StagedPythonError`, is recorded to fire at run time)."""
    if fn is None:
        return False
    try:
        fn()
    except Raises:
        return True
    except (shapes.IndexOutOfBounds, shapes.ShapeValueError) as e:
        # Eager NumPy's error for shapes known while tracing (`x[5]` of 3 items): raised when
        # this branch runs, as eagerly, and not when it does not.
        kind = IndexError if isinstance(e, IndexError) else ValueError
        eager = kind(_MESSAGE.sub("", str(e), count=1))
        handled = staged_try.handled_raise(eager)
        if handled is not None:
            return handled  # a staged `try` takes its handler where the branch runs
        origin = exception_origin(e) or user_origin(2)
        handler = _handled_eagerly(e)
        if handler is not None:  # (an IndexError itself would be caught while tracing)
            raise StagingError(
                f"{where(origin)}: {eager} here, under a condition known only when the graph "
                f"runs, inside the `try` at line {handler[0]} whose `{handler[1]}` handles it: "
                "a graph cannot jump to the handler when it runs. Test the index or shape "
                "before the `try`, or compute both results and choose with np.where."
            ) from None
        raise_node(eager, origin)
        return True
    except (AutoconvError, RecursionError, _NeedsAccumulator):
        raise  # a recursion is reported at the trace boundary (graph.recursion); a loop retraces
    except Exception as e:
        stored = stored_tensor_error(e)
        if stored is not None:
            raise stored from None
        origin = None if _raised_inside_library(e) else user_raise(e)
        if origin is None:
            origin = python_error_origin(e)
            if origin is None:
                raise _traced_branch_failed(e) from e
            # Python's own error in the user's code of this branch (`e0, e1 = x` with a wrong
            # count): raised when the branch runs, as eagerly, and not when it does not. (The
            # error itself is returned: `_check_no_effects_before_raise` may still need it.)
            raise_node(as_eager(e).with_traceback(None), origin)
            return StagedPythonError(e, origin)
        handled = staged_try.handled_raise(e)
        if handled is not None:
            return handled  # a staged `try` takes its handler where the branch runs
        handler = _handled_eagerly(e)
        if handler is not None:
            raise StagingError(
                f"{where(origin)}: this `raise {type(e).__name__}` is under a condition known "
                f"only when the graph runs, inside the `try` at line {handler[0]} whose "
                f"`{handler[1]}` handles it: a graph cannot jump to the handler when it runs, "
                "so it would raise where the function returns. Test the condition outside the "
                "`try` (or outside `autoconv.function`), or compute both results and choose "
                "with an `if` on the condition or np.where."
            ) from None
        _refuse_suppressing_with(e, origin)
        raise_node(e, origin)
        return True
    return False


def _refuse_suppressing_with(e, origin) -> None:
    """An error for a staged `raise` inside a `with` whose manager's `__exit__` may suppress
    it (trace.tensors.with_exits): eager code would go on where the graph raises."""
    from autoconv.trace.tensors.with_exits import suppressing_with

    found = suppressing_with(e)
    if found is not None:
        line, manager, kind = found
        raise StagingError(
            f"{where(origin)}: this `raise {type(e).__name__}` is under a condition known only "
            f"when the graph runs, inside the `with {manager}` at line {line}, whose "
            f"`{kind}.__exit__` may suppress it: a graph cannot ask `__exit__` when it runs, so "
            "it would raise where eager code goes on. Test the condition outside the `with` "
            "(or catch the error with `try: ... except ...:` inside it)."
        ) from None


_MESSAGE = re.compile(r"^.*?:\d+: ")  # a StagingError's location before its message
_FREE_VARIABLE = re.compile(
    r"cannot access free variable '(\w+)' where it is not associated with a value"
)


def as_eager(e: Exception) -> Exception:
    """`e` as the user's own code raises it: converted code holds the function's locals in
    cells, where reading an unbound one is a NameError ("free variable"), not Python's
    UnboundLocalError of the local."""
    match = _FREE_VARIABLE.search(str(e)) if type(e) is NameError else None
    if match is None:
        return e
    return UnboundLocalError(
        f"cannot access local variable '{match.group(1)}' where it is not associated with a value"
    )


def staged_error_origin(e):
    """`(file, line)` where tracing code the data may not reach raised `e` in a way the graph
    can raise when that code runs (the user's `raise` or `assert`, or Python's own error in
    the user's code), or None (then it stays an error while tracing)."""
    if isinstance(e, (AutoconvError, RecursionError, _NeedsAccumulator)):
        return None
    origin = None if _raised_inside_library(e) else user_raise(e)
    if origin is not None:
        return None if _handled_eagerly(e) is not None else origin
    return python_error_origin(e)


def python_error_origin(e):
    """`(file, line)` of the user's statement whose Python error `e` (an unpacking count, a
    name not defined, a key or index missing from a Python container...) tracing met, when
    eager code meets the same error there: `e` is raised by Python in the user's own frame,
    about none of autoconv's values, and no `try` of the user's would catch it eagerly (a
    graph cannot jump to the handler). None otherwise."""
    if not isinstance(e, Exception) or isinstance(e, (AutoconvError, _NeedsAccumulator)):
        return None
    written = getattr(e, "as_written", False)  # `lst[5]` that ac.list_item read for the user
    if type(e).__module__ != "builtins" or (raised_by_autoconv(e) and not written):
        return None
    if _raised_inside_library(e) and not written and not _numpy_on_python_values(e):
        return None
    if _AUTOCONV_TYPES.search(str(e)) or _handled_eagerly(e) is not None:
        return None  # about a value as tracing holds it (a Tensor, an Optional...)
    return exception_origin(e)


def _numpy_on_python_values(e) -> bool:
    """Whether `e` came from NumPy called by the user's code on values known while tracing
    (`np.stack([])`): the frames after the user's last are all NumPy's. A Tensor among the
    arguments would have sent NumPy's dispatch into autoconv's code."""
    tb = e.__traceback__
    clean = numpy = False  # since the user's last frame: only NumPy's, and some
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if name.startswith(_AUTOCONV_DIR):
            clean = False
        elif name.startswith(_NUMPY_DIR):
            numpy = True
        else:  # the user's frame (or the standard library's): start again
            clean, numpy = True, False
        tb = tb.tb_next
    return clean and numpy


_AUTOCONV_TYPES = re.compile(r"\b(Tensor|Optional|ListAccum|Choice|Staged\w+|autoconv)\b")


class StagedPythonError(NamedTuple):
    """What `_trace_branch` gives for Python's own error that it staged (true, as a path that
    raises): the error and the user's line."""

    error: Exception
    origin: tuple


def _handled_eagerly(e):
    """`(line, "except ...")` of a `try` around the user's statement that raised `e`, in the
    function traced or one it calls while tracing, whose handler would catch `e` eagerly."""
    from autoconv.conversion.library import generated_codes

    frames = []
    tb = e.__traceback__
    while tb is not None:
        frames.append((tb.tb_frame.f_code, tb.tb_lineno))
        tb = tb.tb_next
    frame = sys._getframe(1)
    while frame is not None:
        frames.append((frame.f_code, frame.f_lineno))
        frame = frame.f_back
    names = {c.__name__ for c in type(e).__mro__}
    for code, line in frames:
        if id(code) in generated_codes:
            found = _try_around(code.co_filename, line, names)
            if found is not None:
                return found
    return None


def _raised_inside_library(e) -> bool:
    """Whether the innermost frame of `e` is autoconv's or NumPy's code: a `raise` there (the
    AttributeError of a Tensor method that does not exist) is not the user's `raise`, and is
    never staged to fire when the graph runs."""
    tb = e.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_code.co_filename.startswith((_AUTOCONV_DIR, _NUMPY_DIR))


def exception_origin(e):
    """`(file, line)` of the innermost frame of user code that `e` passed through (not
    autoconv's, the standard library's or NumPy's), or None."""
    import sysconfig

    skip = (_AUTOCONV_DIR, sysconfig.get_paths()["stdlib"], os.path.dirname(np.__file__))
    tb = e.__traceback__
    origin = None
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if not filename.startswith(skip) and not filename.startswith("<"):
            origin = (filename, tb.tb_lineno)
        tb = tb.tb_next
    return origin


def raises_at_return(e, graph, origin) -> bool:
    """A returned name no path binds (`e`, an `UnboundReturn`) in a graph that may raise the
    user's errors before it returns: records that it raises eager's UnboundLocalError at the
    end (`origin`), after those; True when recorded (else eager raises it now, as tracing
    does)."""
    if not any(n.effect for n in graph.block.nodes):
        return False
    with _g.build(graph, graph.block):
        raise_node(e.eager(), origin)
    return True


def raises_when_run(e, graph) -> bool:
    """At the end of a trace that `e` stopped: records that the graph raises `e` when it runs
    there, where eager code would first do what the graph already holds (prints, Variable
    updates, checks that raise the user's exceptions on some inputs); True when recorded.
    `Raises` (every path of a staged statement raises) is recorded already."""
    if isinstance(e, Raises):
        return True
    stored = stored_tensor_error(e)
    if stored is not None:
        raise stored from None
    if isinstance(e, _NeedsAccumulator):  # no staged loop of this trace could carry the list
        raise unsettled_appends(user_origin(1), "function") from None
    if isinstance(e, (AutoconvError, RecursionError)) or not isinstance(e, Exception):
        return False
    written = getattr(e, "as_written", False)  # `lst[-1]` a runtime operator read for the user
    if type(e).__module__.startswith("autoconv") or raised_by_autoconv(e) and not written:
        return False  # autoconv's own machinery, never the user's error
    if not any(n.effect for n in graph.block.nodes):
        return False  # raising now, while tracing, is what eager code does
    origin = exception_origin(e)
    if origin is None:
        return False
    raise_node(as_eager(e).with_traceback(None), origin)
    return True


def stored_tensor_error(e):
    """The error for NumPy's `ValueError` when traced code stores a Tensor into a NumPy array
    where the converter could not rebind the name (`self.buf[i] = t`, `a[f(i)] = t`, code that
    is not converted): NumPy takes the Tensor for a sequence. None for other exceptions."""
    if not isinstance(e, ValueError) or "setting an array element with a sequence" not in str(e):
        return None
    origin = exception_origin(e)
    line = source_text(origin)
    if target_name(line) is None:
        return None  # not an item assignment of the user's
    cls = type("ValueError", (StagingError, ValueError), {"__module__": __name__})
    return cls(
        f"{where(origin)}: `{line}` stores a value known only when the graph runs into a NumPy "
        "array, which can hold only values known now. Assign items of a local array with a key "
        "made of names, constants and slices (`out[i] = v`, `out[i, :] = v`), which autoconv "
        "turns into a new array of the graph, or build the array with NumPy functions "
        "(np.where, np.stack)."
    )


def _traced_branch_failed(
    e,
    what="a branch of a staged `if`",
    why="both branches are traced, whichever one the data takes when the graph runs",
    origin=None,
):
    """A StagingError for an exception (not the user's `raise`) while tracing a branch: both
    branches of a staged `if` are traced, whichever runs later, so code that only works on
    the path the data takes can fail here (so can a staged loop's body, which is traced
    whether or not the loop runs)."""
    origin = origin or exception_origin(e)
    cls = StagingError
    try:  # also of the type eager code would raise (`except AttributeError` still catches it)
        cls = type(type(e).__name__, (StagingError, type(e)), {"__module__": __name__})
    except TypeError:  # an exception type that cannot be combined
        pass
    message = (
        f"{where(origin)}: {type(e).__name__}: {e}, while tracing {what} ({why}). Make "
        "this code work on either path, e.g. check the condition in Python first, or build the "
        "values with np.where."
    )
    try:
        return cls(message)
    except TypeError:  # a type whose constructor takes more (NumPy's casting errors)
        return StagingError(message)


def traced_body_failed(e, what: str):
    """`_traced_branch_failed` for the body of a staged loop."""
    stored = stored_tensor_error(e)
    if stored is not None:
        return stored
    return _traced_branch_failed(
        e,
        f"the body of this staged {what}",
        "it is traced once whether or not the loop runs an iteration when the graph runs",
    )


def _check_lists_not_rebound(names, results, origin):
    """A variable that holds, in one branch, a list the other branch appends to, and another
    list in the other (`current.append(v)` / `current = []`) cannot be staged: the appends are
    tracked on the list object, the rebinding on the variable."""
    appended = {
        id(lst)
        for _, lists in results
        for lst, _, added, _ in lists
        if added not in (None, []) and type(added) is not _Rewritten  # items replaced: merged
    }
    if not appended:
        return
    for i, name in enumerate(names):
        a, b = results[0][0][i], results[1][0][i]
        if a is not b and (id(a) in appended or id(b) in appended):
            who = messages.named(messages.shown(name, names))
            other = "leaves it None" if a is None or b is None else "gives it another value"
            raise StagingError(
                f"{where(origin)}: {who} is, after one branch of this `if`, a list that the "
                f"branch appends to, and the other branch {other}; a staged `if` cannot make a "
                "name share a list on some paths only (eagerly later appends would show under "
                "both names). Keep one list for the name on every path (and index into it), or "
                "collect the values in arrays."
            )


def _check_no_effects_before_raise(names, init, values, origin, raised=True):
    """A branch that raises keeps, eagerly, what it changed on objects and containers before
    the `raise` (`self.failures += 1; raise ...`); a graph cannot, so that is an error.
    `raised`: what `_trace_branch` gave; for Python's own error, that error is raised now,
    while tracing, as before it was staged (of its eager type, naming the branch)."""
    for name, before, after in zip(names, init, values):
        if not name.isidentifier() and after is not before and not _same_python(after, before):
            if isinstance(raised, StagedPythonError):
                error = raised.error
                raise _traced_branch_failed(error, origin=raised.origin) from error
            raise StagingError(
                f"{where(origin)}: `{name}` is changed on a path of this `if` that then raises; "
                "eagerly the change stays after the exception, but a graph cannot keep it. "
                "Change it after the check instead, or keep the count in an autoconv.Variable."
            )


def _stand_in(value, block):
    """`value` with the Tensors computed in `block` replaced by stand-ins (see zeros_like)."""
    made = {id(t) for n in block.nodes for t in n.outputs}

    def walk(v):
        if isinstance(v, Tensor):
            return zeros_like(v) if id(v) in made else v
        t = type(v)
        if t is tuple or t is list:
            return t(walk(x) for x in v)
        if t is dict:
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, tuple) and hasattr(t, "_fields"):
            return t(*(walk(x) for x in v))
        if t is Optional:
            return Optional(walk(v.flag), walk(v.value), v.missing, v.name, v.origin)
        if t is Union:  # (`retval` a tuple or None by a nested staged `return`)
            tag = walk(v.ac_tag)
            alternatives = tuple(walk(a) for a in v.ac_alternatives)
            if tag is v.ac_tag and all(map(operator.is_, alternatives, v.ac_alternatives)):
                return v
            return zeros_like(v)  # its tag, or an alternative, made in `block`
        return v

    return walk(value)
