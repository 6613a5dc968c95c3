"""Held-out programs for issue 24's staged-state classes (see run.py); not used by tests."""
# ruff: noqa: F841 (programs as people write them: some keep unused names)

import numpy as np

A = np.array([1.0, -2.0, 3.0, 0.5])
E = np.zeros(0)
NEG = np.array([-1.0, -4.0])
P = []


def reg(*inputs, cls, bind=None):
    def d(f):
        P.append((f, inputs, cls, bind))
        return f

    return d


# ---- class 1: state a loop does not see
@reg((A,), (E,), (NEG,), cls=1)
def count_calls(x):
    calls = 0

    def f(v):
        nonlocal calls
        calls += 1
        return v * 2

    s = 0.0
    for v in x:
        s = s + f(v)
    return s, calls


@reg((A,), (E,), cls=1)
def count_positive_calls(x):
    hits = 0

    def bump():
        nonlocal hits
        hits = hits + 1

    for v in x:
        if v > 0:
            bump()
    return hits


@reg((A,), (NEG,), cls=1)
def branch_counter(x):
    n = 0

    def inc(k):
        nonlocal n
        n += k

    if np.sum(x) > 0:
        inc(2)
    else:
        inc(5)
    return n


class Counter:
    def __init__(self):
        self.evals = 0
        self.total = 0.0

    def f(self, v):
        self.evals += 1
        self.total = self.total + v
        return v * v

    def run(self, x):
        s = 0.0
        for v in x:
            s += self.f(v)
        return s, self.evals


@reg((A,), (E,), cls=1, bind=Counter)
def method_counter(self, x):
    s = 0.0
    for v in x:
        s += self.f(v)
    return s, self.evals, self.total


class Opt:
    def __init__(self):
        self.steps = 0
        self.lr = 0.1

    def step(self, w, g):
        self.steps += 1
        return w - self.lr * g


@reg((np.array([1.0, 2.0]),), (np.array([-3.0, 0.5]),), cls=1, bind=Opt)
def descent(self, w):
    i = 0
    while np.sum(w * w) > 0.1 and i < 50:
        w = self.step(w, 2 * w)
        i += 1
    return w, self.steps


@reg((A,), (E,), cls=1)
def running_max_closure(x):
    best = -np.inf

    def see(v):
        nonlocal best
        if v > best:
            best = v

    for v in x:
        see(v)
    return best


@reg((A,), (NEG,), cls=1)
def log_in_branch(x):
    log = {"n": 0}
    count = 0

    def note():
        nonlocal count
        count += 1

    for v in x:
        if v < 0:
            note()
    return count


@reg((A,), (E,), cls=1)
def two_closures(x):
    a = 0
    b = 0.0

    def fa():
        nonlocal a
        a += 1

    def fb(v):
        nonlocal b
        b += v

    for v in x:
        fa()
        fb(v)
    return a, b


# ---- class 2: lists in nested staged blocks
@reg((A,), (NEG,), (E,), cls=2)
def nested_if_append(x):
    out = []
    for v in x:
        if v > 0:
            if v > 1:
                out.append(v)
    return np.array(out)


@reg((np.array([[1.0, -1.0], [2.0, 3.0]]),), cls=2)
def loop_in_loop_append(m):
    out = []
    for row in m:
        for v in row:
            out.append(v * 2)
    return out


@reg((A,), (NEG,), cls=2)
def append_before_break(x):
    seen = []
    for v in x:
        seen.append(v)
        if v < 0:
            break
    return len(seen), seen


@reg((A,), (NEG,), cls=2)
def append_after_continue(x):
    kept = []
    for v in x:
        if v < 0:
            continue
        kept.append(v + 1)
    return kept


@reg(([1, 3, 2],), cls=2)
def repeat_counts(counts):
    out = []
    for c in counts:
        for _ in range(c):
            out.append(c)
    return out


@reg((np.array([0, 2, 1, 2]),), cls=2)
def histogram_list(x):
    counts = [0, 0, 0]
    for b in x:
        counts[b] += 1
    return counts


