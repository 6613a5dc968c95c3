"""The fourth round of the graph-program generator (issue 24, task gen9): constructs real
programs use that the earlier rounds did not draw. `Draws9` is a mixin of
`graph_programs._Writer`, one method per feature of `NEW9`, named after it, as `Draws8` is;
`SETUP9` gives each feature's set-up at the top of `generated`, `RETURNS9` the names it may
return, `PRELUDE9` the module-level code.

- `heap`: `heapq` on a Python list of known items (`h = [3, 1, 2]; heapq.heapify(h)`),
  `heappush` of numbers and of data, `heappop` under `if h:`, `h[0]`, `heapq.nsmallest`;
- `tally`: `collections.Counter()` and `defaultdict(int)` counts, at keys known while
  tracing (`k % 3`, a `range` index) and at keys known only when the graph runs (`int(v) %
  3`), read by `sum(c.values())`, `c[k]`, `most_common(1)`, `sorted(d.items())`;
- `iters`: `itertools.accumulate` of a list or an array, `itertools.pairwise` over an array,
  `itertools.product` of two small ranges;
- `fmt`: f-strings of numbers known only when the graph runs (`f"{np.sum(a):.2f}"`,
  `f"{t}|{int(np.argmax(x))}"`);
- `ints`: `divmod`, `//` and `%` of ints that may be negative, Python's and the graph's
  (`int(np.sum(a)) - 2`, `k - 3`), `round(v, n)`, `abs` / `min` / `max` of a Python int and a
  NumPy scalar;
- `chain`: chained comparisons on data (`if -1 < a[0] <= 2:`, `t = int(0 <= s < k)`);
- `search`: `while True:` left by a `break` on data and a counter, and `for ... else` whose
  `else` runs when no `break` did;
- `nested`: functions defined in `generated` that return early (`pick(v)`) or return a pair
  unpacked by the caller (`hi9, lo9 = split(v)`).
"""

NEW9 = ("heap", "tally", "iters", "fmt", "ints", "chain", "search", "nested")

PRELUDE9 = """\
import collections
import heapq
import itertools


"""

SETUP9 = {
    "heap": ["h = [3, 1, 2]", "heapq.heapify(h)"],
    "tally": ["cnt9 = collections.Counter()", "dd = collections.defaultdict(int)"],
    "fmt": ['lab9 = ""'],
    "ints": ["q9, r9 = 0, 0"],
    "nested": [
        "",
        "def pick(v):",
        "    if v > 0:",
        "        return v",
        "    return -v * 0.5",
        "",
        "def split(v):",
        "    if v > 1:",
        "        return v, 1.0",
        "    return 1.0, v",
        "",
        "hi9, lo9 = 0.0, 0.0",
    ],
}

RETURNS9 = {
    "heap": ["sorted(h)", "len(h)", "h[0] if h else -1"],
    "tally": ["dict(cnt9)", "sorted(dd.items())", "sum(cnt9.values())"],
    "fmt": ["lab9"],
    "ints": ["q9", "r9", "(q9, r9)"],
    "nested": ["hi9", "lo9"],
}

CMP = ["<", "<=", ">", ">="]


