//! What a client's message list holds after the events sent so far on a thread: the ids of
//! its messages (the latest [`Shown::WINDOW`]) and whether the run in progress has put any
//! message there yet.
//!
//! `@ag-ui/client` builds `agent.messages` in arrival order: a streamed message is appended,
//! a `TOOL_CALL_RESULT` goes after the message holding its call, and a `MESSAGES_SNAPSHOT`
//! drops what it does not list, replaces what it does and appends what the client never
//! held; it never reorders. So every message of the conversation must reach the client, in
//! conversation order, under the id the final snapshot gives it. The mapper reads this view
//! to send what a state shows and the client does not hold yet (README: what the front end
//! ends up showing).

use std::collections::HashMap;

use crate::agui::{Event, Item, Role};
use crate::json::Field;
use foldhash::fast::RandomState as FastIds;

/// Message ids held, bounded ([`crate::recent::Recent`]), each with its place: a number that
/// grows in the client's order.
type Shown = crate::recent::Recent<String, u64, { 1 << 14 }, FastIds>;

#[derive(Default)]
pub(super) struct ClientView {
    shown: Shown,
    /// The next place ([`Shown`]).
    next: u64,
    /// The id each model run's streamed message has in the client, by the run's id
    /// ([`model_run`]), for the latest messages.
    streamed: crate::recent::Recent<String, String, 256, FastIds>,
    /// A state's id of a message the client holds under the id it streamed with (a model
    /// whose chunks carry no id streams under `lc_run--<run id>`; the state may say
    /// `run-<run id>` or `lc_run--<run id>-0`): snapshots name it as the client does.
    aliases: HashMap<String, String, FastIds>,
    /// Calls answered under `result-<call id>` (the log did not say the tool message's id
    /// while the run went on): a later state's tool message for the call is named so.
    fallback_results: crate::recent::Recent<String, String, { 1 << 14 }, FastIds>,
    /// The run in progress has sent a message (text, reasoning, a call, a result) or read a
    /// message list (a state, a step's input): a list it reads now is not its first.
    pub(super) run_began: bool,
    /// The calls the run in progress started with no parent message before it sent or read
    /// anything else.
    pub(super) run_orphans: Vec<String>,
}

impl ClientView {
    pub(super) fn holds(&self, id: &str) -> bool {
        self.shown.get(id).is_some()
    }

    /// Whether the client holds AI message `id` of a state, under that id or under the id
    /// its model run streamed it with (remembered as its alias).
    pub(super) fn holds_ai(&mut self, id: &str) -> bool {
        if self.holds(id) || self.aliases.contains_key(id) {
            return true;
        }
        let streamed = model_run(id).and_then(|run| self.streamed.get(run));
        let Some(streamed) = streamed.cloned() else {
            return false;
        };
        self.aliases.insert(id.to_string(), streamed);
        true
    }

    /// Messages of a snapshot named as the client holds them ([`ClientView::aliases`]; an
    /// assistant message no earlier list named, under the id its model run streamed with).
    pub(super) fn rename(&self, messages: &mut [Item]) {
        for m in messages {
            let id = m.id.as_str();
            let alias = match m.tool_call_id.as_deref() {
                Some(call) => self.fallback_results.get(call),
                None => self.aliases.get(id).or_else(|| {
                    let assistant = m.role == Role::Assistant;
                    let run = model_run(id).filter(|_| assistant && !self.holds(id))?;
                    self.streamed.get(run)
                }),
            };
            if let Some(alias) = alias {
                m.id = alias.clone();
            }
        }
    }

    fn hold_streamed(&mut self, id: &str) {
        self.hold(id);
        if let Some(run) = model_run(id) {
            self.streamed.insert(run.to_string(), id.to_string());
        }
    }

    fn hold(&mut self, id: &str) {
        if self.shown.get(id).is_none() {
            self.place(id);
        }
    }

    /// `id` is the client's last message.
    fn place(&mut self, id: &str) {
        self.next += 1;
        self.shown.insert(id.to_string(), self.next);
    }

