"""The fifth round of the graph-program generator (issue 24, task hunt11): constructs of the
issue's list that the earlier rounds still did not draw. `Draws11` is a mixin of
`graph_programs._Writer`, one method per feature of `NEW11`, named after it, as `Draws8` and
`Draws9` are; `SETUP11` gives each feature's set-up at the top of `generated`, `RETURNS11` the
names it may return, `PRELUDE11` the module-level code.

- `matrix`: a 2-D array made in the function (`M = np.outer(x, y) * 1.0`, `np.zeros((n, n))`),
  written at two indices in nested loops (a Floyd-Warshall relaxation `M[i, j] = min(M[i, j],
  M[i, r] + M[r, j])`, a row update `M[i] = M[i] - piv * M[0]` after a scalar read `piv =
  M[i, 0]`, a swap of two items), its rows iterated and unpacked (`for r0, *_ in M`);
- `keys`: a loop element as a dict key and set member (`counts[v] = counts.get(v, 0) + 1`,
  `if v in seen: ... seen.add(v)`), of an int array, read by `len`, `sum(counts.values())`;
- `shadow`: a comprehension or lambda whose own variable has the name of a staged loop's
  variable before it (`for v in x: ...` then `[2 * v for v in range(3)]`);
- `history`: a list that holds a value known when the graph runs before the loop (`hist =
  [np.sum(x)]`), grown from its last item in a staged loop, stacked (`np.stack(hist)`), and a
  loop's accumulator given to NumPy (`np.array([acc11, acc11])`, `round(acc11, 2)`);
- `records`: tuples appended in a loop (`rows11.append((i, v))`), read by index and summed;
- `pairs`: a sentinel set from another sentinel (`best_val = cur` in a branch, both None
  before) and an `and` whose later operand is a Python constant (`start is not None` with
  `start` None) that decides a test on data;
- `stepper`: a method that changes attributes and returns early (`if st11.step(v): break`);
- `pyints`: Python ints and floats that meet NumPy values (`hits += int(v > 0)`, `hits /
  len(x)`, `sum(1 for v in x if v > 0)`, `float(np.sum(a)) + k`, `k * np.float32(0.5)`).
"""

NEW11 = ("matrix", "keys", "shadow", "history", "records", "pairs", "stepper", "pyints")

PRELUDE11 = """\
class Stepper:
    def __init__(self, limit):
        self.limit = limit
        self.hits = 0
        self.last = 0.0

    def step(self, v):
        self.last = v
        if v > self.limit:
            self.hits += 1
            return True
        return False


"""

SETUP11 = {
    "matrix": ["M = np.outer(x, y) * 1.0"],
    "keys": ["counts = {}", "seen11 = set()", "ix = (x > 0).astype(np.int64) + (x > 1)"],
    "history": ["hist = [np.sum(x) * 1.0]", "acc11 = 0.0"],
    "records": ["rows11 = []"],
    "pairs": ["best_val = None", "start = None"],
    "stepper": ["st11 = Stepper(1.0)"],
    "pyints": ["hits = 0"],
}

RETURNS11 = {
    "matrix": ["M", "np.sum(M)"],
    "keys": ["len(counts)", "sum(counts.values())", "len(seen11)"],
    "history": ["np.stack(hist)", "len(hist)", "acc11"],
    "records": ["len(rows11)", "rows11"],
    "pairs": ["best_val"],
    "stepper": ["st11.hits", "st11.last"],
    "pyints": ["hits"],
}


