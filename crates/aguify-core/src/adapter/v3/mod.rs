//! v3 streaming protocol events (`{type:"event",seq,method,params}`: Python wire form and
//! in-process `[payload, metadata]` form, LangGraph.js, and platform `event: <method>` SSE)
//! → model events. docs/inputs.md lists the quirks handled here. The run and its lifecycles
//! are read here; messages in message.rs, tool runs in tools.rs, `seq` checks in seq.rs.

mod message;
mod seq;
mod tools;

use crate::json::Field;
use std::collections::{HashMap, HashSet};

use foldhash::fast::RandomState as FastIds;

use serde_json::Value;

use super::str_field as s;
use super::RecordKind;
use super::{count, custom_event, interrupts_from, lc, Disposition};
use crate::input::Record;
use crate::model::{ErrorInfo, InterruptInfo, MessageRef, ModelEvent, Snapshot};
use crate::payload::Payload;
use crate::wire::v3::{namespace_key, Data, Event, Lifecycle, Params};
use message::OpenMessage;

#[derive(Default)]
pub struct V3Adapter {
    /// The root's terminal lifecycle seen; the run end waits for trailing custom events and
    /// the error line that follow it.
    deferred_end: Option<ModelEvent>,
    saw_root_lifecycle: bool,
    /// The run in progress.
    run: Run,
    /// `seq` → (input line, [`crate::input::text_hash`] of the text) for the run in
    /// progress, to spot replays and reordering (cleared at its end, its memory kept).
    seqs: seq::Seqs,
    /// The file's first integer `seq`: a later event back at it (or below) starts the next
    /// recorded run ([`crate::wire::v3::seq_restarts`]).
    first_seq: Option<i64>,
    warning: Option<String>,
}

/// What the adapter knows of the run in progress (its messages, steps, tools and interrupts),
/// forgotten when it ends ([`V3Adapter::reset_run`]).
#[derive(Default)]
struct Run {
    started: bool,
    /// Open message per namespace.
    messages: HashMap<String, OpenMessage, FastIds>,
    /// Open subgraph/node lifecycles by key.
    steps: HashSet<String, FastIds>,
    /// The interrupts the run stopped at so far (a tool still open then is suspended by one,
    /// not cut off).
    interrupts: Vec<InterruptInfo>,
    /// The run's messages known so far (streamed, or in a state): a message a later state
    /// holds that is none of these did not stream ([`V3Adapter::complete_from_state`]).
    known_messages: HashSet<String, FastIds>,
    /// The length of the last root state's list (`None` until the run's first root state).
    state_len: Option<usize>,
    /// The run's sub-agents ([`super::subagent::Nest`]).
    nest: super::subagent::Nest,
    /// Tool calls whose model message gave them no id (LangGraph.js with
    /// @langchain/google-genai, issue 39.2), in the order they finished: the `tools` events
    /// of such a call carry `tool_call_id: ""` and are paired with one of these (a call
    /// leaves at its tool run's end).
    idless_calls: Vec<tools::IdlessCall>,
    /// Whether this run's missing tool call ids were told already.
    idless_told: bool,
}

/// The warning for a run whose `tools` events lost their call ids (checker rule AGX613).
pub const IDLESS_TOOLS_WARNING: &str = "tool events without `tool_call_id`";

impl V3Adapter {
    fn ensure_started(&mut self, out: &mut Vec<ModelEvent>) {
        if !self.run.started {
            self.run.started = true;
            out.push(super::run_start(None, None, &Value::Null));
        }
    }

    /// The run stops at the interrupts of `list`, when it holds any: whether it did.
    fn interrupt(&mut self, list: Option<&Value>, out: &mut Vec<ModelEvent>) -> bool {
        let Some(list) = list.filter(|l| l.as_array().is_some_and(|a| !a.is_empty())) else {
            return false;
        };
        let list = interrupts_from(list);
        // Kept as listed: the mapper reads an interrupt listed again as the same one.
        self.run.interrupts.extend(list.iter().cloned());
        out.push(ModelEvent::Interrupt(list));
        true
    }

