"""The errors of saving and loading graphs."""

from autoconv.errors import AutoconvError


class SaveError(AutoconvError):
    """A traced function holds something a saved file cannot carry (an object argument, a
    user-defined exception class, `print(file=...)`...). The message names the user's line."""


class LoadError(AutoconvError):
    """A saved file is damaged, hostile, too large or of an unknown version; it was refused
    before anything in it ran. The message names what is wrong."""


def brief_error(e: BaseException) -> str:
    """`e`'s message, short and printable, for a message about a file (it can quote the
    file's bytes)."""
    return ascii(str(e))[1:-1][:200]


class LoadFileNotFoundError(LoadError, FileNotFoundError):
    """`load` was given a path where there is no file (both a `LoadError` and the
    `FileNotFoundError` that `open` gives)."""
