"""`python -m autoconv`: the same as the `autoconv` command.

`python -m` puts the current folder first on `sys.path`, so a `json.py` or `numpy.py` there would
be imported in place of the real module by autoconv itself. That entry is dropped before
anything else is imported (see "Trust model" in docs/cli.md).
"""

import os
import sys


def _drop_current_folder() -> None:
    if getattr(sys.flags, "safe_path", False) or not sys.path:
        return  # python -P: nothing was added
    if sys.path[0] in ("", os.getcwd()):
        del sys.path[0]


if __name__ == "__main__":
    _drop_current_folder()
    from autoconv.cli.main import main

    sys.exit(main())
