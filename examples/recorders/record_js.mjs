#!/usr/bin/env node
// Record real LangGraph.js runs (offline scripted chat model) as aguify test inputs.
//
//   node examples/recorders/record_js.mjs --out testdata/recordings [--only a_plain_chat,...]
//
// Forms written (one file per scenario run, JSON.stringify per line):
//   v2-js/  graph.streamEvents(input, { version: "v2" })
//   v3-js/  graph.streamEvents(input, { version: "v3" })  (in-process protocol events)
// With --pending: the shapes aguify does not convert yet (pendingScenarios, SSE_CAPTURES), for testdata/pending.
// A run that throws ends with {"event":"error","data":{"error":err.name,"message":err.message[,"lc_error_code"]}}.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk, RemoveMessage, ToolMessage } from "@langchain/core/messages";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import { tool } from "@langchain/core/tools";
import { dispatchCustomEvent } from "@langchain/core/callbacks/dispatch";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import {
  Annotation,
  Command,
  END,
  MemorySaver,
  MessagesAnnotation,
  REMOVE_ALL_MESSAGES,
  START,
  Send,
  StateGraph,
  interrupt,
} from "@langchain/langgraph";
import { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
import { createAgent, humanInTheLoopMiddleware, toolStrategy } from "langchain";
import { z } from "zod";

// --- provider-like errors (names mirror the openai SDK's) --------------------
class NamedError extends Error {
  constructor(name, message, extra = {}) {
    super(message);
    this.name = name;
    Object.assign(this, extra);
  }
}

// --- scripted chat model ----------------------------------------------------------
// A turn is a list of items: AIMessageChunk fields, or an Error (thrown at that point).
// Options: repeatLast; delayMs (sleep before each streamed chunk, lets a caller abort mid-stream);
// disableStreaming (the model does not stream: invoke goes through _generate) with streamFirst
// (that path reports only the first N chunks as tokens, then returns the complete message).
class ScriptedChatModel extends BaseChatModel {
  constructor(turns, { repeatLast = false, delayMs = 0, disableStreaming = false, streamFirst = 0 } = {}) {
    super({});
    this.disableStreaming = disableStreaming; // BaseChatModel does not take it from its fields
    this.turns = turns;
    this.repeatLast = repeatLast;
    this.delayMs = delayMs;
    this.streamFirst = streamFirst;
    this.calls = 0;
  }
  static lc_name() {
    return "ScriptedChatModel";
  }
  _llmType() {
    return "scripted-chat-model";
  }
  bindTools(tools, kwargs) {
    return this.withConfig({ tools: tools.map((t) => convertToOpenAITool(t)), ...kwargs });
  }
  nextTurn() {
    let i = this.calls++;
    if (i >= this.turns.length) {
      if (!this.repeatLast) throw new Error(`ScriptedChatModel: no turn #${i} scripted`);
      i = this.turns.length - 1;
    }
    return this.turns[i];
  }
  async *chunks(runManager, tokens) {
    let n = 0;
    for (const item of this.nextTurn()) {
      if (item instanceof Error) throw item;
      if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
      const msg = new AIMessageChunk(item);
      const text = typeof msg.content === "string" ? msg.content : "";
      const chunk = new ChatGenerationChunk({ message: msg, text });
      yield chunk;
      if (n++ < tokens) await runManager?.handleLLMNewToken(text, undefined, undefined, undefined, undefined, { chunk });
    }
  }
  async *_streamResponseChunks(_messages, _options, runManager) {
    yield* this.chunks(runManager, Infinity);
  }
  async _generate(_messages, _options, runManager) {
    let acc;
    for await (const c of this.chunks(runManager, this.disableStreaming ? this.streamFirst : Infinity)) {
      acc = acc === undefined ? c : acc.concat(c);
    }
    return { generations: [{ text: acc.text, message: new AIMessage({ ...acc.message }) }] };
  }
}

// --- chunk helpers ----------------------------------------------------------------------
const words = (text) => text.match(/\s*\S+/g) ?? [];
const usage = (i, o, extra = {}) => ({ input_tokens: i, output_tokens: o, total_tokens: i + o, ...extra });
const OPENAI = { model_provider: "openai", model_name: "fake-gpt-4o" };

function textTurn(text, { meta = {}, use = usage(12, 9) } = {}) {
  const ws = words(text);
  return ws.map((w, i) =>
    i === ws.length - 1
      ? { content: w, response_metadata: { ...OPENAI, finish_reason: "stop", ...meta }, usage_metadata: use }
      : { content: w },
  );
}

function splitArgs(args, parts = 3) {
  const s = JSON.stringify(args);
  const step = Math.max(1, Math.ceil(s.length / parts));
  const out = [];
  for (let i = 0; i < s.length; i += step) out.push(s.slice(i, i + step));
  return out;
}

function toolCallsTurn(calls, { leadText } = {}) {
  const chunks = leadText ? words(leadText).map((w) => ({ content: w })) : [];
  calls.forEach(([name, args, id], index) => {
    chunks.push({ content: "", tool_call_chunks: [{ type: "tool_call_chunk", name, args: "", id, index }] });
    for (const frag of splitArgs(args)) {
      chunks.push({ content: "", tool_call_chunks: [{ type: "tool_call_chunk", args: frag, index }] });
    }
  });
  chunks.push({ content: "", response_metadata: { ...OPENAI, finish_reason: "tool_calls" }, usage_metadata: usage(40, 22) });
  return chunks;
}

function openaiResponsesTurn(summary, text) {
  const meta = { model_provider: "openai" };
  return [
    { content: [{ type: "reasoning", id: "rs_0a1b2c3d", summary: [], index: 0 }], response_metadata: meta },
    ...words(summary).map((w) => ({
      content: [{ type: "reasoning", summary: [{ index: 0, type: "summary_text", text: w }], index: 0 }],
      response_metadata: meta,
    })),
    ...words(text).map((w) => ({ content: [{ type: "text", text: w, index: 1, id: "msg_0a1b2c3d" }], response_metadata: meta })),
    {
      content: [],
      response_metadata: { model_provider: "openai", model_name: "fake-o4-mini", id: "resp_0a1b2c3d", status: "completed" },
      usage_metadata: usage(20, 40, { output_token_details: { reasoning: 24 } }),
    },
  ];
}

const ANTHROPIC_FINAL = { model_provider: "anthropic", model_name: "fake-claude-sonnet", stop_reason: "end_turn", stop_sequence: null };

function anthropicThinkingTurn(thinking, text) {
  const meta = { model_provider: "anthropic" };
  return [
    ...words(thinking).map((w) => ({ content: [{ type: "thinking", thinking: w, index: 0 }], response_metadata: meta })),
    { content: [{ type: "thinking", signature: "EqQBCkYIBxgCKkBfakeSignature==", index: 0 }], response_metadata: meta },
    ...words(text).map((w) => ({ content: [{ type: "text", text: w, index: 1 }], response_metadata: meta })),
    { content: [], response_metadata: ANTHROPIC_FINAL, usage_metadata: usage(20, 35) },
  ];
}

function anthropicRedactedTurn(text) {
  const meta = { model_provider: "anthropic" };
  return [
    { content: [{ type: "redacted_thinking", data: "EmwKAhgBEgy3fakeRedactedPayload==", index: 0 }], response_metadata: meta },
    ...words(text).map((w) => ({ content: [{ type: "text", text: w, index: 1 }], response_metadata: meta })),
    { content: [], response_metadata: ANTHROPIC_FINAL, usage_metadata: usage(20, 18) },
  ];
}

function deepseekTurn(reasoning, text) {
  const meta = { model_provider: "deepseek" };
  return [
    ...words(reasoning).map((w) => ({ content: "", additional_kwargs: { reasoning_content: w }, response_metadata: meta })),
    ...words(text).map((w) => ({ content: w, response_metadata: meta })),
    {
      content: "",
      response_metadata: { model_provider: "deepseek", model_name: "fake-deepseek-reasoner", finish_reason: "stop" },
      usage_metadata: usage(15, 30),
    },
  ];
}

function v1ReasoningTurn(reasoning, text) {
  const meta = { model_provider: "openai", output_version: "v1" };
  return [
    ...words(reasoning).map((w) => ({ content: [{ type: "reasoning", reasoning: w, index: 0 }], response_metadata: meta })),
    ...words(text).map((w) => ({ content: [{ type: "text", text: w, index: 1 }], response_metadata: meta })),
    {
      content: [],
      response_metadata: { model_provider: "openai", model_name: "fake-v1-model", finish_reason: "stop", output_version: "v1" },
      usage_metadata: usage(20, 30),
    },
  ];
}

function openaiResponsesTwoPartsTurn(parts, text) {
  const meta = { model_provider: "openai" };
  return [
    { content: [{ type: "reasoning", id: "rs_0a1b2c3d", summary: [], index: 0 }], response_metadata: meta },
    ...parts.flatMap((part, k) =>
      words(part).map((w) => ({
        content: [{ type: "reasoning", summary: [{ index: k, type: "summary_text", text: w }], index: 0 }],
        response_metadata: meta,
      })),
    ),
    ...words(text).map((w) => ({ content: [{ type: "text", text: w, index: 1, id: "msg_0a1b2c3d" }], response_metadata: meta })),
    {
      content: [],
      response_metadata: { model_provider: "openai", model_name: "fake-o4-mini", id: "resp_0a1b2c3d", status: "completed" },
      usage_metadata: usage(20, 48, { output_token_details: { reasoning: 30 } }),
    },
  ];
}

// @langchain/openai Responses API, v0 output: the reasoning item rides in additional_kwargs.reasoning;
// only its first chunk (output_item.added) has the id, summary deltas carry none.
function openaiKwargsReasoningTurn(parts, text) {
  const meta = { model_provider: "openai" };
  return [
    { content: "", additional_kwargs: { reasoning: { id: "rs_0a1b2c3d", type: "reasoning", summary: [] } }, response_metadata: meta },
    ...parts.flatMap((part, k) =>
      words(part).map((w) => ({
        content: "",
        additional_kwargs: { reasoning: { type: "reasoning", summary: [{ index: k, type: "summary_text", text: w }] } },
        response_metadata: meta,
      })),
    ),
    ...words(text).map((w) => ({ content: w, response_metadata: meta })),
    {
      content: "",
      response_metadata: { model_provider: "openai", model_name: "fake-o4-mini", id: "resp_0a1b2c3d", status: "completed" },
      usage_metadata: usage(20, 48, { output_token_details: { reasoning: 30 } }),
    },
  ];
}

// Gemini style: the whole call (id, name, complete args, index null) in one chunk.
function geminiToolCallTurn(calls) {
  const meta = { model_provider: "google_genai" };
  return [
    ...calls.map(([name, args, id]) => ({
      content: "",
      tool_call_chunks: [{ type: "tool_call_chunk", name, args: JSON.stringify(args), id, index: null }],
      response_metadata: meta,
    })),
    {
      content: "",
      response_metadata: { model_provider: "google_genai", model_name: "fake-gemini-2.5-flash", finish_reason: "STOP" },
      usage_metadata: usage(30, 12),
    },
  ];
}

// @langchain/google-genai's tool_call_chunks: every call whole, with an id and no `index`; here two
// calls in ONE chunk (issue 39.1; the integration itself reports no chunk to the stream callbacks,
// see providers/record_providers.mjs, so this is the shape of a model that does).
function geminiOneChunkCallsTurn(calls) {
  return [
    {
      content: "",
      tool_call_chunks: calls.map(([name, args, id]) => ({ type: "tool_call_chunk", name, args: JSON.stringify(args), id })),
      response_metadata: { model_provider: "google-genai" },
    },
    {
      content: "",
      response_metadata: { model_provider: "google-genai", model_name: "fake-gemini-2.5-flash", finish_reason: "STOP" },
      usage_metadata: usage(30, 12),
    },
  ];
}

// Bedrock Converse reasoning as `reasoning_content` parts (the @langchain/aws form) that carry a block
// index (issue 39.4): LangGraph.js v3 starts block 0 with the first fragment and sends every later
// fragment as a `block-delta` whose fields replace the block's. @langchain/aws 1.3.9 itself sends
// the parts without an index (providers/record_providers.mjs, n_bedrock_reasoning).
function bedrockIndexedReasoningTurn(reasoning, text) {
  const meta = { model_provider: "bedrock-converse" };
  return [
    ...words(reasoning).map((w) => ({ content: [{ type: "reasoning_content", reasoningText: { text: w }, index: 0 }], response_metadata: meta })),
    { content: [{ type: "reasoning_content", reasoningText: { signature: "EqQBCkYIBxgCKkBfakeBedrockSig==" }, index: 0 }], response_metadata: meta },
    ...words(text).map((w) => ({ content: [{ type: "text", text: w, index: 1 }], response_metadata: meta })),
    {
      content: "",
      response_metadata: { model_provider: "bedrock-converse", model_name: "fake.anthropic.claude-sonnet", stopReason: "end_turn" },
      usage_metadata: usage(20, 35),
    },
  ];
}

// --- sweep shapes (scenarios `n_*`) -----------------------------------------------------
// Parallel calls whose chunks alternate by index: both headers, then fragment k of every call.
function interleavedToolCallsTurn(calls) {
  const chunks = calls.map(([name, , id], index) => ({ content: "", tool_call_chunks: [{ type: "tool_call_chunk", name, args: "", id, index }] }));
  const frags = calls.map(([, args]) => splitArgs(args));
  for (let k = 0; k < Math.max(...frags.map((f) => f.length)); k++) {
    frags.forEach((f, index) => {
      if (k < f.length) chunks.push({ content: "", tool_call_chunks: [{ type: "tool_call_chunk", args: f[k], index }] });
    });
  }
  chunks.push({ content: "", response_metadata: { ...OPENAI, finish_reason: "tool_calls" }, usage_metadata: usage(40, 30) });
  return chunks;
}

// @langchain/anthropic streaming: thinking (index 0) + signature, text (index 1), then a tool_use block
// (index 2, input "") whose arguments come as input_json_delta blocks with matching tool_call_chunks.
function anthropicThinkingToolTurn(thinking, text, [name, args, id]) {
  const meta = { model_provider: "anthropic" };
  return [
    ...words(thinking).map((w) => ({ content: [{ type: "thinking", thinking: w, index: 0 }], response_metadata: meta })),
    { content: [{ type: "thinking", signature: "EqQBCkYIBxgCKkBfakeSignature==", index: 0 }], response_metadata: meta },
    ...words(text).map((w) => ({ content: [{ type: "text", text: w, index: 1 }], response_metadata: meta })),
    {
      content: [{ type: "tool_use", id, name, input: "", index: 2 }],
      tool_call_chunks: [{ type: "tool_call_chunk", name, args: "", id, index: 2 }],
      response_metadata: meta,
    },
    ...splitArgs(args).map((frag) => ({
      content: [{ type: "input_json_delta", input: frag, index: 2 }],
      tool_call_chunks: [{ type: "tool_call_chunk", args: frag, index: 2 }],
      response_metadata: meta,
    })),
    { content: [], response_metadata: { ...ANTHROPIC_FINAL, stop_reason: "tool_use" }, usage_metadata: usage(60, 40) },
  ];
}

// DeepSeek/Qwen style: reasoning in additional_kwargs.reasoning_content, then an OpenAI-style call.
function deepseekToolTurn(reasoning, [name, args, id]) {
  const meta = { model_provider: "deepseek" };
  return [
    ...words(reasoning).map((w) => ({ content: "", additional_kwargs: { reasoning_content: w }, response_metadata: meta })),
    { content: "", tool_call_chunks: [{ type: "tool_call_chunk", name, args: "", id, index: 0 }], response_metadata: meta },
    ...splitArgs(args).map((frag) => ({ content: "", tool_call_chunks: [{ type: "tool_call_chunk", args: frag, index: 0 }], response_metadata: meta })),
    {
      content: "",
      response_metadata: { model_provider: "deepseek", model_name: "fake-deepseek-reasoner", finish_reason: "tool_calls" },
      usage_metadata: usage(25, 30),
    },
  ];
}

// Text in exactly these string pieces (JS strings are UTF-16: a piece may end inside a surrogate pair).
function piecesTurn(pieces) {
  return [
    ...pieces.map((p) => ({ content: p })),
    { content: "", response_metadata: { ...OPENAI, finish_reason: "stop" }, usage_metadata: usage(12, 9) },
  ];
}

// --- tools ------------------------------------------------------------------------------
const getWeather = tool(async ({ city }) => ({ Paris: "Sunny, 22°C in Paris", London: "Rainy, 14°C in London" })[city] ?? `Cloudy in ${city}`, {
  name: "get_weather",
  description: "Get the current weather for a city.",
  schema: z.object({ city: z.string() }),
});
const lookupOrder = tool(
  async ({ order_id }) => {
    throw new Error(`order service unavailable for ${order_id}`);
  },
  { name: "lookup_order", description: "Look up an order by id.", schema: z.object({ order_id: z.string() }) },
);
const checkStatus = tool(async ({ job }) => `${job}: still running`, {
  name: "check_status",
  description: "Check the status of a background job.",
  schema: z.object({ job: z.string() }),
});
const searchDocs = tool(
  async function* ({ query }) {
    yield "Found 2 docs";
    yield "; reading #1";
    yield { progress: 1, step: "reading #2" };
    return `2 docs about ${query}: install, configure`;
  },
  { name: "search_docs", description: "Search the docs and stream partial results.", schema: z.object({ query: z.string() }) },
);

const placeOrder = tool(
  async ({ item, qty }) => {
    const answer = interrupt({ type: "approval", message: `Approve order of ${qty} ${item}?`, order: { item, qty } });
    return answer?.approved ? `Order of ${qty} ${item} placed.` : "Order rejected.";
  },
  {
    name: "place_order",
    description: "Place an order; a human must approve it first.",
    schema: z.object({ item: z.string(), qty: z.number() }),
  },
);

const transferToBilling = tool(
  async ({ reason }, config) =>
    new Command({
      goto: "billing",
      update: { messages: [new ToolMessage({ content: `Transferred to billing: ${reason}`, tool_call_id: config.toolCall.id, name: "transfer_to_billing" })] },
    }),
  { name: "transfer_to_billing", description: "Hand the conversation over to the billing agent.", schema: z.object({ reason: z.string() }) },
);

const fetchChart = tool(async ({ city }) => [`Chart for ${city}: 3 points.`, { points: [18, 22, 20], unit: "°C", city }], {
  name: "fetch_chart",
  description: "Fetch a temperature chart for a city.",
  schema: z.object({ city: z.string() }),
  responseFormat: "content_and_artifact",
});

const sendEmail = tool(async ({ to, subject }) => `Email to ${to} sent: ${subject}`, {
  name: "send_email",
  description: "Send an email.",
  schema: z.object({ to: z.string(), subject: z.string() }),
});

// --- graphs -------------------------------------------------------------------------------
// createAgent with humanInTheLoopMiddleware: the run stops after the model's call, before the tool.
function hitlMiddlewareAgent() {
  const model = new ScriptedChatModel([
    toolCallsTurn([["send_email", { to: "bob@example.com", subject: "Lunch" }, "call_email_1"]]),
    textTurn("The email to Bob is sent."),
  ]);
  return createAgent({
    model,
    tools: [sendEmail],
    systemPrompt: "You are a helpful assistant.",
    checkpointer: new MemorySaver(),
    middleware: [humanInTheLoopMiddleware({ interruptOn: { send_email: true } })],
  });
}

// createAgent with a structured responseFormat (toolStrategy): the model answers with a call
// to the schema's tool, and createAgent writes the last AI message itself ("Returning
// structured response: {…}"), which no model streams.
function structuredOutputAgent() {
  const model = new ScriptedChatModel([
    toolCallsTurn([["get_weather", { city: "Paris" }, "call_weather_1"]]),
    toolCallsTurn([["Weather", { city: "Paris", summary: "Sunny, 22°C" }, "call_structured_1"]]),
  ]);
  return createAgent({
    model,
    tools: [getWeather],
    systemPrompt: "You are a helpful assistant.",
    checkpointer: new MemorySaver(),
    // a JSON schema: its `title` names the structured-output tool the model calls
    responseFormat: toolStrategy({
      title: "Weather",
      type: "object",
      properties: { city: { type: "string" }, summary: { type: "string" } },
      required: ["city", "summary"],
    }),
  });
}

// triage agent whose tool returns Command({goto: "billing", update: {messages: [ToolMessage]}}).
function handoffGraph() {
  const triage = new ScriptedChatModel([
    // no lead text: LangGraph.js v3 merges a call into text block 0 and loses it (b_react_text_and_tool)
    toolCallsTurn([["transfer_to_billing", { reason: "refund request" }, "call_transfer_1"]]),
  ]).bindTools([transferToBilling]);
  const billing = new ScriptedChatModel([textTurn("Billing here: your refund is on its way.")]);
  return new StateGraph(MessagesAnnotation)
    .addNode("triage", async (state) => ({ messages: [await triage.invoke(state.messages)] }))
    .addNode("tools", new ToolNode([transferToBilling]), { ends: ["billing"] })
    .addNode("billing", async (state) => ({ messages: [await billing.invoke(state.messages)] }))
    .addEdge(START, "triage")
    .addConditionalEdges("triage", toolsCondition, ["tools", END])
    .addEdge("billing", END)
    .compile({ checkpointer: new MemorySaver() });
}

// Pure function nodes: no model at all; `summarize` returns a finished AIMessage.
function noModelGraph() {
  const State = Annotation.Root({ ...MessagesAnnotation.spec, total: Annotation() });
  return new StateGraph(State)
    .addNode("parse", (state) => ({ total: String(state.messages.at(-1).content).split(" ").filter((w) => /^\d+$/.test(w)).reduce((a, w) => a + Number(w), 0) }))
    .addNode("summarize", (state) => ({ messages: [new AIMessage({ content: `The total is ${state.total}.`, id: "ai-summary" })] }))
    .addEdge(START, "parse")
    .addEdge("parse", "summarize")
    .addEdge("summarize", END)
    .compile({ checkpointer: new MemorySaver() });
}

// A long conversation as run input: human/AI pairs, every 10th AI turn a tool call + result.
function longHistory(name, turns = 60) {
  const messages = [];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: "user", content: `Question ${i}: what is ${i} + ${i}?`, id: `hist-human-${i}` });
    if (i % 10 === 5) {
      messages.push(new AIMessage({ content: "", tool_calls: [{ name: "get_weather", args: { city: `City${i}` }, id: `call_hist_${i}`, type: "tool_call" }], id: `hist-ai-call-${i}` }));
      messages.push(new ToolMessage({ content: `Cloudy in City${i}`, tool_call_id: `call_hist_${i}`, name: "get_weather", id: `hist-tool-${i}` }));
    }
    messages.push(new AIMessage({ content: `${i} + ${i} = ${2 * i}.`, id: `hist-ai-${i}` }));
  }
  messages.push({ role: "user", content: "And what did I ask first?", id: `human-${name}` });
  return { messages };
}

