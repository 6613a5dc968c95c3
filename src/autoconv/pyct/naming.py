"""Fresh names for generated symbols that never collide with the user's."""

from autoconv.pyct.walk import walk


class Namer:
    """Hands out readable names (`if_body`, `if_body_1`, ...) unused in the function's source."""

    def __init__(self, taken):
        self._taken = set(taken)
        self._next = {}  # base -> the number to try first (a long `elif` chain asks thousands)

    @classmethod
    def for_node(cls, node) -> "Namer":
        return cls(identifiers(node))

    def new(self, base: str) -> str:
        n = self._next.get(base, 0)
        name = f"{base}_{n}" if n else base
        while name in self._taken:
            n += 1
            name = f"{base}_{n}"
        self._taken.add(name)
        self._next[base] = n + 1
        return name


def identifiers(node) -> set:
    """Every identifier a name, parameter, definition or import in `node` uses, nested scopes
    included. Works on `gast` and on standard-library `ast` trees."""
    found = set()
    for child in walk(node):
        kind = type(child).__name__
        if kind == "Name":
            found.add(child.id)
        elif kind == "arg":
            found.add(child.arg)
        elif kind in ("FunctionDef", "AsyncFunctionDef", "ClassDef"):
            found.add(child.name)
        elif kind in ("Global", "Nonlocal"):
            found.update(child.names)
        elif kind == "alias":
            found.add((child.asname or child.name).split(".")[0])
    return found
