#!/usr/bin/env python3
"""Run a local langgraph-api (in-memory runtime) serving platform_graphs.py on 127.0.0.1.

    python examples/recorders/serve_platform.py [--port 2024]
"""

import argparse
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=2024)
    args = ap.parse_args()
    os.environ.setdefault("LANGSMITH_TRACING", "false")
    os.environ.setdefault("LANGGRAPH_CLI_NO_ANALYTICS", "1")
    import platform_graphs  # noqa: F401  (fail fast on import errors)
    from langgraph_api.cli import run_server

    names = [n for n in dir(platform_graphs) if n.startswith(("classic__", "v3__"))]
    graphs = {n: f"{HERE / 'platform_graphs.py'}:{n}" for n in names}
    # in-memory only: no .langgraph_api/ state that would re-run old runs on the next start
    run_server(
        host="127.0.0.1", port=args.port, graphs=graphs, open_browser=False, reload=False, disable_persistence=True
    )


if __name__ == "__main__":
    main()