// Resume input answering every pending interrupt by its id (in the order the state lists them).
const resumeAll = (answers) => async (graph, config) => {
  const state = await graph.getState(config);
  const ids = state.tasks.flatMap((t) => t.interrupts ?? []).map((i) => i.id);
  return new Command({ resume: Object.fromEntries(ids.map((id, k) => [id, answers[k % answers.length]])) });
};

function chatGraph(model, node = "chat") {
  return new StateGraph(MessagesAnnotation)
    .addNode(node, async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addEdge(START, node)
    .addEdge(node, END)
    .compile({ checkpointer: new MemorySaver() });
}

function agentGraph(turns, tools, { handleToolErrors = true, repeatLast = false, model: modelOpts = {}, compile = null } = {}) {
  const model = new ScriptedChatModel(turns, { repeatLast, ...modelOpts }).bindTools(tools);
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addNode("tools", new ToolNode(tools, { handleToolErrors }))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, ["tools", END])
    .addEdge("tools", "agent")
    .compile(compile ?? { checkpointer: new MemorySaver() });
}

// A supervisor agent whose tool invokes a compiled sub-agent (own model calls and tools).
function supervisorGraph({ hitl = false } = {}) {
  const [subTurns, subTools, subName, toolName, request, answer] = hitl
    ? [
        [toolCallsTurn([["place_order", { item: "widget", qty: 2 }, "call_place_order_1"]]), textTurn("Order of 2 widget placed.")],
        [placeOrder],
        "order_agent",
        "ask_order_agent",
        "Order 2 widgets",
        "The order agent placed your order of 2 widgets.",
      ]
    : [
        [toolCallsTurn([["get_weather", { city: "Paris" }, "call_sub_weather_1"]]), textTurn("Paris: sunny, 22°C.")],
        [getWeather],
        "weather_agent",
        "ask_weather_agent",
        "Weather in Paris?",
        "The weather agent says Paris is sunny, 22°C.",
      ];
  const sub = agentGraph(subTurns, subTools, { compile: { name: subName } });
  const ask = tool(
    async ({ request }) => {
      const out = await sub.invoke({ messages: [{ role: "user", content: request, id: `human-${toolName}` }] });
      return out.messages.at(-1).content;
    },
    { name: toolName, description: `Ask the ${subName.replace("_", " ")} to handle a request.`, schema: z.object({ request: z.string() }) },
  );
  const callId = hitl ? "call_ask_order_1" : "call_ask_weather_1";
  return agentGraph([toolCallsTurn([[toolName, { request }, callId]]), textTurn(answer)], [ask]);
}

