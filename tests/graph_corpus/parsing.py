"""Parsers of integer arrays: run-length coding, tokens, state machines, digit strings."""

import numpy as np

from tests.graph_corpus import case, limit

RUNS = np.array([1, 1, 2, 2, 2, 3, 1, 1])
TOKENS = np.array([4, 5, 0, 0, 7, 0, 8, 9, 1])
ONE = np.array([6])


@case((RUNS,), (ONE,), cls=(7, 5))
def run_length_encode(x):
    values = []
    counts = []
    i = 0
    n = len(x)
    while i < n:
        j = i
        while j < n and x[j] == x[i]:
            j += 1
        values.append(x[i])
        counts.append(j - i)
        i = j
    return np.array(values), np.array(counts)


@case((np.array([3, 1]), np.array([2, 3])), (np.array([5]), np.array([0])), cls=(7, 5))
@limit("appending a list built in a staged loop to another list")
def run_length_decode(values, counts):
    out = []
    for v, c in zip(values, counts):
        for _ in range(c):
            out.append(v)
    return np.array(out, dtype=values.dtype)


@case((RUNS,), (ONE,), cls=(7,))
def run_lengths_vectorized(x):
    change = np.flatnonzero(np.diff(x) != 0) + 1
    starts = np.concatenate([[0], change])
    ends = np.concatenate([change, [len(x)]])
    return x[starts], ends - starts


@case((TOKENS,), (np.array([0, 0]),), (ONE,), cls=(7,))
@limit("a list rebound in one branch and appended in the other, in a staged loop")
def split_on_zeros(x):
    tokens = []
    current = []
    for v in x:
        if v == 0:
            if current:
                tokens.append(current)
                current = []
        else:
            current.append(v)
    if current:
        tokens.append(current)
    return tokens


@case((TOKENS,), (np.array([0, 0]),), (ONE,), cls=(4,))
def count_tokens(x):
    count = 0
    inside = False
    for v in x:
        if v != 0 and not inside:
            count += 1
            inside = True
        elif v == 0:
            inside = False
    return count


@case((np.array([1.0, 2.0, -1.0, 3.0, -2.0, -3.0]),), (np.array([-1.0]),), cls=(4,))
def sign_changes_state_machine(x):
    state = 0
    changes = 0
    for v in x:
        if state == 0 and v > 0:
            state = 1
            changes += 1
        elif state == 1 and v <= 0:
            state = 0
            changes += 1
    return changes


@case((np.array([1, 2, 3]),), (np.array([0]),), (np.array([9, 0, 7, 0]),), cls=(9,))
def digits_to_number(digits):
    number = 0
    for d in digits:
        number = number * 10 + d
    return number


@case((np.array([1, 1, -1, -1]),), (np.array([1, -1, -1, 1]),), (np.array([1, 1]),), cls=(5, 4))
def balanced_brackets(x):
    depth = 0
    for v in x:
        if v == 1:
            depth += 1
        elif v == -1:
            depth -= 1
        if depth < 0:
            return False
    return depth == 0


@case((np.array([0.0, 2.0, 3.0, 0.0, 5.0, 0.0]), 1.0), (np.zeros(3), 1.0), cls=(7,))
@limit("appends of different counts in nested staged ifs")
def segments_above(x, threshold):
    starts, ends = [], []
    inside = False
    for i in range(len(x)):
        if x[i] > threshold and not inside:
            starts.append(i)
            inside = True
        elif x[i] <= threshold and inside:
            ends.append(i)
            inside = False
    if inside:
        ends.append(len(x))
    return list(zip(starts, ends))


@case((np.array([3, 5, 6, 10]),), (ONE,), cls=(7, 9))
def delta_encode(x):
    prev = 0
    out = []
    for v in x:
        out.append(v - prev)
        prev = v
    return np.array(out)


@case((np.array([0x81, 0x01, 0x05, 0xFF, 0x7F]),), (np.array([0x00]),), cls=(1, 5, 7))
@limit("a static index out of bounds on a traced path the data does not take")
def decode_varints(data):
    values = []
    i = 0
    while i < len(data):
        value = 0
        shift = 0
        while True:
            byte = data[i]
            i += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        values.append(value)
    return values


@case((np.array([3, 7, 8, 9, 1, 2]),), (np.array([0, 4]),), cls=(8,))
def length_prefixed(x):
    n = x[0]
    payload = x[1 : 1 + n]
    rest = x[1 + n :]
    return payload, rest


@case((np.array([1, 2, 3, 1, 2, 3, 4, 5]),), (np.array([5, 4]),), cls=(4, 5))
def longest_increasing_run(x):
    best = 1
    run = 1
    for i in range(1, len(x)):
        if x[i] > x[i - 1]:
            run += 1
        else:
            run = 1
        best = max(best, run)
    return best


@case((np.array([2, 0, 1, 1, 2]),), (np.array([0, 0]),), cls=(3, 5, 8), expect="error")
def histogram_dict(labels):
    counts = {}
    for v in labels:
        key = int(v)
        counts[key] = counts.get(key, 0) + 1
    return counts


@case((np.array([1, 2, 0, 3, 4]),), (np.array([0, 1]),), cls=(5, 7))
def take_until_zero(x):
    out = []
    for v in x:
        if v == 0:
            break
        out.append(v * 2)
    return out
