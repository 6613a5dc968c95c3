"""Run the conversion pipeline on source text, for "this source in -> this source out" tests."""

import textwrap

import gast

from autoconv.conversion import pipeline
from autoconv.conversion.resolve import LiveResolver
from autoconv.pyct import loader, naming


def convert_source(source: str, globals_=None, recursive: bool = True) -> str:
    """The converted text of the single function (or lambda expression) in `source`."""
    module = gast.parse(textwrap.dedent(source))
    node = module.body[0]
    if isinstance(node, gast.Expr):
        node = node.value
    namer = naming.Namer.for_node(node)
    kept = []
    pipeline.convert(
        node,
        namer=namer,
        ac=namer.new("ac"),
        resolver=LiveResolver(globals_ if globals_ is not None else {}),
        recursive=recursive,
        on_kept=lambda *k: kept.append(k),
    )
    return loader.unparse(loader.to_ast(node))


def dedent(text: str) -> str:
    return textwrap.dedent(text).strip()
