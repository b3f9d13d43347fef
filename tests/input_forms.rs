//! Input forms of issue 22 (items 3–5), on their recordings: several runs recorded in one v3
//! file, LangGraph.js's v3 event stream as SSE, and `graph.stream` SSE with subgraphs.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn recording(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/recordings")
        .join(rel)
}

/// `aguify convert --to ndjson FILE`: the events and stderr (exit 0 required).
fn convert(file: &Path) -> (Vec<Value>, String) {
    convert_all(&[file.to_path_buf()])
}

/// `aguify convert --to ndjson FILE...`: the events and stderr (exit 0 required).
fn convert_all(files: &[PathBuf]) -> (Vec<Value>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_aguify"))
        .args(["convert", "--to", "ndjson"])
        .args(files)
        .output()
        .expect("run aguify");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(0), "{files:?}: {stderr}");
    let events = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("an event a line"))
        .collect();
    (events, stderr)
}

/// The events split into runs (each from its RUN_STARTED); every run must have exactly one
/// terminal, its last event.
fn runs(events: &[Value]) -> Vec<&[Value]> {
    let starts: Vec<usize> = (0..events.len())
        .filter(|&i| events[i]["type"] == "RUN_STARTED")
        .collect();
    assert_eq!(
        starts.first(),
        Some(&0),
        "the stream opens with RUN_STARTED"
    );
    let mut out = vec![];
    for (k, &s) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(events.len());
        let run = &events[s..end];
        let terminals: Vec<usize> = (0..run.len())
            .filter(|&i| matches!(run[i]["type"].as_str(), Some("RUN_FINISHED" | "RUN_ERROR")))
            .collect();
        assert_eq!(terminals, [run.len() - 1], "one terminal, last: {run:?}");
        out.push(run);
    }
    out
}

/// The text of the assistant messages of `events`, one string per message.
fn texts(events: &[Value]) -> Vec<String> {
    let mut out: Vec<(String, String)> = vec![];
    for e in events {
        match e["type"].as_str() {
            Some("TEXT_MESSAGE_START") => {
                out.push((e["messageId"].as_str().unwrap_or("").into(), String::new()))
            }
            Some("TEXT_MESSAGE_CONTENT") => {
                let id = e["messageId"].as_str().unwrap_or("");
                if let Some((_, t)) = out.iter_mut().rev().find(|(m, _)| m == id) {
                    t.push_str(e["delta"].as_str().unwrap_or(""));
                }
            }
            _ => {}
        }
    }
    out.into_iter().map(|(_, t)| t).collect()
}

/// Tool calls of `events`: (name, the args streamed).
fn tool_calls(events: &[Value]) -> Vec<(String, String)> {
    let mut out: Vec<(String, String, String)> = vec![];
    for e in events {
        let id = e["toolCallId"].as_str().unwrap_or("").to_string();
        match e["type"].as_str() {
            Some("TOOL_CALL_START") => out.push((
                id,
                e["toolCallName"].as_str().unwrap_or("").into(),
                String::new(),
            )),
            Some("TOOL_CALL_ARGS") => {
                if let Some(c) = out.iter_mut().find(|c| c.0 == id) {
                    c.2.push_str(e["delta"].as_str().unwrap_or(""));
                }
            }
            _ => {}
        }
    }
    out.into_iter().map(|(_, n, a)| (n, a)).collect()
}