    /// The AI messages of a root state that never streamed (a model that does not stream,
    /// or whose events the server dropped: langgraph-api forwards no `messages` event of the
    /// legacy `[message, metadata]` shape) stream here, whole, when the state first holds
    /// them (issue 22.6). The run's first state is its input: its messages are history.
    /// Only the messages past the previous state's list are read (a shorter list is read
    /// whole).
    fn complete_from_state(&mut self, msgs: Vec<MessageRef<'_>>, out: &mut Vec<ModelEvent>) {
        let len = msgs.len();
        let prev = self.run.state_len.replace(len);
        let (first, from) = (prev.is_none(), prev.filter(|&p| len >= p).unwrap_or(0));
        for m in msgs.into_iter().skip(from) {
            let (kind, id) = m.kind_and_id();
            if kind.as_deref() == Some("tool") {
                if let Some(call) = m.tool_call() {
                    self.run.nest.answered(&call);
                }
            }
            let Some(id) = id.filter(|i| !i.is_empty() && kind.as_deref() == Some("ai")) else {
                continue;
            };
            if !self.run.known_messages.insert(id.clone()) || first {
                continue;
            }
            // A shared message is read whole only when it streams here.
            let m = match m {
                MessageRef::Value(v) => lc::normalize_cow(v).into_owned(),
                MessageRef::Shared(s) => s.to_value(),
            };
            out.push(super::message_start(&id));
            super::completion::whole_message(&id, &m, out);
            // Its calls, as a streamed message's, are those a graph started later may serve.
            self.run.nest.message_started("");
            for call in lc::tool_calls(&m) {
                self.run.nest.call_made("", &call.id, &call.name);
            }
            let usage = super::content::usage_of(&m, (None, None));
            out.push(super::message_end(id, usage));
        }
    }

    /// Ends the run in progress: its deferred terminal, or what the log left of it
    /// (`next_run`: the next recorded run starts here, instead of the log ending).
    fn end_run(&mut self, next_run: bool, out: &mut Vec<ModelEvent>) {
        if self.deferred_end.is_some() || !self.run.started {
            self.flush_deferred(out);
            return;
        }
        let stops = if next_run {
            "the next recorded run starts (v3 `seq` starts again)"
        } else {
            "the log stops"
        };
        let (messages, tools) = (self.run.messages.len(), self.run.nest.calls.len());
        let reason = if self.saw_root_lifecycle {
            Some(format!(
                "{stops} before the root lifecycle completed, with no error line"
            ))
        } else if (messages, tools) == (0, 0) || (messages == 0 && self.suspend_open_tools(out)) {
            None
        } else {
            // Python v3 has no root lifecycle: a run that ends with an open message or tool
            // stopped mid-run.
            let (m, t) = (count(messages, "message"), count(tools, "tool call"));
            Some(format!("{stops} with {m} and {t} still open"))
        };
        let incomplete = |reason| ModelEvent::RunIncomplete { reason };
        out.push(reason.map_or(ModelEvent::RunEnd, incomplete));
        self.reset_run();
    }

    /// Forgets the run that ended.
    fn reset_run(&mut self) {
        self.run = Run::default();
        self.seqs.clear();
    }

    fn flush_deferred(&mut self, out: &mut Vec<ModelEvent>) {
        if let Some(end) = self.deferred_end.take() {
            out.push(end);
            self.reset_run();
        }
    }

    /// A root `values` event: the messages of its state that never streamed, its
    /// `params.interrupts`, then the state ([`super::state_events`]).
    fn on_values(&mut self, p: &Params, out: &mut Vec<ModelEvent>) -> Disposition {
        let snap = match &p.data {
            // A state read with its messages shared ([`crate::wire::state`]).
            Data::State(s) => Snapshot::Encoded(Box::new(s.clone())),
            other => Snapshot::Value(lc::normalize_owned(other.value().clone())),
        };
        if let Some(list) = snap.messages() {
            self.complete_from_state(list, out);
        }
        let listed = self.interrupt(p.interrupts.0.as_ref(), out);
        if super::state_events(snap, out) || listed {
            Disposition::Mapped
        } else {
            Disposition::Ignored("values payload that is not a state object")
        }
    }

