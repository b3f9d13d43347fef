#!/usr/bin/env node
// Builds the npm packages with `npm pack`: the launcher `aguify` (npm/aguify) and the package
// of one platform holding a binary already built for it.
//
//   node npm/build.mjs --binary target/release/aguify [--platform linux-x64-gnu] [--out dist/npm]
//   node npm/build.mjs --launcher-only [--out dist/npm]
//
// The version of every package is the root Cargo.toml's [package] version (or its
// [workspace.package] version when the package inherits it). The launcher lists every platform
// of npm/aguify/platforms.json as an optional dependency at that version; --platform defaults
// to this machine's. docs/install.md says how a release builds and publishes all of them.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const platforms = JSON.parse(fs.readFileSync(path.join(here, "aguify", "platforms.json"), "utf8"));
delete platforms["//"];

function usage(message) {
  process.stderr.write(`npm/build.mjs: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const args = { out: path.join(root, "dist", "npm"), launcherOnly: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => argv[++i] ?? usage(`${arg} needs a value`);
    if (arg === "--binary") args.binary = value();
    else if (arg === "--platform") args.platform = value();
    else if (arg === "--out") args.out = value();
    else if (arg === "--launcher-only") args.launcherOnly = true;
    else usage(`unknown argument ${arg}`);
  }
  if (!args.launcherOnly && !args.binary) usage("--binary PATH (or --launcher-only) is required");
  return args;
}

/** The version in Cargo.toml's [package], or [workspace.package] when [package] inherits it. */
export function cargoVersion(text) {
  const sections = {};
  let current = "";
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s+#.*$/, "").trim();
    const header = line.match(/^\[([^\]]+)\]$/);
    if (header) {
      current = header[1].trim();
      continue;
    }
    const kv = line.match(/^version(\.workspace)?\s*=\s*(.+)$/);
    if (!kv) continue;
    const value = kv[2].trim();
    const inherits = kv[1] !== undefined || /^\{\s*workspace\s*=\s*true\s*\}$/.test(value);
    sections[current] = inherits ? { inherits: true } : { version: value.replace(/^"|"$/g, "") };
  }
  const pkg = sections.package;
  if (pkg && pkg.version) return pkg.version;
  if (pkg && pkg.inherits && sections["workspace.package"]?.version) {
    return sections["workspace.package"].version;
  }
  throw new Error("no version in Cargo.toml's [package] or [workspace.package]");
}

function thisPlatform() {
  const key = `${process.platform}-${process.arch}`;
  if (process.platform !== "linux") return key;
  const glibc = process.report?.getReport().header.glibcVersionRuntime;
  return `${key}-${glibc ? "gnu" : "musl"}`;
}

function pack(dir, out) {
  const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", out], {
    cwd: dir,
    encoding: "utf8",
  }).trim();
  return path.join(out, name.split("\n").pop());
}

function writeJson(file, value) {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

function buildLauncher(version, stage, out) {
  const dir = path.join(stage, "aguify");
  fs.cpSync(path.join(here, "aguify"), dir, { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  manifest.version = version;
  manifest.optionalDependencies = Object.fromEntries(
    Object.values(platforms).map((p) => [p.package, version]),
  );
  writeJson(path.join(dir, "package.json"), manifest);
  return pack(dir, out);
}

function buildPlatform(version, key, binary, stage, out) {
  const platform = platforms[key];
  if (!platform) usage(`unknown platform ${key} (npm/aguify/platforms.json has ${Object.keys(platforms).join(", ")})`);
  if (!fs.statSync(binary, { throwIfNoEntry: false })?.isFile()) usage(`no binary at ${binary}`);
  const dir = path.join(stage, platform.package);
  fs.mkdirSync(path.join(dir, "bin"), { recursive: true });
  const target = path.join(dir, "bin", `aguify${platform.exe || ""}`);
  fs.copyFileSync(binary, target);
  fs.chmodSync(target, 0o755);
  const manifest = {
    name: platform.package,
    version,
    description: `The aguify binary for ${key} (${platform.rust}); installed by the aguify package.`,
    license: "MIT OR Apache-2.0",
    os: [platform.os],
    cpu: [platform.cpu],
    ...(platform.libc ? { libc: [platform.libc] } : {}),
    files: ["bin/"],
    preferUnplugged: true,
  };
  writeJson(path.join(dir, "package.json"), manifest);
  fs.writeFileSync(
    path.join(dir, "README.md"),
    `# ${platform.package}\n\nThe \`aguify\` binary for ${key}. Install \`aguify\`, not this package: it picks the package of your platform.\n`,
  );
  return pack(dir, out);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = parseArgs(process.argv.slice(2));
  const version = cargoVersion(fs.readFileSync(path.join(root, "Cargo.toml"), "utf8"));
  fs.mkdirSync(args.out, { recursive: true });
  const out = fs.realpathSync(args.out);
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), "aguify-npm-"));
  try {
    const built = [buildLauncher(version, stage, out)];
    if (!args.launcherOnly) {
      built.push(buildPlatform(version, args.platform ?? thisPlatform(), args.binary, stage, out));
    }
    for (const file of built) console.log(file);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}
