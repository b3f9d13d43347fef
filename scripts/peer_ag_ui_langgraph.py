"""Drives the Python ag-ui-langgraph adapter over a recorded v2 `astream_events` log, the way
its endpoint does per event, without a live graph: json.loads of each line, then
`LangGraphAgent._handle_single_event` (its translation of one v2 event into AG-UI events),
then `EventEncoder.encode` (its SSE encoder). RAW passthrough events are off, as aguify emits
none. Prints lines, events, bytes and seconds as one JSON object.

usage: python peer_ag_ui_langgraph.py LOG > /dev/null 2> stats.json
"""

import asyncio
import json
import os
import sys
import time

from ag_ui.encoder import EventEncoder
from ag_ui_langgraph import LangGraphAgent
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict):
    messages: list


def graph():
    g = StateGraph(State)
    g.add_node("noop", lambda s: {})
    g.add_edge(START, "noop")
    g.add_edge("noop", END)
    return g.compile()


def fresh_run(agent, run_no):
    # The per-run bookkeeping `_handle_stream_events` sets up (INITIAL_ACTIVE_RUN).
    agent.active_run = {
        "id": f"run-{run_no}", "thread_id": "thread-bench", "mode": "start",
        "reasoning_processes": {}, "pending_reasoning_ids": {}, "current_text_message_ids": {},
        "current_text_message_nodes": {}, "node_name": None, "has_function_streaming": False,
        "streamed_tool_call_ids": set(), "tool_call_owners": {}, "model_made_tool_call": False,
        "state_reliable": True, "active_subagents": {}, "current_subagent_run_id": None,
        "subagent_task_meta": {}, "subagent_task_runs": {}, "subagent_parents": {},
        "pending_task_calls": [], "seen_task_call_ids": set(), "task_tool_call_ids_by_ns": {},
        "subagent_segments": set(), "subagent_messages": {},
        "emit_subagent_events": agent.emit_subagent_events, "subagent_tool_call_owner": {},
        "inbound_subagent_messages": [], "usage": [], "usage_run_ids": set(),
        "manually_emitted_state": None,
    }


async def main(path):
    agent = LangGraphAgent(name="bench", graph=graph(), emit_raw_events=False)
    enc = EventEncoder()
    out = sys.stdout
    lines = events = errors = 0
    runs = 0
    t0 = time.perf_counter()
    with open(path, "rb") as f:
        for raw in f:
            if not raw.strip():
                continue
            lines += 1
            ev = json.loads(raw)
            if ev.get("event") == "on_chain_start" and ev.get("parent_ids") == []:
                runs += 1
                fresh_run(agent, runs)
            if agent.active_run is None:
                fresh_run(agent, runs)
            try:
                async for e in agent._handle_single_event(ev, {}):
                    out.write(enc.encode(e))
                    events += 1
            except Exception:  # an event shape the driver's bare setup cannot take
                errors += 1
    dt = time.perf_counter() - t0
    size = os.path.getsize(path)
    print(json.dumps({"lines": lines, "events": events, "errors": errors, "bytes": size, "seconds": dt}), file=sys.stderr)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
