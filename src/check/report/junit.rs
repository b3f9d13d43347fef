//! `--format junit`: one testcase per file, and one per (file, rule) found.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::Report;
use crate::check::{rules, Finding, Severity};

pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => {}
            c => o.push(c),
        }
    }
    o
}

fn body(fs: &[&Finding]) -> String {
    let mut s = String::new();
    for f in fs {
        let _ = writeln!(
            s,
            "{}:{} {}[{}] {}",
            f.file,
            f.line,
            f.severity.as_str(),
            f.rule,
            f.message
        );
    }
    s
}

pub fn render(report: &Report) -> String {
    let mut cases = String::new();
    let (mut tests, mut failures) = (0u64, 0u64);
    for file in &report.files {
        let errors: Vec<&Finding> = file
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Error)
            .collect();
        tests += 1;
        let _ = writeln!(
            cases,
            "    <testcase classname=\"aguify.check\" name=\"{}\">",
            esc(&file.file)
        );
        if !errors.is_empty() {
            failures += 1;
            let _ = writeln!(
                cases,
                "      <failure message=\"{} error(s)\" type=\"error\">{}</failure>",
                errors.len(),
                esc(&body(&errors))
            );
        }
        cases.push_str("    </testcase>\n");
        let mut by_rule: BTreeMap<&str, Vec<&Finding>> = BTreeMap::new();
        for f in &file.findings {
            by_rule.entry(f.rule).or_default().push(f);
        }
        for (rule, fs) in by_rule {
            tests += 1;
            let title = rules::get(rule).title;
            let _ = writeln!(
                cases,
                "    <testcase classname=\"aguify.check.{}\" name=\"{rule} {}\">",
                esc(&file.file),
                esc(title)
            );
            if fs.iter().any(|f| f.severity == Severity::Error) {
                failures += 1;
                let _ = writeln!(
                    cases,
                    "      <failure message=\"{}\" type=\"{rule}\">{}</failure>",
                    esc(&fs[0].message),
                    esc(&body(&fs))
                );
            } else {
                let _ = writeln!(cases, "      <system-out>{}</system-out>", esc(&body(&fs)));
            }
            cases.push_str("    </testcase>\n");
        }
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"aguify check\" tests=\"{tests}\" failures=\"{failures}\">\n  <testsuite name=\"aguify check\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">\n{cases}  </testsuite>\n</testsuites>\n"
    )
}
