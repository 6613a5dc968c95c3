"""Where tracers plug into the runtime operators.

The operators run plain Python unless a tracer claims a value they receive. Each tracer claims
values by type, in one of two ways: it registers its types when it is imported (`register`:
the Tensor tracer, `autoconv.trace.tensors.tracer`), or it is represented here by a cheap test
of a type and a loader that imports it the first time the test says yes (`register_claim`: the
JAX client, `autoconv.trace.jax`, which claims JAX tracers once `jax` is imported). So converted
code that never meets a symbolic value never imports a tracer, NumPy or JAX.

An operator asks `tracer_for(value)` once (or `TRACERS[type(value)]` where a list some staged
loop grew must stay a list: iteration, `is None`, `assert`); None means plain Python. Each
type is classified once (`TRACERS` caches the answer), so the question costs one dict lookup.

A tracer is any object (the JAX client is a module) with these functions; each receives exactly
what the operator received:

    if_stmt(cond, body, orelse, get_state, set_state, names)
    while_stmt(test, body, get_state, set_state, names, first_cond, mark)
    for_stmt(iterable, body, get_state, set_state, names)
    while_rest(stop, test, body, get_state, set_state, names)   # a Python loop's body gave a
    for_rest(stop, iterable, items, item, body, get_state, set_state, names)   # symbolic stop
    if_exp(cond, if_true, if_false)
    and_(value, operands) / or_(value, operands)     # operands: the remaining thunks
    not_(value)
    is_none(value)
    assert_(test, message)         # message: a thunk, or None
    range(*args) / enumerate(iterable, start) / zip(*iterables, **kwargs)
    len(value)
    extreme(which, args)           # `max(*args)` ("max") or `min(*args)` ("min")
    setitem(target, key, value)    # `target[key] = value`; gives what the name then holds
    mark()                         # where the graph being built ends now (None: no graph)

Loop bodies return a true value to stop the loop (a lowered `break` or `return`). The tracer
registered with `builds_graphs=True` (`graph_tracer`) is the one whose graphs `traces` counts:
while one is open, every `while` loop takes its `mark()` before each test and every item
assignment is its `setitem`; `len`, `max` and `min` consult the tracers only then.
"""

import os as _os
import sys as _sys

_modules = _sys.modules
_runtime = _modules[__package__]  # `autoconv.runtime`, the module converted code calls `ac`

traces: list = []
"""Non-empty while some thread is building a graph (`enter_trace`/`leave_trace` around each
block). Symbolic values exist only then. Read it, never change it directly."""


def enter_trace() -> None:
    """Notes that this thread starts building a block of a graph."""
    traces.append(None)
    _runtime.may_trace = True


def leave_trace() -> None:
    """Notes that the block `enter_trace` announced is done (when no graph is being built
    any more, runs the `when_idle` hooks)."""
    traces.pop()
    if not traces:
        for hook in when_idle:
            hook()
    _update_may_trace()


when_idle: list = []
"""Functions called when no thread builds a graph any more: what a trace noted on objects that
outlive it (a module's dict's run-time keys, `runtime.keyed`) is forgotten."""


def reset_traces(count: int) -> None:
    """Sets the number of blocks being built (after a fork, the forking thread's only)."""
    traces[:] = [None] * count
    _update_may_trace()


# --- the registry of tracers ----------------------------------------------------------------

_REGISTERED: dict = {}  # type -> tracer, from `register`
_CLAIMS: list = []  # (test, load) pairs, from `register_claim`
_ACCUMULATORS: dict = {}  # type -> tracer: as a list's item, it stands for what a loop appended

PROTOCOL = (
    "if_stmt",
    "while_stmt",
    "for_stmt",
    "while_rest",
    "for_rest",
    "if_exp",
    "and_",
    "or_",
    "not_",
    "is_none",
    "assert_",
    "range",
    "enumerate",
    "zip",
    "len",
    "extreme",
    "setitem",
    "mark",
)
"""The names of a tracer's functions (see the module's docstring)."""

graph_tracer = None
"""The tracer whose graphs `traces` counts (see the module's docstring), once registered."""


class _Tracers(dict):
    """type -> the tracer that claims its values, or None for plain Python ones; a type not
    seen before is classified on its first lookup (`_classify`)."""

    __slots__ = ()

    def __missing__(self, kind):
        return _classify(kind)


