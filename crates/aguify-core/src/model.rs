//! The internal event model: what every input family is reduced to before mapping.
//!
//! Adapters speak LangGraph (v2 events, v3 protocol, platform SSE); the mapper speaks AG-UI.
//! This model is the narrow waist between them: provider styles (OpenAI Responses summaries,
//! Anthropic thinking, DeepSeek `reasoning_content`, standard blocks) are already unified here,
//! and messages are already in AG-UI message form.

use std::borrow::Cow;
use std::sync::Arc;

use crate::json::Field;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;

use crate::payload::Payload;
use crate::wire::langchain as lc;
use crate::wire::state::State;

/// Read from `{id, value, response_schema?}` or a v3 `input.requested` style
/// `{interrupt_id, payload}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct InterruptInfo {
    #[serde(alias = "interrupt_id")]
    pub id: String,
    /// The `interrupt()` payload.
    #[serde(default, alias = "payload")]
    pub value: Value,
    pub response_schema: Option<Value>,
    /// The tool call whose tool raised `interrupt()`, when the log says (the call stays open
    /// until the resume run answers it).
    #[serde(skip)]
    pub tool_call_id: Option<String>,
}

/// Token usage, as the wire reads it (defined below the model, so `wire` needs nothing of it).
pub use crate::wire::v3::Usage;

/// An error the log records: a run's, a tool's, a sub-agent's.
/// Serialized as a `RUN_ERROR`'s `rawEvent` (`{"error"?, "message", "lc_error_code"?}`: the
/// log's error as it named it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorInfo {
    /// Exception class (`ValueError`, `GraphRecursionError`, `Error`…), when known.
    #[serde(rename = "error", skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The error's message.
    pub message: String,
    /// LangChain's `lc_error_code` (e.g. `GRAPH_RECURSION_LIMIT`), when the log has it.
    #[serde(rename = "lc_error_code", skip_serializing_if = "Option::is_none")]
    pub lc_code: Option<String>,
}

/// A message of a state: a value, or a shared one.
#[derive(Clone, Copy, Debug)]
pub enum MessageRef<'a> {
    Value(&'a Value),
    Shared(&'a SharedJson),
}

pub use crate::wire::state::SharedJson;

impl MessageRef<'_> {
    /// The message's kind (`ai`, `human`, `tool`…) and `id`, as the normaliser reads them.
    pub fn kind_and_id(&self) -> (Option<String>, Option<String>) {
        match self {
            MessageRef::Value(v) => {
                let m = lc::normalize_cow(v);
                let id = m.field_str("id").map(str::to_string);
                (lc::message_kind(&m).map(str::to_string), id)
            }
            MessageRef::Shared(m) => (m.kind().map(str::to_string), m.id().map(str::to_string)),
        }
    }

    /// The call a tool message answers.
    pub fn tool_call(&self) -> Option<Cow<'_, str>> {
        match self {
            MessageRef::Value(v) => {
                // A tree is normalised only when it may be a tool message.
                let m = lc::may_be_tool_message(v).then(|| lc::normalize_cow(v))?;
                lc::tool_call_id(&m).map(|c| Cow::Owned(c.to_string()))
            }
            MessageRef::Shared(m) => m.tool_call().map(Cow::Borrowed),
        }
    }
}

/// A state, as [`ModelEvent::State`] and a `STATE_SNAPSHOT` hold it: a tree, or as a parse
/// thread read it, its messages shared (the sinks write its text from its parts,
/// `wire::state::State::write`, instead of a copy).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Snapshot {
    /// A state as a JSON tree.
    Value(Value),
    /// A state as a parse thread read it, its messages shared with the states before.
    #[serde(skip_deserializing, serialize_with = "encoded")]
    Encoded(Box<State>),
}

/// An encoded state written as its text.
fn encoded<S: Serializer>(state: &State, s: S) -> Result<S::Ok, S::Error> {
    let text = serde_json::value::RawValue::from_string(state.json());
    text.map_err(serde::ser::Error::custom)?.serialize(s)
}

impl Snapshot {
    /// The state as held (an encoded one's `messages` left empty) and its number of
    /// `messages` when it has a list of them: nothing copied.
    pub fn outline(&self) -> (&Value, Option<usize>) {
        match self {
            Snapshot::Value(v) => (v, v.get("messages").and_then(Value::as_array).map(Vec::len)),
            Snapshot::Encoded(state) => (&state.rest, Some(state.messages.len())),
        }
    }

    /// The state's `messages` as they are held, when it has a list of them.
    pub fn messages(&self) -> Option<Vec<MessageRef<'_>>> {
        match self {
            Snapshot::Value(v) => {
                let list = v.get("messages").and_then(Value::as_array)?;
                Some(list.iter().map(MessageRef::Value).collect())
            }
            Snapshot::Encoded(state) => {
                let list = state.messages.iter().map(|m| MessageRef::Shared(m));
                Some(list.collect())
            }
        }
    }

    /// The state as a JSON tree (an encoded one's built).
    pub fn to_value(&self) -> Cow<'_, Value> {
        match self {
            Snapshot::Value(v) => Cow::Borrowed(v),
            // As written: numbers as JavaScript writes them (`0.0` is `0`).
            Snapshot::Encoded(state) => {
                Cow::Owned(serde_json::from_str(&state.json()).unwrap_or(Value::Null))
            }
        }
    }
}

