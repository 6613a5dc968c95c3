from collections import Counter

import numpy as np

from tools.probes11.harness import main


def level(v):
    if v > 3:
        return "high"
    if v > 1:
        return "mid"
    return "low"


def p_level_report(x):
    lines = []
    for i, v in enumerate(x):
        if np.isnan(v):
            lines.append(f"{i}: n/a")
            continue
        lines.append(f"{i}: {level(v)} ({v:.1f})")
    return lines


def p_level_dict(x):
    d = {"low": [], "mid": [], "high": []}
    for v in x:
        if not np.isnan(v):
            d[level(v)].append(float(v))
    return {k: len(vs) for k, vs in d.items()}


def p_worst_level(x):
    order = {"low": 0, "mid": 1, "high": 2}
    worst = "low"
    for v in x:
        if np.isnan(v):
            continue
        lv = level(v)
        if order[lv] > order[worst]:
            worst = lv
    return worst


def p_summary(x):
    vals = [float(v) for v in x if not np.isnan(v)]
    if not vals:
        return "no data"
    mean = sum(vals) / len(vals)
    return f"n={len(vals)} mean={mean:.2f} max={max(vals):.1f} ({level(max(vals))})"


def p_tag_pairs(x):
    return [(level(v), round(float(v), 1)) for v in x if v == v]


def p_count_levels(x):
    c = Counter(level(v) for v in x if not np.isnan(v))
    return c["low"], c["mid"], c["high"], c.most_common(1)


def p_first_high(x):
    for i, v in enumerate(x):
        if level(v) == "high":
            return i
    return None


def p_level_changes(x):
    prev = None
    changes = 0
    for v in x:
        lv = level(v)
        if prev is not None and lv != prev:
            changes += 1
        prev = lv
    return changes, prev


def p_upper_join(x):
    return "|".join(level(v).upper()[0] for v in x)


def p_dict_get_default(x):
    scores = {"low": 1, "mid": 5}
    return sum(scores.get(level(v), 10) for v in x)


if __name__ == "__main__":
    main(globals())
