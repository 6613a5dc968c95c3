"""Lowering of an escape statement (`return`, `break` or `continue`) to a flag.

The escape becomes an assignment to a flag, and the statements it would have skipped are
guarded. Two shapes keep the result flat and short, the way one would write it by hand:

* else-merge: in `if c: ...escape` followed by statements that do not escape, those
  statements move into the other branch and no flag is read at all;
* flat guards: otherwise the rest of the block is cut after each statement that may escape,
  and each piece gets its own `if not flag:` (merged into a lone `if` as `if not flag and c:`),
  so a chain of guard clauses does not nest deeper and deeper.

An escape out of a `finally` block discards whatever was leaving the `try` (an exception, or
another escape), as Python's rule is. Each pass lowers it to a flag of its own and records what
to commit in a `FinallyExits` on the `try`; `finally_exits.finish` puts the pieces together
once all three passes have run.
"""

import copy

import gast

from autoconv.pyct import anno, scopes
from autoconv.pyct.walk import children, walk

_LOOPS = (gast.For, gast.While, gast.AsyncFor)
_PENDING = {gast.Return: "returning", gast.Break: "breaking", gast.Continue: "continuing"}
_FINALLY = {
    gast.Return: "finally_return",
    gast.Break: "finally_break",
    gast.Continue: "finally_continue",
}


def _is_try(node) -> bool:
    return isinstance(node, gast.Try) or type(node).__name__ == "TryStar"


def _exits_late(node) -> bool:
    """Whether code runs after an escape from inside `node` (and may raise, cancelling it)."""
    if isinstance(node, (gast.With, gast.AsyncWith)):
        return True
    return _is_try(node) and bool(node.finalbody)


class FinallyExits:
    """What the escape passes lowered in a `try` whose `finally` may escape (annotation
    "finally_exits" on the `try`), put together by `finally_exits.finish`."""

    def __init__(self):
        self.inits = []  # `flag = False` for each flag below, run before the `try`
        self.finals = []  # (flag, commit): an escape out of the `finally`, one per kind
        self.pending = []  # (flag, commit): an escape out of the rest, waiting for the `finally`


def finally_exits(node):
    """The `FinallyExits` of the `try` statement `node`, or None when its `finally` holds no
    `return`, and no `break` or `continue` outside loops of its own."""
    if not _is_try(node) or not node.finalbody:
        return None
    record = anno.get(node, "finally_exits")
    if record is None:  # not asked yet (False: asked, and it has none)
        record = FinallyExits() if _escapes_from(node.finalbody) else False
        anno.set(node, "finally_exits", record)
    return record or None


def _escapes_from(stmts) -> bool:
    loops = []  # break and continue inside these belong to them
    for node in scopes.walk_scope(stmts):
        if isinstance(node, gast.Return):
            return True
        if isinstance(node, (gast.Break, gast.Continue)):
            if not any(node is n for loop in loops for n in scopes.walk_scope(loop.body)):
                return True
        elif isinstance(node, _LOOPS):
            loops.append(node)
    return False


