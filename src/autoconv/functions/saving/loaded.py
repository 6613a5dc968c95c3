"""`LoadedFunction`: the callable `autoconv.load` returns, running saved graphs with NumPy or JAX.

It needs neither the module that defined the function nor its source: each saved graph is
built again from the file's checked data and run by the same generated executor as the
original (`backends.numpy.executor.Program`, or the JAX backend's program), so results,
printed text and Variable updates are the same.
"""

from __future__ import annotations

import inspect

from autoconv.errors import AutoconvError
from autoconv.functions import dispatch as _dispatch
from autoconv.functions.compiled import CompiledGraph, bind_arguments
from autoconv.functions.saving import archive, files
from autoconv.functions.saving.errors import LoadError, brief_error
from autoconv.graph import graph as _g
from autoconv.graph import signature as sig
from autoconv.graph.errors import StagingError, execution_error, raised_by_autoconv, where
from autoconv.graph.origin import user_origin
from autoconv.graph.signature import TensorSpec


def load(
    path,
    *,
    backend: str = "numpy",
    device=None,
    keep_on_device: bool = False,
    max_bytes: int = archive.MAX_BYTES,
    key: bytes | str | None = None,
) -> LoadedFunction:
    """Reads the file at `path`, checks all of it, and returns a `LoadedFunction`.

    `backend`: where the graphs run, "numpy" or "jax" (with `device` and `keep_on_device` as
    for `autoconv.function`). `max_bytes`: the most the file may declare its contents to be
    (arrays and metadata, uncompressed; 1 GiB by default); a larger one is refused before
    anything is allocated. A damaged, hostile, too large or newer-version file raises
    `LoadError` (an `AutoconvError`) before anything in it runs; a missing one raises a
    `LoadError` that is also a `FileNotFoundError`. `key`: refuse a file that was not saved
    with `save(..., key=key)` or was changed since (HMAC-SHA256).
    """
    from autoconv import backends  # the IR layer imports no backend at module level

    if backend not in backends.BACKENDS:
        raise LoadError(
            f"load(..., backend={backend!r}): unknown backend; this autoconv runs saved graphs "
            f"on {', '.join(repr(b) for b in backends.BACKENDS)}"
        )
    backends.check(backend, device, keep_on_device, who="autoconv.load")
    contents = files.read(path, max_bytes, key)
    try:
        return LoadedFunction(contents, files.shown(path), (backend, device, keep_on_device))
    except LoadError:
        raise
    except Exception as e:  # noqa: BLE001 - the checked graphs could not be built to run
        raise LoadError(
            f"{files.shown(path)}: the saved graph cannot be run by this autoconv "
            f"({type(e).__name__}: {brief_error(e)})"
        ) from None


def _compiled(key, graph, writebacks, runs_on) -> CompiledGraph:
    from autoconv import backends  # the IR layer imports no backend at module level

    # A saved key holds no object: `_objects` stays empty.
    return CompiledGraph(key, graph, backends.program(graph, *runs_on), writebacks)


def _failed(graph, e: BaseException, what: str) -> BaseException:
    """`e`, raised by autoconv's own code while `what` for a file's graph, as an
    AutoconvError of its type that names the graph."""
    return execution_error(e, f"{graph.name}: {what} failed: {type(e).__name__}: {e}")


