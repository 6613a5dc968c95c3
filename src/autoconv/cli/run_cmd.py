"""`autoconv run FILE --input NAME=VALUE... [-o OUT.npz]`: run a saved graph.

A VALUE ending in `.npy` is read with `numpy.load(allow_pickle=False)`; anything else is a
Python literal (`3`, `[1.0, 2.0]`), made an array of the saved signature's dtype where the
parameter is an array. Outputs are printed one per line as `name = value`, or written to an
`.npz` file with `-o`, through a temporary file and a rename. An output that is FILE or an
input is refused before anything runs.
"""

import argparse
import ast
import os
import stat
import sys

from autoconv.cli import outputs, targets
from autoconv.cli.files import UsageError


def add_parser(subparsers) -> None:
    """Declares `run`."""
    parser = subparsers.add_parser(
        "run",
        help="run a saved graph on inputs and print or save its outputs",
        description="Loads FILE (written by Function.save or `autoconv save`), calls it with "
        "the inputs and prints the outputs, or saves them to an .npz file with -o. The Python "
        "code of the function is not needed.",
    )
    parser.add_argument("file", metavar="FILE", help="a saved graph")
    parser.add_argument(
        "--input",
        dest="inputs",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a parameter's value: ARRAY.npy or a Python literal such as 3 or [1.0, 2.0]",
    )
    parser.add_argument(
        "-o",
        "--output",
        metavar="OUT.npz",
        help="save the outputs here (.npz is added to a name without it)",
    )
    parser.set_defaults(run=run)


def _inputs(loaded, texts) -> dict:
    import numpy as np

    params = [p.name for p in loaded._params]
    keys = {p: k for p, k in zip(params, loaded._entries[0].key[1])}
    out = {}
    for text in texts:
        name, sep, value = text.partition("=")
        name = name.strip()
        if not sep or not name:
            raise UsageError(f"--input {text!r}: expected NAME=ARRAY.npy or NAME=LITERAL")
        if name not in params:
            raise UsageError(
                f"--input {text!r}: {loaded.name} has no parameter {name!r}; its parameters: "
                f"{', '.join(params)}"
            )
        if value.endswith(".npy"):
            try:
                out[name] = np.load(value, allow_pickle=False)
            except (OSError, ValueError) as e:
                raise targets.TargetError(f"--input {text!r}: cannot read {value}: {e}") from None
            continue
        try:
            literal = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            raise UsageError(f"--input {text!r}: not an .npy file or a Python literal") from None
        key = keys[name]
        if key[0] == "A":
            literal = np.asarray(literal, dtype=key[1])
        elif key[0] == "S":
            literal = key[1].type(literal)
        out[name] = literal
    return out


def _leaves(value, name, out):
    """`(name, leaf)` of each value in an output structure: `output[0]`, `output['k']`."""
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):
        for field, v in zip(value._fields, value):
            _leaves(v, f"{name}.{field}", out)
    elif isinstance(value, (tuple, list)):
        for i, v in enumerate(value):
            _leaves(v, f"{name}[{i}]", out)
    elif isinstance(value, dict):
        for k, v in value.items():
            _leaves(v, f"{name}[{k!r}]", out)
    else:
        out.append((name, value))
    return out


def _target(args) -> str | None:
    """The file `-o` writes (`numpy.savez`'s name: `.npz` added when missing), checked before
    anything is read: its folder exists, and it is neither FILE nor an input file."""
    if not args.output:
        return None
    target = args.output if args.output.endswith(".npz") else args.output + ".npz"
    outputs.check_target(target)
    inputs = [(args.file, f"the saved graph {args.file}")]
    for text in args.inputs:
        name, _, value = text.partition("=")
        if value.strip().endswith(".npy"):
            value = value.strip()
            inputs.append((value, f"the input {value} (--input {name.strip()})"))
    outputs.refuse_inputs(target, inputs)
    return target


def _load(path: str):
    import autoconv

    try:
        status = os.stat(path)
    except FileNotFoundError:
        raise targets.TargetError(f"{path}: no such file") from None
    except OSError as e:
        raise targets.TargetError(f"{path}: cannot read it: {e.strerror or e}") from None
    if not stat.S_ISREG(status.st_mode):
        raise targets.TargetError(f"{path}: not a regular file; name a saved graph")
    try:
        return autoconv.load(path)
    except FileNotFoundError:
        raise targets.TargetError(f"{path}: no such file") from None
    except autoconv.AutoconvError as e:
        raise targets.TargetError(str(e)) from None
    except Exception as e:  # a safety net: a damaged file is a LoadError
        raise targets.TargetError(f"{path}: cannot be loaded ({type(e).__name__}: {e})") from None


def run(args: argparse.Namespace) -> int:
    """Loads, runs, prints or saves; returns the exit status."""
    import numpy as np

    target = _target(args)
    loaded = _load(args.file)
    kwargs = _inputs(loaded, args.inputs)
    try:
        loaded.graph(**kwargs)  # which saved graph runs: a mismatch is a TypeError here
    except TypeError as e:
        raise targets.TargetError(str(e)) from None
    try:
        result = loaded(**kwargs)
    except Exception as e:
        raise targets.TargetError(f"{loaded.name} raised {type(e).__name__}: {e}") from None
    leaves = _leaves(result, "output", [])
    if target is not None:
        arrays = {name: np.asarray(v) for name, v in leaves}
        if any(a.dtype.hasobject for a in arrays.values()):
            raise targets.TargetError("an output is not an array or a number; print it instead")
        try:
            outputs.replace_atomic(target, lambda f: np.savez(f, allow_pickle=False, **arrays))
        except Exception as e:
            reason = (e.strerror if isinstance(e, OSError) else None) or f"{type(e).__name__}: {e}"
            raise targets.TargetError(
                f"cannot write {target}: {reason}; a previous {target}, if any, is unchanged"
            ) from None
        print(f"wrote {len(arrays)} outputs to {target}", file=sys.stderr)
        return 0
    for name, value in leaves:
        if isinstance(value, (np.ndarray, np.generic)):
            text = np.array2string(value, separator=", ", threshold=1000)
            print(f"{name} = {text}  # {value.dtype.name}{list(value.shape)}")
        else:
            print(f"{name} = {value!r}")
    return 0
