//! Runs the checker over every case in testdata/check and compares with the `aguify` field of
//! its `.expected.json` (rule ids, in report order) and with the official client's verdict and,
//! where its verifier stopped the stream, its message.
//! `UPDATE_GOLDEN=1 cargo test --test check_cases` rewrites the `aguify` fields. The streams
//! written inline below check one family of rules each.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use aguify::check::{check_bytes, Checker, Config, Severity};
use aguify::input::Origin;
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

// Streams written inline: one family of rules each.

/// Rule ids found in an NDJSON stream (AG-UI or LangGraph).
fn rules_of(lines: &[&str]) -> Vec<&'static str> {
    let bytes = lines.join("\n").into_bytes();
    let r = check_bytes("t.ndjson", bytes, &Options::default(), &Config::default()).expect("check");
    r.findings.iter().map(|f| f.rule).collect()
}

const START: &str = r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#;
const FINISH: &str = r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#;

#[test]
fn verifier_rules() {
    assert_eq!(
        rules_of(&[r#"{"type":"TEXT_MESSAGE_END","messageId":"m"}"#]),
        ["AGX103", "AGX301"]
    );
    assert_eq!(
        rules_of(&[
            START,
            r#"{"type":"TOOL_CALL_START","toolCallId":"a","toolCallName":"x"}"#,
            FINISH
        ]),
        ["AGX123"]
    );
    assert!(rules_of(&[START, FINISH, START, FINISH]).is_empty());
}

#[test]
fn strict_rules() {
    let tool = [
        START,
        r#"{"type":"TOOL_CALL_START","toolCallId":"a","toolCallName":"x"}"#,
        r#"{"type":"TOOL_CALL_END","toolCallId":"a"}"#,
        r#"{"type":"TOOL_CALL_START","toolCallId":"a","toolCallName":"x"}"#,
        r#"{"type":"TOOL_CALL_END","toolCallId":"a"}"#,
        FINISH,
    ];
    assert_eq!(rules_of(&tool), ["AGX309"]);
    assert_eq!(rules_of(&[START]), ["AGX301"]);
}

/// A sub-agent inside its parent tool call passes; an event of a sub-agent never started,
/// a sub-agent under a call never started, and a parent answered while its sub-agent runs
/// are each told.
#[test]
fn subagent_rules() {
    let call = r#"{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"ask"}"#;
    let call_end = r#"{"type":"TOOL_CALL_END","toolCallId":"c"}"#;
    let sub =
        r#"{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"w","parentToolCallId":"c"}"#;
    let step = r#"{"type":"STEP_STARTED","subagentRunId":"s","stepName":"model"}"#;
    let step_end = r#"{"type":"STEP_FINISHED","subagentRunId":"s","stepName":"model"}"#;
    let done = r#"{"type":"SUBAGENT_FINISHED","subagentRunId":"s","outcome":{"type":"success"}}"#;
    let result = r#"{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c","content":"ok"}"#;
    let good = [
        START, call, call_end, sub, step, step_end, done, result, FINISH,
    ];
    assert!(rules_of(&good).is_empty(), "{:?}", rules_of(&good));
    // Attribution only (no SUBAGENT_*) is valid; an event of a finished sub-agent in a run
    // that declares them is told.
    assert!(rules_of(&[START, call, call_end, step, step_end, result, FINISH]).is_empty());
    let late = r#"{"type":"CUSTOM","subagentRunId":"s","name":"n","value":1}"#;
    assert_eq!(
        rules_of(&[START, call, call_end, sub, done, late, result, FINISH]),
        ["AGX312"]
    );
    assert_eq!(
        rules_of(&[START, sub, step, step_end, done, FINISH]),
        ["AGX313"]
    );
    // A resume run: the call is in the snapshot the client was handed, not streamed again.
    let handed = r#"{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"a","role":"assistant","toolCalls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}]}"#;
    assert!(rules_of(&[START, handed, sub, step, step_end, done, result, FINISH]).is_empty());
    assert_eq!(
        rules_of(&[START, call, call_end, sub, step, step_end, result, done, FINISH]),
        ["AGX314"]
    );
}

#[test]
fn interrupt_rules() {
    let int = r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"x"}]}}"#;
    let resume_unknown = r#"{"type":"RUN_STARTED","threadId":"t","runId":"r2","input":{"threadId":"t","runId":"r2","messages":[],"resume":[{"interruptId":"i1","status":"resolved"},{"interruptId":"zz","status":"resolved"}]}}"#;
    let fin2 = r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r2"}"#;
    assert_eq!(rules_of(&[START, int, resume_unknown, fin2]), ["AGX405"]);
}

#[test]
fn leak_rules() {
    let lines = [
        START,
        r#"{"type":"REASONING_MESSAGE_START","messageId":"r1","role":"reasoning"}"#,
        r#"{"type":"REASONING_MESSAGE_CONTENT","messageId":"r1","delta":"The supplier performed well this half year."}"#,
        r#"{"type":"REASONING_MESSAGE_END","messageId":"r1"}"#,
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m1"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"The supplier performed well this half year."}"#,
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m1"}"#,
        FINISH,
    ];
    assert_eq!(rules_of(&lines), ["AGX702"]);
}

