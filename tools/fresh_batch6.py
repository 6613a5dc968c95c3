"""A sixth batch of programs nobody on the team wrote beforehand (issue 24, 2026-11-29):
programs as a new user writes them, in what the first five batches had little of: text and
tokens as int arrays, scheduling and queues, inventory and accounting objects with methods,
geometry (polygons, intersections), small interpreters and state machines driven by arrays,
ODE steps with adaptive step size, recursive helpers, dynamic programming over 2-D tables,
graph algorithms (DFS/BFS with explicit stacks, union-find, Dijkstra on a dense matrix),
seeded simulations, matrix algorithms by hand (LU, Gram-Schmidt, power iteration), sorting and
searching by hand, early exits from nested loops, `try`/`except` around data checks,
dataclasses, dicts and sets of counts, lists of records, string results and printing. Each runs
on two to four inputs that take different paths, eagerly and as a graph (NumPy backend, every
optimizing pass off, JAX backend), judged as `fresh_batch.py` judges.

    python tools/fresh_batch6.py             # one line per program that differs, then counts
    python tools/fresh_batch6.py --detail    # the full message of each outcome that is not ok
    python tools/fresh_batch6.py NAME ...    # only these programs, in detail
    python tools/fresh_batch6.py --table     # counts by class (FINDINGS), new failures named

The outcomes found are in tools/fresh_batch6_findings.md.
"""

# ruff: noqa: B007, E741  (programs written as users write them: unused loop names, `l`)
import contextlib
import io
import math
import os
import sys
from dataclasses import dataclass, field

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fresh_batch  # noqa: E402
import fresh_batch5  # noqa: E402

P = []


def prog(*inputs):
    def deco(f):
        P.append((f, inputs))
        return f

    return deco


