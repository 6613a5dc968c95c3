"""Shared fixtures: strict mode restored after each test that touches it, and user modules
written to real files."""

import importlib.util
import itertools
import os
import sys
import textwrap

import pytest
from hypothesis import settings

# In CI every hypothesis test draws the same examples on every run and keeps no example
# database, so that a run fails only for a change in the code (not for a new draw, or for an
# example remembered from an earlier run). Elsewhere each run explores new examples.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

# Its asserts compare converted vs original: let pytest show both sides when they differ.
pytest.register_assert_rewrite("tests.differential")


@pytest.fixture
def strict_mode(monkeypatch):
    """Yields `autoconv.set_strict`; the strict setting is restored afterwards (AUTOCONV_STRICT
    is checked in a subprocess, see test_errors_and_warnings)."""
    import autoconv

    saved = autoconv.is_strict()
    monkeypatch.delenv("AUTOCONV_STRICT", raising=False)
    yield autoconv.set_strict
    autoconv.set_strict(saved)


@pytest.fixture
def always_converted(monkeypatch):
    """Converted functions run their functional form everywhere for the test (the mode of
    `autoconv.set_always_converted(True)`), then the setting is restored."""
    import autoconv

    saved = autoconv.always_converted()
    monkeypatch.delenv("AUTOCONV_ALWAYS_CONVERTED", raising=False)
    autoconv.set_always_converted(True)
    yield
    autoconv.set_always_converted(saved)


_counter = itertools.count()


@pytest.fixture(scope="session")
def user_module(tmp_path_factory):
    """`user_module(source)` writes `source` to a fresh file and imports it, so autoconv can
    read the source (inspect / linecache) as it would for a user's own module."""
    folder = tmp_path_factory.mktemp("user_modules")

    def make(source: str, name: str = None):
        name = name or f"user_mod_{next(_counter)}"
        path = folder / f"{name}.py"
        path.write_text(textwrap.dedent(source))
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module

    return make
