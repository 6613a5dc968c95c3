"""Outside traces a converted function runs the user's original statements (issue 14).

What `autoconv.convert` returns and what the CLI writes behave, on Python values, as the
original does down to its frames: the same recursion depth, the same `sys._getframe` /
`inspect.stack` / `traceback` / `warnings.warn(stacklevel=...)` view, the same line numbers.
While a trace is being built (ours or JAX's), or in the always-converted mode, the functional
form runs instead.
"""

import dis
import inspect
import os
import pathlib
import re
import subprocess
import sys
import textwrap
import threading
import traceback
import warnings

import numpy as np
import pytest

import autoconv
from autoconv.runtime import forms

FRAMES = """
import inspect
import sys
import traceback
import warnings


def who_called():
    return sys._getframe(1).f_code.co_name


def stack_depth():
    return len(inspect.stack(0))


def extracted():
    return len(traceback.extract_stack())


def own_line():
    return sys._getframe().f_lineno


def warn_caller(flag):
    if flag:
        warnings.warn("from the caller", UserWarning, stacklevel=2)
    return flag


def failing(x):
    if x > 0:
        raise ValueError("positive")
    return x


def depth(n):
    if n == 0:
        return 0
    return depth(n - 1) + 1


def same(f):
    return f


@same
@same
def decorated(x):
    if x:
        return 1
    return 2
"""


def _caller_of(fn):
    return fn()


@pytest.fixture
def frames(user_module):
    return user_module(FRAMES)


@pytest.mark.parametrize("name", ["who_called", "stack_depth", "extracted", "own_line"])
def test_frame_readers_see_the_originals_frames(frames, name):
    original = getattr(frames, name)
    converted = autoconv.convert(original)
    assert converted is not original  # converted, and still the same frames
    assert _caller_of(converted) == _caller_of(original)


def test_warning_stacklevel_points_at_the_same_caller(frames):
    converted = autoconv.convert(frames.warn_caller)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frames.warn_caller(True)
        converted(True)
    assert [(w.filename, w.lineno) for w in caught][0][0] == __file__
    assert caught[0].filename == caught[1].filename
    assert caught[1].lineno == caught[0].lineno + 1


def test_tracebacks_have_the_originals_frames(frames):
    converted = autoconv.convert(frames.failing)
    summaries = []
    for fn in (frames.failing, converted):
        with pytest.raises(ValueError) as info:
            fn(1)
        summaries.append(
            [(f.filename, f.name, f.lineno, f.line) for f in traceback.extract_tb(info.tb)[1:]]
        )
    assert summaries[0] == summaries[1]
    assert len(summaries[0]) == 1  # the user's frame only: no runtime or body-closure frames


def test_line_numbers_and_first_line_are_the_originals(frames):
    for name in ("failing", "depth", "warn_caller", "decorated"):
        original = getattr(frames, name)
        converted = autoconv.convert(original)
        code, new = original.__code__, converted.__code__
        assert (new.co_filename, new.co_firstlineno, new.co_name) == (
            code.co_filename,
            code.co_firstlineno,
            code.co_name,
        )
        assert {line for _, line in dis.findlinestarts(new)} == {
            line for _, line in dis.findlinestarts(code)
        }


def _max_depth(fn) -> int:
    lo, hi = 0, 2 * sys.getrecursionlimit()
    while hi - lo > 1:
        mid = (lo + hi) // 2
        try:
            fn(mid)
            lo = mid
        except RecursionError:
            hi = mid
    return lo


DEPTH_SCRIPT = """
import sys
import autoconv


def plain(n):
    if n == 0:
        return 0
    return plain(n - 1) + 1


@autoconv.convert
def decorated(n):
    if n == 0:
        return 0
    return decorated(n - 1) + 1


def max_depth(fn):
    lo, hi = 0, 2 * sys.getrecursionlimit()
    while hi - lo > 1:
        mid = (lo + hi) // 2
        try:
            fn(mid)
            lo = mid
        except RecursionError:
            hi = mid
    return lo


if sys.argv[1:] == ["jax"]:
    import jax  # from now on the guard asks JAX whether it is tracing
print(max_depth(plain), max_depth(decorated))
"""


