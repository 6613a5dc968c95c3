"""The caches of autoconv, and `clear_caches()` which empties them all.

Every cache that grows with the user's program (one entry per function, per code object, per
traced signature) is either keyed weakly on the objects it describes, so that an entry goes when
its function or code object is collected, or bounded; and each registers here, so that
`clear_caches()` can empty it and `sizes()` can report it (`benchmarks/memory.py`).

Code objects compare equal by value (two identical functions in two files are equal), so the
caches key them by identity, not by `==`: that is what `IdentityCache` does.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable

_REGISTRY: dict[str, tuple[Callable[[], None], Callable[[], int]]] = {}


class IdentityCache:
    """Values keyed by the identity of live, weakly referenceable objects (code objects,
    functions). An entry goes when its object is collected.

    `entries` is the underlying `id(obj) -> (weak reference, value)` dict: hot paths test
    `id(obj) in cache.entries` directly. An id stays valid while the entry exists, since the
    weak reference's callback removes the entry as the object dies, before its id can be reused.
    A value must not refer to its own key (through a function's `__wrapped__`, say), or the
    entry keeps its key alive for as long as the cache exists.
    """

    __slots__ = ("entries", "_remove", "__weakref__")

    def __init__(self):
        self.entries: dict[int, tuple[weakref.ref, object]] = {}
        entries = self.entries

        def remove(ref, entries=entries):
            # Called as the key dies (in any thread, at any allocation): only drop the entry
            # if it is still this reference's.
            key = ref.key
            entry = entries.get(key)
            if entry is not None and entry[0] is ref:
                del entries[key]

        self._remove = remove

    def get(self, obj, default=None):
        entry = self.entries.get(id(obj))
        return default if entry is None else entry[1]

    def put(self, obj, value) -> None:
        ref = _KeyedRef(obj, self._remove, id(obj))
        self.entries[id(obj)] = (ref, value)

    def add(self, obj) -> None:
        """`put(obj, True)`: for caches used as sets."""
        self.put(obj, True)

    def pop(self, obj, default=None):
        entry = self.entries.pop(id(obj), None)
        return default if entry is None else entry[1]

    def __contains__(self, obj) -> bool:
        return id(obj) in self.entries

    def __len__(self) -> int:
        return len(self.entries)

    def clear(self) -> None:
        self.entries.clear()


class _KeyedRef(weakref.ref):
    """A weak reference that remembers the id of its referent (for the removal callback)."""

    __slots__ = ("key",)

    def __new__(cls, obj, callback, key):
        self = super().__new__(cls, obj, callback)
        self.key = key
        return self

    def __init__(self, obj, callback, key):
        super().__init__(obj, callback)


def register(name: str, clear: Callable[[], None], size: Callable[[], int]) -> None:
    """Makes `clear_caches()` call `clear()`; `sizes()` reports `size()` under `name`."""
    _REGISTRY[name] = (clear, size)


def register_cache(name: str, cache) -> None:
    """Registers a dict, set or `IdentityCache` (its `clear` and `len`)."""
    register(name, cache.clear, cache.__len__)


def clear_caches() -> None:
    """Empties every cache of the converter, the runtime and graph mode.

    Functions convert again when next called, every `autoconv.function` traces again for each
    signature, and source files are read and parsed again. Functions converted before the call
    keep working. Use it to free memory after converting or tracing many functions that are no
    longer needed, or after editing source files in a long-running session.
    """
    for clear, _ in list(_REGISTRY.values()):
        clear()


def sizes() -> dict[str, int]:
    """The number of entries in each registered cache, by name."""
    return {name: size() for name, (_, size) in sorted(_REGISTRY.items())}
