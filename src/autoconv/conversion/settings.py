"""Strict mode: raise `ConversionError` instead of running a function unconverted."""

import os

_strict = None


def set_strict(flag: bool) -> None:
    """Makes every conversion failure raise `ConversionError` (True) or warn and run the
    function unconverted (False). The default comes from the environment: AUTOCONV_STRICT=1."""
    global _strict
    _strict = bool(flag)


def is_strict() -> bool:
    """Whether conversion failures raise (see `set_strict`)."""
    if _strict is not None:
        return _strict
    return os.environ.get("AUTOCONV_STRICT", "").strip().lower() in ("1", "true", "yes", "on")
