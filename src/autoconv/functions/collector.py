"""The cyclic garbage collector around a trace (`gc_paused`)."""

from __future__ import annotations

import gc


def gc_paused(fn, *args):
    """`fn(*args)` with the cyclic garbage collector paused. A trace allocates many small
    objects that all live (Tensors, nodes, templates): the collector's passes over them found
    nothing and took about half of a 1,000-step Python loop's trace. It resumes after, only if
    it was on; cycles the user's code left meanwhile wait for the next full collection."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return fn(*args)
    finally:
        if enabled:
            if not gc.get_freeze_count():  # (never undo a freeze the program made)
                # What the trace made lives as long as its graph: to the oldest generation at
                # no cost, not through young collections (7-13 ms after 8,000 operations).
                gc.freeze()
                gc.unfreeze()
            gc.enable()
