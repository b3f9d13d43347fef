//! A conversation as a front end shows it, folded run by run from the AG-UI event stream.
//!
//! [`Conversation`] keeps what an AG-UI client keeps while a run streams: the message list
//! (streamed text and tool-call arguments joined, a `MESSAGES_SNAPSHOT` replacing the list),
//! the reasoning blocks, the steps, custom events, the state (`STATE_SNAPSHOT` replacing it,
//! `STATE_DELTA` patching it) and the outcome. At the run's end it becomes a [`Run`]: the leaves
//! of one JSON document ([`crate::leaf`]) in which every id is a placeholder given by role and
//! position (`assistant-2`, `call-1`, `interrupt-1`; strings anywhere equal to an id are written
//! as its placeholder), so two executions of one agent compare equal when they show the same.
//! Memory is one run's joined texts, not its events.
//!
//! The document of a run:
//!
//! ```text
//! /outcome                         "success" | "interrupt" | "error" | "none" (no terminal event)
//! /interrupts/interrupt-N/…        reason, message, metadata
//! /error/code, /error/message
//! /resume/interrupt-N/…            status, payload (the run's input.resume)
//! /steps/N                         step names in order
//! /messages/ROLE-N/text            text once deltas are joined (tool messages: /toolCall)
//! /messages/ROLE-N/streamedText    the streamed text, when the snapshot replaced it with another
//! /toolCalls/call-N/…              name, message, args (as JSON), result, error, streamedResult
//! /reasoning/reasoning-N/text      (and /encrypted: true)
//! /custom/N/name, /custom/N/value
//! /custom/N/json                  a value of more than 64 KiB of compact JSON, as that text
//!                                  (compared whole, its ids not replaced: `FLAT_PAYLOAD_BYTES`)
//! /state/…                         the last state, without its `messages` (compared as messages)
//! /subagents/subagent-N/…          name, parentToolCall, outcome ("success" | "suspended" |
//!                                  "error" | "none"), result, interrupts, error, and the
//!                                  sub-agent's own steps, messages, toolCalls, reasoning, custom
//! ```
//!
//! A sub-agent's events (those with a `subagentRunId`) are folded apart from the run's own, as
//! a client shows a sub-agent's lane: the run's `MESSAGES_SNAPSHOT` does not replace them.
//!
//! In `exact` mode a run is its events instead, as they are: `/events/N/…`.

use std::collections::HashMap;
use std::sync::Arc;

use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::Value;

mod document;

use crate::agui::Event;
use crate::input::Origin;
use crate::leaf::{flatten, Leaf, Run};
use crate::payload::Payload;
use crate::text::{list_of, str_of};
use crate::timeline::{given, piece, Kind};

/// A string joined from deltas, with where each delta came from.
#[derive(Debug, Clone, Default)]
struct Joined {
    text: String,
    origin: Origin,
    pieces: Vec<(usize, u64)>,
}

impl Joined {
    fn new(text: impl Into<String>, origin: &Origin) -> Joined {
        Joined {
            text: text.into(),
            origin: origin.clone(),
            pieces: Vec::new(),
        }
    }

    fn push(&mut self, delta: &str, origin: &Origin) {
        if delta.is_empty() {
            return;
        }
        if self.pieces.last().is_none_or(|&(_, l)| l != origin.line) {
            self.pieces.push((self.text.len(), origin.line));
        }
        self.text.push_str(delta);
    }

    fn leaf(&self, pointer: String) -> Leaf {
        let mut l = Leaf::new(pointer, self.text.as_str().into(), self.origin.clone());
        l.pieces = self.pieces.clone();
        l
    }
}

#[derive(Debug)]
struct Call {
    id: String,
    name: String,
    args: Joined,
}

#[derive(Debug, Default)]
struct Message {
    id: String,
    role: String,
    text: Joined,
    /// The streamed text a snapshot replaced with a different one.
    streamed: Option<Joined>,
    calls: Vec<Call>,
    tool_call_id: Option<String>,
    error: bool,
}

