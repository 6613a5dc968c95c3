"""A source file edited after its module was imported: `convert` reads the file again, so it
compares the definition it finds with the code that runs (name, first line, parameters, local
names, constants, lines). On a mismatch the function stays Python (the code that runs) with a
`ConversionWarning`, or a `ConversionError` in strict mode and from `to_code`."""

import linecache
import pathlib
import textwrap
import warnings

import pytest

import autoconv
from autoconv import ConversionError, ConversionWarning

ORIGINAL = """
    import math


    def scale(x, factor=2):
        if x > 0:
            return x * factor + 1
        return -x


    class Meter:
        def read(self, x):
            total = 0
            for i in range(x):
                total += i
            return total
"""

EDITS = {
    "constant": ("return x * factor + 1", "return x * factor + 100"),
    "parameter_name": ("def scale(x, factor=2):", "def scale(y, factor=2):"),
    "parameter_count": ("def scale(x, factor=2):", "def scale(x, factor=2, bias=0):"),
    "lines": ("    return -x", "    x = -x\n    return x"),
    "local_name": ("        return x * factor + 1", "        y = x * factor\n        return y + 1"),
}


def _edit(module, old, new):
    path = pathlib.Path(module.__file__)
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    linecache.checkcache(str(path))


@pytest.mark.parametrize("edit", list(EDITS), ids=list(EDITS))
def test_edited_function_stays_python_with_a_warning(user_module, edit):
    module = user_module(ORIGINAL)
    _edit(module, *EDITS[edit])
    with pytest.warns(ConversionWarning, match="edited after it was imported") as caught:
        converted = autoconv.convert(module.scale)
    assert converted is module.scale  # the code that runs, not the file's new text
    assert converted(3) == 7 and converted(-3) == 3
    message = str(caught[0].message)
    assert f"scale ({module.__file__}:5)" in message


def test_strict_mode_and_to_code_raise(user_module, strict_mode):
    module = user_module(ORIGINAL)
    _edit(module, *EDITS["constant"])
    with pytest.raises(ConversionError, match=r"is not the code that runs \(constants\)"):
        autoconv.to_code(module.scale)
    strict_mode(True)
    with pytest.raises(ConversionError, match="edited after it was imported"):
        autoconv.convert(module.scale)


def test_edit_elsewhere_in_the_file_does_not_matter(user_module):
    module = user_module(ORIGINAL)
    _edit(module, "import math", "import math  # a comment")
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        converted = autoconv.convert(module.scale)
        method = autoconv.convert(module.Meter.read)
    assert converted is not module.scale
    assert converted(3) == 7
    assert method(module.Meter(), 4) == 6


def test_edited_method_stays_python(user_module):
    module = user_module(ORIGINAL)
    _edit(module, "total += i", "total += i * 2")
    with pytest.warns(ConversionWarning, match="edited after it was imported"):
        converted = autoconv.convert(module.Meter.read)
    assert converted is module.Meter.read
    assert converted(module.Meter(), 4) == 6


def test_unedited_functions_of_every_kind_convert(user_module):
    """No false alarms: private names mangled in a class, classes and lambdas nested in the
    function, `from __future__ import annotations`, decorators and defaults holding lambdas,
    and set constants (`x in {...}`, whose order a `.pyc` need not keep)."""
    module = user_module(
        textwrap.dedent(
            """
            from __future__ import annotations


            def deco(f):
                return f


            class Vault:
                def __init__(self):
                    self.__secret = 1

                @deco
                def peek(self, key=lambda v: v) -> int:
                    __local = self.__secret
                    for _ in range(2):
                        __local += 1

                    class Inner:
                        def get(self) -> Vault:
                            return 1

                    pick = lambda v: v in {"a", "b", "c"}  # noqa: E731
                    return key(__local) + Inner().get() + pick("a")
            """
        )
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        converted = autoconv.convert(module.Vault.peek)
    assert converted is not module.Vault.peek
    assert converted(module.Vault()) == module.Vault.peek(module.Vault())


def _checked(x):
    if x > 0:
        assert x < 100, "too big"
    return x


def test_function_whose_asserts_pytest_rewrote_converts():
    """pytest rewrites the asserts of test modules as it imports them, so such a function never
    matches its file: it is not taken for an edited one."""
    code = _checked.__code__
    assert any(n.startswith("@py") for n in code.co_varnames + code.co_names)  # rewritten
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        converted = autoconv.convert(_checked)
    assert converted is not _checked
    assert converted(5) == 5
