"""These tests trace, convert and drop many functions; their garbage is collected when each
module ends, so that the weakly keyed caches of later tests (tests/test_caches.py counts their
entries) do not shrink in the middle of a measurement when a collection happens to run."""

import gc

import pytest


@pytest.fixture(autouse=True, scope="module")
def _collect_garbage_after_module():
    yield
    gc.collect()