rng = np.random.default_rng(6)
R8 = rng.normal(size=8)
E0 = np.zeros(0)
EI = np.zeros(0, dtype=np.int64)
TOK = np.array([3, 1, 4, 0, 2, 3, 1, 0, 5, 3])
TOK2 = np.array([1, 1, 1, 1])
WORDS = np.array([7, 2, 0, 7, 7, 0, 3, 2, 0])
TXT = np.array([104, 101, 108, 108, 111, 32, 119, 111, 114, 108, 100])
TXT2 = np.array([97, 98, 97])
SQ = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
TRI = np.array([[0.0, 0.0], [4.0, 0.0], [0.0, 3.0]])
CW = np.array([[0.0, 0.0], [0.0, 2.0], [2.0, 2.0], [2.0, 0.0]])
G4 = np.array([[0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 0]])
G5 = np.array([[0, 1, 1, 0, 0], [1, 0, 0, 1, 0], [1, 0, 0, 1, 0], [0, 1, 1, 0, 1], [0, 0, 0, 1, 0]])
DAG = np.array([[0, 1, 1, 0], [0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 0]])
CYC = np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]])
W4 = np.array(
    [[0.0, 4.0, 1.0, 0.0], [4.0, 0.0, 2.0, 5.0], [1.0, 2.0, 0.0, 8.0], [0.0, 5.0, 8.0, 0.0]]
)
W3D = np.array([[0.0, 2.0, 0.0], [2.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
EDGES = np.array([[0, 1], [2, 3], [1, 2], [4, 5]])
EDGES2 = np.array([[0, 1], [1, 0]])
A3 = np.array([[4.0, 3.0, 2.0], [2.0, 1.0, 3.0], [3.0, 2.0, 1.0]])
SPD = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])
SING = np.array([[1.0, 2.0], [2.0, 4.0]])
I2 = np.eye(2)
JOBS = np.array([[0, 3], [1, 9], [2, 6], [10, 2]])
JOBS2 = np.array([[5, 1]])
PRICES = np.array([10.0, 2.5, 4.0])
QTY = np.array([3, 0, 7])
PROGRAM = np.array([[1, 5], [2, 3], [3, 0], [4, 2], [0, 0]])
PROGRAM2 = np.array([[1, 2], [5, 0], [1, 9], [0, 0]])


# ---------------------------------------------------------------- text and tokens


@prog((TOK,), (TOK2,), (EI,))
def token_counts(tokens):
    counts = {}
    for t in tokens:
        t = int(t)
        counts[t] = counts.get(t, 0) + 1
    return counts


@prog((TOK,), (TOK2,))
def most_common_token(tokens):
    counts = np.bincount(tokens)
    best = int(np.argmax(counts))
    return best, int(counts[best])


@prog((WORDS, 0), (TOK2, 0), (EI, 0))
def split_on_separator(tokens, sep):
    sentences = []
    cur = []
    for t in tokens:
        if t == sep:
            if cur:
                sentences.append(cur)
            cur = []
        else:
            cur.append(int(t))
    if cur:
        sentences.append(cur)
    return sentences


@prog((TXT,), (TXT2,))
def decode_ascii(codes):
    return "".join(chr(c) for c in codes)


@prog((TXT,), (TXT2,))
def caesar_shift(codes):
    out = codes.copy()
    for i in range(len(out)):
        c = out[i]
        if 97 <= c <= 122:
            out[i] = (c - 97 + 3) % 26 + 97
    return out


@prog((TXT2,), (np.array([1, 2, 3, 2, 1]),), (np.array([1, 2]),))
def is_palindrome_tokens(t):
    i = 0
    j = len(t) - 1
    while i < j:
        if t[i] != t[j]:
            return False
        i += 1
        j -= 1
    return True


@prog((TOK, 2), (TOK2, 3))
def ngram_counts(tokens, n):
    grams = {}
    for i in range(len(tokens) - n + 1):
        key = tuple(int(v) for v in tokens[i : i + n])
        grams[key] = grams.get(key, 0) + 1
    return grams


@prog((TOK, 4), (TOK2, 1))
def vocab_one_hot(tokens, vocab):
    out = np.zeros((len(tokens), vocab))
    for i, t in enumerate(tokens):
        if t < vocab:
            out[i, t] = 1.0
    return out


@prog((TOK, 3), (TOK2, 2))
def pad_or_truncate(tokens, length):
    if len(tokens) >= length:
        return tokens[:length]
    out = np.zeros(length, dtype=tokens.dtype)
    out[: len(tokens)] = tokens
    return out


@prog((WORDS,), (TOK,))
def longest_word_length(tokens):
    best = 0
    cur = 0
    for t in tokens:
        if t == 0:
            cur = 0
        else:
            cur += 1
            if cur > best:
                best = cur
    return best


@prog((np.array([1, 2, 3, 1, 2, 3, 1]), np.array([2, 3])), (TOK2, np.array([5])))
def find_all_occurrences(text, pat):
    hits = []
    m = len(pat)
    for i in range(len(text) - m + 1):
        ok = True
        for j in range(m):
            if text[i + j] != pat[j]:
                ok = False
                break
        if ok:
            hits.append(i)
    return hits


@prog((TOK,), (TOK2,))
def byte_pair_merge_once(tokens):
    best_pair = None
    best_count = 0
    for i in range(len(tokens) - 1):
        a, b = tokens[i], tokens[i + 1]
        c = 0
        for j in range(len(tokens) - 1):
            if tokens[j] == a and tokens[j + 1] == b:
                c += 1
        if c > best_count:
            best_count = c
            best_pair = (int(a), int(b))
    return best_pair, best_count


@prog((np.array([3, 5, 2]), np.array([3, 1, 2])), (np.array([1, 2]), np.array([1, 2])))
def edit_distance(a, b):
    n, m = len(a), len(b)
    d = np.zeros((n + 1, m + 1), dtype=np.int64)
    for i in range(n + 1):
        d[i, 0] = i
    for j in range(m + 1):
        d[0, j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1, d[i - 1, j - 1] + cost)
    return int(d[n, m])


@prog((np.array([1, 3, 4, 1, 2]), np.array([3, 4, 1, 2, 1])), (np.array([1]), np.array([2])))
def lcs_length(a, b):
    t = np.zeros((len(a) + 1, len(b) + 1), dtype=int)
    for i in range(len(a)):
        for j in range(len(b)):
            if a[i] == b[j]:
                t[i + 1, j + 1] = t[i, j] + 1
            else:
                t[i + 1, j + 1] = max(t[i, j + 1], t[i + 1, j])
    return t[-1, -1]


@prog((TXT,), (TXT2,))
def vowel_report(codes):
    vowels = {97, 101, 105, 111, 117}
    n = 0
    for c in codes:
        if int(c) in vowels:
            n += 1
    return f"{n} vowels in {len(codes)} letters"


@prog((TOK, {0: "<pad>", 1: "a", 2: "b", 3: "c"}), (TOK2, {1: "x"}))
def detokenize(tokens, vocab):
    words = []
    for t in tokens:
        words.append(vocab.get(int(t), "<unk>"))
    return " ".join(words)


@prog((np.array([2, 2, 2, 5, 5, 1]),), (EI,))
def run_length_encode(x):
    out = []
    i = 0
    while i < len(x):
        j = i
        while j < len(x) and x[j] == x[i]:
            j += 1
        out.append((int(x[i]), j - i))
        i = j
    return out


@prog((np.array([104, 105, 33]),), (np.array([65]),))
def hash_string(codes):
    h = 5381
    for c in codes:
        h = (h * 33 + int(c)) % (2**32)
    return h


@prog((np.array([40, 40, 41, 40, 41, 41]),), (np.array([41, 40]),), (np.array([40, 40]),))
def balanced_parens(codes):
    depth = 0
    for c in codes:
        if c == 40:
            depth += 1
        elif c == 41:
            depth -= 1
            if depth < 0:
                return "unbalanced"
    return "balanced" if depth == 0 else "unclosed"


@prog((TOK, 3), (TOK2, 1))
def top_k_tokens(tokens, k):
    counts = np.bincount(tokens)
    order = np.argsort(-counts, kind="stable")
    return [int(t) for t in order[:k] if counts[t] > 0]


# ---------------------------------------------------------------- scheduling and queues


@prog((JOBS,), (JOBS2,))
def fcfs_waiting_times(jobs):
    t = 0
    waits = []
    for arrival, burst in jobs:
        if t < arrival:
            t = arrival
        waits.append(t - arrival)
        t += burst
    return waits, sum(waits) / len(waits)


@prog((np.array([3, 1, 2, 4]),), (np.array([5]),))
def shortest_job_first(bursts):
    order = sorted(range(len(bursts)), key=lambda i: bursts[i])
    t = 0
    finish = np.zeros(len(bursts))
    for i in order:
        t += bursts[i]
        finish[i] = t
    return finish


@prog((np.array([5, 3, 8]), 2), (np.array([1, 1]), 4))
def round_robin_finish(bursts, quantum):
    remaining = list(bursts)
    queue = list(range(len(bursts)))
    t = 0
    done = [0] * len(bursts)
    while queue:
        i = queue.pop(0)
        run = min(quantum, remaining[i])
        t += run
        remaining[i] -= run
        if remaining[i] > 0:
            queue.append(i)
        else:
            done[i] = t
    return done


@prog((np.array([[1, 4], [3, 5], [0, 6], [5, 7], [8, 9]]),), (np.array([[0, 1]]),))
def interval_scheduling(intervals):
    order = np.argsort(intervals[:, 1])
    chosen = []
    end = -1
    for i in order:
        s, e = intervals[i]
        if s >= end:
            chosen.append(int(i))
            end = e
    return chosen


@prog((np.array([[0, 30], [5, 10], [15, 20]]),), (np.array([[1, 2], [3, 4]]),))
def meeting_rooms_needed(meetings):
    starts = np.sort(meetings[:, 0])
    ends = np.sort(meetings[:, 1])
    rooms = 0
    best = 0
    i = j = 0
    while i < len(starts):
        if starts[i] < ends[j]:
            rooms += 1
            best = max(best, rooms)
            i += 1
        else:
            rooms -= 1
            j += 1
    return best


@prog((np.array([2, 1, 3]), 0.5, 3), (np.array([1]), 2.0, 0))
def bank_queue_sim(arrivals, service, seed):
    g = np.random.default_rng(seed)
    queue = 0
    served = 0
    log = []
    for a in arrivals:
        queue += int(a)
        if g.random() < service and queue > 0:
            queue -= 1
            served += 1
        log.append(queue)
    return served, log


@prog((np.array([1.0, 0.0, 2.0, 5.0]), 3), (np.array([1.0]), 1))
def bounded_buffer(events, cap):
    buf = []
    dropped = 0
    for e in events:
        if e > 0:
            if len(buf) < cap:
                buf.append(e)
            else:
                dropped += 1
        elif buf:
            buf.pop(0)
    return len(buf), dropped


@prog((np.array([3, 1, 4, 1, 5]), 2), (np.array([9, 9]), 5))
def load_balance(tasks, workers):
    loads = [0] * workers
    assign = []
    for t in tasks:
        w = loads.index(min(loads))
        loads[w] += int(t)
        assign.append(w)
    return assign, max(loads)


@prog((np.array([[2, 100], [1, 19], [2, 27], [1, 25], [3, 15]]),), (np.array([[1, 5]]),))
def job_sequencing_deadlines(jobs):
    order = sorted(range(len(jobs)), key=lambda i: -jobs[i][1])
    slots = [None] * (int(jobs[:, 0].max()))
    profit = 0
    for i in order:
        d = int(jobs[i][0])
        for s in range(d - 1, -1, -1):
            if slots[s] is None:
                slots[s] = i
                profit += int(jobs[i][1])
                break
    return profit


@prog((np.array([4, 2, 7, 1]), np.array([1, 3, 2, 2])), (np.array([1]), np.array([1])))
def priority_pick_order(bursts, prio):
    pending = list(range(len(bursts)))
    order = []
    while pending:
        best = pending[0]
        for p in pending:
            if prio[p] < prio[best]:
                best = p
        pending.remove(best)
        order.append(best)
    return order


@prog((np.array([5.0, 3.0, 1.0]), 4.0), (np.array([1.0, 1.0]), 10.0))
def token_bucket(requests, rate):
    tokens = rate
    accepted = []
    for r in requests:
        tokens = min(rate, tokens + 1.0)
        if r <= tokens:
            tokens -= r
            accepted.append(True)
        else:
            accepted.append(False)
    return accepted


@prog((np.array([0.5, 1.2, 0.1, 3.0]),), (E0,))
def timeline_events(gaps):
    t = 0.0
    times = []
    for g in gaps:
        t += g
        times.append(round(t, 3))
    return times


@prog((np.array([[0, 1], [0, 2], [1, 3], [2, 3]]), 4), (np.array([[0, 1], [1, 0]]), 2))
def topo_sort_kahn(edges, n):
    indeg = [0] * n
    adj = [[] for _ in range(n)]
    for a, b in edges:
        adj[a].append(int(b))
        indeg[b] += 1
    queue = [i for i in range(n) if indeg[i] == 0]
    order = []
    while queue:
        v = queue.pop(0)
        order.append(v)
        for w in adj[v]:
            indeg[w] -= 1
            if indeg[w] == 0:
                queue.append(w)
    if len(order) < n:
        return None
    return order


@prog((np.array([3.0, 2.0, 1.0]), np.array([1.0, 2.0, 3.0])), (np.array([1.0]), np.array([5.0])))
def critical_path_length(durations, earliest):
    finish = earliest + durations
    latest = finish.max()
    slack = latest - finish
    critical = [i for i in range(len(slack)) if slack[i] == 0]
    return latest, critical


# ---------------------------------------------------------------- inventory, accounts, records


class Inventory:
    def __init__(self, n):
        self.stock = np.zeros(n, dtype=np.int64)
        self.log = []

    def receive(self, item, qty):
        self.stock[item] += qty
        self.log.append(("in", item, qty))

    def ship(self, item, qty):
        if self.stock[item] < qty:
            raise ValueError("not enough stock")
        self.stock[item] -= qty
        self.log.append(("out", item, qty))

    def value(self, prices):
        return float(np.dot(self.stock, prices))


@prog((np.array([[0, 5], [1, 2], [0, -3]]), PRICES), (np.array([[2, 1], [2, -4]]), PRICES))
def inventory_moves(moves, prices):
    inv = Inventory(3)
    failed = 0
    for item, q in moves:
        if q >= 0:
            inv.receive(item, q)
        else:
            try:
                inv.ship(item, -q)
            except ValueError:
                failed += 1
    return inv.stock, inv.value(prices), failed


class Account:
    def __init__(self, balance=0.0):
        self.balance = balance
        self.history = []

    def deposit(self, amount):
        self.balance += amount
        self.history.append(amount)

    def withdraw(self, amount):
        if amount > self.balance:
            return False
        self.balance -= amount
        self.history.append(-amount)
        return True


@prog((np.array([100.0, -30.0, -90.0, 20.0]),), (np.array([-5.0]),))
def account_ledger(txns):
    acct = Account(10.0)
    rejected = 0
    for t in txns:
        if t >= 0:
            acct.deposit(t)
        elif not acct.withdraw(-t):
            rejected += 1
    return acct.balance, len(acct.history), rejected


@dataclass
class Item:
    name: str
    price: float
    qty: int


@prog((PRICES, QTY), (np.array([1.0]), np.array([0])))
def cart_total(prices, qty):
    items = []
    for i in range(len(prices)):
        items.append(Item(f"item{i}", float(prices[i]), int(qty[i])))
    total = sum(it.price * it.qty for it in items)
    empty = [it.name for it in items if it.qty == 0]
    return round(total, 2), empty


@prog((PRICES, QTY, 2), (np.array([5.0, 6.0]), np.array([1, 1]), 10))
def reorder_report(prices, qty, threshold):
    lines = []
    for i, q in enumerate(qty):
        if q < threshold:
            lines.append(f"reorder item {i}: have {q}, price {prices[i]:.2f}")
    return "\n".join(lines) if lines else "all stocked"


@dataclass
class Ledger:
    entries: list = field(default_factory=list)

    def add(self, amount, kind):
        self.entries.append((kind, amount))

    def total(self, kind):
        return sum(a for k, a in self.entries if k == kind)


@prog((np.array([10.0, -4.0, 7.0, -1.5]),), (np.array([3.0]),))
def ledger_by_kind(amounts):
    led = Ledger()
    for a in amounts:
        led.add(float(a), "credit" if a > 0 else "debit")
    return led.total("credit"), led.total("debit")


@prog((np.array([100.0, 250.0, 75.0]), 0.2), (np.array([10.0]), 0.0))
def invoice_lines(amounts, tax):
    rows = []
    for i, a in enumerate(amounts):
        rows.append({"line": i + 1, "net": a, "tax": a * tax, "gross": a * (1 + tax)})
    return rows, sum(r["gross"] for r in rows)


@prog((np.array([5, 3, 0, 8]), np.array([2, 3, 1, 10])), (np.array([1]), np.array([0])))
def fulfil_orders(stock, orders):
    stock = stock.copy()
    shipped = []
    backorder = []
    for i in range(len(orders)):
        if stock[i] >= orders[i]:
            stock[i] -= orders[i]
            shipped.append(i)
        else:
            backorder.append(i)
    return shipped, backorder, stock


class FifoLots:
    def __init__(self):
        self.lots = []

    def buy(self, qty, price):
        self.lots.append([qty, price])

    def sell(self, qty):
        cost = 0.0
        while qty > 0 and self.lots:
            lot = self.lots[0]
            take = min(qty, lot[0])
            cost += take * lot[1]
            lot[0] -= take
            qty -= take
            if lot[0] == 0:
                self.lots.pop(0)
        return cost


@prog((np.array([[10, 5], [5, 7], [-12, 0]]),), (np.array([[3, 2], [-1, 0]]),))
def fifo_cost_basis(trades):
    book = FifoLots()
    cogs = 0.0
    for q, p in trades:
        if q > 0:
            book.buy(int(q), float(p))
        else:
            cogs += book.sell(int(-q))
    return cogs, len(book.lots)


@prog((np.array([120.0, 80.0, 200.0]), np.array([0, 1, 0])), (np.array([5.0]), np.array([1])))
def expense_by_category(amounts, cats):
    names = ["travel", "food"]
    totals = {n: 0.0 for n in names}
    for a, c in zip(amounts, cats):
        totals[names[c]] += a
    return totals


@prog((np.array([1000.0, 500.0]), np.array([0.05, 0.1]), 3), (np.array([10.0]), np.array([0.0]), 1))
def depreciation_schedule(costs, rates, years):
    table = np.zeros((len(costs), years))
    for i in range(len(costs)):
        v = costs[i]
        for y in range(years):
            v = v * (1 - rates[i])
            table[i, y] = v
    return table


@prog((np.array([30.0, 70.0, 150.0]),), (np.array([0.0]),))
def discount_tiers(totals):
    out = []
    for t in totals:
        if t >= 100:
            rate = 0.15
        elif t >= 50:
            rate = 0.05
        else:
            rate = 0.0
        out.append(t * (1 - rate))
    return np.array(out)


@prog((np.array([10, 20, 30]), np.array([1, 2, 3])), (np.array([5]), np.array([0])))
def weighted_average_cost(qty, cost):
    total_q = 0
    total_c = 0.0
    for q, c in zip(qty, cost):
        total_q += q
        total_c += q * c
    if total_q == 0:
        return None
    return total_c / total_q


@prog((np.array([50.0, -20.0, -40.0, 10.0]),), (np.array([1.0]),))
def overdraft_days(flows):
    bal = 0.0
    days = []
    for day, f in enumerate(flows):
        bal += f
        if bal < 0:
            days.append(day)
    print(f"closing balance {bal:.2f}")
    return days, bal


# ---------------------------------------------------------------- geometry


@prog((SQ,), (TRI,), (CW,))
def polygon_area(pts):
    n = len(pts)
    s = 0.0
    for i in range(n):
        x1, y1 = pts[i]
        x2, y2 = pts[(i + 1) % n]
        s += x1 * y2 - x2 * y1
    return abs(s) / 2


@prog((SQ,), (CW,))
def polygon_orientation(pts):
    s = 0.0
    for i in range(len(pts)):
        j = (i + 1) % len(pts)
        s += (pts[j, 0] - pts[i, 0]) * (pts[j, 1] + pts[i, 1])
    if s > 0:
        return "clockwise"
    elif s < 0:
        return "counterclockwise"
    return "degenerate"


@prog((SQ, np.array([0.5, 0.5])), (SQ, np.array([2.0, 0.5])), (TRI, np.array([1.0, 1.0])))
def point_in_polygon(poly, p):
    x, y = p
    inside = False
    n = len(poly)
    j = n - 1
    for i in range(n):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


@prog(
    (np.array([0.0, 0.0]), np.array([2.0, 2.0]), np.array([0.0, 2.0]), np.array([2.0, 0.0])),
    (np.array([0.0, 0.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), np.array([1.0, 1.0])),
    (np.array([0.0, 0.0]), np.array([1.0, 1.0]), np.array([2.0, 2.0]), np.array([3.0, 3.0])),
)
def segment_intersection(p1, p2, p3, p4):
    d1 = p2 - p1
    d2 = p4 - p3
    denom = d1[0] * d2[1] - d1[1] * d2[0]
    if denom == 0:
        return None
    t = ((p3[0] - p1[0]) * d2[1] - (p3[1] - p1[1]) * d2[0]) / denom
    u = ((p3[0] - p1[0]) * d1[1] - (p3[1] - p1[1]) * d1[0]) / denom
    if 0 <= t <= 1 and 0 <= u <= 1:
        return p1 + t * d1
    return None


def cross(o, a, b):
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


@prog((rng.uniform(0, 1, (8, 2)),), (SQ,))
def convex_hull(points):
    pts = sorted(map(tuple, points))
    lower = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


@prog((rng.uniform(0, 1, (6, 2)),), (SQ,))
def closest_pair_brute(pts):
    best = np.inf
    pair = (-1, -1)
    for i in range(len(pts)):
        for j in range(i + 1, len(pts)):
            d = np.hypot(*(pts[i] - pts[j]))
            if d < best:
                best = d
                pair = (i, j)
    return pair, best


@prog((TRI,), (np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]),))
def triangle_kind(tri):
    a = np.linalg.norm(tri[1] - tri[0])
    b = np.linalg.norm(tri[2] - tri[1])
    c = np.linalg.norm(tri[0] - tri[2])
    s = sorted([a, b, c])
    if abs(s[0] + s[1] - s[2]) < 1e-12:
        return "degenerate"
    if abs(s[0] ** 2 + s[1] ** 2 - s[2] ** 2) < 1e-9:
        return "right"
    if s[0] ** 2 + s[1] ** 2 < s[2] ** 2:
        return "obtuse"
    return "acute"


