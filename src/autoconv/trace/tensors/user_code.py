"""The user's code behind an operation: its frame, source line and the instruction it runs.

Errors quote the user's line and name the variable a statement changes; some answers depend on
the construct being run (`table[i]` against `np.asarray(t)`, `s += v` against
`np.add(s, v, out=s)`), which the frame's current bytecode instruction tells.
"""

from __future__ import annotations

import ast
import dis
import functools
import linecache
import sys

from autoconv.graph.errors import StagingError, where
from autoconv.graph.origin import _SKIP
from autoconv.graph.origin import user_frame as _user_frame_from


def user_frame():
    """The innermost frame outside autoconv and NumPy: the user's code that asked."""
    return _user_frame_from(sys._getframe(1))


def frame_origin(frame):
    """`(file, line)` of a frame, or None."""
    return None if frame is None else (frame.f_code.co_filename, frame.f_lineno)


def source_line(frame) -> str:
    """The statement a frame is running, stripped, on one line ('' when unknown): a statement
    written over several lines (`out[1] = (x[0]` / `+ x[1])`) is read whole."""
    if frame is None:
        return ""
    return statement_at(frame.f_code.co_filename, frame.f_lineno)


def statement_at(filename: str, lineno: int) -> str:
    """The whole statement around `lineno` of `filename`, joined on one line; the line itself
    when no statement of a few lines around it parses."""
    line = linecache.getline(filename, lineno).strip()
    if not line or line.endswith(":") or _parses(line):
        return line  # one line, or the header of an `if`, `for`, `while`, `case`...
    for start in range(lineno, max(lineno - _SPAN, 0), -1):
        for end in range(lineno, lineno + _SPAN):
            lines = [linecache.getline(filename, n) for n in range(start, end + 1)]
            if not lines[-1]:
                break  # past the end of the file
            text = "\n".join([lines[0].strip(), *(piece.rstrip() for piece in lines[1:])])
            if _parses(text):
                return " ".join(piece.strip() for piece in lines if piece.strip())
    return line


_SPAN = 12  # lines a statement may reach before or after the line a frame reports


@functools.lru_cache(maxsize=1024)
def _parses(text: str) -> bool:
    # (cached: a loop unrolled while tracing asks about the same line at every step)
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return True


def opname(frame) -> str:
    """The name of the bytecode instruction the user's frame is executing."""
    if frame is None:
        return ""
    try:
        return dis.opname[frame.f_code.co_code[frame.f_lasti]]
    except (IndexError, ValueError):
        return ""


@functools.lru_cache(maxsize=1024)
def target_name(line: str) -> str | None:
    """The variable an augmented or subscript assignment on `line` changes (`x` in `x += 1`,
    `x[0] = 5`, `x[i], x[j] = x[j], x[i]`). Cached: a loop unrolled while tracing asks at
    every step (1,000 item writes parsed the same line 1,000 times)."""
    try:
        body = ast.parse(line).body
    except SyntaxError:
        return None
    for stmt in body:
        target = None
        if isinstance(stmt, ast.AugAssign):
            target = stmt.target
        elif isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Subscript):
            target = stmt.targets[0]
        elif (
            isinstance(stmt, ast.Assign)
            and isinstance(stmt.targets[0], (ast.Tuple, ast.List))
            and stmt.targets[0].elts
            and isinstance(stmt.targets[0].elts[0], ast.Subscript)
        ):
            target = stmt.targets[0].elts[0]  # `a[i], a[j] = a[j], a[i]`
        elif (
            isinstance(stmt, ast.Assign)
            and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Call)
        ):
            target = stmt.targets[0]  # `x = assign_item(x, k, v)`
        while isinstance(target, ast.Subscript):
            target = target.value
        if target is not None:
            return ast.unparse(target)
    return None


def stores_local(frame) -> bool:
    """True when the augmented assignment the frame is running stores into a local name
    (not a global, an attribute or an item)."""
    for ins in dis.get_instructions(frame.f_code):
        if ins.offset > frame.f_lasti and ins.opname.startswith("STORE_"):
            return ins.opname in ("STORE_FAST", "STORE_DEREF")
    return False


