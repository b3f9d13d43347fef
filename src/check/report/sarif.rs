//! `--format sarif`: SARIF 2.1.0 for code-scanning uploads.

use std::collections::BTreeSet;

use serde_json::{json, Value};

use super::Report;
use crate::check::rules;

pub fn render(report: &Report) -> String {
    let rule_list: BTreeSet<&str> = report.findings().map(|f| f.rule).collect();
    let rules_json: Vec<Value> = rule_list
        .iter()
        .map(|id| {
            let r = rules::get(id);
            json!({
                "id": r.id,
                "name": r.title,
                "shortDescription": {"text": r.title},
                "fullDescription": {"text": r.explanation},
                "help": {"text": format!("{} (spec: {})", r.fix, r.spec)},
                "defaultConfiguration": {"level": r.severity.as_str()},
            })
        })
        .collect();
    let results: Vec<Value> = report
        .findings()
        .map(|f| {
            let region = match f.line {
                0 => json!({}),
                line => json!({"startLine": line}),
            };
            json!({
                "ruleId": f.rule,
                "ruleIndex": rule_list.iter().position(|r| *r == f.rule),
                "level": f.severity.as_str(),
                "message": {"text": f.message},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": &*f.file},
                        "region": region,
                    }
                }],
                "properties": {"eventIndex": f.event_index, "eventType": f.event_type, "ids": f.ids},
            })
        })
        .collect();
    // `--max-warnings` exceeded: a failed invocation that says why.
    let invocation = match report.too_many_warnings() {
        Some(m) => json!({
            "executionSuccessful": false,
            "toolExecutionNotifications": [{"level": "error", "message": {"text": m}}],
        }),
        None => json!({"executionSuccessful": true}),
    };
    let v = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "aguify",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "rules": rules_json,
            }},
            "invocations": [invocation],
            "results": results,
        }],
    });
    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
}
