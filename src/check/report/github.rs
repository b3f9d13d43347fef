//! `--format github`: workflow commands for GitHub Actions annotations.

use std::fmt::Write;

use super::Report;
use crate::text::{workflow_data as esc_data, workflow_property as esc_prop};

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for file in &report.files {
        let (shown, more) = report.shown(file);
        for f in shown {
            let level = f.severity.as_str();
            let mut props = format!("file={}", esc_prop(&f.file));
            if f.line > 0 {
                let _ = write!(props, ",line={}", f.line);
            }
            let _ = write!(props, ",title={}", esc_prop(f.rule));
            let mut msg = f.message.clone();
            if let Some(i) = f.event_index {
                let _ = write!(msg, " (event #{i})");
            }
            let _ = writeln!(out, "::{level} {props}::{}", esc_data(&msg));
        }
        for (rule, n) in more {
            let _ = writeln!(
                out,
                "::notice file={},title={}::{}",
                esc_prop(&file.file),
                esc_prop(rule),
                esc_data(&super::more_line(n, rule, &file.file))
            );
        }
    }
    // Counts by rule, as plain log lines (GitHub shows only ~10 annotations per type).
    super::text::rule_lines(&report.by_rule(), &mut out);
    if let Some(m) = report.too_many_warnings() {
        let _ = writeln!(out, "::error title=aguify::{}", esc_data(&m));
    }
    let _ = writeln!(
        out,
        "{}",
        super::summary_line(report.counts(), report.files.len())
    );
    out
}
