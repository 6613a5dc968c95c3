"""Run time of converted code against the original, on loop-heavy pure Python with plain values.

    python benchmarks/python_overhead.py            # full run (about a minute)
    python benchmarks/python_overhead.py --quick    # smaller inputs, fewer repeats

Each workload is an ordinary function defined in this file; `autoconv.convert` makes its
converted form (recursive: the helpers it calls are converted when first called). Both are first
checked to return the same result, then timed `timeit`-style: the number of calls per run is
picked, for each of the two, so that a run lasts about `--run-time` seconds; runs of the
original and of the converted function alternate, and each figure is the median over the runs
(`--repeat`, at least 5). Ratio = converted median / original median, measured in the same
process. Times are process CPU time (`--wall` for wall-clock time).

A second table times one construct at a time (a small function holding one `if`, one loop, one
`and`/`or`, one call of a converted function), to show where the overhead comes from: what each
construct adds once converted, in nanoseconds.

The recursion-depth rows give the deepest input a recursive-descent parser handles before
`RecursionError`, original against converted, at the default recursion limit: Python's own
`tomllib` parser (a copy of the standard-library package imported under another name, since
conversion leaves standard-library code alone), and a small nested-list parser of the same
shape written here.

Reference point: TensorFlow's AutoGraph runs CPython's own test suites about 77x slower once
converted, and its converted tomllib parser overflows at nesting depth 37 instead of 496.
Target: converted at most 3x the original.
"""

import argparse
import contextlib
import importlib.util
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import types
import warnings

import autoconv

TARGET_RATIO = 3.0

# CPU time of this process by default: shared machines run other jobs, and CPU time leaves out
# the time spent waiting for a core. `--wall` switches to `time.perf_counter`, as `timeit` does.
timer = time.process_time


def machine() -> str:
    return (
        f"{platform.platform()}, {platform.machine()}, {platform.python_implementation()} "
        f"{platform.python_version()}, {os.cpu_count()} CPUs"
        + (f" ({platform.processor()})" if platform.processor() else "")
    )


# -- workloads --


def nested_loops(n):
    """Nested `for` loops over `range` with an if/elif/else chain."""
    total = 0
    for i in range(n):
        for j in range(n):
            if (i * j) % 3 == 0:
                total += i
            elif j > i:
                total -= j
            else:
                total += 1
    return total


def collatz(limit):
    """`while True` loops with `break` and `continue`."""
    longest, best = 0, 0
    for start in range(1, limit):
        x, steps = start, 0
        while True:
            if x == 1:
                break
            steps += 1
            if x % 2 == 0:
                x //= 2
                continue
            x = 3 * x + 1
        if steps > longest:
            longest, best = steps, start
    return best, longest


def tokenize(text):
    """A hand-written tokenizer: `while` loops over a string, guard clauses, `continue`."""
    tokens = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == " ":
            i += 1
            continue
        if "0" <= c <= "9":
            j = i
            while j < n and "0" <= text[j] <= "9":
                j += 1
            tokens.append(("num", int(text[i:j])))
            i = j
        elif c.isalpha() or c == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            tokens.append(("name", text[i:j]))
            i = j
        else:
            tokens.append(("op", c))
            i += 1
    return tokens


def interpret(program, steps):
    """A small stack machine: one `while` loop dispatching on an if/elif chain of opcodes."""
    stack, pc, executed = [], 0, 0
    variables = {}
    while pc < len(program) and executed < steps:
        op, arg = program[pc]
        executed += 1
        pc += 1
        if op == "push":
            stack.append(arg)
        elif op == "load":
            stack.append(variables.get(arg, 0))
        elif op == "store":
            variables[arg] = stack.pop()
        elif op == "add":
            b = stack.pop()
            stack.append(stack.pop() + b)
        elif op == "sub":
            b = stack.pop()
            stack.append(stack.pop() - b)
        elif op == "jump_if_pos":
            if stack.pop() > 0:
                pc = arg
        elif op == "halt":
            break
    return variables, executed


# After ("push", n): count = n; total = 0; while count > 0: total += count; count -= 1
COUNTDOWN = [
    ("store", "count"),
    ("push", 0),
    ("store", "total"),
    ("load", "total"),
    ("load", "count"),
    ("add", None),
    ("store", "total"),
    ("load", "count"),
    ("push", 1),
    ("sub", None),
    ("store", "count"),
    ("load", "count"),
    ("jump_if_pos", 4),
    ("halt", None),
]


