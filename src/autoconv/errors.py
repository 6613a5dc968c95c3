"""The errors and warnings autoconv raises on purpose."""


class AutoconvError(Exception):
    """Base class of every error the package raises on purpose."""


class ConversionError(AutoconvError):
    """A function could not be converted.

    Raised in strict mode; otherwise the function runs unconverted with a `ConversionWarning`.
    """


class ConversionWarning(UserWarning):
    """A function, or a part of one, was left as Python."""
