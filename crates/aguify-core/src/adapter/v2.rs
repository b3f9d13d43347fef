//! v2 `astream_events` (Python API-server JSON, langchain `dumpd`, LangGraph.js, and the
//! `events` frames of classic platform SSE / SDK stream parts) → model events.

use crate::json::Field;
use foldhash::fast::RandomState as FastIds;
use std::collections::HashMap;

use serde_json::Value;

use super::{
    content, custom_event, custom_payload_event, input_messages, input_state, interrupts_from,
    resume_value,
};
use super::{Adapter, Disposition, RecordKind};
use crate::input::Record;
use crate::model::ModelEvent;
use crate::payload::Payload;
use crate::wire::langchain as lc;
use crate::wire::v2::{Data, Event, MessageCalls, MessageChunk};

#[derive(Default)]
pub struct V2Adapter {
    /// Runs ended so far in this file.
    run_no: u64,
    root: Option<String>,
    started: bool,
    ended: bool,
    hint_run_id: Option<String>,
    hint_thread_id: Option<String>,
    /// Open node runs (steps) by run id.
    steps: HashMap<String, String, FastIds>,
    models: HashMap<String, ModelRun, FastIds>,
    /// Models in `models` that have ended (kept for late events of theirs, up to
    /// [`V2Adapter::ENDED_MODELS`]).
    ended_models: usize,
    /// Tool calls seen in model output and not yet matched to a tool run, in call order.
    pending_calls: Vec<PendingCall>,
    /// Calls matched to a tool run in this run (the latest [`Claimed::WINDOW`]): a call
    /// seen again is not pending again.
    claimed: Claimed,
    /// Tool run id → tool call id.
    tool_runs: HashMap<String, ToolRun, FastIds>,
    /// Calls (id, name, message id) the state a tools node starts from leaves without a
    /// result, not yet resolved to a tool run: a resumed run re-executes them, and a tool
    /// run that names no call is the only waiting call of its tool's name.
    waiting_calls: Vec<(String, String, Option<String>)>,
    open_messages: usize,
    /// Whether any `events` record was seen (then `messages` parts repeat it and are skipped).
    saw_events: bool,
    /// The message open in a `messages-tuple` stream, and the one that ended last without
    /// usage (a usage-only chunk after it is its).
    tuple_open: Option<String>,
    tuple_last: Option<String>,
    /// The run's sub-agents ([`super::subagent::Nest`]).
    nest: super::subagent::Nest,
    /// A warning about the record just fed (taken by [`Adapter::take_warning`]).
    warning: Option<String>,
}

struct ModelRun {
    message_id: String,
    streamed: bool,
    ended: bool,
    /// The task namespace the model ran in (its node's).
    ns: Option<String>,
    /// Chunk index → tool call id, for later chunks that carry no id.
    tool_index: HashMap<String, String, FastIds>,
    /// The answer text streamed so far, and the argument text per chunk index, until the
    /// model's end completes them ([`super::completion`]).
    text: String,
    args: HashMap<String, String, FastIds>,
}

struct PendingCall {
    id: String,
    name: String,
    args: String,
    message_id: Option<String>,
    /// Args accumulate from streamed chunks (otherwise they came whole from a message).
    from_chunks: bool,
    /// The run (counted in this file) whose model made the call.
    run: u64,
}

/// Call ids matched to tool runs, with their messages' ids: the latest 16,384, so a run of
/// thousands of calls (a long-running agent) is read in flat memory, and looking a call up
/// scans only the pending ones.
type Claimed =
    crate::recent::Recent<String, Option<String>, { 1 << 14 }, foldhash::fast::RandomState>;

struct ToolRun {
    tool_call_id: Option<String>,
    name: String,
    input: Value,
}

fn s(v: &Value, k: &str) -> Option<String> {
    v.get(k).and_then(Value::as_str).map(str::to_string)
}

