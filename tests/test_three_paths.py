"""Staged state on three paths: small programs of the kind users write, each run eagerly and as
graph mode with the NumPy backend, graph mode with the JAX backend and `jax.jit(autoconv.convert)`.

The programs keep state across staged loops and branches: accumulators that start as Python
numbers, `None` sentinels, names first bound inside a loop, dict and list items and object
attributes changed in a loop, lists appended then stacked, early exits, nested and `while`
loops, `max`/`min` of values, conditional expressions mixing Python numbers and arrays.

Each call must do what eager NumPy does (the graph corpus harness, tests/graph_corpus/harness.py,
compares Python types, dtypes, shapes, values, printed text and arguments after the call; the
jit harness, tests/jax/corpus.py, structure, dtypes, shapes and values) or raise an
`AutoconvError` naming this file and line (under `jax.jit` also JAX's own error for what it
does not do by design, `tests.jax.corpus.DESIGN`). A case that does neither is marked
`xfail(strict=True)` in `KNOWN` below with what goes wrong, so that it stays visible.

`python tools/three_paths.py --fresh` counts the outcomes of these programs per path.
"""

import contextlib
import functools
import warnings

import numpy as np
import pytest

from tests.graph_corpus import Program, harness

PROGRAMS: list = []


def case(*inputs):
    """Registers a program with its inputs (tuples of positional arguments), called in order."""

    def register(func):
        # "error": a clear AutoconvError naming this file and line is a correct answer too.
        PROGRAMS.append(Program(func, inputs, (), "three_paths", func.__qualname__, "error"))
        return func

    return register


I32 = np.array([3, 1, 4, 1, 5], dtype=np.int32)
I64 = np.array([2, 7, 1, 8], dtype=np.int64)
F32 = np.array([0.5, -1.5, 2.25, 4.0], dtype=np.float32)
F64 = np.array([1.5, -2.0, 3.25, -0.5, 2.0])
NEG = np.array([-1.0, -4.0, -2.5])
E_F64 = np.zeros(0)
E_I64 = np.zeros(0, dtype=np.int64)
M = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0]])
M32 = np.array([[1, 2], [3, -4], [5, 6]], dtype=np.int32)
E_M = np.zeros((0, 3))


# --- accumulators that start as Python numbers ---


@case((np.array([1, 2, 3], dtype=np.int32),), (I64,), (E_I64,))
def digits_to_number(digits):
    s = 0
    for d in digits:
        s = s * 10 + d
    return s


@case((F32,), (F64,), (E_F64,))
def sum_of_squares(x):
    total = 0.0
    for v in x:
        total += v * v
    return total


@case((I32,), (F64,), (E_F64,))
def mean_by_count(x):
    total = 0
    n = 0
    for v in x:
        total += v
        n += 1
    return total / n if n else 0.0


@case((np.array([1, 2, 3, 4], dtype=np.int64),), (F32,), (E_I64,))
def product(x):
    p = 1
    for v in x:
        p *= v
    return p


@case((F64, np.float64(0.5)), (F32, np.float32(2.0)), (E_F64, np.float64(3.0)))
def horner(coeffs, x):
    acc = 0
    for c in coeffs:
        acc = acc * x + c
    return acc


@case((F32,), (I32,), (E_F64,))
def running_max_from_inf(x):
    m = -np.inf
    for v in x:
        m = max(m, v)
    return m


@case((F32,), (I64,), (E_I64,))
def weighted_by_position(x):
    s = 0
    for i, v in enumerate(x):
        s += i * v
    return s


@case((F64,), (NEG,), (E_F64,))
def count_and_sum_positives(x):
    count, total = 0, 0.0
    for v in x:
        if v > 0:
            count += 1
            total += v
    return count, total


# --- None sentinels ---


@case((F64,), (I32,), (E_F64,))
def manual_argmax(x):
    best = None
    best_i = -1
    for i, v in enumerate(x):
        if best is None or v > best:
            best = v
            best_i = i
    return best_i, best


@case((F64,), (np.array([1.0, 2.0]),), (E_F64,))
def first_negative(x):
    for v in x:
        if v < 0:
            return v
    return None