// A supervisor whose one turn calls two different sub-agents at once; their events interleave.
function parallelSupervisorGraph() {
  const weather = agentGraph(
    [toolCallsTurn([["get_weather", { city: "Paris" }, "call_sub_weather_1"]]), textTurn("Paris: sunny, 22°C.")],
    [getWeather],
    { compile: { name: "weather_agent" } },
  );
  const news = agentGraph([textTurn("Paris news: the Seine is calm today.")], [], { compile: { name: "news_agent" } });
  const asking = (sub, name, subName) =>
    tool(
      async ({ request }) => {
        const out = await sub.invoke({ messages: [{ role: "user", content: request, id: `human-${name}` }] });
        return out.messages.at(-1).content;
      },
      { name, description: `Ask the ${subName.replace("_", " ")}.`, schema: z.object({ request: z.string() }) },
    );
  return agentGraph(
    [
      toolCallsTurn([
        ["ask_weather_agent", { request: "Weather in Paris?" }, "call_ask_weather_1"],
        ["ask_news_agent", { request: "News from Paris?" }, "call_ask_news_1"],
      ]),
      textTurn("Paris is sunny, 22°C, and the Seine is calm."),
    ],
    [asking(weather, "ask_weather_agent", "weather_agent"), asking(news, "ask_news_agent", "news_agent")],
  );
}

