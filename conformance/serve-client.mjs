#!/usr/bin/env node
// serve-client: the real-client test of `aguify serve`.
//
//   node conformance/serve-client.mjs --bin PATH_TO_AGUIFY [--plain FILE] [--hitl FILE,FILE]
//
// Starts `aguify serve` on a loopback port (the plain recording as the default conversation,
// the interrupt+resume recording as conversation `hitl`) and drives it with the official
// `HttpAgent.runAgent()` of the pinned @ag-ui/client 1.0.0:
//   - a plain run, and an interrupt -> resume round trip: the events on the wire must equal
//     `aguify convert --to ndjson` of the same recording (thread and run ids replaced by the
//     request's), the events the client pipeline delivered must match them, runAgent() must
//     resolve, and the client must print no warning;
//   - a missing resume, an unknown interrupt id and a request past the last run: a RUN_ERROR
//     with the documented code, never a hang;
//   - SIGINT (Ctrl-C) stops the server cleanly (exit 0).
// Prints one line per check, then `N passed, N failed`; exits 1 on any failure, 2 on usage.

import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { HttpAgent } from "@ag-ui/client";
import { startServer, stopServer } from "./serve-process.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "..");
const USAGE = "usage: node conformance/serve-client.mjs --bin PATH_TO_AGUIFY [--plain FILE] [--hitl FILE,FILE]";
const STEP_TIMEOUT_MS = 20_000;

function parseArgs(argv) {
  const opts = {
    bin: null,
    plain: [resolve(REPO, "testdata/serve/plain/plain.ndjson")],
    hitl: [
      resolve(REPO, "testdata/serve/hitl/hitl__1_interrupt.ndjson"),
      resolve(REPO, "testdata/serve/hitl/hitl__2_resume.ndjson"),
    ],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--bin") opts.bin = next();
    else if (a === "--plain") opts.plain = next().split(",").map((f) => resolve(f));
    else if (a === "--hitl") opts.hitl = next().split(",").map((f) => resolve(f));
    else if (a === "-h" || a === "--help") {
      console.log(USAGE);
      process.exit(0);
    } else usage(`unknown argument ${a}`);
  }
  if (!opts.bin) usage("--bin is required");
  if (opts.bin.includes("/")) opts.bin = resolve(opts.bin);
  for (const f of [...opts.plain, ...opts.hitl]) if (!existsSync(f)) usage(`no such file: ${f}`);
  return opts;
}

function usage(msg) {
  console.error(`serve-client: ${msg}\n${USAGE}`);
  process.exit(2);
}

/** `aguify convert --to ndjson FILES`, split into runs at RUN_STARTED. */
function convertRuns(bin, files) {
  const r = spawnSync(bin, ["convert", "--to", "ndjson", ...files], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`aguify convert exited ${r.status}: ${r.stderr}`);
  const runs = [];
  for (const line of r.stdout.split("\n")) {
    if (!line.trim()) continue;
    const ev = JSON.parse(line);
    if (ev.type === "RUN_STARTED" || runs.length === 0) runs.push([]);
    runs[runs.length - 1].push(ev);
  }
  return runs;
}

/** The recorded events as served to a request: its threadId/runId on RUN_STARTED(.input)/RUN_FINISHED. */
function personalize(events, threadId, runId) {
  return events.map((e) => {
    const ev = structuredClone(e);
    if (ev.type === "RUN_STARTED" || ev.type === "RUN_FINISHED") {
      ev.threadId = threadId;
      ev.runId = runId;
      if (ev.input && typeof ev.input === "object") {
        ev.input.threadId = threadId;
        ev.input.runId = runId;
      }
    }
    return ev;
  });
}

/** Runs fn with console.warn/error captured; resolves to [result, error, warnings]. */
async function capturingConsole(fn) {
  const warnings = [];
  const saved = { warn: console.warn, error: console.error };
  console.warn = (...a) => warnings.push(a.map(String).join(" "));
  console.error = (...a) => warnings.push(a.map(String).join(" "));
  try {
    return [await fn(), null, warnings];
  } catch (err) {
    return [undefined, err, warnings];
  } finally {
    console.warn = saved.warn;
    console.error = saved.error;
  }
}

