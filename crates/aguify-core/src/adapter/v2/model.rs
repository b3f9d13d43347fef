//! A v2 model run → its message: the chunks it streams, and what its end output, the output
//! of its node or the final state completes of them ([`crate::adapter::completion`]).

use crate::json::Field;
use foldhash::fast::RandomState as FastIds;
use std::collections::HashMap;

use serde_json::Value;

use super::PendingCall;
use super::V2Adapter;
use crate::adapter::{completion, content, Disposition};
use crate::model::ModelEvent;
use crate::wire::langchain as lc;
use crate::wire::v2::{Data, Event, MessageCalls, MessageChunk};

#[derive(Default)]
pub(super) struct ModelRun {
    pub(super) message_id: String,
    pub(super) streamed: bool,
    pub(super) ended: bool,
    /// The task namespace the model ran in (its node's).
    pub(super) ns: Option<String>,
    /// Chunk index → tool call id, for later chunks that carry no id.
    pub(super) tool_index: HashMap<String, String, FastIds>,
    /// The answer text streamed so far, and the argument text per chunk index, until the
    /// model's end completes them ([`super::completion`]).
    pub(super) text: String,
    pub(super) args: HashMap<String, String, FastIds>,
}

impl V2Adapter {
    /// Ended model runs remembered (a late chunk or end of theirs is read as theirs).
    pub(super) const ENDED_MODELS: usize = 4096;

    pub(super) fn on_model(
        &mut self,
        ev: &Event,
        kind: &str,
        out: &mut Vec<ModelEvent>,
    ) -> Disposition {
        let run_id = ev.run_id.clone().unwrap_or_default();
        match kind {
            "on_chat_model_start" => {
                self.ensure_started(out);
                Disposition::Ignored("model start (the message opens at its first chunk)")
            }
            "on_chat_model_stream" => {
                self.ensure_started(out);
                let chunk = match &ev.data {
                    Data::ModelChunk(Some(Ok(c))) => c,
                    Data::ModelChunk(Some(Err(kind))) => {
                        return Disposition::Bad(format!(
                            "on_chat_model_stream whose `data.chunk` is {kind}: expected a message chunk object"
                        ).into())
                    }
                    _ => {
                        return Disposition::Bad(
                            "on_chat_model_stream without `data.chunk`: expected the streamed message chunk".into(),
                        )
                    }
                };
                self.on_stream(&run_id, ev.checkpoint_ns.as_deref(), chunk, out)
            }
            "on_chat_model_end" => {
                self.ensure_started(out);
                let output = match &ev.data {
                    Data::Output(Some(v)) => v,
                    _ => &Value::Null,
                };
                // `generations` form (older LangChain): take the first message.
                let first = output.pointer("/generations/0/0/message").cloned();
                let output = match first {
                    Some(m) => std::borrow::Cow::Owned(m),
                    None => std::borrow::Cow::Borrowed(output),
                };
                self.remember_calls(&MessageCalls::of_message(&output));
                let streamed = self.models.get(&run_id).is_some_and(|m| m.streamed);
                let message_id = self.open_model(&run_id, output.field_str("id"), out);
                if streamed {
                    self.complete_parts(&run_id, &message_id, &output, true, out);
                } else {
                    // A model that did not stream: its whole output is the message.
                    completion::whole_message(&message_id, &output, out);
                }
                if let Some(m) = self.models.get_mut(&run_id).filter(|m| !m.ended) {
                    m.ended = true;
                    self.ended_models += 1;
                    if self.ended_models > Self::ENDED_MODELS {
                        // A run of thousands of model calls (a long-running agent) is read
                        // in flat memory.
                        self.models.retain(|_, m| !m.ended);
                        self.ended_models = 0;
                    }
                }
                let usage = content::usage_of(
                    &output,
                    (ev.ls_provider.as_deref(), ev.ls_model_name.as_deref()),
                );
                out.push(ModelEvent::MessageEnd { message_id, usage });
                Disposition::Mapped
            }
            _ => Disposition::Ignored("model event of no AG-UI meaning"),
        }
    }

