"""Warnings about effects that happen while tracing and never when the graph runs.

A traced function's Python code runs once per trace; the graph it leaves behind runs on every
call. Two effects of that code surprise people (`TraceEffectWarning`, once per trace each):

- Python's `print` of values known while tracing, outside staged branches and loops: it prints
  while tracing only. Converted code calls it as `ac.print` (runtime.printing), which stages
  the other prints and reports these (`printed_while_tracing`). A function traced unconverted
  (`autograph=False`) is scanned instead, for the `LOAD_GLOBAL print` its bytecode holds where
  `print` is the built-in (not a module-level `print = autoconv.print`).
- Changing a list, dict or set held by a global or by the traced function's closure
  (`LOG.append(x)`): it happens once, while tracing. Converted code calls such a bound method
  through `ac.converted(LOG.append)`, where `__self__` is the container; containers that are
  locals or arguments are left alone (arguments' changes are written back after each run).
  Item assignments and deletions (`TABLE[k] = v`, `del TABLE[k]`) stay plain Python in
  converted code: they are found in the source of each function the trace runs, and their
  name is looked up in its globals (or the traced function's closure) then.

`watch(function, values)` is active around the Python call of one trace (per thread); the
runtime's `converted` reports what it is asked to call through `calls.effects_hook`.
"""

from __future__ import annotations

import ast
import contextlib
import dis
import inspect
import os
import sys
import textwrap
import threading
import types
import warnings
from collections import Counter, OrderedDict, defaultdict

import autoconv
from autoconv.caches import IdentityCache, register_cache
from autoconv.graph.errors import TraceEffectWarning, warn_at
from autoconv.pyct import sources

_PACKAGE = os.path.dirname(os.path.abspath(autoconv.__file__)) + os.sep
_BuiltinMethod = type([].append)

# The methods that change a container in place, per container type.
_MUTATORS = {
    list: frozenset(
        "append extend insert remove pop clear sort reverse __setitem__ __delitem__ "
        "__iadd__".split()
    ),
    dict: frozenset("update setdefault pop popitem clear __setitem__ __delitem__ __ior__".split()),
    set: frozenset(
        "add update discard remove pop clear difference_update intersection_update "
        "symmetric_difference_update __ior__ __iand__ __isub__ __ixor__".split()
    ),
}
_KINDS = {list: "list", dict: "dict", set: "set"}
# collections' dicts: a module's tally (`TALLY["pos"] += 1`) changes as a dict's does
for _cls in (Counter, defaultdict, OrderedDict):
    _MUTATORS[_cls] = _MUTATORS[dict] | {"subtract", "move_to_end"}
    _KINDS[_cls] = _cls.__name__

_print_lines = IdentityCache()  # code -> line of its first built-in `print` call, or 0
register_cache("trace warnings: print lines per code", _print_lines)
_item_stores = IdentityCache()  # code -> its item assignments on names (`_find_item_stores`)
register_cache("trace warnings: item stores per code", _item_stores)

_local = threading.local()


class _Watch:
    """What one trace has warned about, and the containers its function closes over."""

    def __init__(self, function, values):
        self.name = function._name
        self.warned: set = set()
        self.arguments = {id(v) for v in _containers_in(values)}
        self.closure: dict = {}  # id(container) -> the name of the closure variable
        self.closure_values: dict = {}  # and back
        python_function = _plain(function.python_function)
        code = getattr(python_function, "__code__", None)
        cells = getattr(python_function, "__closure__", None) or ()
        if code is not None:
            for name, cell in zip(code.co_freevars, cells):
                try:
                    value = cell.cell_contents
                except ValueError:  # an empty cell
                    continue
                if type(value) in _MUTATORS:
                    self.closure[id(value)] = name
                    self.closure_values[name] = value
        self.function = python_function
        # Converted code reports its own trace-time prints (`printed_while_tracing`).
        converted = getattr(function, "_converted", None)
        self.converted = converted is not None and converted is not function.python_function


@contextlib.contextmanager
def watch(function, values):
    """Watches the Python code of one trace of `function` (a `Function`) for trace-time
    effects; `values` are the call's arguments."""
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    w = _Watch(function, values)
    stack.append(w)
    try:
        if isinstance(w.function, types.FunctionType):
            _check_code(w, w.function)
        yield w
    finally:
        stack.pop()


