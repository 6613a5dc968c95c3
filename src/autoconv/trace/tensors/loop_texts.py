"""Strings a staged loop carries that are made when the graph runs (`s += sym`, `s = s +
("+" if v > 0 else "-")`): a variable that is a string written in the code, or one a staged
condition chose, before an iteration and a string made when the graph runs after it is carried
as that string (a 0-d object Tensor), its other values made strings of the graph too."""

from __future__ import annotations

import numpy as np

from autoconv.graph import graph as _g
from autoconv.graph import tensor as _tensor
from autoconv.trace.tensors.choices import Choice
from autoconv.trace.tensors.choices import output as chosen_value

TEXT = ((), np.dtype(object), False)


def _strings(v) -> bool:
    """A Python string, or a choice among strings."""
    return type(v) is str or (type(v) is Choice and all(type(o) is str for o in v.options))


def carries(key, before, v, carried: dict, choices: dict) -> bool:
    """Whether leaf `key` (`before` the loop, `v` after an iteration) is a string the loop
    carries as one made when the graph runs: one is made then, the other is a string."""
    is_text = _tensor.uses.printing.is_text
    if carried.get(key) == TEXT and key not in choices:
        return is_text(v) or _strings(v)
    return is_text(v) and (_strings(before) or is_text(before) or key in choices)


GROWTHS = 2
"""Rounds in which the strings a loop variable chooses among may grow by extending one another
before it is carried as a string made when the graph runs (`s += "*"` in a staged loop gives a
longer option every round, without end)."""


def grows(key, known: tuple, options: tuple, counts: dict) -> bool:
    """Whether leaf `key`, a choice among strings whose options grew from `known` to `options`,
    is carried as a string made when the graph runs instead: its new options extended known
    ones (`"**"` after `"*"`) `GROWTHS` times. A few states (`"idle"`, then `"busy"`) stay a
    choice."""
    if not all(type(o) is str for o in options):
        return False
    new = [o for o in options if o not in known]
    if not any(n != k and k and (n.startswith(k) or n.endswith(k)) for n in new for k in known):
        return False
    counts[key] = counts.get(key, 0) + 1
    return counts[key] >= GROWTHS


def carry(key, carried: dict, choices: dict) -> bool:
    """Carries leaf `key` as a string of the graph; whether that changed the loop's plan."""
    changed = choices.pop(key, None) is not None
    if carried.get(key) != TEXT:
        carried[key] = TEXT
        changed = True
    return changed


def value(v):
    """A loop value of a leaf carried as a string (`carry`), or a value chosen against a string
    made when the graph runs (`texts`), in the block being built: a Python string as a
    constant of the graph, a chosen one as the string it picks."""
    if type(v) is str:
        return _g.add_const(v, ((), np.dtype(object)), True)
    if type(v) is Choice:
        return chosen_value(v)
    return v


def texts(x, y) -> tuple:
    """Two values one of which is a string made when the graph runs, the other a string
    written in the code or chosen by a staged condition (`names.get(k, f"k{k}")`): both as
    strings of the graph, so that a `np.where` picks one; other pairs as they are."""
    is_text = _tensor.uses.printing.is_text
    if (is_text(x) and _strings(y)) or (is_text(y) and _strings(x)):
        return value(x), value(y)
    return x, y
