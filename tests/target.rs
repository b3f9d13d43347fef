//! `--target agui-0.0`: what `@ag-ui/client` 0.0.x accepts where 1.0 output would be
//! rejected (a cancelled run, `pendingToolCallIds`), and nothing else changed.
//! (conformance/client-messages.mjs replays every recording's agui-0.0 output through 0.0.59.)

mod common;

use std::process::Command;

use serde_json::Value;

fn convert(files: &[std::path::PathBuf], target: Option<&str>) -> Vec<Value> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_aguify"));
    cmd.args(["convert", "--to", "ndjson"]);
    if let Some(t) = target {
        cmd.args(["--target", t]);
    }
    let out = cmd.args(files).output().expect("run aguify");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("an event"))
        .collect()
}

/// Content parts as agui-0.0 writes them: the text of the text parts.
fn parts_as_text(content: &mut Value) {
    if let Some(parts) = content.as_array() {
        *content = Value::String(parts.iter().filter_map(|p| p["text"].as_str()).collect());
    }
}

/// The 1.0 events as agui-0.0 writes them: a cancelled run's RUN_FINISHED as RUN_ERROR
/// CANCELLED, no `pendingToolCallIds`, tool content parts as text.
fn as_agui_0(mut events: Vec<Value>) -> Vec<Value> {
    for e in &mut events {
        if e["type"] == "TOOL_CALL_RESULT" {
            parts_as_text(&mut e["content"]);
        }
        for m in e
            .get_mut("messages")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            if m["role"] == "tool" {
                parts_as_text(&mut m["content"]);
            }
        }
        if e["type"] != "RUN_FINISHED" {
            continue;
        }
        if e["outcome"]["type"] == "cancelled" {
            let mut error = serde_json::json!({
                "type": "RUN_ERROR",
                "message": "The run was cancelled by the caller",
                "code": "CANCELLED",
            });
            if let Some(t) = e.get("timestamp") {
                error["timestamp"] = t.clone();
            }
            *e = error;
        } else if let Some(o) = e["outcome"].as_object_mut() {
            o.remove("pendingToolCallIds");
        }
    }
    events
}

#[test]
fn agui_0_differs_from_1_0_only_where_0_0_rejects_1_0() {
    let cases = common::recording_cases();
    let picked: Vec<&common::Case> = cases
        .iter()
        .filter(|c| {
            [
                "l_cancelled",
                "b_react_text_and_tool",
                "d_hitl",
                "a_plain_chat",
                "o_frontend_tool",
                "o_tool_content_blocks",
            ]
            .iter()
            .any(|n| c.name.ends_with(n))
        })
        .collect();
    assert!(picked.len() >= 20, "{}", picked.len());
    let (mut cancelled, mut pending, mut parts) = (0, 0, 0);
    for c in picked {
        let v1 = convert(&c.files, None);
        assert_eq!(
            convert(&c.files, Some("agui-1.0")),
            v1,
            "{}: the default",
            c.name
        );
        cancelled += v1
            .iter()
            .filter(|e| e["outcome"]["type"] == "cancelled")
            .count();
        pending += v1
            .iter()
            .filter(|e| e["outcome"].get("pendingToolCallIds").is_some())
            .count();
        parts += (v1.iter())
            .filter(|e| e["type"] == "TOOL_CALL_RESULT" && e["content"].is_array())
            .count();
        let v0 = convert(&c.files, Some("agui-0.0"));
        assert_eq!(v0, as_agui_0(v1), "{}", c.name);
    }
    // The three differences were exercised.
    assert!(
        cancelled >= 5 && pending >= 1 && parts >= 6,
        "{cancelled} {pending} {parts}"
    );
}
