"""`%`-formatting and `str.format` in converted code (converters/strings.py):

    "mean: %.2f" % m           ->  ac.percent("mean: %.2f", m)
    "{:.3f} {k}".format(v, k=w) ->  ac.str_format("{:.3f} {k}", (v,), {"k": w})

Outside a trace these are Python's `%` and `str.format` behind one test. While a graph is
traced, a value known only when the graph runs (a Tensor, a list holding one, a JAX tracer)
cannot be formatted now: each of its conversions (`%.2f`, `{:>5}`) becomes a marker, as in an
f-string, and the string is made when the graph runs with eager's own formatting of the
run-time value (`"%.2f" % (v,)`, `format(v, ">5")`, graph.helpers.render). The other values
are formatted now. `printed`: an argument of Python's `print`, which takes the markers itself
(a JAX tracer's); elsewhere the string is made a value as `ac.text` makes an f-string's.
"""

import re as _re
import sys as _sys

from autoconv.runtime import staging as _staging
from autoconv.runtime.printing import text as _text

_traces = _staging.traces
_modules = _sys.modules

# One conversion of %-formatting: `%(key)` `flags` `width` `.precision` length `type`.
_PERCENT = _re.compile(
    r"%(?:\(([^()]*)\))?([-#0 +]*)(\*|\d+)?(?:\.(\*|\d*))?[hlL]?([diouxXeEfFgGcrsa%])"
)


def percent(fmt, values, printed=False):
    """`fmt % values` (`fmt` a string the code writes); see the module."""
    if not (_traces or "jax" in _modules) or type(fmt) is not str:
        return fmt % values
    marker = _marker_maker()
    if marker is None or not marker.any((values,)):
        return fmt % values
    made = _percent_marked(fmt, values, marker)
    if made is None:
        return fmt % values  # (a form not staged: Python's own result or error)
    return made if printed else _text(made)


def str_format(fmt, args, kwargs, printed=False):
    """`fmt.format(*args, **kwargs)`; see the module."""
    if type(fmt) is not str:  # an object's own `format` method, converted as other calls
        from autoconv.runtime.calls import converted

        return converted(fmt.format)(*args, **kwargs)
    if not (_traces or "jax" in _modules):
        return fmt.format(*args, **kwargs)
    marker = _marker_maker()
    if marker is None or not marker.any((args, kwargs)):
        return fmt.format(*args, **kwargs)
    made = _format_marked(fmt, args, kwargs, marker)
    if made is None:
        return fmt.format(*args, **kwargs)
    return made if printed else _text(made)


def _marker_maker():
    """The markers of the tracer running now (symbolic Tensors or JAX tracers), or None."""
    if _traces:
        from autoconv.trace.tensors import printing

        return printing.Markers()
    if _staging.jax_tracing():
        from autoconv.trace.jax import strings

        return strings.Markers()
    return None


def _percent_marked(fmt, values, marker):
    """`fmt % values` with markers for the symbolic values; None where not staged here."""
    mapping = type(values) is dict
    items = values if type(values) is tuple else (values,)
    out, at, used = [], 0, 0
    for m in _PERCENT.finditer(fmt):
        literal = fmt[at : m.start()]
        if "%" in literal:
            return None  # an unsupported conversion: Python's ValueError
        out.append(literal)
        at = m.end()
        key, flags, width, precision, kind = m.groups()
        if kind == "%" and not (key or flags or width or precision):
            out.append("%")
            continue
        if width == "*" or precision == "*" or (key is None) == mapping:
            return None
        spec = f"%{flags}{width or ''}{'' if precision is None else '.' + precision}{kind}"
        if mapping:
            value = values[key]  # Python's own KeyError
        else:
            if used >= len(items):
                raise TypeError("not enough arguments for format string")
            value = items[used]
            used += 1
        out.append(marker.make(value, spec))
    if "%" in fmt[at:]:
        return None
    out.append(fmt[at:])
    if not mapping and used < len(items):
        raise TypeError("not all arguments converted during string formatting")
    return "".join(out)


def _format_marked(fmt, args, kwargs, marker):
    """`fmt.format(*args, **kwargs)` with markers for the symbolic values; None where not
    staged here (a nested replacement field in a spec)."""
    import _string

    out, auto = [], 0
    for literal, field, spec, conversion in _string.formatter_parser(fmt):
        out.append(literal)
        if field is None:
            continue
        if "{" in spec:
            return None
        first, rest = _string.formatter_field_name_split(field)
        if first == "":
            if auto is None:
                raise ValueError(
                    "cannot switch from manual field specification to automatic field numbering"
                )
            first, auto = auto, auto + 1
        elif type(first) is int:
            if auto:
                raise ValueError(
                    "cannot switch from automatic field numbering to manual field specification"
                )
            auto = None
        value = args[first] if type(first) is int else kwargs[first]
        for is_attribute, key in rest:
            value = getattr(value, key) if is_attribute else value[key]
        if conversion:
            spec = f"!{conversion}" + (f":{spec}" if spec else "")
        out.append(marker.make(value, spec))
    return "".join(out)
