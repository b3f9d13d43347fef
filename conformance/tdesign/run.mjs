#!/usr/bin/env node
// TDesign Chat conformance: aguify's output driven through TDesign Chat's own ChatEngine.
//
//   node conformance/tdesign/run.mjs --bin PATH_TO_AGUIFY            # the CI test
//   node conformance/tdesign/run.mjs --bin PATH_TO_AGUIFY --count DIR...
//
// The CI test, for both TDesign packages (the engines of @tdesign-vue-next/chat 0.5.2 and
// @tdesign-react/chat 1.0.2, pinned in package.json):
//   1. every recording of a representative set (plain chat, reasoning, one and parallel tool
//      calls, text and tool, tool output deltas, a failed run, interrupt -> resume) of every
//      recorded form, in the three front-end policy variants, converted with `aguify convert
//      --to sse` and fed to the engine in odd-sized chunks: the message model TDesign ends with
//      must hold the answer text, the thinking text, every tool call with its result, the
//      interrupt's text, no spinner left or turning while the answer streams (judge.mjs);
//   2. interrupt -> resume against `aguify serve` (real HTTP), the app building `resume[]` from
//      onComplete's outcome in onRequest (docs/replay.md's recipe): the resume run is accepted;
//   3. what TDesign itself gets wrong (docs/replay.md), shown on aguify's plain output.
// Prints one line per check, then `N passed, N failed`; exits 1 on any failure, 2 on usage.
//
// --count DIR...: a measurement, not a test. For every recording under DIR (each file on its
// own, as scripts/golden.sh converts it) with tool results, whether TDesign keeps every one
// under `--tool-steps reasoning --compat thinking`; prints the counts per package.

import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PACKAGES, loadEngine, conversation, realFetch, sseResponse, view } from "./engine.mjs";
import { convert, ndjsonRuns, plainFacts, sseRuns } from "./facts.mjs";
import { judge, lostToRunError } from "./judge.mjs";
import { startServer, stopServer } from "../serve-process.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "../..");
const USAGE = "usage: node conformance/tdesign/run.mjs --bin PATH_TO_AGUIFY [--all] [--only SUBSTR]... [--count DIR...]";

export const VARIANTS = [
  { name: "--compat thinking", args: ["--compat", "thinking"], final: false, toolSteps: false },
  { name: "--tool-steps reasoning --compat thinking", args: ["--tool-steps", "reasoning", "--compat", "thinking"], final: false, toolSteps: true },
  {
    name: "--text final --tool-steps reasoning --compat thinking",
    args: ["--text", "final", "--tool-steps", "reasoning", "--compat", "thinking"],
    final: true,
    toolSteps: true,
  },
];

/** The representative set: scenario names, matched in the recordings' file names. */
const SCENARIOS = [
  "a_plain_chat",
  "c_reasoning_openai",
  "c_reasoning_anthropic",
  "b_react_one_tool",
  "b_react_parallel",
  "b_react_text_and_tool",
  "i_tool_output_delta",
  "e_error_tool_raises",
  "d_hitl",
];

function parseArgs(argv) {
  const opts = { bin: null, count: null, only: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--bin" && i + 1 < argv.length) opts.bin = argv[++i];
    else if (a === "--count") opts.count = [];
    else if (a === "--only" && i + 1 < argv.length) ONLY.push(argv[++i]);
    else if (a === "--all") ALL = true;
    else if (opts.count && !a.startsWith("-")) opts.count.push(a);
    else if (a === "-h" || a === "--help") {
      console.log(USAGE);
      process.exit(0);
    } else usage(`unknown argument ${a}`);
  }
  if (!opts.bin) usage("--bin is required");
  if (opts.bin.includes("/")) opts.bin = resolve(opts.bin);
  if (opts.count && opts.count.length === 0) usage("--count needs a directory");
  return opts;
}

function usage(msg) {
  console.error(`tdesign: ${msg}\n${USAGE}`);
  process.exit(2);
}

/** `--only SUBSTR` (repeatable): only the set's conversations whose name has one of them. */
const ONLY = [];
/** `--all`: every recording, not only the representative set's scenarios. */
let ALL = false;

