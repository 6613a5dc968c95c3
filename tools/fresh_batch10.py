"""A tenth batch of programs nobody on the team wrote beforehand (issue 24, 2026-11-29), all
written before the first run, as ordinary users write Python + NumPy, most of them split into
several helper functions that pass dicts, lists, tuples, sets and small objects between them
(a helper builds a dict in a loop and returns it, another looks keys up in it; helpers with
early returns; tuples unpacked by the caller), classes with several methods changing `self`
inside loops, dataclasses, closures and `nonlocal` counters, try/except around data checks,
f-string reports and printing in loops, collections (Counter, defaultdict, deque,
namedtuple), itertools, heapq, bisect, functools.reduce, sorted(key=...), nested
comprehensions, while/break/else, and NumPy idioms (masks, np.where, cumsum, argsort, fancy
indexing, clip, reductions with axis) mixed with Python loops over array items. Domains:
inventory and orders, school grades, sports statistics, log analysis on int-coded events,
sensor cleaning, queue and bank simulation with seeded rngs, graph search on adjacency
matrices, scheduling, hand-written matrix algorithms, finance, int-coded text statistics,
geometry, games, and machine learning by hand. Each runs on two to four inputs that take
different paths, eagerly and as a graph (NumPy backend, every optimizing pass off, JAX
backend), judged as `fresh_batch.py` judges.

    python tools/fresh_batch10.py             # one line per program that differs, then counts
    python tools/fresh_batch10.py --detail    # the full message of each outcome that is not ok
    python tools/fresh_batch10.py NAME ...    # only these programs, in detail
    python tools/fresh_batch10.py --table     # counts by class (FINDINGS), new failures named
    python tools/fresh_batch10.py --mode numpy NAME ...  # only one mode (numpy, noopt, jax)
    python tools/fresh_batch10.py --jit       # the jit way

The outcomes found are in tools/fresh_batch10_findings.md.
"""

# ruff: noqa: B007, E741, UP033  (programs written as users write them: unused loop names, `l`)
import bisect
import functools
import heapq
import itertools
import math
import os
import sys
from collections import Counter, defaultdict, deque, namedtuple
from dataclasses import dataclass, field

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fresh_batch  # noqa: E402

P, prog = fresh_batch.registry()


E = np.zeros(0)
EI = np.zeros(0, dtype=np.int64)
# orders: customer id, item id, quantity
ORDERS = np.array([[0, 1, 3], [1, 0, 1], [0, 2, 5], [2, 1, 2], [1, 1, 4], [0, 0, 1]])
ORDERS2 = np.array([[3, 2, 10]])
PRICE = np.array([2.5, 10.0, 0.75])
STOCK = np.array([4, 6, 5])
# scores: students x assignments (0..100)
SCORES = np.array(
    [
        [88.0, 92.0, 79.0, 95.0],
        [55.0, 61.0, 70.0, 48.0],
        [72.0, 0.0, 85.0, 90.0],
        [99.0, 97.0, 100.0, 98.0],
        [64.0, 70.0, 58.0, 66.0],
    ]
)
SCORES2 = np.array([[50.0, 50.0]])
# games: team a, team b, points a, points b
GAMES = np.array(
    [
        [0, 1, 98, 91],
        [2, 3, 77, 80],
        [0, 2, 101, 99],
        [1, 3, 88, 88],
        [3, 0, 105, 96],
        [2, 1, 90, 84],
    ]
)
GAMES2 = np.array([[0, 1, 10, 12]])
# player box scores: points, rebounds, assists, minutes
BOX = np.array([[22, 8, 5, 34], [15, 11, 2, 30], [8, 3, 9, 28], [30, 5, 4, 38], [0, 1, 0, 4]])
# log events: timestamp, code (0 login, 1 view, 2 error, 3 logout), user id
LOG = np.array(
    [
        [1, 0, 7],
        [3, 1, 7],
        [4, 1, 7],
        [5, 2, 7],
        [6, 0, 9],
        [8, 1, 9],
        [9, 2, 9],
        [10, 2, 9],
        [12, 3, 7],
        [15, 3, 9],
        [16, 0, 4],
        [20, 2, 4],
    ]
)
LOG2 = np.array([[1, 0, 1], [2, 3, 1]])
SENSOR = np.array(
    [20.1, 20.3, np.nan, 20.2, 85.0, 20.6, 20.4, np.nan, np.nan, 20.9, 21.0, -40.0, 21.3, 21.2]
)
SENSOR2 = np.array([5.0, 5.0, 5.0])
SENSOR3 = np.array([np.nan, np.nan])
# adjacency matrices (weights, 0 = no edge)
ADJ = np.array(
    [[0, 4, 1, 0, 0], [4, 0, 2, 5, 0], [1, 2, 0, 8, 0], [0, 5, 8, 0, 3], [0, 0, 0, 3, 0]]
)
ADJ2 = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]])
DAG = np.array(
    [[0, 1, 1, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 1, 1], [0, 0, 0, 0, 1], [0, 0, 0, 0, 0]]
)
CYC = np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]])
# jobs: release, duration, deadline, weight
JOBS = np.array([[0, 3, 5, 2], [1, 2, 4, 1], [2, 4, 12, 3], [3, 1, 6, 5], [6, 2, 9, 1]])
JOBS2 = np.array([[0, 5, 3, 1]])
A3 = np.array([[4.0, 1.0, 2.0], [1.0, 5.0, 1.0], [2.0, 1.0, 6.0]])
B3 = np.array([7.0, 8.0, 9.0])
SING = np.array([[1.0, 2.0], [2.0, 4.0]])
CASH = np.array([-1000.0, 300.0, 400.0, 500.0, 200.0])
RET = np.array(
    [
        [0.01, 0.02, -0.01],
        [0.03, -0.02, 0.0],
        [-0.02, 0.01, 0.02],
        [0.015, 0.0, 0.01],
        [0.0, 0.03, -0.005],
    ]
)
TEXT = np.array([3, 1, 4, 0, 1, 5, 9, 0, 2, 6, 5, 0, 3, 5, 0, 8, 9, 7, 9, 0, 3, 1])  # 0 = space
TEXT2 = np.array([0, 0, 0])
POLY = np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 3.0], [2.0, 5.0], [0.0, 3.0]])
CLOUD = np.array(
    [
        [0.0, 0.0],
        [1.0, 1.0],
        [2.0, 0.5],
        [2.0, 2.0],
        [0.5, 2.5],
        [1.0, 0.2],
        [-0.5, 1.0],
        [1.5, 1.4],
    ]
)
BOARD = np.array([[1, 2, 1], [0, 1, 2], [2, 0, 1]])
BOARD2 = np.array([[1, 2, 0], [0, 0, 0], [2, 0, 1]])
TILES = np.array([[2, 2, 0, 4], [0, 0, 0, 0], [4, 4, 4, 4], [2, 0, 2, 8]])
XS = np.array(
    [[1.0, 2.0], [2.0, 1.0], [3.0, 4.0], [5.0, 5.0], [1.0, 0.5], [4.0, 2.5], [6.0, 5.5], [0.5, 1.5]]
)
YS = np.array([0, 0, 1, 1, 0, 1, 1, 0])
YS2 = np.array([1, 1, 1, 1, 1, 1, 1, 1])


# ---------------------------------------------------------------- inventory and orders


def _order_totals(orders, price):
    totals = {}
    for row in orders:
        cust, item, qty = int(row[0]), int(row[1]), int(row[2])
        totals[cust] = totals.get(cust, 0.0) + price[item] * qty
    return totals


def _best_customer(totals):
    if not totals:
        return None, 0.0
    best = max(totals, key=lambda c: totals[c])
    return best, totals[best]


@prog((ORDERS, PRICE), (ORDERS[:0], PRICE))
def best_customer_by_spend(orders, price):
    totals = _order_totals(orders, price)
    cust, amount = _best_customer(totals)
    if cust is None:
        return "no orders"
    return f"customer {cust} spent {amount:.2f}"


def _fill_orders(orders, stock):
    left = stock.copy()
    filled, short = [], []
    for i in range(orders.shape[0]):
        item, qty = orders[i, 1], orders[i, 2]
        if left[item] >= qty:
            left[item] -= qty
            filled.append(i)
        else:
            short.append(i)
    return left, filled, short


@prog((ORDERS, STOCK), (ORDERS2 % 3, STOCK))
def fill_orders_from_stock(orders, stock):
    left, filled, short = _fill_orders(orders, stock)
    return left, len(filled), short


def _reorder_list(stock, threshold):
    out = []
    for item, qty in enumerate(stock):
        if qty < threshold:
            out.append((item, int(threshold - qty)))
    return out


@prog((STOCK, 5), (STOCK, 1))
def reorder_needed(stock, threshold):
    need = _reorder_list(stock, threshold)
    lines = [f"item {i}: order {q}" for i, q in need]
    return "\n".join(lines) if lines else "stock ok"


@dataclass
class Item:
    sku: int
    qty: int
    price: float


def _make_items(stock, price):
    return [Item(i, int(q), float(p)) for i, (q, p) in enumerate(zip(stock, price))]


@prog((STOCK, PRICE), (STOCK * 0, PRICE))
def inventory_value_dataclass(stock, price):
    items = _make_items(stock, price)
    total = 0.0
    for it in items:
        total += it.qty * it.price
    most = max(items, key=lambda it: it.qty * it.price)
    return round(total, 2), most.sku


class Warehouse:
    def __init__(self, stock):
        self.stock = list(stock)
        self.log = []

    def take(self, item, qty):
        if self.stock[item] < qty:
            self.log.append(("short", item))
            return False
        self.stock[item] -= qty
        self.log.append(("took", item))
        return True

    def restock(self, amount):
        for i in range(len(self.stock)):
            if self.stock[i] == 0:
                self.stock[i] += amount


@prog((ORDERS, STOCK), (ORDERS2 % 3, STOCK))
def warehouse_class_orders(orders, stock):
    w = Warehouse([int(s) for s in stock])
    ok = 0
    for row in orders:
        if w.take(int(row[1]), int(row[2])):
            ok += 1
        w.restock(2)
    return ok, w.stock, len(w.log)


def _qty_by_item(orders, n_items):
    q = np.zeros(n_items, dtype=np.int64)
    for item, qty in zip(orders[:, 1], orders[:, 2]):
        q[item] += qty
    return q


@prog((ORDERS, PRICE), (ORDERS[:0], PRICE))
def revenue_by_item_numpy(orders, price):
    q = _qty_by_item(orders, price.shape[0])
    rev = q * price
    order = np.argsort(-rev)
    return rev[order], order


@prog((ORDERS,), (ORDERS2,))
def customers_items_sets(orders):
    bought = defaultdict(set)
    for c, i, _q in orders:
        bought[int(c)].add(int(i))
    common = None
    for c in sorted(bought):
        common = bought[c] if common is None else common & bought[c]
    return {c: sorted(s) for c, s in bought.items()}, sorted(common or set())


def _discount(total):
    if total > 40:
        return 0.1
    if total > 20:
        return 0.05
    return 0.0


@prog((ORDERS, PRICE), (ORDERS2 % 3, PRICE))
def invoices_with_discounts(orders, price):
    totals = _order_totals(orders, price)
    lines = []
    for cust in sorted(totals):
        t = totals[cust]
        d = _discount(t)
        lines.append(f"{cust}: {t:.2f} -{d:.0%} = {t * (1 - d):.2f}")
    return lines


@prog((ORDERS,), (ORDERS[:0],))
def largest_order_per_customer(orders):
    best = {}
    for k in range(orders.shape[0]):
        c = int(orders[k, 0])
        q = orders[k, 2]
        if c not in best or q > best[c][1]:
            best[c] = (k, q)
    return [(c, best[c][0]) for c in sorted(best)]


def _validate_order(row, n_items):
    if row[2] <= 0:
        raise ValueError("bad quantity")
    if row[1] >= n_items:
        raise KeyError(int(row[1]))
    return True


@prog((ORDERS, 3), (np.array([[0, 1, 2], [0, 5, 1], [1, 0, 0]]), 3))
def validate_orders_try(orders, n_items):
    good, bad = 0, []
    for row in orders:
        try:
            _validate_order(row, n_items)
            good += 1
        except ValueError:
            bad.append("qty")
        except KeyError:
            bad.append("item")
    return good, bad


@prog((ORDERS, STOCK), (ORDERS2 % 3, np.array([0, 0, 0])))
def backorder_queue(orders, stock):
    left = [int(s) for s in stock]
    waiting = deque()
    shipped = []
    for row in orders:
        waiting.append((int(row[1]), int(row[2])))
        while waiting and left[waiting[0][0]] >= waiting[0][1]:
            item, qty = waiting.popleft()
            left[item] -= qty
            shipped.append(item)
    return shipped, len(waiting)