impl Message {
    fn new(id: &str, role: &str, origin: &Origin) -> Message {
        Message {
            id: id.to_string(),
            role: role.to_string(),
            text: Joined::new("", origin),
            ..Message::default()
        }
    }
}

/// The run being read.
#[derive(Debug, Default)]
struct Open {
    origin: Origin,
    /// The run's last event so far.
    last: Origin,
    thread_id: Option<String>,
    run_id: Option<String>,
    resume: Option<(Value, Origin)>,
    steps: Vec<(String, Origin)>,
    messages: Vec<Message>,
    /// Reasoning blocks' texts by id, in start order, each with whether it has an encrypted
    /// value.
    reasoning: IndexMap<String, (Joined, bool)>,
    custom: Vec<(String, Payload, Origin)>,
    state: Option<(Value, Origin)>,
    /// The event that ended the run: `RUN_FINISHED` or `RUN_ERROR`.
    outcome: Option<(Event, Origin)>,
    /// `exact`: the events' leaves.
    events: Vec<Leaf>,
    event_count: usize,
    /// Where each id is in `messages` (the last message of an id), and its calls.
    message_at: HashMap<String, usize>,
    call_at: HashMap<String, (usize, usize)>,
    /// Sub-agents in start order, by id: each one's own events folded as a run's are (where
    /// it started, and how it ended once it did: `SUBAGENT_FINISHED` or `SUBAGENT_ERROR`).
    subagents: Vec<(String, Open)>,
    /// A sub-agent's name and parent call, as `SUBAGENT_STARTED` says.
    name: String,
    parent: Option<String>,
}

impl Open {
    fn new(origin: &Origin) -> Open {
        Open {
            origin: origin.clone(),
            last: origin.clone(),
            ..Open::default()
        }
    }

    /// Sub-agent `id` (one is made for events of a sub-agent never started).
    fn subagent(&mut self, id: &str, origin: &Origin) -> &mut Open {
        let at = self.subagents.iter().rposition(|(s, _)| s == id);
        let at = at.unwrap_or_else(|| {
            self.subagents.push((id.to_string(), Open::new(origin)));
            self.subagents.len() - 1
        });
        &mut self.subagents[at].1
    }

    /// The message list replaced: its ids indexed again.
    fn set_messages(&mut self, messages: Vec<Message>) {
        self.messages = messages;
        self.message_at.clear();
        self.call_at.clear();
        for (i, m) in self.messages.iter().enumerate() {
            self.message_at.insert(m.id.clone(), i);
            for (j, c) in m.calls.iter().enumerate() {
                self.call_at.insert(c.id.clone(), (i, j));
            }
        }
    }

    /// Where message `id` is in `messages` (made, of `role`, when none has the id yet).
    fn message_index(&mut self, id: &str, role: &str, origin: &Origin) -> usize {
        let messages = &mut self.messages;
        *self.message_at.entry(id.to_string()).or_insert_with(|| {
            messages.push(Message::new(id, role, origin));
            messages.len() - 1
        })
    }

    fn message(&mut self, id: &str, role: &str, origin: &Origin) -> &mut Message {
        let i = self.message_index(id, role, origin);
        &mut self.messages[i]
    }

    fn call(&mut self, id: &str) -> Option<&mut Call> {
        let &(i, j) = self.call_at.get(id)?;
        self.messages.get_mut(i)?.calls.get_mut(j)
    }

    fn reasoning(&mut self, id: &str, origin: &Origin) -> &mut (Joined, bool) {
        let r = self.reasoning.entry(id.to_string());
        r.or_insert_with(|| (Joined::new("", origin), false))
    }