def effects_hook(f) -> None:
    """Called by the runtime's `converted(f)` while tracing, before `f` is called."""
    stack = getattr(_local, "stack", None)
    if not stack:
        return  # a JAX trace, or a graph built outside `Function`
    w = stack[-1]
    kind = type(f)
    if kind is types.FunctionType:
        _check_code(w, f)
    elif kind is types.MethodType:
        if type(f.__func__) is types.FunctionType:
            _check_code(w, f.__func__)
    elif kind is _BuiltinMethod and type(f.__self__) in _MUTATORS:
        _check_mutation(w, f)


def _check_code(w: _Watch, func) -> None:
    """Checks the code of a function the trace runs (the traced one, or one it calls)."""
    _check_prints(w, func)
    if "mutation" not in w.warned:
        _check_item_stores(w, func)


def _check_item_stores(w: _Watch, func) -> None:
    """`TABLE[k] = v`, `TABLE[k] += v`, `del TABLE[k]` on a global (or, in the traced
    function, closure) list, dict or set: plain Python in converted code, so found in the
    source, and the name looked up when the trace runs the function."""
    code = func.__code__
    stores = _item_stores.get(code)
    if stores is None:
        stores = _find_item_stores(func)
        _item_stores.put(code, stores)
    for line, name, what in stores:
        if name in code.co_freevars:
            if func is not w.function:
                continue  # a helper's closure may be a local of the trace
            container = w.closure_values.get(name)
            scope = "held by the function's closure"
        elif name in code.co_varnames or name in code.co_cellvars:
            continue
        else:
            container = func.__globals__.get(name)
            scope = "a global"
        if type(container) not in _MUTATORS or id(container) in w.arguments:
            continue
        w.warned.add("mutation")
        kind = _KINDS[type(container)]
        message = _mutation_message(what.format(name=name), name, kind, scope, w.name)
        _warn(message, code.co_filename, line, func.__globals__)
        return


def _find_item_stores(func) -> tuple:
    """(line, name, what) for each item assignment or deletion on a plain name in `func`'s
    own body (not in the functions it defines); () when its source is unavailable."""
    nested = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
    definition = sources.parsed_definition(func)  # the file conversion parsed (no re-reading)
    if definition is not None:
        start = 1
        body = definition.body if isinstance(definition, nested[:2]) else []
    else:
        try:
            lines, start = inspect.getsourcelines(func)
            tree = ast.parse(textwrap.dedent("".join(lines)))
        except (OSError, TypeError, SyntaxError):
            return ()
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], nested) else []
    found = []
    todo = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, nested):
            continue
        todo.extend(ast.iter_child_nodes(node))
        if isinstance(node, ast.Delete):
            targets, what = node.targets, "`del {name}[...]`"
        elif isinstance(node, ast.AugAssign):
            targets, what = [node.target], "`{name}[...] " + _AUG.get(type(node.op), "?") + "= ...`"
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            what = "`{name}[...] = ...`"
        else:
            continue
        for target in _flat(targets):
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                found.append((start + node.lineno - 1, target.value.id, what))
    return tuple(sorted(found))


_AUG = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.BitOr: "|", ast.BitAnd: "&"}


def _flat(targets):
    for target in targets:
        if isinstance(target, (ast.Tuple, ast.List)):
            yield from _flat(target.elts)
        elif isinstance(target, ast.Starred):
            yield from _flat([target.value])
        else:
            yield target


def _mutation_message(what: str, name: str, kind: str, scope: str, traced: str) -> str:
    return (
        f"{what} changes the {kind} `{name}` ({scope}) while `{traced}` is traced: it happens "
        "once, now, and never when the graph runs (and a Tensor it keeps is a symbolic "
        "placeholder, not a value). Return the value from the function and update "
        f"`{name}` outside it, or keep the state in an `autoconv.Variable`."
    )


def printed_while_tracing() -> None:
    """Called by converted code's `print` (`ac.print`) when it runs now, while tracing, and
    never when the graph runs: warns once per trace, at the user's line."""
    stack = getattr(_local, "stack", None)
    if not stack or "print" in stack[-1].warned:
        return
    w = stack[-1]
    frame = _user_frame()
    if frame is None:
        return
    w.warned.add("print")
    name = frame.f_code.co_name
    where = "" if name in (w.name, getattr(w.function, "__name__", None)) else name
    _print_warning(w, where, frame.f_code.co_filename, frame.f_lineno, frame.f_globals)


