"""Finding the function that `MODULE:QUALNAME` names, for `show` and `graph`.

MODULE is a dotted module name or the path of a `.py` file (imported under its file name).
QUALNAME is a dotted path inside it: `func`, `Class.method`, `Outer.Inner.method`.

Importing runs the module's top-level code, so only the module named is looked for in a user's
folder, and that folder comes last on `sys.path`, after the standard library and the installed
packages: `show json:loads` in a folder that holds a `json.py` imports the real `json`, and
nothing the named module imports can be replaced by a file that merely sits in the current
folder. A dotted name is looked for on the path first, then in the current folder; a file path
adds the file's own folder (see "Trust model" in docs/cli.md).
"""

import importlib
import importlib.machinery
import importlib.util
import inspect
import linecache
import os
import sys
import sysconfig
import traceback

from autoconv.cli import suggest
from autoconv.cli.files import UsageError


class TargetError(Exception):
    """The target was well formed but could not be found or imported (exit status 1)."""


def split(target: str) -> tuple:
    """(module, qualname) of `MODULE:QUALNAME`. Raises `UsageError` when it is malformed."""
    module, sep, qualname = target.rpartition(":")
    if not sep or not module or not qualname:
        raise UsageError(
            f"{target!r}: expected MODULE:QUALNAME, e.g. json.decoder:JSONDecoder.raw_decode "
            "or path/to/file.py:func"
        )
    if not all(part.isidentifier() for part in qualname.split(".")):
        raise UsageError(f"{target!r}: {qualname!r} is not a dotted name such as Class.method")
    return module, qualname


def resolve(target: str):
    """The function (or method, static or class method) that `target` names."""
    module_name, qualname = split(target)
    module = _import(module_name)
    obj = module
    where = module_name
    for part in qualname.split("."):
        owner = obj
        try:
            obj = _attribute(owner, part)
        except AttributeError:
            hint = suggest.did_you_mean(part, owner)
            names = sorted(n for n in dir(owner) if not n.startswith("_"))[:12]
            hint = hint or (f"; it has: {', '.join(names)}" if names else "")
            raise TargetError(f"{where} has no attribute {part!r}{hint}") from None
        where = f"{where}:{part}" if owner is module else f"{where}.{part}"
    if isinstance(obj, property):
        obj = obj.fget
    return obj


def _attribute(owner, name):
    """`getattr`, except that static and class methods come back as themselves, unbound."""
    if isinstance(owner, type):
        for klass in owner.__mro__:
            if name in vars(klass):
                value = vars(klass)[name]
                if isinstance(value, (staticmethod, classmethod, property)):
                    return value
                break
    return getattr(owner, name)


def _import(name: str):
    if name.endswith(".py") or os.sep in name or "/" in name:
        return _import_file(name)
    cwd = os.getcwd()
    _drop_folder(cwd)
    top = name.partition(".")[0]
    if not _findable(top) and importlib.machinery.PathFinder.find_spec(top, [cwd]) is not None:
        sys.path.append(cwd)  # the module is the user's: its folder, but last
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name and (name == e.name or name.startswith(e.name + ".")):
            raise TargetError(
                f"no module named {e.name!r}; run from the folder that holds it, or name its "
                "file: path/to/module.py:QUALNAME"
            ) from None
        raise TargetError(f"importing {name} failed: {type(e).__name__}: {e}") from e
    except Exception as e:
        raise TargetError(f"importing {name} failed: {type(e).__name__}: {e}") from e


def _drop_folder(folder: str) -> None:
    """Removes `folder` (also as "" or ".") from `sys.path`: a file there must not stand in for
    a module of the same name."""
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != folder]


def _findable(top: str) -> bool:
    if top in sys.modules:
        return True
    try:
        return importlib.util.find_spec(top) is not None
    except (ImportError, ValueError):
        return False


def _import_file(path: str):
    if not os.path.isfile(path):
        raise TargetError(f"{path}: no such file")
    name = os.path.splitext(os.path.basename(path))[0]
    folder = os.path.dirname(os.path.abspath(path))
    _drop_folder(os.getcwd())
    if folder not in sys.path:
        sys.path.append(folder)  # for the modules next to it, after the real ones
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise TargetError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as e:
        raise TargetError(f"{e.filename or path}:{e.lineno}: syntax error: {e.msg}") from None
    except Exception as e:
        del sys.modules[name]
        raise TargetError(f"importing {path} failed: {type(e).__name__}: {e}") from e
    return module


_LIBRARIES = tuple(
    os.path.abspath(p) + os.sep
    for p in {sysconfig.get_paths()["stdlib"], os.path.dirname(os.path.dirname(inspect.__file__))}
)


def failed_at(error: BaseException) -> str:
    """` at FILE:LINE (SOURCE)`: the user's line where `error` was raised (the deepest frame of
    its traceback that is neither autoconv's nor the standard library's or NumPy's), or ''
    when it names none or its message already names the user's line (an AutoconvError)."""
    from autoconv.errors import AutoconvError
    from autoconv.tracebacks import is_ours

    if isinstance(error, AutoconvError):
        return ""
    frames = [
        f
        for f in traceback.extract_tb(error.__traceback__)
        if not is_ours(f.filename)
        and not f.filename.startswith("<")
        and not os.path.abspath(f.filename).startswith(_LIBRARIES)
        and "numpy" not in os.path.abspath(f.filename).split(os.sep)
    ]
    if not frames:
        return ""
    last = frames[-1]
    shown = os.path.abspath(last.filename)
    if shown.startswith(os.getcwd() + os.sep):
        shown = os.path.relpath(shown)  # as the user named it, from where they are
    text = (last.line or linecache.getline(last.filename, last.lineno)).strip()
    return f" at {shown}:{last.lineno}" + (f" (`{text}`)" if text else "")


def with_instance(target: str, func, arguments: list) -> tuple:
    """`(func, arguments, note)` for a call; a method given `None` for `self` (`--spec None ...`,
    docs/cli.md) is bound instead to an object of its class built with no arguments. A class
    that needs arguments keeps `None` (a method that never reads `self` still traces); the
    second value says why, for the error when it is read (a note for `None`)."""
    module_name, qualname = split(target)
    if "." not in qualname or not arguments or arguments[0] is not None:
        return func, arguments, ""
    owner = resolve(f"{module_name}:{qualname.rpartition('.')[0]}")
    if not isinstance(owner, type) or not inspect.isfunction(func):
        return func, arguments, ""  # a static or class method: `None` is its first argument
    name = owner.__qualname__
    try:
        inspect.signature(owner).bind()
    except TypeError:
        return (
            func,
            arguments,
            (
                f"; `self` was None (--spec None) since {name}() needs arguments: trace a function "
                f"that builds the object and calls the method, e.g. `def {func.__name__}_of(x): "
                f"return {name}(...).{func.__name__}(x)`"
            ),
        )
    except ValueError:  # no signature to read: try to build it
        pass
    try:
        instance = owner()
    except Exception as e:
        raise TargetError(
            f"building {name}() for `self` (--spec None) failed{failed_at(e)}: "
            f"{type(e).__name__}: {e}"
        ) from e
    return getattr(instance, func.__name__), arguments[1:], ""