    /// Folds an event that does not end the run (`typed`: `ev` read typed).
    fn event(&mut self, ev: &Event, typed: &Event, origin: &Origin) {
        // A message's, reasoning block's or call's start or more of it (legacy THINKING events,
        // which have no id, show nothing).
        if let Some(p) = piece(typed).filter(|p| p.id.is_some() || p.chunk) {
            let (id, delta) = (p.id.unwrap_or(""), p.delta);
            return match p.kind {
                Kind::Text => {
                    let role = p.named.unwrap_or("assistant");
                    self.message(id, role, origin).text.push(delta, origin)
                }
                Kind::Reasoning => self.reasoning(id, origin).0.push(delta, origin),
                _ => {
                    if let Some(name) = p.named {
                        self.tool_start(id, name, p.parent, origin);
                    }
                    if let Some(c) = self.call(id) {
                        c.args.push(delta, origin);
                    }
                }
            };
        }
        match typed {
            Event::StepStarted { step_name, .. } => {
                self.steps.push((step_name.clone(), origin.clone()))
            }
            Event::ToolCallResult {
                message_id,
                tool_call_id,
                content,
                metadata,
                ..
            } => {
                let text = content.clone().into_text();
                let m = self.message(message_id, "tool", origin);
                m.text = Joined::new(text, origin);
                m.tool_call_id = Some(tool_call_id.clone());
                // A capture's own `error` key marks a failed call too.
                m.error = metadata.as_ref().is_some_and(|m| m.status == "error")
                    || matches!(ev, Event::Passthrough(v) if v.get("error").is_some_and(|e| !e.is_null()));
            }
            Event::ReasoningStart { message_id, .. } => {
                self.reasoning(message_id, origin);
            }
            Event::ReasoningEncryptedValue { entity_id, .. } => {
                self.reasoning(entity_id, origin).1 = true;
            }
            Event::Custom { name, value, .. } => {
                self.custom
                    .push((name.clone(), value.clone(), origin.clone()))
            }
            // The state replaced. One written on a parse thread is read without its messages
            // (never parsed): its outline.
            Event::StateSnapshot { snapshot, .. } => {
                self.state = Some((without_messages(snapshot.outline().0), origin.clone()))
            }
            Event::StateDelta { delta, .. } => self.state_delta(delta, origin),
            Event::MessagesSnapshot { messages, .. } => {
                let list: Vec<Value> = messages.iter().map(|m| m.to_value().into_owned()).collect();
                self.messages_snapshot(&list, origin)
            }
            // Step ends, message and call ends, RAW and activity events show nothing of their own.
            _ => {}
        }
    }

    /// A call started (unless it was), in its parent message (made when new).
    fn tool_start(&mut self, id: &str, name: &str, parent: Option<&str>, origin: &Origin) {
        if self.call(id).is_some() {
            return;
        }
        let i = self.message_index(parent.unwrap_or(id), "assistant", origin);
        let calls = &mut self.messages[i].calls;
        self.call_at.insert(id.to_string(), (i, calls.len()));
        calls.push(Call {
            id: id.to_string(),
            name: name.to_string(),
            args: Joined::new("", origin),
        });
    }

    /// A `STATE_DELTA`: a JSON Patch (RFC 6902) applied to the state as the `json-patch` crate
    /// applies it (the checker's AGX311 uses the same crate): one operation at a time, one that
    /// does not apply (or is no operation) is skipped and the rest still apply.
    fn state_delta(&mut self, delta: &[Value], origin: &Origin) {
        let empty = || (Value::Object(Default::default()), origin.clone());
        let (state, at) = self.state.get_or_insert_with(empty);
        for op in delta {
            if let Ok(op) = json_patch::PatchOperation::deserialize(op) {
                // Skipped on failure: the crate leaves the document as it was.
                let _ = json_patch::patch(state, std::slice::from_ref(&op));
            }
        }
        *at = origin.clone();
    }

