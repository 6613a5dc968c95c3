"""Converted code never imports JAX: the JAX lowering loads only when a JAX tracer is seen."""

import subprocess
import sys
import textwrap


def test_converted_code_imports_no_jax(tmp_path):
    module = tmp_path / "prog.py"
    module.write_text(
        textwrap.dedent(
            """
            import sys
            import autoconv

            def helper(n):
                return n + 1 if n % 2 else n

            def f(xs, n):
                total = 0
                i = 0
                while i < n and not total > 100:
                    for x in xs:
                        if x > 1 or x < -1:
                            total += helper(x)
                    i += 1
                return total

            assert autoconv.convert(f)([3, -2, 0], 3) == f([3, -2, 0], 3)
            loaded = sorted(m for m in sys.modules if m == "jax" or m.startswith(("jax.", "autoconv.trace.jax")))
            print(loaded)
            """
        )
    )
    out = subprocess.run(
        [sys.executable, str(module)], capture_output=True, text=True, check=True, cwd=tmp_path
    )
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_no_trace_without_jax():
    from autoconv.runtime import staging

    if "jax" not in sys.modules:
        assert not staging.jax_tracing()
    assert not staging.tracing()