TRACERS = _Tracers()
"""`TRACERS[type(value)]`: the tracer that stages operators on `value`, or None. A cache:
mutated in place, never rebound; read it, never change it directly."""


def _classify(kind):
    tracer = _REGISTERED.get(kind)
    sure = True
    if tracer is None:
        for test, load in _CLAIMS:
            claimed = test(kind)
            if claimed:
                tracer = load()
                break
            if claimed is None:  # cannot tell yet (a module half imported): ask again later
                sure = False
    if sure:
        if len(TRACERS) > 4096:  # classes made on the fly must not grow this forever
            TRACERS.clear()
        TRACERS[kind] = tracer
    return tracer


def tracer_for(value):
    """The tracer that stages an operator on `value`, or None: run it as Python. While a graph
    is being built, a Python list a staged loop appended to is its tracer's (`grown_list`)."""
    tracer = TRACERS[type(value)]
    if tracer is None and traces and type(value) is list:
        return _grower(value)
    return tracer


def _grower(value):
    for item in value:
        tracer = _ACCUMULATORS.get(type(item))
        if tracer is not None:
            return tracer
    return None


def grown_list(value) -> bool:
    """Whether `value` is a Python list that a staged loop appended to (an item is a symbolic
    stand-in for the appended items, usually the last): its length and truth are known at run
    time."""
    return type(value) is list and _grower(value) is not None


def symbolic(value) -> bool:
    """Whether an operator must defer to a tracer for `value` (not a bool)."""
    return tracer_for(value) is not None


def symbolic_key(key) -> bool:
    """Whether a subscript's key (a tuple's items each) is symbolic."""
    if type(key) is tuple:
        return any(tracer_for(k) is not None for k in key)
    return tracer_for(key) is not None


def register(types, tracer, *, accumulators=(), builds_graphs=False) -> None:
    """Makes `tracer` stage the operators on values of `types` (an iterable of classes).

    `accumulators`: types whose values, as items of a Python list, stand for what a staged loop
    of `tracer` appended to it (while a graph is built, `tracer_for` gives `tracer` for such a
    list). `builds_graphs`: `tracer` builds the graphs `enter_trace` announces (one tracer may).
    """
    global graph_tracer
    types, accumulators = tuple(types), tuple(accumulators)
    for kind in types:
        if _REGISTERED.get(kind, tracer) is not tracer:
            raise RuntimeError(f"autoconv: another tracer is registered for {kind.__name__}")
    if builds_graphs and graph_tracer is not None and graph_tracer is not tracer:
        raise RuntimeError("autoconv: a different tracer already builds the graphs")
    for kind in types:
        _REGISTERED[kind] = TRACERS[kind] = tracer
    for kind in accumulators:
        _ACCUMULATORS[kind] = tracer
    if builds_graphs:
        graph_tracer = tracer


def register_claim(test, load) -> None:
    """Lets a tracer claim types without being imported: `test(kind)` says whether it claims
    `kind` (True, False, or None for "not known yet"; it must import nothing and is asked once
    per type), and `load()` gives the tracer, importing it, the first time `test` says True."""
    _CLAIMS.append((test, load))
    TRACERS.clear()  # the types classified so far were not asked
    TRACERS.update(_REGISTERED)


