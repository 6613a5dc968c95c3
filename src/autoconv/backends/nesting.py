"""Keeps generated code within CPython's limit on indentation.

A graph's branches and loops nest as deeply as the traced program's staged `if`s and loops
did: a recursion 100 calls deep with a data-dependent `if` in each nests 100 deep, and CPython
reads at most 100 levels of indentation. The code generators write a block that would start
`MAX_INDENT` levels deep as a function of its own, defined next to `run` (at the level of
`make_run`'s body), where its own nesting starts again from the left. It takes as parameters
the locals it uses of the functions around the place it came from (`names_in`), and returns
the block's results.
"""

from __future__ import annotations

import builtins
import re
import symtable

# Indentation levels of a block written in place; one nested deeper becomes a function. Well
# below CPython's 100 (with `make_run` and a loop's `if not t: break` on top), and lines still
# fit a screen.
MAX_INDENT = 40


def names_in(lines: list[str], free: bool = False) -> list[str]:
    """The names the function `lines` (one `def` at indentation 0) uses, the functions nested
    in it included, sorted, builtins left out; with `free`, only those it reads and assigns
    nowhere in it."""
    table = symtable.symtable("\n".join(lines) + "\n", "<block>", "exec")
    found: dict = {}
    tables = list(table.get_children())
    while tables:  # (nested functions are few: each deep one is a function of its own)
        t = tables.pop()
        for sym in t.get_symbols():
            if not free or (sym.is_global() and sym.is_referenced()):
                found[sym.get_name()] = None
        tables += t.get_children()
    return sorted((n for n in found if not hasattr(builtins, n)), key=_natural)


def _natural(name: str):
    """`v9` before `v10`."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]
