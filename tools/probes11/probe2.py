import functools
import itertools
import math
from collections import Counter, OrderedDict
from dataclasses import dataclass

import numpy as np

from tools.probes11.harness import main


@dataclass
class Stats:
    n: int = 0
    total: float = 0.0
    peak: float = -math.inf

    def add(self, v):
        self.n += 1
        self.total += v
        if v > self.peak:
            self.peak = v

    @property
    def mean(self):
        return self.total / self.n if self.n else 0.0


def p_dataclass_stats(x):
    s = Stats()
    for v in x:
        if not np.isnan(v):
            s.add(float(v))
    return s.n, s.mean, s.peak


def p_try_parse(x):
    out = []
    for v in x:
        try:
            if v < 0:
                raise ValueError("neg")
            out.append(math.sqrt(v))
        except ValueError:
            out.append(-1.0)
    return out


def gen_pos(x):
    for v in x:
        if v > 0:
            yield float(v)


def p_generator_sum(x):
    return sum(gen_pos(x)), list(gen_pos(x))


def p_pairwise_diffs(x):
    return [b - a for a, b in itertools.pairwise(x)] if hasattr(itertools, "pairwise") else []


def p_reduce_max(x):
    if len(x) == 0:
        return None
    return functools.reduce(lambda a, b: a if a > b else b, [float(v) for v in x])


def p_while_two_conds(x):
    i, total = 0, 0.0
    while i < len(x) and total < 4.0:
        total += float(x[i])
        i += 1
    return i, total


def p_string_build(x):
    s = ""
    for v in x:
        s += "+" if v > 1 else "-"
    return s, s.count("+")


def p_nested_helpers(x):
    def norm(a):
        m = np.max(np.abs(a)) if a.size else 0.0
        return a / m if m > 0 else a

    def score(a):
        a = norm(a)
        return float(np.sum(a * a))

    return round(score(x), 6)


def p_ordered_first(x):
    seen = OrderedDict()
    for v in x:
        k = int(v) % 3
        if k not in seen:
            seen[k] = float(v)
    return list(seen.items())


def p_enumerate_start(x):
    res = []
    for i, v in enumerate(x, start=1):
        if i % 2 == 0:
            res.append(i * float(v))
    return res


def p_zip_longest(x):
    y = [1.0, 2.0]
    return [a + b for a, b in itertools.zip_longest([float(v) for v in x], y, fillvalue=0.0)]


def p_any_all(x):
    return any(v > 3 for v in x), all(v >= 0 for v in x), sum(1 for v in x if v > 1)


def p_dict_comprehension(x):
    d = {i: float(v) for i, v in enumerate(x) if v > 0}
    return d, max(d.values()) if d else None


def p_matrix_loop(x):
    n = len(x)
    m = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            m[i, j] = x[i] * x[j] if i != j else 0.0
    return m.sum(), m.shape


def p_cumulative_flags(x):
    flags = np.zeros(len(x), dtype=bool)
    run = 0
    for i, v in enumerate(x):
        run = run + 1 if v > 1 else 0
        flags[i] = run >= 2
    return flags.tolist()


def p_early_exit_class(x):
    class Finder:
        def __init__(self, t):
            self.t = t
            self.steps = 0

        def find(self, a):
            for i, v in enumerate(a):
                self.steps += 1
                if v > self.t:
                    return i
            return -1

    f = Finder(2.0)
    return f.find(x), f.steps


def p_counter_most(x):
    c = Counter(int(v) for v in x if not np.isnan(v))
    if not c:
        return None
    ((val, cnt),) = c.most_common(1)
    return val, cnt


def p_format_table(x):
    rows = [f"{i:>2}|{v:6.2f}|{'*' * int(max(v, 0))}" for i, v in enumerate(x) if not np.isnan(v)]
    return "\n".join(rows)


def p_min_max_tuple(x):
    lo, hi = math.inf, -math.inf
    for v in x:
        if np.isnan(v):
            continue
        lo, hi = min(lo, v), max(hi, v)
    return (lo, hi) if lo <= hi else None


if __name__ == "__main__":
    main(globals())
