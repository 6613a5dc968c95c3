"""Issue 25's workloads, written the way a user writes them (Python `range` loops, a `for` over
an array argument, a converged `break`; then a Python `if` on the step, an RNN over `range(T)`, a
`while` with a counter, a list of `(w, b)` tuples, attention steps, `out[i] = acc`), and the same
computations written by hand with `jax.numpy` and `lax` for `jax.jit`. benchmarks/jax_backend.py
times them (`--user`)."""

from __future__ import annotations

import numpy as np


def descent(x, y, w, steps=1000):
    """Gradient descent on least squares, 1000 steps of a Python `range` loop."""
    for _ in range(steps):
        err = y - x @ w
        grad = -2.0 * (x.T @ err) / x.shape[0]
        w = w - 0.01 * grad
    return w


def layers(x, ws):
    """A stack of ReLU layers whose weights are one (100, 64, 64) array."""
    for w in ws:
        x = np.maximum(x @ w, 0)
    return x


def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def chain(a, b, c, d):
    return ((a * b + c - d) * a + b) * c - d


def power(x, n):
    result = np.eye(x.shape[0], dtype=x.dtype)
    for _ in range(n):
        result = result @ x
    return result


def kmeans(x, c, iters):
    """Lloyd's iterations until the centers stop moving."""
    k = c.shape[0]
    for _ in range(iters):
        d = np.sum((x[:, None, :] - c[None, :, :]) ** 2, axis=2)
        labels = np.argmin(d, axis=1)
        onehot = (labels[:, None] == np.arange(k)[None, :]).astype(x.dtype)
        new = (onehot.T @ x) / np.maximum(np.sum(onehot, axis=0), 1.0)[:, None]
        if np.max(np.abs(new - c)) < 1e-9:
            break
        c = new
    return c


def warmup(x, y, w, steps=1000):
    """Gradient descent whose learning rate a Python `if` on the step picks (a warm-up)."""
    for i in range(steps):
        if i < 10:
            lr = 0.001 * (i + 1)
        else:
            lr = 0.01
        grad = -2.0 * (x.T @ (y - x @ w)) / x.shape[0]
        w = w - lr * grad
    return w


def rnn(xs, h, wx, wh, b):
    """An RNN cell over the time axis of a (T, B, H) array: a Python range over its length."""
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ wx + h @ wh + b)
    return h


def newton(a, tol):
    """A `while` on a staged test with a counter: Newton's iterations for sqrt(a)."""
    x = a
    i = 0
    while np.max(np.abs(x * x - a)) > tol and i < 100:
        x = 0.5 * (x + a / x)
        i += 1
    return x, i


def mlp(x, params):
    """A loop over a Python list of (weight, bias) tuples."""
    for w, b in params:
        x = np.tanh(x @ w + b)
    return x


def attention(q, k, v, steps=20):
    """Softmax attention of the queries over keys and values, repeated."""
    for _ in range(steps):
        s = q @ k.T / np.sqrt(q.shape[-1])
        p = np.exp(s - np.max(s, axis=-1, keepdims=True))
        p = p / np.sum(p, axis=-1, keepdims=True)
        q = p @ v
    return q


def running_sum(x):
    """A running sum written into `out[i]`: a Python range over the length."""
    out = np.zeros_like(x)
    acc = 0.0
    for i in range(x.shape[0]):
        acc = acc + x[i]
        out[i] = acc
    return out


