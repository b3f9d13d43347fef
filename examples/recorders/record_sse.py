#!/usr/bin/env python3
"""Capture real platform SSE streams from a local langgraph-api server (in-memory runtime).

    python examples/recorders/record_sse.py --out testdata/recordings [--only a_plain_chat,...]

Starts serve_platform.py on a free 127.0.0.1 port, then per scenario:
  sse/platform-classic-events.<scenario>.sse   POST /threads/{id}/runs/stream, stream_mode ["events"]
  sse/platform-v3-protocol.<scenario>.sse      POST /threads/{id}/stream/events (all channels) +
                                               POST /threads/{id}/commands run.start / input.respond
  sdk-parts/<scenario>.ndjson                  the classic capture as SDK StreamParts {"event","data"[,"id"]}
The raw response bytes are written unchanged. Resume pairs get __1_interrupt / __2_resume.
With --pending (into testdata/pending): `l_cancelled` in both APIs, cancelled by the platform
(POST /threads/{id}/runs/{run_id}/cancel) after the 3rd text chunk arrived.
The server is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

V3_CHANNELS = ["values", "updates", "messages", "tools", "custom", "lifecycle", "input", "tasks"]



def _human(text: str, name: str) -> dict:
    return {"messages": [{"type": "human", "content": text, "id": f"human-{name}"}]}


RUN_CONFIG = {"e_recursion_limit": {"recursion_limit": 3}, "o_subgraph_recursion": {"recursion_limit": 4}}


class ResumeAll(list):
    """A resume answering every pending interrupt by its id (answers in the order the thread's
    state lists the interrupts): classic `command.resume` = {id: answer}, v3 `input.respond`
    with `responses` (one command for all)."""


def _history(name: str) -> dict:
    """record_py.remove_messages_input as the API's message dicts."""
    import record_py

    msgs = record_py.remove_messages_input(name)["messages"]
    return {"messages": [{"type": m.type, "content": m.content, "id": m.id} for m in msgs]}


