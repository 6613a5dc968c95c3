"""Limits that come from the user's code: long `elif` chains convert (by `to_code`, `convert` and
the CLI) to code that compiles and behaves the same, and code nested too deeply to convert stays
Python with a warning that names the function and the line."""

import ast
import subprocess
import sys
import warnings

import pytest

import autoconv
from autoconv import ConversionError, ConversionWarning
from autoconv.conversion.api import functional


def _chain(branches: int) -> str:
    lines = ["def classify(x):"]
    for i in range(branches):
        lines.append(f"    {'if' if i == 0 else 'elif'} x == {i}:")
        lines.append(f"        y = {i} * 10")
    lines += ["    else:", "        y = -1", "    return y", ""]
    return "\n".join(lines)


def _indentation(text: str) -> int:
    """The deepest indentation level of `text` (four spaces a level, as `to_code` prints)."""
    return max((len(line) - len(line.lstrip(" "))) // 4 for line in text.splitlines() if line)


BRANCHES = [99, 150, 300, 1000]


@pytest.mark.parametrize("branches", BRANCHES)
def test_long_elif_chain_converts_flat(user_module, branches, always_converted):
    module = user_module(_chain(branches))
    text = autoconv.to_code(module.classify)
    compile(text, "<to_code>", "exec")
    assert _indentation(text) <= 2  # one flat chain, however long
    assert text.count("ac.if_stmt(") == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        converted = autoconv.convert(module.classify)
    assert converted is not module.classify
    for x in (0, 1, branches // 2, branches - 1, branches, -5):
        assert converted(x) == module.classify(x)


@pytest.mark.parametrize("branches", BRANCHES)
def test_cli_output_of_long_elif_chain_compiles(tmp_path, branches):
    source = tmp_path / "chain.py"
    source.write_text(_chain(branches))
    done = subprocess.run(
        [sys.executable, "-m", "autoconv", "convert", str(source), "--stdout"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    compile(done.stdout, "chain.py", "exec")
    assert "(lambda: x == 1," in done.stdout
    assert "1 converted, 0 left as Python" in done.stderr


def test_elif_chain_runs_tests_in_order_and_stops_at_the_first_true(user_module):
    module = user_module(
        """
        def pick(x, log):
            if log.append("a") or x == 1:
                return "one"
            elif log.append("b") or x == 2:
                return "two"
            elif log.append("c") or x == 3:
                pass
            else:
                log.append("else")
            return "none"
        """
    )
    converted = autoconv.convert(module.pick)
    for x in (1, 2, 3, 4):
        expected_log, got_log = [], []
        assert converted(x, got_log) == module.pick(x, expected_log)
        assert got_log == expected_log


def test_unbound_local_in_elif_test_and_body(user_module):
    module = user_module(
        """
        def f(x):
            if x == 0:
                z = 1
            elif z > 1:
                pass
            elif x == 2:
                return w
            w = 1
            return z
        """
    )
    converted = autoconv.convert(module.f)
    for x in (1, 2):
        with pytest.raises(UnboundLocalError) as expected:
            module.f(x)
        with pytest.raises(UnboundLocalError) as got:
            converted(x)
        assert str(got.value) == str(expected.value)


def _deep(pairs: int, ifs: int) -> str:
    """A function whose converted form nests deeper than its source: each `with` reading a
    local that may be unbound gets a guard `with` of its own inside converted control flow."""
    lines = [
        "class Manager:",
        "    def __enter__(self):",
        "        return self",
        "    def __exit__(self, *exc):",
        "        return False",
        "",
        "def deep(a):",
    ]
    level = 1
    for _ in range(pairs):
        lines += ["    " * level + "if a:", "    " * (level + 1) + "with Manager():"]
        level += 2
    for _ in range(ifs):
        lines.append("    " * level + "if a:")
        level += 1
    lines += ["    " * level + "print(c)", "    c = 1", "    return c", ""]
    return "\n".join(lines)


def test_code_too_deep_once_converted_stays_python_with_a_warning(user_module, strict_mode):
    module = user_module(_deep(19, 55))
    compile(ast.parse(_deep(19, 55)), "deep", "exec")  # the original compiles
    converted = autoconv.convert(module.deep)  # the original's statements run outside traces
    with pytest.warns(ConversionWarning) as caught:  # the functional form is made at first trace
        assert functional(converted) is module.deep
    message = str(caught[0].message)
    assert "deep (" in message and f"{module.__file__}:" in message
    assert "99 levels of indentation" in message
    with pytest.raises(ConversionError, match="99 levels of indentation"):
        autoconv.to_code(module.deep)
    strict_mode(True)
    with pytest.raises(ConversionError, match=r"deep \(.*:7\) stays Python"):
        autoconv.convert(module.deep)


def test_code_just_within_the_limit_converts(user_module):
    module = user_module(_deep(5, 55))
    text = autoconv.to_code(module.deep)
    compile(text, "<to_code>", "exec")
    assert autoconv.convert(module.deep) is not module.deep


def test_cli_leaves_code_too_deep_as_python_and_says_so(tmp_path):
    source = tmp_path / "deep.py"
    source.write_text(_deep(19, 55))
    done = subprocess.run(
        [sys.executable, "-m", "autoconv", "convert", str(source), "--stdout"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    compile(done.stdout, "deep.py", "exec")
    assert "deep.py:7: deep: left as Python" in done.stderr
    assert "99 levels of indentation" in done.stderr


def test_elif_chain_does_not_call_a_replaced_builtin_len(user_module, monkeypatch):
    """Code under test may replace `builtins.len` (CPython's functools tests cache it with a
    converted `lru_cache`): the runtime's own loop over the branches must not call it."""
    import builtins

    module = user_module(_chain(3))
    converted = autoconv.convert(module.classify)
    calls = []
    real_len = builtins.len

    def counting_len(obj):
        calls.append(obj)
        return real_len(obj)

    monkeypatch.setattr(builtins, "len", counting_len)
    assert [converted(x) for x in (0, 2, 5)] == [0, 20, -1]
    monkeypatch.undo()
    assert calls == []