def sieve(n):
    """Sieve of Eratosthenes: nested loops over a list."""
    is_prime = [True] * (n + 1)
    is_prime[0] = is_prime[1] = False
    i = 2
    while i * i <= n:
        if is_prime[i]:
            for k in range(i * i, n + 1, i):
                is_prime[k] = False
        i += 1
    count = 0
    for flag in is_prime:
        if flag:
            count += 1
    return count


def classify_words(text):
    """String processing with `and` / `or` / `not` and conditional expressions."""
    counts = {"ident": 0, "number": 0, "upper": 0, "other": 0}
    longest = ""
    for word in text.split():
        word = word.strip(".,;:!?") or word
        if word and (word[0].isalpha() or word[0] == "_") and not word.isupper():
            kind = "ident"
        elif word.isdigit() or (word.startswith("-") and word[1:].isdigit()):
            kind = "number"
        elif word.isupper() and len(word) > 1:
            kind = "upper"
        else:
            kind = "other"
        counts[kind] += 1
        longest = word if len(word) > len(longest) else longest
    return counts, longest


def fib(n):
    """Plain recursion with a guard clause."""
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def smoothstep(x):
    x = clamp(x, 0.0, 1.0)
    return x * x * (3 - 2 * x)


def blend(points):
    """A loop calling small helper functions (converted too, when first called)."""
    total = 0.0
    for i, p in enumerate(points):
        w = smoothstep(p)
        total += w if i % 2 else -w
    return round(total, 6)


# -- one construct each: what a single `if`, loop iteration, `and` or call costs once converted --


def one_if(x):
    if x > 0:
        x = x - 1
    return x


def if_else(x):
    if x > 0:
        y = x
    else:
        y = -x
    return y


def while_10(n):
    i = 0
    while i < n:
        i += 1
    return i


def for_10(n):
    total = 0
    for i in range(n):
        total += i
    return total


def and_or(a, b):
    return a and b or a


def if_expression(a, b):
    return a if a > b else b


def calls_helper(x):
    return clamp(x, 0, 1)


CONSTRUCTS = [
    ("`if` (taken)", "one_if", (1,), 1),
    ("`if`/`else`", "if_else", (1,), 1),
    ("`while`, per iteration", "while_10", (10,), 10),
    ("`for` over `range`, per iteration", "for_10", (10,), 10),
    ("`a and b or a`", "and_or", (1, 2), 1),
    ("conditional expression", "if_expression", (1, 2), 1),
    ("call of a converted function", "calls_helper", (0.5,), 1),
]


# -- a recursive-descent parser of nested lists, shaped like tomllib's parse_value/parse_array --


def parse_value(src, pos):
    char = src[pos] if pos < len(src) else None
    if char == "[":
        return parse_array(src, pos)
    if char == "{":
        return parse_table(src, pos)
    if char is not None and char.isdigit():
        return parse_number(src, pos)
    if char == '"':
        return parse_string(src, pos)
    raise ValueError(f"unexpected {char!r} at {pos}")


def parse_array(src, pos):
    pos += 1
    array = []
    while True:
        if src[pos] == "]":
            return array, pos + 1
        value, pos = parse_value(src, pos)
        array.append(value)
        if src[pos] == ",":
            pos += 1
        elif src[pos] != "]":
            raise ValueError(f"expected ',' or ']' at {pos}")


def parse_table(src, pos):
    pos += 1
    table = {}
    while src[pos] != "}":
        key, pos = parse_string(src, pos)
        if src[pos] != ":":
            raise ValueError(f"expected ':' at {pos}")
        table[key], pos = parse_value(src, pos + 1)
        if src[pos] == ",":
            pos += 1
    return table, pos + 1


def parse_number(src, pos):
    end = pos
    while end < len(src) and src[end].isdigit():
        end += 1
    return int(src[pos:end]), end


def parse_string(src, pos):
    end = src.index('"', pos + 1)
    return src[pos + 1 : end], end + 1


def parse_document(src):
    value, pos = parse_value(src, 0)
    if pos != len(src):
        raise ValueError(f"trailing data at {pos}")
    return value


def nested_document(depth):
    return "[" * depth + "]" * depth


def sample_document(items):
    rows = ",".join(
        f'{{"id":{i},"tags":["a","b"],"vals":[{i},{i + 1},[{i * 2}]]}}' for i in range(items)
    )
    return f"[{rows}]"


