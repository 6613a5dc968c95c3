"""Programs that make strings from values known only when the graph runs (issue 24, branch
strings7): reports, labels, tables, logs, CSV lines, progress prints, written after the fix
and not seen by it. Each runs eagerly and under `autoconv.function` on the NumPy and JAX
backends; the result (type and repr) and the printed output must be eager's.

    python tools/strings7_programs.py          # one line per program and backend, then counts
"""

import contextlib
import io
import sys
import warnings

import numpy as np

import autoconv


def grade_report(scores):
    lines = []
    for i, s in enumerate(scores):
        if s >= 90:
            grade = "A"
        elif s >= 75:
            grade = "B"
        else:
            grade = "C (%.1f below 75)" % (75 - s)  # noqa: UP031
        lines.append("student %02d: %5.1f -> %s" % (i, s, grade))  # noqa: UP031
    return "\n".join(lines)


def csv_export(m):
    header = ",".join("col%d" % j for j in range(m.shape[1]))  # noqa: UP031
    rows = [header]
    for row in m:
        rows.append(",".join("{:.3g}".format(v) for v in row))  # noqa: UP032
    return rows


def training_log(losses):
    best = np.inf
    for epoch, loss in enumerate(losses):
        if loss < best:
            best = loss
            print("epoch {:>3}: loss {:.4f} (best)".format(epoch, loss))  # noqa: UP032
        else:
            print("epoch %3d: loss %.4f" % (epoch, loss))  # noqa: UP031
    return "best=%r" % best  # noqa: UP031


def histogram_text(x):
    counts, edges = np.histogram(x, bins=3)
    out = []
    for c, lo, hi in zip(counts, edges[:-1], edges[1:]):
        out.append(f"[{lo:6.2f}, {hi:6.2f}) " + "%d" % c)  # noqa: UP031
    return out


def traffic_state(speeds):
    state = "stopped"
    for v in speeds:
        if v > 80:
            state = "speeding at %d km/h" % int(v)  # noqa: UP031
        elif v > 0:
            state = "moving"
    return state


def inventory_labels(stock, names):
    labels = []
    for i in range(len(stock)):
        q = int(stock[i])
        text = "{name}: {q} left".format(name=names[i], q=q)  # noqa: UP032
        labels.append(text if q else f"{names[i]}: out")
    return labels


def ascii_banner(codes, width):
    text = "".join(chr(c) for c in codes)
    return "*" * width + " " + text.upper() + " " + "*" * width


def money(amounts):
    total = amounts.sum()
    parts = ["%+.2f" % a for a in amounts]  # noqa: UP031
    return " ".join(parts), "total: {:,.2f}".format(total)  # noqa: UP032


def status_line(x):
    k = int(np.argmin(x))
    levels = ["ok", "warn", "fail"]
    level = levels[min(k, 2)]
    return "%s: min %s at %d" % (level, repr(x[k]), k)  # noqa: UP031


