"""From a converted syntax tree to source text, and to a live code object whose lines are the
user's.

The text is what `to_code` shows; the code object is compiled from the very tree that text is
printed from. Every node of that tree carries a location in the user's file: the user's own nodes
keep theirs, and generated nodes carry the location of the statement they replace. Compiled under
the user's file name, the code raises exceptions whose tracebacks show the user's file, line and
source text, with no wrapper and no cost at run time.
"""

import ast

from autoconv.pyct import bridge
from autoconv.pyct.walk import children

_LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")
_PLACEHOLDER = "__autoconv_function"


def to_ast(node):
    """The standard-library `ast` form of a gast node (locations as the converters left them;
    `load_code` fills any that are missing)."""
    return bridge.to_ast(node)


if hasattr(ast, "_Unparser"):

    class _CompactUnparser(ast._Unparser):
        """`ast.unparse` without the blank line it puts before a `def` or `class` nested in a
        function: generated code has many small functions, and the blank lines would double
        its length. Top-level and class-level definitions keep theirs."""

        _function_depth = 0
        _skip_newline = False

        def maybe_newline(self):
            if self._skip_newline:
                self._skip_newline = False
                return
            super().maybe_newline()

        def _function_helper(self, node, fill_suffix):
            self._skip_newline = self._function_depth > 0
            self._function_depth += 1
            try:
                super()._function_helper(node, fill_suffix)
            finally:
                self._function_depth -= 1

        def visit_ClassDef(self, node):
            # A class inside a function stays compact too; at top level its methods keep
            # their blank lines.
            self._skip_newline = self._function_depth > 0
            super().visit_ClassDef(node)

        def visit_Call(self, node):
            # `f(x for x in xs)`, not `f((x for x in xs))`.
            if (
                len(node.args) == 1
                and not node.keywords
                and isinstance(node.args[0], ast.GeneratorExp)
            ):
                self.set_precedence(ast._Precedence.ATOM, node.func)
                self.traverse(node.func)
                self.traverse(node.args[0])
                return
            super().visit_Call(node)

    def unparse(tree) -> str:
        return _CompactUnparser().visit(tree)

else:  # pragma: no cover - the private class has been there since Python 3.9
    unparse = ast.unparse


def load_code(function_ast, *, filename: str, free_names, globals_: dict):
    """Compiles a converted function (an `ast` FunctionDef or Lambda with its defaults,
    annotations and decorators stripped) in a factory that takes `free_names` as parameters,
    and returns the function's code object (its free variables a subset of `free_names`)."""
    origin = function_ast
    # Inside the factory the function goes by a name the user's code cannot mention: under its
    # own name it would be a local of the factory, and a recursive call would find that local
    # instead of the global the original finds.
    own_name = getattr(function_ast, "name", None)
    if own_name is not None:
        function_ast.name = _PLACEHOLDER
    factory = ast.FunctionDef(
        name="__autoconv_factory",
        args=ast.arguments(
            posonlyargs=[],
            args=[ast.arg(arg=n) for n in free_names],
            vararg=None,
            kwonlyargs=[],
            kw_defaults=[],
            kwarg=None,
            defaults=[],
        ),
        body=(
            [ast.Return(value=function_ast)]
            if isinstance(function_ast, ast.Lambda)
            else [function_ast, ast.Return(value=ast.Name(id=_PLACEHOLDER, ctx=ast.Load()))]
        ),
        decorator_list=[],
        returns=None,
        type_params=[],
    )
    module = ast.Module(body=[factory], type_ignores=[])
    for node in (module, factory, factory.args, *factory.args.args, factory.body[-1]):
        _locate(node, origin)
    if isinstance(function_ast, ast.Lambda):
        _locate(factory.body[-1], origin)
    else:
        _locate(factory.body[-1].value, origin)
    # The tree is compiled as it is: it is exactly the tree of the text `to_code` shows (a test
    # checks this over the corpus), and skipping the parse of that text halves the loading time.
    # Converters locate every node they make, so filling in locations (a walk of the whole
    # tree) is needed only if the compiler finds one missing.
    try:
        code = compile(module, filename, "exec", dont_inherit=True)
    except (TypeError, ValueError):
        _fill_locations(module, origin)
        code = compile(module, filename, "exec", dont_inherit=True)
    namespace = {}
    exec(code, globals_, namespace)
    made = namespace["__autoconv_factory"](*([None] * len(free_names)))
    code = made.__code__
    if own_name is not None:
        function_ast.name = own_name
        code = code.replace(co_name=own_name)
    return code


def requalify(code, qualname: str):
    """`code` and the code nested in it, with qualified names under `qualname` instead of under
    the factory (what `__qualname__` of nested functions and classes is made from)."""
    prefix = f"__autoconv_factory.<locals>.{_PLACEHOLDER}"
    lambda_prefix = "__autoconv_factory.<locals>.<lambda>"

    def fix(name):
        for old in (prefix, lambda_prefix):
            if isinstance(name, str) and name.startswith(old):
                return qualname + name[len(old) :]
        return name

    consts = tuple(
        requalify(c, qualname) if isinstance(c, type(code)) else fix(c) for c in code.co_consts
    )
    changes = {"co_consts": consts}
    if hasattr(code, "co_qualname"):
        changes["co_qualname"] = fix(code.co_qualname)
    return code.replace(**changes)


def _locate(node, origin) -> None:
    if "lineno" in node._attributes and getattr(node, "lineno", None) is None:
        for attr in _LOCATION:
            setattr(node, attr, getattr(origin, attr, None))
        if node.end_lineno is None:
            node.end_lineno, node.end_col_offset = node.lineno, node.col_offset


def _fill_locations(node, origin):
    """Gives every node without a location the location of its nearest located ancestor."""
    if "lineno" in node._attributes:
        if getattr(node, "lineno", None) is None:
            for attr in _LOCATION:
                setattr(node, attr, getattr(origin, attr, None))
        else:
            origin = node
        if getattr(node, "end_lineno", None) is None:
            node.end_lineno, node.end_col_offset = node.lineno, node.col_offset
    for child in children(node):
        _fill_locations(child, origin)
