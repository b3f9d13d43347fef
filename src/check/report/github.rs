//! `--format github`: workflow commands for GitHub Actions annotations.

use std::fmt::Write;

use super::Report;
use crate::text::{workflow_data as esc_data, workflow_property as esc_prop};

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for file in &report.files {
        let (shown, more) = report.shown(file);
        for f in shown {
            let (level, file, rule) = (f.severity.as_str(), esc_prop(&f.file), esc_prop(f.rule));
            let line = (f.line > 0).then(|| format!(",line={}", f.line));
            let event = f.event_index.map(|i| format!(" (event #{i})"));
            let (line, event) = (line.unwrap_or_default(), event.unwrap_or_default());
            let m = esc_data(&f.message);
            let _ = writeln!(out, "::{level} file={file}{line},title={rule}::{m}{event}");
        }
        let name = esc_prop(&file.file);
        for (rule, n) in more {
            let m = esc_data(&super::more_line(n, rule, &file.file));
            let _ = writeln!(out, "::notice file={name},title={}::{m}", esc_prop(rule));
        }
    }
    // Counts by rule, as plain log lines (GitHub shows only ~10 annotations per type).
    super::text::rule_lines(&report.by_rule(), &mut out);
    if let Some(m) = report.too_many_warnings() {
        let _ = writeln!(out, "::error title=aguify::{}", esc_data(&m));
    }
    let _ = writeln!(out, "{}", report.summary());
    out
}