def scenario_inputs() -> dict[str, list[tuple[str, dict | None, dict | None]]]:
    """scenario -> [(suffix, input, resume)]"""
    one = lambda name, text: [("", _human(text, name), None)]  # noqa: E731
    return {
        "a_plain_chat": one("a_plain_chat", "Hi there"),
        "b_react_one_tool": one("b_react_one_tool", "Weather in Paris?"),
        "b_react_parallel": one("b_react_parallel", "Weather in Paris and London?"),
        "c_reasoning_anthropic": one("c_reasoning_anthropic", "Capital of France?"),
        "c_reasoning_openai": one("c_reasoning_openai", "Capital of France?"),
        "d_hitl": [("__1_interrupt", _human("Order 2 widgets", "d_hitl"), None), ("__2_resume", None, {"approved": True})],
        "e_error_tool_raises": one("e_error_tool_raises", "Where is order A-1?"),
        "e_model_rate_limit": one("e_model_rate_limit", "Hi there"),
        "e_recursion_limit": one("e_recursion_limit", "Wait for the backup job"),
        "f_subgraph": one("f_subgraph", "Research Paris"),
        "g_custom_events": one("g_custom_events", "Do the work"),
        "h_state": [("", {**_human("Plan my day", "h_state"), "counter": 0, "status": "new", "items": []}, None)],
        "i_tool_output_delta": one("i_tool_output_delta", "Search the docs for install"),
        # issue 39.6: each model call streams its first 2 chunks only, then ends with the complete message
        "k_stream_cut": one("k_stream_cut", "Weather in Paris?"),
        # the o_* scenarios of the NDJSON forms (record_py.py), on the platform
        "o_send_map_reduce": one("o_send_map_reduce", "Write about cats and dogs"),
        "o_subgraph_agent": one("o_subgraph_agent", "Research Paris weather"),
        "o_subgraph_error": one("o_subgraph_error", "Research Paris"),
        "o_subgraph_recursion": one("o_subgraph_recursion", "Wait for the backup job"),
        "o_tool_content_blocks": one("o_tool_content_blocks", "Chart for Paris?"),
        "o_v1_tool_call": one("o_v1_tool_call", "Weather in Paris?"),
        "o_remove_messages": [("", _history("o_remove_messages"), None)],
        "o_frontend_tool": one("o_frontend_tool", "Book Le Meurice"),
        "o_parallel_interrupts": [
            ("__1_interrupt", _human("Buy widgets and gadgets", "o_parallel_interrupts"), None),
            ("__2_resume", None, ResumeAll([{"approved": True}, {"approved": False}])),
        ],
        "o_remove_all": [("", _history("o_remove_all"), None)],
        "o_structured_model": one("o_structured_model", "Weather in Paris?"),
        # sub-agents, HITL middleware, parallel interrupts and a handoff on the platform
        "m_supervisor": one("m_supervisor", "What's the weather in Paris?"),
        "m_supervisor_parallel": one("m_supervisor_parallel", "Weather and news from Paris?"),
        "m_supervisor_hitl": [
            ("__1_interrupt", _human("Order 2 widgets", "m_supervisor_hitl"), None),
            ("__2_resume", None, {"approved": True}),
        ],
        "n_hitl_middleware": [
            ("__1_interrupt", _human("Email Bob about lunch", "n_hitl_middleware"), None),
            ("__2_resume", None, ResumeAll([{"decisions": [{"type": "approve"}]}])),
        ],
        "n_two_interrupts": [
            ("__1_interrupt", _human("Order 2 widgets and 1 gadget", "n_two_interrupts"), None),
            ("__2_resume", None, ResumeAll([{"approved": True}, {"approved": False}])),
        ],
        "n_handoff": one("n_handoff", "I want a refund"),
        # shapes added with them (record_py.py, platform_round_scenarios)
        "p_subgraph_tool_raises": one("p_subgraph_tool_raises", "Research order A-1"),
        "p_multi_turn_hitl": [
            ("__1_interrupt", _human("Order 2 widgets", "p_multi_turn_hitl"), None),
            ("__2_resume", None, {"approved": True}),
            ("__3_interrupt", {"messages": [{"type": "human", "content": "Now order 1 gadget", "id": "human-p_multi_turn_hitl-2"}]}, None),
            ("__4_resume", None, {"approved": False}),
        ],
    }


# pending: scenario -> (input, cancel the run after this many streamed text chunks)
CANCEL_INPUTS = {"l_cancelled": (_human("Tell me something", "l_cancelled"), 3)}


def parse_sse(raw: bytes) -> list[dict]:
    """Minimal SSE parser: frames of event/data/id."""
    frames = []
    text = raw.decode("utf-8").lstrip("\ufeff")
    for block in text.replace("\r\n", "\n").split("\n\n"):
        ev: dict = {}
        data_lines = []
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "data":
                data_lines.append(value)
            elif field in ("event", "id"):
                ev[field] = value
        if data_lines:
            ev["data"] = "\n".join(data_lines)
        if ev:
            frames.append(ev)
    return frames


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def thread_id(form: str, name: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"aguify/recordings/{form}/{name}"))


async def classic_runs(client: httpx.AsyncClient, form: str, name: str, stream_mode: list[str], subgraphs: bool = False):
    """Each run of a scenario on one thread of the classic API: yields (suffix, raw SSE bytes)."""
    tid = thread_id(form, name)
    await client.post("/threads", json={"thread_id": tid, "if_exists": "do_nothing"})
    for suffix, inp, resume in scenario_inputs()[name]:
        body: dict = {"assistant_id": f"classic__{name}", "stream_mode": stream_mode}
        if subgraphs:
            body["stream_subgraphs"] = True
        if name in RUN_CONFIG:
            body["config"] = RUN_CONFIG[name]
        if isinstance(resume, ResumeAll):
            pending = (await client.get(f"/threads/{tid}/state")).json()["interrupts"]
            body["command"] = {"resume": {intr["id"]: resume[i % len(resume)] for i, intr in enumerate(pending)}}
        elif resume is not None:
            body["command"] = {"resume": resume}
        else:
            body["input"] = inp
        async with client.stream("POST", f"/threads/{tid}/runs/stream", json=body) as resp:
            yield suffix, await resp.aread()