    /// A `MESSAGES_SNAPSHOT`: the list is replaced, as a client replaces it. A streamed message
    /// the snapshot carries with another text keeps that text as `streamedText`.
    fn messages_snapshot(&mut self, list: &[Value], origin: &Origin) {
        // Each id's messages and each call's tool messages (`true`), first last (taken with
        // `pop`).
        let mut by: HashMap<(bool, String), Vec<usize>> = HashMap::new();
        for (i, o) in self.messages.iter().enumerate().rev() {
            by.entry((false, o.id.clone())).or_default().push(i);
            if let (Some(c), "tool") = (&o.tool_call_id, o.role.as_str()) {
                by.entry((true, c.clone())).or_default().push(i);
            }
        }
        let mut old: Vec<Option<Message>> = self.messages.drain(..).map(Some).collect();
        let mut take = |key: (bool, String)| {
            let list = by.get_mut(&key)?;
            std::iter::from_fn(|| list.pop()).find_map(|i| old[i].take())
        };
        let mut new: Vec<Message> = list.iter().filter_map(|m| message_of(m, origin)).collect();
        for m in &mut new {
            if m.role == "reasoning" {
                continue;
            }
            let call = m.tool_call_id.clone();
            let before = take((false, m.id.clone())).or_else(|| take((true, call?)));
            let Some(o) = before else { continue };
            if o.text.text == m.text.text {
                m.text = o.text;
            } else if !o.text.text.is_empty() {
                m.streamed = Some(o.text);
            }
            for c in &mut m.calls {
                let oc = o.calls.iter().find(|oc| oc.id == c.id);
                if let Some(oc) = oc.filter(|oc| same_json_text(&oc.args.text, &c.args.text)) {
                    c.args = oc.args.clone();
                }
            }
        }
        // Reasoning messages of the snapshot join the reasoning blocks.
        new.retain(|m| {
            if m.role == "reasoning" {
                let r = self.reasoning.entry(m.id.clone());
                r.or_insert_with(|| (m.text.clone(), false));
            }
            m.role != "reasoning"
        });
        self.set_messages(new);
    }
}

/// Folds one side's AG-UI events into [`Run`]s. Feed it events in order; each call that ends a
/// run hands the run back.
#[derive(Debug, Default)]
pub struct Conversation {
    exact: bool,
    open: Option<Open>,
    runs: usize,
    /// Interrupt ids → placeholders, over the whole thread (a resume names an earlier run's).
    interrupts: HashMap<String, Arc<str>>,
}

impl Conversation {
    pub fn new(exact: bool) -> Conversation {
        Conversation {
            exact,
            ..Conversation::default()
        }
    }

    /// The open run (one is opened for events before any `RUN_STARTED`), last seen at
    /// `origin`.
    fn open(&mut self, origin: &Origin) -> &mut Open {
        let open = self.open.get_or_insert_with(|| Open::new(origin));
        open.last = origin.clone();
        open
    }

    /// Folds one AG-UI event, read typed ([`Event::typed`]); a run that ends here comes back.
    pub fn fold(&mut self, ev: &Event, origin: &Origin) -> Option<Run> {
        if matches!(ev, Event::Passthrough(v) if !v.get("type").is_some_and(Value::is_string)) {
            return None;
        }
        let typed = ev.typed();
        let typed = typed.as_ref();
        let mut done = None;
        let starts = matches!(typed, Event::RunStarted { .. });
        if let Event::RunStarted {
            thread_id,
            run_id,
            input,
            ..
        } = typed
        {
            done = self.open.take().map(|o| self.close(o));
            let open = self.open.insert(Open::new(origin));
            (open.thread_id, open.run_id) = (given(thread_id), given(run_id));
            let input = input.as_ref().unwrap_or(&Value::Null);
            let msgs = list_of(input, "messages").iter();
            open.set_messages(msgs.filter_map(|m| message_of(m, origin)).collect());
            if let Some(r) = input.get("resume").filter(|r| !r.is_null()) {
                open.resume = Some((r.clone(), origin.clone()));
            }
        }
        if self.exact {
            let open = self.open(origin);
            let mut ptr = format!("/events/{}", open.event_count);
            open.event_count += 1;
            flatten(
                &mut ptr,
                &ev.to_value(),
                origin,
                &|_| None,
                &mut open.events,
            );
        }
        // `RUN_FINISHED` or `RUN_ERROR` ends the run, whatever it says of a sub-agent.
        if matches!(typed, Event::RunFinished { .. } | Event::RunError { .. }) {
            let mut open = self.open.take().unwrap_or_else(|| Open::new(origin));
            open.outcome = Some((typed.clone(), origin.clone()));
            return Some(self.close(open));
        }
        if self.exact || starts {
            return done;
        }
        let open = self.open(origin);
        match (ev.subagent(), typed) {
            (None, _) => open.event(ev, typed, origin),
            (
                Some(sub),
                Event::SubagentStarted {
                    name,
                    parent_tool_call_id,
                    ..
                },
            ) => {
                let mut s = Open::new(origin);
                (s.name, s.parent) = (name.clone(), parent_tool_call_id.clone());
                open.subagents.push((sub.to_string(), s));
            }
            (Some(sub), Event::SubagentFinished { .. } | Event::SubagentError { .. }) => {
                open.subagent(sub, origin).outcome = Some((typed.clone(), origin.clone()));
            }
            // A sub-agent's own events are folded apart from the run's.
            (Some(sub), _) => open.subagent(sub, origin).event(ev, typed, origin),
        }
        None
    }