class Escape:
    """One kind of escape, lowered in the blocks it is asked to lower."""

    def __init__(self, kind, flag: str, enter_loops: bool, namer=None):
        self.kind = kind  # gast.Return, gast.Break or gast.Continue
        self.flag = flag
        self.enter_loops = enter_loops
        self.namer = namer
        self.catching = 0  # `try ... except` or `with` bodies we are in, within the scope
        self.created = set()  # names of pending flags made along the way
        self.flag_read = False
        self.dropped = []  # unreachable statements left out; their bindings still make locals
        self.deferred = []  # commits kept in `FinallyExits` until `finally_exits.finish`
        self._contains = {}  # id(node) -> (node, whether it holds this escape), on originals

    def replace(self, node) -> list:
        """The statements that stand for the escape `node`."""
        return [assign(self.flag, True, node)]

    # -- queries on the original (not yet lowered) statements --

    def is_escape(self, node) -> bool:
        return isinstance(node, self.kind)

    def contains(self, node) -> bool:
        hit = self._contains.get(id(node))
        if hit is None:
            found = self.is_escape(node) or any(
                self.contains(s) for block in self.blocks(node) for s in block
            )
            hit = self._contains[id(node)] = (node, found)
        return hit[1]

    def always(self, stmts) -> bool:
        """Whether every path through `stmts` ends in this escape."""
        for s in stmts:
            if self.is_escape(s):
                return True
            if finally_exits(s) is not None:
                # An escape of another kind out of the `finally` may cancel this one.
                if self.always(s.finalbody):
                    return True
                continue
            if isinstance(s, gast.If) and self.always(s.body) and self.always(s.orelse):
                return True
            # A `with` never counts: its `__exit__` may swallow an exception raised before the
            # escape, and execution then goes on after it.
            if (
                isinstance(s, gast.Try)
                and self.always(s.body)
                and s.handlers
                and all(self.always(h.body) for h in s.handlers)
            ):
                return True
        return False

    def blocks(self, node) -> list:
        """The statement lists inside `node` that this escape may leave from."""
        if isinstance(node, gast.If):
            return [node.body, node.orelse]
        if isinstance(node, _LOOPS):
            return [node.body, node.orelse] if self.enter_loops else [node.orelse]
        if isinstance(node, (gast.With, gast.AsyncWith)):
            return [node.body]
        if _is_try(node):
            return [node.body, node.orelse, node.finalbody] + [h.body for h in node.handlers]
        if isinstance(node, gast.Match):
            return [case.body for case in node.cases]
        return []

    # -- rewriting --

    def lower_inside(self, node) -> list:
        """Lowers the escapes in every block of `node`, in place; returns what stands for it:
        `node`, or `node` between the set-up and the commit of a pending escape."""
        if self.namer is not None and finally_exits(node) is not None:
            return self._lower_finally_exits(node)
        if self.catching and self.namer is not None and _exits_late(node):
            return self._lower_pending(node)
        self._lower_blocks(node)
        return [node]

    def _lower_pending(self, node) -> list:
        """An escape inside `try ... finally` or `with` only happens once the `finally` or
        `__exit__` has run without raising: raising cancels it, and an enclosing `except` in
        this scope may carry on. So the escape sets a pending flag, committed after `node`."""
        pending, commit = self._fork(_PENDING[self.kind], node)
        pending._lower_blocks(node)
        after = copy_location_tree(gast.If(test=name(pending.flag), body=commit, orelse=[]), node)
        return [assign(pending.flag, False, node), node, after]

    def _fork(self, prefix, node, retval=None):
        """A copy of this escape that sets a new flag instead, and the statements that commit
        it (`retval = returned; do_return = True`) where `node` ends."""
        fork = copy.copy(self)
        fork.catching = 0
        fork.flag = self.namer.new(prefix)
        fork.flag_read = False
        self.created.add(fork.flag)
        commit = [assign(self.flag, True, node)]
        if getattr(self, "retval", None) is not None:
            if retval is None:
                retval = self.namer.new("returned")
                self.created.add(retval)
                commit.insert(0, assign(self.retval, name(retval), node))
            fork.retval = retval
        return fork, commit

    def _lower_finally_exits(self, node) -> list:
        """`node` is a `try` whose `finally` may escape, discarding whatever leaves the rest of
        the `try`. An escape out of the `finally` sets a flag of its own; one out of the rest
        sets a pending flag that the `finally`'s own escape overrides. `finally_exits.finish`
        commits them after the `try`, and puts `try: ... except BaseException:` around it to
        discard the exception in flight when the `finally` escaped."""
        record = finally_exits(node)
        if self.contains_any(node.finalbody):
            # A value the `finally` returns is final: nothing can cancel it before the commit,
            # so it goes straight to where this escape's value goes.
            final, commit = self._fork(_FINALLY[self.kind], node, getattr(self, "retval", None))
            final.catching = 1  # an exception after the flag is set (`__exit__`) cancels it
            node.finalbody = final.lower(node.finalbody)
            record.inits.append(assign(final.flag, False, node))
            record.finals.append((final.flag, commit))
            self.deferred.append(commit)
        if any(self.contains_any(b) for b in self._blocks_before_finally(node)):
            pending, commit = self._fork(_PENDING[self.kind], node)
            pending._lower_blocks(node, finalbody=False)
            record.inits.append(assign(pending.flag, False, node))
            record.pending.append((pending.flag, commit))
            self.deferred.append(commit)
        return [node]

    @staticmethod
    def _blocks_before_finally(node) -> list:
        return [node.body, node.orelse] + [h.body for h in node.handlers]

    def remove_flag(self, stmts) -> None:
        """Deletes every assignment to this escape's flag in `stmts` and in the commits kept
        for `finally_exits.finish` (a flag nobody reads)."""
        remove_assignments(stmts, self.flag)
        for commit in self.deferred:
            remove_assignments(commit, self.flag)

    def _lower_blocks(self, node, finalbody=True) -> None:
        if isinstance(node, gast.If):
            node.body, node.orelse = self.lower(node.body), self.lower(node.orelse)
        elif isinstance(node, _LOOPS):
            if self.enter_loops and self.contains_any(node.body):
                node.body = self.lower(node.body)
                # The loop stops on this escape's flag: the function's, or a pending one.
                flags = anno.get(node, "stop_flags", [])
                if self.flag not in flags:
                    anno.set(node, "stop_flags", [*flags, self.flag])
            node.orelse = self.lower(node.orelse)
        elif isinstance(node, (gast.With, gast.AsyncWith)):
            self.catching += 1  # `__exit__` may suppress an exception, as `except` does
            node.body = self.lower(node.body)
            self.catching -= 1
        elif _is_try(node):
            body_escapes = self.contains_any(node.body)
            self.catching += bool(node.handlers)
            node.body = self.lower(node.body)
            self.catching -= bool(node.handlers)
            node.orelse = self.lower(node.orelse)
            if body_escapes:  # `else` runs only when the body ran to its end
                node.orelse = self.guard(node.orelse)
            if finalbody:
                node.finalbody = self.lower(node.finalbody)
            for handler in node.handlers:
                handler.body = self.lower(handler.body)
        elif isinstance(node, gast.Match):
            for case in node.cases:
                case.body = self.lower(case.body)

    def lower(self, stmts, first_segment_kept: bool = False) -> list:
        """Lowers a block. With `first_segment_kept`, escapes before the first statement that
        may escape from inside are left alone (a function's top-level `return`)."""
        out, guarded, i = [], False, 0
        while i < len(stmts):
            segment = []
            while i < len(stmts):
                s = stmts[i]
                i += 1
                if self.is_escape(s) and not (first_segment_kept and not guarded):
                    segment.extend(self.replace(s))
                    self.dropped.extend(stmts[i:])  # the rest is unreachable
                    i = len(stmts)
                    break
                if not self.contains(s) or self.is_escape(s):
                    segment.append(s)
                    continue
                always = self.always([s])
                rest = stmts[i:]
                merge = self._merge_branch(s, rest)
                segment.extend(self.lower_inside(s))
                if always:
                    self.dropped.extend(stmts[i:])
                    i = len(stmts)
                elif merge is not None:
                    getattr(s, merge).extend(self.lower(rest))
                    i = len(stmts)
                break
            if guarded:
                out.extend(self.guard(segment))
            else:
                out.extend(segment)
            guarded = True
        return out

    def _merge_branch(self, node, rest):
        """The branch of `node` ("body" or "orelse") that `rest` can move into, or None."""
        if not rest or not isinstance(node, gast.If):
            return None
        # One more escaping statement may follow before the last (`if a: return 1` /
        # `if b: return 2` / `return 3` nests two deep and needs no flag); more stay flat.
        if sum(self.contains(r) for r in rest[:-1]) > 1:
            return None
        if self.contains(rest[-1]) and not self.is_escape(rest[-1]):
            return None
        if self.always(node.body) and not self.contains_any(node.orelse):
            return "orelse"
        if node.orelse and self.always(node.orelse) and not self.contains_any(node.body):
            return "body"
        return None

    def contains_any(self, stmts) -> bool:
        return any(self.contains(s) for s in stmts)

    def guard(self, stmts) -> list:
        """`if not flag: stmts`, merged into a lone `if` without `else`."""
        if not stmts:
            return []
        self.flag_read = True
        not_flag = gast.UnaryOp(op=gast.Not(), operand=name(self.flag))
        first = stmts[0]
        if len(stmts) == 1 and isinstance(first, gast.If) and not first.orelse:
            first.test = gast.BoolOp(op=gast.And(), values=[not_flag, first.test])
            copy_location_tree(first.test, first)
            return [first]
        node = gast.If(test=not_flag, body=stmts, orelse=[])
        copy_location_tree(node, first)
        return [node]


