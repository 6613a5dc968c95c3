"""The values of `autoconv run --input NAME=VALUE`: read safely, then fitted to a saved signature.

A VALUE ending in `.npy` is an array file, read by its header and bytes (never with pickle; see
`read_npy`). Any other VALUE is a Python literal, read with `ast.literal_eval` (never `eval`)
after two guards: at most `MAX_CHARS` characters and `MAX_DEPTH` levels of brackets.

`fit` takes a value to the key of one saved signature's parameter (`graph.signature`). Where the
parameter is an array, the literal must be a number, a bool, or a rectangular nested list or
tuple of them, and becomes the array `np.asarray` makes of it (`[1, 2]`: int64, `[1.0, 2]`:
float64). That array is then

- `EXACT` when it has the saved dtype,
- `SAFE` when NumPy casts its dtype to the saved one safely (`np.can_cast(..., "safe")`: int64
  to float64, bool to int32),
- `CONVERTED` when the cast keeps every value: integers that the saved integer or float dtype
  holds exactly (`[1, 2]` for float32 or uint8), or floats rounded to a narrower float (`0.1` for
  float32, as writing 0.1 means), none of them overflowing.

Anything else (a float for an integer parameter, a complex for a real one, `[1, None]`, a string,
a dict, a ragged list) does not fit, with a reason that names the parameter. `run` calls the
saved signature that every input fits best (see `run_cmd.choose`).
"""

import ast
import dataclasses
import os
import warnings

from autoconv.cli.files import UsageError

MAX_CHARS = 1 << 20
"""Longest literal read, in characters (1 MiB of text); a larger array belongs in an .npy file."""

MAX_DEPTH = 32
"""Deepest nesting of brackets in a literal."""

MAX_NPY_BYTES = 1 << 30
"""Largest .npy file read (the limit on a saved graph's arrays)."""

EXACT, SAFE, CONVERTED = 0, 1, 2

ARRAY_ADVICE = "give a number, a bool or a (nested) list of them, such as 3 or [1.0, 2.0]"


@dataclasses.dataclass
class Input:
    """One `--input NAME=VALUE`."""

    name: str
    text: str
    """The VALUE as given."""
    value: object = None
    """The literal's Python value, or the array read from the .npy file."""
    file: str | None = None
    """The .npy file's path, None for a literal."""

    @property
    def shown(self) -> str:
        """`NAME=VALUE` for messages, quoted, with a long VALUE cut."""
        text = self.text
        if len(text) > 80:
            text = f"{text[:60]}... ({len(text)} characters)"
        return repr(f"{self.name}={text}")


class Misfit(Exception):
    """A value does not fit a saved parameter. `literal`: because the literal cannot be an
    array at all (None, a string, a ragged list), whatever the signature."""

    def __init__(self, message: str, literal: bool = False):
        super().__init__(message)
        self.literal = literal


def parse(item: Input) -> object:
    """The Python value of a literal VALUE. Raises `UsageError` naming the input."""
    text = item.text.strip()
    advice = f"{ARRAY_ADVICE}, or {item.name}=FILE.npy"
    if len(text) > MAX_CHARS:
        raise UsageError(
            f"--input {item.shown}: the literal is {len(text)} characters long, over the limit "
            f"of {MAX_CHARS}; save the array with numpy.save and give {item.name}=FILE.npy"
        )
    depth = nesting(text)
    if depth > MAX_DEPTH:
        raise UsageError(
            f"--input {item.shown}: the literal is nested {depth} levels deep, over the limit "
            f"of {MAX_DEPTH}; save the array with numpy.save and give {item.name}=FILE.npy"
        )
    try:
        return ast.literal_eval(text)
    except (RecursionError, MemoryError):
        raise UsageError(
            f"--input {item.shown}: the literal is too complex to read; "
            f"save the array with numpy.save and give {item.name}=FILE.npy"
        ) from None
    except (ValueError, SyntaxError, TypeError):
        pass
    if text and os.path.exists(text):
        raise UsageError(
            f"--input {item.shown}: {text} is a file, and only .npy files are read; save the "
            f"array with numpy.save and give {item.name}=FILE.npy"
        )
    raise UsageError(f"--input {item.shown}: not a Python literal or an .npy file; {advice}")


