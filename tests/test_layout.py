"""The layout of the graph layer: the IR (`autoconv.graph`) never imports a backend
(`autoconv.backends`) at module level, and the imports inside graph/ and backends/ run one way.

Imports are read with `ast`, so nothing here depends on import order at run time. An import
inside a function ("late") that closes a circle is a circle too: those left are listed in
`LATE_CIRCLES` so that a new one fails here, and one removed must be taken off the list.
"""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

SRC = pathlib.Path(__file__).resolve().parent.parent / "src"

# Where the user-facing API picks a backend to run a graph (a late import, at that moment).
API_LAYER = {"autoconv.graph.function", "autoconv.graph.saving.loaded"}

# Late imports (importer -> imported) between modules of one import circle inside graph/: with
# them the modules load in either order only because the import waits for the call. Shrink this
# list; never grow it.
LATE_CIRCLES = {
    ("autoconv.graph.arraylike", "autoconv.graph.eager_types"),
    ("autoconv.graph.arraylike", "autoconv.graph.numpy_dispatch"),
    ("autoconv.graph.mutation", "autoconv.graph.eager_types"),
    ("autoconv.graph.mutation", "autoconv.graph.numpy_dispatch"),
    ("autoconv.graph.numpy_dispatch", "autoconv.graph.mutation"),
    ("autoconv.graph.numpy_dispatch", "autoconv.graph.optionals"),
    ("autoconv.graph.numpy_dispatch", "autoconv.graph.variables"),
    ("autoconv.graph.optionals", "autoconv.graph.printing"),
    ("autoconv.graph.optionals", "autoconv.graph.staging"),
    ("autoconv.graph.printing", "autoconv.graph.arraylike"),
    ("autoconv.graph.printing", "autoconv.graph.mutation"),
    ("autoconv.graph.printing", "autoconv.graph.numpy_dispatch"),
    ("autoconv.graph.printing", "autoconv.graph.optionals"),
    ("autoconv.graph.staging", "autoconv.graph.eager_types"),
    ("autoconv.graph.variables", "autoconv.graph.numpy_dispatch"),
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


def test_the_ir_imports_no_backend_at_module_level():
    offenders = [
        f"{module} imports {target}"
        for module, targets in _imports(late=False).items()
        if module.startswith("autoconv.graph")
        for target in targets
        if target.startswith("autoconv.backends")
    ]
    assert offenders == []


def test_only_the_api_layer_picks_a_backend():
    """Inside graph/, only the modules that build a program for the user import
    `autoconv.backends`, and only late: the IR, tracing and passes never do."""
    importers = {
        module
        for module, targets in _imports(late=True).items()
        if module.startswith("autoconv.graph")
        and any(t.startswith("autoconv.backends") for t in targets)
    }
    assert importers == API_LAYER


def test_importing_the_ir_loads_no_backend():
    code = (
        "import sys, autoconv.graph.graph, autoconv.graph.tensor\n"
        "print(sorted(m for m in sys.modules if m.startswith('autoconv.backends')))"
    )
    env_path = str(SRC)
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": env_path, "PATH": ""},
    )
    assert result.stdout.strip() == "[]"


def test_backends_import_the_ir():
    """The NumPy executor lives in backends/numpy and builds on the IR (not the other way)."""
    edges = _imports(late=False)
    assert "autoconv.graph.graph" in edges["autoconv.backends.numpy.executor"]
    assert "autoconv.graph.executor" not in MODULES


def test_no_import_circle_at_module_level():
    edges = _imports(late=False)
    assert _circles(edges, "autoconv.graph") == []
    assert _circles(edges, "autoconv.backends") == []


def test_late_imports_that_close_a_circle_are_the_known_ones():
    late = _imports(late=True)
    eager = _imports(late=False)
    assert _circles(late, "autoconv.backends") == []
    group = {m: i for i, ms in enumerate(_circles(late, "autoconv.graph")) for m in ms}
    closing = {
        (module, target)
        for module in group
        for target in late[module] - eager[module]
        if group.get(target) == group[module]
    }
    assert sorted(closing - LATE_CIRCLES) == [], "a new import circle inside graph/"
    assert sorted(LATE_CIRCLES - closing) == [], "a circle was broken: remove it from the list"
