#!/usr/bin/env node
// One-off (not part of CI): the Vue TDesign Chatbot (@tdesign-vue-next/chat 0.5.2) rendering an
// interrupt -> resume conversation served by `aguify serve --compat thinking --tool-steps
// reasoning`, in headless Chromium; saves a PNG.
//
//   cargo build && (cd conformance/tdesign/screenshot && npm ci)
//   node conformance/tdesign/screenshot/make.mjs --bin target/debug/aguify \
//     [--chromium /usr/bin/chromium] [--out docs/tdesign-interrupt-resume.png]
//
// The page's chat service is docs/replay.md's TDesign recipe: onComplete keeps the interrupts of
// RUN_FINISHED.outcome, the next onRequest answers them in resume[]. TDesign's labels are
// Chinese: a CJK font (Debian: fonts-wqy-microhei) makes them legible.

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium } from "playwright-core";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "../../..");

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
const bin = resolve(opt("--bin", "target/debug/aguify"));
const chromiumPath = opt("--chromium", "/usr/bin/chromium");
const out = resolve(opt("--out", join(REPO, "docs/tdesign-interrupt-resume.png")));
const recordings = ["testdata/serve/hitl/hitl__1_interrupt.ndjson", "testdata/serve/hitl/hitl__2_resume.ndjson"].map((f) => join(REPO, f));
const PROMPTS = ["Find me the cheapest flight to Lisbon and book it.", "Yes, book it."];

// The page: a Vue app with the Chatbot, no SFC (render functions), bundled by esbuild.
const APP = `
import { createApp, h, ref } from "vue";
import TDesign from "tdesign-vue-next";
import "tdesign-vue-next/es/style/index.css";
import { Chatbot } from "@tdesign-vue-next/chat";

const endpoint = new URLSearchParams(location.search).get("endpoint");
let pending = [];
window.turnsDone = 0;
window.requests = [];
const threadId = "screenshot-thread";
let runs = 0;

const chatServiceConfig = {
  endpoint,
  protocol: "agui",
  stream: true,
  onComplete: (isAborted, params, event) => {
    pending = event?.outcome?.type === "interrupt" ? event.outcome.interrupts : [];
    window.turnsDone++;
  },
  onError: () => { window.turnsDone++; },
  onRequest: (params) => {
    const body = { threadId, runId: "run-" + ++runs, messages: [{ id: "u" + runs, role: "user", content: params.prompt }] };
    if (pending.length) body.resume = pending.map((i) => ({ interruptId: i.id, status: "resolved", payload: { approved: true } }));
    window.requests.push(body);
    return { method: "POST", headers: { Accept: "text/event-stream", "Content-Type": "application/json" }, body: JSON.stringify(body) };
  },
};

const App = {
  setup() {
    const bot = ref(null);
    window.send = (prompt) => bot.value.sendUserMessage({ prompt });
    return () =>
      h("div", { style: "height: 100vh; box-sizing: border-box; padding: 16px 24px; display: flex; flex-direction: column" }, [
        h("div", { style: "font: 600 15px sans-serif; margin-bottom: 8px; color: #333" },
          "TDesign Chatbot (@tdesign-vue-next/chat 0.5.2) · aguify serve --compat thinking --tool-steps reasoning"),
        h(Chatbot, { ref: bot, style: "flex: 1; min-height: 0", chatServiceConfig, defaultMessages: [] }),
      ]);
  },
};
createApp(App).use(TDesign).mount("#app");
`;

const HTML = `<!doctype html><html><head><meta charset="utf-8"><title>aguify + TDesign</title>
<style>html,body{margin:0;background:#fff}</style></head><body><div id="app"></div>
<script type="module" src="/app.js"></script></body></html>`;

function startServe() {
  return new Promise((ok, fail) => {
    const child = spawn(bin, ["serve", "--listen", "127.0.0.1:0", "--cors", "*", "--compat", "thinking", "--tool-steps", "reasoning", "--speed", "4", ...recordings], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (c) => {
      err += c;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(err);
      if (m) ok({ child, url: `${m[1]}/` });
    });
    child.on("exit", (code) => fail(new Error(`aguify serve exited ${code}: ${err}`)));
  });
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), "aguify-tdesign-shot-"));
  const serve = await startServe();
  let browser;
  let page;
  try {
    await build({
      stdin: { contents: APP, resolveDir: HERE, loader: "js" },
      bundle: true,
      format: "esm",
      outfile: join(work, "app.js"),
      define: { "process.env.NODE_ENV": '"production"', __VUE_OPTIONS_API__: "true", __VUE_PROD_DEVTOOLS__: "false", __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: "false" },
      loader: { ".css": "css", ".less": "text", ".svg": "dataurl", ".png": "dataurl", ".woff": "dataurl", ".woff2": "dataurl", ".ttf": "dataurl", ".eot": "dataurl" },
      resolveExtensions: [".mjs", ".js", ".json", ".css"],
      logLevel: "warning",
    });
    const files = { "/": ["text/html", HTML], "/app.js": ["text/javascript", readFileSync(join(work, "app.js"))], "/app.css": ["text/css", readFileSync(join(work, "app.css"), "utf8")] };
    const page0 = createServer((req, res) => {
      const f = files[new URL(req.url, "http://x").pathname];
      if (!f) return res.writeHead(404).end();
      res.writeHead(200, { "content-type": f[0] }).end(f[1]);
    });
    files["/"][1] = HTML.replace("</head>", '<link rel="stylesheet" href="/app.css"></head>');
    await new Promise((r) => page0.listen(0, "127.0.0.1", r));
    const site = `http://127.0.0.1:${page0.address().port}/`;

    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    page = await browser.newPage({ viewport: { width: 900, height: 620 }, deviceScaleFactor: 1 });
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${site}?endpoint=${encodeURIComponent(serve.url)}`);
    await page.waitForFunction(() => typeof window.send === "function");
    await page.waitForTimeout(500);
    for (const [i, prompt] of PROMPTS.entries()) {
      await page.evaluate((p) => window.send(p), prompt);
      await page.waitForFunction((n) => window.turnsDone >= n, i + 1, { timeout: 30_000 });
      await page.waitForTimeout(800);
    }
    const requests = await page.evaluate(() => window.requests);
    if (!requests[1]?.resume?.length) throw new Error(`the second request carried no resume[]: ${JSON.stringify(requests[1])}`);
    // TDesign collapses a thinking block when it ends: open it to show the narration/reasoning.
    const header = page.getByText("\u601D\u8003\u5B8C\u6210").first();
    if (await header.count()) {
      await header.click();
      await page.waitForTimeout(600);
    }
    await page.screenshot({ path: out });
    page0.close();
    console.log(`wrote ${out}${errors.length ? ` (page errors: ${errors.join("; ")})` : ""}`);
  } finally {
    if (browser) await browser.close();
    serve.child.kill("SIGINT");
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e?.stack ?? e);
  process.exit(1);
});
