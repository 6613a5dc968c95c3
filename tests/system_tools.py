"""System tools some tests need (Graphviz's `dot`, Chromium): a test that needs a missing one
skips with the reason and what to install, unless AUTOCONV_REQUIRE_SYSTEM_TOOLS=1 (set by
.ci/run, which installs them first) makes a missing tool a failure."""

import os

import pytest

REQUIRED = "AUTOCONV_REQUIRE_SYSTEM_TOOLS"


def require(tool: str, found: object, install: str) -> None:
    """Skips the calling test when `found` is falsy (the tool is missing), or fails it when
    the environment says the system tools are required."""
    if found:
        return
    message = f"{tool} is not installed ({install}; tools/system_packages.sh installs it on Debian)"
    if os.environ.get(REQUIRED, "") not in ("", "0"):
        pytest.fail(f"{message}, and {REQUIRED} says it is required")
    pytest.skip(message)