@prog(
    (np.array([0.0, 0.0, 2.0, 2.0]), np.array([1.0, 1.0, 3.0, 3.0])),
    (np.array([0.0, 0.0, 1.0, 1.0]), np.array([2.0, 2.0, 3.0, 3.0])),
)
def box_iou(a, b):
    x1 = max(a[0], b[0])
    y1 = max(a[1], b[1])
    x2 = min(a[2], b[2])
    y2 = min(a[3], b[3])
    inter = max(0.0, x2 - x1) * max(0.0, y2 - y1)
    if inter == 0:
        return 0.0
    area_a = (a[2] - a[0]) * (a[3] - a[1])
    area_b = (b[2] - b[0]) * (b[3] - b[1])
    return inter / (area_a + area_b - inter)


@prog(
    (np.array([[0, 0, 2, 2], [1, 1, 3, 3], [5, 5, 6, 6]], dtype=float), np.array([0.9, 0.8, 0.7])),
    (np.array([[0, 0, 1, 1]], dtype=float), np.array([0.5])),
)
def non_max_suppression(boxes, scores):
    order = list(np.argsort(-scores))
    keep = []
    while order:
        i = order.pop(0)
        keep.append(int(i))
        rest = []
        for j in order:
            if box_iou(boxes[i], boxes[j]) < 0.1:
                rest.append(j)
        order = rest
    return keep


@prog((SQ,), (TRI,))
def polygon_centroid(pts):
    a = 0.0
    cx = 0.0
    cy = 0.0
    n = len(pts)
    for i in range(n):
        x0, y0 = pts[i]
        x1, y1 = pts[(i + 1) % n]
        c = x0 * y1 - x1 * y0
        a += c
        cx += (x0 + x1) * c
        cy += (y0 + y1) * c
    a *= 0.5
    return np.array([cx / (6 * a), cy / (6 * a)])


@prog((np.array([1.0, 0.0]), np.array([0.0, 1.0])), (np.array([1.0, 1.0]), np.array([2.0, 2.0])))
def angle_between_deg(u, v):
    nu = np.linalg.norm(u)
    nv = np.linalg.norm(v)
    c = np.dot(u, v) / (nu * nv)
    c = min(1.0, max(-1.0, c))
    return math.degrees(math.acos(c))


@prog((SQ, 90.0), (TRI, 45.0))
def rotate_points(pts, deg):
    th = np.deg2rad(deg)
    r = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
    out = []
    for p in pts:
        out.append(r @ p)
    return np.round(np.array(out), 10)


@prog((np.array([3.0, 4.0]), 5.0), (np.array([1.0, 1.0]), 1.0), (np.array([0.0, 0.0]), 0.0))
def circle_classify(p, r):
    d = np.hypot(p[0], p[1])
    if d < r:
        return "inside"
    if d == r:
        return "on"
    return "outside"