def hand_written(steps=1000):
    """`{key: jitted}`: the same computations with `jax.numpy` and `lax` (Python ints static)."""
    import jax
    import jax.numpy as jnp
    from jax import lax

    @jax.jit
    def j_descent(x, y, w):
        def body(_, w):
            err = y - x @ w
            return w - 0.01 * (-2.0 * (x.T @ err) / x.shape[0])

        return lax.fori_loop(0, steps, body, w)

    @jax.jit
    def j_layers(x, ws):
        return lax.scan(lambda x, w: (jnp.maximum(x @ w, 0), None), x, ws)[0]

    @jax.jit
    def j_collatz(n):
        def body(state):
            n, steps = state
            n = lax.cond(n % 2 == 0, lambda n: n // 2, lambda n: 3 * n + 1, n)
            return n, steps + 1

        return lax.while_loop(lambda s: s[0] != 1, body, (n, 0))[1]

    @jax.jit
    def j_chain(a, b, c, d):
        return ((a * b + c - d) * a + b) * c - d

    @jax.jit
    def j_power(x):
        return lax.fori_loop(0, 100, lambda _, r: r @ x, jnp.eye(x.shape[0], dtype=x.dtype))

    @jax.jit
    def j_kmeans(x, c):
        k = c.shape[0]

        def body(state):
            i, c, _ = state
            d = jnp.sum((x[:, None, :] - c[None, :, :]) ** 2, axis=2)
            onehot = (jnp.argmin(d, axis=1)[:, None] == jnp.arange(k)[None, :]).astype(x.dtype)
            new = (onehot.T @ x) / jnp.maximum(onehot.sum(axis=0), 1.0)[:, None]
            done = jnp.max(jnp.abs(new - c)) < 1e-9
            return i + 1, jnp.where(done, c, new), done

        return lax.while_loop(lambda s: (s[0] < 50) & ~s[2], body, (0, c, False))[1]

    @jax.jit
    def j_warmup(x, y, w):
        def body(i, w):
            lr = jnp.where(i < 10, 0.001 * (i + 1), 0.01)
            return w - lr * (-2.0 * (x.T @ (y - x @ w)) / x.shape[0])

        return lax.fori_loop(0, steps, body, w)

    @jax.jit
    def j_rnn(xs, h, wx, wh, b):
        return lax.scan(lambda h, x: (jnp.tanh(x @ wx + h @ wh + b), None), h, xs)[0]

    @jax.jit
    def j_newton(a, tol):
        def body(s):
            x, i = s
            return 0.5 * (x + a / x), i + 1

        def test(s):
            x, i = s
            return (jnp.max(jnp.abs(x * x - a)) > tol) & (i < 100)

        return lax.while_loop(test, body, (a, 0))

    @jax.jit
    def j_mlp(x, params):
        for w, b in params:  # (as JAX users write it: unrolled while JAX traces)
            x = jnp.tanh(x @ w + b)
        return x

    @jax.jit
    def j_attention(q, k, v):
        def body(_, q):
            s = q @ k.T / jnp.sqrt(q.shape[-1])
            p = jnp.exp(s - jnp.max(s, axis=-1, keepdims=True))
            return (p / jnp.sum(p, axis=-1, keepdims=True)) @ v

        return lax.fori_loop(0, 20, body, q)

    @jax.jit
    def j_running_sum(x):
        def body(i, s):
            acc, out = s
            acc = acc + x[i]
            return acc, out.at[i].set(acc)

        return lax.fori_loop(0, x.shape[0], body, (0.0, jnp.zeros_like(x)))[1]

    return {
        "descent": j_descent,
        "layers": j_layers,
        "collatz": j_collatz,
        "chain": j_chain,
        "power": j_power,
        "kmeans": j_kmeans,
        "warmup": j_warmup,
        "rnn": j_rnn,
        "newton": j_newton,
        "mlp": j_mlp,
        "attention": j_attention,
        "running_sum": j_running_sum,
    }


def cases(steps=1000):
    """`(label, key, function, our arguments, the hand-written function's arguments)`."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(256, 16))
    y = x @ rng.normal(size=16)
    ws = rng.normal(size=(100, 64, 64)) * 0.15
    big = [rng.normal(size=1_000_000) for _ in range(4)]
    m = (np.eye(10) + rng.normal(size=(10, 10)) * 0.01).astype(np.float64)
    pts = np.concatenate([rng.normal(size=(400, 2)) + 6 * i for i in range(5)])
    centers = pts[::400].copy() + 0.5

    def desc(x, y, w):
        return descent(x, y, w, steps)

    desc.__name__ = f"descent{steps}"

    def warm(x, y, w):
        return warmup(x, y, w, steps)

    warm.__name__ = f"warmup{steps}"
    T, B, H = 100, 8, 32
    wx, wh = rng.normal(size=(H, H)) * 0.2, rng.normal(size=(H, H)) * 0.2
    seq = (rng.normal(size=(T, B, H)), np.zeros((B, H)), wx, wh, rng.normal(size=H) * 0.1)
    params = [(rng.normal(size=(32, 32)) * 0.2, rng.normal(size=32) * 0.1) for _ in range(20)]
    qkv = tuple(rng.normal(size=shape) for shape in ((16, 32), (64, 32), (64, 32)))
    return [
        (f"descent, range({steps})", "descent", desc, (x, y, np.zeros(16)), (x, y, np.zeros(16))),
        ("for w in ws (100,64,64)", "layers", layers, (x[:8, :16] @ np.ones((16, 64)), ws), None),
        ("collatz(np.int64(27))", "collatz", collatz, (np.int64(27),), None),
        ("chain 4x1e6 float64", "chain", chain, tuple(big), None),
        ("power(m, 100) 10x10", "power", power, (m, 100), (m,)),
        ("k-means 2000x2 break", "kmeans", kmeans, (pts, centers, 50), (pts, centers)),
        (f"warm-up if, range({steps})", "warmup", warm, (x, y, np.zeros(16)), None),
        ("rnn (100,8,32) range(T)", "rnn", rnn, seq, None),
        ("newton while + counter", "newton", newton, (rng.uniform(1, 100, 1000), 1e-10), None),
        ("mlp 20 (w, b) tuples", "mlp", mlp, (x[:8, :16] @ np.ones((16, 32)), params), None),
        ("attention 20 steps", "attention", attention, qkv, None),
        ("running sum out[i] 1000", "running_sum", running_sum, (rng.normal(size=1000),), None),
    ]
