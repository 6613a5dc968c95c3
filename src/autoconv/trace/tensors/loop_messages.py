"""Messages of trace/tensors/loops.py that take more words than its code."""


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
