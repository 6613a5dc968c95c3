"""Generated programs with staged control flow (seeded, so reproducible) under every pass
setting: nested staged `if`/`else`, `for` over a Tensor with `break`/`continue`, `while` loops
with Tensor counters (some with tests that print or update a Variable), Python loops that
unroll, `autoconv.print`, Variable reads and updates, Python ints that become loop variables,
dict and tuple state, conditional expressions and `and`/`or`, `range` of a Tensor, values
shared between names and Variables, a Variable created in the function. Each must match eager
NumPy exactly: results (type, dtype, bits), printed output and the Variables afterwards."""

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
    "a = a + (1.0 if np.sum(b) > 0 else -1.0)",
    "a = np.where(a > 0, a, -a) if c > 1 else a * 0.5",
    "d = {'k': d['k'] + a}",
    "n = n + (b > 0)",
    "t = (t[1], t[0] + a)",
    "autoconv.print('q', a > 0 and c < 3, t[0])",
    "a = a + np.sum(n) * 0.5",
    "e = b",
    "W.assign(b)",
    "b = b + 1.0",
    "b = -b",
    "e = W + 0.0",
    "U.assign_add(b)",
    "b = U * 1.0",
]
CONDITIONS = [
    "np.sum(b) > a",
    "a > 0.5",
    "V > 1.0",
    "c > 2",
    "np.any(b < 0)",
    "a > 0 and np.sum(n) > 2",
    "not (a < 0 or c == 1)",
    "d['k'] > 1.5",
]
X = np.array([0.5, -1.0, 2.0, 0.25])
SEEDS = range(60)


def _block(rng, depth, indent, in_loop=False):
    lines = []
    pad = "    " * indent
    for _ in range(rng.randint(1, 3)):
        r = rng.random()
        if depth > 0 and r < 0.2:
            lines.append(f"{pad}if {rng.choice(CONDITIONS)}:")
            lines += _block(rng, depth - 1, indent + 1, in_loop)
            if rng.random() < 0.6:
                lines.append(f"{pad}else:")
                lines += _block(rng, depth - 1, indent + 1, in_loop)
        elif depth > 0 and r < 0.3:
            lines.append(f"{pad}for v in x:")
            if rng.random() < 0.4:
                lines.append(f"{pad}    if v > a:")
                lines.append(f"{pad}        {rng.choice(['break', 'continue'])}")
            lines.append(f"{pad}    a = a + v * 0.25")
            lines += _block(rng, depth - 1, indent + 1, True)
        elif depth > 0 and r < 0.4:
            j = f"j{depth}{indent}"
            lines.append(f"{pad}{j} = np.argmax(x) * 0")
            test = f"{j} < 3"
            if rng.random() < 0.3:  # a test with effects: they run as often as in Python
                test = f"(autoconv.print('w', {j}, a) is None) and {test}"
            elif rng.random() < 0.3:
                test = f"V.assign_add(0.5) is not None and {test}"
            lines.append(f"{pad}while {test}:")
            lines.append(f"{pad}    {j} = {j} + 1")
            lines += _block(rng, depth - 1, indent + 1, True)
        elif depth > 0 and r < 0.43 and not in_loop:
            lines.append(f"{pad}for k in range(np.argmax(x) + 1):")
            lines.append(f"{pad}    a = a + k")
            lines += _block(rng, depth - 1, indent + 1, True)
        elif depth > 0 and r < 0.45:
            lines.append(f"{pad}for _ in range(2):")
            lines += _block(rng, depth - 1, indent + 1, in_loop)
        else:
            lines.append(pad + rng.choice(SIMPLE))
    return lines


def program(seed) -> str:
    """The source of a module with Variables `V`, `W` and a generated function `f(x)`."""
    rng = random.Random(seed)
    body = [
        "    a = np.sum(x) * 0.0 + 1.0",
        "    b = x * 1.0",
        "    c = 0",
        "    d = {'k': a}",
        "    n = np.zeros(4, np.int64)",
        "    t = (a, a * 2)",
        "    e = x",
        "    U = autoconv.Variable(x * 2)",
    ]
    body += _block(rng, 3, 1)
    body.append(
        "    return a, b, c, V.read_value(), W.read_value(), d['k'], n, t[0], e, x, U.read_value()"
    )
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
