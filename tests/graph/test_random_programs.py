"""Random programs that draw random numbers, eagerly and as graphs, under every pass setting.

Hypothesis writes functions of an array `x`, an int64 `n` and a Generator `rng` out of draws
(NumPy's global generator, the Generator argument, one made inside with a seed, Python's
`random`) accumulated into `acc`, inside staged `if`s (on arrays and on draws), staged loops
over `range(n)`, `while` loops counted by `n`, Python loops and reseeding. After the same seeds
the graph must give exactly the eager numbers, on every run: a draw that ran too often, too
rarely, out of order or at trace time changes every number after it.
"""

import importlib.util
import itertools
import random
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import autoconv
from tests.graph.test_random import assert_same

pytestmark = pytest.mark.usefixtures("pass_settings")

DRAWS = (
    "np.random.rand(2)",
    "np.random.rand()",
    "np.random.normal(size=2)",
    "np.random.randint(0, 5, size=2)",
    "np.random.uniform(x, x + 1)",
    "np.random.choice(x)",
    "rng.random(2)",
    "rng.normal(x)",
    "rng.integers(0, 3, size=2)",
    "rng.integers(0, n + 1)",
    "inner.standard_normal(2)",
    "random.random()",
    "random.randint(0, 3)",
)
CONDS = (
    "np.sum(acc) > 1.0",
    "np.sum(x) > 0",
    "np.random.rand() < 0.5",
    "rng.random() < 0.3",
    "n > 2",
)


@st.composite
def programs(draw):
    lines = []
    budget = [draw(st.integers(2, 10))]
    counters = itertools.count()

    def emit(indent, text):
        lines.append("    " * indent + text)

    def block(indent, depth):
        for k in range(draw(st.integers(1, 3))):
            if budget[0] <= 0:
                if k == 0:  # a block needs a statement
                    emit(indent, f"acc = acc + {draw(st.sampled_from(DRAWS))}")
                break
            budget[0] -= 1
            statement(indent, depth)

    def statement(indent, depth):
        kind = draw(st.integers(0, 7 if depth < 2 else 1))
        if kind <= 1:
            emit(indent, f"acc = acc + {draw(st.sampled_from(DRAWS))}")
        elif kind == 2:
            emit(indent, f"if {draw(st.sampled_from(CONDS))}:")
            block(indent + 1, depth + 1)
            if draw(st.booleans()):
                emit(indent, "else:")
                block(indent + 1, depth + 1)
        elif kind == 3:
            emit(indent, f"for i{next(counters)} in range(n):")
            block(indent + 1, depth + 1)
        elif kind == 4:
            k = f"k{next(counters)}"
            emit(indent, f"{k} = 0")
            emit(indent, f"while {k} < n:")
            emit(indent + 1, f"{k} = {k} + 1")
            block(indent + 1, depth + 1)
        elif kind == 5:
            emit(indent, "for _ in range(2):")
            block(indent + 1, depth + 1)
        elif kind == 6:
            emit(indent, f"np.random.seed({draw(st.integers(0, 3))})")
        else:
            emit(indent, f"acc = acc * {draw(st.sampled_from(DRAWS))}")

    emit(1, "acc = np.zeros(2)")
    emit(1, "inner = np.random.default_rng(7)")
    block(1, 0)
    emit(1, f"return acc, {draw(st.sampled_from(DRAWS))}")
    header = "import random\n\nimport numpy as np\n\n\ndef generated(x, n, rng):\n"
    return header + "\n".join(lines) + "\n"


_modules = itertools.count()


@pytest.fixture(scope="module")
def program_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("random_programs")


def _load(folder, source):
    name = f"random_program_{next(_modules)}"
    path = folder / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module.generated


@settings(
    max_examples=10,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(source=programs(), n=st.integers(0, 4))
def test_random_program_draws_as_eagerly(program_dir, source, n):
    f = _load(program_dir, source)
    x = np.array([0.5, -0.25])
    n = np.int64(n)
    g = autoconv.function(f)
    for seed in (0, 1):
        np.random.seed(seed)
        random.seed(seed)
        eager_rng = np.random.default_rng(seed)
        expected = [f(x, n, eager_rng) for _ in range(2)]
        np.random.seed(seed)
        random.seed(seed)
        graph_rng = np.random.default_rng(seed)
        actual = [g(x, n, graph_rng) for _ in range(2)]
        assert_same(expected, actual, f"seed {seed}\n{source}")
