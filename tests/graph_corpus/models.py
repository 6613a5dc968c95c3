"""Methods of small model objects: attributes (self.w, self.b) read and updated, step
counters, best-so-far tracking, and dicts of parameters updated in place."""

import numpy as np

from tests.graph_corpus import case, limit

X = np.array([[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]])
Y = np.array([1.0, 2.0, 0.0])


class Linear:
    def __init__(self, w, b):
        self.w = w
        self.b = b
        self.steps = 0

    @case((X,), (X[:1],), cls=(3,), bind=lambda: Linear(np.array([0.5, -0.25]), 0.1))
    def predict(self, x):
        return x @ self.w + self.b

    @case(
        (X, Y, 0.01),
        (X, Y, 0.01),
        (X, Y, 0.01),
        cls=(3,),
        bind=lambda: Linear(np.array([0.5, -0.25]), np.float64(0.1)),
    )
    def sgd_step(self, x, y, lr):
        pred = x @ self.w + self.b
        err = pred - y
        self.w = self.w - lr * (x.T @ err) / len(y)
        self.b = self.b - lr * np.mean(err)
        self.steps += 1
        return np.mean(err**2)

    @case((X,), (X,), (X,), cls=(3,), bind=lambda: Linear(np.array([0.5, -0.25]), 0.1))
    def count_calls(self, x):
        self.steps = self.steps + 1
        return x @ self.w * self.steps


class Tracker:
    def __init__(self):
        self.best = np.inf
        self.best_index = -1
        self.calls = 0

    @case(
        (np.float64(0.5),),
        (np.float64(0.7),),
        (np.float64(0.2),),
        cls=(3, 4),
        bind=lambda: Tracker(),
    )
    def update(self, loss):
        self.calls += 1
        if loss < self.best:
            self.best = loss
            self.best_index = self.calls
            return True
        return False


class RunningStats:
    def __init__(self, momentum):
        self.momentum = momentum
        self.mean = np.zeros(2)
        self.var = np.ones(2)

    @case((X, True), (X * 2, True), (X, False), cls=(3,), bind=lambda: RunningStats(0.9))
    def normalize(self, x, training):
        if training:
            mean = np.mean(x, axis=0)
            var = np.var(x, axis=0)
            self.mean = self.momentum * self.mean + (1 - self.momentum) * mean
            self.var = self.momentum * self.var + (1 - self.momentum) * var
        else:
            mean, var = self.mean, self.var
        return (x - mean) / np.sqrt(var + 1e-5)


class Alarm:
    def __init__(self, threshold):
        self.threshold = threshold
        self.triggered = False
        self.last = None

    @case(
        (np.array([0.1, 0.2]),),
        (np.array([5.0, 6.0]),),
        (np.array([0.0, 0.1]),),
        cls=(2, 3),
        bind=lambda: Alarm(1.0),
    )
    @limit("an attribute holding None (or a non-numeric value) that the function changes")
    def observe(self, x):
        if np.mean(x) > self.threshold:
            self.triggered = True
            self.last = x
        return self.triggered


class Adam:
    def __init__(self, lr=0.1):
        self.lr = lr
        self.t = 0
        self.m = np.zeros(2)
        self.v = np.zeros(2)

    @case(
        (np.array([1.0, 2.0]), np.array([0.5, -0.5])),
        (np.array([1.0, 2.0]), np.array([0.1, 0.1])),
        cls=(3,),
        bind=lambda: Adam(),
    )
    def step(self, params, grad):
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad**2
        m_hat = self.m / (1 - 0.9**self.t)
        v_hat = self.v / (1 - 0.999**self.t)
        return params - self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


class EMA:
    def __init__(self, decay):
        self.decay = decay
        self.value = None

    @case(
        (np.float64(1.0),),
        (np.float64(3.0),),
        (np.float64(2.0),),
        cls=(2, 3),
        bind=lambda: EMA(0.5),
    )
    @limit("an attribute holding None (or a non-numeric value) that the function changes")
    def update(self, x):
        if self.value is None:
            self.value = x
        else:
            self.value = self.decay * self.value + (1 - self.decay) * x
        return self.value


class Clipper:
    def __init__(self, limit):
        self.limit = limit
        self.clipped = 0

    @case(
        (np.array([0.1, 0.2]),),
        (np.array([3.0, 4.0]),),
        (np.array([0.0, 0.5]),),
        cls=(3, 4),
        bind=lambda: Clipper(1.0),
    )
    def clip(self, g):
        norm = np.sqrt(np.sum(g**2))
        if norm > self.limit:
            g = g * (self.limit / norm)
            self.clipped += 1
        return g


@case(
    ({"w": np.array([1.0, 2.0]), "b": np.float64(0.5)}, {"w": np.array([0.1, 0.1]), "b": 1.0}),
    ({"w": np.array([0.0, 0.0]), "b": np.float64(0.0)}, {"w": np.array([1.0, 1.0]), "b": 0.0}),
    cls=(3,),
)
def sgd_dict(params, grads):
    for k in params:
        params[k] = params[k] - 0.1 * grads[k]
    return params


@case(
    ({"w": np.array([1.0, 2.0])}, np.array([3.0, -4.0]), 1.0),
    ({"w": np.array([1.0, 2.0])}, np.array([0.3, 0.4]), 1.0),
    cls=(3,),
)
def clip_and_apply(params, grad, max_norm):
    norm = np.sqrt(np.sum(grad**2))
    if norm > max_norm:
        params["w"] = params["w"] - grad * (max_norm / norm)
    else:
        params["w"] = params["w"] - grad
    return norm


class MLP:
    def __init__(self):
        self.w1 = np.array([[0.5, -0.5], [0.25, 0.75]])
        self.w2 = np.array([1.0, -1.0])
        self.activation = "relu"

    @case((X,), (X[::-1],), cls=(3,), bind=lambda: MLP())
    def forward(self, x):
        h = x @ self.w1
        if self.activation == "relu":
            h = np.maximum(h, 0)
        else:
            h = np.tanh(h)
        return h @ self.w2


class Checkpoint:
    def __init__(self):
        self.best_loss = np.inf
        self.best_params = None

    @case(
        (np.float64(0.9), np.array([1.0, 2.0])),
        (np.float64(0.4), np.array([3.0, 4.0])),
        (np.float64(0.6), np.array([5.0, 6.0])),
        cls=(2, 3),
        bind=lambda: Checkpoint(),
    )
    @limit("an attribute holding None (or a non-numeric value) that the function changes")
    def maybe_save(self, loss, params):
        if loss < self.best_loss:
            self.best_loss = loss
            self.best_params = params.copy()
        return self.best_params
