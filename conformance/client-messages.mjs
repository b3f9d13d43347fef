// What the front end ends up showing: every recording converted by aguify (`--to sse`),
// replayed run by run through the real `HttpAgent.runAgent()` of @ag-ui/client (one agent
// per case: an interrupt run and its resume runs are one thread), and the agent's final
// `agent.messages` compared with the conversation of the log's final state.
//
//   node conformance/client-messages.mjs --bin target/debug/aguify [--client PATH] [--target T]
//        [--dir testdata/recordings] [--verbose]
//
// `--client` names another client module (CI: 0.0.59's, from conformance/compat-0.0.x, with
// `--target agui-0.0`); `--target` is passed to `aguify convert`.
//
// The ground truth is the log's state, not aguify's MESSAGES_SNAPSHOT: the `messages` of the
// last root state the run recorded, as the stream's last STATE_SNAPSHOT passes it through
// (LangChain messages, normalised), read here by `conversationOf`, which shares nothing
// with aguify's converter. Compared per message: role, id (when the state gives one; an
// assistant message may keep the id its model run streamed under: `modelRun`; a tool
// message the id `result-<call id>` it was answered under while the log had not named it),
// text
// (user, system and assistant messages whose content is text), the call a tool message
// answers, the ids of an assistant message's calls. Tool calls the log gave no ids (and tool
// messages without `tool_call_id`) are named and paired as the stream does (`callsOf`,
// `pairedCall`; docs/inputs.md, "Tool calls without ids").
//
// Reasoning messages (role `reasoning`, which the client keeps beside a snapshot that lists
// none) are not part of the state. Each must sit, with the reasoning messages next to it,
// right before the assistant message it belongs to (its id is `<message id>:reasoning:…`);
// they are checked so, then left out of the comparison.
//
// A case whose last run ends in RUN_ERROR, or is cancelled, has no final state: the client must hold the last
// state the log recorded (if any) as the head of its list, and every message once. A case
// whose log records no state at all (a stream-mode capture without `values`) is checked
// for that last rule only.
//
// KNOWN lists the cases that are known to end wrong, each with why (an expected failure:
// reported as KNOWN, not counted as passed; one that starts to pass fails the run, so the
// list cannot go stale).
//
// Ends with `N passed, N failed`; exits 1 on any failure.

import { spawnSync } from "node:child_process";
import { dirname, relative, resolve } from "node:path";
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { groupRecordings, walk } from "./recordings.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "..");

function usage(msg) {
  if (msg) console.error(`client-messages: ${msg}`);
  console.error(
    "usage: node client-messages.mjs --bin PATH [--client MODULE] [--target agui-1.0|agui-0.0] [--dir DIR] [--verbose]",
  );
  process.exit(2);
}

const opts = { bin: null, client: "@ag-ui/client", target: null, dir: resolve(REPO, "testdata/recordings"), verbose: false };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--bin") opts.bin = resolve(argv[++i] ?? usage("--bin needs a path"));
  else if (a === "--client") opts.client = argv[++i] ?? usage("--client needs a module");
  else if (a === "--target") opts.target = argv[++i] ?? usage("--target needs a value");
  else if (a === "--dir") opts.dir = resolve(argv[++i] ?? usage("--dir needs a path"));
  else if (a === "--verbose") opts.verbose = true;
  else usage(`unknown argument ${a}`);
}
if (!opts.bin) usage("--bin is required");

// A package name, or the path of a client's module (conformance/compat-0.0.x's 0.0.59).
const clientModule = existsSync(opts.client) ? pathToFileURL(resolve(opts.client)).href : opts.client;
const { HttpAgent } = await import(clientModule);

/** The SSE frames of aguify's output, each with its event, grouped into runs. */
function runsOf(sse) {
  const runs = [];
  for (const frame of sse.split("\n\n")) {
    const data = frame
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).replace(/^ /, ""))
      .join("\n");
    if (!data) continue;
    const event = JSON.parse(data);
    if (event.type === "RUN_STARTED") runs.push([]);
    if (runs.length) runs.at(-1).push({ frame: `${frame}\n\n`, event });
  }
  return runs;
}

// --- The log's conversation, read from a state's LangChain messages -------------------

const ROLE = { human: "user", user: "user", ai: "assistant", assistant: "assistant", tool: "tool", system: "system", developer: "developer" };

function textOf(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    const parts = content.map((b) => (typeof b === "string" ? b : b && b.type === "text" && typeof b.text === "string" ? b.text : null));
    return parts.every((p) => p === null) ? null : parts.filter((p) => p !== null).join("");
  }
  return null;
}

