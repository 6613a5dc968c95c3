"""Random graph-mode programs: a hypothesis strategy for tests/graph/test_generated_graphs.py.

`programs()` draws a `Program`: the source of a module that defines `generated(x, y, s, k, p)`
over two arrays `x`, `y` of one shape (float64, float32, int64 or int32), a NumPy scalar `s`,
a Python int `k` and a Python float `p`, and the `Signature` those parameters follow.
`inputs(signature)` draws arguments for it.

A body mixes, at random and nested up to three deep:
- staged `if` (conditions on array data: `np.sum(a) > 1`, `x[0] <= c`, `np.any(y > c)`, a
  loop's element) and Python `if` (on `k`, `p`, a `range` index, `len(lst)`, `best is None`);
- `while` loops, each bounded by a counter that its test reads and that the body advances
  first thing, with a data-dependent test beside it (or a Tensor counter alone, or Python
  only), `while True` with a `break`, a convergence loop whose test reads only `delta`, and a
  loop that starts as Python and meets a Tensor test (`bal *= 1 + rate`);
- `for` over `range(3)`, `range(k)`, `range(len(x))`, `range(np.argmax(x), 3)`, an array,
  `enumerate`, `zip(range(..), x)`;
- `break` / `continue` / `return` / `raise ValueError` under staged and Python conditions;
- state that staged code changes: a `None` sentinel (`if best is None or v > best:`), a dict
  item (`d["k"]`), an object attribute (`o.v`), a list that grows (`lst.append(...)`, then
  `np.stack(lst)`, `len(lst)`, `lst[-1]` or `sum(lst)`), an array made with `np.zeros` and
  written in place anywhere (`buf[i % 3] += t`), a step counter (`n += 1`), a local bound only on some paths
  (`u`), Python numbers of different kinds (`t = 1` against `t = 0.5`), in-place updates of an
  array that may be the argument itself (`a = x; a += 1`), `autoconv.print`, `.item()`, and
  calls of a helper function with a staged `if` and two `return`s;
- and the features of `NEW` (issue 24): aliasing (`b = x.copy()` written by swaps, a scalar
  read then writes, views `b[1:]`, `b[::-1]`, a second array `c`), a closure that bumps a
  `nonlocal` counter, a method that changes attributes (`acc.add(v)`), helpers that return
  from inside their loop (`first_above`, `index_above`), Python numbers meeting NumPy values
  (`k + np.float32(p)`, `k // np.int32(2)`, `round`, `abs`, `int`, `float`, an int32 array),
  `try`/`except` (an index out of range for some shapes, a staged `raise` the handler catches,
  a list read past its end), sentinels (`found = None`, `best_i = -1`), unpacking (`lo, hi =
  hi, lo`, `r0, *rest = x`, `e0, e1 = x` of any length, `for i, (u, w) in
  enumerate(zip(x, y))`), items of a Python list (`cnt[i % 3] += 1`, a loop over it that
  appends), and appends with item writes nested in staged blocks;
- and, at most two a program, the features of `graph_programs8.NEW8` (the third round): an
  object with methods changing attributes and a property, filtered dict/set comprehensions,
  `filter`/`map`, `min`/`max` with `key=`, `sorted` of a grown list read at an index, lists of
  lists, strings chosen by staged conditions joined and concatenated, and a counted `while`
  left by a `break` (graph_programs8's docstring; its `CI_OUT` keeps the statements of known
  findings out of CI's draws);
- and, at most two a program, those of `graph_programs9.NEW9` (the fourth round): `heapq`,
  `Counter` / `defaultdict(int)` tallies, `itertools`, f-strings of run-time numbers,
  `divmod` / `//` / `%` of negative ints, chained comparisons, `while True` and `for ... else`
  searches, and nested functions that return early or return pairs (graph_programs9);
- and, at most one a program, those of `graph_programs11.NEW11` (the fifth round): 2-D arrays
  written in nested loops, loop elements as dict keys and set members, comprehensions and
  lambdas that reuse a loop variable's name, a list that held a run-time value before its loop,
  tuples appended, sentinels set from sentinels, methods that return early and change
  attributes, and Python ints counting data (graph_programs11);
- and, sharing that one (at most one of the two rounds' a program), those of
  `graph_programs12.NEW12` (the sixth round): Python
  numbers meeting NumPy values (`pow`, `**`, bool arithmetic, `int(v) * 0.5`), other names
  and views of arrays written, Python lists changed in nested blocks (`del`, `insert`,
  `extend`, `sort`, slice assignment), state a staged loop cannot see (a `nonlocal` counter
  bumped by a call, a class attribute's dict), `while` loops with compound tests and
  `while/else`, `try/finally` and `raise ... from`, strings built in loops, and
  `enumerate(start=1)`, three-way `zip`, `reversed` (graph_programs12).

Every loop is bounded, so every program ends when run eagerly.
"""

