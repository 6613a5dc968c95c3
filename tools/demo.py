"""The bundled example: convert a function with data-dependent control flow, show the
converted code, and run it on Python values (and, when the graph backend is present, as a graph).

    python tools/demo.py
"""

import autoconv


def collatz_steps(n):
    """Number of Collatz steps from n down to 1."""
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def first_over(xs, limit):
    """The first element above `limit`, or -1."""
    for x in xs:
        if x > limit:
            return x
    return -1


def main() -> None:
    for fn, args in ((collatz_steps, (27,)), (first_over, ([1, 5, 9], 4))):
        print(f"# autoconv.to_code({fn.__name__})")
        print(autoconv.to_code(fn))
        converted = autoconv.convert(fn)
        shown = ", ".join(map(repr, args))
        print(f"{fn.__name__}({shown}) = {converted(*args)}   (original: {fn(*args)})\n")
    try:
        import numpy as np

        graph_fn = autoconv.function(collatz_steps)
        print("# as a graph, for an int64 scalar:")
        print(f"collatz_steps(np.int64(27)) = {graph_fn(np.int64(27))}")
        concrete = graph_fn.get_concrete_function(np.int64(27))
        print(concrete.graph.as_text())
    except (AttributeError, ImportError, NotImplementedError) as e:  # graph backend missing
        print(f"(graph mode unavailable: {e})")


if __name__ == "__main__":
    main()