def nesting(text: str) -> int:
    """The deepest nesting of `(`, `[` and `{` in `text`, outside string literals."""
    depth = deepest = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in ")]}":
            depth -= 1
        elif c in "'\"":
            quote = c * 3 if text.startswith(c * 3, i) else c
            i += len(quote)
            while i < n and not text.startswith(quote, i):
                i += 2 if text[i] == "\\" else 1
            i += len(quote)
            continue
        i += 1
    return deepest


def read_npy(item: Input) -> object:
    """The array in the .npy file `item.file`, read by its header and bytes, without pickle.
    Raises `TargetError` for a file that cannot be read or is not a plain .npy array."""
    from autoconv.cli.targets import TargetError
    from autoconv.functions.saving import archive
    from autoconv.functions.saving.errors import LoadError

    path = item.file
    try:
        f = archive.open_regular(path)
    except LoadError as e:
        raise TargetError(f"--input {item.shown}: {e}") from None
    with f:
        size = os.fstat(f.fileno()).st_size
        if size > MAX_NPY_BYTES:
            raise TargetError(
                f"--input {item.shown}: {path} is {size} bytes, over the limit of {MAX_NPY_BYTES}"
            )
        try:
            data = f.read(MAX_NPY_BYTES + 1)
        except OSError as e:
            raise TargetError(
                f"--input {item.shown}: cannot read {path}: {e.strerror or e}"
            ) from None
    try:
        return archive.read_npy(data, f"--input {item.shown}: {path}")
    except LoadError as e:
        raise TargetError(f"{e}; save an array of numbers with numpy.save") from None


# --- fitting a value to a saved parameter ---------------------------------------------------


def fit(value, key, path: str, from_file: bool = False) -> tuple:
    """`(value, rank)`: `value` made what the saved key `key` takes, and how (`EXACT`, `SAFE`,
    `CONVERTED`). `path` names the parameter (`x`, `x[0]`). Raises `Misfit`."""
    from autoconv.graph import signature as sig

    kind = key[0]
    if from_file:
        if sig.covers(key, sig.flatten(value, [])):
            return value, EXACT
        raise Misfit(
            f"parameter `{path}` expects {sig.describe(key)}, got an array of "
            f"{_spec(value)} from the .npy file (an array from a file is not cast)"
        )
    if kind in ("A", "S"):
        array = as_array(value, path)
        shape = key[2] if kind == "A" else ()
        if not sig.shape_covers(shape, array.shape):
            raise Misfit(f"parameter `{path}` expects {sig.describe(key)}, got shape {array.shape}")
        cast, rank = _cast(array, key, path)
        return (cast[()] if kind == "S" else cast), rank
    if kind == "P":
        if type(value) is key[1] and sig.python_key(value) == key:
            return value, EXACT
        raise Misfit(
            f"parameter `{path}` was traced with the Python value "
            f"{sig.python_value(key)!r}, got {_short(value)}"
        )
    if kind == "O":
        raise Misfit(
            f"parameter `{path}` was saved for an object, which the command line cannot give"
        )
    if kind == "D":
        names = [k for k, _ in key[1]]
        if type(value) is not dict or set(value) != set(names):
            raise Misfit(f"parameter `{path}` expects {sig.describe(key)}, got {_short(value)}")
        fitted = [(k, fit(value[k], sub, f"{path}[{k!r}]")) for k, sub in key[1]]
        return {k: v for k, (v, _) in fitted}, max((r for _, (_, r) in fitted), default=EXACT)
    items = key[1]
    if type(value) not in (list, tuple) or len(value) != len(items):
        raise Misfit(f"parameter `{path}` expects {sig.describe(key)}, got {_short(value)}")
    fitted = [fit(v, k, f"{path}[{i}]") for i, (v, k) in enumerate(zip(value, items))]
    values = [v for v, _ in fitted]
    made = kind(values) if kind in (list, tuple) else kind(*values)  # a namedtuple
    return made, max((r for _, r in fitted), default=EXACT)