async def capture_classic(client: httpx.AsyncClient, name: str, out: Path) -> None:
    async for suffix, raw in classic_runs(client, "classic", name, ["events"]):
        path = out / "sse" / f"platform-classic-events.{name}{suffix}.sse"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(raw)
        parts = []
        for f in parse_sse(raw):
            part = {"event": f.get("event", "message"), "data": json.loads(f["data"]) if "data" in f else None}
            if "id" in f:
                part["id"] = f["id"]
            parts.append(json.dumps(part, ensure_ascii=False, separators=(",", ":")))
        sdk = out / "sdk-parts" / f"{name}{suffix}.ndjson"
        sdk.parent.mkdir(parents=True, exist_ok=True)
        sdk.write_text("\n".join(parts) + "\n")
        print(f"  wrote {path} and {sdk} ({len(parts)} frames)")
        if name in WITHOUT_MODEL_END:
            cut = out / "sse" / f"platform-classic-events.{name}_no_model_end{suffix}.sse"
            cut.write_bytes(without_model_end(raw))
            print(f"  wrote {cut} (derived: no on_chat_model_end frames)")


# Derived captures (issue 39.6): the classic capture of these scenarios again without its
# `on_chat_model_end` frames, the shape of a capture whose tool-call args stop early and whose
# answer is complete only in the node and root chain outputs.
WITHOUT_MODEL_END = {"k_stream_cut"}


def without_model_end(raw: bytes) -> bytes:
    """`raw` without the frames whose data is an `on_chat_model_end` event (frames kept byte for byte)."""
    sep = b"\r\n\r\n" if b"\r\n\r\n" in raw else b"\n\n"
    return sep.join(f for f in raw.split(sep) if b'"event":"on_chat_model_end"' not in f)


# What front ends ask the classic API for, each a separate invocation (`--stream NAME`; the
# scripted models' turns are consumed per graph, so one server run serves one capture per
# scenario): name -> (file prefix, stream_mode, stream_subgraphs)
FRONT_END_STREAMS = {
    # SDK front ends (useStream without subgraphs)
    "tuple": ("platform-messages-tuple", ["messages-tuple", "values", "custom"], False),
    # CopilotKit's LangGraph platform agent (`streamMode: ["events", "values", "updates"]`)
    "copilotkit": ("platform-copilotkit", ["events", "values", "updates"], False),
    # useStream with `streamSubgraphs: true`: a subgraph's frames as `<mode>|<namespace>`
    "subgraphs": ("platform-subgraphs", ["messages-tuple", "values", "updates", "custom"], True),
}


async def capture_tuple(client: httpx.AsyncClient, name: str, out: Path, stream: str = "tuple") -> None:
    """A front end's stream of the classic API (FRONT_END_STREAMS)."""
    prefix, modes, subgraphs = FRONT_END_STREAMS[stream]
    async for suffix, raw in classic_runs(client, stream, name, modes, subgraphs):
        path = out / "sse" / f"{prefix}.{name}{suffix}.sse"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(raw)
        print(f"  wrote {path} ({len(parse_sse(raw))} frames)")


def _terminal(raw: bytes) -> bool:
    for f in parse_sse(bytes(raw)):
        if f.get("event") == "error":
            return True
        if f.get("event") != "lifecycle" or "data" not in f:
            continue
        try:
            ev = json.loads(f["data"])
        except ValueError:
            continue
        p = ev.get("params", {})
        if p.get("namespace") == [] and p.get("data", {}).get("event") in ("completed", "failed", "interrupted"):
            return True
    return False


