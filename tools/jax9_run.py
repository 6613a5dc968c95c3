"""Runs programs of a fresh batch in one mode and prints one line per outcome that is not
eager's (task jax9: which programs run on NumPy but not on JAX).

    python tools/jax9_run.py fresh_batch8 jax NAME ...   # these programs, JAX backend
    python tools/jax9_run.py fresh_batch7 numpy          # all programs, NumPy backend
    python tools/jax9_run.py fresh_batch8 names          # the program names, one a line
"""

import contextlib
import importlib
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

if __name__ == "__main__":
    batch, mode, *names = sys.argv[1:]
    module = importlib.import_module(batch)
    import fresh_batch5

    if mode == "names":
        print("\n".join(f.__name__ for f, _ in module.P))
        sys.exit(0)
    chosen = [p for p in module.P if not names or p[0].__name__ in names]
    with contextlib.redirect_stdout(io.StringIO()):
        rows = fresh_batch5.detail(chosen, (mode,))
    for name, mode, k, label, exc, message, where in rows:
        message = " ".join(str(message).split())
        print(f"ROW {name} {mode} input {k}: {label} {exc}: {message[:400]} @ {where}")
    print("DONE", len(chosen))
