//! `--format text`: grouped by file, one line per finding, a summary line.

use std::fmt::Write;

use owo_colors::OwoColorize;

use super::Report;
use crate::check::{Finding, Severity};

/// One finding as a line (also used by `convert` on stderr).
pub fn finding_line(f: &Finding, color: bool) -> String {
    let sev = match (f.severity, color) {
        (Severity::Error, true) => "error".red().bold().to_string(),
        (Severity::Warning, true) => "warning".yellow().bold().to_string(),
        (s, false) => s.as_str().to_string(),
    };
    let rule = if color {
        f.rule.bold().to_string()
    } else {
        f.rule.to_string()
    };
    let mut loc = format!("{}:{}", f.file, f.line);
    if let Some(i) = f.event_index {
        let _ = write!(loc, " event #{i}");
        if let Some(t) = &f.event_type {
            let _ = write!(loc, " {t}");
        }
    }
    let loc = if color { loc.dimmed().to_string() } else { loc };
    let ids = if f.ids.is_empty() {
        String::new()
    } else {
        format!(" [ids: {}]", f.ids.join(", "))
    };
    format!("{loc}: {sev}[{rule}] {}{ids}", f.message)
}

pub fn render(report: &Report, color: bool) -> String {
    let mut out = String::new();
    for file in &report.files {
        let head = file.file.to_string();
        let verdict = if file.official_valid {
            ""
        } else {
            " (the official client rejects this stream)"
        };
        if color {
            let _ = writeln!(out, "{}{verdict}", head.bold().underline());
        } else {
            let _ = writeln!(out, "{head}{verdict}");
        }
        if file.findings.is_empty() {
            let _ = writeln!(out, "  no findings ({} events)", file.events);
        }
        for f in &file.findings {
            let _ = writeln!(out, "  {}", finding_line(f, color));
        }
    }
    let line = super::summary_line(report.counts(), report.files.len());
    let _ = writeln!(out, "{line}");
    out
}
