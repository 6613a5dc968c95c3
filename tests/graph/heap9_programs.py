"""Programs that keep a priority queue with `heapq` (or a sorted list with `bisect`) whose
items a staged loop pushes: run by tests/graph/test_heap9.py on both backends."""

import bisect
import heapq

import numpy as np


def dijkstra(adj, src):
    n = adj.shape[0]
    dist = np.full(n, np.inf)
    dist[src] = 0.0
    pq = [(0.0, src)]
    while pq:
        d, u = heapq.heappop(pq)
        if d > dist[u]:
            continue
        for v in range(n):
            w = adj[u, v]
            if w > 0 and d + w < dist[v]:
                dist[v] = d + w
                heapq.heappush(pq, (d + w, v))
    return dist


def k_smallest_stream(x, k):
    heap = []
    for v in x:
        heapq.heappush(heap, -v)
        if len(heap) > k:
            heapq.heappop(heap)
    return sorted(-v for v in heap)


def k_smallest_layout(x):
    heap = []
    for v in x:
        heapq.heappush(heap, v)
    return heap


def pop_all(x):
    heap = []
    for v in x:
        heapq.heappush(heap, float(v))
    out = []
    while heap:
        out.append(heapq.heappop(heap))
    return out


def merge_sorted_rows(m):
    heap = []
    for r in range(m.shape[0]):
        heapq.heappush(heap, (m[r, 0], r, 0))
    out = []
    while heap:
        v, r, c = heapq.heappop(heap)
        out.append(v)
        if c + 1 < m.shape[1]:
            heapq.heappush(heap, (m[r, c + 1], r, c + 1))
    return np.array(out)


def event_queue(arrivals, service):
    events = []
    for i in range(len(arrivals)):
        heapq.heappush(events, (arrivals[i], 0, i))
    free_at = 0.0
    done = 0
    waits = 0.0
    while events:
        t, kind, i = heapq.heappop(events)
        if kind == 0:
            start = max(t, free_at)
            waits += start - t
            free_at = start + service[i]
            heapq.heappush(events, (free_at, 1, i))
        else:
            done += 1
    return done, waits


def schedule_by_deadline(deadlines, durations):
    tasks = []
    for i in range(len(deadlines)):
        heapq.heappush(tasks, (deadlines[i], i))
    t = 0
    late = 0
    order = []
    while tasks:
        dl, i = heapq.heappop(tasks)
        t += durations[i]
        if t > dl:
            late += 1
        order.append(i)
    return order, late


def running_median(x):
    lo = []  # max-heap by negation
    hi = []
    out = []
    for v in x:
        if not lo or v <= -lo[0]:
            heapq.heappush(lo, -v)
        else:
            heapq.heappush(hi, v)
        if len(lo) > len(hi) + 1:
            heapq.heappush(hi, -heapq.heappop(lo))
        elif len(hi) > len(lo):
            heapq.heappush(lo, -heapq.heappop(hi))
        if len(lo) > len(hi):
            out.append(-lo[0])
        else:
            out.append((-lo[0] + hi[0]) / 2)
    return np.array(out)


def prim(adj):
    n = adj.shape[0]
    seen = np.zeros(n, dtype=bool)
    pq = [(0.0, 0)]
    total = 0.0
    while pq:
        w, u = heapq.heappop(pq)
        if seen[u]:
            continue
        seen[u] = True
        total += w
        for v in range(n):
            if adj[u, v] > 0 and not seen[v]:
                heapq.heappush(pq, (adj[u, v], v))
    return total


