//! The one place the report reads AG-UI events itself: what the timeline does not keep (the
//! states, the user's messages, the resumes, the interrupts' payloads, each event's timestamp).
//! Everything else comes from the timeline, `explain` and the checker.

use serde_json::Value;

/// What the report takes from one AG-UI event, borrowed from it.
#[derive(Debug, Default)]
pub struct Seen<'a> {
    pub timestamp: Option<i64>,
    /// A `STATE_SNAPSHOT`'s state.
    pub snapshot: Option<&'a Value>,
    /// A `STATE_DELTA`'s JSON Patch.
    pub delta: Option<&'a Value>,
    /// User messages (`RUN_STARTED` input, `MESSAGES_SNAPSHOT`, a state's `messages` in
    /// LangChain form): `(id, text)`.
    pub user_messages: Vec<(String, String)>,
    /// `RUN_STARTED`'s `input.resume` entries.
    pub resumes: Vec<Resume<'a>>,
    /// `RUN_FINISHED`'s interrupt objects, by id.
    pub interrupts: Vec<(String, &'a Value)>,
}

/// One entry of a run's `input.resume`.
#[derive(Debug)]
pub struct Resume<'a> {
    pub interrupt_id: String,
    pub status: String,
    pub payload: Option<&'a Value>,
}

fn str_of(v: &Value, k: &str) -> Option<String> {
    v.get(k).and_then(Value::as_str).map(str::to_string)
}

/// A message's text: a string, or the text parts of a content list.
fn text_of(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

/// The user messages of a list of messages (AG-UI `role: user` or LangChain `type: human`).
fn users(list: Option<&Value>) -> Vec<(String, String)> {
    let Some(Value::Array(list)) = list else {
        return Vec::new();
    };
    list.iter()
        .filter(|m| {
            m.get("role").and_then(Value::as_str) == Some("user")
                || m.get("type").and_then(Value::as_str) == Some("human")
        })
        .map(|m| {
            (
                str_of(m, "id").unwrap_or_default(),
                text_of(m.get("content")),
            )
        })
        .collect()
}

/// Reads what the report needs of one AG-UI event.
pub fn capture(ev: &Value) -> Seen<'_> {
    let mut seen = Seen {
        timestamp: ev.get("timestamp").and_then(Value::as_i64),
        ..Seen::default()
    };
    match ev.get("type").and_then(Value::as_str).unwrap_or_default() {
        "RUN_STARTED" => {
            let input = ev.get("input");
            seen.user_messages = users(input.and_then(|i| i.get("messages")));
            if let Some(Value::Array(list)) = input.and_then(|i| i.get("resume")) {
                seen.resumes = list
                    .iter()
                    .map(|r| Resume {
                        interrupt_id: str_of(r, "interruptId").unwrap_or_default(),
                        status: str_of(r, "status").unwrap_or_default(),
                        payload: r.get("payload"),
                    })
                    .collect();
            }
        }
        "RUN_FINISHED" => {
            if let Some(Value::Array(list)) = ev.get("outcome").and_then(|o| o.get("interrupts")) {
                seen.interrupts = list
                    .iter()
                    .map(|i| (str_of(i, "id").unwrap_or_default(), i))
                    .collect();
            }
        }
        "STATE_SNAPSHOT" => {
            let snap = ev.get("snapshot");
            seen.user_messages = users(snap.and_then(|s| s.get("messages")));
            seen.snapshot = snap;
        }
        "STATE_DELTA" => seen.delta = ev.get("delta"),
        "MESSAGES_SNAPSHOT" => seen.user_messages = users(ev.get("messages")),
        _ => {}
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_resumes_users_and_states() {
        let ev = json!({"type":"RUN_STARTED","threadId":"t","runId":"r","input":{
            "messages":[{"id":"u1","role":"user","content":"hi"},{"id":"a","role":"assistant","content":"x"}],
            "resume":[{"interruptId":"i1","status":"resolved","payload":{"ok":true}}]}});
        let s = capture(&ev);
        assert_eq!(s.user_messages, vec![("u1".into(), "hi".into())]);
        assert_eq!(s.resumes[0].interrupt_id, "i1");
        assert_eq!(s.resumes[0].payload, Some(&json!({"ok":true})));
        let ev = json!({"type":"STATE_SNAPSHOT","timestamp":5,"snapshot":{"messages":[
            {"type":"human","id":"h","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}});
        let s = capture(&ev);
        assert_eq!(s.timestamp, Some(5));
        assert_eq!(s.user_messages, vec![("h".into(), "ab".into())]);
        assert!(s.snapshot.is_some());
    }
}