def name(identifier: str, ctx=None):
    return gast.Name(id=identifier, ctx=ctx or gast.Load(), annotation=None, type_comment=None)


def assign(target: str, value, origin):
    """`target = value` (value: a node or a Python constant), located at `origin`."""
    if not isinstance(value, gast.AST):
        value = gast.Constant(value=value, kind=None)
    node = gast.Assign(targets=[name(target, gast.Store())], value=value, type_comment=None)
    return copy_location_tree(node, origin)


# A column past any line's end: the traceback then shows the whole line, with no carets.
_TO_END_OF_LINE = 10_000


def copy_location_tree(node, origin):
    """Gives `node` and its descendants that have no location the location of `origin`, cut to
    its first line: a generated node spanning several lines would make Python report its last
    line for some instructions (method calls), while the user's statement starts at the first."""
    start, col = getattr(origin, "lineno", None), getattr(origin, "col_offset", None)
    if getattr(origin, "end_lineno", None) == start:
        end_col = getattr(origin, "end_col_offset", col)
    else:
        end_col = _TO_END_OF_LINE
    # Nodes that have a location already are the user's (or were located when made): their
    # subtrees are located too, so the walk stops there.
    stack = [node]
    while stack:
        child = stack.pop()
        if child._attributes:  # the classes that have a location at all (`lineno` first)
            if getattr(child, "lineno", None) is None:
                child.lineno, child.col_offset = start, col
                child.end_lineno, child.end_col_offset = start, end_col
            elif child is not node:
                continue
        stack.extend(children(child))
    return node


def remove_assignments(stmts: list, flag: str) -> None:
    """Deletes every `flag = ...` statement in and under `stmts` (a flag nobody reads)."""
    stmts[:] = [s for s in stmts if not is_assignment(s, flag)]
    for node in stmts:
        for child in walk(node):
            for field in ("body", "orelse", "finalbody"):
                block = getattr(child, field, None)
                if isinstance(block, list):
                    block[:] = [s for s in block if not is_assignment(s, flag)]


def is_assignment(stmt, flag) -> bool:
    """Whether `stmt` is `flag = ...`."""
    return (
        isinstance(stmt, gast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], gast.Name)
        and stmt.targets[0].id == flag
    )


def located_name(identifier: str, ctx, origin):
    return copy_location_tree(name(identifier, ctx), origin)