def _print_warning(w: _Watch, where: str, filename: str, line: int, module_globals) -> None:
    where = f" (in `{where}`, called by `{w.name}`)" if where and not where.startswith("<") else ""
    _warn(
        f"Python's `print`{where} of values known while tracing runs only while `{w.name}` is "
        "traced, not each time its graph runs (a print of a value known only then, or in a "
        "staged branch or loop, prints on every call). Use `autoconv.print(...)` to print on "
        "every call.",
        filename,
        line,
        module_globals,
    )


def _check_prints(w: _Watch, func) -> None:
    if "print" in w.warned or w.converted:
        return
    if "print" in func.__globals__:  # a module-level `print` (`from autoconv import print`)
        return
    code = func.__code__
    line = _print_lines.get(code)
    if line is None:
        line = _first_print(code) or 0
        _print_lines.put(code, line)
    if not line:
        return
    w.warned.add("print")
    where = "" if func is w.function else func.__name__
    _print_warning(w, where, code.co_filename, line, func.__globals__)


def _first_print(code) -> int | None:
    """The line of the first `print` the code loads as a global (the built-in), in its body or
    its comprehensions; None when there is none."""
    line = None
    # A LOAD_GLOBAL names an entry of co_names: most functions need no disassembly.
    for ins in dis.get_instructions(code) if "print" in code.co_names else ():
        positions = getattr(ins, "positions", None)
        if positions is not None and positions.lineno is not None:
            line = positions.lineno
        elif type(ins.starts_line) is int:  # Python 3.10
            line = ins.starts_line
        if ins.opname == "LOAD_GLOBAL" and ins.argval == "print":
            return line
    for const in code.co_consts:
        # Comprehensions run as part of the function (lambdas and nested defs are called
        # through `converted`, and checked then).
        if isinstance(const, types.CodeType) and const.co_name in _COMPREHENSIONS:
            found = _first_print(const)
            if found:
                return found
    return None


_COMPREHENSIONS = ("<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>")


def _check_mutation(w: _Watch, method) -> None:
    container = method.__self__
    if "mutation" in w.warned or method.__name__ not in _MUTATORS[type(container)]:
        return
    key = id(container)
    if key in w.arguments:
        return  # an argument's container: its changes are outputs of the graph
    frame = _user_frame()
    if key in w.closure:
        name, scope = w.closure[key], "held by the function's closure"
    else:
        if frame is None:
            return
        name = next((n for n, v in frame.f_globals.items() if v is container), None)
        if name is None:
            return  # a local, or reached through an attribute: not what this warning is for
        scope = "a global"
    w.warned.add("mutation")
    kind = _KINDS[type(container)]
    message = _mutation_message(f"`{name}.{method.__name__}(...)`", name, kind, scope, w.name)
    if frame is None:
        warnings.warn(message, TraceEffectWarning, stacklevel=3)
        return
    _warn(message, frame.f_code.co_filename, frame.f_lineno, frame.f_globals)


def _user_frame():
    """The innermost frame outside autoconv: the converted code that made the call."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
    return frame


def _warn(message: str, filename: str, line: int, module_globals: dict) -> None:
    warn_at(message, TraceEffectWarning, filename, line, module_globals)


def _plain(python_function):
    """The plain function behind a bound method or a decorated function."""
    if isinstance(python_function, types.MethodType):
        python_function = python_function.__func__
    try:
        return inspect.unwrap(python_function)
    except ValueError:  # a cycle of __wrapped__
        return python_function


def _containers_in(values, depth: int = 0):
    """The lists, dicts and sets among the arguments (nested in tuples, lists and dicts)."""
    for v in values:
        if type(v) in _MUTATORS:
            yield v
        if depth < 4 and isinstance(v, (tuple, list)):
            yield from _containers_in(v, depth + 1)
        elif depth < 4 and isinstance(v, dict):
            yield from _containers_in(v.values(), depth + 1)


def _register() -> None:
    from autoconv.runtime import calls

    calls.effects_hook = effects_hook


_register()