    /// The input ended: the open run, if any, ends without a terminal event.
    pub fn finish(&mut self) -> Option<Run> {
        self.open.take().map(|o| self.close(o))
    }

    /// The run's document.
    fn close(&mut self, open: Open) -> Run {
        self.runs += 1;
        let leaves = match self.exact {
            true => open.events,
            false => self.render(&open),
        };
        Run {
            index: self.runs,
            origin: open.origin,
            leaves,
        }
    }
}

/// An AG-UI message object (of a snapshot or a run's input) as a [`Message`].
fn message_of(m: &Value, origin: &Origin) -> Option<Message> {
    let s = |v: &Value, k: &str| str_of(v, k).unwrap_or_default();
    let mut msg = Message::new(&s(m, "id"), &str_of(m, "role")?, origin);
    if let Some(c) = m.get("content").filter(|c| !c.is_null()) {
        // A string as it is, the text parts of a list joined, anything else as its JSON
        // (a list without text as its JSON too).
        let text = crate::wire::langchain::tool_content_text(c);
        msg.text = Joined::new(text, origin);
    }
    msg.tool_call_id = str_of(m, "toolCallId");
    msg.error = m.get("error").is_some_and(|e| !e.is_null());
    for c in list_of(m, "toolCalls") {
        let f = c.get("function").unwrap_or(&Value::Null);
        msg.calls.push(Call {
            id: s(c, "id"),
            name: s(f, "name"),
            args: Joined::new(s(f, "arguments"), origin),
        });
    }
    Some(msg)
}

/// A state without its `messages` (they are compared as messages).
fn without_messages(state: &Value) -> Value {
    match state {
        Value::Object(o) => (o.iter())
            .filter(|(k, _)| *k != "messages")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        other => other.clone(),
    }
}