import dataclasses
import itertools

import numpy as np
from hypothesis import strategies as st

from tests.graph.graph_programs8 import NEW8, PRELUDE8, RETURNS8, SETUP8, Draws8
from tests.graph.graph_programs9 import NEW9, PRELUDE9, RETURNS9, SETUP9, Draws9
from tests.graph.graph_programs11 import NEW11, PRELUDE11, RETURNS11, SETUP11, Draws11
from tests.graph.graph_programs12 import NEW12, PRELUDE12, RETURNS12, SETUP12, Draws12

DTYPES = ("float64", "float32", "int64", "int32")
FLOATS = (-2.0, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, float("nan"))
INTS = (-3, -2, -1, 0, 1, 2, 3, 4)
LITERALS = ("0", "1", "2", "-1", "0.5", "1.5", "3.0")
MAX_DEPTH = 3
# The fifth or sixth round's feature every program has, in place of drawing at most one of
# them: the construct check of test_generated_graphs.py sets each in turn to see their
# statements, which are thin among all programs.
LATE = ()
# Features of the second round (issue 24): each adds statements `_Writer.stmt` may draw, its
# set-up at the top of the function and the names `generated` may return.
NEW = ("alias", "closure", "method", "early", "numbers", "try", "sentinel", "unpack", "plist")

PRELUDE = """\
import numpy as np

import autoconv


class Box:
    def __init__(self, v):
        self.v = v

    def __repr__(self):
        return f"Box({self.v!r})"


def helper(v, w):
    if v > w:
        return v - w
    return w * 0.5


def first_above(v, c):
    for e in v:
        if e > c:
            return e
    return 0.0


def index_above(v, c):
    for i in range(len(v)):
        if v[i] > c:
            return i
    return -1


class Acc:
    def __init__(self):
        self.n = 0
        self.total = 0.0

    def add(self, v):
        self.n += 1
        self.total = self.total + v
        return self.total


"""


@dataclasses.dataclass(frozen=True)
class Signature:
    """What the parameters of `generated` are: shape and dtypes, and the Python values."""

    n: int
    x_dtype: str
    y_dtype: str
    s_dtype: str
    k: int
    p: float


@dataclasses.dataclass(frozen=True)
class Program:
    source: str
    signature: Signature


