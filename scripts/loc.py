#!/usr/bin/env python3
"""Code lines of the Rust sources, per crate and per file, and the functions over a limit.

A code line has code on it: blank lines, comments (`//`, `///`, `//!`, `/* */`) and
`#[cfg(test)]` items (test modules) are not counted, nor anything under tests/, benches/,
examples/ or fuzz/. A function's length is every line from its `fn` to its closing brace,
comments and blank lines included (the team's rule: a long explanation makes a long function too).

    scripts/loc.py                 the summary, the files over 800 and functions over 120
    scripts/loc.py --files         every file
    scripts/loc.py --fn-limit 80   functions over 80 lines (signature to closing brace)
"""

import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRATES = [("aguify-core", "crates/aguify-core/src"), ("aguify", "src")]


def code_mask(text):
    """For each character: True when it is code (string contents count), False in a comment."""
    mask = [True] * len(text)
    # `code` is the text with comments and string/char contents blanked, for brace matching.
    code = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                mask[k] = False
                code[k] = " "
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            for k in range(i, j):
                mask[k] = text[k] == "\n"
                if text[k] != "\n":
                    code[k] = " "
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 260]) and not (
            i and (text[i - 1].isalnum() or text[i - 1] == "_")
        ):
            hashes = len(re.match(r'r(#*)"', text[i:]).group(1))
            end = text.find('"' + "#" * hashes, i + 2 + hashes)
            end = n if end < 0 else end + 1 + hashes
            for k in range(i + 1, end):
                if text[k] != "\n":
                    code[k] = "s"
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            for k in range(i + 1, min(j, n)):
                if text[k] != "\n":
                    code[k] = "s"
            i = j + 1
        elif c == "'":
            # A char literal ('a', '\n', '\u{1F600}', '{') or a lifetime ('a).
            if text.startswith("\\", i + 1):
                j = text.find("'", i + 3)
                j = n if j < 0 else j
            elif i + 2 < n and text[i + 2] == "'":
                j = i + 2
            else:
                i += 1
                continue
            for k in range(i + 1, j):
                code[k] = "s"
            i = j + 1
        else:
            i += 1
    return mask, "".join(code)


def analyse(path):
    """(code lines, [(fn name, first line, code lines)]) of one file."""
    text = open(path, encoding="utf-8").read()
    mask, code = code_mask(text)
    line_of = []
    line = 0
    for ch in text:
        line_of.append(line)
        if ch == "\n":
            line += 1
    nlines = line + 1
    has_code = [False] * nlines
    for k, ch in enumerate(text):
        if mask[k] and not ch.isspace():
            has_code[line_of[k]] = True

    def item_end(start):
        """Where the item starting at `start` ends: its matching `}`, or its `;`."""
        depth = 0
        for k in range(start, len(code)):
            ch = code[k]
            if ch in "([":
                depth += 1
            elif ch in ")]":
                depth -= 1
            elif ch == "{":
                return match_brace(k)
            elif ch == ";" and depth == 0:
                return k
        return len(code) - 1

    def match_brace(open_at):
        depth = 0
        for k in range(open_at, len(code)):
            if code[k] == "{":
                depth += 1
            elif code[k] == "}":
                depth -= 1
                if depth == 0:
                    return k
        return len(code) - 1

    excluded = [False] * nlines
    for m in re.finditer(r"#\[cfg\(test\)\]", code):
        end = item_end(m.end())
        for ln in range(line_of[m.start()], line_of[end] + 1):
            excluded[ln] = True
    counted = [has_code[ln] and not excluded[ln] for ln in range(nlines)]
    fns = []
    for m in re.finditer(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)", code):
        first = line_of[m.start()]
        if excluded[first]:
            continue
        end = item_end(m.end())
        if code[end] != "}":
            continue  # a declaration without a body
        last = line_of[end]
        fns.append((m.group(1), first + 1, last - first + 1))
    return sum(counted), fns


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", action="store_true", help="list every file")
    ap.add_argument("--fn-limit", type=int, default=120)
    ap.add_argument("--file-limit", type=int, default=800)
    args = ap.parse_args()
    total = 0
    over_files, over_fns = [], []
    for crate, src in CRATES:
        base = os.path.join(ROOT, src)
        rows = []
        for dirpath, _, names in os.walk(base):
            for name in names:
                if name.endswith(".rs"):
                    path = os.path.join(dirpath, name)
                    lines, fns = analyse(path)
                    rel = os.path.relpath(path, ROOT)
                    rows.append((lines, rel))
                    over_fns += [(n, rel, f, ln) for f, ln, n in fns if n > args.fn_limit]
        crate_total = sum(r[0] for r in rows)
        total += crate_total
        print(f"{crate:12} {crate_total:6} code lines in {len(rows)} files ({src})")
        rows.sort(reverse=True)
        over_files += [r for r in rows if r[0] > args.file_limit]
        if args.files:
            for lines, rel in rows:
                print(f"  {lines:6}  {rel}")
    print(f"{'all':12} {total:6} code lines")
    print(f"\nfiles over {args.file_limit} code lines: {len(over_files)}")
    for lines, rel in sorted(over_files, reverse=True):
        print(f"  {lines:6}  {rel}")
    print(f"\nfunctions over {args.fn_limit} lines: {len(over_fns)}")
    for n, rel, f, ln in sorted(over_fns, reverse=True):
        print(f"  {n:6}  {rel}:{ln}  {f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