# ---------------------------------------------------------------- school grades


def _letter(score):
    if score >= 90:
        return "A"
    elif score >= 80:
        return "B"
    elif score >= 70:
        return "C"
    elif score >= 60:
        return "D"
    return "F"


@prog((SCORES,), (SCORES2,))
def letter_grade_counts(scores):
    avgs = scores.mean(axis=1)
    letters = [_letter(a) for a in avgs]
    return dict(Counter(letters)), letters


def _drop_lowest(row):
    if row.shape[0] < 2:
        return row
    keep = np.sort(row)[1:]
    return keep


@prog((SCORES,), (SCORES2,))
def average_after_drop_lowest(scores):
    out = []
    for r in range(scores.shape[0]):
        out.append(float(np.mean(_drop_lowest(scores[r]))))
    return out


def _weights_ok(weights):
    return abs(sum(weights) - 1.0) < 1e-9


@prog((SCORES, [0.2, 0.2, 0.3, 0.3]), (SCORES, [0.5, 0.5, 0.5, 0.5]))
def weighted_final_grades(scores, weights):
    if not _weights_ok(weights):
        raise ValueError("weights must sum to 1")
    w = np.array(weights)
    final = scores @ w
    return np.round(final, 1), int(np.argmax(final))


@prog((SCORES,), (SCORES2,))
def curve_to_target_mean(scores):
    target = 75.0
    mean = scores.mean()
    shift = target - mean
    curved = np.clip(scores + shift, 0, 100)
    changed = int(np.sum(curved != scores))
    return curved, changed


def _rank(values):
    order = sorted(range(len(values)), key=lambda i: -values[i])
    ranks = [0] * len(values)
    for pos, i in enumerate(order):
        ranks[i] = pos + 1
    return ranks


@prog((SCORES,), (SCORES2,))
def class_rank_list(scores):
    totals = [float(t) for t in scores.sum(axis=1)]
    ranks = _rank(totals)
    return list(zip(ranks, totals))


@prog((SCORES, 60.0), (SCORES, 10.0))
def students_failing_any(scores, cutoff):
    failing = []
    for s, row in enumerate(scores):
        low = [j for j, v in enumerate(row) if v < cutoff]
        if low:
            failing.append((s, low))
    return failing


class Gradebook:
    def __init__(self, n):
        self.grades = {i: [] for i in range(n)}
        self.missing = 0

    def add(self, student, score):
        if score == 0:
            self.missing += 1
            return
        self.grades[student].append(score)

    def average(self, student):
        g = self.grades[student]
        return sum(g) / len(g) if g else 0.0


@prog((SCORES,), (SCORES2 * 0,))
def gradebook_class(scores):
    gb = Gradebook(scores.shape[0])
    for s in range(scores.shape[0]):
        for a in range(scores.shape[1]):
            gb.add(s, float(scores[s, a]))
    return [round(gb.average(s), 2) for s in range(scores.shape[0])], gb.missing


@prog((SCORES,), (SCORES2,))
def most_improved_student(scores):
    gains = scores[:, -1] - scores[:, 0]
    best = int(np.argmax(gains))
    improved = np.nonzero(gains > 0)[0]
    return best, improved.tolist(), float(gains[best])


def _stats(col):
    return float(col.min()), float(col.max()), float(np.median(col))


@prog((SCORES,), (SCORES2,))
def assignment_summary_report(scores):
    lines = []
    for j in range(scores.shape[1]):
        lo, hi, med = _stats(scores[:, j])
        lines.append(f"A{j + 1}: min {lo:.0f} max {hi:.0f} median {med:.1f}")
        print(lines[-1])
    return lines


@prog((SCORES,), (SCORES2,))
def zscore_outliers(scores):
    flat = scores.ravel()
    sd = flat.std()
    if sd == 0:
        return []
    z = (flat - flat.mean()) / sd
    idx = np.where(np.abs(z) > 1.5)[0]
    return [divmod(int(i), scores.shape[1]) for i in idx]


@prog((SCORES, np.array([90.0, 80.0, 70.0, 60.0])), (SCORES2, np.array([40.0])))
def bisect_letter_bands(scores, cuts):
    bounds = sorted(cuts.tolist())
    letters = "FDCBA"[-(len(bounds) + 1) :]
    out = []
    for v in scores.mean(axis=1):
        out.append(letters[bisect.bisect_right(bounds, v)])
    return "".join(out)


def _pairs_above(scores, thr):
    pairs = []
    n = scores.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            if abs(scores[i].mean() - scores[j].mean()) < thr:
                pairs.append((i, j))
    return pairs


@prog((SCORES, 10.0), (SCORES, 0.5))
def similar_student_pairs(scores, thr):
    pairs = _pairs_above(scores, thr)
    groups = defaultdict(list)
    for i, j in pairs:
        groups[i].append(j)
    return len(pairs), dict(groups)


# ---------------------------------------------------------------- sports statistics


def _standings(games, n):
    table = {t: {"w": 0, "l": 0, "t": 0, "pf": 0, "pa": 0} for t in range(n)}
    for a, b, pa, pb in games:
        a, b = int(a), int(b)
        table[a]["pf"] += int(pa)
        table[a]["pa"] += int(pb)
        table[b]["pf"] += int(pb)
        table[b]["pa"] += int(pa)
        if pa > pb:
            table[a]["w"] += 1
            table[b]["l"] += 1
        elif pb > pa:
            table[b]["w"] += 1
            table[a]["l"] += 1
        else:
            table[a]["t"] += 1
            table[b]["t"] += 1
    return table


def _win_pct(rec):
    g = rec["w"] + rec["l"] + rec["t"]
    if g == 0:
        return 0.0
    return (rec["w"] + 0.5 * rec["t"]) / g


@prog((GAMES, 4), (GAMES2, 3))
def standings_sorted_by_pct(games, n):
    table = _standings(games, n)
    order = sorted(table, key=lambda t: (-_win_pct(table[t]), -(table[t]["pf"] - table[t]["pa"])))
    return [(t, round(_win_pct(table[t]), 3)) for t in order]


@prog((GAMES,), (GAMES2,))
def biggest_blowout(games):
    margins = np.abs(games[:, 2] - games[:, 3])
    k = int(np.argmax(margins))
    a, b, pa, pb = games[k]
    winner = a if pa > pb else b
    return k, int(winner), int(margins[k])


@prog((GAMES, 4), (GAMES2, 2))
def head_to_head_matrix(games, n):
    h2h = np.zeros((n, n), dtype=np.int64)
    for g in games:
        if g[2] > g[3]:
            h2h[g[0], g[1]] += 1
        elif g[3] > g[2]:
            h2h[g[1], g[0]] += 1
    return h2h, h2h.sum(axis=1)


def _efficiency(row):
    pts, reb, ast, mins = row
    if mins == 0:
        return 0.0
    return (pts + 1.2 * reb + 1.5 * ast) / mins


@prog((BOX,), (BOX[4:],))
def player_efficiency_leader(box):
    effs = [_efficiency(r) for r in box]
    best = max(range(len(effs)), key=effs.__getitem__)
    return best, round(float(effs[best]), 3)


@prog((BOX,), (BOX[:1],))
def double_doubles(box):
    stats = box[:, :3]
    dd = np.sum(stats >= 10, axis=1) >= 2
    return np.nonzero(dd)[0], int(dd.sum())


@prog((np.array([1, 1, 0, 1, 1, 1, 0, 0, 1]),), (EI,))
def longest_win_streak(results):
    best = cur = 0
    for r in results:
        if r == 1:
            cur += 1
            if cur > best:
                best = cur
        else:
            cur = 0
    return best


Lap = namedtuple("Lap", "driver lap time")


def _laps(times):
    laps = []
    for d in range(times.shape[0]):
        for l in range(times.shape[1]):
            laps.append(Lap(d, l, float(times[d, l])))
    return laps


@prog(
    (np.array([[81.2, 80.5, 80.9], [80.8, 81.1, 79.9], [82.0, 80.4, 80.6]]),), (np.array([[90.0]]),)
)
def fastest_lap_namedtuple(times):
    laps = _laps(times)
    fast = min(laps, key=lambda x: x.time)
    totals = defaultdict(float)
    for lp in laps:
        totals[lp.driver] += lp.time
    winner = min(totals, key=totals.get)
    return fast.driver, fast.lap, winner


@prog((BOX,), (BOX[4:],))
def per36_table(box):
    mins = box[:, 3].astype(float)
    safe = np.where(mins > 0, mins, 1.0)
    per36 = box[:, :3] / safe[:, None] * 36
    per36[mins == 0] = 0.0
    return np.round(per36, 1)


@prog((GAMES, 4), (GAMES2, 2))
def points_for_against_dict(games, n):
    table = _standings(games, n)
    diffs = {t: r["pf"] - r["pa"] for t, r in table.items()}
    pos = [t for t, d in diffs.items() if d > 0]
    return diffs, pos


@prog((np.array([3, 0, 2, 5, 1, 0, 4]), 3), (np.array([0, 0]), 5))
def hat_tricks_and_shutouts(goals, hat):
    hats = 0
    shutouts = 0
    for g in goals:
        if g >= hat:
            hats += 1
        if g == 0:
            shutouts += 1
    rate = hats / len(goals) if len(goals) else 0.0
    return hats, shutouts, rate


# ---------------------------------------------------------------- log analysis (int-coded)

EVENT_NAMES = {0: "login", 1: "view", 2: "error", 3: "logout"}


def _count_codes(log):
    counts = {}
    for code in log[:, 1]:
        name = EVENT_NAMES[int(code)]
        counts[name] = counts.get(name, 0) + 1
    return counts


@prog((LOG,), (LOG2,))
def event_counts_by_name(log):
    counts = _count_codes(log)
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def _sessions(log):
    open_at = {}
    lengths = []
    for t, code, user in log:
        if code == 0:
            open_at[int(user)] = int(t)
        elif code == 3 and int(user) in open_at:
            lengths.append(int(t) - open_at.pop(int(user)))
    return lengths, sorted(open_at)


@prog((LOG,), (LOG2,))
def session_lengths(log):
    lengths, still_open = _sessions(log)
    avg = sum(lengths) / len(lengths) if lengths else None
    return lengths, still_open, avg


@prog((LOG, 2), (LOG2, 1))
def users_with_many_errors(log, k):
    errs = Counter()
    for row in log:
        if row[1] == 2:
            errs[int(row[2])] += 1
    return [u for u, c in errs.most_common() if c >= k]


@prog((LOG, 3), (LOG2, 5))
def error_bursts_window(log, window):
    times = log[log[:, 1] == 2, 0]
    bursts = 0
    q = deque()
    for t in times:
        q.append(t)
        while q and q[0] < t - window:
            q.popleft()
        if len(q) >= 2:
            bursts += 1
    return bursts


@prog((LOG,), (LOG2,))
def first_error_per_user(log):
    first = {}
    for t, code, user in log.tolist():
        if code == 2 and user not in first:
            first[user] = t
    return first


def _transitions(codes):
    trans = defaultdict(int)
    for a, b in zip(codes[:-1], codes[1:]):
        trans[(int(a), int(b))] += 1
    return trans


@prog((LOG,), (LOG2,))
def event_transition_counts(log):
    trans = _transitions(log[:, 1])
    top = max(trans.items(), key=lambda kv: kv[1])
    return dict(trans), top


@prog((LOG, 5), (LOG2, 10))
def events_per_bucket(log, width):
    buckets = log[:, 0] // width
    n = int(buckets.max()) + 1
    counts = np.zeros(n, dtype=np.int64)
    np.add.at(counts, buckets, 1)
    busiest = int(np.argmax(counts))
    return counts, busiest


@prog((LOG,), (LOG2,))
def log_report_lines(log):
    lines = []
    for t, code, user in log:
        if code == 2:
            line = f"[{int(t):04d}] user {int(user)}: {EVENT_NAMES[int(code)].upper()}"
            print(line)
            lines.append(line)
    return "\n".join(lines)


@prog((LOG,), (LOG2,))
def gaps_between_events(log):
    t = log[:, 0]
    gaps = np.diff(t)
    if gaps.size == 0:
        return 0, 0.0
    big = int(np.argmax(gaps))
    return int(t[big]), float(gaps.mean())


def _parse_line(row):
    t, code, user = (int(v) for v in row)
    if code not in EVENT_NAMES:
        raise ValueError(f"unknown code {code}")
    return t, EVENT_NAMES[code], user


@prog((LOG,), (np.array([[1, 0, 1], [2, 7, 1], [3, 3, 1]]),))
def parse_log_skip_bad(log):
    parsed, bad = [], 0
    for row in log:
        try:
            parsed.append(_parse_line(row))
        except ValueError:
            bad += 1
    return len(parsed), bad, parsed[-1] if parsed else None