# -- tomllib, imported again under a name conversion does not treat as standard library --


def load_copy(name, path, package_dir=None):
    """A fresh copy of the module or package at `path`, imported as `name`."""
    spec = importlib.util.spec_from_file_location(
        name, path, submodule_search_locations=[package_dir] if package_dir else None
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_tomllib_copy(name):
    """A fresh copy of the standard library's `tomllib` package, imported as `name` (so that
    conversion does not take it for library code), or None before Python 3.11."""
    try:
        import tomllib
    except ImportError:
        return None
    package_dir = os.path.dirname(tomllib.__file__)
    return load_copy(name, os.path.join(package_dir, "__init__.py"), package_dir)


def convert_everything(module):
    """Replaces every function and method that `module` defines by its converted form, as a
    module converted as a whole would have them; returns the names left as Python (generators)."""
    left = []

    def convert(func, qualname):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            new = autoconv.convert(func)
        if caught:
            left.append(qualname)
        return new

    for name, value in list(vars(module).items()):
        if getattr(value, "__module__", None) != module.__name__:
            continue
        if isinstance(value, types.FunctionType):
            setattr(module, name, convert(value, name))
        elif isinstance(value, type):
            for attr, member in list(vars(value).items()):
                if isinstance(member, types.FunctionType):
                    setattr(value, attr, convert(member, f"{name}.{attr}"))
    return left


def cli_copy(path, name, scratch):
    """The module file or package folder at `path` converted by `autoconv convert` into
    `scratch`, imported as `name`."""
    out = os.path.join(scratch, name)
    subprocess.run(
        [sys.executable, "-m", "autoconv", "convert", path, "-o", out],
        check=True,
        capture_output=True,
    )
    base = os.path.basename(path)
    target = os.path.join(out, base)
    if os.path.isdir(target):
        return load_copy(name, os.path.join(target, "__init__.py"), target)
    return load_copy(name, target)


@contextlib.contextmanager
def always_converted():
    """The always-converted mode for the duration (what traces run, on Python values)."""
    autoconv.set_always_converted(True)
    try:
        yield
    finally:
        autoconv.set_always_converted(False)


def sample_toml(tables):
    parts = ['title = "benchmark"\n[owner]\nname = "autoconv"\ndob = 1979-05-27T07:32:00Z\n']
    for i in range(tables):
        parts.append(
            f'[servers.s{i}]\nip = "10.0.0.{i % 256}"\nports = [ 8000, 8001, {8002 + i} ]\n'
            f"enabled = {'true' if i % 2 else 'false'}\nweight = {i}.5\n"
            f'tags = {{ role = "r{i}", zone = "z{i % 3}" }}\n'
            f'"quoted key" = """multi\nline {i}"""\n'
        )
    return "".join(parts)


# -- timing --


def converted_form(func):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning here means something was left as Python
        return autoconv.convert(func)


def calls_per_run(func, args, run_time):
    number = 1
    while True:
        start = timer()
        for _ in range(number):
            func(*args)
        if timer() - start >= run_time:
            return number
        number *= 2


def time_variants(funcs, args, repeat, run_time):
    """Median seconds per call of each function; each run lasts about `run_time`, and the runs
    of the variants alternate."""
    numbers = [calls_per_run(f, args, run_time) for f in funcs]
    times = [[] for _ in funcs]
    for _ in range(repeat):
        for k, func in enumerate(funcs):
            number = numbers[k]
            start = timer()
            for _ in range(number):
                func(*args)
            times[k].append((timer() - start) / number)
    return [statistics.median(t) for t in times]


def max_depth(parse, make_input, hi=4000):
    """The largest nesting depth `parse(make_input(depth))` handles without RecursionError."""

    def ok(depth):
        try:
            parse(make_input(depth))
            return True
        except RecursionError:
            return False

    lo = 1
    if not ok(lo):
        return 0
    while ok(hi):
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid
    return lo


def table(headers, rows) -> str:
    widths = [max(len(str(c)) for c in col) for col in zip(headers, *rows)]

    def line(cells):
        parts = [
            str(c).ljust(w) if i == 0 else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths))
        ]
        return "| " + " | ".join(parts) + " |"

    sep = (
        "|"
        + "|".join(
            ("-" * (w + 2)) if i == 0 else ("-" * (w + 1) + ":") for i, w in enumerate(widths)
        )
        + "|"
    )
    return "\n".join([line(headers), sep, *(line(r) for r in rows)])


