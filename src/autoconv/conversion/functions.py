"""Converting live functions: source -> converted code object -> a function that shares the
original's globals, closure cells and defaults. Results are cached per code object."""

import ast
import sys
import types
import warnings

import gast

from autoconv.caches import IdentityCache, register
from autoconv.conversion import library, limits, pipeline
from autoconv.conversion.resolve import LiveResolver
from autoconv.converters.checks import Unconvertible
from autoconv.errors import ConversionError, ConversionWarning
from autoconv.locations import describe as location
from autoconv.locations import describe_code
from autoconv.locks import new_rlock
from autoconv.pyct import bridge, loader, naming, sources

_lock = new_rlock()  # released again in a forked child (see autoconv.locks)
# code -> _Converted | ConversionError, one cache per value of `recursive`. By identity: code
# objects compare equal by value, and identical functions in two files must not share a
# conversion. Weakly: an entry goes with its code object (20,000 converted lambdas are freed
# with them), and the function objects made from one code (a helper defined anew by each call
# of its enclosing function) share one entry.
_caches = {True: IdentityCache(), False: IdentityCache()}
register("conversion (recursive)", _caches[True].clear, _caches[True].__len__)
register("conversion (not recursive)", _caches[False].clear, _caches[False].__len__)


class _Converted:
    __slots__ = ("code", "ac", "kept", "_node", "_text")

    def __init__(self, code, node, ac, kept):
        self.code, self.ac, self.kept = code, ac, kept
        self._node, self._text = node, None

    @property
    def text(self) -> str:
        """The converted source, printed when first asked for (only `to_code` needs it)."""
        if self._text is None:
            self._text = loader.unparse(loader.to_ast(self._node))
            self._node = None
        return self._text


def converted_code(func, recursive: bool):
    """The cached conversion of `func`'s code: a `_Converted`, or the `ConversionError` that
    says why it cannot be converted.

    Cached by code and by globals: what a call becomes depends on what its name means there
    (`np.array` is staged, `jnp.array` is called as it is), and functions made with
    `types.FunctionType(code, other_globals)` share a code object."""
    code = func.__code__
    scope = id(func.__globals__)
    hit = _caches[bool(recursive)].entries.get(id(code))
    if hit is not None:
        found = hit[1].get(scope)
        if found is not None:
            return found[1]
    with _lock:
        cache = _caches[bool(recursive)]
        per_scope = cache.get(code)
        if per_scope is None:
            per_scope = {}
            cache.put(code, per_scope)
        found = per_scope.get(scope)
        if found is not None:
            return found[1]
        try:
            entry = limits.call_deep(_convert, func, recursive)
        except ConversionError as e:
            entry = e.with_traceback(None)  # its frames would keep the function alive
        except RecursionError:
            entry = ConversionError(
                f"autoconv: {describe(func)} stays Python: it nests too deeply to convert."
            )
        # The globals are kept with the entry, so their id is not reused while it lives.
        per_scope[scope] = (func.__globals__, entry)
        return entry


def build(func, entry):
    """A function running `entry.code` with `func`'s globals, cells, defaults and metadata.
    The user's classes its code names get guarded special methods and properties first
    (`classes`)."""
    (_PREPARE or _prepare_named())(func)
    return build_code(func, entry.code, entry.ac)


_PREPARE = None


def _prepare_named():
    global _PREPARE
    from autoconv.conversion import classes  # (it imports `guarded`, which imports this)

    _PREPARE = classes.prepare_named
    return _PREPARE


def build_code(func, code, ac=None):
    """A function running `code` with `func`'s globals, cells (by name; `ac` the runtime's),
    defaults and metadata."""
    runtime = _runtime()[0]
    cells = dict(zip(func.__code__.co_freevars, func.__closure__ or ()))
    closure = tuple(
        types.CellType(runtime) if name == ac else cells.get(name, types.CellType())
        for name in code.co_freevars
    )
    new = types.FunctionType(code, func.__globals__, func.__name__, func.__defaults__, closure)
    return copy_metadata(func, new)


def _runtime() -> list:
    """[autoconv.runtime, autoconv.runtime.forms]: imported on first use, and kept, since
    converted code calls `build_code` and `registered_form` for every call of a user function
    while it traces (an import statement costs a lookup each time)."""
    if not _RUNTIME:
        import autoconv.runtime as runtime
        from autoconv.runtime import forms
        from autoconv.tracebacks import count_levels_as_the_original

        count_levels_as_the_original()  # warnings' stacklevel past the bodies' frames
        _RUNTIME.extend((runtime, forms))
    return _RUNTIME


_RUNTIME: list = []


def registered_form(func):
    """The functional form of `func` when a module converted by the CLI registered one (see
    `autoconv.conversion.modules`): `func` itself once it runs it, else a new function; or
    None."""
    forms = _runtime()[1]
    code = func.__code__
    if id(code) in forms.form_ids:
        return func
    form = forms.forms.get((code.co_filename, code.co_firstlineno, code.co_name))
    return None if form is None else build_code(func, form)


