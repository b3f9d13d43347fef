//! The AG-UI 1.0 vocabulary: [`EventType`] (the 31 type names, for reading any stream) and
//! [`Event`] (the events aguify writes, typed, serialized by serde derive).

mod event;

pub use event::{
    ErrorDetail, Event, ResultStatus, Role, Snapshot, Subtype, ToolContent, UsageTotal,
};

use serde_json::Value;

/// Declares [`EventType`] and [`EVENT_TYPES`] from one list of names.
macro_rules! event_types {
    ($($variant:ident = $name:literal),* $(,)?) => {
        /// An AG-UI 1.0 event type (`EventType`): the checker tells event types apart by this
        /// instead of comparing their names once per rule family.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum EventType {
            $(#[doc = concat!("`", $name, "`")]
            $variant,)*
        }

        /// Every event type of AG-UI 1.0 (`EventType`, 31 values).
        pub const EVENT_TYPES: [&str; 31] = [$($name,)*];

        impl EventType {
            /// The type named `t`, when it is an AG-UI 1.0 event type.
            #[inline]
            pub fn of(t: &str) -> Option<EventType> {
                Some(match t {
                    $($name => EventType::$variant,)*
                    _ => return None,
                })
            }

            /// The type's name as written on the wire.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(EventType::$variant => $name,)*
                }
            }
        }
    };
}

event_types! {
    TextMessageStart = "TEXT_MESSAGE_START",
    TextMessageContent = "TEXT_MESSAGE_CONTENT",
    TextMessageEnd = "TEXT_MESSAGE_END",
    TextMessageChunk = "TEXT_MESSAGE_CHUNK",
    ToolCallStart = "TOOL_CALL_START",
    ToolCallArgs = "TOOL_CALL_ARGS",
    ToolCallEnd = "TOOL_CALL_END",
    ToolCallChunk = "TOOL_CALL_CHUNK",
    ToolCallResult = "TOOL_CALL_RESULT",
    StateSnapshot = "STATE_SNAPSHOT",
    StateDelta = "STATE_DELTA",
    MessagesSnapshot = "MESSAGES_SNAPSHOT",
    ActivitySnapshot = "ACTIVITY_SNAPSHOT",
    ActivityDelta = "ACTIVITY_DELTA",
    Raw = "RAW",
    Custom = "CUSTOM",
    RunStarted = "RUN_STARTED",
    RunFinished = "RUN_FINISHED",
    RunError = "RUN_ERROR",
    StepStarted = "STEP_STARTED",
    StepFinished = "STEP_FINISHED",
    ReasoningStart = "REASONING_START",
    ReasoningMessageStart = "REASONING_MESSAGE_START",
    ReasoningMessageContent = "REASONING_MESSAGE_CONTENT",
    ReasoningMessageEnd = "REASONING_MESSAGE_END",
    ReasoningMessageChunk = "REASONING_MESSAGE_CHUNK",
    ReasoningEnd = "REASONING_END",
    ReasoningEncryptedValue = "REASONING_ENCRYPTED_VALUE",
    SubagentStarted = "SUBAGENT_STARTED",
    SubagentFinished = "SUBAGENT_FINISHED",
    SubagentError = "SUBAGENT_ERROR",
}

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