    /// How many of a snapshot's messages the client can take as they are: the longest start
    /// of `list` in which the messages it holds come in its order and before any it does not
    /// (it never reorders what it holds, and appends what it never held). A held tool
    /// message's place is not compared: the client put the result after the message holding
    /// its call.
    pub(super) fn in_order(&self, list: &[Item]) -> usize {
        let (mut last, mut new) = (0, false);
        for (i, m) in list.iter().enumerate() {
            let tool = m.role == Role::Tool;
            match self.shown.get(&m.id) {
                Some(&at) if new || (at < last && !tool) => return i,
                Some(&at) if !tool => last = at,
                Some(_) => {}
                None => new = true,
            }
        }
        list.len()
    }

    /// The client's list after `ev`.
    pub(super) fn saw(&mut self, ev: &Event) {
        match ev {
            Event::RunStarted { input, .. } => {
                self.run_began = false;
                self.run_orphans.clear();
                let list = input.as_ref().and_then(|i| i.get("messages")?.as_array());
                for id in list.into_iter().flatten().filter_map(|m| m.field_str("id")) {
                    self.hold(id);
                }
            }
            // The client's list is the snapshot's, in its order ([`ClientView::in_order`]).
            Event::MessagesSnapshot { messages, .. } => {
                for id in messages.iter().filter_map(|m| m.view().id()) {
                    self.place(id);
                }
            }
            Event::TextMessageStart { message_id, .. } => {
                self.run_began = true;
                self.hold_streamed(message_id);
            }
            Event::ToolCallStart {
                tool_call_id,
                parent_message_id,
                ..
            } => {
                match parent_message_id {
                    // A call of no known message (a resumed call, in a file replayed alone):
                    // the client makes it a message of its own, which the run's first list
                    // may replace by the message that made the call.
                    None if !self.run_began => self.run_orphans.push(tool_call_id.clone()),
                    _ => self.run_began = true,
                }
                self.hold_streamed(parent_message_id.as_deref().unwrap_or(tool_call_id));
            }
            Event::ToolCallResult {
                message_id,
                tool_call_id,
                ..
            } => {
                self.run_began = true;
                self.hold(message_id);
                if message_id.strip_prefix("result-") == Some(tool_call_id.as_str()) {
                    (self.fallback_results).insert(tool_call_id.clone(), message_id.clone());
                }
            }
            Event::ReasoningMessageStart { .. } => self.run_began = true,
            _ => {}
        }
    }
}

/// The model run a message id names under LangChain's schemes for a message whose model gave
/// it none: `lc_run--<run id>` (Python, and aguify's own), `lc_run--<run id>-<n>`,
/// `run-<run id>` (LangChain.js); `None` for any other id.
fn model_run(id: &str) -> Option<&str> {
    let rest = id
        .strip_prefix("lc_run--")
        .or_else(|| id.strip_prefix("run-"))?;
    let (run, tail) = rest.split_at_checked(36)?;
    let numbered = tail
        .strip_prefix('-')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    (tail.is_empty() || numbered).then_some(run)
}

#[cfg(test)]
mod tests {
    use super::super::messages::tests::run_start;
    use super::super::{MapOptions, Mapper};
    use super::*;
    use crate::agui::Message;
    use crate::model::{ModelEvent, SharedJson, Snapshot, ToolResult};
    use serde_json::{json, Value};
    use std::sync::Arc;

    /// The events made of `events`, as the pipeline maps them, each as `TYPE:id`
    /// (`MESSAGES_SNAPSHOT:id,id…`; STEP and STATE events left out).
    fn mapped(events: Vec<ModelEvent>) -> Vec<String> {
        let (mut m, mut out, mut all) = (Mapper::new(MapOptions::default()), vec![], vec![]);
        for ev in events {
            m.map(ev, &mut out);
            all.extend(out.iter().map(|e| e.to_value().into_owned()));
            m.settle(&mut out);
        }
        m.finish(&mut out);
        all.extend(out.iter().map(|e| e.to_value().into_owned()));
        let id = |e: &Value| {
            let ids = ["messageId", "toolCallId"].map(|k| e[k].as_str().unwrap_or_default());
            ids.into_iter()
                .filter(|i| !i.is_empty())
                .collect::<Vec<_>>()
                .join("/")
        };
        all.iter()
            .filter_map(|e| {
                let t = e["type"].as_str()?;
                Some(match t {
                    "MESSAGES_SNAPSHOT" => {
                        let ids = e["messages"]
                            .as_array()?
                            .iter()
                            .map(|m| m["id"].as_str().unwrap_or("?"));
                        format!("{t}:{}", ids.collect::<Vec<_>>().join(","))
                    }
                    "RUN_STARTED" | "RUN_FINISHED" => t.to_string(),
                    _ if t.starts_with("STEP")
                        || t.starts_with("STATE")
                        || t.ends_with("CONTENT")
                        || t.ends_with("ARGS") =>
                    {
                        return None
                    }
                    _ => format!("{t}:{}", id(e)),
                })
            })
            .collect()
    }

