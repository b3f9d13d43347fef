//! `--format json`: one object with every finding (schema in docs/check.md).

use serde_json::{json, Value};

use super::Report;
use crate::check::rules;

pub fn render(report: &Report) -> String {
    let c = report.counts();
    let files: Vec<Value> = report
        .files
        .iter()
        .map(|f| {
            json!({
                "file": &*f.file,
                "family": f.family.map(|x| x.name()),
                "events": f.events,
                "officialValid": f.official_valid,
                "errors": f.findings.iter().filter(|x| x.severity == rules::Severity::Error).count(),
                "warnings": f.findings.iter().filter(|x| x.severity == rules::Severity::Warning).count(),
            })
        })
        .collect();
    let findings: Vec<Value> = report
        .files
        .iter()
        .flat_map(|f| &f.findings)
        .map(|f| {
            let r = rules::get(f.rule);
            json!({
                "rule": f.rule,
                "severity": f.severity.as_str(),
                "title": r.title,
                "spec": r.spec,
                "file": &*f.file,
                "line": f.line,
                "eventIndex": f.event_index,
                "eventType": f.event_type,
                "ids": f.ids,
                "message": f.message,
            })
        })
        .collect();
    let v = json!({
        "schema": "aguify-check/1",
        "summary": {
            "files": report.files.len(),
            "errors": c.errors,
            "warnings": c.warnings,
            "officialInvalid": report.official_invalid(),
        },
        "files": files,
        "findings": findings,
    });
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}
