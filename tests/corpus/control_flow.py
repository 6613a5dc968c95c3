"""if / elif / else in every shape, with state in names, attributes and subscripts."""

from tests.differential import cases


class Box:
    def __init__(self, n=0):
        self.n = n


class Truthy:
    """Prints each time Python asks for its truth value, so tests see how often and when."""

    def __init__(self, value):
        self.value = value

    def __bool__(self):
        print("bool", self.value)
        return bool(self.value)


@cases((-3,), (0,), (7,))
def sign(x):
    if x < 0:
        return -1
    elif x == 0:
        return 0
    else:
        return 1


@cases((5,), (50,), (500,), (-1,))
def classify(x):
    if x < 0:
        print("negative")
        label = "neg"
    elif x < 10:
        label = "small"
    elif x < 100:
        label = "medium"
        print("medium", x)
    else:
        label = "large"
    return label, x


@cases((1, 2), (2, 1), (3, 3))
def nested_if_else(a, b):
    if a > b:
        if a > 2 * b:
            r = "much bigger"
        else:
            r = "bigger"
    else:
        if a == b:
            r = "equal"
            if a > 2:
                r += "!"
        else:
            r = "smaller"
    return r


@cases((True,), (False,))
def if_without_else_keeps_value(flag):
    y = 1
    if flag:
        y = 2
    return y


@cases((True,), (False,))
def unbound_when_branch_skipped(flag):
    if flag:
        y = 10
    return y  # UnboundLocalError when flag is false


@cases((0,), (1,), (2,))
def unbound_in_one_of_three_branches(k):
    if k == 0:
        a = "zero"
        b = 0
    elif k == 1:
        a = "one"
    else:
        b = 2
    return a, b


@cases((True,), (False,))
def branch_deletes_name(flag):
    x = 5
    if flag:
        del x
    return x


@cases((True, 3), (False, 3))
def if_with_pass_branches(flag, n):
    if flag:
        pass
    else:
        n += 1
    if n > 3:
        pass
    return n


@cases((3,), (-3,), (0,))
def elif_chain_multiple_state(x):
    a, b, c = 0, 0, 0
    if x > 0:
        a = x
        b = x * 2
    elif x < 0:
        b = -x
        c = x
    else:
        c = 100
    return a, b, c


@cases((True,), (False,))
def attribute_state_in_branch(flag):
    box = Box()
    if flag:
        box.n = 1
    else:
        box.n += 10
    box.n *= 3
    return box.n


@cases(({"a": 1}, "a"), ({"a": 1}, "b"), ({}, "c"))
def subscript_state_mutates_argument(d, key):
    if key in d:
        d[key] += 1
    elif key == "b":
        d[key] = 0
    else:
        d[key] = [key]
        d[key].append(len(d))
    return sorted(d)


@cases((2,), (3,), (4,))
def augmented_assignment_in_branches(n):
    s = 1
    items = [0]
    if n % 2:
        s += n
        s <<= 1
        items += [n]
    else:
        s *= n
        s -= 1
        s //= 2
        items *= 2
    return s, items


@cases(([1],), ([],))
def list_augmented_mutates_argument(xs):
    alias = xs
    if xs:
        xs += [2]  # in place: the caller's list grows too
    else:
        xs = xs + [0]  # a new list
    return alias is xs, xs


@cases((True,), (False,))
def annotated_locals_in_branches(flag):
    if flag:
        y: int = 1
        z: str = "a"
    else:
        y: int = 2
        z: str = "b"
    w: float  # noqa: F842 - an annotation alone binds nothing
    return y, z


@cases((True,), (False,))
def annotation_without_value_stays_unbound(flag):
    if flag:
        x: int = 3
    else:
        x: int
    return x


@cases((0,), (1,), (2,))
def truthiness_calls_bool_once(v):
    t = Truthy(v)
    if t:
        r = "yes"
    else:
        r = "no"
    if not t:
        r += "!"
    return r


class Sized:
    def __init__(self, n):
        self.n = n

    def __len__(self):
        print("len", self.n)
        return self.n


@cases((0,), (2,))
def truthiness_by_len(n):
    s = Sized(n)
    out = []
    if s:
        out.append("nonempty")
    while s:
        s.n -= 1
        out.append(s.n)
    return out


class Exploding:
    def __bool__(self):
        raise ValueError("no truth value for Exploding")


@cases((True,), (False,))
def exception_from_if_test(explode):
    value = Exploding() if explode else 1
    if value:
        return "ok"
    return "never"


@cases(([1, 2, 3, 4],), ([1],), ([],))
def walrus_in_if_test(xs):
    if (n := len(xs)) > 3:
        return "long", n
    elif (m := n * 2) > 1:
        return "short", m
    return n, xs


@cases(("abc",), ("",), ("xyz",))
def walrus_in_elif_may_leave_unbound(s):
    if s.startswith("a"):
        pass
    elif (rest := s[1:]) == "yz":
        return rest
    return rest  # unbound unless the elif ran


@cases((1, 2, 3), (3, 2, 1), (1, 1, 1))
def deeply_nested_branches(a, b, c):
    if a < b:
        if b < c:
            if a + b > c:
                out = "triangle"
            else:
                out = "ascending"
        elif b == c:
            out = "plateau"
        else:
            if a < c:
                out = "peak low"
            else:
                out = "peak high"
    elif a == b:
        out = "flat" if b == c else "step"
    else:
        out = "descending" if b > c else "valley"
    return out


@cases((1,), (0,))
def if_in_with_block(flag):
    log = []

    class Ctx:
        def __enter__(self):
            log.append("enter")
            return self

        def __exit__(self, *exc):
            log.append("exit")
            return False

    with Ctx():
        if flag:
            log.append("then")
        else:
            log.append("else")
    return log


@cases((5,), (15,))
def print_in_every_branch(x):
    print("start", x)
    if x > 10:
        print("big")
    else:
        print("small")
    print("end")


@cases((1,), (2,), (3,))
def empty_body_only_else(x):
    y = 0
    if x == 1:
        pass
    elif x == 2:
        pass
    else:
        y = x
    return y


@cases((1,), (-1,))
def star_unpacking_in_branches(x):
    data = [1, 2, 3, 4]
    if x > 0:
        first, *rest = data
    else:
        *rest, first = data
    return first, rest


@cases((True,), (False,))
def class_defined_in_branch(flag):
    if flag:

        class K:
            v = 1
    else:

        class K:
            v = 2

    return K.v


@cases((True,), (False,))
def import_in_branch(flag):
    if flag:
        import math as m
    else:
        import operator as m
    return m.__name__


@cases((4,), (9,))
def function_defined_in_branch(x):
    if x > 5:

        def pick(v):
            return v * 2
    else:

        def pick(v):
            return -v

    return pick(x)


@cases((1,), (0,))
def assert_statement(x):
    if x:
        assert x == 1, "x must be one"
    else:
        assert x, f"x was {x!r}"
    return x