    fn human(id: &str) -> Value {
        json!({"type": "human", "content": "q", "id": id})
    }

    fn ai(id: &str, text: &str, calls: &[&str]) -> Value {
        let calls: Vec<Value> = calls
            .iter()
            .map(|c| json!({"id": c, "name": "f", "args": {}}))
            .collect();
        json!({"type": "ai", "content": text, "id": id, "tool_calls": calls})
    }

    fn tool(id: &str, call: &str) -> Value {
        json!({"type": "tool", "content": "r", "id": id, "tool_call_id": call})
    }

    fn state(list: &[Value]) -> ModelEvent {
        ModelEvent::State(Snapshot::Value(json!({ "messages": list })))
    }

    fn conversation(list: &[Value]) -> ModelEvent {
        ModelEvent::Conversation(
            list.iter()
                .map(|m| Arc::new(SharedJson::new(m.clone())))
                .collect(),
        )
    }

    fn text(id: &str) -> ModelEvent {
        ModelEvent::TextDelta {
            message_id: id.into(),
            text: "a".into(),
        }
    }

    fn call(message: &str, id: &str) -> ModelEvent {
        ModelEvent::ToolCallChunk {
            message_id: message.into(),
            index: id.into(),
            id: Some(id.into()),
            name: Some("f".into()),
            args: "{}".into(),
        }
    }

    fn end(message: &str) -> ModelEvent {
        ModelEvent::MessageEnd {
            message_id: message.into(),
            usage: None,
        }
    }

    fn result(call: &str, id: Option<&str>) -> ModelEvent {
        ModelEvent::ToolEnd(ToolResult {
            tool_call_id: call.into(),
            name: None,
            content: crate::agui::ToolContent::Text("r".into()),
            message_id: id.map(String::from),
            error: false,
        })
    }

    /// A model message whose stream was cut (its calls streamed, no end with its final id)
    /// and that no state named before the run's last: the final snapshot names it as the
    /// client holds it, under its model run's streamed id, so the client keeps it in place
    /// (before its tool result) instead of dropping it and appending the state's id at the end.
    #[test]
    fn a_cut_model_message_keeps_its_streamed_id_in_the_final_snapshot() {
        let (a, b) = (
            "lc_run--01a24345-c91f-71db-9fdb-a38042a654b8",
            "lc_run--01a24345-c979-7770-be36-bd5c2c951fda",
        );
        let (a0, b0) = (format!("{a}-0"), format!("{b}-0"));
        let got = mapped(vec![
            run_start(Some("r1")),
            call(a, "c1"),
            result("c1", Some("t1")),
            text(b),
            end(b),
            state(&[
                human("h1"),
                ai(&a0, "", &["c1"]),
                tool("t1", "c1"),
                ai(&b0, "a", &[]),
            ]),
            ModelEvent::RunEnd,
        ]);
        let snapshot = format!("MESSAGES_SNAPSHOT:h1,{a},t1,{b}");
        assert_eq!(got.last().map(String::as_str), Some("RUN_FINISHED"));
        assert_eq!(got.get(got.len() - 2), Some(&snapshot), "{got:?}");
    }

