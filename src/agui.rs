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
    static_event_type(t).is_some()
}

/// `t` as the `&'static str` of [`EVENT_TYPES`], when it is an AG-UI event type (a `match`:
/// no scan of the list).
pub fn static_event_type(t: &str) -> Option<&'static str> {
    Some(match t {
        "TEXT_MESSAGE_START" => "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_CONTENT" => "TEXT_MESSAGE_CONTENT",
        "TEXT_MESSAGE_END" => "TEXT_MESSAGE_END",
        "TEXT_MESSAGE_CHUNK" => "TEXT_MESSAGE_CHUNK",
        "TOOL_CALL_START" => "TOOL_CALL_START",
        "TOOL_CALL_ARGS" => "TOOL_CALL_ARGS",
        "TOOL_CALL_END" => "TOOL_CALL_END",
        "TOOL_CALL_CHUNK" => "TOOL_CALL_CHUNK",
        "TOOL_CALL_RESULT" => "TOOL_CALL_RESULT",
        "STATE_SNAPSHOT" => "STATE_SNAPSHOT",
        "STATE_DELTA" => "STATE_DELTA",
        "MESSAGES_SNAPSHOT" => "MESSAGES_SNAPSHOT",
        "ACTIVITY_SNAPSHOT" => "ACTIVITY_SNAPSHOT",
        "ACTIVITY_DELTA" => "ACTIVITY_DELTA",
        "RAW" => "RAW",
        "CUSTOM" => "CUSTOM",
        "RUN_STARTED" => "RUN_STARTED",
        "RUN_FINISHED" => "RUN_FINISHED",
        "RUN_ERROR" => "RUN_ERROR",
        "STEP_STARTED" => "STEP_STARTED",
        "STEP_FINISHED" => "STEP_FINISHED",
        "REASONING_START" => "REASONING_START",
        "REASONING_MESSAGE_START" => "REASONING_MESSAGE_START",
        "REASONING_MESSAGE_CONTENT" => "REASONING_MESSAGE_CONTENT",
        "REASONING_MESSAGE_END" => "REASONING_MESSAGE_END",
        "REASONING_MESSAGE_CHUNK" => "REASONING_MESSAGE_CHUNK",
        "REASONING_END" => "REASONING_END",
        "REASONING_ENCRYPTED_VALUE" => "REASONING_ENCRYPTED_VALUE",
        "SUBAGENT_STARTED" => "SUBAGENT_STARTED",
        "SUBAGENT_FINISHED" => "SUBAGENT_FINISHED",
        "SUBAGENT_ERROR" => "SUBAGENT_ERROR",
        _ => return None,
    })
}

/// An event under construction.
pub struct EventBuilder(Map<String, Value>);

/// The keys of an event kind's fields, as ready maps to clone: cloning copies the hash table
/// and the keys' stored hashes, so filling one in hashes no key (each `insert` into
/// `serde_json`'s ordered map SipHashes its key). Declare one per call site with [`shape!`].
pub struct Shape {
    /// `type`, `timestamp`, the fields.
    with_ts: Keys,
    /// `type`, the fields.
    without_ts: Keys,
}

impl Shape {
    pub fn new(fields: &[&str]) -> Shape {
        let keys = |head: &[&str]| Keys::new(&[head, fields].concat());
        Shape {
            with_ts: keys(&["type", "timestamp"]),
            without_ts: keys(&["type"]),
        }
    }

    /// An event of this shape: `type`, `timestamp` when given, then `values` in field order.
    #[inline]
    pub fn event<const N: usize>(
        &self,
        kind: &str,
        timestamp: Option<i64>,
        values: [Value; N],
    ) -> EventBuilder {
        let keys = match timestamp {
            Some(_) => &self.with_ts,
            None => &self.without_ts,
        };
        debug_assert_eq!(keys.0.len(), 1 + usize::from(timestamp.is_some()) + N);
        let mut m = keys.0.clone();
        let mut slots = m.values_mut();
        if let Some(t) = slots.next() {
            *t = Value::String(kind.to_string());
        }
        if let Some(ts) = timestamp {
            if let Some(t) = slots.next() {
                *t = Value::Number(ts.into());
            }
        }
        for (slot, v) in slots.zip(values) {
            *slot = v;
        }
        EventBuilder(m)
    }
}

