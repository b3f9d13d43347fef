#!/usr/bin/env node
// agui-conform: judge an AG-UI event stream the way the official client does.
//
// Every verdict comes from the real @ag-ui/client 1.0.0 and @ag-ui/core 1.0.0
// code: SSE bytes go through the client's own HTTP parsing path, events are
// checked against the core zod EventSchema, then replayed through the exported
// pipeline stages in the order AbstractAgent.runAgent() wires them. Nothing
// here re-implements a rule; the harness only feeds, captures and reports.
//
// Usage: node agui-conform.mjs [--json] [--agent] [--quiet] FILE... ('-' = stdin)

import { readFileSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  CompatibilityBoundary,
  HttpAgent,
  enforceEvents,
  runHttpRequest,
  transformChunks,
  transformHttpEventStream,
  verifyEvents,
} from "@ag-ui/client";
import { EventSchema } from "@ag-ui/core/schemas";

// The client's own Observable class, taken from an object it returns, so the
// harness never builds streams with a second copy of rxjs.
const Observable = runHttpRequest(() => Promise.reject(new Error("unused"))).constructor;

/** Values of `verifyStage`: the transport, then the stages of runAgent() in order. */
export const STAGES = ["parse", "compat", "enforce", "transformChunks", "verify"];

// ---------------------------------------------------------------- detection

/** SSE if any line starts with `data:`, NDJSON otherwise (same rule as the brief). */
export function detectFormat(text) {
  return /(^|[\r\n])data:/.test(text) ? "sse" : "ndjson";
}

// ---------------------------------------------------------------- console capture

/** Runs `fn` with console.warn/console.error captured; returns [result, messages]. */
async function captureConsole(fn) {
  const captured = [];
  const saved = { warn: console.warn, error: console.error };
  const grab = (level) => (...args) =>
    captured.push(`${level}: ${args.map((a) => (a instanceof Error ? a.message : typeof a === "string" ? a : safeJson(a))).join(" ")}`);
  console.warn = grab("warn");
  console.error = grab("error");
  try {
    return [await fn(), captured];
  } finally {
    console.warn = saved.warn;
    console.error = saved.error;
  }
}

function safeJson(v) {
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

// ---------------------------------------------------------------- parsing

/**
 * SSE through the client's real path: an in-memory Response with
 * content-type text/event-stream, runHttpRequest -> transformHttpEventStream,
 * exactly as HttpAgent.run() wires it.
 * Resolves to { events, parseError } (parseError is the Error the stream raised, or null).
 */
export function parseSseWithClient(bytes) {
  return new Promise((resolve) => {
    const events = [];
    const response = () =>
      Promise.resolve(new Response(bytes, { status: 200, headers: { "content-type": "text/event-stream" } }));
    transformHttpEventStream(runHttpRequest(response)).subscribe({
      next: (e) => events.push(e),
      error: (err) => resolve({ events, parseError: toError(err) }),
      complete: () => resolve({ events, parseError: null }),
    });
  });
}

/**
 * NDJSON: the client has no NDJSON transport, so this applies the same frame
 * rule as transformHttpEventStream, line by line, with the same error texts.
 * The first bad line ends the stream, as a bad frame ends the client's.
 */
export function parseNdjson(text) {
  const events = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (line.trim() === "") continue;
    let json;
    try {
      json = JSON.parse(line);
    } catch (err) {
      return { events, parseError: Object.assign(toError(err), { line: i + 1 }) };
    }
    if (typeof json !== "object" || json === null || Array.isArray(json)) {
      return { events, parseError: Object.assign(new Error("Invalid event: the frame is not a JSON object."), { line: i + 1 }) };
    }
    if (typeof json.type !== "string" || json.type.length === 0) {
      return { events, parseError: Object.assign(new Error("Invalid event: the frame carries no event type."), { line: i + 1 }) };
    }
    events.push(json);
  }
  return { events, parseError: null };
}

function toError(err) {
  return err instanceof Error ? err : new Error(String(err));
}

// ---------------------------------------------------------------- schema

function zodIssues(issues) {
  return issues
    .map((i) => `${i.path && i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`)
    .join("; ");
}

/** EventSchema.safeParse on every event; THINKING_*, unknown types and legacy nulls all fail here. */
export function schemaCheck(events) {
  let count = 0;
  let first = null;
  const all = [];
  events.forEach((event, index) => {
    const r = EventSchema.safeParse(event);
    if (!r.success) {
      count++;
      const entry = { index, type: event?.type ?? null, message: zodIssues(r.error.issues) };
      all.push(entry);
      if (!first) first = entry;
    }
  });
  return { schemaErrors: count, firstSchemaError: first, schemaIssues: all };
}