def write_site(frame, item: str):
    """`(file, line)` of the user's write of `item` (`acc[0]`, `self.acc[0]`) that the
    converter's `set_state` closure `frame` carries out of a staged statement: the first
    assignment to it at or after the statement's line, or the statement itself."""
    caller = frame.f_back
    while caller is not None and caller.f_code.co_filename.startswith(_SKIP):
        caller = caller.f_back
    if caller is None:
        return frame_origin(frame)
    filename, first = caller.f_code.co_filename, caller.f_lineno
    wanted = _normal(item)
    for lineno in range(first, first + _SEARCH):
        line = linecache.getline(filename, lineno)
        if not line:
            break
        try:
            body = ast.parse(line.strip()).body
        except SyntaxError:
            continue
        for stmt in body:
            targets = [stmt.target] if isinstance(stmt, ast.AugAssign) else []
            if isinstance(stmt, ast.Assign):
                for t in stmt.targets:
                    targets.extend(t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t])
            if any(ast.unparse(t) == wanted for t in targets):
                return filename, lineno
    return filename, first


_SEARCH = 400  # lines after a staged statement searched for the write it carries


def _normal(text: str) -> str:
    try:
        return ast.unparse(ast.parse(text, mode="eval").body)
    except SyntaxError:
        return text


def fail(frame, message: str, *bases):
    """Raises a StagingError at the user's line; `bases` add the exception types eager code
    would raise (so `except TypeError` catches both)."""
    cls = StagingError
    if bases:
        cls = type(bases[0].__name__, (StagingError, *bases), {"__module__": __name__})
    raise cls(f"{where(frame_origin(frame))}: {message}")


def _try_around(filename: str, line: int, names: set):
    for node in _tries(filename):
        if not (node.body[0].lineno <= line <= node.body[-1].end_lineno):
            continue
        for handler in node.handlers:
            caught = handler.type
            kinds = caught.elts if isinstance(caught, ast.Tuple) else [caught]
            for kind in kinds:
                name = getattr(kind, "id", None) or getattr(kind, "attr", None)
                if caught is None or name in names:
                    shown = "except" if caught is None else f"except {ast.unparse(caught)}"
                    return node.lineno, shown
    return None


_TRIES: dict = {}


def _tries(filename: str) -> list:
    """The `try` statements with handlers in a source file (parsed once per text)."""
    text = "".join(linecache.getlines(filename))
    key = (filename, hash(text))
    found = _TRIES.get(key)
    if found is None:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            tree = ast.Module(body=[], type_ignores=[])
        kinds = (ast.Try, getattr(ast, "TryStar", ast.Try))
        found = _TRIES[key] = [
            n for n in ast.walk(tree) if isinstance(n, kinds) and n.handlers and n.body
        ]
    return found


def refuse_if_handled(kinds: tuple, what: str) -> None:
    """While tracing an operation that may raise one of `kinds` when the graph runs (`1.0 /
    v` of Python numbers, `math.sqrt`): inside the user's `try` whose handler catches it, eager
    code would run the handler, which a graph cannot jump to; an error says so now."""
    from autoconv.conversion.library import generated_codes

    names = {c.__name__ for kind in kinds for c in kind.__mro__}
    frame = user_frame()
    while frame is not None:
        code = frame.f_code
        # A function with no `try` has no exception table (3.11+): nothing to look up, so an
        # ordinary division costs no source scan.
        if id(code) in generated_codes and getattr(code, "co_exceptiontable", True):
            found = _try_around(code.co_filename, frame.f_lineno, names)
            if found is not None:
                line = source_line(frame)
                shown = " or ".join(k.__name__ for k in kinds)
                fail(
                    frame,
                    f"`{line}`: {what} may raise {shown} when the graph runs, inside the `try` "
                    f"at line {found[0]} whose `{found[1]}` handles it: a graph cannot jump to "
                    "the handler when it runs. Test for the failing case with an `if` (or "
                    "np.where) instead of catching it, or run this part outside "
                    "autoconv.function.",
                )
        frame = frame.f_back
