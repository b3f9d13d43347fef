// Renders `aguify report` pages in headless Chromium (the distribution's /usr/bin/chromium,
// driven by playwright-core) and checks each one: no console errors or page errors, no network
// request, the lane view drawn with a non-empty size, and the answers' text and the tool names
// of the recording present in the rendered DOM. What to look for comes from `aguify convert`
// (the assistant messages' text and TOOL_CALL_START names), not from the report. For a
// successful, an interrupted and failed runs the page must show what `aguify timeline` and
// `aguify explain` say: the outcome, the counts, the interrupt, the diagnosis and its line.
//
//   node browser/render-reports.mjs --bin target/debug/aguify [--big LOG] [--all]
//        [--screenshot docs/report.png] [--timing LOG]
//
// --big LOG     also a large generated log (CI: a 10 MB one from examples/gen_logs.rs)
// --all         also every recording of testdata/recordings and testdata/pending and every
//               case of testdata/check
// --timing LOG  report LOG's page size, aguify's time and the browser's render time only
import { chromium } from "playwright-core";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const bin = path.resolve(opt("--bin") ?? path.join(root, "target/debug/aguify"));
const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const rec = (p) => path.join(root, "testdata/recordings", p);

// The representative set: name, files, whether the run fails.
const CASES = [
  { name: "plain chat", files: [rec("v3-js/a_plain_chat.ndjson")], shows: true },
  { name: "parallel tools", files: [rec("v3-js/b_react_parallel.ndjson")], tools: true },
  { name: "reasoning", files: [rec("v3-python/c_reasoning_anthropic.ndjson")], reasoning: true },
  {
    name: "interrupt -> resume",
    files: [rec("v3-js/d_hitl__1_interrupt.ndjson"), rec("v3-js/d_hitl__2_resume.ndjson")],
    interrupt: true,
    shows: true,
  },
  { name: "failed run", files: [rec("v3-js/e_error_tool_raises.ndjson")], failed: true, shows: true },
  { name: "failed v2 run", files: [rec("v2-python-api/e_error_tool_raises.ndjson")], failed: true, shows: true },
  { name: "v2 log (no timestamps)", files: [rec("v2-python-api/b_react_one_tool.ndjson")], tools: true },
  { name: "platform SSE", files: [rec("sse/platform-v3-protocol.b_react_parallel.sse")], tools: true },
];

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "aguify-browser-"));
let failures = 0;
function fail(name, msg) {
  failures++;
  console.log(`FAIL ${name}: ${msg}`);
}

/// What a page must show, from `aguify convert`: per run (by order), answers and tool names.
function expected(files, firstRunOnly) {
  const out = execFileSync(bin, ["convert", "--to", "ndjson", ...files], {
    maxBuffer: 1 << 30,
    stdio: ["ignore", "pipe", "ignore"],
  }).toString();
  const texts = new Map();
  const roles = new Map();
  const tools = new Set();
  let runs = 0;
  for (const line of out.split("\n")) {
    if (!line) continue;
    const ev = JSON.parse(line);
    if (ev.type === "RUN_STARTED") {
      runs++;
      if (firstRunOnly && runs > 1) break;
    }
    if (ev.type === "TEXT_MESSAGE_START") roles.set(ev.messageId, ev.role ?? "assistant");
    if (ev.type === "TEXT_MESSAGE_CONTENT" || ev.type === "TEXT_MESSAGE_CHUNK") {
      texts.set(ev.messageId, (texts.get(ev.messageId) ?? "") + (ev.delta ?? ""));
    }
    if (ev.type === "TOOL_CALL_START" && ev.toolCallName) tools.add(ev.toolCallName);
  }
  const answers = [...texts.entries()]
    .filter(([id, t]) => (roles.get(id) ?? "assistant") === "assistant" && t.trim() && t.length < 8000)
    .map(([, t]) => t);
  return { answers, tools: [...tools] };
}

/// What `aguify timeline` and `aguify explain` say of each run (in order): the outcome, the
/// counts of the footer, and for a failed run the error, its line and the likely cause. The
/// page must show the same (`shows`).
function verdicts(files) {
  const timeline = execFileSync(bin, ["timeline", "--no-check", "--color", "never", ...files], {
    maxBuffer: 1 << 30,
    stdio: ["ignore", "pipe", "ignore"],
  }).toString();
  const runs = [];
  const lines = timeline.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /■ (\w+)(?: (\S+) \((\w+)\))?/.exec(lines[i]);
    if (!m) continue;
    const counts = /(\d+) messages? · (\d+) tool calls? · (\d+) reasoning/.exec(lines[i + 1] ?? "");
    runs.push({
      outcome: m[1],
      interrupt: m[2] ? { id: m[2], reason: m[3] } : null,
      counts: counts ? counts.slice(1, 4).map(Number) : null,
    });
  }
  // Exit 1 is "nothing to explain"; the JSON object is written either way.
  const ex = spawnSync(bin, ["explain", "--format", "json", ...files], { maxBuffer: 1 << 30 });
  if (ex.status !== 0 && ex.status !== 1) throw new Error(`aguify explain exited ${ex.status}`);
  const explained = JSON.parse(ex.stdout.toString()).explained;
  return { runs, explained };
}

