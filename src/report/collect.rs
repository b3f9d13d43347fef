//! What the report keeps while the input streams past, beyond the timeline: user messages,
//! model calls and state snapshots, each tagged with the AG-UI event index it came at. The
//! one place the report reads AG-UI events itself: everything else (resumes and interrupt
//! payloads included) comes from the timeline, `explain` and the checker. Snapshots are kept
//! per run (the first and the last few), already written as clipped text with their change
//! from the previous one, so memory stays bounded whatever the input's size.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use serde::Serialize;
use serde_json::Value;

use super::text::{clipped, pretty_value, Clipped};
use crate::adapter::json_text;
use crate::agui::Event;
use crate::model::ModelEvent;
use crate::text::{list_of, str_of};
use crate::wire::langchain::content_text;

/// Bytes of a state snapshot's JSON kept.
pub const SNAPSHOT_BYTES: usize = 6 * 1024;
/// Changes listed per snapshot or delta.
pub const MAX_CHANGES: usize = 30;
/// Bytes of state text kept over all runs: past it, the states of runs that end well are
/// dropped when they end (failed runs keep theirs).
const STATES_BUDGET: usize = 16 << 20;

/// JSON Patch's operations.
const OPS: [&str; 6] = ["add", "remove", "replace", "move", "copy", "test"];

/// One change of a state, as the report lists it: a JSON Patch (RFC 6902) operation, a delta's
/// own or one of the patch from the previous snapshot (`json_patch::diff`: added, removed and
/// replaced paths, array items by position). `aguify diff` compares differently on purpose
/// (items matched by id, every leaf with its input line: [`crate::diff::compare`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    /// `add`, `remove`, `replace`… (JSON Patch's words).
    pub op: &'static str,
    /// JSON Pointer of the changed value.
    pub path: String,
    /// The new value (compact, clipped to 200 bytes); absent for `remove`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

/// A state snapshot or delta, as shown.
#[derive(Debug, Clone)]
pub struct StateView {
    pub state: Option<Clipped>,
    /// `None`: the first snapshot (nothing to compare with).
    pub changes: Option<Vec<Change>>,
    pub changes_total: usize,
}

impl StateView {
    fn bytes(&self) -> usize {
        self.state.as_ref().map_or(0, |s| s.text.len())
            + self
                .changes
                .iter()
                .flatten()
                .map(|c| c.path.len() + c.value.as_ref().map_or(0, String::len) + 16)
                .sum::<usize>()
    }
}

/// A model call: from a model message's start to its end.
#[derive(Debug, Clone, Default)]
pub struct ModelCall {
    pub message_id: String,
    pub start: u64,
    pub end: Option<u64>,
    pub start_ts: Option<i64>,
    pub end_ts: Option<i64>,
    pub model: Option<String>,
    pub tokens: Option<(u64, u64)>,
}

/// The snapshots of one run.
#[derive(Debug, Default)]
pub struct RunStates {
    /// By event index: the first snapshot, then the last ones.
    pub snapshots: Vec<(u64, StateView)>,
    pub dropped: usize,
    /// Deltas (at most `keep` of them), by event index.
    pub deltas: Vec<(u64, StateView)>,
}

impl RunStates {
    pub fn get(&self, index: u64) -> Option<&StateView> {
        self.all().find(|(i, _)| *i == index).map(|(_, v)| v)
    }

    fn all(&self) -> impl Iterator<Item = &(u64, StateView)> {
        self.snapshots.iter().chain(&self.deltas)
    }
}

/// See the module docs.
#[derive(Debug, Default)]
pub struct Collected {
    /// Snapshots kept per run.
    keep: usize,
    /// User messages by event index, each id once.
    pub users: Vec<(u64, String)>,
    user_ids: HashSet<String>,
    pub model_calls: Vec<ModelCall>,
    open_models: HashMap<String, usize>,
    /// Model calls started, waiting for the next event's timestamp.
    pending_start: Vec<usize>,
    last_ts: Option<i64>,
    /// The previous snapshot (for its change).
    prev: Option<Value>,
    /// Per run (by the timeline's run index).
    pub states: HashMap<usize, RunStates>,
    states_bytes: usize,
}

