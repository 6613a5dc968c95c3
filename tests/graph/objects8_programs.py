"""Programs with objects of the user's own classes (task objects8): methods, properties,
dunders, dataclasses, inheritance, objects in lists, each run on arrays whose values the
graph knows only when it runs. `test_objects8.py` runs them on every backend."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PROGRAMS: dict = {}


def prog(*inputs):
    def register(fn):
        PROGRAMS[fn.__name__] = (fn, inputs)
        return fn

    return register


class Account:
    def __init__(self, balance):
        self.balance = balance

    def deposit(self, amount):
        self.balance += amount

    def withdraw(self, amount):
        if amount > self.balance:
            return False
        self.balance -= amount
        return True


@prog((np.array([5.0, -3.0, 20.0, 2.0]),), (np.array([-1.0]),))
def bank_account(moves):
    acct = Account(10.0)
    refused = 0
    for m in moves:
        if m >= 0:
            acct.deposit(m)
        elif not acct.withdraw(-m):
            refused += 1
    return acct.balance, refused


class Counter:
    def __init__(self):
        self.n = 0

    def tick(self, v):
        if v > 0:
            self.n += 1

    def __len__(self):
        return self.n


@prog((np.array([1, -2, 3, 4]),), (np.array([0]),))
def counter_len(x):
    c = Counter()
    for v in x:
        c.tick(v)
    return len(c)


class Particle:
    def __init__(self, x, v):
        self.x = x
        self.v = v

    def step(self, dt):
        self.x = self.x + self.v * dt
        if self.x < 0:
            self.x = -self.x
            self.v = -self.v

    @property
    def speed(self):
        return abs(self.v)


@prog((np.array([1.0, -2.0]),), (np.array([0.5, 3.0]),))
def particles(v):
    ps = [Particle(1.0, float(v[0])), Particle(2.0, float(v[1]))]
    for _ in range(4):
        for p in ps:
            p.step(0.5)
    return [p.x for p in ps], max([p.speed for p in ps])


class Mat2:
    def __init__(self, a):
        self.a = a

    def __matmul__(self, other):
        return Mat2(self.a @ other.a)

    def trace(self):
        return float(np.trace(self.a))


@prog((np.array([[1.0, 2.0], [3.0, 4.0]]),))
def matmul_class(a):
    m = Mat2(a)
    r = m @ m @ Mat2(np.eye(2))
    return r.trace(), r.a


@dataclass(order=True)
class Task:
    priority: int
    name: str


@prog((np.array([3, 1, 2]),), (np.array([2, 2, 1]),))
def dataclass_sort(p):
    tasks = [Task(int(p[0]), "a"), Task(int(p[1]), "b"), Task(int(p[2]), "c")]
    tasks.sort()
    return [t.name for t in tasks]


@prog((np.array([3, 1, 2]),), (np.array([2, 2, 1]),))
def dataclass_sorted_reverse(p):
    tasks = [Task(int(p[i]), f"t{i}") for i in range(3)]
    return [t.priority for t in sorted(tasks, reverse=True)]


class Money:
    def __init__(self, cents):
        self.cents = cents

    def __lt__(self, other):
        return self.cents < other.cents

    def __add__(self, other):
        return Money(self.cents + other.cents)


@prog((np.array([300, 150]),), (np.array([100, 200]),))
def dunder_lt_add(c):
    a, b = Money(int(c[0])), Money(int(c[1]))
    total = a + b
    smaller = 0 if a < b else 1
    return total.cents, smaller


class Stack:
    def __init__(self):
        self.items = []

    def push(self, v):
        self.items.append(v)

    def pop(self):
        return self.items.pop()

    def __len__(self):
        return len(self.items)

    def __bool__(self):
        return len(self.items) > 0


@prog((np.array([1, 2, 3]),))
def stack_known_length(x):
    s = Stack()
    for i in range(3):
        s.push(x[i] * 2)
    total = 0
    while s:
        total += s.pop()
    return int(total), len(s)


@prog((np.array([5, 3, 8, 1, 9]),), (np.array([1, 2, 3]),))
def stack_bool_staged(x):
    s = Stack()
    out = []
    for v in x:
        while s and s.items[-1] < v:
            out.append(int(s.pop()))
        s.push(v)
    return out, len(s)


class Queue:
    def __init__(self, n):
        self.slots = [0.0] * n

    def __getitem__(self, i):
        return self.slots[i]

    def __setitem__(self, i, v):
        self.slots[i] = v

    def __iter__(self):
        return iter(self.slots)


@prog((np.array([1.0, 2.0, 3.0]),))
def getitem_iter(x):
    q = Queue(3)
    for i in range(3):
        q[i] = x[i] + 1.0
    return sum(v for v in q), q[1]


class Shape:
    def __init__(self, scale):
        self.scale = scale

    def area(self):
        return 0.0

    def describe(self):
        return self.area() * self.scale


class Square(Shape):
    def __init__(self, side, scale):
        super().__init__(scale)
        self.side = side

    def area(self):
        return self.side * self.side


@prog((np.array([2.0, 3.0]),))
def inheritance_super(x):
    sq = Square(x[0], x[1])
    if sq.describe() > 10:
        return sq.area()
    return -sq.area()


class Stats:
    def __init__(self):
        self.n = 0
        self.total = 0.0
        self.sq = 0.0

    def add(self, v):
        self.n += 1
        self.total += v
        self.sq += v * v

    @property
    def mean(self):
        return self.total / self.n if self.n else 0.0

    @property
    def var(self):
        if self.n < 2:
            return 0.0
        return (self.sq - self.n * self.mean**2) / (self.n - 1)


@prog((np.array([1.0, 2.0, 4.0, -1.0]),), (np.array([-1.0]),))
def running_stats_props(x):
    s = Stats()
    for v in x:
        if v > 0:
            s.add(v)
    return s.mean, s.var


@dataclass
class Point:
    x: float
    y: float

    def norm2(self):
        return self.x * self.x + self.y * self.y


@prog((np.array([3.0, -1.0, 0.5, 2.0]),))
def farthest_point(xs):
    pts = [Point(xs[0], xs[1]), Point(xs[2], xs[3]), Point(1.0, 1.0)]
    best = max(pts, key=lambda p: p.norm2())
    return best.x, best.y


@prog((np.array([3.0, -1.0, 0.5, 2.0]),))
def nearest_point_min(xs):
    pts = [Point(xs[0], xs[1]), Point(xs[2], xs[3])]
    best = min(pts, key=lambda p: abs(p.x) + abs(p.y))
    return best.norm2()


class Vec2:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, o):
        return Vec2(self.x + o.x, self.y + o.y)

    def scale(self, k):
        return Vec2(self.x * k, self.y * k)


@prog((np.array([1.0, -2.0, 0.5]),), (np.array([3.0]),))
def vec_rebound_in_loop(steps):
    pos = Vec2(0.0, 0.0)
    for s in steps:
        pos = pos + Vec2(s, 1.0)
        if pos.x < 0:
            pos = pos.scale(-1.0)
    return pos.x, pos.y


@prog((np.array([1.0, -2.0]),))
def vec_chosen_in_branch(x):
    v = Vec2(x[0], x[1]) if x[0] > 0 else Vec2(x[1], x[0])
    return v.x - v.y


class Item:
    def __init__(self, w, v):
        self.w = w
        self.v = v

    @property
    def ratio(self):
        return self.v / self.w


@prog((np.array([1.0, 2.0, 4.0]), np.array([3.0, 2.0, 8.0])))
def sort_by_property(w, v):
    items = [Item(w[i], v[i]) for i in range(3)]
    items.sort(key=lambda it: it.ratio, reverse=True)
    return [it.w for it in items]


@prog((np.array([1.0, 2.0, 4.0]), np.array([3.0, 2.0, 8.0])))
def sorted_objects_key_attr(w, v):
    items = [Item(w[i], v[i]) for i in range(3)]
    best = sorted(items, key=lambda it: it.v)
    return best[0].ratio + best[-1].w


class Heap:
    def __init__(self, n):
        self.data = [0] * n
        self.size = 0

    def push(self, v):
        self.data[self.size] = v
        self.size += 1


@prog((np.array([4, 1, 3]),))
def attribute_list_fixed(x):
    h = Heap(3)
    for i in range(3):
        h.push(int(x[i]))
    return h.data, h.size


class Thermo:
    def __init__(self):
        self.hot = 0
        self.cold = 0

    def record(self, t):
        if t > 25:
            self._hot()
        else:
            self.cold += 1

    def _hot(self):
        self.hot += 1


@prog((np.array([30.0, 10.0, 26.0]),))
def methods_calling_methods(ts):
    th = Thermo()
    for t in ts:
        th.record(t)
    return th.hot, th.cold


class Wallet:
    def __init__(self, balance):
        self.balance = balance

    def withdraw(self, amount):
        if amount > self.balance:
            raise ValueError("insufficient funds")
        self.balance -= amount


@prog((np.array([5.0, 20.0, 3.0]),))
def withdraw_raises_handled(xs):
    w = Wallet(10.0)
    failed = 0
    for a in xs:
        try:
            w.withdraw(a)
        except ValueError:
            failed += 1
    return w.balance, failed


@prog((np.array([5.0, 20.0]),))
def withdraw_raises_unhandled(xs):
    w = Wallet(10.0)
    for a in xs:
        w.withdraw(a)
    return w.balance


class Grid:
    def __init__(self, a):
        self.a = a

    def __getitem__(self, ij):
        i, j = ij
        return self.a[i, j]

    @property
    def shape(self):
        return self.a.shape


@prog((np.arange(6.0).reshape(2, 3),))
def getitem_tuple_key(a):
    g = Grid(a)
    total = 0.0
    for i in range(g.shape[0]):
        for j in range(g.shape[1]):
            if g[i, j] > 1:
                total += g[i, j]
    return total


class Temperature:
    def __init__(self, c):
        self._c = c

    @property
    def celsius(self):
        return self._c

    @celsius.setter
    def celsius(self, v):
        self._c = max(v, -273.15)

    @property
    def fahrenheit(self):
        return self._c * 9 / 5 + 32


@prog((np.array([-300.0, 20.0]),))
def property_setter(x):
    t = Temperature(0.0)
    for v in x:
        if v < 0:
            t.celsius = v
    return t.celsius, t.fahrenheit


class Range2:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        i = 0
        while i < self.n:
            yield i
            i += 1

    def __contains__(self, v):
        return 0 <= v < self.n


@prog((np.array([1, 5]),))
def contains_dunder(x):
    r = Range2(3)
    return [int(v) in r for v in x] if False else (x[0] in r, x[1] in r)


class Polynomial:
    def __init__(self, coeffs):
        self.coeffs = coeffs

    def __call__(self, x):
        out = 0.0
        for c in reversed(self.coeffs):
            out = out * x + c
        return out


@prog((np.array([2.0]),))
def callable_object(x):
    p = Polynomial([1.0, 0.0, 3.0])
    return p(x[0]), p(x)


class Inventory:
    def __init__(self, stock):
        self.stock = stock

    def take(self, qty):
        if qty > self.stock:
            return 0
        self.stock -= qty
        return qty


@prog((np.array([3, 4, 5]),))
def objects_in_list(qs):
    invs = [Inventory(5), Inventory(8)]
    shipped = 0
    for q in qs:
        for inv in invs:
            shipped += inv.take(q)
    return shipped, [inv.stock for inv in invs]


class Node:
    def __init__(self, val, nxt=None):
        self.val = val
        self.next = nxt


@prog((np.array([1.0, 2.0, 3.0]),))
def linked_list_sum(x):
    head = None
    for i in range(3):
        head = Node(x[i], head)
    total = 0.0
    node = head
    while node is not None:
        if node.val > 1:
            total += node.val
        node = node.next
    return total


class Eq:
    def __init__(self, k):
        self.k = k

    def __eq__(self, other):
        return self.k == other.k

    def __hash__(self):
        return 0


@prog((np.array([1, 1]),), (np.array([1, 2]),))
def dunder_eq(x):
    return Eq(x[0]) == Eq(x[1])


class Clamp:
    lo = 0.0
    hi = 1.0

    @classmethod
    def of(cls, v):
        return min(max(v, cls.lo), cls.hi)

    @staticmethod
    def twice(v):
        return 2 * v


@prog((np.array([1.5, -0.5, 0.25]),))
def classmethod_staticmethod(x):
    return [Clamp.of(Clamp.twice(v)) for v in x]


class PeekStack:
    def __init__(self):
        self._items = []

    def push(self, x):
        self._items.append(x)

    def pop(self):
        if not self._items:
            raise IndexError("pop from empty stack")
        return self._items.pop()

    def peek(self):
        return self._items[-1] if self._items else None

    def __bool__(self):
        return bool(self._items)


@prog((np.array([5, 3, 8, 1, 9]),), (np.array([1, 2, 3]),))
def next_greater_stack_class(x):
    st = PeekStack()
    out = [-1] * len(x)
    for i, v in enumerate(x):
        while st and x[st.peek()] < v:
            out[st.pop()] = int(v)
        st.push(i)
    return out


# --- the named cases of batch 7 (tools/fresh_batch7.py) and batch 5, in small ----------------


@dataclass
class Good:
    name: str
    weight: float
    value: float

    @property
    def ratio(self):
        return self.value / self.weight


@prog(
    (np.array([10.0, 20.0, 30.0]), np.array([60.0, 100.0, 120.0]), 50.0),
    (np.array([1.0]), np.array([1.0]), 0.5),
)
def greedy_knapsack_items(weights, values, cap):
    items = [Good(f"item{i}", w, v) for i, (w, v) in enumerate(zip(weights, values))]
    items.sort(key=lambda it: it.ratio, reverse=True)
    taken = []
    total = 0.0
    for it in items:
        if cap <= 0:
            break
        take = min(it.weight, cap)
        total += take * it.ratio
        cap -= take
        taken.append(it.name)
    return total, taken


@dataclass(order=True)
class Job:
    priority: int
    name: str = ""


@prog((np.array([3, 1, 2, 1]),), (np.array([5]),))
def dataclass_order_tasks(prios):
    tasks = [Job(int(p), f"t{i}") for i, p in enumerate(prios)]
    tasks.sort()
    return [t.name for t in tasks], min(tasks).priority


class QueueSim:
    def __init__(self, servers):
        self.free_at = [0.0] * servers
        self.waits = []

    def arrive(self, t, service):
        k = min(range(len(self.free_at)), key=lambda i: self.free_at[i])
        start = max(t, self.free_at[k])
        self.waits.append(start - t)
        self.free_at[k] = start + service


@prog(
    (np.array([0.0, 1.0, 1.5, 2.0, 6.0]), np.array([3.0, 2.0, 2.0, 1.0, 1.0])),
    (np.array([0.0]), np.array([5.0])),
)
def queue_simulator(arrivals, services):
    sim = QueueSim(2)
    for t, s in zip(arrivals, services):
        sim.arrive(t, s)
    return sim.free_at, sum(sim.waits)


class Vec:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, other):
        return Vec(self.x + other.x, self.y + other.y)

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)

    def __abs__(self):
        return np.hypot(self.x, self.y)

    def __repr__(self):
        return f"Vec({self.x:.2f}, {self.y:.2f})"


@prog((np.array([[1.0, 0.0], [0.0, 2.0], [-3.0, 1.0]]),), (np.array([[0.0, 0.0]]),))
def vector_class_ops(steps):
    pos = Vec(0.0, 0.0)
    for dx, dy in steps:
        pos = pos + Vec(dx, dy) * 0.5
    return repr(pos), abs(pos)


class RunningStats:
    def __init__(self):
        self.n = 0
        self.mean_ = 0.0

    def push(self, v):
        self.n += 1
        self.mean_ += (v - self.mean_) / self.n

    @property
    def mean(self):
        return self.mean_ if self.n > 0 else float("nan")


@prog((np.array([1.0, -2.0, 4.0]),), (np.array([-1.0, -3.0]),))
def running_stats_object(x):
    rs = RunningStats()
    for v in x:
        if v > 0:
            rs.push(v)
    return rs.mean