class LoadedFunction:
    """Saved graphs, callable like the `Function` they were saved from.

    A call runs the saved signature that matches its arguments (or raises `TypeError` naming
    the parameter and the saved signatures). `signatures`: their descriptions; `graph(*args)`:
    the `Graph` a call would run; `code`: the generated Python; `variables`: the Variables,
    whose updates persist from call to call; `save(path)`: write it again (current values).
    """

    def __init__(self, contents: dict, path: str = "<memory>", runs_on=("numpy", None, False)):
        self.name = contents["name"]
        self.path = path
        self.__name__ = self.name
        self.__signature__ = self._signature = contents["signature"]
        self._params = list(self._signature.parameters.values())
        self.variables = list(contents["variables"])
        # The generators its `np.random.*` / `random.*` calls use: its own (`seed` seeds them).
        self.generators = contents.get("generators")
        self._entries = [_compiled(*e, runs_on) for e in contents["entries"]]
        simple = all(p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p in self._params)
        self._nparams = len(self._params) if simple else -1
        # Generated guards recognizing the saved signatures, as a Function has (dispatch.py).
        self._dispatch = _dispatch.make([(e.key, e) for e in self._entries], self._nparams)

    # --- calls ------------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if _g.building():
            # Called while another function is traced: its saved graph joins that trace.
            return self._inline(self._values(args, kwargs))
        if not kwargs and len(args) == self._nparams:
            result = self._dispatch(args)
            if result is not _dispatch.MISS:
                return result
        values = self._values(args, kwargs)
        leaves: list = []
        key = sig.flatten(values, leaves)
        entry = self._find(key, values)
        result = entry.run(leaves)
        if entry.writebacks:
            try:
                result = entry.store(result, values)
            except Exception as e:
                if isinstance(e, AutoconvError) or not raised_by_autoconv(e):
                    raise
                raise _failed(entry.graph, e, "storing into the arguments") from e
        return result

    def _inline(self, values):
        """The saved graph matching `values` (Tensors of the trace being built, or values)
        copied into that trace, and its outputs."""
        tensors: dict = {}

        def spec(t):  # a Tensor is matched by its spec, as an array of its dtype and shape
            tensors[id(made := TensorSpec(t.shape, t.dtype))] = t
            return made

        as_specs = _g.map_tensors(values, spec)
        leaves: list = []
        entry = self._find(sig.flatten(as_specs, leaves), as_specs)
        if entry.writebacks:
            raise StagingError(
                f"{where(user_origin())}: {self.name}, a loaded function that changes its "
                "arguments, cannot be called while another function is traced; return the "
                "new values from it instead, or call it outside the traced function"
            )
        inputs = [tensors.get(id(leaf), leaf) for leaf in leaves]
        return _g.inline(entry.graph, inputs)

    def _values(self, args, kwargs) -> tuple:
        return bind_arguments(self._signature, self.name, args, kwargs)

    def _find(self, key, values) -> CompiledGraph:
        for entry in self._entries:
            if entry.key == key:
                return entry
        for entry in self._entries:
            if sig.covers(entry.key, key):
                return entry
        raise TypeError(self._mismatch(values))

    def _mismatch(self, values) -> str:
        reason = None
        for entry in self._entries:
            try:
                entry.leaves(values, self._params, self.name)
            except (TypeError, ValueError) as e:
                # Without the advice for a Function (a loaded one cannot trace again).
                reason = str(e).split(". A concrete function")[0].split("; call the autoconv")[0]
                break
        listing = "\n".join(self.signatures)
        return (
            f"{reason or self.name + ': the arguments match no saved signature'}. A loaded "
            f"function runs only its saved signatures:\n{listing}"
        )

    def seed(self, seed) -> None:
        """Seeds the generators that this function's `np.random.*` and `random.*` calls draw
        from: a loaded function has its own, never the process's global ones."""
        if self.generators is not None:
            self.generators.seed(seed)

    # --- what it holds ----------------------------------------------------------------------
    @property
    def signatures(self) -> list:
        """One description per saved signature: the parameters' specs and the outputs'."""
        return [e.signature_text(self.name, self._params) for e in self._entries]

    def graph(self, *args, **kwargs):
        """The `Graph` a call with these arguments runs (the first saved one without any)."""
        if not args and not kwargs:
            return self._entries[0].graph
        values = self._values(args, kwargs)
        return self._find(sig.flatten(values, []), values).graph

    @property
    def code(self) -> str:
        """The generated Python that runs each saved graph."""
        if len(self._entries) == 1:
            return self._entries[0].code
        return "\n".join(f"# signature {i}\n{e.code}" for i, e in enumerate(self._entries))

    def save(self, path, *, key: bytes | str | None = None) -> None:
        """Writes these graphs, with the Variables' current values, to `path` (`key`: sign it,
        as for `Function.save`)."""
        params = [
            (p.name, p.kind.name, p.default is not inspect.Parameter.empty, p.default)
            for p in self._params
        ]
        entries = [(e.key, e.graph, e.writebacks) for e in self._entries]
        files.save_entries(path, self.name, params, entries, key=key)

    def _repr_html_(self) -> str:
        from autoconv.graph import display

        return display.loaded_html(self)

    def __repr__(self):
        n = len(self._entries)
        return f"<autoconv.LoadedFunction {self.name} ({n} signature{'' if n == 1 else 's'})>"