@prog((LOG,), (LOG2,))
def active_users_set_ops(log):
    logged_in = set()
    had_error = set()
    for row in log:
        if row[1] == 0:
            logged_in.add(int(row[2]))
        if row[1] == 2:
            had_error.add(int(row[2]))
    return sorted(logged_in - had_error), sorted(logged_in & had_error)


@prog((LOG,), (LOG2,))
def views_before_error(log):
    views = 0
    for row in log:
        if row[1] == 1:
            views += 1
        elif row[1] == 2:
            break
    else:
        return -1
    return views


# ---------------------------------------------------------------- sensor data cleaning


def _fill_nan_forward(x):
    out = x.copy()
    last = None
    for i in range(out.shape[0]):
        if np.isnan(out[i]):
            if last is not None:
                out[i] = last
        else:
            last = out[i]
    return out


@prog((SENSOR,), (SENSOR2,), (SENSOR3,))
def forward_fill_nans(x):
    return _fill_nan_forward(x)


def _bounds(lo, hi):
    def check(v):
        return lo <= v <= hi

    return check


@prog((SENSOR, -10.0, 50.0), (SENSOR2, 0.0, 1.0))
def range_check_closure(x, lo, hi):
    ok = _bounds(lo, hi)
    bad = [i for i, v in enumerate(x) if not np.isnan(v) and not ok(v)]
    return bad


@prog((SENSOR,), (SENSOR2,), (SENSOR3,))
def nan_stats_report(x):
    mask = np.isnan(x)
    n_nan = int(mask.sum())
    if n_nan == x.shape[0]:
        return "all missing"
    valid = x[~mask]
    return f"{n_nan} missing, mean {valid.mean():.2f}, range {valid.min():.1f}..{valid.max():.1f}"


def _median_clean(x, k):
    out = x.copy()
    n = x.shape[0]
    for i in range(n):
        lo, hi = max(0, i - k), min(n, i + k + 1)
        w = x[lo:hi]
        w = w[~np.isnan(w)]
        if w.size and abs(x[i] - np.median(w)) > 10:
            out[i] = np.median(w)
    return out


@prog((SENSOR, 2), (SENSOR2, 1))
def median_spike_replace(x, k):
    return _median_clean(x, k)


@prog((SENSOR,), (SENSOR2,), (SENSOR3,))
def interpolate_gaps(x):
    idx = np.arange(x.shape[0])
    good = ~np.isnan(x)
    if not good.any():
        return x.copy()
    return np.interp(idx, idx[good], x[good])


@prog((SENSOR,), (SENSOR2,))
def missing_runs(x):
    runs = []
    start = None
    for i, v in enumerate(x):
        if np.isnan(v):
            if start is None:
                start = i
        elif start is not None:
            runs.append((start, i - start))
            start = None
    if start is not None:
        runs.append((start, len(x) - start))
    return runs


class Debouncer:
    def __init__(self, need):
        self.need = need
        self.count = 0
        self.state = False

    def feed(self, raw):
        if raw != self.state:
            self.count += 1
            if self.count >= self.need:
                self.state = raw
                self.count = 0
        else:
            self.count = 0
        return self.state


@prog((np.array([0, 1, 0, 1, 1, 1, 0, 0, 1, 0, 0, 0]), 2), (np.array([1, 1]), 3))
def debounce_switch_class(raw, need):
    d = Debouncer(need)
    out = []
    for r in raw:
        out.append(d.feed(bool(r)))
    return out


@prog((SENSOR, 0.3), (SENSOR2, 0.5))
def exp_smooth_skip_nan(x, alpha):
    s = None
    out = []
    for v in x:
        if not np.isnan(v):
            s = v if s is None else alpha * v + (1 - alpha) * s
        out.append(s if s is not None else float("nan"))
    return np.array(out, dtype=float)


