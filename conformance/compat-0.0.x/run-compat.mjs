#!/usr/bin/env node
// run-compat: aguify's output judged by THINKING-era official clients.
//
//   node conformance/compat-0.0.x/run-compat.mjs --bin PATH_TO_AGUIFY [--recordings DIR]
//     converts every recording (grouped as run-all.mjs groups them) with
//     `aguify convert --to sse` in each variant of VARIANTS and runs the bytes
//     through a real HttpAgent.runAgent() of each client that variant is for.
//   node conformance/compat-0.0.x/run-compat.mjs [--client 0.0.59|0.0.42] FILE...
//     judges AG-UI SSE streams ('-' reads stdin), one JSON line per file and client.
//
// The clients are @ag-ui/client 0.0.59 and 0.0.42, pinned in package.json and
// package-lock.json beside this file (npm aliases, each with its own @ag-ui/core).
// HttpAgent.runAgent() is the whole client: its SSE parser, EventSchemas.parse
// of every event (zod, the version's own schema), the middlewares the version
// inserts, transformChunks, verifyEvents and defaultApplyEvents. Its fetch is
// answered with the bytes; nothing else is re-implemented here.
//
// Ends with the line `N passed, N failed`; exits 1 on any failure, 2 on usage error.

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { HttpAgent as HttpAgent059 } from "client-0.0.59";
import { HttpAgent as HttpAgent042 } from "client-0.0.42";
import { groupRecordings, walk } from "../recordings.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "..", "..");

export const CLIENTS = { "0.0.59": HttpAgent059, "0.0.42": HttpAgent042 };

// The aguify output these clients are judged on: the `--compat thinking` form,
// which is for them (plain output is AG-UI 1.0, judged by run-all.mjs and the
// Python SDK; 0.0.42 knows no REASONING_* event at all).
export const VARIANTS = [
  { args: ["--compat", "thinking"], clients: ["0.0.59", "0.0.42"] },
  { args: ["--compat", "thinking", "--tool-steps", "reasoning"], clients: ["0.0.59", "0.0.42"] },
  { args: ["--compat", "thinking", "--text", "final"], clients: ["0.0.59", "0.0.42"] },
];

function describeError(err) {
  if (err && err.name === "ZodError" && Array.isArray(err.issues)) {
    return `ZodError: ${err.issues
      .slice(0, 3)
      .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
      .join("; ")}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * Runs one SSE stream through `version`'s HttpAgent.runAgent(). Resolves to
 * { events, error, warnings }: events the agent applied before the error (or
 * all of them), the error message or null, and the client's console output.
 */
export async function judge(bytes, version) {
  const Agent = CLIENTS[version];
  const warnings = [];
  const saved = { warn: console.warn, error: console.error, fetch: globalThis.fetch };
  const grab = (level) => (...args) => warnings.push(`${level}: ${args.map((a) => (a instanceof Error ? a.message : String(a))).join(" ")}`);
  // 0.0.42 calls the global fetch; 0.0.59 defaults to it. Either way the bytes come back.
  globalThis.fetch = async () => new Response(bytes, { status: 200, headers: { "content-type": "text/event-stream" } });
  console.warn = grab("warn");
  console.error = grab("error");
  let events = 0;
  let error = null;
  try {
    const agent = new Agent({ url: "http://run-compat.invalid/agent" });
    await agent.runAgent({}, { onEvent: () => void events++ });
  } catch (err) {
    error = describeError(err);
  } finally {
    Object.assign(console, { warn: saved.warn, error: saved.error });
    globalThis.fetch = saved.fetch;
  }
  return { events, error, warnings };
}

async function runRecordings(bin, recordingsDir) {
  if (!existsSync(recordingsDir)) {
    process.stderr.write(`run-compat: no recordings folder at ${recordingsDir}\n`);
    return 2;
  }
  const cases = groupRecordings(walk(recordingsDir));
  let passed = 0;
  let failed = 0;
  for (const c of cases) {
    const rel = relative(REPO, c.name);
    const shown = rel && !rel.startsWith("..") ? rel : c.name;
    for (const variant of VARIANTS) {
      const flags = ["--to", "sse", ...variant.args];
      const run = spawnSync(bin, ["convert", ...flags, ...c.files], { maxBuffer: 512 * 1024 * 1024 });
      for (const version of variant.clients) {
        const label = `${shown}${c.files.length > 1 ? ` (${c.files.length} files)` : ""} ${flags.join(" ")} [client ${version}]`;
        let problem = null;
        let verdict = null;
        if (run.error) problem = `cannot run ${bin}: ${run.error.message}`;
        else if (run.status !== 0) {
          const err = String(run.stderr).trim().split("\n").slice(-3).join(" | ");
          problem = `aguify exited ${run.status ?? run.signal}${err ? `: ${err}` : ""}`;
        } else {
          verdict = await judge(new Uint8Array(run.stdout), version);
          if (verdict.error !== null) problem = `after ${verdict.events} event(s): ${verdict.error}`;
          else if (verdict.events === 0) problem = "output holds no events";
        }
        if (problem) {
          failed++;
          process.stdout.write(`FAIL ${label}: ${problem}\n`);
        } else {
          passed++;
          const w = verdict.warnings.length;
          process.stdout.write(`ok   ${label}: ${verdict.events} events${w ? `, ${w} client warning(s)` : ""}\n`);
        }
      }
    }
  }
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  return failed > 0 || cases.length === 0 ? 1 : 0;
}

async function runFiles(files, versions) {
  let bad = false;
  for (const file of files) {
    const bytes = new Uint8Array(file === "-" ? readFileSync(0) : readFileSync(file));
    for (const version of versions) {
      const v = await judge(bytes, version);
      const valid = v.error === null && v.events > 0;
      bad ||= !valid;
      process.stdout.write(JSON.stringify({ file, client: version, events: v.events, error: v.error, warnings: v.warnings.length, valid }) + "\n");
    }
  }
  return bad ? 1 : 0;
}

const USAGE = `usage:
  node conformance/compat-0.0.x/run-compat.mjs --bin PATH_TO_AGUIFY [--recordings DIR]
  node conformance/compat-0.0.x/run-compat.mjs [--client ${Object.keys(CLIENTS).join("|")}] FILE...`;

async function main(argv) {
  let bin = null;
  let recordings = join(REPO, "testdata", "recordings");
  let versions = Object.keys(CLIENTS);
  const files = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--bin") bin = argv[++i];
    else if (a === "--recordings") recordings = argv[++i];
    else if (a === "--client") versions = [argv[++i]];
    else if (a === "-h" || a === "--help") {
      process.stdout.write(USAGE + "\n");
      return 0;
    } else if (a.startsWith("--")) {
      process.stderr.write(`run-compat: unknown argument ${a}\n${USAGE}\n`);
      return 2;
    } else files.push(a);
  }
  if (versions.some((v) => !(v in CLIENTS)) || (bin === null) === (files.length === 0) || bin === "" || !recordings) {
    process.stderr.write(USAGE + "\n");
    return 2;
  }
  if (bin !== null) return runRecordings(bin.includes("/") ? resolve(bin) : bin, resolve(recordings));
  return runFiles(files, versions);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (err) => {
      process.stderr.write(`run-compat: ${err.stack || err}\n`);
      process.exitCode = 2;
    },
  );
}