@prog((rng.uniform(0, 10, (7, 2)), 3.0), (SQ, 0.5))
def grid_bucket_points(pts, cell):
    buckets = {}
    for i, (x, y) in enumerate(pts):
        key = (int(x // cell), int(y // cell))
        buckets.setdefault(key, []).append(i)
    return buckets


@prog((np.array([[0.0, 0.0], [3.0, 4.0], [3.0, 0.0]]),), (np.array([[1.0, 1.0]]),))
def path_perimeter_closed(pts):
    total = 0.0
    for i in range(len(pts)):
        total += np.linalg.norm(pts[i] - pts[i - 1])
    return total


# ---------------------------------------------------------------- interpreters, state machines


@prog((PROGRAM,), (PROGRAM2,))
def stack_machine(code):
    # opcodes: 0 halt, 1 push arg, 2 add arg, 3 mul arg, 4 sub arg, 5 dup
    stack = []
    pc = 0
    steps = 0
    while pc < len(code) and steps < 100:
        op, arg = code[pc]
        steps += 1
        if op == 0:
            break
        elif op == 1:
            stack.append(int(arg))
        elif op == 2:
            stack.append(stack.pop() + int(arg))
        elif op == 3:
            stack.append(stack.pop() * int(arg))
        elif op == 4:
            stack.append(stack.pop() - int(arg))
        elif op == 5:
            stack.append(stack[-1])
        pc += 1
    return stack, steps


@prog((np.array([[1, 3], [2, 0], [3, 1], [4, 0]]),), (np.array([[4, 0]]),))
def register_machine(code):
    # 1: r0 += arg; 2: r1 = r0; 3: r0 *= arg; 4: jump to end if r0 > 10
    r = [0, 0]
    for op, arg in code:
        if op == 1:
            r[0] += arg
        elif op == 2:
            r[1] = r[0]
        elif op == 3:
            r[0] *= arg
        elif op == 4:
            if r[0] > 10:
                break
    return r


@prog((np.array([1, 1, 0, 1, 0, 0, 1]),), (np.array([0, 0]),))
def traffic_light(ticks):
    states = ["red", "green", "yellow"]
    s = 0
    seen = []
    for t in ticks:
        if t:
            s = (s + 1) % 3
        seen.append(states[s])
    return seen


@prog((np.array([1, 0, 1, 1, 0, 1]),), (np.array([0]),))
def divisible_by_three_dfa(bits):
    state = 0
    for b in bits:
        state = (2 * state + b) % 3
    return state == 0


@prog((np.array([1, 2, 1, 3, 2, 1]),), (np.array([3, 3]),))
def vending_machine(coins):
    # coins 1, 2, 3; item costs 4
    credit = 0
    sold = 0
    change = []
    for c in coins:
        credit += c
        if credit >= 4:
            sold += 1
            change.append(credit - 4)
            credit = 0
    return sold, change, credit


@prog((np.array([2, 1, 1, 0, 3, 0]),), (np.array([0, 0, 0]),))
def turtle_walk(cmds):
    # 0 forward, 1 left, 2 right, 3 back
    x, y = 0, 0
    dx, dy = 1, 0
    for c in cmds:
        if c == 0:
            x += dx
            y += dy
        elif c == 1:
            dx, dy = -dy, dx
        elif c == 2:
            dx, dy = dy, -dx
        else:
            x -= dx
            y -= dy
    return (x, y), abs(x) + abs(y)


@prog((np.array([43, 43, 62, 43, 60, 45, 46]),), (np.array([46, 46]),))
def brainfish(code):
    # + - > < . on a tape of 4 cells
    tape = np.zeros(4, dtype=np.int64)
    ptr = 0
    out = []
    for c in code:
        if c == 43:
            tape[ptr] += 1
        elif c == 45:
            tape[ptr] -= 1
        elif c == 62:
            ptr = (ptr + 1) % 4
        elif c == 60:
            ptr = (ptr - 1) % 4
        elif c == 46:
            out.append(int(tape[ptr]))
    return tape, out


@prog((np.array([1, 2, 3]), np.array([0, 1, 2])), (np.array([5.0]), np.array([3])))
def rpn_eval(values, ops):
    # ops after the first value: 0 +, 1 -, 2 *, 3 /
    acc = float(values[0])
    for v, op in zip(values[1:], ops[1:]):
        if op == 0:
            acc = acc + v
        elif op == 1:
            acc = acc - v
        elif op == 2:
            acc = acc * v
        else:
            try:
                acc = acc / v
            except ZeroDivisionError:
                return None
    return acc


@prog((np.array([0, 1, 1, 2, 0, 2]),), (np.array([2, 2]),))
def door_state_machine(events):
    # 0 open, 1 close, 2 lock
    state = "closed"
    errors = 0
    for e in events:
        if e == 0 and state == "closed":
            state = "open"
        elif e == 1 and state == "open":
            state = "closed"
        elif e == 2 and state == "closed":
            state = "locked"
        else:
            errors += 1
    return state, errors


@prog((np.array([0, 1, 0, 1, 1, 0, 1, 1, 1]),), (np.array([1]),))
def debounce(signal):
    stable = signal[0]
    count = 0
    out = []
    for s in signal:
        if s != stable:
            count += 1
            if count >= 2:
                stable = s
                count = 0
        else:
            count = 0
        out.append(int(stable))
    return out


@prog(
    (np.array([[0, 1, 0], [0, 0, 2], [1, 0, 0]]), np.array([0, 1, 1, 0])),
    (np.eye(2, dtype=int), np.array([1])),
)
def table_driven_fsm(table, inputs):
    state = 0
    trace = [state]
    for a in inputs:
        state = int(table[state, a])
        trace.append(state)
    return trace


@prog((np.array([0, 1, 0, 0, 1, 0, 1, 0]), 3), (np.array([1]), 1))
def rule90_automaton(cells, steps):
    c = cells.copy()
    for _ in range(steps):
        left = np.roll(c, 1)
        right = np.roll(c, -1)
        c = left ^ right
    return c


@prog((np.array([5, 3, 1, 4]),), (np.array([2]),))
def collatz_lengths(xs):
    out = []
    for x in xs:
        n = int(x)
        steps = 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        out.append(steps)
    return out


@prog((np.array([1, 4, 2, 1, 3]),), (np.array([3]),))
def elevator_sim(requests):
    floor = 0
    travelled = 0
    visits = []
    for r in requests:
        while floor != r:
            floor += 1 if r > floor else -1
            travelled += 1
        visits.append(floor)
    return travelled, visits


# ---------------------------------------------------------------- integration and ODE steps


@prog((0.0, 1.0, 1e-6), (0.0, 3.0, 1e-3))
def adaptive_simpson(a, b, tol):
    def f(x):
        return math.exp(-x * x)

    def simpson(a, b):
        c = (a + b) / 2
        return (b - a) / 6 * (f(a) + 4 * f(c) + f(b))

    def rec(a, b, whole, tol, depth):
        c = (a + b) / 2
        left = simpson(a, c)
        right = simpson(c, b)
        if depth > 20 or abs(left + right - whole) <= 15 * tol:
            return left + right + (left + right - whole) / 15
        return rec(a, c, left, tol / 2, depth + 1) + rec(c, b, right, tol / 2, depth + 1)

    return rec(a, b, simpson(a, b), tol, 0)


@prog((np.array([1.0, 0.0]), 2.0, 1e-4), (np.array([0.0, 1.0]), 0.5, 1e-2))
def rk45_adaptive_oscillator(y0, t_end, tol):
    def f(t, y):
        return np.array([y[1], -y[0]])

    t = 0.0
    y = y0.copy()
    h = 0.1
    steps = 0
    rejected = 0
    while t < t_end:
        if t + h > t_end:
            h = t_end - t
        k1 = f(t, y)
        k2 = f(t + h / 2, y + h / 2 * k1)
        k3 = f(t + h / 2, y + h / 2 * k2)
        k4 = f(t + h, y + h * k3)
        y4 = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        y_euler = y + h * k1
        err = np.max(np.abs(y4 - y_euler))
        if err <= tol or h < 1e-6:
            t += h
            y = y4
            steps += 1
            h = h * 1.5
        else:
            h = h / 2
            rejected += 1
    return y, steps, rejected


@prog((1.0, 0.5, 0.1), (2.0, 0.0, 0.25))
def euler_decay(y0, k, dt):
    y = y0
    t = 0.0
    ys = [y]
    while y > 0.1 * y0 and t < 5.0:
        y = y - k * y * dt
        t += dt
        ys.append(y)
    return len(ys), y


@prog((np.linspace(0, np.pi, 11),), (np.array([0.0, 1.0]),))
def trapezoid_manual(x):
    y = np.sin(x)
    total = 0.0
    for i in range(1, len(x)):
        total += (x[i] - x[i - 1]) * (y[i] + y[i - 1]) / 2
    return total


@prog((2.0, 1e-10), (0.0, 1e-6), (-4.0, 1e-6))
def newton_sqrt(a, tol):
    if a < 0:
        raise ValueError("negative")
    if a == 0:
        return 0.0
    x = a
    for _ in range(50):
        nx = 0.5 * (x + a / x)
        if abs(nx - x) < tol:
            return nx
        x = nx
    return x


@prog((0.0, 2.0, 1e-8), (3.0, 4.0, 1e-8))
def bisection_root(lo, hi, tol):
    def f(x):
        return x**3 - 2 * x - 5

    flo = f(lo)
    if flo * f(hi) > 0:
        return None
    it = 0
    while hi - lo > tol:
        mid = (lo + hi) / 2
        fm = f(mid)
        if flo * fm <= 0:
            hi = mid
        else:
            lo = mid
            flo = fm
        it += 1
    return (lo + hi) / 2, it


@prog((np.array([10.0, 0.0]), 0.05, 100), (np.array([0.0, 5.0]), 0.1, 3))
def projectile_until_ground(state, dt, max_steps):
    pos = np.array([0.0, 1.0])
    vel = state.copy()
    for step in range(max_steps):
        vel[1] -= 9.81 * dt
        pos = pos + vel * dt
        if pos[1] < 0:
            return step, pos[0]
    return max_steps, pos[0]


@prog((0.5, 200), (0.9, 50))
def lotka_volterra_peak(dt_scale, n):
    x, y = 10.0, 5.0
    a, b, c, d = 1.1, 0.4, 0.4, 0.1
    dt = 0.01 * dt_scale
    peak = x
    peak_step = 0
    for i in range(n):
        dx = a * x - b * x * y
        dy = d * x * y - c * y
        x += dx * dt
        y += dy * dt
        if x > peak:
            peak = x
            peak_step = i
    return peak, peak_step


@prog((np.array([0.0, 1.0, 0.0]), 0.1, 5), (np.array([1.0]), 0.5, 2))
def heat_explicit(u0, r, steps):
    u = u0.astype(float)
    for _ in range(steps):
        new = u.copy()
        for i in range(1, len(u) - 1):
            new[i] = u[i] + r * (u[i - 1] - 2 * u[i] + u[i + 1])
        u = new
    return u


@prog((1.0, 0.0, 1.0), (0.0, 1.0, 0.5))
def romberg(a_unused, lo, hi):
    def f(x):
        return 1.0 / (1.0 + x * x)

    r = np.zeros((5, 5))
    h = hi - lo
    r[0, 0] = h / 2 * (f(lo) + f(hi))
    for i in range(1, 5):
        h /= 2
        s = 0.0
        for k in range(1, 2**i, 2):
            s += f(lo + k * h)
        r[i, 0] = r[i - 1, 0] / 2 + h * s
        for j in range(1, i + 1):
            r[i, j] = r[i, j - 1] + (r[i, j - 1] - r[i - 1, j - 1]) / (4**j - 1)
    return r[4, 4]


@prog(
    (np.array([0.0, 1.0, 2.0, 3.0]), np.array([1.0, 2.0, 0.0, 4.0]), 1.5),
    (np.array([0.0, 1.0]), np.array([0.0, 1.0]), 3.0),
)
def linear_interp(xs, ys, x):
    if x <= xs[0]:
        return ys[0]
    for i in range(1, len(xs)):
        if x <= xs[i]:
            t = (x - xs[i - 1]) / (xs[i] - xs[i - 1])
            return ys[i - 1] + t * (ys[i] - ys[i - 1])
    return ys[-1]


@prog((1.0, 1e-3), (10.0, 1e-1))
def fixed_point_cos(x0, tol):
    x = x0
    history = []
    while True:
        nx = math.cos(x)
        history.append(nx)
        if abs(nx - x) < tol:
            break
        x = nx
    return x, len(history)


# ---------------------------------------------------------------- recursion


@prog((np.array([5, 2, 9, 1, 7, 3]),), (np.array([1]),), (EI,))
def merge_sort_recursive(x):
    def msort(a):
        if len(a) <= 1:
            return list(a)
        mid = len(a) // 2
        left = msort(a[:mid])
        right = msort(a[mid:])
        out = []
        i = j = 0
        while i < len(left) and j < len(right):
            if left[i] <= right[j]:
                out.append(left[i])
                i += 1
            else:
                out.append(right[j])
                j += 1
        return out + left[i:] + right[j:]

    return msort(x)


@prog((np.array([3, 6, 1, 8, 2]),), (np.array([4, 4]),))
def quicksort_recursive(x):
    def qs(a):
        if len(a) < 2:
            return a
        pivot = a[0]
        less = [v for v in a[1:] if v < pivot]
        more = [v for v in a[1:] if v >= pivot]
        return qs(less) + [pivot] + qs(more)

    return qs(list(x))


@prog((10,), (1,), (0,))
def fib_memo(n):
    memo = {}

    def fib(k):
        if k < 2:
            return k
        if k in memo:
            return memo[k]
        memo[k] = fib(k - 1) + fib(k - 2)
        return memo[k]

    return fib(n)


@prog((np.array([1, 2, 3]),), (np.array([7]),))
def subsets_sum(x):
    sums = []

    def go(i, acc):
        if i == len(x):
            sums.append(acc)
            return
        go(i + 1, acc)
        go(i + 1, acc + int(x[i]))

    go(0, 0)
    return sorted(sums)


@prog((np.array([[1.0, 2.0], [3.0, 4.0]]),), (A3,))
def det_recursive(m):
    def det(a):
        n = a.shape[0]
        if n == 1:
            return a[0, 0]
        if n == 2:
            return a[0, 0] * a[1, 1] - a[0, 1] * a[1, 0]
        total = 0.0
        for j in range(n):
            minor = np.delete(np.delete(a, 0, axis=0), j, axis=1)
            total += (-1) ** j * a[0, j] * det(minor)
        return total

    return det(m)


@prog((np.array([1, 3, 5, 7, 9, 11]), 7), (np.array([1, 3, 5]), 4))
def binary_search_recursive(a, target):
    def bs(lo, hi):
        if lo > hi:
            return -1
        mid = (lo + hi) // 2
        if a[mid] == target:
            return mid
        if a[mid] < target:
            return bs(mid + 1, hi)
        return bs(lo, mid - 1)

    return bs(0, len(a) - 1)


@prog((3,), (1,))
def hanoi_moves(n):
    moves = []

    def hanoi(k, src, dst, via):
        if k == 0:
            return
        hanoi(k - 1, src, via, dst)
        moves.append((src, dst))
        hanoi(k - 1, via, dst, src)

    hanoi(n, 0, 2, 1)
    return len(moves), moves[:3]


@prog((np.array([2, 3, 5]), 8), (np.array([4]), 3))
def coin_change_ways_recursive(coins, amount):
    cache = {}

    def ways(i, rem):
        if rem == 0:
            return 1
        if rem < 0 or i == len(coins):
            return 0
        key = (i, rem)
        if key not in cache:
            cache[key] = ways(i, rem - int(coins[i])) + ways(i + 1, rem)
        return cache[key]

    return ways(0, amount)


@prog((np.array([[1, [2, 3]], [4]], dtype=object),), (np.array([5]),))
def flatten_nested(x):
    out = []

    def walk(v):
        if isinstance(v, (list, np.ndarray)):
            for w in v:
                walk(w)
        else:
            out.append(v)

    walk(list(x))
    return out


@prog((48, 18), (7, 0), (0, 5))
def gcd_recursive(a, b):
    def gcd(x, y):
        return x if y == 0 else gcd(y, x % y)

    return gcd(a, b)


@prog((np.array([1.0, 2.0, 3.0, 4.0]),), (np.array([5.0]),))
def recursive_sum_halves(x):
    def s(a):
        if len(a) == 1:
            return a[0]
        m = len(a) // 2
        return s(a[:m]) + s(a[m:])

    return s(x)


# ---------------------------------------------------------------- dynamic programming on tables


@prog((np.array([[1, 3, 1], [1, 5, 1], [4, 2, 1]]),), (np.array([[7]]),))
def min_path_sum(grid):
    n, m = grid.shape
    dp = np.zeros((n, m), dtype=grid.dtype)
    for i in range(n):
        for j in range(m):
            if i == 0 and j == 0:
                dp[i, j] = grid[i, j]
            elif i == 0:
                dp[i, j] = dp[i, j - 1] + grid[i, j]
            elif j == 0:
                dp[i, j] = dp[i - 1, j] + grid[i, j]
            else:
                dp[i, j] = min(dp[i - 1, j], dp[i, j - 1]) + grid[i, j]
    return dp[-1, -1]


@prog((np.array([[0, 0, 0], [0, 1, 0], [0, 0, 0]]),), (np.array([[0, 1], [1, 0]]),))
def unique_paths_obstacles(grid):
    n, m = grid.shape
    dp = np.zeros((n, m), dtype=np.int64)
    for i in range(n):
        for j in range(m):
            if grid[i, j] == 1:
                dp[i, j] = 0
            elif i == 0 and j == 0:
                dp[i, j] = 1
            else:
                up = dp[i - 1, j] if i > 0 else 0
                left = dp[i, j - 1] if j > 0 else 0
                dp[i, j] = up + left
    return int(dp[n - 1, m - 1])


@prog((np.array([1, 3, 4]), np.array([15, 20, 30]), 4), (np.array([5]), np.array([10]), 4))
def knapsack_01_table(weights, values, cap):
    n = len(weights)
    dp = np.zeros((n + 1, cap + 1))
    for i in range(1, n + 1):
        w = weights[i - 1]
        for c in range(cap + 1):
            dp[i, c] = dp[i - 1, c]
            if w <= c and dp[i - 1, c - w] + values[i - 1] > dp[i, c]:
                dp[i, c] = dp[i - 1, c - w] + values[i - 1]
    chosen = []
    c = cap
    for i in range(n, 0, -1):
        if dp[i, c] != dp[i - 1, c]:
            chosen.append(i - 1)
            c -= weights[i - 1]
    return dp[n, cap], chosen[::-1]


@prog((np.array([[1, 0, 1, 1], [1, 1, 1, 1], [0, 1, 1, 1]]),), (np.zeros((2, 2), dtype=int),))
def largest_square(grid):
    n, m = grid.shape
    dp = np.zeros((n, m), dtype=int)
    best = 0
    for i in range(n):
        for j in range(m):
            if grid[i, j]:
                if i == 0 or j == 0:
                    dp[i, j] = 1
                else:
                    dp[i, j] = 1 + min(dp[i - 1, j], dp[i, j - 1], dp[i - 1, j - 1])
                best = max(best, dp[i, j])
    return best * best


@prog((np.array([10, 20, 30, 40]),), (np.array([5, 10]),))
def matrix_chain_order(dims):
    n = len(dims) - 1
    cost = np.zeros((n, n))
    for length in range(2, n + 1):
        for i in range(n - length + 1):
            j = i + length - 1
            cost[i, j] = np.inf
            for k in range(i, j):
                c = cost[i, k] + cost[k + 1, j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i, j]:
                    cost[i, j] = c
    return cost[0, n - 1]


@prog((np.array([1, 2, 3, 1, 2]),), (np.array([4]),))
def longest_palindromic_subseq(s):
    n = len(s)
    dp = np.zeros((n, n), dtype=int)
    for i in range(n - 1, -1, -1):
        dp[i, i] = 1
        for j in range(i + 1, n):
            if s[i] == s[j]:
                dp[i, j] = dp[i + 1, j - 1] + 2
            else:
                dp[i, j] = max(dp[i + 1, j], dp[i, j - 1])
    return dp[0, n - 1]


@prog((np.array([[3.0, 1.0, 2.0], [4.0, 1.0, 0.5], [1.0, 9.0, 1.0]]),), (np.array([[2.0]]),))
def seam_min_energy(energy):
    h, w = energy.shape
    cost = energy.copy()
    for i in range(1, h):
        for j in range(w):
            lo = max(j - 1, 0)
            hi = min(j + 2, w)
            cost[i, j] += cost[i - 1, lo:hi].min()
    seam = [int(np.argmin(cost[-1]))]
    for i in range(h - 2, -1, -1):
        j = seam[-1]
        lo = max(j - 1, 0)
        seam.append(lo + int(np.argmin(cost[i, lo : min(j + 2, w)])))
    return cost[-1].min(), seam[::-1]


@prog((np.array([2, 5, 1, 8, 3, 9]),), (np.array([3, 2, 1]),))
def longest_increasing_subseq(x):
    n = len(x)
    best = [1] * n
    prev = [-1] * n
    for i in range(n):
        for j in range(i):
            if x[j] < x[i] and best[j] + 1 > best[i]:
                best[i] = best[j] + 1
                prev[i] = j
    k = int(np.argmax(best))
    seq = []
    while k != -1:
        seq.append(int(x[k]))
        k = prev[k]
    return seq[::-1]


@prog((np.array([1, 2, 5]), 11), (np.array([2]), 3))
def coin_change_min(coins, amount):
    inf = amount + 1
    dp = [0] + [inf] * amount
    for a in range(1, amount + 1):
        for c in coins:
            if c <= a and dp[a - c] + 1 < dp[a]:
                dp[a] = dp[a - c] + 1
    return dp[amount] if dp[amount] != inf else -1


@prog((np.array([1, 2, 3]), np.array([1, 3, 2])), (np.array([4, 4]), np.array([4])))
def dtw_distance(a, b):
    n, m = len(a), len(b)
    d = np.full((n + 1, m + 1), np.inf)
    d[0, 0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = abs(a[i - 1] - b[j - 1])
            d[i, j] = cost + min(d[i - 1, j], d[i, j - 1], d[i - 1, j - 1])
    return d[n, m]


@prog(
    (np.array([[0.9, 0.1], [0.2, 0.8]]), np.array([[0.7, 0.3], [0.1, 0.9]]), np.array([0, 1, 1])),
    (np.array([[1.0]]), np.array([[1.0]]), np.array([0])),
)
def viterbi_path(trans, emit, obs):
    n = trans.shape[0]
    T = len(obs)
    v = np.zeros((T, n))
    back = np.zeros((T, n), dtype=int)
    v[0] = np.log(emit[:, obs[0]] + 1e-12) - np.log(n)
    for t in range(1, T):
        for s in range(n):
            scores = v[t - 1] + np.log(trans[:, s] + 1e-12)
            back[t, s] = np.argmax(scores)
            v[t, s] = scores[back[t, s]] + np.log(emit[s, obs[t]] + 1e-12)
    path = [int(np.argmax(v[-1]))]
    for t in range(T - 1, 0, -1):
        path.append(int(back[t, path[-1]]))
    return path[::-1]


@prog((5,), (1,))
def pascal_triangle(n):
    rows = [[1]]
    for i in range(1, n):
        prev = rows[-1]
        row = [1]
        for j in range(1, i):
            row.append(prev[j - 1] + prev[j])
        row.append(1)
        rows.append(row)
    return rows


@prog((np.array([[1, 2, 3], [4, 5, 6]]),), (np.array([[5]]),))
def prefix_sum_2d(a):
    n, m = a.shape
    s = np.zeros((n + 1, m + 1), dtype=a.dtype)
    for i in range(n):
        for j in range(m):
            s[i + 1, j + 1] = a[i, j] + s[i, j + 1] + s[i + 1, j] - s[i, j]
    return s


@prog((np.array([3, 34, 4, 12, 5, 2]), 9), (np.array([3]), 2))
def subset_sum_table(x, target):
    can = np.zeros(target + 1, dtype=bool)
    can[0] = True
    for v in x:
        for t in range(target, v - 1, -1):
            if can[t - v]:
                can[t] = True
    return bool(can[target])


# ---------------------------------------------------------------- graph algorithms


@prog((G5, 0), (G4, 3))
def dfs_order_stack(adj, start):
    seen = set()
    order = []
    stack = [start]
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        order.append(v)
        for w in range(len(adj) - 1, -1, -1):
            if adj[v, w] and w not in seen:
                stack.append(w)
    return order


@prog((G5, 0, 4), (G4, 0, 3))
def bfs_shortest_hops(adj, src, dst):
    n = len(adj)
    dist = [-1] * n
    dist[src] = 0
    queue = [src]
    while queue:
        v = queue.pop(0)
        if v == dst:
            return dist[v]
        for w in range(n):
            if adj[v, w] and dist[w] == -1:
                dist[w] = dist[v] + 1
                queue.append(w)
    return -1


@prog((EDGES, 6), (EDGES2, 2))
def union_find_components(edges, n):
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in edges:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    return len({find(i) for i in range(n)})


@prog((W4, 0), (W3D, 2))
def dijkstra_dense(w, src):
    n = len(w)
    dist = np.full(n, np.inf)
    dist[src] = 0.0
    done = np.zeros(n, dtype=bool)
    for _ in range(n):
        u = -1
        best = np.inf
        for i in range(n):
            if not done[i] and dist[i] < best:
                best = dist[i]
                u = i
        if u == -1:
            break
        done[u] = True
        for v in range(n):
            if w[u, v] > 0 and dist[u] + w[u, v] < dist[v]:
                dist[v] = dist[u] + w[u, v]
    return dist


@prog((W4,), (W3D,))
def floyd_warshall(w):
    n = len(w)
    d = np.where(w > 0, w, np.inf)
    np.fill_diagonal(d, 0.0)
    for k in range(n):
        for i in range(n):
            for j in range(n):
                if d[i, k] + d[k, j] < d[i, j]:
                    d[i, j] = d[i, k] + d[k, j]
    return d


@prog((DAG,), (CYC,))
def has_cycle_colors(adj):
    n = len(adj)
    color = [0] * n
    for s in range(n):
        if color[s]:
            continue
        stack = [(s, 0)]
        color[s] = 1
        while stack:
            v, i = stack.pop()
            if i < n:
                stack.append((v, i + 1))
                if adj[v, i]:
                    if color[i] == 1:
                        return True
                    if color[i] == 0:
                        color[i] = 1
                        stack.append((i, 0))
            else:
                color[v] = 2
    return False


@prog((W4,), (np.array([[0.0, 1.0], [1.0, 0.0]]),))
def prim_mst_weight(w):
    n = len(w)
    in_tree = [False] * n
    key = [math.inf] * n
    key[0] = 0.0
    total = 0.0
    for _ in range(n):
        u = min((k, i) for i, k in enumerate(key) if not in_tree[i])[1]
        in_tree[u] = True
        total += key[u]
        for v in range(n):
            if w[u, v] > 0 and not in_tree[v] and w[u, v] < key[v]:
                key[v] = w[u, v]
    return total


@prog(
    (np.array([[0, 1, 4.0], [1, 2, 2.0], [0, 2, 5.0], [2, 3, 1.0]]), 4),
    (np.array([[0, 1, 1.0]]), 3),
)
def kruskal_mst(edges, n):
    order = np.argsort(edges[:, 2])
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x

    total = 0.0
    used = []
    for k in order:
        a, b, wt = edges[k]
        ra, rb = find(int(a)), find(int(b))
        if ra != rb:
            parent[ra] = rb
            total += wt
            used.append(int(k))
    return total, used


@prog((G5,), (G4,))
def degree_stats(adj):
    deg = adj.sum(axis=1)
    isolated = [i for i in range(len(deg)) if deg[i] == 0]
    return {"max": int(deg.max()), "min": int(deg.min()), "isolated": isolated}


@prog((G5,), (np.array([[0, 1, 1], [1, 0, 1], [1, 1, 0]]),))
def is_bipartite(adj):
    n = len(adj)
    side = [-1] * n
    for s in range(n):
        if side[s] != -1:
            continue
        side[s] = 0
        queue = [s]
        while queue:
            v = queue.pop(0)
            for w in range(n):
                if adj[v, w]:
                    if side[w] == -1:
                        side[w] = 1 - side[v]
                        queue.append(w)
                    elif side[w] == side[v]:
                        return False
    return True


@prog((np.array([[0, 1, 0], [0, 0, 1], [0, 0, 0]]),), (CYC,))
def transitive_closure(adj):
    r = adj.astype(bool)
    n = len(r)
    for k in range(n):
        for i in range(n):
            if r[i, k]:
                r[i] = r[i] | r[k]
    return r


@prog(
    (np.array([[0, 1, 1, 0], [1, 0, 1, 0], [1, 1, 0, 1], [0, 0, 1, 0]]), 20),
    (np.array([[0, 1], [1, 0]]), 5),
)
def pagerank_iter(adj, iters):
    n = len(adj)
    out = adj.sum(axis=1)
    pr = np.full(n, 1.0 / n)
    for _ in range(iters):
        new = np.full(n, 0.15 / n)
        for i in range(n):
            if out[i] == 0:
                continue
            for j in range(n):
                if adj[i, j]:
                    new[j] += 0.85 * pr[i] / out[i]
        if np.abs(new - pr).sum() < 1e-10:
            break
        pr = new
    return pr


@prog((np.array([[0, 0, 1], [1, 0, 1], [0, 0, 0]]),), (np.zeros((3, 3), dtype=int),))
def grid_islands(grid):
    g = grid.copy()
    n, m = g.shape
    count = 0
    for i in range(n):
        for j in range(m):
            if g[i, j] == 1:
                count += 1
                stack = [(i, j)]
                while stack:
                    a, b = stack.pop()
                    if 0 <= a < n and 0 <= b < m and g[a, b] == 1:
                        g[a, b] = 0
                        stack.extend([(a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1)])
    return count


@prog(
    (np.array([[0, 0, 0], [1, 1, 0], [0, 0, 0]]), (0, 0), (2, 0)),
    (np.array([[0, 1], [1, 0]]), (0, 0), (1, 1)),
)
def maze_bfs_path(maze, start, goal):
    n, m = maze.shape
    prev = {start: None}
    queue = [start]
    while queue:
        cur = queue.pop(0)
        if cur == goal:
            break
        r, c = cur
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < n and 0 <= nc < m and maze[nr, nc] == 0 and (nr, nc) not in prev:
                prev[(nr, nc)] = cur
                queue.append((nr, nc))
    if goal not in prev:
        return None
    path = []
    node = goal
    while node is not None:
        path.append(node)
        node = prev[node]
    return path[::-1]


@prog(
    (np.array([[0.0, 5.0, 0.0], [0.0, 0.0, 3.0], [0.0, 0.0, 0.0]]), 0, 2),
    (np.array([[0.0, 2.0], [0.0, 0.0]]), 1, 0),
)
def max_flow_edmonds_karp(cap, s, t):
    n = len(cap)
    res = cap.copy()
    flow = 0.0
    while True:
        parent = [-1] * n
        parent[s] = s
        queue = [s]
        while queue and parent[t] == -1:
            u = queue.pop(0)
            for v in range(n):
                if parent[v] == -1 and res[u, v] > 0:
                    parent[v] = u
                    queue.append(v)
        if parent[t] == -1:
            break
        aug = np.inf
        v = t
        while v != s:
            aug = min(aug, res[parent[v], v])
            v = parent[v]
        v = t
        while v != s:
            res[parent[v], v] -= aug
            res[v, parent[v]] += aug
            v = parent[v]
        flow += aug
    return flow


# ---------------------------------------------------------------- seeded simulations


@prog((0, 100), (7, 10))
def random_walk_first_hit(seed, n):
    g = np.random.default_rng(seed)
    pos = 0
    for step in range(n):
        pos += 1 if g.random() < 0.5 else -1
        if abs(pos) >= 5:
            return step, pos
    return None


@prog((1, 2000), (2, 50))
def monte_carlo_pi(seed, n):
    g = np.random.default_rng(seed)
    inside = 0
    for _ in range(n):
        x, y = g.random(2)
        if x * x + y * y <= 1:
            inside += 1
    return 4 * inside / n


@prog((3, 6), (4, 2))
def dice_game(seed, rounds):
    g = np.random.default_rng(seed)
    score = {"alice": 0, "bob": 0}
    for _ in range(rounds):
        a = g.integers(1, 7)
        b = g.integers(1, 7)
        if a > b:
            score["alice"] += 1
        elif b > a:
            score["bob"] += 1
    winner = max(score, key=score.get)
    return score, winner


@prog((5, 30, 0.3), (6, 5, 0.9))
def sir_epidemic(seed, days, beta):
    g = np.random.default_rng(seed)
    s, i, r = 95, 5, 0
    peak = i
    for day in range(days):
        new_inf = g.binomial(s, 1 - np.exp(-beta * i / 100))
        new_rec = g.binomial(i, 0.1)
        s -= new_inf
        i += new_inf - new_rec
        r += new_rec
        peak = max(peak, i)
        if i == 0:
            break
    return s, i, r, peak


@prog((8, 20), (9, 3))
def gambler_ruin(seed, stake):
    g = np.random.default_rng(seed)
    money = stake
    rounds = 0
    while 0 < money < 2 * stake and rounds < 1000:
        money += g.choice([-1, 1])
        rounds += 1
    return money, rounds


@prog((10, np.array([0.1, 0.6, 0.3]), 50), (11, np.array([1.0]), 4))
def markov_chain_visits(seed, p_stay, n):
    g = np.random.default_rng(seed)
    k = len(p_stay)
    state = 0
    visits = np.zeros(k, dtype=int)
    for _ in range(n):
        visits[state] += 1
        if g.random() > p_stay[state]:
            state = (state + 1) % k
    return visits


@prog((12, 6, 5), (13, 3, 1))
def shuffle_deal(seed, players, cards):
    g = np.random.default_rng(seed)
    deck = np.arange(52)
    g.shuffle(deck)
    hands = []
    for p in range(players):
        hands.append(sorted(int(c) for c in deck[p * cards : (p + 1) * cards]))
    return hands


@prog((14, 200), (15, 20))
def birthday_collisions(seed, trials):
    g = np.random.default_rng(seed)
    hits = 0
    for _ in range(trials):
        days = g.integers(0, 365, size=23)
        if len(set(days.tolist())) < 23:
            hits += 1
    return hits / trials


@prog((16, np.array([0.5, 0.2, 0.9])), (17, np.array([0.0])))
def bernoulli_bandit_greedy(seed, probs):
    g = np.random.default_rng(seed)
    k = len(probs)
    wins = np.zeros(k)
    pulls = np.zeros(k)
    for t in range(60):
        if t < k or g.random() < 0.1:
            arm = t % k
        else:
            arm = int(np.argmax(wins / pulls))
        pulls[arm] += 1
        if g.random() < probs[arm]:
            wins[arm] += 1
    return pulls, wins.sum()


@prog((18, 10, 10), (19, 3, 1))
def ising_sweeps(seed, n, sweeps):
    g = np.random.default_rng(seed)
    spins = g.choice([-1, 1], size=n)
    for _ in range(sweeps):
        for i in range(n):
            de = 2 * spins[i] * (spins[i - 1] + spins[(i + 1) % n])
            if de <= 0 or g.random() < np.exp(-de):
                spins[i] = -spins[i]
    return spins.sum()


@prog((20, 5), (21, 1))
def queue_arrivals_poisson(seed, hours):
    g = np.random.default_rng(seed)
    waiting = 0
    report = []
    for h in range(hours):
        arrivals = g.poisson(3)
        served = min(waiting + arrivals, 2)
        waiting = waiting + arrivals - served
        report.append(f"h{h}: +{arrivals} -{served} = {waiting}")
    return report


# ---------------------------------------------------------------- matrix algorithms by hand


@prog((A3,), (SPD,), (SING,))
def lu_no_pivot(a):
    n = len(a)
    L = np.eye(n)
    U = a.astype(float).copy()
    for k in range(n):
        if U[k, k] == 0:
            raise ZeroDivisionError("zero pivot")
        for i in range(k + 1, n):
            L[i, k] = U[i, k] / U[k, k]
            U[i, k:] -= L[i, k] * U[k, k:]
    return L, U


@prog((A3,), (SING,))
def lu_partial_pivot_solve(a):
    n = len(a)
    A = a.astype(float).copy()
    b = np.arange(1.0, n + 1)
    for k in range(n):
        p = k + int(np.argmax(np.abs(A[k:, k])))
        if abs(A[p, k]) < 1e-12:
            return None
        if p != k:
            A[[k, p]] = A[[p, k]]
            b[[k, p]] = b[[p, k]]
        for i in range(k + 1, n):
            f = A[i, k] / A[k, k]
            A[i, k:] -= f * A[k, k:]
            b[i] -= f * b[k]
    x = np.zeros(n)
    for i in range(n - 1, -1, -1):
        x[i] = (b[i] - A[i, i + 1 :] @ x[i + 1 :]) / A[i, i]
    return x


@prog((A3,), (np.array([[1.0, 1.0], [1.0, 1.0]]),))
def gram_schmidt(a):
    q = []
    for j in range(a.shape[1]):
        v = a[:, j].astype(float)
        for u in q:
            v = v - np.dot(u, v) * u
        norm = np.linalg.norm(v)
        if norm < 1e-10:
            continue
        q.append(v / norm)
    return np.array(q).T, len(q)


@prog((SPD, 100), (I2, 5))
def power_iteration(a, iters):
    v = np.ones(len(a)) / np.sqrt(len(a))
    lam = 0.0
    for i in range(iters):
        w = a @ v
        new_lam = float(v @ w)
        v = w / np.linalg.norm(w)
        if abs(new_lam - lam) < 1e-12:
            return new_lam, i
        lam = new_lam
    return lam, iters


@prog((SPD,), (np.array([[1.0, 2.0], [2.0, 1.0]]),))
def cholesky_manual(a):
    n = len(a)
    L = np.zeros_like(a)
    for i in range(n):
        for j in range(i + 1):
            s = a[i, j] - L[i, :j] @ L[j, :j]
            if i == j:
                if s <= 0:
                    raise np.linalg.LinAlgError("not positive definite")
                L[i, j] = np.sqrt(s)
            else:
                L[i, j] = s / L[j, j]
    return L


@prog((SPD, np.array([1.0, 2.0, 3.0])), (I2, np.array([1.0, 1.0])))
def jacobi_solver(a, b):
    x = np.zeros_like(b)
    d = np.diag(a)
    r = a - np.diagflat(d)
    for it in range(200):
        nx = (b - r @ x) / d
        if np.linalg.norm(nx - x) < 1e-10:
            return nx, it
        x = nx
    return x, -1


@prog((SPD, np.array([1.0, 0.0, 1.0])), (I2, np.array([0.0, 0.0])))
def conjugate_gradient(a, b):
    x = np.zeros_like(b)
    r = b - a @ x
    p = r.copy()
    rs = r @ r
    k = 0
    while np.sqrt(rs) > 1e-10 and k < 10:
        ap = a @ p
        alpha = rs / (p @ ap)
        x = x + alpha * p
        r = r - alpha * ap
        new_rs = r @ r
        p = r + new_rs / rs * p
        rs = new_rs
        k += 1
    return x, k


@prog(
    (np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[5.0, 6.0], [7.0, 8.0]])),
    (np.ones((2, 3)), np.ones((2, 2))),
)
def matmul_loops(a, b):
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"shapes {a.shape} and {b.shape} do not align")
    n, k = a.shape
    m = b.shape[1]
    c = np.zeros((n, m))
    for i in range(n):
        for j in range(m):
            s = 0.0
            for t in range(k):
                s += a[i, t] * b[t, j]
            c[i, j] = s
    return c