@reg((np.array([100.0, 50.0]),), cls=2)
def amortize(p):
    rows = []
    balance = p[0]
    for month in range(3):
        interest = balance * 0.01
        balance = balance + interest - p[1]
        rows.append((month, interest, balance))
    return rows


@reg((np.array([1.0, 0.5]),), cls=2)
def euler_history(y0):
    history = [y0]
    y = y0
    for _ in range(4):
        y = y - 0.1 * y
        history.append(y)
    return np.stack(history)


@reg((A,), (E,), cls=2)
def pairs_list(x):
    out = []
    for i in range(len(x)):
        if x[i] > 0:
            out.append((i, x[i]))
    return out


@reg((np.array([[1.0, 2.0], [3.0, -4.0]]),), cls=2)
def inner_break_append(m):
    out = []
    for row in m:
        for v in row:
            if v < 0:
                break
            out.append(v)
    return out


# ---- class 3: optionals from different sources
@reg((A,), (NEG,), (E,), cls=3)
def best_pair(x):
    best_i = None
    best_val = None
    for i in range(len(x)):
        cur_val = x[i] * 2
        if best_val is None or cur_val > best_val:
            best_val = cur_val
            best_i = i
    return best_i, best_val


@reg((A,), (NEG,), cls=3)
def first_neg_sq(x):
    found = None
    for v in x:
        if v < 0:
            sq = v * v
            found = sq
            break
    return found


@reg((A,), (NEG,), cls=3)
def choose_source(x):
    pick = None
    if np.sum(x) > 0:
        pick = np.max(x)
    else:
        pick = np.min(x) * 2
    return pick


@reg((A,), (NEG,), (E,), cls=3)
def last_two(x):
    prev = None
    cur = None
    for v in x:
        prev = cur
        cur = v + 1
    return prev, cur


@reg((A,), (NEG,), cls=3)
def max_gap(x):
    best = None
    for i in range(1, len(x)):
        gap = x[i] - x[i - 1]
        if best is None:
            best = gap
        elif gap > best:
            best = gap
    return best


@reg((A,), (NEG,), cls=3)
def sentinel_from_two(x):
    m = None
    for v in x:
        if v > 0:
            m = v
        elif v < -3:
            m = -v
    return m


# ---- class 4: try/except around a staged raise
@reg((A,), (np.array([1.0, 4.0]),), cls=4)
def safe_sqrt(x):
    try:
        if np.any(x < 0):
            raise ValueError("negative")
        r = np.sqrt(x)
    except ValueError:
        r = np.zeros_like(x)
    return r


@reg((A,), (np.array([1.0, 4.0]),), cls=4)
def safe_log_flag(x):
    ok = True
    try:
        if np.min(x) <= 0:
            raise ValueError("nonpositive")
        y = np.log(x)
    except ValueError:
        ok = False
        y = x
    return y, ok


def check(x):
    if np.any(np.isnan(x)):
        raise ArithmeticError("nan")
    return x * 2


@reg((np.array([1.0, np.nan]),), (np.array([1.0, 2.0]),), cls=4)
def helper_raises(x):
    try:
        y = check(x)
    except ArithmeticError:
        y = np.zeros_like(x)
    return y


@reg((A,), (np.array([1.0, 4.0]),), cls=4)
def try_other_type(x):
    try:
        if np.any(x < 0):
            raise ValueError("neg")
        r = x + 1
    except KeyError:
        r = x
    return r


@reg((A,), (np.array([1.0, 4.0]),), cls=4)
def try_finally_like(x):
    msg = "ok"
    try:
        if np.sum(x) < 3:
            raise RuntimeError("small")
        v = np.sum(x)
    except RuntimeError as e:
        msg = "small"
        v = 0.0
    return v, msg


@reg((A,), (np.array([1.0, 4.0]),), cls=4)
def try_in_loop(x):
    total = 0.0
    for v in x:
        try:
            if v < 0:
                raise ValueError("neg")
            total += np.sqrt(v)
        except ValueError:
            total -= 1.0
    return total