/// A tool's result, as the log gives it ([`ModelEvent::ToolEnd`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    /// The call's id.
    pub tool_call_id: String,
    /// The tool's name, when the log has it here.
    pub name: Option<String>,
    /// The result's content in its AG-UI form (text, or content parts holding media).
    pub content: ToolContent,
    /// The id of the `ToolMessage` holding the result, when known.
    pub message_id: Option<String>,
    /// The tool raised and the error became its result (a handled tool error).
    pub error: bool,
}

/// A tool result's `content` (`TOOL_CALL_RESULT`, a tool message): text, or content parts
/// (a result holding media, or a capture's).
/// Defined here, where [`ToolResult`] holds it; `agui` re-exports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ToolContent {
    /// The result as text.
    Text(String),
    /// The result as content parts.
    Parts(Vec<Value>),
}

impl ToolContent {
    /// The text, when the content is one.
    pub fn text(&self) -> Option<&str> {
        match self {
            ToolContent::Text(s) => Some(s),
            ToolContent::Parts(_) => None,
        }
    }

    /// The content as text: the text, or the text parts' texts (the parts as JSON when they
    /// have none).
    pub fn into_text(self) -> String {
        match self {
            ToolContent::Text(s) => s,
            ToolContent::Parts(p) => lc::tool_content_text(&Value::Array(p)),
        }
    }

    /// What a reader is shown: the text, or the parts' texts with `[image]` (`[audio]`, …)
    /// for each media part.
    pub fn shown(&self) -> String {
        let part = |p: &Value| match p.field_str("text") {
            Some(t) => t.to_string(),
            None => format!("[{}]", p.field_str("type").unwrap_or("part")),
        };
        match self {
            ToolContent::Text(s) => s.clone(),
            ToolContent::Parts(parts) => parts.iter().map(part).collect(),
        }
    }
}

/// The internal event model: what every adapter makes of its input family, and what the
/// mapper turns into AG-UI events. Message, block and tool-call ids are the log's (or made up
/// from its bytes when it has none).
#[derive(Debug, Clone, PartialEq)]
pub enum ModelEvent {
    /// A graph run begins. Ids are those the log carries (none for v3 Python).
    RunStart {
        /// The thread id, when the log has one.
        thread_id: Option<String>,
        /// The run id, when the log has one.
        run_id: Option<String>,
        /// Input messages in AG-UI form, when the run input holds messages.
        messages: Vec<Value>,
        /// `Command(resume=…)` value when the run resumes an interrupt. `Some(Null)` = resumed,
        /// value unknown (v3 does not echo it).
        resume: Option<Value>,
        /// The run input's keys other than `messages` (the state the graph was given), when
        /// the input is a state object.
        state: Option<Value>,
    },
    /// The run ended normally (it may still have stopped at an interrupt recorded before).
    RunEnd,
    /// The run raised (a cancelled run too: its error names the cancellation, see
    /// `mapper::error_code::is_cancelled`).
    RunFailed(ErrorInfo),
    /// The platform stopped the run (v3 root `lifecycle interrupted`): at an `interrupt()` if
    /// one was recorded, else because the caller cancelled it.
    RunStopped,
    /// The log stops before the run's terminal event (a crashed server or a cut recording).
    RunIncomplete {
        /// Why the run counts as cut (what the log ended without).
        reason: String,
    },
    /// The run stopped at `interrupt()`.
    Interrupt(Vec<InterruptInfo>),
    /// A graph node (step) started / finished. `key` tells concurrent runs of one node apart.
    StepStart {
        /// The node's name.
        name: String,
        /// The step's key, unique among the steps open at once.
        key: String,
    },
    /// The step `key` finished.
    StepEnd {
        /// The key its [`ModelEvent::StepStart`] gave.
        key: String,
    },

    /// An assistant message starts streaming.
    MessageStart {
        /// The message's id.
        message_id: String,
    },
    /// A piece of a message's answer text.
    TextDelta {
        /// The message it belongs to.
        message_id: String,
        /// The text to append.
        text: String,
    },
    /// A piece of a message's reasoning (any provider's style, read alike).
    ReasoningDelta {
        /// The message it belongs to.
        message_id: String,
        /// The reasoning block within the message: its block position or provider key.
        block: String,
        /// The text to append.
        text: String,
    },
    /// An opaque reasoning value: a signature or a redacted block.
    ReasoningEncrypted {
        /// The message it belongs to.
        message_id: String,
        /// The reasoning block within the message.
        block: String,
        /// The opaque value, as the provider gave it.
        value: String,
    },
    /// A tool-call chunk. `id`/`name` arrive on the first chunk of an index, args in pieces.
    ToolCallChunk {
        /// The message carrying the call.
        message_id: String,
        /// The call's place in the message (its index or block key).
        index: String,
        /// The call's id, when this chunk has it.
        id: Option<String>,
        /// The tool's name, when this chunk has it.
        name: Option<String>,
        /// A piece of the arguments' JSON text.
        args: String,
    },
    /// The message finished streaming.
    MessageEnd {
        /// The message's id.
        message_id: String,
        /// The model call's token usage, when the log has it.
        usage: Option<Usage>,
    },