@case((F64, np.float64(1.0)), (I64, np.int64(5)), (E_F64, np.float64(0.0)))
def closest_to(x, target):
    best = None
    best_d = None
    for v in x:
        d = abs(v - target)
        if best_d is None or d < best_d:
            best, best_d = v, d
    return best


@case((F64,), (NEG,))
def previous_value_deltas(x):
    prev = None
    total = 0.0
    for v in x:
        if prev is not None:
            total += abs(v - prev)
        prev = v
    return total, prev


@case((F64,), (NEG,), (E_F64,))
def last_positive_pair(x):
    pair = (None, 0.0)
    for v in x:
        if v > 0:
            pair = (v, v * 2.0)
    return pair[1]


@case((F64,), (E_F64,))
def lowest_in_a_dict(x):
    stats = {"low": None, "n": 0}
    for v in x:
        if stats["low"] is None or v < stats["low"]:
            stats["low"] = v
        stats["n"] += 1
    return stats["n"], stats["low"] if stats["low"] is not None else -1.0


@case((F64,), (NEG,))
def first_and_best(x):
    first = None
    best = None
    for v in x:
        if first is None:
            first = v
        if best is None or abs(v) > abs(best):
            best = v
    return first - best


# --- names first bound inside a loop, used after it ---


@case((F64,), (NEG,))
def last_positive(x):
    for v in x:
        if v > 0:
            last = v
    return last


@case((F32,), (I64,), (E_F64,))
def index_after_loop(x):
    for i, v in enumerate(x):  # noqa: B007 - `i` is used after the loop
        doubled = v * 2
    return i, doubled


@case((M,), (M32,))
def last_row_total(m):
    for row in m:
        t = row.sum()
    return t * 2


# --- dict and list items changed in staged loops and branches ---


@case((F64,), (I32,), (E_F64,))
def sign_counts(x):
    d = {"pos": 0, "neg": 0}
    for v in x:
        if v > 0:
            d["pos"] += 1
        else:
            d["neg"] += 1
    return d


@case((F64,), (F32,), (E_F64,))
def stats_dict(x):
    d = {"sum": 0.0, "max": -np.inf}
    for v in x:
        d["sum"] += v
        d["max"] = max(d["max"], v)
    return d


@case((F64,), (I64,), (E_I64,))
def list_moments(x):
    acc = [0, 0]
    for v in x:
        acc[0] += v
        acc[1] += v * v
    return acc


@case((F64,), (NEG,))
def label_in_branch(x):
    info = {"n": len(x)}
    if x.sum() > 0:
        info["label"] = "up"
        info["score"] = x.max()
    else:
        info["label"] = "down"
        info["score"] = x.min()
    return info


@case((F64,), (np.array([0.5, 3.0, 2.0]),))
def bucket_counts(x):
    counts = {}
    for v in x:
        key = "big" if v > 1 else "small"
        counts[key] = counts.get(key, 0) + 1
    return counts


@case((M,), (M32,))
def per_row_records(m):
    records = [{"total": 0} for _ in range(m.shape[0])]
    for i, row in enumerate(m):
        for v in row:
            records[i]["total"] += v
    return records


# --- object attributes changed in a staged loop ---


class Meter:
    def __init__(self):
        self.total = 0
        self.count = 0

    def add(self, values):
        for v in values:
            self.total += v
            self.count += 1
        return self.total


@case((F64,), (I32,), (E_F64,))
def meter_totals(x):
    m = Meter()
    m.add(x)
    m.add(x * 2)
    return m.total, m.count


class Thresholds:
    def __init__(self, limit):
        self.limit = limit
        self.hits = 0
        self.peak = None

    def scan(self, values):
        for v in values:
            if v > self.limit:
                self.hits += 1
                if self.peak is None or v > self.peak:
                    self.peak = v


@case((F64,), (NEG,), (E_F64,))
def threshold_hits(x):
    t = Thresholds(1.0)
    t.scan(x)
    return t.hits, t.peak


# --- lists appended in staged loops, then stacked ---


@case((F64,), (I32,), (E_F64,))
def stacked_pairs(x):
    rows = []
    for v in x:
        rows.append(np.array([v, v * v]))
    return np.stack(rows)


@case((F64,), (I32,), (E_I64,))
def cumulative_list(x):
    out = []
    s = 0
    for v in x:
        s += v
        out.append(s)
    return np.array(out)