class Draws9:
    """The statements of `NEW9`; mixed into `graph_programs._Writer`."""

    def _run_int(self):
        """An int that may be negative: Python's, or one known only when the graph runs."""
        return self.choice(
            [
                "k - 3",
                "-k",
                "int(np.sum(a)) - 2",
                "int(a[0])",
                "np.argmax(x) - 2",
                "int(s) - k",
                "len(x) - 3",
            ]
        )

    def heap(self, indent, depth, jumps):
        kind = self.kind8(6, {1: "H1"})
        if kind == 0:
            self.emit(indent, f"heapq.heappush(h, {self.choice(['k', '0', '5', '-1', 'k - 2'])})")
        elif kind == 1:  # an item known only when the graph runs
            self.emit(indent, f"hv = {self.data_scalar()}")
            self.emit(indent, "heapq.heappush(h, hv)")
        elif kind == 2:
            self.emit(indent, "if h:")
            self.emit(indent + 1, "t = t + heapq.heappop(h)")
        elif kind == 3:
            self.emit(indent, f"t = h[0]{self.choice(['', ' * 2', ' + t'])}")
        elif kind == 4:
            self.emit(indent, f"t = sum(heapq.nsmallest({self.choice(['1', '2', 'k'])}, h))")
        else:
            self.emit(indent, f"t = heapq.heappushpop(h, {self.choice(['k', '4', '0'])})")

    def tally(self, indent, depth, jumps):
        indices = [i for i in self.loop_scalars if i[0] == "i"]
        kind = self.kind8(6, {0: "H6", 1: "H8", 2: "H6", 3: "H8"})
        if kind == 0:  # (in a staged branch, a key added there is added on every path: H6)
            self.emit(indent, f"ck = {self.choice(['k % 3', '0', *(f'{i} % 3' for i in indices)])}")
            self.emit(indent, "cnt9[ck] += 1")
        elif kind == 1:  # a key known only when the graph runs: a documented limit
            self.emit(indent, f"cnt9[int({self.data_scalar()}) % 3] += 1")
        elif kind == 2:
            self.emit(indent, f"ck = {self.choice(['k % 2', '1', *(f'{i} % 2' for i in indices)])}")
            self.emit(indent, f"dd[ck] += {self.choice(['1', 'k'])}")
        elif kind == 3:
            self.emit(indent, f"dd[int({self.data_scalar()}) % 2] += 1")
        elif kind == 4:
            self.emit(indent, f"t = {self.choice(['sum(cnt9.values())', 'cnt9[k]', 'dd[0]'])}")
        else:
            self.emit(indent, "if cnt9:")
            self.emit(indent + 1, "t = cnt9.most_common(1)[0][1]")

    def iters(self, indent, depth, jumps):
        kind = self.kind8(5)
        v, w = f"v{next(self.ids)}", f"v{next(self.ids)}"
        if kind == 0:
            src = self.choice(["[1, 2, k]", "[p, t]", "x", "[s, 1]"])
            self.emit(indent, f"t = list(itertools.accumulate({src}))[-1]")
        elif kind == 1:
            self.emit(indent, f"for {v}, {w} in itertools.pairwise({self.choice('xya')}):")
            self.emit(indent + 1, f"t = t + ({w} - {v})")
        elif kind == 2:
            i, j = f"i{next(self.ids)}", f"i{next(self.ids)}"
            bound = self.choice(["2", "k"])
            self.emit(indent, f"for {i}, {j} in itertools.product(range(2), range({bound})):")
            self.emit(indent + 1, f"t = t + {i} * {j}")
        elif kind == 3:
            self.emit(indent, "t = max(itertools.accumulate([1, -2, k]))")
        else:
            i, j = f"i{next(self.ids)}", f"i{next(self.ids)}"
            self.emit(indent, f"for {i}, {j} in itertools.product(range(2), repeat=2):")
            self.emit(indent + 1, f"if {self.staged_cond()}:")
            self.emit(indent + 2, f"t = t + {i} - {j}")

    def fmt(self, indent, depth, jumps):
        kind = self.kind8(4)
        if kind == 0:
            # (single quotes: the scalar may be `d["k"]`, which Python 3.11 cannot nest in "")
            self.emit(indent, f"lab9 = f'{{{self.data_scalar()}:.2f}}'")
        elif kind == 1:
            self.emit(indent, 'lab9 = f"{t}|{int(np.argmax(x))}"')
        elif kind == 2:
            self.emit(indent, f'lab9 = lab9 + f"{{{self.choice(["k", "len(x)", "int(a[0])"])}}},"')
        else:
            self.emit(indent, f"lab9 = f'{{{self.scalar(1)}:g}}'")

    def ints(self, indent, depth, jumps):
        kind = self.kind8(7, {1: "H9", 2: "H9"})
        n = self._run_int()
        if kind == 0:
            self.emit(indent, f"q9, r9 = divmod({n}, {self.choice(['3', '-2', '2', 'k + 1'])})")
        elif kind == 1:
            self.emit(indent, f"q9 = ({n}) // {self.choice(['2', '-3', 'k + 1'])}")
        elif kind == 2:
            self.emit(indent, f"r9 = ({n}) % {self.choice(['3', '-2', 'k + 2'])}")
        elif kind == 3:
            self.emit(indent, f"t = round({self.scalar(1)}, {self.choice(['0', '1', '2'])})")
        elif kind == 4:
            self.emit(indent, f"t = abs(k - 3) + abs({self.data_scalar()})")
        elif kind == 5:
            fn = self.choice(["max", "min"])
            self.emit(indent, f"t = {fn}(k, {self.choice(['np.argmax(x)', 's', 'x[0]'])})")
        else:
            self.emit(indent, f"q9 = max(q9, {n})")

    def chain(self, indent, depth, jumps):
        lo, hi = self.choice(["-1", "0", "-0.5"]), self.choice(["1", "2", "k"])
        v = self.data_scalar()
        if self.chance(0.6):
            self.emit(
                indent, f"if {lo} {self.choice(['<', '<='])} {v} {self.choice(CMP[:2])} {hi}:"
            )
            self.block(indent + 1, depth + 1, jumps)
        else:
            self.emit(indent, f"t = int({lo} < {v} <= {hi})")

    def search(self, indent, depth, jumps):
        c = f"c{next(self.ids)}"
        if self.chance(0.5):  # while True, left on data or by the counter
            self.emit(indent, f"{c} = 0")
            self.emit(indent, "while True:")
            self.emit(indent + 1, f"if {self.data_scalar()} {self.choice(CMP)} {c}:")
            self.emit(indent + 2, "break")
            self.emit(indent + 1, f"{c} += 1")
            self.emit(indent + 1, f"if {c} >= {self.choice(['3', 'k'])}:")
            self.emit(indent + 2, "break")
            self.emit(indent, f"t = t + {c}")
        else:  # for ... else: the else runs when no break did
            v = f"v{next(self.ids)}"
            self.emit(indent, f"for {v} in {self.choice('xya')}:")
            self.emit(indent + 1, f"if {v} {self.choice(CMP)} {self.choice(['0', '1', 't'])}:")
            self.emit(indent + 2, f"t = {v}")
            self.emit(indent + 2, "break")
            self.emit(indent, "else:")
            self.emit(indent + 1, f"t = {self.choice(['-1', '-1.0', 't * 2'])}")

    def nested(self, indent, depth, jumps):
        if self.chance(0.5):
            self.emit(indent, f"t = pick({self.scalar(1)})")
        else:
            self.emit(indent, f"hi9, lo9 = split({self.scalar(1)})")
            self.emit(indent, f"t = {self.choice(['hi9 - lo9', 'hi9', 't + lo9'])}")
