"""Calling a method of a `Union` of the user's objects (`best.norm2()` where `best` is one of
several objects picked when the graph runs: by `max(pts, key=...)`, a sort, a staged `if`).

    u.m(*args)  ->  if tag == 0: r = alt0.m(*args)
                    elif tag == 1: r = alt1.m(*args)  ...  else: r = altN.m(*args)

a staged `if` chain over the tag, each branch the converted method of one object. What a
method changes (`self.balance -= a`) is carried as a staged `if` carries any attribute a called
method sets, so only the object the tag picks changes when the graph runs, as eagerly.
"""

from __future__ import annotations


def call(tag, methods: list):
    """A callable that calls `methods[k]` (each a bound method, of the object `tag == k` picks)
    in a staged `if` chain, and gives the result of the one called."""

    def staged(*args, **kwargs):
        from autoconv.runtime.calls import converted
        from autoconv.runtime.control_flow import if_stmt

        result = None

        def get_state():
            return (result,)

        def set_state(state):
            nonlocal result
            (result,) = state

        def branch(method):
            def body():
                nonlocal result
                result = converted(method)(*args, **kwargs)

            return body

        chain: list = []
        for k in range(1, len(methods) - 1):
            chain += [lambda k=k: tag == k, branch(methods[k])]
        chain.append(branch(methods[-1]))
        if_stmt(tag == 0, branch(methods[0]), tuple(chain), get_state, set_state, ("result",))
        return result

    return staged