const roleOf = (m) => {
  const kind = m.type ?? m.role;
  return ROLE[String(kind).replace(/MessageChunk$|Message$/i, "").toLowerCase()] ?? String(kind);
};
const ownId = (v) => (typeof v === "string" && v ? v : null);

/**
 * The calls of an assistant message as ids. A call the log gave no id (LangGraph.js with
 * @langchain/google-genai: Gemini sends none) has the id the stream made up for it,
 * `<message id>:tool:<block index>`: the block index is the place in `content` of the n-th
 * `tool_call` block for the n-th call, else the call's place in `tool_calls`
 * (docs/inputs.md, "Tool calls without ids"). Each with its name, and whether it was made up.
 */
function callsOf(m, at) {
  const blocks = (Array.isArray(m.content) ? m.content : []).flatMap((b, i) => (b && b.type === "tool_call" ? [i] : []));
  const mid = ownId(m.id) ?? `msg-${at}`;
  return (m.tool_calls ?? []).flatMap((c, n) => {
    if (typeof c?.name !== "string") return [];
    const id = ownId(c.id);
    return [{ id: id ?? `${mid}:tool:${blocks[n] ?? n}`, name: c.name, madeUp: id === null }];
  });
}

/**
 * The call a tool message without `tool_call_id` answers (`at`: its place; `answers`: the
 * calls the messages before it answer): the first call without an id of the last assistant
 * message before it that has such calls, whose name is the tool message's `name` (any, when
 * it has none) and that no tool message between them answers. By name and order, as the
 * stream pairs their tool runs (AGX613); the ToolNode writes its messages in call order.
 */
function pairedCall(messages, answers, at) {
  const name = typeof messages[at].name === "string" ? messages[at].name : null;
  const answered = new Set();
  for (let j = at - 1; j >= 0; j--) {
    const role = roleOf(messages[j]);
    if (role === "tool" && answers[j]) answered.add(answers[j]);
    if (role !== "assistant") continue;
    const idless = callsOf(messages[j], j).filter((c) => c.madeUp);
    if (!idless.length) continue;
    return idless.find((c) => (name === null || c.name === name) && !answered.has(c.id))?.id ?? null;
  }
  return null;
}

/** One state message as compared: role, id, text, tool call answered, calls made. */
function conversationOf(messages) {
  const answers = [];
  return messages.map((m, i) => {
    const role = roleOf(m);
    answers[i] = role === "tool" ? (ownId(m.tool_call_id) ?? pairedCall(messages, answers, i)) : null;
    return {
      role,
      id: ownId(m.id),
      text: role === "tool" ? null : textOf(m.content),
      toolCallId: answers[i],
      calls: role === "assistant" ? callsOf(m, i).map((c) => c.id) : [],
      at: i,
    };
  });
}

/** A client message as compared. */
function clientView(m) {
  const text = typeof m.content === "string" ? m.content : textOf(m.content);
  return {
    role: m.role,
    id: m.id,
    text: m.role === "tool" ? null : text,
    toolCallId: m.role === "tool" ? (m.toolCallId ?? null) : null,
    calls: m.role === "assistant" ? (m.toolCalls ?? []).map((c) => c.id) : [],
  };
}

/**
 * The model run an id names when the model gave its message none: `lc_run--<run id>`,
 * `lc_run--<run id>-<n>`, `run-<run id>`. A stream whose chunks carry no id streams under one
 * of these and the state may name the message by another; the client keeps the streamed one.
 */
function modelRun(id) {
  const m = /^(?:lc_run--|run-)([0-9a-f-]{36})(?:-\d+)?$/.exec(id ?? "");
  return m ? m[1] : null;
}

function same(want, got) {
  if (want.role !== got.role) return "role";
  const run = want.role === "assistant" && modelRun(want.id);
  const fallback = want.role === "tool" && got.id === `result-${want.toolCallId}`;
  if (want.id !== null && want.id !== got.id && !(run && run === modelRun(got.id)) && !fallback) return "id";
  if (want.toolCallId !== got.toolCallId) return "tool call answered";
  if (want.role === "assistant" && JSON.stringify(want.calls) !== JSON.stringify(got.calls)) return "calls";
  // An assistant message with calls and no text: the client may hold "" or nothing.
  if (want.text !== null && (want.text || got.text) && want.text !== (got.text ?? "")) return "text";
  return null;
}

const short = (m) => `${m.role}:${m.id ?? "?"}${m.toolCallId ? `->${m.toolCallId}` : ""}`;