class _Undefined:
    """The value of a state variable that is not bound yet (see `read_state`)."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"<undefined {self.name}>"


# (id(list), key) -> (list, value): the value a statement's state last set for an item with
# an int key (`pts[2]`) of a list a staged loop made a run-time one (`pts.sort()` in it). Such a
# list carries its items itself (a write is staged on it, `items.setitem`), so the item's own
# state is left as it was set: reading it back gives that value (`hold_item`, `read_state`).
_HELD_ITEMS: dict = {}


def hold_item(lst: list, key: int, value) -> None:
    """Records `value` as the state of item `key` of the run-time list `lst` (`store_item`)."""
    if len(_HELD_ITEMS) > 4096:
        _HELD_ITEMS.clear()
    _HELD_ITEMS[(id(lst), key)] = (lst, value)


def held_at(lst, key) -> bool:
    """Whether item `key` (an int) of the list `lst` is among the items a staged loop appended
    (or past them): not a Python item before or after its stand-in, which Python's statements
    read and write as they are (`seen = [0]`, then `seen[0] += 1` in the loop)."""
    if type(key) is not int or not grown_list(lst):
        return False
    j = next(i for i, item in enumerate(lst) if type(item) in _ACCUMULATORS)
    return not (0 <= key < j or -(len(lst) - 1 - j) <= key < 0)


def _held_item(lst, key):
    held = _HELD_ITEMS.get((id(lst), key))
    return held[1] if held is not None and held[0] is lst else None


def _grown_items(get_state, names) -> bool:
    """Whether some name of `names` is an item (`x[0]`) of a run-time list: Python's own
    subscript would read the list's stand-in, or fail."""
    if not traces or not any(n.endswith("]") for n in names):
        return False
    cells = dict(zip(get_state.__code__.co_freevars, get_state.__closure__ or ()))
    for name in names:
        if name.endswith("]"):
            root, accessors = _parse(name)
            cell = cells.get(root)
            if cell is None or len(accessors) != 1 or accessors[0][0]:
                continue
            if type(accessors[0][1]) is slice:
                continue  # (a list carried by its items)
            try:
                container = cell.cell_contents
                if held_at(container, accessors[0][1]) or _default_dict(container):
                    return True
            except ValueError:  # unbound
                pass
    return False


def _default_dict(value) -> bool:
    """A dict whose `d[k]` of a missing key gives (or stores) a default: a `Counter`, a
    `defaultdict`. Its state item is read without that (a missing key is undefined)."""
    return isinstance(value, dict) and type(value) is not dict and hasattr(value, "__missing__")


def read_state(get_state, names):
    """Returns the current values of `names` as `get_state()` would, with unbound ones (and
    composite names `o.attr` / `d['key']` that do not exist yet) as `_Undefined` instances
    instead of raising. An item of a run-time list reads as its state was last set."""
    if not _grown_items(get_state, names):
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
            if (
                len(accessors) == 1
                and not accessors[0][0]
                and type(accessors[0][1]) is not slice
                and held_at(value, accessors[0][1])
            ):
                held = _held_item(value, accessors[0][1])
                values.append(_Undefined(name) if held is None else held)
                continue
            for is_attr, key in accessors:
                if not is_attr and _default_dict(value) and not dict.__contains__(value, key):
                    raise KeyError(key)  # not `Counter`'s 0 or `defaultdict`'s new item
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
            elif rest.startswith("[:]"):  # a list carried by its items (`best[:]`)
                end = 3
                accessors.append((False, slice(None)))
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


STORE_CHECKS: dict = {}
"""Type -> check, for the tracers' values that may exist on some paths only (an `Undefined`, an
Optional of an unbound variable; each tracer adds its own): storing one into a container
(`d[k] = v` in one branch: the keys would differ by path) calls the check, which raises the
error explaining it where the value is missing on a path."""


# --- JAX tracers ----------------------------------------------------------------------------
# Converted code also runs inside `jax.jit` / `jax.grad` / `jax.vmap`, where values are JAX
# tracers. The JAX client claims them (and its own stand-ins, `_JAX_TYPES`) through
# `register_claim`; its test imports nothing: a type seen before `jax` was imported cannot be a
# tracer type.

_JAX_TYPES: set = set()
"""The JAX client's own types (it adds them when imported); claimed with JAX's tracers."""

_jax_ops = None


def _jax_claims(kind):
    jax = _modules.get("jax")
    if jax is None:
        return False
    tracer = getattr(getattr(jax, "core", None), "Tracer", None)
    if tracer is None:  # `jax` is being imported
        return None
    return issubclass(kind, tracer) or kind in _JAX_TYPES


def jax_ops():
    """The JAX client (`autoconv.trace.jax`), imported on first use."""
    global _jax_ops
    if _jax_ops is None:
        from autoconv.trace import jax as ops

        _jax_ops = ops
    return _jax_ops


register_claim(_jax_claims, jax_ops)


def jax_value(value) -> bool:
    """Whether `value` is a JAX tracer, or a stand-in of the JAX client's (costs one dict lookup
    for types seen before)."""
    tracer = TRACERS[type(value)]
    return tracer is not None and tracer is _jax_ops


_trace_ctx = None