function report(files, out) {
  const t0 = process.hrtime.bigint();
  execFileSync(bin, ["report", ...files, "-o", out], { stdio: ["ignore", "ignore", "pipe"] });
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "aguify-chromium-"));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: chromiumPath,
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
  viewport: { width: 1280, height: 900 },
});
const page = context.pages()[0] ?? (await context.newPage());

/// Loads one report and checks it; `expect` may be null (only "renders without errors").
async function check(name, file, expect, extra = {}) {
  const url = pathToFileURL(file).href;
  const errors = [];
  const requests = [];
  const onConsole = (m) => {
    if (m.type() === "error") errors.push(m.text());
  };
  const onError = (e) => errors.push(String(e));
  const onRequest = (r) => {
    if (r.url() !== url) requests.push(r.url());
  };
  page.on("console", onConsole);
  page.on("pageerror", onError);
  page.on("request", onRequest);
  const t0 = Date.now();
  try {
    await page.goto(url, { waitUntil: "load" });
    await page.waitForSelector("body[data-ready='1']", { timeout: 60000 });
    const renderMs = Date.now() - t0;
    const lanes = await page.evaluate(() => {
      const l = document.querySelector(".lanes");
      if (!l) return null;
      const r = l.getBoundingClientRect();
      const bars = [...l.querySelectorAll(".bar")].filter((b) => b.getBoundingClientRect().width > 0).length;
      return { w: r.width, h: r.height, bars };
    });
    // Everything drawn, as for printing.
    await page.evaluate(() => window.dispatchEvent(new Event("beforeprint")));
    // The drawn page only (not the data script): the answers in the transcript's assistant
    // items, the tool names in its tool call items and on the lane view's tool bars.
    const dom = await page.evaluate(() => {
      const text = (sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent).join("\n");
      const titles = (sel) => [...document.querySelectorAll(sel)].map((e) => e.title).join("\n");
      return {
        all: document.getElementById("app").textContent,
        answers: text(".item.assistant .msg"),
        tools: text(".item.tool .top"),
        toolBars: titles(".bar.k-tool"),
      };
    });
    if (errors.length) fail(name, `console errors: ${errors.slice(0, 3).join(" | ")}`);
    if (requests.length) fail(name, `network requests: ${requests.slice(0, 3).join(", ")}`);
    if (expect) {
      if (!lanes || !(lanes.w > 0 && lanes.h > 0 && lanes.bars > 0)) {
        fail(name, `lane view not drawn: ${JSON.stringify(lanes)}`);
      }
      for (const a of expect.answers) {
        if (!dom.answers.includes(a)) fail(name, `answer text missing: ${JSON.stringify(a.slice(0, 80))}`);
      }
      for (const t of expect.tools) {
        if (!dom.tools.includes(t)) fail(name, `tool name missing from the transcript: ${t}`);
        if (!dom.toolBars.includes(t)) fail(name, `tool name missing from the lanes: ${t}`);
      }
      // It prints (print styles, every run drawn, details opened by `beforeprint`).
      await page.emulateMedia({ media: "print" });
      const pdf = await page.pdf({ format: "A4" });
      await page.emulateMedia({ media: null });
      if (pdf.length < 1000) fail(name, `printed to ${pdf.length} bytes of PDF`);
      if (extra.tools && !expect.tools.length) fail(name, "the recording has no tool call");
      if (extra.failed && !dom.all.includes("Why it failed")) fail(name, "no diagnosis");
      if (extra.interrupt && !dom.all.includes("answered by the resume of")) fail(name, "interrupt not linked to its resume");
      if (extra.reasoning && !dom.all.includes("chars of reasoning")) fail(name, "no reasoning block");
    }
    return { renderMs, lanes };
  } finally {
    page.off("console", onConsole);
    page.off("pageerror", onError);
    page.off("request", onRequest);
  }
}

