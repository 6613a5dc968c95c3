"""Runs the programs of the fresh batches (tools/fresh_batch3.py to tools/fresh_batch6.py) the
third way, `jax.jit(autoconv.convert(f))` with the program's NumPy replaced by `jax.numpy`
(issue 24), and judges each call against eager NumPy as tools/three_paths.py judges its `jit`
path (tests/jax/corpus.py: arrays traced, other arguments closed over; values, dtypes and
shapes compared, floats to 1e-9; a Python number may come out as an array, docs/jax-tracing.md).

    python tools/jit_batches.py               # the table, by batch
    python tools/jit_batches.py --failures    # and every call that is not correct
    python tools/jit_batches.py --every       # every call's outcome (to compare two runs)
    python tools/jit_batches.py -k NAME       # only programs whose name contains NAME
    python tools/jit_batches.py -b batch5     # only this batch (may be repeated)
    python tools/jit_batches.py --skip 120    # resume: each batch from its 121st program

Outcomes of a call, worst first:

- `crash`: an exception that is neither an `AutoconvError` naming the program's line nor one
  of JAX's documented limits; JAX's tracer errors raised inside autoconv count here;
- `wrong`: a different value, dtype or shape, or a value where eager NumPy raises;
- `hang`: no answer within the time limit;
- `autoconv-error`: an `AutoconvError` naming the program's file and line;
- `jax-design`: JAX's own error for what docs/jax-tracing.md says JAX does not do, raised at
  the user's line (tests/jax/corpus.py's `DESIGN`);
- `same`: the eager answer (or the same exception type);
- `skipped`: an input JAX cannot take (an object array).
"""

import argparse
import collections
import contextlib
import copy
import io
import os
import signal
import sys
import traceback
import warnings

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tools"))

import fresh_batch3  # noqa: E402
import fresh_batch4  # noqa: E402
import fresh_batch5  # noqa: E402
import fresh_batch6  # noqa: E402

BATCHES = {
    "batch3": fresh_batch3,
    "batch4": fresh_batch4,
    "batch5": fresh_batch5,
    "batch6": fresh_batch6,
}
OUTCOMES = ("crash", "wrong", "hang", "autoconv-error", "jax-design", "same", "skipped")
CORRECT = ("same", "autoconv-error", "jax-design")
SECONDS = 60
AUTOCONV_SRC = os.path.join("src", "autoconv") + os.sep


class _Hang(Exception):
    pass


def _alarm(signum, frame):
    # Fires again soon: an exception raised where Python ignores it (a garbage-collection
    # callback) would otherwise leave the call running with no limit.
    signal.alarm(5)
    raise _Hang


def _jax_can_take(args) -> bool:
    """Whether every array among `args` (nested in lists, tuples and dicts) has a dtype JAX has."""
    if isinstance(args, np.ndarray):
        return args.dtype.kind in "biufc"
    if isinstance(args, (list, tuple)):
        return all(_jax_can_take(a) for a in args)
    if isinstance(args, dict):
        return all(_jax_can_take(a) for a in args.values())
    return True


def _raised_in_autoconv(exc) -> str:
    """The innermost frame of `exc` in autoconv's source ("" when none, or when the innermost
    frame outside JAX is the user's; a built-in that converted code calls through the runtime,
    `int(x)`, counts as the user's)."""
    frames = traceback.extract_tb(exc.__traceback__)
    for frame in reversed(frames):
        name = frame.filename.replace("\\", "/")
        if "/jax/" in name or "/jaxlib/" in name:
            continue
        if name.endswith("autoconv/runtime/py_builtins.py"):
            continue  # Python's `int`, `len`, ... as converted code calls them: the user's call
        if name.endswith("autoconv/runtime/items.py") and frame.line == "return target[key]":
            continue  # the user's own `x[key]`, read for them (JAX's error for a traced mask)
        if AUTOCONV_SRC in frame.filename:
            return f"{os.path.relpath(frame.filename, ROOT)}:{frame.lineno}"
        return ""
    return ""


