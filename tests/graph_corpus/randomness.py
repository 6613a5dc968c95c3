"""Random numbers: np.random's global state (seeded by the harness before each call) and
np.random.Generator objects, passed in or built from a seed. Each call must draw new numbers,
the same ones eager code draws."""

import numpy as np

from tests.graph_corpus import case, limit

X = np.array([1.0, 2.0, 3.0, 4.0])


def rng(seed=0):
    return np.random.default_rng(seed)


@case((X,), (X,), (X,), cls=10, seed=100)
def add_gaussian_noise(x):
    return x + np.random.normal(0.0, 0.1, size=x.shape)


@case((X, 0.5), (X, 0.5), (X, 0.0), cls=10, seed=200)
def dropout(x, p):
    mask = np.random.rand(*x.shape) >= p
    return x * mask / (1 - p)


@case((X, rng(1)), (X, rng(2)), cls=10)
def generator_noise(x, gen):
    return x + gen.normal(size=x.shape)


@case((X,), (X,), cls=10)
def fixed_seed_inside(x):
    g = np.random.default_rng(42)
    return x * g.uniform(size=x.shape)


@case((10,), (10,), (0,), cls=(10, 5), seed=300)
@limit("np.random.choice on a Python list inside a Python loop is not staged")
def random_walk(n):
    pos = 0
    for _ in range(n):
        pos += np.random.choice([-1, 1])
    return pos


@case((200,), (200,), cls=(10, 9), seed=400)
def monte_carlo_pi(n):
    inside = 0
    for _ in range(n):
        p = np.random.uniform(-1, 1, size=2)
        if np.sum(p * p) <= 1:
            inside += 1
    return 4 * inside / n


@case((X,), (X,), cls=10, seed=500)
def shuffled(x):
    return np.random.permutation(x)


@case((rng(3), 5), (rng(4), 1), cls=10)
def integers_from_generator(gen, n):
    return gen.integers(0, 10, size=n)


@case((rng(5),), (rng(6),), cls=(10, 1, 5))
def rejection_sample(gen):
    tries = 0
    while True:
        s = gen.normal()
        tries += 1
        if s > 1.0:
            return s, tries


@case((X, 7), (X, 8), cls=10)
def seeded_init(x, seed):
    g = np.random.default_rng(seed)
    w = g.normal(scale=0.1, size=(x.shape[0], 2))
    return x @ w


@case((X,), (X,), cls=10, seed=600)
def randint_indices(x):
    idx = np.random.randint(0, x.shape[0], size=3)
    return x[idx]


@case((X, rng(7)), (X, rng(8)), cls=10)
def generator_choice(x, gen):
    return gen.choice(x, size=2, replace=False)


@case((X, np.float64(0.5)), (X, np.float64(2.0)), cls=10, seed=700)
def uniform_tensor_bounds(x, high):
    return np.random.uniform(low=0.0, high=high, size=x.shape) * x


@case((X,), (X,), cls=(10, 1), seed=800)
def sample_until_large(x):
    total = 0.0
    n = 0
    while total < 3.0:
        total += np.random.exponential(1.0)
        n += 1
    return total, n


@case((X, rng(9)), (X, rng(10)), cls=(10, 3))
@limit("in-place shuffle (rng.permutation is staged)")
def shuffle_copy_in_place(x, gen):
    y = x.copy()
    gen.shuffle(y)
    return y


@case((X,), (X,), cls=10, seed=900)
def float32_noise(x):
    noise = np.random.standard_normal(x.shape).astype(np.float32)
    return x.astype(np.float32) + noise


class NoisyLayer:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    @case((X,), (X,), (X,), cls=(10, 3), bind=lambda: NoisyLayer(11))
    def forward(self, x):
        return x + self.rng.normal(scale=0.5, size=x.shape)

    @case((X, 0.5), (X, 0.5), (X, 0.2), cls=(10, 3), bind=lambda: NoisyLayer(12))
    def dropout(self, x, rate):
        keep = self.rng.random(x.shape) >= rate
        return np.where(keep, x / (1 - rate), 0.0)


class Sampler:
    def __init__(self):
        self.rng = np.random.default_rng(13)
        self.draws = 0

    @case((np.float64(1.0),), (np.float64(1.0),), cls=(10, 1, 3), bind=lambda: Sampler())
    def until_above(self, level):
        value = self.rng.normal()
        self.draws += 1
        while value < level:
            value = self.rng.normal()
            self.draws += 1
        return value


@case((X, 5), (X, 5), cls=(10, 7), seed=1000)
def bootstrap_means(x, n):
    means = []
    for _ in range(n):
        idx = np.random.randint(0, len(x), size=len(x))
        means.append(np.mean(x[idx]))
    return np.array(means)


@case((X,), (X,), cls=(10, 4), seed=1100)
def random_branch(x):
    if np.random.rand() < 0.5:
        return x * 2
    return x - 1


@case((X, rng(20)), (X, rng(21)), cls=(10,))
def generator_dtypes(x, gen):
    a = gen.random(3, dtype=np.float32)
    b = gen.integers(0, 5, size=2, dtype=np.int8)
    return a, b, gen.standard_normal()
