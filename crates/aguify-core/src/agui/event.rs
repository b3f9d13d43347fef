//! [`Event`]: the AG-UI 1.0 events, one variant per kind: the ones the mapper makes, and the
//! ones an AG-UI capture may hold, which the consumers (timeline, explain, report) read typed.
//!
//! serde derive writes each as `@ag-ui/encoder` does (`JSON.stringify` of the object the JS
//! SDK builds): `type` first, then `timestamp`, then the fields in declaration order, camelCase,
//! an absent optional field left out (never `null`). The parts the mapper copies from recorded
//! JSON (messages, states, custom values, interrupt payloads) stay `serde_json::Value`s.
//! [`Event::read`] reads a capture's event as the schema has it (unknown keys ignored); a
//! field marked `default` that a capture leaves out reads as empty (the schema check reports
//! it), so that a broken capture's runs still begin and end, its spans open and close.

use std::borrow::Cow;

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::Message;
use crate::json::Field;
pub use crate::model::{Snapshot, ToolContent};
use crate::payload::Payload;

/// An event's `timestamp` (ms since the epoch), left out when absent.
type Ts = Option<i64>;

/// Declares [`Event`] from its variants' own fields: every variant gets `timestamp` first,
/// one written `by subagent_run_id` gets `subagentRunId` (the sub-agent that produced it;
/// absent: the run's own agent) after it, and `of field` names the field holding the id of
/// the item (message, tool call) the event belongs to ([`Event::item`]). Also declares
/// [`EventType`] and [`EVENT_TYPES`] (the 1.0 types: all but the `thinking` ones), and what is
/// read off the two common fields and the kind. A field written `name?: T`, as the protocol's
/// TypeScript types write an optional one, is an `Option<T>` left out when absent; one written `name: T = default` reads as
/// `T::default()` when a capture leaves it out. A `thinking` variant names the REASONING_* one
/// it stands for (`for …`), from which [`Event::into_thinking`] is declared.
macro_rules! events {
    (
        events { $($(#[$u_attr:meta])* $u:ident = $u_name:literal $(by $sub:ident $(of $item:ident)?)? { $($(#[$u_fa:meta])* $u_f:ident $(?: $u_o:ty)? $(: $u_t:ty $(= $u_d:ident)?)?,)* })* }
        thinking { $($(#[$t_attr:meta])* $t:ident = $t_name:literal for $t_of:ident { $($t_f:ident: $t_t:ty,)* })* }
    ) => {
        /// An AG-UI 1.0 event type (`EventType`): the checker tells event types apart by this
        /// instead of comparing their names once per rule family.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum EventType {
            $(#[doc = concat!("`", $u_name, "`")] $u,)*
        }

        /// Every event type of AG-UI 1.0 (`EventType`, 31 values).
        pub const EVENT_TYPES: [&str; 31] = [$($u_name,)*];

        impl EventType {
            /// The type named `t`, when it is an AG-UI 1.0 event type.
            #[inline]
            pub fn of(t: &str) -> Option<EventType> {
                Some(match t {
                    $($u_name => EventType::$u,)*
                    _ => return None,
                })
            }

            /// The type's name as written on the wire.
            pub fn as_str(self) -> &'static str {
                EVENT_TYPES[self as usize]
            }
        }

        /// An AG-UI 1.0 event. Each variant is the event type of the same name
        /// (`RunStarted` is `RUN_STARTED`; see [`EventType`]); its fields are that event's,
        /// snake_case for the wire's camelCase (`thread_id` is `threadId`), in the order they
        /// are written. Every variant has `timestamp` (ms, written first when present); the
        /// events a sub-agent may produce have `subagent_run_id`. `THINKING_*` variants are
        /// the AG-UI 0.x names `--compat thinking` writes. Serialize one with serde (or a
        /// [`FrameSink`](crate::FrameSink)) to get what `@ag-ui/encoder` writes.
        // The fields are the protocol's, documented there: https://docs.ag-ui.com
        #[allow(missing_docs)]
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "type", rename_all_fields = "camelCase")]
        pub enum Event {
            $($(#[$u_attr])*
            #[serde(rename = $u_name)]
            $u {
                #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "int")]
                timestamp: Ts,
                $(#[serde(skip_serializing_if = "Option::is_none")]
                $sub: Option<String>,)?
                $($(#[$u_fa])*
                $(#[serde(skip_serializing_if = "Option::is_none")] $u_f: Option<$u_o>)?
                $($(#[serde($u_d)])? $u_f: $u_t)?,)*
            },)*
            $($(#[$t_attr])*
            #[serde(rename = $t_name)]
            $t {
                #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "int")]
                timestamp: Ts,
                $($t_f: $t_t,)*
            },)*
            /// An AG-UI event read from an AG-UI capture (or a LangGraph `custom` event named
            /// `agui`) and passed through as it is: any type, any fields, so it cannot be
            /// typed losslessly.
            #[serde(untagged, skip_deserializing)]
            Passthrough(Value),
        }

        impl Event {
            /// The AG-UI 1.0 type, for a typed event of one (not a `THINKING_*` one) or a
            /// passed-through event whose `type` names one.
            pub fn kind(&self) -> Option<EventType> {
                match self {
                    $(Event::$u { .. } => Some(EventType::$u),)*
                    $(Event::$t { .. })|* => None,
                    Event::Passthrough(v) => v.field_str("type").and_then(EventType::of),
                }
            }

            /// The `type` as written.
            pub fn type_name(&self) -> &str {
                match self {
                    $(Event::$u { .. } => $u_name,)*
                    $(Event::$t { .. } => $t_name,)*
                    Event::Passthrough(v) => v.field_str("type").unwrap_or(""),
                }
            }

            /// The `timestamp` (ms), when the event has an integer one.
            pub fn timestamp(&self) -> Option<i64> {
                match self {
                    $(Event::$u { timestamp, .. })|*
                    | $(Event::$t { timestamp, .. })|* => *timestamp,
                    Event::Passthrough(v) => v.get("timestamp").and_then(Value::as_i64),
                }
            }

            /// The event at time `ts` (a passed-through event keeps its own).
            pub(crate) fn at(mut self, ts: Ts) -> Event {
                match &mut self {
                    $(Event::$u { timestamp, .. })|*
                    | $(Event::$t { timestamp, .. })|* => *timestamp = ts,
                    Event::Passthrough(_) => {}
                }
                self
            }

            /// The sub-agent the event belongs to (`subagentRunId`), if any.
            pub fn subagent(&self) -> Option<&str> {
                match self {
                    $($(Event::$u { $sub, .. } => $sub.as_deref(),)?)*
                    Event::SubagentStarted { subagent_run_id, .. }
                    | Event::SubagentFinished { subagent_run_id, .. }
                    | Event::SubagentError { subagent_run_id, .. } => Some(subagent_run_id),
                    Event::Passthrough(v) => v.get("subagentRunId").and_then(Value::as_str),
                    _ => None,
                }
            }

            /// The id of the item (text message, reasoning message, tool call) whose event
            /// this is, for an event a sub-agent may produce.
            pub fn item(&self) -> Option<&String> {
                match self {
                    $($($(Event::$u { $item, .. } => Some($item),)?)?)*
                    _ => None,
                }
            }

            /// `--compat thinking`: REASONING_* as the 0.x THINKING_* event (no ids, no role).
            pub fn into_thinking(self) -> Event {
                match self {
                    $(Event::$t_of { timestamp, $($t_f,)* .. } => Event::$t { timestamp, $($t_f),* },)*
                    Event::Passthrough(v) => Event::Passthrough(thinking_value(v)),
                    ev => ev,
                }
            }

            /// The event attributed to sub-agent `id` (an event that cannot carry one is
            /// unchanged).
            pub fn attributed(mut self, id: Option<&str>) -> Event {
                match &mut self {
                    $($(Event::$u { $sub, .. } => *$sub = id.map(str::to_string),)?)*
                    _ => {}
                }
                self
            }
        }

        /// [`Event::into_thinking`] of a passed-through event: its `type` renamed in place,
        /// `role` and `messageId` dropped.
        fn thinking_value(mut v: Value) -> Value {
            let thinking = match v.field_str("type").and_then(EventType::of) {
                $(Some(EventType::$t_of) => $t_name,)*
                _ => return v,
            };
            if let Some(m) = v.as_object_mut() {
                m.insert("type".into(), Value::String(thinking.into()));
                m.shift_remove("role");
                m.shift_remove("messageId");
            }
            v
        }
    };
}

events! {
    events {
        RunStarted = "RUN_STARTED" {
            thread_id: String = default,
            run_id: String = default,
            /// `RunAgentInput`: `threadId`, `runId`, `messages`, maybe `resume`.
            input?: Value,
        }
        RunFinished = "RUN_FINISHED" {
            thread_id: String = default,
            run_id: String = default,
            /// `{"type":"success"…}` or `{"type":"interrupt","interrupts":[…]}`.
            outcome: Value = default,
            usage?: Vec<UsageTotal>,
        }
        RunError = "RUN_ERROR" {
            /// A capture's `rawEvent` may be anything: not read.
            #[serde(skip_deserializing)]
            raw_event?: ErrorDetail,
            message: String = default,
            code?: Cow<'static, str>,
        }
        MessagesSnapshot = "MESSAGES_SNAPSHOT" {
            messages: Vec<Message>,
        }
        /// A sub-agent (a graph run inside a tool call) begins; its events carry its id.
        SubagentStarted = "SUBAGENT_STARTED" {
            subagent_run_id: String = default,
            name: String = default,
            parent_tool_call_id?: String,
        }
        /// A sub-agent ended: `{"type":"success"}` or `{"type":"suspended","interruptIds":[…]}`.
        SubagentFinished = "SUBAGENT_FINISHED" {
            subagent_run_id: String = default,
            /// What the sub-agent handed back to its parent tool (the tool's result).
            result?: Value,
            outcome: Value = default,
        }
        /// A sub-agent raised.
        SubagentError = "SUBAGENT_ERROR" {
            subagent_run_id: String = default,
            message: String = default,
            code?: Cow<'static, str>,
        }
        // The kinds only a capture holds.
        TextMessageChunk = "TEXT_MESSAGE_CHUNK" {
            message_id?: String,
            role?: Role,
            delta?: String,
        }
        ToolCallChunk = "TOOL_CALL_CHUNK" {
            tool_call_id?: String,
            tool_call_name?: String,
            parent_message_id?: String,
            delta?: String,
        }
        ReasoningMessageChunk = "REASONING_MESSAGE_CHUNK" {
            message_id?: String,
            delta?: String,
        }
        StateDelta = "STATE_DELTA" {
            /// JSON Patch operations.
            delta: Vec<Value>,
        }
        ActivitySnapshot = "ACTIVITY_SNAPSHOT" {
            message_id: String,
            activity_type: String,
            content: Value,
            replace?: bool,
        }
        ActivityDelta = "ACTIVITY_DELTA" {
            message_id: String,
            activity_type: String,
            patch: Vec<Value>,
        }
        Raw = "RAW" {
            event: Value,
            source?: String,
        }
        // The kinds a sub-agent may produce.
        StepStarted = "STEP_STARTED" by subagent_run_id {
            step_name: String,
        }
        StepFinished = "STEP_FINISHED" by subagent_run_id {
            step_name: String,
        }
        TextMessageStart = "TEXT_MESSAGE_START" by subagent_run_id of message_id {
            message_id: String,
            /// The client's default when absent.
            role: Role = default,
        }
        TextMessageContent = "TEXT_MESSAGE_CONTENT" by subagent_run_id of message_id {
            message_id: String,
            delta: String,
        }
        TextMessageEnd = "TEXT_MESSAGE_END" by subagent_run_id of message_id {
            message_id: String,
        }
        ToolCallStart = "TOOL_CALL_START" by subagent_run_id of tool_call_id {
            tool_call_id: String,
            tool_call_name: String,
            parent_message_id?: String,
        }
        ToolCallArgs = "TOOL_CALL_ARGS" by subagent_run_id of tool_call_id {
            tool_call_id: String,
            delta: String,
        }
        ToolCallEnd = "TOOL_CALL_END" by subagent_run_id of tool_call_id {
            tool_call_id: String,
        }
        ToolCallResult = "TOOL_CALL_RESULT" by subagent_run_id of tool_call_id {
            message_id: String,
            tool_call_id: String,
            content: ToolContent,
            #[serde(default = "Role::tool")]
            role: Role,
            /// `{"status":"error"}` for a failed call.
            metadata?: ResultStatus,
        }
        StateSnapshot = "STATE_SNAPSHOT" by subagent_run_id {
            snapshot: Snapshot,
        }
        Custom = "CUSTOM" by subagent_run_id {
            name: String,
            value: Payload = default,
        }
        ReasoningStart = "REASONING_START" by subagent_run_id of message_id {
            message_id: String,
        }
        ReasoningMessageStart = "REASONING_MESSAGE_START" by subagent_run_id of message_id {
            message_id: String,
            #[serde(default = "Role::reasoning")]
            role: Role,
        }
        ReasoningMessageContent = "REASONING_MESSAGE_CONTENT" by subagent_run_id of message_id {
            message_id: String,
            delta: String,
        }
        ReasoningMessageEnd = "REASONING_MESSAGE_END" by subagent_run_id of message_id {
            message_id: String,
        }
        ReasoningEnd = "REASONING_END" by subagent_run_id of message_id {
            message_id: String,
        }
        ReasoningEncryptedValue = "REASONING_ENCRYPTED_VALUE" by subagent_run_id of entity_id {
            /// `message` (the mapper encrypts no tool call).
            subtype: Subtype,
            entity_id: String,
            encrypted_value: String = default,
        }
    }
    thinking {
        /// `--compat thinking`: the 0.x names TDesign Chat 0.5.2 reads, which carry no ids or
        /// role ([`Event::into_thinking`]).
        ThinkingStart = "THINKING_START" for ReasoningStart {}
        ThinkingTextMessageStart = "THINKING_TEXT_MESSAGE_START" for ReasoningMessageStart {}
        ThinkingTextMessageContent = "THINKING_TEXT_MESSAGE_CONTENT" for ReasoningMessageContent {
            delta: String,
        }
        ThinkingTextMessageEnd = "THINKING_TEXT_MESSAGE_END" for ReasoningMessageEnd {}
        ThinkingEnd = "THINKING_END" for ReasoningEnd {}
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
/// A message's `role`, as AG-UI names it.
#[allow(missing_docs)] // the variants are the protocol's names
pub enum Role {
    #[default]
    Assistant,
    Reasoning,
    Tool,
    User,
    System,
    Developer,
}

impl Role {
    /// The role as written on the wire.
    pub fn as_str(self) -> &'static str {
        [
            "assistant",
            "reasoning",
            "tool",
            "user",
            "system",
            "developer",
        ][self as usize]
    }

    fn tool() -> Role {
        Role::Tool
    }

    fn reasoning() -> Role {
        Role::Reasoning
    }
}

/// A `REASONING_ENCRYPTED_VALUE`'s `subtype`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Subtype {
    /// `tool-call`
    ToolCall,
    /// `message`
    Message,
}

/// A capture's `timestamp`: ms when it is an integer (a float or other JSON reads as none,
/// which the schema check reports).
fn int<'de, D: Deserializer<'de>>(d: D) -> Result<Ts, D::Error> {
    Ok(Option::<Value>::deserialize(d)?.and_then(|v| v.as_i64()))
}

/// A `RUN_ERROR`'s `rawEvent`: the log's error as it named it (the model's error, serialized
/// `{"error"?, "message", "lc_error_code"?}`).
pub use crate::model::ErrorInfo as ErrorDetail;

/// A `TOOL_CALL_RESULT`'s `metadata` (not in the schema; a capture's may hold anything).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultStatus {
    /// `success` or `error`.
    #[serde(default)]
    pub status: Cow<'static, str>,
}

/// One (provider, model)'s tokens in a `RUN_FINISHED`'s `usage` (each count optional in a
/// capture: an absent one reads as 0, an absent total as none).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct UsageTotal {
    /// The model's provider (`openai`), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// The model's name, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Completion tokens.
    pub output_tokens: u64,
    /// The provider's total, when it gave one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_tokens: Option<u64>,
    /// Reasoning tokens (counted in `output_tokens` too); 0 is not written.
    #[serde(skip_serializing_if = "is_zero")]
    pub reasoning_tokens: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl Event {
    /// A capture's event typed, when it is a valid AG-UI 1.0 (or 0.x `THINKING_*`) event;
    /// keys the schema does not name are left out.
    pub fn read(v: &Value) -> Option<Event> {
        Event::deserialize(v).ok()
    }

    /// What a text message's, reasoning message's (or 0.x thinking one's) or tool call's
    /// content or chunk event adds to it (a tool call's: more of its arguments), when the
    /// event says.
    pub fn delta(&self) -> Option<&str> {
        match self {
            Event::TextMessageContent { delta, .. }
            | Event::ReasoningMessageContent { delta, .. }
            | Event::ThinkingTextMessageContent { delta, .. }
            | Event::ToolCallArgs { delta, .. } => Some(delta),
            Event::TextMessageChunk { delta, .. }
            | Event::ReasoningMessageChunk { delta, .. }
            | Event::ToolCallChunk { delta, .. } => delta.as_deref(),
            _ => None,
        }
    }

    /// The event typed: itself, or a passed-through event read ([`Event::read`]) when it is
    /// valid. An invalid one stays passed through.
    pub fn typed(&self) -> Cow<'_, Event> {
        match self {
            Event::Passthrough(v) => Event::read(v).map_or(Cow::Borrowed(self), Cow::Owned),
            typed => Cow::Borrowed(typed),
        }
    }

    /// The event as written, as a JSON tree (a passed-through one borrowed): for what
    /// compares or checks events as JSON (`diff --exact`, the checker's `THINKING_*` shim).
    pub fn to_value(&self) -> Cow<'_, Value> {
        match self {
            Event::Passthrough(v) => Cow::Borrowed(v),
            // Serializing our own types into a tree cannot fail.
            typed => Cow::Owned(serde_json::to_value(typed).unwrap_or(Value::Null)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn text(ev: &Event) -> String {
        serde_json::to_string(ev).expect("serializes")
    }

    /// `type`, then `timestamp` when there is one, then the fields; absent ones left out.
    #[test]
    fn events_serialize_in_encoder_order() {
        let ev = Event::ToolCallStart {
            subagent_run_id: None,
            timestamp: Some(17),
            tool_call_id: "c".into(),
            tool_call_name: "f".into(),
            parent_message_id: None,
        };
        assert_eq!(
            text(&ev),
            r#"{"type":"TOOL_CALL_START","timestamp":17,"toolCallId":"c","toolCallName":"f"}"#
        );
        let ev = Event::RunError {
            timestamp: None,
            raw_event: Some(ErrorDetail {
                name: None,
                message: "m".into(),
                lc_code: Some("X".into()),
            }),
            message: "m".into(),
            code: Some("E".into()),
        };
        assert_eq!(
            text(&ev),
            r#"{"type":"RUN_ERROR","rawEvent":{"message":"m","lc_error_code":"X"},"message":"m","code":"E"}"#
        );
        let passed = json!({"timestamp": 1, "type": "RAW", "event": null});
        assert_eq!(
            text(&Event::Passthrough(passed.clone())),
            passed.to_string()
        );
    }

    /// A capture's event reads typed when the schema allows it; a missing field reads as
    /// empty; a mistyped one leaves the event passed through.
    #[test]
    fn captures_read_typed_where_valid() {
        let read = |v: Value| Event::Passthrough(v).typed().into_owned();
        let ev = read(
            json!({"type": "TOOL_CALL_RESULT", "timestamp": 1.5, "messageId": "m",
            "toolCallId": "c", "content": [{"type": "text", "text": "t"}], "extra": 1}),
        );
        let Event::ToolCallResult {
            timestamp,
            content,
            role,
            ..
        } = ev
        else {
            panic!("{ev:?}")
        };
        assert_eq!((timestamp, content.text(), role), (None, None, Role::Tool));
        let ev = read(json!({"type": "RUN_FINISHED", "timestamp": 7}));
        assert_eq!(ev.timestamp(), Some(7));
        assert!(
            matches!(ev, Event::RunFinished { run_id, outcome: Value::Null, .. } if run_id.is_empty())
        );
        let ev = read(json!({"type": "TEXT_MESSAGE_CHUNK", "delta": "d"}));
        assert!(matches!(
            ev,
            Event::TextMessageChunk {
                message_id: None,
                ..
            }
        ));
        for bad in [
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": 3}),
            json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "robot"}),
            json!({"type": "NOT_A_TYPE"}),
            json!([1]),
        ] {
            assert_eq!(read(bad.clone()), Event::Passthrough(bad));
        }
    }

    /// SUBAGENT_* and a sub-agent's events read back as written; a capture that leaves a
    /// sub-agent's fields out still reads typed (its id empty, no outcome).
    #[test]
    fn subagent_events_read_back() {
        let written = [
            Event::SubagentStarted {
                timestamp: Some(1),
                subagent_run_id: "s".into(),
                name: "n".into(),
                parent_tool_call_id: Some("c".into()),
            },
            Event::SubagentFinished {
                timestamp: None,
                subagent_run_id: "s".into(),
                result: Some(json!("r")),
                outcome: json!({"type": "suspended", "interruptIds": ["i"]}),
            },
            Event::SubagentError {
                timestamp: None,
                subagent_run_id: "s".into(),
                message: "boom".into(),
                code: Some("TOOL_ERROR".into()),
            },
            Event::StepStarted {
                timestamp: None,
                subagent_run_id: Some("s".into()),
                step_name: "tools".into(),
            },
        ];
        for ev in written {
            let back = Event::Passthrough(ev.to_value().into_owned())
                .typed()
                .into_owned();
            assert_eq!(back, ev);
            assert_eq!(back.subagent(), Some("s"));
        }
        let read = |v: Value| Event::Passthrough(v).typed().into_owned();
        let ev = read(json!({"type": "SUBAGENT_FINISHED"}));
        assert!(matches!(
            ev,
            Event::SubagentFinished { subagent_run_id, result: None, outcome: Value::Null, .. }
                if subagent_run_id.is_empty()
        ));
        let ev = read(json!({"type": "SUBAGENT_ERROR", "subagentRunId": "s"}));
        assert!(
            matches!(ev, Event::SubagentError { code: None, message, .. } if message.is_empty())
        );
        let bad = json!({"type": "SUBAGENT_STARTED", "subagentRunId": 7});
        assert_eq!(read(bad.clone()), Event::Passthrough(bad));
    }

    /// Each role's name is the one serde writes.
    #[test]
    fn role_names_are_the_written_ones() {
        use Role::*;
        for role in [Assistant, Reasoning, Tool, User, System, Developer] {
            assert_eq!(serde_json::to_value(role).ok(), Some(json!(role.as_str())));
        }
    }

    /// Each typed event names its type as serde writes it.
    #[test]
    fn type_names_are_the_written_ones() {
        let content = |message_id: &str| Event::ReasoningMessageContent {
            subagent_run_id: None,
            timestamp: Some(3),
            message_id: message_id.into(),
            delta: "d".into(),
        };
        for ev in [
            content("r"),
            content("r").into_thinking(),
            Event::ThinkingEnd { timestamp: None },
            Event::Custom {
                subagent_run_id: None,
                timestamp: None,
                name: "n".into(),
                value: Payload::from_value(&json!(null)),
            },
        ] {
            let v = ev.to_value();
            assert_eq!(ev.type_name(), v["type"]);
            assert_eq!(
                ev.kind().map(EventType::as_str),
                EventType::of(ev.type_name()).map(EventType::as_str)
            );
        }
        assert_eq!(
            text(&content("r").into_thinking()),
            r#"{"type":"THINKING_TEXT_MESSAGE_CONTENT","timestamp":3,"delta":"d"}"#
        );
        let passed = Event::Passthrough(
            json!({"type": "REASONING_START", "messageId": "r", "timestamp": 1}),
        );
        assert_eq!(
            text(&passed.into_thinking()),
            r#"{"type":"THINKING_START","timestamp":1}"#
        );
    }
}
