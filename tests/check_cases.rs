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
        all.len() >= 274,
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
