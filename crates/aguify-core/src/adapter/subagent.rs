//! Where sub-agents are in a log, by namespace: a graph run nested inside a tool call (a tool
//! that invokes a compiled agent) shows as namespaces under the tool's task. [`Nest`] tells the
//! mapper where one starts and ends ([`ModelEvent::SubagentStart`], `SubagentEnd`) and whose
//! events follow ([`ModelEvent::Scope`]).
//!
//! Two ways a log shows one: v3 Python announces it (root `lifecycle started` with
//! `cause: {type: "toolCall", tool_call_id}`, the sub-agent's own events in its namespace); v2
//! and v3 JS only show it (a graph's events in a namespace under the task running an open tool
//! call, the task's own events — the tool's start and end — in the task's namespace). A
//! subgraph used as a plain node (no tool call open in its task) stays a step.
//!
//! v3 Python from a tool node running several calls in one task announces only the task's
//! first graph, without `cause`, and no `tools` events: the calls the model's message made
//! ([`Nest::call_made`]) tell which call each graph serves, in order ([`Nest::made_call`],
//! and `T|n` in [`Nest::shows`]).
//!
//! A sub-agent's `subagentRunId` is derived from the log: `<parent tool call id>:subagent`,
//! `:subagent:2` for the second sub-agent of the same call in one run.

use std::collections::HashMap;

use foldhash::fast::RandomState as FastIds;

use crate::model::{ErrorInfo, ModelEvent};

/// One open sub-agent.
struct Sub {
    /// Its namespace key (`tools:<task id>`, segments joined by `|`).
    key: String,
    /// Whether events in `key` itself are its own (announced), or only those under it.
    inclusive: bool,
    call: String,
    /// Its `subagentRunId`.
    id: String,
}

/// A tool call: one open (started, not ended), with the namespace of the task running it, or
/// one a model message made (v3), with the namespace it streamed in.
pub(super) struct Call {
    pub(super) id: String,
    ns: String,
    /// Its tool's name.
    pub(super) name: String,
    /// An open call's: the name of a graph started in the call's namespace (v2
    /// `on_chain_start`), a sub-agent's name once one shows.
    graph: Option<String>,
    /// A made call's: its result was read (a `tools` event, a tool message of the state).
    answered: bool,
}

/// Adds call `id` (named `name`, of namespace `ns`) to `list` unless it is there.
fn add(list: &mut Vec<Call>, id: &str, ns: &str, name: &str) {
    if !list.iter().any(|c| c.id == id) {
        list.push(Call {
            id: id.to_string(),
            ns: ns.to_string(),
            name: name.to_string(),
            graph: None,
            answered: false,
        });
    }
}

/// The sub-agents of a run being read.
#[derive(Default)]
pub struct Nest {
    subs: Vec<Sub>,
    /// The tool calls open (started, not ended), in the order they started.
    pub(super) calls: Vec<Call>,
    /// The calls of each namespace's last model message, in the order it made them.
    made: Vec<Call>,
    /// The owner last announced with `Scope` (its key).
    scope: Option<String>,
    /// How often each id base was used in this run (ids stay unique).
    used: HashMap<String, usize, FastIds>,
}

impl Nest {
    /// Sub-agent `key` named `name` starts in tool call `call`. One announced (v3 Python,
    /// `inclusive`): its events are those of namespace `key` and under; one only shown: those
    /// under `key` ([`Nest::shows`]).
    pub fn start(
        &mut self,
        key: &str,
        inclusive: bool,
        name: &str,
        call: &str,
        out: &mut Vec<ModelEvent>,
    ) {
        if !self.subs.iter().any(|s| s.key == key) {
            let id = crate::model::numbered(&mut self.used, format!("{call}:subagent"));
            out.push(ModelEvent::SubagentStart {
                id: id.clone(),
                name: name.to_string(),
                parent_tool_call_id: call.to_string(),
            });
            self.subs.push(Sub {
                key: key.to_string(),
                inclusive,
                call: call.to_string(),
                id,
            });
        }
    }

    /// Whether `key` is an open sub-agent that was announced (its lifecycle is its own; a
    /// sub-agent only shown is keyed by its task, whose lifecycle is the task's).
    pub fn is_announced(&self, key: &str) -> bool {
        self.subs.iter().any(|s| s.key == key && s.inclusive)
    }

    /// Sub-agent `key` ended (with `error` when it raised).
    pub fn end(&mut self, key: &str, error: Option<ErrorInfo>, out: &mut Vec<ModelEvent>) {
        if let Some(at) = self.subs.iter().position(|s| s.key == key) {
            let id = self.subs.remove(at).id;
            out.push(ModelEvent::SubagentEnd { id, error });
        }
    }

    /// A tool call started in the task of namespace `ns`.
    pub fn tool_started(&mut self, id: &str, name: &str, ns: &str) {
        add(&mut self.calls, id, ns, name);
    }