class _Writer(Draws8, Draws9, Draws11, Draws12):
    """Draws the body of one program; `lines` is its source."""

    def __init__(self, draw):
        self.draw = draw
        self.lines = []
        self.ids = itertools.count()
        self.budget = draw(st.integers(3, 10))  # statements, roughly
        self.features = draw(
            st.sets(
                st.sampled_from(
                    ["best", "dict", "obj", "list", "steps", "unbound", "print", "buf", *NEW]
                )
            )
        )
        # The third round's features, at most two a program: more would thin out the others.
        self.features |= draw(st.sets(st.sampled_from(NEW8), max_size=2))
        self.features |= draw(st.sets(st.sampled_from(NEW9), max_size=2))  # (so are these)
        # The fifth and sixth rounds' features, at most one of them a program: each draw of a
        # feature costs hypothesis's buffer, and a longer one leaves fewer programs with the
        # earlier rounds' rarer statements.
        self.features |= set(LATE) or draw(st.sets(st.sampled_from(NEW11 + NEW12), max_size=1))
        self.list_of_arrays = draw(st.booleans())
        self.loop_scalars = []  # loop indices and elements in scope
        self.returns = None  # what `return` gives: set by programs() once it has chosen

    def emit(self, indent, text):
        self.lines.append("    " * indent + text)

    def choice(self, options):
        return self.draw(st.sampled_from(options))

    def chance(self, p):
        return self.draw(st.integers(0, 99)) < p * 100

    # -- expressions --

    def data_scalar(self):
        """A scalar that depends on array data: a Tensor in a trace."""
        options = ["np.sum(a)", "np.max(x)", "np.min(y)", "a[0]", "x[-1]", "s", "np.mean(a)"]
        options += [v for v in self.loop_scalars if v.startswith("v")]
        if "dict" in self.features:
            options.append('d["k"]')
        if "obj" in self.features:
            options.append("o.v")
        return self.choice(options)

    def scalar(self, depth=0):
        kind = self.draw(st.integers(0, 8 if depth < 2 else 2))
        if kind == 0:
            return self.data_scalar()
        if kind == 7:
            return f"helper({self.scalar(depth + 1)}, {self.scalar(depth + 1)})"
        if kind == 8:
            if self.chance(0.2):  # rarely: while graphs reject it, it hides everything else
                return f"{self.choice(['np.sum(a)', 'np.max(x)', 'a[0]', 's'])}.item()"
            return self.data_scalar()
        if kind == 1:
            return self.choice(["t", "k", "p", *LITERALS, *self.loop_scalars])
        if kind == 2:
            return self.choice(["t", "s", *self.loop_scalars] or ["t"])
        if kind <= 4:
            op = self.choice(["+", "-", "*"])
            return f"({self.scalar(depth + 1)} {op} {self.scalar(depth + 1)})"
        if kind == 5:
            return f"np.abs({self.scalar(depth + 1)})"
        return f"({self.scalar(depth + 1)} * 0.5)"

    def array(self, depth=0):
        kind = self.draw(st.integers(0, 6 if depth < 2 else 0))
        if kind == 0:
            return self.choice(["a", "a", "x", "y"])
        if kind == 1:
            op = self.choice(["+", "-", "*"])
            return f"({self.array(depth + 1)} {op} {self.array(depth + 1)})"
        if kind == 2:
            op = self.choice(["+", "-", "*"])
            return f"({self.array(depth + 1)} {op} {self.scalar(depth + 1)})"
        if kind == 3:
            return f"np.abs({self.array(depth + 1)})"
        if kind == 4:
            return f"np.maximum({self.array(depth + 1)}, {self.scalar(depth + 1)})"
        if kind == 5:
            a = self.array(depth + 1)
            return f"np.where({a} > {self.choice(LITERALS)}, {a}, {self.scalar(depth + 1)})"
        return f"({self.array(depth + 1)} * 0.5)"

    def staged_cond(self):
        kind = self.draw(st.integers(0, 5))
        cmp = self.choice(["<", "<=", ">", ">="])
        if kind == 0:
            return (
                f"np.{self.choice(['any', 'all'])}({self.array(1)} {cmp} {self.choice(LITERALS)})"
            )
        if kind == 1:
            return f"{self.data_scalar()} {cmp} {self.choice(LITERALS)} and {self.python_cond()}"
        if kind == 2:
            return f"({self.data_scalar()} {cmp} {self.choice(LITERALS)} or {self.staged_cond()})"
        return (
            f"{self.scalar(1) if kind == 3 else self.data_scalar()} {cmp} {self.choice(LITERALS)}"
        )

    def python_cond(self):
        options = ["k > 1", "k % 2 == 0", "p > 0", "p <= 0.5"]
        options += [f"{i} % 2 == 0" for i in self.loop_scalars if i.startswith("i")]
        if "list" in self.features:
            options.append("len(lst) > 1")
        if "best" in self.features:
            options.append("best is None")
        return self.choice(options)

    def ret(self):
        return self.draw(self.returns)

    # -- statements --

    def block(self, indent, depth, jumps):
        """1-3 statements; `jumps`: which of break / continue / return may appear here."""
        n = self.draw(st.integers(1, 3)) if self.budget > 0 else 1
        for _ in range(n):
            self.stmt(indent, depth, jumps)

    def stmt(self, indent, depth, jumps):
        self.budget -= 1
        kinds = ["a", "t", "t", "t_literal", *sorted(self.features - {"print"})]
        # The later rounds' features twice: a program has at most two of each round, and each
        # draws many kinds of statement, which would be thin among the others otherwise.
        kinds += sorted(self.features & {*NEW8, *NEW9, *NEW11, *NEW12})
        if "print" in self.features and self.chance(0.3):
            kinds.append("print")
        if jumps:
            kinds += ["jump", "jump"]
        if depth < MAX_DEPTH and self.budget > 0:
            kinds += ["if", "if", "py_if", "while", "while", "for", "for", "idiom"]
        if self.chance(0.15):
            kinds += ["inplace", "raise"]
        kind = self.choice(kinds)
        emit = lambda text: self.emit(indent, text)  # noqa: E731
        if kind == "a":
            emit(f"a = {self.array()}")
        elif kind == "t":
            emit(f"t {self.choice(['=', '+=', '-='])} {self.scalar()}")
        elif kind == "t_literal":
            emit(f"t = {self.choice(LITERALS)}")
        elif kind == "best":
            v = self.data_scalar()
            emit(f"if best is None or {v} > best:")
            self.emit(indent + 1, f"best = {v}")
        elif kind == "dict":
            prefix = self.choice(['d["k"] + ', ""])
            emit(f'd["k"] = {prefix}{self.scalar()}')
        elif kind == "obj":
            emit(f"o.v = {self.choice(['o.v + ', ''])}{self.scalar()}")
        elif kind == "list":
            emit(f"lst.append({self.array() if self.list_of_arrays else self.scalar()})")
        elif kind == "buf":  # an array made with np.zeros, written in place anywhere
            index = self.choice(
                ["0", "1", "2", *(f"{i} % 3" for i in self.loop_scalars if i[0] == "i")]
            )
            emit(f"buf[{index}] {self.choice(['=', '+=', '-='])} {self.scalar()}")
        elif kind == "steps":
            emit("n += 1")
        elif kind == "unbound":
            emit(f"u = {self.scalar()}")
        elif kind == "print":
            emit(f'autoconv.print("t =", t, "a =", {self.array(1)})')
        elif kind == "inplace":
            emit(f"a += {self.choice(['1', 's', 'x', 't', '0.5'])}")
        elif kind == "raise":
            emit(f"if {self.staged_cond()}:")
            self.emit(indent + 1, 'raise ValueError("bad input")')
        elif kind == "jump":
            jump = self.choice(sorted(jumps))
            cond = self.staged_cond() if self.chance(0.75) else self.python_cond()
            emit(f"if {cond}:")
            self.emit(indent + 1, jump if jump != "return" else f"return {self.ret()}")
        elif kind == "if":
            emit(f"if {self.staged_cond()}:")
            self.block(indent + 1, depth + 1, jumps)
            for _ in range(self.draw(st.integers(0, 1))):
                emit(f"elif {self.staged_cond()}:")
                self.block(indent + 1, depth + 1, jumps)
            if self.draw(st.booleans()):
                emit("else:")
                self.block(indent + 1, depth + 1, jumps)
        elif kind == "py_if":
            emit(f"if {self.python_cond()}:")
            self.block(indent + 1, depth + 1, jumps)
            if self.draw(st.booleans()):
                emit("else:")
                self.block(indent + 1, depth + 1, jumps)
        elif kind in NEW or kind in NEW8 or kind in NEW9 or kind in NEW11 or kind in NEW12:
            getattr(self, kind + ("_" if kind == "try" else ""))(indent, depth, jumps)
        elif kind == "while":
            self.while_loop(indent, depth, jumps)
        elif kind == "for":
            self.for_loop(indent, depth, jumps)
        else:
            self.idiom(indent, jumps)

    def while_loop(self, indent, depth, jumps):
        c = f"c{next(self.ids)}"
        bound = self.choice(["0", "1", "2", "3", "4", "k"])
        kind = self.draw(st.integers(0, 4))
        start = "0"
        if kind == 0:
            test = f"{c} < {bound} and {self.staged_cond()}"
        elif kind == 1:
            test = f"{self.staged_cond()} and {c} < {bound}"
        elif kind == 2:
            test = f"{c} < {bound}"  # Python: unrolled while tracing
        elif kind == 3:  # a Tensor counter: a staged loop whose test reads only the counter
            start = self.choice(["s - s", "np.sum(x) * 0", "np.argmax(y)"])
            test = f"{c} < {bound}"
        else:  # Python counter, staged test in a nested condition
            test = f"{c} < {bound} and ({self.staged_cond()} or {self.python_cond()})"
        self.emit(indent, f"{c} = {start}")
        self.emit(indent, f"while {test}:")
        self.emit(indent + 1, f"{c} += 1")
        self.block(indent + 1, depth + 1, jumps | {"break", "continue"})
        if self.chance(0.2):
            self.emit(indent, "else:")
            self.block(indent + 1, depth + 1, jumps)

    def for_loop(self, indent, depth, jumps):
        i, v = f"i{next(self.ids)}", f"v{next(self.ids)}"
        kind = self.draw(st.integers(0, 7))
        if kind == 6:
            head, names = f"{i} in range(np.argmax(x), {self.choice(['2', '3', 'k'])})", [i]
        elif kind == 0:
            head, names = f"{i} in range({self.choice(['0', '1', '2', '3', 'k', 'k'])})", [i]
        elif kind == 1:
            head, names = f"{i} in range(k)", [i]
        elif kind == 2:
            head, names = f"{i} in range(len(x))", [i]
        elif kind == 3:
            head, names = f"{v} in {self.choice(['x', 'y', 'a'])}", [v]
        elif kind == 4:
            head, names = f"{i}, {v} in enumerate({self.choice(['x', 'y'])})", [i, v]
        elif kind == 7 or "unpack" not in self.features:
            head, names = f"{i}, {v} in zip(range({self.choice(['2', 'k + 1'])}), x)", [i, v]
        else:  # unpacking in the loop's target
            w = f"v{next(self.ids)}"
            if self.chance(0.5):
                head, names = (
                    f"{i}, ({v}, {w}) in enumerate(zip(x, {self.choice('ya')}))",
                    [i, v, w],
                )
            else:
                head, names = f"{v}, {w} in zip({self.choice(['x', 'a'])}, y)", [v, w]
        self.emit(indent, f"for {head}:")
        self.loop_scalars += names
        self.block(indent + 1, depth + 1, jumps | {"break", "continue"})
        del self.loop_scalars[-len(names) :]
        if self.chance(0.2):
            self.emit(indent, "else:")
            self.block(indent + 1, depth + 1, jumps)

    # -- the features of the second round: one method each, named after the feature --

    def index(self, size="len(b)"):
        """An index that is in range: a constant, or a loop index modulo `size`."""
        ends = ["0", "-1"]
        return self.choice(ends + [f"{i} % {size}" for i in self.loop_scalars if i[0] == "i"])

    def alias(self, indent, depth, jumps):
        """Views, swaps, scalar reads then writes, several arrays (`b` and `c`)."""
        emit = lambda text: self.emit(indent, text)  # noqa: E731
        kind = self.draw(st.integers(0, 6))
        i, j = self.index(), self.index()
        if kind == 0:
            emit(f"b[{i}], b[{j}] = b[{j}], b[{i}]")
        elif kind == 1:
            emit(f"piv = b[{i}]")
            emit(f"b[{i}] = b[{j}]")
            emit(f"b[{j}] = piv")
        elif kind == 2:
            emit("w = b[1:]")
            emit(f"t = t + np.sum(w){self.choice(['', ' * 0.5'])}")
        elif kind == 3:
            emit(f"b[{i}] {self.choice(['=', '+=', '*='])} {self.scalar()}")
        elif kind == 4:
            emit(f"c[{self.index('2')}] = {self.scalar()}")
            emit(f"b[{i}] = c[{self.choice(['0', '1'])}]")
        elif kind == 5:
            emit("w = b[::-1]")
            emit(f"a = a + w{self.choice(['', ' * c[0]'])}")
        else:  # a write through a view, which changes `b` too
            emit(f"w = b[{self.choice(['1:', ':', '::-1', '-2:'])}]")
            emit(f"w[{self.choice(['0', '-1'])}] {self.choice(['=', '+='])} {self.scalar()}")

    def closure(self, indent, depth, jumps):
        """A nested function that bumps a `nonlocal` counter."""
        self.emit(indent, f"t {self.choice(['=', '+='])} bump({self.scalar()})")

    def method(self, indent, depth, jumps):
        """A method that changes attributes of its object."""
        call = f"acc.add({self.scalar()})"
        self.emit(indent, self.choice([call, f"t = {call}"]))

    def early(self, indent, depth, jumps):
        """Helpers that return from inside their loop."""
        c = self.choice(LITERALS)
        kind = self.draw(st.integers(0, 3))
        if kind == 0:
            self.emit(indent, f"t = first_above({self.array(1)}, {c})")
        elif kind == 1:
            self.emit(indent, f"t = {self.scalar(1)} - first_above(a, {c})")
        elif kind == 2:
            self.emit(indent, f"a = a - first_above({self.choice('xya')}, {c})")
        else:
            self.emit(indent, f"t = index_above({self.choice('xya')}, {c})")

    def numbers(self, indent, depth, jumps):
        """Python numbers meeting NumPy values, and the built-ins that convert them."""
        v = self.scalar(1)
        expr = self.choice(
            [
                "k + np.float32(p)",
                "k // np.int32(2)",
                f"k // (np.abs({self.data_scalar()}) + 1)",
                "k * s",
                "p * s",
                f"round({v})",
                f"round({v}, 2)",
                f"abs({v})",
                f"int({v})",
                f"float({v})",
                f"{v} / 2",
                f"{v} % 3",
                f"-{v}",
                f"k + {v}",
            ]
        )
        if self.chance(0.2):
            self.emit(indent, f"a = {self.choice(['p', 'k', 't'])} * (a > 0).astype(np.int32)")
        else:
            self.emit(indent, f"t = {expr}")

    def try_(self, indent, depth, jumps):
        emit = lambda level, text: self.emit(indent + level, text)  # noqa: E731
        kind = self.draw(st.integers(0, 3))
        emit(0, "try:")
        if kind == 0:  # out of range for some shapes
            emit(1, f"t = {self.choice('xya')}[{self.choice(['k + 1', '3', '-2', 'k'])}]")
            emit(0, "except IndexError:")
            emit(1, f"t = {self.choice(['-1.0', '0', 't'])}")
        elif kind == 1:  # a staged raise its handler catches
            emit(1, f"if {self.staged_cond()}:")
            emit(2, 'raise ValueError("negative")')
            emit(1, f"t = {self.scalar()}")
            emit(0, "except ValueError:")
            emit(1, "t = 0.0")
        elif kind == 2:  # a Python list read past its end
            emit(1, f"t = {self.choice(['[1.0, 2.0]', '[x[0]]', '[s, t]'])}[k]")
            emit(0, "except IndexError:")
            emit(1, "t = -1")
        else:  # a staged raise in a loop of the body: it stops the loop
            emit(1, f"for e in {self.choice('xya')}:")
            emit(2, f"if e {self.choice(['>', '<', '=='])} {self.choice(LITERALS)}:")
            raised = self.choice(["ValueError", 'ValueError("big")', "KeyError"])
            emit(3, f"raise {raised}")
            emit(2, f"t = t {self.choice(['+', '-', '*'])} e")
            emit(0, f"except {self.choice(['ValueError', 'KeyError', 'Exception'])}:")
            emit(1, f"t = {self.choice(['-1.0', '0', 't'])}")

    def sentinel(self, indent, depth, jumps):
        """`found = None` and `best_i = -1`, set under conditions."""
        emit = lambda level, text: self.emit(indent + level, text)  # noqa: E731
        indices = [i for i in self.loop_scalars if i[0] == "i"]
        kind = self.draw(st.integers(0, 3))
        if kind == 0:
            emit(0, f"if {self.staged_cond()}:")
            emit(1, f"best_i = {self.choice(indices + ['np.argmax(a)', 'k'])}")
        elif kind == 1:
            emit(0, f"if found is None{self.choice(['', ' and ' + self.staged_cond()])}:")
            emit(1, f"found = {self.scalar()}")
        elif kind == 2:
            emit(0, f"t = {self.choice(['0.0', '0', 't'])} if found is None else found")
        else:
            emit(0, f"if best_i >= 0 and {self.staged_cond()}:")
            emit(1, "t = t + best_i")

    def unpack(self, indent, depth, jumps):
        emit = lambda text: self.emit(indent, text)  # noqa: E731
        kind = self.draw(st.integers(0, 3))
        if kind == 0:
            emit(f"lo, hi = {self.scalar()}, {self.scalar()}")
            emit("if lo > hi:")
            self.emit(indent + 1, "lo, hi = hi, lo")
            emit("t = hi - lo")
        elif kind == 1:
            emit(f"pair = ({self.scalar()}, {self.data_scalar()})")
            emit("u1, u2 = pair")
            emit(f"t = u1 {self.choice(['+', '*', '-'])} u2")
        elif kind == 2:  # a Tensor's rows, by index
            emit(f"r0, *rest = {self.choice('xya')}")
            emit(f"t = r0{self.choice(['', ' + len(rest)'])}")
        else:  # a wrong count raises ValueError eagerly
            emit(f"e0, e1 = {self.choice('xya')}")
            emit("t = e0 - e1")

    def plist(self, indent, depth, jumps):
        """Items of a Python list written (`cnt[i % 3] += 1`), and a list grown in a loop
        nested in a loop over it."""
        if self.chance(0.7):
            index = self.choice(["0", "2", "k % 3", *(f"{i} % 3" for i in self.loop_scalars)])
            index = index if index[0] != "v" else "0"
            self.emit(indent, f"cnt[{index}] {self.choice(['+=', '='])} {self.choice(['1', 't'])}")
            return
        c, j = f"c{next(self.ids)}", f"j{next(self.ids)}"
        self.emit(indent, f"for {c} in cnt:")
        self.emit(indent + 1, f"for {j} in range({c}):")
        self.emit(indent + 2, f"out.append({self.choice([c, f'{c} * 0.5', 'a[0]'])})")

    def idiom(self, indent, jumps):
        """Whole loops that people write, in one piece."""
        emit = lambda level, text: self.emit(indent + level, text)  # noqa: E731
        c = f"c{next(self.ids)}"
        kind = self.draw(st.integers(0, 4))
        if kind == 0:  # convergence: only the test reads `delta`
            emit(0, f"delta = {self.choice(['1.0', 'np.abs(s) + 1.0', 'np.max(np.abs(x)) + 1'])}")
            emit(0, f"{c} = 0")
            emit(0, f"while delta > 0.1 and {c} < {self.choice(['3', '5', 'k'])}:")
            emit(1, f"{c} += 1")
            emit(1, "new = a * 0.5")
            emit(1, "delta = np.max(np.abs(new - a))")
            emit(1, "a = new")
        elif kind == 1:  # starts as Python, meets a Tensor test
            emit(0, f"bal = {self.choice(['1.0', '1.0 + 0 * s'])}")
            emit(0, f"{c} = 0")
            emit(0, f"while bal < 2.0 and {c} < 6:")
            emit(1, f"bal *= 1 + np.abs({self.data_scalar()}) * 0.25")
            emit(1, f"{c} += 1")
            emit(0, "t = bal")
        elif kind == 2:  # while True, left by a staged break
            emit(0, f"{c} = 0")
            emit(0, "while True:")
            emit(1, f"{c} += 1")
            emit(1, f"a = {self.array(1)}")
            emit(1, f"if {c} >= {self.choice(['1', '3', 'k'])} or {self.staged_cond()}:")
            emit(2, "break")
        elif kind == 4:  # appends and item writes nested in staged blocks
            v, j = f"v{next(self.ids)}", f"j{next(self.ids)}"
            emit(0, "rows = []")
            emit(0, "acc2 = np.zeros(2)")
            emit(0, f"for {c}, {v} in enumerate({self.choice('xya')}):")
            emit(1, f"if {v} {self.choice(['>', '<='])} {self.choice(LITERALS)}:")
            emit(2, f"for {j} in range({self.choice(['2', c, 'k'])}):")
            emit(3, f"rows.append({self.choice([v, f'{v} * {j}', 'np.sum(a)'])})")
            emit(3, f"acc2[{j} % 2] += {v}")
            if self.chance(0.5):
                emit(2, f"if {self.staged_cond()}:")
                emit(3, self.choice(["break", "continue"]))
            emit(0, f"t = {self.choice(['len(rows)', 'sum(rows)', 'acc2[0] + len(rows)'])}")
        else:  # search: first element past a threshold, with an early exit
            v = f"v{next(self.ids)}"
            emit(0, "found = -1")
            emit(0, f"for {c}, {v} in enumerate({self.choice(['x', 'y', 'a'])}):")
            emit(1, f"if {v} > {self.choice(LITERALS)}:")
            emit(2, f"found = {c}")
            emit(2, "break")
            emit(0, "t = found")


