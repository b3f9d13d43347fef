//! `--format github`: workflow commands for GitHub Actions annotations.

use std::fmt::Write;

use super::Report;
use crate::check::Severity;

fn esc_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

fn esc_prop(s: &str) -> String {
    esc_data(s).replace(':', "%3A").replace(',', "%2C")
}

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for f in report.files.iter().flat_map(|f| &f.findings) {
        let level = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
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
    out
}