def jax_tracing() -> bool:
    """Whether JAX is building a trace (`jit`, `grad`, `vmap`, ...) in this thread. Consults
    JAX only when it is imported already, so the check is free for everyone else; it imports
    neither JAX nor `autoconv.trace.jax`."""
    if "jax" not in _modules:
        return False
    ctx = _trace_ctx if _trace_ctx is not None else _find_trace_ctx()
    if ctx is False:
        return jax_ops().tracing()
    return not ctx.is_top_level()


def _find_trace_ctx():
    global _trace_ctx
    try:
        from jax._src.core import trace_ctx
    except ImportError:  # another JAX layout: ask through the JAX lowering
        trace_ctx = False
    _trace_ctx = trace_ctx
    return trace_ctx


def tracing() -> bool:
    """True while the calling code is being traced: into a graph by `autoconv.function` (in
    this thread), or by JAX (`jax.jit`, `jax.grad`, `jax.vmap`, ...). False when it runs
    eagerly, with Python values (TF's `not tf.executing_eagerly()` inside a function)."""
    if traces:
        # `traces` counts every thread's; the graph scopes say whether this thread's is one.
        # They are loaded whenever a graph is built, so looking them up imports nothing.
        scopes = _modules.get("autoconv.graph.scopes")
        if scopes is not None and scopes.building():
            return True
    return jax_tracing()


# --- which form converted functions run -----------------------------------------------------
# A converted function runs the user's original statements unless a trace is being built, when
# it runs its functional form (see `autoconv.conversion.guarded`). The question "is a trace being
# built?" is `tracing()`. Converted functions ask it on every call, so a cheap flag comes first:
# `autoconv.runtime.may_trace` is False unless one of our traces is open, JAX has been imported
# (JAX may then be tracing), or `set_always_converted(True)` is on. One attribute test when it
# is False; `functional_now()` answers exactly when it is True.

_always = _os.environ.get("AUTOCONV_ALWAYS_CONVERTED", "").strip().lower() in (
    "1",
    "true",
    "yes",
    "on",
)
_jax_imported = "jax" in _modules


def _update_may_trace() -> None:
    _runtime.may_trace = _always or _jax_imported or bool(traces)
    # A trace another thread entered between the read and the write above wrote True before
    # this wrote False: look again (list operations are atomic, so this closes the window).
    if traces:
        _runtime.may_trace = True


def functional_now() -> bool:
    """Whether converted functions run their functional form now: while a trace is being built
    (ours, in any thread, or JAX's in this one), or always under `set_always_converted(True)`."""
    # `jax_tracing`, inlined on purpose: every converted call asks this once JAX is imported,
    # and each frame it takes is a level of recursion the user's code cannot use. Change both.
    if _always or traces:
        return True
    if "jax" not in _modules:
        return False
    ctx = _trace_ctx if _trace_ctx is not None else _find_trace_ctx()
    if ctx is False:
        return jax_ops().tracing()
    return not ctx.is_top_level()


def set_always_converted(flag: bool) -> None:
    """Makes converted functions run their functional form everywhere (True), or only while a
    trace is being built (False, the default; `AUTOCONV_ALWAYS_CONVERTED=1` sets it from the
    environment). For tests, debugging and measurement: results are the same either way."""
    global _always
    _always = bool(flag)
    _update_may_trace()


def always_converted() -> bool:
    """Whether `set_always_converted(True)` is on."""
    return _always


class _JaxWatch:
    """A finder that finds nothing: it notes the first import of JAX, after which converted
    functions must ask whether JAX is tracing them (`jax.jit(convert(f))`)."""

    def find_spec(self, name, path=None, target=None):
        global _jax_imported
        if name == "jax" and not _jax_imported and _findable(name):
            _jax_imported = True
            _update_may_trace()
        return None

    def __repr__(self):
        return "<autoconv: notes the import of jax>"


def _findable(name) -> bool:
    """Whether an import of the top-level module `name` can succeed (a failed `import jax`, as
    in `pytest.importorskip`, must not make every converted call ask JAX from then on)."""
    for finder in _sys.meta_path:
        if type(finder) is _JaxWatch:
            continue
        find = getattr(finder, "find_spec", None)
        try:
            if find is not None and find(name, None) is not None:
                return True
        except Exception:  # a finder's own trouble: assume it may be found
            return True
    return False


if not _jax_imported:
    _sys.meta_path.insert(0, _JaxWatch())
_update_may_trace()
