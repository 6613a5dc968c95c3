"""Writing to standard output and standard error whatever their encoding.

Converted source and messages hold any Unicode (names, strings and paths from the user's
files). On a terminal whose encoding cannot show them (`LC_ALL=C`, `PYTHONIOENCODING=ascii`),
standard output gets the UTF-8 bytes (the same bytes a file written with `-o` holds), and
standard error gets escapes instead of an `UnicodeEncodeError`.
"""

import sys


def write_stdout(text: str) -> None:
    """Writes `text` to standard output as UTF-8."""
    stream = sys.stdout
    buffer = getattr(stream, "buffer", None)
    if buffer is None:  # replaced by a text-only stream (a test's capture): it takes str
        stream.write(text)
        return
    stream.flush()
    buffer.write(text.encode("utf-8", "surrogateescape"))
    buffer.flush()


def print_stderr(line: str) -> None:
    """Prints one line on standard error, escaping what its encoding cannot show."""
    stream = sys.stderr
    try:
        print(line, file=stream)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "ascii"
        print(line.encode(encoding, "backslashreplace").decode(encoding), file=stream)
