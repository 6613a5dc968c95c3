"""Constructs left as Python with a ConversionWarning: `match` statements with sequence,
mapping or class patterns, and generators (and two matches of values, which convert)."""

from tests.differential import add_cases, cases

MATCH_WARNING = r"the match at .*kept\.py:\d+ stays Python"


@cases(((1, 2),), ([3],), ({"k": 5},), ("other",), (7,), warns=MATCH_WARNING)
def match_with_patterns(value):
    match value:
        case (a, b):
            return "pair", a + b
        case [x]:
            return "single", x
        case {"k": v} if v > 3:
            return "mapping", v
        case int(n):
            return "int", n
        case _:
            return "other"


@cases(([1, "skip", 2, "stop", 3],), ([1, 2],), warns=MATCH_WARNING)
def match_inside_loop_with_break_continue(items):
    total = 0
    for item in items:
        match item:
            case "skip":
                continue
            case "stop":
                break
            case int():
                if item > 1:
                    total += item * 10
                else:
                    total += item
    else:
        total = -total
    return total


# (value patterns alone: the `if`/`elif` chain they mean, converted; no warning)
@cases((1,), (2,), (3,))
def match_with_loops_in_cases(n):
    out = []
    match n:
        case 1:
            for i in range(3):
                out.append(i)
        case 2:
            while n < 5:
                n += 1
                out.append(n)
        case _:
            captured = n
    return out, captured  # captured unbound unless the default case ran


@cases((3,))
def match_return_inside_loop(n):
    for i in range(n):
        match i:
            case 1:
                return "one"
            case _:
                print("not one", i)
    return "none"


def plain_generator(n):
    for i in range(n):
        if i % 2:
            continue
        yield i


add_cases(
    plain_generator,
    (5,),
    (0,),
    converted=False,
    warns=r"plain_generator \(.*kept\.py:\d+\) stays Python: the yield at .*kept\.py:\d+",
)


def generator_with_finally(n):
    try:
        while n:
            n -= 1
            yield n
    finally:
        print("closed")


add_cases(
    generator_with_finally,
    (2,),
    converted=False,
    warns=r"generator_with_finally \(.*kept\.py:\d+\) stays Python: the yield",
)
