#!/usr/bin/env node
// run-all: the conformance test.
//
//   node conformance/run-all.mjs --bin PATH_TO_AGUIFY [--recordings DIR] [--agent]
//     converts every recording under testdata/recordings/** with
//     `aguify convert --to sse|ndjson FILES` and requires the official client
//     pipeline to accept the output: no schema error, no pipeline error; and
//     every SSE frame byte for byte as @ag-ui/encoder 1.0.0 writes its event.
//
//   node conformance/run-all.mjs --cases testdata/check [--write-expected]
//     runs the verifier over every case in the folder and compares the verdict
//     with <case>.expected.json field "official" (the parity baseline).
//     --write-expected re-baselines those files from the official client.
//
// Ends with the line `N passed, N failed`; exits 1 on any failure, 2 on usage error.

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { EventEncoder } from "@ag-ui/encoder";
import { conform, conformFile, quietOnBrokenPipe } from "./agui-conform.mjs";
import { STREAM_EXT, groupRecordings, walk } from "./recordings.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "..");

const USAGE = `usage:
  node conformance/run-all.mjs --bin PATH_TO_AGUIFY [--recordings DIR] [--agent]
  node conformance/run-all.mjs --cases DIR [--write-expected] [--agent]`;

// ---------------------------------------------------------------- recordings mode

const ENCODER = new EventEncoder();

/**
 * The README's claim that aguify's SSE is byte-compatible with @ag-ui/encoder:
 * each frame must be exactly what `EventEncoder.encodeSSE()` writes for the
 * event it holds. Returns the number of frames that differ and the first
 * difference, shown around the first differing character.
 */
export function encoderDifferences(text) {
  let differ = 0;
  let first = null;
  const frames = text.split("\n\n");
  if (frames.at(-1) === "") frames.pop();
  frames.forEach((frame, index) => {
    let again;
    try {
      again = frame.startsWith("data: ") ? ENCODER.encodeSSE(JSON.parse(frame.slice(6))) : null;
    } catch {
      again = null;
    }
    if (again === `${frame}\n\n`) return;
    differ++;
    if (first !== null) return;
    if (again === null) first = `frame #${index} is not one data: line of JSON`;
    else {
      let i = 0;
      while (again[i] === frame[i]) i++;
      const at = (s) => JSON.stringify(s.slice(Math.max(0, i - 30), i + 30));
      first = `frame #${index}: aguify wrote ${at(frame)}, the encoder writes ${at(again)}`;
    }
  });
  return { differ, first };
}

async function runRecordings(bin, recordingsDir, agent) {
  if (!existsSync(recordingsDir)) {
    process.stderr.write(`run-all: no recordings folder at ${recordingsDir}\n`);
    return 2;
  }
  const cases = groupRecordings(walk(recordingsDir));
  let passed = 0;
  let failed = 0;
  for (const c of cases) {
    const rel = relative(REPO, c.name);
    const shown = rel && !rel.startsWith("..") ? rel : c.name;
    for (const to of ["sse", "ndjson"]) {
      const label = `${shown}${c.files.length > 1 ? ` (${c.files.length} files)` : ""} --to ${to}`;
      const run = spawnSync(bin, ["convert", "--to", to, ...c.files], { maxBuffer: 512 * 1024 * 1024 });
      let problem = null;
      let report = null;
      if (run.error) problem = `cannot run ${bin}: ${run.error.message}`;
      else if (run.status !== 0) {
        const err = String(run.stderr).trim().split("\n").slice(-3).join(" | ");
        problem = `aguify exited ${run.status ?? run.signal}${err ? `: ${err}` : ""}`;
      } else {
        report = await conform(new Uint8Array(run.stdout), { format: to, agent: agent && to === "sse", name: label });
        if (report.events === 0) problem = "output holds no events";
        else if (report.schemaErrors > 0)
          problem = `${report.schemaErrors} schema error(s); first at event #${report.firstSchemaError.index} ${report.firstSchemaError.type}: ${report.firstSchemaError.message}`;
        else if (report.verifyError !== null) problem = `[${report.verifyStage}] at event #${report.failedAt}: ${report.verifyError}`;
        else if (report.agentError) problem = `HttpAgent.runAgent: ${report.agentError}`;
        else if (!report.valid) problem = "not valid";
        else if (to === "sse") {
          const enc = encoderDifferences(new TextDecoder().decode(run.stdout));
          if (enc.differ > 0) problem = `${enc.differ} frame(s) not as @ag-ui/encoder writes them; first: ${enc.first}`;
        }
      }
      if (problem) {
        failed++;
        process.stdout.write(`FAIL ${label}: ${problem}\n`);
      } else {
        passed++;
        process.stdout.write(`ok   ${label}: ${report.events} events${report.warnings ? `, ${report.warnings} client warning(s)` : ""}\n`);
      }
    }
  }
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  return failed > 0 || cases.length === 0 ? 1 : 0;
}

// ---------------------------------------------------------------- cases mode

/** The verdict fields stored under "official" and compared on replay. */
export function officialVerdict(report) {
  return {
    valid: report.valid,
    verifyError: report.verifyError,
    verifyStage: report.verifyStage,
    failedAt: report.failedAt,
    schemaErrors: report.schemaErrors,
  };
}