def test_recursion_depth_is_the_originals(tmp_path):
    """`@autoconv.convert` on a recursive function: each level is one frame, as before. In a
    process that imported JAX the guard asks JAX, which takes a few frames at the deepest
    level (in a fresh process, as a user's script starts, none)."""
    path = tmp_path / "depth.py"
    path.write_text(DEPTH_SCRIPT)
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=60)
    plain, decorated = map(int, done.stdout.split())
    assert decorated == plain > 500, done.stderr
    try:
        import jax  # noqa: F401
    except ImportError:
        return
    done = subprocess.run(
        [sys.executable, str(path), "jax"], capture_output=True, text=True, timeout=120
    )
    plain, decorated = map(int, done.stdout.split())
    assert plain - 3 <= decorated <= plain, done.stderr


def test_the_functional_form_runs_while_tracing_and_in_always_converted_mode(frames):
    """Which form runs, seen from the frames: the functional form's `if` adds frames."""
    converted = autoconv.convert(frames.warn_caller)
    seen = []

    @autoconv.do_not_convert
    def spy():
        seen.append(len(inspect.stack(0)))

    def probe(flag):
        spy()
        return flag

    probed = autoconv.convert(probe)
    probed(True)
    outside = seen[-1]
    autoconv.set_always_converted(True)
    try:
        with pytest.warns(autoconv.ConversionWarning, match="frames that called it"):
            assert converted(False) is False  # it counts frames: no functional form
        probed(True)  # the first call makes the functional form
        probed(True)
    finally:
        autoconv.set_always_converted(False)
    assert seen[-1] == outside + 1  # the guard's frame, then the functional form's
    autoconv.function(probe)(np.float32(1))
    assert seen[-1] > outside  # inside a trace


def test_a_trace_in_another_thread_makes_this_thread_take_the_functional_form(user_module):
    """Slower, never different: the question is process-wide."""
    module = user_module("""
        import inspect
        import autoconv

        @autoconv.do_not_convert
        def frames():
            return len(inspect.stack(0))

        def branchy(x):
            if x > 0:
                return frames(), x
            return frames(), -x
    """)
    converted = autoconv.convert(module.branchy)
    entered, release = threading.Event(), threading.Event()

    def pause():
        entered.set()
        release.wait(20)

    def traced(x):
        pause()
        return x + 1

    worker = threading.Thread(target=autoconv.function(traced), args=(np.ones(2),))
    worker.start()
    try:
        assert entered.wait(20)
        during = converted(3)
    finally:
        release.set()
        worker.join()
    after = converted(3)
    assert during[1] == after[1] == module.branchy(3)[1] == 3
    assert during[0] > after[0] == module.branchy(3)[0]


def test_the_environment_variable_sets_the_always_converted_mode(tmp_path):
    script = textwrap.dedent("""
        import autoconv

        def f(x):
            if x:
                return 1
            return 2

        print(autoconv.always_converted(), autoconv.convert(f)(0))
    """)
    for value, expected in (("1", "True 2"), ("", "False 2")):
        env = dict(os.environ, AUTOCONV_ALWAYS_CONVERTED=value)
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60
        )
        assert done.stdout.strip() == expected, done.stderr


def test_warnings_come_at_the_first_trace_and_in_strict_mode_at_conversion(
    user_module, strict_mode
):
    module = user_module("""
        def f(v):
            match v:
                case [1]:
                    return 1.0
            return 2.0
    """)
    with warnings.catch_warnings():
        warnings.simplefilter("error", autoconv.ConversionWarning)
        converted = autoconv.convert(module.f)
        assert converted([1]) == 1.0  # outside traces: no conversion, no warning
    with pytest.warns(autoconv.ConversionWarning, match="the match at"):
        autoconv.function(converted)(2)
    strict_mode(True)
    with pytest.raises(autoconv.ConversionError, match="the match at"):
        autoconv.convert(module.f)


CLI_MODULE = '''\
"""A module whose code reads its own line numbers (as pyparsing does)."""
import sys  # a comment that stays


def line_here():
    # the next line's number is what the caller sees
    return sys._getframe().f_lineno


def clip(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def total(xs):
    s = 0.0
    for x in xs:
        s += clip(x, -1.0, 1.0)
    return s


class Counter:
    def __init__(self):
        self.n = 0

    def bump(self, k):
        while k > 0:
            self.n += 1
            k -= 1
        return self.n
'''


