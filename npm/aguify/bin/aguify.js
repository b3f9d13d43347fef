#!/usr/bin/env node
// The `aguify` command of the npm package: runs the binary held by this platform's package
// (installed as an optional dependency, as biome and esbuild ship theirs) with the same
// arguments, stdin, stdout and stderr, and exits with its code.
"use strict";

const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const PLATFORMS = require("../platforms.json");

/** The key of this machine in platforms.json: `linux-x64-gnu`, `darwin-arm64`, … */
function platformKey() {
  const key = `${process.platform}-${process.arch}`;
  if (process.platform !== "linux") return key;
  return `${key}-${isMusl() ? "musl" : "gnu"}`;
}

/** Whether Node runs on musl (Alpine): its report names a glibc version only on glibc. */
function isMusl() {
  try {
    if (process.report) {
      process.report.excludeNetwork = true;
      return !process.report.getReport().header.glibcVersionRuntime;
    }
  } catch {
    // no report: fall back to the loader's file
  }
  try {
    return fs.readdirSync("/lib").some((name) => name.startsWith("ld-musl-"));
  } catch {
    return false;
  }
}

function fail(message) {
  process.stderr.write(`aguify: ${message}\n`);
  process.exit(2);
}

function binaryPath() {
  if (process.env.AGUIFY_BINARY) return process.env.AGUIFY_BINARY;
  const key = platformKey();
  const platform = PLATFORMS[key];
  const supported = Object.keys(PLATFORMS).filter((k) => k !== "//");
  if (!platform || key === "//") {
    fail(
      `no prebuilt binary for this platform (${key}); the npm package has ${supported.join(", ")}.\n` +
        "Install with pip (pip install aguify) or cargo (cargo install aguify --locked), " +
        "or set AGUIFY_BINARY to the path of an aguify binary.",
    );
  }
  const file = `bin/aguify${platform.exe || ""}`;
  try {
    return require.resolve(`${platform.package}/${file}`);
  } catch {
    fail(
      `the package ${platform.package}, which holds the binary for ${key}, is not installed.\n` +
        "npm installs it as an optional dependency of aguify: reinstall without " +
        "--omit=optional / --no-optional (and with the same platform as this machine), " +
        "or set AGUIFY_BINARY to the path of an aguify binary.",
    );
  }
}

const binary = binaryPath();
const result = spawnSync(binary, process.argv.slice(2), { stdio: "inherit" });
if (result.error) {
  fail(`cannot run ${binary}: ${result.error.message}`);
}
if (result.signal) {
  // Die of the same signal, so the caller sees what the binary saw.
  process.kill(process.pid, result.signal);
}
process.exit(result.status ?? 2);
