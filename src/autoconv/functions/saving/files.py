"""Whole files: saving a `Function` or `ConcreteFunction`, and reading a file back into checked
graphs (`read`), with the format's version rule.

Version rule: a file records the format version that wrote it. This autoconv reads versions
`OLDEST` to `encode.VERSION`; an older file is first brought up to date by the steps in
`_UPGRADES` (none yet: version 1 is the first); a newer one, or one older than `OLDEST`, is
refused with a message naming both versions.
"""

from __future__ import annotations

import inspect
import os

import numpy as np

from autoconv.functions.saving import archive, decode, table
from autoconv.functions.saving.encode import FORMAT, VERSION, encode_function
from autoconv.functions.saving.errors import LoadError, SaveError, brief_error
from autoconv.graph import signature as sig

OLDEST = 1
_UPGRADES: dict = {}  # version -> function making a version+1 document of a version document
_KINDS = {k.name: k for k in inspect._ParameterKind}


def save_entries(path, name: str, params: list, entries: list, origin=None, key=None) -> None:
    """Encodes and writes a file (see `encode.encode_function`), signed with `key` if given."""
    key = archive.signing_key(key, SaveError)
    document, arrays = encode_function(name, params, entries, origin)
    archive.write(path, document, arrays, VERSION, FORMAT, key)


def _params_of(parameters) -> list:
    return [
        (p.name, p.kind.name, p.default is not inspect.Parameter.empty, p.default)
        for p in parameters
    ]


def _checked(concrete):
    if concrete.state:
        from autoconv.functions.writebacks import describe

        paths = ", ".join(describe(p) for p, _ in concrete.state)
        raise SaveError(
            f"{concrete.function._where()}: the graph reads and updates object attributes "
            f"({paths}) cannot be saved: a loaded function has no object. Keep such state in "
            "an autoconv.Variable (saved with its value) or pass it in and return it."
        )
    return concrete


def save_concrete(concrete, path, key=None) -> None:
    """`ConcreteFunction.save`: one signature."""
    f = concrete.function
    entry = (_checked(concrete).key, concrete.optimized_graph, concrete.writebacks)
    save_entries(path, f._name, _params_of(f._params), [entry], _origin(f), key)


def save_function(function, path, signatures=None, key=None) -> None:
    """`Function.save`: the signatures traced so far, or those given (traced first)."""
    concretes = []
    if signatures is not None:
        for s in signatures:
            args = tuple(s) if isinstance(s, (tuple, list)) else (s,)
            c = function.get_concrete_function(*args)
            if c.first_call_only:
                # This trace created the function's Variables; the next one uses them.
                c = function.get_concrete_function(*args)
            concretes.append(c)
    else:
        concretes = [c for c in function._concretes if not c.first_call_only]
    if not concretes and function.tracing_count:
        raise SaveError(
            f"{function._where()}: every call of {function._name} so far created Variables (the "
            "state of an object argument, or of the function), and such a first call's graph "
            "runs for that call only: call it again with the same kind of arguments (the "
            "object kept), then save"
        )
    if not concretes:
        raise SaveError(
            f"{function._where()}: {function._name} has no traced signature to save: call it "
            "first, or pass signatures=[...] (TensorSpecs or example arguments)"
        )
    unique = []
    for c in concretes:
        if all(c is not u for u in unique):
            unique.append(_checked(c))
    entries = [(c.key, c.optimized_graph, c.writebacks) for c in unique]
    save_entries(
        path, function._name, _params_of(function._params), entries, _origin(function), key
    )


def _origin(function):
    code = getattr(inspect.unwrap(function.python_function), "__code__", None)
    return (code.co_filename, code.co_firstlineno) if code else None


# --- reading ----------------------------------------------------------------------------------


def read(path, max_bytes: int = archive.MAX_BYTES, key=None) -> dict:
    """The checked contents of a file: `name`, `signature` (inspect), `variables`, `entries`
    (key, graph, writebacks). Raises LoadError for anything wrong; nothing has run."""
    path = shown(path)
    try:
        return _read(path, max_bytes, key)
    except LoadError:
        raise
    except RecursionError:
        raise LoadError(f"{path}: the graph is nested too deeply") from None
    except MemoryError:
        raise LoadError(f"{path}: the file's contents do not fit in memory") from None
    except Exception as e:  # noqa: BLE001 - a safety net: a file is never trusted
        raise LoadError(f"{path}: malformed file ({type(e).__name__}: {brief_error(e)})") from None


def shown(path) -> str:
    """`path` as text for messages (a path is the user's, but may hold control characters)."""
    try:
        text = os.fsdecode(os.fspath(path))
    except TypeError:
        raise LoadError(f"load() takes a path to a file, not a {type(path).__name__}") from None
    return text if text.isprintable() else ascii(text)


def _read(path: str, max_bytes: int, key) -> dict:
    from autoconv.graph.variables import Variable

    if type(max_bytes) is not int or max_bytes < 0:
        raise LoadError(f"load(..., max_bytes={max_bytes!r:.40}): a number of bytes (an int >= 0)")
    key = archive.signing_key(key, LoadError)
    contents = archive.read(path, max_bytes)
    manifest = contents.manifest
    fmt, version = manifest.get("format"), manifest.get("version")
    if fmt != FORMAT:
        raise LoadError(f"{path}: not a saved autoconv graph (format {decode.brief(fmt)})")
    if type(version) is not int or not OLDEST <= version <= VERSION:
        raise LoadError(
            f"{path}: the file has format version {decode.brief(version)}; this autoconv reads "
            f"versions {OLDEST} to {VERSION}"
            + (
                ": save it again with a newer autoconv's file, or update autoconv"
                if type(version) is int and version > VERSION
                else ""
            )
        )
    archive.verify(path, contents, key)
    document = archive.parse_json(contents.graph, f"{path}: {archive.GRAPH}")
    contents.graph = None
    while version < VERSION:
        document = _UPGRADES[version](document)
        version += 1
    arrays = []
    for i in range(len(contents.arrays)):
        if i not in contents.arrays:
            raise LoadError(f"{path}: member arrays/{i}.npy is missing")
        arrays.append(contents.arrays.pop(i))
    try:
        return _contents(path, document, arrays, Variable)
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError) as e:
        # A safety net: every field is checked, but a file is never trusted.
        raise LoadError(f"{path}: malformed file ({type(e).__name__}: {brief_error(e)})") from None


