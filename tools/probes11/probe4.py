from dataclasses import dataclass

import numpy as np

from tools.probes11.harness import main


class Particle:
    def __init__(self, x, v):
        self.x = x
        self.v = v
        self.bounces = 0

    def step(self, dt):
        self.x = self.x + self.v * dt
        if self.x < 0:
            self.x = -self.x
            self.v = -self.v
            self.bounces += 1
        return self.x


def p_particle(x):
    p = Particle(float(x[0]) if len(x) else 1.0, -2.0)
    traj = []
    for _ in range(5):
        traj.append(round(p.step(0.3), 6))
    return traj, p.bounces


def p_euler(x):
    y = 1.0
    t = 0.0
    h = 0.1
    while t < 0.5 - 1e-12:
        y = y + h * (-2.0 * y + (x[0] if len(x) else 0.0))
        t += h
    return round(y, 9)


def p_bisect_root(x):
    a, b = 0.0, 3.0
    c = float(x[1]) if len(x) > 1 else 2.0
    f = lambda z: z * z - c
    if f(a) * f(b) > 0:
        return None
    for _ in range(40):
        m = (a + b) / 2
        if f(a) * f(m) <= 0:
            b = m
        else:
            a = m
    return round((a + b) / 2, 6)


@dataclass
class Acc:
    balance: float
    history: list


def p_account(x):
    acc = Acc(10.0, [])
    for v in x:
        if np.isnan(v):
            continue
        if acc.balance - v < 0:
            acc.history.append("denied")
        else:
            acc.balance -= v
            acc.history.append("ok")
    return acc.balance, acc.history


def p_grid_walk(x):
    g = np.zeros((3, 3), dtype=int)
    r = c = 1
    for v in x:
        if np.isnan(v):
            break
        d = int(v) % 4
        if d == 0 and r > 0:
            r -= 1
        elif d == 1 and c < 2:
            c += 1
        elif d == 2 and r < 2:
            r += 1
        elif d == 3 and c > 0:
            c -= 1
        g[r, c] += 1
    return g.tolist(), (r, c)


def p_newton_each(x):
    out = []
    for a in x:
        if not a > 0:
            out.append(float("nan"))
            continue
        z = float(a)
        for _ in range(20):
            nz = 0.5 * (z + a / z)
            if abs(nz - z) < 1e-12:
                break
            z = nz
        out.append(round(float(z), 9))
    return out


def p_matrix_power_iter(x):
    A = np.array([[2.0, 1.0], [1.0, 3.0]])
    v = np.ones(2)
    lam = 0.0
    for _ in range(30):
        w = A @ v
        lam_new = float(w @ v / (v @ v))
        v = w / np.linalg.norm(w)
        if abs(lam_new - lam) < 1e-10:
            break
        lam = lam_new
    return round(lam, 6)


def p_running_stats(x):
    n, mean, m2 = 0, 0.0, 0.0
    for v in x:
        if np.isnan(v):
            continue
        n += 1
        d = v - mean
        mean += d / n
        m2 += d * (v - mean)
    var = m2 / (n - 1) if n > 1 else float("nan")
    return n, mean, var


def p_seeded_sim(x):
    rng = np.random.default_rng(0)
    total = 0.0
    for v in x:
        if rng.random() < 0.5:
            total += v
    return total


def p_pascal(x):
    n = min(len(x), 5)
    rows = [[1]]
    for _i in range(1, n):
        prev = rows[-1]
        rows.append([1] + [prev[j] + prev[j + 1] for j in range(len(prev) - 1)] + [1])
    return rows


def p_label_runs(x):
    runs = []
    cur = None
    count = 0
    for v in x:
        lab = "hi" if v > 1 else "lo"
        if lab == cur:
            count += 1
        else:
            if cur is not None:
                runs.append((cur, count))
            cur, count = lab, 1
    if cur is not None:
        runs.append((cur, count))
    return runs


if __name__ == "__main__":
    main(globals())
