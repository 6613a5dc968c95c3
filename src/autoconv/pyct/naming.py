"""Fresh names for generated symbols that never collide with the user's."""

import gast

from autoconv.pyct.walk import walk


class Namer:
    """Hands out readable names (`if_body`, `if_body_1`, ...) unused in the function's source."""

    def __init__(self, taken):
        self._taken = set(taken)

    @classmethod
    def for_node(cls, node) -> "Namer":
        return cls(identifiers(node))

    def new(self, base: str) -> str:
        name, n = base, 0
        while name in self._taken:
            n += 1
            name = f"{base}_{n}"
        self._taken.add(name)
        return name


def identifiers(node) -> set:
    """Every identifier a Name or parameter in `node` uses, nested scopes included."""
    found = set()
    for child in walk(node):
        if isinstance(child, gast.Name):
            found.add(child.id)
        elif isinstance(child, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            found.add(child.name)
        elif isinstance(child, (gast.Global, gast.Nonlocal)):
            found.update(child.names)
        elif isinstance(child, gast.alias):
            found.add((child.asname or child.name).split(".")[0])
    return found
