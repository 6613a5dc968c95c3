"""A staged loop is traced until what it carries settles: the first trace guesses the loop's
variables (their dtypes, shapes, which Python values change, which lists grow), and each later
trace starts from what the one before found."""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn, TypeVar

T = TypeVar("T")

ATTEMPTS = 8  # more would mean a dtype or shape that widens without end: an error


def settle(attempt: Callable[[], T | None], unsettled: Callable[[], NoReturn]) -> T:
    """Calls `attempt()` (one trace of the body) until it returns its result rather than None
    (None: something had to change, trace again); `unsettled()` raises after `ATTEMPTS`."""
    for _ in range(ATTEMPTS):
        result = attempt()
        if result is not None:
            return result
    unsettled()
