"""The optimizing pipeline: settings, and the passes run in order on a copy of a traced graph.

Order: re-rolling of unrolled Python loops (on the graph as traced, before the other passes
merge operations across steps); constant folding, algebraic simplification and common-
subexpression elimination, repeated while they still find something (each can open work for the
others); then the lowering of reductions; then dead-code elimination; then in-place buffer
reuse, which needs the final uses of every value.
"""

from __future__ import annotations

import gc
import time
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace

from autoconv.graph.graph import Graph
from autoconv.graph.passes import cse, dce, fold, inplace, lower, roll, simplify
from autoconv.graph.passes.analysis import count_nodes

_DEFAULT_MAX_BYTES = fold.DEFAULT_MAX_BYTES

PASSES = {
    "roll": roll,
    "fold": fold,
    "simplify": simplify,
    "cse": cse,
    "lower": lower,
    "dce": dce,
    "inplace": inplace,
}
_ROUNDS = 4


@dataclass(frozen=True)
class Settings:
    """Which passes run. Each flag switches one pass (module `autoconv.graph.passes.<name>`).

    roll: the per-step copies of a Python loop unrolled while tracing become one staged loop
    where every step is the same computation. fold: constant folding. simplify: algebraic
    simplification. cse: common-subexpression elimination. lower: reductions call the ufunc's
    `reduce` directly, `mean` divides by the known size. dce: dead-code elimination (off: every
    traced operation runs, strict execution). inplace: elementwise operations reuse dead
    operands' buffers.
    fold_max_bytes: constants larger than this are not folded (they would live in the graph).
    """

    roll: bool = True
    fold: bool = True
    simplify: bool = True
    cse: bool = True
    lower: bool = True
    dce: bool = True
    inplace: bool = True
    fold_max_bytes: int = _DEFAULT_MAX_BYTES

    @classmethod
    def none(cls) -> Settings:
        """Every pass off: the graph runs as traced."""
        return cls(**{name: False for name in PASSES})

    def enabled(self) -> list[str]:
        return [name for name in PASSES if getattr(self, name)]

    def with_flags(self, **flags) -> Settings:
        """A copy with some flags changed; unknown names raise a TypeError listing the known."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(flags) - known)
        if unknown:
            raise TypeError(
                f"unknown optimization setting(s) {', '.join(map(repr, unknown))}; known: "
                f"{', '.join(sorted(known))}"
            )
        return replace(self, **flags)


_CURRENT = [Settings()]


def current() -> Settings:
    """The settings that graphs traced now use when their function gives none."""
    return _CURRENT[0]


def configure(settings: Settings | bool | dict | None = None, **flags) -> Settings:
    """Sets the default settings for graphs traced from now on; returns the previous ones.

    `configure(cse=False)`, `configure(False)` (no passes), `configure(True)` (all passes),
    `configure(Settings(...))`.
    """
    previous = _CURRENT[0]
    _CURRENT[0] = resolve(settings, base=previous).with_flags(**flags)
    return previous


@contextmanager
def options(settings: Settings | bool | dict | None = None, **flags):
    """Context manager: `configure(...)` for the graphs traced inside the `with` block."""
    previous = configure(settings, **flags)
    try:
        yield _CURRENT[0]
    finally:
        _CURRENT[0] = previous


def resolve(value, base: Settings | None = None) -> Settings:
    """Settings from what `autoconv.function(optimize=...)` accepts: None (the current
    defaults), True (every pass), False (none), a dict of flags over the current defaults, or a
    `Settings`."""
    base = current() if base is None else base
    if value is None:
        return base
    if isinstance(value, Settings):
        return value
    if value is True:
        return Settings(fold_max_bytes=base.fold_max_bytes)
    if value is False:
        return Settings.none()
    if isinstance(value, dict):
        return base.with_flags(**value)
    raise TypeError(
        f"optimize= takes True, False, None, a dict of pass flags or a Settings, got {value!r}"
    )


@dataclass
class PassRecord:
    """What one pass did: operations before and after, changes it made, seconds it took."""

    name: str
    nodes_before: int
    nodes_after: int
    changes: int
    seconds: float


def optimize(
    graph: Graph, settings: Settings | None = None, backend: str | None = None
) -> tuple[Graph, list[PassRecord]]:
    """Runs the enabled passes on a copy of `graph`; returns the copy and what each pass did.
    The traced graph is left as it is. `backend`: the name of the one that will run it, for
    the choices that depend on it (`roll.STACKED_MIN`)."""
    settings = current() if settings is None else settings
    # The copy and the passes allocate small objects among the graph's many, and run no user
    # code: the cyclic garbage collector's passes over a large graph took half their time.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _optimize(graph, settings, backend)
    finally:
        if enabled:
            gc.enable()


def _optimize(graph: Graph, settings: Settings, backend) -> tuple[Graph, list[PassRecord]]:
    records: list[PassRecord] = []
    if settings.roll:
        # Planned on the traced graph, made by the copy: 1,000 unrolled steps are not copied
        # only to be dropped (the copy took as long as the pass).
        before = count_nodes(graph)
        start = time.perf_counter()
        plan = roll.plan(graph, backend)
        seconds = time.perf_counter() - start
        if plan.steps:
            graph = graph.copy(plan.blocks, plan.replace)
            graph.unrolled = []
            seconds = time.perf_counter() - start
        else:
            graph = graph.copy()
        records.append(PassRecord("roll", before, count_nodes(graph), plan.steps, seconds))
    else:
        graph = graph.copy()
    count = [count_nodes(graph)]  # after one pass, before the next: nothing runs in between

    def step(name):
        module = PASSES[name]
        before = count[0]
        start = time.perf_counter()
        changes = module.run(graph, settings)
        seconds = time.perf_counter() - start
        count[0] = count_nodes(graph)
        records.append(PassRecord(name, before, count[0], changes, seconds))
        return changes

    rewriters = [name for name in ("fold", "simplify", "cse") if getattr(settings, name)]
    for _ in range(_ROUNDS):
        if not sum(step(name) for name in rewriters):
            break
    for name in ("lower", "dce", "inplace"):
        if getattr(settings, name):
            step(name)
    return graph, records


def summarize(records: list[PassRecord]) -> dict:
    """Per pass: total changes and seconds over all its rounds."""
    out: dict = {}
    for r in records:
        entry = out.setdefault(r.name, {"changes": 0, "seconds": 0.0})
        entry["changes"] += r.changes
        entry["seconds"] += r.seconds
    return out
