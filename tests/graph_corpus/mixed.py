"""Mixed kinds: int against float in branches, dtype mixes, Python against Tensor loop bounds,
while True with break, range with break/return, zip and enumerate."""

import numpy as np

from tests.graph_corpus import case, limit

X = np.array([1.0, -2.0, 3.0])
INTS = np.array([4, -1, 7], dtype=np.int32)


@case((X,), (-X * 3,), cls=(4,))
def int_or_float_scale(x):
    if np.sum(x) > 0:
        scale = 1
    else:
        scale = 0.5
    return x * scale


@case((X,), (-X,), cls=(4,))
def int_or_float_returned(x):
    if np.max(x) > 2:
        return 1
    return 0.5


@case((X,), (-X,), cls=(4,))
@limit("an array whose dtype differs between the branches")
def dtype_per_branch(x):
    if np.sum(x) > 0:
        y = x.astype(np.float32)
    else:
        y = x
    return y * 2


@case((INTS,), (np.array([1, 2], dtype=np.int32),), cls=(4, 8))
@limit("an array whose dtype differs between the branches")
def int32_mean_or_sum(x):
    if np.min(x) < 0:
        r = np.mean(x)
    else:
        r = np.sum(x)
    return r


@case((X, 3), (X, 0), (X, np.int64(2)), cls=(5,))
def python_or_tensor_bound(x, n):
    total = x
    for i in range(n):
        total = total + i
    return total


@case((X,), (np.array([0.1, 0.2]),), cls=(5, 1))
def while_true_break(x):
    steps = 0
    while True:
        x = x * 2
        steps += 1
        if np.max(x) > 10:
            break
    return x, steps


@case((X, 10), (np.array([0.1]), 3), cls=(5,))
def range_break_on_array(x, n):
    for _ in range(n):
        if np.max(x) > 20:
            break
        x = x * 3
    return x


@case((X, 10), (np.array([0.001]), 3), cls=(5, 4))
def range_return_on_array(x, n):
    for i in range(n):
        if np.max(x) > 20:
            return x, i
        x = x * 3
    return x, n


@case((X, 3), (X, 2), cls=(5,))
def zip_range_array(x, n):
    total = 0.0
    for i, v in zip(range(n), x):
        total += i * v
    return total


@case((X,), (np.array([5.0]),), cls=(5, 9))
def enumerate_weighted(x):
    total = 0.0
    for i, v in enumerate(x):
        total = total + (i + 1) * v
    return total


@case((np.int64(2), X), (np.int64(0), X), (np.int64(3), X), cls=(5,))
def range_tensor_start(start, x):
    total = 0.0
    for i in range(start, 3):
        total = total + x[i]
    return total


@case((X,), (np.array([-5.0, -1.0, -2.0]),), cls=(4,))
def successive_ifs_same_value(x):
    mode = "fast"
    if np.sum(x) > 0:
        mode = "fast"
        y = x
    else:
        mode = "fast"
        y = -x
    if np.max(y) > 4:
        z = y * 2
    else:
        z = y
    return mode, y, z


@case((X,), (-X,), (np.array([1.0, 2.0]),), cls=(4,))
def successive_ifs_constants(x):
    a = 1.0
    b = 2.0
    if np.sum(x) > 0:
        a = 1.0
    else:
        b = 2.0
    if np.min(x) < -1:
        a = 1.0
        b = 3.0
    return a, b


@case((X,), (-X,), cls=(4, 8), expect="error")
def bool_result(x):
    return bool(np.all(x > -3))


@case((INTS,), (np.array([2, 2], dtype=np.int32),), cls=(4,))
def int_counter_and_array(x):
    count = 0
    total = np.zeros((), dtype=x.dtype)
    for v in x:
        if v > 0:
            count += 1
            total = total + v
    return count, total


@case((np.float32(2.5),), (np.float32(-1.0),), cls=(4,))
def float32_scalar_branch(s):
    if s > 0:
        out = s * 2
    else:
        out = s - 1.5
    return out


@case((X, np.int64(5)), (X, np.int64(0)), cls=(5, 1))
def while_tensor_counter(x, n):
    i = 0
    while i < n:
        x = x + 1
        i += 1
    return x, i


@case((X,), (-X,), cls=(4,))
def ternary_mix(x):
    scale = 2 if np.mean(x) > 0 else 0.25
    return scale


@case((X, np.array([1, 0, 1], dtype=np.int8)), (-X, np.array([0, 0, 1], dtype=np.int8)), cls=(4,))
def masked_sum_int8(x, mask):
    total = 0
    for i in range(len(x)):
        if mask[i]:
            total = total + x[i]
    return total


@case((np.uint8(250),), (np.uint8(3),), cls=(4, 1))
def uint8_wraparound(v):
    steps = 0
    while v != 0:
        v = v + np.uint8(1)
        steps += 1
        if steps > 300:
            break
    return v, steps