@st.composite
def programs(draw) -> Program:
    """A `Program` whose `generated(x, y, s, k, p)` ends when run eagerly."""
    sig = Signature(
        n=draw(st.integers(1, 4)),
        x_dtype=draw(st.sampled_from(DTYPES)),
        y_dtype=draw(st.sampled_from(DTYPES)),
        s_dtype=draw(st.sampled_from(DTYPES)),
        k=draw(st.integers(0, 3)),
        p=draw(st.sampled_from([-1.0, 0.5, 2.0])),
    )
    w = _Writer(draw)
    items = ["a", "t"]
    for feature, names in [
        ("best", ["best"]),
        ("dict", ['d["k"]', "d"]),
        ("obj", ["o.v", "o"]),
        ("list", ["np.stack(lst)", "len(lst)", "lst[-1]", "sum(lst)"]),
        ("buf", ["buf"]),
        ("steps", ["n"]),
        ("unbound", ["u"]),
        ("alias", ["b", "c"]),
        ("closure", ["calls"]),
        ("method", ["acc.n", "acc.total"]),
        ("sentinel", ["found", "best_i"]),
        ("plist", ["cnt", "len(out)", "sum(out)"]),
        *RETURNS8.items(),
        *RETURNS9.items(),
        *RETURNS11.items(),
        *RETURNS12.items(),
    ]:
        if feature in w.features:
            items += names
    chosen = draw(st.lists(st.sampled_from(items), min_size=1, max_size=4, unique=True))
    final = chosen[0] if len(chosen) == 1 and draw(st.booleans()) else f"({', '.join(chosen)},)"
    # An early return gives the same items, or now and then something else.
    w.returns = st.sampled_from([final, final, final, "a", "(t, a)"])

    w.emit(0, "def generated(x, y, s, k, p):")
    w.emit(1, f"a = {w.choice(['x', 'x * 1', 'x + 0.0', 'np.abs(x)'])}")
    w.emit(1, f"t = {w.choice(['0', '0.0', 's', 'np.sum(y)', '1', 'p'])}")
    if "best" in w.features:
        w.emit(1, "best = None")
    if "dict" in w.features:
        w.emit(1, f'd = {{"k": {w.choice(["0", "0.0", "s", "x[0]"])}}}')
    if "obj" in w.features:
        w.emit(1, f"o = Box({w.choice(['0', '0.0', 's', 'np.min(x)'])})")
    if "list" in w.features:
        start = ["[]", "[x]"] if w.list_of_arrays else ["[]", "[s]", "[np.sum(x)]"]
        w.emit(1, f"lst = {w.choice(start)}")
    if "steps" in w.features:
        w.emit(1, "n = 0")
    if "buf" in w.features:
        w.emit(1, f"buf = np.zeros(3{w.choice(['', ', dtype=np.int64'])})")
    if "alias" in w.features:
        w.emit(1, f"b = {w.choice(['x.copy()', 'np.zeros(len(x))', 'y * 1.0', 'x'])}")
        w.emit(1, f"c = np.zeros(2{w.choice(['', ', dtype=np.int32'])})")
    if "closure" in w.features:
        w.emit(1, "calls = 0")
        w.emit(0, "")
        w.emit(1, "def bump(v):")
        w.emit(2, "nonlocal calls")
        w.emit(2, "calls += 1")
        w.emit(2, f"return v {w.choice(['* 2', '+ calls', '- 0.5'])}")
        w.emit(0, "")
    if "method" in w.features:
        w.emit(1, "acc = Acc()")
    if "sentinel" in w.features:
        w.emit(1, "found = None")
        w.emit(1, "best_i = -1")
    if "plist" in w.features:
        w.emit(1, "cnt = [0, 1, 0]")
        w.emit(1, "out = []")
    for feature, lines in [*SETUP8.items(), *SETUP9.items(), *SETUP11.items(), *SETUP12.items()]:
        if feature in w.features:
            for line in lines:
                w.emit(1, line)
    w.block(1, 0, frozenset({"return"}))
    while w.budget > 0:
        w.stmt(1, 0, frozenset({"return"}))
    w.emit(1, f"return {final}")
    return Program(
        PRELUDE + PRELUDE8 + PRELUDE9 + PRELUDE11 + PRELUDE12 + "\n".join(w.lines) + "\n", sig
    )


def _array(draw, dtype, n):
    pool = FLOATS if dtype.startswith("float") else INTS
    return np.array(draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n)), dtype=dtype)


@st.composite
def inputs(draw, sig: Signature) -> tuple:
    """Arguments `(x, y, s, k, p)` for a program of signature `sig`."""
    x = _array(draw, sig.x_dtype, sig.n)
    y = _array(draw, sig.y_dtype, sig.n)
    s = _array(draw, sig.s_dtype, 1)[0]  # a NumPy scalar of that dtype
    return x, y, s, sig.k, sig.p
