//! A v2 model run → its message: the chunks it streams, and what its end output, the output
//! of its node or the final state completes of them ([`crate::adapter::completion`]).

use crate::json::Field;
use foldhash::fast::RandomState as FastIds;
use std::collections::HashMap;

use serde_json::Value;

use super::V2Adapter;
use crate::adapter::{completion, content, Disposition};
use crate::model::ModelEvent;
use crate::wire::langchain as lc;
use crate::wire::state::State;
use crate::wire::v2::{Data, Event, MessageCalls};

/// The message ids of the latest 4,096 model runs that ended (a late chunk or end of theirs
/// is read as theirs), so a run of thousands of model calls (a long-running agent) is read
/// in flat memory.
pub(super) type Ended = crate::recent::Recent<String, String, 4096, FastIds>;

#[derive(Default)]
pub(super) struct ModelRun {
    pub(super) message_id: String,
    /// The task namespace the model ran in (its node's).
    pub(super) ns: Option<String>,
    /// The answer text sent so far (streamed, or completed: [`completion`]).
    text: String,
    /// Per chunk index: the tool call that streamed.
    calls: HashMap<String, StreamedCall, FastIds>,
}

/// A tool call of a model run as it streamed: its id (for later chunks that carry none) and
/// the argument text sent so far (streamed, or completed).
#[derive(Default)]
struct StreamedCall {
    id: Option<String>,
    args: String,
}

impl V2Adapter {
    pub(super) fn on_model(
        &mut self,
        ev: &Event,
        kind: &str,
        out: &mut Vec<ModelEvent>,
    ) -> Disposition {
        self.ensure_started(out);
        let run_id = ev.run_id.clone().unwrap_or_default();
        match kind {
            "on_chat_model_start" => {
                Disposition::Ignored("model start (the message opens at its first chunk)")
            }
            "on_chat_model_stream" => match &ev.data {
                // Opens the run's message on its first chunk, maps the chunk, notes what
                // streamed.
                Data::ModelChunk(Some(Ok(chunk))) => {
                    let message_id = self.open_model(&run_id, chunk.id.as_deref(), out);
                    let first = out.len();
                    content::parts_events(
                        &message_id,
                        chunk.content.as_ref(),
                        chunk.additional_kwargs.as_ref(),
                        &chunk.tool_call_chunks,
                        out,
                    );
                    if let Some(m) = self.run.models.get_mut(&run_id) {
                        m.ns = m.ns.take().or_else(|| ev.meta.ns.0.clone());
                    }
                    self.note(&run_id, &out[first..]);
                    Disposition::Mapped
                }
                Data::ModelChunk(Some(Err(kind))) => Disposition::bad(format!(
                    "on_chat_model_stream whose `data.chunk` is {kind}: expected a message chunk object"
                )),
                _ => Disposition::bad(
                    "on_chat_model_stream without `data.chunk`: expected the streamed message chunk",
                ),
            },
            "on_chat_model_end" if self.run.ended.get(&run_id).is_some() => {
                Disposition::Ignored("a model run's end repeated: its message ended already")
            }
            "on_chat_model_end" => {
                let output = ev.data.value();
                // `generations` form (older LangChain): take the first message.
                let output = output.pointer("/generations/0/0/message").unwrap_or(output);
                // The calls of an AI message, pending until a tool run claims them.
                let calls = lc::tool_calls(output);
                if lc::message_kind(output) == Some("ai") {
                    for c in &calls {
                        self.pend(&c.id, &c.name, &c.args, output.field_str("id"), false);
                    }
                }
                let traced = (ev.meta.ls_provider.0.as_deref(), ev.meta.ls_model_name.0.as_deref());
                self.end_model(&run_id, output, calls, traced, out);
                Disposition::Mapped
            }
            _ => Disposition::Ignored("model event of no AG-UI meaning"),
        }
    }