@prog(
    (np.array([[20.0, 20.5, 21.0], [np.nan, 19.8, 20.1], [35.0, 20.2, 20.0]]),),
    (np.array([[1.0, 1.0]]),),
)
def sensor_vote_median(readings):
    fused = []
    for row in readings:
        vals = sorted(v for v in row if not np.isnan(v))
        fused.append(vals[len(vals) // 2])
    return np.array(fused)


@prog((SENSOR,), (SENSOR2,))
def rate_of_change_flags(x):
    clean = _fill_nan_forward(x)
    d = np.diff(clean)
    flags = np.where(np.abs(d) > 5, 1, 0)
    first = int(np.argmax(flags)) if flags.any() else -1
    return flags, first


def _calibrate(x, offset, gain):
    return (x - offset) * gain


@prog((SENSOR, {"offset": 0.5, "gain": 1.1}), (SENSOR2, {"gain": 2.0}))
def calibrate_with_config(x, cfg):
    offset = cfg.get("offset", 0.0)
    gain = cfg["gain"]
    y = _calibrate(x, offset, gain)
    return np.round(np.nan_to_num(y, nan=-1.0), 3)


@prog((SENSOR, 3), (SENSOR2, 5))
def rolling_mean_valid_only(x, w):
    out = np.full(x.shape[0], np.nan)
    for i in range(w - 1, x.shape[0]):
        win = x[i - w + 1 : i + 1]
        valid = win[~np.isnan(win)]
        if valid.size >= 2:
            out[i] = valid.mean()
    return out


# ---------------------------------------------------------------- queues and banks (seeded rng)


def _arrivals(rng, n, rate):
    t = 0.0
    times = []
    for _ in range(n):
        t += rng.exponential(1.0 / rate)
        times.append(t)
    return times


def _serve(times, rng, mean_service):
    free_at = 0.0
    waits = []
    for t in times:
        start = max(t, free_at)
        waits.append(start - t)
        free_at = start + rng.exponential(mean_service)
    return waits, free_at


@prog((8, 1.0, 0.8, 0), (0, 1.0, 0.8, 1))
def single_teller_waits(n, rate, service, seed):
    rng = np.random.default_rng(seed)
    times = _arrivals(rng, n, rate)
    waits, end = _serve(times, rng, service)
    if not waits:
        return 0.0, 0.0
    return round(max(waits), 6), round(end, 6)


class Bank:
    def __init__(self, tellers):
        self.free = [0.0] * tellers
        self.served = [0] * tellers

    def assign(self, t, service):
        k = min(range(len(self.free)), key=lambda i: self.free[i])
        start = max(t, self.free[k])
        self.free[k] = start + service
        self.served[k] += 1
        return start - t


@prog((10, 2, 3), (5, 1, 4))
def bank_class_multi_teller(n, tellers, seed):
    rng = np.random.default_rng(seed)
    bank = Bank(tellers)
    t = 0.0
    total_wait = 0.0
    for _ in range(n):
        t += rng.uniform(0.0, 1.0)
        total_wait += bank.assign(t, rng.uniform(0.5, 2.0))
    return round(total_wait, 6), bank.served


@prog((20, 5), (3, 6))
def queue_length_deque(steps, seed):
    rng = np.random.default_rng(seed)
    q = deque()
    lengths = []
    for step in range(steps):
        if rng.random() < 0.6:
            q.append(step)
        if q and rng.random() < 0.5:
            q.popleft()
        lengths.append(len(q))
    return max(lengths), lengths[-1], list(q)


@prog((np.array([100.0, -30.0, -80.0, 50.0, -200.0, 10.0]), 0.0), (np.array([-5.0]), 10.0))
def account_overdraft_log(tx, start):
    balance = start
    log = []
    for i, amt in enumerate(tx):
        if balance + amt < 0:
            log.append(f"tx {i} declined ({amt:+.2f})")
            continue
        balance += amt
    return balance, log


@dataclass
class Account:
    owner: str
    balance: float = 0.0
    history: list = field(default_factory=list)

    def deposit(self, amt):
        self.balance += amt
        self.history.append(amt)

    def withdraw(self, amt):
        if amt > self.balance:
            raise ValueError("insufficient funds")
        self.balance -= amt
        self.history.append(-amt)


@prog((np.array([50.0, 20.0, -30.0, -60.0, 15.0]),), (np.array([-1.0]),))
def dataclass_account_try(tx):
    acc = Account("ann")
    failed = 0
    for amt in tx:
        try:
            if amt >= 0:
                acc.deposit(float(amt))
            else:
                acc.withdraw(float(-amt))
        except ValueError:
            failed += 1
    return acc.balance, len(acc.history), failed


@prog((12, 7), (1, 8))
def supermarket_shortest_line(n, seed):
    rng = np.random.default_rng(seed)
    lines = [0, 0, 0]
    choices = []
    for _ in range(n):
        k = lines.index(min(lines))
        lines[k] += int(rng.integers(1, 5))
        choices.append(k)
        for j in range(3):
            lines[j] = max(0, lines[j] - 1)
    return choices, lines


@prog((30, 9), (2, 10))
def atm_cash_simulation(days, seed):
    rng = np.random.default_rng(seed)
    cash = 1000
    refills = []
    for d in range(days):
        demand = int(rng.poisson(120))
        if demand > cash:
            refills.append(d)
            cash = 1000
        cash -= demand
    return cash, refills


def _priority_arrivals(rng, n):
    return [(int(rng.integers(0, 3)), i) for i in range(n)]


@prog((8, 11), (0, 12))
def priority_service_heap(n, seed):
    rng = np.random.default_rng(seed)
    heap = []
    for p, i in _priority_arrivals(rng, n):
        heapq.heappush(heap, (p, i))
    order = []
    while heap:
        order.append(heapq.heappop(heap)[1])
    return order


@prog((200, 13), (1, 14))
def monte_carlo_wait_prob(n, seed):
    rng = np.random.default_rng(seed)
    inter = rng.exponential(1.0, n)
    serv = rng.exponential(0.8, n)
    free = 0.0
    waited = 0
    t = 0.0
    for a, s in zip(inter, serv):
        t += a
        if free > t:
            waited += 1
        free = max(free, t) + s
    return waited / n


# ---------------------------------------------------------------- graph search on adjacency


def _neighbors(adj, u):
    return [int(v) for v in np.nonzero(adj[u])[0]]


def _bfs(adj, s):
    dist = {s: 0}
    q = deque([s])
    while q:
        u = q.popleft()
        for v in _neighbors(adj, u):
            if v not in dist:
                dist[v] = dist[u] + 1
                q.append(v)
    return dist


@prog((ADJ, 0), (ADJ2, 2))
def bfs_hop_distances(adj, s):
    dist = _bfs(adj, s)
    return [dist.get(v, -1) for v in range(adj.shape[0])]


def _dfs_order(adj, s):
    seen = set()
    order = []
    stack = [s]
    while stack:
        u = stack.pop()
        if u in seen:
            continue
        seen.add(u)
        order.append(u)
        for v in reversed(_neighbors(adj, u)):
            if v not in seen:
                stack.append(v)
    return order


@prog((ADJ, 0), (ADJ2, 1))
def dfs_iterative_order(adj, s):
    return _dfs_order(adj, s)


def _dijkstra(adj, s):
    n = adj.shape[0]
    dist = [math.inf] * n
    prev = [-1] * n
    dist[s] = 0
    heap = [(0, s)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v in range(n):
            w = adj[u, v]
            if w > 0 and d + w < dist[v]:
                dist[v] = d + w
                prev[v] = u
                heapq.heappush(heap, (dist[v], v))
    return dist, prev


def _path(prev, t):
    path = []
    while t != -1:
        path.append(t)
        t = prev[t]
    return path[::-1]


@prog((ADJ, 0, 4), (ADJ2, 0, 2))
def dijkstra_path_helpers(adj, s, t):
    dist, prev = _dijkstra(adj, s)
    if dist[t] == math.inf:
        return None
    return int(dist[t]), _path(prev, t)


@prog((ADJ, 0), (ADJ2, 0))
def dijkstra_array_no_heap(adj, s):
    n = adj.shape[0]
    dist = np.full(n, np.inf)
    dist[s] = 0.0
    done = np.zeros(n, dtype=bool)
    for _ in range(n):
        cand = np.where(done, np.inf, dist)
        u = int(np.argmin(cand))
        if np.isinf(cand[u]):
            break
        done[u] = True
        for v in range(n):
            if adj[u, v] > 0 and dist[u] + adj[u, v] < dist[v]:
                dist[v] = dist[u] + adj[u, v]
    return dist


def _indegrees(dag):
    return {v: int(dag[:, v].sum()) for v in range(dag.shape[0])}


@prog((DAG,), (CYC,))
def topo_sort_kahn_dict(dag):
    indeg = _indegrees(dag)
    ready = deque(sorted(v for v, d in indeg.items() if d == 0))
    order = []
    while ready:
        u = ready.popleft()
        order.append(u)
        for v in _neighbors(dag, u):
            indeg[v] -= 1
            if indeg[v] == 0:
                ready.append(v)
    if len(order) < dag.shape[0]:
        return "cycle"
    return order


def _topo_dfs(dag):
    n = dag.shape[0]
    state = [0] * n
    out = []

    def visit(u):
        if state[u] == 1:
            raise ValueError("cycle")
        if state[u] == 2:
            return
        state[u] = 1
        for v in range(n):
            if dag[u, v]:
                visit(v)
        state[u] = 2
        out.append(u)

    for u in range(n):
        visit(u)
    return out[::-1]


@prog((DAG,), (CYC,))
def topo_sort_recursive_try(dag):
    try:
        return _topo_dfs(dag)
    except ValueError as e:
        return str(e)


@prog((ADJ,), (ADJ2,), (np.zeros((3, 3), dtype=np.int64),))
def component_labels_union(adj):
    n = adj.shape[0]
    label = list(range(n))

    def root(x):
        while label[x] != x:
            x = label[x]
        return x

    for i in range(n):
        for j in range(i + 1, n):
            if adj[i, j]:
                ri, rj = root(i), root(j)
                if ri != rj:
                    label[rj] = ri
    roots = [root(i) for i in range(n)]
    return len(set(roots)), roots


@prog((ADJ,), (ADJ2,))
def degree_centrality_top(adj):
    deg = (adj > 0).sum(axis=1)
    order = np.argsort(-deg, kind="stable")
    return order[:3], deg[order[:3]]


@prog((ADJ, 0, 4), (ADJ2, 0, 2))
def bfs_shortest_path_parents(adj, s, t):
    parent = {s: None}
    q = deque([s])
    while q:
        u = q.popleft()
        if u == t:
            break
        for v in _neighbors(adj, u):
            if v not in parent:
                parent[v] = u
                q.append(v)
    if t not in parent:
        return []
    path = [t]
    while parent[path[-1]] is not None:
        path.append(parent[path[-1]])
    return path[::-1]


@prog((ADJ,), (ADJ2,))
def mst_prim_arrays(adj):
    n = adj.shape[0]
    w = np.where(adj > 0, adj, np.inf).astype(float)
    in_tree = np.zeros(n, dtype=bool)
    in_tree[0] = True
    best = w[0].copy()
    total = 0.0
    edges = 0
    for _ in range(n - 1):
        cand = np.where(in_tree, np.inf, best)
        v = int(np.argmin(cand))
        if np.isinf(cand[v]):
            break
        total += cand[v]
        edges += 1
        in_tree[v] = True
        best = np.minimum(best, w[v])
    return total, edges


@prog((ADJ,), (CYC,))
def triangle_count_matrix(adj):
    a = (adj > 0).astype(np.int64)
    a3 = a @ a @ a
    return int(np.trace(a3)) // 6, [int(a3[i, i]) // 2 for i in range(a.shape[0])]


@prog((DAG,), (np.zeros((2, 2), dtype=np.int64),))
def longest_path_dag_memo(dag):
    n = dag.shape[0]
    memo = {}

    def longest(u):
        if u in memo:
            return memo[u]
        best = 0
        for v in _neighbors(dag, u):
            best = max(best, 1 + longest(v))
        memo[u] = best
        return best

    return max(longest(u) for u in range(n))


@prog((ADJ,), (ADJ2,))
def floyd_warshall_numpy(adj):
    n = adj.shape[0]
    d = np.where(adj > 0, adj, np.inf).astype(float)
    np.fill_diagonal(d, 0.0)
    for k in range(n):
        d = np.minimum(d, d[:, k : k + 1] + d[k : k + 1, :])
    reach = np.isfinite(d).sum(axis=1)
    return d, reach


@prog((ADJ,), (CYC,))
def is_bipartite_colors(adj):
    n = adj.shape[0]
    color = [-1] * n
    for s in range(n):
        if color[s] != -1:
            continue
        color[s] = 0
        q = deque([s])
        while q:
            u = q.popleft()
            for v in range(n):
                if adj[u, v] or adj[v, u]:
                    if color[v] == -1:
                        color[v] = 1 - color[u]
                        q.append(v)
                    elif color[v] == color[u]:
                        return False, color
    return True, color


# ---------------------------------------------------------------- scheduling


def _edf_order(jobs):
    return sorted(range(jobs.shape[0]), key=lambda j: (jobs[j, 2], jobs[j, 0]))


@prog((JOBS,), (JOBS2,))
def earliest_deadline_lateness(jobs):
    t = 0
    late = {}
    for j in _edf_order(jobs):
        t = max(t, int(jobs[j, 0])) + int(jobs[j, 1])
        if t > jobs[j, 2]:
            late[j] = t - int(jobs[j, 2])
    return t, late


@prog((JOBS,), (JOBS2,))
def weighted_shortest_first(jobs):
    ratio = jobs[:, 1] / jobs[:, 3]
    order = np.argsort(ratio, kind="stable")
    finish = np.cumsum(jobs[order, 1])
    cost = int(np.sum(finish * jobs[order, 3]))
    return order, cost


def _next_job(ready, jobs):
    if not ready:
        return None
    return min(ready, key=lambda j: jobs[j, 1])


@prog((JOBS,), (JOBS2,))
def sjf_with_release_times(jobs):
    n = jobs.shape[0]
    t = 0
    done = []
    pending = set(range(n))
    while pending:
        ready = [j for j in pending if jobs[j, 0] <= t]
        j = _next_job(ready, jobs)
        if j is None:
            t = int(min(jobs[k, 0] for k in pending))
            continue
        t += int(jobs[j, 1])
        pending.remove(j)
        done.append((j, t))
    return done


@prog((np.array([5, 3, 8, 2, 7, 4]), 2), (np.array([9]), 3))
def round_robin_quantum(bursts, quantum):
    q = deque(enumerate(bursts.tolist()))
    t = 0
    finish = {}
    while q:
        i, left = q.popleft()
        run = min(quantum, left)
        t += run
        if left > run:
            q.append((i, left - run))
        else:
            finish[i] = t
    return [finish[i] for i in range(len(bursts))]


@prog(
    (np.array([[9, 12], [10, 11], [11, 14], [13, 15], [15, 16]]),),
    (np.zeros((0, 2), dtype=np.int64),),
)
def rooms_needed_heap(meetings):
    order = sorted(meetings.tolist())
    ends = []
    rooms = 0
    for s, e in order:
        while ends and ends[0] <= s:
            heapq.heappop(ends)
        heapq.heappush(ends, e)
        rooms = max(rooms, len(ends))
    return rooms


@prog((np.array([4, 7, 2, 5, 3, 6]), 3), (np.array([1]), 2))
def lpt_machine_assignment(tasks, m):
    loads = [(0, k) for k in range(m)]
    assign = {}
    for i in sorted(range(len(tasks)), key=lambda i: -tasks[i]):
        load, k = heapq.heappop(loads)
        assign[i] = k
        heapq.heappush(loads, (load + int(tasks[i]), k))
    return max(l for l, _ in loads), [assign[i] for i in range(len(tasks))]


class Calendar:
    def __init__(self):
        self.booked = []

    def book(self, s, e):
        for bs, be in self.booked:
            if s < be and bs < e:
                return False
        self.booked.append((s, e))
        return True


@prog((np.array([[10, 20], [15, 25], [20, 30], [5, 10], [25, 27]]),), (np.array([[1, 2]]),))
def calendar_bookings_class(reqs):
    cal = Calendar()
    res = [cal.book(int(s), int(e)) for s, e in reqs]
    return res, sorted(cal.booked)


@prog((JOBS,), (JOBS2,))
def max_jobs_by_deadline(jobs):
    order = np.argsort(jobs[:, 2], kind="stable")
    t = 0
    chosen = []
    durations = []
    for j in order:
        heapq.heappush(durations, -int(jobs[j, 1]))
        chosen.append(int(j))
        t += int(jobs[j, 1])
        if t > jobs[j, 2]:
            t += heapq.heappop(durations)
            chosen.pop()
    return len(durations), t


@prog((np.array([3, 1, 4, 1, 5]), np.array([2, 7, 1, 8, 2])), (np.array([2]), np.array([3])))
def johnson_two_machines(a, b):
    first = sorted([i for i in range(len(a)) if a[i] <= b[i]], key=lambda i: a[i])
    last = sorted([i for i in range(len(a)) if a[i] > b[i]], key=lambda i: -b[i])
    order = first + last
    t1 = t2 = 0
    for i in order:
        t1 += int(a[i])
        t2 = max(t2, t1) + int(b[i])
    return order, t2


@prog(
    (np.array([[0, 6], [1, 4], [3, 5], [3, 8], [4, 7], [5, 9], [6, 10], [8, 11]]),),
    (np.array([[0, 1]]),),
)
def interval_scheduling_greedy(iv):
    order = np.argsort(iv[:, 1], kind="stable")
    end = -1
    picked = []
    for k in order:
        if iv[k, 0] >= end:
            picked.append(int(k))
            end = iv[k, 1]
    return picked


# ---------------------------------------------------------------- matrix algorithms by hand


def _lu(A):
    n = A.shape[0]
    L = np.eye(n)
    U = A.astype(float).copy()
    for k in range(n):
        if abs(U[k, k]) < 1e-12:
            raise ZeroDivisionError("zero pivot")
        for i in range(k + 1, n):
            L[i, k] = U[i, k] / U[k, k]
            U[i, k:] -= L[i, k] * U[k, k:]
    return L, U


def _forward(L, b):
    y = np.zeros_like(b, dtype=float)
    for i in range(b.shape[0]):
        y[i] = b[i] - L[i, :i] @ y[:i]
    return y


def _backward(U, y):
    n = y.shape[0]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (y[i] - U[i, i + 1 :] @ x[i + 1 :]) / U[i, i]
    return x


@prog((A3, B3), (SING, np.array([1.0, 2.0])))
def lu_solve_helpers(A, b):
    try:
        L, U = _lu(A)
    except ZeroDivisionError:
        return None
    return _backward(U, _forward(L, b))


@prog((A3, 50), (np.diag([3.0, 1.0]), 5))
def power_iteration_converge(A, iters):
    v = np.ones(A.shape[0]) / np.sqrt(A.shape[0])
    lam = 0.0
    for k in range(iters):
        w = A @ v
        new = float(v @ w)
        v = w / np.linalg.norm(w)
        if abs(new - lam) < 1e-10:
            return round(new, 8), k
        lam = new
    return round(lam, 8), iters


def _gs_step(A, b, x):
    x = x.copy()
    for i in range(A.shape[0]):
        s = A[i] @ x - A[i, i] * x[i]
        x[i] = (b[i] - s) / A[i, i]
    return x


@prog((A3, B3, 1e-10), (A3, B3, 1.0))
def gauss_seidel_until(A, b, tol):
    x = np.zeros_like(b)
    for it in range(100):
        nx = _gs_step(A, b, x)
        if np.max(np.abs(nx - x)) < tol:
            return nx, it
        x = nx
    return x, -1


@prog((A3,), (SING,), (np.array([[0.0, 1.0], [1.0, 0.0]]),))
def det_partial_pivot(A):
    M = A.astype(float).copy()
    n = M.shape[0]
    det = 1.0
    for k in range(n):
        p = k + int(np.argmax(np.abs(M[k:, k])))
        if M[p, k] == 0:
            return 0.0
        if p != k:
            M[[k, p]] = M[[p, k]]
            det = -det
        det *= M[k, k]
        M[k + 1 :] -= np.outer(M[k + 1 :, k] / M[k, k], M[k])
    return round(det, 9)


@prog((A3,), (np.array([[2.0, 1.0], [1.0, 2.0]]),))
def jacobi_eigen_rotations(A):
    M = A.copy()
    n = M.shape[0]
    for sweep in range(20):
        off = np.sum(M**2) - np.sum(np.diag(M) ** 2)
        if off < 1e-18:
            break
        for p in range(n):
            for q in range(p + 1, n):
                if abs(M[p, q]) < 1e-15:
                    continue
                theta = 0.5 * math.atan2(2 * M[p, q], M[q, q] - M[p, p])
                c, s = math.cos(theta), math.sin(theta)
                J = np.eye(n)
                J[p, p] = c
                J[q, q] = c
                J[p, q] = s
                J[q, p] = -s
                M = J.T @ M @ J
    return np.sort(np.round(np.diag(M), 8))


def _gram_schmidt(A):
    Q = np.zeros_like(A, dtype=float)
    R = np.zeros((A.shape[1], A.shape[1]))
    for j in range(A.shape[1]):
        v = A[:, j].astype(float)
        for i in range(j):
            R[i, j] = Q[:, i] @ A[:, j]
            v = v - R[i, j] * Q[:, i]
        R[j, j] = np.linalg.norm(v)
        Q[:, j] = v / R[j, j]
    return Q, R


@prog((A3,), (np.array([[1.0, 1.0], [0.0, 1.0], [1.0, 0.0]]),))
def qr_least_squares(A):
    Q, R = _gram_schmidt(A)
    b = np.arange(1.0, A.shape[0] + 1)
    x = _backward(R, Q.T @ b)
    return np.round(x, 8)


@prog((np.array([[4.0, 2.0], [2.0, 3.0]]),), (np.array([[1.0, 2.0], [2.0, 1.0]]),))
def cholesky_or_not_pd(A):
    n = A.shape[0]
    L = np.zeros_like(A)
    for i in range(n):
        for j in range(i + 1):
            s = A[i, j] - L[i, :j] @ L[j, :j]
            if i == j:
                if s <= 0:
                    return "not positive definite"
                L[i, i] = math.sqrt(s)
            else:
                L[i, j] = s / L[j, j]
    return L


@prog((A3,), (SING,))
def inverse_gauss_jordan_flag(A):
    n = A.shape[0]
    M = np.hstack([A.astype(float), np.eye(n)])
    for c in range(n):
        p = c + int(np.argmax(np.abs(M[c:, c])))
        if abs(M[p, c]) < 1e-12:
            return None, False
        M[[c, p]] = M[[p, c]]
        M[c] /= M[c, c]
        for r in range(n):
            if r != c:
                M[r] -= M[r, c] * M[c]
    return M[:, n:], True


@prog((np.arange(12.0).reshape(3, 4),), (np.eye(2),))
def matmul_triple_loop(A):
    B = A.T
    n, m = A.shape
    C = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            for k in range(m):
                C[i][j] += A[i, k] * B[k, j]
    return np.array(C)


@prog((np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]]),), (A3,))
def is_tridiagonal_then_solve(A):
    n = A.shape[0]
    for i in range(n):
        for j in range(n):
            if abs(i - j) > 1 and A[i, j] != 0:
                return "not tridiagonal"
    a = [A[i, i - 1] for i in range(1, n)]
    b = [A[i, i] for i in range(n)]
    c = [A[i, i + 1] for i in range(n - 1)]
    d = list(range(1, n + 1))
    for i in range(1, n):
        w = a[i - 1] / b[i - 1]
        b[i] = b[i] - w * c[i - 1]
        d[i] = d[i] - w * d[i - 1]
    x = [0.0] * n
    x[-1] = d[-1] / b[-1]
    for i in range(n - 2, -1, -1):
        x[i] = (d[i] - c[i] * x[i + 1]) / b[i]
    return [round(float(v), 9) for v in x]


