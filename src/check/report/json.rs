//! `--format json`: one object with every finding (schema in docs/check.md).
//!
//! The findings are serialized borrowed, through their derived `Serialize` (never a `Value` tree
//! of the whole report), so the report of a gigabyte log takes little more memory than its findings.

use std::collections::BTreeMap;
use std::io;

use serde_json::{json, Value};

use super::{Finding, Report, RuleCount};

/// The report document; fields in output order.
#[derive(serde::Serialize)]
struct Doc<'a> {
    schema: &'static str,
    summary: Value,
    files: Vec<Value>,
    findings: Vec<&'a Finding>,
}

/// Rule counts as an object: rule id → count.
fn by_rule(counts: &[RuleCount]) -> BTreeMap<&str, u64> {
    counts.iter().map(|r| (r.rule, r.count)).collect()
}

fn doc(report: &Report) -> Doc<'_> {
    let c = report.counts();
    let files: Vec<Value> = report
        .files
        .iter()
        .map(|f| {
            let n = f.counts();
            json!({
                "file": &*f.file,
                "family": f.family.map(|x| x.name()),
                "events": f.events,
                // Nothing read: nothing to judge.
                "officialValid": f.read.then_some(f.official_valid),
                "errors": n.errors,
                "warnings": n.warnings,
                "byRule": by_rule(&f.rule_counts),
                // Findings counted but not listed (more than `KEEP_PER_RULE` of a rule).
                "omitted": n.errors + n.warnings - f.findings.len() as u64,
            })
        })
        .collect();
    Doc {
        schema: "aguify-check/1",
        summary: json!({
            "files": report.files.len(),
            "errors": c.errors,
            "warnings": c.warnings,
            "officialInvalid": report.official_invalid(),
            "byRule": by_rule(&report.by_rule()),
            "maxWarnings": report.max_warnings,
            "tooManyWarnings": report.too_many_warnings(),
        }),
        files,
        findings: report.findings().collect(),
    }
}

/// The report, written straight into `w`.
pub fn write(report: &Report, w: &mut dyn io::Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *w, &doc(report))?;
    w.write_all(b"\n")
}