async def capture_v3_run(client: httpx.AsyncClient, tid: str, command: dict, since: int | None) -> bytes:
    buf = bytearray()
    seen_terminal = asyncio.Event()

    async def reader() -> None:
        body: dict = {"channels": V3_CHANNELS}
        if since is not None:
            body["since"] = since
        async with client.stream("POST", f"/threads/{tid}/stream/events", json=body) as resp:
            async for chunk in resp.aiter_bytes():
                buf.extend(chunk)
                if _terminal(buf):
                    seen_terminal.set()

    task = asyncio.create_task(reader())
    await asyncio.sleep(0.5)  # let the subscription install
    r = await client.post(f"/threads/{tid}/commands", json=command)
    r.raise_for_status()
    try:
        await asyncio.wait_for(seen_terminal.wait(), 30)
        await asyncio.sleep(0.5)  # trailing frames
    except asyncio.TimeoutError:
        print("  (no terminal root lifecycle within 30s; keeping what arrived)")
    finally:
        task.cancel()
        try:
            await task
        except (asyncio.CancelledError, Exception):
            pass
    # keep whole frames only
    cut = bytes(buf).rfind(b"\n\n")
    return bytes(buf[: cut + 2]) if cut >= 0 else bytes(buf)


async def capture_v3(client: httpx.AsyncClient, name: str, out: Path) -> None:
    tid = thread_id("v3", name)
    await client.post("/threads", json={"thread_id": tid, "if_exists": "do_nothing"})
    since = None
    cmd_id = 0
    for suffix, inp, resume in scenario_inputs()[name]:
        cmd_id += 1
        if resume is None:
            params = {"assistant_id": f"v3__{name}", "input": inp}
            if name in RUN_CONFIG:
                params["config"] = RUN_CONFIG[name]
            cmd = {"id": cmd_id, "method": "run.start", "params": params}
        else:
            pending = (await client.get(f"/threads/{tid}/state")).json()["interrupts"]
            if isinstance(resume, ResumeAll):
                responses = [{"interrupt_id": intr["id"], "response": resume[i % len(resume)]} for i, intr in enumerate(pending)]
                cmd = {"id": cmd_id, "method": "input.respond", "params": {"responses": responses}}
            else:
                cmd = {"id": cmd_id, "method": "input.respond", "params": {"interrupt_id": pending[0]["id"], "response": resume}}
        raw = await capture_v3_run(client, tid, cmd, since)
        frames = [f for f in parse_sse(raw) if "id" in f]
        if frames:
            since = max(int(f["id"]) for f in frames)
        path = out / "sse" / f"platform-v3-protocol.{name}{suffix}.sse"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(raw)
        print(f"  wrote {path} ({len(parse_sse(raw))} frames)")


def _whole_frames(raw: bytes) -> bytes:
    """`raw` up to the end of its last complete frame (frames end with a blank line, CRLF or LF)."""
    ends = [i + len(sep) for sep in (b"\r\n\r\n", b"\n\n") if (i := raw.rfind(sep)) >= 0]
    return raw[: max(ends)] if ends else b""


def _text_chunks(raw: bytes) -> int:
    """Streamed text chunks in the whole frames of a classic or v3 capture so far."""
    n = 0
    for f in parse_sse(_whole_frames(raw)):
        data = f.get("data", "")
        n += '"on_chat_model_stream"' in data or '"content-block-delta"' in data
    return n


