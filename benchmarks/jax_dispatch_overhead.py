"""What the JAX hooks cost converted code that never meets JAX: the overhead of
`convert(f)(1)` (a call through `ac.converted`), an `if` and a `while` loop on Python values,
with `jax` not imported and with `jax` imported (but not tracing).

    python benchmarks/jax_dispatch_overhead.py [--repeat 7] [--baseline SRC]
    python benchmarks/jax_dispatch_overhead.py --arguments [--repeat 7] [--baseline SRC]

`--arguments` (needs JAX) times instead a call of a function lowered with `backend="jax"` that
adds 1, 4 or 16 float64 arrays of 8 elements, against `jax.jit` of the same function called
with the same arguments, in both regimes: NumPy arrays in and out (`np.asarray(jitted(...))`)
and JAX arrays kept on the device (`keep_on_device=True`, results waited for). JAX's 64-bit
types are enabled globally, as the hand-written side needs them; microseconds per call, the
best of `--repeat` runs of 2,000 calls in process CPU time.

Each setting runs in a fresh interpreter. `--baseline SRC` (default: /work/main/src when it
exists) names another autoconv source tree to time the same code with, e.g. the code before
the JAX hooks; its column and the ratio show what the hooks add. Times are medians over
`--repeat` runs of process CPU time, in nanoseconds per call (per iteration for the loop).
The plain Python column is the unconverted function in the same process.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap

CHILD = textwrap.dedent(
    """
    import json, statistics, sys, time, timeit
    if sys.argv[1] == "jax":
        import jax  # noqa: F401
    import autoconv

    def helper(x):
        return x + 1

    def call(x):
        return helper(x)

    def branch(x):
        if x > 0:
            x = x - 1
        else:
            x = x + 1
        return x

    def loop(n):
        i = 0
        total = 0
        while i < n:
            total += i
            i += 1
        return total

    N = 1000
    cases = {
        "convert(f)(1), f calls a helper": (call, (1,), 1),
        "if on a Python int": (branch, (1,), 1),
        "while loop, per iteration": (loop, (N,), N),
    }
    repeat = int(sys.argv[2])
    out = {}
    for name, (func, args, per) in cases.items():
        conv = autoconv.convert(func)
        assert conv is not func and conv(*args) == func(*args)
        row = {}
        for label, fn in (("python", func), ("converted", conv)):
            number = 50000 // per
            # Process CPU time: the machine may be shared, and other processes' time is not ours.
            times = timeit.repeat(
                lambda: fn(*args), number=number, repeat=repeat, timer=time.process_time
            )
            row[label] = statistics.median(times) / number / per * 1e9
        out[name] = row
    out["jax loaded"] = "jax" in sys.modules
    out["runtime.jax loaded"] = "autoconv.trace.jax" in sys.modules
    print(json.dumps(out))
    """
)


ARGUMENTS = textwrap.dedent(
    """
    import json, sys, time, timeit, warnings
    import numpy as np
    import jax
    jax.config.update("jax_enable_x64", True)
    import autoconv

    warnings.simplefilter("ignore")

    def adder(n):
        names = [f"a{i}" for i in range(n)]
        src = f"def add{n}({', '.join(names)}):\\n    return {' + '.join(names)}\\n"
        path = f"{sys.argv[3]}/add{n}.py"  # a file: autoconv converts from source text
        with open(path, "w") as f:
            f.write(src)
        namespace = {}
        exec(compile(src, path, "exec"), namespace)
        return namespace[f"add{n}"]

    def best(fn, number=2000):
        times = timeit.repeat(fn, number=number, repeat=int(sys.argv[2]), timer=time.process_time)
        return min(times) / number * 1e6

    out = {}
    for n in (1, 4, 16):
        f = adder(n)
        xs = [np.full(8, float(i)) for i in range(n)]
        with jax.enable_x64(True):
            ds = [jax.device_put(x) for x in xs]
        jitted = jax.jit(f)
        ours = autoconv.function(f, backend="jax")
        kept = autoconv.function(f, backend="jax", keep_on_device=True)
        assert np.array_equal(ours(*xs), f(*xs))
        kept(*xs)
        kept(*ds).block_until_ready()
        jitted(*ds).block_until_ready()
        out[f"{n} NumPy in/out"] = (
            best(lambda: ours(*xs)), best(lambda: np.asarray(jitted(*xs)))
        )
        out[f"{n} on the device"] = (
            best(lambda: kept(*ds).block_until_ready()),
            best(lambda: jitted(*ds).block_until_ready()),
        )
    print(json.dumps(out))
    """
)


def _arguments(src, repeat):
    env = dict(os.environ, PYTHONPATH=src)
    with tempfile.TemporaryDirectory() as folder:
        child = os.path.join(folder, "child.py")
        with open(child, "w") as f:
            f.write(ARGUMENTS)
        out = subprocess.run(
            [sys.executable, child, "x", str(repeat), folder],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _main_arguments(here, baseline, repeat) -> int:
    print(f"python {sys.version.split()[0]}; us per call, best of {repeat} runs of 2,000 calls")
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)\n")
    ours = _arguments(here, repeat)
    base = _arguments(baseline, repeat) if baseline else None
    head = "| arguments, regime | ours | jax.jit | ours/jit |"
    rule = "| --- | ---: | ---: | ---: |"
    if base:
        head += " baseline | baseline/jit |"
        rule += " ---: | ---: |"
    print(head)
    print(rule)
    for name, (mine, jit) in ours.items():
        line = f"| {name} | {mine:.2f} | {jit:.2f} | {mine / jit:.2f}x |"
        if base:
            b, bjit = base[name]
            line += f" {b:.2f} | {b / bjit:.2f}x |"
        print(line)
    return 0


def _run(src, mode, repeat):
    env = dict(os.environ, PYTHONPATH=src)
    # A file, not `-c`: autoconv converts functions from their source text.
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(CHILD)
    out = subprocess.run(
        [sys.executable, f.name, mode, str(repeat)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    default = "/work/main/src" if os.path.isdir("/work/main/src") else None
    parser.add_argument("--baseline", default=default)
    parser.add_argument(
        "--arguments", action="store_true", help="a lowered function's call against jax.jit's"
    )
    args = parser.parse_args(argv)
    here = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
    if args.arguments:
        return _main_arguments(here, args.baseline, args.repeat)
    print(f"python {sys.version.split()[0]}; ns per call (per iteration for the loop), medians")
    for mode in ("nojax", "jax"):
        try:
            ours = _run(here, mode, args.repeat)
        except subprocess.CalledProcessError as e:
            print(f"\n{mode}: skipped ({e.stderr.strip().splitlines()[-1]})")
            continue
        base = _run(args.baseline, mode, args.repeat) if args.baseline else None
        title = "jax imported" if mode == "jax" else "jax not imported"
        print(
            f"\n{title} (jax in sys.modules: {ours['jax loaded']}, "
            f"autoconv.trace.jax loaded: {ours['runtime.jax loaded']})"
        )
        head = f"{'case':34} {'python':>8} {'converted':>10} {'ratio':>6}"
        if base:
            head += f" {'baseline':>9} {'vs base':>8}"
        print(head)
        for name, row in ours.items():
            if not isinstance(row, dict):
                continue
            line = (
                f"{name:34} {row['python']:8.0f} {row['converted']:10.0f} "
                f"{row['converted'] / row['python']:6.2f}"
            )
            if base:
                b = base[name]["converted"]
                line += f" {b:9.0f} {row['converted'] / b:8.2f}"
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
