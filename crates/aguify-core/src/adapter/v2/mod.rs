//! v2 `astream_events` (Python API-server JSON, langchain `dumpd`, LangGraph.js, and the
//! `events` frames of classic platform SSE / SDK stream parts) → model events. The run and its
//! steps are read here; model runs in model.rs, tool runs in tools.rs, `messages-tuple` stream
//! parts in tuple.rs.

mod model;
mod tools;
mod tuple;

use foldhash::fast::RandomState as FastIds;
use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::{custom_event, interrupts_from, run_start};
use super::{Disposition, RecordKind};
use crate::input::Record;
use crate::model::{ModelEvent, Snapshot};
use crate::payload::Payload;
use crate::wire::v2::{Data, Event};
use model::ModelRun;
use tools::{Claimed, PendingCall, ToolRun};

#[derive(Default)]
pub struct V2Adapter {
    /// Runs ended so far in this file.
    run_no: u64,
    root: Option<String>,
    hint_run_id: Option<String>,
    hint_thread_id: Option<String>,
    /// The run in progress.
    run: Run,
    /// Tool calls seen in model output and not yet matched to a tool run, in call order.
    pending_calls: Vec<PendingCall>,
    /// Whether any `events` record was seen (then `messages` parts repeat it and are skipped).
    saw_events: bool,
    /// The message of a `messages-tuple` stream that is open (`true`) or that ended last
    /// without usage (`false`: a usage-only chunk after it is its; a run's end forgets it).
    tuple: Option<tuple::TupleMessage>,
    /// A warning about the record just fed.
    warning: Option<String>,
}

/// What the adapter knows of the run in progress, forgotten at its end
/// ([`V2Adapter::forget_run`]).
#[derive(Default)]
struct Run {
    /// A run is in progress (not ended since it started).
    started: bool,
    /// Open node runs (steps) by run id.
    steps: HashSet<String, FastIds>,
    /// Open model runs by run id, in the order they started: the ones still open at a node's or
    /// the root's end are completed in that order (an iteration order that hangs on the
    /// hasher's seed made output differ between runs).
    models: indexmap::IndexMap<String, ModelRun, FastIds>,
    /// Model runs that ended, no longer in `models`.
    ended: model::Ended,
    /// Calls matched to a tool run in this run (the latest [`Claimed::WINDOW`]): a call
    /// seen again is not pending again.
    claimed: Claimed,
    /// Tool run id → tool call id.
    tool_runs: HashMap<String, ToolRun, FastIds>,
    /// The run's sub-agents ([`super::subagent::Nest`]).
    nest: super::subagent::Nest,
}

impl V2Adapter {
    /// At a run's end (its root's end or an error line): forget its steps and model runs,
    /// the calls matched to a tool run, the calls of earlier runs and the tool runs, so a log
    /// of many runs is read in flat memory (and time: pending calls are looked up by
    /// scanning), and a failed run's open model is not the next run's. The run's unclaimed
    /// calls stay: a resumed run executes the calls its interrupted predecessor made.
    fn forget_run(&mut self) {
        self.run = Run::default();
        self.tuple.take_if(|t| !t.open);
        self.pending_calls.retain(|c| c.run == self.run_no);
        self.run_no += 1;
    }

    fn ensure_started(&mut self, out: &mut Vec<ModelEvent>) {
        if !self.run.started {
            self.run.started = true;
            let (thread_id, run_id) = (self.hint_thread_id.clone(), self.hint_run_id.clone());
            out.push(run_start(thread_id, run_id, &Value::Null));
        }
    }

    fn on_root(&mut self, ev: &Event, kind: &str, out: &mut Vec<ModelEvent>) -> Disposition {
        let data = ev.data.value();
        match kind {
            "on_chain_start" => {
                if self.run.started && self.root.is_some() && self.root != ev.run_id {
                    let why = "a second root run started before the first one ended";
                    return Disposition::bad(why);
                }
                self.root.clone_from(&ev.run_id);
                self.run.started = true;
                let thread_id = ev.meta.thread_id.0.clone().or(self.hint_thread_id.clone());
                let run_id = ev.run_id.clone().or_else(|| self.hint_run_id.clone());
                out.push(run_start(thread_id, run_id, data));
                Disposition::Mapped
            }
            "on_chain_stream" => {
                self.ensure_started(out);
                match &ev.data {
                    Data::Interrupt(list) => {
                        let ints = interrupts_from(list);
                        if ints.is_empty() {
                            return Disposition::bad(
                                "`__interrupt__` without interrupt ids: expected [{id, value}]",
                            );
                        }
                        out.push(ModelEvent::Interrupt(ints));
                        Disposition::Mapped
                    }
                    Data::Part(Some(payload)) => {
                        out.push(custom_event(None, Payload::from_value(payload)));
                        Disposition::Mapped
                    }
                    Data::Part(None) => {
                        Disposition::Ignored("root stream part of another stream mode")
                    }
                    _ => {
                        Disposition::Ignored("root stream chunk is a node's update, not the state")
                    }
                }
            }
            "on_chain_end" => {
                self.ensure_started(out);
                if let Data::State(s) = &ev.data {
                    self.complete_from_state(s, out);
                    // Its `__interrupt__` kept.
                    out.push(ModelEvent::State(Snapshot::Encoded(s.clone())));
                } else if data.is_object() {
                    out.push(ModelEvent::State(Snapshot::Value(data.clone())));
                }
                out.push(ModelEvent::RunEnd);
                self.forget_run();
                Disposition::Mapped
            }
            _ => Disposition::Ignored("root chain event of no AG-UI meaning"),
        }
    }

