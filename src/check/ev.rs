//! [`Ev`]: an AG-UI event as the rule families read it: a typed [`Event`] the mapper made (read
//! field by field, no JSON), or a JSON event (an AG-UI capture, or one the client's chunk
//! expansion made), whose few top-level keys are scanned.

use serde_json::Value;

use crate::agui::{Event, EventType, Message, Msg};
use crate::json::Field;

/// An event, and its type when `type` names an AG-UI 1.0 event type.
#[derive(Clone, Copy)]
pub struct Ev<'a> {
    pub src: Src<'a>,
    /// The event's type, when `type` names an AG-UI 1.0 event type.
    pub kind: Option<EventType>,
    /// Its `subagentRunId` when a string (the lane every family reads: found once).
    pub sub: Option<&'a str>,
}

/// What an [`Ev`] reads: a JSON event, or a typed one the mapper made.
#[derive(Clone, Copy)]
pub enum Src<'a> {
    Json(&'a Value),
    Typed(&'a Event),
}

/// A field's value: a typed event's string, or JSON.
#[derive(Clone, Copy)]
enum F<'a> {
    Str(&'a str),
    Json(&'a Value),
}

/// Top-level key `k` of a typed event whose kind is `kind`, as the JSON it is written as has it,
/// for the keys the rules read of a typed event: any other key (a start's `role`, RUN_ERROR's
/// `message` and `code`, CUSTOM's `name`) is `None` here; add its arm before a rule reads it.
/// THINKING_* are read as JSON (the client's shim rewrites them); the kinds only a capture holds
/// are passed through. A snapshot's messages: [`Ev::messages`].
fn typed_field<'a>(ev: &'a Event, kind: Option<EventType>, k: &str) -> Option<F<'a>> {
    use Event as E;
    use F::{Json, Str};
    Some(match (k, ev) {
        // The kind's name (one match over the event, not three); THINKING_* have no kind.
        ("type", _) => Str(kind.map_or_else(|| ev.type_name(), |k| k.as_str())),
        // The keys read most, first (the arms are tried in order).
        (
            "messageId",
            E::TextMessageStart { message_id, .. }
            | E::TextMessageContent { message_id, .. }
            | E::TextMessageEnd { message_id, .. }
            | E::ReasoningStart { message_id, .. }
            | E::ReasoningMessageStart { message_id, .. }
            | E::ReasoningMessageContent { message_id, .. }
            | E::ReasoningMessageEnd { message_id, .. }
            | E::ReasoningEnd { message_id, .. }
            | E::ToolCallResult { message_id, .. },
        ) => Str(message_id),
        ("delta", _) => Str(ev.delta()?),
        (
            "toolCallId",
            E::ToolCallStart { tool_call_id, .. }
            | E::ToolCallArgs { tool_call_id, .. }
            | E::ToolCallEnd { tool_call_id, .. }
            | E::ToolCallResult { tool_call_id, .. },
        ) => Str(tool_call_id),
        ("threadId", E::RunStarted { thread_id, .. } | E::RunFinished { thread_id, .. }) => {
            Str(thread_id)
        }
        ("runId", E::RunStarted { run_id, .. } | E::RunFinished { run_id, .. }) => Str(run_id),
        ("input", E::RunStarted { input, .. }) => Json(input.as_ref()?),
        ("outcome", E::RunFinished { outcome, .. } | E::SubagentFinished { outcome, .. }) => {
            Json(outcome)
        }
        ("result", E::SubagentFinished { result, .. }) => Json(result.as_ref()?),
        ("message", E::SubagentError { message, .. }) => Str(message),
        ("stepName", E::StepStarted { step_name, .. } | E::StepFinished { step_name, .. }) => {
            Str(step_name)
        }
        (
            "parentMessageId",
            E::ToolCallStart {
                parent_message_id, ..
            },
        ) => Str(parent_message_id.as_deref()?),
        ("content", E::ToolCallResult { content, .. }) => Str(content.text()?),
        ("name", E::SubagentStarted { name, .. }) => Str(name),
        (
            "parentToolCallId",
            E::SubagentStarted {
                parent_tool_call_id,
                ..
            },
        ) => Str(parent_tool_call_id.as_deref()?),
        _ => return None,
    })
}

impl<'a> Ev<'a> {
    /// A JSON event.
    pub fn of(v: &'a Value) -> Ev<'a> {
        let kind = v.field_str("type").and_then(EventType::of);
        let sub = v.field_str("subagentRunId");
        Ev {
            src: Src::Json(v),
            kind,
            sub,
        }
    }

    /// The event the mapper made (a passed-through one is read as JSON).
    pub fn of_event(ev: &'a Event) -> Ev<'a> {
        match ev {
            Event::Passthrough(v) => Ev::of(v),
            _ => Ev {
                src: Src::Typed(ev),
                kind: ev.kind(),
                sub: ev.subagent(),
            },
        }
    }

    /// Top-level key `k`, when the event has it.
    #[inline]
    fn field(&self, k: &str) -> Option<F<'a>> {
        match self.src {
            // A scan, not the map's hashing: an event has a few top-level keys.
            Src::Json(v) => v
                .as_object()?
                .iter()
                .find(|(key, _)| *key == k)
                .map(|(_, x)| F::Json(x)),
            Src::Typed(ev) => typed_field(ev, self.kind, k),
        }
    }

    /// The JSON value of top-level key `k` (as `Value::get`). A typed event's string fields
    /// are not JSON: read them with [`Ev::s`].
    #[inline]
    pub fn get(&self, k: &str) -> Option<&'a Value> {
        match self.field(k)? {
            F::Json(v) => Some(v),
            F::Str(_) => None,
        }
    }

    /// The messages the event hands the client: a `MESSAGES_SNAPSHOT`'s, or those of a
    /// `RUN_STARTED`'s `input` echo.
    pub fn messages(&self) -> Option<Vec<Msg<'a>>> {
        let list = match (self.src, self.kind?) {
            (Src::Typed(Event::MessagesSnapshot { messages, .. }), _) => {
                return Some(messages.iter().map(Message::view).collect())
            }
            (_, EventType::MessagesSnapshot) => self.get("messages")?,
            (_, EventType::RunStarted) => self.get2("input", "messages")?,
            _ => return None,
        };
        Some(list.as_array()?.iter().map(Msg::Json).collect())
    }

    /// The string value of top-level key `k`.
    #[inline]
    pub fn s(&self, k: &str) -> Option<&'a str> {
        match self.field(k)? {
            F::Str(s) => Some(s),
            F::Json(v) => v.as_str(),
        }
    }

    /// The event type, or "" when absent or not a string.
    #[inline]
    pub fn t(&self) -> &'a str {
        match self.kind {
            // The name of a 1.0 type is what `type` says (no field read).
            Some(k) => k.as_str(),
            None => self.s("type").unwrap_or(""),
        }
    }

    /// `self.v.pointer("/a/b")` for two plain keys.
    #[inline]
    pub fn get2(&self, a: &str, b: &str) -> Option<&'a Value> {
        self.get(a).and_then(|x| x.field(b))
    }
}