    /// One `on_chat_model_stream` chunk: opens the run's message on its first chunk, maps
    /// the chunk, tracks its tool-call chunks.
    fn on_stream(
        &mut self,
        run_id: &str,
        ns: Option<&str>,
        chunk: &MessageChunk,
        out: &mut Vec<ModelEvent>,
    ) -> Disposition {
        self.ensure_started(out);
        let message_id = self.open_model(run_id, chunk.id.as_deref(), out);
        let first = out.len();
        content::parts_events(
            &message_id,
            chunk.content.as_ref(),
            chunk.additional_kwargs.as_ref(),
            chunk.tool_call_chunks.as_ref(),
            out,
        );
        self.track_tool_chunks(run_id, &out[first..]);
        if let Some(m) = self.models.get_mut(run_id) {
            // What streamed, for the model's end to complete.
            m.streamed = true;
            if m.ns.is_none() {
                m.ns = ns.map(str::to_string);
            }
            for e in &out[first..] {
                match e {
                    ModelEvent::TextDelta { text, .. } => m.text.push_str(text),
                    ModelEvent::ToolCallChunk { index, args, .. } => {
                        m.args.entry(index.clone()).or_default().push_str(args)
                    }
                    _ => {}
                }
            }
        }
        Disposition::Mapped
    }

    /// The model's end output completes what its stream cut short (issue 22.6): the text
    /// (when `with_text`) after what streamed, the arguments after what streamed of each
    /// call, and the calls that never streamed ([`completion`]).
    fn complete_parts(
        &mut self,
        run_id: &str,
        message_id: &str,
        output: &Value,
        with_text: bool,
        out: &mut Vec<ModelEvent>,
    ) {
        use completion::Rest;
        let Some(m) = self.models.get_mut(run_id) else {
            return;
        };
        let streamed_text = if with_text {
            std::mem::take(&mut m.text)
        } else {
            String::new()
        };
        let streamed_args = std::mem::take(&mut m.args);
        let index_of = |id: &str| {
            m.tool_index
                .iter()
                .find(|(_, v)| v.as_str() == id)
                .map(|(k, _)| k.clone())
        };
        let mut diverged = vec![];
        let first = out.len();
        let complete = lc::content_text(output.field("content").unwrap_or(&Value::Null));
        match completion::text(&streamed_text, &complete) {
            Rest::Suffix(rest) if with_text => out.push(ModelEvent::TextDelta {
                message_id: message_id.to_string(),
                text: rest.to_string(),
            }),
            Rest::Diverged if with_text => diverged.push("text".to_string()),
            _ => {}
        }
        for (i, (id, name, args)) in lc::tool_calls(output).into_iter().enumerate() {
            let Some(index) = index_of(&id) else {
                // A call that never streamed: whole.
                out.push(ModelEvent::ToolCallChunk {
                    message_id: message_id.to_string(),
                    index: format!("call{i}"),
                    id: Some(id),
                    name: Some(name),
                    args,
                });
                continue;
            };
            // The provider's own argument text (`tool_call_chunks` of the output), then
            // the arguments as compact JSON.
            let raw = raw_args(output, &id);
            let mut forms: Vec<&str> = raw.iter().map(String::as_str).collect();
            forms.push(&args);
            let streamed = streamed_args.get(&index).map_or("", String::as_str);
            let mut rest = forms.iter().map(|f| completion::args(streamed, f));
            match rest
                .find(|r| *r != Rest::Diverged)
                .unwrap_or(Rest::Diverged)
            {
                Rest::Suffix(rest) => out.push(ModelEvent::ToolCallChunk {
                    message_id: message_id.to_string(),
                    index,
                    id: None,
                    name: None,
                    args: rest.to_string(),
                }),
                Rest::Diverged => diverged.push(format!("the arguments of call {id}")),
                Rest::Complete => {}
            }
        }
        if !diverged.is_empty() {
            self.warning = Some(format!(
                "message {message_id}: what streamed of {} is not the beginning of the model's \
                 complete output; the stream keeps what it sent, MESSAGES_SNAPSHOT has the \
                 complete message",
                diverged.join(" and ")
            ));
        }
        self.track_tool_chunks(run_id, &out[first..]);
    }

    /// Model runs that streamed and never ended (a platform `events` capture may lack their
    /// `on_chat_model_end`, issue 39.6) in the node `ns` that ends now: the calls of the
    /// node's output complete their arguments before the tools run.
    pub(super) fn complete_from_node(
        &mut self,
        ns: Option<&str>,
        calls: &[MessageCalls],
        out: &mut Vec<ModelEvent>,
    ) {
        let open: Vec<(String, String)> = (self.models.iter())
            .filter(|(_, m)| m.streamed && !m.ended && ns.is_some() && m.ns.as_deref() == ns)
            .map(|(run, m)| (run.clone(), m.message_id.clone()))
            .collect();
        for (run_id, message_id) in open {
            let Some(m) = calls
                .iter()
                .find(|c| same_message(c.id.as_deref(), &message_id))
            else {
                continue;
            };
            let tool_calls: Vec<Value> = (m.calls.iter())
                .map(|(id, name, args)| {
                    let args = serde_json::from_str(args).unwrap_or(Value::String(args.clone()));
                    serde_json::json!({"id": id, "name": name, "args": args})
                })
                .collect();
            let output = serde_json::json!({ "tool_calls": tool_calls });
            self.complete_parts(&run_id, &message_id, &output, false, out);
        }
    }