    /// A tool starts executing (its call may never have streamed).
    ToolStart {
        /// The call's id.
        tool_call_id: String,
        /// The tool's name.
        name: String,
        /// Arguments as a JSON text, when the log has them.
        args: Option<String>,
        /// The message that carried the call, when known.
        parent_message_id: Option<String>,
    },
    /// A piece of a running tool's streamed output.
    ToolOutputDelta {
        /// The call's id.
        tool_call_id: String,
        /// The output to append.
        delta: String,
    },
    /// A tool finished (or raised, its error its result: the run goes on).
    ToolEnd(ToolResult),

    /// A custom event (`adispatch_custom_event`, a stream writer).
    Custom {
        /// The event's name.
        name: String,
        /// Its value, kept as JSON text.
        value: Payload,
    },
    /// The full graph state (never a node's partial update), normalized (`wire::langchain`):
    /// a tree, or one a parse thread read with its messages shared (`wire::state::State`; the sinks
    /// write its text from its parts instead of the tree). Its `messages`
    /// list, when it has one, is the run's message list: the mapper reads its tool messages at
    /// once and converts the whole list to AG-UI only at the run's end (for
    /// `MESSAGES_SNAPSHOT`), not for every state.
    State(Snapshot),
    /// The conversation so far as a graph step is given it (a v2 step's input `messages`):
    /// no state of its own (no `STATE_SNAPSHOT`), but it shows what earlier steps wrote, in
    /// order, before the next model streams.
    Conversation(Vec<Arc<SharedJson>>),
    /// A native AG-UI event (passthrough, or a `custom` event named `agui`).
    Native(Value),

    /// A sub-agent begins: a graph run nested inside tool call `parent_tool_call_id` (a tool
    /// that invokes a compiled agent), as `subagentRunId` `id` (unique in the run).
    SubagentStart {
        /// The sub-agent's `subagentRunId`.
        id: String,
        /// The sub-agent graph's name.
        name: String,
        /// The tool call that invoked it.
        parent_tool_call_id: String,
    },
    /// Sub-agent `id` ended: normally, or with `error` (an interrupt inside it is not an
    /// end: it stays open, and the run's interrupt suspends it).
    SubagentEnd {
        /// The id its [`ModelEvent::SubagentStart`] gave.
        id: String,
        /// Why it failed, when it did.
        error: Option<ErrorInfo>,
    },
    /// The events after this one belong to sub-agent `id` (`None`: to the run's own agent),
    /// until the next `Scope`. Adapters send it only when the owner changes.
    Scope(Option<String>),
}

/// `base` the first time it is used, then `base:2`, `base:3`…: ids made up for what the log
/// does not name (a reasoning span, a sub-agent) stay unique when one reopens.
pub(crate) fn numbered(
    used: &mut std::collections::HashMap<String, usize, foldhash::fast::RandomState>,
    base: String,
) -> String {
    let n = used.entry(base.clone()).or_insert(0);
    *n += 1;
    match *n {
        1 => base,
        n => format!("{base}:{n}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_encoded_state_stands_for_its_tree() {
        for state in [
            json!({"messages": [], "k": 1}),
            json!({"messages": [{"type": "human", "content": "caf\u{e9} \"q\"\n"}, [1, 2.5]]}),
            json!({"messages": [{"id": "a"}], "l": {"x": null}, "": "\u{1f}"}),
            // Messages of 64 KiB.
            json!({"messages": [{"content": "x\n".repeat(32 * 1024)}, [], {"c": "é"}], "k": [1]}),
            json!({"messages": ["y".repeat(64 * 1024)]}),
        ] {
            let Some(enc) = State::read(&state.to_string()) else {
                panic!("a state with a list first: {state}");
            };
            let snapshot = Snapshot::Encoded(Box::new(enc.clone()));
            assert_eq!(snapshot.to_value().into_owned(), state);
            assert_eq!(
                enc.json(),
                serde_json::to_string(&state).expect("serializes")
            );
            assert_eq!(
                enc.messages.len(),
                state["messages"].as_array().map_or(0, Vec::len)
            );
        }
        // Not a state whose first entry is its list, or one normalising replaces whole: not
        // read.
        for other in [
            json!({"messages": [], "lc": {"x": null}}),
            json!({"k": 1, "messages": []}),
            json!({"messages": "no"}),
            json!([1]),
            json!({}),
        ] {
            assert_eq!(State::read(&other.to_string()), None);
        }
    }
}