@prog((A3,), (np.array([[2.0, 1.0], [4.0, 2.0]]),))
def rank_by_elimination(a):
    m = a.astype(float).copy()
    rows, cols = m.shape
    rank = 0
    for c in range(cols):
        pivot = None
        for r in range(rank, rows):
            if abs(m[r, c]) > 1e-10:
                pivot = r
                break
        if pivot is None:
            continue
        m[[rank, pivot]] = m[[pivot, rank]]
        for r in range(rows):
            if r != rank:
                m[r] -= m[r, c] / m[rank, c] * m[rank]
        rank += 1
    return rank


@prog((A3,), (SING,))
def inverse_gauss_jordan(a):
    n = len(a)
    aug = np.hstack([a.astype(float), np.eye(n)])
    for i in range(n):
        p = i + np.argmax(np.abs(aug[i:, i]))
        if abs(aug[p, i]) < 1e-12:
            return "singular"
        aug[[i, p]] = aug[[p, i]]
        aug[i] /= aug[i, i]
        for r in range(n):
            if r != i:
                aug[r] -= aug[r, i] * aug[i]
    return aug[:, n:]


@prog((SPD,), (np.array([[2.0, 0.0], [0.0, 1.0]]),))
def qr_eigen_iter(a):
    m = a.copy()
    for _ in range(50):
        q, r = np.linalg.qr(m)
        m = r @ q
    return np.sort(np.diag(m))


