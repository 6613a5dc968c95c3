"""The functional forms of modules converted by the command line, registered as they import.

A converted module ends with `__ac__.register_forms(__autoconv__, {...})` (see
`autoconv.conversion.modules`). This module imports nothing but `staging`: the standard
library's own modules may be converted copies, imported while `autoconv.runtime` itself is
still being imported, so `register_forms` must exist before anything else of the runtime does.
"""

import sys

from autoconv.runtime import staging

_FunctionType = type(lambda: None)

forms: dict = {}
"""(file, first line, name) of a function in a module converted by the CLI -> the code of its
functional form."""
form_ids: set = set()
"""Ids of those codes (they live as long as their modules, which are not unloaded)."""


def register_forms(space, first_lines: dict) -> None:
    """Registers the functional forms held by `space`, the namespace class at the end of a
    module converted by the CLI: `first_lines` maps each form's path in it ("Class.method") to
    the first line of the original function. Under `set_always_converted(True)` (or its
    environment variable) at import, the module's functions run their forms from then on."""
    module = sys.modules.get(space.__module__)
    codes = {}
    for path, line in first_lines.items():
        code = _code_at(space, path)
        if code is None:  # never the module's import to fail: converted at its first trace
            continue
        key = (code.co_filename, line, code.co_name)
        forms[key] = codes[key] = code
        form_ids.add(id(code))
    if staging.always_converted() and module is not None:
        _run_forms(vars(module), codes, space.__module__, set())


def _code_at(space, path: str):
    """The code of the function at `path` in the namespace class, or None."""
    obj = space
    for part in path.split("."):
        obj = getattr(obj, "__dict__", {}).get(part)
    if isinstance(obj, (staticmethod, classmethod)):  # `__new__`, `__init_subclass__`, ...
        obj = obj.__func__
    return obj.__code__ if type(obj) is _FunctionType else None


def _run_forms(namespace: dict, codes: dict, module_name: str, seen: set) -> None:
    """Gives the module's functions (and its classes' methods) their forms' code."""
    for value in list(namespace.values()):
        if isinstance(value, type):
            if value.__module__ == module_name and id(value) not in seen:
                seen.add(id(value))
                _run_forms(dict(vars(value)), codes, module_name, seen)
            continue
        for func in _functions_in(value):
            code = func.__code__
            form = codes.get((code.co_filename, code.co_firstlineno, code.co_name))
            if form is not None and form.co_freevars == code.co_freevars:
                func.__code__ = form


def _functions_in(value):
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, property):
        return [f for f in (value.fget, value.fset, value.fdel) if type(f) is _FunctionType]
    return [value] if type(value) is _FunctionType else []
