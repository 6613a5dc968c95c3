"""Probes of round 12: lists in nested blocks, and state a loop does not see (issue 24)."""

# ruff: noqa: E741
from collections import defaultdict, deque

from tools.probes11.harness import main


def p_nested_append(x):
    groups = []
    cur = []
    for v in x:
        if v > 1:
            cur.append(v)
        else:
            if cur:
                groups.append(cur)
            cur = []
    if cur:
        groups.append(cur)
    return [len(g) for g in groups]


def p_insert_front(x):
    out = []
    for v in x:
        if v > 1:
            out.insert(0, v)
        else:
            out.append(v)
    return out


def p_pop_front_queue(x):
    q = list(x)
    seen = []
    while q:
        v = q.pop(0)
        if v > 3:
            q.append(v / 2)
        seen.append(v)
    return seen


def p_del_item(x):
    xs = list(x)
    i = 0
    while i < len(xs):
        if xs[i] < 1:
            del xs[i]
        else:
            i += 1
    return xs


def p_extend(x):
    out = []
    for v in x:
        if v > 1:
            out.extend([v, -v])
    return out


def p_list_of_lists_write(x):
    grid = [[0.0] * 2 for _ in range(2)]
    for i, v in enumerate(x):
        grid[i % 2][int(v > 1)] += v
    return grid


def p_sort_py_numbers(x):
    vals = []
    for v in x:
        vals.append(round(float(v), 1))
    vals.sort(reverse=True)
    return vals


def p_reverse(x):
    vals = [v * 2 for v in x if v > 0]
    vals.reverse()
    return vals


def p_slice_assign(x):
    out = list(x)
    if len(out) > 2:
        out[1:3] = [0.0, 0.0]
    return out


class Counter:
    def __init__(self):
        self.n = 0
        self.total = 0.0

    def add(self, v):
        self.n += 1
        self.total += v

    def mean(self):
        return self.total / self.n if self.n else 0.0


def p_class_counter(x):
    c = Counter()
    for v in x:
        if v > 1:
            c.add(v)
    return c.n, c.mean()


def p_closure_counter(x):
    calls = 0

    def f(v):
        nonlocal calls
        calls += 1
        return v * 2

    out = [f(v) for v in x if v > 0]
    return calls, out


def p_closure_in_loop(x):
    hits = 0

    def check(v):
        nonlocal hits
        if v > 1:
            hits += 1
            return True
        return False

    for v in x:
        check(v)
    return hits


def p_default_dict_lists(x):
    d = defaultdict(list)
    for i, v in enumerate(x):
        d[i % 2].append(v)
    return {k: sum(vs) for k, vs in d.items()}


def p_deque_window(x):
    w = deque(maxlen=2)
    out = []
    for v in x:
        w.append(v)
        out.append(sum(w) / len(w))
    return out


class Stack:
    def __init__(self):
        self.items = []

    def push(self, v):
        self.items.append(v)

    def pop(self):
        return self.items.pop()

    def empty(self):
        return not self.items


def p_stack_class(x):
    s = Stack()
    for v in x:
        if v > 1:
            s.push(v)
    out = []
    while not s.empty():
        out.append(s.pop())
    return out


def p_dict_of_counts_then_max(x):
    counts = {}
    for v in x:
        k = "big" if v > 1 else "small"
        counts[k] = counts.get(k, 0) + 1
    if not counts:
        return None
    return max(counts, key=counts.get)


def p_running_best_tuple(x):
    best = (None, -1)
    for i, v in enumerate(x):
        if best[0] is None or v > best[0]:
            best = (v, i)
    return best


def p_flags_list(x):
    flags = [v > 1 for v in x]
    return any(flags), all(flags), flags.count(True)


def p_zip_pairs(x):
    out = []
    for a, b in zip(x, x[1:]):
        out.append(b - a)
    return out


def p_enumerate_start(x):
    out = {}
    for i, v in enumerate(x, start=1):
        if v > 1:
            out[i] = v
    return out


def p_while_compound(x):
    i = 0
    while i < len(x) and x[i] > 0:
        i += 1
    return i


def p_for_else(x):
    for i, v in enumerate(x):
        if v < 0:
            idx = i
            break
    else:
        idx = -1
    return idx


def p_string_build(x):
    s = ""
    for v in x:
        s += f"{v:.1f},"
    return s.rstrip(",")


def p_join_map(x):
    return "-".join(map(str, [int(v) for v in x if v == v]))


def p_try_finally(x):
    log = []
    try:
        for v in x:
            if v < 0:
                raise ValueError("neg")
            log.append(v)
    except ValueError:
        log.append(-1.0)
    finally:
        log.append(0.0)
    return log


if __name__ == "__main__":
    main(globals())