/// Whether two texts are the same JSON (or the same text when either is not JSON).
fn same_json_text(a: &str, b: &str) -> bool {
    let json = |s| serde_json::from_str::<Value>(s).ok();
    json(a).zip(json(b)).map_or(a == b, |(x, y)| x == y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn at(line: u64) -> Origin {
        Origin {
            file: Arc::from("t.ndjson"),
            line,
        }
    }

    /// Folds `events` (AG-UI JSON, one a line from line 1) into the runs they end.
    fn runs(events: Value) -> Vec<Run> {
        let mut c = Conversation::new(false);
        let events = events.as_array().expect("a list").iter();
        let line = |n: usize| at(n as u64 + 1);
        (events.enumerate())
            .filter_map(|(n, e)| c.fold(&Event::Passthrough(e.clone()), &line(n)))
            .collect()
    }

    /// A run that streams "Hi" as `m1` and ends with `snapshot` as its messages.
    fn run(snapshot: Value) -> Run {
        let mut r = runs(json!([
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
            {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "H"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "i"},
            {"type": "MESSAGES_SNAPSHOT", "messages": snapshot},
            {"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "outcome": {"type": "success"}},
        ]));
        assert_eq!(r.len(), 1);
        r.remove(0)
    }

    fn leaves(r: &Run) -> Vec<(String, Value, u64)> {
        r.leaves
            .iter()
            .map(|l| (l.pointer.clone(), l.value.clone(), l.origin.line))
            .collect()
    }

    #[test]
    fn a_snapshot_replaces_the_list_and_keeps_what_was_streamed() {
        let clean = run(json!([
            {"id": "u1", "role": "user", "content": "Q"},
            {"id": "m1", "role": "assistant", "content": "Hi"},
        ]));
        let l = leaves(&clean);
        assert!(l.contains(&("/messages/user-1/text".into(), json!("Q"), 5)));
        // Streamed and then confirmed: the text keeps its deltas' lines.
        let text = &clean.leaves[l
            .iter()
            .position(|x| x.0 == "/messages/assistant-1/text")
            .unwrap()];
        assert_eq!((text.origin_at(0).line, text.origin_at(1).line), (3, 4));

        // The regression of duplicate and empty assistant messages in MESSAGES_SNAPSHOT, and a
        // snapshot that says otherwise than the stream.
        let broken = run(json!([
            {"id": "u1", "role": "user", "content": "Q"},
            {"id": "m1", "role": "assistant", "content": "Hello"},
            {"id": "m1", "role": "assistant", "content": ""},
        ]));
        let l = leaves(&broken);
        assert!(l.contains(&("/messages/assistant-1/text".into(), json!("Hello"), 5)));
        assert!(l.contains(&("/messages/assistant-1/streamedText".into(), json!("Hi"), 2)));
        assert!(l.contains(&("/messages/assistant-2/text".into(), json!(""), 5)));
        let d = crate::diff::compare::compare(1, Some(&clean), Some(&broken), &Default::default());
        let paths: Vec<&str> = d.differences.iter().map(|d| d.pointer.as_str()).collect();
        assert_eq!(
            paths,
            [
                "/messages/assistant-1/text",
                "/messages/assistant-1/streamedText",
                "/messages/assistant-2"
            ]
        );
    }

    /// A captured `RUN_FINISHED` that names a sub-agent (AG-UI gives it none) still ends the
    /// run: it closed the sub-agent's own events as a run of their own, and left the run open.
    #[test]
    fn a_terminal_event_naming_a_subagent_ends_the_run() {
        let r = runs(json!([
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hi"},
            {"type": "RUN_FINISHED", "subagentRunId": "s1", "outcome": {"type": "success"}},
        ]));
        assert_eq!(r.len(), 1);
        let l = leaves(&r[0]);
        assert!(l.contains(&("/messages/assistant-1/text".into(), json!("Hi"), 2)));
        assert!(l.contains(&("/outcome".into(), json!("success"), 3)));
        assert!(!l.iter().any(|x| x.0.starts_with("/subagents")), "{l:?}");
    }

    /// A run the input leaves open ends `none` at its last event, whatever that event is (it
    /// was the last step, message text, custom event or state: line 3 here).
    #[test]
    fn a_run_without_an_end_is_none_at_its_last_event() {
        let mut c = Conversation::new(false);
        let events = json!([
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hi"},
            {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "search"},
            {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": "{}"},
            {"type": "TOOL_CALL_END", "toolCallId": "c1"},
        ]);
        for (n, e) in events.as_array().expect("a list").iter().enumerate() {
            assert!(c
                .fold(&Event::Passthrough(e.clone()), &at(n as u64 + 1))
                .is_none());
        }
        let r = c.finish().expect("the open run");
        assert!(leaves(&r).contains(&("/outcome".into(), json!("none"), 5)));
    }

    #[test]
    fn state_deltas_apply_op_by_op_skipping_what_does_not_apply() {
        let op =
            |op: &str, path: &str, value: Value| json!({"op": op, "path": path, "value": value});
        let r = runs(json!([
            {"type": "STATE_SNAPSHOT", "snapshot": {"a": [1, 2], "messages": []}},
            {"type": "STATE_DELTA", "delta": [
                op("replace", "/a/0", json!(9)),
                op("replace", "/b", json!(1)),
                {"op": "nonsense", "path": "/a"},
                op("remove", "/nope/x", json!(null)),
                op("add", "/a/-", json!(3)),
            ]},
            {"type": "RUN_FINISHED", "outcome": {"type": "success"}},
        ]));
        let state: Vec<(String, Value)> = (leaves(&r[0]).into_iter())
            .filter(|x| x.0.starts_with("/state"))
            .map(|(p, v, _)| (p, v))
            .collect();
        let want = [
            ("/a", json!([])),
            ("/a/0", json!(9)),
            ("/a/1", json!(2)),
            ("/a/2", json!(3)),
        ];
        let want = want.map(|(p, v)| (format!("/state{p}"), v));
        assert_eq!(state, want);
    }

    #[test]
    fn ids_become_placeholders_everywhere() {
        let call = |ty: &str, k: &str, v: &str| json!({"type": ty, "toolCallId": "call_x", k: v});
        let r = runs(json!([
            {"type": "RUN_STARTED", "threadId": "t-9", "runId": "r-9"},
            {"type": "TOOL_CALL_START", "toolCallId": "call_x", "toolCallName": "search",
             "parentMessageId": "m-7"},
            call("TOOL_CALL_ARGS", "delta", "{\"q\":"),
            call("TOOL_CALL_ARGS", "delta", "\"a\"}"),
            {"type": "TOOL_CALL_RESULT", "messageId": "res-1", "toolCallId": "call_x",
             "content": "found"},
            {"type": "CUSTOM", "name": "progress", "value": {"toolCallId": "call_x", "thread": "t-9"}},
            {"type": "RUN_FINISHED", "threadId": "t-9", "runId": "r-9", "outcome": {"type": "success"}},
        ]));
        let l = leaves(&r[0]);
        for want in [
            ("/messages/assistant-1/text", json!(""), 2),
            ("/messages/tool-1/toolCall", json!("call-1"), 5),
            ("/toolCalls/call-1/message", json!("assistant-1"), 2),
            ("/toolCalls/call-1/args/q", json!("a"), 4),
            ("/toolCalls/call-1/result", json!("found"), 5),
            ("/custom/0/value/toolCallId", json!("call-1"), 6),
            ("/custom/0/value/thread", json!("thread"), 6),
        ] {
            assert!(
                l.contains(&(want.0.into(), want.1.clone(), want.2)),
                "{want:?} in {l:?}"
            );
        }
    }

    /// A custom value over `FLAT_PAYLOAD_BYTES` of JSON is one leaf of its text (issue 41 item
    /// 3: a 60 MB array was 30M leaves, 7.4 GB in `snapshot`); a smaller one is still a tree.
    #[test]
    fn a_large_custom_value_is_one_leaf_of_its_text() {
        let big = vec![0; document::FLAT_PAYLOAD_BYTES / 2 + 1];
        let r = runs(json!([
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
            {"type": "CUSTOM", "name": "big", "value": big},
            {"type": "CUSTOM", "name": "small", "value": [0, 0]},
            {"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "outcome": {"type": "success"}},
        ]));
        let l = leaves(&r[0]);
        let custom: Vec<&str> = (l.iter().map(|x| x.0.as_str()))
            .filter(|p| p.starts_with("/custom/"))
            .collect();
        assert_eq!(
            custom,
            [
                "/custom/0/name",
                "/custom/0/json",
                "/custom/1/name",
                "/custom/1/value",
                "/custom/1/value/0",
                "/custom/1/value/1",
            ]
        );
        let text = serde_json::to_string(&big).unwrap();
        assert!(l.contains(&("/custom/0/json".into(), json!(text), 2)));
    }
}
