import bisect
import heapq
import math
from collections import defaultdict, deque, namedtuple

import numpy as np

from tools.probes11.harness import main

Point = namedtuple("Point", "x y")


def find_pair(x, target):
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            if x[i] + x[j] == target:
                return i, j
    return None, None


def p_find_pair(x):
    i, j = find_pair(x, 5.0)
    if i is None:
        return "none"
    return f"{i}-{j}"


def classify(v):
    if np.isnan(v):
        return "missing"
    if v < 0:
        return "negative"
    if v == 0:
        return "zero"
    return "positive"


def p_classify_counts(x):
    counts = {}
    for v in x:
        k = classify(v)
        counts[k] = counts.get(k, 0) + 1
    return sorted(counts.items())


def p_status_message(x):
    total = float(np.sum(x))
    if total > 10:
        status = "high"
    elif total > 0:
        status = "ok"
    else:
        status = None
    msg = f"status={status or 'unknown'}"
    return msg, status is None


def p_first_negative_index(x):
    idx = None
    for i, v in enumerate(x):
        if v < 0:
            idx = i
            break
    return -1 if idx is None else idx


def p_min_by_key(x):
    pairs = []
    for i, v in enumerate(x):
        if v > 0:
            pairs.append((float(v), i))
    if not pairs:
        return None
    best = min(pairs, key=lambda p: p[0])
    return best[1]


def p_safe_ratio(x):
    out = []
    for a, b in zip(x[:-1], x[1:]):
        try:
            r = a / b if b != 0 else None
        except ZeroDivisionError:
            r = None
        out.append(r)
    return out


def p_running_label(x):
    labels = []
    prev = None
    for v in x:
        if prev is None:
            labels.append("start")
        elif v > prev:
            labels.append("up")
        elif v < prev:
            labels.append("down")
        else:
            labels.append("flat")
        prev = v
    return labels


def p_points(x):
    pts = [Point(float(a), float(b)) for a, b in zip(x, x[::-1])]
    far = max(pts, key=lambda p: math.hypot(p.x, p.y)) if pts else None
    return far


def p_top_k(x):
    h = []
    for v in x:
        heapq.heappush(h, -float(v))
    return [-heapq.heappop(h) for _ in range(min(2, len(h)))]


def p_while_else(x):
    i = 0
    while i < len(x):
        if x[i] > 3:
            found = i
            break
        i += 1
    else:
        found = -1
    return found


def p_deque_window(x):
    win = deque(maxlen=2)
    sums = []
    for v in x:
        win.append(float(v))
        sums.append(sum(win))
    return sums


def p_grade_report(x):
    lines = []
    for i, v in enumerate(x):
        g = "pass" if v >= 2 else "fail"
        lines.append(f"{i}: {v:.1f} {g.upper()}")
    return "\n".join(lines)


def p_nested_tuple_return(x):
    def stats(a):
        if len(a) == 0:
            return None
        return float(np.min(a)), float(np.max(a))

    s = stats(x[x > 0])
    if s is None:
        return "empty"
    lo, hi = s
    return round(hi - lo, 3)


def p_defaultdict_sum(x):
    d = defaultdict(float)
    for i, v in enumerate(x):
        d["even" if i % 2 == 0 else "odd"] += float(v)
    return dict(d)


def p_bisect_bins(x):
    edges = [0.0, 1.0, 2.5, 4.0]
    return [bisect.bisect_left(edges, float(v)) for v in x]


def p_accumulate_until(x):
    total = 0.0
    n = 0
    for v in x:
        if total + v > 5:
            break
        total += v
        n += 1
    return n, total


def p_enum_string(x):
    names = ["a", "b", "c", "d", "e"]
    chosen = [names[i] for i, v in enumerate(x) if v > 1]
    return ",".join(chosen)


def p_argmax_dict(x):
    scores = {"a": float(x[0]), "b": float(x[1]), "c": float(x[2])}
    best = max(scores, key=scores.get)
    return best, scores[best]


def p_class_state(x):
    class Acc:
        def __init__(self):
            self.hist = []
            self.total = 0.0

        def add(self, v):
            self.total += v
            if v > 1:
                self.hist.append(v)
            return self.total

    a = Acc()
    for v in x:
        a.add(float(v))
    return a.total, len(a.hist)


if __name__ == "__main__":
    main(globals())
