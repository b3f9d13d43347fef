#!/usr/bin/env python3
"""Runs action.yml's steps as the GitHub runner runs a composite action's `run` steps.

    run_action.py ACTION_YML --input files=a.ndjson --input package-spec=dist/x.whl \
        --summary SUMMARY.md [--workdir DIR]

Each step's `env` gets its `${{ inputs.NAME }}` values (defaults from action.yml, then
--input); its script runs with `bash --noprofile --norc -eo pipefail`, as `shell: bash` does,
with GITHUB_PATH, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP and GITHUB_ACTION_PATH set;
folders a step appends to GITHUB_PATH are put first on PATH for the next steps. The first
failing step ends the run with its exit code. Any other `${{ }}` expression in a step is an
error: the action is kept to what this runs. Needs PyYAML.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import yaml

EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def substitute(text, inputs, where):
    def one(m):
        expr = m.group(1)
        if expr.startswith("inputs."):
            name = expr[len("inputs."):]
            if name not in inputs:
                sys.exit(f"run_action: {where}: unknown input {name}")
            return inputs[name]
        sys.exit(f"run_action: {where}: unsupported expression ${{{{ {expr} }}}}")

    return EXPR.sub(one, str(text))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("action")
    ap.add_argument("--input", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--summary", required=True)
    ap.add_argument("--workdir", default=os.getcwd())
    a = ap.parse_args()

    with open(a.action, encoding="utf-8") as f:
        action = yaml.safe_load(f)
    if action["runs"]["using"] != "composite":
        sys.exit("run_action: not a composite action")
    inputs = {name: str(spec.get("default", "")) for name, spec in action.get("inputs", {}).items()}
    for pair in a.input:
        name, _, value = pair.partition("=")
        if name not in inputs:
            sys.exit(f"run_action: action.yml has no input {name}")
        inputs[name] = value
    for name, spec in action.get("inputs", {}).items():
        if spec.get("required") and not inputs[name]:
            sys.exit(f"run_action: input {name} is required")

    with tempfile.TemporaryDirectory(prefix="aguify-action-") as temp:
        files = {k: os.path.join(temp, k.lower()) for k in ("GITHUB_PATH", "GITHUB_OUTPUT")}
        for path in files.values():
            open(path, "w").close()
        runner_temp = os.path.join(temp, "runner")
        os.mkdir(runner_temp)
        env = dict(os.environ)
        env.update(files)
        env.update(
            GITHUB_STEP_SUMMARY=os.path.abspath(a.summary),
            RUNNER_TEMP=runner_temp,
            GITHUB_ACTION_PATH=os.path.dirname(os.path.abspath(a.action)),
            GITHUB_WORKSPACE=os.path.abspath(a.workdir),
            GITHUB_ACTIONS="true",
        )
        for i, step in enumerate(action["runs"]["steps"]):
            where = f"step {i + 1} ({step.get('name', step.get('id', '?'))})"
            if step.get("shell") != "bash" or "run" not in step:
                sys.exit(f"run_action: {where}: only `run` steps with `shell: bash` are run")
            if EXPR.search(step["run"]):
                sys.exit(f"run_action: {where}: an expression inside `run`: pass it through env")
            step_env = dict(env)
            for key, value in (step.get("env") or {}).items():
                step_env[key] = substitute(value, inputs, where)
            script = os.path.join(temp, f"step{i + 1}.sh")
            with open(script, "w", encoding="utf-8") as f:
                f.write(step["run"])
            print(f"run_action: {where}", file=sys.stderr, flush=True)
            code = subprocess.call(
                ["bash", "--noprofile", "--norc", "-eo", "pipefail", script],
                env=step_env,
                cwd=a.workdir,
            )
            with open(files["GITHUB_PATH"], encoding="utf-8") as f:
                added = [line.strip() for line in f if line.strip()]
            open(files["GITHUB_PATH"], "w").close()
            for folder in added:
                env["PATH"] = folder + os.pathsep + env["PATH"]
            with open(files["GITHUB_OUTPUT"], encoding="utf-8") as f:
                for line in f:
                    if "=" in line and "id" in step:
                        key, _, value = line.rstrip("\n").partition("=")
                        print(f"run_action: output {step['id']}.{key}={value}", file=sys.stderr)
            open(files["GITHUB_OUTPUT"], "w").close()
            if code != 0:
                return code
    return 0


if __name__ == "__main__":
    sys.exit(main())
