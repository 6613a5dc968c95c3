"""`pyct.bridge` builds the same trees as gast's own translators, locations included."""

import ast
import inspect
import textwrap

import gast
import pytest

from autoconv.pyct import bridge

SNIPPETS = {
    "parameters": """
        def f(a, /, b: int = 1, *args: str, c, d=2, **kw) -> None:
            # type: ignore
            return lambda x, *y, z=3, **w: (x, y, z, w)
    """,
    "except names": """
        try:
            pass
        except ValueError as e:
            del e
        except:
            raise
        try:
            pass
        except* TypeError as g:
            pass
    """,
    "match": """
        match p:
            case [1, *rest] if rest:
                pass
            case {"k": v, **others}:
                pass
            case Point(x=0, y=yy) as whole:
                pass
    """,
    "comprehensions and walrus": """
        async def g(xs):
            ys = [y async for x in xs if (y := x + 1)]
            return {k: v for k, v in ys}, {*ys}, (x for x in ys)
    """,
    "classes and decorators": """
        @dec(1)
        class C(Base, metaclass=M):
            x: int = 0
            @property
            def p(self):
                return f"{self.x!r:>{10}}"
    """,
    "statements": """
        import a.b as c
        from . import d
        global q
        with open(f) as h, lock:
            async_ = h[1:2, ::3]
        for i, *j in k:
            continue
        else:
            assert i, j
        while not i:
            break
        x = y if z else w
        x += 1; del x[0]
    """,
}


def _trees():
    for name, text in SNIPPETS.items():
        yield name, ast.parse(textwrap.dedent(text))
    for module in (inspect, textwrap, ast):
        yield module.__name__, ast.parse(inspect.getsource(module))


@pytest.mark.parametrize("name,tree", list(_trees()), ids=lambda v: v if isinstance(v, str) else "")
def test_both_directions_match_gast(name, tree):
    ours = bridge.to_gast(tree)
    theirs = gast.ast_to_gast(tree)
    assert gast.dump(ours, include_attributes=True) == gast.dump(theirs, include_attributes=True)

    back = bridge.to_ast(ours)
    assert ast.dump(back, include_attributes=True) == ast.dump(
        gast.gast_to_ast(theirs), include_attributes=True
    )
    assert ast.dump(back, include_attributes=True) == ast.dump(tree, include_attributes=True)
    compile(back, name, "exec")


def test_parameters_are_names_in_the_param_context():
    func = bridge.to_gast(ast.parse("def f(a, *b, c, **d): pass").body[0])
    params = [func.args.args[0], func.args.vararg, func.args.kwonlyargs[0], func.args.kwarg]
    assert [(type(p), p.id, type(p.ctx)) for p in params] == [
        (gast.Name, n, gast.Param) for n in "abcd"
    ]
    assert func.type_params == []


def test_analysis_annotations_stay_behind():
    node = bridge.to_gast(ast.parse("x = 1").body[0])
    node._autoconv_anno = {"live": {"x"}}
    assert not hasattr(bridge.to_ast(node), "_autoconv_anno")


def test_generated_nodes_without_locations_stay_without():
    node = gast.Expr(gast.Call(gast.Name("f", gast.Load(), None, None), [], []))
    back = bridge.to_ast(node)
    assert not hasattr(back, "lineno") and not hasattr(back.value, "lineno")
    assert ast.unparse(back) == "f()"
