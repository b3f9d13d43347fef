#!/usr/bin/env python3
"""Record AG-UI captures of another adapter (ag-ui-langgraph) running the recorder's Python graphs.

    python examples/recorders/record_peer.py --out testdata/pending [--only e_recursion_limit,...]

Writes peer-ag-ui-langgraph/<scenario>.ndjson: the AG-UI events `ag_ui_langgraph.LangGraphAgent.run`
yields for one RunAgentInput (raw events off, fields by alias, None fields left out), one per line.
These are AG-UI *captures* (aguify reads them with `--from agui`), not LangGraph logs.
Needs `pip install -c requirements.txt -r requirements-peer.txt` on top of the recorder venv.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from ag_ui.core import RunAgentInput, UserMessage  # noqa: E402
from ag_ui_langgraph import LangGraphAgent  # noqa: E402

import record_py  # noqa: E402

# scenario -> (user text, LangGraphAgent keyword arguments)
PEER: dict[str, tuple[str, dict[str, Any]]] = {
    # 22.10: the adapter's RUN_ERROR carries only the message ("Recursion limit of 3 reached ...")
    "e_recursion_limit": ("Wait for the backup job", {"config": {"recursion_limit": 3}}),
    "e_model_connection_reset": ("Hi there", {}),
    # 28.2: how this adapter renders a sub-agent run inside a tool (its opt-in SUBAGENT_* events)
    "m_supervisor": ("What's the weather in Paris?", {"emit_subagent_events": True}),
}


async def record(name: str, out: Path) -> None:
    scn = next(s for s in record_py.scenarios() if s.name == name)
    text, kwargs = PEER[name]
    agent = LangGraphAgent(name=name, graph=scn.build(), emit_raw_events=False, **kwargs)
    inp = RunAgentInput(
        thread_id=f"thread-{name}",
        run_id=f"run-{name}-1",
        state={},
        messages=[UserMessage(id=f"human-{name}", role="user", content=text)],
        tools=[],
        context=[],
        forwarded_props={},
    )
    lines = [ev.model_dump_json(by_alias=True, exclude_none=True) async for ev in agent.run(inp)]
    path = out / "peer-ag-ui-langgraph" / f"{name}.ndjson"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines))
    print(f"  wrote {path} ({len(lines)} lines)")


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="testdata/pending", type=Path)
    ap.add_argument("--only", default="", help="comma-separated scenario names")
    args = ap.parse_args()
    only = {s for s in args.only.split(",") if s}
    for name in PEER:
        if only and name not in only:
            continue
        print(name)
        await record(name, args.out)


if __name__ == "__main__":
    asyncio.run(main())
