"""Helpers for driving `autoconv` as a subprocess, the way people and CI call it."""

import os
import subprocess
import sys
import textwrap

import autoconv

PYTHON = sys.executable


def run_cli(*args, cwd=None, env=None, stdin=None) -> subprocess.CompletedProcess:
    """Runs `python -m autoconv ARGS...`; returns the completed process (text mode)."""
    return subprocess.run(
        [PYTHON, "-m", "autoconv", *map(str, args)],
        cwd=cwd,
        env=env,
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def run_python(code: str, *, path=(), cwd=None) -> subprocess.CompletedProcess:
    """Runs `code` in a fresh interpreter with the folders `path` first on `sys.path`."""
    env = dict(os.environ)
    # Then the autoconv under test (a checkout's `src`, which need not be the installed one).
    source_root = os.path.dirname(os.path.dirname(os.path.abspath(autoconv.__file__)))
    env["PYTHONPATH"] = os.pathsep.join([*map(str, path), source_root])
    return subprocess.run(
        [PYTHON, "-c", textwrap.dedent(code)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def write(path, text: str):
    """Writes dedented `text` to `path` (creating folders); returns the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


SAMPLE = """
    '''A sample module: control flow of every kind, a class, a generator.'''
    import math

    LIMIT = 10


    def collatz(n):
        steps = 0
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps


    def first_over(xs, limit=LIMIT):
        for x in xs:
            if x > limit:
                return x
        return -1


    class Shape:
        '''A class body stays as it is.'''

        sides = 0

        def __init__(self, size):
            self.size = size

        def area(self):
            return self.size ** 2 if self.sides == 4 else math.nan

        @staticmethod
        def kind(sides):
            return "square" if sides == 4 else "other"


    def count_up(n):
        i = 0
        while i < n:
            yield i
            i += 1
"""