@case((F64,), (NEG,))
def positives_only(x):
    pos = []
    for v in x:
        if v > 0:
            pos.append(v)
    return np.array(pos)


@case((M,), (M32,), (E_M,))
def normalized_rows(m):
    out = []
    for row in m:
        out.append(row / np.abs(row).sum())
    return np.stack(out) if out else m


# --- early return and break ---


@case((F64, np.float64(2.0)), (I64, np.int64(100)), (E_F64, np.float64(0.0)))
def first_index_above(x, t):
    for i, v in enumerate(x):
        if v > t:
            return i
    return -1


@case((F64,), (np.array([1, 2, 3], dtype=np.int32),), (E_F64,))
def sum_until_negative(x):
    total = 0
    for v in x:
        if v < 0:
            break
        total += v
    return total


@case((np.array([1.0, 0.0, 2.0]),), (F64,), (E_F64,))
def has_zero_for_else(x):
    for v in x:
        if v == 0:
            found = True
            break
    else:
        found = False
    return found


# --- nested loops ---


@case((F64, np.array([0.0, 2.0])), (I32, E_I64))
def pairs_below(x, y):
    count = 0
    for a in x:
        for b in y:
            if a < b:
                count += 1
    return count


@case((M,), (M32,), (E_M,))
def manual_row_sums(m):
    sums = []
    for row in m:
        s = 0.0
        for v in row:
            s += v
        sums.append(s)
    return np.array(sums)


@case((M,), (M32,))
def max_of_row_minima(m):
    best = None
    for row in m:
        lo = row[0]
        for v in row:
            lo = min(lo, v)
        best = lo if best is None else max(best, lo)
    return best


# --- while loops with data-dependent tests ---


@case((np.float64(100.0),), (np.float32(0.5),))
def halvings(x):
    steps = 0
    while x > 1:
        x = x / 2
        steps += 1
    return steps, x


