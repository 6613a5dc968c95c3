"""Pass settings for the graph-mode differential tests.

A test module that uses the `pass_settings` fixture (`pytestmark =
pytest.mark.usefixtures("pass_settings")`) runs once per entry of `SETTINGS`: every pass on
(the default), every pass off, each pass alone, and each pass left out. Graphs traced during
the test use those settings.
"""

import pytest

from autoconv.graph import passes

_NAMES = list(passes.PASSES)
SETTINGS = [("all", passes.Settings()), ("none", passes.Settings.none())]
SETTINGS += [(f"only-{n}", passes.Settings.none().with_flags(**{n: True})) for n in _NAMES]
SETTINGS += [(f"no-{n}", passes.Settings().with_flags(**{n: False})) for n in _NAMES]


@pytest.fixture(params=[s for _, s in SETTINGS], ids=[name for name, _ in SETTINGS])
def pass_settings(request):
    """Yields the Settings in effect for graphs traced during the test."""
    with passes.options(request.param) as settings:
        yield settings
