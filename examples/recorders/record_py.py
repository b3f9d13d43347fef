#!/usr/bin/env python3
"""Record real LangGraph Python runs (offline scripted models) as aguify test inputs.

    python examples/recorders/record_py.py --out testdata/recordings [--only a_plain_chat,...]

Forms written (one file per scenario run):
  v2-python-api/        astream_events(version="v2"), langgraph-api serializer (orjson + langgraph_api.serde.default)
  v2-python-dumpd/      the same v2 run, langchain_core.load.dumps per event
  v3-python/            astream_events(version="v3"), wire form (as langgraph-api's Protocol v2 route forwards it)
  v3-python-inprocess/  the same v3 events straight from the in-process stream (messages data = [payload, metadata])

A run that raises ends with the terminal error line
{"event":"error","data":{"error":<exception class name>,"message":<str(exc)>}}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import operator
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from langchain.agents import create_agent  # noqa: E402
from langchain.tools import ToolRuntime  # noqa: E402
from langchain_core.callbacks.manager import adispatch_custom_event  # noqa: E402
from langchain_core.load import dumps  # noqa: E402
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage  # noqa: E402
from langchain_core.runnables import RunnableConfig  # noqa: E402
from langchain_core.tools import InjectedToolCallId, tool  # noqa: E402
from langgraph.checkpoint.memory import InMemorySaver  # noqa: E402
from langgraph.config import get_stream_writer  # noqa: E402
from langgraph.graph import END, START, MessagesState, StateGraph  # noqa: E402
from langgraph.graph.message import add_messages  # noqa: E402
from langgraph.prebuilt import ToolNode, tools_condition  # noqa: E402
from langgraph.stream.transformers import CustomTransformer  # noqa: E402
from langgraph.types import Command, interrupt  # noqa: E402
from langgraph_api.serde import json_dumpb  # noqa: E402
from langgraph_api.stream_v2 import normalize_v2_messages_data  # noqa: E402
from typing_extensions import TypedDict  # noqa: E402

import fake_models as fm  # noqa: E402

warnings.filterwarnings("ignore", message=".*experimental.*")

SYSTEM = "You are a helpful assistant."


def human(text: str, scenario: str) -> dict[str, Any]:
    return {"messages": [HumanMessage(content=text, id=f"human-{scenario}")]}


# --- tools ---------------------------------------------------------------------


@tool
def get_weather(city: str) -> str:
    """Get the current weather for a city."""
    return {"Paris": "Sunny, 22°C in Paris", "London": "Rainy, 14°C in London"}.get(city, f"Cloudy in {city}")


@tool
def lookup_order(order_id: str) -> str:
    """Look up an order by id."""
    raise ValueError(f"order service unavailable for {order_id}")


@tool
def check_status(job: str) -> str:
    """Check the status of a background job."""
    return f"{job}: still running"


@tool
def search_docs(query: str, runtime: ToolRuntime) -> str:
    """Search the docs and stream partial results."""
    for part in ["Found 2 docs", "; reading #1", "; reading #2"]:
        runtime.emit_output_delta(part)
    return f"2 docs about {query}: install, configure"


@tool
def place_order(item: str, qty: int) -> str:
    """Place an order; a human must approve it first."""
    answer = interrupt({"type": "approval", "message": f"Approve order of {qty} {item}?", "order": {"item": item, "qty": qty}})
    return f"Order of {qty} {item} placed." if answer.get("approved") else "Order rejected."


# --- graph builders --------------------------------------------------------------


def chat_graph(model: fm.ScriptedChatModel, node: str = "chat"):
    async def chat(state: MessagesState):
        return {"messages": [await model.ainvoke(state["messages"])]}

    g = StateGraph(MessagesState)
    g.add_node(node, chat)
    g.add_edge(START, node)
    g.add_edge(node, END)
    return g.compile(checkpointer=InMemorySaver())


def agent(turns: list[list[Any]], tools: list[Any], **kw: Any):
    model = fm.ScriptedChatModel(turns=turns, model_name="fake-model", **kw)
    return create_agent(model, tools, system_prompt=SYSTEM, checkpointer=InMemorySaver())


def hitl_graph():
    model = fm.ScriptedChatModel(
        turns=[fm.text_turn("I will order 2 widgets."), fm.text_turn("Your order has been placed.")]
    )

    def approve(state: MessagesState):
        answer = interrupt(
            {"type": "approval", "message": "Approve order?", "order": {"item": "widget", "qty": 2}}
        )
        verdict = "approved" if answer.get("approved") else "rejected"
        return {"messages": [AIMessage(content=f"Order {verdict}.", id="ai-approval-result")]}

    return approval_graph(model, approve)


def approval_graph(model, approve):
    """draft (a model call) → approve (`approve`, which interrupts) → confirm (a model call)."""

    async def draft(state: MessagesState):
        return {"messages": [await model.ainvoke(state["messages"])]}

    async def confirm(state: MessagesState):
        return {"messages": [await model.ainvoke(state["messages"])]}

    g = StateGraph(MessagesState)
    g.add_node("draft", draft)
    g.add_node("approve", approve)
    g.add_node("confirm", confirm)
    g.add_edge(START, "draft")
    g.add_edge("draft", "approve")
    g.add_edge("approve", "confirm")
    g.add_edge("confirm", END)
    return g.compile(checkpointer=InMemorySaver())


def handled_tool_error_graph():
    model = fm.ScriptedChatModel(
        turns=[
            fm.tool_calls_turn([("lookup_order", {"order_id": "A-1"}, "call_lookup_1")]),
            fm.text_turn("Sorry, the order service is unavailable."),
        ]
    ).bind_tools([lookup_order])

    async def agent_node(state: MessagesState):
        return {"messages": [await model.ainvoke(state["messages"])]}

    g = StateGraph(MessagesState)
    g.add_node("agent", agent_node)
    g.add_node("tools", ToolNode([lookup_order], handle_tool_errors=True))
    g.add_edge(START, "agent")
    g.add_conditional_edges("agent", tools_condition)
    g.add_edge("tools", "agent")
    return g.compile(checkpointer=InMemorySaver())


def subgraph_graph():
    inner_model = fm.ScriptedChatModel(turns=[fm.text_turn("Paris has 2.1M people.")])
    outer_model = fm.ScriptedChatModel(turns=[fm.text_turn("Research done.")])

    async def inner_chat(state: MessagesState):
        return {"messages": [await inner_model.ainvoke(state["messages"])]}

    sub = StateGraph(MessagesState)
    sub.add_node("inner_chat", inner_chat)
    sub.add_edge(START, "inner_chat")
    sub.add_edge("inner_chat", END)
    research = sub.compile()

    async def report(state: MessagesState):
        return {"messages": [await outer_model.ainvoke(state["messages"])]}

    g = StateGraph(MessagesState)
    g.add_node("research", research)
    g.add_node("report", report)
    g.add_edge(START, "research")
    g.add_edge("research", "report")
    g.add_edge("report", END)
    return g.compile(checkpointer=InMemorySaver())


AGUI_EVENTS = [
    {"type": "TEXT_MESSAGE_START", "messageId": "agui-note-1", "role": "assistant"},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "agui-note-1", "delta": "Working..."},
    {"type": "TEXT_MESSAGE_END", "messageId": "agui-note-1"},
]


def custom_events_graph():
    model = fm.ScriptedChatModel(turns=[fm.text_turn("Working on it.")])

    async def worker(state: MessagesState, config: RunnableConfig):
        writer = get_stream_writer()
        await adispatch_custom_event("progress", {"pct": 50, "stage": "thinking"}, config=config)
        writer({"pct": 50, "stage": "thinking"})
        for ev in AGUI_EVENTS:
            await adispatch_custom_event("agui", ev, config=config)
        # The writer carries its own native note: one AG-UI message must not be sent twice
        # (with stream_mode "custom" both channels reach a v2 log).
        for ev in AGUI_EVENTS:
            writer({"name": "agui", "payload": {**ev, "messageId": "agui-note-2"}})
        msg = await model.ainvoke(state["messages"])
        await adispatch_custom_event("manually_emit_state", {"stage": "done", "pct": 100}, config=config)
        writer({"stage": "done", "pct": 100})
        return {"messages": [msg]}

    g = StateGraph(MessagesState)
    g.add_node("worker", worker)
    g.add_edge(START, "worker")
    g.add_edge("worker", END)
    # v3 surfaces writer output only with a CustomTransformer registered (opt-in)
    return g.compile(checkpointer=InMemorySaver(), transformers=[CustomTransformer])


class ProgressState(MessagesState):
    progress: float


def float_progress_graph():
    """Numbers that are floats with no fraction (1.0, 120.0) in a custom event (v2:
    adispatch_custom_event; v3: the stream writer) and in the state: Python writes them `1.0`,
    JSON.stringify writes `1` (issue 22 item 13)."""
    model = fm.ScriptedChatModel(turns=[fm.text_turn("All done.")])

    async def worker(state: ProgressState, config: RunnableConfig):
        done = {"progress": 1.0, "stage": "done", "eta_s": 120.0, "items": 3}
        await adispatch_custom_event("progress", done, config=config)
        get_stream_writer()(done)
        msg = await model.ainvoke(state["messages"])
        return {"messages": [msg], "progress": 1.0}

    g = StateGraph(ProgressState)
    g.add_node("worker", worker)
    g.add_edge(START, "worker")
    g.add_edge("worker", END)
    return g.compile(checkpointer=InMemorySaver(), transformers=[CustomTransformer])


class TaskState(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]
    counter: int
    status: str
    items: Annotated[list[str], operator.add]


def state_graph():
    model = fm.ScriptedChatModel(turns=[fm.text_turn("Plan ready: 2 items.")])

    def plan(state: TaskState):
        return {"status": "planning", "items": ["buy milk", "walk dog"], "counter": state.get("counter", 0) + 1}

    async def chat(state: TaskState):
        msg = await model.ainvoke(state["messages"])
        return {"messages": [msg], "status": "done", "counter": state["counter"] + 1}

    g = StateGraph(TaskState)
    g.add_node("plan", plan)
    g.add_node("chat", chat)
    g.add_edge(START, "plan")
    g.add_edge("plan", "chat")
    g.add_edge("chat", END)
    return g.compile(checkpointer=InMemorySaver())


def supervisor_graph(hitl: bool = False):
    """A supervisor agent whose tool invokes a compiled sub-agent (own model calls and tools)."""
    if hitl:
        sub_turns = [
            fm.tool_calls_turn([("place_order", {"item": "widget", "qty": 2}, "call_place_order_1")]),
            fm.text_turn("Order of 2 widget placed."),
        ]
        sub = create_agent(
            fm.ScriptedChatModel(turns=sub_turns, model_name="fake-sub-model"), [place_order], system_prompt="You place orders.", name="order_agent"
        )
        sup_turns = [
            fm.tool_calls_turn([("ask_order_agent", {"request": "Order 2 widgets"}, "call_ask_order_1")]),
            fm.text_turn("The order agent placed your order of 2 widgets."),
        ]
        tool_name, tool_doc = "ask_order_agent", "Ask the order sub-agent to handle a request."
    else:
        sub_turns = [
            fm.tool_calls_turn([("get_weather", {"city": "Paris"}, "call_sub_weather_1")]),
            fm.text_turn("Paris: sunny, 22°C."),
        ]
        sub = create_agent(
            fm.ScriptedChatModel(turns=sub_turns, model_name="fake-sub-model"), [get_weather], system_prompt="You report weather.", name="weather_agent"
        )
        sup_turns = [
            fm.tool_calls_turn([("ask_weather_agent", {"request": "Weather in Paris?"}, "call_ask_weather_1")]),
            fm.text_turn("The weather agent says Paris is sunny, 22°C."),
        ]
        tool_name, tool_doc = "ask_weather_agent", "Ask the weather sub-agent."

    async def ask_agent(request: str) -> str:
        out = await sub.ainvoke({"messages": [HumanMessage(content=request, id=f"human-{tool_name}")]})
        return out["messages"][-1].text

    ask_agent.__name__ = tool_name
    ask_agent.__doc__ = tool_doc
    return create_agent(
        fm.ScriptedChatModel(turns=sup_turns, model_name="fake-model"),
        [tool(ask_agent)],
        system_prompt=SYSTEM,
        checkpointer=InMemorySaver(),
        name="supervisor",
    )


def parallel_supervisor_graph(tool_node: bool = False):
    """A supervisor whose one turn calls two different sub-agents at once (two tool calls, each
    invoking a compiled create_agent with its own model and tool). create_agent runs each call
    in a task of its own; `tool_node`: a StateGraph whose ToolNode runs both in one task."""
    weather = create_agent(
        fm.ScriptedChatModel(
            turns=[fm.tool_calls_turn([("get_weather", {"city": "Paris"}, "call_sub_weather_1")]), fm.text_turn("Paris: sunny, 22°C.")],
            model_name="fake-weather-model",
        ),
        [get_weather],
        system_prompt="You report weather.",
        name="weather_agent",
    )
    news = create_agent(
        fm.ScriptedChatModel(turns=[fm.text_turn("Paris news: the Seine is calm today.")], model_name="fake-news-model"),
        [],
        system_prompt="You report news.",
        name="news_agent",
    )

    @tool
    async def ask_weather_agent(request: str) -> str:
        """Ask the weather sub-agent."""
        out = await weather.ainvoke({"messages": [HumanMessage(content=request, id="human-ask_weather_agent")]})
        return out["messages"][-1].text

    @tool
    async def ask_news_agent(request: str) -> str:
        """Ask the news sub-agent."""
        out = await news.ainvoke({"messages": [HumanMessage(content=request, id="human-ask_news_agent")]})
        return out["messages"][-1].text

    sup_turns = [
        fm.tool_calls_turn(
            [
                ("ask_weather_agent", {"request": "Weather in Paris?"}, "call_ask_weather_1"),
                ("ask_news_agent", {"request": "News from Paris?"}, "call_ask_news_1"),
            ]
        ),
        fm.text_turn("Paris is sunny, 22°C, and the Seine is calm."),
    ]
    tools = [ask_weather_agent, ask_news_agent]
    model = fm.ScriptedChatModel(turns=sup_turns, model_name="fake-model")
    if not tool_node:
        return create_agent(model, tools, system_prompt=SYSTEM, checkpointer=InMemorySaver(), name="supervisor")
    bound = model.bind_tools(tools)

    async def supervisor(state: MessagesState):
        return {"messages": [await bound.ainvoke(state["messages"])]}

    g = StateGraph(MessagesState)
    g.add_node("supervisor", supervisor)
    g.add_node("tools", ToolNode(tools))
    g.add_edge(START, "supervisor")
    g.add_conditional_edges("supervisor", tools_condition)
    g.add_edge("tools", "supervisor")
    return g.compile(checkpointer=InMemorySaver())


@tool
def transfer_to_billing(reason: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
    """Hand the conversation over to the billing agent."""
    msg = ToolMessage(f"Transferred to billing: {reason}", tool_call_id=tool_call_id, name="transfer_to_billing")
    return Command(goto="billing", update={"messages": [msg]})


@tool(response_format="content_and_artifact")
def fetch_chart(city: str) -> tuple[str, dict[str, Any]]:
    """Fetch a temperature chart for a city."""
    return f"Chart for {city}: 3 points.", {"points": [18, 22, 20], "unit": "°C", "city": city}


def handoff_graph():
    """triage agent whose tool returns Command(goto="billing", update={messages: [ToolMessage]})."""
    triage_model = fm.ScriptedChatModel(
        turns=[fm.tool_calls_turn([("transfer_to_billing", {"reason": "refund request"}, "call_transfer_1")], lead_text="Let me transfer you.")]
    ).bind_tools([transfer_to_billing])
    billing_model = fm.ScriptedChatModel(turns=[fm.text_turn("Billing here: your refund is on its way.")])

    async def triage(state: MessagesState):
        return {"messages": [await triage_model.ainvoke(state["messages"])]}

    async def billing(state: MessagesState):
        return {"messages": [await billing_model.ainvoke(state["messages"])]}

    g = StateGraph(MessagesState)
    g.add_node("triage", triage)
    g.add_node("tools", ToolNode([transfer_to_billing]), destinations=("billing",))
    g.add_node("billing", billing)
    g.add_edge(START, "triage")
    g.add_conditional_edges("triage", tools_condition)
    g.add_edge("billing", END)
    return g.compile(checkpointer=InMemorySaver())


class PipelineState(MessagesState):
    total: int


def no_model_graph():
    """Pure function nodes: no model at all; `summarize` returns a finished AIMessage."""

    def parse(state: PipelineState):
        return {"total": sum(int(w) for w in state["messages"][-1].text.split() if w.isdigit())}

    def summarize(state: PipelineState):
        return {"messages": [AIMessage(content=f"The total is {state['total']}.", id="ai-summary")]}

    g = StateGraph(PipelineState)
    g.add_node("parse", parse)
    g.add_node("summarize", summarize)
    g.add_edge(START, "parse")
    g.add_edge("parse", "summarize")
    g.add_edge("summarize", END)
    return g.compile(checkpointer=InMemorySaver())


def long_history(name: str, turns: int = 60) -> dict[str, Any]:
    """A long conversation as run input: human/AI pairs, every 10th AI turn a tool call + result."""
    msgs: list[Any] = []
    for i in range(turns):
        msgs.append(HumanMessage(content=f"Question {i}: what is {i} + {i}?", id=f"hist-human-{i}"))
        if i % 10 == 5:
            call = {"name": "get_weather", "args": {"city": f"City{i}"}, "id": f"call_hist_{i}", "type": "tool_call"}
            msgs.append(AIMessage(content="", tool_calls=[call], id=f"hist-ai-call-{i}"))
            msgs.append(ToolMessage(content=f"Cloudy in City{i}", tool_call_id=f"call_hist_{i}", name="get_weather", id=f"hist-tool-{i}"))
        msgs.append(AIMessage(content=f"{i} + {i} = {2 * i}.", id=f"hist-ai-{i}"))
    msgs.append(HumanMessage(content="And what did I ask first?", id=f"human-{name}"))
    return {"messages": msgs}


@tool
def send_email(to: str, subject: str) -> str:
    """Send an email."""
    return f"Email to {to} sent: {subject}"


class Weather(TypedDict):
    city: str
    summary: str


def hitl_middleware_agent():
    """create_agent with HumanInTheLoopMiddleware: the run stops after the model's tool call,
    before the tool runs; the resume approves it and the tool runs in the resume run."""
    from langchain.agents.middleware import HumanInTheLoopMiddleware

    model = fm.ScriptedChatModel(
        turns=[
            fm.tool_calls_turn([("send_email", {"to": "bob@example.com", "subject": "Lunch"}, "call_email_1")]),
            fm.text_turn("The email to Bob is sent."),
        ],
        model_name="fake-model",
    )
    return create_agent(
        model,
        [send_email],
        system_prompt=SYSTEM,
        checkpointer=InMemorySaver(),
        middleware=[HumanInTheLoopMiddleware(interrupt_on={"send_email": True})],
    )


def structured_output_agent():
    """create_agent with response_format=ToolStrategy(Weather): the answer is a call to the
    structured-output tool, answered by a ToolMessage create_agent writes itself."""
    from langchain.agents.structured_output import ToolStrategy

    model = fm.ScriptedChatModel(
        turns=[
            fm.tool_calls_turn([("get_weather", {"city": "Paris"}, "call_weather_1")]),
            fm.tool_calls_turn([("Weather", {"city": "Paris", "summary": "Sunny, 22°C"}, "call_structured_1")]),
        ],
        model_name="fake-model",
    )
    return create_agent(
        model, [get_weather], system_prompt=SYSTEM, checkpointer=InMemorySaver(), response_format=ToolStrategy(Weather)
    )


def fallback_graph():
    """A model with a fallback: the first model raises a rate limit, the fallback answers."""
    primary = fm.ScriptedChatModel(turns=[[fm.RateLimitError(RATE_LIMIT_MSG)]], model_name="fake-primary")
    backup = fm.ScriptedChatModel(turns=[fm.text_turn("Hello from the backup model.")], model_name="fake-backup")
    return chat_graph(primary.with_fallbacks([backup]))


# --- s50 shapes (scenarios `o_*`) --------------------------------------------------


class FanState(MessagesState):
    topics: list[str]
    drafts: Annotated[list[str], operator.add]


def send_map_reduce_graph():
    """Map-reduce: `plan` fans out with Send to one `write` task per topic (parallel model
    calls, one scripted model per topic), `reduce` makes one more model call."""
    from langgraph.types import Send

    writers = {
        "cats": fm.ScriptedChatModel(turns=[fm.text_turn("Cats nap all day.")], model_name="fake-writer"),
        "dogs": fm.ScriptedChatModel(turns=[fm.text_turn("Dogs fetch sticks.")], model_name="fake-writer"),
    }
    reducer = fm.ScriptedChatModel(turns=[fm.text_turn("Cats nap, dogs fetch.")])

    def plan(state: FanState):
        return {"topics": ["cats", "dogs"]}

    def fan_out(state: FanState):
        return [Send("write", {"topic": t}) for t in state["topics"]]

    async def write(arg: dict[str, Any]):
        msg = await writers[arg["topic"]].ainvoke([HumanMessage(content=f"One line about {arg['topic']}")])
        return {"drafts": [msg.text]}

    async def reduce(state: FanState):
        return {"messages": [await reducer.ainvoke(state["messages"])]}

    g = StateGraph(FanState)
    g.add_node("plan", plan)
    g.add_node("write", write)
    g.add_node("reduce", reduce)
    g.add_edge(START, "plan")
    g.add_conditional_edges("plan", fan_out, ["write"])
    g.add_edge("write", "reduce")
    g.add_edge("reduce", END)
    return g.compile(checkpointer=InMemorySaver())


def subgraph_agent_graph(inner_turns: list[list[Any]], tools: list[Any], **kw: Any):
    """A compiled create_agent as the node `research` of a parent graph, then `report` (a model call)."""
    inner = create_agent(fm.ScriptedChatModel(turns=inner_turns, model_name="fake-sub-model", **kw), tools, system_prompt=SYSTEM, name="research_agent")
    outer_model = fm.ScriptedChatModel(turns=[fm.text_turn("Report: Paris is sunny.")])

    async def report(state: MessagesState):
        return {"messages": [await outer_model.ainvoke(state["messages"])]}

    g = StateGraph(MessagesState)
    g.add_node("research", inner)
    g.add_node("report", report)
    g.add_edge(START, "research")
    g.add_edge("research", "report")
    g.add_edge("report", END)
    return g.compile(checkpointer=InMemorySaver())


def subgraph_error_graph():
    """The subgraph node `research` raises inside (its model: a rate limit before any chunk)."""
    inner_model = fm.ScriptedChatModel(turns=[[fm.RateLimitError(RATE_LIMIT_MSG)]])

    async def inner_chat(state: MessagesState):
        return {"messages": [await inner_model.ainvoke(state["messages"])]}

    sub = StateGraph(MessagesState)
    sub.add_node("inner_chat", inner_chat)
    sub.add_edge(START, "inner_chat")
    sub.add_edge("inner_chat", END)
    g = StateGraph(MessagesState)
    g.add_node("research", sub.compile())
    g.add_edge(START, "research")
    g.add_edge("research", END)
    return g.compile(checkpointer=InMemorySaver())


@tool
def render_chart(city: str) -> list[dict[str, Any]]:
    """Render a temperature chart for a city (text + PNG image)."""
    png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
    return [{"type": "text", "text": f"Chart for {city}:"}, {"type": "image", "base64": png, "mime_type": "image/png"}]


def remove_messages_graph():
    """`trim` removes the two oldest history messages (RemoveMessage), then `chat` answers."""
    from langchain_core.messages import RemoveMessage

    model = fm.ScriptedChatModel(turns=[fm.text_turn("Your last question was about Rome.")])

    def trim(state: MessagesState):
        return {"messages": [RemoveMessage(id=m.id) for m in state["messages"][:2]]}

    async def chat(state: MessagesState):
        return {"messages": [await model.ainvoke(state["messages"])]}

    g = StateGraph(MessagesState)
    g.add_node("trim", trim)
    g.add_node("chat", chat)
    g.add_edge(START, "trim")
    g.add_edge("trim", "chat")
    g.add_edge("chat", END)
    return g.compile(checkpointer=InMemorySaver())


def remove_messages_input(name: str) -> dict[str, Any]:
    return {
        "messages": [
            HumanMessage(content="Capital of France?", id="hist-human-0"),
            AIMessage(content="Paris.", id="hist-ai-0"),
            HumanMessage(content="Capital of Italy?", id="hist-human-1"),
            AIMessage(content="Rome.", id="hist-ai-1"),
            HumanMessage(content="What did I just ask?", id=f"human-{name}"),
        ]
    }


def structured_model_graph():
    """A node calls `model.with_structured_output(Weather)` (tool calling): the model streams a
    call to the `Weather` tool; the node writes the parsed result as an AIMessage of its own."""
    model = fm.ScriptedChatModel(turns=[fm.tool_calls_turn([("Weather", {"city": "Paris", "summary": "Sunny, 22°C"}, "call_structured_1")])])

    async def extract(state: MessagesState):
        out = await model.with_structured_output(Weather).ainvoke(state["messages"])
        return {"messages": [AIMessage(content=f"{out['city']}: {out['summary']}", id="ai-structured")]}

    g = StateGraph(MessagesState)
    g.add_node("extract", extract)
    g.add_edge(START, "extract")
    g.add_edge("extract", END)
    return g.compile(checkpointer=InMemorySaver())


def parallel_interrupts_graph():
    """`plan` fans out with Send to two `approve` tasks, each raising interrupt() in the same
    step; the resume answers both by interrupt id, then `summary` answers."""
    from langgraph.types import Send

    model = fm.ScriptedChatModel(turns=[fm.text_turn("Widgets approved, gadgets rejected.")])

    def plan(state: FanState):
        return {"topics": ["widgets", "gadgets"]}

    def approve(arg: dict[str, Any]):
        answer = interrupt({"type": "approval", "message": f"Approve buying {arg['topic']}?", "item": arg["topic"]})
        return {"drafts": [f"{arg['topic']}: {'yes' if answer.get('approved') else 'no'}"]}

    async def summary(state: FanState):
        return {"messages": [await model.ainvoke(state["messages"])]}

    g = StateGraph(FanState)
    g.add_node("plan", plan)
    g.add_node("approve", approve)
    g.add_node("summary", summary)
    g.add_edge(START, "plan")
    g.add_conditional_edges("plan", lambda s: [Send("approve", {"topic": t}) for t in s["topics"]], ["approve"])
    g.add_edge("approve", "summary")
    g.add_edge("summary", END)
    return g.compile(checkpointer=InMemorySaver())


def remove_all_graph():
    """`compact` replaces the whole history (RemoveMessage(REMOVE_ALL_MESSAGES)) with a summary
    AIMessage, then `chat` answers."""
    from langchain_core.messages import RemoveMessage
    from langgraph.graph.message import REMOVE_ALL_MESSAGES

    model = fm.ScriptedChatModel(turns=[fm.text_turn("You asked about Paris and Rome.")])

    def compact(state: MessagesState):
        summary = AIMessage(content="Summary: capitals of France and Italy.", id="ai-summary")
        return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), summary, state["messages"][-1]]}

    async def chat(state: MessagesState):
        return {"messages": [await model.ainvoke(state["messages"])]}

    g = StateGraph(MessagesState)
    g.add_node("compact", compact)
    g.add_node("chat", chat)
    g.add_edge(START, "compact")
    g.add_edge("compact", "chat")
    g.add_edge("chat", END)
    return g.compile(checkpointer=InMemorySaver())

def resume_all(answers: list[Any]):
    """Resume input answering every pending interrupt by its id (in the order the state lists them)."""

    def make(graph: Any, config: dict[str, Any]) -> Command:
        pending = graph.get_state(config).interrupts
        return Command(resume={intr.id: answers[i % len(answers)] for i, intr in enumerate(pending)})

    return make


def failing_model_graph(*turn: Any):
    return chat_graph(fm.ScriptedChatModel(turns=[list(turn)]))


RATE_LIMIT_MSG = (
    "Error code: 429 - {'error': {'message': 'Rate limit reached for requests. Please try again in 20s.', "
    "'type': 'requests', 'code': 'rate_limit_exceeded'}}"
)
AUTH_MSG = (
    "Error code: 401 - {'error': {'message': 'Incorrect API key provided: sk-fake***1234.', "
    "'type': 'invalid_request_error', 'code': 'invalid_api_key'}}"
)


# --- scenarios -------------------------------------------------------------------


@dataclass
class Run:
    suffix: str  # "" or "__1_interrupt" ...
    input: Any  # or a callable (graph, config) -> input, called when the run starts


def run_input(run: Run, graph: Any, config: dict[str, Any]) -> Any:
    return run.input(graph, config) if callable(run.input) else run.input


@dataclass
class Scenario:
    name: str
    build: Callable[[], Any]
    runs: list[Run]
    config: dict[str, Any] = field(default_factory=dict)
    v2_kwargs: dict[str, Any] = field(default_factory=dict)
    v3_transformers: list[Any] = field(default_factory=list)
    v2: bool = True
    v3: bool = True
    truncate_after: int | None = None  # keep the stream up to the Nth text chunk, then cut
    cancel_after: int | None = None  # cancel the consuming task after the Nth text chunk
    one_file: bool = False  # append every run of the scenario to one file (no suffixes)
    pending: bool = False  # shapes aguify does not convert yet: recorded only with --pending
    note: str = ""


def scenarios() -> list[Scenario]:
    S = Scenario
    one = lambda name, text: [Run("", human(text, name))]  # noqa: E731
    return [
        S("a_plain_chat", lambda: chat_graph(fm.ScriptedChatModel(turns=[fm.text_turn("Hello! How can I help you today?")])), one("a_plain_chat", "Hi there")),
        S(
            "b_react_one_tool",
            lambda: agent(
                [fm.tool_calls_turn([("get_weather", {"city": "Paris"}, "call_weather_1")]), fm.text_turn("It is sunny and 22°C in Paris.")],
                [get_weather],
            ),
            one("b_react_one_tool", "Weather in Paris?"),
        ),
        S(
            "b_react_parallel",
            lambda: agent(
                [
                    fm.tool_calls_turn(
                        [("get_weather", {"city": "Paris"}, "call_weather_paris"), ("get_weather", {"city": "London"}, "call_weather_london")]
                    ),
                    fm.text_turn("Paris is sunny, London is rainy."),
                ],
                [get_weather],
            ),
            one("b_react_parallel", "Weather in Paris and London?"),
        ),
        S(
            "b_react_text_and_tool",
            lambda: agent(
                [
                    fm.tool_calls_turn([("get_weather", {"city": "Paris"}, "call_weather_1")], lead_text="Let me check."),
                    fm.text_turn("It is sunny in Paris."),
                ],
                [get_weather],
            ),
            one("b_react_text_and_tool", "Weather in Paris?"),
        ),
        S("c_reasoning_openai", lambda: chat_graph(fm.ScriptedChatModel(turns=[fm.openai_responses_reasoning_turn("The user asks for the capital of France; it is Paris.", "The capital of France is Paris.")])), one("c_reasoning_openai", "Capital of France?")),
        S("c_reasoning_anthropic", lambda: chat_graph(fm.ScriptedChatModel(turns=[fm.anthropic_thinking_turn("The user wants the capital of France. That is Paris.", "The capital of France is Paris.")])), one("c_reasoning_anthropic", "Capital of France?")),
        S("c_reasoning_anthropic_redacted", lambda: chat_graph(fm.ScriptedChatModel(turns=[fm.anthropic_redacted_turn("The capital of France is Paris.")])), one("c_reasoning_anthropic_redacted", "Capital of France?")),
        S("c_reasoning_deepseek", lambda: chat_graph(fm.ScriptedChatModel(turns=[fm.deepseek_reasoning_turn("France's capital is Paris.", "The capital of France is Paris.")])), one("c_reasoning_deepseek", "Capital of France?")),
        S("c_reasoning_v1", lambda: chat_graph(fm.ScriptedChatModel(turns=[fm.v1_reasoning_turn("France's capital is Paris.", "The capital of France is Paris.")])), one("c_reasoning_v1", "Capital of France?")),
        S(
            "d_hitl",
            hitl_graph,
            [Run("__1_interrupt", human("Order 2 widgets", "d_hitl")), Run("__2_resume", Command(resume={"approved": True}))],
        ),
        S(
            "e_error_tool_raises",
            lambda: agent([fm.tool_calls_turn([("lookup_order", {"order_id": "A-1"}, "call_lookup_1")])], [lookup_order]),
            one("e_error_tool_raises", "Where is order A-1?"),
        ),
        S("e_error_tool_handled", handled_tool_error_graph, one("e_error_tool_handled", "Where is order A-1?")),
        S(
            "e_recursion_limit",
            lambda: agent(
                [fm.tool_calls_turn([("check_status", {"job": "backup"}, "call_status_1")]), fm.tool_calls_turn([("check_status", {"job": "backup"}, "call_status_2")])],
                [check_status],
                repeat_last=True,
            ),
            one("e_recursion_limit", "Wait for the backup job"),
            config={"recursion_limit": 3},
        ),
        S("e_model_rate_limit", lambda: failing_model_graph(fm.RateLimitError(RATE_LIMIT_MSG)), one("e_model_rate_limit", "Hi there")),
        S("e_model_auth", lambda: failing_model_graph(fm.AuthenticationError(AUTH_MSG)), one("e_model_auth", "Hi there")),
        S(
            "e_model_timeout",
            lambda: failing_model_graph({"content": "Let"}, {"content": " me"}, {"content": " think"}, fm.APITimeoutError("Request timed out.")),
            one("e_model_timeout", "Hi there"),
            note="model streams 3 text chunks, then raises APITimeoutError mid-message",
        ),
        S(
            "e_model_connection",
            lambda: failing_model_graph(fm.APIConnectionError("Connection error: [Errno 111] Connection refused")),
            one("e_model_connection", "Hi there"),
        ),
        S(
            "e_truncated_stream",
            lambda: chat_graph(fm.ScriptedChatModel(turns=[fm.text_turn("This reply will be cut off before it ends.")])),
            one("e_truncated_stream", "Tell me something"),
            truncate_after=3,
            note="a complete run, cut by the recorder after the 3rd text chunk (no error line)",
        ),
        S("f_subgraph", subgraph_graph, one("f_subgraph", "Research Paris")),
        S("g_custom_events", custom_events_graph, one("g_custom_events", "Do the work")),
        S(
            "g_custom_writer",
            custom_events_graph,
            one("g_custom_writer", "Do the work"),
            v2_kwargs={"stream_mode": ["updates", "custom"]},
            v3=False,
            note="v2 with stream_mode=['updates','custom'] as the API server passes it: writer output in root on_chain_stream",
        ),
        S("g_float_progress", float_progress_graph, [Run("", {**human("Do the work", "g_float_progress"), "progress": 0.0})]),
        S("h_state", state_graph, [Run("", {**human("Plan my day", "h_state"), "counter": 0, "status": "new", "items": []})]),
        S(
            "i_tool_output_delta",
            lambda: agent(
                [fm.tool_calls_turn([("search_docs", {"query": "install"}, "call_search_1")]), fm.text_turn("Found install and configure docs.")],
                [search_docs],
            ),
            one("i_tool_output_delta", "Search the docs for install"),
        ),
        S(
            "m_supervisor",
            supervisor_graph,
            one("m_supervisor", "What's the weather in Paris?"),
            note="28.2 supervisor create_agent whose tool invokes a compiled create_agent sub-agent",
        ),
        S(
            "m_supervisor_parallel",
            parallel_supervisor_graph,
            one("m_supervisor_parallel", "Weather and news from Paris?"),
            note="one supervisor turn calls two sub-agents at once; their events interleave, the news agent answers first",
        ),
        S(
            "m_supervisor_parallel_tool_node",
            lambda: parallel_supervisor_graph(tool_node=True),
            one("m_supervisor_parallel_tool_node", "Weather and news from Paris?"),
            note="the same from a StateGraph whose ToolNode runs both calls in one task (the second graph's namespaces under `tools:<task>|1`; v3 announces only the first graph, without cause)",
        ),
        S(
            "m_supervisor_hitl",
            lambda: supervisor_graph(hitl=True),
            [Run("__1_interrupt", human("Order 2 widgets", "m_supervisor_hitl")), Run("__2_resume", Command(resume={"approved": True}))],
            note="28.2 the sub-agent's tool raises interrupt(); the resume run completes sub-agent and supervisor",
        ),
        *sweep_scenarios(),
        *platform_round_scenarios(),
        *pending_scenarios(),
    ]


def sweep_scenarios() -> list[Scenario]:
    """Shapes added by the recording sweep (issue 22 follow-up)."""
    S = Scenario
    one = lambda name, text: [Run("", human(text, name))]  # noqa: E731
    weather2 = [("get_weather", {"city": "Paris"}, "call_weather_paris"), ("get_weather", {"city": "London"}, "call_weather_london")]
    orders2 = [("place_order", {"item": "widget", "qty": 2}, "call_order_widget"), ("place_order", {"item": "gadget", "qty": 1}, "call_order_gadget")]
    return [
        S(
            "n_parallel_interleaved",
            lambda: agent([fm.interleaved_tool_calls_turn(weather2), fm.text_turn("Paris is sunny, London is rainy.")], [get_weather]),
            one("n_parallel_interleaved", "Weather in Paris and London?"),
            note="two calls in one model turn whose chunks alternate by index (0, 1, 0, 1, ...)",
        ),
        S(
            "n_anthropic_thinking_tool",
            lambda: agent(
                [
                    fm.anthropic_thinking_tool_turn("The user wants Paris weather. I should call the tool.", "Let me check.", ("get_weather", {"city": "Paris"}, "toolu_01weather")),
                    fm.anthropic_thinking_turn("The tool says sunny.", "It is sunny and 22°C in Paris."),
                ],
                [get_weather],
            ),
            one("n_anthropic_thinking_tool", "Weather in Paris?"),
            note="Anthropic thinking + signature, text, then a tool_use block with input_json_delta; then thinking + answer",
        ),
        S(
            "n_deepseek_tool",
            lambda: agent(
                [
                    fm.deepseek_reasoning_tool_turn("I need the weather tool for Paris.", ("get_weather", {"city": "Paris"}, "call_weather_1")),
                    fm.deepseek_reasoning_turn("The tool says sunny.", "It is sunny and 22°C in Paris."),
                ],
                [get_weather],
            ),
            one("n_deepseek_tool", "Weather in Paris?"),
            note="additional_kwargs.reasoning_content, then a tool call in the same message; then reasoning + answer",
        ),
        S(
            "n_two_interrupts",
            lambda: agent([fm.tool_calls_turn(orders2), fm.text_turn("The widget order is placed; the gadget order was rejected.")], [place_order]),
            [
                Run("__1_interrupt", human("Order 2 widgets and 1 gadget", "n_two_interrupts")),
                Run("__2_resume", resume_all([{"approved": True}, {"approved": False}])),
            ],
            note="two parallel tool calls each raise interrupt(); the resume answers both by interrupt id",
        ),
        S("n_handoff", handoff_graph, one("n_handoff", "I want a refund"), note="a tool returns Command(goto='billing') with a ToolMessage"),
        S(
            "n_tool_artifact",
            lambda: agent(
                [fm.tool_calls_turn([("fetch_chart", {"city": "Paris"}, "call_chart_1")]), fm.text_turn("Here is the Paris chart.")], [fetch_chart]
            ),
            one("n_tool_artifact", "Chart for Paris?"),
            note="tool with response_format='content_and_artifact': ToolMessage.artifact",
        ),
        S("n_no_model", no_model_graph, one("n_no_model", "Add 2 and 40 please"), note="pure function nodes, no model"),
        S(
            "n_hitl_middleware",
            hitl_middleware_agent,
            [
                Run("__1_interrupt", human("Email Bob about lunch", "n_hitl_middleware")),
                Run("__2_resume", resume_all([{"decisions": [{"type": "approve"}]}])),
            ],
            note="HumanInTheLoopMiddleware: interrupt after the model's call, before the tool; the resume approves it",
        ),
        S("n_structured_output", structured_output_agent, one("n_structured_output", "Weather in Paris?"), note="response_format=ToolStrategy(Weather)"),
        S("n_model_fallback", fallback_graph, one("n_model_fallback", "Hi there"), note="model.with_fallbacks: the first raises a rate limit, the fallback answers"),
        S(
            "n_long_history",
            lambda: chat_graph(fm.ScriptedChatModel(turns=[fm.text_turn("You first asked what 0 + 0 is.")])),
            [Run("", long_history("n_long_history"))],
            note="a 133-message history as run input (132 earlier messages + the question)",
        ),
        S(
            "n_two_calls_one_chunk",
            lambda: agent(
                [
                    fm.gemini_one_chunk_calls_turn(
                        [
                            ("get_weather", {"city": "Paris"}, "0b7f3c2e-5a41-4d7e-9c55-1f0e6a2b9d01"),
                            ("get_weather", {"city": "Tokyo"}, "7c1d9e44-2b8a-4f3c-a6d0-5e2f8b1c3a72"),
                        ]
                    ),
                    fm.text_turn("Paris is sunny, Tokyo is cloudy."),
                ],
                [get_weather],
            ),
            one("n_two_calls_one_chunk", "Weather in Paris and Tokyo?"),
            note="issue 39.1: two whole calls in one chunk, both index None (langchain-google-genai <= 4.3.6)",
        ),
        S(
            "n_unicode_split",
            lambda: chat_graph(fm.ScriptedChatModel(turns=[fm.pieces_turn(["Hi ", "👩", "\u200d💻", " caf", "e", "\u0301 ", "🇫", "🇷", " “ok” ", "日本", "語 ✓"])])),
            one("n_unicode_split", "Say hi with emoji"),
            note="an emoji ZWJ sequence, a combining accent and a flag split across chunks",
        ),
        S(
            "o_send_map_reduce",
            send_map_reduce_graph,
            one("o_send_map_reduce", "Write about cats and dogs"),
            note="Send fans out to two parallel `write` tasks (a model call each), then `reduce` answers",
        ),
        S(
            "o_subgraph_agent",
            lambda: subgraph_agent_graph(
                [fm.tool_calls_turn([("get_weather", {"city": "Paris"}, "call_sub_weather_1")], lead_text="Let me check."), fm.text_turn("Paris is sunny.")],
                [get_weather],
            ),
            one("o_subgraph_agent", "Research Paris weather"),
            note="a compiled create_agent as a node: its model streams text and a tool call, its tool runs, then the parent's `report`",
        ),
        S("o_subgraph_error", subgraph_error_graph, one("o_subgraph_error", "Research Paris"), note="the subgraph's model raises a rate limit"),
        S(
            "o_subgraph_recursion",
            lambda: subgraph_agent_graph(
                [fm.tool_calls_turn([("check_status", {"job": "backup"}, "call_status_1")]), fm.tool_calls_turn([("check_status", {"job": "backup"}, "call_status_2")])],
                [check_status],
                repeat_last=True,
            ),
            one("o_subgraph_recursion", "Wait for the backup job"),
            config={"recursion_limit": 4},
            note="the subgraph agent always calls a tool: GraphRecursionError inside the subgraph (recursion_limit 4)",
        ),
        S(
            "o_tool_content_blocks",
            lambda: agent([fm.tool_calls_turn([("render_chart", {"city": "Paris"}, "call_chart_1")]), fm.text_turn("Here is the Paris chart.")], [render_chart]),
            one("o_tool_content_blocks", "Chart for Paris?"),
            note="a tool returns a list of content blocks (text + base64 image)",
        ),
        S(
            "o_v1_tool_call",
            lambda: agent(
                [fm.v1_reasoning_tool_turn("I need the weather for Paris.", "Checking.", ("get_weather", {"city": "Paris"}, "call_weather_1")), fm.v1_reasoning_turn("Sunny.", "It is sunny in Paris.")],
                [get_weather],
            ),
            one("o_v1_tool_call", "Weather in Paris?"),
            note="output_version v1 standard blocks: reasoning, text, tool_call_chunk",
        ),
        S(
            "o_remove_messages",
            remove_messages_graph,
            [Run("", remove_messages_input("o_remove_messages"))],
            note="a node returns RemoveMessage for the two oldest messages",
        ),
        S(
            "o_frontend_tool",
            lambda: chat_graph(fm.ScriptedChatModel(turns=[fm.tool_calls_turn([("show_booking_form", {"hotel": "Le Meurice"}, "call_form_1")], lead_text="Please confirm.")])),
            one("o_frontend_tool", "Book Le Meurice"),
            note="the model calls a tool no node runs (a front-end tool): the run ends with the call unanswered",
        ),
        S(
            "o_parallel_interrupts",
            parallel_interrupts_graph,
            [
                Run("__1_interrupt", human("Buy widgets and gadgets", "o_parallel_interrupts")),
                Run("__2_resume", resume_all([{"approved": True}, {"approved": False}])),
            ],
            note="two Send tasks interrupt in one step; the resume answers both by interrupt id",
        ),
        S(
            "o_remove_all",
            remove_all_graph,
            [Run("", remove_messages_input("o_remove_all"))],
            note="RemoveMessage(REMOVE_ALL_MESSAGES): the history replaced by a summary",
        ),
        S("o_structured_model", structured_model_graph, one("o_structured_model", "Weather in Paris?"), note="with_structured_output (tool calling) inside a node"),
    ]


def multi_turn_hitl_graph():
    """`d_hitl`'s graph for a thread of two turns (interrupt, resume, then a new question,
    interrupt, resume): four model calls; the approval messages get ids from LangGraph."""
    model = fm.ScriptedChatModel(
        turns=[
            fm.text_turn("I will order 2 widgets."),
            fm.text_turn("Your widget order has been placed."),
            fm.text_turn("I will order 1 gadget."),
            fm.text_turn("The gadget order was cancelled."),
        ]
    )

    def approve(state: MessagesState):
        answer = interrupt({"type": "approval", "message": "Approve order?", "order": state["messages"][-1].text})
        return {"messages": [AIMessage(content=f"Order {'approved' if answer.get('approved') else 'rejected'}.")]}

    return approval_graph(model, approve)


def platform_round_scenarios() -> list[Scenario]:
    """Shapes added with the platform captures of the o_* scenarios (session 51)."""
    S = Scenario
    name = "p_multi_turn_hitl"
    return [
        S(
            "p_subgraph_tool_raises",
            lambda: subgraph_agent_graph(
                [fm.tool_calls_turn([("lookup_order", {"order_id": "A-1"}, "call_sub_lookup_1")], lead_text="Let me look it up.")],
                [lookup_order],
            ),
            [Run("", human("Research order A-1", "p_subgraph_tool_raises"))],
            note="the sub-agent's tool raises ValueError (unhandled): the run fails inside the subgraph",
        ),
        S(
            name,
            multi_turn_hitl_graph,
            [
                Run("__1_interrupt", human("Order 2 widgets", name)),
                Run("__2_resume", Command(resume={"approved": True})),
                Run("__3_interrupt", {"messages": [HumanMessage(content="Now order 1 gadget", id=f"human-{name}-2")]}),
                Run("__4_resume", Command(resume={"approved": False})),
            ],
            note="one thread, two turns, each interrupted and resumed (four runs)",
        ),
    ]


def pending_scenarios() -> list[Scenario]:
    """Shapes aguify does not convert yet (issues 22, 28): recorded into testdata/pending with --pending."""

    def S(*a: Any, **kw: Any) -> Scenario:
        return Scenario(*a, pending=True, **kw)

    one = lambda name, text: [Run("", human(text, name))]  # noqa: E731
    hitl_runs = lambda name, text: [Run("__1_interrupt", human(text, name)), Run("__2_resume", Command(resume={"approved": True}))]  # noqa: E731
    capital = "Capital of France?"
    return [
        S(
            "c_reasoning_bedrock",
            lambda: chat_graph(fm.ScriptedChatModel(turns=[fm.bedrock_reasoning_turn("The user wants the capital of France. That is Paris.", "The capital of France is Paris.")])),
            one("c_reasoning_bedrock", capital),
            note="22.1 Bedrock Converse reasoning_content blocks + signature delta, text at index 1",
        ),
        S(
            "c_reasoning_openai_two_parts",
            lambda: chat_graph(
                fm.ScriptedChatModel(
                    turns=[fm.openai_responses_two_parts_turn(["The user asks for a capital.", "France's capital is Paris."], "The capital of France is Paris.")]
                )
            ),
            one("c_reasoning_openai_two_parts", capital),
            note="22.9 one Responses reasoning item with summary parts 0 and 1",
        ),
        S(
            "b_react_args_at_finish",
            lambda: agent(
                [fm.gemini_tool_call_turn([("get_weather", {"city": "Paris"}, "call_weather_1")]), fm.text_turn("It is sunny and 22°C in Paris.")],
                [get_weather],
            ),
            one("b_react_args_at_finish", "Weather in Paris?"),
            note="22.2 Gemini style: the whole call (id, name, complete args, index None) in one chunk",
        ),
        S(
            "d_hitl_one_file",
            hitl_graph,
            [Run("", human("Order 2 widgets", "d_hitl_one_file")), Run("", Command(resume={"approved": True}))],
            v2=False,
            one_file=True,
            note="22.3 the interrupt run and the resume run of one thread appended to one v3 file",
        ),
        S(
            "k_no_stream",
            lambda: agent(
                [fm.tool_calls_turn([("get_weather", {"city": "Paris"}, "call_weather_1")]), fm.text_turn("It is sunny and 22°C in Paris.")],
                [get_weather],
                disable_streaming=True,
            ),
            one("k_no_stream", "Weather in Paris?"),
            note="22.6 a model that does not stream (disable_streaming): tool call and answer only in the model's end output",
        ),
        S(
            "k_stream_cut",
            lambda: agent(
                [fm.tool_calls_turn([("get_weather", {"city": "Paris"}, "call_weather_1")]), fm.text_turn("It is sunny and 22°C in Paris.")],
                [get_weather],
                disable_streaming=True,
                stream_first=2,
            ),
            one("k_stream_cut", "Weather in Paris?"),
            note="22.6 each model call streams its first 2 chunks only, then ends with the complete message",
        ),
        S(
            "d_hitl_in_tool",
            lambda: agent(
                [fm.tool_calls_turn([("place_order", {"item": "widget", "qty": 2}, "call_place_order_1")]), fm.text_turn("Your order of 2 widgets has been placed.")],
                [place_order],
            ),
            hitl_runs("d_hitl_in_tool", "Order 2 widgets"),
            note="22.7 interrupt() raised inside a tool (v2: on_tool_error with GraphInterrupt), then resumed",
        ),
        S(
            "e_model_connection_reset",
            lambda: failing_model_graph(ConnectionResetError("upstream connection reset by peer")),
            one("e_model_connection_reset", "Hi there"),
            note="22.10 model raises ConnectionResetError('upstream connection reset by peer')",
        ),
        S(
            "l_cancelled",
            lambda: chat_graph(fm.ScriptedChatModel(turns=[fm.text_turn("This reply is long and the caller will cancel it halfway.")], delay=0.2)),
            one("l_cancelled", "Tell me something"),
            cancel_after=3,
            note="28.1 the consuming task is cancelled after the 3rd text chunk: CancelledError line",
        ),
    ]


# --- recording -------------------------------------------------------------------


def error_line(exc: BaseException) -> dict[str, Any]:
    # Shape of the API server's error event. The recorder keeps the real message
    # (the server would mask exception types off its allow-list as
    # "An internal error occurred"; see README).
    return {"event": "error", "data": {"error": type(exc).__name__, "message": str(exc)}}


def run_config(scn: Scenario) -> dict[str, Any]:
    return {"configurable": {"thread_id": f"thread-{scn.name}"}, **scn.config}


def truncate(lines: list[bytes | str], is_text_chunk: Callable[[dict], bool], n: int) -> list:
    out, seen = [], 0
    for line in lines:
        out.append(line)
        if is_text_chunk(json.loads(line)):
            seen += 1
            if seen == n:
                break
    return out


def v2_is_text(ev: dict) -> bool:
    return ev.get("event") == "on_chat_model_stream"


def v3_is_text(ev: dict) -> bool:
    if ev.get("method") != "messages":
        return False
    data = ev["params"]["data"]
    if isinstance(data, (list, tuple)):
        data = data[0]
    return isinstance(data, dict) and data.get("event") == "content-block-delta"


def write_lines(path: Path, lines: list[bytes | str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        for line in lines:
            f.write(line if isinstance(line, bytes) else line.encode())
            f.write(b"\n")
    print(f"  wrote {path} ({len(lines)} lines)")


async def consume(scn: Scenario, body: Callable[[asyncio.Event], Any], on_error: Callable[[BaseException], None]) -> None:
    """Runs `body` (the consuming loop) as a task. A failed run ends with the error line; with
    `cancel_after`, the task is cancelled once `body` sets the event (as a server cancels the task
    that streams a run when its client goes away): the caller then sees CancelledError."""
    cut = asyncio.Event()
    task = asyncio.create_task(body(cut))
    waiter = asyncio.create_task(cut.wait())
    await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
    waiter.cancel()
    if cut.is_set() and not task.done():
        task.cancel()
    try:
        await task
    except (Exception, asyncio.CancelledError) as exc:  # the run failed or was cancelled
        on_error(exc)


async def record_v2(scn: Scenario, out: Path) -> None:
    graph = scn.build()
    for run in scn.runs:
        api: list[bytes] = []
        dumpd: list[str] = []

        async def body(cut: asyncio.Event) -> None:
            seen = 0
            async for ev in graph.astream_events(run_input(run, graph, run_config(scn)), run_config(scn), version="v2", **scn.v2_kwargs):
                api.append(json_dumpb(ev))
                dumpd.append(dumps(ev))
                if scn.cancel_after and v2_is_text(ev):
                    seen += 1
                    if seen == scn.cancel_after:
                        cut.set()

        def on_error(exc: BaseException) -> None:
            api.append(json_dumpb(error_line(exc)))
            dumpd.append(json.dumps(error_line(exc)))

        await consume(scn, body, on_error)
        if scn.truncate_after:
            api = truncate(api, v2_is_text, scn.truncate_after)
            dumpd = truncate(dumpd, v2_is_text, scn.truncate_after)
        write_lines(out / "v2-python-api" / f"{scn.name}{run.suffix}.ndjson", api)
        write_lines(out / "v2-python-dumpd" / f"{scn.name}{run.suffix}.ndjson", dumpd)


def wire_event(ev: dict) -> dict | None:
    """What langgraph-api's Protocol v2 route forwards for one native v3 event.

    Mirrors `langgraph_api.stream_v2.normalize_protocol_event` (not imported:
    its module pulls in the server config): `messages` data is unwrapped from
    the `(payload, metadata)` transport tuple; legacy message shapes are dropped.
    """
    if ev.get("method") == "messages":
        params = ev.get("params") or {}
        payload = normalize_v2_messages_data(params.get("data"))
        if payload is None:
            return None
        if payload is not params.get("data"):
            ev = {**ev, "params": {**params, "data": payload}}
    return ev


async def record_v3(scn: Scenario, out: Path) -> None:
    graph = scn.build()
    wire: list[bytes] = []
    raw: list[bytes] = []
    for run in scn.runs:
        if not scn.one_file:
            wire, raw = [], []

        async def body(cut: asyncio.Event) -> None:
            seen = 0
            stream = await graph.astream_events(
                run_input(run, graph, run_config(scn)), run_config(scn), version="v3", transformers=scn.v3_transformers or None
            )
            async with stream:
                async for ev in stream:
                    raw.append(json_dumpb(ev))
                    norm = wire_event(ev)
                    if norm is not None:
                        wire.append(json_dumpb(norm))
                    if scn.cancel_after and v3_is_text(ev):
                        seen += 1
                        if seen == scn.cancel_after:
                            cut.set()

        def on_error(exc: BaseException) -> None:
            wire.append(json_dumpb(error_line(exc)))
            raw.append(json_dumpb(error_line(exc)))

        await consume(scn, body, on_error)
        if scn.truncate_after:
            wire = truncate(wire, v3_is_text, scn.truncate_after)
            raw = truncate(raw, v3_is_text, scn.truncate_after)
        if not scn.one_file:
            write_lines(out / "v3-python" / f"{scn.name}{run.suffix}.ndjson", wire)
            write_lines(out / "v3-python-inprocess" / f"{scn.name}{run.suffix}.ndjson", raw)
    if scn.one_file:
        write_lines(out / "v3-python" / f"{scn.name}.ndjson", wire)
        write_lines(out / "v3-python-inprocess" / f"{scn.name}.ndjson", raw)


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="testdata/recordings", type=Path)
    ap.add_argument("--only", default="", help="comma-separated scenario names")
    ap.add_argument("--pending", action="store_true", help="record the pending shapes (for testdata/pending) instead")
    args = ap.parse_args()
    only = {s for s in args.only.split(",") if s}
    for scn in scenarios():
        if only and scn.name not in only or scn.pending != args.pending:
            continue
        print(scn.name)
        if scn.v2:
            await record_v2(scn, args.out)
        if scn.v3:
            await record_v3(scn, args.out)


if __name__ == "__main__":
    asyncio.run(main())
