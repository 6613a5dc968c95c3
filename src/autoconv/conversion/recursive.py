"""Converting functions when converted code first calls them (`ac.converted`)."""

from autoconv.conversion import functions, library
from autoconv.errors import ConversionError
from autoconv.runtime import calls

_warned: set = set()  # ids of code objects warned about (their conversion cache keeps them)


def for_function(func):
    """What converted code calls in place of the plain function `func`."""
    if library.skips_function(func):
        target = func
    else:
        entry = functions.converted_code(func, recursive=True)
        if isinstance(entry, ConversionError):
            _warn_once(func, entry)
            target = func
        else:
            if id(func.__code__) not in _warned:
                _warned.add(id(func.__code__))
                functions.warn_kept(func, entry.kept)
            target = functions.build(func, entry)
    if func.__closure__ is None:
        calls.cache[func] = target
    else:
        calls.seen_codes.add(id(func.__code__))
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
    if id(func.__code__) in _warned:
        return
    _warned.add(id(func.__code__))
    import warnings

    from autoconv.errors import ConversionWarning

    code = func.__code__
    warnings.warn_explicit(
        f"{error} It runs unconverted.", ConversionWarning, code.co_filename, code.co_firstlineno
    )