function hitlGraph() {
  const model = new ScriptedChatModel([textTurn("I will order 2 widgets."), textTurn("Your order has been placed.")]);
  return approvalGraph(model, async () => {
    const answer = interrupt({ type: "approval", message: "Approve order?", order: { item: "widget", qty: 2 } });
    const verdict = answer?.approved ? "approved" : "rejected";
    return { messages: [new AIMessage({ content: `Order ${verdict}.`, id: "ai-approval-result" })] };
  });
}

// draft (a model call) → approve (`approve`, which interrupts) → confirm (a model call).
function approvalGraph(model, approve) {
  return new StateGraph(MessagesAnnotation)
    .addNode("draft", async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addNode("approve", approve)
    .addNode("confirm", async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addEdge(START, "draft")
    .addEdge("draft", "approve")
    .addEdge("approve", "confirm")
    .addEdge("confirm", END)
    .compile({ checkpointer: new MemorySaver() });
}

// d_hitl's graph for a thread of two turns (interrupt, resume, a new question, interrupt,
// resume): four model calls; the approval messages get ids from LangGraph.
function multiTurnHitlGraph() {
  const model = new ScriptedChatModel([
    textTurn("I will order 2 widgets."),
    textTurn("Your widget order has been placed."),
    textTurn("I will order 1 gadget."),
    textTurn("The gadget order was cancelled."),
  ]);
  return approvalGraph(model, async (state) => {
    const answer = interrupt({ type: "approval", message: "Approve order?", order: state.messages.at(-1).text });
    return { messages: [new AIMessage(`Order ${answer?.approved ? "approved" : "rejected"}.`)] };
  });
}

function subgraphGraph() {
  const inner = new ScriptedChatModel([textTurn("Paris has 2.1M people.")]);
  const outer = new ScriptedChatModel([textTurn("Research done.")]);
  const research = new StateGraph(MessagesAnnotation)
    .addNode("inner_chat", async (state) => ({ messages: [await inner.invoke(state.messages)] }))
    .addEdge(START, "inner_chat")
    .addEdge("inner_chat", END)
    .compile();
  return new StateGraph(MessagesAnnotation)
    .addNode("research", research)
    .addNode("report", async (state) => ({ messages: [await outer.invoke(state.messages)] }))
    .addEdge(START, "research")
    .addEdge("research", "report")
    .addEdge("report", END)
    .compile({ checkpointer: new MemorySaver() });
}

const AGUI_EVENTS = [
  { type: "TEXT_MESSAGE_START", messageId: "agui-note-1", role: "assistant" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "agui-note-1", delta: "Working..." },
  { type: "TEXT_MESSAGE_END", messageId: "agui-note-1" },
];

function customEventsGraph() {
  const model = new ScriptedChatModel([textTurn("Working on it.")]);
  return new StateGraph(MessagesAnnotation)
    .addNode("worker", async (state, config) => {
      await dispatchCustomEvent("progress", { pct: 50, stage: "thinking" }, config);
      config.writer?.({ name: "progress", payload: { pct: 50, stage: "thinking" } });
      for (const ev of AGUI_EVENTS) {
        await dispatchCustomEvent("agui", ev, config);
        config.writer?.({ name: "agui", payload: ev });
      }
      config.writer?.({ progress: 0.5 }); // no name: wrapped as {payload}
      const msg = await model.invoke(state.messages);
      await dispatchCustomEvent("manually_emit_state", { stage: "done", pct: 100 }, config);
      config.writer?.("plain string progress 100%");
      return { messages: [msg] };
    })
    .addEdge(START, "worker")
    .addEdge("worker", END)
    .compile({ checkpointer: new MemorySaver() });
}

const TaskState = Annotation.Root({
  ...MessagesAnnotation.spec,
  counter: Annotation({ reducer: (_a, b) => b, default: () => 0 }),
  status: Annotation({ reducer: (_a, b) => b, default: () => "new" }),
  items: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
});

function stateGraph() {
  const model = new ScriptedChatModel([textTurn("Plan ready: 2 items.")]);
  return new StateGraph(TaskState)
    .addNode("plan", (state) => ({ status: "planning", items: ["buy milk", "walk dog"], counter: state.counter + 1 }))
    .addNode("chat", async (state) => ({ messages: [await model.invoke(state.messages)], status: "done", counter: state.counter + 1 }))
    .addEdge(START, "plan")
    .addEdge("plan", "chat")
    .addEdge("chat", END)
    .compile({ checkpointer: new MemorySaver() });
}

const failing = (...turn) => chatGraph(new ScriptedChatModel([turn]));
const RATE_LIMIT_MSG =
  "429 Rate limit reached for requests. Please try again in 20s.";
const AUTH_MSG = "401 Incorrect API key provided: sk-fake***1234.";

// --- s50 shapes (scenarios `o_*`) --------------------------------------------------------------
// output_version v1 standard blocks: reasoning (index 0), text (1), a `tool_call_chunk` block (2).
function v1ReasoningToolTurn(reasoning, text, [name, args, id]) {
  const meta = { model_provider: "openai", output_version: "v1" };
  const frags = ["", ...splitArgs(args)].map((args, k) => ({ ...(k === 0 ? { name, id } : {}), args, index: 2 }));
  return [
    ...words(reasoning).map((w) => ({ content: [{ type: "reasoning", reasoning: w, index: 0 }], response_metadata: meta })),
    ...words(text).map((w) => ({ content: [{ type: "text", text: w, index: 1 }], response_metadata: meta })),
    ...frags.map((f) => ({ content: [{ type: "tool_call_chunk", ...f }], tool_call_chunks: [{ type: "tool_call_chunk", ...f }], response_metadata: meta })),
    {
      content: [],
      response_metadata: { model_provider: "openai", model_name: "fake-v1-model", finish_reason: "tool_calls", output_version: "v1" },
      usage_metadata: usage(25, 30),
    },
  ];
}

const renderChart = tool(
  async ({ city }) => [
    { type: "text", text: `Chart for ${city}:` },
    { type: "image", data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", mimeType: "image/png" },
  ],
  { name: "render_chart", description: "Render a temperature chart for a city (text + PNG image).", schema: z.object({ city: z.string() }) },
);

// Map-reduce: `plan` fans out with Send to one `write` task per topic, `reduce` answers.
function sendMapReduceGraph() {
  const writers = { cats: new ScriptedChatModel([textTurn("Cats nap all day.")]), dogs: new ScriptedChatModel([textTurn("Dogs fetch sticks.")]) };
  const reducer = new ScriptedChatModel([textTurn("Cats nap, dogs fetch.")]);
  const State = Annotation.Root({
    ...MessagesAnnotation.spec,
    topics: Annotation(),
    drafts: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  return new StateGraph(State)
    .addNode("plan", () => ({ topics: ["cats", "dogs"] }))
    .addNode("write", async ({ topic }) => ({ drafts: [(await writers[topic].invoke([{ role: "user", content: `One line about ${topic}` }])).content] }))
    .addNode("reduce", async (state) => ({ messages: [await reducer.invoke(state.messages)] }))
    .addEdge(START, "plan")
    .addConditionalEdges("plan", (state) => state.topics.map((topic) => new Send("write", { topic })), ["write"])
    .addEdge("write", "reduce")
    .addEdge("reduce", END)
    .compile({ checkpointer: new MemorySaver() });
}

// A compiled agent as the node `research` of a parent graph, then `report` (a model call).
function subgraphAgentGraph(innerTurns, tools, opts = {}) {
  const inner = agentGraph(innerTurns, tools, { ...opts, compile: { name: "research_agent" } });
  const outer = new ScriptedChatModel([textTurn("Report: Paris is sunny.")]);
  return new StateGraph(MessagesAnnotation)
    .addNode("research", inner)
    .addNode("report", async (state) => ({ messages: [await outer.invoke(state.messages)] }))
    .addEdge(START, "research")
    .addEdge("research", "report")
    .addEdge("report", END)
    .compile({ checkpointer: new MemorySaver() });
}

function subgraphErrorGraph() {
  const inner = new ScriptedChatModel([[new NamedError("RateLimitError", RATE_LIMIT_MSG, { status: 429 })]]);
  const research = new StateGraph(MessagesAnnotation)
    .addNode("inner_chat", async (state) => ({ messages: [await inner.invoke(state.messages)] }))
    .addEdge(START, "inner_chat")
    .addEdge("inner_chat", END)
    .compile();
  return new StateGraph(MessagesAnnotation).addNode("research", research).addEdge(START, "research").addEdge("research", END).compile({ checkpointer: new MemorySaver() });
}

// `trim` removes the two oldest history messages (RemoveMessage), then `chat` answers.
function removeMessagesGraph() {
  const model = new ScriptedChatModel([textTurn("Your last question was about Rome.")]);
  return new StateGraph(MessagesAnnotation)
    .addNode("trim", (state) => ({ messages: state.messages.slice(0, 2).map((m) => new RemoveMessage({ id: m.id })) }))
    .addNode("chat", async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addEdge(START, "trim")
    .addEdge("trim", "chat")
    .addEdge("chat", END)
    .compile({ checkpointer: new MemorySaver() });
}

const removeMessagesInput = (name) => ({
  messages: [
    { role: "user", content: "Capital of France?", id: "hist-human-0" },
    { role: "assistant", content: "Paris.", id: "hist-ai-0" },
    { role: "user", content: "Capital of Italy?", id: "hist-human-1" },
    { role: "assistant", content: "Rome.", id: "hist-ai-1" },
    { role: "user", content: "What did I just ask?", id: `human-${name}` },
  ],
});

// `plan` fans out with Send to two `approve` tasks that interrupt in the same step; the resume
// answers both by interrupt id, then `summary` answers.
function parallelInterruptsGraph() {
  const model = new ScriptedChatModel([textTurn("Widgets approved, gadgets rejected.")]);
  const State = Annotation.Root({
    ...MessagesAnnotation.spec,
    topics: Annotation(),
    drafts: Annotation({ reducer: (a, b) => a.concat(b), default: () => [] }),
  });
  return new StateGraph(State)
    .addNode("plan", () => ({ topics: ["widgets", "gadgets"] }))
    .addNode("approve", ({ topic }) => {
      const answer = interrupt({ type: "approval", message: `Approve buying ${topic}?`, item: topic });
      return { drafts: [`${topic}: ${answer?.approved ? "yes" : "no"}`] };
    })
    .addNode("summary", async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addEdge(START, "plan")
    .addConditionalEdges("plan", (state) => state.topics.map((topic) => new Send("approve", { topic })), ["approve"])
    .addEdge("approve", "summary")
    .addEdge("summary", END)
    .compile({ checkpointer: new MemorySaver() });
}

// `compact` replaces the whole history (RemoveMessage(REMOVE_ALL_MESSAGES)) with a summary, then `chat` answers.
function removeAllGraph() {
  const model = new ScriptedChatModel([textTurn("You asked about Paris and Rome.")]);
  return new StateGraph(MessagesAnnotation)
    .addNode("compact", (state) => ({
      messages: [
        new RemoveMessage({ id: REMOVE_ALL_MESSAGES }),
        new AIMessage({ content: "Summary: capitals of France and Italy.", id: "ai-summary" }),
        state.messages.at(-1),
      ],
    }))
    .addNode("chat", async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addEdge(START, "compact")
    .addEdge("compact", "chat")
    .addEdge("chat", END)
    .compile({ checkpointer: new MemorySaver() });
}

// A node calls model.withStructuredOutput (tool calling); the node writes the parsed result itself.
function structuredModelGraph() {
  const model = new ScriptedChatModel([toolCallsTurn([["Weather", { city: "Paris", summary: "Sunny, 22°C" }, "call_structured_1"]])]);
  const Weather = z.object({ city: z.string(), summary: z.string() });
  return new StateGraph(MessagesAnnotation)
    .addNode("extract", async (state) => {
      const out = await model.withStructuredOutput(Weather, { name: "Weather" }).invoke(state.messages);
      return { messages: [new AIMessage({ content: `${out.city}: ${out.summary}`, id: "ai-structured" })] };
    })
    .addEdge(START, "extract")
    .addEdge("extract", END)
    .compile({ checkpointer: new MemorySaver() });
}

// --- scenarios ---------------------------------------------------------------------------------
const human = (text, name) => ({ messages: [{ role: "user", content: text, id: `human-${name}` }] });
const one = (name, text) => [{ suffix: "", input: human(text, name) }];

function scenarios() {
  const S = (name, build, runs, opts = {}) => ({ name, build, runs, ...opts });
  return [
    S("a_plain_chat", () => chatGraph(new ScriptedChatModel([textTurn("Hello! How can I help you today?")])), one("a_plain_chat", "Hi there")),
    S(
      "b_react_one_tool",
      () => agentGraph([toolCallsTurn([["get_weather", { city: "Paris" }, "call_weather_1"]]), textTurn("It is sunny and 22°C in Paris.")], [getWeather]),
      one("b_react_one_tool", "Weather in Paris?"),
    ),
    S(
      "b_react_parallel",
      () =>
        agentGraph(
          [
            toolCallsTurn([
              ["get_weather", { city: "Paris" }, "call_weather_paris"],
              ["get_weather", { city: "London" }, "call_weather_london"],
            ]),
            textTurn("Paris is sunny, London is rainy."),
          ],
          [getWeather],
        ),
      one("b_react_parallel", "Weather in Paris and London?"),
    ),
    S(
      "b_react_text_and_tool",
      () =>
        agentGraph(
          [toolCallsTurn([["get_weather", { city: "Paris" }, "call_weather_1"]], { leadText: "Let me check." }), textTurn("It is sunny in Paris.")],
          [getWeather],
        ),
      one("b_react_text_and_tool", "Weather in Paris?"),
    ),
    S("c_reasoning_openai", () => chatGraph(new ScriptedChatModel([openaiResponsesTurn("The user asks for the capital of France; it is Paris.", "The capital of France is Paris.")])), one("c_reasoning_openai", "Capital of France?")),
    S("c_reasoning_anthropic", () => chatGraph(new ScriptedChatModel([anthropicThinkingTurn("The user wants the capital of France. That is Paris.", "The capital of France is Paris.")])), one("c_reasoning_anthropic", "Capital of France?")),
    S("c_reasoning_anthropic_redacted", () => chatGraph(new ScriptedChatModel([anthropicRedactedTurn("The capital of France is Paris.")])), one("c_reasoning_anthropic_redacted", "Capital of France?")),
    S("c_reasoning_deepseek", () => chatGraph(new ScriptedChatModel([deepseekTurn("France's capital is Paris.", "The capital of France is Paris.")])), one("c_reasoning_deepseek", "Capital of France?")),
    S("c_reasoning_v1", () => chatGraph(new ScriptedChatModel([v1ReasoningTurn("France's capital is Paris.", "The capital of France is Paris.")])), one("c_reasoning_v1", "Capital of France?")),
    S("d_hitl", hitlGraph, [
      { suffix: "__1_interrupt", input: human("Order 2 widgets", "d_hitl") },
      { suffix: "__2_resume", input: () => new Command({ resume: { approved: true } }) },
    ]),
    S(
      "e_error_tool_raises",
      () => agentGraph([toolCallsTurn([["lookup_order", { order_id: "A-1" }, "call_lookup_1"]])], [lookupOrder], { handleToolErrors: false }),
      one("e_error_tool_raises", "Where is order A-1?"),
    ),
    S(
      "e_error_tool_handled",
      () => agentGraph([toolCallsTurn([["lookup_order", { order_id: "A-1" }, "call_lookup_1"]]), textTurn("Sorry, the order service is unavailable.")], [lookupOrder]),
      one("e_error_tool_handled", "Where is order A-1?"),
    ),
    S(
      "e_recursion_limit",
      () =>
        agentGraph(
          [toolCallsTurn([["check_status", { job: "backup" }, "call_status_1"]]), toolCallsTurn([["check_status", { job: "backup" }, "call_status_2"]])],
          [checkStatus],
          { repeatLast: true },
        ),
      one("e_recursion_limit", "Wait for the backup job"),
      { config: { recursionLimit: 3 } },
    ),
    S("e_model_rate_limit", () => failing(new NamedError("RateLimitError", RATE_LIMIT_MSG, { status: 429 })), one("e_model_rate_limit", "Hi there")),
    S("e_model_auth", () => failing(new NamedError("AuthenticationError", AUTH_MSG, { status: 401 })), one("e_model_auth", "Hi there")),
    S(
      "e_model_timeout",
      () => failing({ content: "Let" }, { content: " me" }, { content: " think" }, new NamedError("APIConnectionTimeoutError", "Request timed out.")),
      one("e_model_timeout", "Hi there"),
    ),
    S(
      "e_model_connection",
      () => failing(new NamedError("APIConnectionError", "Connection error: connect ECONNREFUSED 127.0.0.1:443", { code: "ECONNREFUSED" })),
      one("e_model_connection", "Hi there"),
    ),
    S("e_truncated_stream", () => chatGraph(new ScriptedChatModel([textTurn("This reply will be cut off before it ends.")])), one("e_truncated_stream", "Tell me something"), {
      truncateAfter: 3,
    }),
    S("f_subgraph", subgraphGraph, one("f_subgraph", "Research Paris")),
    S("g_custom_events", customEventsGraph, one("g_custom_events", "Do the work")),
    S("h_state", stateGraph, [{ suffix: "", input: { ...human("Plan my day", "h_state"), counter: 0, status: "new", items: [] } }]),
    S(
      "i_tool_output_delta",
      () => agentGraph([toolCallsTurn([["search_docs", { query: "install" }, "call_search_1"]]), textTurn("Found install and configure docs.")], [searchDocs]),
      one("i_tool_output_delta", "Search the docs for install"),
    ),
    // 28.2 supervisor whose tool invokes a compiled sub-agent; and one with an interrupt inside the sub-agent
    S("m_supervisor", () => supervisorGraph(), one("m_supervisor", "What's the weather in Paris?")),
    // one supervisor turn calls two sub-agents at once; their events interleave
    S("m_supervisor_parallel", () => parallelSupervisorGraph(), one("m_supervisor_parallel", "Weather and news from Paris?")),
    S("m_supervisor_hitl", () => supervisorGraph({ hitl: true }), [
      { suffix: "__1_interrupt", input: human("Order 2 widgets", "m_supervisor_hitl") },
      { suffix: "__2_resume", input: () => new Command({ resume: { approved: true } }) },
    ]),
    ...sweepScenarios(),
    ...pendingScenarios(),
  ];
}

// Shapes added by the recording sweep (issue 22 follow-up).
function sweepScenarios() {
  const S = (name, build, runs, opts = {}) => ({ name, build, runs, ...opts });
  const weather2 = [
    ["get_weather", { city: "Paris" }, "call_weather_paris"],
    ["get_weather", { city: "London" }, "call_weather_london"],
  ];
  const orders2 = [
    ["place_order", { item: "widget", qty: 2 }, "call_order_widget"],
    ["place_order", { item: "gadget", qty: 1 }, "call_order_gadget"],
  ];
  return [
    S("n_parallel_interleaved", () => agentGraph([interleavedToolCallsTurn(weather2), textTurn("Paris is sunny, London is rainy.")], [getWeather]), one("n_parallel_interleaved", "Weather in Paris and London?")),
    S(
      "n_anthropic_thinking_tool",
      () =>
        agentGraph(
          [
            anthropicThinkingToolTurn("The user wants Paris weather. I should call the tool.", "Let me check.", ["get_weather", { city: "Paris" }, "toolu_01weather"]),
            anthropicThinkingTurn("The tool says sunny.", "It is sunny and 22°C in Paris."),
          ],
          [getWeather],
        ),
      one("n_anthropic_thinking_tool", "Weather in Paris?"),
    ),
    S(
      "n_deepseek_tool",
      () =>
        agentGraph(
          [deepseekToolTurn("I need the weather tool for Paris.", ["get_weather", { city: "Paris" }, "call_weather_1"]), deepseekTurn("The tool says sunny.", "It is sunny and 22°C in Paris.")],
          [getWeather],
        ),
      one("n_deepseek_tool", "Weather in Paris?"),
    ),
    S("n_two_interrupts", () => agentGraph([toolCallsTurn(orders2), textTurn("The widget order is placed; the gadget order was rejected.")], [placeOrder]), [
      { suffix: "__1_interrupt", input: human("Order 2 widgets and 1 gadget", "n_two_interrupts") },
      // LangGraph.js's ToolNode surfaces the first interrupt only: the resume answers it, the
      // second surfaces then, and a third run answers that one
      { suffix: "__2_resume", input: resumeAll([{ approved: true }]) },
      { suffix: "__3_resume", input: resumeAll([{ approved: false }]) },
    ]),
    S("n_handoff", handoffGraph, one("n_handoff", "I want a refund")),
    S(
      "n_tool_artifact",
      () => agentGraph([toolCallsTurn([["fetch_chart", { city: "Paris" }, "call_chart_1"]]), textTurn("Here is the Paris chart.")], [fetchChart]),
      one("n_tool_artifact", "Chart for Paris?"),
    ),
    S("n_no_model", noModelGraph, one("n_no_model", "Add 2 and 40 please")),
    S("n_structured_output", structuredOutputAgent, one("n_structured_output", "Weather in Paris?")),
    S("n_hitl_middleware", hitlMiddlewareAgent, [
      { suffix: "__1_interrupt", input: human("Email Bob about lunch", "n_hitl_middleware") },
      { suffix: "__2_resume", input: resumeAll([{ decisions: [{ type: "approve" }] }]) },
    ]),
    S("n_long_history", () => chatGraph(new ScriptedChatModel([textTurn("You first asked what 0 + 0 is.")])), [{ suffix: "", input: longHistory("n_long_history") }]),
    S(
      "n_two_calls_one_chunk",
      () =>
        agentGraph(
          [
            geminiOneChunkCallsTurn([
              ["get_weather", { city: "Paris" }, "0b7f3c2e-5a41-4d7e-9c55-1f0e6a2b9d01"],
              ["get_weather", { city: "Tokyo" }, "7c1d9e44-2b8a-4f3c-a6d0-5e2f8b1c3a72"],
            ]),
            textTurn("Paris is sunny, Tokyo is cloudy."),
          ],
          [getWeather],
        ),
      one("n_two_calls_one_chunk", "Weather in Paris and Tokyo?"),
    ),
    S(
      "c_reasoning_bedrock",
      () => chatGraph(new ScriptedChatModel([bedrockIndexedReasoningTurn("The user wants the capital of France. That is Paris.", "The capital of France is Paris.")])),
      one("c_reasoning_bedrock", "Capital of France?"),
    ),
    S(
      "n_unicode_split",
      () => chatGraph(new ScriptedChatModel([piecesTurn(["Hi ", "\u{1F469}", "\u200d\u{1F4BB}", " caf", "e", "\u0301 ", "\u{1F1EB}", "\u{1F1F7}", " \u201cok\u201d ", "\u65e5\u672c", "\u8a9e \u2713"])])),
      one("n_unicode_split", "Say hi with emoji"),
    ),
    S("o_send_map_reduce", sendMapReduceGraph, one("o_send_map_reduce", "Write about cats and dogs")),
    S(
      "o_subgraph_agent",
      () =>
        subgraphAgentGraph(
          [toolCallsTurn([["get_weather", { city: "Paris" }, "call_sub_weather_1"]], { leadText: "Let me check." }), textTurn("Paris is sunny.")],
          [getWeather],
        ),
      one("o_subgraph_agent", "Research Paris weather"),
    ),
    S("o_subgraph_error", subgraphErrorGraph, one("o_subgraph_error", "Research Paris")),
    S(
      "o_subgraph_recursion",
      () =>
        subgraphAgentGraph(
          [toolCallsTurn([["check_status", { job: "backup" }, "call_status_1"]]), toolCallsTurn([["check_status", { job: "backup" }, "call_status_2"]])],
          [checkStatus],
          { repeatLast: true },
        ),
      one("o_subgraph_recursion", "Wait for the backup job"),
      { config: { recursionLimit: 4 } },
    ),
    S(
      "o_tool_content_blocks",
      () => agentGraph([toolCallsTurn([["render_chart", { city: "Paris" }, "call_chart_1"]]), textTurn("Here is the Paris chart.")], [renderChart]),
      one("o_tool_content_blocks", "Chart for Paris?"),
    ),
    S(
      "o_v1_tool_call",
      () =>
        agentGraph(
          [v1ReasoningToolTurn("I need the weather for Paris.", "Checking.", ["get_weather", { city: "Paris" }, "call_weather_1"]), v1ReasoningTurn("Sunny.", "It is sunny in Paris.")],
          [getWeather],
        ),
      one("o_v1_tool_call", "Weather in Paris?"),
    ),
    S("o_remove_messages", removeMessagesGraph, [{ suffix: "", input: removeMessagesInput("o_remove_messages") }]),
    S(
      "o_frontend_tool",
      () => chatGraph(new ScriptedChatModel([toolCallsTurn([["show_booking_form", { hotel: "Le Meurice" }, "call_form_1"]], { leadText: "Please confirm." })])),
      one("o_frontend_tool", "Book Le Meurice"),
    ),
    S("o_parallel_interrupts", parallelInterruptsGraph, [
      { suffix: "__1_interrupt", input: human("Buy widgets and gadgets", "o_parallel_interrupts") },
      { suffix: "__2_resume", input: resumeAll([{ approved: true }, { approved: false }]) },
    ]),
    S("o_remove_all", removeAllGraph, [{ suffix: "", input: removeMessagesInput("o_remove_all") }]),
    S("o_structured_model", structuredModelGraph, one("o_structured_model", "Weather in Paris?")),
    // added with the platform captures of the o_* scenarios (record_sse.py)
    S(
      "p_subgraph_tool_raises",
      () =>
        subgraphAgentGraph([toolCallsTurn([["lookup_order", { order_id: "A-1" }, "call_sub_lookup_1"]], { leadText: "Let me look it up." })], [lookupOrder], {
          handleToolErrors: false,
        }),
      one("p_subgraph_tool_raises", "Research order A-1"),
    ),
    S("p_multi_turn_hitl", multiTurnHitlGraph, [
      { suffix: "__1_interrupt", input: human("Order 2 widgets", "p_multi_turn_hitl") },
      { suffix: "__2_resume", input: () => new Command({ resume: { approved: true } }) },
      { suffix: "__3_interrupt", input: { messages: [{ role: "user", content: "Now order 1 gadget", id: "human-p_multi_turn_hitl-2" }] } },
      { suffix: "__4_resume", input: () => new Command({ resume: { approved: false } }) },
    ]),
  ];
}

// Shapes aguify does not convert yet (issues 22, 28): recorded into testdata/pending with --pending.
function pendingScenarios() {
  const S = (name, build, runs, opts = {}) => ({ name, build, runs, pending: true, ...opts });
  const capital = "Capital of France?";
  const hitlRuns = (name, text) => [
    { suffix: "__1_interrupt", input: human(text, name) },
    { suffix: "__2_resume", input: () => new Command({ resume: { approved: true } }) },
  ];
  const weatherTurns = () => [toolCallsTurn([["get_weather", { city: "Paris" }, "call_weather_1"]]), textTurn("It is sunny and 22°C in Paris.")];
  return [
    // 22.9 one Responses reasoning item with summary parts 0 and 1
    S(
      "c_reasoning_openai_two_parts",
      () => chatGraph(new ScriptedChatModel([openaiResponsesTwoPartsTurn(["The user asks for a capital.", "France's capital is Paris."], "The capital of France is Paris.")])),
      one("c_reasoning_openai_two_parts", capital),
    ),
    // 22.9 additional_kwargs.reasoning (v0 Responses output): summary chunks without an id, two parts
    S(
      "c_reasoning_openai_kwargs",
      () => chatGraph(new ScriptedChatModel([openaiKwargsReasoningTurn(["The user asks for a capital.", "France's capital is Paris."], "The capital of France is Paris.")])),
      one("c_reasoning_openai_kwargs", capital),
    ),
    // 22.2 Gemini style tool call: complete args in one chunk, index null
    S(
      "b_react_args_at_finish",
      () => agentGraph([geminiToolCallTurn([["get_weather", { city: "Paris" }, "call_weather_1"]]), textTurn("It is sunny and 22°C in Paris.")], [getWeather]),
      one("b_react_args_at_finish", "Weather in Paris?"),
    ),
    // 22.3 both runs of one thread appended to one v3 file
    S(
      "d_hitl_one_file",
      hitlGraph,
      [
        { suffix: "", input: human("Order 2 widgets", "d_hitl_one_file") },
        { suffix: "", input: () => new Command({ resume: { approved: true } }) },
      ],
      { versions: ["v3"], oneFile: true },
    ),
    // 22.6 a model that does not stream: tool call and answer only in the model's end output
    S("k_no_stream", () => agentGraph(weatherTurns(), [getWeather], { model: { disableStreaming: true } }), one("k_no_stream", "Weather in Paris?")),
    // 22.6 each model call reports its first 2 chunks only, then ends with the complete message
    S(
      "k_stream_cut",
      () => agentGraph(weatherTurns(), [getWeather], { model: { disableStreaming: true, streamFirst: 2 } }),
      one("k_stream_cut", "Weather in Paris?"),
    ),
    // 22.7 interrupt() inside a tool, then resumed
    S(
      "d_hitl_in_tool",
      () =>
        agentGraph(
          [toolCallsTurn([["place_order", { item: "widget", qty: 2 }, "call_place_order_1"]]), textTurn("Your order of 2 widgets has been placed.")],
          [placeOrder],
        ),
      hitlRuns("d_hitl_in_tool", "Order 2 widgets"),
    ),
    // 28.1 the caller aborts (AbortController) after the 3rd text chunk
    S(
      "l_cancelled",
      () => chatGraph(new ScriptedChatModel([textTurn("This reply is long and the caller will cancel it halfway.")], { delayMs: 20 })),
      one("l_cancelled", "Tell me something"),
      { abortAfter: 3 },
    ),
  ];
}

// Raw SSE byte streams of LangGraph.js's own encoders (recorded with --pending):
//   js-v3-events.<scenario>.sse    graph.streamEvents(input, {version: "v3", encoding: "text/event-stream"})
//   js-stream-modes.<scenario>.sse graph.stream(input, {streamMode: ["updates","messages","custom"],
//                                  subgraphs: true, encoding: "text/event-stream"})
const SSE_CAPTURES = {
  "js-v3-events": ["a_plain_chat", "b_react_one_tool", "e_error_tool_raises"],
  "js-stream-modes": ["b_react_one_tool", "f_subgraph", "e_error_tool_raises", "o_subgraph_agent"],
};

// --- recording -----------------------------------------------------------------------------------
function errorLine(err) {
  const data = { error: err?.name ?? "Error", message: err?.message ?? String(err) };
  if (err?.lc_error_code) data.lc_error_code = err.lc_error_code;
  return { event: "error", data };
}

function isTextChunk(form, ev) {
  if (form === "v2-js") return ev.event === "on_chat_model_stream";
  return ev.method === "messages" && ev.params?.data?.event === "content-block-delta";
}

function writeLines(path, events, truncateAfter, form) {
  let lines = events;
  if (truncateAfter) {
    lines = [];
    let seen = 0;
    for (const ev of events) {
      lines.push(ev);
      if (isTextChunk(form, ev) && ++seen === truncateAfter) break;
    }
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, lines.map((e) => JSON.stringify(e)).join("\n") + "\n");
  console.log(`  wrote ${path} (${lines.length} lines)`);
}

async function record(scn, out, version) {
  const form = version === "v2" ? "v2-js" : "v3-js";
  const graph = scn.build();
  let events = [];
  for (const run of scn.runs) {
    if (!scn.oneFile) events = [];
    const runConfig = { configurable: { thread_id: `thread-${scn.name}` } };
    const input = typeof run.input === "function" ? await run.input(graph, runConfig) : run.input;
    // abortAfter: the caller aborts its AbortController after the Nth text chunk
    const controller = scn.abortAfter ? new AbortController() : null;
    let seen = 0;
    try {
      const stream = await graph.streamEvents(input, {
        version,
        configurable: { thread_id: `thread-${scn.name}` },
        ...(controller ? { signal: controller.signal } : {}),
        ...(scn.config ?? {}),
      });
      for await (const ev of stream) {
        events.push(ev);
        if (controller && isTextChunk(form, ev) && ++seen === scn.abortAfter) controller.abort();
      }
    } catch (err) {
      events.push(errorLine(err));
    }
    if (!scn.oneFile) writeLines(join(out, form, `${scn.name}${run.suffix}.ndjson`), events, scn.truncateAfter, form);
  }
  if (scn.oneFile) writeLines(join(out, form, `${scn.name}.ndjson`), events, scn.truncateAfter, form);
}

async function recordSse(scn, out, form) {
  const graph = scn.build();
  for (const run of scn.runs) {
    const input = typeof run.input === "function" ? run.input() : run.input;
    const config = { configurable: { thread_id: `thread-${scn.name}` }, ...(scn.config ?? {}), encoding: "text/event-stream" };
    const parts = [];
    try {
      const stream =
        form === "js-v3-events"
          ? await graph.streamEvents(input, { version: "v3", ...config })
          : await graph.stream(input, { streamMode: ["updates", "messages", "custom"], subgraphs: true, ...config });
      for await (const bytes of stream) parts.push(Buffer.from(bytes));
    } catch (err) {
      // the encoders turn a failure into an `event: error` frame; anything thrown past them is kept as one too
      parts.push(Buffer.from(`event: error\ndata: ${JSON.stringify(errorLine(err).data)}\n\n`));
    }
    const path = join(out, "sse", `${form}.${scn.name}${run.suffix}.sse`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, Buffer.concat(parts));
    console.log(`  wrote ${path} (${Buffer.concat(parts).length} bytes)`);
  }
}

async function main() {
  const args = process.argv.slice(2);
  const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
  const out = opt("--out", "testdata/recordings");
  const only = new Set(opt("--only", "").split(",").filter(Boolean));
  const pending = args.includes("--pending"); // the pending shapes (for testdata/pending) instead
  for (const scn of scenarios()) {
    if (only.size && !only.has(scn.name)) continue;
    if (pending) {
      for (const [form, names] of Object.entries(SSE_CAPTURES)) {
        if (!scn.pending && names.includes(scn.name)) {
          console.log(`${scn.name} (${form})`);
          await recordSse(scn, out, form);
        }
      }
    }
    if (!!scn.pending !== pending) continue;
    console.log(scn.name);
    for (const version of scn.versions ?? ["v2", "v3"]) await record(scn, out, version);
  }
}

await main();
