import math
from collections import Counter

import numpy as np

from tools.probes11.harness import main


def p_inventory(x):
    stock = {"apple": 5, "pear": 0, "fig": 2}
    sold = {"apple": 0, "pear": 0, "fig": 0}
    names = list(stock)
    for v in x:
        k = names[int(abs(v)) % 3]
        if stock[k] > 0:
            stock[k] -= 1
            sold[k] += 1
    return stock, sold


def p_bank(x):
    balance = 100.0
    log = []
    for v in x:
        if balance + v < 0:
            log.append(("rejected", float(v)))
            continue
        balance += v
        log.append(("ok", float(v)))
    return round(balance, 2), log


def p_top_students(x):
    names = ["ann", "bob", "cy", "dee", "eve"]
    scored = [(float(s), names[i % 5]) for i, s in enumerate(x)]
    scored.sort(reverse=True)
    return [n for _, n in scored[:2]]


def p_moving_avg(x, k=2):
    out = []
    for i in range(len(x)):
        lo = max(0, i - k + 1)
        out.append(float(np.mean(x[lo : i + 1])))
    return out


def p_normalize_rows(x):
    m = x.reshape(-1, 1) * np.ones((1, 2))
    for r in range(m.shape[0]):
        s = m[r].sum()
        if s != 0:
            m[r] = m[r] / s
    return m


def p_state_machine(x):
    state = "idle"
    trans = []
    for v in x:
        if state == "idle" and v > 1:
            state = "active"
        elif state == "active" and v < 0:
            state = "stopped"
        elif state == "stopped":
            break
        trans.append(state)
    return state, trans


def p_retry(x):
    attempts = 0
    for v in x:
        attempts += 1
        if v > 2:
            return "ok", attempts
    return "failed", attempts


def p_histogram(x):
    bins = [0, 0, 0]
    for v in x:
        if np.isnan(v):
            continue
        b = 0 if v < 1 else (1 if v < 3 else 2)
        bins[b] += 1
    return bins


def p_pairs_close(x):
    res = []
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            if abs(x[i] - x[j]) < 1.5:
                res.append((i, j))
    return res


def p_sum_until_nan(x):
    total = 0
    for v in x:
        if math.isnan(v):
            break
        total += v
    return total


def p_percent_str(x):
    tot = float(np.nansum(x))
    return [f"{(v / tot if tot else 0):.0%}" for v in x]


def p_gcd_list(x):
    g = 0
    for v in x:
        g = math.gcd(g, int(abs(v)))
    return g


def p_word_lengths(x):
    words = ["a", "bb", "ccc", "dddd"]
    lens = Counter()
    for v in x:
        w = words[int(abs(v)) % 4]
        lens[len(w)] += 1
    return dict(lens)


def p_clip_loop(x):
    y = x.copy()
    for i in range(y.shape[0]):
        if y[i] > 3:
            y[i] = 3
        elif y[i] < 0:
            y[i] = 0
    return y


def p_index_of_max(x):
    best_i, best_v = -1, None
    for i, v in enumerate(x):
        if best_v is None or v > best_v:
            best_i, best_v = i, v
    return best_i, best_v


def p_dict_of_lists(x):
    groups = {"small": [], "big": []}
    for v in x:
        (groups["big"] if v > 2 else groups["small"]).append(float(v))
    return groups


def p_fizz(x):
    out = []
    for v in x:
        n = int(abs(v))
        if n % 15 == 0:
            out.append("FizzBuzz")
        elif n % 3 == 0:
            out.append("Fizz")
        elif n % 5 == 0:
            out.append("Buzz")
        else:
            out.append(str(n))
    return out


def p_tuple_swap_sort(x):
    a = [float(v) for v in x]
    n = len(a)
    for i in range(n):
        for j in range(n - 1 - i):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]
    return a


if __name__ == "__main__":
    main(globals())