/// The events without what differs between two recordings of one scenario (ids, timestamps,
/// recorded state), at any depth.
fn shape(events: &[Value]) -> Vec<Value> {
    const DROP: [&str; 11] = [
        "timestamp",
        "threadId",
        "runId",
        "messageId",
        "parentMessageId",
        "toolCallId",
        "id",
        "interruptId",
        "snapshot",
        "messages",
        "state",
    ];
    fn strip(v: &mut Value) {
        match v {
            Value::Object(o) => {
                for k in DROP {
                    o.remove(k);
                }
                o.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    events
        .iter()
        .map(|e| {
            let mut e = e.clone();
            strip(&mut e);
            e
        })
        .collect()
}

// ---- 22.3: several runs in one v3 file -------------------------------------------------------

/// A recorder that appends every run of a thread to one log: Python numbers each run's `seq`
/// from 1, LangGraph.js from 0 (and opens it with a root `lifecycle running`). Each recorded
/// run is one AG-UI run with its own terminal, the second resuming the first's interrupt, and
/// the restart is no `seq` finding.
#[test]
fn several_runs_in_one_v3_file_are_one_run_each() {
    for form in ["v3-python", "v3-python-inprocess", "v3-js"] {
        let file = recording(&format!("{form}/d_hitl_one_file.ndjson"));
        let (events, stderr) = convert(&file);
        let runs = runs(&events);
        assert_eq!(runs.len(), 2, "{form}: {events:?}");
        let first = runs[0].last().expect("terminal");
        assert_eq!(first["type"], "RUN_FINISHED", "{form}");
        assert_eq!(first["outcome"]["type"], "interrupt", "{form}: {first}");
        let interrupt = first["outcome"]["interrupts"][0]["id"].clone();
        assert!(interrupt.is_string(), "{form}: {first}");
        assert_eq!(texts(runs[0]), ["I will order 2 widgets."], "{form}");
        let resume = &runs[1][0]["input"]["resume"];
        assert_eq!(
            resume[0]["interruptId"], interrupt,
            "{form}: {}",
            runs[1][0]
        );
        let second = runs[1].last().expect("terminal");
        assert_eq!(second["outcome"]["type"], "success", "{form}: {second}");
        assert!(
            texts(runs[1]).contains(&"Your order has been placed.".to_string()),
            "{form}: {:?}",
            texts(runs[1])
        );
        for rule in ["AGX602", "AGX603", "AGX607"] {
            assert!(!stderr.contains(rule), "{form}: {stderr}");
        }
        // As the same scenario recorded one run a file, the files converted in turn.
        let pair = ["d_hitl__1_interrupt", "d_hitl__2_resume"]
            .map(|stem| recording(&format!("{form}/{stem}.ndjson")));
        let (pair, _) = convert_all(&pair);
        assert_eq!(shape(&events), shape(&pair), "{form}");
    }
}

/// The platform numbers `seq` on across the runs of a thread: the runs part at the root
/// `lifecycle running` that follows the previous run's root terminal.
#[test]
fn runs_numbered_on_part_at_the_root_lifecycle() {
    let text = std::fs::read_to_string(recording("v3-js/d_hitl_one_file.ndjson")).expect("read");
    let mut lines = vec![];
    for (n, line) in text.lines().enumerate() {
        let mut ev: Value = serde_json::from_str(line).expect("json");
        ev["seq"] = Value::from(n as u64 + 1);
        lines.push(ev.to_string() + "\n");
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("input-forms");
    std::fs::create_dir_all(&dir).expect("tmp");
    let file = dir.join("seq-numbered-on.ndjson");
    std::fs::write(&file, lines.concat()).expect("write");
    let (events, stderr) = convert(&file);
    let runs = runs(&events);
    assert_eq!(runs.len(), 2, "{events:?}");
    assert_eq!(runs[0].last().expect("end")["outcome"]["type"], "interrupt");
    assert_eq!(runs[1].last().expect("end")["outcome"]["type"], "success");
    assert!(!stderr.contains("AGX6"), "{stderr}");
}

/// What is not a restart stays what it was: a `seq` that goes back within a run (not to the
/// file's first) is out of order, and an exact replay of the first event is a duplicate; neither
/// starts a run.
#[test]
fn a_seq_back_within_a_run_is_no_new_run() {
    let ev = |seq: u32, data: &str| {
        format!("{{\"type\":\"event\",\"seq\":{seq},\"method\":\"messages\",\"params\":{{\"namespace\":[],\"data\":{data}}}}}\n")
    };
    let start = ev(1, r#"{"event":"message-start","id":"m1"}"#);
    let lines = [
        start.clone(),
        ev(
            2,
            r#"{"event":"content-block-delta","index":0,"delta":{"type":"text-delta","text":"a"}}"#,
        ),
        ev(
            3,
            r#"{"event":"content-block-delta","index":0,"delta":{"type":"text-delta","text":"b"}}"#,
        ),
        ev(
            2,
            r#"{"event":"content-block-delta","index":0,"delta":{"type":"text-delta","text":"c"}}"#,
        ),
        start,
        ev(4, r#"{"event":"message-finish"}"#),
    ];
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("input-forms");
    std::fs::create_dir_all(&dir).expect("tmp");
    let file = dir.join("seq-back.ndjson");
    std::fs::write(&file, lines.concat()).expect("write");
    let (events, stderr) = convert(&file);
    assert_eq!(runs(&events).len(), 1, "{events:?}");
    assert_eq!(texts(&events), ["abc"]);
    assert!(stderr.contains("AGX603"), "{stderr}");
    assert!(stderr.contains("AGX602"), "{stderr}");
}

// ---- 22.4: LangGraph.js v3 event stream as SSE ------------------------------------------------

/// `streamEvents(input, {version: "v3", encoding: "text/event-stream"})`: frames `event:
/// <method>|<namespace>` whose data is the event's `params.data`. They convert as the NDJSON v3
/// recording of the same scenario does: its text, its tool calls, its error.
#[test]
fn js_v3_event_stream_sse_converts_as_the_ndjson_form() {
    for stem in ["a_plain_chat", "b_react_one_tool", "e_error_tool_raises"] {
        let (sse, stderr) = convert(&recording(&format!("sse/js-v3-events.{stem}.sse")));
        assert!(!stderr.contains("warning"), "{stem}: {stderr}");
        let (ndjson, _) = convert(&recording(&format!("v3-js/{stem}.ndjson")));
        assert_eq!(shape(&sse), shape(&ndjson), "{stem}");
    }
    let (plain, _) = convert(&recording("sse/js-v3-events.a_plain_chat.sse"));
    assert_eq!(texts(&plain), ["Hello! How can I help you today?"]);
    let (react, _) = convert(&recording("sse/js-v3-events.b_react_one_tool.sse"));
    assert_eq!(
        tool_calls(&react),
        [("get_weather".to_string(), r#"{"city":"Paris"}"#.to_string())]
    );
    assert_eq!(texts(&react), ["It is sunny and 22°C in Paris."]);
    // `event: error` with `{"message":"Error: …"}`: the name and the message apart, classified.
    let (failed, _) = convert(&recording("sse/js-v3-events.e_error_tool_raises.sse"));
    let last = failed.last().expect("terminal");
    assert_eq!(last["type"], "RUN_ERROR");
    assert_eq!(last["message"], "order service unavailable for A-1");
    assert_eq!(last["code"], "AGENT_INTERNAL");
    assert_eq!(last["rawEvent"]["error"], "Error");
}

// ---- 22.5: `graph.stream` SSE with subgraphs ---------------------------------------------------

/// `graph.stream(input, {streamMode: ["updates","messages","custom"], subgraphs: true,
/// encoding: "text/event-stream"})`: a subgraph's `messages|<namespace>` frames are its model's
/// output, kept; a clean end is a finished run, an `error` frame RUN_ERROR.
#[test]
fn graph_stream_sse_keeps_subgraph_messages() {
    let (events, _) = convert(&recording("sse/js-stream-modes.f_subgraph.sse"));
    let runs = runs(&events);
    assert_eq!(runs.len(), 1);
    assert_eq!(texts(&events), ["Paris has 2.1M people.", "Research done."]);
    assert_eq!(
        events.last().expect("terminal")["outcome"]["type"],
        "success"
    );
    let (react, _) = convert(&recording("sse/js-stream-modes.b_react_one_tool.sse"));
    assert_eq!(
        tool_calls(&react),
        [("get_weather".to_string(), r#"{"city":"Paris"}"#.to_string())]
    );
    assert_eq!(
        react.last().expect("terminal")["outcome"]["type"],
        "success"
    );
    let (failed, _) = convert(&recording("sse/js-stream-modes.e_error_tool_raises.sse"));
    let last = failed.last().expect("terminal");
    assert_eq!(last["type"], "RUN_ERROR");
    assert_eq!(last["message"], "order service unavailable for A-1");
    // `check` knows the form as `convert` does (no frame of it has a family of its own).
    for stem in ["b_react_one_tool", "f_subgraph", "e_error_tool_raises"] {
        let out = Command::new(env!("CARGO_BIN_EXE_aguify"))
            .arg("check")
            .arg(recording(&format!("sse/js-stream-modes.{stem}.sse")))
            .output()
            .expect("run aguify");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{stem}: {stdout}");
        assert!(!stdout.contains("AGX505"), "{stem}: {stdout}");
    }
}
