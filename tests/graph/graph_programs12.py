"""The sixth round of the graph-program generator (issue 24, task hunt12): constructs of the
issue's list that the earlier rounds still did not draw. `Draws12` is a mixin of
`graph_programs._Writer`, one method per feature of `NEW12`, named after it, as `Draws11` is;
`SETUP12` gives each feature's set-up at the top of `generated`, `RETURNS12` the names it may
return, `PRELUDE12` the module-level code.

- `pynum`: Python numbers meeting NumPy values (`int(v) * 0.5`, `float(np.sum(a)) // 2`,
  `abs(k - int(np.argmax(x)))`, `pow(k, 2)`, `k ** 2 * v`, `2 ** -k`, `np.float32(p) * 1.5`,
  bool arithmetic `z12 + (v > 0)`, `round(float(v))`, chained `0 < v <= k`);
- `alias12`: another name of an array written (`h12 = g12; h12[i] = v`), `g12 = g12.copy()`
  in a staged branch, a row of a 2-D array written through its name (`row12 = R12[i];
  row12[0] = v`), a slice view changed in place (`w12 = g12[1:]; w12 *= 2`), `np.asarray`;
- `lists12`: Python lists changed in nested blocks: an append under a staged `if` inside a
  `while`, a `break` of an inner loop after an append, `del xs[0]`, `xs.insert(0, v)`,
  `xs.extend(...)`, `xs.sort()`, `xs.reverse()`, slice assignment `xs[0:2] = [...]`, a list
  of lists written at an index;
- `hidden`: state a staged loop cannot see in its body: a closure's `nonlocal` counter bumped by
  a call (`tick()`), a class attribute's dict (`Reg12.table["n"] += 1`), an object's attribute
  list changed in a method (`cn12.note(v)`);
- `whiles12`: `while` loops with compound tests (`while j < len(x) and x[j] > c:`, `... and
  not (...)`) and `while/else` left by a `break` on data;
- `exc12`: `try/except/finally` around staged raises, `raise ... from e` in a handler, a
  `finally` in a loop left by `break`;
- `strs12`: strings built in a loop (`s12 += f"{v:.2f},"`), `"-".join(map(str, ...))`,
  `str(int(v))`;
- `iters12`: `enumerate(..., start=1)`, `zip` of three, `reversed(range(len(x)))`, `range(n -
  1, -1, -1)`, `reversed` of an array.
"""

NEW12 = ("pynum", "alias12", "lists12", "hidden", "whiles12", "exc12", "strs12", "iters12")

PRELUDE12 = """\
class Reg12:
    table = {"n": 0}


class Notes12:
    def __init__(self):
        self.seen = []
        self.n = 0

    def note(self, v):
        self.n += 1
        self.seen.append(v)


"""

SETUP12 = {
    "pynum": ["z12 = 0"],
    "alias12": ["g12 = x * 1.0", "R12 = np.zeros((2, len(x)))"],
    "lists12": ["xs = [3, 1, 2]", "ys12 = []", "ll12 = [[0.0, 0.0], [0.0, 0.0]]"],
    "hidden": [
        "ticks = 0",
        "",
        "def tick():",
        "    nonlocal ticks",
        "    ticks += 1",
        "",
        'Reg12.table = {"n": 0}',
        "cn12 = Notes12()",
    ],
    "exc12": ["fin12 = 0"],
    "strs12": ['s12 = ""'],
}

RETURNS12 = {
    "pynum": ["z12"],
    "alias12": ["g12", "R12", "np.sum(R12)"],
    "lists12": ["xs", "len(ys12)", "ys12", "ll12"],
    "hidden": ["ticks", 'Reg12.table["n"]', "cn12.n", "len(cn12.seen)"],
    "exc12": ["fin12"],
    "strs12": ["s12"],
}

CMP = ["<", "<=", ">", ">="]
SMALL = ["0", "1", "-1", "0.5"]


