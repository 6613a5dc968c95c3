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
from autoconv.pyct.walk import children


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
    # Only the function's own scope: a user's lambda or nested function calling super()
    # finds (or fails to find) its own first argument, before and after conversion alike.
    for node in scopes.own_nodes(function_node):
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
    """Rewrites `__x` to `_Class__x` everywhere Python's compiler would inside `class_name`;
    inside a class nested in the function, that class's name takes over."""
    _mangle(function_node, "_" + class_name.lstrip("_"))


def _mangle(node, prefix) -> None:
    def mangle(name):
        if prefix != "_" and name.startswith("__") and not name.endswith("__"):
            return prefix + name
        return name

    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, gast.Name):
            current.id = mangle(current.id)
        elif isinstance(current, gast.Attribute):
            current.attr = mangle(current.attr)
        elif isinstance(current, (gast.Global, gast.Nonlocal)):
            current.names = [mangle(n) for n in current.names]
        elif isinstance(current, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            current.name = mangle(current.name)
            if isinstance(current, gast.ClassDef):
                # Bases, keywords and decorators belong to the enclosing class; the body to
                # this one.
                stack.extend(current.bases + current.keywords + current.decorator_list)
                for stmt in current.body:
                    _mangle(stmt, "_" + current.name.lstrip("_"))
                continue
        stack.extend(children(current))