    fn on_chain(&mut self, ev: &Event, kind: &str, out: &mut Vec<ModelEvent>) -> Disposition {
        let run_id = ev.run_id.clone().unwrap_or_default();
        let (calls, conversation) = match &ev.data {
            Data::Calls(calls, conversation) => (&calls[..], conversation.as_ref()),
            _ => (&[][..], None),
        };
        match kind {
            "on_chain_start" => {
                let name = ev.name.clone().unwrap_or_default();
                if ev.is_step() {
                    self.ensure_started(out);
                    // What the steps before this one wrote, in order (a step of the root
                    // graph: a nested graph's list is its own).
                    let nested = ev.meta.ns.0.as_deref().is_some_and(|ns| ns.contains('|'));
                    if let Some(list) = conversation.filter(|_| !nested) {
                        out.push(ModelEvent::Conversation(list.clone()));
                    }
                    self.run.steps.insert(run_id.clone());
                    out.push(ModelEvent::StepStart { name, key: run_id });
                    return Disposition::Mapped;
                }
                // A graph a tool invokes starts as a runnable in the tool's task.
                if let Some(ns) = &ev.meta.ns.0 {
                    self.run.nest.graph_named(ns, &name);
                }
                Disposition::Ignored("runnable inside a node (not a graph step)")
            }
            "on_chain_end" => {
                self.complete_from_node(ev.meta.ns.0.as_deref(), calls, out);
                if self.run.steps.remove(&run_id) {
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
}

impl super::Adapt for V2Adapter {
    fn feed(&mut self, rec: &Record, kind: &RecordKind, out: &mut Vec<ModelEvent>) -> Disposition {
        match kind {
            RecordKind::RunMetadata { run_id, thread_id } => {
                self.hint_run_id = run_id.clone();
                self.hint_thread_id = thread_id.clone().or(self.hint_thread_id.take());
                return Disposition::Mapped;
            }
            RecordKind::ErrorLine(info) => {
                if !self.run.started && self.run_no > 0 {
                    return Disposition::bad("an error line after the run had already ended");
                }
                self.ensure_started(out);
                out.push(ModelEvent::RunFailed(info.clone()));
                self.forget_run();
                return Disposition::Mapped;
            }
            RecordKind::Values(data) => {
                self.ensure_started(out);
                self.run.nest.scope("", out);
                let state = Snapshot::Value(super::lc::normalize_owned(Value::clone(data)));
                if !super::state_events(state, out) {
                    return Disposition::Ignored("values payload that is not a state object");
                }
                if let Some(ModelEvent::State(Snapshot::Value(state))) = out.last() {
                    self.state_calls(state);
                }
                return Disposition::Mapped;
            }
            RecordKind::Custom(ns, data) => {
                self.ensure_started(out);
                self.run.nest.scope(ns, out);
                out.push(custom_event(None, Payload::from_value(data)));
                return Disposition::Mapped;
            }
            RecordKind::MessagesTuple(ns, data) => return self.on_message_tuple(data, ns, out),
            RecordKind::OtherStreamMode(_) => {
                return Disposition::Ignored(
                    "platform stream mode aguify does not map (updates, messages, debug…)",
                )
            }
            // A v2 event: the router gives an adapter no other family's records.
            _ => {}
        }
        self.saw_events = true;
        let Some(ev) = rec.v2.as_deref() else {
            return Disposition::bad("v2 event without `event`");
        };
        // The calls a chain's output or a node's update holds, or those a step executes: a
        // `Send` payload's (create_agent `tools` runs), or those its input state leaves without
        // a result (a resumed run re-executes them). Pending until a tool run claims them.
        if let Data::Calls(messages, _) = &ev.data {
            for m in messages {
                for c in &m.calls {
                    self.pend(&c.id, &c.name, &c.args, m.id.as_deref(), false);
                }
            }
        }
        let kind = ev.event.as_str();
        if ev.is_root() && kind.starts_with("on_chain_") {
            self.run.nest.scope("", out);
            return self.on_root(ev, kind, out);
        }
        // A namespace under an open tool call's task: a graph runs in the call (a sub-agent).
        let ns = ev.meta.ns.0.as_deref().unwrap_or_default();
        self.run.nest.shows(ns, true, out);
        self.run.nest.scope(ns, out);
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
                out.push(custom_event(Some(name.unwrap_or("custom")), data));
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

    fn take_warning(&mut self) -> Option<String> {
        self.warning.take()
    }

    fn finish(&mut self, out: &mut Vec<ModelEvent>) {
        if !std::mem::take(&mut self.run.started) {
            return;
        }
        if !self.saw_events {
            // A capture of stream parts only (messages-tuple, values, custom; `graph.stream`'s
            // own SSE) has no lifecycle: its end is the end of the stream, and only an error
            // frame says it failed (issue 39.6). A model's message with no finish reason
            // (LangGraph.js keeps it in the generation, not the chunk) ends there too.
            if let Some(t) = self.tuple.take_if(|t| t.open) {
                out.push(super::message_end(t.id, None));
            }
            out.push(ModelEvent::RunEnd);
            return;
        }
        let reason = if self.run.models.is_empty() {
            "the log stops before the root run ended, with no error line"
        } else {
            "the log stops mid-message: no root end and no error line"
        };
        let reason = reason.to_string();
        out.push(ModelEvent::RunIncomplete { reason });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapter::Adapt;
    use crate::input::tests::framed;

    /// A `messages-tuple` stream sends a subgraph's AI message whole once its node returned
    /// (no `tool_call_chunks`): its calls come with it, before the tool message answering one.
    #[test]
    fn a_whole_tuple_message_brings_its_calls() {
        let mut a = V2Adapter::default();
        let mut out = vec![];
        let ai = r#"{"event":"messages","data":[{"content":"Let me check.","type":"ai","id":"m1","response_metadata":{"finish_reason":"tool_calls"},"tool_calls":[{"id":"c1","name":"get_weather","args":{"city":"Paris"}}]},{}]}"#;
        let tool = r#"{"event":"messages","data":[{"content":"Sunny","type":"tool","id":"t1","tool_call_id":"c1","name":"get_weather"},{}]}"#;
        for (n, l) in [ai, tool].into_iter().enumerate() {
            let rec = framed(l, n as u64 + 1).expect("a record");
            assert_eq!(
                a.feed(&rec, &crate::adapter::classify(&rec), &mut out),
                Disposition::Mapped,
                "{l}"
            );
        }
        let call = out.iter().position(|e| {
            matches!(e, ModelEvent::ToolCallChunk { id: Some(id), name: Some(n), args, .. }
                if id == "c1" && n == "get_weather" && args == r#"{"city":"Paris"}"#)
        });
        let result = out.iter().position(|e| matches!(e, ModelEvent::ToolEnd(_)));
        assert!(call.is_some() && call < result, "{out:?}");
    }

    /// `stream_subgraphs`: the parts of a `tools:<task>` namespace are the sub-agent of the
    /// calls the supervisor's message made, in call order, named by `lc_agent_name`; a root
    /// part is the supervisor's again. A resumed run's calls come from its first state.
    #[test]
    fn subgraph_parts_under_a_tool_task_are_the_calls_sub_agents() {
        let sub = |ns: &str, id: &str, agent: &str| {
            format!(
                r#"{{"event":"messages|{ns}","data":[{{"content":"Hi","type":"AIMessageChunk","id":"{id}"}},{{"lc_agent_name":"{agent}"}}]}}"#
            )
        };
        let run = |lines: &[String]| {
            let (mut a, mut out) = (V2Adapter::default(), vec![]);
            for (n, l) in lines.iter().enumerate() {
                let rec = framed(l, n as u64 + 1).expect("a record");
                let d = a.feed(&rec, &crate::adapter::classify(&rec), &mut out);
                assert_eq!(d, Disposition::Mapped, "{l}");
            }
            out.retain(|e| matches!(e, ModelEvent::SubagentStart { .. } | ModelEvent::Scope(_)));
            out
        };
        let started = |call: &str, name: &str| ModelEvent::SubagentStart {
            id: format!("{call}:subagent"),
            name: name.into(),
            parent_tool_call_id: call.into(),
        };
        let scope = |call: Option<&str>| ModelEvent::Scope(call.map(|c| format!("{c}:subagent")));
        let calls = r#"{"event":"messages","data":[{"content":"","type":"AIMessageChunk","id":"m1","tool_call_chunks":[{"id":"c1","name":"ask_weather","args":"{}","index":0},{"id":"c2","name":"ask_news","args":"{}","index":1}]},{}]}"#;
        let answer = r#"{"event":"messages","data":[{"content":"Calm","type":"tool","id":"t2","tool_call_id":"c2","name":"ask_news"},{}]}"#;
        let lines = [
            calls.to_string(),
            sub("tools:a", "w1", "weather_agent"),
            sub("tools:b", "n1", "news_agent"),
            answer.to_string(),
        ];
        assert_eq!(
            run(&lines),
            [
                started("c1", "weather_agent"),
                scope(Some("c1")),
                started("c2", "news_agent"),
                scope(Some("c2")),
                scope(None),
            ]
        );
        let state = r#"{"event":"values","data":{"messages":[{"content":"","type":"ai","id":"m1","tool_calls":[{"id":"c1","name":"ask_order","args":{}}]}]}}"#;
        let resumed = [state.to_string(), sub("tools:a", "o1", "order_agent")];
        assert_eq!(
            run(&resumed),
            [started("c1", "order_agent"), scope(Some("c1"))]
        );
    }

    /// A run that failed (the error line) mid-message is over: when the next run is cut off,
    /// its end does not say it stopped mid-message.
    #[test]
    fn an_error_line_forgets_the_failed_runs_open_model() {
        let mut a = V2Adapter::default();
        let mut out = vec![];
        let root = r#"{"event":"on_chain_start","data":{"input":{"messages":[]}},"name":"LangGraph","run_id":"root","metadata":{},"parent_ids":[]}"#;
        let chunk = r#"{"event":"on_chat_model_stream","data":{"chunk":{"content":"Hi","type":"AIMessageChunk","id":"m1"}},"run_id":"mr","name":"M","metadata":{"langgraph_node":"agent"},"parent_ids":["root"]}"#;
        let error = r#"{"event":"error","data":{"error":"ValueError","message":"boom"}}"#;
        for (n, l) in [root, chunk, error, root].into_iter().enumerate() {
            let rec = framed(l, n as u64 + 1).expect("a record");
            let d = a.feed(&rec, &crate::adapter::classify(&rec), &mut out);
            assert_eq!(d, Disposition::Mapped, "{l}");
        }
        a.finish(&mut out);
        let reason = "the log stops before the root run ended, with no error line";
        assert_eq!(
            out.last(),
            Some(&ModelEvent::RunIncomplete {
                reason: reason.into()
            }),
            "{out:?}"
        );
    }

    /// A log filtered to model chunks and tool events (no model end, no node output): the
    /// call that streamed is the tool run's, so a graph under the tool's task is its
    /// sub-agent.
    #[test]
    fn a_call_known_only_from_its_chunks_is_the_tool_runs() {
        let mut a = V2Adapter::default();
        let mut out = vec![];
        let meta = |node: &str, ns: &str| {
            format!(
                r#""tags":[],"metadata":{{"langgraph_node":"{node}","langgraph_checkpoint_ns":"{ns}"}},"parent_ids":["root","x"]"#
            )
        };
        let lines = [
            r#"{"event":"on_chain_start","data":{"input":{"messages":[]}},"name":"LangGraph","tags":[],"run_id":"root","metadata":{},"parent_ids":[]}"#.to_string(),
            format!(r#"{{"event":"on_chat_model_stream","data":{{"chunk":{{"content":"","type":"AIMessageChunk","id":"m1","tool_call_chunks":[{{"id":"c1","name":"f","args":"{{}}","index":0}}]}}}},"run_id":"mr","name":"M",{}}}"#, meta("agent", "agent:1")),
            format!(r#"{{"event":"on_tool_start","data":{{"input":{{}}}},"name":"f","run_id":"tr",{}}}"#, meta("tools", "tools:2")),
            format!(r#"{{"event":"on_chat_model_stream","data":{{"chunk":{{"content":"inner","type":"AIMessageChunk","id":"m9"}}}},"run_id":"mr9","name":"M",{}}}"#, meta("model", "tools:2|model:9")),
        ];
        for (n, l) in lines.iter().enumerate() {
            let rec = framed(l, n as u64 + 1).expect("a record");
            let d = a.feed(&rec, &crate::adapter::classify(&rec), &mut out);
            assert_eq!(d, Disposition::Mapped, "{l}");
        }
        assert!(
            out.iter().any(
                |e| matches!(e, ModelEvent::ToolStart { tool_call_id, parent_message_id, .. }
                if tool_call_id == "c1" && parent_message_id.as_deref() == Some("m1"))
            ),
            "{out:?}"
        );
        assert!(
            out.iter().any(
                |e| matches!(e, ModelEvent::SubagentStart { parent_tool_call_id, .. }
                if parent_tool_call_id == "c1")
            ),
            "{out:?}"
        );
    }

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
        for i in 0..2 * model::Ended::WINDOW + 10 {
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
            assert!(a.run.models.is_empty() && a.run.ended.len() <= model::Ended::WINDOW);
            assert!(a.run.claimed.len() <= Claimed::WINDOW);
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
