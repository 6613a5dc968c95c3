"""What `convert(f)` returns: `f`'s own statements, compiled again behind a guard.

    def f(x, n=3):
        if ac.may_trace and ac.functional_now():     # at f's first line
            return functional(x, n)
        ...f's statements, at their own lines...

Outside traces the guard is one attribute test, and the user's statements run as written: the
same speed, the same recursion depth and the same frames as the original (code that counts frames
or reads its own line numbers sees no difference). While a trace is being built the guard calls
the functional form, the converted code that `to_code` shows, which is converted when first
needed (at the first trace, so its warnings come then; in strict mode at `convert`). Converted
code and `autoconv.function` call the functional form directly (`functional_of`), so a trace
sees one frame per call, as before.
"""

import ast
import types

from autoconv.caches import IdentityCache, register
from autoconv.conversion import functions, library, limits
from autoconv.conversion.settings import is_strict
from autoconv.errors import ConversionError
from autoconv.locks import new_rlock
from autoconv.pyct import loader, naming, sources
from autoconv.runtime.unbound import past_guard

# A guarded function's closure holds the runtime (`ac`) and a cell for the functional form: a
# `_Pending` until the form is first needed, the built function after.
_guards = {True: IdentityCache(), False: IdentityCache()}  # original code -> guarded code
register("guarded forms (recursive)", _guards[True].clear, _guards[True].__len__)
register("guarded forms (not recursive)", _guards[False].clear, _guards[False].__len__)
_forms = IdentityCache()  # guarded code -> index of the functional form's cell
_forms_entries = _forms.entries
_lock = new_rlock()

_NOT_PLAIN = 0x20 | 0x80 | 0x100 | 0x200  # generator, coroutine, async generator, iterable coro
_FRAME_READERS = frozenset({"locals", "vars", "dir", "exec", "eval"})


def guard(func, recursive: bool):
    """The guarded form of the plain function `func` (see the module docstring), or the
    `ConversionError` that says why there is none (no source, a stale file; in strict mode
    also a functional form that cannot be made)."""
    code = func.__code__
    if code.co_flags & _NOT_PLAIN or _FRAME_READERS.intersection(code.co_names):
        # A `return` in a generator means something else, and `locals()` would list the
        # guard's two free variables: these keep the converted form everywhere (which leaves
        # them as Python, with the warning at conversion).
        return None
    if is_strict():
        entry = functions.converted_code(func, recursive)
        if isinstance(entry, ConversionError):
            return entry
        functions.warn_kept(func, entry.kept)  # raises
    cache = _guards[bool(recursive)]
    hit = cache.entries.get(id(func.__code__))
    if hit is None:
        with _lock:
            hit = cache.entries.get(id(func.__code__))
            if hit is None:
                try:
                    made = limits.call_deep(_compile, func)
                except sources.NoSourceError as e:
                    made = ConversionError(
                        f"autoconv: cannot convert {functions.describe(func)}: {e}."
                    )
                except RecursionError:
                    made = ConversionError(
                        f"autoconv: {functions.describe(func)} stays Python: it nests too "
                        "deeply to convert."
                    )
                if not isinstance(made, ConversionError):
                    _forms.put(made[0], made[0].co_freevars.index(made[2]))
                cache.put(func.__code__, made)
                hit = cache.entries[id(func.__code__)]
    made = hit[1]
    if isinstance(made, ConversionError):
        return made
    code, ac, form = made
    import autoconv.runtime as runtime

    cells = dict(zip(func.__code__.co_freevars, func.__closure__ or ()))
    cells[ac] = types.CellType(runtime)
    cells[form] = form_cell = types.CellType()
    closure = tuple(cells.get(name) or types.CellType() for name in code.co_freevars)
    new = types.FunctionType(code, func.__globals__, func.__name__, func.__defaults__, closure)
    form_cell.cell_contents = _Pending(func, bool(recursive), form_cell)
    return functions.copy_metadata(func, new)


def is_guarded(func) -> bool:
    """Whether `func` is a function `guard` made."""
    return id(func.__code__) in _forms_entries


def functional_of(func):
    """The functional form of a guarded function (made and cached on first use)."""
    index = _forms_entries[id(func.__code__)][1]
    target = func.__closure__[index].cell_contents
    if type(target) is _Pending:
        target = target.resolve()
    return target


def functional(func, recursive: bool):
    """The functional form of the plain function `func`: its converted code with `func`'s
    globals, cells and defaults. A function that cannot be converted is itself, with a
    `ConversionWarning` (a `ConversionError` in strict mode)."""
    form = functions.registered_form(func)
    if form is not None:
        return form
    entry = functions.converted_code(func, recursive)
    if isinstance(entry, ConversionError):
        return functions.unconverted(func, entry)
    functions.warn_kept(func, entry.kept)
    return functions.build(func, entry)


class _Pending:
    """Stands for a guarded function's functional form until the first call that needs it."""

    __slots__ = ("func", "recursive", "cell")

    def __init__(self, func, recursive, cell):
        self.func, self.recursive, self.cell = func, recursive, cell

    def resolve(self):
        target = functional(self.func, self.recursive)
        self.cell.cell_contents = target
        return target

    def __call__(self, *args, **kwargs):
        target = self.resolve()
        try:
            return target(*args, **kwargs)
        except BaseException as e:
            past_guard(e)  # this frame is autoconv's: the error leaves without it
            raise


