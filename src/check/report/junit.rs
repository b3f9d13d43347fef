//! `--format junit`: one testcase per file (read: passes), and one per (file, rule) found,
//! failed when the rule's findings are errors: a finding fails one testcase, never two.

use std::fmt::Write;

use super::Report;
use crate::check::{rules, Finding, Severity};
use crate::text::markup_escape as esc;

/// Every testcase's class: one word, not a dotted path (viewers split classnames on dots).
const CLASSNAME: &str = "aguify-check";

pub fn render(report: &Report) -> String {
    let mut cases = String::new();
    let (mut tests, mut failures) = (0u64, 0u64);
    for file in &report.files {
        let (shown, more) = report.shown(file);
        // The file's own testcase says it was read; each finding fails (or notes) only its
        // rule's testcase below, so one error is one failure.
        tests += 1;
        let name = esc(&file.file);
        let case = format!("    <testcase classname=\"{CLASSNAME}\" name=\"{name}");
        let _ = writeln!(cases, "{case}\">\n    </testcase>");
        for r in &file.rule_counts {
            let (rule, sev) = (r.rule, r.severity.as_str());
            let fs: Vec<&Finding> = shown.iter().copied().filter(|f| f.rule == rule).collect();
            let mut text = String::new();
            for f in &fs {
                let _ = writeln!(text, "{} {sev}[{rule}] {}", super::place(f), f.message);
            }
            if let Some((_, n)) = more.iter().find(|(m, _)| *m == rule) {
                let _ = writeln!(text, "{}", super::more_line(*n, rule, &file.file));
            }
            let (text, title) = (esc(&text), esc(rules::get(rule).title));
            tests += 1;
            let _ = writeln!(cases, "{case} {rule} {title}\">");
            if let Some(f) = fs.first().filter(|_| r.severity == Severity::Error) {
                failures += 1;
                let m = esc(&f.message);
                let _ = writeln!(
                    cases,
                    "      <failure message=\"{m}\" type=\"{rule}\">{text}</failure>"
                );
            } else {
                let _ = writeln!(cases, "      <system-out>{text}</system-out>");
            }
            cases.push_str("    </testcase>\n");
        }
    }
    if let Some(m) = report.too_many_warnings() {
        tests += 1;
        failures += 1;
        let m = esc(&m);
        let _ = writeln!(cases, "    <testcase classname=\"{CLASSNAME}\" name=\"max-warnings\">\n      <failure message=\"{m}\" type=\"max-warnings\"/>\n    </testcase>");
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"aguify check\" tests=\"{tests}\" failures=\"{failures}\">\n  <testsuite name=\"aguify check\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">\n{cases}  </testsuite>\n</testsuites>\n"
    )
}