@case((np.int64(6),), (np.int64(1),), (np.int32(7),))
def collatz_steps(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


@case((F64,), (np.array([1.0, 2.0]),), (E_F64,))
def leading_positive_run(x):
    i = 0
    while i < len(x) and x[i] > 0:
        i += 1
    return i


@case((np.float64(2.0),), (np.float32(9.0),))
def newton_sqrt(a):
    g = a
    while abs(g * g - a) > 1e-6:
        g = (g + a / g) / 2
    return g


# --- max / min of values, conditional expressions mixing numbers and arrays ---


@case((F64,), (NEG,), (E_F64,))
def clipped_total(x):
    return max(x.sum(), 0)


@case((np.float64(2.5),), (np.float64(-3.0),), (np.float32(0.25),))
def clamp(v):
    return min(max(v, 0.0), 1)


@case((F64, NEG), (I32, I64))
def larger_peak(a, b):
    return max(np.max(a), np.max(b))


@case((F64,), (NEG,))
def positive_part_or_zero(x):
    y = x if x.sum() > 0 else 0
    return y


@case((F64,), (I32,), (-I32,))
def signed_scale(x):
    scale = 1.0 if x.mean() > 0 else -1
    return x * scale


@case((F64,), (I64,), (E_F64,))
def safe_mean(x):
    n = len(x)
    r = 0 if n == 0 else x.sum() / n
    return r


# --- more of the same themes: types that depend on the path, small integer types ---


@case((M,), (np.array([[1.0, 2.0], [3.0, 4.0]]),), (E_M,))
def first_negative_in_matrix(m):
    for row in m:
        for v in row:
            if v < 0:
                return v
    return 0.0


@case((np.array([1, 0, 1, 2], dtype=np.int64),), (F32,), (E_F64,))
def count_positive_bools(x):
    n = 0
    for v in x:
        n += v > 0
    return n


@case((np.array([200, 50, 10], dtype=np.uint8),), (np.array([1, 2], dtype=np.int8),))
def small_int_total(x):
    total = 0
    for v in x:
        total += v
    return total


@case((np.float32(1.5),), (np.float32(200.0),))
def tripled_until_large(x):
    while x < 100:
        x = x * 3
    return x


@case((F64,), (E_F64,))
def dict_of_lists(x):
    d = {"twice": [], "half": []}
    for v in x:
        d["twice"].append(v * 2)
        d["half"].append(v / 2)
    return np.stack(d["twice"] + d["half"])


class History:
    def __init__(self):
        self.values = []
        self.last = 0.0

    def record(self, xs):
        for v in xs:
            self.values.append(v * 10)
            self.last = v
        return len(self.values)


@case((F64,), (F32,), (E_F64,))
def history_lengths(x):
    h = History()
    n = h.record(x)
    return n, h.last, np.array(h.values)


@case((F64,), (I32,), (E_I64,))
def lowest_or_zero(x):
    lo = 0
    for v in x:
        lo = min(lo, v)
    return lo


@case((F64,), (NEG,), (E_F64,))
def best_or_default(x):
    best = None
    for v in x:
        if v > 0 and (best is None or v > best):
            best = v
    return best if best is not None else -1


# --- reproductions, written after the runs above: the smallest forms of `history_lengths` ---


class Bag:
    def __init__(self):
        self.items = []


@case((F64,), (E_F64,))
def attribute_list_length(x):
    b = Bag()
    for v in x:
        b.items.append(v * 2)
    return len(b.items)


@case((F64,), (E_F64,))
def dict_list_length(x):
    d = {"a": []}
    for v in x:
        d["a"].append(v * 2)
    return len(d["a"])


# --- the three paths ---

PATHS = ("numpy", "jax-backend", "jit")
BY_NAME = {p.name: p for p in PROGRAMS}

# (program, input index, path) -> what goes wrong: strict xfails, so a fix shows up.
_JNP_DIVIDE = (
    "jnp divides int32 by a Python int in float32 (plain jax.numpy does too): float32[], eager "
    "float64[]; not listed in tests.jax.corpus.DESIGN"
)
KNOWN: dict = {
    ("mean_by_count", 0, "jit"): _JNP_DIVIDE,
}


def _params():
    out = []
    for p in PROGRAMS:
        for i in range(len(p.inputs)):
            for path in PATHS:
                why = KNOWN.get((p.name, i, path))
                marks = () if why is None else pytest.mark.xfail(strict=True, reason=why)
                out.append(pytest.param(p.name, i, path, id=f"{p.name}-{i}-{path}", marks=marks))
    return out


@functools.cache
def graph_results(name: str, backend: str) -> dict:
    """`{input index: CallResult}` of one `autoconv.function` of the program called on each of
    its inputs in order (the graph corpus harness)."""
    return {r.index: r for r in harness.run_program(BY_NAME[name], backend=backend)}


@contextlib.contextmanager
def _x64():
    import jax

    old = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    try:
        yield
    finally:
        jax.config.update("jax_enable_x64", old)


def jit_result(name: str, index: int) -> tuple:
    """`(outcome, detail)` of `jax.jit(autoconv.convert(f))` on one input (tests/jax/corpus.py),
    with 64-bit types as NumPy has them."""
    from tests.jax import corpus

    program = BY_NAME[name]
    with _x64(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy's RuntimeWarnings in the eager call
        return corpus.outcome(program.func, program.inputs[index], program.path)


def outcome(name: str, index: int, path: str) -> tuple:
    """`(outcome, detail, correct)` of one call on one path."""
    if path == "jit":
        from tests.jax import corpus

        found, detail = jit_result(name, index)
        return found, detail, found in corpus.CORRECT
    backend = "jax" if path == "jax-backend" else "numpy"
    result = graph_results(name, backend).get(index)
    if result is None:
        return "not run", "an earlier call hung or could not trace", False
    return result.outcome, result.detail, result.outcome in harness.CORRECT


@pytest.mark.parametrize("name, index, path", _params())
def test_staged_state_agrees_or_fails_clearly(name, index, path):
    if path != "numpy":
        pytest.importorskip("jax")
    found, detail, correct = outcome(name, index, path)
    assert correct, f"{name} input {index} on {path}: {found}: {detail}"


def test_programs_cover_the_themes():
    assert len(PROGRAMS) >= 50
    assert len(set(BY_NAME)) == len(PROGRAMS)
    assert set(KNOWN) <= {(p.name, i, path) for p in PROGRAMS for i in range(9) for path in PATHS}
