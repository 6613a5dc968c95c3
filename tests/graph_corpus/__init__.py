"""A differential corpus of graph programs: ordinary NumPy code as people write it.

Each module holds functions on one theme (numerics, searches, schedules, parsers, models...).
`@case(*inputs, cls=...)` registers a function with the inputs it is called on, in order, and
the classes of issue 9 ("Graph mode tells the truth") it exercises:

    @case((np.array([1.0, -2.0]),), (np.array([-1.0, -3.0]),), cls=(2,))
    def best_value(xs): ...

The harness (`tests/graph_corpus/harness.py`) calls ONE `autoconv.function` of each program on
all of its inputs and compares every call with the eager call. Options of `case`:

- `expect="error"`: a clear `AutoconvError` naming the user's file and line is a correct answer
  as well as the eager result. Only where issue 9 itself says so: recursion with a Tensor base
  case (class 6); the Tensor used as a Python number or a concrete array (class 8: `.item()`,
  `.tolist()`, `round()`, `int()`/`float()`/`bool()`/`max()`, format specs, isinstance checks,
  sizes from data, in-place updates of arguments); Variables created inside the traced function
  (class 11: "or raise a clear error on the second trace").
- `@limit("...")` (under `@case`): what graph mode does not do yet for this program, which
  must then give a clear `AutoconvError` naming the user's file and line (as `expect="error"`);
  the reason is shown by `tools/graph_corpus_report.py --limits` and listed in docs/graph-mode.md.
- `seed=N`: the program draws from `np.random`'s global state; both sides seed it with `N + i`
  before call `i`.
- `bind=factory`: `func` is a method; each side calls it bound to its own copy of `factory()`,
  one object for all the calls (so state carries from call to call, as in a training loop).
"""

import dataclasses
import importlib
import os

MODULES = (
    "numerics",
    "search",
    "clustering",
    "schedules",
    "parsing",
    "models",
    "validation",
    "lists",
    "sentinels",
    "mixed",
    "loops",
    "containers",
    "arrays",
    "randomness",
    "variables",
    "printing",
)
CLASSES = tuple(range(1, 12))


@dataclasses.dataclass
class Program:
    """One function of the corpus with the inputs it is called on, in order."""

    func: object
    inputs: tuple
    classes: tuple
    module: str
    name: str
    expect: str = "same"
    seed: object = None
    bind: object = None
    limit: str = ""

    @property
    def id(self) -> str:
        return f"{self.module}.{self.name}"

    @property
    def path(self) -> str:
        """The file of the module that defines the program."""
        return self.func.__code__.co_filename


REGISTRY: list = []


def case(*inputs, cls, expect="same", seed=None, bind=None):
    """Registers the decorated function with `inputs` (tuples of positional arguments)."""
    if expect not in ("same", "error"):
        raise ValueError(f"expect is 'same' or 'error', not {expect!r}")
    classes = (cls,) if isinstance(cls, int) else tuple(cls)
    if not inputs or not all(isinstance(i, tuple) for i in inputs):
        raise TypeError("each input is a tuple of positional arguments")

    def register(func):
        module = func.__module__.rpartition(".")[2]
        why = getattr(func, "corpus_limit", "")
        REGISTRY.append(
            Program(
                func,
                inputs,
                classes,
                module,
                func.__qualname__,
                "error" if why else expect,
                seed,
                bind,
                why,
            )
        )
        return func

    return register


def limit(why: str):
    """Marks a program whose idiom graph mode does not stage yet: it must raise a clear
    AutoconvError (see `case`); `why` says what is missing."""

    def mark(func):
        func.corpus_limit = why
        return func

    return mark


def programs() -> list:
    """Every program of the corpus (importing the modules registers them)."""
    for name in MODULES:
        importlib.import_module(f"{__name__}.{name}")
    return list(REGISTRY)


HERE = os.path.dirname(os.path.abspath(__file__))
