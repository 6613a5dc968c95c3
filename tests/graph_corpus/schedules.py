"""Learning-rate schedules, warmup, early stopping and plateaus: if/elif chains on the step."""

import numpy as np

from tests.graph_corpus import case

i64 = np.int64
LOSSES = np.array([1.0, 0.8, 0.7, 0.71, 0.72, 0.73, 0.5])
FALLING = np.array([1.0, 0.9, 0.8, 0.7])


@case((i64(50),), (i64(500),), (i64(5000),), cls=(4,))
def warmup_then_decay(step):
    base = 0.1
    warmup = 100
    if step < warmup:
        lr = base * step / warmup
    elif step < 1000:
        lr = base
    else:
        lr = base * 0.1
    return lr


@case((i64(0),), (i64(25),), (i64(99),), cls=(9,))
def step_decay(step):
    return 0.1 * 0.5 ** (step // 10)


@case((i64(0),), (i64(50),), (i64(100),), (i64(150),), cls=(4,))
def cosine_with_warmup(step):
    warmup, total = 10, 100
    if step < warmup:
        return 1e-3 * (step + 1) / warmup
    progress = (step - warmup) / (total - warmup)
    if progress > 1.0:
        progress = 1.0
    return 1e-3 * 0.5 * (1 + np.cos(np.pi * progress))


@case((LOSSES, 2), (FALLING, 2), (LOSSES, 10), cls=(4, 5))
def early_stopping(losses, patience):
    best = np.inf
    wait = 0
    for i, loss in enumerate(losses):
        if loss < best - 1e-4:
            best = loss
            wait = 0
        else:
            wait += 1
            if wait >= patience:
                return i, best
    return len(losses) - 1, best


@case((LOSSES,), (FALLING,), cls=(4,))
def reduce_on_plateau(losses):
    lr = 0.1
    best = losses[0]
    bad = 0
    for loss in losses[1:]:
        if loss < best:
            best = loss
            bad = 0
        else:
            bad += 1
        if bad >= 2:
            lr = lr * 0.5
            bad = 0
    return lr


@case((3,), (150,), (20000,), cls=(4,))
def warmup_python_step(step):
    if step < 100:
        return 0.01 * step / 100
    elif step < 10000:
        return 0.01
    return 0.001


@case((i64(0),), (i64(5),), (i64(13),), cls=(4, 8), expect="error")
def triangular_cyclic(step):
    cycle = np.floor(1 + step / 20)
    x = np.abs(step / 10 - 2 * cycle + 1)
    return 0.001 + (0.01 - 0.001) * max(0.0, 1 - x)


@case((i64(10),), (i64(1000),), cls=(8,), expect="error")
def exponential_with_floor(step):
    lr = 0.1 * 0.99**step
    return max(lr, 1e-3)


@case((i64(5),), (i64(15),), (i64(40),), cls=(4, 5))
def piecewise_constant(step):
    boundaries = [10, 20, 30]
    values = [1.0, 0.5, 0.1, 0.01]
    for b, v in zip(boundaries, values):
        if step < b:
            return v
    return values[-1]


@case((i64(0),), (i64(3),), (i64(12),), cls=(4,))
def momentum_schedule(epoch):
    if epoch < 5:
        momentum = 0.5 + 0.08 * epoch
    else:
        momentum = 0.9
    return momentum


@case((LOSSES, np.float64(0.6)), (FALLING, np.float64(0.1)), cls=(2, 5))
def epoch_reaching(losses, target):
    reached = None
    for epoch, loss in enumerate(losses):
        if loss <= target:
            reached = epoch
            break
    return reached


@case((LOSSES,), (FALLING,), cls=(4, 7))
def lr_trace(losses):
    lr = 1.0
    history = []
    for loss in losses:
        if loss > 0.75:
            lr = lr * 0.9
        elif loss > 0.6:
            lr = lr * 0.95
        else:
            lr = lr * 1.0
        history.append(lr)
    return np.array(history)


@case((i64(3), 10), (i64(12), 10), cls=(4,))
def linear_warmup_int_scale(step, warmup_steps):
    if step < warmup_steps:
        scale = (step + 1) / warmup_steps
    else:
        scale = 1
    return 0.05 * scale


@case((np.array([0.5, 0.4, 0.41, 0.42, 0.43, 0.2]),), (FALLING,), cls=(1, 4, 5))
def best_epoch_with_patience(val):
    best_epoch = 0
    epoch = 1
    while epoch < len(val) and epoch - best_epoch <= 2:
        if val[epoch] < val[best_epoch]:
            best_epoch = epoch
        epoch += 1
    return best_epoch, epoch