def as_array(value, path: str):
    """The array `np.asarray` makes of a number, bool or rectangular nested list or tuple of
    them. Raises `Misfit(literal=True)` for anything else."""
    import numpy as np

    _shape(value, path)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            array = np.asarray(value)
    except (ValueError, OverflowError, TypeError) as e:
        raise Misfit(f"`{path}` cannot be made an array ({e})", literal=True) from None
    if array.dtype.kind not in "biufc":
        raise Misfit(f"`{path}` makes an array of {array.dtype}, not of numbers", literal=True)
    return array


_NAMES = {
    type(None): "None",
    str: "a string",
    bytes: "bytes",
    dict: "a dict",
    set: "a set",
    frozenset: "a set",
    type(Ellipsis): "Ellipsis",
}


def _shape(value, where: str) -> tuple:
    t = type(value)
    if t is int:
        if not -(2**63) <= value < 2**64:
            raise Misfit(f"`{where}` = {_short(value)} does not fit in 64 bits", literal=True)
        return ()
    if t in (bool, float, complex):
        return ()
    if t in (list, tuple):
        shapes = [_shape(v, f"{where}[{i}]") for i, v in enumerate(value)]
        for i, s in enumerate(shapes):
            if s != shapes[0]:
                raise Misfit(
                    f"`{where}` is ragged: {where}[0] has shape {shapes[0]} and {where}[{i}] "
                    f"has shape {s} (an array's rows have one length)",
                    literal=True,
                )
        return (len(value),) + (shapes[0] if shapes else ())
    what = _NAMES.get(t, f"a {t.__name__}")
    detail = "" if t in (type(None), type(Ellipsis)) else f" {_short(value)}"
    raise Misfit(f"`{where}` is {what}{detail}, not a number", literal=True)


def _cast(array, key, path: str) -> tuple:
    import numpy as np

    from autoconv.graph import signature as sig

    dtype = np.dtype(key[1])
    if sig.dtype_matches(dtype, array.dtype):
        return array, EXACT
    given = f"got {_spec(array)} values"
    if np.can_cast(array.dtype, dtype, "safe"):
        return array.astype(dtype), SAFE
    src, dst = array.dtype.kind, dtype.kind
    if dst not in "biufc":
        raise Misfit(f"parameter `{path}` expects {sig.describe(key)}, {given}")
    if dst == "b":
        raise Misfit(
            f"parameter `{path}` expects {sig.describe(key)}, {given}; write True or False"
        )
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cast = array.astype(dtype)
    if src in "biu":
        if cast.tolist() == array.tolist():
            return cast, CONVERTED
        raise Misfit(
            f"parameter `{path}` expects {sig.describe(key)}, {given} that {dtype.name} cannot "
            "hold exactly"
        )
    if src == dst or (src, dst) == ("f", "c"):  # rounded to a narrower float or complex
        if np.array_equal(np.isfinite(cast), np.isfinite(array)):
            return cast, CONVERTED
        raise Misfit(
            f"parameter `{path}` expects {sig.describe(key)}, {given} out of {dtype.name}'s range"
        )
    if src == "f":
        hint = "whole numbers are written without a decimal point (1, not 1.0)"
    else:
        hint = "a complex number has no real value of that dtype"
    raise Misfit(f"parameter `{path}` expects {sig.describe(key)}, {given}; {hint}")


def _spec(array) -> str:
    return f"{array.dtype.name}{list(array.shape)}"


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:50] + "..."
