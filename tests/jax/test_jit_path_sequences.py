"""A Python list or tuple indexed by a value JAX knows only when the program runs (a traced
loop counter, `j = p[j]`), on the third path, `jax.jit(autoconv.convert(f))` (issue 24, fresh
batch 5's `permutation_cycles`). Python needs the index while tracing; before, JAX's
`TracerIntegerConversionError` escaped from the runtime's item read, blaming `__index__`. Now it
is an `AutoconvError` naming the list, the user's line and what to write instead; the same
program with the list made an array runs as eagerly. Each program runs eagerly with NumPy and
under `jax.jit` (`tests/jax/corpus.outcome`)."""

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import autoconv  # noqa: E402
from tests.jax import corpus  # noqa: E402

PERM = (np.array([2, 0, 1, 3]),)


def refused(func, args, name):
    kind, detail = corpus.outcome(func, args, __file__)
    assert kind == "autoconv-error", (kind, detail)
    with pytest.raises(autoconv.AutoconvError) as caught:
        corpus.traced_call(corpus.jax_version(func), args)
    message = str(caught.value)
    assert f"an item of `{name}` (a Python" in message, message
    assert f"`{name} = jnp.asarray({name})`" in message, message


def test_a_list_read_in_a_while_condition_at_a_traced_index_names_the_list():
    def cycles(p):
        seen = [False] * len(p)
        count = 0
        for i in range(len(p)):
            if not seen[i]:
                count += 1
                j = i
                while not seen[j]:
                    seen[j] = True
                    j = p[j]
        return count

    refused(cycles, PERM, "seen")


def test_a_tuple_read_in_a_loop_body_at_a_traced_index_names_the_tuple():
    def lookup(p):
        weights = (0.5, 1.5, 2.5, 3.5)
        total = 0.0
        for k in p:
            total += weights[k]
        return total

    refused(lookup, PERM, "weights")


def test_a_list_written_at_a_traced_index_names_the_list():
    def mark(p):
        hits = [0, 0, 0, 0]
        hits[p[0]] = 1
        return p.sum()

    refused(mark, PERM, "hits")


def test_an_item_op_on_a_list_at_a_traced_index_names_the_list():
    def bump(p):
        counts = [0] * 4
        for v in p:
            counts[v] += 1
        return p[0]

    refused(bump, PERM, "counts")


def test_a_list_of_arrays_read_in_a_branch_at_a_traced_index_names_the_list():
    def pick(p):
        rows = [np.zeros(2), np.ones(2), np.full(2, 2.0)]
        if p[0] > 0:
            out = rows[p[1]]
        else:
            out = rows[0]
        return out

    refused(pick, PERM, "rows")


def test_the_same_programs_with_an_array_run_as_eagerly():
    def cycles(p):
        seen = np.zeros(len(p), dtype=bool)
        count = 0
        for i in range(len(p)):
            if not seen[i]:
                count += 1
                j = i
                while not seen[j]:
                    seen[j] = True
                    j = p[j]
        return count

    def lookup(p):
        weights = np.array([0.5, 1.5, 2.5, 3.5])
        total = 0.0
        for k in p:
            total += weights[k]
        return total

    for func in (cycles, lookup):
        for args in (PERM, (np.array([0, 1, 2, 3]),), (np.array([3, 2, 1, 0]),)):
            assert corpus.outcome(func, args, __file__) == ("same", ""), (func, args)


def test_a_list_at_a_python_index_is_still_read_as_python():
    def f(p):
        names = [1.0, 2.0, 3.0]
        total = 0.0
        for i in range(3):
            if p[i] > 1:
                total += names[i]
        return total

    assert corpus.outcome(f, PERM, __file__) == ("same", "")