def _compile(func):
    """(guarded code, the name of its free variable holding the functional form)."""
    code = func.__code__
    node = sources.function_node(func)  # from the parse cache: shared, so never changed here
    namer = naming.Namer(_names(code))
    ac, form, error = namer.new("ac"), namer.new("functional"), namer.new("error")
    class_name = functions.enclosing_class(func.__qualname__)
    if class_name and functions.uses_private_names(code):
        node = _mangled_copy(node, class_name)
    # The guard is at the code's first line (the first decorator's, when there is one), where
    # every call starts anyway: the lines a call runs through are the original's.
    where = _Where(code.co_firstlineno, node.col_offset)
    test = _expression(f"{ac}.may_trace and {ac}.functional_now()", where)
    call = _forward(form, node.args, where)
    if isinstance(node, ast.Lambda):
        tree = ast.Lambda(
            args=_without_defaults(node.args),
            body=_at(ast.IfExp(test=test, body=call, orelse=node.body), where),
        )
    else:
        body = list(node.body)
        # `try: return form(...)` / `except BaseException as error: ac.past_guard(error); raise`:
        # an error leaves without the guard's frame (the functional form's stands for it).
        handler = ast.ExceptHandler(
            type=ast.Name(id="BaseException", ctx=ast.Load()),
            name=error,
            body=[
                _at(ast.Expr(value=_expression(f"{ac}.past_guard({error})", where)), where),
                _at(ast.Raise(), where),
            ],
        )
        forward = ast.Try(
            body=[_at(ast.Return(value=call), where)],
            handlers=[_at(handler, where)],
            orelse=[],
            finalbody=[],
        )
        check = _at(ast.If(test=test, body=[_at(forward, where)], orelse=[]), where)
        body.insert(1 if _has_docstring(body) else 0, check)
        tree = ast.FunctionDef(
            name=node.name,
            args=_without_defaults(node.args),
            body=body,
            decorator_list=[],
            returns=None,
            type_params=[],
        )
    _at(tree, where)
    _at(tree.args, where)
    new_code = loader.load_code(
        tree,
        filename=code.co_filename,
        free_names=[ac, form, *code.co_freevars],
        globals_=func.__globals__,
    )
    new_code = loader.requalify(new_code, func.__qualname__)
    # Only the guard is generated: functions nested in it are the user's, and converted code
    # that calls them while tracing converts them from their source.
    library.generated.add(new_code)
    return new_code, ac, form


def _names(code) -> set:
    """Every name `code` and the code nested in it use (what a new name must not be)."""
    names = set(code.co_names + code.co_varnames + code.co_cellvars + code.co_freevars)
    for const in code.co_consts:
        if isinstance(const, type(code)):
            names |= _names(const)
    return names


def _mangled_copy(node, class_name):
    """A copy of `node` with private names mangled as the compiler did inside `class_name`."""
    from autoconv.converters.functions import mangle_private_names
    from autoconv.pyct import bridge

    copy = bridge.to_gast(node)
    mangle_private_names(copy, class_name)
    copy.name = node.name if hasattr(node, "name") else None
    return bridge.to_ast(copy)


def _has_docstring(body) -> bool:
    first = body[0] if body else None
    return (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    )


def _without_defaults(args):
    """A copy of `args` without defaults and annotations: the function keeps the original's
    defaults, evaluated once when it was defined."""
    copy = ast.arguments(
        posonlyargs=[ast.arg(arg=a.arg) for a in args.posonlyargs],
        args=[ast.arg(arg=a.arg) for a in args.args],
        vararg=ast.arg(arg=args.vararg.arg) if args.vararg else None,
        kwonlyargs=[ast.arg(arg=a.arg) for a in args.kwonlyargs],
        kw_defaults=[None] * len(args.kwonlyargs),
        kwarg=ast.arg(arg=args.kwarg.arg) if args.kwarg else None,
        defaults=[],
    )
    return copy


def _forward(form, args, where):
    """`form(a, b, *rest, k=k, **kw)`: a call passing every parameter on."""
    positional = [ast.Name(id=a.arg, ctx=ast.Load()) for a in args.posonlyargs + args.args]
    if args.vararg:
        positional.append(
            ast.Starred(value=ast.Name(id=args.vararg.arg, ctx=ast.Load()), ctx=ast.Load())
        )
    keywords = [
        ast.keyword(arg=a.arg, value=ast.Name(id=a.arg, ctx=ast.Load())) for a in args.kwonlyargs
    ]
    if args.kwarg:
        keywords.append(ast.keyword(arg=None, value=ast.Name(id=args.kwarg.arg, ctx=ast.Load())))
    call = ast.Call(func=ast.Name(id=form, ctx=ast.Load()), args=positional, keywords=keywords)
    return _at(call, where)


def _expression(text, where):
    node = ast.parse(text, mode="eval").body
    for child in ast.walk(node):
        if "lineno" in child._attributes:
            child.lineno = None
    return _at(node, where)


class _Where:
    """A location: a line and a column."""

    def __init__(self, lineno, col_offset):
        self.lineno, self.col_offset = lineno, col_offset


def _at(node, where):
    """`node` and its children that have no location, at `where`'s first line."""
    for child in ast.walk(node) if not hasattr(node, "body") else (node,):
        if "lineno" in child._attributes and getattr(child, "lineno", None) is None:
            child.lineno = child.end_lineno = where.lineno
            child.col_offset = child.end_col_offset = where.col_offset
    return node