    /// A subgraph's `values` event `rec` in namespace `ns` (read whole only when its text
    /// names a call still waiting): the results its state gives of calls models made there
    /// that nothing answered yet; ignored when it gives none.
    /// Python v3 has no `tools` events inside a subgraph, and its tool messages reach the
    /// root state only when the subgraph ends (never when it fails).
    fn subgraph_state(&mut self, ns: &str, rec: &Record, out: &mut Vec<ModelEvent>) -> Disposition {
        let ignored = Disposition::Ignored("subgraph values (not the graph's state)");
        if !self.run.nest.waiting(ns).any(|id| rec.text.contains(id)) {
            return ignored;
        }
        let v = rec.value();
        let ev = v
            .field("method")
            .map_or_else(|| v.field("data").unwrap_or(v), |_| v);
        let state = (ev.field("params"))
            .and_then(|p| p.field("data"))
            .map(lc::normalize_cow);
        let list = state
            .as_deref()
            .and_then(|s| s.field("messages")?.as_array());
        let n = out.len();
        for (i, m) in list
            .into_iter()
            .flatten()
            .map(MessageRef::Value)
            .enumerate()
        {
            let Some(call) = m.tool_call().filter(|c| self.run.nest.waits_for(c)) else {
                continue;
            };
            let call = call.into_owned();
            self.run.nest.answered(&call);
            out.extend(m.tool_result(i, call).map(ModelEvent::ToolEnd));
        }
        if out.len() > n {
            Disposition::Mapped
        } else {
            ignored
        }
    }

    /// A v3 event after its `seq` check, `p` its `params`.
    fn on_method(
        &mut self,
        record: &Record,
        ev: &Event,
        p: &Params,
        out: &mut Vec<ModelEvent>,
    ) -> Disposition {
        let (method, ns, data) = (ev.method.as_ref(), p.key.as_str(), &p.data);
        if method == "lifecycle" {
            let l = match data {
                Data::Lifecycle(l) => l,
                _ => &Box::default(),
            };
            return self.on_lifecycle(ns, l, out);
        }
        self.ensure_started(out);
        // A graph's own bookkeeping in a task's namespace: a graph runs there.
        let deep_only = !matches!(method, "checkpoints" | "values" | "tasks");
        self.run.nest.shows(ns, deep_only, out);
        self.run.nest.scope(ns, out);
        match method {
            "messages" => self.on_messages(ev, p, out),
            "tools" => self.on_tools(p, out),
            "values" if ns.is_empty() => self.on_values(p, out),
            "values" => self.subgraph_state(ns, record, out),
            "updates" => match data {
                Data::Value(d)
                    if d.field("node")
                        .or(p.node.0.as_ref())
                        .is_some_and(|n| n == "__interrupt__") =>
                {
                    self.interrupt(d.field("values").or(Some(d)), out);
                    Disposition::Mapped
                }
                _ => Disposition::Ignored("node update (a partial state, not the state)"),
            },
            "tasks" => {
                let list = match data {
                    Data::Tasks(t) => t.interrupts.0.as_ref(),
                    other => other.value().field("interrupts"),
                };
                if self.interrupt(list, out) {
                    return Disposition::Mapped;
                }
                Disposition::Ignored("task bookkeeping (nodes map from lifecycle)")
            }
            "checkpoints" => Disposition::Ignored("checkpoint bookkeeping"),
            "input.requested" => {
                self.interrupt(Some(&Value::Array(vec![data.value().clone()])), out);
                Disposition::Mapped
            }
            m if m == "custom" || m.starts_with("custom:") => {
                // A named event's data is its `payload`, when it has one.
                let name = m.strip_prefix("custom:");
                let data = match data {
                    Data::Payload(p) => p.clone(),
                    other => Payload::from_value(other.value()),
                };
                let payload = name
                    .and(data.fields())
                    .and_then(|o| o.get("payload").map(|p| Payload::of_field(p)));
                out.push(custom_event(name, payload.unwrap_or(data)));
                Disposition::Mapped
            }
            "debug" => Disposition::Ignored("debug stream"),
            _ => Disposition::Ignored("v3 method aguify does not map"),
        }
    }

