"""Probes of round 12: Python numbers meeting NumPy values, and aliasing (issue 24)."""

# ruff: noqa: E741
import math

import numpy as np

from tools.probes11.harness import main


def p_int_times_half(x):
    out = []
    for v in x:
        if v > 1:
            out.append(int(v) * 0.5)
        else:
            out.append(0.0)
    return out


def p_round_mean(x):
    if len(x) == 0:
        return None
    m = np.mean(x)
    return round(m, 3), round(float(m), 1)


def p_clamp_py(x):
    s = 0
    for v in x:
        s += max(0, min(3, v))
    return s


def p_count_bools(x):
    c = 0
    for v in x:
        c += v > 1
    return c, type(c).__name__


def p_int_total(x):
    total = 0
    for v in x:
        if not np.isnan(v):
            total += int(v)
    return total, total / max(len(x), 1)


def p_floor_ceil(x):
    lo, hi = math.inf, -math.inf
    for v in x:
        if np.isnan(v):
            continue
        lo = min(lo, math.floor(v))
        hi = max(hi, math.ceil(v))
    return lo, hi


def p_divmod(x):
    out = []
    for v in x:
        if v >= 0:
            q, r = divmod(int(v), 3)
            out.append((q, r))
    return out


def p_inf_sentinel(x):
    best = float("inf")
    where = -1
    for i, v in enumerate(x):
        if v < best:
            best = v
            where = i
    return best, where


def p_sum_list_comp(x):
    pos = [v for v in x if v > 0]
    return sum(pos), len(pos)


def p_float32_mix(x):
    acc = np.float32(0)
    for v in x:
        acc += np.float32(v) * 0.5
    return acc, acc.dtype


def p_abs_diff_ints(x):
    prev = None
    diffs = []
    for v in x:
        k = int(v) if not np.isnan(v) else 0
        if prev is not None:
            diffs.append(abs(k - prev))
        prev = k
    return diffs


def p_pow_int(x):
    r = 1
    for v in x:
        if v > 1:
            r = r * 2
    return r, 2**r


def p_chained_cmp(x):
    n = 0
    for v in x:
        if 0 < v <= 2:
            n += 1
    return n


def p_mean_of_py_floats(x):
    vals = []
    for v in x:
        vals.append(float(v))
    return sum(vals) / len(vals) if vals else 0.0


def p_percent_str(x):
    n = len(x)
    pos = int(np.sum(x > 1))
    pct = 100 * pos / n if n else 0
    return f"{pct:.1f}%"


def p_copy_then_clip(x):
    y = x.copy()
    y[y < 1] = 1
    return y, x


def p_alias_write(x):
    y = x.copy()
    z = y
    if len(z) > 0:
        z[0] = 10.0
    return y


def p_row_view(x):
    m = np.zeros((2, max(len(x), 1)))
    row = m[0]
    for i, v in enumerate(x):
        row[i] = v * 2
    return m


def p_rebind_not_alias(x):
    out = x.copy()
    out = out * 2
    if len(out) > 0:
        out[0] = -1.0
    return out, x


def p_swap_items(x):
    a = x.copy()
    for i in range(len(a) - 1):
        if a[i] > a[i + 1]:
            a[i], a[i + 1] = a[i + 1], a[i]
    return a


def p_normalize_in_place(x):
    y = x.astype(float)
    s = np.sum(y)
    if s != 0:
        y /= s
    return y


def p_cumulative_list(x):
    run = 0.0
    out = []
    for v in x:
        run += v
        out.append(run)
    return np.array(out)


def p_two_arrays(x):
    a = np.zeros(3)
    b = np.zeros(3)
    for i, v in enumerate(x[:3]):
        if v > 1:
            a[i] = v
        else:
            b[i] = v
    return a, b


if __name__ == "__main__":
    main(globals())