    /// The run's input, which a v3 log does not echo, reaches the client before the answer:
    /// the run's first state, sent whole; the thread's next run sends only what is new.
    #[test]
    fn the_input_a_state_shows_goes_before_the_answer() {
        let got = mapped(vec![
            run_start(Some("r1")),
            state(&[human("h1")]),
            text("a1"),
            end("a1"),
            state(&[human("h1"), ai("a1", "a", &[])]),
            ModelEvent::RunEnd,
            run_start(Some("r2")),
            state(&[human("h1"), ai("a1", "a", &[]), human("h2")]),
            text("a2"),
            end("a2"),
            ModelEvent::RunEnd,
            run_start(Some("r3")),
            // Nothing new for the client: no snapshot before the answer.
            state(&[human("h1"), ai("a1", "a", &[]), human("h2")]),
            text("a3"),
            end("a3"),
            ModelEvent::RunEnd,
        ]);
        assert_eq!(
            got,
            [
                "RUN_STARTED",
                "MESSAGES_SNAPSHOT:h1",
                "TEXT_MESSAGE_START:a1",
                "TEXT_MESSAGE_END:a1",
                "MESSAGES_SNAPSHOT:h1,a1",
                "RUN_FINISHED",
                "RUN_STARTED",
                "MESSAGES_SNAPSHOT:h1,a1,h2",
                "TEXT_MESSAGE_START:a2",
                "TEXT_MESSAGE_END:a2",
                "MESSAGES_SNAPSHOT:h1,a1,h2",
                "RUN_FINISHED",
                "RUN_STARTED",
                "TEXT_MESSAGE_START:a3",
                "TEXT_MESSAGE_END:a3",
                "MESSAGES_SNAPSHOT:h1,a1,h2",
                "RUN_FINISHED",
            ]
        );
    }

    /// Results go out under the state's ids, in call order: one whose id the log has not said
    /// yet waits for the next list (a v2 step's input), one finished before an earlier call
    /// waits for it.
    #[test]
    fn results_go_in_call_order_under_the_states_ids() {
        let list = [
            human("h"),
            ai("a", "", &["c1", "c2"]),
            tool("t1", "c1"),
            tool("t2", "c2"),
        ];
        let got = mapped(vec![
            run_start(Some("r")),
            conversation(&list[..1]),
            call("a", "c1"),
            call("a", "c2"),
            end("a"),
            // c2 first, with its id: waits for c1.
            result("c2", Some("t2")),
            // c1 with no id: waits for a list that names it.
            result("c1", None),
            conversation(&list),
            text("b"),
            end("b"),
            state(&[&list[..], &[ai("b", "a", &[])]].concat()),
            ModelEvent::RunEnd,
        ]);
        let results: Vec<&String> = got
            .iter()
            .filter(|e| e.starts_with("TOOL_CALL_RESULT"))
            .collect();
        assert_eq!(
            results,
            ["TOOL_CALL_RESULT:t1/c1", "TOOL_CALL_RESULT:t2/c2"]
        );
        let at = |e: &str| got.iter().position(|x| x == e);
        assert!(
            at("TOOL_CALL_RESULT:t2/c2") < at("TEXT_MESSAGE_START:b"),
            "{got:?}"
        );
        // With no list to name it, a result goes out at the run's end under `result-<call>`.
        let got = mapped(vec![
            run_start(Some("r")),
            call("a", "c1"),
            end("a"),
            result("c1", None),
            ModelEvent::RunFailed(crate::model::ErrorInfo {
                name: None,
                message: "x".into(),
                lc_code: None,
            }),
        ]);
        assert!(
            got.contains(&"TOOL_CALL_RESULT:result-c1/c1".to_string()),
            "{got:?}"
        );
    }

