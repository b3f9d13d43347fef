//! [`Ev`]: an AG-UI event with the top-level fields the checks read found in one pass, so the
//! rule families look fields up without hashing keys (`serde_json`'s ordered map hashes every
//! key it is asked for).

use serde_json::Value;

use crate::agui::EventType;

macro_rules! fields {
    ($($field:ident = $key:literal),* $(,)?) => {
        /// An event and its top-level fields. [`Ev::get`] answers exactly as [`Value::get`].
        #[derive(Clone, Copy)]
        pub struct Ev<'a> {
            pub v: &'a Value,
            /// The event's type, when `type` names an AG-UI 1.0 event type.
            pub kind: Option<EventType>,
            $(pub $field: Option<&'a Value>,)*
        }

        impl<'a> Ev<'a> {
            pub fn of(v: &'a Value) -> Ev<'a> {
                let mut e = Ev { v, kind: None, $($field: None,)* };
                if let Some(o) = v.as_object() {
                    for (k, x) in o {
                        match k.as_str() {
                            $($key => e.$field = Some(x),)*
                            _ => {}
                        }
                    }
                }
                e.kind = e.ty.and_then(Value::as_str).and_then(EventType::of);
                e
            }

            /// The value of top-level key `k` (as `self.v.get(k)`).
            #[inline]
            pub fn get(&self, k: &str) -> Option<&'a Value> {
                match k {
                    $($key => self.$field,)*
                    _ => self.v.get(k),
                }
            }
        }
    };
}

fields! {
    ty = "type",
    message_id = "messageId",
    tool_call_id = "toolCallId",
    subagent_run_id = "subagentRunId",
    raw_event = "rawEvent",
    metadata = "metadata",
    timestamp = "timestamp",
    delta = "delta",
    role = "role",
    name = "name",
    tool_call_name = "toolCallName",
    parent_message_id = "parentMessageId",
    aguify_chunk = "aguifyChunk",
    result = "result",
    outcome = "outcome",
    thread_id = "threadId",
    run_id = "runId",
    input = "input",
    messages = "messages",
    step_name = "stepName",
    content = "content",
    message = "message",
    code = "code",
    description = "description",
    parent_subagent_run_id = "parentSubagentRunId",
    parent_tool_call_id = "parentToolCallId",
}

impl<'a> Ev<'a> {
    /// The string value of top-level key `k`.
    #[inline]
    pub fn s(&self, k: &str) -> Option<&'a str> {
        self.get(k).and_then(Value::as_str)
    }

    /// The event type, or "" when absent or not a string.
    #[inline]
    pub fn t(&self) -> &'a str {
        self.ty.and_then(Value::as_str).unwrap_or("")
    }

    /// `self.v.pointer("/a/b")` for two plain keys.
    #[inline]
    pub fn get2(&self, a: &str, b: &str) -> Option<&'a Value> {
        self.get(a).and_then(|x| x.get(b))
    }
}
