"""Fixtures for the command-line tests: a sample module and a sample package."""

import pytest

from tests.cli.helpers import SAMPLE, write


@pytest.fixture
def sample(tmp_path):
    """A folder `src/` holding `sample.py`; returns the file's path."""
    return write(tmp_path / "src" / "sample.py", SAMPLE)


@pytest.fixture
def package(tmp_path):
    """A package folder `src/pkg` with a subpackage, relative imports and a data file."""
    root = tmp_path / "src" / "pkg"
    write(
        root / "__init__.py",
        """
        from .core import clip
        from .sub.helpers import total
    """,
    )
    write(
        root / "core.py",
        """
        def clip(x, lo, hi):
            if x < lo:
                return lo
            if x > hi:
                return hi
            return x
    """,
    )
    write(root / "sub" / "__init__.py", "")
    write(
        root / "sub" / "helpers.py",
        """
        from ..core import clip


        def total(xs):
            s = 0
            for x in xs:
                s += clip(x, 0, 10)
            return s
    """,
    )
    write(root / "data" / "table.csv", "a,b\n1,2\n")
    (root / "__pycache__").mkdir()
    (root / "__pycache__" / "core.cpython-311.pyc").write_bytes(b"stale")
    return root
