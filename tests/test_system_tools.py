"""tools/system_packages.sh on a machine without apt-get, and the skip-or-fail rule of the
tests that need Graphviz or Chromium."""

import pathlib
import shutil
import subprocess

import pytest

from tests import system_tools

SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "tools" / "system_packages.sh"


def test_without_apt_get_the_script_says_what_to_install_and_carries_on(tmp_path):
    # A PATH holding only the shell and `id`: no apt-get, no dot, no chromium.
    for tool in ("sh", "id"):
        (tmp_path / tool).symlink_to(shutil.which(tool))
    done = subprocess.run(
        [str(tmp_path / "sh"), str(SCRIPT)],
        env={"PATH": str(tmp_path)},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "no apt-get" in done.stdout and "graphviz chromium" in done.stdout


def test_a_missing_tool_skips_with_the_reason(monkeypatch):
    monkeypatch.delenv(system_tools.REQUIRED, raising=False)
    with pytest.raises(pytest.skip.Exception, match="Chromium is not installed .*apt-get"):
        system_tools.require("Chromium", None, "Debian: apt-get install chromium")
    system_tools.require("Chromium", "/usr/bin/chromium", "unused")  # found: nothing happens


def test_a_missing_tool_fails_where_the_environment_requires_it(monkeypatch):
    monkeypatch.setenv(system_tools.REQUIRED, "1")
    with pytest.raises(pytest.fail.Exception, match="AUTOCONV_REQUIRE_SYSTEM_TOOLS"):
        system_tools.require("Chromium", None, "Debian: apt-get install chromium")


def test_ci_requires_the_system_tools():
    ci = (SCRIPT.parents[1] / ".ci" / "run").read_text()
    assert f"export {system_tools.REQUIRED}=1" in ci


def test_with_apt_get_but_neither_root_nor_sudo_it_says_so_and_carries_on(tmp_path):
    (tmp_path / "sh").symlink_to(shutil.which("sh"))
    for tool in ("apt-get", "id"):  # apt-get is never run: `id` says we are not root
        (tmp_path / tool).write_text("#!/bin/sh\necho 1000\n")
        (tmp_path / tool).chmod(0o755)
    done = subprocess.run(
        [str(tmp_path / "sh"), str(SCRIPT)],
        env={"PATH": str(tmp_path)},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "no sudo" in done.stdout and "apt-get install graphviz chromium" in done.stdout
