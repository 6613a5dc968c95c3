"""`heapq` and `bisect` on lists whose items a staged loop pushes (issue 24, heap9): Dijkstra,
Prim and A* by a heap, k smallest of a stream, merging sorted rows, an event queue, scheduling
by deadline, a running median with two heaps, Huffman costs, `insort` and `bisect_left`. Each
program (tests/graph/heap9_programs.py) runs eagerly and as a graph on every backend and must
give eager's popped items, the heap's own layout where it is read (`pq[0]`, iterated,
returned), ties in eager's order and Python types; a pop of an empty heap raises eager's
IndexError. What cannot run is a clear error."""

import bisect
import heapq

import numpy as np
import pytest

import autoconv
from tests.graph.agreement import BACKENDS, follows_the_rule, message
from tests.graph.heap9_programs import PROGRAMS

# Programs that meet a JAX limit listed in docs/backends.md: a keyed sort whose list may be
# empty (not heapq's): the LoweringError names the line. (`sorted` of tuples runs since jax11.)
_JAX_LIMITS = {"nsmallest_key": "`argsort`"}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,args", PROGRAMS, ids=[fn.__name__ for fn, _ in PROGRAMS])
def test_heap_programs(fn, args, backend):
    if backend == "jax" and fn.__name__ in _JAX_LIMITS:
        assert _JAX_LIMITS[fn.__name__] in message(fn, *args, backend=backend)
        return
    follows_the_rule(fn, *args, backend=backend, text=True)


def _ops(x, ops):
    pq = []
    out = []
    for i in range(len(x)):
        o = ops[i]
        if o == 0 or not pq:
            heapq.heappush(pq, (x[i], i % 3))
        elif o == 1:
            out.append(heapq.heappop(pq)[1])
        elif o == 2:
            out.append(heapq.heappushpop(pq, (x[i], i % 3))[1])
        else:
            out.append(heapq.heapreplace(pq, (x[i], i % 3))[1])
    return pq, out


def _numbers(x, ops):
    pq = []
    out = []
    for i in range(len(x)):
        o = ops[i]
        if o == 0 or not pq:
            heapq.heappush(pq, x[i])
        elif o == 1:
            out.append(heapq.heappop(pq))
        elif o == 2:
            out.append(heapq.heappushpop(pq, x[i]))
        else:
            heapq.heapify(pq)
    return pq, out


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [_ops, _numbers])
def test_random_operations_keep_the_layout(fn, backend):
    """Pushes, pops, pushpops and replaces of ties (equal first items, NaNs): the whole heap
    and what came out, as eagerly."""
    rng = np.random.default_rng(24)
    graph = autoconv.function(fn, backend=backend)
    for t in range(6):
        x = rng.integers(0, 4, 16).astype(float)
        if t % 3 == 2:
            x[rng.integers(0, 16)] = np.nan
        ops = rng.integers(0, 4, 16)
        want, got = fn(x, ops), graph(x, ops)
        assert repr(want) == repr(got)


def _mixed_kinds(x):
    pq = [(0.5, 0)]  # a Python float, where the pushed items hold NumPy floats
    for i, v in enumerate(x):
        heapq.heappush(pq, (v, i))
    return pq


def _insort_keyed(x):
    s = []
    for v in x:
        bisect.insort(s, v, key=lambda t: -t)
    return s


def _heap_of_arrays(x):
    pq = []
    for v in x:
        if v > 0:
            heapq.heappush(pq, np.array([v, -v]))
    return len(pq)


@pytest.mark.parametrize("backend", BACKENDS)
def test_items_of_two_kinds_are_a_clear_error(backend):
    text = message(_mixed_kinds, np.array([3.0, 1.0]), backend=backend)
    assert "heap9.py" in text and "tuple(float, int)" in text and "tuple(float64, int)" in text


def test_keywords_of_insort_are_a_clear_error():
    text = message(_insort_keyed, np.array([3.0, 1.0]))
    assert "only `insort_right(lst, x)` is staged" in text


def test_a_heap_of_arrays_on_jax_is_a_clear_error():
    if "jax" not in BACKENDS:
        pytest.skip("jax is not installed")
    text = message(_heap_of_arrays, np.array([3.0, 1.0]), backend="jax")
    assert "lowered for lists of real numbers or tuples of them only" in text


def _grown_by_scan(x):
    out = []
    for v in x:
        heapq.heappush(out, v)
    return out


def _ties(d):
    pq = []
    for i in range(3):
        heapq.heappush(pq, (d[i], i))
    return heapq.heappop(pq)


def test_jax_jit_of_convert_refuses_instead_of_losing_items():
    """Under jax.jit(convert(f)), heapq's C code would fill the stand-in of a list JAX's scan
    grows without its methods (the list came back empty), and compares tracers: clear errors."""
    jax = pytest.importorskip("jax")
    from autoconv.trace.jax.state import JaxStagingError

    with pytest.raises(JaxStagingError, match="heappush|grows in this `for` loop"):
        jax.jit(autoconv.convert(_grown_by_scan))(np.array([2.0, 1.0]))
    with pytest.raises(JaxStagingError, match="`heappush\\(\\)` on a list holding values JAX"):
        jax.jit(autoconv.convert(_ties))(np.array([2.0, 1.0, 2.0]))
