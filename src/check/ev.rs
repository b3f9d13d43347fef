//! [`Ev`]: an AG-UI event as the rule families read it, with its top-level fields found once:
//! a typed [`Event`] the mapper made (read field by field, no JSON), or a JSON event (an
//! AG-UI capture, or one the client's chunk expansion made), whose keys are found in one pass.

use serde_json::Value;

use crate::agui::{Event, EventType};

macro_rules! fields {
    ($($field:ident = $key:literal),* $(,)?) => {
        /// The index of each kept field in [`Ev`]'s array (declaration order).
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy)]
        enum Slot {
            $($field,)*
            Count,
        }

        /// An event and its top-level fields.
        #[derive(Clone, Copy)]
        pub struct Ev<'a> {
            src: Src<'a>,
            /// The event's type, when `type` names an AG-UI 1.0 event type.
            pub kind: Option<EventType>,
            f: [Option<F<'a>>; Slot::Count as usize],
        }

        impl<'a> Ev<'a> {
            /// A JSON event.
            pub fn of(v: &'a Value) -> Ev<'a> {
                let mut e = Ev { src: Src::Json(v), kind: None, f: [None; Slot::Count as usize] };
                if let Some(o) = v.as_object() {
                    for (k, x) in o {
                        match k.as_str() {
                            $($key => e.f[Slot::$field as usize] = Some(F::Json(x)),)*
                            _ => {}
                        }
                    }
                }
                e.kind = e.s("type").and_then(EventType::of);
                e
            }

            fn slot(k: &str) -> Option<Slot> {
                match k {
                    $($key => Some(Slot::$field),)*
                    _ => None,
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
    parent_tool_call_id = "parentToolCallId",
}

#[derive(Clone, Copy)]
enum Src<'a> {
    Json(&'a Value),
    Typed(&'a Event),
}

/// A field's value: a typed event's string, or JSON.
#[derive(Clone, Copy)]
enum F<'a> {
    Str(&'a str),
    Json(&'a Value),
}

impl<'a> Ev<'a> {
    /// The event the mapper made (a passed-through one is read as JSON).
    pub fn of_event(ev: &'a Event) -> Ev<'a> {
        let kind = ev.kind();
        let mut e = Ev {
            src: Src::Typed(ev),
            kind,
            f: [None; Slot::Count as usize],
        };
        use Slot as S;
        match ev {
            Event::Passthrough(v) => return Ev::of(v),
            Event::RunStarted {
                thread_id,
                run_id,
                input,
                ..
            } => {
                e.set_str(S::thread_id, Some(thread_id));
                e.set_str(S::run_id, Some(run_id));
                e.set_json(S::input, input.as_ref());
            }
            Event::RunFinished {
                thread_id,
                run_id,
                outcome,
                ..
            } => {
                e.set_str(S::thread_id, Some(thread_id));
                e.set_str(S::run_id, Some(run_id));
                e.set_json(S::outcome, Some(outcome));
            }
            Event::SubagentError { message, .. } => e.set_str(S::message, Some(message)),
            Event::StepStarted { step_name, .. } | Event::StepFinished { step_name, .. } => {
                e.set_str(S::step_name, Some(step_name))
            }
            Event::TextMessageContent {
                message_id, delta, ..
            }
            | Event::ReasoningMessageContent {
                message_id, delta, ..
            } => {
                e.set_str(S::message_id, Some(message_id));
                e.set_str(S::delta, Some(delta));
            }
            Event::TextMessageStart { message_id, .. }
            | Event::ReasoningMessageStart { message_id, .. }
            | Event::TextMessageEnd { message_id, .. }
            | Event::ReasoningStart { message_id, .. }
            | Event::ReasoningMessageEnd { message_id, .. }
            | Event::ReasoningEnd { message_id, .. } => e.set_str(S::message_id, Some(message_id)),
            Event::ToolCallStart {
                tool_call_id,
                tool_call_name,
                parent_message_id,
                ..
            } => {
                e.set_str(S::tool_call_id, Some(tool_call_id));
                e.set_str(S::tool_call_name, Some(tool_call_name));
                e.set_str(S::parent_message_id, parent_message_id.as_deref());
            }
            Event::ToolCallArgs {
                tool_call_id,
                delta,
                ..
            } => {
                e.set_str(S::tool_call_id, Some(tool_call_id));
                e.set_str(S::delta, Some(delta));
            }
            Event::ToolCallEnd { tool_call_id, .. } => {
                e.set_str(S::tool_call_id, Some(tool_call_id))
            }
            Event::ToolCallResult {
                message_id,
                tool_call_id,
                content,
                ..
            } => {
                e.set_str(S::message_id, Some(message_id));
                e.set_str(S::tool_call_id, Some(tool_call_id));
                e.set_str(S::content, content.text());
            }
            Event::SubagentStarted {
                name,
                parent_tool_call_id,
                ..
            } => {
                e.set_str(S::name, Some(name));
                e.set_str(S::parent_tool_call_id, parent_tool_call_id.as_deref());
            }
            Event::SubagentFinished {
                outcome, result, ..
            } => {
                e.set_json(S::outcome, Some(outcome));
                e.set_json(S::result, result.as_ref());
            }
            // THINKING_* are read as JSON (the client's shim rewrites them); the other kinds
            // only a capture holds, passed through. A snapshot's messages: [`Ev::messages`].
            _ => {}
        }
        // The kind's name (one match over the event, not three); THINKING_* have no kind.
        e.set_str(
            S::ty,
            Some(kind.map_or_else(|| ev.type_name(), |k| k.as_str())),
        );
        e.set_str(S::subagent_run_id, ev.subagent());
        e
    }

    /// Sets a typed event's string field (`None`: absent).
    fn set_str(&mut self, slot: Slot, s: Option<&'a str>) {
        self.f[slot as usize] = s.map(F::Str);
    }

    /// Sets a typed event's JSON field (`None`: absent).
    fn set_json(&mut self, slot: Slot, v: Option<&'a Value>) {
        self.f[slot as usize] = v.map(F::Json);
    }

    /// The JSON event, when it is one.
    pub fn json(&self) -> Option<&'a Value> {
        match self.src {
            Src::Json(v) => Some(v),
            Src::Typed(_) => None,
        }
    }

    /// The typed event, when it is one.
    pub fn typed(&self) -> Option<&'a Event> {
        match self.src {
            Src::Typed(e) => Some(e),
            Src::Json(_) => None,
        }
    }

    /// The JSON value of top-level key `k` (as `Value::get`). A typed event's string fields
    /// are not JSON: read them with [`Ev::s`], ask for them with [`Ev::has`].
    #[inline]
    pub fn get(&self, k: &str) -> Option<&'a Value> {
        match Ev::slot(k) {
            Some(slot) => match self.f[slot as usize]? {
                F::Json(v) => Some(v),
                F::Str(_) => None,
            },
            None => self.json()?.get(k),
        }
    }

    /// The messages the event hands the client: a `MESSAGES_SNAPSHOT`'s, or those of a
    /// `RUN_STARTED`'s `input` echo.
    pub fn messages(&self) -> Option<&'a [Value]> {
        let list = match (self.src, self.kind?) {
            (Src::Typed(Event::MessagesSnapshot { messages, .. }), _) => return Some(messages),
            (_, EventType::MessagesSnapshot) => self.get("messages")?,
            (_, EventType::RunStarted) => self.get2("input", "messages")?,
            _ => return None,
        };
        list.as_array().map(Vec::as_slice)
    }

    /// Whether the event has top-level key `k`.
    #[inline]
    pub fn has(&self, k: &str) -> bool {
        match Ev::slot(k) {
            Some(slot) => self.f[slot as usize].is_some(),
            None => self.json().is_some_and(|v| v.get(k).is_some()),
        }
    }

    /// The string value of top-level key `k`.
    #[inline]
    pub fn s(&self, k: &str) -> Option<&'a str> {
        match Ev::slot(k) {
            Some(slot) => match self.f[slot as usize]? {
                F::Str(s) => Some(s),
                F::Json(v) => v.as_str(),
            },
            None => self.json()?.get(k)?.as_str(),
        }
    }

    /// The event type, or "" when absent or not a string.
    #[inline]
    pub fn t(&self) -> &'a str {
        self.s("type").unwrap_or("")
    }

    /// `self.v.pointer("/a/b")` for two plain keys.
    #[inline]
    pub fn get2(&self, a: &str, b: &str) -> Option<&'a Value> {
        self.get(a).and_then(|x| x.get(b))
    }
}