@prog((A3,), (SING,))
def rank_by_elimination(A):
    M = A.astype(float).copy()
    rows, cols = M.shape
    rank = 0
    for c in range(cols):
        pivot = None
        for r in range(rank, rows):
            if abs(M[r, c]) > 1e-10:
                pivot = r
                break
        if pivot is None:
            continue
        M[[rank, pivot]] = M[[pivot, rank]]
        for r in range(rows):
            if r != rank:
                M[r] -= M[r, c] / M[rank, c] * M[rank]
        rank += 1
    return rank


# ---------------------------------------------------------------- finance


def _payment(principal, rate, n):
    if rate == 0:
        return principal / n
    r = rate / 12
    return principal * r / (1 - (1 + r) ** -n)


def _schedule(principal, rate, n):
    pay = _payment(principal, rate, n)
    rows = []
    bal = principal
    for m in range(1, n + 1):
        interest = bal * rate / 12
        bal = bal + interest - pay
        rows.append((m, round(interest, 2), round(max(bal, 0.0), 2)))
    return pay, rows


@prog((10000.0, 0.06, 12), (1200.0, 0.0, 6))
def loan_schedule_tuples(principal, rate, n):
    pay, rows = _schedule(principal, rate, n)
    total_interest = sum(r[1] for r in rows)
    return round(pay, 2), rows[-1], round(total_interest, 2)


def _npv(rate, cash):
    return sum(c / (1 + rate) ** t for t, c in enumerate(cash))


@prog((CASH,), (np.array([-100.0, -10.0]),))
def irr_bisection_helpers(cash):
    lo, hi = -0.99, 1.0
    if _npv(lo, cash) * _npv(hi, cash) > 0:
        return None
    for _ in range(100):
        mid = (lo + hi) / 2
        if _npv(lo, cash) * _npv(mid, cash) <= 0:
            hi = mid
        else:
            lo = mid
    return round(mid, 6)


@prog((RET, np.array([0.5, 0.3, 0.2])), (RET[:1], np.array([1.0, 0.0, 0.0])))
def portfolio_stats(ret, w):
    port = ret @ w
    growth = np.cumprod(1 + port)
    peak = np.maximum.accumulate(growth)
    dd = (growth - peak) / peak
    return float(growth[-1]), float(dd.min()), float(port.std())


@prog((RET, 0.1), (RET, 0.5))
def rebalance_when_drift(ret, band):
    target = np.array([1 / 3, 1 / 3, 1 / 3])
    w = target.copy()
    rebalances = []
    for t in range(ret.shape[0]):
        w = w * (1 + ret[t])
        w = w / w.sum()
        if np.max(np.abs(w - target)) > band * target.min():
            rebalances.append(t)
            w = target.copy()
    return rebalances, np.round(w, 6)


@dataclass
class Lot:
    qty: int
    price: float


@prog(
    (np.array([[1, 10, 100], [1, 5, 110], [-1, 12, 120], [1, 4, 90], [-1, 7, 130]]),),
    (np.array([[-1, 1, 10]]),),
)
def fifo_realized_gains(trades):
    lots = deque()
    gain = 0.0
    for side, qty, price in trades:
        qty = int(qty)
        if side > 0:
            lots.append(Lot(qty, float(price)))
            continue
        while qty > 0:
            if not lots:
                raise ValueError("selling more than held")
            lot = lots[0]
            take = min(qty, lot.qty)
            gain += take * (float(price) - lot.price)
            lot.qty -= take
            qty -= take
            if lot.qty == 0:
                lots.popleft()
    return gain, sum(l.qty for l in lots)


@prog((np.array([100.0, 102.0, 101.0, 105.0, 103.0, 108.0, 107.0]), 3), (np.array([5.0, 5.0]), 3))
def sma_crossover_trades(prices, w):
    trades = []
    holding = False
    for t in range(w, prices.shape[0]):
        sma = prices[t - w : t].mean()
        if prices[t] > sma and not holding:
            trades.append(("buy", t))
            holding = True
        elif prices[t] < sma and holding:
            trades.append(("sell", t))
            holding = False
    return trades


def _tax(income, brackets):
    tax = 0.0
    prev = 0.0
    for limit, rate in brackets:
        if income <= prev:
            break
        tax += (min(income, limit) - prev) * rate
        prev = limit
    return tax


@prog((np.array([8000.0, 30000.0, 95000.0, 250000.0]),), (E,))
def tax_for_each_income(incomes):
    brackets = [(10000, 0.0), (40000, 0.1), (100000, 0.2), (math.inf, 0.35)]
    return {int(i): round(_tax(i, brackets), 2) for i in incomes}


@prog((1000.0, [0.05, 0.03, -0.02, 0.04], 100.0), (0.0, [], 50.0))
def savings_with_contributions(start, rates, monthly):
    bal = start
    history = []
    for year, r in enumerate(rates, 1):
        bal = bal * (1 + r) + 12 * monthly
        history.append(f"year {year}: {bal:,.2f}")
    return round(bal, 2), history


@prog((np.array([120.0, 80.0, 45.5, 300.0, 12.0]), np.array([0, 1, 0, 2, 1]), 3), (E, EI, 2))
def expenses_by_category_np(amounts, cats, n):
    sums = np.bincount(cats, weights=amounts, minlength=n)
    share = sums / sums.sum() if sums.sum() > 0 else sums
    top = int(np.argmax(sums))
    return np.round(share, 4), top


@prog((RET,), (RET[:2],))
def sharpe_by_asset(ret):
    mu = ret.mean(axis=0)
    sd = ret.std(axis=0, ddof=1)
    sharpe = np.where(sd > 0, mu / np.where(sd > 0, sd, 1.0), 0.0)
    best = int(np.argmax(sharpe))
    return np.round(sharpe, 6), best


@prog((np.array([0.1, 0.25, 0.5, 1.0, 2.0]), 19.99), (np.array([0.05]), 0.07))
def make_change_greedy(coins, amount):
    cents = round(amount * 100)
    out = {}
    for c in sorted((int(round(v * 100)) for v in coins), reverse=True):
        k, cents = divmod(cents, c)
        if k:
            out[c] = k
    return out, cents


# ---------------------------------------------------------------- text statistics (int-coded)


def _words(text):
    words = []
    cur = []
    for c in text:
        if c == 0:
            if cur:
                words.append(tuple(cur))
                cur = []
        else:
            cur.append(int(c))
    if cur:
        words.append(tuple(cur))
    return words


@prog((TEXT,), (TEXT2,), (EI,))
def word_count_and_longest(text):
    words = _words(text)
    if not words:
        return 0, ()
    return len(words), max(words, key=len)


@prog((TEXT,), (TEXT2,))
def word_frequency_counter(text):
    c = Counter(_words(text))
    return c.most_common(2)


@prog((TEXT,), (TEXT2,))
def letter_histogram_numpy(text):
    letters = text[text > 0]
    hist = np.bincount(letters, minlength=10)
    top = np.argsort(-hist, kind="stable")[:3]
    return hist, top


@prog((TEXT, 2), (TEXT2, 2))
def bigram_counts_dict(text, n):
    grams = {}
    for i in range(len(text) - n + 1):
        g = tuple(int(v) for v in text[i : i + n])
        if 0 in g:
            continue
        grams[g] = grams.get(g, 0) + 1
    return sorted(grams.items(), key=lambda kv: -kv[1])[:3]


@prog((TEXT,), (TEXT2,))
def word_lengths_stats(text):
    lens = [len(w) for w in _words(text)]
    if not lens:
        return None
    return min(lens), max(lens), sum(lens) / len(lens)


def _encode(words):
    vocab = {}
    ids = []
    for w in words:
        if w not in vocab:
            vocab[w] = len(vocab)
        ids.append(vocab[w])
    return vocab, ids


@prog((TEXT,), (TEXT2,))
def build_vocab_ids(text):
    vocab, ids = _encode(_words(text))
    return len(vocab), ids


@prog((TEXT,), (TEXT2,))
def caesar_and_back(text):
    shifted = np.where(text > 0, (text - 1 + 3) % 9 + 1, 0)
    back = np.where(shifted > 0, (shifted - 1 - 3) % 9 + 1, 0)
    return shifted, bool(np.array_equal(back, text))


@prog((TEXT,), (TEXT2,))
def palindromic_words(text):
    return [w for w in _words(text) if w == w[::-1] and len(w) > 1]


@prog((TEXT, 3), (TEXT2, 1))
def wrap_words_to_lines(text, width):
    lines = []
    line = []
    used = 0
    for w in _words(text):
        if line and used + 1 + len(w) > width:
            lines.append(line)
            line, used = [], 0
        used += len(w) + (1 if line else 0)
        line.append(w)
    if line:
        lines.append(line)
    return len(lines), [len(l) for l in lines]


@prog((TEXT,), (TEXT2,))
def type_token_ratio(text):
    words = _words(text)
    if not words:
        return 0.0
    return round(len(set(words)) / len(words), 4)


@prog((TEXT,), (EI,))
def run_length_chars(text):
    out = []
    i = 0
    while i < len(text):
        j = i
        while j < len(text) and text[j] == text[i]:
            j += 1
        out.append((int(text[i]), j - i))
        i = j
    return out


@prog((TEXT, np.array([3, 1])), (TEXT, np.array([7, 7])))
def find_pattern_positions(text, pat):
    m = len(pat)
    hits = []
    for i in range(len(text) - m + 1):
        if np.all(text[i : i + m] == pat):
            hits.append(i)
    return hits


# ---------------------------------------------------------------- geometry


def _cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _hull(points):
    pts = sorted(map(tuple, points.tolist()))
    if len(pts) <= 2:
        return pts
    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and _cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and _cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _area(poly):
    s = 0.0
    for i in range(len(poly)):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % len(poly)]
        s += x1 * y2 - x2 * y1
    return abs(s) / 2


@prog((CLOUD,), (CLOUD[:2],))
def convex_hull_and_area(points):
    hull = _hull(points)
    return len(hull), _area(hull)


@prog((POLY, np.array([[1.0, 1.0], [5.0, 1.0], [2.0, 4.9], [0.0, 0.0]])), (POLY, np.zeros((0, 2))))
def points_inside_polygon(poly, queries):
    inside = []
    n = poly.shape[0]
    for q in queries:
        x, y = q
        c = False
        for i in range(n):
            x1, y1 = poly[i]
            x2, y2 = poly[(i + 1) % n]
            if (y1 > y) != (y2 > y):
                xi = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
                if x < xi:
                    c = not c
        inside.append(c)
    return inside