impl Collected {
    pub fn new(keep: usize) -> Self {
        Collected {
            keep: keep.max(1),
            ..Collected::default()
        }
    }

    /// Run `run` ended (`failed`: in an error or with no terminal event): its states stay
    /// within the budget, or go.
    pub fn run_ended(&mut self, run: usize, failed: bool) {
        let Some(states) = self.states.get(&run) else {
            return;
        };
        let bytes: usize = states.all().map(|(_, v)| v.bytes()).sum();
        if failed || self.states_bytes + bytes <= STATES_BUDGET {
            self.states_bytes += bytes;
        } else if let Some(s) = self.states.get_mut(&run) {
            *s = RunStates {
                dropped: s.dropped + s.snapshots.len(),
                ..RunStates::default()
            };
        }
    }

    /// An AG-UI event (read typed: [`Event::typed`]), its index and the run it belongs to.
    pub fn event(&mut self, index: u64, run: usize, ev: &Event) {
        if let Some(t) = ev.timestamp() {
            for i in self.pending_start.drain(..) {
                if let Some(c) = self.model_calls.get_mut(i) {
                    c.start_ts = Some(t);
                }
            }
            self.last_ts = Some(t);
        }
        match ev {
            Event::RunStarted {
                input: Some(input), ..
            } => self.users(index, list_of(input, "messages")),
            Event::StateSnapshot { snapshot, .. } => {
                let snap = snapshot.to_value();
                self.users(index, list_of(&snap, "messages"));
                self.snapshot(index, run, snap);
            }
            Event::StateDelta { delta, .. } => self.delta(index, run, delta),
            Event::MessagesSnapshot { messages, .. } => {
                let list: Vec<Value> = messages.iter().map(|m| m.to_value().into_owned()).collect();
                self.users(index, &list)
            }
            _ => {}
        }
    }

    /// The user messages of a list of messages (AG-UI `role: user` or LangChain `type:
    /// human`), each id once.
    fn users(&mut self, index: u64, list: &[Value]) {
        for m in list
            .iter()
            .filter(|m| m["role"] == "user" || m["type"] == "human")
        {
            let id = str_of(m, "id").unwrap_or_default();
            if self.user_ids.insert(id.clone()) || id.is_empty() {
                self.users.push((index, content_text(&m["content"])));
            }
        }
    }

    fn snapshot(&mut self, index: u64, run: usize, snap: Cow<'_, Value>) {
        let state = Some(pretty_value(&snap, SNAPSHOT_BYTES));
        // The first snapshot has nothing to compare with.
        let view = match &self.prev {
            Some(prev) => {
                let patch = json_patch::diff(prev, &snap).0.into_iter();
                let ops: Vec<Value> = patch
                    .filter_map(|op| serde_json::to_value(op).ok())
                    .collect();
                changes(&ops, state)
            }
            None => StateView {
                state,
                changes: None,
                changes_total: 0,
            },
        };
        let keep = self.keep;
        let states = self.states.entry(run).or_default();
        states.snapshots.push((index, view));
        // The first stays; of the others, the last ones.
        if states.snapshots.len() > keep {
            states.snapshots.remove(1);
            states.dropped += 1;
        }
        self.prev = Some(snap.into_owned());
    }

    fn delta(&mut self, index: u64, run: usize, ops: &[Value]) {
        let states = self.states.entry(run).or_default();
        if states.deltas.len() < self.keep * 4 {
            states.deltas.push((index, changes(ops, None)));
        }
    }

