//! One test per bug found by the bad-input corpus, the property tests or the fuzzers, each
//! headed with what the bug was. Inputs are minimized.

#[path = "util/invariants.rs"]
mod invariants;

use aguify::pipeline::{convert_to_vec, Input, Options};
use serde_json::Value;

fn convert(name: &str, bytes: &[u8]) -> (Vec<Value>, aguify::pipeline::Stats) {
    convert_to_vec(
        vec![Input::from_bytes(name, bytes.to_vec())],
        &Options::default(),
    )
    .expect("in-memory convert")
}

fn types(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .map(|e| e["type"].as_str().unwrap_or("?"))
        .collect()
}

/// SSE with bare CR line ends: every frame after the first on one physical line was dropped
/// (the line's count had been taken, and a frame of 0 lines was treated as nothing).
#[test]
fn sse_bare_cr_keeps_every_frame() {
    let v3 = |seq: u32, data: &str| {
        format!(
            "event: messages\rdata: {{\"type\":\"event\",\"seq\":{seq},\"method\":\"messages\",\"params\":{{\"namespace\":[],\"data\":{data}}}}}\r\r"
        )
    };
    let input = [
        v3(1, r#"{"event":"message-start","id":"m"}"#),
        v3(2, r#"{"event":"content-block-delta","index":0,"delta":{"type":"text-delta","text":"hi"}}"#),
        v3(3, r#"{"event":"message-finish"}"#),
    ]
    .concat();
    let (events, stats) = convert("cr.sse", input.as_bytes());
    assert!(
        types(&events).contains(&"TEXT_MESSAGE_CONTENT"),
        "{events:?}"
    );
    assert_eq!((stats.lines, stats.mapped, stats.bad), (1, 1, 0));
}

/// A tool-call block whose id never arrived was announced at message end in HashMap order: two
/// such blocks in one message came out in a different order from run to run (found by
/// `tests/properties.rs::convert_is_deterministic`).
#[test]
fn stranded_tool_calls_are_announced_in_arrival_order() {
    let ev = |seq: u32, data: &str| {
        format!("{{\"type\":\"event\",\"seq\":{seq},\"method\":\"messages\",\"params\":{{\"namespace\":[],\"data\":{data}}}}}\n")
    };
    let block = |seq: u32, index: u32| {
        ev(
            seq,
            &format!(
                r#"{{"event":"content-block-start","index":{index},"content":{{"type":"tool_call_chunk","name":"f","args":"{{}}"}}}}"#
            ),
        )
    };
    let mut input = ev(1, r#"{"event":"message-start","id":"m"}"#);
    for (seq, index) in [(2, 5), (3, 1), (4, 9), (5, 0), (6, 7)] {
        input.push_str(&block(seq, index));
    }
    input.push_str(&ev(7, r#"{"event":"message-finish"}"#));
    let starts = |events: &[Value]| -> Vec<String> {
        events
            .iter()
            .filter(|e| e["type"] == "TOOL_CALL_START")
            .map(|e| e["toolCallId"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    let (first, _) = convert("t.ndjson", input.as_bytes());
    assert_eq!(
        starts(&first),
        ["m:tool:5", "m:tool:1", "m:tool:9", "m:tool:0", "m:tool:7"]
    );
    for _ in 0..10 {
        let (again, _) = convert("t.ndjson", input.as_bytes());
        assert_eq!(again, first);
    }
}

/// A BOM at the start of a later line (`cat a.ndjson b.ndjson`) made it "invalid JSON at
/// column 1: expected value".
#[test]
fn bom_inside_the_file_is_stripped() {
    let line = r#"{"event":"on_chain_start","name":"g","run_id":"r","parent_ids":[],"data":{}}"#;
    let input = format!("{line}\n\u{feff}{line}\n");
    let (_, stats) = convert("bom.ndjson", input.as_bytes());
    assert_eq!((stats.lines, stats.bad), (2, 0));
}

/// A replayed v3 event (same seq, same bytes) was converted twice: text doubled.
#[test]
fn replayed_v3_event_is_not_converted_twice() {
    let ev = |seq: u32, data: &str| {
        format!("{{\"type\":\"event\",\"seq\":{seq},\"method\":\"messages\",\"params\":{{\"namespace\":[],\"data\":{data}}}}}\n")
    };
    let delta = ev(
        2,
        r#"{"event":"content-block-delta","index":0,"delta":{"type":"text-delta","text":"hi"}}"#,
    );
    let input = [
        ev(1, r#"{"event":"message-start","id":"m"}"#),
        delta.clone(),
        delta,
        ev(3, r#"{"event":"message-finish"}"#),
    ]
    .concat();
    let (events, stats) = convert("dup.ndjson", input.as_bytes());
    assert_eq!(
        types(&events)
            .iter()
            .filter(|t| **t == "TEXT_MESSAGE_CONTENT")
            .count(),
        1
    );
    assert_eq!(stats.bad, 1);
}

/// Several v3 files converted together (an interrupt run, then its resume run): each file's
/// `seq` starts again at 1, but the inline checker kept counting across files and reported
/// every line of the second file as out of order (AGX603) — on the README's own example.
#[test]
fn seq_restarts_in_each_file() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/recordings/v3-python");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_aguify"))
        .args(["convert", "--to", "ndjson"])
        .arg(dir.join("d_hitl__1_interrupt.ndjson"))
        .arg(dir.join("d_hitl__2_resume.ndjson"))
        .output()
        .expect("run aguify");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // (The resume recording itself skips seq 2, before a root `values`: langgraph-api dropped
    // the legacy-shaped message event there, which is no lost event: no AGX601, issue 22.6.)
    assert!(!stderr.contains("AGX601"), "{stderr}");
    assert!(!stderr.contains("AGX603"), "{stderr}");
    assert!(!stderr.contains("AGX602"), "{stderr}");
    // A gap inside one file is still reported after the file boundary.
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("seq-restarts");
    std::fs::create_dir_all(&tmp).expect("tmp");
    let second = std::fs::read_to_string(dir.join("d_hitl__2_resume.ndjson")).expect("read");
    let gapped: Vec<&str> = second
        .lines()
        .enumerate()
        .filter(|(i, _)| *i != 2)
        .map(|(_, l)| l)
        .collect();
    std::fs::write(tmp.join("resume-gap.ndjson"), gapped.join("\n") + "\n").expect("write");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_aguify"))
        .args(["convert", "--to", "ndjson"])
        .arg(dir.join("d_hitl__1_interrupt.ndjson"))
        .arg(tmp.join("resume-gap.ndjson"))
        .output()
        .expect("run aguify");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("seq jumps from 3 to 5"), "{stderr}");
    assert!(!stderr.contains("AGX603"), "{stderr}");
}

/// A bad line, then an SDK stream part's error line (issue 41 item 12, found by the `checker`
/// fuzz target): `check` said the official client rejects the stream (a bad line before any
/// family was known marked the file unreadable) though no official rule fired, while `convert`
/// of the same file writes a RUN_STARTED and a RUN_ERROR the official client accepts. The
/// verdict is the official rules'; a raw AG-UI file with a bad line is still rejected (AGX501).
#[test]
fn a_bad_line_before_an_error_line_keeps_the_official_verdict() {
    use aguify::check::{check_bytes, rules, Config};
    let check = |bytes: &[u8]| {
        check_bytes("f", bytes.to_vec(), &Options::default(), &Config::default())
            .expect("in-memory check")
    };
    for input in [
        "{bad\n{\"event\":\"error\",\"data\":{\"error\":\"ValueError\",\"message\":\"boom\"}}\n",
        "{\"event\":\"error\",\"data\":{\"error\":\"ValueError\",\"message\":\"boom\"}}\n{bad\n",
    ] {
        let file = check(input.as_bytes());
        let official = file
            .findings
            .iter()
            .any(|f| rules::find(f.rule).is_some_and(|r| r.official));
        assert!(!official, "{:?}", file.findings);
        assert!(file.official_valid, "{input:?}: {:?}", file.findings);
        let (events, _) = convert("f", input.as_bytes());
        assert_eq!(types(&events), ["RUN_STARTED", "RUN_ERROR"]);
    }
    let agui = check(b"{bad\n{\"type\":\"RUN_ERROR\",\"message\":\"boom\"}\n");
    assert!(!agui.official_valid);
    assert!(agui.findings.iter().any(|f| f.rule == "AGX501"));
}

/// A tool result before its call (issue 41 item 7: a v3 `tool-finished` moved ahead of the
/// model message that announces the call, as a frame moved ahead in a capture): the mapper sent
/// TOOL_CALL_RESULT with no START (the result marked the call answered, so the START that
/// should have come with it was skipped, and so were the call's own START, ARGS and END when
/// they came), losing the tool's name and arguments. The result now waits for its call's END.
#[test]
fn a_tool_result_before_its_call_keeps_the_call() {
    let path = format!(
        "{}/testdata/recordings/v3-js/b_react_one_tool.ndjson",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).expect("recording");
    let mut lines: Vec<&str> = text.lines().collect();
    let finished = lines
        .iter()
        .position(|l| l.contains("\"tool-finished\""))
        .expect("a tool-finished line");
    let first_message = lines
        .iter()
        .position(|l| l.contains("\"message-start\""))
        .expect("a message-start line");
    assert!(first_message < finished);
    let moved = lines.remove(finished);
    lines.insert(first_message, moved);
    let input = lines.join("\n") + "\n";
    let (in_order, _) = convert("in-order.ndjson", text.as_bytes());
    let (events, stats) = convert("moved.ndjson", input.as_bytes());
    assert_eq!(stats.bad, 0);
    invariants::check_stream(&events).expect("stream invariants");
    let calls = |evs: &[Value]| -> Vec<(String, String)> {
        evs.iter()
            .filter(|e| {
                e["type"]
                    .as_str()
                    .is_some_and(|t| t.starts_with("TOOL_CALL_"))
            })
            .map(|e| {
                let detail = e["toolCallName"]
                    .as_str()
                    .or(e["delta"].as_str())
                    .or(e["content"].as_str())
                    .unwrap_or("");
                (
                    e["type"].as_str().unwrap_or("").to_string(),
                    detail.to_string(),
                )
            })
            .collect()
    };
    // The same call, with its name and arguments, then the same result.
    assert_eq!(calls(&events), calls(&in_order));
    assert!(calls(&events)
        .iter()
        .any(|(t, n)| t == "TOOL_CALL_START" && n == "get_weather"));
}