/// The page shows what timeline and explain say: per run its outcome badge, its counts, an
/// interrupt's id and reason; a failed run's diagnosis with the error, the line that carried
/// it and the likely cause (never "no line" when explain names one).
async function shows(name, files) {
  const want = verdicts(files);
  await page.evaluate(() => window.dispatchEvent(new Event("beforeprint")));
  const runs = await page.evaluate(() =>
    [...document.querySelectorAll("section.run")].map((sec) => {
      const dd = {};
      const dts = sec.querySelectorAll("dl.head dt");
      sec.querySelectorAll("dl.head dd").forEach((d, i) => (dd[dts[i].textContent] = d.textContent));
      const diag = sec.querySelector(".diagnosis");
      return {
        badge: sec.querySelector("h2 .badge").textContent,
        outcome: dd.outcome ?? "",
        counts: dd.counts ?? "",
        diagnosis: diag ? diag.textContent : null,
      };
    }),
  );
  if (runs.length !== want.runs.length) {
    fail(name, `${runs.length} runs shown, timeline has ${want.runs.length}`);
    return;
  }
  let failedRuns = 0;
  runs.forEach((r, i) => {
    const w = want.runs[i];
    const label = `${name}, run ${i + 1}`;
    if (r.badge !== w.outcome) fail(label, `badge ${JSON.stringify(r.badge)}, timeline says ${w.outcome}`);
    if (w.counts) {
      const [m, t, re] = w.counts;
      const text = `${m} message${m === 1 ? "" : "s"} · ${t} tool call${t === 1 ? "" : "s"} · ${re} reasoning`;
      if (!r.counts.startsWith(text)) fail(label, `counts ${JSON.stringify(r.counts)}, timeline says ${text}`);
    }
    if (w.interrupt && !r.outcome.includes(`${w.interrupt.reason} (${w.interrupt.id})`)) {
      fail(label, `interrupt ${w.interrupt.id} (${w.interrupt.reason}) not shown: ${JSON.stringify(r.outcome)}`);
    }
    if (w.outcome !== "error") {
      if (r.diagnosis !== null) fail(label, "a diagnosis on a run that did not fail");
      return;
    }
    const x = want.explained[failedRuns++];
    if (!x) return fail(label, "explain has no explanation for this failed run");
    if (r.diagnosis === null) return fail(label, "no \"Why it failed\"");
    const at = x.error.carriedBy ? `${x.error.carriedBy.file}:${x.error.carriedBy.line}` : "no line (the input stops)";
    for (const part of [x.error.message, x.error.code, `error carried by ${at}`, x.cause]) {
      if (!r.diagnosis.includes(part)) fail(label, `diagnosis lacks ${JSON.stringify(part)}: ${JSON.stringify(r.diagnosis.slice(0, 300))}`);
    }
  });
  console.log(`ok   ${name}: shows ${runs.map((r) => r.badge).join(", ")} as timeline and explain say`);
}

try {
  const timing = opt("--timing");
  if (timing) {
    const out = path.join(tmp, "timing.html");
    const aguifyMs = report([path.resolve(timing)], out);
    const size = fs.statSync(out).size;
    const { renderMs, lanes } = await check("timing", out, null);
    console.log(`${timing}: report ${size} bytes, aguify ${aguifyMs.toFixed(0)} ms, Chromium load+draw ${renderMs} ms, lanes ${JSON.stringify(lanes)}`);
  } else {
    let n = 0;
    for (const c of CASES) {
      const out = path.join(tmp, `case-${n++}.html`);
      report(c.files, out);
      const r = await check(c.name, out, expected(c.files), c);
      console.log(`ok   ${c.name} (${fs.statSync(out).size} bytes, drawn in ${r.renderMs} ms)`);
      if (c.shows) await shows(c.name, c.files);
      if (c.name === "parallel tools" && opt("--screenshot")) {
        await page.goto(pathToFileURL(out).href);
        await page.waitForSelector("body[data-ready='1']");
        await page.screenshot({ path: opt("--screenshot"), fullPage: true });
      }
    }
    const big = opt("--big");
    if (big) {
      const out = path.join(tmp, "big.html");
      const ms = report([path.resolve(big)], out);
      const size = fs.statSync(out).size;
      const r = await check("large log", out, expected([path.resolve(big)], true));
      if (size > 10 << 20) fail("large log", `report is ${size} bytes, over the 10 MiB bound`);
      console.log(`ok   large log ${big}: report ${size} bytes, aguify ${ms.toFixed(0)} ms, drawn in ${r.renderMs} ms`);
    }
    if (args.includes("--all")) {
      const files = [];
      const walk = (d) => {
        for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
          const p = path.join(d, e.name);
          if (e.isDirectory()) walk(p);
          else if (/\.(ndjson|jsonl|sse)$/.test(e.name) && !e.name.includes(".expected")) files.push(p);
        }
      };
      walk(path.join(root, "testdata/recordings"));
      // Shapes aguify does not convert right yet (testdata/pending/README.md): their pages must
      // render, but `convert` is no judge of what they should show.
      const recordings = files.length;
      walk(path.join(root, "testdata/pending"));
      walk(path.join(root, "testdata/check"));
      let i = 0;
      let refused = 0;
      for (const f of files) {
        const out = path.join(tmp, `all-${i}.html`);
        const isRecording = i++ < recordings;
        try {
          report([f], out);
        } catch (e) {
          // A check case with nothing of a known form gets no page (exit 2, one message).
          const why = String(e.stderr ?? e);
          if (!isRecording && e.status === 2 && why.includes("no AG-UI or LangGraph records")) {
            refused++;
            continue;
          }
          fail(f, `aguify report failed: ${why}`);
          continue;
        }
        await check(path.relative(root, f), out, isRecording ? expected([f]) : null);
      }
      console.log(`ok   ${files.length - refused} files of testdata rendered (${recordings} recordings checked for answers and tool names; ${refused} check cases of no known form refused)`);
    }
  }
} finally {
  await context.close();
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(userDataDir, { recursive: true, force: true });
}
if (failures) {
  console.log(`${failures} failure(s)`);
  process.exit(1);
}
