"""The operators that converted code calls (`import autoconv.runtime as ac`).

This package imports nothing but itself: converted copies of standard-library modules import it,
so it must not pull in NumPy or any module that might itself be a converted copy.
"""

# First: converted standard-library modules that the rest of the runtime imports register their
# forms with it while this package is still being imported.
from autoconv.runtime.forms import register_forms  # isort: skip
from autoconv.runtime.calls import converted
from autoconv.runtime.control_flow import (
    assert_,
    for_stmt,
    handler,
    if_stmt,
    is_,
    is_none,
    is_not,
    is_not_none,
    while_stmt,
)
from autoconv.runtime.formats import percent, str_format
from autoconv.runtime.inplace import inplace_call, inplace_method
from autoconv.runtime.items import (
    index,
    item,
    item_at,
    item_op,
    list_item,
    params_written,
    put_back,
    setitem,
    setitem_attr,
    setitem_in,
    setitem_in_place,
    setitem_path,
    setitem_view,
    setitems,
    setitems_attr,
    setitems_path,
    store_item,
    view_of,
    written_back,
)
from autoconv.runtime.keyed import delete as keyed_del
from autoconv.runtime.keyed import item as keyed_item
from autoconv.runtime.keyed import iterated as keyed_iterated
from autoconv.runtime.keyed import store as keyed_store
from autoconv.runtime.keyed_comprehensions import built as keyed_built
from autoconv.runtime.keyed_comprehensions import keys_of as keyed_keys
from autoconv.runtime.keyed_sets import dict_made as keyed_dict
from autoconv.runtime.keyed_sets import made as keyed_set
from autoconv.runtime.keyed_sets import op as keyed_op
from autoconv.runtime.lazy_builtins import filter, map
from autoconv.runtime.lists import (
    deque,
    filtered,
    filtered_nested,
    joined,
    list_contains,
    list_del,
    list_equal,
    list_iadd,
    list_method,
)
from autoconv.runtime.logical import and_, compare_chain, if_exp, not_, or_, truth
from autoconv.runtime.printing import (  # noqa: A004 - `ac.print` and others in converted code
    bin,
    chr,
    format,
    formatted,
    hex,
    oct,
    print,
    repr,
    str,
    text,
)
from autoconv.runtime.py_builtins import (
    all,
    any,
    bool,
    enumerate,
    float,
    in_,
    int,
    isinstance,
    len,
    max,
    min,
    next,
    range,
    reversed,
    round,
    sorted,
    sum,
    zip,
)
from autoconv.runtime.py_builtins import type_of as type  # noqa: A004 - `ac.type` in converted code
from autoconv.runtime.sequences import compare
from autoconv.runtime.staging import functional_now
from autoconv.runtime.tries import (
    suppressed,
    try_begin,
    try_end,
    try_exception,
    try_mark,
    try_poll,
    try_raise,
    try_settle,
    try_which,
)
from autoconv.runtime.unbound import past_guard, unbound_locals
from autoconv.runtime.unpacking import unpack

# heapq's and bisect's functions of a list, which conversion routes through `converted`
import builtins as _builtins  # isort: skip

from autoconv.runtime import calls as _calls  # isort: skip
from autoconv.runtime.heaps import STAGED as _HEAPS  # isort: skip

_calls.staged.update(_HEAPS)
# A built-in passed as a function (`map(str, xs)`, `key=abs` is Python's own): the runtime's
# form that converted code calls where `str(v)` is written, so a Tensor is never made a string
# of its placeholder. (`int`, `float`, `len`, `type`: the tracer's, staged_calls.STAGED.)
_PASSED = "str repr format chr hex oct bin bool round sum max min any all sorted".split()
_calls.staged.update({getattr(_builtins, name): globals()[name] for name in _PASSED})

__all__ = [
    "bin",
    "chr",
    "hex",
    "oct",
    "all",
    "and_",
    "compare_chain",
    "any",
    "assert_",
    "bool",
    "compare",
    "converted",
    "enumerate",
    "filter",
    "filtered",
    "filtered_nested",
    "float",
    "format",
    "formatted",
    "for_stmt",
    "handler",
    "functional_now",
    "if_exp",
    "if_stmt",
    "in_",
    "index",
    "inplace_call",
    "inplace_method",
    "int",
    "isinstance",
    "print",
    "item",
    "is_",
    "item_at",
    "is_none",
    "is_not",
    "is_not_none",
    "item_op",
    "len",
    "joined",
    "keyed_built",
    "keyed_del",
    "keyed_item",
    "keyed_keys",
    "keyed_op",
    "keyed_set",
    "keyed_dict",
    "keyed_iterated",
    "keyed_store",
    "deque",
    "list_contains",
    "list_equal",
    "list_del",
    "list_iadd",
    "list_item",
    "put_back",
    "list_method",
    "map",
    "max",
    "min",
    "next",
    "not_",
    "or_",
    "past_guard",
    "percent",
    "range",
    "repr",
    "register_forms",
    "params_written",
    "setitem",
    "setitem_attr",
    "setitem_in",
    "setitems_attr",
    "setitem_path",
    "setitems",
    "setitems_path",
    "reversed",
    "round",
    "sorted",
    "str",
    "store_item",
    "str_format",
    "sum",
    "text",
    "unpack",
    "truth",
    "suppressed",
    "try_begin",
    "try_end",
    "try_exception",
    "try_mark",
    "try_poll",
    "try_raise",
    "try_settle",
    "try_which",
    "type",
    "unbound_locals",
    "setitem_in_place",
    "setitem_view",
    "view_of",
    "while_stmt",
    "written_back",
    "zip",
]
