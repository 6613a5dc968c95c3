"""The errors and warnings autoconv raises on purpose."""


class AutoconvError(Exception):
    """Base class of every error the package raises on purpose."""


class ConversionError(AutoconvError):
    """A function could not be converted.

    Raised in strict mode; otherwise the function runs unconverted with a `ConversionWarning`.
    """


class StagingError(AutoconvError):
    """Control flow or a value could not be staged while tracing: into a graph
    (`autoconv.function`), or on JAX tracers (`jax.jit(autoconv.convert(f))`, which raises the
    subclass `JaxStagingError`)."""


class ConversionWarning(UserWarning):
    """A function, or a part of one, was left as Python."""