@prog((POLY,), (POLY[:3],))
def polygon_perimeter_edges(poly):
    nxt = np.roll(poly, -1, axis=0)
    edges = np.linalg.norm(nxt - poly, axis=1)
    longest = int(np.argmax(edges))
    return float(edges.sum()), longest, np.round(edges, 6)


@prog((CLOUD,), (CLOUD[:1],))
def closest_pair_helper(points):
    best = (math.inf, None)
    n = points.shape[0]
    for i, j in itertools.combinations(range(n), 2):
        d = math.dist(points[i], points[j])
        if d < best[0]:
            best = (d, (i, j))
    return best


Point = namedtuple("Point", "x y")


@prog((CLOUD,), (CLOUD[:1],))
def bounding_box_namedtuples(points):
    pts = [Point(float(x), float(y)) for x, y in points]
    lo = Point(min(p.x for p in pts), min(p.y for p in pts))
    hi = Point(max(p.x for p in pts), max(p.y for p in pts))
    return lo, hi, (hi.x - lo.x) * (hi.y - lo.y)


@prog(
    (np.array([[0.0, 0.0, 4.0, 4.0], [0.0, 4.0, 4.0, 0.0], [5.0, 5.0, 6.0, 6.0]]),),
    (np.array([[0.0, 0.0, 1.0, 0.0], [0.0, 1.0, 1.0, 1.0]]),),
)
def segment_intersections(segs):
    def orient(ax, ay, bx, by, cx, cy):
        v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
        return 0 if v == 0 else (1 if v > 0 else -1)

    hits = []
    for i in range(segs.shape[0]):
        for j in range(i + 1, segs.shape[0]):
            a, b = segs[i], segs[j]
            o1 = orient(a[0], a[1], a[2], a[3], b[0], b[1])
            o2 = orient(a[0], a[1], a[2], a[3], b[2], b[3])
            o3 = orient(b[0], b[1], b[2], b[3], a[0], a[1])
            o4 = orient(b[0], b[1], b[2], b[3], a[2], a[3])
            if o1 != o2 and o3 != o4:
                hits.append((i, j))
    return hits


@prog(
    (np.array([[3.0, 4.0, 5.0], [1.0, 1.0, 3.0], [2.0, 2.0, 2.0], [5.0, 12.0, 13.0]]),),
)
def classify_triangles(sides):
    kinds = []
    for a, b, c in sides:
        a, b, c = sorted((a, b, c))
        if a + b <= c:
            kinds.append("invalid")
        elif a == c:
            kinds.append("equilateral")
        elif abs(a * a + b * b - c * c) < 1e-9:
            kinds.append("right")
        else:
            kinds.append("other")
    return Counter(kinds)


@prog((CLOUD, np.array([1.0, 1.0]), 1.0), (CLOUD, np.array([10.0, 10.0]), 0.5))
def points_within_radius_sorted(points, center, r):
    d = np.sqrt(((points - center) ** 2).sum(axis=1))
    idx = np.nonzero(d <= r)[0]
    order = idx[np.argsort(d[idx])]
    return order, np.round(d[order], 6)


@prog((CLOUD, 3), (CLOUD[:2], 2))
def farthest_first_sampling(points, k):
    chosen = [0]
    d = np.linalg.norm(points - points[0], axis=1)
    while len(chosen) < k:
        i = int(np.argmax(d))
        if d[i] == 0:
            break
        chosen.append(i)
        d = np.minimum(d, np.linalg.norm(points - points[i], axis=1))
    return chosen


@prog((POLY,), (np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]),))
def polygon_centroid_and_convex(poly):
    n = poly.shape[0]
    signs = set()
    for i in range(n):
        c = _cross(poly[i], poly[(i + 1) % n], poly[(i + 2) % n])
        if c != 0:
            signs.add(c > 0)
    a = _area([tuple(p) for p in poly])
    return np.round(poly.mean(axis=0), 6), len(signs) == 1, a


# ---------------------------------------------------------------- games


def _lines(board):
    rows = [list(board[i]) for i in range(3)]
    cols = [list(board[:, j]) for j in range(3)]
    diags = [[board[i, i] for i in range(3)], [board[i, 2 - i] for i in range(3)]]
    return rows + cols + diags


def _winner(board):
    for line in _lines(board):
        if line[0] != 0 and line[0] == line[1] == line[2]:
            return int(line[0])
    return 0


@prog((BOARD,), (BOARD2,), (np.zeros((3, 3), dtype=np.int64),))
def tictactoe_winner_helpers(board):
    w = _winner(board)
    if w:
        return f"player {w} wins"
    if np.all(board != 0):
        return "draw"
    return "in progress"


def _best_move(board, player):
    for i in range(3):
        for j in range(3):
            if board[i, j] == 0:
                board[i, j] = player
                won = _winner(board) == player
                board[i, j] = 0
                if won:
                    return i, j
    empty = np.argwhere(board == 0)
    if empty.shape[0] == 0:
        return None
    return tuple(int(v) for v in empty[0])


@prog((BOARD2, 1), (BOARD2, 2), (BOARD, 1))
def tictactoe_winning_move(board, player):
    return _best_move(board.copy(), player)


def _slide_row(row):
    vals = [v for v in row if v != 0]
    out = []
    score = 0
    i = 0
    while i < len(vals):
        if i + 1 < len(vals) and vals[i] == vals[i + 1]:
            out.append(vals[i] * 2)
            score += vals[i] * 2
            i += 2
        else:
            out.append(vals[i])
            i += 1
    return out + [0] * (len(row) - len(out)), score


@prog((TILES, "left"), (TILES, "right"), (np.zeros((2, 2), dtype=np.int64), "left"))
def game2048_move_score(tiles, direction):
    board = tiles if direction == "left" else tiles[:, ::-1]
    rows = []
    total = 0
    for r in board:
        new, s = _slide_row(r)
        rows.append(new)
        total += s
    out = np.array(rows)
    if direction == "right":
        out = out[:, ::-1]
    return out, total, bool(np.any(out != tiles))


@prog((TILES,), (np.array([[2, 4], [4, 2]]),))
def game2048_can_move(tiles):
    if np.any(tiles == 0):
        return True
    if np.any(tiles[:, 1:] == tiles[:, :-1]):
        return True
    return bool(np.any(tiles[1:] == tiles[:-1]))


@prog((6, 3), (1, 4))
def dice_game_rounds(rounds, seed):
    rng = np.random.default_rng(seed)
    score = {"a": 0, "b": 0}
    log = []
    for r in range(rounds):
        a, b = rng.integers(1, 7, size=2)
        if a > b:
            score["a"] += 1
        elif b > a:
            score["b"] += 1
        log.append(f"r{r}: {a}-{b}")
    winner = max(score, key=score.get) if score["a"] != score["b"] else "tie"
    return winner, score, log


@prog(
    (np.array([[5, 3, 0, 0, 7, 0, 0, 0, 0], [6, 0, 0, 1, 9, 5, 0, 0, 0]]),),
    (np.array([[1, 1, 0, 0, 0, 0, 0, 0, 0]]),),
)
def sudoku_rows_valid(rows):
    bad = []
    for r, row in enumerate(rows):
        seen = set()
        for v in row:
            if v == 0:
                continue
            if v in seen:
                bad.append(r)
                break
            seen.add(v)
    return bad


class Snake:
    def __init__(self, n):
        self.n = n
        self.body = deque([(0, 0)])
        self.alive = True

    def step(self, move, grow):
        dr, dc = {0: (0, 1), 1: (1, 0), 2: (0, -1), 3: (-1, 0)}[move]
        r, c = self.body[-1]
        head = (r + dr, c + dc)
        if not (0 <= head[0] < self.n and 0 <= head[1] < self.n) or head in self.body:
            self.alive = False
            return
        self.body.append(head)
        if not grow:
            self.body.popleft()


@prog(
    (np.array([0, 0, 1, 1, 2, 3, 0]), np.array([1, 0, 1, 0, 0, 0, 0]), 4),
    (np.array([3, 0]), np.array([0, 0]), 3),
)
def snake_game_class(moves, grows, n):
    s = Snake(n)
    steps = 0
    for m, g in zip(moves, grows):
        s.step(int(m), bool(g))
        if not s.alive:
            break
        steps += 1
    return steps, s.alive, list(s.body)


@prog((np.array([[0, 1, 0], [1, 1, 0], [0, 0, 1]]),), (np.zeros((2, 2), dtype=np.int64),))
def life_step_neighbors(grid):
    n, m = grid.shape
    new = np.zeros_like(grid)
    for i in range(n):
        for j in range(m):
            live = 0
            for di in (-1, 0, 1):
                for dj in (-1, 0, 1):
                    if (di or dj) and 0 <= i + di < n and 0 <= j + dj < m:
                        live += grid[i + di, j + dj]
            if grid[i, j] and live in (2, 3):
                new[i, j] = 1
            elif not grid[i, j] and live == 3:
                new[i, j] = 1
    return new


@prog((np.array([3, 4, 5]),), (np.array([1, 1]),), (np.array([0]),))
def nim_best_move(heaps):
    x = functools.reduce(lambda a, b: a ^ b, heaps.tolist(), 0)
    if x == 0:
        return None
    for i, h in enumerate(heaps):
        target = int(h) ^ x
        if target < h:
            return i, int(h) - target


@prog((np.array([10, 5, 3, 9, 4]), 5), (np.array([2]), 1))
def card_war_deques(deck, half):
    a = deque(deck[:half].tolist())
    b = deque(deck[half:].tolist())
    rounds = 0
    while a and b and rounds < 50:
        x, y = a.popleft(), b.popleft()
        if x > y:
            a.extend([x, y])
        else:
            b.extend([y, x])
        rounds += 1
    return rounds, len(a), len(b)


@prog((np.array([[0, 0, 1], [0, 1, 0], [0, 0, 0]]), 0, 0), (np.array([[0, 1], [1, 0]]), 0, 0))
def maze_paths_count(grid, r, c):
    n, m = grid.shape

    def count(i, j, seen):
        if i == n - 1 and j == m - 1:
            return 1
        total = 0
        for di, dj in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            a, b = i + di, j + dj
            if 0 <= a < n and 0 <= b < m and grid[a, b] == 0 and (a, b) not in seen:
                total += count(a, b, seen | {(a, b)})
        return total

    return count(r, c, {(r, c)})


# ---------------------------------------------------------------- machine learning by hand


def _predict(w, b, x):
    return 1 if x @ w + b > 0 else 0


@prog((XS, YS, 10), (XS, YS2, 3))
def perceptron_epochs(X, y, epochs):
    w = np.zeros(X.shape[1])
    b = 0.0
    for ep in range(epochs):
        errors = 0
        for xi, yi in zip(X, y):
            p = _predict(w, b, xi)
            if p != yi:
                w = w + (yi - p) * xi
                b = b + (yi - p)
                errors += 1
        if errors == 0:
            return w, b, ep
    return w, b, -1


def _knn(X, y, q, k):
    d = np.sum((X - q) ** 2, axis=1)
    idx = np.argsort(d, kind="stable")[:k]
    votes = Counter(int(v) for v in y[idx])
    return votes.most_common(1)[0][0]


@prog((XS, YS, np.array([[2.0, 2.0], [5.0, 4.0]]), 3), (XS, YS2, np.array([[0.0, 0.0]]), 1))
def knn_predict_helpers(X, y, Q, k):
    return [_knn(X, y, q, k) for q in Q]


def _fit_nb(X, y):
    model = {}
    for c in np.unique(y):
        Xc = X[y == c]
        model[int(c)] = (Xc.mean(axis=0), Xc.var(axis=0) + 1e-3, Xc.shape[0] / X.shape[0])
    return model


def _nb_score(model, x):
    scores = {}
    for c, (mu, var, prior) in model.items():
        ll = -0.5 * np.sum(np.log(2 * np.pi * var) + (x - mu) ** 2 / var)
        scores[c] = ll + np.log(prior)
    return max(scores, key=scores.get)


@prog((XS, YS), (XS, YS2))
def gaussian_naive_bayes(X, y):
    model = _fit_nb(X, y)
    preds = [_nb_score(model, x) for x in X]
    return preds, sum(int(p == t) for p, t in zip(preds, y))


def _stump_error(x, y, thr):
    pred = (x > thr).astype(int)
    return min(np.mean(pred != y), np.mean((1 - pred) != y))


@prog((XS, YS), (XS, YS2))
def decision_stump_search(X, y):
    best = (1.0, -1, 0.0)
    for f in range(X.shape[1]):
        for thr in np.unique(X[:, f]):
            e = _stump_error(X[:, f], y, thr)
            if e < best[0]:
                best = (float(e), f, float(thr))
    return best


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


