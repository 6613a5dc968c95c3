"""What a staged branch or loop body can reach: the converter's body functions read the user's
locals through closure cells, and hold the nested bodies of inner statements the same way."""

from __future__ import annotations

from collections.abc import Iterator

_FunctionType = type(lambda: None)


def closure_cells(fns, depth: int = 4, limit: int = 64) -> Iterator[tuple]:
    """`(name, cell, value)` for each bound closure cell of `fns` and of the functions those
    cells hold, `depth` levels down (at most `limit` functions); unbound cells are left out."""
    seen: set = set()
    todo = [(fn, depth) for fn in fns if fn is not None]
    while todo and len(seen) < limit:
        fn, left = todo.pop()
        if type(fn) is not _FunctionType or id(fn) in seen:
            continue
        seen.add(id(fn))
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
            try:
                value = cell.cell_contents
            except ValueError:  # an unbound local
                continue
            yield name, cell, value
            if type(value) is _FunctionType and left:
                todo.append((value, left - 1))
