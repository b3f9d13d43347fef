"""aguify: LangGraph event logs in, AG-UI 1.0 events out.

The package holds the `aguify` command-line binary; this module only finds it, for
`python -m aguify` and for code that wants to run it.
"""

import os
import sys
import sysconfig

__all__ = ["find_aguify_bin"]

_EXE = "aguify" + (sysconfig.get_config_var("EXE") or "")


def find_aguify_bin() -> str:
    """The path of the `aguify` binary this package installed.

    Looked for in the scripts folder of the install scheme that holds this package (a venv,
    the system, `pip install --user`, `pip install --target`), then on PATH.
    """
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.path.join(sysconfig.get_path("scripts"), _EXE)]
    if sys.version_info >= (3, 10):
        user_scheme = sysconfig.get_preferred_scheme("user")
    elif os.name == "nt":
        user_scheme = "nt_user"
    else:
        user_scheme = "posix_user"
    candidates.append(os.path.join(sysconfig.get_path("scripts", scheme=user_scheme), _EXE))
    # `pip install --target DIR`: the scripts go to DIR/bin beside DIR/aguify.
    candidates.append(os.path.join(os.path.dirname(here), "bin", _EXE))
    for path in candidates:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        path = os.path.join(folder, _EXE)
        if folder and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    raise FileNotFoundError(
        "aguify: the aguify binary is not installed beside this package "
        f"(looked in {', '.join(candidates)} and on PATH); reinstall with `pip install aguify`"
    )