# ---------------------------------------------------------------- sorting and searching by hand


@prog((np.array([5, 2, 4, 6, 1, 3]),), (np.array([1]),), (EI,))
def insertion_sort_inplace(x):
    a = x.copy()
    for i in range(1, len(a)):
        key = a[i]
        j = i - 1
        while j >= 0 and a[j] > key:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = key
    return a


@prog((np.array([5, 1, 4, 2, 8]),), (np.array([1, 2, 3]),))
def bubble_sort_swaps(x):
    a = list(x)
    swaps = 0
    for i in range(len(a)):
        swapped = False
        for j in range(len(a) - 1 - i):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]
                swaps += 1
                swapped = True
        if not swapped:
            break
    return a, swaps


@prog((np.array([4, 1, 3, 9, 7]),), (np.array([2, 2]),))
def counting_sort(x):
    counts = [0] * (int(x.max()) + 1)
    for v in x:
        counts[v] += 1
    out = []
    for v, c in enumerate(counts):
        out.extend([v] * c)
    return out


@prog((np.array([12, 3, 7, 1, 9]), 2), (np.array([4]), 0))
def quickselect_kth(x, k):
    a = list(x)
    lo, hi = 0, len(a) - 1
    while True:
        pivot = a[hi]
        i = lo
        for j in range(lo, hi):
            if a[j] < pivot:
                a[i], a[j] = a[j], a[i]
                i += 1
        a[i], a[hi] = a[hi], a[i]
        if i == k:
            return a[i]
        if i < k:
            lo = i + 1
        else:
            hi = i - 1


