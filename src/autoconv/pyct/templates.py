"""Generated code written as Python text with placeholders, so a converter shows what it emits.

    templates.expr("ac.if_exp(cond, lambda: a, lambda: b)", ac="ac", cond=test, a=x, b=y)

A placeholder is a name in the template. It is replaced by a node (copied if it is used more
than once), by a string (a new name, with the placeholder's context), or, when it stands alone
as a statement, by a list of statements. Templates are parsed once and cloned for each use.
"""

import functools

import gast


@functools.cache
def _parse(template: str):
    return gast.parse(template).body


def stmts(template: str, **subs) -> list:
    out = []
    for node in _parse(template):
        if isinstance(node, gast.Expr) and isinstance(node.value, gast.Name):
            value = subs.get(node.value.id)
            if isinstance(value, list):
                out.extend(value)
                continue
        out.append(_Cloner(subs).clone(node))
    return out


def expr(template: str, **subs):
    (node,) = _parse(template)
    return _Cloner(subs).clone(node.value)


class _Cloner:
    def __init__(self, subs):
        self.subs = subs
        self.used = set()

    def clone(self, node):
        if isinstance(node, list):
            return [self.clone(n) for n in node]
        if not isinstance(node, gast.AST):
            return node
        if isinstance(node, gast.Name) and node.id in self.subs:
            return self._substitute(node)
        fields = {f: self.clone(getattr(node, f, None)) for f in node._fields}
        if isinstance(node, gast.FunctionDef) and node.name in self.subs:
            fields["name"] = self.subs[node.name]
        return type(node)(**fields)

    def _substitute(self, node):
        key = node.id
        value = self.subs[key]
        if isinstance(value, str):
            return gast.Name(id=value, ctx=type(node.ctx)(), annotation=None, type_comment=None)
        if key in self.used:
            value = copy(value)
        self.used.add(key)
        if isinstance(value, gast.Name) and not isinstance(node.ctx, gast.Load):
            value.ctx = type(node.ctx)()
        return value


def copy(node):
    """A deep copy of an AST, locations and annotations included (faster than copy.deepcopy)."""
    if isinstance(node, list):
        return [copy(n) for n in node]
    if not isinstance(node, gast.AST):
        return node
    new = type(node)(**{f: copy(getattr(node, f, None)) for f in node._fields})
    for attr in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
        if hasattr(node, attr):
            setattr(new, attr, getattr(node, attr))
    return new
