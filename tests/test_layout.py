"""The layout, and the one way data flows: source -> AST -> converted code -> trace -> graph ->
passes -> backend.

* `autoconv.graph` (the IR, its passes and views) imports no tracer (`autoconv.trace`), no
  graph-mode API (`autoconv.functions`) and no backend;
* `autoconv.backends` import the IR (with `graph/helpers.py`, the run-time helpers nodes call),
  never a tracer or the API, except for what `BACKEND_HELPERS` lists (to shrink, never grow);
* `autoconv.trace.core`, the state core both tracers share, imports neither the IR nor `jax`;
* only the API layer picks a backend, and late (when it builds a program);
* no import circle at module level; an import inside a function ("late") that closes a circle
  is listed in `LATE_CIRCLES`, so that a new one fails here and one removed must leave the list.

Imports are read with `ast`, so nothing here depends on import order at run time.
"""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

SRC = pathlib.Path(__file__).resolve().parent.parent / "src"

# Where the user-facing API picks a backend to run a graph (a late import, at that moment).
API_LAYER = {"autoconv.functions.function", "autoconv.functions.saving.loaded"}

# Modules of the tracers that backends still import (backend module -> tracer module): the
# `Optional` output record, and the check of a structure a graph cannot return. The run-time
# helpers that nodes call are in `graph/helpers.py`. Shrink this list; never grow it.
BACKEND_HELPERS = {
    ("autoconv.backends.jax.program", "autoconv.trace.tensors.optionals"),
    ("autoconv.backends.numpy.executor", "autoconv.trace.tensors.accumulated"),
    ("autoconv.backends.numpy.executor", "autoconv.trace.tensors.optionals"),
}

# Late imports (importer -> imported) between modules of one import circle: with them the
# modules load in either order only because the import waits for the call. Shrink this list;
# never grow it.
LATE_CIRCLES = {
    ("autoconv.trace.jax.logical", "autoconv.trace.jax.cond"),
    ("autoconv.trace.jax.state", "autoconv.trace.jax.logical"),
    ("autoconv.trace.tensors.arraylike", "autoconv.trace.tensors.numpy_dispatch"),
    ("autoconv.trace.tensors.mutation", "autoconv.trace.tensors.numpy_dispatch"),
    ("autoconv.trace.tensors.numpy_dispatch", "autoconv.trace.tensors.mutation"),
    ("autoconv.trace.tensors.numpy_dispatch", "autoconv.trace.tensors.optionals"),
    ("autoconv.trace.tensors.optionals", "autoconv.trace.tensors.printing"),
    ("autoconv.trace.tensors.printing", "autoconv.trace.tensors.arraylike"),
    ("autoconv.trace.tensors.printing", "autoconv.trace.tensors.mutation"),
    ("autoconv.trace.tensors.printing", "autoconv.trace.tensors.numpy_dispatch"),
    ("autoconv.trace.tensors.printing", "autoconv.trace.tensors.optionals"),
}


def _modules() -> dict[str, pathlib.Path]:
    found = {}
    for path in sorted((SRC / "autoconv").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _targets(module: str, is_package: bool, node) -> set[str]:
    """The autoconv modules an `import`/`from` statement loads (the deepest one named)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module.split(".")[: len(module.split(".")) - (not is_package)]
            package = package[: len(package) - (node.level - 1)]
            base = ".".join(package + ([node.module] if node.module else []))
        names = [f"{base}.{alias.name}" for alias in node.names]
        names = [n if n in MODULES else base for n in names]
    out = set()
    for name in names:
        while name and name not in MODULES:
            name = name.rpartition(".")[0]
        if name.startswith("autoconv") and name != module:
            out.add(name)
    return out


def _module_level(body):
    """The import statements run when the module loads (also under `if`/`try` at top level)."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, (ast.If, ast.Try)):
            for field in ("body", "orelse", "finalbody"):
                yield from _module_level(getattr(node, field, ()))
            for handler in getattr(node, "handlers", ()):
                yield from _module_level(handler.body)


def _imports(late: bool) -> dict[str, set[str]]:
    """module -> the modules it imports at module level (`late=False`) or anywhere."""
    edges = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(), str(path))
        if late:
            nodes = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
        else:
            nodes = list(_module_level(tree.body))
        is_package = path.name == "__init__.py"
        edges[module] = set().union(*(_targets(module, is_package, n) for n in nodes))
    return edges


