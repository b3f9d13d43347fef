#!/usr/bin/env bash
# The ways users install aguify, tested as they would use them (issue 38, issue 37 item 18):
#   1. the wheel (maturin, pyproject.toml) in a fresh venv with no Rust on PATH: `aguify` and
#      `python -m aguify` run --version, a convert and a check;
#   2. the npm packages (npm/build.mjs: the launcher + this platform's package, `npm pack`)
#      installed into a fresh project: the same through `npx`, and the launcher's errors;
#   3. action.yml's steps run as a script (scripts/run_action.py), installing the wheel of 1
#      through its package-spec input: annotations for a failing recording, a job summary;
#   4. the README's quick start pasted into a fresh clone of this commit (`cargo install --path
#      . --locked` into a scratch CARGO_INSTALL_ROOT: one release build).
# Before them, build.rs's version line is checked in a checkout and without one.
# Installs what it needs itself (maturin and PyYAML from PyPI into a venv); the wheel reuses
# the debug build `cargo test` left (maturin --profile dev); npm installs --offline from the
# tarballs. Run from anywhere: bash scripts/test_install.sh [--no-quickstart] (skips 4).
set -euo pipefail

# All in one function: bash reads it whole before running it, so an edit of this file while it
# runs does not change the run.
main() {
  quickstart=yes
  [ "${1:-}" = --no-quickstart ] && quickstart=no
  repo="$(cd "$(dirname "$0")/.." && pwd)"
  cd "$repo"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT

  MATURIN_VERSION=1.16.0
  PYYAML_VERSION=6.0.3
  version="$(node -e 'import("./npm/build.mjs").then(m => console.log(m.cargoVersion(require("fs").readFileSync("Cargo.toml", "utf8"))))')"
  commit="$(git log -1 --format=%H | cut -c1-9) $(git log -1 --format=%cs)"
  expected_version="aguify $version ($commit)"
  recording=testdata/recordings/v3-python/b_react_one_tool.ndjson

  fail() {
    echo "test_install: FAILED: $*" >&2
    exit 1
  }

  # expect_contains LABEL HAYSTACK NEEDLE
  expect_contains() {
    case "$2" in
      *"$3"*) ;;
      *) fail "$1: expected to contain [$3], got: ${2:0:2000}" ;;
    esac
  }

  # The installed command's answers, run as "$@" (aguify, npx aguify, python -m aguify).
  exercise() {
    local label="$1"
    shift
    local out status
    out="$("$@" --version)"
    [ "$out" = "$expected_version" ] || fail "$label --version: [$out], expected [$expected_version]"
    out="$("$@" convert "$repo/$recording")"
    expect_contains "$label convert" "$out" 'data: {"type":"RUN_STARTED"'
    expect_contains "$label convert" "$out" '"toolCallName":"get_weather"'
    expect_contains "$label convert" "$out" 'data: {"type":"RUN_FINISHED"'
    "$@" check "$repo/$recording" >/dev/null || fail "$label check of $recording: exit $?"
    status=0
    out="$("$@" check "$work/bad.ndjson" 2>&1)" || status=$?
    [ "$status" = 1 ] || fail "$label check of a failing recording: exit $status, expected 1: $out"
    expect_contains "$label check" "$out" "AGX110"
    echo "test_install: $label: --version, convert, check ok"
  }

  # A failing recording of our own: a text delta of a message that never started.
  printf '%s\n' \
    '{"type":"RUN_STARTED","threadId":"t","runId":"r"}' \
    '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"hi"}' \
    '{"type":"RUN_FINISHED","threadId":"t","runId":"r"}' >"$work/bad.ndjson"

  echo "== install: build.rs: the commit in --version, and its fallbacks without a checkout of its own"
  # The build script cargo test compiled, run as cargo runs it.
  build_script="$(ls -t target/debug/build/aguify-*/build-script-build | head -n 1)"
  run_build_script() { env CARGO_PKG_VERSION="$version" CARGO_MANIFEST_DIR="$1" "$build_script" | grep AGUIFY_VERSION; }
  mkdir "$work/no-git"
  [ "$(run_build_script "$repo")" = "cargo:rustc-env=AGUIFY_VERSION=$version ($commit)" ] ||
    fail "build.rs in the checkout: $(run_build_script "$repo")"
  [ "$(run_build_script "$work/no-git")" = "cargo:rustc-env=AGUIFY_VERSION=$version" ] ||
    fail "build.rs without .git: $(run_build_script "$work/no-git")"
  [ "$(run_build_script "$repo/src")" = "cargo:rustc-env=AGUIFY_VERSION=$version" ] ||
    fail "build.rs below another work tree's top: $(run_build_script "$repo/src")"
  [ "$(AGUIFY_BUILD_COMMIT="abcdef012 2027-01-02" run_build_script "$work/no-git")" = \
    "cargo:rustc-env=AGUIFY_VERSION=$version (abcdef012 2027-01-02)" ] || fail "build.rs with AGUIFY_BUILD_COMMIT"
  echo "test_install: build.rs ok"

  echo "== install: maturin $MATURIN_VERSION and PyYAML $PYYAML_VERSION into a venv"
  python3 -m venv "$work/tools"
  "$work/tools/bin/pip" install --quiet --disable-pip-version-check \
    "maturin==$MATURIN_VERSION" "PyYAML==$PYYAML_VERSION"

  echo "== install: the wheel (maturin --profile dev, reusing cargo test's build)"
  start=$SECONDS
  "$work/tools/bin/maturin" build --locked --profile dev --out "$work/wheels" >"$work/maturin.log" 2>&1 ||
    { cat "$work/maturin.log"; fail "maturin build"; }
  wheel="$(ls "$work"/wheels/aguify-"$version"-*.whl)"
  echo "test_install: built $(basename "$wheel") in $((SECONDS - start)) s"

  echo "== install: pip install the wheel into a fresh venv, run it with no Rust on PATH"
  python3 -m venv "$work/py"
  "$work/py/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
  clean_env=(env -i HOME="$work" LANG=C.UTF-8 PATH="$work/py/bin:/usr/bin:/bin")
  if "${clean_env[@]}" sh -c 'command -v cargo || command -v rustc'; then
    fail "cargo or rustc is on the clean PATH"
  fi
  [ "$("${clean_env[@]}" sh -c 'command -v aguify')" = "$work/py/bin/aguify" ] || fail "aguify is not the venv's"
  exercise "pip: aguify" "${clean_env[@]}" aguify
  exercise "pip: python -m aguify" "${clean_env[@]}" python -m aguify
  "$work/py/bin/pip" uninstall --quiet --yes aguify
  [ ! -e "$work/py/bin/aguify" ] || fail "pip uninstall left $work/py/bin/aguify"

  echo "== install: npm packages (npm/build.mjs, npm pack) into a fresh project, run through npx"
  # The binary: the wheel's (stripped), as a release copies one binary into both.
  python3 -m venv "$work/py2"
  "$work/py2/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
  node npm/build.mjs --binary "$work/py2/bin/aguify" --out "$work/npm" >"$work/npm-built.txt"
  launcher="$(grep "/aguify-$version.tgz\$" "$work/npm-built.txt")"
  platform="$(grep -v "/aguify-$version.tgz\$" "$work/npm-built.txt")"
  mkdir "$work/project"
  (
    cd "$work/project"
    echo '{"name": "aguify-install-test", "version": "1.0.0", "private": true}' >package.json
    # --offline: the other platforms' optional packages are not fetched (npm skips them).
    npm install --offline --no-audit --no-fund --loglevel=error "$launcher" "$platform"
    exercise "npm: npx aguify" npx --no-install aguify
    status=0
    out="$(node -e 'Object.defineProperty(process, "arch", { value: "mips" });
      process.argv = [process.argv[0], "aguify", "--version"];
      require("./node_modules/aguify/bin/aguify.js")' 2>&1)" || status=$?
    [ "$status" = 2 ] || fail "launcher on an unsupported platform: exit $status"
    expect_contains "launcher on an unsupported platform" "$out" "no prebuilt binary for this platform (linux-mips-gnu)"
    # As after `npm install --omit=optional`: the platform package is not there.
    rm -rf "node_modules/$(basename "${platform%-"$version".tgz}")"
    status=0
    out="$(npx --no-install aguify --version 2>&1)" || status=$?
    [ "$status" = 2 ] || fail "launcher without its platform package: exit $status"
    expect_contains "launcher without its platform package" "$out" "is not installed"
    echo "test_install: npm: the launcher's errors ok"
  )

  echo "== install: action.yml's steps as a script, installing the wheel (package-spec)"
  mkdir "$work/action"
  cp "$work/bad.ndjson" "$work/action/bad.ndjson"
  cp "$recording" "$work/action/good.ndjson"
  status=0
  out="$("$work/tools/bin/python" scripts/run_action.py action.yml --workdir "$work/action" \
    --input "files=bad.ndjson good.ndjson" --input "package-spec=$wheel" \
    --summary "$work/action/summary.md" 2>&1)" || status=$?
  [ "$status" = 1 ] || fail "action on a failing recording: exit $status, expected 1: $out"
  expect_contains "action annotations" "$out" "::error file=bad.ndjson,line=2,title=AGX110::"
  expect_contains "action output" "$out" "output check.exit-code=1"
  summary="$(cat "$work/action/summary.md")"
  expect_contains "action summary" "$summary" "### aguify check: ❌ 1 of 2 files failing"
  expect_contains "action summary" "$summary" '| `good.ndjson` | ✅ pass |'
  status=0
  out="$("$work/tools/bin/python" scripts/run_action.py action.yml --workdir "$work/action" \
    --input "files=good.ndjson" --input "package-spec=$wheel" --input summary=false \
    --summary "$work/action/summary2.md" 2>&1)" || status=$?
  [ "$status" = 0 ] || fail "action on a passing recording: exit $status: $out"
  [ ! -s "$work/action/summary2.md" ] || fail "summary=false wrote a summary"
  echo "test_install: action: annotations, summary, exit codes ok"

  if [ "$quickstart" = no ]; then
    echo "test_install: the quick start skipped (--no-quickstart); the other 3 ways ok"
    exit 0
  fi
  echo "== install: the README's quick start pasted into a fresh clone (one release build)"
  git clone --quiet "$repo" "$work/clone"
  awk '/^## Quick start/ { on = 1; next } on && /^```sh$/ { code = 1; next }
       code && /^```$/ { exit } code { print }' README.md >"$work/quickstart.sh"
  grep -q 'cargo install --path . --locked' "$work/quickstart.sh" || fail "the quick start has no install line"
  start=$SECONDS
  (
    cd "$work/clone"
    export CARGO_INSTALL_ROOT="$work/cargo-root" PATH="$work/cargo-root/bin:$PATH"
    bash -euo pipefail "$work/quickstart.sh" >"$work/quickstart.out" 2>"$work/quickstart.err" ||
      { tail -n 40 "$work/quickstart.err"; fail "the quick start, pasted: exit $?"; }
    [ "$(command -v aguify)" = "$work/cargo-root/bin/aguify" ] || fail "aguify is not cargo install's"
    exercise "cargo install: aguify" aguify
  )
  echo "test_install: quick start ok in $((SECONDS - start)) s"
  echo "test_install: all 4 ways ok"
}

main "$@"