impl V2Adapter {
    /// Ended model runs remembered (a late chunk or end of theirs is read as theirs).
    const ENDED_MODELS: usize = 4096;

    /// At a run's end: forget the calls matched to a tool run, the calls of earlier runs and
    /// the tool runs, so a log of many runs is read in flat memory (and time: pending calls
    /// are looked up by scanning). The run's unclaimed calls stay: a resumed run executes the
    /// calls its interrupted predecessor made.
    fn forget_run(&mut self) {
        self.nest.clear();
        let run = self.run_no;
        self.pending_calls.retain(|c| c.run == run);
        self.claimed.clear();
        self.tool_runs.clear();
        self.waiting_calls.clear();
        self.tuple_last = None;
        self.run_no += 1;
    }

    fn ensure_started(&mut self, out: &mut Vec<ModelEvent>) {
        if !self.started {
            self.started = true;
            self.ended = false;
            out.push(ModelEvent::RunStart {
                thread_id: self.hint_thread_id.clone(),
                run_id: self.hint_run_id.clone(),
                messages: vec![],
                resume: None,
                state: None,
            });
        }
    }

    /// The calls of AI messages, pending until a tool run claims them.
    fn remember_calls<'m>(&mut self, messages: impl IntoIterator<Item = &'m MessageCalls>) {
        for m in messages {
            for call in &m.calls {
                self.remember_call(call, m.id.as_ref());
            }
        }
    }

    /// A call (id, name, args) pending unless known already.
    fn remember_call(
        &mut self,
        (id, name, args): &(String, String, String),
        message_id: Option<&String>,
    ) {
        if !self.known_call(id) {
            self.pending_calls.push(PendingCall {
                run: self.run_no,
                id: id.clone(),
                name: name.clone(),
                args: args.clone(),
                message_id: message_id.cloned(),
                from_chunks: false,
            });
        }
    }

    fn on_root(&mut self, ev: &Event, kind: &str, out: &mut Vec<ModelEvent>) -> Disposition {
        let data = match &ev.data {
            Data::Input(Some(v)) | Data::Output(Some(v)) => v,
            _ => &Value::Null,
        };
        match kind {
            "on_chain_start" => {
                let run_id = ev.run_id.clone();
                if self.started && !self.ended && self.root.is_some() && self.root != run_id {
                    return Disposition::Bad(
                        "a second root run started before the first one ended".into(),
                    );
                }
                self.root = run_id.clone();
                self.started = true;
                self.ended = false;
                let input = data;
                let thread_id = ev.thread_id.clone().or_else(|| self.hint_thread_id.clone());
                out.push(ModelEvent::RunStart {
                    thread_id,
                    run_id: run_id.or_else(|| self.hint_run_id.clone()),
                    messages: input_messages(input),
                    resume: resume_value(input),
                    state: input_state(input),
                });
                Disposition::Mapped
            }
            "on_chain_stream" => {
                self.ensure_started(out);
                let calls = match &ev.data {
                    Data::Update {
                        interrupt: Some(list),
                        ..
                    } => {
                        let ints = interrupts_from(list);
                        if ints.is_empty() {
                            return Disposition::Bad(
                                "`__interrupt__` without interrupt ids: expected [{id, value}]"
                                    .into(),
                            );
                        }
                        out.push(ModelEvent::Interrupt(ints));
                        return Disposition::Mapped;
                    }
                    Data::Update { calls, .. } => calls.as_slice(),
                    Data::Part(Some(payload)) => {
                        out.push(custom_event(None, payload));
                        return Disposition::Mapped;
                    }
                    Data::Part(None) => {
                        return Disposition::Ignored("root stream part of another stream mode")
                    }
                    _ => &[],
                };
                self.remember_calls(calls);
                Disposition::Ignored("root stream chunk is a node's update, not the state")
            }
            "on_chain_end" => {
                self.ensure_started(out);
                if let Data::State(s) = &ev.data {
                    self.complete_from_state(s, out);
                    // Its `__interrupt__` kept.
                    out.push(super::encoded_state(s.rest.clone(), s));
                } else if data.is_object() {
                    out.push(ModelEvent::State {
                        state: data.clone(),
                    });
                }
                out.push(ModelEvent::RunEnd);
                self.ended = true;
                self.started = false;
                self.steps.clear();
                self.models.clear();
                self.ended_models = 0;
                self.open_messages = 0;
                self.forget_run();
                Disposition::Mapped
            }
            _ => Disposition::Ignored("root chain event of no AG-UI meaning"),
        }
    }

    fn on_chain(&mut self, ev: &Event, kind: &str, out: &mut Vec<ModelEvent>) -> Disposition {
        let run_id = ev.run_id.clone().unwrap_or_default();
        match kind {
            "on_chain_start" => {
                let name = ev.name.clone().unwrap_or_default();
                if ev.is_step() {
                    self.ensure_started(out);
                    // create_agent `tools` runs carry the Send payload: the calls they execute.
                    if let Data::StepInput(input) = &ev.data {
                        // What the steps before this one wrote, in order (a step of the
                        // root graph: a nested graph's list is its own).
                        let nested = ev
                            .checkpoint_ns
                            .as_deref()
                            .is_some_and(|ns| ns.contains('|'));
                        if let Some(list) = input.messages.as_ref().filter(|_| !nested) {
                            out.push(ModelEvent::Conversation(list.clone()));
                        }
                        for call in &input.send {
                            self.remember_call(call, None);
                        }
                        // The calls of its input state no tool message answers.
                        if let Some(waiting) = &input.waiting {
                            self.waiting_calls = waiting.clone();
                        }
                    }
                    self.steps.insert(run_id.clone(), name.clone());
                    out.push(ModelEvent::StepStart { name, key: run_id });
                    return Disposition::Mapped;
                }
                // A graph a tool invokes starts as a runnable in the tool's task.
                if let Some(ns) = &ev.checkpoint_ns {
                    self.nest.graph_named(ns, &name);
                }
                Disposition::Ignored("runnable inside a node (not a graph step)")
            }
            "on_chain_end" => {
                if let Data::Calls(calls) = &ev.data {
                    self.remember_calls(calls);
                    self.complete_from_node(ev.checkpoint_ns.as_deref(), calls, out);
                }
                if self.steps.remove(&run_id).is_some() {
                    out.push(ModelEvent::StepEnd { key: run_id });
                    return Disposition::Mapped;
                }
                Disposition::Ignored("runnable inside a node (not a graph step)")
            }
            "on_chain_stream" => {
                Disposition::Ignored("node stream chunk is a partial update, not the state")
            }
            _ => Disposition::Ignored("chain event of no AG-UI meaning"),
        }
    }

    fn on_model(&mut self, ev: &Event, kind: &str, out: &mut Vec<ModelEvent>) -> Disposition {
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
                        ))
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
                    self.complete_stream(&run_id, &message_id, &output, out);
                } else {
                    // A model that did not stream: its whole output is the message.
                    super::completion::whole_message(&message_id, &output, out);
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
                self.open_messages = self.open_messages.saturating_sub(1);
                let usage = content::usage_traced(
                    output.field("usage_metadata"),
                    output.field("response_metadata"),
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
    /// after what streamed, the arguments after what streamed of each call, and the calls
    /// that never streamed ([`super::completion`]).
    fn complete_stream(
        &mut self,
        run_id: &str,
        message_id: &str,
        output: &Value,
        out: &mut Vec<ModelEvent>,
    ) {
        self.complete_parts(run_id, message_id, output, true, out);
    }

    /// [`V2Adapter::complete_stream`], of the text too when `with_text`.
    fn complete_parts(
        &mut self,
        run_id: &str,
        message_id: &str,
        output: &Value,
        with_text: bool,
        out: &mut Vec<ModelEvent>,
    ) {
        use super::completion::{self, Rest};
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
            match completion::args(streamed, &forms) {
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
    fn complete_from_node(
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
    fn complete_from_state(
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
            self.complete_stream(&run_id, &message_id, &msg, out);
            if let Some(m) = self.models.get_mut(&run_id) {
                m.ended = true;
            }
            self.open_messages = self.open_messages.saturating_sub(1);
            let usage =
                content::usage_from(msg.field("usage_metadata"), msg.field("response_metadata"));
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
                streamed: false,
                ended: false,
                tool_index: HashMap::default(),
                text: String::new(),
                args: HashMap::default(),
                ns: None,
            },
        );
        self.open_messages += 1;
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

    fn on_tool(&mut self, ev: &Event, kind: &str, out: &mut Vec<ModelEvent>) -> Disposition {
        self.ensure_started(out);
        let run_id = ev.run_id.clone().unwrap_or_default();
        let name = ev.name.clone().unwrap_or_else(|| "tool".into());
        match kind {
            "on_tool_start" => {
                let input = match &ev.data {
                    Data::Input(Some(v)) => v.clone(),
                    _ => Value::Null,
                };
                let id = self.claim_call(&name, &input);
                if let Some((id, _)) = &id {
                    let ns = ev.checkpoint_ns.as_deref().unwrap_or_default();
                    self.nest.tool_started(id, &name, ns);
                }
                if let Some((id, parent)) = &id {
                    out.push(ModelEvent::ToolStart {
                        tool_call_id: id.clone(),
                        name: name.clone(),
                        args: Some(args_text(&input)),
                        parent_message_id: parent.clone(),
                    });
                }
                self.tool_runs.insert(
                    run_id,
                    ToolRun {
                        tool_call_id: id.map(|(i, _)| i),
                        name,
                        input,
                    },
                );
                Disposition::Mapped
            }
            "on_tool_end" => {
                let Data::Output(Some(output)) = &ev.data else {
                    return Disposition::Bad(
                        "on_tool_end without `data.output`: expected the tool's result".into(),
                    );
                };
                let output =
                    lc::command_tool_message(output, None).unwrap_or_else(|| output.clone());
                let is_msg = lc::message_kind(&output) == Some("tool");
                let call_id = if is_msg {
                    s(&output, "tool_call_id")
                } else {
                    None
                };
                let (content, error, message_id) = if is_msg {
                    (
                        output.field("content").cloned().unwrap_or(Value::Null),
                        output.field("status").and_then(Value::as_str) == Some("error"),
                        s(&output, "id"),
                    )
                } else {
                    (output.clone(), false, None)
                };
                let id = self.resolve_tool_run(&run_id, call_id, &name, out);
                self.nest.tool_ended(&id);
                out.push(ModelEvent::ToolEnd {
                    tool_call_id: id,
                    name: Some(name),
                    content,
                    message_id,
                    error,
                });
                Disposition::Mapped
            }
            "on_tool_error" => {
                let (err, call_id) = match &ev.data {
                    Data::ToolError {
                        error,
                        tool_call_id,
                    } => (error.as_ref(), tool_call_id.clone()),
                    _ => (None, None),
                };
                let read = super::tool_error::read(err.unwrap_or(&Value::Null));
                let id = self.resolve_tool_run(&run_id, call_id, &name, out);
                match read {
                    // `interrupt()` inside the tool: the call waits for the resume run.
                    super::tool_error::ToolError::Interrupted(mut ints) => {
                        for i in &mut ints {
                            i.tool_call_id = Some(id.clone());
                        }
                        out.push(ModelEvent::Interrupt(ints));
                    }
                    super::tool_error::ToolError::Failed(text) => {
                        self.nest.tool_ended(&id);
                        out.push(ModelEvent::ToolEnd {
                            tool_call_id: id,
                            name: Some(name),
                            content: Value::String(text),
                            message_id: None,
                            error: true,
                        })
                    }
                }
                Disposition::Mapped
            }
            _ => Disposition::Ignored("tool event of no AG-UI meaning"),
        }
    }

    /// The tool call a starting tool run executes: the unclaimed call of that name whose
    /// arguments equal the tool input, or the only unclaimed call of that name. When several
    /// could match, the id waits for the tool's end (which names it).
    fn claim_call(&mut self, name: &str, input: &Value) -> Option<(String, Option<String>)> {
        let same_args =
            |c: &PendingCall| serde_json::from_str::<Value>(&c.args).is_ok_and(|a| &a == input);
        let candidates: Vec<usize> = (0..self.pending_calls.len())
            .filter(|&i| self.pending_calls[i].name == name)
            .collect();
        let pos = candidates
            .iter()
            .copied()
            .find(|&i| same_args(&self.pending_calls[i]))
            .or(if candidates.len() == 1 {
                Some(candidates[0])
            } else {
                None
            })?;
        Some(self.claim(pos))
    }

    /// Matches pending call `pos` to a tool run: it leaves the pending calls.
    fn claim(&mut self, pos: usize) -> (String, Option<String>) {
        let c = self.pending_calls.remove(pos);
        self.claimed.insert(c.id.clone(), c.message_id.clone());
        (c.id, c.message_id)
    }

    /// Whether call `id` is pending or was matched to a tool run.
    fn known_call(&self, id: &str) -> bool {
        self.pending_calls.iter().any(|c| c.id == id) || self.claimed.get(id).is_some()
    }

    fn resolve_tool_run(
        &mut self,
        run_id: &str,
        call_id: Option<String>,
        name: &str,
        out: &mut Vec<ModelEvent>,
    ) -> String {
        let run = self.tool_runs.remove(run_id);
        let known = run.as_ref().and_then(|r| r.tool_call_id.clone());
        let tname = run.as_ref().map_or(name, |r| r.name.as_str());
        let id = call_id.clone().or(known.clone());
        let waiting = match &id {
            Some(id) => {
                self.waiting_calls.retain(|(w, _, _)| w != id);
                None
            }
            // No call named: the only waiting call of this tool's name.
            None => {
                let mut same = self.waiting_calls.iter().filter(|(_, n, _)| n == tname);
                match (same.next(), same.next()) {
                    (Some(w), None) => Some(w.clone()),
                    _ => None,
                }
            }
        };
        if let Some((w, _, _)) = &waiting {
            self.waiting_calls.retain(|(c, _, _)| c != w);
        }
        let id = id
            .or(waiting.as_ref().map(|(w, _, _)| w.clone()))
            .unwrap_or_else(|| format!("tool-run-{run_id}"));
        if known.is_none() {
            // The start could not be matched to a call: announce it now that the id is known.
            let parent = match self.pending_calls.iter().position(|c| c.id == id) {
                Some(pos) => self.claim(pos).1,
                None => self
                    .claimed
                    .get(&id)
                    .cloned()
                    .flatten()
                    .or(waiting.and_then(|(_, _, m)| m)),
            };
            let (tname, input) = match run {
                Some(r) => (r.name, Some(args_text(&r.input))),
                None => (name.to_string(), None),
            };
            out.push(ModelEvent::ToolStart {
                tool_call_id: id.clone(),
                name: tname,
                args: input,
                parent_message_id: parent,
            });
        }
        id
    }
}

impl V2Adapter {
    /// A `messages-tuple` part: `[message chunk, metadata]`. AI chunks stream as a message
    /// (ending at `chunk_position: "last"` or a finish reason); a tool message is a result.
    fn on_message_tuple(&mut self, data: &Value, out: &mut Vec<ModelEvent>) -> Disposition {
        if self.saw_events {
            return Disposition::Ignored("messages stream part repeating the events stream");
        }
        let Some(chunk) = data.as_array().and_then(|a| a.first()) else {
            return Disposition::Bad("messages part: expected [message, metadata]".into());
        };
        let run_meta = data.get(1);
        let traced = |k: &str| run_meta.and_then(|m| m.field(k)).and_then(Value::as_str);
        self.ensure_started(out);
        let chunk = lc::normalize_deep(chunk);
        match lc::message_kind(&chunk) {
            Some("ai") => {
                let id = s(&chunk, "id").unwrap_or_else(|| "message".into());
                let meta = chunk.field("response_metadata");
                let usage = || {
                    let usage = chunk.field("usage_metadata");
                    content::usage_traced(
                        usage,
                        meta,
                        (traced("ls_provider"), traced("ls_model_name")),
                    )
                };
                // OpenAI-style `stream_usage`: the usage comes last, alone, and LangGraph.js
                // gives that chunk an id of its own (`run-…`): it ends the message in
                // progress (or, ended, adds to it), it is no message of its own (issue 39.5).
                if is_usage_only(&chunk) {
                    if let Some(open) = self.tuple_open.take().or(self.tuple_last.take()) {
                        out.push(ModelEvent::MessageEnd {
                            message_id: open,
                            usage: usage(),
                        });
                        return Disposition::Mapped;
                    }
                }
                if self.tuple_open.as_deref() != Some(id.as_str()) {
                    if let Some(prev) = self.tuple_open.take() {
                        out.push(ModelEvent::MessageEnd {
                            message_id: prev,
                            usage: None,
                        });
                    }
                    out.push(ModelEvent::MessageStart {
                        message_id: id.clone(),
                    });
                    self.tuple_open = Some(id.clone());
                    self.tuple_last = None;
                }
                content::chunk_events(&id, &chunk, out);
                let last = chunk.field("chunk_position").and_then(Value::as_str) == Some("last")
                    || meta.is_some_and(|m| {
                        ["finish_reason", "stop_reason"]
                            .iter()
                            .any(|k| m.get(k).is_some_and(|v| !v.is_null()))
                    });
                if last {
                    self.tuple_open = None;
                    let usage = usage();
                    // Usage still to come (on a chunk of its own) is added to this message.
                    self.tuple_last = usage.is_none().then(|| id.clone());
                    out.push(ModelEvent::MessageEnd {
                        message_id: id,
                        usage,
                    });
                }
                Disposition::Mapped
            }
            Some("tool") => {
                let Some(call_id) = s(&chunk, "tool_call_id") else {
                    return Disposition::Bad("tool message without tool_call_id".into());
                };
                out.push(ModelEvent::ToolEnd {
                    tool_call_id: call_id,
                    name: s(&chunk, "name"),
                    content: chunk.field("content").cloned().unwrap_or(Value::Null),
                    message_id: s(&chunk, "id"),
                    error: chunk.field("status").and_then(Value::as_str) == Some("error"),
                });
                Disposition::Mapped
            }
            _ => Disposition::Ignored("messages part of a user or system message (input echo)"),
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

fn args_text(input: &Value) -> String {
    match input {
        Value::String(s) => s.clone(),
        Value::Null => "{}".into(),
        other => other.to_string(),
    }
}

impl Adapter for V2Adapter {
    fn take_warning(&mut self) -> Option<String> {
        self.warning.take()
    }

    fn feed(&mut self, rec: &Record, kind: &RecordKind, out: &mut Vec<ModelEvent>) -> Disposition {
        match kind {
            RecordKind::V2 => {}
            RecordKind::RunMetadata { run_id, thread_id } => {
                self.hint_run_id = run_id.clone();
                if thread_id.is_some() {
                    self.hint_thread_id = thread_id.clone();
                }
                return Disposition::Mapped;
            }
            RecordKind::ErrorLine(info) => {
                if self.ended && !self.started {
                    return Disposition::Bad(
                        "an error line after the run had already ended".into(),
                    );
                }
                self.ensure_started(out);
                out.push(ModelEvent::RunFailed(info.clone()));
                self.ended = true;
                self.started = false;
                self.forget_run();
                return Disposition::Mapped;
            }
            RecordKind::Values => {
                self.ensure_started(out);
                return if super::state_events(super::part_data(rec), out) {
                    Disposition::Mapped
                } else {
                    Disposition::Ignored("values payload that is not a state object")
                };
            }
            RecordKind::Custom => {
                self.ensure_started(out);
                out.push(custom_event(None, super::part_data(rec)));
                return Disposition::Mapped;
            }
            RecordKind::MessagesTuple => return self.on_message_tuple(super::part_data(rec), out),
            RecordKind::OtherStreamMode(_) => {
                return Disposition::Ignored(
                    "platform stream mode aguify does not map (updates, messages, debug…)",
                )
            }
            _ => return Disposition::Bad("expected a v2 event".into()),
        }
        self.saw_events = true;
        let Some(ev) = rec.v2.as_deref() else {
            return Disposition::Bad("v2 event without `event`".into());
        };
        let kind = ev.event.as_str();
        if ev.is_root() && kind.starts_with("on_chain_") {
            self.nest.scope("", out);
            return self.on_root(ev, kind, out);
        }
        // A namespace under an open tool call's task: a graph runs in the call (a sub-agent).
        let ns = ev.checkpoint_ns.as_deref().unwrap_or_default();
        self.nest.shows(ns, true, out);
        self.nest.scope(ns, out);
        match kind {
            k if k.starts_with("on_chain_") => self.on_chain(ev, k, out),
            k if k.starts_with("on_chat_model_") => self.on_model(ev, k, out),
            k if k.starts_with("on_tool_") => self.on_tool(ev, k, out),
            "on_custom_event" => {
                self.ensure_started(out);
                let name = ev.name.as_deref();
                let data = match &ev.data {
                    Data::Custom(p) => p.clone(),
                    _ => Payload::default(),
                };
                out.push(custom_payload_event(Some(name.unwrap_or("custom")), data));
                Disposition::Mapped
            }
            k if k.starts_with("on_llm_") => {
                Disposition::Ignored("completion-model event (no chat message)")
            }
            k if k.starts_with("on_retriever_")
                || k.starts_with("on_prompt_")
                || k.starts_with("on_parser_") =>
            {
                Disposition::Ignored("runnable internals (retriever, prompt, parser)")
            }
            _ => Disposition::Ignored("v2 event kind aguify does not map"),
        }
    }

    fn finish(&mut self, out: &mut Vec<ModelEvent>) {
        if self.started && !self.ended && !self.saw_events {
            // A capture of stream parts only (messages-tuple, values, custom; `graph.stream`'s
            // own SSE) has no lifecycle: its end is the end of the stream, and only an error
            // frame says it failed (issue 39.6). A model's message with no finish reason
            // (LangGraph.js keeps it in the generation, not the chunk) ends there too.
            if let Some(open) = self.tuple_open.take() {
                out.push(ModelEvent::MessageEnd {
                    message_id: open,
                    usage: None,
                });
            }
            out.push(ModelEvent::RunEnd);
            self.started = false;
            return;
        }
        if self.started && !self.ended {
            let open = self.models.values().filter(|m| !m.ended).count();
            let reason = if open > 0 {
                "the log stops mid-message: no root end and no error line".to_string()
            } else {
                "the log stops before the root run ended, with no error line".to_string()
            };
            out.push(ModelEvent::RunIncomplete { reason });
            self.started = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::tests::framed;

    /// One root run of more model and tool calls than the adapter remembers ended ones:
    /// each tool start is matched to its call, the calls matched leave the scanned list, and
    /// what the adapter holds stays bounded.
    #[test]
    fn a_long_run_matches_every_call_in_bounded_memory() {
        let mut a = V2Adapter::default();
        let mut line_no = 0;
        let mut feed = |a: &mut V2Adapter, l: String| {
            line_no += 1;
            let rec = framed(&l, line_no).expect("a record");
            let mut out = vec![];
            let d = a.feed(&rec, &RecordKind::V2, &mut out);
            assert!(!matches!(d, Disposition::Bad(_)), "{d:?}: {l}");
            out
        };
        let node = r#""metadata":{"langgraph_node":"agent"},"parent_ids":["root","n"]"#;
        let tools = r#""metadata":{"langgraph_node":"tools"},"parent_ids":["root","t"]"#;
        feed(
            &mut a,
            r#"{"event":"on_chain_start","data":{"input":{"messages":[]}},"name":"LangGraph","tags":[],"run_id":"root","metadata":{"thread_id":"th"},"parent_ids":[]}"#.into(),
        );
        for i in 0..2 * V2Adapter::ENDED_MODELS + 10 {
            feed(
                &mut a,
                format!(
                    r#"{{"event":"on_chat_model_stream","data":{{"chunk":{{"content":"","type":"AIMessageChunk","id":"m{i}","tool_call_chunks":[{{"id":"call{i}","name":"f","args":"{{\"k\":{i}}}","index":0}}]}}}},"run_id":"mr{i}","name":"M","tags":[],{node}}}"#
                ),
            );
            feed(
                &mut a,
                format!(
                    r#"{{"event":"on_chat_model_end","data":{{"output":{{"content":"","type":"ai","id":"m{i}","tool_calls":[{{"id":"call{i}","name":"f","args":{{"k":{i}}}}}]}}}},"run_id":"mr{i}","name":"M","tags":[],{node}}}"#
                ),
            );
            let started = feed(
                &mut a,
                format!(
                    r#"{{"event":"on_tool_start","data":{{"input":{{"k":{i}}}}},"name":"f","tags":[],"run_id":"tr{i}",{tools}}}"#
                ),
            );
            let call = format!("call{i}");
            let msg = format!("m{i}");
            assert!(
                started.iter().any(
                    |e| matches!(e, ModelEvent::ToolStart { tool_call_id, parent_message_id, .. }
                    if *tool_call_id == call && parent_message_id.as_deref() == Some(msg.as_str()))
                ),
                "{started:?}"
            );
            feed(
                &mut a,
                format!(
                    r#"{{"event":"on_tool_end","data":{{"output":{{"content":"ok","type":"tool","tool_call_id":"call{i}","id":"tm{i}"}}}},"name":"f","tags":[],"run_id":"tr{i}",{tools}}}"#
                ),
            );
            // The update naming the call again, as the model node's end does: not pending anew.
            feed(
                &mut a,
                format!(
                    r#"{{"event":"on_chain_end","data":{{"output":{{"messages":[{{"content":"","type":"ai","id":"m{i}","tool_calls":[{{"id":"call{i}","name":"f","args":{{"k":{i}}}}}]}}]}}}},"run_id":"n{i}","name":"agent","tags":[],{node}}}"#
                ),
            );
            assert!(
                a.pending_calls.is_empty(),
                "{i}: {} pending",
                a.pending_calls.len()
            );
            assert!(a.models.len() <= V2Adapter::ENDED_MODELS + 1);
            assert!(a.claimed.len() <= Claimed::WINDOW);
        }
    }

    #[test]
    fn claimed_calls_are_a_window() {
        let mut c = Claimed::default();
        for i in 0..Claimed::WINDOW + 5 {
            c.insert(format!("c{i}"), Some(format!("m{i}")));
        }
        assert_eq!(c.len(), Claimed::WINDOW);
        assert_eq!(c.get("c4"), None);
        assert_eq!(c.get("c5"), Some(&Some("m5".to_string())));
        c.insert("c5".into(), None);
        assert_eq!(c.len(), Claimed::WINDOW, "a call again is not a new entry");
    }
}
