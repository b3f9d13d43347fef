// Renders `aguify report` pages in headless Chromium (the distribution's /usr/bin/chromium,
// driven by playwright-core) and checks each one: no console errors or page errors, no network
// request, the lane view drawn with a non-empty size, and the answers' text and the tool names
// of the recording present in the rendered DOM. What to look for comes from `aguify convert`
// (the assistant messages' text and TOOL_CALL_START names), not from the report.
//
//   node browser/render-reports.mjs --bin target/debug/aguify [--big LOG] [--all]
//        [--screenshot docs/report.png] [--timing LOG]
//
// --big LOG     also a large generated log (CI: a 10 MB one from examples/gen_logs.rs)
// --all         also every recording of testdata/recordings and testdata/pending and every
//               case of testdata/check
// --timing LOG  report LOG's page size, aguify's time and the browser's render time only
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
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
  { name: "plain chat", files: [rec("v3-js/a_plain_chat.ndjson")] },
  { name: "parallel tools", files: [rec("v3-js/b_react_parallel.ndjson")], tools: true },
  { name: "reasoning", files: [rec("v3-python/c_reasoning_anthropic.ndjson")], reasoning: true },
  {
    name: "interrupt -> resume",
    files: [rec("v3-js/d_hitl__1_interrupt.ndjson"), rec("v3-js/d_hitl__2_resume.ndjson")],
    interrupt: true,
  },
  { name: "failed run", files: [rec("v3-js/e_error_tool_raises.ndjson")], failed: true },
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
      for (const f of files) {
        const out = path.join(tmp, `all-${i}.html`);
        const isRecording = i++ < recordings;
        try {
          report([f], out);
        } catch (e) {
          fail(f, `aguify report failed: ${e.stderr ?? e}`);
          continue;
        }
        await check(path.relative(root, f), out, isRecording ? expected([f]) : null);
      }
      console.log(`ok   ${files.length} files of testdata rendered (${recordings} recordings checked for answers and tool names)`);
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
