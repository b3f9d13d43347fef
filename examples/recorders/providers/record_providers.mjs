#!/usr/bin/env node
// Record LangGraph.js runs with REAL provider integrations whose SDK / HTTP layer is scripted
// (no network, no keys): what the integration makes of a provider response, as LangGraph.js
// streams it.
//
//   (cd examples/recorders/providers && npm ci)
//   node examples/recorders/providers/record_providers.mjs --out testdata/recordings [--only name,...]
//
// Forms: v2-js/ (streamEvents v2) and v3-js/ (streamEvents v3), JSON.stringify per line; for the
// scenarios in SSE_CAPTURES also sse/js-stream-modes.<scenario>.sse (graph.stream's own SSE encoding).
//
// | scenario | integration | scripted layer | shape |
// | n_gemini_two_calls | @langchain/google-genai 2.3.2 ChatGoogleGenerativeAI | `client.generateContentStream` | two whole functionCall parts in one response (no `id`: Gemini sends none): v2 one chunk with two tool_call_chunks without `index` (ids made up by the integration, uuid v4), v3 two `tool_call_chunk` blocks without ids, ToolMessages without `tool_call_id` |
// | n_gemini_text_and_calls | @langchain/google-genai 2.3.2 ChatGoogleGenerativeAI | `client.generateContentStream` | a text part, then two functionCall parts of different tools (no `id`) in the next item: v3 `tool_call_chunk` blocks without ids after a text block (block index 1 and 2, their places in `content`), ToolMessages without `tool_call_id`; also as sse/js-stream-modes |
// | n_bedrock_reasoning | @langchain/aws 1.3.9 ChatBedrockConverse | `client.send` (ConverseStream events) | reasoningContent text deltas, a signature delta, text: `reasoning_content` parts without index |
// | n_openai_stream_usage | @langchain/openai 1.6.0 ChatOpenAI (streamUsage) | `configuration.fetch` (Chat Completions SSE) | chunks with the provider id `chatcmpl-…`, usage on a last chunk with no choices |

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tool } from "@langchain/core/tools";
import { END, MemorySaver, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
import { ChatGoogleGenerativeAI } from "@langchain/google-genai";
import { ChatBedrockConverse } from "@langchain/aws";
import { ChatOpenAI } from "@langchain/openai";
import { z } from "zod";

const words = (text) => text.match(/\s*\S+/g) ?? [];

const getWeather = tool(async ({ city }) => ({ Paris: "Sunny, 22°C in Paris", Tokyo: "Cloudy, 18°C in Tokyo" })[city] ?? `Cloudy in ${city}`, {
  name: "get_weather",
  description: "Get the current weather for a city.",
  schema: z.object({ city: z.string() }),
});

// Each model call takes the next scripted response stream.
function script(turns) {
  let i = 0;
  return () => {
    if (i >= turns.length) throw new Error(`no turn #${i} scripted`);
    return turns[i++];
  };
}
async function* each(items) {
  for (const x of items) yield x;
}

function chatGraph(model) {
  return new StateGraph(MessagesAnnotation)
    .addNode("chat", async (state) => ({ messages: [await model.invoke(state.messages)] }))
    .addEdge(START, "chat")
    .addEdge("chat", END)
    .compile({ checkpointer: new MemorySaver() });
}

function agentGraph(model, tools) {
  const bound = model.bindTools(tools);
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state) => ({ messages: [await bound.invoke(state.messages)] }))
    .addNode("tools", new ToolNode(tools))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, ["tools", END])
    .addEdge("tools", "agent")
    .compile({ checkpointer: new MemorySaver() });
}

