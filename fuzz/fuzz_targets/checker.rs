//! Bytes → the whole `aguify check` path on one in-memory file (`check::check_bytes`: framing,
//! detection, conversion, every rule family, the SSE transport checks), then every report
//! format. Never panics, and the report is produced and consistent.
#![no_main]

mod common;

use aguify::check::report::{Format, Report};
use aguify::check::{self, rules, Config};
use aguify::pipeline::Options;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let opts = Options {
        // Small, so the long-line path is reached too (`--max-line-bytes 4096`).
        max_line_bytes: 4096,
        ..Options::default()
    };
    let file = match check::check_bytes("fuzz", data.to_vec(), &opts, &Config::default()) {
        Ok(f) => f,
        Err(e) => panic!("check failed on in-memory input: {e}"),
    };
    assert_eq!(&*file.file, "fuzz");
    let mut official = false;
    for f in &file.findings {
        let Some(rule) = rules::find(f.rule) else {
            panic!("finding names an unknown rule: {f:?}");
        };
        // No --allow/--deny: every finding has its rule's own severity.
        assert_eq!(f.severity, rule.severity, "{f:?}");
        official |= rule.official;
        if let Some(i) = f.event_index {
            assert!(
                i < file.events,
                "event index {i} of {} events: {f:?}",
                file.events
            );
        }
    }
    // A file of which nothing was read has one finding (AGX505); its verdict is the client's
    // (it fails on an unreadable line), shown as `null`.
    if file.read {
        assert_eq!(
            file.official_valid, !official,
            "official verdict vs the official rules that fired"
        );
    }
    assert!(
        file.findings.windows(2).all(|w| w[0].line <= w[1].line),
        "findings sorted by line"
    );
    let n = file.findings.len();
    let report = Report {
        files: vec![file],
        ..Report::default()
    };
    for format in [
        Format::Text,
        Format::Json,
        Format::Github,
        Format::Junit,
        Format::Sarif,
    ] {
        let out = report.render(format, true);
        if matches!(format, Format::Github) {
            // One workflow command per finding shown (at most all of them; text from the
            // input never starts a line of its own), then counts by rule and the summary.
            let annotations = out
                .lines()
                .filter(|l| l.starts_with("::error ") || l.starts_with("::warning "))
                .count();
            assert!(annotations <= n, "{out}");
            assert!(
                out.lines().last().is_some_and(|l| l.contains(" checked: ")),
                "{out}"
            );
            continue;
        }
        assert!(!out.is_empty(), "empty report");
        if matches!(format, Format::Json | Format::Sarif) {
            let v: Value = match serde_json::from_str(&out) {
                Ok(v) => v,
                Err(e) => panic!("report is not JSON: {e}\n{out}"),
            };
            if matches!(format, Format::Json) {
                assert_eq!(v["findings"].as_array().map(Vec::len), Some(n));
                assert_eq!(v["summary"]["files"], 1);
            }
        }
    }
});
