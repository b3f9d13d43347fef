//! The AG-UI 1.0 vocabulary: [`EventType`] (the 31 type names, for reading any stream) and
//! [`Event`] (the events aguify writes, typed, serialized by serde derive).

mod event;
mod message;

pub use message::{Function, Item, Message, Msg, ToolCall};

pub use event::{
    ErrorDetail, Event, EventType, ResultStatus, Role, Snapshot, Subtype, ToolContent, UsageTotal,
    EVENT_TYPES,
};

use serde_json::Value;

/// The `type` of an event value.
pub fn event_type(ev: &Value) -> &str {
    ev.get("type").and_then(Value::as_str).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_types_are_the_list() {
        let name = |t: &str| EventType::of(t).map(EventType::as_str);
        for t in EVENT_TYPES {
            assert_eq!(name(t), Some(t));
        }
        for t in [
            "",
            "THINKING_START",
            "text_message_start",
            "RUN_STARTED ",
            "RAW2",
        ] {
            assert_eq!(name(t), None);
        }
    }
}