/// The keys of a plain object (no `type`/`timestamp` added), as a ready map to clone: see
/// [`Shape`]. Declare one per call site with [`keys!`].
pub struct Keys(Map<String, Value>);

impl Keys {
    pub fn new(keys: &[&str]) -> Keys {
        // Exactly these keys: a smaller table to copy (a field added after them with
        // `EventBuilder::val` may grow it).
        let mut m = Map::with_capacity(keys.len());
        for k in keys {
            let old = m.insert((*k).into(), Value::Null);
            assert!(old.is_none(), "duplicate key {k}");
        }
        Keys(m)
    }

    /// An object of these keys and `values`, in order.
    #[inline]
    pub fn object<const N: usize>(&self, values: [Value; N]) -> Value {
        debug_assert_eq!(N, self.0.len(), "one value per key");
        let mut m = self.0.clone();
        for (slot, v) in m.values_mut().zip(values) {
            *slot = v;
        }
        Value::Object(m)
    }
}

/// A `&'static Keys` for these keys, built once (see [`Keys`]).
#[macro_export]
macro_rules! keys {
    ($($k:literal),+ $(,)?) => {{
        static KEYS: ::std::sync::LazyLock<$crate::agui::Keys> =
            ::std::sync::LazyLock::new(|| $crate::agui::Keys::new(&[$($k),+]));
        &*KEYS
    }};
}

/// A `&'static Shape` for these field keys, built once (see [`Shape`]).
#[macro_export]
macro_rules! shape {
    ($($k:literal),+ $(,)?) => {{
        static SHAPE: ::std::sync::LazyLock<$crate::agui::Shape> =
            ::std::sync::LazyLock::new(|| $crate::agui::Shape::new(&[$($k),+]));
        &*SHAPE
    }};
}

impl EventBuilder {
    /// `type`, `timestamp` and up to five fields (RUN_FINISHED, TOOL_CALL_RESULT) fit in the
    /// same hash table (8 buckets) as four would.
    const CAPACITY: usize = 7;

    pub fn new(kind: &str, timestamp: Option<i64>) -> Self {
        // Room for every field an event of the mapper has, so inserting never regrows the map.
        let mut m = Map::with_capacity(Self::CAPACITY);
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
    crate::json::Field::field_str(ev, "type").unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn static_event_type_is_the_list() {
        for t in EVENT_TYPES {
            assert_eq!(static_event_type(t), Some(t));
            assert!(is_event_type(t));
        }
        for t in [
            "",
            "THINKING_START",
            "text_message_start",
            "RUN_STARTED ",
            "RAW2",
        ] {
            assert_eq!(static_event_type(t), None);
        }
    }

    #[test]
    fn shaped_events_equal_built_ones() {
        let shape = crate::shape!("messageId", "delta");
        for ts in [None, Some(1_700_000_000_000i64)] {
            let a = shape
                .event("TEXT_MESSAGE_CONTENT", ts, [json!("m1"), json!("hi")])
                .val("extra", json!(1))
                .build();
            let b = EventBuilder::new("TEXT_MESSAGE_CONTENT", ts)
                .str("messageId", "m1")
                .str("delta", "hi")
                .val("extra", json!(1))
                .build();
            assert_eq!(a, b);
            // Same key order, so the same bytes.
            assert_eq!(
                serde_json::to_string(&a).expect("serializes"),
                serde_json::to_string(&b).expect("serializes")
            );
        }
        let o = crate::keys!("type", "interrupts").object([json!("interrupt"), json!([])]);
        assert_eq!(
            serde_json::to_string(&o).expect("serializes"),
            r#"{"type":"interrupt","interrupts":[]}"#
        );
    }
}
