"""`autoconv convert`: outputs, summaries, reports, packages and parallel runs."""

import json
import os

from tests.cli.helpers import run_cli, run_python, write


def line_of(path, text: str) -> int:
    """The number of the first line of the file at `path` that contains `text`."""
    return next(i for i, line in enumerate(open(path), 1) if text in line)


def test_a_file_becomes_a_drop_in_module(sample, tmp_path):
    out = tmp_path / "out"
    done = run_cli("convert", sample, "-o", out)
    assert done.returncode == 0, done.stderr
    assert sorted(os.listdir(out)) == ["sample.py"]
    text = (out / "sample.py").read_text()
    assert "import autoconv.runtime as __ac__" in text
    assert "__ac__.while_stmt(" in text and "__ac__.for_stmt(" in text and "__ac__.if_exp(" in text
    check = run_python(
        """
        import sample
        assert sample.__file__.startswith(OUT), sample.__file__
        print(sample.__doc__)
        print(sample.collatz(27), sample.first_over([1, 12, 30]), sample.first_over([]))
        s = sample.Shape(3)
        print(s.area() != s.area(), sample.Shape.kind(4), list(sample.count_up(3)))
        """.replace("OUT", repr(str(out))),
        path=[out],
    )
    assert check.returncode == 0, check.stderr
    assert check.stdout.splitlines() == [
        "A sample module: control flow of every kind, a class, a generator.",
        "111 12 -1",
        "True square [0, 1, 2]",
    ]


def test_the_summary_counts_the_generators_and_lists_them_with_verbose(sample, tmp_path):
    done = run_cli("convert", sample, "-o", tmp_path / "out")
    lines = done.stderr.splitlines()
    assert lines == [
        f"{sample}: 6 functions, 5 converted, 1 left as Python",
        f"  {sample}: 1 generator or coroutine left as Python, as they stay by design "
        "(listed with -v and in --report)",
        "autoconv: 1 file, 6 functions: 5 converted, 1 left as Python (1 generator or coroutine)",
    ]
    done = run_cli("convert", sample, "--output", tmp_path / "out2", "-v")
    lines = done.stderr.splitlines()
    line = line_of(sample, "def count_up")
    assert lines[0] == f"{sample}: 6 functions, 5 converted, 1 left as Python"
    assert lines[1].startswith(
        f"  {sample}:{line}: count_up: left as Python: generators stay Python"
    )
    assert len(lines) == 3
    assert (tmp_path / "out2" / "sample.py").exists()  # --output is -o


def test_a_function_left_for_a_reason_is_listed_without_verbose(tmp_path):
    src = write(
        tmp_path / "mixed.py",
        """
        import sys

        def gen():
            yield 1

        async def coro():
            return 2

        def caller():
            return sys._getframe()
        """,
    )
    done = run_cli("convert", src, "--out", tmp_path / "out")
    assert done.stderr.splitlines() == [
        f"{src}: 3 functions, 0 converted, 3 left as Python",
        f"  {src}:9: caller: left as Python: it looks at the frames that called it, and "
        "conversion puts frames of its own between them",
        f"  {src}: 2 generators or coroutines left as Python, as they stay by design "
        "(listed with -v and in --report)",
        "autoconv: 1 file, 3 functions: 0 converted, 3 left as Python (2 generators or coroutines)",
    ]
    assert (tmp_path / "out" / "mixed.py").exists()  # --out still works


def test_quiet_prints_only_the_totals(sample, tmp_path):
    done = run_cli("convert", sample, "-o", tmp_path / "out", "--quiet")
    assert done.returncode == 0
    assert done.stderr.splitlines() == [
        "autoconv: 1 file, 6 functions: 5 converted, 1 left as Python (1 generator or coroutine)"
    ]


