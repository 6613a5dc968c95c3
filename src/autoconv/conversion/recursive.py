"""Converting functions when converted code first calls them (`ac.converted`)."""

from autoconv.caches import IdentityCache, register_cache
from autoconv.conversion import functions, guarded, library
from autoconv.errors import ConversionError
from autoconv.runtime import calls

_warned = IdentityCache()  # code objects whose conversion was warned about
register_cache("conversion warnings given", _warned)


def for_function(func):
    """What converted code calls in place of the plain function `func`: itself, or a new
    function running the cached conversion of its code with its globals and cells."""
    if guarded.is_guarded(func):  # `convert(f)`: its functional form, without the guard's frame
        return guarded.functional_of(func)
    form = functions.registered_form(func)
    if form is not None:
        return form
    code = func.__code__
    if library.skips_function(func):
        calls.as_is.add(func)
        target = func
    else:
        entry = functions.converted_code(func, recursive=True)
        if isinstance(entry, ConversionError):
            _warn_once(func, entry)
            calls.as_is.add(func)
            target = func
        else:
            if id(code) not in _warned.entries:
                _warned.add(code)
                functions.warn_kept(func, entry.kept)
            target = functions.build(func, entry)
    return target


def for_callable(obj):
    """What converted code calls in place of a callable that is not a plain function."""
    if isinstance(obj, type) or not library.is_convertible(obj):
        return obj
    bound_call = obj.__call__
    target = calls.converted(bound_call)
    return obj if target is bound_call else target


def _warn_once(func, error):
    from autoconv.conversion.settings import is_strict

    if is_strict():
        raise error
    if id(func.__code__) in _warned.entries:
        return
    _warned.add(func.__code__)
    import warnings

    from autoconv.errors import ConversionWarning

    code = func.__code__
    warnings.warn_explicit(
        f"{error} It runs unconverted.", ConversionWarning, code.co_filename, code.co_firstlineno
    )