    /// A resume file replayed alone starts with a call of no known message: the run's first
    /// list, which has the message that made the call, is still sent whole.
    #[test]
    fn a_call_of_no_known_message_does_not_hold_back_the_first_list() {
        let start = || ModelEvent::ToolStart {
            tool_call_id: "c1".into(),
            name: "f".into(),
            args: Some("{}".into()),
            parent_message_id: None,
        };
        let list = [human("h"), ai("a", "", &["c1"]), tool("t1", "c1")];
        let got = mapped(vec![run_start(Some("r")), start(), conversation(&list)]);
        let at = |e: &str| got.iter().position(|x| x == e);
        assert!(at("MESSAGES_SNAPSHOT:h,a").is_some(), "{got:?}");
        assert!(
            at("MESSAGES_SNAPSHOT:h,a") < at("TOOL_CALL_RESULT:t1/c1"),
            "{got:?}"
        );
        // A list without that message: not sent (the call would be lost).
        let got = mapped(vec![
            run_start(Some("r")),
            start(),
            conversation(&list[..1]),
        ]);
        assert!(
            !got.iter().any(|e| e.starts_with("MESSAGES_SNAPSHOT:h")),
            "{got:?}"
        );
    }

    /// An AI message no model streamed (a node wrote it) is sent as a text message where
    /// the conversation has it; one a model streamed under another id of its run is not sent
    /// again, and snapshots name it as it streamed.
    #[test]
    fn node_written_messages_are_sent_where_they_are() {
        let run_a = "01a23217-2a4d-7768-b05b-b5353179204f";
        let (streamed, stated) = (format!("lc_run--{run_a}"), format!("run-{run_a}"));
        let list = [
            human("h"),
            ai("note", "approved", &[]),
            ai(&stated, "a", &[]),
        ];
        let got = mapped(vec![
            run_start(Some("r")),
            conversation(&list[..1]),
            conversation(&list[..2]),
            text(&streamed),
            end(&streamed),
            state(&list),
            ModelEvent::RunEnd,
        ]);
        assert_eq!(
            got,
            [
                "RUN_STARTED".to_string(),
                "MESSAGES_SNAPSHOT:h".into(),
                "TEXT_MESSAGE_START:note".into(),
                "TEXT_MESSAGE_END:note".into(),
                format!("TEXT_MESSAGE_START:{streamed}"),
                format!("TEXT_MESSAGE_END:{streamed}"),
                format!("MESSAGES_SNAPSHOT:h,note,{streamed}"),
                "RUN_FINISHED".into(),
            ]
        );
    }

    #[test]
    fn a_model_run_is_named_by_its_id_under_each_scheme() {
        let run = "01a23217-2a4d-7768-b05b-b5353179204f";
        for id in [
            format!("lc_run--{run}"),
            format!("lc_run--{run}-0"),
            format!("run-{run}"),
        ] {
            assert_eq!(model_run(&id), Some(run), "{id}");
        }
        for id in [
            "human-1",
            "run-short",
            &format!("lc_run--{run}-x"),
            &format!("msg_{run}"),
        ] {
            assert_eq!(model_run(id), None, "{id}");
        }
    }

    /// A snapshot the client can take as it is, whole; one that puts what the client holds
    /// after what it never held, or in another order, up to there (tool messages go where
    /// their call is, whatever their place).
    #[test]
    fn the_start_of_a_snapshot_the_client_takes_as_it_is() {
        let list = |ids: &[&str]| -> Vec<Item> {
            let item = |i: &&str| Item::new(i.to_string(), Role::Assistant, Some("x".into()));
            ids.iter().map(item).collect()
        };
        let snapshot = |ids: &[&str]| Event::MessagesSnapshot {
            timestamp: None,
            messages: list(ids).into_iter().map(Message::Item).collect(),
        };
        let mut v = ClientView::default();
        v.saw(&snapshot(&["h0", "a0", "h1"]));
        assert_eq!(v.in_order(&list(&["h0", "h1", "new"])), 3);
        assert_eq!(v.in_order(&list(&["summary", "h1", "a1"])), 1);
        assert_eq!(v.in_order(&list(&["h1", "h0"])), 1);
        let mut tool_first = list(&["h1", "h0"]);
        tool_first[0].role = Role::Tool;
        assert_eq!(v.in_order(&tool_first), 2);
        // A held result after a message the client never held stays where the client has it.
        let mut after_new = list(&["new", "h0"]);
        after_new[1].role = Role::Tool;
        assert_eq!(v.in_order(&after_new), 1);
        // After a snapshot, its order is the client's.
        v.saw(&snapshot(&["h1", "h0"]));
        assert_eq!(v.in_order(&list(&["h1", "h0"])), 2);
    }
}