def progress(n_steps, x):
    acc = 0.0
    for i in range(n_steps):
        acc += float(x[i % len(x)])
        if i % 2 == 0:
            print("[%-10s] %3d%%" % ("=" * (i + 1), 100 * (i + 1) // n_steps))  # noqa: UP031
    return acc


def pick_unit(nbytes):
    units = ["B", "KB", "MB"]
    value = float(nbytes)
    i = 0
    while value >= 1024 and i < 2:
        value /= 1024
        i += 1
    return f"{value:.1f} {units[i]}"


def key_values(d_vals):
    keys = ("lo", "hi", "mean")
    vals = (d_vals.min(), d_vals.max(), d_vals.mean())
    return "; ".join("%s=%.2f" % kv for kv in zip(keys, vals))  # noqa: UP031


def receipt(prices, qty):
    names = ["tea", "cake", "jam"]
    lines = []
    total = 0.0
    for i in range(len(prices)):
        cost = prices[i] * qty[i]
        total += cost
        lines.append("%-6s x%2d %8.2f" % (names[i % 3], qty[i], cost))  # noqa: UP031
    lines.append("{:<6} {:>12.2f}".format("TOTAL", total))  # noqa: UP032
    return "\n".join(lines)


def first_failure(readings, limit):
    i = 0
    while i < len(readings):
        if readings[i] > limit:
            msg = "sensor {} over by {:.2f}".format(i, readings[i] - limit)  # noqa: UP032
            break
        i += 1
    else:
        msg = "all %d readings ok" % len(readings)  # noqa: UP031
    return msg


def event_log(x):
    log = []
    level = "INFO"
    for t, v in enumerate(x):
        if v < 0:
            level = "WARN"
            log.append(f"[{level}] t={t} v={v!r}")
        elif v > 10:
            log.append("[%s] t=%d spike %s" % ("ERROR", t, repr(v)))  # noqa: UP031
    return log, level


def bar_chart(counts):
    rows = []
    for i, c in enumerate(counts):
        rows.append("{:>2} | {} {}".format(i, chr(35) * 0 + "*" * 3, int(c)))  # noqa: UP032
    return "\n".join(rows)


PROGRAMS = [
    (receipt, [(np.array([2.5, 4.0]), np.array([2, 1])), (np.zeros(0), np.zeros(0, np.int64))]),
    (first_failure, [(np.array([1.0, 5.5, 2.0]), 3.0), (np.array([1.0]), 3.0)]),
    (event_log, [(np.array([1.0, -2.0, 12.5]),), (np.zeros(0),)]),
    (bar_chart, [(np.array([3, 0, 5]),)]),
    (grade_report, [(np.array([95.0, 80.0, 60.5]),), (np.zeros(0),)]),
    (csv_export, [(np.array([[1.0, 2.5], [1e5, -3.25]]),), (np.zeros((0, 3)),)]),
    (training_log, [(np.array([1.0, 0.5, 0.7, 0.25]),), (np.array([2.0]),)]),
    (histogram_text, [(np.array([0.0, 1.0, 1.5, 3.0]),)]),
    (traffic_state, [(np.array([10.0, 95.5, 50.0]),), (np.array([0.0]),), (np.array([81.0]),)]),
    (inventory_labels, [(np.array([3, 0, 12]), ["bolts", "nuts", "gears"])]),
    (ascii_banner, [(np.array([104, 101, 121]), 9), (np.zeros(0, np.int64), 4)]),
    (money, [(np.array([1234.5, -20.0]),), (np.array([0.005]),)]),
    (status_line, [(np.array([3.0, 1.0, 2.0]),), (np.array([5.0, 6.0, 7.0, 0.5]),)]),
    (progress, [(5, np.array([1.0, 2.0])), (2, np.array([0.5]))]),
    (pick_unit, [(np.int64(512),), (np.int64(5000),), (np.int64(9_000_000),)]),
    (key_values, [(np.array([1.0, 4.0, 2.5]),)]),
]


def outcome(fn, args, backend=None):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            f = fn if backend is None else autoconv.function(fn, backend=backend)
            result = f(*args)
            return ("ok", type(result).__name__, repr(result), out.getvalue())
        except autoconv.AutoconvError as e:
            return ("ERROR", type(e).__name__, str(e).splitlines()[0][:160], "")
        except Exception as e:  # noqa: BLE001 - an outcome
            return ("raise", type(e).__name__, str(e)[:160], out.getvalue())


def main(names):
    counts: dict = {}
    for fn, inputs in PROGRAMS:
        if names and fn.__name__ not in names:
            continue
        for backend in ("numpy", "jax"):
            worst = "ok"
            for args in inputs:
                want, got = outcome(fn, args), outcome(fn, args, backend)
                if got == want:
                    continue
                kind = "ERROR" if got[0] == "ERROR" else ("CRASH" if got[0] == "raise" else "WRONG")
                print(f"{fn.__name__} {backend}: {kind} {got[1]}: {got[2]}")
                worst = kind
                break
            counts[backend, worst] = counts.get((backend, worst), 0) + 1
    print(" ".join(f"{b}:{k}={n}" for (b, k), n in sorted(counts.items())))


if __name__ == "__main__":
    main(sys.argv[1:])