function withTimeout(promise, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${STEP_TIMEOUT_MS} ms (hang)`)), STEP_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** SSE frames -> events, as the client splits them (on \n\n, data: lines). */
function sseEvents(text) {
  return text
    .split("\n\n")
    .map((frame) =>
      frame
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).replace(/^ /, ""))
        .join("\n"),
    )
    .filter((d) => d !== "")
    .map((d) => JSON.parse(d));
}

/**
 * An HttpAgent whose fetch tees the real response: the client reads one branch as usual, the
 * test keeps the wire bytes of the other.
 */
function recordingAgent(url, threadId) {
  const wire = [];
  const agent = new HttpAgent({
    url,
    threadId,
    fetch: async (u, init) => {
      const res = await fetch(u, init);
      if (!res.body) return res;
      const [forClient, forTest] = res.body.tee();
      wire.push({ status: res.status, contentType: res.headers.get("content-type"), text: new Response(forTest).text() });
      return new Response(forClient, { status: res.status, statusText: res.statusText, headers: res.headers });
    },
  });
  return { agent, wire };
}

/** One runAgent() call: what the wire carried and what the client pipeline delivered. */
async function run(agent, wire, params) {
  const delivered = [];
  const subscriber = { onEvent: ({ event }) => void delivered.push(structuredClone(event)) };
  const before = wire.length;
  const [result, error, warnings] = await capturingConsole(() =>
    withTimeout(agent.runAgent(params, subscriber), `runAgent(${JSON.stringify(params)})`),
  );
  const w = wire[before];
  const text = w ? await withTimeout(w.text, "reading the wire copy") : "";
  return {
    result,
    error,
    warnings,
    delivered,
    status: w?.status,
    contentType: w?.contentType,
    text,
    onWire: text ? sseEvents(text) : [],
  };
}

/** Every key of `expected` is in `got` with an equal value (the client may add defaults). */
function contains(got, expected) {
  if (expected === null || typeof expected !== "object") return isDeepStrictEqual(got, expected);
  if (Array.isArray(expected)) {
    return Array.isArray(got) && got.length === expected.length && expected.every((e, i) => contains(got[i], e));
  }
  if (got === null || typeof got !== "object") return false;
  return Object.keys(expected).every((k) => contains(got[k], expected[k]));
}

function firstDifference(got, expected) {
  const n = Math.max(got.length, expected.length);
  for (let i = 0; i < n; i++) {
    if (JSON.stringify(got[i]) !== JSON.stringify(expected[i])) {
      return `event ${i}: got ${JSON.stringify(got[i])}\n      expected ${JSON.stringify(expected[i])}`;
    }
  }
  return null;
}

// ---------------------------------------------------------------- checks

const results = [];
function check(name, fn) {
  results.push({ name, fn });
}

/** A served recorded run: wire == convert output with the request's ids, delivered matches, no error. */
function assertServedRun(r, expected) {
  const problems = [];
  if (r.error) problems.push(`runAgent() rejected: ${r.error?.message ?? r.error}`);
  if (r.status !== 200) problems.push(`HTTP status ${r.status}`);
  if (r.contentType !== "text/event-stream") problems.push(`content-type ${r.contentType}`);
  // Byte-level: each frame's JSON text equals convert's line (key order included).
  const diff = firstDifference(r.onWire, expected);
  if (diff) problems.push(`wire events differ from aguify convert: ${diff}`);
  if (r.delivered.length !== expected.length) {
    problems.push(`the client delivered ${r.delivered.length} events, expected ${expected.length}`);
  } else {
    const bad = expected.findIndex((e, i) => !contains(r.delivered[i], e));
    if (bad >= 0) problems.push(`delivered event ${bad} differs: ${JSON.stringify(r.delivered[bad])}`);
  }
  if (r.warnings.length) problems.push(`client warnings: ${r.warnings.map((w) => w.split("\n")[0]).join(" | ")}`);
  if (problems.length) throw new Error(problems.join("\n    "));
}

/** A refused request: RUN_STARTED then RUN_ERROR with `code`, promptly. */
function assertRefused(r, code, threadId, runId) {
  const problems = [];
  if (r.status !== 200) problems.push(`HTTP status ${r.status}`);
  const types = r.onWire.map((e) => e.type).join(",");
  if (types !== "RUN_STARTED,RUN_ERROR") problems.push(`wire events ${types}, expected RUN_STARTED,RUN_ERROR`);
  const err = r.onWire[1];
  if (err?.code !== code) problems.push(`RUN_ERROR code ${err?.code}, expected ${code}`);
  if (!(typeof err?.message === "string" && err.message.length > 20)) problems.push("RUN_ERROR without a clear message");
  if (r.onWire[0]?.threadId !== threadId || r.onWire[0]?.runId !== runId) problems.push("RUN_STARTED ids are not the request's");
  const delivered = r.delivered.map((e) => e.type).join(",");
  if (delivered !== "RUN_STARTED,RUN_ERROR") problems.push(`the client delivered ${delivered}`);
  if (problems.length) throw new Error(problems.join("\n    "));
  return err;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const plainRuns = convertRuns(opts.bin, opts.plain);
  const hitlRuns = convertRuns(opts.bin, opts.hitl);
  if (hitlRuns.length < 2) usage("--hitl must convert to at least two runs (an interrupt run and its resume run)");
  const interruptOutcome = hitlRuns[0].at(-1)?.outcome;
  if (interruptOutcome?.type !== "interrupt") usage("the first --hitl run must end with an interrupt outcome");
  const interruptIds = interruptOutcome.interrupts.map((i) => i.id);

  const hitlDir = dirname(opts.hitl[0]);
  const folderRecordings = readdirSync(hitlDir)
    .filter((n) => /\.(ndjson|jsonl|sse)$/.test(n) && !n.startsWith("."))
    .sort()
    .map((n) => resolve(hitlDir, n));
  const sameDir = isDeepStrictEqual(folderRecordings, opts.hitl);
  // The hitl files as a named conversation: `--conversation hitl=DIR` when they are exactly
  // their folder's recordings (in name order), otherwise on a second server.
  const server = await startServer(opts.bin, [
    "--speed", "4", "--max-gap", "250", "--quiet",
    ...opts.plain,
    ...(sameDir ? ["--conversation", `hitl=${hitlDir}`] : []),
  ]);
  const hitlServer = sameDir
    ? server
    : await startServer(opts.bin, ["--speed", "4", "--max-gap", "250", "--quiet", ...opts.hitl]);
  const hitlUrl = sameDir ? `${server.url}/hitl` : `${hitlServer.url}/`;

  check("plain run: wire == aguify convert, client pipeline clean", async () => {
    const { agent, wire } = recordingAgent(`${server.url}/`, "thread-node-plain");
    const r = await run(agent, wire, { runId: "run-node-plain-1" });
    assertServedRun(r, personalize(plainRuns[0], "thread-node-plain", "run-node-plain-1"));
  });

  check("GET / lists the conversations", async () => {
    const res = await withTimeout(fetch(`${server.url}/`), "GET /");
    const body = await res.json();
    const names = body.conversations?.map((c) => c.name) ?? [];
    if (res.status !== 200 || names[0] !== "default" || (sameDir && !names.includes("hitl"))) {
      throw new Error(`GET / gave ${res.status} ${JSON.stringify(body)}`);
    }
  });

  check("interrupt -> resume round trip with HttpAgent", async () => {
    const thread = "thread-node-hitl";
    const { agent, wire } = recordingAgent(hitlUrl, thread);
    const r1 = await run(agent, wire, { runId: "run-node-hitl-1" });
    assertServedRun(r1, personalize(hitlRuns[0], thread, "run-node-hitl-1"));
    const pending = agent.pendingInterrupts.map((i) => i.id);
    if (!isDeepStrictEqual(pending, interruptIds)) {
      throw new Error(`agent.pendingInterrupts ${JSON.stringify(pending)}, expected the recorded ${JSON.stringify(interruptIds)}`);
    }
    const resume = pending.map((id) => ({ interruptId: id, status: "resolved", payload: { approved: true } }));
    const r2 = await run(agent, wire, { runId: "run-node-hitl-2", resume });
    assertServedRun(r2, personalize(hitlRuns[1], thread, "run-node-hitl-2"));
    if (agent.pendingInterrupts.length !== 0) throw new Error("interrupts still pending after the resume run");
    // Past the last recorded run of this two-run conversation.
    if (hitlRuns.length === 2) {
      const r3 = await run(agent, wire, { runId: "run-node-hitl-3" });
      assertRefused(r3, "CONVERSATION_ENDED", thread, "run-node-hitl-3");
    }
  });

  check("missing resume -> RUN_ERROR RESUME_MISMATCH, not a hang", async () => {
    const thread = "thread-node-missing";
    const first = recordingAgent(hitlUrl, thread);
    assertServedRun(await run(first.agent, first.wire, { runId: "m1" }), personalize(hitlRuns[0], thread, "m1"));
    // A second client on the same thread that does not know about the interrupt.
    const second = recordingAgent(hitlUrl, thread);
    const r = await run(second.agent, second.wire, { runId: "m2" });
    const err = assertRefused(r, "RESUME_MISMATCH", thread, "m2");
    if (!interruptIds.every((id) => err.message.includes(id))) throw new Error(`message does not name the pending id: ${err.message}`);
    // The thread is still paused: the right resume still gets the continuation.
    const resume = interruptIds.map((id) => ({ interruptId: id, status: "resolved" }));
    const r2 = await run(second.agent, second.wire, { runId: "m3", resume });
    assertServedRun(r2, personalize(hitlRuns[1], thread, "m3"));
  });

  check("unknown interrupt id -> RUN_ERROR RESUME_MISMATCH", async () => {
    const thread = "thread-node-unknown";
    const { agent, wire } = recordingAgent(hitlUrl, thread);
    assertServedRun(await run(agent, wire, { runId: "u1" }), personalize(hitlRuns[0], thread, "u1"));
    const resume = [...interruptIds, "not-a-recorded-id"].map((id) => ({ interruptId: id, status: "resolved" }));
    const r = await run(agent, wire, { runId: "u2", resume });
    const err = assertRefused(r, "RESUME_MISMATCH", thread, "u2");
    if (!err.message.includes("not-a-recorded-id")) throw new Error(`message does not name the unknown id: ${err.message}`);
  });

  let passed = 0;
  let failed = 0;
  try {
    for (const { name, fn } of results) {
      try {
        await fn();
        passed++;
        console.log(`ok    ${name}`);
      } catch (err) {
        failed++;
        console.log(`FAIL  ${name}\n    ${err?.message ?? err}`);
      }
    }
  } finally {
    for (const [i, s] of [...new Set([server, hitlServer])].entries()) {
      const name = `SIGINT stops aguify serve cleanly${i ? " (second server)" : ""}`;
      try {
        const code = await withTimeout(
          stopServer(s.child),
          "aguify serve after SIGINT",
        );
        if (code !== 0) throw new Error(`exit ${code}\n${s.log()}`);
        passed++;
        console.log(`ok    ${name}`);
      } catch (err) {
        failed++;
        s.child.kill("SIGKILL");
        console.log(`FAIL  ${name}\n    ${err?.message ?? err}`);
      }
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((err) => {
  console.error(`serve-client: ${err?.stack ?? err}`);
  process.exit(2);
});
