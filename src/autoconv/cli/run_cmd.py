"""`autoconv run FILE --input NAME=VALUE... [-o OUT.npz]`: run a saved graph.

A VALUE ending in `.npy` is read as an array file (never with pickle); anything else is a
Python literal (`3`, `[1.0, 2.0]`), read safely and fitted to the saved signature it matches
best (see `literals`). Outputs are printed one per line as `name = value`, or written to an
`.npz` file with `-o`, through a temporary file and a rename. An output that is FILE or an
input is refused before anything runs.
"""

import argparse
import sys

from autoconv import temporaries
from autoconv.cli import literals, outputs, targets
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
        "--out",
        dest="output",
        metavar="OUT.npz",
        help="save the outputs here (.npz is added to a name without it)",
    )
    parser.set_defaults(run=run)


def _split(texts) -> dict:
    """`{name: Input}` of the `--input` arguments, in order; nothing read yet."""
    items = {}
    for text in texts:
        name, sep, value = text.partition("=")
        name = name.strip()
        if not sep or not name:
            raise UsageError(f"--input {text!r}: expected NAME=ARRAY.npy or NAME=LITERAL")
        if name in items:
            raise UsageError(f"--input {text!r}: {name} is given twice; give each parameter once")
        item = literals.Input(name, value)
        if value.strip().endswith(".npy"):
            item.file = value.strip()
        items[name] = item
    return items


def _read(loaded, items: dict) -> None:
    """Checks the names against the parameters and reads each value (file or literal)."""
    params = [p.name for p in loaded._params]
    for item in items.values():
        if item.name not in params:
            raise UsageError(
                f"--input {item.shown}: {loaded.name} has no parameter "
                f"{item.name!r}; its parameters: {', '.join(params)}"
            )
    try:
        loaded.__signature__.bind(**dict.fromkeys(items))
    except TypeError as e:
        raise UsageError(
            f"{loaded.name}(): {e}; give each parameter as --input NAME=VALUE (parameters: "
            f"{', '.join(params)})"
        ) from None
    for item in items.values():
        if item.file is not None:
            item.value = literals.read_npy(item)
        else:
            item.value = literals.parse(item)


def choose(loaded, items: dict) -> dict:
    """The keyword arguments for the saved signature that the inputs fit best: every input
    fits it, and it needs the fewest conversions (`literals.fit`: an exact dtype before a safe
    cast before a value-preserving one); of equals, the first saved.

    When none fits, the reason given is that of the signature with the fewest inputs that do
    not fit (of equals, a mismatch before a literal that cannot be an array, then the first
    saved): a `UsageError` naming the input when its literal cannot be an array, else a
    `TargetError` with the reason and the saved signatures.
    """
    index = {p.name: i for i, p in enumerate(loaded._params)}
    best = None
    closest = None
    for n, entry in enumerate(loaded._entries):
        fitted, misfits = {}, []
        for item in items.values():
            key = entry.key[1][index[item.name]]
            try:
                fitted[item.name] = literals.fit(
                    item.value, key, item.name, from_file=item.file is not None
                )
            except literals.Misfit as e:
                misfits.append((item, e))
        if misfits:
            score = (len(misfits), misfits[0][1].literal, n)
            if closest is None or score < closest[0]:
                closest = (score, misfits[0])
            continue
        ranks = [rank for _, rank in fitted.values()]
        score = (max(ranks, default=0), sum(ranks), n)
        if best is None or score < best[0]:
            best = (score, {name: value for name, (value, _) in fitted.items()})
    if best is not None:
        return best[1]
    if closest is None:  # no saved signature at all: the call says so
        return {name: item.value for name, item in items.items()}
    item, e = closest[1]
    if e.literal:
        raise UsageError(
            f"--input {item.shown}: {e}; {literals.ARRAY_ADVICE}, or {item.name}=FILE.npy"
        )
    listing = "\n".join(loaded.signatures)
    raise targets.TargetError(
        f"{loaded.name}: {e}. A loaded function runs only its saved signatures:\n{listing}"
    )


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


def _target(args, items: dict) -> str | None:
    """The file `-o` writes (`numpy.savez`'s name: `.npz` added when missing), checked before
    anything is read: its folder exists, and it is neither FILE nor an input file."""
    if not args.output:
        return None
    target = args.output if args.output.endswith(".npz") else args.output + ".npz"
    outputs.check_target(target)
    inputs = [(args.file, f"the saved graph {args.file}")]
    inputs += [(i.file, f"the input {i.file} (--input {i.name})") for i in items.values()]
    outputs.refuse_inputs(target, inputs)
    return target


def _load(path: str):
    import autoconv

    try:
        return autoconv.load(path)  # refuses what is not a regular file before opening it
    except autoconv.AutoconvError as e:  # every failure of load is a LoadError
        raise targets.TargetError(str(e)) from None


def run(args: argparse.Namespace) -> int:
    """Loads, runs, prints or saves; returns the exit status."""
    import numpy as np

    items = _split(args.inputs)
    target = _target(args, items)
    loaded = _load(args.file)
    _read(loaded, items)
    kwargs = choose(loaded, items)
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
            temporaries.replace_atomic(target, lambda f: np.savez(f, allow_pickle=False, **arrays))
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
