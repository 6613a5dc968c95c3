"""Optimizing passes over traced graphs, one module each, run in order by `pipeline`.

| pass | module | what it does |
| --- | --- | --- |
| `roll` | `roll.py` | a Python loop's uniform unrolled steps become one staged loop |
| `fold` | `fold.py` | constant subgraphs are computed once, while tracing |
| `simplify` | `simplify.py` | `x * 1`, `x - 0`, double transposes, no-op reshapes and casts |
| `cse` | `cse.py` | repeated operations reuse the first result |
| `lower` | `lower.py` | reductions call `ufunc.reduce` directly; `mean` divides by the known size |
| `dce` | `dce.py` | only what outputs, prints and Variable updates need runs (non-strict) |
| `inplace` | `inplace.py` | elementwise operations write into dead operands' buffers |

Switch passes per function with `autoconv.function(f, optimize={"cse": False})` (or
`optimize=False` for none), for everything traced from now on with `configure(cse=False)`,
or for a block of code with `with options(cse=False): ...`.
"""

from autoconv.graph.passes.pipeline import (
    PASSES,
    PassRecord,
    Settings,
    configure,
    current,
    optimize,
    options,
    resolve,
)

__all__ = [
    "PASSES",
    "PassRecord",
    "Settings",
    "configure",
    "current",
    "optimize",
    "options",
    "resolve",
]
