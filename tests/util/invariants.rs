//! The stream invariants a converted stream must hold, checked without `src/check`: every event
//! sits inside a run; each run has one terminal (RUN_FINISHED or RUN_ERROR) and nothing of it
//! follows; every START (text, reasoning, reasoning message, tool call, step) has its END
//! before the terminal; CONTENT/ARGS only while open; TOOL_CALL_RESULT only for a call started
//! earlier in the stream (a resumed run answers the calls its interrupted run started).
//! Shared by `tests/properties.rs` and the fuzz targets (`#[path]`), so it uses only serde_json.

use std::collections::HashSet;

use serde_json::Value;

fn field<'a>(ev: &'a Value, k: &str) -> &'a str {
    ev.get(k).and_then(Value::as_str).unwrap_or("")
}

#[derive(Default)]
struct OpenRun {
    text: HashSet<String>,
    reasoning: HashSet<String>,
    reasoning_msg: HashSet<String>,
    tools: HashSet<String>,
    steps: Vec<String>,
}

/// `Err` names the first violation: its index in the stream and what was wrong.
pub fn check_stream(events: &[Value]) -> Result<(), String> {
    let mut run: Option<OpenRun> = None;
    // Calls started so far, in any run.
    let mut tools_seen: HashSet<String> = HashSet::new();
    for (i, ev) in events.iter().enumerate() {
        let t = field(ev, "type");
        let fail = |what: String| Err(format!("event {i} ({t}): {what}"));
        if t == "RUN_STARTED" {
            if run.is_some() {
                return fail("a run started inside a run".into());
            }
            run = Some(OpenRun::default());
            continue;
        }
        let Some(r) = run.as_mut() else {
            return fail("outside any run (after a terminal or before RUN_STARTED)".into());
        };
        let id = |k: &str| field(ev, k).to_string();
        let open = |set: &mut HashSet<String>, id: String, what: &str| {
            if set.insert(id.clone()) {
                Ok(())
            } else {
                Err(format!("event {i} ({t}): {what} {id} opened twice"))
            }
        };
        let close = |set: &mut HashSet<String>, id: String, what: &str| {
            if set.remove(&id) {
                Ok(())
            } else {
                Err(format!("event {i} ({t}): {what} {id} not open"))
            }
        };
        let inside = |set: &HashSet<String>, id: String, what: &str| {
            if set.contains(&id) {
                Ok(())
            } else {
                Err(format!("event {i} ({t}): {what} {id} not open"))
            }
        };
        match t {
            "RUN_FINISHED" | "RUN_ERROR" => {
                let open_things = r.text.len()
                    + r.reasoning.len()
                    + r.reasoning_msg.len()
                    + r.tools.len()
                    + r.steps.len();
                if open_things > 0 {
                    return fail(format!(
                        "terminal with {open_things} span(s) still open: text {:?} reasoning {:?} \
                         reasoning messages {:?} tools {:?} steps {:?}",
                        r.text, r.reasoning, r.reasoning_msg, r.tools, r.steps
                    ));
                }
                run = None;
            }
            "TEXT_MESSAGE_START" => open(&mut r.text, id("messageId"), "text message")?,
            "TEXT_MESSAGE_CONTENT" => inside(&r.text, id("messageId"), "text message")?,
            "TEXT_MESSAGE_END" => close(&mut r.text, id("messageId"), "text message")?,
            "REASONING_START" => open(&mut r.reasoning, id("messageId"), "reasoning")?,
            "REASONING_END" => close(&mut r.reasoning, id("messageId"), "reasoning")?,
            "REASONING_MESSAGE_START" => {
                inside(&r.reasoning, id("messageId"), "reasoning")?;
                open(&mut r.reasoning_msg, id("messageId"), "reasoning message")?
            }
            "REASONING_MESSAGE_CONTENT" => {
                inside(&r.reasoning_msg, id("messageId"), "reasoning message")?
            }
            "REASONING_MESSAGE_END" => {
                close(&mut r.reasoning_msg, id("messageId"), "reasoning message")?
            }
            "TOOL_CALL_START" => {
                open(&mut r.tools, id("toolCallId"), "tool call")?;
                tools_seen.insert(id("toolCallId"));
            }
            "TOOL_CALL_ARGS" => inside(&r.tools, id("toolCallId"), "tool call")?,
            "TOOL_CALL_END" => close(&mut r.tools, id("toolCallId"), "tool call")?,
            "TOOL_CALL_RESULT" if !tools_seen.contains(field(ev, "toolCallId")) => {
                return fail(format!(
                    "result for tool call {} never started",
                    id("toolCallId")
                ));
            }
            "STEP_STARTED" => r.steps.push(id("stepName")),
            "STEP_FINISHED" => {
                let name = id("stepName");
                match r.steps.iter().rposition(|s| *s == name) {
                    Some(p) => {
                        r.steps.remove(p);
                    }
                    None => return fail(format!("step {name} not started")),
                }
            }
            _ => {}
        }
    }
    if run.is_some() {
        return Err("the stream ends inside a run (no terminal)".into());
    }
    Ok(())
}