@prog((np.array([1, 3, 5, 7, 9]), 6), (np.array([1, 3]), 0), (np.array([2]), 9))
def lower_bound(a, x):
    lo, hi = 0, len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@prog((np.array([4, 5, 6, 7, 0, 1, 2]), 0), (np.array([1]), 3))
def search_rotated(a, target):
    lo, hi = 0, len(a) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if a[mid] == target:
            return mid
        if a[lo] <= a[mid]:
            if a[lo] <= target < a[mid]:
                hi = mid - 1
            else:
                lo = mid + 1
        else:
            if a[mid] < target <= a[hi]:
                lo = mid + 1
            else:
                hi = mid - 1
    return -1


@prog((np.array([[1, 4, 7], [2, 5, 8], [3, 6, 9]]), 5), (np.array([[1, 2], [3, 4]]), 10))
def search_sorted_matrix(m, target):
    r, c = 0, m.shape[1] - 1
    while r < m.shape[0] and c >= 0:
        v = m[r, c]
        if v == target:
            return (r, c)
        if v > target:
            c -= 1
        else:
            r += 1
    return None


@prog((np.array([3.0, 1.0, 2.0]), np.array([9.0, 7.0, 8.0])), (np.array([1.0]), np.array([2.0])))
def argsort_by_hand(keys, values):
    idx = list(range(len(keys)))
    for i in range(len(idx)):
        m = i
        for j in range(i + 1, len(idx)):
            if keys[idx[j]] < keys[idx[m]]:
                m = j
        idx[i], idx[m] = idx[m], idx[i]
    return values[idx]


@prog((np.array([1, 4, 2, 3]), np.array([2, 3, 5])), (EI, np.array([1])))
def merge_two_sorted(a, b):
    a = np.sort(a)
    out = []
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i] <= b[j]:
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    out.extend(a[i:])
    out.extend(b[j:])
    return np.array(out)


@prog((np.array([3, 8, 2, 8, 1]),), (np.array([5]),))
def second_largest(x):
    first = second = None
    for v in x:
        if first is None or v > first:
            second = first
            first = v
        elif v != first and (second is None or v > second):
            second = v
    return second


@prog((np.array([[5, 1], [2, 2], [5, 0], [1, 9]]),), (np.array([[0, 0]]),))
def sort_records_multi_key(rows):
    recs = [(int(r[0]), int(r[1]), i) for i, r in enumerate(rows)]
    recs.sort(key=lambda t: (-t[0], t[1]))
    return [t[2] for t in recs]


@prog((np.array([1, 2, 3, 4, 5, 6, 7]), 3), (np.array([1, 2]), 5))
def rotate_by_reversal(x, k):
    a = list(x)
    n = len(a)
    k %= n

    def rev(i, j):
        while i < j:
            a[i], a[j] = a[j], a[i]
            i += 1
            j -= 1

    rev(0, n - 1)
    rev(0, k - 1)
    rev(k, n - 1)
    return a


# ---------------------------------------------------------------- early exits and checks


@prog((np.array([[1, 2, 3], [4, 5, 6]]), 5), (np.array([[1, 2], [3, 4]]), 9))
def find_in_grid(grid, target):
    for i in range(grid.shape[0]):
        for j in range(grid.shape[1]):
            if grid[i, j] == target:
                return i, j
    return None


@prog((np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), 10), (np.array([[9, 9]]), 1))
def first_pair_over(m, limit):
    found = None
    for i in range(len(m)):
        for j in range(len(m[i])):
            if m[i, j] > limit:
                found = (i, j)
                break
        if found is not None:
            break
    return found


@prog((np.array([2, 7, 11, 15]), 9), (np.array([1, 2]), 10))
def two_sum_nested(a, target):
    for i in range(len(a)):
        for j in range(i + 1, len(a)):
            if a[i] + a[j] == target:
                return [i, j]
    return []


@prog((np.array([1.0, 2.0, -1.0, 4.0]),), (np.array([1.0, 2.0]),), (np.array([np.nan]),))
def validate_readings(x):
    try:
        for i, v in enumerate(x):
            if np.isnan(v):
                raise ValueError(f"reading {i} is missing")
            if v < 0:
                raise ValueError(f"reading {i} is negative: {v}")
    except ValueError as e:
        return str(e)
    return "ok"


@prog((np.array([4.0, 0.0, 2.0]), np.array([2.0, 1.0, 0.0])), (np.array([1.0]), np.array([1.0])))
def safe_ratios(a, b):
    out = []
    for x, y in zip(a, b):
        try:
            if y == 0:
                raise ZeroDivisionError
            out.append(x / y)
        except ZeroDivisionError:
            out.append(None)
    return out


@prog((np.array([3, 5, 7]),), (np.array([3, 4]),))
def all_odd_early(x):
    for v in x:
        if v % 2 == 0:
            print(f"found even {v}")
            return False
    return True


@prog((np.array([[1, 2], [3, 4]]),), (np.array([[1, 2], [2, 1]]),), (np.ones((2, 3)),))
def check_square_symmetric(m):
    if m.shape[0] != m.shape[1]:
        raise ValueError("matrix is not square")
    n = m.shape[0]
    for i in range(n):
        for j in range(i):
            if m[i, j] != m[j, i]:
                return False, (i, j)
    return True, None


@prog((np.array([1.0, 2.0, 3.0]),), (np.array([1.0, -2.0]),))
def log_sum_guarded(x):
    total = 0.0
    skipped = 0
    for v in x:
        if v <= 0:
            skipped += 1
            continue
        total += math.log(v)
    assert skipped < len(x), "no positive values"
    return total, skipped


@prog((np.array([5, 1, 3, 9, 2]), 8), (np.array([1]), 0))
def while_else_search(x, target):
    i = 0
    while i < len(x):
        if x[i] > target:
            break
        i += 1
    else:
        return "none above"
    return f"first above at {i}"


@prog((np.array([1, 2, 3]), 2), (np.array([7, 8]), 9))
def for_else_membership(x, v):
    for i, e in enumerate(x):
        if e == v:
            idx = i
            break
    else:
        idx = -1
    return idx


# ---------------------------------------------------------------- dicts, sets, records, strings


@prog((np.array([1, 2, 2, 3, 3, 3]),), (EI,))
def histogram_dict(x):
    h = {}
    for v in x:
        h[int(v)] = h.get(int(v), 0) + 1
    return sorted(h.items(), key=lambda kv: -kv[1])


@prog((np.array([1, 2, 3, 4]), np.array([3, 4, 5])), (np.array([1]), np.array([2])))
def set_overlap(a, b):
    sa = set(a.tolist())
    sb = set(b.tolist())
    return sorted(sa & sb), sorted(sa - sb), len(sa | sb)