    /// Tool call `id` ended: its sub-agents are over (the mapper finishes them before the
    /// call's result).
    pub fn tool_ended(&mut self, id: &str) {
        self.calls.retain(|c| c.id != id);
        self.answered(id);
        self.subs.retain(|s| s.call != id);
    }

    /// A model message starts in namespace `ns`: the calls the one before it made there were
    /// answered.
    pub fn message_started(&mut self, ns: &str) {
        self.made.retain(|m| m.ns != ns);
    }

    /// The model message streaming in namespace `ns` made tool call `id` named `name`.
    pub fn call_made(&mut self, ns: &str, id: &str, name: &str) {
        add(&mut self.made, id, ns, name);
    }

    /// Tool call `id` was answered (a tool message of the run's state): no graph starting
    /// later serves it.
    pub fn answered(&mut self, id: &str) {
        if let Some(m) = self.made.iter_mut().find(|m| m.id == id) {
            m.answered = true;
        }
    }

    /// The ids of the calls model messages made in namespace `ns` that have no result yet.
    pub fn waiting<'a>(&'a self, ns: &'a str) -> impl Iterator<Item = &'a str> {
        let open = move |m: &&Call| !m.answered && m.ns == ns;
        self.made.iter().filter(open).map(|m| m.id.as_str())
    }

    /// Whether call `id` was made by a model message and has no result yet.
    pub fn waits_for(&self, id: &str) -> bool {
        self.made.iter().any(|m| m.id == id && !m.answered)
    }

    /// A graph started in namespace `key` without naming the call that invoked it (v3
    /// Python, a tool node's task): the call it serves — the first call without a sub-agent
    /// of the last message in the enclosing namespace.
    pub fn made_call(&self, key: &str) -> Option<&Call> {
        let parent = key.rsplit_once('|').map_or("", |(parent, _)| parent);
        let free =
            |m: &&Call| m.ns == parent && !m.answered && !self.subs.iter().any(|s| s.call == m.id);
        self.made.iter().find(free)
    }

    /// The n-th graph of the task an announced sub-agent runs in (namespace `T|n` under its
    /// `T`, v3 Python): it serves the n-th call after that sub-agent's, of the same message.
    /// Starts it, and returns whether it did.
    fn numbered_graph(&mut self, ns: &str, out: &mut Vec<ModelEvent>) -> bool {
        let found = self.subs.iter().filter(|s| s.inclusive).find_map(|s| {
            let n = nth_graph(ns, &s.key)?;
            let nth: usize = n.parse().ok()?;
            let first = self.made.iter().position(|m| m.id == s.call)?;
            let same_message = |m: &&Call| m.ns == self.made[first].ns;
            let m = self.made.get(first + nth).filter(same_message)?;
            Some((format!("{}|{n}", s.key), m.id.clone(), m.name.clone()))
        });
        let Some((key, call, name)) = found else {
            return false;
        };
        if self.subs.iter().any(|s| s.key == key || s.call == call) {
            return false;
        }
        self.start(&key, true, &name, &call, out);
        true
    }

    /// A graph named `name` started in namespace `ns` (v2 `on_chain_start` of a runnable that
    /// is not a node): the name of the sub-agent of the call open there, if one shows.
    pub fn graph_named(&mut self, ns: &str, name: &str) {
        // Graphs start in the order of their calls (a tool node running calls at once runs
        // them all in one task): each names the first call there without one.
        let free = |c: &&mut Call| c.ns == ns && c.graph.is_none();
        if let Some(c) = self.calls.iter_mut().find(free) {
            c.graph = Some(name.to_string());
        }
    }

    /// An event of namespace `ns` (v2, v3 JS): when it is under the task of an open tool call
    /// that has no sub-agent yet, a graph runs inside that call — a sub-agent starts, keyed
    /// by the task's namespace. `deep_only`: only a namespace strictly under the task counts
    /// (v2; v3 JS also counts the graph's own `checkpoints`/`values`/`tasks` in the task's
    /// namespace, `deep_only` false).
    ///
    /// A tool node running several calls at once runs them in one task, and LangGraph tells
    /// the graphs they invoke apart by number: the first's namespaces are under the task's
    /// (`T|…`), the n-th's under `T|n` (n from 1, its own events in `T|n` itself). Each new one
    /// is the first call of the task that has no sub-agent yet (graphs start in call order).
    pub fn shows(&mut self, ns: &str, deep_only: bool, out: &mut Vec<ModelEvent>) {
        if self.numbered_graph(ns, out) {
            return;
        }
        let holds = |t: &&str| !t.is_empty() && (under(ns, t) || (!deep_only && ns == *t));
        let task = self.calls.iter().rev().map(|c| c.ns.as_str()).find(holds);
        let Some(task) = task else { return };
        let nth = nth_graph(ns, task);
        let key = nth.map_or_else(|| task.to_string(), |n| format!("{task}|{n}"));
        let free = |c: &&Call| c.ns == task && !self.subs.iter().any(|s| s.call == c.id);
        let Some(c) = self.calls.iter().find(free) else {
            return;
        };
        let name = c.graph.clone().unwrap_or_else(|| c.name.clone());
        let call = c.id.clone();
        self.start(&key, nth.is_some(), &name, &call, out);
    }

