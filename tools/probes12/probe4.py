"""Probes of round 12: scientific helpers and everyday Python idioms (issue 24)."""

# ruff: noqa: E741
import bisect
import itertools
import math
import statistics
from collections import Counter, namedtuple

import numpy as np

from tools.probes11.harness import main

Row = namedtuple("Row", "i v flag")


def p_namedtuple_rows(x):
    rows = []
    for i, v in enumerate(x):
        rows.append(Row(i, float(v), v > 1))
    big = [r for r in rows if r.flag]
    return len(big), big[0].v if big else None


def p_statistics(x):
    vals = [float(v) for v in x if not np.isnan(v)]
    if len(vals) < 2:
        return None
    return round(statistics.mean(vals), 6), round(statistics.stdev(vals), 6)


def p_bisect_bins(x):
    edges = [0.5, 1.5, 3.0]
    return [bisect.bisect_left(edges, float(v)) for v in x if not np.isnan(v)]


def p_pairwise_diffs(x):
    return [b - a for a, b in itertools.pairwise(x.tolist())]


def p_accumulate(x):
    return list(itertools.accumulate(x.tolist()))


def p_counter_top(x):
    c = Counter(int(v) for v in x if not np.isnan(v))
    return c.most_common(2)


def p_walrus(x):
    out = []
    for v in x:
        if (d := v * 2) > 3:
            out.append(d)
    return out


def p_match_stmt(x):
    res = []
    for v in x:
        k = int(v) if not np.isnan(v) else -1
        match k:
            case 0:
                res.append("zero")
            case 1 | 2:
                res.append("small")
            case _:
                res.append("other")
    return res


def p_nested_function_default(x, scale=2.0):
    def f(v, s=scale):
        return v * s if v > 1 else v

    return [f(v) for v in x]


def p_recursive_sum(x):
    def rsum(i):
        if i >= len(x):
            return 0.0
        return x[i] + rsum(i + 1)

    return rsum(0)


def p_trapezoid(x):
    if len(x) < 2:
        return 0.0
    total = 0.0
    for i in range(len(x) - 1):
        total += (x[i] + x[i + 1]) / 2
    return total


def p_newton_sqrt(x):
    out = []
    for v in x:
        if v <= 0 or np.isnan(v):
            out.append(0.0)
            continue
        g = v
        for _ in range(50):
            ng = 0.5 * (g + v / g)
            if abs(ng - g) < 1e-12:
                break
            g = ng
        out.append(g)
    return out


def p_bisection(x):
    a = float(np.nanmin(x)) if len(x) and not np.all(np.isnan(x)) else 0.0
    lo, hi = a - 10, a + 10
    it = 0
    while hi - lo > 1e-6 and it < 100:
        mid = (lo + hi) / 2
        if mid * mid * mid - a > 0:
            hi = mid
        else:
            lo = mid
        it += 1
    return round(lo, 4), it


def p_histogram_dict(x):
    h = {}
    for v in x:
        if np.isnan(v):
            continue
        b = int(v // 1)
        h[b] = h.get(b, 0) + 1
    return dict(sorted(h.items()))


def p_zip_strict(x):
    w = np.linspace(0, 1, len(x))
    return sum(a * b for a, b in zip(x, w))


def p_sorted_with_key(x):
    pairs = [(i, float(v)) for i, v in enumerate(x)]
    pairs.sort(key=lambda p: -p[1] if p[1] == p[1] else 0)
    return [i for i, _ in pairs]


def p_dict_comp_filter(x):
    d = {i: float(v) for i, v in enumerate(x) if v > 1}
    return d, max(d, key=d.get) if d else None


def p_set_ops(x):
    a = {int(v) for v in x if not np.isnan(v)}
    b = {1, 2, 3}
    return sorted(a & b), sorted(a | b), len(a - b)


def p_enumerate_reversed(x):
    for i in reversed(range(len(x))):
        if x[i] > 1:
            return i
    return -1


def p_math_funcs(x):
    out = []
    for v in x:
        if v > 0:
            out.append(round(math.log(v) + math.sqrt(v) + math.hypot(v, 1.0), 6))
    return out


def p_global_table(x):
    return [TABLE[int(v) % 3] for v in x if not np.isnan(v)]


TABLE = ["a", "b", "c"]


def p_any_all_gen(x):
    return any(v > 3 for v in x), all(v >= 0 for v in x)


def p_string_methods(x):
    words = [("hi" if v > 1 else "lo") for v in x]
    s = " ".join(words)
    return s.upper(), s.count("hi"), s.split()


def p_format_table(x):
    lines = ["{:>4} {:>8}".format("i", "value")]
    for i, v in enumerate(x):
        lines.append(f"{i:>4} {v:>8.3f}")
    return "\n".join(lines)


if __name__ == "__main__":
    main(globals())
