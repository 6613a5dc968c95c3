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

ACCUMULATOR_TYPES: set = set()
"""Types that stand, as a list's last item, for the items a staged loop appended to it."""

STAGED_TYPES: set = set()
"""Types whose values make an operator defer to the backend. Mutated in place, never rebound."""

backend = None

traces: list = []
"""Non-empty while some thread is building a graph (a backend pushes an entry when it starts a
block and pops it when done). Symbolic values exist only then."""


def grown_list(value) -> bool:
    """Whether `value` is a Python list that a staged loop appended to (an item is a symbolic
    stand-in for the appended items, usually the last): its length and truth are known at run
    time."""
    return type(value) is list and any(type(v) in ACCUMULATOR_TYPES for v in value)


def symbolic(value) -> bool:
    """Whether an operator must defer to the backend for `value` (not a bool)."""
    return type(value) in STAGED_TYPES or bool(traces) and grown_list(value)


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
    """Returns the current values of `names` as `get_state()` would, with unbound ones (and
    composite names `o.attr` / `d['key']` that do not exist yet) as `_Undefined` instances
    instead of raising."""
    try:
        return tuple(get_state())
    except (NameError, AttributeError, LookupError):
        pass
    code = get_state.__code__
    cells = dict(zip(code.co_freevars, get_state.__closure__ or ()))
    values = []
    for name in names:
        root, accessors = _parse(name)
        try:
            if root in cells:
                value = cells[root].cell_contents
            else:
                value = get_state.__globals__[root]
            for is_attr, key in accessors:
                value = getattr(value, key) if is_attr else value[key]
        except (ValueError, LookupError, AttributeError):
            value = _Undefined(name)
        values.append(value)
    return tuple(values)


_PARSED: dict = {}


def _parse(name):
    """`"self.params['w']"` -> `("self", [(True, "params"), (False, "w")])`."""
    parsed = _PARSED.get(name)
    if parsed is None:
        root, accessors, rest = name, [], ""
        cut = min((i for i in (name.find("."), name.find("[")) if i >= 0), default=-1)
        if cut >= 0:
            root, rest = name[:cut], name[cut:]
        while rest:
            if rest[0] == ".":
                end = min((i for i in (rest.find(".", 1), rest.find("[", 1)) if i > 0), default=0)
                end = end or len(rest)
                accessors.append((True, rest[1:end]))
            else:
                import ast

                end = rest.index("]") + 1
                while True:  # a string key may hold "]"
                    try:
                        key = ast.literal_eval(rest[1 : end - 1])
                        break
                    except (ValueError, SyntaxError):
                        end = rest.index("]", end) + 1
                accessors.append((False, key))
            rest = rest[end:]
        parsed = _PARSED[name] = (root, accessors)
    return parsed


def is_undefined(value) -> bool:
    return type(value) is _Undefined