def _convert_with_cli(tmp_path, name="linecount", text=CLI_MODULE):
    """`autoconv convert` of a module `name` holding `text`; the converted file's path."""
    source = tmp_path / "src" / f"{name}.py"
    source.parent.mkdir()
    source.write_text(text)
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "autoconv", "convert", str(source), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return out / f"{name}.py"


def test_cli_files_keep_every_line_and_comment(tmp_path):
    converted = _convert_with_cli(tmp_path).read_text()
    assert converted.startswith(CLI_MODULE)  # the original, unchanged, then the forms
    forms = converted[len(CLI_MODULE) :]
    assert "class __autoconv__:" in forms
    for name in ("def clip(x, lo, hi):", "def total(xs):", "class Counter:", "def bump(self, k):"):
        assert name in forms  # each functional form under its function's name
    assert "__ac__.while_stmt(" in forms and "__ac__.converted(clip)" in forms


def _run(tmp_path, folder, code, always=False):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(folder), *sys.path]))
    env["AUTOCONV_ALWAYS_CONVERTED"] = "1" if always else ""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_cli_modules_run_the_original_outside_traces_and_forms_inside(tmp_path):
    path = _convert_with_cli(tmp_path)
    code = textwrap.dedent("""
        import numpy as np
        import autoconv
        import linecount as m
        assert m.__file__.endswith("out/linecount.py"), m.__file__
        print(m.line_here(), m.total([0.5, 3.0, -4.0]), m.Counter().bump(3))
        print(m.total.__code__.co_qualname, m.Counter.bump.__code__.co_qualname)
        f = autoconv.function(m.total)
        print(f(np.array([0.5, 3.0, -4.0])), f(np.array([2.0])))
        g = autoconv.function(m.clip)
        print(g(np.float64(5.0), -1.0, 1.0), g(np.float64(0.25), -1.0, 1.0))
    """)
    default = _run(tmp_path, path.parent, code).splitlines()
    assert default[0] == "7 0.5 3"  # line 7, as in the original file
    assert default[1] == "total Counter.bump"  # the original functions
    assert default[2:] == ["0.5 1.0", "1.0 0.25"]
    always = _run(tmp_path, path.parent, code, always=True).splitlines()
    assert always[0] == default[0]
    assert always[1] == "__autoconv__.total __autoconv__.Counter.bump"  # the forms run
    assert always[2:] == default[2:]


def test_cli_forms_are_registered_by_file_line_and_name(tmp_path):
    path = _convert_with_cli(tmp_path, "registered")
    sys.path.insert(0, str(path.parent))
    try:
        import registered
    finally:
        sys.path.remove(str(path.parent))
    keys = {key for key in forms.forms if key[0] == registered.__file__}
    assert keys == {
        (registered.__file__, 10, "clip"),
        (registered.__file__, 18, "total"),
        (registered.__file__, 29, "bump"),
    }
    sys.modules.pop("registered")


def test_jax_is_noticed_when_imported_after_conversion(tmp_path):
    """`jax.jit(convert(f))` with JAX imported only after `convert`: the guard still asks."""
    pytest.importorskip("jax")
    script = textwrap.dedent("""
        import autoconv
        import autoconv.runtime as ac

        def f(x):
            if x > 0:
                return x * 2
            return -x

        cf = autoconv.convert(f)
        before = ac.may_trace
        import jax
        import jax.numpy as jnp
        print(before, ac.may_trace, float(jax.jit(cf)(jnp.float32(3))), cf(-2))
    """)
    path = tmp_path / "late_jax.py"
    path.write_text(script)
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "False True 6.0 2", done.stderr


def test_the_example_in_conversion_md_runs(tmp_path):
    text = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "conversion.md").read_text(
        encoding="utf-8"
    )
    section = text.split("## Which form runs when", 1)[1].split("\n## ", 1)[0]
    [example] = re.findall(r"```python\n(.*?)```", section, re.S)
    path = tmp_path / "which_form.py"
    path.write_text(example)
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no warning the page does not show


