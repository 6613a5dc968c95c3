"""Where a graph backend plugs into the runtime operators.

The operators run plain Python unless a value's type is registered here. A backend registers its
symbolic types when it is imported, so converted code that never meets a symbolic value never
imports one (and never imports NumPy).

A backend is any object with these methods; each receives exactly what the operator received:

    if_stmt(cond, body, orelse, get_state, set_state, names)
    while_stmt(test, body, get_state, set_state, names, first_cond)
    for_stmt(iterable, body, get_state, set_state, names)
    if_exp(cond, if_true, if_false)
    and_(value, operands) / or_(value, operands)     # operands: the remaining thunks
    not_(value)
    range(*args) / enumerate(iterable, start) / zip(*iterables)

Loop bodies return a true value to stop the loop (a lowered `break` or `return`).
"""

STAGED_TYPES: set = set()
"""Types whose values make an operator defer to the backend. Mutated in place, never rebound."""

backend = None

traces: list = []
"""Non-empty while some thread is building a graph (a backend pushes an entry when it starts a
block and pops it when done). Symbolic values exist only then."""


def register(types, impl) -> None:
    """Makes `impl` the backend for values of `types` (an iterable of classes)."""
    global backend
    if backend is not None and backend is not impl:
        raise RuntimeError("autoconv: a different graph backend is already registered")
    backend = impl
    STAGED_TYPES.update(types)


class _Undefined:
    """The value of a state variable that is not bound yet (see `read_state`)."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"<undefined {self.name}>"


def read_state(get_state, names):
    """Returns the current values of `names` as `get_state()` would, with unbound ones as
    `_Undefined` instances instead of raising `NameError`."""
    try:
        return tuple(get_state())
    except NameError:
        pass
    code = get_state.__code__
    cells = dict(zip(code.co_freevars, get_state.__closure__ or ()))
    values = []
    for name in names:
        root, *attrs = name.split(".")
        try:
            if root in cells:
                value = cells[root].cell_contents
            else:
                value = get_state.__globals__[root]
            for attr in attrs:
                value = getattr(value, attr)
        except (ValueError, KeyError, AttributeError):
            value = _Undefined(name)
        values.append(value)
    return tuple(values)


def is_undefined(value) -> bool:
    return type(value) is _Undefined
