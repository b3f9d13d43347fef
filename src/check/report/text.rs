//! `--format text`: the files with findings, each under its heading, one line per finding
//! (the first few of each rule), then counts by rule and a summary line.

use std::fmt::Write;

use owo_colors::OwoColorize;

use super::Report;
use crate::check::{Finding, RuleCount, Severity};

pub use crate::text::printable;

/// One finding as a line; `with_file` names the file (`convert` on stderr; else the line
/// number alone).
pub fn finding_text(f: &Finding, color: bool, with_file: bool) -> String {
    let (sev, rule) = (f.severity.as_str(), f.rule);
    let (sev, rule) = match (f.severity, color) {
        (_, false) => (sev.to_string(), rule.to_string()),
        (Severity::Error, true) => (sev.red().bold().to_string(), rule.bold().to_string()),
        (Severity::Warning, true) => (sev.yellow().bold().to_string(), rule.bold().to_string()),
    };
    let mut loc = match (with_file, f.line) {
        (true, _) => printable(&super::place(f)).into_owned(),
        (false, 0) => String::new(),
        (false, n) => n.to_string(),
    };
    loc += &super::event_part(f, |t| printable(t).into_owned());
    let loc = loc.trim_start().to_string();
    let loc = match (loc.is_empty(), color) {
        (true, _) => String::new(),
        (false, true) => format!("{}: ", loc.dimmed()),
        (false, false) => format!("{loc}: "),
    };
    let ids = (!f.ids.is_empty()).then(|| format!(" [ids: {}]", printable(&f.ids.join(", "))));
    let (m, ids) = (printable(&f.message), ids.unwrap_or_default());
    format!("{loc}{sev}[{rule}] {m}{ids}")
}

/// `--statistics`: the findings counted by rule, and the summary line.
pub fn statistics(report: &Report) -> String {
    let mut out = String::new();
    rule_lines(&report.by_rule(), &mut out);
    let _ = writeln!(out, "{}", report.summary());
    out
}

/// One line per rule found: its count, id, severity and title.
pub(super) fn rule_lines(by_rule: &[RuleCount], out: &mut String) {
    for r in by_rule {
        let (n, rule, sev) = (r.count, r.rule, r.severity.as_str());
        let title = crate::check::rules::get(rule).title;
        let _ = writeln!(out, "{n:>8}  {rule}  {sev:<7}  {title}");
    }
}

pub fn render(report: &Report, color: bool) -> String {
    let mut out = String::new();
    let mut clean = 0;
    for file in &report.files {
        let head = printable(&file.file);
        if file.rule_counts.is_empty() {
            clean += 1;
            if report.verbose {
                let _ = writeln!(out, "{head}: no findings ({} events)", file.events);
            }
            continue;
        }
        let verdict = if file.official_valid || !file.read {
            ""
        } else {
            " (the official client rejects this stream)"
        };
        if color {
            let _ = writeln!(out, "{}{verdict}", head.bold().underline());
        } else {
            let _ = writeln!(out, "{head}{verdict}");
        }
        let (shown, more) = report.shown(file);
        for f in shown {
            let _ = writeln!(out, "  {}", finding_text(f, color, false));
        }
        for (rule, n) in more {
            let _ = writeln!(out, "  {}", super::more_line(n, rule, &head));
        }
    }
    let by_rule = report.by_rule();
    if !by_rule.is_empty() {
        let _ = writeln!(out, "Findings by rule:");
        rule_lines(&by_rule, &mut out);
    }
    if by_rule.iter().any(|r| r.rule == "AGX202") {
        let _ = writeln!(
            out,
            "hint: THINKING_* events are what `convert --compat thinking` writes for 0.x \
             clients; `aguify check --compat thinking` checks such a stream"
        );
    }
    if let Some(m) = report.too_many_warnings() {
        let _ = writeln!(out, "{m}");
    }
    let mut line = report.summary();
    if clean > 0 && clean < report.files.len() {
        let _ = write!(line, " ({clean} clean)");
    }
    let _ = writeln!(out, "{line}");
    out
}