@prog((XS, YS, 50, 0.1), (XS, YS2, 5, 0.5))
def logistic_regression_epochs(X, y, epochs, lr):
    w = np.zeros(X.shape[1])
    b = 0.0
    losses = []
    for _ in range(epochs):
        p = _sigmoid(X @ w + b)
        losses.append(float(-np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))))
        w -= lr * X.T @ (p - y) / len(y)
        b -= lr * float(np.mean(p - y))
        if len(losses) > 1 and losses[-2] - losses[-1] < 1e-6:
            break
    return np.round(w, 6), round(b, 6), len(losses)


@prog((XS, 2, 5), (XS[:2], 2, 5))
def kmeans_from_first_points(X, k, iters):
    C = X[:k].copy()
    labels = np.zeros(X.shape[0], dtype=np.int64)
    for it in range(iters):
        d = ((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=2)
        new = np.argmin(d, axis=1)
        if it > 0 and np.array_equal(new, labels):
            break
        labels = new
        for j in range(k):
            if np.any(labels == j):
                C[j] = X[labels == j].mean(axis=0)
    return labels, np.round(C, 6)


def _confusion(y, p):
    m = {"tp": 0, "fp": 0, "tn": 0, "fn": 0}
    for a, b in zip(y, p):
        if a == 1 and b == 1:
            m["tp"] += 1
        elif a == 0 and b == 1:
            m["fp"] += 1
        elif a == 0:
            m["tn"] += 1
        else:
            m["fn"] += 1
    return m


def _f1(m):
    if m["tp"] == 0:
        return 0.0
    prec = m["tp"] / (m["tp"] + m["fp"])
    rec = m["tp"] / (m["tp"] + m["fn"])
    return 2 * prec * rec / (prec + rec)


@prog((YS, np.array([0, 1, 1, 1, 0, 0, 1, 0])), (YS2, YS2 * 0))
def confusion_f1_report(y, p):
    m = _confusion(y, p)
    return m, round(_f1(m), 4), f"acc={(m['tp'] + m['tn']) / len(y):.3f}"


@prog(
    (XS, np.array([1.0, 2.0, 3.0, 5.0, 0.5, 3.5, 6.0, 1.0]), 0.01, 200),
    (XS[:1], np.array([1.0]), 0.1, 3),
)
def linear_regression_gd(X, y, lr, epochs):
    Xb = np.hstack([X, np.ones((X.shape[0], 1))])
    w = np.zeros(Xb.shape[1])
    for e in range(epochs):
        grad = 2 * Xb.T @ (Xb @ w - y) / X.shape[0]
        if np.linalg.norm(grad) < 1e-6:
            break
        w = w - lr * grad
    return np.round(w, 5), e


@prog((XS, YS), (XS, YS2))
def standardize_then_centroid_classify(X, y):
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    Z = (X - mu) / np.where(sd > 0, sd, 1.0)
    cents = {c: Z[y == c].mean(axis=0) for c in sorted(set(y.tolist()))}
    preds = []
    for z in Z:
        preds.append(min(cents, key=lambda c: float(np.sum((z - cents[c]) ** 2))))
    return preds


@prog((XS, YS, 3), (XS, YS2, 2))
def cross_validation_folds(X, y, k):
    n = X.shape[0]
    folds = np.array_split(np.arange(n), k)
    accs = []
    for f in folds:
        train = np.setdiff1d(np.arange(n), f)
        majority = int(np.bincount(y[train]).argmax())
        accs.append(float(np.mean(y[f] == majority)))
    return accs, round(sum(accs) / len(accs), 6)


@prog(
    (np.array([0.9, 0.8, 0.7, 0.6, 0.55, 0.4, 0.3, 0.2]), YS),
    (np.array([0.5, 0.5]), np.array([1, 0])),
)
def roc_points_sorted(scores, y):
    order = np.argsort(-scores, kind="stable")
    P = int(y.sum())
    N = len(y) - P
    tp = fp = 0
    pts = [(0.0, 0.0)]
    for i in order:
        if y[i] == 1:
            tp += 1
        else:
            fp += 1
        pts.append((fp / N if N else 0.0, tp / P if P else 0.0))
    auc = 0.0
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        auc += (x1 - x0) * (y0 + y1) / 2
    return round(auc, 6), len(pts)


@prog((XS, YS, 1.0), (XS, YS2, 0.0))
def softmax_scores_two_class(X, y, temp):
    W = np.array([[0.5, -0.5], [-0.2, 0.7]])
    logits = X @ W
    if temp > 0:
        logits = logits / temp
    z = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    pred = p.argmax(axis=1)
    return np.round(p, 6), float(np.mean(pred == y))


# ---------------------------------------------------------------- helpers passing structures around


def _make_counter():
    count = 0

    def hit(v):
        nonlocal count
        if v > 0:
            count += 1
        return count

    return hit


@prog((np.array([1.0, -2.0, 3.0, 0.0, 5.0]),), (E,))
def nonlocal_positive_counter(x):
    hit = _make_counter()
    last = 0
    for v in x:
        last = hit(v)
    return last


@prog((np.array([4, 1, 3, 1, 5, 9, 2, 6]),), (EI,))
def running_max_closure_list(a):
    best = [None]

    def update(v):
        if best[0] is None or v > best[0]:
            best[0] = v
            return True
        return False

    changes = [i for i, v in enumerate(a) if update(int(v))]
    return changes, best[0]


def _group_by_parity(values):
    groups = {"even": [], "odd": []}
    for v in values:
        groups["even" if v % 2 == 0 else "odd"].append(int(v))
    return groups


def _summarize(groups):
    return {k: (len(v), sum(v)) for k, v in groups.items()}


@prog((np.array([3, 8, 5, 2, 7, 10]),), (EI,))
def group_then_summarize(a):
    return _summarize(_group_by_parity(a))


def _split_stats(x, thr):
    lo = x[x < thr]
    hi = x[x >= thr]
    return (lo.size, float(lo.mean()) if lo.size else None), (
        hi.size,
        float(hi.mean()) if hi.size else None,
    )


@prog((np.array([0.2, 1.5, 0.7, 3.0, 2.2]), 1.0), (np.array([5.0, 6.0]), 1.0))
def split_stats_unpack(x, thr):
    (nlo, mlo), (nhi, mhi) = _split_stats(x, thr)
    return f"{nlo} low (mean {mlo}), {nhi} high (mean {mhi})"


def _first_index(a, pred):
    for i, v in enumerate(a):
        if pred(v):
            return i
    return None


@prog((np.array([1, 3, 8, 2, 10]),), (np.array([1, 3]),))
def first_index_predicates(a):
    i = _first_index(a, lambda v: v > 5)
    j = _first_index(a, lambda v: v % 2 == 0)
    return i, j


def _lookup(table, keys, default):
    return [table.get(int(k), default) for k in keys]


@prog((np.array([2, 0, 5, 1]),), (EI,))
def dict_lookup_with_default(codes):
    table = {0: "zero", 1: "one", 2: "two"}
    names = _lookup(table, codes, "?")
    return names, sum(1 for n in names if n == "?")


@prog((np.array([5, 1, 4, 1, 5, 9, 2, 6, 5]),), (np.array([7]),))
def itertools_groupby_sorted(a):
    runs = []
    for k, g in itertools.groupby(sorted(a.tolist())):
        runs.append((k, len(list(g))))
    return runs


@prog((np.array([3, 1, 2]),), (np.array([1, 1]),))
def itertools_permutations_best(a):
    best = None
    for perm in itertools.permutations(range(len(a))):
        cost = sum(int(a[p]) * (i + 1) for i, p in enumerate(perm))
        if best is None or cost < best[0]:
            best = (cost, perm)
    return best


@prog((np.array([1.0, 2.0, 3.0, 4.0]),), (np.array([1.0]),))
def itertools_accumulate_products(a):
    run = list(itertools.accumulate(a.tolist(), lambda x, y: x * y))
    pairs = list(itertools.pairwise(run)) if hasattr(itertools, "pairwise") else []
    return run, len(pairs)


@prog((np.array([4, 8, 15, 16, 23, 42]), 16), (np.array([4, 8]), 100))
def bisect_insert_and_rank(a, v):
    xs = a.tolist()
    pos = bisect.bisect_left(xs, v)
    bisect.insort(xs, v)
    return pos, xs, xs.count(v)


@prog((np.array([2, 3, 4]),), (np.array([5]),))
def reduce_lcm_and_product(a):
    lcm = functools.reduce(lambda x, y: x * y // math.gcd(x, y), a.tolist())
    prod = functools.reduce(lambda x, y: x * y, a.tolist(), 1)
    return lcm, prod


@prog((np.array([[1, 2], [3, 4], [5, 6]]),), (np.zeros((0, 2), dtype=np.int64),))
def nested_comprehension_transpose(m):
    rows = m.tolist()
    if not rows:
        return []
    t = [[row[j] for row in rows] for j in range(len(rows[0]))]
    flat = [v for row in t for v in row if v % 2]
    return t, flat


@prog((np.array([5, 3, 9, 1]),), (EI,))
def heap_kth_largest_stream(a):
    k = 2
    heap = []
    out = []
    for v in a:
        heapq.heappush(heap, int(v))
        if len(heap) > k:
            heapq.heappop(heap)
        out.append(heap[0] if len(heap) == k else None)
    return out


@dataclass
class Stats:
    n: int = 0
    total: float = 0.0
    lo: float = math.inf
    hi: float = -math.inf

    def add(self, v):
        self.n += 1
        self.total += v
        self.lo = min(self.lo, v)
        self.hi = max(self.hi, v)

    def mean(self):
        return self.total / self.n if self.n else float("nan")


@prog((np.array([3.0, 1.0, 4.0, 1.5]),), (E,))
def dataclass_running_stats(x):
    s = Stats()
    for v in x:
        s.add(float(v))
    return s.n, s.mean(), s.lo, s.hi


@prog((np.array([1, 2, 3, 4, 5, 6, 7]), 3), (np.array([1, 2]), 5))
def chunks_with_zip_longest(a, k):
    it = [iter(a.tolist())] * k
    chunks = [tuple(v for v in c if v is not None) for c in itertools.zip_longest(*it)]
    return chunks


@prog((np.array([10, 20, 30]), ["x", "y", "z"]), (EI, []))
def dict_from_zip_and_invert(vals, names):
    d = dict(zip(names, vals.tolist()))
    inv = {v: k for k, v in d.items()}
    return d, inv.get(20, "none")


@prog((np.array([3.0, -1.0, 2.0]),), (np.array([-1.0, -2.0]),))
def sqrt_or_error_messages(x):
    msgs = []
    for i, v in enumerate(x):
        try:
            if v < 0:
                raise ValueError(f"negative at {i}")
            msgs.append(f"{math.sqrt(v):.3f}")
        except ValueError as e:
            msgs.append(str(e))
    return msgs


@prog((np.array([1, 2, 3, 4, 5, 6]),), (np.array([7]),))
def while_else_find_square(a):
    i = 0
    while i < len(a):
        r = math.isqrt(int(a[i]))
        if r * r == a[i] and a[i] > 1:
            break
        i += 1
    else:
        return None
    return i, int(a[i])


@prog((np.array([1, 5, 2, 8, 3]),), (EI,))
def print_progress_loop(a):
    total = 0
    for i, v in enumerate(a):
        total += int(v)
        print(f"step {i}: +{int(v)} -> {total}")
    print("done", total)
    return total


@prog((np.array([3, 1, 2]), {"scale": 2, "shift": 1}), (np.array([3, 1, 2]), {}))
def kwargs_pipeline_helpers(a, opts):
    def transform(v, scale=1, shift=0):
        return v * scale + shift

    return [transform(int(v), **opts) for v in a]


@prog((np.array([[1, 0, 2], [0, 0, 3], [4, 0, 0]]),), (np.zeros((2, 2), dtype=np.int64),))
def sparse_dict_of_nonzeros(m):
    sp = {}
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j] != 0:
                sp[(i, j)] = int(m[i, j])
    row_sums = defaultdict(int)
    for (i, _j), v in sp.items():
        row_sums[i] += v
    return sp, dict(row_sums)


@prog((np.array([5, 2, 8, 1]),), (np.array([1]),))
def sorted_with_index_tuples(a):
    pairs = sorted(enumerate(a.tolist()), key=lambda p: (p[1], -p[0]), reverse=True)
    return [i for i, _ in pairs], pairs[0]


@prog((np.array([2, 7, 11, 15]), 9), (np.array([1, 2]), 10))
def two_sum_dict_helper(a, target):
    def find(nums, t):
        seen = {}
        for i, v in enumerate(nums):
            if t - v in seen:
                return seen[t - v], i
            seen[v] = i
        return None

    return find(a.tolist(), target)


@prog((np.array([1.0, 2.0, 4.0, 7.0, 11.0]),), (np.array([3.0]),))
def numpy_diff_masks_report(x):
    d = np.diff(x)
    acc = np.diff(d)
    rising = np.where(d > 0)[0]
    return f"{len(rising)} rising steps, accel {acc.tolist()}"


@prog((np.array([[3.0, 1.0], [1.0, 2.0], [0.5, 4.0]]),), (np.ones((1, 2)),))
def argsort_fancy_index_rows(m):
    order = np.argsort(m[:, 0])
    ranked = m[order]
    top = ranked[-1]
    cum = np.cumsum(ranked[:, 1])
    return ranked, top, cum


@prog((np.array([5.0, -3.0, 12.0, 7.0, -8.0]), -5.0, 10.0), (E, 0.0, 1.0))
def clip_and_count_clipped(x, lo, hi):
    y = np.clip(x, lo, hi)
    clipped = int(np.sum(y != x))
    msgs = [f"{i}: {v:.1f}->{w:.1f}" for i, (v, w) in enumerate(zip(x, y)) if v != w]
    return y, clipped, msgs


@prog((np.arange(12).reshape(3, 4),), (np.arange(4).reshape(1, 4),))
def reductions_by_axis_report(m):
    col_max = m.max(axis=0)
    row_sum = m.sum(axis=1)
    where = [(int(i), int(j)) for i, j in zip(*np.nonzero(m == m.max()))]
    return col_max, row_sum, where


class Counter2:
    def __init__(self):
        self.counts = {}
        self.order = []

    def add(self, k):
        if k not in self.counts:
            self.counts[k] = 0
            self.order.append(k)
        self.counts[k] += 1

    def top(self):
        return max(self.order, key=lambda k: self.counts[k]) if self.order else None


@prog((np.array([3, 1, 3, 2, 1, 3]),), (EI,))
def class_counter_first_seen(a):
    c = Counter2()
    for v in a:
        c.add(int(v))
    return c.order, c.top()


@prog((np.array([1, 2, 3, 4, 5, 6, 7, 8]),), (np.array([1]),))
def filter_map_reduce_chain(a):
    evens = list(filter(lambda v: v % 2 == 0, a.tolist()))
    squares = list(map(lambda v: v * v, evens))
    total = functools.reduce(lambda s, v: s + v, squares, 0)
    return evens, total


@prog((np.array([0.5, 0.2, 0.9, 0.1]), 0.3), (np.array([0.5]), 0.6))
def any_all_threshold_messages(p, thr):
    if all(v > thr for v in p):
        return "all above"
    if any(v > thr for v in p):
        return f"some above: {sum(v > thr for v in p)}"
    return "none above"


@prog((np.array([1, 2, 3]), np.array([2, 3, 4])), (EI, np.array([1])))
def set_ops_between_arrays(a, b):
    sa, sb = set(a.tolist()), set(b.tolist())
    return sorted(sa | sb), sorted(sa & sb), sorted(sa ^ sb), sa <= sb


@prog((np.array([1.0, 2.0, 3.0]),), (np.array([0.0]),))
def tuple_returning_helper_chain(x):
    def norm_stats(v):
        n = float(np.linalg.norm(v))
        return n, (v / n if n else v)

    def describe(n, u):
        return f"|x|={n:.3f}", float(u.max())

    n, u = norm_stats(x)
    label, top = describe(n, u)
    return label, top


@prog((np.array([1, 4, 2, 8, 5, 7]),), (np.array([3]),))
def deque_sliding_window_max(a):
    k = 3
    dq = deque()
    out = []
    for i, v in enumerate(a):
        while dq and a[dq[-1]] <= v:
            dq.pop()
        dq.append(i)
        if dq[0] <= i - k:
            dq.popleft()
        if i >= k - 1:
            out.append(int(a[dq[0]]))
    return out


@prog((np.array([10, 20, 30, 40]), np.array([0.1, 0.2, 0.3, 0.4])), (EI, E))
def weighted_choice_cumsum(values, probs):
    rng = np.random.default_rng(42)
    cum = np.cumsum(probs)
    picks = []
    for _ in range(5):
        if cum.size == 0:
            break
        r = rng.random() * cum[-1]
        picks.append(int(values[np.searchsorted(cum, r)]))
    return picks


@prog((np.array([[1, 2, 3], [4, 5, 6]]),), (np.array([[7]]),))
def flatten_with_coordinates(m):
    out = [((i, j), int(v)) for i, row in enumerate(m) for j, v in enumerate(row)]
    best = max(out, key=lambda t: t[1])
    return out, best[0]


@prog((np.array([3, 1, 2, 5, 4]),), (np.array([1, 2, 3]),))
def count_inversions_merge(a):
    def sort_count(xs):
        if len(xs) <= 1:
            return xs, 0
        mid = len(xs) // 2
        left, cl = sort_count(xs[:mid])
        right, cr = sort_count(xs[mid:])
        merged = []
        i = j = 0
        inv = cl + cr
        while i < len(left) and j < len(right):
            if left[i] <= right[j]:
                merged.append(left[i])
                i += 1
            else:
                merged.append(right[j])
                inv += len(left) - i
                j += 1
        merged += left[i:] + right[j:]
        return merged, inv

    return sort_count(a.tolist())[1]


@prog((np.array([1.0, 1.0, 2.0, 3.0, 5.0, 8.0]),), (np.array([1.0, 2.0]),))
def ratios_until_converged(x):
    prev = None
    for i in range(1, len(x)):
        r = x[i] / x[i - 1]
        if prev is not None and abs(r - prev) < 0.1:
            return i, round(float(r), 6)
        prev = r
    return -1, None


@prog(
    (np.array([[1.0, 2.0], [3.0, 4.0]]), "row"),
    (np.array([[1.0, 2.0], [3.0, 4.0]]), "col"),
    (np.array([[1.0, 2.0], [3.0, 4.0]]), "diag"),
)
def normalize_by_mode(m, mode):
    if mode == "row":
        return m / m.sum(axis=1, keepdims=True)
    elif mode == "col":
        return m / m.sum(axis=0, keepdims=True)
    raise ValueError(f"unknown mode {mode!r}")


@prog((np.array([2, 2, 3, 3, 3, 1]),), (EI,))
def counter_arithmetic(a):
    c = Counter(a.tolist())
    d = Counter({2: 1, 3: 5})
    return dict(c - d), dict(c + d), c.most_common(1)


@prog((np.array([65, 66, 67, 32, 97]),), (EI,))
def chr_codes_to_string(codes):
    s = "".join(chr(int(c)) for c in codes)
    return s, s.lower().split(), len(s)


@prog((np.array([1.5, 2.5, 3.5]), 2), (np.array([1.25]), 1))
def format_table_rows(x, prec):
    rows = []
    for i, v in enumerate(x):
        rows.append(f"{i:>3} | {v:>8.{prec}f} | {'*' * int(v)}")
    return "\n".join(rows)


# ---------------------------------------------------------------- outcomes

FINDINGS = {
    # run 1 (NumPy and noopt, the same on both, program for program), at main e684eb1; run 2
    # (NumPy) merged with main 10bce05: C5 and C6 run
    # wrong results (d) and crashes (e)
    "exp_smooth_skip_nan": ("d", "W1"),
    "game2048_move_score": ("e", "E1"),
    "split_stats_unpack": ("e", "E2"),
    # errors on code the docs say runs, or limits they do not list (c)
    "best_customer_by_spend": ("c", "C1"),
    "class_counter_first_seen": ("c", "C1"),
    "standardize_then_centroid_classify": ("c", "C1"),
    "closest_pair_helper": ("c", "C2"),
    "while_else_find_square": ("c", "C2"),
    "invoices_with_discounts": ("c", "C3"),
    "letter_grade_counts": ("c", "C4"),
    "most_improved_student": ("c", "C5 (runs at main 10bce05)"),
    "bisect_letter_bands": ("c", "C6 (runs at main 10bce05)"),
    "reorder_needed": ("c", "C7 (W2 when the comprehension formats the items)"),
    "clip_and_count_clipped": ("c", "C8"),
    "running_max_closure_list": ("c", "C9"),
    "topo_sort_recursive_try": ("c", "C10"),
    # documented limits (b)
    "zscore_outliers": ("b", "L-iterate-run-time-length"),
    "bfs_hop_distances": ("b", "L-iterate-run-time-length"),
    "dfs_iterative_order": ("b", "L-iterate-run-time-length"),
    "topo_sort_kahn_dict": ("b", "L-iterate-run-time-length"),
    "bfs_shortest_path_parents": ("b", "L-iterate-run-time-length"),
    "longest_path_dag_memo": ("b", "L-iterate-run-time-length"),
    "reductions_by_axis_report": ("b", "L-iterate-run-time-length"),
    "word_count_and_longest": ("b", "L-appended-tuple-run-time-size"),
    "word_frequency_counter": ("b", "L-appended-tuple-run-time-size"),
    "word_lengths_stats": ("b", "L-appended-tuple-run-time-size"),
    "build_vocab_ids": ("b", "L-appended-tuple-run-time-size"),
    "palindromic_words": ("b", "L-appended-tuple-run-time-size"),
    "wrap_words_to_lines": ("b", "L-appended-tuple-run-time-size"),
    "type_token_ratio": ("b", "L-appended-tuple-run-time-size"),
    "event_transition_counts": ("b", "L-items-tuple-keys"),
    "bigram_counts_dict": ("b", "L-items-tuple-keys"),
    "gaussian_naive_bayes": ("b", "L-items-tuple-keys"),
    "sparse_dict_of_nonzeros": ("b", "L-items-tuple-keys"),
    "customers_items_sets": ("b", "L-container-at-run-time-key"),
    "similar_student_pairs": ("b", "L-container-at-run-time-key"),
    "standings_sorted_by_pct": ("b", "L-container-at-run-time-key (dict of dicts)"),
    "points_for_against_dict": ("b", "L-container-at-run-time-key (dict of dicts)"),
    "reduce_lcm_and_product": ("b", "L-functools-reduce"),
    "filter_map_reduce_chain": ("b", "L-functools-reduce"),
    "dataclass_account_try": ("b", "L-try-changes-objects"),
    "parse_log_skip_bad": ("b", "L-try-statement-does-more"),
    "sqrt_or_error_messages": ("b", "L-except-as-several"),
    "event_counts_by_name": ("b", "L-chosen-string-keys-read"),
    "group_then_summarize": ("b", "L-chosen-key-list"),
    "queue_length_deque": ("b", "L-deque-passed-on"),
    "dijkstra_path_helpers": ("b", "L-branch-dtypes"),
    "sjf_with_release_times": ("b", "L-set-iteration"),
    "rooms_needed_heap": ("b", "L-sort-of-lists"),
    "fifo_realized_gains": ("b", "L-bound-inside-loop"),
    "snake_game_class": ("b", "L-in-attribute-list"),
    "itertools_groupby_sorted": ("b", "L-python-value (itertools)"),
    "count_inversions_merge": ("b", "L-list-slice-run-time"),
    "chr_codes_to_string": ("b", "L-run-time-string-method"),
}
JAX_FINDINGS = {
    # run 1 (JAX, one process a program, `timeout 150`), at main e684eb1; the rest as on NumPy
    "heap_kth_largest_stream": ("d", "JW1"),
    "counter_arithmetic": ("d", "JW2"),
    "roc_points_sorted": ("e", "JE1"),
    "most_improved_student": ("b", "L-jax-size (run 2, main 10bce05; C5 in run 1)"),
    "per36_table": ("c", "JC1"),
    "students_failing_any": ("c", "JC2"),
    "exp_smooth_skip_nan": ("b", "L-jax-mixed-kinds (W1 on NumPy; the message says tuples)"),
    "double_doubles": ("b", "L-jax-size"),
    "events_per_bucket": ("b", "L-jax-size"),
    "error_bursts_window": ("b", "L-jax-size"),
    "median_spike_replace": ("b", "L-jax-size"),
    "interpolate_gaps": ("b", "L-jax-size"),
    "expenses_by_category_np": ("b", "L-jax-size"),
    "letter_histogram_numpy": ("b", "L-jax-size"),
    "points_within_radius_sorted": ("b", "L-jax-size"),
    "cross_validation_folds": ("b", "L-jax-size"),
    "calendar_bookings_class": ("b", "L-jax-list (sort of tuples)"),
    "johnson_two_machines": ("b", "L-jax-list (np.array of a list that may hold no items)"),
    "classify_triangles": ("b", "L-jax-string-dict"),
    "dict_from_zip_and_invert": ("b", "L-jax-string-dict"),
}


if __name__ == "__main__":
    fresh_batch.batch_main(P, FINDINGS, JAX_FINDINGS, __file__, sys.argv[1:])