def _circles(edges: dict[str, set[str]], prefix: str) -> list[list[str]]:
    """The strongly connected groups of more than one module among those under `prefix`."""
    graph = {m: {d for d in ds if d.startswith(prefix)} for m, ds in edges.items()}
    graph = {m: ds for m, ds in graph.items() if m.startswith(prefix)}
    index: dict = {}
    low: dict = {}
    stack: list = []
    found = []

    def visit(v):  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _offenders(importers: str, forbidden: tuple, late: bool = True) -> set:
    return {
        (module, target)
        for module, targets in _imports(late=late).items()
        if module.startswith(importers)
        for target in targets
        if target.startswith(forbidden)
    }


def test_the_ir_imports_no_tracer_api_or_backend():
    forbidden = ("autoconv.trace", "autoconv.functions", "autoconv.backends")
    assert _offenders("autoconv.graph", forbidden) == set()


def test_backends_import_no_tracer_or_api_but_the_listed_helpers():
    found = _offenders("autoconv.backends", ("autoconv.trace", "autoconv.functions"))
    assert sorted(found - BACKEND_HELPERS) == [], "a backend imports a tracer or the API"
    assert sorted(BACKEND_HELPERS - found) == [], "an import left: remove it from the list"


def test_the_state_core_imports_neither_the_ir_nor_jax():
    found = {
        target
        for module, path in MODULES.items()
        if module.startswith("autoconv.trace.core")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for target in (
            [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        )
    }
    outside = {t for t in found if not t.startswith("autoconv.trace.core")}
    assert not {t for t in outside if t.startswith(("autoconv.graph", "autoconv.trace.", "jax"))}
    assert not {t for t in found if t.split(".")[0] in ("jax", "jaxlib")}


def test_only_the_api_layer_picks_a_backend():
    """Only the modules that build a program for the user import `autoconv.backends`, and only
    late: the IR, tracing and passes never do."""
    importers = {
        module
        for module, targets in _imports(late=True).items()
        if not module.startswith("autoconv.backends")
        and any(t.startswith("autoconv.backends") for t in targets)
    }
    assert importers == API_LAYER
    eager = _offenders("autoconv.functions", ("autoconv.backends",), late=False)
    assert eager == set()


def test_importing_the_ir_loads_no_tracer_or_backend():
    code = (
        "import sys, autoconv.graph.graph, autoconv.graph.tensor, autoconv.graph.passes\n"
        "print(sorted(m for m in sys.modules if m.startswith(('autoconv.backends', "
        "'autoconv.trace', 'autoconv.functions'))))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(SRC), "PATH": ""},
    )
    assert result.stdout.strip() == "[]"


def test_the_tracer_left_the_ir():
    assert "autoconv.graph.staging" not in MODULES
    assert "autoconv.runtime.jax" not in MODULES
    assert "autoconv.trace.tensors.tracer" in MODULES


def test_no_source_file_is_over_900_lines():
    long = {m: n for m, p in MODULES.items() if (n := len(p.read_text().splitlines())) > 900}
    assert long == {}


def test_no_import_circle_at_module_level():
    edges = _imports(late=False)
    for prefix in ("autoconv.graph", "autoconv.trace", "autoconv.functions", "autoconv.backends"):
        assert _circles(edges, prefix) == [], prefix


def test_late_imports_that_close_a_circle_are_the_known_ones():
    late = _imports(late=True)
    eager = _imports(late=False)
    for prefix in ("autoconv.graph", "autoconv.backends", "autoconv.functions"):
        assert _circles(late, prefix) == [], prefix
    group = {m: i for i, ms in enumerate(_circles(late, "autoconv.trace")) for m in ms}
    closing = {
        (module, target)
        for module in group
        for target in late[module] - eager[module]
        if group.get(target) == group[module]
    }
    assert sorted(closing - LATE_CIRCLES) == [], "a new import circle inside trace/"
    assert sorted(LATE_CIRCLES - closing) == [], "a circle was broken: remove it from the list"
