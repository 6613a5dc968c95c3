"""Probes of round 12: objects, training loops, reports (issue 24)."""

# ruff: noqa: E741
import math
from dataclasses import dataclass, field

import numpy as np

from tools.probes11.harness import main


class Model:
    def __init__(self, n):
        self.w = np.zeros(n)
        self.b = 0.0
        self.history = []

    def predict(self, x):
        return x * self.w[0] + self.b

    def step(self, x, y, lr=0.1):
        err = self.predict(x) - y
        self.w[0] -= lr * err * x
        self.b -= lr * err
        self.history.append(err * err)
        return err


def p_model_training(x):
    m = Model(1)
    for v in x:
        m.step(v, 2 * v)
    return m.b, len(m.history)


def p_early_stop(x):
    best = math.inf
    patience = 0
    epochs = 0
    for v in x:
        epochs += 1
        loss = (v - 2.0) ** 2
        if loss < best - 1e-9:
            best = loss
            patience = 0
        else:
            patience += 1
            if patience >= 2:
                break
    return best, epochs


def p_history_dict(x):
    hist = {"loss": [], "acc": []}
    for v in x:
        hist["loss"].append(v * 0.5)
        hist["acc"].append(1.0 if v > 1 else 0.0)
    return {k: (sum(v) / len(v) if v else None) for k, v in hist.items()}


@dataclass
class Stats:
    n: int = 0
    total: float = 0.0
    values: list = field(default_factory=list)

    def add(self, v):
        self.n += 1
        self.total += float(v)
        self.values.append(v)


def p_dataclass_stats(x):
    s = Stats()
    for v in x:
        if not np.isnan(v):
            s.add(v)
    return s.n, s.total, len(s.values)


def p_lr_schedule(x):
    lr = 0.1
    out = []
    for i, v in enumerate(x):
        if i > 0 and i % 2 == 0:
            lr *= 0.5
        out.append(lr * v)
    return out, lr


def p_gradient_descent(x):
    w = 0.0
    for _ in range(20):
        g = 0.0
        for v in x:
            g += 2 * (w - v)
        w -= 0.05 * g
    return round(w, 4)


def p_minibatches(x):
    losses = []
    for start in range(0, len(x), 2):
        batch = x[start : start + 2]
        losses.append(float(np.mean(batch**2)))
    return losses


def p_report_lines(x):
    lines = []
    for i, v in enumerate(x):
        status = "ok" if v >= 1 else "low"
        lines.append(f"{i:02d}: {v:6.2f} {status}")
    return "\n".join(lines)


def p_argmax_loop(x):
    best_i, best_v = None, None
    for i, v in enumerate(x):
        if best_v is None or v > best_v:
            best_i, best_v = i, v
    return best_i


def p_normalize_rows(x):
    m = np.stack([x, x * 2]) if len(x) else np.zeros((2, 0))
    for i in range(m.shape[0]):
        s = m[i].sum()
        if s != 0:
            m[i] = m[i] / s
    return m


def p_confusion(x):
    cm = {}
    for v in x:
        pred = int(v > 1)
        true = int(v > 2)
        cm[(true, pred)] = cm.get((true, pred), 0) + 1
    return sorted(cm.items())


def p_accumulate_metrics(x):
    tp = fp = fn = 0
    for v in x:
        p, t = v > 1, v > 2
        if p and t:
            tp += 1
        elif p and not t:
            fp += 1
        elif t and not p:
            fn += 1
    prec = tp / (tp + fp) if tp + fp else 0.0
    rec = tp / (tp + fn) if tp + fn else 0.0
    return prec, rec


class Particle:
    def __init__(self, pos, vel):
        self.pos = pos
        self.vel = vel

    def move(self, dt):
        self.pos = self.pos + self.vel * dt
        if self.pos < 0:
            self.pos = -self.pos
            self.vel = -self.vel


def p_particles(x):
    ps = [Particle(float(v), -1.0) for v in x]
    for _ in range(3):
        for p in ps:
            p.move(0.5)
    return [round(p.pos, 3) for p in ps]


def p_clip_grad(x):
    g = x * 2
    norm = np.sqrt(np.sum(g * g))
    if norm > 5:
        g = g * (5 / norm)
    return g, float(norm)


def p_ema(x):
    ema = None
    for v in x:
        ema = v if ema is None else 0.9 * ema + 0.1 * v
    return ema


def p_bucketize(x):
    edges = [0.0, 1.0, 2.5]
    counts = [0] * (len(edges) + 1)
    for v in x:
        k = 0
        while k < len(edges) and v >= edges[k]:
            k += 1
        counts[k] += 1
    return counts


if __name__ == "__main__":
    main(globals())
