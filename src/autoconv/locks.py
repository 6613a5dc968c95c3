"""Every lock autoconv holds, made here so that a forked child can use all of them.

A fork copies a lock as it is: held, if another thread held it at that moment, by a thread that
does not exist in the child, whose next acquire would then wait forever. `new_lock` and
`new_rlock` make the interpreter's own locks (acquiring one costs what it always does) and
register each, weakly: a Variable's or a program's lock goes with its owner. In the child, before
anything else runs, `os.register_at_fork` reinitializes every registered lock as released, with
the `_at_fork_reinit` method CPython's `threading` and `logging` use for their own locks.

Resetting is correct because the child has only the forking thread: what another thread was
doing under a lock is abandoned there, never resumed. So code holding one of these locks must
keep shared state consistent at every point (a cache entry is stored whole, or not at all; a
Variable holds either its old value or its new one).

A registry rather than a check of `os.getpid()` at each acquire: the check would cost a system
call on every Variable update, and the registry costs one weak reference per lock, made once.
"""

from __future__ import annotations

import os
import threading
import weakref

_registry: weakref.WeakSet = weakref.WeakSet()


def new_lock():
    """A `threading.Lock`, released again in a forked child."""
    lock = threading.Lock()
    _registry.add(lock)
    return lock


def new_rlock():
    """A `threading.RLock`, released again in a forked child."""
    lock = threading.RLock()
    _registry.add(lock)
    return lock


def registered() -> list:
    """The live locks made here (for tests)."""
    return list(_registry)


def _reset_in_child() -> None:
    for lock in list(_registry):
        lock._at_fork_reinit()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_in_child)