def astar(grid):
    h, w = grid.shape
    best = np.full((h, w), 10**6)
    best[0, 0] = 0
    pq = [(h + w - 2, 0, 0, 0)]
    while pq:
        f, g, r, c = heapq.heappop(pq)
        if r == h - 1 and c == w - 1:
            return g
        if g > best[r, c]:
            continue
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nr, nc = r + dr, c + dc
            if 0 <= nr < h and 0 <= nc < w and grid[nr, nc] == 0:
                ng = g + 1
                if ng < best[nr, nc]:
                    best[nr, nc] = ng
                    heapq.heappush(pq, (ng + (h - 1 - nr) + (w - 1 - nc), ng, nr, nc))
    return -1


def heapify_then_pop(x):
    heap = []
    for v in x:
        if v > 0:
            heap.append(v)
    heapq.heapify(heap)
    first = heapq.heappop(heap) if heap else None
    return first, heap


def pushpop_window(x, k):
    heap = [x[0]] * 0
    for v in x:
        if len(heap) < k:
            heapq.heappush(heap, v)
        else:
            heapq.heappushpop(heap, v)
    return heap


def replace_top(x):
    heap = []
    for v in x:
        heapq.heappush(heap, int(v))
    total = 0
    for _ in range(3):
        if heap:
            top = heapq.heapreplace(heap, 100)
            total += top
    return total, heap


def nsmallest_of_grown(x):
    kept = []
    for v in x:
        if v > 0:
            kept.append(v)
    return heapq.nsmallest(3, kept), heapq.nlargest(2, kept)


def nsmallest_key(x):
    pairs = []
    for i, v in enumerate(x):
        pairs.append((v, i))
    return heapq.nsmallest(2, pairs, key=lambda p: p[1] % 3)


def peek_and_len(x):
    heap = []
    tops = []
    for v in x:
        heapq.heappush(heap, (v % 3, v))
        tops.append(heap[0][1])
    return tops, len(heap), heap[0]


def ties_by_node(dists):
    pq = []
    for i in range(len(dists)):
        heapq.heappush(pq, (dists[i], len(dists) - i))
    order = []
    while pq:
        d, node = heapq.heappop(pq)
        order.append(node)
    return order


def iterate_heap(x):
    heap = []
    for v in x:
        heapq.heappush(heap, v)
    total = 0.0
    for i, v in enumerate(heap):
        total += i * v
    return total


def pop_empty(x):
    heap = []
    for v in x:
        if v > 100:
            heapq.heappush(heap, v)
    return heapq.heappop(heap)


def huffman_cost(freqs):
    heap = []
    for f in freqs:
        heapq.heappush(heap, int(f))
    cost = 0
    while len(heap) > 1:
        a = heapq.heappop(heap)
        b = heapq.heappop(heap)
        cost += a + b
        heapq.heappush(heap, a + b)
    return cost


def kth_largest(x, k):
    heap = []
    for v in x:
        if len(heap) < k:
            heapq.heappush(heap, v)
        elif v > heap[0]:
            heapq.heapreplace(heap, v)
    return heap[0]


def top_k_rows(m, k):
    heap = []
    for i in range(m.shape[0]):
        s = float(np.sum(m[i]))
        heapq.heappush(heap, (s, i))
        if len(heap) > k:
            heapq.heappop(heap)
    return sorted(heap, reverse=True)


def insort_grown(x):
    s = []
    for v in x:
        bisect.insort(s, v)
    return s


def bisect_left_grown(x, q):
    s = []
    for v in x:
        if v > 0:
            s.append(v)
    s.sort()
    return bisect.bisect_left(s, q), bisect.bisect_right(s, q)


def dijkstra_path_len(adj):
    n = adj.shape[0]
    dist = [np.inf] * n
    dist[0] = 0.0
    pq = [(0.0, 0)]
    visited = 0
    while pq:
        d, u = heapq.heappop(pq)
        if d > dist[u]:
            continue
        visited += 1
        for v in range(n):
            if adj[u, v] > 0:
                nd = d + adj[u, v]
                if nd < dist[v]:
                    dist[v] = nd
                    heapq.heappush(pq, (nd, v))
    return dist[n - 1], visited