    /// Announces the owner of the events of namespace `ns` when it changed: the innermost open
    /// sub-agent whose events they are.
    pub fn scope(&mut self, ns: &str, out: &mut Vec<ModelEvent>) {
        let owns = |s: &&Sub| under(ns, &s.key) || (s.inclusive && ns == s.key);
        let owner = self.subs.iter().filter(owns).max_by_key(|s| s.key.len());
        if owner.map(|s| &s.key) != self.scope.as_ref() {
            out.push(ModelEvent::Scope(owner.map(|s| s.id.clone())));
            self.scope = owner.map(|s| s.key.clone());
        }
    }
}

/// Whether namespace `ns` is strictly under namespace `key` (`key|…`).
fn under(ns: &str, key: &str) -> bool {
    ns.strip_prefix(key).is_some_and(|r| r.starts_with('|'))
}

/// The `n` of a namespace `ns` under `<task>|<n>` (digits: the task's n-th graph).
fn nth_graph<'a>(ns: &'a str, task: &str) -> Option<&'a str> {
    let rest = ns.strip_prefix(task)?.strip_prefix('|')?;
    let n = rest.split('|').next()?;
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A graph under an open call's task is a sub-agent; its events are scoped to it, the
    /// task's own are not; a namespace under a task with no call open is not one.
    #[test]
    fn a_graph_under_a_tool_call_is_a_sub_agent() {
        let mut n = Nest::default();
        let mut out = vec![];
        n.shows("research:1|node:2", true, &mut out);
        assert!(out.is_empty(), "no call open: a plain subgraph");
        n.tool_started("call_1", "ask", "tools:a");
        n.graph_named("tools:a", "weather_agent");
        n.shows("tools:a", true, &mut out);
        assert!(out.is_empty(), "the task's own namespace");
        n.shows("tools:a|model:b", true, &mut out);
        assert_eq!(
            out,
            [ModelEvent::SubagentStart {
                id: "call_1:subagent".into(),
                name: "weather_agent".into(),
                parent_tool_call_id: "call_1".into(),
            }]
        );
        out.clear();
        n.scope("tools:a|model:b", &mut out);
        n.scope("tools:a|model:c", &mut out);
        n.scope("tools:a", &mut out);
        assert_eq!(
            out,
            [
                ModelEvent::Scope(Some("call_1:subagent".into())),
                ModelEvent::Scope(None)
            ]
        );
        assert!(!n.is_announced("tools:a"), "shown, not announced");
        n.tool_ended("call_1");
        assert!(n.subs.is_empty());
        // The same call's second sub-agent in the run gets its own id.
        out.clear();
        n.start("tools:b", true, "weather_agent", "call_1", &mut out);
        n.end("tools:b", None, &mut out);
        let second = String::from("call_1:subagent:2");
        assert_eq!(
            out[0],
            ModelEvent::SubagentStart {
                id: second.clone(),
                name: "weather_agent".into(),
                parent_tool_call_id: "call_1".into()
            }
        );
        assert_eq!(
            out[1],
            ModelEvent::SubagentEnd {
                id: second,
                error: None
            }
        );
    }

    /// v3 Python's tool node task: a graph starting in a task under the namespace of a
    /// message whose calls wait serves the first waiting call, the task's `T|n` graph the
    /// n-th after it; once the calls are answered, a graph starting there is a plain step.
    #[test]
    fn graphs_of_a_tool_node_task_serve_the_message_calls_in_order() {
        let mut n = Nest::default();
        let mut out = vec![];
        n.message_started("");
        n.call_made("", "c1", "ask_weather");
        n.call_made("", "c2", "ask_news");
        let call = n.made_call("tools:t").expect("the first call waits");
        assert_eq!(
            (call.id.as_str(), call.name.as_str()),
            ("c1", "ask_weather")
        );
        let call = call.id.clone();
        n.start("tools:t", true, "weather_agent", &call, &mut out);
        n.shows("tools:t|1", false, &mut out);
        n.shows("tools:t|1|model:m", true, &mut out);
        let parents: Vec<_> = (out.iter())
            .map(|e| match e {
                ModelEvent::SubagentStart {
                    parent_tool_call_id,
                    name,
                    ..
                } => (parent_tool_call_id.as_str(), name.as_str()),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(parents, [("c1", "weather_agent"), ("c2", "ask_news")]);
        n.answered("c1");
        n.answered("c2");
        n.tool_ended("c1");
        n.tool_ended("c2");
        assert!(n.made_call("research:r").is_none(), "answered: a step");
        n.message_started("");
        let made = n.made_call("research:r");
        assert!(made.is_none(), "a new message made no call");
    }
}