    /// A `lifecycle` event in namespace `ns`.
    fn on_lifecycle(&mut self, ns: &str, l: &Lifecycle, out: &mut Vec<ModelEvent>) -> Disposition {
        let event = l.event.as_ref().and_then(Value::as_str).unwrap_or_default();
        let starts = matches!(event, "running" | "started");
        // After the root's terminal lifecycle, records up to the next root start still belong
        // to the ending run (JS final-value `custom` events, Python platform `values`).
        if ns.is_empty() && l.namespace.0.is_none() && starts {
            self.flush_deferred(out);
        }
        self.ensure_started(out);
        // Python puts a subgraph's lifecycle on the parent namespace, naming it in `data.namespace`.
        let key = match &l.namespace.0 {
            Some(n) => namespace_key(Some(n)),
            None => ns.to_string(),
        };
        if key.is_empty() {
            self.saw_root_lifecycle = true;
            self.deferred_end = Some(match event {
                _ if starts => return Disposition::Mapped,
                "completed" => ModelEvent::RunEnd,
                "interrupted" => ModelEvent::RunStopped,
                "failed" => ModelEvent::RunFailed(lifecycle_error(l.error.0.as_ref(), "the run")),
                _ => return Disposition::Ignored("root lifecycle event of no AG-UI meaning"),
            });
            if event != "failed" {
                self.suspend_open_tools(out);
            }
            return Disposition::Mapped;
        }
        self.run.nest.scope(&key, out);
        let graph_name = l.graph_name.as_ref().and_then(Value::as_str);
        // A graph a tool invoked (Python says so): a sub-agent, not a step; or one a tool
        // node's task runs without saying for which call (v3 Python): the call of the
        // enclosing namespace's last message that it serves.
        // The tool call that started it: `cause: {type: "toolCall", tool_call_id}`.
        let cause = (l.cause.as_ref()).filter(|c| c.field_str("type") == Some("toolCall"));
        let said = cause.and_then(|c| s(c, "tool_call_id"));
        let said = said.map(|call| (call, "subagent".to_string()));
        if starts {
            let made = self.run.nest.made_call(&key);
            let made = || made.map(|c| (c.id.clone(), c.name.clone()));
            if let Some((call, tool)) = said.or_else(made) {
                let name = graph_name.unwrap_or(&tool);
                self.run.nest.start(&key, true, name, &call, out);
                return Disposition::Mapped;
            }
        } else if said.is_some() {
            return Disposition::Ignored("lifecycle event of no AG-UI meaning");
        }
        if self.run.nest.is_announced(&key) {
            // Interrupted: it stays open, and the run's interrupt suspends it.
            let error = match event {
                "completed" => None,
                "failed" => Some(lifecycle_error(l.error.0.as_ref(), "the graph")),
                _ => return Disposition::Ignored("sub-agent lifecycle event of no AG-UI meaning"),
            };
            self.run.nest.end(&key, error, out);
            return Disposition::Mapped;
        }
        match event {
            _ if starts => {
                // Unnamed: its namespace's last part, without the task id.
                let last = key.rsplit('|').next().and_then(|l| l.split(':').next());
                let name = graph_name.or(last).unwrap_or("node").to_string();
                self.run.steps.insert(key.clone());
                out.push(ModelEvent::StepStart { name, key });
                Disposition::Mapped
            }
            "completed" | "failed" | "interrupted" if self.run.steps.remove(&key) => {
                out.push(ModelEvent::StepEnd { key });
                Disposition::Mapped
            }
            "completed" | "failed" | "interrupted" => {
                Disposition::Ignored("lifecycle end of a node whose start was not recorded")
            }
            _ => Disposition::Ignored("lifecycle event of no AG-UI meaning"),
        }
    }
}

/// A `failed` lifecycle's error; `what` failed (the run, the graph).
fn lifecycle_error(error: Option<&Value>, what: &str) -> ErrorInfo {
    let message = match error {
        Some(Value::String(m)) => m.clone(),
        Some(Value::Object(o)) => {
            (o.field_str("message")).map_or_else(|| format!("{what} failed"), str::to_string)
        }
        _ => format!("{what} failed (lifecycle `failed` without an error)"),
    };
    ErrorInfo {
        name: error.and_then(|e| s(e, "name")),
        message,
        lc_code: None,
    }
}

impl super::Adapt for V3Adapter {
    fn feed(&mut self, rec: &Record, kind: &RecordKind, out: &mut Vec<ModelEvent>) -> Disposition {
        // A record is of kind V3 when it has a v3 event ([`super::classify`]).
        if let Some(ev) = rec.v3.as_deref() {
            if let Err(msg) = self.check_seq(rec, ev.seq.as_ref(), out) {
                return Disposition::Bad(msg);
            }
            return match &ev.params {
                Ok(p) => self.on_method(rec, ev, p, out),
                Err(kind) => Disposition::bad(format!(
                    "v3 `{}` event whose `params` is {kind}: expected an object {{namespace, data}}",
                    ev.method
                )),
            };
        }
        match kind {
            RecordKind::ErrorLine(info) => {
                // The error line names the exception; it replaces the root's `failed` message.
                self.ensure_started(out);
                self.deferred_end = Some(ModelEvent::RunFailed(info.clone()));
                self.flush_deferred(out);
                Disposition::Mapped
            }
            RecordKind::Custom(..) => {
                self.ensure_started(out);
                out.push(custom_event(None, Payload::from_value(rec.value())));
                Disposition::Mapped
            }
            RecordKind::RunMetadata { .. }
            | RecordKind::OtherStreamMode(_)
            | RecordKind::Values(_) => Disposition::Ignored("platform frame carrying no v3 event"),
            _ => Disposition::bad("expected a v3 protocol event"),
        }
    }

