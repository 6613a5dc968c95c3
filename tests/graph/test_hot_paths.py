"""The shortcuts that tracing and the passes take on their hot paths give what the general
code gives: broadcasting of equal shapes, cached gufunc result shapes, the walks of call
templates, and the trace-effect checks that reuse a parsed file."""

import collections
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import autoconv
from autoconv.graph import graph as _g
from autoconv.graph import shapes
from autoconv.graph.errors import StagingError, TraceEffectWarning
from autoconv.graph.tensor import Tensor
from autoconv.pyct import sources
from autoconv.trace.tensors import numpy_dispatch


def _reference_broadcast(*shape_list):
    """NumPy's rule for static shapes, written out (None: known only at run time)."""
    ndim = max((len(s) for s in shape_list), default=0)
    out = []
    for k in range(ndim, 0, -1):
        dims = [s[len(s) - k] for s in shape_list if len(s) >= k]
        known = {d for d in dims if d is not None and d != 1}
        assert len(known) <= 1
        out.append(known.pop() if known else (None if None in dims else 1))
    return tuple(out)


dims = st.one_of(st.none(), st.integers(0, 4))
a_shape = st.lists(dims, max_size=3).map(tuple)


@given(a_shape, st.integers(1, 3), st.integers(0, 2), st.randoms())
def test_broadcast_of_equal_and_scalar_shapes_is_the_general_rule(shape, copies, scalars, rnd):
    shape_list = [shape] * copies + [()] * scalars
    rnd.shuffle(shape_list)
    assert shapes.broadcast(*shape_list) == _reference_broadcast(*shape_list)


@given(st.lists(a_shape, min_size=1, max_size=3))
def test_broadcast_of_any_compatible_shapes_is_the_general_rule(shape_list):
    try:
        expected = _reference_broadcast(*shape_list)
    except AssertionError:
        with pytest.raises(StagingError, match="could not be broadcast"):
            shapes.broadcast(*shape_list)
        return
    got = shapes.broadcast(*shape_list)
    assert got == expected
    assert all(type(d) is int or d is None for d in got)


def test_broadcast_gives_python_ints_for_numpy_integer_dimensions():
    got = shapes.broadcast((np.int64(3), 1), (np.int64(3), np.int64(1)))
    assert got == (3, 1)
    assert type(got[1]) is int  # a dimension 1 is NumPy's rule, not the operand's integer


def test_matmul_shapes_are_cached_and_a_mismatch_still_raises():
    shapes_in = [(8, 10), (10, 4)]
    first = numpy_dispatch._gufunc_shape(np.matmul, shapes_in)
    again = numpy_dispatch._gufunc_shape(np.matmul, shapes_in)
    assert first == again == [(8, 4)]
    again.append("changed by a caller")
    assert numpy_dispatch._gufunc_shape(np.matmul, shapes_in) == [(8, 4)]
    with pytest.raises(StagingError, match="core dimension"):
        numpy_dispatch._gufunc_shape(np.matmul, [(8, 10), (9, 4)])
    with pytest.raises(StagingError, match="core dimension"):
        numpy_dispatch._gufunc_shape(np.matmul, [(8, 10), (9, 4)])  # not cached as a success
    assert numpy_dispatch._gufunc_shape(np.matmul, [(None, 10), (10,)]) == [(None,)]


def test_numpy_integer_shapes_are_not_cached():
    before = len(numpy_dispatch._GUFUNC_SHAPES)
    got = numpy_dispatch._gufunc_shape(np.matmul, [(np.int64(7), 2), (2, np.int64(5))])
    assert got == [(7, 5)]
    assert len(numpy_dispatch._GUFUNC_SHAPES) == before


Pair = collections.namedtuple("Pair", "a b")


class Items(list):
    pass


class Row(tuple):
    pass


def _tensors():
    graph = _g.Graph("t")
    made = []
    for _ in range(3):
        node = _g.Node("placeholder", "placeholder", attrs={"name": "x", "scalar": False})
        t = Tensor(graph, node, 0, (2,), np.float64)
        node.outputs.append(t)
        made.append(t)
    return made


def test_tensors_in_finds_tensors_in_every_container_in_order():
    a, b, c = _tensors()
    template = (
        [a, 1, 2.0, np.float32(3), None, "s", np.ones(2)],
        {"k": (b, Ellipsis, np.dtype("f8"))},
        slice(None, c, 1),
        Pair(c, a),
        Items([b]),
        Row((a,)),
    )
    assert _g.tensors_in(template) == [a, b, c, c, a, b, a]


def test_map_tensors_rebuilds_containers_and_keeps_everything_else():
    a, b, c = _tensors()
    array = np.ones(2)
    items, row = Items([b]), Row((a,))
    template = ([a, 1, array], {"k": (b, None)}, slice(c, None), Pair(c, 2), items, row)
    names = {a: "A", b: "B", c: "C"}
    got = _g.map_tensors(template, names.get)
    assert got == (["A", 1, array], {"k": ("B", None)}, slice("C", None), Pair("C", 2), items, row)
    assert got[0][2] is array
    assert type(got[3]) is Pair
    # Only tuples, lists (exactly those types), dicts, slices and namedtuples are rebuilt: a
    # list or tuple subclass is kept as it is, Tensors and all, as before.
    assert got[4] is items and got[5] is row
    assert got[0] is not template[0]


SOURCE = """
TABLE = {}

def stores(x):
    TABLE["last"] = 1
    return x * 2
"""


def test_parsed_definition_never_reads_a_new_file(user_module):
    mod = user_module(SOURCE)
    assert sources.parsed_definition(mod.stores) is None
    node = sources.function_node(mod.stores)
    assert sources.parsed_definition(mod.stores) is node
    assert sources.parsed_definition(len) is None


@pytest.mark.parametrize("parsed_first", [False, True], ids=["inspect", "parsed file"])
def test_a_global_item_store_warns_at_its_line_either_way(user_module, parsed_first):
    helper = user_module(SOURCE)
    caller = user_module("def traced(x, helper):\n    return helper(x) + 1\n")
    if parsed_first:
        sources.function_node(helper.stores)
    else:  # the helper's file is read only when the trace first calls it (checks come first)
        assert sources.parsed_definition(helper.stores) is None
    f = autoconv.function(caller.traced)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        f(np.ones(2), helper.stores)
    found = [w for w in caught if issubclass(w.category, TraceEffectWarning)]
    assert len(found) == 1
    assert "`TABLE[...] = ...` changes the dict `TABLE`" in str(found[0].message)
    assert (found[0].filename, found[0].lineno) == (helper.__file__, 5)
