"""Messages of trace/tensors/loops.py that take more words than its code."""


def whole_list_text(name: str, what: str, held: str | None) -> str:
    """A list a staged loop pops from or changes otherwise than by appending, whose items
    cannot be one run-time list: `held` describes an item that is not an array or number
    (None: items of several kinds). A dict's values (`name`: "d.values()") say so."""
    if held is not None and name.endswith(".values()"):  # a dict given run-time keys
        return dict_values_text(name, what, held)
    need = (
        "its items to be arrays or numbers of one kind"
        if held is None
        else (f"arrays or numbers as items, not {held}")
    )
    return (
        f"list `{name}` is changed in this {what} by a method other than append(), so its "
        f"length is known only when the graph runs, and that needs {need}."
    )


def dict_values_text(name: str, what: str, held: str) -> str:
    """A dict given keys known only when the graph runs in a staged loop (`accts[a] =
    Account(a)` with `a = int(row[0])`), whose values (`name`: "accts.values()", a run-time
    list then) are `held`, not arrays or numbers."""
    return (
        f"dict `{name[: -len('.values()')]}` gets keys known only when the graph runs in this "
        f"{what}, and holds {held} as values: a dict holding run-time keys keeps its values as "
        "arrays or numbers. Keep each field in a dict of numbers (`balance[a] = "
        "balance.get(a, 0) + v`), or in an array indexed by the key."
    )
