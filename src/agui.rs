//! AG-UI 1.0 event vocabulary and small constructors.
//!
//! Events are built as ordered JSON objects (`type` first, then `timestamp`, then the event's
//! own fields) so the SSE sink can write them byte-for-byte as `@ag-ui/encoder` would, with
//! optional fields omitted rather than `null`.

use serde_json::{Map, Value};

/// Every event type of AG-UI 1.0 (`EventType`, 31 values).
pub const EVENT_TYPES: [&str; 31] = [
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "TEXT_MESSAGE_CHUNK",
    "TOOL_CALL_START",
    "TOOL_CALL_ARGS",
    "TOOL_CALL_END",
    "TOOL_CALL_CHUNK",
    "TOOL_CALL_RESULT",
    "STATE_SNAPSHOT",
    "STATE_DELTA",
    "MESSAGES_SNAPSHOT",
    "ACTIVITY_SNAPSHOT",
    "ACTIVITY_DELTA",
    "RAW",
    "CUSTOM",
    "RUN_STARTED",
    "RUN_FINISHED",
    "RUN_ERROR",
    "STEP_STARTED",
    "STEP_FINISHED",
    "REASONING_START",
    "REASONING_MESSAGE_START",
    "REASONING_MESSAGE_CONTENT",
    "REASONING_MESSAGE_END",
    "REASONING_MESSAGE_CHUNK",
    "REASONING_END",
    "REASONING_ENCRYPTED_VALUE",
    "SUBAGENT_STARTED",
    "SUBAGENT_FINISHED",
    "SUBAGENT_ERROR",
];

/// The 0.x names TDesign Chat 0.5.2 consumes, for `--compat thinking`.
pub const THINKING_RENAMES: [(&str, &str); 5] = [
    ("REASONING_START", "THINKING_START"),
    ("REASONING_MESSAGE_START", "THINKING_TEXT_MESSAGE_START"),
    ("REASONING_MESSAGE_CONTENT", "THINKING_TEXT_MESSAGE_CONTENT"),
    ("REASONING_MESSAGE_END", "THINKING_TEXT_MESSAGE_END"),
    ("REASONING_END", "THINKING_END"),
];

pub fn is_event_type(t: &str) -> bool {
    EVENT_TYPES.contains(&t)
}

/// An event under construction.
pub struct EventBuilder(Map<String, Value>);

impl EventBuilder {
    pub fn new(kind: &str, timestamp: Option<i64>) -> Self {
        let mut m = Map::new();
        m.insert("type".into(), Value::String(kind.to_string()));
        if let Some(ts) = timestamp {
            m.insert("timestamp".into(), Value::Number(ts.into()));
        }
        EventBuilder(m)
    }

    pub fn str(mut self, key: &str, v: impl Into<String>) -> Self {
        self.0.insert(key.into(), Value::String(v.into()));
        self
    }

    pub fn opt_str(self, key: &str, v: Option<impl Into<String>>) -> Self {
        match v {
            Some(v) => self.str(key, v),
            None => self,
        }
    }

    pub fn val(mut self, key: &str, v: Value) -> Self {
        self.0.insert(key.into(), v);
        self
    }

    pub fn build(self) -> Value {
        Value::Object(self.0)
    }
}

/// The `type` of an event value.
pub fn event_type(ev: &Value) -> &str {
    ev.get("type").and_then(Value::as_str).unwrap_or("")
}