#[test]
fn raw_v3_rules() {
    let ev = |seq: u64, data: &str| {
        format!(
            r#"{{"type":"event","method":"messages","params":{{"namespace":[],"data":{data}}},"seq":{seq}}}"#
        )
    };
    let a = ev(1, r#"{"event":"message-start","role":"ai","id":"m1"}"#);
    let b = ev(3, r#"{"event":"message-finish"}"#);
    let c = ev(3, r#"{"event":"message-finish"}"#);
    let d = ev(4, r#"{"event":"message-finish"}"#);
    let found = rules_of(&[&a, &b, &c, &d]);
    assert!(found.contains(&"AGX601"), "{found:?}");
    assert!(found.contains(&"AGX604"), "{found:?}");
    // The exact replay (c) is one fact, one finding: AGX602, not also AGX609.
    assert_eq!(
        found.iter().filter(|r| **r == "AGX602").count(),
        1,
        "{found:?}"
    );
    assert!(!found.contains(&"AGX609"), "{found:?}");
}

#[test]
fn allow_and_deny() {
    let cfg = Config {
        allow: vec!["agx301".into()],
        ..Default::default()
    };
    let r = check_bytes("t", START.as_bytes().to_vec(), &Options::default(), &cfg).expect("check");
    assert!(r.findings.is_empty());
    let cfg = Config {
        deny: vec!["AGX301".into()],
        ..Default::default()
    };
    let r = check_bytes("t", START.as_bytes().to_vec(), &Options::default(), &cfg).expect("check");
    assert_eq!(r.findings[0].severity, Severity::Error);
}

/// `--allow` silences a finding, not the official verdict (rules the client enforces are
/// counted before it): a capture framed with CRLF fails the client whether or not its AGX502
/// is shown, as the verdict of any other official rule does.
#[test]
fn an_allowed_framing_finding_still_fails_the_official_verdict() {
    let sse = "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\r\n\r\n\
               data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\r\n\r\n";
    for allow in [vec![], vec!["AGX502".to_string()]] {
        let shown = allow.is_empty();
        let cfg = Config {
            allow,
            ..Default::default()
        };
        let r = check_bytes("t.sse", sse.into(), &Options::default(), &cfg).expect("check");
        assert!(!r.official_valid, "{:?}", r.findings);
        assert_eq!(r.findings.iter().any(|f| f.rule == "AGX502"), shown);
    }
}

/// A typed event is checked as its JSON is: the same findings, whether from its
/// timestamp (past 2^53), its JSON parts (an outcome, input or message list out of the
/// schema), its `THINKING_*` type, or a passed-through event's anything.
#[test]
fn typed_events_are_checked_as_their_json() {
    use aguify::agui::{Event, Role};
    use serde_json::json;
    let content = |timestamp, delta: &str| Event::TextMessageContent {
        subagent_run_id: None,
        timestamp,
        message_id: "m".into(),
        delta: delta.into(),
    };
    let events = [
        Event::RunStarted {
            timestamp: Some(1),
            thread_id: "t".into(),
            run_id: "r".into(),
            input: Some(json!({"threadId": "t", "runId": "r", "messages": [], "resume": {}})),
        },
        Event::TextMessageStart {
            subagent_run_id: None,
            timestamp: Some(1),
            message_id: "m".into(),
            role: Role::Assistant,
        },
        content(Some(2), "hi"),
        content(Some(1 << 60), ""),
        content(None, "x"),
        content(Some(-5), "y"),
        Event::ReasoningMessageContent {
            subagent_run_id: None,
            timestamp: Some(3),
            message_id: "r".into(),
            delta: "z".into(),
        }
        .into_thinking(),
        Event::Passthrough(json!({"type": "NOT_A_TYPE"})),
        Event::Passthrough(json!({"type": "TEXT_MESSAGE_END"})),
        Event::MessagesSnapshot {
            timestamp: None,
            messages: [json!({"id": "u", "role": "robot"}), json!(1)]
                .map(aguify::agui::Message::Json)
                .into(),
        },
        Event::RunFinished {
            timestamp: Some(4),
            thread_id: "t".into(),
            run_id: "r".into(),
            outcome: json!({"type": "interrupt", "interrupts": []}),
            usage: None,
        },
    ];
    let origin = Origin {
        file: Arc::from("t"),
        line: 1,
    };
    let (mut typed, mut json) = (
        Checker::new(Arc::from("t"), Config::default()),
        Checker::new(Arc::from("t"), Config::default()),
    );
    for ev in &events {
        typed.event(ev, &origin);
        json.event(&Event::Passthrough(ev.to_value().into_owned()), &origin);
    }
    let (mut a, mut b) = (vec![], vec![]);
    typed.stream_new(|f| a.push(f.clone()));
    json.stream_new(|f| b.push(f.clone()));
    let rules: Vec<&str> = a.iter().map(|f| f.rule).collect();
    for rule in ["AGX205", "AGX206", "AGX202", "AGX201", "AGX203", "AGX208"] {
        assert!(rules.contains(&rule), "{rule} not among {rules:?}");
    }
    assert_eq!(a, b);
}
