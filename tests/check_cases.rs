//! Runs the checker over every case in testdata/check and compares with the `aguify` field of
//! its `.expected.json` (rule ids, in report order) and with the official client's verdict and,
//! where its verifier stopped the stream, its message.
//! `UPDATE_GOLDEN=1 cargo test --test check_cases` rewrites the `aguify` fields.

use std::path::{Path, PathBuf};

use aguify::check::{check_bytes, Config};
use aguify::pipeline::Options;
use serde_json::Value;

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/check");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("testdata/check")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("ndjson" | "sse")
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn check_cases_match_expected_and_official_verdict() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = vec![];
    let all = cases();
    assert!(
        all.len() >= 276,
        "expected the 266 cases (99 + the official client suite's 167), found {}",
        all.len()
    );
    for case in &all {
        let name = case
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let expected_path = case.with_extension("expected.json");
        let text = std::fs::read_to_string(&expected_path).expect("expected.json");
        let mut expected: Value = serde_json::from_str(&text).expect("expected.json parses");
        let bytes = std::fs::read(case).expect("case");
        let report =
            check_bytes(&name, bytes, &Options::default(), &Config::default()).expect("check");
        let rules: Vec<Value> = report
            .findings
            .iter()
            .map(|f| Value::String(f.rule.to_string()))
            .collect();
        let official = expected["official"]["valid"]
            .as_bool()
            .expect("official.valid");
        if report.official_valid != official {
            failures.push(format!(
                "{name}: verdict {} but the official client says {}; findings: {:?}",
                report.official_valid,
                official,
                report
                    .findings
                    .iter()
                    .map(|f| (f.rule, f.message.clone()))
                    .collect::<Vec<_>>()
            ));
        }
        // Where the client's verifier or chunk stage stopped the stream, aguify's first
        // finding of those families carries the client's exact message.
        let stage = expected["official"]["verifyStage"].as_str();
        if matches!(stage, Some("verify" | "transformChunks")) {
            let want = expected["official"]["verifyError"].as_str();
            let got = report
                .findings
                .iter()
                .find(|f| f.rule.starts_with("AGX1"))
                .map(|f| f.message.as_str());
            if got != want {
                failures.push(format!("{name}: message {got:?}, the client says {want:?}"));
            }
        }
        if update {
            expected["aguify"] = Value::Array(rules);
            let mut s = serde_json::to_string_pretty(&expected).expect("json");
            s.push('\n');
            std::fs::write(&expected_path, s).expect("write");
        } else if expected.get("aguify") != Some(&Value::Array(rules.clone())) {
            failures.push(format!(
                "{name}: findings {:?}, expected {:?} (UPDATE_GOLDEN=1 to accept)",
                rules,
                expected.get("aguify")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// What the client lets through but front ends break on is an error by default, so `check`
/// fails on it (issue 23 item 1, issue 29 item 4): each `lenient-*` case below finds its rule
/// as an error and exits 1.
#[test]
fn check_fails_on_what_breaks_front_ends() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/check");
    let cases = [
        ("89-lenient-no-terminal-event.ndjson", "AGX301"),
        ("90-lenient-run-error-after-run-finished.ndjson", "AGX302"),
        ("91-lenient-text-id-reused-after-close.ndjson", "AGX303"),
        ("93-lenient-tool-result-unknown-call.ndjson", "AGX305"),
        ("95-lenient-tool-args-not-json.ndjson", "AGX307"),
        ("108-lenient-state-delta-does-not-apply.ndjson", "AGX311"),
        ("109-lenient-tool-call-started-twice.ndjson", "AGX309"),
    ];
    for (case, rule) in cases {
        let path = dir.join(case);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_aguify"))
            .args(["check", "--format", "json"])
            .arg(&path)
            .output()
            .expect("run aguify");
        let report: Value = serde_json::from_slice(&out.stdout).expect("json report");
        let severities: Vec<&str> = report["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .filter(|f| f["rule"] == rule)
            .filter_map(|f| f["severity"].as_str())
            .collect();
        assert_eq!(severities, ["error"], "{case}: {rule} findings");
        assert_eq!(out.status.code(), Some(1), "{case}: exit code");
        assert_eq!(
            report["files"][0]["officialValid"],
            Value::Bool(true),
            "{case}: the client accepts it"
        );
    }
}
