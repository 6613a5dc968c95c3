"""What the symbol of a `binop` or `unop` node means: Python's operator, as eager code runs it
(tracing records it, passes fold it on constants, backends and eager_types replay it)."""

import operator

BINARY_OPERATORS = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "**": operator.pow,
    "@": operator.matmul,
    "&": operator.and_,
    "|": operator.or_,
    "^": operator.xor,
    "<<": operator.lshift,
    ">>": operator.rshift,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}
UNARY_OPERATORS = {"-": operator.neg, "+": operator.pos, "~": operator.invert, "abs": abs}
