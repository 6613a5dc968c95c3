"""`python -m autoconv`: the same as the `autoconv` command."""

import sys

from autoconv.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
