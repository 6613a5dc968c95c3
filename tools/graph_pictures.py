"""Renders the pictures of docs/graph-mode.md: `to_dot()` of three reference functions (a staged
`if`, a `while` loop with `break`, a `for` loop over a Tensor), with Graphviz's `dot`.

    python tools/graph_pictures.py [OUTDIR]     (default: docs/images)
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys

import numpy as np

import autoconv


@autoconv.function
def staged_if(x):
    if np.sum(x) > 0:
        y = x * 2.0
    else:
        y = -x
    return y + 1.0


@autoconv.function
def while_break(x, n):
    i = 0
    total = np.zeros_like(x)
    while i < n:
        total = total + x * i
        if np.max(total) > 100.0:
            break
        i += 1
    return total, i


@autoconv.function
def for_tensor(xs):
    s = np.float64(0.0)
    for row in xs:
        s = s + np.sum(row * row)
    return s


CASES = {
    "graph-staged-if": (staged_if, (np.ones(3),)),
    "graph-while-break": (while_break, (np.ones(3), np.int64(5))),
    "graph-for-tensor": (for_tensor, (np.ones((4, 3)),)),
}


def main(argv: list[str]) -> int:
    out = pathlib.Path(argv[0] if argv else "docs/images")
    if shutil.which("dot") is None:
        print("Graphviz's `dot` is not installed (apt-get install graphviz)", file=sys.stderr)
        return 1
    out.mkdir(parents=True, exist_ok=True)
    for name, (func, args) in CASES.items():
        dot = func.get_concrete_function(*args).to_dot()
        target = out / f"{name}.png"
        subprocess.run(
            ["dot", "-Tpng", "-Gdpi=72", "-o", str(target)], input=dot, text=True, check=True
        )
        print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