    /// Model runs that streamed and never ended, at the root's end: the final state's
    /// message completes each (text and arguments) and ends it.
    pub(super) fn complete_from_state(
        &mut self,
        state: &crate::wire::state::State,
        out: &mut Vec<ModelEvent>,
    ) {
        let open: Vec<(String, String)> = (self.models.iter())
            .filter(|(_, m)| m.streamed && !m.ended)
            .map(|(run, m)| (run.clone(), m.message_id.clone()))
            .collect();
        for (run_id, message_id) in open {
            let found = state
                .messages
                .iter()
                .rev()
                .find(|m| m.kind() == Some("ai") && same_message(m.id(), &message_id));
            let Some(msg) = found.map(|m| m.to_value()) else {
                continue;
            };
            self.complete_parts(&run_id, &message_id, &msg, true, out);
            if let Some(m) = self.models.get_mut(&run_id) {
                m.ended = true;
            }
            let usage = content::usage_of(&msg, (None, None));
            out.push(ModelEvent::MessageEnd { message_id, usage });
        }
    }

    /// Opens the message of a model run on first sight (its id the message's `id`, `msg_id`);
    /// returns its id.
    fn open_model(
        &mut self,
        run_id: &str,
        msg_id: Option<&str>,
        out: &mut Vec<ModelEvent>,
    ) -> String {
        if let Some(m) = self.models.get_mut(run_id) {
            m.streamed = true;
            return m.message_id.clone();
        }
        let message_id = msg_id
            .filter(|i| !i.is_empty())
            .map_or_else(|| format!("lc_run--{run_id}"), str::to_string);
        self.models.insert(
            run_id.to_string(),
            ModelRun {
                message_id: message_id.clone(),
                ..ModelRun::default()
            },
        );
        out.push(ModelEvent::MessageStart {
            message_id: message_id.clone(),
        });
        message_id
    }

    /// Records tool-call ids per chunk index and pending calls (with their accumulated args)
    /// for the tool runs to claim.
    fn track_tool_chunks(&mut self, run_id: &str, out: &[ModelEvent]) {
        let Some(model) = self.models.get_mut(run_id) else {
            return;
        };
        for e in out {
            let ModelEvent::ToolCallChunk {
                message_id,
                index,
                id,
                name,
                args,
            } = e
            else {
                continue;
            };
            let call_id = match (id, model.tool_index.get(index)) {
                (_, Some(known)) => known.clone(),
                (Some(id), None) => {
                    model.tool_index.insert(index.clone(), id.clone());
                    id.clone()
                }
                (None, None) => continue,
            };
            match self.pending_calls.iter_mut().find(|c| c.id == call_id) {
                Some(c) if !c.from_chunks => {}
                Some(c) => c.args.push_str(args),
                None if self.claimed.get(&call_id).is_some() => {}
                None => self.pending_calls.push(PendingCall {
                    run: self.run_no,
                    id: call_id,
                    name: name.clone().unwrap_or_default(),
                    args: args.clone(),
                    message_id: Some(message_id.clone()),
                    from_chunks: true,
                }),
            }
        }
    }
}

/// Whether a message of id `id` (in a node's output or a state) is the streamed message
/// `streamed`: the same id, or LangChain's `<run id>-<n>` form of an id made from the run.
fn same_message(id: Option<&str>, streamed: &str) -> bool {
    id.is_some_and(|id| {
        id == streamed
            || id
                .strip_prefix(streamed)
                .is_some_and(|rest| rest.starts_with('-'))
    })
}

/// The argument text of call `id` as the model's output has it in `tool_call_chunks`.
fn raw_args(output: &Value, id: &str) -> Option<String> {
    output
        .field("tool_call_chunks")?
        .as_array()?
        .iter()
        .find(|c| c.field("id").and_then(Value::as_str) == Some(id))?
        .field("args")?
        .as_str()
        .map(str::to_string)
}