/** Conversations of the set: [{name, files}], files of one conversation in order. */
function representativeSet() {
  const root = join(REPO, "testdata/recordings");
  const cases = [];
  for (const family of readdirSync(root).sort()) {
    const dir = join(root, family);
    if (!statSync(dir).isDirectory()) continue;
    const groups = new Map();
    for (const f of readdirSync(dir).sort()) {
      const key = f.replace(/__\d+_[a-z]+(?=\.)/, "");
      if (!ALL && !SCENARIOS.some((s) => key.includes(s))) continue;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(join(dir, f));
    }
    for (const [key, files] of groups) {
      const name = `${family}/${key}`;
      if (ONLY.length === 0 || ONLY.some((o) => name.includes(o))) cases.push({ name, files });
    }
  }
  return cases;
}

/** The app's ChatServiceConfig hooks: docs/replay.md's TDesign recipe. */
function app(threadId) {
  let pending = [];
  let runs = 0;
  return {
    onComplete: (_aborted, _params, event) => {
      pending = event?.outcome?.type === "interrupt" ? event.outcome.interrupts : [];
    },
    onRequest: (params) => {
      const body = { threadId, runId: `run-${++runs}`, messages: [{ id: `u${runs}`, role: "user", content: params.prompt }] };
      if (pending.length) body.resume = pending.map((i) => ({ interruptId: i.id, status: "resolved", payload: { approved: true } }));
      return { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
    },
  };
}

/** Drives one conversation's runs (SSE texts) through a fresh engine; resolves to the turns. */
async function feed(ChatEngine, runs) {
  const c = await conversation(ChatEngine, {
    respond: (_u, _i, turn) => sseResponse(new TextEncoder().encode(runs[turn]?.text ?? "")),
    ...app("tdesign-thread"),
  });
  const turns = [];
  for (let i = 0; i < runs.length; i++) turns.push(await quiet(() => c.send(`turn ${i + 1}`)));
  c.destroy();
  return turns;
}

/** TDesign logs every connection with console.log/info; keep the test's output readable. */
async function quiet(fn) {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.info = console.debug = () => {};
  try {
    return await fn();
  } finally {
    Object.assign(console, saved);
  }
}

class Tally {
  passed = 0;
  failed = 0;
  check(name, problems) {
    if (problems.length === 0) {
      this.passed++;
      console.log(`ok   ${name}`);
    } else {
      this.failed++;
      console.log(`FAIL ${name}`);
      for (const p of problems.slice(0, 8)) console.log(`       ${p}`);
      if (problems.length > 8) console.log(`       … ${problems.length - 8} more`);
    }
  }
}

/** Judges every turn of a conversation; the resume request must carry the pending ids. */
function judgeConversation(turns, plainRuns, sentRuns, variant) {
  const problems = [];
  const answered = new Set();
  // A call's name and args, from the run that started it (a resume run may only answer it).
  const started = new Map();
  for (let i = 0; i < turns.length; i++) {
    const plain = plainFacts(plainRuns[i] ?? []);
    for (const [id, t] of plain.tools) {
      if (t.name === undefined && started.has(id)) Object.assign(t, started.get(id));
      else if (t.name !== undefined) started.set(id, { name: t.name, args: t.args });
    }
    for (const p of judge(turns[i], plain, sentRuns[i]?.events ?? [], variant, answered)) problems.push(`run ${i + 1}: ${p}`);
    if (variant.final && plain.finalId) answered.add(plain.finalId);
    if (i > 0) {
      const before = plainFacts(plainRuns[i - 1] ?? []);
      const ids = before.interrupts.map((x) => x.id).sort();
      const sent = (turns[i].request?.body?.resume ?? []).map((r) => r.interruptId).sort();
      if (ids.length && JSON.stringify(ids) !== JSON.stringify(sent))
        problems.push(`run ${i + 1}: the app's request resumed ${JSON.stringify(sent)}, want ${JSON.stringify(ids)} (from onComplete's outcome)`);
    }
  }
  return problems;
}

async function conformance(bin, tally) {
  const cases = representativeSet();
  if (cases.length === 0 && ONLY.length === 0) throw new Error("no recordings found for the representative set");
  for (const pkg of PACKAGES) {
    const ChatEngine = await loadEngine(pkg);
    for (const c of cases) {
      const plainRuns = ndjsonRuns(convert(bin, ["--to", "ndjson"], c.files));
      for (const variant of VARIANTS) {
        const sentRuns = sseRuns(convert(bin, ["--to", "sse", ...variant.args], c.files));
        const turns = await feed(ChatEngine, sentRuns);
        tally.check(`${pkg.name} · ${variant.name} · ${c.name}`, judgeConversation(turns, plainRuns, sentRuns, variant));
      }
    }
  }
}

/** Interrupt -> resume against `aguify serve`, the app's onRequest building resume[]. */
async function serveRoundTrips(bin, tally) {
  // Every interrupt pair of the set, and docs/replay.md's example (the screenshot's).
  const cases = representativeSet().filter((c) => c.files.length > 1);
  if (ONLY.length === 0 || ONLY.some((o) => "serve/hitl".includes(o)))
    cases.push({ name: "serve/hitl", files: ["hitl__1_interrupt.ndjson", "hitl__2_resume.ndjson"].map((f) => join(REPO, "testdata/serve/hitl", f)) });
  for (const pkg of PACKAGES) {
    const ChatEngine = await loadEngine(pkg);
    for (const variant of VARIANTS) {
      for (const c of cases) {
        const plainRuns = ndjsonRuns(convert(bin, ["--to", "ndjson"], c.files));
        const sentRuns = sseRuns(convert(bin, ["--to", "sse", ...variant.args], c.files));
        const server = await startServer(bin, ["--quiet", "--speed", "50", "--max-gap", "5", "--interval", "0", ...variant.args, ...c.files]);
        const problems = [];
        try {
          const conv = await conversation(ChatEngine, {
            endpoint: `${server.url}/`,
            respond: (u, init) => realFetch(u, init),
            ...app(`serve-${pkg.module}-${c.name}`),
          });
          const turns = [];
          for (let i = 0; i < plainRuns.length; i++) turns.push(await quiet(() => conv.send(`turn ${i + 1}`)));
          conv.destroy();
          problems.push(...judgeConversation(turns, plainRuns, sentRuns, variant));
          for (const [i, t] of turns.entries()) {
            const refused = view(t.answer).blocks.find((b) => b.kind === "text" && b.status === "error");
            if (refused) problems.push(`run ${i + 1}: the server refused the request: ${refused.text}`);
          }
        } finally {
          await stopServer(server.child);
        }
        tally.check(`${pkg.name} · ${variant.name} · aguify serve interrupt -> resume · ${c.name}`, problems);
      }
    }
  }
}

/** What TDesign itself gets wrong, each shown on aguify's output of a real recording. */
async function tdesignQuirks(bin, tally) {
  const rec = (p) => join(REPO, "testdata/recordings", p);
  for (const pkg of PACKAGES) {
    const ChatEngine = await loadEngine(pkg);
    const run = async (args, files) => {
      const runs = sseRuns(convert(bin, ["--to", "sse", ...args], files));
      return { runs, turns: await feed(ChatEngine, runs) };
    };
    {
      // RUN_ERROR replaces the first content block.
      const { turns } = await run(["--compat", "thinking"], [rec("v3-python/e_error_tool_raises.ndjson")]);
      const t = turns[0];
      const lost = lostToRunError(t.trace);
      const v = view(t.answer);
      const problems = [];
      if (!lost) problems.push("no content block before RUN_ERROR");
      if (!(v.blocks[0]?.kind === "text" && v.blocks[0].status === "error")) problems.push(`first block is ${JSON.stringify(v.blocks[0])}`);
      if (lost && JSON.stringify(v.blocks).includes(JSON.stringify(lost.id ?? lost.text ?? "\u0000"))) problems.push("the first block survived RUN_ERROR");
      tally.check(`${pkg.name} · TDesign quirk: RUN_ERROR replaces the first content block (${lost?.kind} ${lost?.name ?? ""})`, problems);
    }
    {
      // Consecutive CUSTOM events collapse into one block (the last one's).
      const { runs, turns } = await run([], [rec("v3-python/i_tool_output_delta.ndjson")]);
      const sent = runs[0].events.filter((e) => e.type === "CUSTOM");
      const kept = view(turns[0].answer).blocks.filter((b) => b.kind === "custom");
      const problems = [];
      if (sent.length < 2) problems.push(`only ${sent.length} CUSTOM events sent`);
      if (kept.length !== 1) problems.push(`${kept.length} custom blocks kept`);
      else if (JSON.stringify(kept[0].value) !== JSON.stringify(sent.at(-1).value)) problems.push("the kept block is not the last event's");
      tally.check(`${pkg.name} · TDesign quirk: ${sent.length} consecutive CUSTOM events collapse into ${kept.length} block`, problems);
    }
    {
      // REASONING_* (the 1.0 names), STEP_*, MESSAGES_SNAPSHOT and the outcome are ignored.
      const { runs, turns } = await run([], [rec("v3-python/c_reasoning_openai.ndjson")]);
      const types = new Set(runs[0].events.map((e) => e.type));
      const v = view(turns[0].answer);
      const problems = [];
      for (const t of ["REASONING_START", "REASONING_MESSAGE_CONTENT", "MESSAGES_SNAPSHOT"]) if (!types.has(t)) problems.push(`aguify sent no ${t}`);
      if (v.blocks.some((b) => b.kind !== "markdown")) problems.push(`blocks other than the answer: ${JSON.stringify(v.blocks.map((b) => b.kind))}`);
      tally.check(`${pkg.name} · TDesign quirk: REASONING_* and MESSAGES_SNAPSHOT ignored (plain output shows ${v.blocks.map((b) => b.kind).join(", ")})`, problems);
    }
    {
      const { runs, turns } = await run([], [rec("v2-python-api/b_react_one_tool.ndjson")]);
      const steps = runs[0].events.filter((e) => e.type.startsWith("STEP_")).length;
      const v = view(turns[0].answer);
      const problems = [];
      if (steps === 0) problems.push("aguify sent no STEP_* event");
      if (v.blocks.some((b) => !["markdown", "toolcall"].includes(b.kind))) problems.push(`blocks: ${JSON.stringify(v.blocks.map((b) => b.kind))}`);
      tally.check(`${pkg.name} · TDesign quirk: ${steps} STEP_* events ignored`, problems);
    }
    {
      // The interrupt outcome is ignored: the run reads as complete, nothing shown (plain output).
      const { runs, turns } = await run([], [rec("v3-python/d_hitl__1_interrupt.ndjson")]);
      const fin = runs[0].events.find((e) => e.type === "RUN_FINISHED");
      const v = view(turns[0].answer);
      const problems = [];
      if (fin?.outcome?.type !== "interrupt") problems.push("the run has no interrupt outcome");
      const msg = fin?.outcome?.interrupts?.[0]?.message ?? "\u0000";
      if (v.status !== "complete") problems.push(`status ${v.status}`);
      if (JSON.stringify(v.blocks).includes(msg)) problems.push("the interrupt's message is shown");
      tally.check(`${pkg.name} · TDesign quirk: RUN_FINISHED.outcome ignored (interrupt run reads as ${v.status}, its message not shown)`, problems);
    }
  }
}

/**
 * Why aguify closes the narration before tool events instead of nesting them in it: inside an
 * open thinking block TDesign updates whichever item is current, so of two calls nested in one
 * block (a synthetic stream, as a nesting mapper would send it) the first loses its result.
 */
async function nestingLosesResults(tally) {
  const events = [
    { type: "RUN_STARTED", threadId: "t", runId: "r" },
    { type: "THINKING_START" },
    { type: "THINKING_TEXT_MESSAGE_START" },
    { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "Calling tool get_weather.\n" },
    { type: "TOOL_CALL_START", toolCallId: "a", toolCallName: "get_weather" },
    { type: "TOOL_CALL_ARGS", toolCallId: "a", delta: '{"city":"Paris"}' },
    { type: "TOOL_CALL_START", toolCallId: "b", toolCallName: "get_weather" },
    { type: "TOOL_CALL_ARGS", toolCallId: "b", delta: '{"city":"London"}' },
    { type: "TOOL_CALL_END", toolCallId: "a" },
    { type: "TOOL_CALL_END", toolCallId: "b" },
    { type: "TOOL_CALL_RESULT", messageId: "m1", toolCallId: "a", content: "Sunny" },
    { type: "TOOL_CALL_RESULT", messageId: "m2", toolCallId: "b", content: "Rainy" },
    { type: "THINKING_TEXT_MESSAGE_END" },
    { type: "THINKING_END" },
    { type: "RUN_FINISHED", threadId: "t", runId: "r" },
  ];
  const text = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("");
  for (const pkg of PACKAGES) {
    const [turn] = await feed(await loadEngine(pkg), [{ text }]);
    const calls = view(turn.answer).blocks.flatMap((b) => (b.kind === "reasoning" ? b.items.filter((i) => i.kind === "toolcall") : []));
    const a = calls.find((c) => c.id === "a");
    const problems = a && a.result === undefined ? [] : [`call a: ${JSON.stringify(a)} (TDesign changed: nesting may work now)`];
    tally.check(`${pkg.name} · TDesign quirk: tool calls nested in a thinking block lose results (call a: ${a?.result ?? "no result"})`, problems);
  }
}

/** --count: recordings whose tool results TDesign keeps under --tool-steps reasoning --compat thinking. */
async function count(bin, dirs) {
  const files = [];
  const walk = (d) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ndjson|jsonl|sse)$/.test(f)) files.push(p);
    }
  };
  for (const d of dirs) walk(resolve(d));
  const args = ["--tool-steps", "reasoning", "--compat", "thinking"];
  for (const pkg of PACKAGES) {
    const ChatEngine = await loadEngine(pkg);
    let withResults = 0;
    let kept = 0;
    const losing = [];
    for (const f of files) {
      let plainRuns, sentRuns;
      try {
        plainRuns = ndjsonRuns(convert(bin, ["--to", "ndjson"], [f]));
        sentRuns = sseRuns(convert(bin, ["--to", "sse", ...args], [f]));
      } catch {
        continue;
      }
      const facts = plainRuns.map(plainFacts);
      if (!facts.some((p) => [...p.tools.values()].some((t) => t.result !== undefined))) continue;
      withResults++;
      const turns = await feed(ChatEngine, sentRuns);
      let ok = true;
      for (const [i, p] of facts.entries()) {
        const v = view(turns[i]?.answer);
        const calls = v.blocks.flatMap((b) => (b.kind === "toolcall" ? [b] : b.kind === "reasoning" ? b.items.filter((x) => x.kind === "toolcall") : []));
        const lost = p.error !== null ? lostToRunError(turns[i].trace) : null;
        for (const [id, t] of p.tools) {
          if (t.result === undefined || (lost && lost.id === id)) continue;
          if (!calls.some((c) => c.id === id && c.result === t.result)) ok = false;
        }
      }
      if (ok) kept++;
      else losing.push(basename(dirname(f)) + "/" + basename(f));
    }
    console.log(`${pkg.name}: ${kept} of ${withResults} recordings with tool results keep them all (${losing.length} lose some)`);
    if (process.env.VERBOSE) for (const f of losing) console.log(`   loses: ${f}`);
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!existsSync(opts.bin) && opts.bin.includes("/")) usage(`no such binary: ${opts.bin}`);
  if (opts.count) return count(opts.bin, opts.count);
  const tally = new Tally();
  await conformance(opts.bin, tally);
  await serveRoundTrips(opts.bin, tally);
  await tdesignQuirks(opts.bin, tally);
  await nestingLosesResults(tally);
  console.log(`${tally.passed} passed, ${tally.failed} failed`);
  process.exitCode = tally.failed > 0 ? 1 : 0;
}

main().catch((e) => {
  console.error(e?.stack ?? e);
  process.exit(1);
});
