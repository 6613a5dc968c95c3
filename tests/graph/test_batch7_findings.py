"""What the seventh fresh batch found (tools/fresh_batch7.py, tools/fresh_batch7_findings.md):
each wrong-result and crash class's minimal program, run eagerly and as `autoconv.function(f)`
(on NumPy, and on JAX where it is installed). Each open class is a strict xfail naming the
class, checked to fail; a fix turns it into a plain test.
"""

import numpy as np
import pytest

from tests.graph.agreement import BACKENDS, follows_the_rule, message


def xfail(why):
    return pytest.mark.xfail(strict=True, reason=why)


# W1 (wrong, fixed): `in` of a tuple holding values known only when the graph runs against a
# set or dict of constant tuples was False whatever the values (find_orfs found no stop codon; an
# LZW-style dict of tuple keys). A bare run-time int against a set of ints is right.
def tuple_in_set(x):
    stops = {(3, 0), (3, 2)}
    return (int(x[0]), int(x[1])) in stops


def tuple_in_dict(x):
    d = {(1,): 1}
    return (x[0],) in d


# (fixed on main, 34a44d6)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn", [tuple_in_set, tuple_in_dict])
def test_tuple_of_run_time_values_in_a_set(fn, backend):
    follows_the_rule(fn, np.array([3, 2]) if fn is tuple_in_set else np.array([1]), backend=backend)


# W2 (wrong, fixed): `np.array_equal` of a Python list a staged loop appended to and an array
# was False where the items are equal (game2048_move_left's "did the row change" flag);
# `np.array_equal(np.array(out), row)` is right.
def array_equal_of_a_grown_list(row):
    out = []
    for v in row:
        out.append(int(v))
    return np.array_equal(out, row)


# (On JAX np.array_equal of a list grown in a staged loop is of mask selections: mask_equal.py.)
# (fixed on main, b4deb58)
def test_array_equal_of_a_grown_list():
    follows_the_rule(array_equal_of_a_grown_list, np.array([2, 4]))


# E1 (crash, fixed): returning an f-string of the loop variable from inside a staged `for` loop,
# another string after it: AttributeError("'int' object has no attribute 'item'") from
# autoconv's join of the return values (for_else_all_prime).
def return_fstring_in_loop(x):
    for v in x:
        if v > 3:
            return f"{v} big"
    return "none"


# (fixed on main, c2c5dbd; on JAX a string made when the graph runs and chosen by a staged loop
# is the documented LoweringError)
def test_return_fstring_from_a_staged_loop():
    follows_the_rule(return_fstring_in_loop, np.array([3, 5]))


@pytest.mark.skipif("jax" not in BACKENDS, reason="the JAX backend is optional")
def test_return_fstring_from_a_staged_loop_runs_on_jax():
    # (a clear error until strings7: the JAX backend keeps such strings as handles)
    follows_the_rule(return_fstring_in_loop, np.array([3, 5]), backend="jax")


# E2 (crash): an item written (`q[0] = ...`) in a staged branch into a list that a staged loop
# appends to: IndexError('list assignment index out of range') while tracing, on the empty
# list (order_book_match's partial fills).
def write_first_of_a_queue(x):
    q = []
    for v in x:
        if v > 0:
            q.append((v, 1))
        elif q:
            q[0] = (q[0][0], 2)
    return q


# (fixed: the run-time list carries the item it holds, `staging.held_at`; no longer the
# documented error for uneven appends)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("x", [np.array([1.0, -1.0]), np.array([-1.0, 2.0, -3.0, 4.0])])
def test_item_write_into_a_grown_list(backend, x):
    follows_the_rule(write_first_of_a_queue, x, backend=backend)


# E3 (crash, now a clear error): a dict of tuple keys read at `w`, a tuple a staged loop
# carries that starts empty, in the branch eager code does not take on the first iteration:
# KeyError(()) while tracing (lzw_codes).
def lzw_like(data):
    d = {(1,): 1, (2,): 2}
    w = ()
    out = []
    for c in data:
        wc = w + (int(c),)
        if wc in d:
            w = wc
        else:
            out.append(d[w])
            w = (int(c),)
    return out


# (on main since b4deb58 a clear error: `w` changes structure in the loop, a tuple of 0 and then
# of 1 item, a documented limit)
@pytest.mark.parametrize("backend", BACKENDS)
def test_dict_read_at_a_carried_tuple_key(backend):
    assert "`w` changes structure in this `for` loop" in message(
        lzw_like, np.array([1, 2]), backend=backend
    )


# E4 (crash): `fields[-1].append(v)` in a staged loop that also appends new lists to `fields`
# (splitting codes into fields): AttributeError("'tuple' object has no attribute 'append'")
# when the graph runs (parse_csv_row_codes).
def split_fields(codes):
    fields = [[]]
    for c in codes:
        if c == 0:
            fields.append([])
        else:
            fields[-1].append(int(c))
    return [sum(f) for f in fields]