async def capture_cancelled(client: httpx.AsyncClient, name: str, out: Path) -> None:
    """One run per API, cancelled by the platform once `after` text chunks were streamed."""
    inp, after = CANCEL_INPUTS[name]
    for form, api in (("classic", "platform-classic-events"), ("v3", "platform-v3-protocol")):
        tid = thread_id(form, name)
        await client.post("/threads", json={"thread_id": tid, "if_exists": "do_nothing"})
        buf = bytearray()
        cancelled = False

        async def cancel_once() -> None:
            nonlocal cancelled
            if cancelled or _text_chunks(bytes(buf)) < after:
                return
            cancelled = True
            runs = (await client.get(f"/threads/{tid}/runs")).json()
            run_id = next(r["run_id"] for r in runs if r["status"] in ("pending", "running"))
            r = await client.post(f"/threads/{tid}/runs/{run_id}/cancel", params={"action": "interrupt"})
            print(f"  cancel {run_id}: HTTP {r.status_code}")

        if form == "classic":
            body = {"assistant_id": f"classic__{name}", "stream_mode": ["events"], "input": inp}
            async with client.stream("POST", f"/threads/{tid}/runs/stream", json=body) as resp:
                async for chunk in resp.aiter_bytes():
                    buf.extend(chunk)
                    await cancel_once()
        else:
            done = asyncio.Event()

            async def reader() -> None:
                async with client.stream("POST", f"/threads/{tid}/stream/events", json={"channels": V3_CHANNELS}) as resp:
                    async for chunk in resp.aiter_bytes():
                        buf.extend(chunk)
                        await cancel_once()
                        if _terminal(bytes(buf)):
                            done.set()

            task = asyncio.create_task(reader())
            await asyncio.sleep(0.5)  # let the subscription install
            cmd = {"id": 1, "method": "run.start", "params": {"assistant_id": f"v3__{name}", "input": inp}}
            (await client.post(f"/threads/{tid}/commands", json=cmd)).raise_for_status()
            try:
                await asyncio.wait_for(done.wait(), 30)
                await asyncio.sleep(0.5)  # trailing frames
            except asyncio.TimeoutError:
                print("  (no terminal root lifecycle within 30s; keeping what arrived)")
            finally:
                task.cancel()
                try:
                    await task
                except (asyncio.CancelledError, Exception):
                    pass
        raw = _whole_frames(bytes(buf))
        path = out / "sse" / f"{api}.{name}.sse"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(raw)
        print(f"  wrote {path} ({len(parse_sse(raw))} frames)")


async def run(out: Path, only: set[str], base_url: str, stream: str = "", pending: bool = False) -> None:
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
        if pending:
            for name in CANCEL_INPUTS:
                if not only or name in only:
                    print(name)
                    await capture_cancelled(client, name, out)
            return
        for name in scenario_inputs():
            if only and name not in only:
                continue
            print(name)
            if stream:
                await capture_tuple(client, name, out, stream)
                continue
            await capture_classic(client, name, out)
            await capture_v3(client, name, out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="testdata/recordings", type=Path)
    ap.add_argument("--only", default="")
    ap.add_argument("--server", default="", help="use a running server (base URL) instead of starting one")
    ap.add_argument(
        "--stream",
        default="",
        choices=sorted(FRONT_END_STREAMS),
        help="capture a front end's stream mode instead (FRONT_END_STREAMS; a separate invocation each)",
    )
    ap.add_argument(
        "--tuple-only",
        action="store_true",
        help="capture the messages-tuple mode instead (a separate invocation: the scripted model's "
        "turns are consumed per graph, so one server run serves one capture per scenario)",
    )
    ap.add_argument("--pending", action="store_true", help="capture the pending shapes (platform-cancelled runs) instead")
    args = ap.parse_args()
    only = {s for s in args.only.split(",") if s}
    proc = None
    base_url = args.server
    if not base_url:
        port = free_port()
        base_url = f"http://127.0.0.1:{port}"
        log = open(os.environ.get("SSE_SERVER_LOG", os.devnull), "wb")
        proc = subprocess.Popen(
            [sys.executable, str(HERE / "serve_platform.py"), "--port", str(port)],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=tempfile.mkdtemp(prefix="aguify-platform-"),
        )
        deadline = time.time() + 90
        while time.time() < deadline:
            try:
                if httpx.get(f"{base_url}/ok", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(1)
        else:
            proc.terminate()
            sys.exit("platform server did not come up")
    try:
        stream = "tuple" if args.tuple_only else args.stream
        asyncio.run(run(args.out, only, base_url, stream, args.pending))
    finally:
        if proc is not None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


if __name__ == "__main__":
    main()