def test_stdout_prints_the_converted_module_and_writes_nothing(sample, tmp_path):
    before = sorted(os.listdir(tmp_path))
    done = run_cli("convert", sample, "--stdout", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(sample.read_text())  # the original text, unchanged
    assert "def collatz(n):" in done.stdout and "__ac__.while_stmt(" in done.stdout
    compile(done.stdout, "sample.py", "exec")
    assert sorted(os.listdir(tmp_path)) == before


def test_stdout_with_several_files_names_each(sample, tmp_path):
    other = write(tmp_path / "src" / "other.py", "def f(x):\n    return -x if x < 0 else x\n")
    done = run_cli("convert", sample, other, "--stdout")
    assert done.returncode == 0, done.stderr
    headers = [line for line in done.stdout.splitlines() if line.startswith("# autoconv: ")]
    assert headers == [f"# autoconv: {sample}", f"# autoconv: {other}"]


def test_report_is_json_with_every_file_and_function_left(sample, tmp_path):
    report = tmp_path / "report.json"
    bad = write(tmp_path / "src" / "bad.py", "def f(:\n    pass\n")
    done = run_cli("convert", sample, bad, "-o", tmp_path / "out", "--report", report)
    assert done.returncode == 1
    document = json.loads(report.read_text())
    first, second = document["files"]
    assert first == {
        "path": str(sample),
        "output": str(tmp_path / "out" / "sample.py"),
        "functions": 6,
        "converted": 5,
        "left": [
            {
                "name": "count_up",
                "line": line_of(sample, "def count_up"),
                "reason": first["left"][0]["reason"],
                "generator_or_coroutine": True,
            }
        ],
        "error": None,
    }
    assert first["left"][0]["reason"].startswith("generators stay Python")
    assert second["path"] == str(bad) and second["functions"] == 0 and second["left"] == []
    assert second["error"]["line"] == 1 and "syntax" in second["error"]["message"]
    assert document["totals"]["files"] == 2 and document["totals"]["failed"] == 1


def test_a_function_that_cannot_be_converted_is_reported_with_its_reason(tmp_path):
    src = write(
        tmp_path / "frames.py",
        """
        def caller_locals():
            x = 1
            return locals()


        def plain(x):
            return x if x else 0
    """,
    )
    report = tmp_path / "r.json"
    done = run_cli("convert", src, "-o", tmp_path / "out", "--report", report)
    assert done.returncode == 0, done.stderr
    [entry] = json.loads(report.read_text())["files"]
    assert entry["functions"] == 2 and entry["converted"] == 1
    [left] = entry["left"]
    assert left["name"] == "caller_locals" and left["line"] == 1 and left["reason"]
    assert not left["generator_or_coroutine"]
    assert f"{src}:1: caller_locals: left as Python: " in done.stderr


def test_a_package_keeps_its_layout_and_its_other_files(package, tmp_path):
    out = tmp_path / "out"
    done = run_cli("convert", package, "-o", out)
    assert done.returncode == 0, done.stderr
    found = sorted(
        os.path.relpath(os.path.join(d, f), out) for d, _, files in os.walk(out) for f in files
    )
    assert found == [
        "pkg/__init__.py",
        "pkg/core.py",
        "pkg/data/table.csv",
        "pkg/sub/__init__.py",
        "pkg/sub/helpers.py",
    ]
    assert (out / "pkg" / "data" / "table.csv").read_text() == "a,b\n1,2\n"
    assert "__ac__.if_stmt(" in (out / "pkg" / "core.py").read_text()
    check = run_python(
        "import pkg; print(pkg.__file__.startswith(OUT), pkg.clip(-3, 0, 5), pkg.total([4, 20]))".replace(
            "OUT", repr(str(out))
        ),
        path=[out],
    )
    assert check.stdout.split() == ["True", "0", "14"], check.stderr
    assert "autoconv: 4 files, 2 functions: 2 converted, 0 left as Python" in done.stderr
    assert "1 other file copied" in done.stderr


def test_exclude_skips_matching_files_and_folders(package, tmp_path):
    out = tmp_path / "out"
    done = run_cli("convert", package, "-o", out, "--exclude", "sub", "--exclude", "data/*.csv")
    assert done.returncode == 0, done.stderr
    assert sorted(os.listdir(out / "pkg")) == ["__init__.py", "core.py"]


def test_parallel_jobs_write_the_same_files(package, sample, tmp_path):
    serial = run_cli(
        "convert", package, sample, "-o", tmp_path / "one", "--report", tmp_path / "one.json"
    )
    parallel = run_cli(
        "convert",
        package,
        sample,
        "-o",
        tmp_path / "two",
        "--jobs",
        "2",
        "--report",
        tmp_path / "two.json",
    )
    assert serial.returncode == parallel.returncode == 0, parallel.stderr
    for name in ("pkg/core.py", "pkg/sub/helpers.py", "sample.py"):
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "two" / name).read_text()
    one = json.loads((tmp_path / "one.json").read_text())
    two = json.loads((tmp_path / "two.json").read_text())
    strip = [{k: v for k, v in f.items() if k != "output"} for f in one["files"]]
    assert strip == [{k: v for k, v in f.items() if k != "output"} for f in two["files"]]
    assert serial.stderr.splitlines()[1:] == parallel.stderr.splitlines()[1:]


def test_python_dash_m_and_the_console_script_are_the_same_command(sample, tmp_path):
    import subprocess
    import sys

    script = os.path.join(os.path.dirname(sys.executable), "autoconv")
    one = subprocess.run(
        [script, "convert", str(sample), "--stdout"], capture_output=True, text=True, timeout=60
    )
    two = run_cli("convert", sample, "--stdout")
    assert one.returncode == two.returncode == 0
    assert one.stdout == two.stdout


def test_a_converted_module_imports_cleanly_before_numpy_and_autoconv(tmp_path):
    """NumPy and the graph backend import `textwrap`: a converted copy first on the path must
    not make an import cycle through `autoconv.runtime`."""
    import textwrap as original

    out = tmp_path / "out"
    assert run_cli("convert", original.__file__, "-o", out).returncode == 0
    check = run_python(
        """
        import textwrap
        import numpy, autoconv, autoconv.runtime
        import autoconv.conversion.api
        assert textwrap.__file__.startswith(OUT), textwrap.__file__
        print(textwrap.fill("a b c d e f", width=5).split("\\n"))
        print(autoconv.convert(lambda n: n * 2 if n > 0 else 0)(3))
        """.replace("OUT", repr(str(out))),
        path=[out],
    )
    assert check.returncode == 0, check.stderr
    assert check.stdout.splitlines() == ["['a b c', 'd e f']", "6"]