def run_call(corpus, func, args, path) -> tuple:
    """`(outcome, detail)` of `jax.jit(autoconv.convert(func))` on `args` against eager."""
    import autoconv

    if not _jax_can_take(args):
        return "skipped", "an input JAX cannot take"
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(SECONDS)
    try:
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                expected, eager_exc = func(*copy.deepcopy(args)), None
            except Exception as e:  # noqa: BLE001 - the exception type is what must agree
                expected, eager_exc = None, e
            try:
                got = corpus.traced_call(corpus.jax_version(func), copy.deepcopy(args))
            except _Hang:
                raise
            except autoconv.AutoconvError as e:
                if corpus.located(str(e), path):
                    return "autoconv-error", str(e).splitlines()[0][:200]
                return "crash", f"AutoconvError without the user's line: {e}"[:300]
            except Exception as e:  # noqa: BLE001
                if eager_exc is not None and type(e) is type(eager_exc):
                    return "same", "both raise"  # the user's own `raise` or `assert` too
                inside = _raised_in_autoconv(e)
                text = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:250]
                if inside:
                    return "crash", f"{text} (raised at {inside})"
                reason = corpus._design_reason(e)
                if reason is not None:
                    return "jax-design", f"{reason}: {text}"
                return "crash", text
    except _Hang:
        return "hang", f"no answer in {SECONDS} s"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    if eager_exc is not None:
        return "wrong", f"eager raises {type(eager_exc).__name__}; jit returns {got!r:.80}"
    found = corpus.compare(expected, got)
    if found == corpus.ONE_DTYPE:
        return "jax-design", "one-dtype"
    return ("same", "") if found is None else ("wrong", found[:300])


def _worst(calls):
    return next(o for o in OUTCOMES if o in [c[0] for c in calls]) if calls else "skipped"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--failures", action="store_true", help="list the calls not correct")
    parser.add_argument("--every", action="store_true", help="list every call (to compare runs)")
    parser.add_argument("--skip", type=int, default=0, help="skip each batch's first N programs")
    parser.add_argument("-k", default="", help="only programs whose name contains this text")
    parser.add_argument(
        "-b", "--batch", action="append", choices=sorted(BATCHES), help="only these"
    )
    options = parser.parse_args(argv)
    # Every frame in tracebacks, so that an error raised inside autoconv is seen as such.
    os.environ["AUTOCONV_TRACEBACK"] = "full"
    os.environ["JAX_TRACEBACK_FILTERING"] = "off"
    import jax

    from tests.jax import corpus

    jax.config.update("jax_enable_x64", True)
    results = {}  # (batch, name) -> [(outcome, detail)]
    batches = {b: m for b, m in BATCHES.items() if not options.batch or b in options.batch}
    for batch, module in batches.items():
        path = os.path.basename(module.__file__)
        for func, inputs in module.P[options.skip :]:
            if options.k not in func.__name__:
                continue
            calls = [run_call(corpus, func, a, path) for a in inputs]
            results[batch, func.__name__] = calls
            if options.failures or options.every:  # as it goes: a stopped run keeps what it found
                for k, (outcome, detail) in enumerate(calls):
                    if options.every or outcome not in CORRECT + ("skipped",):
                        print(f"  {batch} {func.__name__} input {k}: {outcome}: {detail}")
                sys.stdout.flush()
            print(".", end="", flush=True, file=sys.stderr)
    print(file=sys.stderr)
    per_call = {b: collections.Counter() for b in batches}
    per_program = {b: collections.Counter() for b in batches}
    for (batch, _), calls in results.items():
        per_call[batch].update(c[0] for c in calls)
        per_program[batch][_worst(calls)] += 1
    print(f"{'outcome':<16}" + "".join(f"{b + ' calls':>14}{'programs':>10}" for b in batches))
    for outcome in OUTCOMES + ("total", "correct"):
        cells = ""
        for b in batches:
            if outcome == "total":
                calls, progs = sum(per_call[b].values()), sum(per_program[b].values())
            elif outcome == "correct":
                calls = sum(per_call[b][o] for o in CORRECT)
                progs = sum(per_program[b][o] for o in CORRECT)
            else:
                calls, progs = per_call[b][outcome], per_program[b][outcome]
            cells += f"{calls:>14}{progs:>10}"
        print(f"{outcome:<16}{cells}")
    bad = sum(c[0] not in CORRECT + ("skipped",) for calls in results.values() for c in calls)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