@prog((np.array([4, 3, 2, 7, 8, 2, 3, 1]),), (np.array([1, 2]),))
def find_duplicates(x):
    seen = set()
    dups = []
    for v in x:
        if v in seen and v not in dups:
            dups.append(v)
        seen.add(v)
    return dups


@prog(
    (np.array([2, 0, 1, 2, 2]), np.array([10.0, 5.0, 7.0, 1.0, 2.0])),
    (np.array([0]), np.array([3.0])),
)
def group_sum_by_key(keys, vals):
    sums = {}
    counts = {}
    for k, v in zip(keys, vals):
        k = int(k)
        sums[k] = sums.get(k, 0.0) + v
        counts[k] = counts.get(k, 0) + 1
    return {k: sums[k] / counts[k] for k in sorted(sums)}


@prog((np.array([[1, 85], [2, 92], [3, 58], [4, 71]]),), (np.array([[9, 40]]),))
def student_records(rows):
    records = []
    for sid, score in rows:
        grade = "pass" if score >= 60 else "fail"
        records.append({"id": int(sid), "score": int(score), "grade": grade})
    passed = [r["id"] for r in records if r["grade"] == "pass"]
    best = max(records, key=lambda r: r["score"])
    return passed, best["id"]


@dataclass
class Sensor:
    sid: int
    readings: list

    def mean(self):
        return sum(self.readings) / len(self.readings) if self.readings else 0.0

    def alarm(self, limit):
        return any(r > limit for r in self.readings)


@prog((np.array([[0, 1.0], [1, 5.0], [0, 3.0], [1, 9.0]]), 8.0), (np.array([[0, 1.0]]), 0.5))
def sensor_alarms(data, limit):
    sensors = {}
    for sid, val in data:
        sid = int(sid)
        if sid not in sensors:
            sensors[sid] = Sensor(sid, [])
        sensors[sid].readings.append(float(val))
    return {s.sid: (s.mean(), s.alarm(limit)) for s in sensors.values()}


@prog((np.array([3.14159, 2.71828, 1.41421]),), (np.array([100.0]),))
def format_table(x):
    lines = ["idx | value"]
    for i, v in enumerate(x):
        lines.append(f"{i:>3} | {v:8.3f}")
    return "\n".join(lines)


@prog((np.array([72.5, 88.0, 95.5]),), (np.array([10.0]),))
def print_summary(x):
    print("count:", len(x))
    print("mean: %.2f" % x.mean())  # noqa: UP031
    print(f"max: {x.max()}")
    return x.mean()


@prog((np.array([1, 0, 2]),), (np.array([2, 2]),))
def label_names(codes):
    names = {0: "cat", 1: "dog", 2: "bird"}
    labels = [names[int(c)] for c in codes]
    return ", ".join(labels).upper()


@prog((np.array([0.1, 0.7, 0.2]),), (np.array([0.5, 0.5]),))
def predict_label(probs):
    classes = ["neg", "neu", "pos"][: len(probs)]
    k = int(np.argmax(probs))
    conf = probs[k]
    if conf < 0.6:
        return f"unsure ({classes[k]}, {conf:.0%})"
    return classes[k]


@prog((np.array([3, 1, 2]),), (np.array([1]),))
def word_frequency_sentence(x):
    words = ["the", "cat", "sat", "on"]
    counts = {}
    for t in x:
        w = words[t]
        counts[w] = counts.get(w, 0) + 1
    parts = [f"{w}={c}" for w, c in sorted(counts.items())]
    return ";".join(parts)


@prog((np.array([5.0, -2.0, 0.0]),), (np.array([1.0]),))
def sign_names(x):
    out = []
    for v in x:
        if v > 0:
            out.append("positive")
        elif v < 0:
            out.append("negative")
        else:
            out.append("zero")
    return out


@prog((np.array([[1, 2], [1, 3], [2, 3], [3, 1]]),), (np.array([[0, 0]]),))
def adjacency_dict(edges):
    adj = {}
    for a, b in edges:
        adj.setdefault(int(a), set()).add(int(b))
        adj.setdefault(int(b), set()).add(int(a))
    return {k: sorted(v) for k, v in adj.items()}


@prog((np.array([1.5, 2.5, 3.5]), "m"), (np.array([0.001]), "km"))
def units_report(x, unit):
    scale = {"m": 1.0, "km": 1000.0}[unit]
    meters = x * scale
    total = meters.sum()
    if total > 1000:
        return f"{total / 1000:.1f} km"
    return f"{total:.1f} m"


@prog((np.array([[2, 3], [0, 5], [2, 1]]),), (np.array([[1, 1]]),))
def merge_records_by_id(rows):
    merged = {}
    for k, v in rows:
        k = int(k)
        if k in merged:
            merged[k].append(int(v))
        else:
            merged[k] = [int(v)]
    return [(k, sum(v)) for k, v in sorted(merged.items())]


@prog((np.array([10, 20, 30]),), (EI,))
def enumerate_to_dict(x):
    return {f"col{i}": int(v) for i, v in enumerate(x)}


@prog((np.array([0.2, 0.9, 0.4, 0.95]), 0.5), (np.array([0.1]), 0.5))
def threshold_events(scores, thr):
    events = []
    active = False
    start = 0
    for i, s in enumerate(scores):
        if s > thr and not active:
            active = True
            start = i
        elif s <= thr and active:
            active = False
            events.append({"start": start, "end": i})
    if active:
        events.append({"start": start, "end": len(scores)})
    return events


class Counter2:
    def __init__(self):
        self.counts = {}

    def add(self, key):
        self.counts[key] = self.counts.get(key, 0) + 1

    def most_common(self):
        if not self.counts:
            return None
        return max(self.counts.items(), key=lambda kv: (kv[1], -kv[0]))


@prog((np.array([5, 3, 5, 1, 3, 5]),), (EI,))
def counter_class(x):
    c = Counter2()
    for v in x:
        c.add(int(v))
    return c.most_common()


@prog((np.array([1.0, 2.0, 3.0, 4.0]),), (np.array([2.0]),))
def running_stats_dataclass(x):
    @dataclass
    class Stats:
        n: int = 0
        total: float = 0.0
        maxv: float = -math.inf

    s = Stats()
    for v in x:
        s.n += 1
        s.total += v
        if v > s.maxv:
            s.maxv = v
    return s.n, s.total / s.n, s.maxv


@prog((np.array([1, 2, 3, 4, 5, 6]),), (np.array([1]),))
def split_even_odd(x):
    groups = {"even": [], "odd": []}
    for v in x:
        groups["even" if v % 2 == 0 else "odd"].append(int(v))
    return groups


@prog((np.array([0, 3, 5, 9]),), (np.array([2]),))
def bucket_labels(x):
    edges = [0, 2, 6]
    names = ["low", "mid", "high"]
    out = []
    for v in x:
        k = 0
        while k + 1 < len(edges) and v >= edges[k + 1]:
            k += 1
        out.append(names[k])
    return out


@prog((np.array([[1, 0], [1, 1], [0, 0]]),), (np.array([[1, 1]]),))
def unique_rows_set(m):
    seen = set()
    order = []
    for row in m:
        key = tuple(row.tolist())
        if key not in seen:
            seen.add(key)
            order.append(key)
    return order


# How each program that is not ok was classified (tools/fresh_batch6_findings.md): b = a
# documented limit, c = an error on code the docs say runs (or a limit they do not list), d =
# a wrong result, e = a crash (an exception that is not an AutoconvError); the key names the
# class in the findings. JAX_FINDINGS overrides on JAX.
FINDINGS = {
    "adjacency_dict": ("b", "L-dict-values-kind"),
    "birthday_collisions": ("b", "L-dict-key"),
    "coin_change_ways_recursive": ("b", "L-dict-key"),
    "counter_class": ("b", "L-dict-key"),
    "counting_sort": ("c", "C8"),
    "decode_ascii": ("b", "L-python-value"),
    "det_recursive": ("b", "L-numpy-function"),
    "fifo_cost_basis": ("e", "E3"),
    "flatten_nested": ("d", "W1"),
    "floyd_warshall": ("b", "L-numpy-function"),
    "grid_bucket_points": ("e", "E2"),
    "group_sum_by_key": ("c", "C5"),
    "has_cycle_colors": ("c", "C3"),
    "histogram_dict": ("b", "L-sorted"),
    "inventory_moves": ("b", "L-attribute-array-index"),
    "ising_sweeps": ("c", "C4"),
    "jacobi_solver": ("b", "L-numpy-function"),
    "job_sequencing_deadlines": ("c", "C9"),
    "label_names": ("e", "E1"),
    "ledger_by_kind": ("c", "C6"),
    "longest_increasing_subseq": ("c", "C2"),
    "maze_bfs_path": ("b", "L-dict-key-some-paths"),
    "merge_records_by_id": ("b", "L-dict-values-kind"),
    "merge_sort_recursive": ("b", "L-tensor-index"),
    "merge_two_sorted": ("b", "L-iterate-run-time-size"),
    "predict_label": ("d", "W2"),
    "print_summary": ("c", "C7"),
    "safe_ratios": ("b", "L-try-raise"),
    "sensor_alarms": ("b", "L-dict-values-kind"),
    "set_overlap": ("b", "L-dict-key"),
    "shuffle_deal": ("c", "C10"),
    "split_even_odd": ("b", "L-list-write-kind"),
    "split_on_separator": ("b", "L-append-kind"),
    "stack_machine": ("c", "C1"),
    "student_records": ("c", "C13"),
    "topo_sort_kahn": ("e", "E2"),
    "union_find_components": ("b", "L-tensor-index"),
    "validate_readings": ("b", "L-try-raise"),
    "word_frequency_sentence": ("b", "L-string-key"),
}
JAX_FINDINGS = {
    "flatten_nested": ("e", "W1"),
    "format_table": ("b", "L-jax-strings"),
    "gram_schmidt": ("b", "L-jax-list"),
    "predict_label": ("b", "L-jax-strings"),
    "units_report": ("b", "L-jax-strings"),
    "while_else_search": ("b", "L-jax-strings"),
    "most_common_token": ("b", "L-jax-size"),
    "prim_mst_weight": ("b", "L-jax-list"),
    "reorder_report": ("b", "L-jax-strings"),
    "seam_min_energy": ("b", "L-jax-size"),
    "top_k_tokens": ("b", "L-jax-size"),
}


if __name__ == "__main__":
    names = [a for a in sys.argv[1:] if not a.startswith("-")]
    if "--table" in sys.argv:
        with contextlib.redirect_stdout(io.StringIO()):  # the programs' own prints
            rows = fresh_batch5.detail(P)
        fresh_batch5.table(rows, len(P), FINDINGS, JAX_FINDINGS)
    elif names or "--detail" in sys.argv:
        chosen = [p for p in P if not names or p[0].__name__ in names]
        with contextlib.redirect_stdout(io.StringIO()):
            rows = fresh_batch5.detail(chosen)
        for name, mode, k, label, exc, message, where in rows:
            print(f"{name} {mode} input {k}: {label} {exc}: {message}\n    raised at {where}")
    else:
        fresh_batch.main(P)
