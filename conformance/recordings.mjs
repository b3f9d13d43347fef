// The recordings the conformance suites convert, grouped into conversion cases.
// Shared by run-all.mjs (the 1.0.0 client) and compat-0.0.x/run-compat.mjs.

import { readdirSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export const STREAM_EXT = /\.(ndjson|sse)$/;

/** Every *.ndjson and *.sse file under `dir`, sorted by path. */
export function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (STREAM_EXT.test(name)) out.push(p);
  }
  return out;
}

/**
 * Groups recordings into conversion cases. A resumed thread is recorded as
 * `X__1_<tag>.ndjson`, `X__2_<tag>.ndjson`, ... in one folder; those files
 * are converted together, in order, as one invocation. Every other file is
 * a case of its own.
 */
export function groupRecordings(files) {
  const groups = new Map();
  const cases = [];
  for (const f of files) {
    const m = /^(.*)__(\d+)_[^/]*\.ndjson$/.exec(basename(f));
    if (m) {
      const key = join(dirname(f), m[1]);
      if (!groups.has(key)) {
        const group = { name: key, files: [] };
        groups.set(key, group);
        cases.push(group);
      }
      groups.get(key).files.push({ n: Number(m[2]), f });
    } else cases.push({ name: f, files: [{ n: 0, f }] });
  }
  return cases.map((c) => ({ name: c.name, files: c.files.sort((a, b) => a.n - b.n).map((x) => x.f) }));
}
