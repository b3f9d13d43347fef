"""`python -m aguify ARGS`: runs the installed `aguify` binary with ARGS, exits with its code."""

import os
import subprocess
import sys

from aguify import find_aguify_bin


def main() -> int:
    try:
        binary = find_aguify_bin()
    except FileNotFoundError as e:
        print(e, file=sys.stderr)
        return 2
    args = [binary, *sys.argv[1:]]
    if os.name == "posix":
        os.execv(binary, args)  # the binary takes this process over: signals, stdin, exit code
    return subprocess.call(args)


if __name__ == "__main__":
    sys.exit(main())
