"""Preparing a function's own scope for conversion into several nested functions.

* `global` and `nonlocal` declarations move to the top (they will be repeated in each generated
  function that binds the names);
* zero-argument `super()` becomes `super(__class__, self)`: inside a generated function it would
  find neither the method's first argument nor, outside a class body, `__class__`;
* private names (`self.__x`) are mangled as the class body would have done, for a method that is
  converted on its own, outside its class.
"""

import gast

from autoconv.pyct import scopes
from autoconv.pyct.walk import walk


def hoist_declarations(function_node) -> tuple:
    """Removes `global`/`nonlocal` statements from the scope; returns (globals, nonlocals)."""
    globals_, nonlocals = scopes.declared(function_node)
    if globals_ or nonlocals:
        from autoconv.converters import blocks

        function_node.body = blocks.rewrite(
            function_node.body,
            lambda s: [] if isinstance(s, (gast.Global, gast.Nonlocal)) else [s],
        )
    return globals_, nonlocals


def explicit_super(function_node) -> None:
    if isinstance(function_node, gast.Lambda):
        return
    args = function_node.args.posonlyargs + function_node.args.args
    if not args:
        return
    for node in walk(function_node):
        if (
            isinstance(node, gast.Call)
            and isinstance(node.func, gast.Name)
            and node.func.id == "super"
            and not node.args
            and not node.keywords
        ):
            for arg in ("__class__", args[0].id):
                node.args.append(
                    gast.copy_location(
                        gast.Name(id=arg, ctx=gast.Load(), annotation=None, type_comment=None),
                        node,
                    )
                )


def mangle_private_names(function_node, class_name: str) -> None:
    """Rewrites `__x` to `_Class__x` everywhere Python's compiler would inside `class_name`."""
    prefix = "_" + class_name.lstrip("_")
    if prefix == "_":
        return

    def mangle(name):
        if name.startswith("__") and not name.endswith("__") and "." not in name:
            return prefix + name
        return name

    for node in walk(function_node):
        if isinstance(node, gast.Name):
            node.id = mangle(node.id)
        elif isinstance(node, gast.Attribute):
            node.attr = mangle(node.attr)
        elif isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            node.name = mangle(node.name)
        elif isinstance(node, (gast.Global, gast.Nonlocal)):
            node.names = [mangle(n) for n in node.names]