    fn take_warning(&mut self) -> Option<String> {
        self.warning.take()
    }

    fn finish(&mut self, out: &mut Vec<ModelEvent>) {
        self.end_run(false, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapter::Adapt;
    use crate::input::tests::framed;

    /// A run that failed (the error line) while a tool was open is over: the next run in the
    /// file does not count that tool as still open at its end.
    #[test]
    fn an_error_line_forgets_the_failed_runs_open_tools() {
        let mut a = V3Adapter::default();
        let mut out = vec![];
        let tool = r#"{"type":"event","seq":1,"method":"tools","params":{"namespace":["tools:1"],"data":{"event":"tool-started","tool_call_id":"c1","tool_name":"f","input":{}}}}"#;
        let error = r#"{"event":"error","data":{"error":"ValueError","message":"boom"}}"#;
        let values = r#"{"type":"event","seq":3,"method":"values","params":{"namespace":[],"data":{"messages":[]}}}"#;
        for (n, l) in [tool, error, values].into_iter().enumerate() {
            let rec = framed(l, n as u64 + 1).expect("a record");
            let d = a.feed(&rec, &super::super::classify(&rec), &mut out);
            assert_eq!(d, Disposition::Mapped, "{l}");
        }
        a.finish(&mut out);
        assert!(out.contains(&ModelEvent::RunFailed(ErrorInfo {
            name: Some("ValueError".into()),
            message: "boom".into(),
            lc_code: None,
        })));
        assert_eq!(out.last(), Some(&ModelEvent::RunEnd), "{out:?}");
    }

    /// A subgraph's state answers the call its model made (Python v3: no `tools` events in
    /// a subgraph) once, when it shows the tool message; its history and other calls' tool
    /// messages answer nothing.
    #[test]
    fn a_subgraph_state_answers_the_calls_its_model_made() {
        let (mut a, mut out) = (V3Adapter::default(), vec![]);
        let ns = r#""namespace":["research:1"]"#;
        let call =
            |id: &str| format!(r#"{{"type":"tool_call","id":"{id}","name":"f","args":{{}}}}"#);
        let c1 = call("c1");
        let tool = |id: &str| {
            format!(r#"{{"type":"tool","content":"r-{id}","tool_call_id":"{id}","id":"t-{id}"}}"#)
        };
        let values = format!(
            r#"{{"type":"event","seq":4,"method":"values","params":{{{ns},"data":{{"messages":[{},{}]}}}}}}"#,
            tool("old"),
            tool("c1")
        );
        let lines = [
            format!(
                r#"{{"type":"event","seq":1,"method":"messages","params":{{{ns},"data":{{"event":"message-start","role":"ai","id":"m1"}}}}}}"#
            ),
            format!(
                r#"{{"type":"event","seq":2,"method":"messages","params":{{{ns},"data":{{"event":"content-block-start","index":0,"content":{c1}}}}}}}"#
            ),
            format!(
                r#"{{"type":"event","seq":3,"method":"messages","params":{{{ns},"data":{{"event":"content-block-finish","index":0,"content":{c1}}}}}}}"#
            ),
            values.clone(),
            values.replace(r#""seq":4"#, r#""seq":5"#),
        ];
        for (n, l) in lines.iter().enumerate() {
            let rec = framed(l, n as u64 + 1).expect("a record");
            a.feed(&rec, &super::super::classify(&rec), &mut out);
        }
        let results: Vec<_> = (out.iter())
            .filter_map(|e| match e {
                ModelEvent::ToolEnd(r) => Some((
                    r.tool_call_id.as_str(),
                    r.content.text(),
                    r.message_id.as_deref(),
                )),
                _ => None,
            })
            .collect();
        assert_eq!(results, [("c1", Some("r-c1"), Some("t-c1"))], "{out:?}");
    }
}