def workloads(quick):
    """(label, name of the function in this file, args)."""
    scale = 0.25 if quick else 1.0

    def n(value):
        return max(2, int(value * scale))

    text = " ".join(
        ["alpha", "Beta,", "_private", "42", "-7", "NASA", "x", "hello.", "WORLD!", "z9", "?"]
        * n(40)
    )
    source = " ".join(f"x{i} = ({i} + y_{i}) * 3 - foo(bar, {i * 7})" for i in range(n(40)))
    points = [((i * 37) % 101) / 80.0 - 0.1 for i in range(n(2000))]
    return [
        ("nested loops + if/elif/else", "nested_loops", (n(120),)),
        ("while True + break/continue", "collatz", (n(600),)),
        ("tokenizer (while, guards)", "tokenize", (source,)),
        ("stack-machine interpreter", "interpret", ([("push", n(1500)), *COUNTDOWN], 10**9)),
        ("sieve of Eratosthenes", "sieve", (n(40000),)),
        ("words: and/or/not, if-exp", "classify_words", (text,)),
        ("recursive fib", "fib", (16 if quick else 20,)),
        ("loop calling helpers", "blend", (points,)),
        ("nested-list parser", "parse_document", (sample_document(n(200)),)),
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller inputs, 5 short runs")
    parser.add_argument("--repeat", type=int, default=None, help="runs per variant (default 9)")
    parser.add_argument(
        "--run-time",
        type=float,
        default=None,
        help="seconds per run (default 0.1; 0.02 with --quick)",
    )
    parser.add_argument(
        "--wall",
        action="store_true",
        help="time wall-clock (time.perf_counter) instead of process CPU time",
    )
    args = parser.parse_args(argv)
    global timer
    if args.wall:
        timer = time.perf_counter
    repeat = max(5, args.repeat or (5 if args.quick else 9))
    run_time = args.run_time or (0.02 if args.quick else 0.1)

    print("# autoconv overhead on Python values")
    print(f"machine: {machine()}")
    print(f"command: python benchmarks/{os.path.basename(__file__)} {' '.join(sys.argv[1:])}")
    clock = "wall-clock time" if args.wall else "process CPU time"
    print(
        f"timing: {clock}, median of {repeat} alternating runs of ~{run_time:g} s each per variant"
    )
    print()
    start_all = time.perf_counter()

    # The variants of each workload: the original; `autoconv.convert(f)`; every function of
    # the program converted with `autoconv.convert`; the program converted by the CLI
    # (`autoconv convert`, imported from its output); and the functional form everywhere (the
    # always-converted mode), which is what traces run.
    this = sys.modules[__name__]
    everything = load_copy("bench_overhead_converted", os.path.abspath(__file__))
    left = convert_everything(everything)
    scratch = tempfile.mkdtemp(prefix="autoconv-overhead-")
    by_cli = cli_copy(os.path.abspath(__file__), "bench_overhead_cli", scratch)
    cases = [
        (label, getattr(this, name), getattr(everything, name), getattr(by_cli, name), args)
        for label, name, args in workloads(args.quick)
    ]
    toml = load_tomllib_copy("bench_tomllib")
    toml_converted = load_tomllib_copy("bench_tomllib_converted")
    toml_cli = None
    if toml is not None:
        for submodule in ("_parser", "_re"):
            left += convert_everything(getattr(toml_converted, submodule))
        toml_cli = cli_copy(os.path.dirname(toml.__file__), "bench_tomllib_cli", scratch)
        document = sample_toml(10 if args.quick else 40)
        cases.append(
            (
                "tomllib.loads",
                toml._parser.loads,
                toml_converted._parser.loads,
                toml_cli._parser.loads,
                (document,),
            )
        )

    rows, mismatches = [], []
    ratios = {"convert(f)": [], "all converted": [], "CLI": [], "functional": []}
    for label, original, all_converted, cli, call_args in cases:
        top = converted_form(original)
        expected = original(*call_args)
        results = {
            "convert(f)": top(*call_args),
            "all converted": all_converted(*call_args),
            "CLI": cli(*call_args),
        }
        with always_converted():
            results["functional"] = all_converted(*call_args)
        bad = [k for k, v in results.items() if v != expected]
        if bad:
            mismatches.append(f"{label}: {', '.join(bad)} returned something else")
            continue
        t_orig, t_top, t_all, t_cli = time_variants(
            [original, top, all_converted, cli], call_args, repeat, run_time
        )
        with always_converted():
            t_orig2, t_fun = time_variants([original, all_converted], call_args, repeat, run_time)
        row = [label, f"{t_orig * 1e6:,.1f}"]
        for key, t, base in (
            ("convert(f)", t_top, t_orig),
            ("all converted", t_all, t_orig),
            ("CLI", t_cli, t_orig),
            ("functional", t_fun, t_orig2),
        ):
            ratios[key].append(t / base)
            row.append(f"{t / base:.2f}x")
        rows.append(row)
    geo = {k: statistics.geometric_mean(v) if v else float("nan") for k, v in ratios.items()}
    worst = {k: max(v) if v else float("nan") for k, v in ratios.items()}
    rows.append(["**geometric mean**", "", *(f"{geo[k]:.2f}x" for k in ratios)])
    rows.append(["**worst**", "", *(f"{worst[k]:.2f}x" for k in ratios)])
    headers = [
        "workload",
        "original µs",
        "convert(f)",
        "all convert()ed",
        "CLI module",
        "functional form",
    ]
    print(table(headers, rows))
    print()
    print(
        "Ratios to the original, same run. convert(f): the entry function converted; all "
        "convert()ed: every function of the program; CLI module: the program converted by "
        "`autoconv convert` and imported from its output. These run the original statements "
        "outside traces. functional form: every function converted, in the always-converted "
        "mode (what runs inside traces), timed against the original in a run of its own."
    )
    if left:
        print(f"Left as Python in 'all converted': {', '.join(left)}")
    verdict = "meets" if geo["CLI"] <= 1.05 and worst["CLI"] <= 1.2 else "MISSES"
    outside = max(worst["convert(f)"], worst["all converted"], worst["CLI"])
    print(
        f"Outside traces: geometric mean {geo['convert(f)']:.2f}x / {geo['all converted']:.2f}x "
        f"/ {geo['CLI']:.2f}x, worst {outside:.2f}x ({verdict} the 1.05x / 1.2x target of the "
        "CLI module)."
    )
    print()

    construct_rows = []
    for label, name, call_args, per in CONSTRUCTS:
        original, fully = getattr(this, name), getattr(everything, name)
        with always_converted():
            t_orig, t_all = time_variants([original, fully], call_args, repeat, run_time)
        construct_rows.append(
            [
                label,
                f"{t_orig * 1e9:,.0f}",
                f"{t_all * 1e9:,.0f}",
                f"{(t_all - t_orig) * 1e9 / per:,.0f}",
            ]
        )
    print(
        "Cost of one construct in the functional form (always-converted mode): a small "
        "function per construct, called whole (ns per call):"
    )
    print()
    headers = ["construct", "original ns", "converted ns", "added ns per construct"]
    print(table(headers, construct_rows))
    print()
    print(
        "The added cost is the floor of converted code on Python values: each statement runs "
        "through a runtime operator and calls its body as a closure, and each call of a "
        "converted function creates its body and state closures anew."
    )
    print()

    limit = sys.getrecursionlimit()
    depth_rows = []
    parsers = [
        (
            "nested-list parser",
            parse_document,
            everything.parse_document,
            by_cli.parse_document,
            nested_document,
        )
    ]
    if toml is not None:
        parsers.append(
            (
                "tomllib.loads('a = ' + '['*n + ']'*n)",
                toml._parser.loads,
                toml_converted._parser.loads,
                toml_cli._parser.loads,
                lambda d: "a = " + "[" * d + "]" * d,
            )
        )
    for label, original, all_converted, cli, make_input in parsers:
        top = converted_form(original)
        depths = [max_depth(f, make_input) for f in (original, top, all_converted, cli)]
        with always_converted():
            depths.append(max_depth(all_converted, make_input))
        depth_rows.append([label, *depths, f"{min(depths[1:4]) / depths[0]:.2f}"])
    print(f"Maximum nesting depth before RecursionError (recursion limit {limit}):")
    print()
    headers = [
        "parser",
        "original",
        "convert(f)",
        "all convert()ed",
        "CLI module",
        "functional form",
        "outside traces / original",
    ]
    print(table(headers, depth_rows))
    print()
    print("TensorFlow's AutoGraph: its converted tomllib overflows at depth 37 instead of 496.")
    print(f"Benchmark wall time: {time.perf_counter() - start_all:.1f} s")
    if mismatches:
        print()
        print("BUGS: converted results differ from the original's:")
        for m in mismatches:
            print("  " + m)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