def lazy_deletion(x):
    heap = []
    removed = np.zeros(len(x), dtype=bool)
    for i in range(len(x)):
        heapq.heappush(heap, (x[i], i))
        if i % 3 == 2:
            removed[i - 1] = True
    out = []
    while heap:
        v, i = heapq.heappop(heap)
        if not removed[i]:
            out.append(i)
    return out


def return_heap_tuples(x):
    pq = []
    for i, v in enumerate(x):
        heapq.heappush(pq, (int(v) % 4, i))
    heapq.heappop(pq)
    return pq


def sum_of_popped(x, k):
    h = []
    for v in x:
        heapq.heappush(h, v)
    s = 0.0
    for _ in range(k):
        s += heapq.heappop(h)
    return s


def heap_in_stack(x):
    heap = [(5.0, -1)]
    for i, v in enumerate(x):
        heapq.heappush(heap, (float(v), i))
    return [heapq.heappop(heap)[1] for _ in range(3)]


RNG = np.random.default_rng(9)
_ADJ = np.round(RNG.uniform(0, 5, (6, 6)) * (RNG.uniform(size=(6, 6)) < 0.5), 1)
_ADJ = np.maximum(_ADJ, _ADJ.T)
_GRID = np.array([[0, 0, 0, 1], [1, 1, 0, 1], [0, 0, 0, 0], [0, 1, 1, 0]])
_X = np.array([5.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0])
_I = np.array([5, 1, 4, 1, 5, 9, 2, 6, 5, 3])

PROGRAMS = [
    (dijkstra, (_ADJ, 0)),
    (k_smallest_stream, (_X, 3)),
    (k_smallest_layout, (_X,)),
    (pop_all, (_I,)),
    (merge_sorted_rows, (np.sort(RNG.integers(0, 20, (3, 4)), axis=1),)),
    (event_queue, (np.array([0.0, 1.0, 1.5, 4.0]), np.array([2.0, 1.0, 3.0, 0.5]))),
    (schedule_by_deadline, (np.array([4, 2, 9, 2]), np.array([1, 2, 3, 1]))),
    (running_median, (_X,)),
    (prim, (_ADJ,)),
    (astar, (_GRID,)),
    (heapify_then_pop, (np.array([3.0, -1.0, 2.0, 7.0, 0.5]),)),
    (pushpop_window, (_X, 4)),
    (replace_top, (_X,)),
    (nsmallest_of_grown, (np.array([3.0, -1.0, 2.0, 7.0, 0.5]),)),
    (nsmallest_key, (_I,)),
    (peek_and_len, (_I,)),
    (ties_by_node, (np.array([2.0, 1.0, 2.0, 1.0, 2.0]),)),
    (iterate_heap, (_X,)),
    (pop_empty, (_X,)),
    (huffman_cost, (_I,)),
    (kth_largest, (_X, 3)),
    (top_k_rows, (RNG.integers(0, 9, (6, 3)), 2)),
    (insort_grown, (_I,)),
    (bisect_left_grown, (np.array([3.0, -1.0, 2.0, 7.0, 0.5]), 2.0)),
    (dijkstra_path_len, (_ADJ,)),
    (lazy_deletion, (_I,)),
    (return_heap_tuples, (_I,)),
    (sum_of_popped, (_X, 4)),
    (heap_in_stack, (_X,)),
]


def return_popped(x):
    pq = []
    for i, v in enumerate(x):
        heapq.heappush(pq, (v, i))
    first = heapq.heappop(pq)
    return first, heapq.heapreplace(pq, (x[0] * 0.0, -1)), pq[0]


def bisect_positions(x):
    s = []
    for v in x:
        bisect.insort_left(s, int(v))
    return [bisect.bisect_left(s, q) + bisect.bisect_right(s, q) for q in (0, 3, 5, 10)], s


PROGRAMS += [(return_popped, (_X,)), (bisect_positions, (_I,))]
