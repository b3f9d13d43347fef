#!/usr/bin/env python3
"""aguify's output judged by the official AG-UI Python SDK (ag-ui-protocol 1.0).

    python agui_validate.py FILE...
        validates every event of each NDJSON AG-UI stream ('-' reads stdin)
    python agui_validate.py --bin PATH_TO_AGUIFY [--recordings DIR]
        converts every recording under testdata/recordings (a resumed thread
        X__1_*.ndjson, X__2_*.ndjson... is one case, its files in order) with
        `aguify convert --to ndjson` in each variant below and validates the output

Every event is parsed into its event class by the SDK's own discriminated union
(`ag_ui.core.Event`, keyed on `type`) with the SDK's model config: no rule is
added or relaxed here. A conversion passes when aguify exits 0, prints at least
one event, and every line validates. Ends with `N passed, N failed`; exit 1 on
any failure, 2 on a usage error.
"""

import json
import os
import re
import subprocess
import sys

from pydantic import TypeAdapter, ValidationError

from ag_ui.core import Event

EVENT = TypeAdapter(Event)

# aguify output that claims to be AG-UI 1.0 (the `--compat thinking` form is
# 0.x output and is judged by the 0.0.x clients instead).
VARIANTS = [
    [],
    ["--tool-steps", "reasoning"],
    ["--text", "final"],
]

RESUMED = re.compile(r"^(.*)__(\d+)_[^/]*\.ndjson$")


def first_error(err: ValidationError) -> str:
    e = err.errors(include_url=False)[0]
    where = ".".join(str(p) for p in e["loc"])
    return f"{where}: {e['msg']}" + (f" ({len(err.errors())} errors)" if len(err.errors()) > 1 else "")


def validate_stream(text: str):
    """Returns (events, problems); each problem is 'line N TYPE: message'."""
    events = 0
    problems = []
    for n, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        events += 1
        try:
            EVENT.validate_json(line)
        except ValidationError as err:
            try:
                kind = json.loads(line).get("type", "?")
            except (ValueError, AttributeError):
                kind = "?"
            problems.append(f"line {n} {kind}: {first_error(err)}")
    return events, problems


def walk(root):
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        out.extend(os.path.join(dirpath, f) for f in sorted(filenames) if f.endswith((".ndjson", ".sse")))
    return sorted(out)


def group_recordings(files):
    """The grouping of conformance/run-all.mjs: a resumed thread is one case."""
    cases, groups = [], {}
    for f in files:
        m = RESUMED.match(os.path.basename(f))
        if m:
            key = os.path.join(os.path.dirname(f), m.group(1))
            if key not in groups:
                groups[key] = []
                cases.append((key, groups[key]))
            groups[key].append((int(m.group(2)), f))
        else:
            cases.append((f, [(0, f)]))
    return [(name, [f for _, f in sorted(fs)]) for name, fs in cases]


def run_recordings(binary, root):
    if not os.path.isdir(root):
        print(f"agui_validate: no recordings folder at {root}", file=sys.stderr)
        return 2
    cases = group_recordings(walk(root))
    passed = failed = 0
    for name, files in cases:
        shown = os.path.relpath(name)
        for variant in VARIANTS:
            label = f"{shown}{f' ({len(files)} files)' if len(files) > 1 else ''} --to ndjson {' '.join(variant)}".rstrip()
            run = subprocess.run([binary, "convert", "--to", "ndjson", *variant, *files], capture_output=True)
            problem = None
            if run.returncode != 0:
                err = " | ".join(run.stderr.decode("utf-8", "replace").strip().split("\n")[-3:])
                problem = f"aguify exited {run.returncode}: {err}"
            else:
                events, problems = validate_stream(run.stdout.decode("utf-8"))
                if events == 0:
                    problem = "output holds no events"
                elif problems:
                    problem = f"{len(problems)} invalid event(s); first: {problems[0]}"
            if problem:
                failed += 1
                print(f"FAIL {label}: {problem}")
            else:
                passed += 1
                print(f"ok   {label}: {events} events")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not cases else 0


def main(argv):
    if argv and argv[0] == "--bin":
        rest = argv[1:]
        if not rest:
            print(__doc__, file=sys.stderr)
            return 2
        binary = os.path.abspath(rest[0]) if "/" in rest[0] else rest[0]
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "testdata", "recordings")
        if rest[1:2] == ["--recordings"] and len(rest) == 3:
            root = rest[2]
        elif len(rest) != 1:
            print(__doc__, file=sys.stderr)
            return 2
        return run_recordings(binary, os.path.normpath(root))
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__, file=sys.stderr if not argv else sys.stdout)
        return 2 if not argv else 0
    bad = 0
    for path in argv:
        try:
            text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        except OSError as err:
            print(f"agui_validate: {path}: {err.strerror}", file=sys.stderr)
            return 2
        events, problems = validate_stream(text)
        print(json.dumps({"file": path, "events": events, "invalid": len(problems), "first": problems[0] if problems else None, "valid": not problems and events > 0}))
        bad += bool(problems) or events == 0
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
