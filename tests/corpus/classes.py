"""Methods: self-state in loops, private names, super(), static and class methods, __call__."""

import dataclasses

from tests.differential import add_cases


class Accumulator:
    scale = 2

    def __init__(self, start=0):
        self.n = start
        self.__secret = start * 10
        self.history = []

    def __repr__(self):
        return f"Accumulator({self.n})"

    def add_all(self, xs):
        for x in xs:
            if x < 0:
                continue
            self.n += x
            self.history.append(self.n)
        return self.n

    def drain(self):
        while self.n > 0:
            self.n -= 3
            if self.n % 2 == 0:
                break
        return self.n

    def bump_secret(self, k):
        for _ in range(k):
            self.__secret += 1
        if self.__secret > 12:
            self.__secret = -self.__secret
        return self.__secret

    def __helper(self, v):
        return v * self.scale

    def use_private_helper(self, xs):
        out = []
        for x in xs:
            out.append(self.__helper(x) if x else self._Accumulator__helper(-1))
        return out

    def missing_private(self):
        if self.n >= 0:
            return self.__missing  # AttributeError naming _Accumulator__missing

    @staticmethod
    def clamp(x, lo, hi):
        if x < lo:
            return lo
        elif x > hi:
            return hi
        return x

    @classmethod
    def scaled(cls, xs):
        out = []
        for x in xs:
            out.append(x * cls.scale)
        return cls.__name__, out

    def calls_other_methods(self, xs):
        self.add_all(xs)
        return self.clamp(self.drain(), -1, 1), type(self).scaled(xs)


add_cases(Accumulator.add_all, (Accumulator(), [1, -2, 3]), (Accumulator(5), []))
add_cases(Accumulator.drain, (Accumulator(10),), (Accumulator(0),), (Accumulator(9),))
add_cases(Accumulator.bump_secret, (Accumulator(1), 1), (Accumulator(1), 5))
add_cases(Accumulator.use_private_helper, (Accumulator(), [1, 0, 3]))
add_cases(Accumulator.missing_private, (Accumulator(),), (Accumulator(-1),))
add_cases(Accumulator.clamp, (5, 0, 3), (-1, 0, 3), (2, 0, 3))
add_cases(Accumulator.__dict__["clamp"], (5, 0, 3), name="Accumulator.clamp(staticmethod)")
add_cases(Accumulator.scaled, ([1, 2],))
add_cases(Accumulator.calls_other_methods, (Accumulator(), [4, 5]), (Accumulator(), []))

_bound = Accumulator(1)


def _reset_bound():
    _bound.__init__(1)


add_cases(
    _bound.add_all,
    ([2, 3],),
    name="bound Accumulator.add_all",
    reset=_reset_bound,
    observe=lambda: vars(_bound),
)


class Base:
    def __init__(self, items):
        self.items = list(items)

    def __repr__(self):
        return f"{type(self).__name__}({getattr(self, 'items', '')})"

    def total(self, factor=1):
        s = 0
        for x in self.items:
            s += x * factor
        return s

    def describe(self):
        return "Base"


class Child(Base):
    def __init__(self, items, extra):
        if extra:
            items = [*items, extra]
        super().__init__(items)
        self.extra = extra

    def total(self, factor=1):
        result = 0
        for f in range(1, factor + 1):
            if f == 3:
                break
            result += super().total(f)
        return result

    def describe(self):
        parts = []
        for cls in type(self).__mro__:
            if cls is object:
                continue
            parts.append(cls.__name__)
        return super().describe() + ">" + ",".join(parts)

    def super_in_nested_lambda(self):
        get = lambda: super().describe()  # noqa: E731 - no arguments for super() in a lambda
        return get()


add_cases(Child.total, (Child([1, 2], 3), 1), (Child([1, 2], 0), 4))
add_cases(Child.describe, (Child([], 0),))
add_cases(Child.__init__, (Child.__new__(Child), [1], 2), name="Child.__init__ (super)")
add_cases(Child.super_in_nested_lambda, (Child([], 0),))