def _contents(path, document, arrays, Variable) -> dict:
    doc = decode.dict_of(document, path)
    name = decode.name_of(doc.get("name"), f"{path}: name")
    variables = []
    owned: set = set()  # indices of the arrays that Variables hold: no constant may share one
    for i, v in enumerate(decode.list_of(doc.get("variables", []), f"{path}: variables")):
        at = f"{path}: variables[{i}]"
        v = decode.dict_of(v, at)
        index = decode.int_of(v.get("array"), at, 0, len(arrays) - 1)
        if index in owned:
            decode.fail(at, "two Variables share one array")
        owned.add(index)
        array = arrays[index]
        # The Variable takes the array read from the file as its own (no second copy).
        var = Variable(np.zeros((), array.dtype), name=decode.name_of(v.get("name"), at))
        var._value = array
        var.trainable = decode.bool_of(v.get("trainable", True), at)
        variables.append(var)
    generators = table.Generators()
    decoder = decode.Decoder(arrays, variables, owned, generators)
    parameters = []
    for i, p in enumerate(decode.list_of(doc.get("params"), f"{path}: params")):
        at = f"{path}: params[{i}]"
        p = decode.dict_of(p, at)
        kind = _KINDS.get(p.get("kind")) if type(p.get("kind")) is str else None
        if kind is None:
            decode.fail(at, f"unknown parameter kind {p.get('kind')!r:.40}")
        pname = decode.identifier(p.get("name"), at)
        default = (
            decoder.value(p["default"], at, None) if "default" in p else inspect.Parameter.empty
        )
        parameters.append(inspect.Parameter(pname, kind, default=default))
    try:
        signature = inspect.Signature(parameters)
    except ValueError as e:
        decode.fail(f"{path}: params", str(e))
    entries = []
    sigs = decode.list_of(doc.get("signatures"), f"{path}: signatures")
    if not sigs:
        decode.fail(f"{path}: signatures", "the file holds no signature")
    for i, entry in enumerate(sigs):
        at = f"{path}: signatures[{i}]"
        entry = decode.dict_of(entry, at)
        keys = decode.list_of(entry.get("key"), at)
        if len(keys) != len(parameters):
            decode.fail(at, "the key does not match the parameters")
        key = (tuple, tuple(_key(k, decoder, f"{at}.key") for k in keys))
        graph = decoder.graph(entry.get("graph"), f"{at}.graph")
        specs = sig.leaf_specs(key)
        if len(specs) != len(graph.inputs) or any(
            t.dtype != dtype or t._shape != tuple(shape)
            for t, (shape, dtype) in zip(graph.inputs, specs)
        ):
            decode.fail(at, "the graph's inputs do not match its signature")
        writebacks = []
        for store in decode.list_of(entry.get("writebacks", []), at):
            store = decode.list_of(store, at)
            if len(store) != 4 or store[0] not in ("set", "del", "maybe", "list"):
                decode.fail(at, "invalid write-back")
            index = decode.int_of(store[1], at, 0, len(parameters) - 1)
            keys_ = [("item", decoder.value(k, at, None)) for k in decode.list_of(store[3], at)]
            writebacks.append((store[0], ((index, decode.text_of(store[2], at, 200)), *keys_)))
        if writebacks:
            out = graph.outputs
            if type(out) is not tuple or len(out) != 2 or type(out[1]) is not tuple:
                decode.fail(at, "write-backs without their outputs")
            if len(out[1]) != len(writebacks):
                decode.fail(at, "write-backs do not match their outputs")
        entries.append((key, graph, writebacks))
    return {
        "name": name,
        "signature": signature,
        "variables": variables,
        "entries": entries,
        "generators": generators,
    }


def _key(k, decoder, at):
    k = decode.list_of(k, at)
    if not k or type(k[0]) is not str:
        decode.fail(at, "invalid signature key")
    kind = k[0]
    if kind == "A" and len(k) == 3:
        return ("A", decode.dtype_of(k[1], at), decode.shape_of(k[2], at))
    if kind == "S" and len(k) == 2:
        return ("S", decode.dtype_of(k[1], at))
    if kind == "P" and len(k) == 2:
        value = decoder.value(k[1], at, None)
        if type(value) not in sig._PY:
            decode.fail(at, "a Python-value key that is not a number, string or None")
        return sig.python_key(value)
    if kind in ("tuple", "list") and len(k) == 2:
        items = tuple(_key(x, decoder, at) for x in decode.list_of(k[1], at))
        return (tuple if kind == "tuple" else list, items)
    if kind == "D" and len(k) == 2:
        items = []
        for pair in decode.list_of(k[1], at):
            pair = decode.list_of(pair, at)
            if len(pair) != 2:
                decode.fail(at, "invalid dict key")
            items.append((decoder.value(pair[0], at, None), _key(pair[1], decoder, at)))
        return ("D", tuple(items))
    decode.fail(at, f"invalid signature key {kind!r:.40}")
