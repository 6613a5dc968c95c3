"""What the commands import and execute: only the module named, with its folder after the
standard library and the installed packages on `sys.path`; never a file that merely sits in the
current folder under the name of a real module."""

import os

import pytest

from tests.cli.helpers import run_cli, write

HOSTILE = """
    import os
    open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "PWNED-{name}"), "w").close()
    raise SystemExit("hostile {name}.py was imported")
"""
SHADOWED = ["json", "numpy", "gast", "inspect", "argparse"]


@pytest.fixture
def hostile(tmp_path):
    """A folder holding files named like real modules, each leaving a marker when imported."""
    for name in SHADOWED:
        write(tmp_path / f"{name}.py", HOSTILE.format(name=name))
    return tmp_path


def markers(folder) -> list:
    return sorted(n for n in os.listdir(folder) if n.startswith("PWNED-"))


def test_show_imports_the_real_module_not_one_in_the_current_folder(hostile):
    done = run_cli("show", "json:loads", cwd=hostile)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("def loads(")
    assert markers(hostile) == []


def test_graph_of_a_file_imports_real_modules_not_its_neighbours(hostile):
    write(
        hostile / "model.py", "import numpy as np\n\ndef f(x):\n    return np.sum(x) if 1 else x\n"
    )
    done = run_cli("graph", "model.py:f", "--spec", "float32[3]", cwd=hostile)
    assert done.returncode == 0, done.stderr
    assert "sum" in done.stdout
    assert markers(hostile) == []


def test_a_module_of_the_current_folder_is_still_found_by_name(hostile):
    write(hostile / "mine.py", "def f(x):\n    return x if x else 0\n")
    done = run_cli("show", "mine:f", cwd=hostile)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("def f(x):") and markers(hostile) == []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_convert_imports_nothing_from_the_current_folder(hostile, jobs):
    write(hostile / "m.py", "import json\n\ndef f(x):\n    return x if x else 0\n")
    write(hostile / "n.py", "def g(x):\n    return x if x else 0\n")
    done = run_cli("convert", "m.py", "n.py", "-o", "out", "--jobs", jobs, cwd=hostile)
    assert done.returncode == 0, done.stderr
    assert markers(hostile) == []
    assert sorted(os.listdir(hostile / "out")) == ["m.py", "n.py"]


def test_a_file_named_explicitly_is_the_one_imported(hostile):
    """Naming a file is trusting it: `show ./json.py:f` runs that file."""
    done = run_cli("show", "./json.py:f", cwd=hostile)
    assert done.returncode == 1
    assert markers(hostile) == ["PWNED-json"]
