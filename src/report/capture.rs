//! The one place the report reads AG-UI events itself: what the timeline does not keep (the
//! states, the user's messages, the resumes, the interrupts' payloads, each event's timestamp).
//! Everything else comes from the timeline, `explain` and the checker.

use std::borrow::Cow;

use serde_json::Value;

use crate::agui::Event;
use crate::timeline::{list_of, str_of};

/// What the report takes from one AG-UI event, borrowed from it.
#[derive(Debug, Default)]
pub struct Seen<'a> {
    pub timestamp: Option<i64>,
    /// A `STATE_SNAPSHOT`'s state.
    pub snapshot: Option<Cow<'a, Value>>,
    /// A `STATE_DELTA`'s JSON Patch.
    pub delta: Option<&'a [Value]>,
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
fn users(list: &[Value]) -> Vec<(String, String)> {
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

/// Reads what the report needs of one AG-UI event (typed: [`Event::typed`]).
pub fn capture(ev: &Event) -> Seen<'_> {
    let mut seen = Seen {
        timestamp: ev.timestamp(),
        ..Seen::default()
    };
    match ev {
        Event::RunStarted {
            input: Some(input), ..
        } => {
            seen.user_messages = users(list_of(input, "messages"));
            seen.resumes = list_of(input, "resume")
                .iter()
                .map(|r| Resume {
                    interrupt_id: str_of(r, "interruptId").unwrap_or_default(),
                    status: str_of(r, "status").unwrap_or_default(),
                    payload: r.get("payload"),
                })
                .collect();
        }
        Event::RunFinished { outcome, .. } => {
            seen.interrupts = list_of(outcome, "interrupts")
                .iter()
                .map(|i| (str_of(i, "id").unwrap_or_default(), i))
                .collect();
        }
        Event::StateSnapshot { snapshot, .. } => {
            let snap = snapshot.to_value();
            seen.user_messages = users(list_of(&snap, "messages"));
            seen.snapshot = Some(snap);
        }
        Event::StateDelta { delta, .. } => seen.delta = Some(delta),
        Event::MessagesSnapshot { messages, .. } => seen.user_messages = users(messages),
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
        let ev = Event::Passthrough(ev).typed().into_owned();
        let s = capture(&ev);
        assert_eq!(s.user_messages, vec![("u1".into(), "hi".into())]);
        assert_eq!(s.resumes[0].interrupt_id, "i1");
        assert_eq!(s.resumes[0].payload, Some(&json!({"ok":true})));
        let ev = json!({"type":"STATE_SNAPSHOT","timestamp":5,"snapshot":{"messages":[
            {"type":"human","id":"h","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]}});
        let ev = Event::Passthrough(ev).typed().into_owned();
        let s = capture(&ev);
        assert_eq!(s.timestamp, Some(5));
        assert_eq!(s.user_messages, vec![("h".into(), "ab".into())]);
        assert!(s.snapshot.is_some());
    }
}
