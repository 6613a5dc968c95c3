"""Renders the pictures of docs/graph-mode.md with Graphviz's `dot`: `to_dot()` of three
reference functions (a staged `if`, a `while` loop with `break`, a `for` loop over a Tensor) and
of three seed examples (tests/graph/test_seed_examples.py: `square_if_small`, `simple_relu`, the
linear-regression `train_step` with Variables).

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


# The seed examples, as tests/graph/test_seed_examples.py writes them.
@autoconv.function
def square_if_small(x):
    if np.sum(x) <= 1:
        return x * x
    else:
        return x - 1


@autoconv.function
def simple_relu(x):
    if np.greater(x, 0):
        return x
    else:
        return np.zeros_like(x)


w = autoconv.Variable(np.float32(0.0), name="w")
b = autoconv.Variable(np.float32(0.0), name="b")


@autoconv.function
def train_step(x, y, lr):
    pred = w * x + b
    err = pred - y
    w.assign_sub(lr * np.mean(2 * err * x))
    b.assign_sub(lr * np.mean(2 * err))
    return np.mean(err * err)


CASES = {
    "graph-staged-if": (staged_if, (np.ones(3),)),
    "graph-while-break": (while_break, (np.ones(3), np.int64(5))),
    "graph-for-tensor": (for_tensor, (np.ones((4, 3)),)),
    "seed-square-if-small": (square_if_small, (np.array([0.2, 0.3]),)),
    "seed-simple-relu": (simple_relu, (np.float32(1.0),)),
    "seed-train-step": (
        train_step,
        (np.ones(100, np.float32), np.ones(100, np.float32), np.float32(0.1)),
    ),
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