def copy_metadata(func, new):
    """`new`, given `func`'s keyword defaults, names, docstring, annotations and attributes, and
    marked as the converted form of `func`."""
    new.__kwdefaults__ = func.__kwdefaults__
    new.__qualname__ = func.__qualname__
    new.__module__ = func.__module__
    new.__doc__ = func.__doc__
    new.__annotations__ = func.__annotations__
    new.__dict__.update(func.__dict__)
    new.__wrapped__ = func
    new.__autoconv_original__ = func
    return new


def describe(func) -> str:
    code = func.__code__
    return f"{func.__qualname__} ({describe_code(code)})"


def unconverted(func, error):
    """`func` itself, to run unconverted because of `error`: with a `ConversionWarning` at the
    function, or `error` raised in strict mode."""
    from autoconv.conversion.settings import is_strict

    if is_strict():
        raise error.with_traceback(None)  # cached: a fresh traceback each time
    code = func.__code__
    warnings.warn_explicit(
        f"{error} It runs unconverted.", ConversionWarning, code.co_filename, code.co_firstlineno
    )
    return func


def warn_kept(func, kept) -> None:
    """Warns about parts of a converted function that stay Python (or raises, in strict mode)."""
    from autoconv.conversion.settings import is_strict

    for construct, line, reason, name in kept:
        message = (
            f"autoconv: in {name}, the {construct} at {location(func.__code__.co_filename, line)} "
            f"stays Python: {reason}."
        )
        if is_strict():
            raise ConversionError(message)
        warnings.warn_explicit(message, ConversionWarning, func.__code__.co_filename, line)


def _convert(func, recursive):
    code = func.__code__
    where = describe(func)
    try:
        node = bridge.to_gast(sources.function_node(func))
    except sources.NoSourceError as e:
        raise ConversionError(f"autoconv: cannot convert {where}: {e}.") from None
    namer = naming.Namer(naming.identifiers(node) | set(code.co_freevars) | set(code.co_names))
    ac = namer.new("ac")
    class_name = enclosing_class(func.__qualname__)
    if class_name and uses_private_names(code):
        own_name = getattr(node, "name", None)
        from autoconv.converters.functions import mangle_private_names

        mangle_private_names(node, class_name)
        if own_name is not None:
            node.name = own_name
    if isinstance(node, gast.FunctionDef):
        node.decorator_list = []
    kept = []
    # Functions it defines stay as written and are converted when called (recursive or not,
    # each gets its own conversion then), so they are not marked as generated code.
    as_written = {_definition_key(n) for n in pipeline.user_scopes(node)}
    try:
        pipeline.convert(
            node,
            namer=namer,
            ac=ac,
            resolver=LiveResolver(func.__globals__),
            recursive=recursive,
            on_kept=lambda *k: kept.append(k),
            nested=False,
            closure=code.co_freevars,
            closure_arrays=_array_cells(func),
        )
    except Unconvertible as e:
        raise ConversionError(
            f"autoconv: {where} stays Python: the {e.construct} at "
            f"{location(code.co_filename, e.line)} cannot be converted: {e.reason}."
        ) from None
    tree = loader.to_ast(node)
    strip_evaluated_parts(tree)
    new_code = loader.load_code(
        tree,
        filename=code.co_filename,
        free_names=[ac, *code.co_freevars],
        globals_=func.__globals__,
    )
    new_code = loader.requalify(new_code, func.__qualname__)
    library.register_generated(new_code, as_written)
    return _Converted(new_code, node, ac, kept)


def _array_cells(func) -> set:
    """The free variables of `func` whose cells hold NumPy arrays now: an enclosing function's
    arrays, whose items the function may write (`converters.item_assignment`)."""
    np = sys.modules.get("numpy")  # (none is an array where NumPy was never imported)
    out = set()
    for name, cell in zip(func.__code__.co_freevars, (np and func.__closure__) or ()):
        try:
            if isinstance(cell.cell_contents, np.ndarray):
                out.add(name)
        except ValueError:  # not bound yet
            pass
    return out


def strip_evaluated_parts(tree) -> None:
    """Defaults and annotations were evaluated when the original was defined; the loaded copy
    must not evaluate them again (it reuses the original's)."""
    args = tree.args
    args.defaults = []
    args.kw_defaults = [None] * len(args.kwonlyargs)
    for arg in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
        if arg is not None:
            arg.annotation = None
    if isinstance(tree, ast.FunctionDef):
        tree.returns = None
        tree.decorator_list = []


def enclosing_class(qualname: str):
    """The class whose body lexically holds a function, from its qualified name."""
    parts = qualname.split(".")[:-1]
    i = len(parts) - 1
    while i >= 0:
        if parts[i] == "<locals>":
            i -= 2
            continue
        return parts[i]
    return None


def _definition_key(node):
    """(code name, first line) of the code object a definition compiles to."""
    if isinstance(node, gast.Lambda):
        return "<lambda>", node.lineno
    decorators = getattr(node, "decorator_list", None)
    return node.name, decorators[0].lineno if decorators else node.lineno


def uses_private_names(code) -> bool:
    """Whether the compiler mangled any name in `code` (or code nested in it): the original's
    names show it, as `_Class__x`, so most methods skip the mangling walk."""
    names = code.co_names + code.co_varnames + code.co_cellvars + code.co_freevars
    if any(n.startswith("_") and "__" in n[1:] and not n.endswith("__") for n in names):
        return True
    return any(uses_private_names(c) for c in code.co_consts if isinstance(c, type(code)))