class Draws12:
    """The statements of `NEW12`; mixed into `graph_programs._Writer`."""

    def _src(self):
        return self.choice(["x", "y", "a"])

    def pynum(self, indent, depth, jumps):
        emit = lambda level, text: self.emit(indent + level, text)  # noqa: E731
        v = self.data_scalar()
        kind = self.kind8(10)
        if kind == 0:
            emit(0, f"t = int({v}) * 0.5")
        elif kind == 1:
            emit(0, f"t = float({self.choice(['np.sum(a)', 'np.max(x)', 's'])}) // 2")
        elif kind == 2:
            emit(0, f"t = abs(k - int(np.argmax({self.choice('xya')})))")
        elif kind == 3:
            emit(
                0, f"t = pow(k, 2) + {self.choice(['pow(int(np.argmax(x)), 2)', 'k ** 2 * ' + v])}"
            )
        elif kind == 4:
            emit(0, f"t = 2 ** -k + {v}")
        elif kind == 5:
            emit(0, f"t = np.float32(p) * 1.5 + {self.choice(['0.25', 't', 'k'])}")
        elif kind == 6:
            w = f"v{next(self.ids)}"
            emit(0, f"for {w} in {self._src()}:")
            emit(1, f"z12 = z12 + ({w} {self.choice(CMP)} {self.choice(SMALL)})")
        elif kind == 7:
            emit(0, f"z12 = True + ({v} > 0)")
        elif kind == 8:
            emit(0, f"t = round(float({v}))")
        else:
            emit(0, f"if 0 < {v} <= k:")
            emit(1, "z12 += 1")

    def alias12(self, indent, depth, jumps):
        emit = lambda level, text: self.emit(indent + level, text)  # noqa: E731
        i = self.choice(["0", "-1", *(f"{j} % len(x)" for j in self._indices())])
        kind = self.kind8(6)
        if kind == 0:
            emit(0, "q12 = np.asarray(g12)")
            emit(0, f"q12[{i}] = {self.scalar(1)}")
        elif kind == 4:
            emit(0, "h12 = g12")
            emit(0, f"h12[{i}] {self.choice(['=', '+='])} {self.scalar(1)}")
        elif kind == 1:
            emit(0, f"if {self.staged_cond()}:")
            emit(1, "g12 = g12.copy()")
            emit(0, f"g12[{i}] = {self.scalar(1)}")
        elif kind == 2:
            emit(0, f"row12 = R12[{self.choice(['0', '1', 'k % 2'])}]")
            emit(0, f"row12[{i}] = {self.scalar(1)}")
        elif kind == 3:
            emit(0, f"w12 = g12[{self.choice(['1:', ':', '::-1'])}]")
            emit(0, f"w12 {self.choice(['*=', '+='])} {self.choice(['2', 's', 't'])}")
        else:
            v = f"v{next(self.ids)}"
            emit(0, f"for {v} in range(len(x)):")
            emit(1, f"if g12[{v}] {self.choice(CMP)} {self.choice(SMALL)}:")
            emit(2, f"R12[1, {v}] = g12[{v}]")

    def lists12(self, indent, depth, jumps):
        emit = lambda level, text: self.emit(indent + level, text)  # noqa: E731
        kind = self.kind8(11, {10: "H7"})
        if kind == 0:  # an append under a staged `if` inside a `while`
            c = f"c{next(self.ids)}"
            emit(0, f"{c} = 0")
            emit(0, f"while {c} < {self.choice(['2', 'k', 'len(x)'])}:")
            emit(1, f"{c} += 1")
            emit(1, f"if {self.staged_cond()}:")
            emit(2, f"ys12.append({self.scalar(1)})")
        elif kind == 1:  # a break of an inner loop after an append
            v, j = f"v{next(self.ids)}", f"j{next(self.ids)}"
            emit(0, f"for {v} in {self._src()}:")
            emit(1, f"for {j} in range({self.choice(['2', 'k'])}):")
            emit(2, f"ys12.append({v} * {j})")
            emit(2, f"if {v} {self.choice(CMP)} {self.choice(SMALL)}:")
            emit(3, "break")
        elif kind == 2:
            emit(0, self.choice(["xs.sort()", "xs.sort(reverse=True)", "xs.reverse()"]))
            emit(0, f"t = t + xs[{self.choice(['0', '-1'])}]")
        elif kind == 3:
            emit(0, f"xs.insert(0, {self.choice(['k', '5', 'len(x)'])})")
        elif kind == 4:
            emit(0, f"xs.extend([{self.choice(['k', '4'])}, {self.choice(['1', 'len(x)'])}])")
        elif kind == 5:
            emit(0, "if len(xs) > 1:")
            emit(1, f"del xs[{self.choice(['0', '-1', '1'])}]")
        elif kind == 6:
            emit(0, f"xs[0:2] = [{self.choice(['k', '7'])}, {self.choice(['0', 'len(x)'])}]")
        elif kind == 7:  # extends with data in a loop
            v = f"v{next(self.ids)}"
            emit(0, f"for {v} in {self._src()}:")
            emit(1, f"if {v} {self.choice(CMP)} {self.choice(SMALL)}:")
            emit(2, f"ys12.extend([{v}, {v} * 2])")
        elif kind == 8:
            emit(0, f"if {self.staged_cond()}:")
            emit(1, f"xs.append({self.choice(['k', '9'])})")
            emit(0, f"t = t + {self.choice(['sum(xs)', 'len(xs)', 'max(xs)'])}")
        elif kind == 9:
            emit(0, f"t = t + {self.choice(['len(ys12)', 'sum(ys12)', 'sum(xs)'])}")
        else:  # a list of lists written at an index
            row = self.choice(["0", "1", "k % 2", *(f"{j} % 2" for j in self._indices())])
            emit(0, f"ll12[{row}][{self.choice(['0', '1'])}] = {self.scalar(1)}")

    def hidden(self, indent, depth, jumps):
        emit = lambda level, text: self.emit(indent + level, text)  # noqa: E731
        v = f"v{next(self.ids)}"
        kind = self.kind8(5)
        if kind == 0:
            emit(0, f"for {v} in {self._src()}:")
            emit(1, f"if {v} {self.choice(CMP)} {self.choice(SMALL)}:")
            emit(2, "tick()")
        elif kind == 1:
            emit(0, f"for {v} in {self._src()}:")
            emit(1, f"if {v} {self.choice(CMP)} {self.choice(SMALL)}:")
            emit(2, 'Reg12.table["n"] += 1')
        elif kind == 2:
            emit(0, f"for {v} in {self._src()}:")
            emit(1, f"cn12.note({self.choice([v, v + ' * 2', 't'])})")
        elif kind == 3:
            emit(0, f"if {self.staged_cond()}:")
            emit(
                1, self.choice(["tick()", 'Reg12.table["n"] += 1', f"cn12.note({self.scalar(1)})"])
            )
        else:
            emit(0, "t = t + " + self.choice(["ticks", 'Reg12.table["n"]', "cn12.n"]))

    def whiles12(self, indent, depth, jumps):
        emit = lambda level, text: self.emit(indent + level, text)  # noqa: E731
        j = f"i{next(self.ids)}"
        src, c = self._src(), self.choice(SMALL)
        kind = self.kind8(3)
        emit(0, f"{j} = 0")
        if kind == 0:
            emit(0, f"while {j} < len({src}) and {src}[{j}] {self.choice(CMP)} {c}:")
            emit(1, f"{j} += 1")
            emit(0, f"t = {self.choice([j, f'{j} * 0.5', f't + {j}'])}")
        elif kind == 1:
            emit(0, f"while {j} < len({src}) and not ({src}[{j}] {self.choice(CMP)} {c}):")
            emit(1, f"t = t + {src}[{j}]")
            emit(1, f"{j} += 1")
        else:
            emit(0, f"while {j} < {self.choice(['len(x)', 'k', '3'])}:")
            emit(1, f"if {self.data_scalar()} {self.choice(CMP)} {j}:")
            emit(2, "break")
            emit(1, f"{j} += 1")
            emit(0, "else:")
            emit(1, f"t = {self.choice(['-1', '-1.0', 't + 1'])}")

    def exc12(self, indent, depth, jumps):
        emit = lambda level, text: self.emit(indent + level, text)  # noqa: E731
        kind = self.kind8(3)
        if kind == 0:
            emit(0, "try:")
            emit(1, f"if {self.staged_cond()}:")
            emit(2, 'raise ValueError("neg")')
            emit(1, f"t = {self.scalar(1)}")
            emit(0, "except ValueError:")
            emit(1, f"t = {self.choice(['-1.0', '0', 't'])}")
            emit(0, "finally:")
            emit(1, "fin12 += 1")
        elif kind == 1:
            emit(0, "try:")
            emit(1, f"if {self.staged_cond()}:")
            emit(2, 'raise KeyError("k")')
            emit(0, "except KeyError as e:")
            emit(1, 'raise ValueError("wrapped") from e')
        else:
            v = f"v{next(self.ids)}"
            emit(0, f"for {v} in {self._src()}:")
            emit(1, "try:")
            emit(2, f"if {v} {self.choice(CMP)} {self.choice(SMALL)}:")
            emit(3, "break")
            emit(2, f"t = t + {v}")
            emit(1, "finally:")
            emit(2, "fin12 += 1")

    def strs12(self, indent, depth, jumps):
        emit = lambda level, text: self.emit(indent + level, text)  # noqa: E731
        kind = self.kind8(4)
        if kind == 0:
            v = f"v{next(self.ids)}"
            emit(0, f"for {v} in {self._src()}:")
            emit(1, f's12 += f"{{{v}:.2f}},"')
        elif kind == 1:
            emit(
                0,
                f's12 = "-".join(map(str, [k, len(x), {self.choice(["int(np.argmax(x))", "1"])}]))',
            )
        elif kind == 2:
            emit(0, f"s12 = s12 + str(int({self.data_scalar()}))")
        else:
            emit(0, "t = t + len(s12)")

    def iters12(self, indent, depth, jumps):
        emit = lambda level, text: self.emit(indent + level, text)  # noqa: E731
        i, v, w, u = (f"{c}{next(self.ids)}" for c in "ivvv")
        kind = self.kind8(5)
        if kind == 0:
            emit(0, f"for {i}, {v} in enumerate({self._src()}, start=1):")
            emit(1, f"t = t + {i} * {v}")
        elif kind == 1:
            emit(0, f"for {u}, {v}, {w} in zip(x, y, a):")
            emit(1, f"if {u} {self.choice(CMP)} {w}:")
            emit(2, f"t = t + {v}")
        elif kind == 2:
            emit(0, f"for {i} in reversed(range(len(x))):")
            emit(1, f"if x[{i}] {self.choice(CMP)} {self.choice(SMALL)}:")
            emit(2, f"t = {self.choice(['x[' + i + ']', i])}")
            emit(2, "break")
        elif kind == 3:
            emit(0, f"for {i} in range(len(x) - 1, -1, -1):")
            emit(1, f"t = t * 0.5 + {self._src()}[{i}]")
        else:
            emit(0, f"for {v} in reversed({self._src()}):")
            emit(1, f"t = t - {v}")
