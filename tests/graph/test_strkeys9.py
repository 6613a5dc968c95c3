"""Strings made when the graph runs as dict keys and set members (issue 24, batch 8's C1):
`freq[chr(int(c))] += 1`, `set(words)` of joined strings, `max(freq, key=freq.get)`. The NumPy
backend stages them as any run-time key; the JAX backend, which keys no strings, raises its
documented LoweringError naming the dict or set. Each program runs eagerly and as one graph
function on every input."""

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule, message

P = []

# Programs whose keys are strings written in the code, chosen by staged conditions: the JAX
# backend runs them too.
CODED = {"grade_names"}


def prog(*inputs):
    def add(f):
        P.append((f, inputs))
        return f

    return add


T1 = np.array([104, 105, 32, 116, 104, 101, 114, 101, 32, 104, 105])
T2 = np.array([97, 32, 98, 32, 97, 32, 97])
E = np.array([], dtype=np.int64)


@prog((T1,), (T2,), (E,))
def char_counts(codes):
    freq = {}
    for c in codes:
        ch = chr(int(c))
        freq[ch] = freq.get(ch, 0) + 1
    return freq


@prog((T1,), (T2,), (E,))
def word_set(codes):
    words = []
    cur = []
    for c in codes:
        if c == 32:
            if cur:
                words.append("".join(chr(x) for x in cur))
            cur = []
        else:
            cur.append(int(c))
    if cur:
        words.append("".join(chr(x) for x in cur))
    uniq = sorted(set(words))
    return ", ".join(uniq)


@prog((T1,), (T2,), (E,))
def word_counts(codes):
    counts = {}
    w = ""
    for c in codes:
        if c == 32:
            if w:
                counts[w] = counts.get(w, 0) + 1
            w = ""
        else:
            w += chr(int(c))
    if w:
        counts[w] = counts.get(w, 0) + 1
    return counts


@prog((T1,), (T2,), (E,))
def most_common_char(codes):
    freq = {}
    for c in codes:
        if c != 32:
            ch = chr(int(c))
            if ch in freq:
                freq[ch] += 1
            else:
                freq[ch] = 1
    if not freq:
        return None
    return max(freq, key=freq.get)


@prog((T1,), (T2,), (E,))
def seen_chars(codes):
    seen = set()
    order = []
    for c in codes:
        ch = chr(int(c))
        if ch not in seen:
            seen.add(ch)
            order.append(ch)
    return "".join(order), len(seen)


@prog((T1,), (T2,))
def label_totals(codes):
    totals = {}
    for i, c in enumerate(codes):
        label = "even" if c % 2 == 0 else f"odd{int(c) % 3}"
        totals[label] = totals.get(label, 0.0) + float(i)
    return sorted(totals.items())


@prog((T1,), (T2,), (E,))
def first_repeat(codes):
    seen = set()
    for c in codes:
        ch = chr(int(c))
        if ch in seen:
            return ch
        seen.add(ch)
    return ""


@prog((T1,), (T2,))
def items_report(codes):
    freq = {}
    for c in codes:
        ch = chr(int(c))
        freq[ch] = freq.get(ch, 0) + 1
    lines = []
    for k, v in freq.items():
        lines.append(f"{k}={v}")
    return ";".join(lines)


@prog((T1,), (T2,))
def grade_names(codes):
    grades = {}
    for c in codes:
        g = "A" if c > 110 else ("B" if c > 100 else "C")
        grades[g] = grades.get(g, 0) + 1
    return grades


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("f,inputs", P, ids=[f.__name__ for f, _ in P])
def test_program(f, inputs, backend):
    if backend == "jax" and f.__name__ not in CODED and len(inputs[0][0]):
        text = message(f, *inputs[0], backend=backend)
        assert "holds strings, which this backend does not key" in text
        assert "test_strkeys9.py:" in text
        return
    for args in inputs:
        follows_the_rule(f, *args, backend=backend)


def test_the_message_names_the_dict():
    pytest.importorskip("jax")
    f, inputs = P[0]
    text = message(f, *inputs[0], backend="jax")
    assert "dict `freq` holds strings" in text