class Draws11:
    """The statements of `NEW11`; mixed into `graph_programs._Writer`."""

    def matrix(self, indent, depth, jumps):
        emit = lambda level, text: self.emit(indent + level, text)  # noqa: E731
        i, j, r = (f"i{next(self.ids)}" for _ in range(3))
        kind = self.kind8(6)
        if kind == 0:  # Floyd-Warshall's relaxation through one middle index
            emit(0, f"for {r} in range(len(x)):")
            emit(1, f"for {i} in range(len(x)):")
            emit(2, f"for {j} in range(len(x)):")
            emit(3, f"M[{i}, {j}] = min(M[{i}, {j}], M[{i}, {r}] + M[{r}, {j}])")
        elif kind == 1:  # a scalar read, then a row update (elimination)
            emit(0, f"for {i} in range(1, len(x)):")
            emit(1, f"piv = M[{i}, 0]")
            emit(1, f"if {self.choice(['piv != 0', 'np.abs(piv) > 0.5', 'M[0, 0] != 0'])}:")
            emit(2, f"M[{i}] = M[{i}] - piv * M[0]")
        elif kind == 2:  # a swap of two items
            emit(0, f"for {i} in range(len(x) - 1):")
            emit(1, f"if M[{i}, 0] > M[{i} + 1, 0]:")
            emit(2, f"M[{i}, 0], M[{i} + 1, 0] = M[{i} + 1, 0], M[{i}, 0]")
        elif kind == 3:  # rows iterated and unpacked
            emit(0, f"for {i}, (m0, *mrest) in enumerate(M):")
            emit(1, f"t = t + m0{self.choice(['', ' * len(mrest)', ' - ' + i])}")
        elif kind == 4:  # an item written at a loop index and a data condition
            emit(0, f"for {i} in range(len(x)):")
            emit(1, f"if M[{i}, {i}] {self.choice(['<', '>='])} {self.choice(['0', 't', 'p'])}:")
            emit(2, f"M[{i}, {i}] = {self.scalar(1)}")
        else:
            emit(0, f"t = {self.choice(['M[0, 0]', 'np.trace(M)', 'M[-1].sum()', 'M.max()'])}")

    def keys(self, indent, depth, jumps):
        emit = lambda level, text: self.emit(indent + level, text)  # noqa: E731
        v = f"v{next(self.ids)}"
        kind = self.kind8(4)
        if kind == 0:
            emit(0, f"for {v} in ix:")
            emit(1, f"counts[{v}] = counts.get({v}, 0) + 1")
        elif kind == 1:
            emit(0, f"for {v} in ix:")
            emit(1, f"if {v} in seen11:")
            emit(2, f"t = t + {self.choice(['1', v, 's'])}")
            emit(1, f"seen11.add({v})")
        elif kind == 2:
            emit(0, f"if {self.staged_cond()}:")
            emit(1, "seen11.add(ix[0])")
        else:
            emit(0, f"t = {self.choice(['len(seen11)', 'len(counts)', 'counts.get(ix[-1], 0)'])}")

    def shadow(self, indent, depth, jumps):
        emit = lambda level, text: self.emit(indent + level, text)  # noqa: E731
        v = f"v{next(self.ids)}"
        emit(0, f"for {v} in {self.choice('xya')}:")
        emit(1, f"if {v} {self.choice(['>', '<'])} {self.choice(['0', 't', '1.5'])}:")
        emit(2, f"t = t + {v}")
        kind = self.kind8(3)
        if kind == 0:
            emit(0, f"t = t + sum([2 * {v} for {v} in range(3)])")
        elif kind == 1:
            emit(0, f"f11 = lambda {v}: 2 * {v}")
            emit(0, "t = f11(t)")
        else:
            emit(0, f"t = t + max({v} * 0.5 for {v} in {self.choice('xya')})")

    def history(self, indent, depth, jumps):
        emit = lambda level, text: self.emit(indent + level, text)  # noqa: E731
        v = f"v{next(self.ids)}"
        kind = self.kind8(4)
        if kind == 0:
            emit(0, f"for {v} in {self.choice('xya')}:")
            emit(1, f"hist.append(hist[-1] * 0.5 + {v})")
        elif kind == 1:
            emit(0, f"for {v} in {self.choice('xya')}:")
            emit(1, f"acc11 += {v}")
            emit(0, f"a = a + np.array([acc11, acc11])[{self.choice(['0', '-1'])}]")
        elif kind == 2:
            emit(0, f"for {v} in {self.choice('xya')}:")
            emit(1, f"acc11 = acc11 * {self.choice(['1.05', '0.5'])} + {v}")
            emit(0, "t = round(acc11, 2)")
        else:
            emit(0, f"t = t + np.stack(hist)[{self.choice(['0', '-1'])}]")

    def records(self, indent, depth, jumps):
        emit = lambda level, text: self.emit(indent + level, text)  # noqa: E731
        i, v = f"i{next(self.ids)}", f"v{next(self.ids)}"
        kind = self.kind8(3)
        if kind == 0:
            emit(0, f"for {i}, {v} in enumerate({self.choice('xya')}):")
            emit(1, f"rows11.append(({i}, {v}))")
        elif kind == 1:
            emit(0, f"rows11.append((k, {self.scalar(1)}))")
        else:
            emit(0, "if rows11:")
            emit(1, f"t = t + {self.choice(['rows11[-1][1]', 'rows11[0][0]', 'len(rows11)'])}")

    def pairs(self, indent, depth, jumps):
        emit = lambda level, text: self.emit(indent + level, text)  # noqa: E731
        v = f"v{next(self.ids)}"
        kind = self.kind8(3)
        if kind == 0:
            emit(0, "cur = None")
            emit(0, f"for {v} in {self.choice('xya')}:")
            emit(1, f"cur = {v} * {self.choice(['2', '0.5', '1'])}")
            emit(1, "if best_val is None or cur > best_val:")
            emit(2, "best_val = cur")
        elif kind == 1:
            emit(0, f"for {v} in {self.choice('xya')}:")
            emit(1, f"if {v} <= 0 and start is not None:")
            emit(2, f"t = t + {v}")
        else:
            emit(0, f"if {self.data_scalar()} > 0 and start is None:")
            emit(1, f"t = {self.scalar(1)}")

    def stepper(self, indent, depth, jumps):
        emit = lambda level, text: self.emit(indent + level, text)  # noqa: E731
        v = f"v{next(self.ids)}"
        if self.chance(0.6):
            emit(0, f"for {v} in {self.choice('xya')}:")
            emit(1, f"if st11.step({v}):")
            emit(2, self.choice(["break", "continue", "t = t + 1"]))
        else:
            emit(0, f"t = t + int(st11.step({self.data_scalar()}))")

    def pyints(self, indent, depth, jumps):
        emit = lambda level, text: self.emit(indent + level, text)  # noqa: E731
        v = f"v{next(self.ids)}"
        kind = self.kind8(5)
        if kind == 0:
            emit(0, f"for {v} in {self.choice('xya')}:")
            emit(1, f"hits += int({v} > {self.choice(['0', 't', '1'])})")
            emit(0, "t = hits / len(x)")
        elif kind == 1:
            emit(0, f"hits = sum(1 for {v} in {self.choice('xya')} if {v} > 0)")
        elif kind == 2:
            emit(0, f"t = float({self.data_scalar()}) + k")
        elif kind == 3:
            emit(0, f"t = k * np.float32(0.5) + {self.choice(['hits', 't', 'p'])}")
        else:
            emit(0, f"if {self.data_scalar()} > hits:")
            emit(1, "hits += 1")