// --- Gemini: GenerateContentResponse stream items ---------------------------------------------------
const geminiUsage = (p, c) => ({ promptTokenCount: p, candidatesTokenCount: c, totalTokenCount: p + c });
function geminiTwoCalls() {
  const model = new ChatGoogleGenerativeAI({ model: "gemini-2.5-flash", apiKey: "fake-key" });
  const next = script([
    // both calls whole in one response, as Gemini sends parallel calls (no functionCall.id)
    [
      {
        candidates: [
          {
            content: {
              role: "model",
              parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }, { functionCall: { name: "get_weather", args: { city: "Tokyo" } } }],
            },
            finishReason: "STOP",
            index: 0,
          },
        ],
        usageMetadata: geminiUsage(30, 12),
        modelVersion: "gemini-2.5-flash",
      },
    ],
    [
      ...words("Paris is sunny, Tokyo is cloudy.").map((w) => ({ candidates: [{ content: { role: "model", parts: [{ text: w }] }, index: 0 }], modelVersion: "gemini-2.5-flash" })),
      { candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: "STOP", index: 0 }], usageMetadata: geminiUsage(60, 9), modelVersion: "gemini-2.5-flash" },
    ],
  ]);
  // the SDK model object stays (the integration reads its config); only the HTTP call is scripted
  model.client.generateContentStream = async () => ({ stream: each(next()) });
  return agentGraph(model, [getWeather]);
}

const getTime = tool(async ({ city }) => `12:00 in ${city}`, {
  name: "get_time",
  description: "Get the local time in a city.",
  schema: z.object({ city: z.string() }),
});

function geminiTextAndCalls() {
  const model = new ChatGoogleGenerativeAI({ model: "gemini-2.5-flash", apiKey: "fake-key" });
  const item = (parts, extra = {}) => ({ candidates: [{ content: { role: "model", parts }, index: 0, ...extra }], modelVersion: "gemini-2.5-flash" });
  const next = script([
    [
      item([{ text: "Let me check both." }]),
      {
        ...item([{ functionCall: { name: "get_weather", args: { city: "Paris" } } }, { functionCall: { name: "get_time", args: { city: "Paris" } } }], { finishReason: "STOP" }),
        usageMetadata: geminiUsage(40, 20),
      },
    ],
    [
      ...words("It is sunny in Paris, and 12:00.").map((w) => item([{ text: w }])),
      { ...item([{ text: "" }], { finishReason: "STOP" }), usageMetadata: geminiUsage(80, 10) },
    ],
  ]);
  model.client.generateContentStream = async () => ({ stream: each(next()) });
  return agentGraph(model, [getWeather, getTime]);
}

// --- Bedrock: ConverseStream output events -------------------------------------------------------------
function bedrockReasoning() {
  const model = new ChatBedrockConverse({
    model: "anthropic.claude-sonnet-fake",
    region: "us-east-1",
    credentials: { accessKeyId: "AKIAFAKE", secretAccessKey: "fake" },
  });
  const events = [
    { messageStart: { role: "assistant" } },
    ...words("The user wants the capital of France. That is Paris.").map((text) => ({
      contentBlockDelta: { contentBlockIndex: 0, delta: { reasoningContent: { text } } },
    })),
    { contentBlockDelta: { contentBlockIndex: 0, delta: { reasoningContent: { signature: "EqQBCkYIBxgCKkBfakeBedrockSig==" } } } },
    { contentBlockStop: { contentBlockIndex: 0 } },
    ...words("The capital of France is Paris.").map((text) => ({ contentBlockDelta: { contentBlockIndex: 1, delta: { text } } })),
    { contentBlockStop: { contentBlockIndex: 1 } },
    { messageStop: { stopReason: "end_turn" } },
    { metadata: { usage: { inputTokens: 20, outputTokens: 35, totalTokens: 55 }, metrics: { latencyMs: 812 } } },
  ];
  const next = script([events]);
  model.client.send = async () => ({ stream: each(next()) });
  return chatGraph(model);
}