    /// Ends model run `run_id`'s message with its complete form `msg` (its `calls`; `traced`:
    /// the provider and model the run's trace names, [`content::usage_of`]): what it completes
    /// of what streamed, or, when nothing did, the whole message, then its usage.
    fn end_model(
        &mut self,
        run_id: &str,
        msg: &Value,
        calls: Vec<lc::Call>,
        traced: (Option<&str>, Option<&str>),
        out: &mut Vec<ModelEvent>,
    ) {
        let streamed = self.run.models.contains_key(run_id);
        let message_id = self.open_model(run_id, msg.field_str("id"), out);
        if streamed {
            let text = lc::content_text(msg.field("content").unwrap_or(&Value::Null));
            self.complete_parts(run_id, &message_id, Some(&text), calls, msg, out);
        } else {
            // A model that did not stream: its whole output is the message.
            completion::whole_message(&message_id, msg, out);
        }
        if let Some(m) = self.run.models.shift_remove(run_id) {
            self.run.ended.insert(run_id.to_string(), m.message_id);
        }
        let usage = content::usage_of(msg, traced);
        out.push(ModelEvent::MessageEnd { message_id, usage });
    }

    /// What a model run's complete form completes of what it streamed (issue 22.6): the
    /// `text` (when given) after what streamed, the arguments after what streamed of each of
    /// its `calls` (the provider's own argument text in `output`'s `tool_call_chunks` first),
    /// and the calls that never streamed ([`completion`]).
    fn complete_parts(
        &mut self,
        run_id: &str,
        message_id: &str,
        text: Option<&str>,
        calls: Vec<lc::Call>,
        output: &Value,
        out: &mut Vec<ModelEvent>,
    ) {
        let Some(m) = self.run.models.get(run_id) else {
            return;
        };
        let mut diverged = vec![];
        let first = out.len();
        if let Some(complete) = text {
            match completion::text(&m.text, complete) {
                // Nothing for an empty rest.
                Some(rest) => {
                    content::block_events(message_id, "", content::Block::Text(rest), out)
                }
                None => diverged.push("text".to_string()),
            }
        }
        for (i, call) in calls.into_iter().enumerate() {
            let id = &call.id;
            let streamed = m.calls.iter().find(|(_, c)| c.id.as_ref() == Some(id));
            let Some((index, sent)) = streamed else {
                // A call that never streamed: whole.
                out.push(completion::whole_call(message_id, i, call));
                continue;
            };
            // The provider's own argument text (`tool_call_chunks` of the output), then
            // the arguments as compact JSON.
            let chunks = output.field("tool_call_chunks").and_then(Value::as_array);
            let raw = chunks
                .into_iter()
                .flatten()
                .find(|c| c.field_str("id") == Some(id));
            let raw = raw.and_then(|c| c.field_str("args"));
            let mut forms = raw.into_iter().chain(std::iter::once(call.args.as_str()));
            match forms.find_map(|f| completion::args(&sent.args, f)) {
                Some("") => {}
                Some(rest) => out.push(content::call_chunk(
                    message_id,
                    index.clone(),
                    None,
                    None,
                    rest.to_string(),
                )),
                None => diverged.push(format!("the arguments of call {id}")),
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
        // What completes them is noted as sent: a run completed again (at its node's end, then
        // from the final state, when its own end is missing) sends nothing twice.
        self.note(run_id, &out[first..]);
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
        for (run_id, message_id) in self.open_models(|m| ns.is_some() && m.ns.as_deref() == ns) {
            let found = calls
                .iter()
                .find(|c| same_message(c.id.as_deref(), &message_id));
            if let Some(m) = found {
                let calls = m.calls.clone();
                self.complete_parts(&run_id, &message_id, None, calls, &Value::Null, out);
            }
        }
    }

    /// Model runs that streamed and never ended, at the root's end: the final state's
    /// message completes each (text and arguments) and ends it.
    pub(super) fn complete_from_state(&mut self, state: &State, out: &mut Vec<ModelEvent>) {
        for (run_id, message_id) in self.open_models(|_| true) {
            let mut list = state.messages.iter().rev();
            let found = list.find(|m| m.kind() == Some("ai") && same_message(m.id(), &message_id));
            if let Some(msg) = found.map(|m| m.to_value()) {
                let calls = lc::tool_calls(&msg);
                self.end_model(&run_id, &msg, calls, (None, None), out);
            }
        }
    }

    /// The model runs (run id, message id) open and of which `which` holds.
    fn open_models(&self, which: impl Fn(&ModelRun) -> bool) -> Vec<(String, String)> {
        (self.run.models.iter())
            .filter(|(_, m)| which(m))
            .map(|(run, m)| (run.clone(), m.message_id.clone()))
            .collect()
    }

    /// Opens the message of a model run on first sight (its id the message's `id`, `msg_id`);
    /// returns its id.
    fn open_model(
        &mut self,
        run_id: &str,
        msg_id: Option<&str>,
        out: &mut Vec<ModelEvent>,
    ) -> String {
        if let Some(id) =
            (self.run.models.get(run_id).map(|m| &m.message_id)).or(self.run.ended.get(run_id))
        {
            return id.clone();
        }
        let message_id = msg_id
            .filter(|i| !i.is_empty())
            .map_or_else(|| format!("lc_run--{run_id}"), str::to_string);
        self.run.models.insert(
            run_id.to_string(),
            ModelRun {
                message_id: message_id.clone(),
                ..ModelRun::default()
            },
        );
        out.push(crate::adapter::message_start(&message_id));
        message_id
    }

    /// Notes the events of a model run (streamed, or what a complete form completed of it): its
    /// tool-call ids per chunk index, the calls pending for the tool runs to claim (with their
    /// accumulated args), and the text and arguments sent, which a complete form completes.
    fn note(&mut self, run_id: &str, events: &[ModelEvent]) {
        for e in events {
            let Some(model) = self.run.models.get_mut(run_id) else {
                return;
            };
            match e {
                ModelEvent::TextDelta { text, .. } => model.text.push_str(text),
                ModelEvent::ToolCallChunk {
                    message_id,
                    index,
                    id,
                    name,
                    args,
                } => {
                    let call = model.calls.entry(index.clone()).or_default();
                    call.args.push_str(args);
                    call.id = call.id.take().or_else(|| id.clone());
                    let Some(call_id) = call.id.clone() else {
                        continue;
                    };
                    match self.pending_calls.iter_mut().find(|c| c.id == call_id) {
                        Some(c) if c.from_chunks => c.args.push_str(args),
                        Some(_) => {}
                        None => {
                            let name = name.as_deref().unwrap_or_default();
                            self.pend(&call_id, name, args, Some(message_id.as_str()), true);
                        }
                    }
                }
                _ => {}
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

#[cfg(test)]
mod tests {
    use crate::agui::Event;
    use crate::convert::Converter;
    use crate::pipeline::Options;
    use serde_json::{json, Value};
    use std::collections::HashMap;

    /// A v2 log of one node whose model streams its text and (`chunks`) a call's arguments in
    /// two chunks, then ends `model_ends` times (a log may repeat a model's end), before its
    /// node's end and the root's end state bring its message (the call complete) again.
    fn log(chunks: bool, model_ends: usize) -> Vec<Value> {
        let meta = json!({"thread_id": "t1", "langgraph_node": "agent",
            "langgraph_checkpoint_ns": "agent:1"});
        let ev = |event: &str, name: &str, run: &str, data: Value| {
            let parents = if run == "root" {
                json!([])
            } else {
                json!(["root"])
            };
            let meta = if run == "root" {
                json!({"thread_id": "t1"})
            } else {
                meta.clone()
            };
            json!({"event": event, "name": name, "run_id": run, "tags": [],
                "metadata": meta, "parent_ids": parents, "data": data})
        };
        let chunk = |text: &str, calls: Value| {
            let chunk = json!({"chunk": {"type": "AIMessageChunk", "id": "msg1",
                "content": text, "tool_call_chunks": calls}});
            ev("on_chat_model_stream", "m", "model", chunk)
        };
        let ai = json!({"type": "ai", "id": "msg1", "content": "Let me check.",
            "tool_calls": [{"id": "c1", "name": "get_weather", "args": {"city": "Paris"}}]});
        let human = json!({"type": "human", "id": "h1", "content": "Weather in Paris?"});
        let mut lines = vec![
            ev(
                "on_chain_start",
                "LangGraph",
                "root",
                json!({"input": {"messages": [&human]}}),
            ),
            ev(
                "on_chain_start",
                "agent",
                "node",
                json!({"input": {"messages": [&human]}}),
            ),
            chunk("Let me", json!([])),
        ];
        if chunks {
            lines.extend([
                chunk(
                    "",
                    json!([{"id": "c1", "name": "get_weather", "args": "{\"city", "index": 0}]),
                ),
                chunk("", json!([{"args": "\": \"Par", "index": 0}])),
            ]);
        }
        let end = ev("on_chat_model_end", "m", "model", json!({"output": &ai}));
        lines.extend(std::iter::repeat_n(end, model_ends));
        lines.extend([
            ev(
                "on_chain_end",
                "agent",
                "node",
                json!({"output": {"messages": [&ai]}}),
            ),
            ev(
                "on_chain_end",
                "LangGraph",
                "root",
                json!({"output": {"messages": [&human, &ai]}}),
            ),
        ]);
        lines
    }

    /// A model run the log completes more than once (its end, once or repeated, its node's
    /// end, the root's end state, or only the last two when its end is missing): its call
    /// starts once, ends once, its argument deltas join to one JSON value, and its text is
    /// sent once.
    #[test]
    fn a_call_completed_again_sends_its_arguments_once() {
        for (chunks, model_ends) in [true, false]
            .into_iter()
            .flat_map(|c| [(c, 0), (c, 1), (c, 2)])
        {
            let mut c = Converter::new(Options::default());
            let mut events = vec![];
            for line in log(chunks, model_ends) {
                events.extend(c.feed_line(&line.to_string()).expect("not strict"));
            }
            events.extend(c.finish().expect("not strict").0);
            let seen = format!("chunks {chunks}, model ends {model_ends}: {events:?}");
            assert!(c.take_problems().is_empty(), "{seen}");
            let (mut starts, mut ends) = (HashMap::new(), HashMap::new());
            let (mut args, mut text) = (HashMap::new(), String::new());
            for e in &events {
                match e {
                    Event::ToolCallStart { tool_call_id, .. } => {
                        *starts.entry(tool_call_id.as_str()).or_insert(0) += 1
                    }
                    Event::ToolCallArgs {
                        tool_call_id,
                        delta,
                        ..
                    } => args
                        .entry(tool_call_id.as_str())
                        .or_insert_with(String::new)
                        .push_str(delta),
                    Event::ToolCallEnd { tool_call_id, .. } => {
                        *ends.entry(tool_call_id.as_str()).or_insert(0) += 1
                    }
                    Event::TextMessageContent { delta, .. } => text.push_str(delta),
                    _ => {}
                }
            }
            assert_eq!(starts, HashMap::from([("c1", 1)]), "{seen}");
            assert_eq!(ends, HashMap::from([("c1", 1)]), "{seen}");
            let joined = args.get("c1").expect("arguments");
            let value = serde_json::from_str::<Value>(joined);
            assert_eq!(
                value.ok(),
                Some(json!({"city": "Paris"})),
                "{joined}: {seen}"
            );
            assert_eq!(text, "Let me check.", "{seen}");
        }
    }
}
