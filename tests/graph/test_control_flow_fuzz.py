"""Generated programs with staged control flow (seeded, so reproducible) under every pass
setting: nested staged `if`/`else`, `for` over a Tensor with `break`/`continue`, `while` loops
with Tensor counters, Python loops that unroll, `autoconv.print`, Variable reads and updates,
Python ints that become loop variables. Each must match eager NumPy exactly: results (type,
dtype, bits), printed output and the Variables afterwards."""

import contextlib
import importlib.util
import io
import random
import warnings

import numpy as np
import pytest

import autoconv

pytestmark = pytest.mark.usefixtures("pass_settings")

SIMPLE = [
    "a = a * 0.5 + np.sum(b) * 0.125",
    "b = np.where(b > a, b - 1.0, b * 0.5)",
    "c = c + 1",
    "a = a - c",
    "autoconv.print('p', a, c)",
    "V.assign_add(a)",
    "W.assign(W * 0.5 + b)",
    "b = b + V",
    "a = np.max(W) + a",
]
CONDITIONS = ["np.sum(b) > a", "a > 0.5", "V > 1.0", "c > 2", "np.any(b < 0)"]
X = np.array([0.5, -1.0, 2.0, 0.25])
SEEDS = range(40)


def _block(rng, depth, indent):
    lines = []
    pad = "    " * indent
    for _ in range(rng.randint(1, 3)):
        r = rng.random()
        if depth > 0 and r < 0.2:
            lines.append(f"{pad}if {rng.choice(CONDITIONS)}:")
            lines += _block(rng, depth - 1, indent + 1)
            if rng.random() < 0.6:
                lines.append(f"{pad}else:")
                lines += _block(rng, depth - 1, indent + 1)
        elif depth > 0 and r < 0.3:
            lines.append(f"{pad}for v in x:")
            if rng.random() < 0.4:
                lines.append(f"{pad}    if v > a:")
                lines.append(f"{pad}        {rng.choice(['break', 'continue'])}")
            lines.append(f"{pad}    a = a + v * 0.25")
            lines += _block(rng, depth - 1, indent + 1)
        elif depth > 0 and r < 0.4:
            j = f"j{depth}{indent}"
            lines.append(f"{pad}{j} = np.argmax(x) * 0")
            lines.append(f"{pad}while {j} < 3:")
            lines.append(f"{pad}    {j} = {j} + 1")
            lines += _block(rng, depth - 1, indent + 1)
        elif depth > 0 and r < 0.45:
            lines.append(f"{pad}for _ in range(2):")
            lines += _block(rng, depth - 1, indent + 1)
        else:
            lines.append(pad + rng.choice(SIMPLE))
    return lines


def program(seed) -> str:
    """The source of a module with Variables `V`, `W` and a generated function `f(x)`."""
    rng = random.Random(seed)
    body = ["    a = np.sum(x) * 0.0 + 1.0", "    b = x * 1.0", "    c = 0"]
    body += _block(rng, 3, 1)
    body.append("    return a, b, c, V.read_value(), W.read_value()")
    return (
        "import numpy as np\nimport autoconv\n\nV = autoconv.Variable(0.0)\n"
        "W = autoconv.Variable(np.zeros(4))\n\n\ndef f(x):\n" + "\n".join(body) + "\n"
    )


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    folder = tmp_path_factory.mktemp("control_flow_programs")
    loaded = {}

    def load(seed):
        if seed not in loaded:
            path = folder / f"program_{seed}.py"
            path.write_text(program(seed))
            spec = importlib.util.spec_from_file_location(f"program_{seed}", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            loaded[seed] = module
        return loaded[seed]

    return load


def _observe(module, fn):
    module.V.assign(0.0)
    module.W.assign(np.zeros(4))
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = fn(X)
    leaves = [(type(v), np.asarray(v).dtype, np.asarray(v).tobytes()) for v in result]
    return leaves, out.getvalue(), module.V.numpy().tobytes(), module.W.numpy().tobytes()


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_control_flow_matches_eager(seed, modules):
    module = modules(seed)
    eager = _observe(module, module.f)
    graph = _observe(module, autoconv.function(module.f))
    assert graph == eager, program(seed)
