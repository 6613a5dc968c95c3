import math
from dataclasses import dataclass, field

from tools.probes11.harness import main


class Thermostat:
    LOW, HIGH = 18.0, 24.0

    def __init__(self):
        self.mode = "off"
        self.switches = 0

    def update(self, t):
        new = "heat" if t < self.LOW else ("cool" if t > self.HIGH else "off")
        if new != self.mode:
            self.switches += 1
            self.mode = new
        return self.mode


def p_thermostat(x):
    th = Thermostat()
    modes = [th.update(float(v) * 10) for v in x]
    return modes, th.switches, th.mode


@dataclass
class Inventory:
    items: dict = field(default_factory=dict)

    def add(self, name, n):
        self.items[name] = self.items.get(name, 0) + n

    def remove(self, name, n):
        have = self.items.get(name, 0)
        if have < n:
            return False
        self.items[name] = have - n
        return True


def p_inventory_class(x):
    inv = Inventory()
    inv.add("bolt", 3)
    ok = []
    for v in x:
        ok.append(inv.remove("bolt", int(abs(v)) if v == v else 0))
    return ok, inv.items


class Grader:
    def __init__(self, cut):
        self.cut = cut

    def grade(self, v):
        if v >= self.cut + 2:
            return "A"
        if v >= self.cut:
            return "B"
        return "C"


def p_grader(x):
    g = Grader(1.0)
    return "".join(g.grade(v) for v in x)


class Stack:
    def __init__(self):
        self.items = []

    def push(self, v):
        self.items.append(v)

    def pop(self):
        return self.items.pop() if self.items else None

    def __len__(self):
        return len(self.items)


def p_stack_class(x):
    s = Stack()
    for v in x:
        if v > 1:
            s.push(float(v))
    top = s.pop()
    return top, len(s)


class Vec:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)

    def norm(self):
        return math.sqrt(self.x**2 + self.y**2)


def p_vec_sum(x):
    acc = Vec(0.0, 0.0)
    for v in x:
        if v == v:
            acc = acc + Vec(float(v), 1.0)
    return round(acc.norm(), 9), acc.y


if __name__ == "__main__":
    main(globals())