# (On JAX a list of lists grown in a staged loop is a documented LoweringError.)
@xfail("E4: append to the last list of a list of lists grown in a staged loop")
def test_append_to_the_last_of_grown_lists():
    follows_the_rule(split_fields, np.array([2, 0, 3]))


# E5 (crash, fixed): `try: out.append(table[i]) except IndexError:` with `i` known only when
# the graph runs: the IndexError of the list read escaped the handler (index_errors_caught).
def lookup_or_default(idx):
    table = [10, 20, 30]
    out = []
    for i in idx:
        try:
            out.append(table[i])
        except IndexError:
            out.append(-1)
    return out


# (fixed on main, 43b77c2)
@pytest.mark.parametrize("backend", BACKENDS)
def test_index_error_of_a_list_read_is_caught(backend):
    follows_the_rule(lookup_or_default, np.array([5]), backend=backend)


# E6 (crash): `sep.join` of a generator of f-strings of values known only when the graph runs:
# a bare TypeError('sequence item 0: expected str instance, Tensor found') (matrix_to_text;
# inside a staged loop it is wrapped as an AutoconvError that says nothing to write instead).
# The list comprehension `", ".join([f"{v:.2f}" for v in r])` runs.
def join_formatted(r):
    return ", ".join(f"{v:.2f}" for v in r)


@pytest.mark.parametrize("backend", BACKENDS)  # (E6: fixed on branch strings7)
def test_join_of_a_generator_of_fstrings(backend):
    follows_the_rule(join_formatted, np.array([1.0, 2.5]), backend=backend)


# E7 (crash, fixed): a string repeated a run-time number of times (`"#" * int(c)`): NumPy's
# TypeError("The 'out' kwarg is necessary when using the string multiply ufunc directly")
# escaped (ascii_bar_chart). It is a string made when the graph runs now.
def bar(c):
    return "#" * int(c[0])


def bars(c):
    lines = []
    for v in c:
        lines.append(f"{int(v)}: " + "*" * int(v))
    return "\n".join(lines)


@pytest.mark.parametrize("backend", BACKENDS)
def test_string_times_a_run_time_int(backend):
    for c in (np.array([3]), np.array([0]), np.array([3, 0, 2])):
        follows_the_rule(bar, c, backend=backend)
        follows_the_rule(bars, c, backend=backend)


# W3 (wrong, JAX backend): `sum` of a generator of comparisons over a list a staged loop
# appended ints to is np.int64 on the JAX backend where eager Python (and the NumPy backend)
# gives a Python int (phred_quality's count of good reads).
def count_at_least_two(p):
    qs = []
    for v in p:
        qs.append(int(v))
    return sum(q >= 2 for q in qs)


def test_count_over_a_grown_list_is_an_int_on_numpy():
    follows_the_rule(count_at_least_two, np.array([1.0, 3.0]))


# (fixed: a comparison of a read item maps the read list's kinds, backends/jax/item_kinds.py)
@pytest.mark.skipif("jax" not in BACKENDS, reason="the JAX backend is optional")
def test_count_over_a_grown_list_is_an_int_on_jax():
    follows_the_rule(count_at_least_two, np.array([1.0, 3.0]), backend="jax")


# J1 (crash, the jit way): `.sort(key=...)` of a list of objects of the user's class by a
# property, under `jax.jit(autoconv.convert(f))`: JAX's TracerBoolConversionError from
# autoconv's own list sort (runtime/lists.py) escapes (greedy_knapsack_items). Sorting tuples
# by a traced key is a clear JaxStagingError; the graph path gives an AutoconvError (C8).
class _Item:
    def __init__(self, w, v):
        self.w = w
        self.v = v

    @property
    def ratio(self):
        return self.v / self.w


def sort_objects_by_property(w, v):
    items = [_Item(w[0], v[0]), _Item(w[1], v[1])]
    items.sort(key=lambda it: it.ratio)
    return items[0].w


# (fixed by objects8: the keys JAX traces are refused, a clear JaxStagingError; and the graph
# path sorts the objects, tests/graph/test_objects8.py)
@pytest.mark.skipif("jax" not in BACKENDS, reason="jax is optional")
def test_sort_of_objects_by_a_traced_key_under_jit():
    import jax
    import jax.numpy as jnp

    import autoconv

    w, v = np.array([1.0, 2.0]), np.array([3.0, 1.0])
    want = sort_objects_by_property(w, v)
    try:
        got = jax.jit(autoconv.convert(sort_objects_by_property))(jnp.asarray(w), jnp.asarray(v))
    except autoconv.AutoconvError:
        return  # a clear error naming the line follows the rule too
    assert float(got) == want
