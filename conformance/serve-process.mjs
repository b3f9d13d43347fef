// serve-process: starting and stopping `aguify serve` for the Node harnesses
// (serve-client.mjs and tdesign/run.mjs), so both wait for the same "listening on" line
// and both notice a server that exits before it listens.

import { spawn } from "node:child_process";

/**
 * Starts `aguify serve --listen 127.0.0.1:0 ARGS` and resolves to { child, url, log } once it
 * listens: `url` is the origin without a trailing slash, `log()` the stderr so far. Rejects
 * when the server exits first or does not listen within 15 s.
 */
export function startServer(bin, args) {
  return new Promise((resolveStart, reject) => {
    const child = spawn(bin, ["serve", "--listen", "127.0.0.1:0", ...args], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`aguify serve did not start in 15 s:\n${stderr}`));
    }, 15_000);
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolveStart({ child, url: m[1], log: () => stderr });
      }
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`aguify serve exited ${code} before listening:\n${stderr}`));
    });
  });
}

/** Sends SIGINT (the server's clean stop) and resolves to its exit code (or signal). */
export function stopServer(child) {
  return new Promise((res) => {
    if (child.exitCode !== null || child.signalCode !== null) return res(child.exitCode ?? child.signalCode);
    child.once("exit", (code, sig) => res(code ?? sig));
    child.kill("SIGINT");
  });
}
