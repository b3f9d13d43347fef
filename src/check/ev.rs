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
        let mut str = |slot: Slot, s: &'a str| e.f[slot as usize] = Some(F::Str(s));
        use Slot as S;
        match ev {
            Event::Passthrough(v) => return Ev::of(v),
            Event::RunStarted {
                thread_id, run_id, ..
            }
            | Event::RunFinished {
                thread_id, run_id, ..
            } => {
                str(S::thread_id, thread_id);
                str(S::run_id, run_id);
            }
            Event::RunError { message, code, .. } => {
                str(S::message, message);
                if let Some(code) = code {
                    str(S::code, code);
                }
            }
            Event::StepStarted { step_name, .. } | Event::StepFinished { step_name, .. } => {
                str(S::step_name, step_name)
            }
            Event::TextMessageStart {
                message_id, role, ..
            }
            | Event::ReasoningMessageStart {
                message_id, role, ..
            } => {
                str(S::message_id, message_id);
                str(S::role, role.as_str());
            }
            Event::TextMessageContent {
                message_id, delta, ..
            }
            | Event::ReasoningMessageContent {
                message_id, delta, ..
            } => {
                str(S::message_id, message_id);
                str(S::delta, delta);
            }
            Event::TextMessageEnd { message_id, .. }
            | Event::ReasoningStart { message_id, .. }
            | Event::ReasoningMessageEnd { message_id, .. }
            | Event::ReasoningEnd { message_id, .. } => str(S::message_id, message_id),
            Event::ToolCallStart {
                tool_call_id,
                tool_call_name,
                parent_message_id,
                ..
            } => {
                str(S::tool_call_id, tool_call_id);
                str(S::tool_call_name, tool_call_name);
                if let Some(p) = parent_message_id {
                    str(S::parent_message_id, p);
                }
            }
            Event::ToolCallArgs {
                tool_call_id,
                delta,
                ..
            } => {
                str(S::tool_call_id, tool_call_id);
                str(S::delta, delta);
            }
            Event::ToolCallEnd { tool_call_id, .. } => str(S::tool_call_id, tool_call_id),
            Event::ToolCallResult {
                message_id,
                tool_call_id,
                content,
                role,
                ..
            } => {
                str(S::message_id, message_id);
                str(S::tool_call_id, tool_call_id);
                if let Some(text) = content.text() {
                    str(S::content, text);
                }
                str(S::role, role.as_str());
            }
            Event::Custom { name, .. } => str(S::name, name),
            Event::SubagentStarted {
                name,
                parent_tool_call_id,
                ..
            } => {
                str(S::name, name);
                if let Some(p) = parent_tool_call_id {
                    str(S::parent_tool_call_id, p);
                }
            }
            Event::SubagentFinished { .. } => {}
            Event::SubagentError { message, code, .. } => {
                str(S::message, message);
                if let Some(c) = code {
                    str(S::code, c);
                }
            }
            Event::ThinkingTextMessageContent { delta, .. } => str(S::delta, delta),
            // The kinds only a capture holds reach the checker as JSON (a capture's events
            // are passed through).
            Event::TextMessageChunk { .. }
            | Event::ToolCallChunk { .. }
            | Event::ReasoningMessageChunk { .. }
            | Event::StateDelta { .. }
            | Event::ActivitySnapshot { .. }
            | Event::ActivityDelta { .. }
            | Event::Raw { .. }
            | Event::StateSnapshot { .. }
            | Event::MessagesSnapshot { .. }
            | Event::ReasoningEncryptedValue { .. }
            | Event::ThinkingStart { .. }
            | Event::ThinkingTextMessageStart { .. }
            | Event::ThinkingTextMessageEnd { .. }
            | Event::ThinkingEnd { .. } => {}
        }
        // The kind's name (one match over the event, not three); THINKING_* have no kind.
        str(
            S::ty,
            match kind {
                Some(k) => k.as_str(),
                None => ev.type_name(),
            },
        );
        if let Some(s) = ev.subagent() {
            str(S::subagent_run_id, s);
        }
        // The fields the rules read as JSON (a `MESSAGES_SNAPSHOT`'s list: [`Ev::list`]).
        match ev {
            Event::RunStarted { input: Some(i), .. } => e.f[S::input as usize] = Some(F::Json(i)),
            Event::RunFinished { outcome, .. } => e.f[S::outcome as usize] = Some(F::Json(outcome)),
            Event::SubagentFinished {
                outcome, result, ..
            } => {
                e.f[S::outcome as usize] = Some(F::Json(outcome));
                if let Some(r) = result {
                    e.f[S::result as usize] = Some(F::Json(r));
                }
            }
            _ => {}
        }
        e
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

    /// The array of top-level key `k` (a typed `MESSAGES_SNAPSHOT`'s `messages`, too).
    pub fn list(&self, k: &str) -> Option<&'a [Value]> {
        match (self.src, k) {
            (Src::Typed(Event::MessagesSnapshot { messages, .. }), "messages") => Some(messages),
            _ => self.get(k)?.as_array().map(Vec::as_slice),
        }
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