class GrandChild(Child):
    def total(self, factor=1):
        if factor > 1:
            return super().total(factor - 1) * 100
        return -super().total()


add_cases(GrandChild.total, (GrandChild([1], 1), 1), (GrandChild([1], 1), 3))


class _Private:
    """A class whose name starts with an underscore: mangling strips it."""

    def __init__(self):
        self.__v = 1

    def grow(self, n):
        while n:
            n -= 1
            self.__v *= 2
        return self.__v


add_cases(_Private.grow, (_Private(), 3))


class Outer:
    def __init__(self):
        self.__x = "outer"

    def make_inner(self):
        class Inner:
            def __init__(self):
                self.__x = "inner"

            def get(self):
                return self.__x

        inner = Inner()
        result = []
        for obj in (self, inner):
            result.append(sorted(k for k in vars(obj) if "x" in k))
        return result, inner.get()


add_cases(Outer.make_inner, (Outer(),))


class Polynomial:
    def __init__(self, coeffs):
        self.coeffs = coeffs

    def __repr__(self):
        return f"Polynomial({self.coeffs})"

    def __call__(self, x):
        result = 0
        for c in reversed(self.coeffs):
            result = result * x + c
        return result

    def __len__(self):
        return len(self.coeffs)

    def __iter__(self):
        i = 0
        while i < len(self.coeffs):
            yield self.coeffs[i]
            i += 1


def evaluate_all(poly, xs):
    out = []
    for x in xs:
        if len(poly) > 1 and x:
            out.append(poly(x))
        else:
            out.append(None)
    return out


add_cases(evaluate_all, (Polynomial([1, 2, 3]), [0, 1, 2]), (Polynomial([4]), [5]))
add_cases(Polynomial.__call__, (Polynomial([1, 0, -1]), 3))


def iterate_custom_iterable(poly):
    total = 0
    for c in poly:
        total += c
    return total


add_cases(iterate_custom_iterable, (Polynomial([1, 2, 3]),))


@dataclasses.dataclass
class Point:
    x: int
    y: int

    def manhattan_steps(self):
        steps = []
        while self.x != 0 or self.y != 0:
            if self.x:
                self.x -= 1 if self.x > 0 else -1
            else:
                self.y -= 1 if self.y > 0 else -1
            steps.append((self.x, self.y))
        return steps


add_cases(Point.manhattan_steps, (Point(2, -1),), (Point(0, 0),))


class WithProperty:
    def __init__(self):
        self._v = 0

    @property
    def v(self):
        print("get v", self._v)
        return self._v

    @v.setter
    def v(self, value):
        print("set v", value)
        self._v = value

    def step(self, n):
        for _ in range(n):
            self.v += 1
            if self.v > 1:
                break
        return self.v


add_cases(WithProperty.step, (WithProperty(), 3), (WithProperty(), 0))


class LocalPrivates:
    def count(self, n):
        __count = 0  # a private local: mangled too, to _LocalPrivates__count
        for i in range(n):
            if i % 2:
                continue
            __count += i
        self.__total = __count
        return __count, vars(self)


add_cases(LocalPrivates.count, (LocalPrivates(), 5), (LocalPrivates(), 0))


class Maker:
    @classmethod
    def create(cls, n):
        return [cls.__name__] * n


class SubMaker(Maker):
    @classmethod
    def create(cls, n):
        out = []
        for i in range(n):
            if i % 2:
                continue
            out += super().create(1)  # zero-argument super() in a class method
        return out

    def class_cell(self):
        names = []
        for _ in range(2):
            names.append(__class__.__name__)  # the implicit __class__ cell
        return names


add_cases(SubMaker.create, (4,), (0,))
add_cases(SubMaker.class_cell, (SubMaker(),))
