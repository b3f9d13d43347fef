//! The `messages-tuple` stream mode's parts (`[message chunk, metadata]`) → messages: AI chunks
//! stream as a message (a whole AI message with its calls), a tool message is a result.
//!
//! With `stream_subgraphs`, a part of namespace `tools:<task>` (`messages|tools:<task>`) is the
//! output of a graph a tool node's task runs, which no part names the call of: like v3
//! Python's tool node tasks ([`crate::adapter::subagent::Nest::made_call`]), it is the
//! sub-agent of the first call of the enclosing namespace's last message that has none yet.

use crate::json::Field;
use serde_json::Value;

use super::V2Adapter;
use crate::adapter::{completion, content, message_end, message_start};
use crate::adapter::{str_field as s, tool_end, Disposition};
use crate::model::ModelEvent;
use crate::wire::langchain as lc;

/// The message of a `messages-tuple` stream that is `open`, or that ended last without usage.
pub(super) struct TupleMessage {
    pub(super) id: String,
    pub(super) open: bool,
}

impl V2Adapter {
    /// A `messages-tuple` part of namespace `ns`: `[message chunk, metadata]`. AI chunks
    /// stream as a message (ending at `chunk_position: "last"` or a finish reason); a tool
    /// message is a result.
    pub(super) fn on_message_tuple(
        &mut self,
        data: &Value,
        ns: &str,
        out: &mut Vec<ModelEvent>,
    ) -> Disposition {
        if self.saw_events {
            return Disposition::Ignored("messages stream part repeating the events stream");
        }
        let traced = |k: &str| data.get(1).and_then(|m| m.field_str(k));
        self.ensure_started(out);
        if !ns.is_empty() && !self.run.nest.is_announced(ns) {
            if let Some(made) = self.run.nest.made_call(ns) {
                let name = traced("lc_agent_name").unwrap_or(&made.name).to_string();
                let call = made.id.clone();
                self.run.nest.start(ns, true, &name, &call, out);
            }
        }
        self.run.nest.scope(ns, out);
        // Its message chunk, an object ([`crate::adapter::classify`]).
        let chunk = lc::normalize_cow(&data[0]);
        match lc::message_kind(&chunk) {
            Some("ai") => {
                let id = s(&chunk, "id").unwrap_or_else(|| "message".into());
                let meta = chunk.field("response_metadata");
                let traced = (traced("ls_provider"), traced("ls_model_name"));
                let usage = || content::usage_of(&chunk, traced);
                // OpenAI-style `stream_usage`: the usage comes last, alone, and LangGraph.js
                // gives that chunk an id of its own (`run-…`): it ends the message in
                // progress (or, ended, adds to it), it is no message of its own (issue 39.5).
                if is_usage_only(&chunk) {
                    if let Some(t) = self.tuple.take() {
                        out.push(message_end(t.id, usage()));
                        return Disposition::Mapped;
                    }
                }
                if !matches!(&self.tuple, Some(t) if t.open && t.id == id) {
                    if let Some(t) = self.tuple.take().filter(|t| t.open) {
                        out.push(message_end(t.id, None));
                    }
                    out.push(message_start(&id));
                    self.run.nest.message_started(ns);
                    let (id, open) = (id.clone(), true);
                    self.tuple = Some(TupleMessage { id, open });
                }
                let from = out.len();
                if chunk.field("tool_call_chunks").is_none() {
                    // A whole message (a subgraph's, sent once its node returned): its calls
                    // are only in `tool_calls`.
                    completion::whole_message(&id, &chunk, out);
                } else {
                    content::chunk_events(&id, &chunk, out);
                }
                for e in &out[from..] {
                    if let ModelEvent::ToolCallChunk {
                        id: Some(call),
                        name: Some(name),
                        ..
                    } = e
                    {
                        self.run.nest.call_made(ns, call, name);
                    }
                }
                let set = |k: &str| meta.and_then(|m| m.get(k)).is_some_and(|v| !v.is_null());
                let last = chunk.field_str("chunk_position") == Some("last")
                    || set("finish_reason")
                    || set("stop_reason");
                if last {
                    let usage = usage();
                    // Usage still to come (on a chunk of its own) is added to this message.
                    let (ended, open) = (id.clone(), false);
                    self.tuple = usage.is_none().then_some(TupleMessage { id: ended, open });
                    out.push(message_end(id, usage));
                }
                Disposition::Mapped
            }
            Some("tool") => {
                let Some(call_id) = s(&chunk, "tool_call_id") else {
                    return Disposition::bad("tool message without tool_call_id");
                };
                self.run.nest.tool_ended(&call_id);
                out.push(tool_end(call_id, s(&chunk, "name"), &chunk));
                Disposition::Mapped
            }
            _ => Disposition::Ignored("messages part of a user or system message (input echo)"),
        }
    }

    /// A root state of a part stream: the calls of its last AI message that no tool message
    /// answers wait for their results (a resumed run's sub-agents serve them).
    pub(super) fn state_calls(&mut self, state: &Value) {
        if self.saw_events {
            return;
        }
        let Some(list) = state.field("messages").and_then(Value::as_array) else {
            return;
        };
        let Some(at) = list.iter().rposition(|m| lc::message_kind(m) == Some("ai")) else {
            return;
        };
        for c in lc::tool_calls(&list[at]) {
            self.run.nest.call_made("", &c.id, &c.name);
        }
        let answers = list[at + 1..]
            .iter()
            .filter_map(|m| m.field_str("tool_call_id"));
        for id in answers {
            self.run.nest.answered(id);
        }
    }
}

/// A chunk that carries only usage: no text, no tool call chunk, a `usage_metadata` object.
fn is_usage_only(chunk: &Value) -> bool {
    let empty = |k: &str| match chunk.field(k) {
        None | Some(Value::Null) => true,
        Some(Value::String(t)) => t.is_empty(),
        Some(Value::Array(a)) => a.is_empty(),
        Some(_) => false,
    };
    chunk.field("usage_metadata").is_some_and(Value::is_object)
        && empty("content")
        && empty("tool_call_chunks")
}
