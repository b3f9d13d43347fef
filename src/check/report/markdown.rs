//! `--format markdown`: a compact summary for a CI job page (GitHub's `$GITHUB_STEP_SUMMARY`):
//! a verdict per file, the findings counted per rule, and the first findings with links to
//! their input lines. Links are relative to the repository's root unless a base is given
//! (`aguify check` takes it from GitHub Actions' environment; docs/check.md).

use std::fmt::Write;

use super::Report;
use crate::check::{rules, FileReport, Finding, Severity};
use crate::text::count;

/// Findings listed one by one (the rest are counted).
pub const FIRST_FINDINGS: usize = 20;
/// Files listed in the verdict table (the rest are counted).
pub const MAX_FILES: usize = 200;

/// Text safe in a Markdown table cell or list item: the characters Markdown gives a meaning
/// to are escaped, newlines and tabs become spaces, other controls, bidi controls and line
/// separators are written as escapes ([`crate::text::printable`]).
fn esc(s: &str) -> String {
    let spaced = s.replace(['\n', '\r', '\t'], " ");
    let mut out = String::with_capacity(s.len());
    for c in crate::text::printable(&spaced).chars() {
        if "\\`*_[]<>|#~!".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A path in a code span (a backtick in it gets a longer fence), controls escaped.
fn code(s: &str) -> String {
    let s = crate::text::printable(s);
    if s.contains('`') {
        format!("`` {s} ``")
    } else {
        format!("`{s}`")
    }
}

/// A link target: the path with `%`, spaces and parentheses encoded.
pub fn target(base: &str, file: &str, line: u64) -> String {
    let mut t = String::from(base);
    for c in file.trim_start_matches("./").chars() {
        // Percent-encoded: what ends or escapes a link target, and controls.
        if matches!(c, ' ' | '(' | ')' | '%') || crate::text::is_unsafe(c) {
            for b in c.encode_utf8(&mut [0; 4]).bytes() {
                let _ = write!(t, "%{b:02X}");
            }
        } else {
            t.push(c);
        }
    }
    if line > 0 {
        let _ = write!(t, "#L{line}");
    }
    t
}

fn verdict(f: &FileReport) -> String {
    let c = f.counts();
    let v = match (c.errors, c.warnings) {
        (0, 0) => "✅ pass",
        (0, _) => "⚠️ warnings",
        _ => "❌ fail",
    };
    let rejects = if f.official_valid {
        ""
    } else {
        " · the official client rejects it"
    };
    format!("{v}{rejects}")
}

/// Where a finding's `file:line` links to (`None`: no link).
pub type Link<'a> = &'a dyn Fn(&str, u64) -> Option<String>;

fn finding_line(f: &Finding, link: Link<'_>) -> String {
    let icon = match f.severity {
        Severity::Error => "❌",
        Severity::Warning => "⚠️",
    };
    let mut out = format!("- {icon} **{}** ", f.rule);
    let place = code(&super::place(f));
    let linked = f.line > 0 && !f.file.is_empty() && &*f.file != "-";
    let _ = match linked.then(|| link(&f.file, f.line)).flatten() {
        Some(url) => write!(out, "[{place}]({url})"),
        None => write!(out, "{place}"),
    };
    out += &super::event_part(f, code);
    let _ = write!(out, ": {}", esc(&f.message));
    if !f.ids.is_empty() {
        let _ = write!(out, " (ids: {})", esc(&f.ids.join(", ")));
    }
    out
}

/// The summary; `base` is put before each file path in links (`""`: relative links).
pub fn render(report: &Report, base: &str) -> String {
    render_linked(report, &|file, line| Some(target(base, file, line)))
}

/// The summary, each finding's place linked where `link` says (a job summary needs links
/// to the repository's files at the commit; `aguify check` makes them).
pub fn render_linked(report: &Report, link: Link<'_>) -> String {
    let c = report.counts();
    let failing = report.files.iter().filter(|f| f.counts().errors > 0);
    let mut out = String::new();
    let files = count(report.files.len(), "file");
    let head = match failing.count() {
        0 => format!("✅ {files} passing"),
        failing => format!("❌ {failing} of {files} failing"),
    };
    let _ = writeln!(out, "### aguify check: {head} · {}\n", c.said());
    out.push_str("| file | verdict | events | errors | warnings |\n|---|---|--:|--:|--:|\n");
    for f in report.files.iter().take(MAX_FILES) {
        let (c, file, verdict) = (f.counts(), code(&f.file), verdict(f));
        let _ = writeln!(
            out,
            "| {file} | {verdict} | {} | {} | {} |",
            f.events, c.errors, c.warnings
        );
    }
    if report.files.len() > MAX_FILES {
        let _ = writeln!(
            out,
            "\n… and {} (`aguify check --format text` lists them all)",
            count(report.files.len() - MAX_FILES, "more file")
        );
    }
    let mut rows = report.by_rule();
    if !rows.is_empty() {
        rows.sort_by_key(|r| (std::cmp::Reverse(r.count), r.rule));
        out.push_str("\n#### Findings per rule\n\n");
        out.push_str("| rule | severity | findings | title |\n|---|---|--:|---|\n");
        for r in rows {
            let (sev, title) = (r.severity.as_str(), esc(rules::get(r.rule).title));
            let _ = writeln!(out, "| {} | {sev} | {} | {title} |", r.rule, r.count);
        }
        let _ = writeln!(out, "\n#### First findings\n");
        for f in report.findings().take(FIRST_FINDINGS) {
            let _ = writeln!(out, "{}", finding_line(f, link));
        }
        let total = c.errors + c.warnings;
        if total > FIRST_FINDINGS as u64 {
            let _ = writeln!(
                out,
                "\n… and {} (`aguify check --format text` lists them; \
                 `aguify check --explain RULE` explains a rule)",
                count(total as usize - FIRST_FINDINGS, "more finding")
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_characters_are_escaped_and_paths_linked() {
        assert_eq!(esc("a|b *c* <d>\nx"), r"a\|b \*c\* \<d\> x");
        assert_eq!(target("", "./a b(1).ndjson", 3), "a%20b%281%29.ndjson#L3");
        assert_eq!(
            target("https://github.com/o/r/blob/abc/", "t.ndjson", 0),
            "https://github.com/o/r/blob/abc/t.ndjson"
        );
        assert_eq!(code("a`b"), "`` a`b ``");
    }

    #[test]
    fn only_the_first_findings_are_listed() {
        let f = |line| Finding {
            rule: "AGX301",
            severity: Severity::Warning,
            file: "t.ndjson".into(),
            line,
            event_index: None,
            event_type: None,
            ids: vec![],
            message: "m".into(),
        };
        let report = Report {
            files: vec![FileReport {
                file: "t.ndjson".into(),
                family: None,
                events: 3,
                findings: (1..=25).map(f).collect(),
                rule_counts: vec![crate::check::RuleCount {
                    rule: "AGX301",
                    severity: Severity::Warning,
                    count: 25,
                }],
                official_valid: true,
                read: true,
                stopped: None,
            }],
            ..Report::default()
        };
        let md = render(&report, "");
        assert_eq!(md.matches("- ⚠️ **AGX301**").count(), FIRST_FINDINGS);
        assert!(md.contains("… and 5 more findings"), "{md}");
        assert!(
            md.contains("| `t.ndjson` | ⚠️ warnings | 3 | 0 | 25 |"),
            "{md}"
        );
        assert!(md.contains("| AGX301 | warning | 25 |"), "{md}");
    }
}
