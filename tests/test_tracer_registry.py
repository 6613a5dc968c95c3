"""The registry of tracers in `autoconv.runtime.staging`: each operator asks it once which tracer
claims a value, and plain Python values stay plain."""

import subprocess
import sys
import textwrap

import pytest

import autoconv.runtime as ac
from autoconv.runtime import staging


class Sym:
    """A symbolic value of a made-up tracer."""


class Recorder:
    """A tracer that records which of its functions the operators called."""

    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        if name not in staging.PROTOCOL:
            raise AttributeError(name)

        def record(*args, **kwargs):
            self.calls.append(name)
            return name

        return record


@pytest.fixture
def recorder():
    """A `Recorder` registered for `Sym`, unregistered afterwards."""
    tracer = Recorder()
    staging.register((Sym,), tracer)
    yield tracer
    del staging._REGISTERED[Sym]
    staging.TRACERS.pop(Sym, None)


def test_each_operator_hands_a_claimed_value_to_its_tracer(recorder):
    s = Sym()
    assert ac.if_stmt(s, None) == "if_stmt"
    assert ac.if_stmt(False, None, (lambda: s, None, None)) == "if_stmt"  # an `elif`
    assert ac.if_exp(s, None, None) == "if_exp"
    assert ac.and_(s, None) == "and_"
    assert ac.or_(s, None) == "or_"
    assert ac.not_(s) == "not_"
    assert ac.for_stmt(s, None) == "for_stmt"
    assert ac.for_stmt([1, 2], lambda item: s) == "for_rest"
    assert ac.while_stmt(lambda: s, None) == "while_stmt"
    assert ac.while_stmt(lambda: True, lambda: s) == "while_rest"
    assert ac.is_none(s) == "is_none"
    assert ac.assert_(s) == "assert_"
    assert ac.range(3, s) == "range"
    assert ac.enumerate(s) == "enumerate"
    assert ac.enumerate([], s) == "enumerate"
    assert ac.zip([1], s) == "zip"
    assert len(recorder.calls) == 16


def test_plain_values_stay_python(recorder):
    assert ac.if_exp(0, lambda: "yes", lambda: "no") == "no"
    assert ac.and_(1, lambda: [2]) == [2]
    assert ac.or_("", lambda: 0, test=True) is False
    assert ac.not_([]) is True
    assert list(ac.range(3)) == [0, 1, 2]
    assert list(ac.zip("ab", [1, 2])) == [("a", 1), ("b", 2)]
    assert ac.is_none(None) and ac.is_not_none(0)
    assert ac.max(3, 1, 2) == 3 and ac.len([1, 2]) == 2
    assert staging.tracer_for(3) is None and staging.TRACERS[int] is None
    assert recorder.calls == []


def test_a_type_has_one_tracer(recorder):
    with pytest.raises(RuntimeError, match="another tracer"):
        staging.register((Sym,), Recorder())
    staging.register((Sym,), recorder)  # the same one again is fine


def test_a_claim_is_asked_once_per_type_and_loads_its_tracer_when_it_says_yes():
    class Claimed:
        pass

    asked, loaded, tracer = [], [], Recorder()

    def test(kind):
        asked.append(kind)
        return kind is Claimed

    def load():
        loaded.append(True)
        return tracer

    staging.register_claim(test, load)
    try:
        assert ac.not_(5) is False and ac.not_(6) is False
        assert asked.count(int) == 1 and loaded == []
        assert ac.not_(Claimed()) == "not_" and ac.not_(Claimed()) == "not_"
        assert asked.count(Claimed) == 1 and loaded == [True]
        assert staging.TRACERS[Claimed] is tracer
    finally:
        staging._CLAIMS.remove((test, load))
        staging.TRACERS.clear()
        staging.TRACERS.update(staging._REGISTERED)


def test_an_unsure_claim_is_asked_again():
    class Later:
        pass

    answers = [None, True]
    tracer = Recorder()

    def test(kind):
        return answers.pop(0) if kind is Later else False

    staging.register_claim(test, lambda: tracer)
    try:
        assert staging.TRACERS[Later] is None  # "not known yet": not remembered
        assert staging.TRACERS[Later] is tracer
    finally:
        staging._CLAIMS.remove(staging._CLAIMS[-1])
        staging.TRACERS.clear()
        staging.TRACERS.update(staging._REGISTERED)


def test_both_tracers_have_the_whole_protocol():
    from autoconv.trace.tensors.tracer import TRACER

    assert staging.graph_tracer is TRACER
    assert [n for n in staging.PROTOCOL if not callable(getattr(TRACER, n, None))] == []
    pytest.importorskip("jax")
    from autoconv.trace import jax as client

    assert [n for n in staging.PROTOCOL if not callable(getattr(client, n, None))] == []
    # Where JAX values run as Python, the client does what Python does.
    assert client.mark() is None
    assert client.extreme("max", (1, 3, 2)) == 3 and client.extreme("min", ([4, 2],)) == 2
    target = [0, 0]
    assert client.setitem(target, 1, 5) is target and target == [0, 5]
    assert client.len([1, 2]) == 2


def test_jax_tracers_are_claimed_by_the_jax_client_without_importing_it_before():
    program = textwrap.dedent(
        """
        import sys
        import autoconv.runtime as ac
        from autoconv.runtime import staging

        assert ac.not_(0) is True and staging.TRACERS[int] is None
        import jax, jax.numpy as jnp

        assert "autoconv.trace.jax" not in sys.modules
        assert staging.TRACERS[type(jnp.zeros(2))] is None  # a concrete array runs as Python
        assert "autoconv.trace.jax" not in sys.modules
        seen = []

        def f(x):
            seen.append(staging.tracer_for(x))
            return ac.if_exp(x > 0, lambda: x, lambda: -x)

        assert float(jax.jit(f)(-2.0)) == 2.0
        assert seen == [sys.modules["autoconv.trace.jax"]]
        print("ok")
        """
    )
    pytest.importorskip("jax")
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stdout + out.stderr