function stageVerdict(report) {
  return { verifyError: report.verifyError, verifyStage: report.verifyStage, failedAt: report.failedAt };
}

function expectedPath(caseFile) {
  return caseFile.replace(STREAM_EXT, ".expected.json");
}

function differences(want, got) {
  const out = [];
  for (const k of Object.keys(want)) {
    if (JSON.stringify(want[k]) !== JSON.stringify(got[k])) out.push(`${k}: expected ${JSON.stringify(want[k])}, got ${JSON.stringify(got[k])}`);
  }
  return out;
}

async function runCases(dir, write, agent) {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    process.stderr.write(`run-all: no cases folder at ${dir}\n`);
    return 2;
  }
  const names = readdirSync(dir).sort();
  const cases = names.filter((n) => STREAM_EXT.test(n));
  let passed = 0;
  let failed = 0;
  for (const name of cases) {
    const file = join(dir, name);
    const report = await conformFile(file, { agent });
    const got = officialVerdict(report);
    if (agent) got.agentError = report.agentError;
    // verifyEvents alone (no boundary, no enforcement): shows the verifier
    // rules that enforcement's schema check pre-empts in the real client.
    const verifyOnly = stageVerdict(await conformFile(file, { stages: "verify" }));
    const verifyOnlyDiffers = JSON.stringify(verifyOnly) !== JSON.stringify(stageVerdict(report));
    const expFile = expectedPath(file);
    if (write) {
      const { official: _o, verifyOnly: _v, ...prior } = existsSync(expFile) ? JSON.parse(readFileSync(expFile, "utf8")) : {};
      const { agentError: _a, ...official } = got;
      const record = { ...prior, official };
      if (verifyOnlyDiffers) record.verifyOnly = verifyOnly;
      writeFileSync(expFile, JSON.stringify(record, null, 2) + "\n");
    }
    if (!existsSync(expFile)) {
      failed++;
      process.stdout.write(`FAIL ${name}: no ${basename(expFile)}\n`);
      continue;
    }
    const expected = JSON.parse(readFileSync(expFile, "utf8"));
    const want = expected.official;
    const diff = want ? differences(want, got) : ['no "official" field'];
    if (expected.verifyOnly || verifyOnlyDiffers) {
      const d = differences(expected.verifyOnly ?? {}, verifyOnly);
      if (!expected.verifyOnly) d.push(`verifyOnly: not recorded, got ${JSON.stringify(verifyOnly)}`);
      diff.push(...d.map((x) => `verifyOnly.${x}`));
    }
    // With --agent, a real HttpAgent.runAgent() must agree with the replay.
    if (agent && got.agentError !== (got.verifyError ?? null) && !(got.verifyError === null && got.agentError === null))
      diff.push(`HttpAgent disagrees: agentError ${JSON.stringify(got.agentError)}`);
    const verdict = got.valid ? "valid" : got.verifyError ? `[${got.verifyStage}] ${got.verifyError}` : `${got.schemaErrors} schema error(s)`;
    if (diff.length) {
      failed++;
      process.stdout.write(`FAIL ${name}: ${diff.join("; ")}\n`);
    } else {
      passed++;
      process.stdout.write(`ok   ${name}: ${verdict}\n`);
    }
  }
  for (const n of names.filter((n) => n.endsWith(".expected.json"))) {
    const stem = n.slice(0, -".expected.json".length);
    if (!existsSync(join(dir, stem + ".ndjson")) && !existsSync(join(dir, stem + ".sse"))) {
      failed++;
      process.stdout.write(`FAIL ${n}: no case file beside it\n`);
    }
  }
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}

// ---------------------------------------------------------------- CLI

async function main(argv) {
  let bin = null;
  let casesDir = null;
  let recordings = join(REPO, "testdata", "recordings");
  let write = false;
  let agent = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--bin") bin = argv[++i];
    else if (a === "--cases") casesDir = argv[++i];
    else if (a === "--recordings") recordings = argv[++i];
    else if (a === "--write-expected") write = true;
    else if (a === "--agent") agent = true;
    else if (a === "-h" || a === "--help") {
      process.stdout.write(USAGE + "\n");
      return 0;
    } else {
      process.stderr.write(`run-all: unknown argument ${a}\n${USAGE}\n`);
      return 2;
    }
  }
  if ((bin === null) === (casesDir === null) || (bin !== null && !bin) || (casesDir !== null && !casesDir)) {
    process.stderr.write(USAGE + "\n");
    return 2;
  }
  if (casesDir !== null) return runCases(resolve(casesDir), write, agent);
  if (write) {
    process.stderr.write("run-all: --write-expected only applies to --cases\n");
    return 2;
  }
  // A bare name is looked up on PATH; anything with a slash is a path.
  return runRecordings(bin.includes("/") ? resolve(bin) : bin, resolve(recordings), agent);
}

quietOnBrokenPipe();
main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err) => {
    process.stderr.write(`run-all: ${err.stack || err}\n`);
    process.exitCode = 2;
  },
);
