//! `--format json`: one object with every finding (schema in docs/check.md).
//!
//! The findings are serialized one at a time (never a `Value` tree of the whole report), so the
//! report of a gigabyte log takes no more memory than its findings.

use std::io;

use serde::ser::{Serialize, SerializeSeq, Serializer};
use serde_json::{json, Value};

use super::{Finding, Report};
use crate::check::rules;

/// The report document; fields in output order.
#[derive(serde::Serialize)]
struct Doc<'a> {
    schema: &'static str,
    summary: Value,
    files: Vec<Value>,
    findings: Findings<'a>,
}

struct Findings<'a>(&'a Report);

fn finding(f: &Finding) -> Value {
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
}

impl Serialize for Findings<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let all = || self.0.files.iter().flat_map(|f| &f.findings);
        let mut seq = s.serialize_seq(Some(all().count()))?;
        for f in all() {
            seq.serialize_element(&finding(f))?;
        }
        seq.end()
    }
}

fn doc(report: &Report) -> Doc<'_> {
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
    Doc {
        schema: "aguify-check/1",
        summary: json!({
            "files": report.files.len(),
            "errors": c.errors,
            "warnings": c.warnings,
            "officialInvalid": report.official_invalid(),
        }),
        files,
        findings: Findings(report),
    }
}

pub fn render(report: &Report) -> String {
    let mut s = serde_json::to_string_pretty(&doc(report)).unwrap_or_default();
    s.push('\n');
    s
}

/// [`render`] straight into `w`.
pub fn write(report: &Report, w: &mut dyn io::Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *w, &doc(report))?;
    w.write_all(b"\n")
}