    /// A model event, given before the AG-UI events it maps to (`index`: the next event's).
    pub fn model(&mut self, index: u64, ev: &ModelEvent) {
        match ev {
            ModelEvent::MessageStart { message_id } => {
                self.model_calls.push(ModelCall {
                    message_id: message_id.clone(),
                    start: index,
                    ..ModelCall::default()
                });
                let i = self.model_calls.len() - 1;
                self.open_models.insert(message_id.clone(), i);
                self.pending_start.push(i);
            }
            ModelEvent::MessageEnd { message_id, usage } => {
                let open = self.open_models.remove(message_id);
                if let Some(c) = open.and_then(|i| self.model_calls.get_mut(i)) {
                    // Its last event came before this end was read.
                    c.end = Some(index.saturating_sub(1).max(c.start));
                    c.end_ts = self.last_ts;
                    if let Some(u) = usage {
                        c.model = u.model.clone();
                        c.tokens =
                            Some((u.input_tokens.unwrap_or(0), u.output_tokens.unwrap_or(0)));
                    }
                }
            }
            _ => {}
        }
    }
}

/// JSON Patch operations as shown: the first [`MAX_CHANGES`], and their count.
fn changes(ops: &[Value], state: Option<Clipped>) -> StateView {
    let changes = ops.iter().take(MAX_CHANGES).map(|op| Change {
        op: OPS.into_iter().find(|o| op["op"] == *o).unwrap_or("?"),
        path: str_of(op, "path").unwrap_or_default(),
        value: op.get("value").map(|v| clipped(&json_text(v), 200).text),
    });
    StateView {
        state,
        changes: Some(changes.collect()),
        changes_total: ops.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keeps_users_and_states() {
        let mut c = Collected::new(4);
        for (i, ev) in [
            json!({"type":"RUN_STARTED","threadId":"t","runId":"r","input":{
                "messages":[{"id":"u1","role":"user","content":"hi"},{"id":"a","role":"assistant","content":"x"}]}}),
            json!({"type":"STATE_SNAPSHOT","timestamp":5,"snapshot":{"messages":[
                {"type":"human","id":"h","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},
                {"type":"human","id":"u1","content":"hi"}]}}),
        ]
        .into_iter()
        .enumerate()
        {
            let ev = Event::Passthrough(ev).typed().into_owned();
            c.event(i as u64, 0, &ev);
        }
        assert_eq!(c.users, [(0, "hi".to_string()), (1, "ab".to_string())]);
        assert_eq!(c.last_ts, Some(5));
        assert_eq!(c.states[&0].snapshots.len(), 1);
    }

    /// A snapshot's changes from the one before are the JSON Patch that turns the one into the
    /// other (a removed array item at the index it is at when removed).
    #[test]
    fn a_snapshot_lists_its_changes_as_a_json_patch() {
        let a = json!({"messages": [{"c": "hi"}], "n": 1, "gone": true, "a/b": 0, "l": [1, 2, 3]});
        let b = json!({"messages": [{"c": "hi"}, {"c": "yo"}], "n": 2, "a/b": 1, "l": [1]});
        let mut c = Collected::new(4);
        for (i, s) in [&a, &b].into_iter().enumerate() {
            let ev = json!({"type": "STATE_SNAPSHOT", "snapshot": s});
            c.event(i as u64, 0, &Event::Passthrough(ev).typed());
        }
        assert!(c.states[&0].get(0).is_some_and(|v| v.changes.is_none()));
        let view = c.states[&0].get(1).expect("the second snapshot");
        let got: Vec<(&str, &str, Option<&str>)> = (view.changes.iter().flatten())
            .map(|c| (c.op, c.path.as_str(), c.value.as_deref()))
            .collect();
        let want = [
            ("add", "/messages/1", Some(r#"{"c":"yo"}"#)),
            ("replace", "/n", Some("2")),
            ("replace", "/a~1b", Some("1")),
            ("remove", "/l/1", None),
            ("remove", "/l/1", None),
            ("remove", "/gone", None),
        ];
        assert_eq!(got, want);
        assert_eq!(view.changes_total, 6);
    }
}