// --- OpenAI: Chat Completions SSE over a scripted fetch --------------------------------------------------
function openaiStreamUsage() {
  const id = "chatcmpl-0a1b2c3d4e5f";
  const base = { id, object: "chat.completion.chunk", created: 1767225600, model: "gpt-4o-mini-2024-07-18", system_fingerprint: "fp_fake", service_tier: "default" };
  const text = "Hello! How can I help you today?";
  const chunks = [
    { ...base, choices: [{ index: 0, delta: { role: "assistant", content: "", refusal: null }, logprobs: null, finish_reason: null }], usage: null },
    ...words(text).map((w) => ({ ...base, choices: [{ index: 0, delta: { content: w }, logprobs: null, finish_reason: null }], usage: null })),
    { ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }], usage: null },
    {
      ...base,
      choices: [],
      usage: {
        prompt_tokens: 12,
        completion_tokens: 9,
        total_tokens: 21,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
    },
  ];
  const body = chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n";
  const fetch = async () => new Response(body, { status: 200, headers: { "content-type": "text/event-stream", "x-request-id": "req_fake" } });
  const model = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-fake", streamUsage: true, configuration: { fetch } });
  return chatGraph(model);
}

const human = (text, name) => ({ messages: [{ role: "user", content: text, id: `human-${name}` }] });
const SCENARIOS = [
  { name: "n_gemini_two_calls", build: geminiTwoCalls, input: human("Weather in Paris and Tokyo?", "n_gemini_two_calls") },
  { name: "n_gemini_text_and_calls", build: geminiTextAndCalls, input: human("Weather and time in Paris?", "n_gemini_text_and_calls") },
  { name: "n_bedrock_reasoning", build: bedrockReasoning, input: human("Capital of France?", "n_bedrock_reasoning") },
  { name: "n_openai_stream_usage", build: openaiStreamUsage, input: human("Hi there", "n_openai_stream_usage") },
];

// Raw SSE of LangGraph.js's own encoder, as record_js.mjs writes them (sse/js-stream-modes.<scenario>.sse):
// graph.stream(input, {streamMode: ["updates","messages","custom"], subgraphs: true, encoding: "text/event-stream"})
const SSE_CAPTURES = ["n_openai_stream_usage", "n_gemini_text_and_calls"];

async function recordSse(scn, out) {
  const graph = scn.build();
  const parts = [];
  try {
    const stream = await graph.stream(scn.input, {
      streamMode: ["updates", "messages", "custom"],
      subgraphs: true,
      encoding: "text/event-stream",
      configurable: { thread_id: `thread-${scn.name}` },
    });
    for await (const bytes of stream) parts.push(Buffer.from(bytes));
  } catch (err) {
    parts.push(Buffer.from(`event: error\ndata: ${JSON.stringify(errorLine(err).data)}\n\n`));
  }
  const path = join(out, "sse", `js-stream-modes.${scn.name}.sse`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, Buffer.concat(parts));
  console.log(`wrote ${path}`);
}

function errorLine(err) {
  const data = { error: err?.name ?? "Error", message: err?.message ?? String(err) };
  if (err?.lc_error_code) data.lc_error_code = err.lc_error_code;
  return { event: "error", data };
}

async function main() {
  const args = process.argv.slice(2);
  const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
  const out = opt("--out", "testdata/recordings");
  const only = new Set(opt("--only", "").split(",").filter(Boolean));
  for (const scn of SCENARIOS) {
    if (only.size && !only.has(scn.name)) continue;
    for (const version of ["v2", "v3"]) {
      const graph = scn.build();
      const events = [];
      try {
        const stream = await graph.streamEvents(scn.input, { version, configurable: { thread_id: `thread-${scn.name}` } });
        for await (const ev of stream) events.push(ev);
      } catch (err) {
        events.push(errorLine(err));
      }
      const path = join(out, version === "v2" ? "v2-js" : "v3-js", `${scn.name}.ndjson`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, events.map((e) => JSON.stringify(e)).join("\n") + "\n");
      console.log(`wrote ${path} (${events.length} lines)`);
    }
    if (SSE_CAPTURES.includes(scn.name)) await recordSse(scn, out);
  }
}

await main();
