"""`run --input NAME=VALUE`: literals are read safely and become the arrays NumPy makes, a bad one
is one line that says what to write, and a literal runs the saved signature it matches."""

import numpy as np
import pytest

import autoconv
from autoconv.cli import literals
from autoconv.cli.files import UsageError
from tests.cli.helpers import run_cli

ADVICE = "give a number, a bool or a (nested) list of them, such as 3 or [1.0, 2.0], or x=FILE.npy"


def double(x):
    return x * 2


def scaled(x, mode, scale=2.0):
    if mode == "double":
        return x * scale
    return x


def spec(shape, dtype):
    return autoconv.TensorSpec(shape, dtype)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Saved graphs: `f64.acg` (float64[3]), `f32.acg` (float32[None]), `two.acg` (float64[3]
    then int64[3]), `u8.acg` (uint8[None]), `i32.acg` (int32[3]), `modes.acg` (float32[3] with
    mode 'double', uint8[None] with mode None), and .npy files."""
    folder = tmp_path_factory.mktemp("inputs")
    for name, signatures in {
        "f64": [(spec((3,), np.float64),)],
        "f32": [(spec((None,), np.float32),)],
        "two": [(spec((3,), np.float64),), (spec((3,), np.int64),)],
        "u8": [(spec((None,), np.uint8),)],
        "i32": [(spec((3,), np.int32),)],
        "c64": [(spec((2,), np.complex64),)],
    }.items():
        autoconv.function(double).save(folder / f"{name}.acg", signatures=signatures)
    autoconv.function(scaled).save(
        folder / "modes.acg",
        signatures=[(spec((3,), np.float32), "double"), (spec((None,), np.uint8), None)],
    )
    np.save(folder / "ints.npy", np.arange(3))
    np.save(folder / "floats.npy", np.arange(3.0))
    np.save(folder / "objects.npy", np.array([1, "a", None], dtype=object), allow_pickle=True)
    np.savez(folder / "zipped.npz", a=np.ones(3))
    (folder / "zipped.npz").rename(folder / "zipped.npy")
    (folder / "text.npy").write_text("1, 2, 3\n")
    (folder / "data.csv").write_text("1, 2, 3\n")
    return folder


def run(files, saved, *inputs):
    args = ["run", f"{saved}.acg"]
    for text in inputs:
        args += ["--input", text]
    return run_cli(*args, cwd=files)


# --- 3. literals ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, said",
    [
        ("x=[1, None, 3]", "`x[1]` is None, not a number"),
        ("x=None", "`x` is None, not a number"),
        ("x='abc'", "`x` is a string 'abc', not a number"),
        ("x=b'abc'", "`x` is bytes b'abc', not a number"),
        ("x={'a': 1}", "`x` is a dict {'a': 1}, not a number"),
        ("x={1, 2, 3}", "`x` is a set {1, 2, 3}, not a number"),
        ("x=[[1, 2], [3]]", "`x` is ragged: x[0] has shape (2,) and x[1] has shape (1,)"),
        ("x=[1, [2], 3]", "`x` is ragged: x[0] has shape () and x[1] has shape (1,)"),
        ("x=[1, 2, 2**70]", "not a Python literal or an .npy file"),
        ("x=[1, 2, 1180591620717411303424]", "`x[2]` = 1180591620717411303424 does not fit in"),
        ("x=__import__('os').system('true')", "not a Python literal or an .npy file"),
        ("x=[1, 2", "not a Python literal or an .npy file"),
        ("x=" + "[" * 40 + "1" + "]" * 40, "nested 40 levels deep, over the limit of 32"),
    ],
)
def test_a_literal_that_is_not_an_array_is_one_line_saying_what_to_write(files, text, said):
    done = run(files, "f64", text)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    shown = repr(text) if len(text) <= 82 else None
    assert lines[0].startswith(f"autoconv run: error: --input {shown or ''}".rstrip())
    assert said in lines[0]
    assert lines[0].endswith(ADVICE) or "numpy.save" in lines[0]


def test_a_file_that_is_not_npy_is_named(files):
    done = run(files, "f64", "x=data.csv")
    assert done.returncode == 2
    assert done.stderr == (
        "autoconv run: error: --input 'x=data.csv': data.csv is a file, and only .npy files "
        "are read; save the array with numpy.save and give x=FILE.npy\n"
    )


@pytest.mark.parametrize(
    "value, said",
    [
        ("objects.npy", "arrays of dtype object are not allowed"),
        ("zipped.npy", "not a valid .npy array"),
        ("text.npy", "not a valid .npy array"),
        ("missing.npy", "missing.npy: no such file"),
    ],
)
def test_a_bad_npy_file_is_one_line(files, value, said):
    done = run(files, "f64", f"x={value}")
    assert done.returncode == 1
    assert done.stderr.startswith(f"autoconv run: error: --input 'x={value}': ")
    assert said in done.stderr and len(done.stderr.splitlines()) == 1


def test_an_input_given_twice_or_missing_is_a_usage_error(files):
    twice = run(files, "f64", "x=[1, 2, 3]", "x=[4, 5, 6]")
    assert twice.returncode == 2 and "x is given twice" in twice.stderr
    missing = run(files, "modes", "x=[1, 2, 3]")
    assert missing.returncode == 2
    assert "scaled(): missing a required argument: 'mode'" in missing.stderr


def test_limits_are_checked_before_parsing():
    huge = literals.Input("x", "[" + "1, " * (literals.MAX_CHARS // 3 + 1) + "1]")
    with pytest.raises(UsageError, match="characters long, over the limit of 1048576"):
        literals.parse(huge)
    # Deep nesting that ast.literal_eval cannot take is refused by the guard or the catch.
    for text in ["-" * 200_000 + "1", "(" * 1000 + ")" * 1000, "[" * 100 + "]" * 100]:
        with pytest.raises(UsageError, match="x=FILE.npy"):
            literals.parse(literals.Input("x", text))


def test_nesting_ignores_brackets_inside_strings():
    assert literals.nesting("[[1], [2]]") == 2
    assert literals.nesting("'[[[[' ") == 0
    assert literals.nesting('["a\\"((", """)]""", [1]]') == 2
    assert literals.nesting('("""a""", "[", [[1]])') == 3


def test_python_values_are_kept_for_a_parameter_traced_with_one(files):
    done = run(files, "modes", "x=[1, 2, 3]", "mode='double'")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "output = [2., 4., 6.]  # float32[3]\n"
    other = run(files, "modes", "x=[1, 2, 3, 4]", "mode=None")  # None is a Python value here
    assert other.returncode == 0, other.stderr
    assert other.stdout == "output = [1, 2, 3, 4]  # uint8[4]\n"


# --- 4. a literal picks the saved signature it matches --------------------------------------


@pytest.mark.parametrize(
    "saved, text, printed",
    [
        ("two", "x=[1, 2, 3]", "[2, 4, 6]  # int64[3]"),  # NumPy's int64: the int64 signature
        ("two", "x=[1.0, 2, 3]", "[2., 4., 6.]  # float64[3]"),
        ("f64", "x=[1, 2, 3]", "[2., 4., 6.]  # float64[3]"),  # int64 casts safely to float64
        ("f64", "x=[True, False, True]", "[2., 0., 2.]  # float64[3]"),
        ("f32", "x=[1, 2]", "[2., 4.]  # float32[2]"),  # values float32 holds exactly
        ("f32", "x=[0.5, 0.1]", "[1. , 0.2]  # float32[2]"),  # decimals round to float32
        ("u8", "x=[1, 255]", "[  2, 254]  # uint8[2]"),
        ("i32", "x=[1, 2, 3]", "[2, 4, 6]  # int32[3]"),
        ("c64", "x=[1, 2.5]", "[2.+0.j, 5.+0.j]  # complex64[2]"),
        ("c64", "x=[1j, 2]", "[0.+2.j, 4.+0.j]  # complex64[2]"),
        ("f64", "x=floats.npy", "[0., 2., 4.]  # float64[3]"),
    ],
)
def test_a_literal_runs_the_signature_it_fits(files, saved, text, printed):
    done = run(files, saved, text)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"output = {printed}\n"


@pytest.mark.parametrize(
    "saved, inputs, reason",
    [
        ("i32", ["x=[1.0, 2, 3]"], "got float64[3] values; whole numbers are written without"),
        ("f64", ["x=[1j, 2, 3]"], "got complex128[3] values; a complex number has no real"),
        ("f32", ["x=[16777217]"], "got int64[1] values that float32 cannot hold exactly"),
        ("f32", ["x=[1e39]"], "got float64[1] values out of float32's range"),
        ("u8", ["x=[1, -2]"], "got int64[2] values that uint8 cannot hold exactly"),
        ("u8", ["x=[256]"], "got int64[1] values that uint8 cannot hold exactly"),
        ("f64", ["x=[1, 2]"], "parameter `x` expects float64 Tensor, shape=(3,), got shape (2,)"),
        ("f64", ["x=ints.npy"], "got an array of int64[3] from the .npy file"),
        (
            "modes",
            ["x=[1, -2]", "mode=None"],  # the signature whose Python values match
            "parameter `x` expects uint8 Tensor, shape=(None,), got int64[2] values that uint8",
        ),
        (
            "modes",
            ["x=[1, 2, 3]", "mode='triple'"],
            "parameter `mode` was traced with the Python value 'double', got 'triple'",
        ),
    ],
)
def test_no_signature_fits_names_the_reason_and_lists_the_signatures(files, saved, inputs, reason):
    done = run(files, saved, *inputs)
    assert done.returncode == 1
    first, *listing = done.stderr.splitlines()
    assert first.startswith("autoconv run: error: ")
    assert reason in first
    assert first.endswith("A loaded function runs only its saved signatures:")
    assert listing and listing[1] == "  Args:" and "Traceback" not in done.stderr


def test_choosing_prefers_exact_then_safe_then_converted():
    key = ("A", np.dtype("float32"), (None,))
    value, rank = literals.fit([1, 2], key, "x")
    assert rank == literals.CONVERTED and value.dtype == np.float32
    value, rank = literals.fit([1, 2], ("A", np.dtype("float64"), (2,)), "x")
    assert rank == literals.SAFE and value.dtype == np.float64
    value, rank = literals.fit(3, ("S", np.dtype("int64")), "x")
    assert rank == literals.EXACT and type(value) is np.int64
    value, rank = literals.fit(([1, 2], 3), (tuple, (key, ("A", np.dtype("int32"), ()))), "p")
    assert type(value) is tuple and value[1].dtype == np.int32 and rank == literals.CONVERTED
    with pytest.raises(literals.Misfit, match="write True or False"):
        literals.fit([1, 0], ("A", np.dtype("bool"), (2,)), "x")
