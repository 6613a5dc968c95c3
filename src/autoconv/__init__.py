"""autoconv: ordinary Python control flow, converted to functional form and staged into graphs.

Importing this package is cheap: the converter and the NumPy graph backend load on first use, so
converted code, which imports only `autoconv.runtime`, never pays for them.
"""

from autoconv.errors import AutoconvError, ConversionError, ConversionWarning

__version__ = "0.1.0"

# Public name -> module that defines it; loaded on first access (PEP 562).
_LAZY = {
    "convert": "autoconv.conversion.api",
    "to_code": "autoconv.conversion.api",
    "do_not_convert": "autoconv.conversion.api",
    "set_strict": "autoconv.conversion.settings",
    "is_strict": "autoconv.conversion.settings",
    "set_always_converted": "autoconv.runtime.staging",
    "always_converted": "autoconv.runtime.staging",
    "tracing": "autoconv.runtime.staging",
    "function": "autoconv.functions.function",
    "Function": "autoconv.functions.function",
    "ConcreteFunction": "autoconv.functions.function",
    "TensorSpec": "autoconv.graph.signature",
    "Tensor": "autoconv.graph.tensor",
    "Graph": "autoconv.graph.graph",
    "Variable": "autoconv.graph.variables",
    "print": "autoconv.trace.tensors.printing",
    "RetracingWarning": "autoconv.graph.errors",
    "TraceEffectWarning": "autoconv.graph.errors",
    "clear_caches": "autoconv.caches",
    "run_functions_eagerly": "autoconv.functions.function",
    "functions_run_eagerly": "autoconv.functions.function",
    "load": "autoconv.functions.saving",
    "SaveError": "autoconv.functions.saving",
    "LoadError": "autoconv.functions.saving",
}

__all__ = ["AutoconvError", "ConversionError", "ConversionWarning", *_LAZY]


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'autoconv' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