/** The reasoning messages of `list` that do not sit right before their assistant message. */
function misplacedReasoning(list) {
  const bad = [];
  list.forEach((m, i) => {
    if (m.role !== "reasoning") return;
    const owner = String(m.id).split(":reasoning:")[0];
    let j = i + 1;
    while (j < list.length && list[j].role === "reasoning") j++;
    if (list[j]?.role !== "assistant" || list[j].id !== owner) bad.push(m.id);
  });
  return bad;
}

async function replay(c) {
  const args = ["convert", "--to", "sse", ...(opts.target ? ["--target", opts.target] : []), ...c.files];
  const r = spawnSync(opts.bin, args, { encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0) return { problems: [`aguify exited ${r.status}: ${r.stderr.trim().split("\n").at(-1)}`] };
  const runs = runsOf(r.stdout);
  let body = "";
  const agent = new HttpAgent({
    url: "http://aguify.invalid/agent",
    fetch: async () => new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } }),
  });
  const problems = [];
  let lastState = null;
  let lastEnd = null;
  for (const run of runs) {
    body = run.map((f) => f.frame).join("");
    const started = run[0].event;
    const resume =
      started.input?.resume ??
      (agent.pendingInterrupts.length
        ? agent.pendingInterrupts.map((i) => ({ interruptId: i.id, status: "resolved" }))
        : undefined);
    try {
      await agent.runAgent({ runId: started.runId, ...(resume ? { resume } : {}) });
    } catch (e) {
      problems.push(`run ${started.runId}: the client failed: ${e.message}`);
    }
    for (const { event } of run) {
      if (event.type === "STATE_SNAPSHOT" && Array.isArray(event.snapshot?.messages)) lastState = event.snapshot.messages;
      if (event.type === "RUN_ERROR") lastEnd = "error";
      if (event.type === "RUN_FINISHED") lastEnd = event.outcome?.type === "cancelled" ? "cancelled" : "finished";
    }
  }
  const all = agent.messages;
  const reasoning = misplacedReasoning(all);
  if (reasoning.length) problems.push(`reasoning not before its message: ${reasoning.join(", ")}`);
  const got = all.filter((m) => m.role !== "reasoning" && m.role !== "activity").map(clientView);
  const ids = new Set();
  for (const m of got) {
    if (ids.has(m.id)) problems.push(`held twice: ${short(m)}`);
    ids.add(m.id);
  }
  const want = lastState ? conversationOf(lastState) : [];
  // A run that failed or was cancelled ends with no final state.
  const failed = lastEnd !== "finished";
  const n = !lastState ? 0 : failed ? Math.min(want.length, got.length) : Math.max(want.length, got.length);
  if (failed && got.length < want.length) problems.push(`holds ${got.length} messages, the last state ${want.length}`);
  for (let i = 0; i < n; i++) {
    const w = want[i];
    const g = got[i];
    if (!w || !g) {
      problems.push(`message ${i}: want ${w ? short(w) : "nothing"}, got ${g ? short(g) : "nothing"}`);
      break;
    }
    const diff = same(w, g);
    if (diff) {
      problems.push(`message ${i}: ${diff} differs: want ${short(w)}${diff === "text" ? ` ${JSON.stringify(w.text)}` : ""}, got ${short(g)}${diff === "text" ? ` ${JSON.stringify(g.text)}` : ""}`);
      break;
    }
  }
  return { problems, got, want, kind: !lastState ? "no state in the log" : failed ? `${lastEnd} run` : "final state" };
}

const KNOWN = new Map([]);

let passed = 0;
let failed = 0;
let known = 0;
for (const c of groupRecordings(walk(opts.dir))) {
  const name = relative(REPO, c.name);
  const { problems, got, want, kind } = await replay(c);
  const why = KNOWN.get(name);
  if (why !== undefined) {
    if (problems.length === 0) {
      failed++;
      console.log(`FAIL  ${name}: listed in KNOWN but ends right now: take it out of the list`);
    } else {
      known++;
      console.log(`KNOWN ${name}: ${problems.join("; ")} (${why})`);
    }
    continue;
  }
  if (problems.length === 0) {
    passed++;
    if (opts.verbose) console.log(`ok    ${name} (${kind})`);
  } else {
    failed++;
    console.log(`FAIL  ${name} (${kind}): ${problems.join("; ")}`);
    if (opts.verbose && got) {
      console.log(`        want ${want.map(short).join(" ")}`);
      console.log(`        got  ${got.map(short).join(" ")}`);
    }
  }
}
if (known) console.log(`${known} known failure${known === 1 ? "" : "s"} (KNOWN in ${relative(REPO, fileURLToPath(import.meta.url))})`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