// ---------------------------------------------------------------- pipeline replay

function describeError(err) {
  if (err && (err.name === "ZodError" || Array.isArray(err.issues))) {
    return `ZodError: ${zodIssues(err.issues)}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * Replays `events` through CompatibilityBoundary -> enforceEvents ->
 * transformChunks -> verifyEvents. If the transport failed (`parseError`),
 * the source errors after the last good event, just as the live stream would,
 * so an earlier pipeline error still wins.
 * Resolves to { verifyError, verifyStage, failedAt, errorName, verifiedEvents }.
 */
export function replayPipeline(events, parseError = null, stages = "client") {
  return new Promise((resolve) => {
    let current = -1; // index of the input event being pushed; the pipeline is synchronous
    const stageOf = new WeakMap();

    const source$ = new Observable((subscriber) => {
      for (let i = 0; i < events.length && !subscriber.closed; i++) {
        current = i;
        subscriber.next(structuredClone(events[i]));
      }
      if (subscriber.closed) return;
      current = events.length;
      if (parseError) {
        stageOf.set(parseError, "parse");
        subscriber.error(parseError);
      } else subscriber.complete();
    });

    // Tag an error with the first stage it leaves: that stage raised it.
    const tag = (stage) => (in$) =>
      new Observable((subscriber) =>
        in$.subscribe({
          next: (v) => subscriber.next(v),
          error: (err) => {
            if (err !== null && typeof err === "object" && !stageOf.has(err)) stageOf.set(err, stage);
            subscriber.error(err);
          },
          complete: () => subscriber.complete(),
        }),
      );

    // The middleware chain of runAgent(): for a 1.0 agent with no use(), it is
    // only the always-on CompatibilityBoundary, whose `next` is the transport.
    const input = { threadId: "conformance", runId: "conformance", messages: [], tools: [], context: [], state: {} };
    // stages "verify" skips the boundary and enforcement, to expose verifyEvents'
    // own rules that enforcement's schema check would otherwise pre-empt.
    const front$ =
      stages === "verify"
        ? source$
        : new CompatibilityBoundary()
            .run(input, { run: () => source$, messages: [], state: {} })
            .pipe(tag("compat"), enforceEvents(), tag("enforce"));

    const out$ = front$.pipe(
      transformChunks(),
      tag("transformChunks"),
      verifyEvents(),
      tag("verify"),
    );

    let verified = 0;
    out$.subscribe({
      next: () => verified++,
      error: (err) => {
        const stage = err !== null && typeof err === "object" ? stageOf.get(err) ?? null : null;
        resolve({
          verifyError: describeError(err),
          verifyStage: stage,
          failedAt: stage === "parse" ? events.length : current,
          errorName: err?.name ?? null,
          verifiedEvents: verified,
        });
      },
      complete: () =>
        resolve({ verifyError: null, verifyStage: null, failedAt: null, errorName: null, verifiedEvents: verified }),
    });
  });
}

// ---------------------------------------------------------------- HttpAgent

/** NDJSON is not something HttpAgent can read, so each line is re-framed as one SSE frame. */
function ndjsonAsSse(text) {
  return text
    .split("\n")
    .map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l))
    .filter((l) => l.trim() !== "")
    .map((l) => `data: ${l}\n\n`)
    .join("");
}

/** A real HttpAgent.runAgent() whose fetch returns the bytes. Resolves to the error message or null. */
export async function runRealAgent(bytes, format) {
  const body = format === "sse" ? bytes : new TextEncoder().encode(ndjsonAsSse(new TextDecoder().decode(bytes)));
  const agent = new HttpAgent({
    url: "http://agui-conform.invalid/agent",
    fetch: async () => new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } }),
  });
  try {
    await agent.runAgent();
    return null;
  } catch (err) {
    return describeError(err);
  }
}

// ---------------------------------------------------------------- the core

/**
 * Judges one stream. `bytes` is a Uint8Array (or string). Options: { format, agent, name }.
 * Returns the report object printed by the CLI (plus detail fields).
 */
export async function conform(bytes, { format = "auto", agent = false, name = "-", stages = "client" } = {}) {
  if (typeof bytes === "string") bytes = new TextEncoder().encode(bytes);
  const text = new TextDecoder().decode(bytes);
  const fmt = format === "auto" ? detectFormat(text) : format;

  const [result, warnings] = await captureConsole(async () => {
    const { events, parseError } = fmt === "sse" ? await parseSseWithClient(bytes) : parseNdjson(text);
    const schema = schemaCheck(events);
    const pipe = await replayPipeline(events, parseError, stages);
    return { events, parseError, schema, pipe };
  });
  // The real agent runs the same bytes again; its warnings are kept apart so
  // `warnings` means the same thing with and without --agent.
  const [agentError, agentWarnings] = agent ? await captureConsole(() => runRealAgent(bytes, fmt)) : [undefined, []];

  const { events, schema, pipe } = result;
  const report = {
    file: name,
    format: fmt,
    stages,
    events: events.length,
    schemaErrors: schema.schemaErrors,
    firstSchemaError: schema.firstSchemaError,
    verifyError: pipe.verifyError,
    verifyStage: pipe.verifyStage,
    failedAt: pipe.failedAt,
    warnings: warnings.length,
  };
  if (agent) {
    report.agentError = agentError;
    report.agentWarnings = agentWarnings.length;
  }
  report.valid = schema.schemaErrors === 0 && pipe.verifyError === null && (!agent || agentError === null);
  // Detail, kept off the one-line summary but available to importers.
  Object.defineProperty(report, "detail", {
    enumerable: false,
    value: { schemaIssues: schema.schemaIssues, warningMessages: warnings, errorName: pipe.errorName, verifiedEvents: pipe.verifiedEvents, parsedEvents: events },
  });
  return report;
}

/** Reads a path ('-' = stdin) and judges it. Throws on I/O errors. */
export async function conformFile(path, opts = {}) {
  const bytes = path === "-" ? readFileSync(0) : readFileSync(path);
  return conform(new Uint8Array(bytes), { ...opts, name: path });
}

// ---------------------------------------------------------------- CLI

/** A reader that stops early (`| head`) is not an error. */
export function quietOnBrokenPipe() {
  process.stdout.on("error", (err) => {
    if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw err;
  });
}

const USAGE = `usage: node agui-conform.mjs [--json] [--agent] [--quiet] [--format auto|sse|ndjson] [--stages client|verify] FILE...  ('-' reads stdin)
  prints one JSON line per file; exit 0 if all valid, 1 if any invalid, 2 on usage or I/O error`;

async function main(argv) {
  const files = [];
  let agent = false;
  let quiet = false;
  let format = "auto";
  let stages = "client";
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--json") continue; // JSON lines are the only output format; accepted for clarity
    else if (a === "--agent") agent = true;
    else if (a === "--quiet" || a === "-q") quiet = true;
    else if (a === "--format") format = argv[++i];
    else if (a.startsWith("--format=")) format = a.slice(9);
    else if (a === "--stages") stages = argv[++i];
    else if (a.startsWith("--stages=")) stages = a.slice(9);
    else if (a === "-h" || a === "--help") {
      process.stdout.write(USAGE + "\n");
      return 0;
    } else if (a === "-" || !a.startsWith("-")) files.push(a);
    else {
      process.stderr.write(`agui-conform: unknown option ${a}\n${USAGE}\n`);
      return 2;
    }
  }
  if (!["auto", "sse", "ndjson"].includes(format)) {
    process.stderr.write(`agui-conform: bad --format ${format}\n`);
    return 2;
  }
  if (!["client", "verify"].includes(stages)) {
    process.stderr.write(`agui-conform: bad --stages ${stages}\n`);
    return 2;
  }
  if (files.length === 0) {
    process.stderr.write(USAGE + "\n");
    return 2;
  }
  let anyInvalid = false;
  let ioError = false;
  for (const f of files) {
    let report;
    try {
      report = await conformFile(f, { agent, format, stages });
    } catch (err) {
      process.stderr.write(`agui-conform: ${f}: ${err.message}\n`);
      ioError = true;
      continue;
    }
    process.stdout.write(JSON.stringify(report) + "\n");
    if (!report.valid) anyInvalid = true;
    if (!quiet) {
      for (const s of report.detail.schemaIssues) process.stderr.write(`${f}: schema: event #${s.index} ${s.type}: ${s.message}\n`);
      for (const w of report.detail.warningMessages) process.stderr.write(`${f}: client ${w.split("\n")[0]}\n`);
      if (report.verifyError) process.stderr.write(`${f}: [${report.verifyStage}] at event #${report.failedAt}: ${report.verifyError}\n`);
    }
  }
  return ioError ? 2 : anyInvalid ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  quietOnBrokenPipe();
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (err) => {
      process.stderr.write(`agui-conform: ${err.stack || err}\n`);
      process.exitCode = 2;
    },
  );
}
