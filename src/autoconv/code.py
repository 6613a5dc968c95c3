"""`Code`: the `str` that `to_code` returns, which shows itself as highlighted Python in
notebooks (`_repr_html_`) and as the code itself in IPython's plain display (`_repr_pretty_`).

Everywhere else it is an ordinary `str` (equality, slicing, `print`, `isinstance`). The
highlighter uses only the standard library's `tokenize`, so it adds no dependency, and every
piece of text it emits is HTML-escaped. `Text` is the same for plain text (signatures, pass
summaries): lines in a notebook instead of one escaped string.
"""

from __future__ import annotations

import html
import io
import keyword
import token
import tokenize

# Inline styles keep the HTML self-contained (no stylesheet to load).
_STYLES = {
    "keyword": "color:#7928a1;font-weight:bold",
    "string": "color:#a31515",
    "comment": "color:#6a737d;font-style:italic",
    "number": "color:#098658",
    "runtime": "color:#0451a5;font-weight:bold",
    "definition": "color:#795e26",
}
# The runtime calls that converted code makes: what a reader of `to_code` looks for first.
_RUNTIME = {
    "if_stmt",
    "while_stmt",
    "for_stmt",
    "if_exp",
    "and_",
    "or_",
    "not_",
    "ac",
}
PRE_STYLE = (
    "font-family:SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;line-height:1.4;"
    "background:#f7f7f7;border:1px solid #e1e1e1;border-radius:4px;padding:8px;"
    "overflow-x:auto;margin:0"
)


class Code(str):
    """Python source text (a `str`) that notebooks show highlighted."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        return f'<pre style="{PRE_STYLE}">{highlight(self)}</pre>'

    def _repr_pretty_(self, printer, cycle: bool) -> None:
        printer.text(str(self))


class Text(str):
    """Plain text (a `str`: signatures, pass summaries) that a notebook shows as lines, not as
    one escaped string running off the screen."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        return f'<pre style="{PRE_STYLE}">{html.escape(self)}</pre>'

    def _repr_pretty_(self, printer, cycle: bool) -> None:
        printer.text(str(self))


def highlight(source: str) -> str:
    """`source` as escaped HTML with `<span style=...>` around keywords, strings, comments,
    numbers, the runtime's calls and defined names; plain escaped text if it does not tokenize."""
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    out: list[str] = []
    position = 0
    previous = None
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == token.ENDMARKER:
                break
            (srow, scol), (erow, ecol) = tok.start, tok.end
            if srow > len(lines):
                break
            start = offsets[srow - 1] + scol
            end = offsets[min(erow, len(lines)) - 1] + ecol
            out.append(html.escape(source[position:start]))
            text = source[start:end]
            kind = _kind(tok, previous)
            escaped = html.escape(text)
            out.append(f'<span style="{_STYLES[kind]}">{escaped}</span>' if kind else escaped)
            position = end
            if tok.type not in (token.NL, token.NEWLINE, token.INDENT, token.DEDENT):
                previous = tok
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return html.escape(source)
    out.append(html.escape(source[position:]))
    return "".join(out)


def _kind(tok, previous) -> str | None:
    if tok.type == token.NAME:
        if keyword.iskeyword(tok.string):
            return "keyword"
        if tok.string in _RUNTIME:
            return "runtime"
        if previous is not None and previous.string in ("def", "class"):
            return "definition"
        return None
    if tok.type == token.STRING or tok.type == getattr(token, "FSTRING_START", -1):
        return "string"
    if tok.type == token.COMMENT:
        return "comment"
    if tok.type == token.NUMBER:
        return "number"
    return None