@pytest.mark.parametrize("always", [False, True], ids=["default", "always converted"])
def test_jax_transformations_run_the_functional_form_in_both_modes(user_module, always):
    """`jax.jit` / `jax.grad` / `jax.vmap` of `convert(f)`: JAX's tracing is a trace, so the
    guard picks the functional form whichever mode is on; outside JAX the original runs."""
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    module = user_module("""
        def f(x):
            if x > 0:
                y = x * x
            else:
                y = -x
            return y
    """)
    converted = autoconv.convert(module.f)
    autoconv.set_always_converted(always)
    try:
        assert float(jax.jit(converted)(jnp.float32(3.0))) == 9.0
        assert float(jax.jit(converted)(jnp.float32(-2.0))) == 2.0
        assert float(jax.grad(converted)(jnp.float32(3.0))) == 6.0
        assert jax.vmap(converted)(jnp.array([2.0, -1.0])).tolist() == [4.0, 1.0]
        assert converted(3.0) == module.f(3.0) == 9.0
    finally:
        autoconv.set_always_converted(False)


def test_cli_forms_of_private_and_implicit_class_methods_register(tmp_path):
    """`__next` is stored mangled in its class; `__init_subclass__` and `__class_getitem__` are
    class methods and `__new__` a static method without a decorator."""
    path = _convert_with_cli(
        tmp_path,
        "special",
        textwrap.dedent("""
            class Tokens:
                def __init__(self, items):
                    self.items = list(items)

                def __next(self):
                    if self.items:
                        return self.items.pop(0)
                    return None

                def take(self, n):
                    out = []
                    while n > 0:
                        out.append(self.__next())
                        n -= 1
                    return out

                def __init_subclass__(cls, **kwargs):
                    if kwargs:
                        raise TypeError("no options")
                    super().__init_subclass__()

                def __class_getitem__(cls, item):
                    return cls if item else None

                def __new__(cls, *args):
                    if args:
                        return super().__new__(cls)
                    return None
        """),
    )
    out = path.parent
    code = textwrap.dedent("""
        import special
        t = special.Tokens([1, 2, 3])
        print(t.take(2), special.Tokens[1] is special.Tokens, special.Tokens())
        class Sub(special.Tokens):
            pass
        print(Sub([4]).take(2))
    """)
    for always in (False, True):
        assert _run(tmp_path, out, code, always=always).splitlines() == [
            "[1, 2] True None",
            "[4, None]",
        ]


def test_cli_module_with_a_class_and_a_function_of_one_name_imports(tmp_path):
    """networkx defines `class _dispatchable` and later `def _dispatchable`: one name, two
    definitions; the first gets a form, the other is converted from its source if traced."""
    path = _convert_with_cli(
        tmp_path,
        "twice",
        textwrap.dedent("""
            class thing:
                def __new__(cls, x):
                    if x:
                        return object.__new__(cls)
                    return None


            def thing(x):
                if x:
                    return 1
                return 2
        """),
    )
    out = path.parent
    assert "'thing':" not in path.read_text()
    code = "import twice; print(twice.thing(0), twice.thing(5))"
    for always in (False, True):
        assert _run(tmp_path, out, code, always=always).split() == ["2", "1"]


def test_a_form_that_cannot_be_found_never_fails_the_import():
    class Space:
        def f(x):
            return x

    forms.register_forms(Space, {"f": 1, "missing": 2, "f.deeper": 3})
    code = Space.__dict__["f"].__code__
    assert forms.forms.pop((code.co_filename, 1, "f")) is code
    assert not any(key[2] == "missing" for key in forms.forms)


def test_cli_forms_leave_docstrings_to_the_originals(tmp_path):
    """A form's docstring would be collected as a second copy of the function's doctests."""
    path = _convert_with_cli(
        tmp_path,
        "documented",
        'def f(x):\n    """Doubles positives.\n\n    >>> f(2)\n    4\n    """\n'
        "    if x > 0:\n        return 2 * x\n    return x\n",
    )
    text = path.read_text()
    assert text.count("Doubles positives") == 1
    assert "def f(x):" in text.split("class __autoconv__:")[1]
