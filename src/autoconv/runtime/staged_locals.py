"""The function's locals that a staged `if` or loop rebinds without carrying them out, for
both tracers (our graphs and `jax.jit` of converted code).

A staged `if` traces both of its branches, one after the other, and a staged loop traces its
body until its variables settle. The converter hands the statement the variables that are live
after it (`names`); the tracer gives each branch or attempt their values from before the
statement and merges them afterwards. A branch or body can also rebind other locals of the
function, through the cells its closure shares with it (a counter used only inside it, say).
Without care the next branch or attempt would see those values, Tensors of another block, and
so would the code after the statement (the converter may still read such a local, e.g. as the
state of a later loop): a graph that refers to a value of a block that did not run. It works
only while dead-code elimination happens to remove the reference.

`StagedLocals` snapshots those cells before the statement and puts the snapshot back before
each branch or attempt and after the statement.
"""

from __future__ import annotations

_EMPTY = object()  # an unbound local: its cell has no contents
_FunctionType = type(lambda: None)
_MAX_FUNCTIONS = 256


def _chain(fn) -> bool:
    return type(fn) is not _FunctionType and hasattr(type(fn), "functions")


def _get(cell):
    try:
        return cell.cell_contents
    except ValueError:
        return _EMPTY


def _put(cell, value) -> None:
    if value is _EMPTY:
        try:
            del cell.cell_contents
        except ValueError:
            pass
    else:
        cell.cell_contents = value


def _generated() -> dict:
    """A dict keyed by the id of every code object autoconv compiled (the converter's
    functions)."""
    try:
        from autoconv.conversion.library import generated_codes
    except ImportError:  # no converter: only the given functions are looked into
        return {}
    return generated_codes


# The functions the converter makes of a statement's parts (pyct's namer adds `_1`, `_2`).
CONVERTER_BODIES = frozenset(
    "if_body else_body elif_body elif_test loop_body loop_test get_state set_state".split()
)


def converter_body(fn) -> bool:
    """Whether `fn` (a function autoconv compiled) is one the converter made of a statement's
    parts, rather than a function the user wrote (`def visit(v): nonlocal count ...`)."""
    return fn.__name__.rstrip("0123456789").rstrip("_") in CONVERTER_BODIES


class StagedLocals:
    """Locals the functions `fns` (branches, loop test and body) can rebind: `start()` before
    tracing each branch or attempt, `finish()` after the last."""

    def __init__(self, fns):
        self.cells = []  # (cell, value before the statement)
        seen_cells, seen_fns = set(), set()
        fns = [fn for fn in fns if fn is not None]
        # The rest of an `elif` chain, the `else` of a staged `if` (`control_flow.ElifChain`):
        # its tests and bodies.
        fns = [g for fn in fns for g in (fn.functions() if _chain(fn) else (fn,))]
        # The converter's bodies are local functions of the converted function, sharing its
        # cells; a local may be reachable only through another of them held in a cell (a
        # nested body, or the `get_state` of a loop inside), so follow the functions the
        # converter made, but not the user's own, though autoconv compiled them too (a helper's
        # `nonlocal` changes are hidden state: trace.core.hidden).
        generated = _generated()
        todo = list(fns)
        while todo and len(seen_fns) < _MAX_FUNCTIONS:
            fn = todo.pop()
            if id(fn) in seen_fns:
                continue
            seen_fns.add(id(fn))
            for cell in getattr(fn, "__closure__", None) or ():
                if id(cell) in seen_cells:
                    continue
                seen_cells.add(id(cell))
                value = _get(cell)
                self.cells.append((cell, value))
                # A function, or the functions of the converter's `elifs` tuple.
                for fn in value if type(value) is tuple else (value,):
                    if (
                        type(fn) is _FunctionType
                        and id(fn.__code__) in generated
                        and converter_body(fn)
                    ):
                        todo.append(fn)

    def start(self) -> None:
        """Before a branch or attempt: the values from before the statement."""
        for cell, before in self.cells:
            if _get(cell) is not before:
                _put(cell, before)

    def finish(self) -> None:
        """After the statement: the values from before it again. The statement's own
        variables (`names`) are then set from its outputs; the converter reads no other local
        that it rebinds (a loop may still list one in its state, and finds the value it had)."""
        self.start()
