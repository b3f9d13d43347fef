//! The run's message list, for `MESSAGES_SNAPSHOT` (and `--text final`): the `messages` of the
//! run's last state that has them, converted to AG-UI once, when the run ends.
//!
//! Every state of a run carries the whole conversation so far, so converting each state's
//! list made a long conversation cost its length squared, on the main thread. The state is
//! not copied to be kept: its `STATE_SNAPSHOT` event's state is, once written, handed back to the
//! mapper ([`super::Mapper::settle`]) and read here when the run ends.

use std::sync::Arc;

use crate::agui::{to_agui_messages, Item, Snapshot};
use crate::model::SharedJson;
use serde_json::Value;

/// Items of messages whose text is this long or longer are not kept ([`Converted`]).
const KEEP_ITEM: usize = 64 * 1024;

/// The AG-UI items of the last message list converted from a state a parse thread wrote,
/// by place, with the messages they were made from: the next run of a thread repeats its
/// history (every state carries the whole list), and a message found again at its place is
/// not read again (but for one of [`KEEP_ITEM`] bytes or more: its item is not kept). Holds
/// one list.
#[derive(Default)]
pub(super) struct Converted {
    /// Per message, its item when kept (`Some(None)`: the message makes no item).
    slots: Vec<(Arc<SharedJson>, Option<Option<Item>>)>,
}

impl Converted {
    /// The `messages` of a run's last state that has them, in AG-UI form (`None` when the
    /// state has no list).
    pub(super) fn list(&mut self, state: Snapshot) -> Option<Vec<Item>> {
        let state = match state {
            Snapshot::Value(state) => {
                let list = state.get("messages").and_then(Value::as_array);
                return list.map(|l| to_agui_messages(l));
            }
            Snapshot::Encoded(state) => state,
        };
        let mut list = Vec::with_capacity(state.messages.len());
        let mut next = Vec::with_capacity(state.messages.len());
        let mut last = std::mem::take(&mut self.slots).into_iter();
        for (i, m) in state.messages.iter().enumerate() {
            let (item, kept) = match last.next() {
                // The same message at the same place as in the last list: the same item (a
                // thread's next run repeats its history), kept as it was.
                Some((prev, Some(kept))) if Arc::ptr_eq(&prev, m) => (kept.clone(), Some(kept)),
                _ => {
                    let item = m.to_agui(i);
                    // A long message's item is not kept: kept, it would be held twice, a
                    // megabyte's tool result each time.
                    let kept = (m.json().len() < KEEP_ITEM).then(|| item.clone());
                    (item, kept)
                }
            };
            list.extend(item);
            next.push((Arc::clone(m), kept));
        }
        self.slots = next;
        Some(list)
    }

    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.slots.len()
    }

    /// Per message: whether its item (or its having none) is kept.
    #[cfg(test)]
    pub(super) fn kept(&self) -> Vec<bool> {
        self.slots.iter().map(|(_, kept)| kept.is_some()).collect()
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::{MapOptions, Mapper, TextPolicy};
    use crate::model::{ModelEvent, Snapshot};
    use crate::wire::langchain as lc;
    use crate::wire::state::State;
    use serde_json::{json, Value};

    /// Maps `events` as the pipeline does (written, then settled): the events made. Every
    /// state with a list first maps alike written on a parse thread ([`State`]).
    fn run(opts: MapOptions, events: Vec<ModelEvent>) -> Vec<Value> {
        let trees = run_as(opts.clone(), events.clone(), false);
        assert_eq!(run_as(opts, events, true), trees, "states written apart");
        trees
    }

    fn run_as(opts: MapOptions, events: Vec<ModelEvent>, encode: bool) -> Vec<Value> {
        run_on(&mut Mapper::new(opts), events, encode)
    }

    /// [`run_as`] on a mapper the caller looks into afterwards.
    fn run_on(m: &mut Mapper, events: Vec<ModelEvent>, encode: bool) -> Vec<Value> {
        let (mut out, mut all) = (vec![], vec![]);
        for ev in events {
            let ev = match ev {
                ModelEvent::State(Snapshot::Value(state)) if encode => {
                    ModelEvent::State(match State::read(&state.to_string()) {
                        Some(e) => Snapshot::Encoded(Box::new(e)),
                        None => Snapshot::Value(state),
                    })
                }
                ev => ev,
            };
            m.map(ev, &mut out);
            all.extend(out.iter().map(|e| e.to_value().into_owned()));
            m.settle(&mut out);
            assert!(out.is_empty());
        }
        m.finish(&mut out);
        all.extend(out.iter().map(|e| e.to_value().into_owned()));
        all
    }

    fn of_type<'a>(events: &'a [Value], t: &str) -> Vec<&'a Value> {
        events.iter().filter(|e| e["type"] == t).collect()
    }

    /// A run of thread `t` with no input.
    pub(in super::super) fn run_start(run_id: Option<&str>) -> ModelEvent {
        ModelEvent::RunStart {
            thread_id: Some("t".into()),
            run_id: run_id.map(String::from),
            messages: vec![],
            resume: None,
            state: None,
        }
    }

    fn tool_start(id: &str) -> ModelEvent {
        ModelEvent::ToolStart {
            tool_call_id: id.into(),
            name: "f".into(),
            args: None,
            parent_message_id: None,
        }
    }

    fn state(v: Value) -> ModelEvent {
        ModelEvent::State(Snapshot::Value(v))
    }

    #[test]
    fn the_run_messages_are_the_last_list_converted_once() {
        let first = lc::tests::message_list();
        let mut last = first.clone();
        last.push(json!({"type":"tool","content":"late","tool_call_id":"late","id":"tl"}));
        last.push(json!({"type":"tool","content":"again","tool_call_id":"late","id":"tl2"}));
        last.push(json!({"type":"ai","content":"the answer","id":"fin"}));
        let events = run(
            MapOptions::default(),
            vec![
                run_start(Some("r")),
                tool_start("c1"),
                tool_start("c2"),
                tool_start("c7"),
                tool_start("late"),
                // States normalised, as the adapters hand them on.
                state(lc::normalize_owned(json!({ "messages": first, "k": 1 }))),
                // A state with no list keeps the run's list.
                state(json!({ "k": 2 })),
                state(lc::normalize_owned(
                    json!({ "messages": last.clone(), "k": 3 }),
                )),
                state(json!({ "messages": "not a list" })),
                ModelEvent::RunEnd,
            ],
        );
        // The results the states answer, each once, in list order, as the AG-UI list says.
        let agui = crate::agui::to_agui_messages(&last);
        let agui: Vec<Value> = agui.iter().map(crate::agui::Item::to_value).collect();
        let results: Vec<(&Value, &Value, &Value)> = of_type(&events, "TOOL_CALL_RESULT")
            .into_iter()
            .map(|e| (&e["toolCallId"], &e["messageId"], &e["content"]))
            .collect();
        let mut answered = std::collections::HashSet::new();
        let expected: Vec<(&Value, &Value, &Value)> = agui
            .iter()
            .filter(|m| {
                ["c1", "c2", "c7", "late"]
                    .iter()
                    .any(|id| m["toolCallId"] == *id)
            })
            .filter(|m| answered.insert(m["toolCallId"].to_string()))
            .map(|m| (&m["toolCallId"], &m["id"], &m["content"]))
            .collect();
        assert_eq!(expected.len(), 4);
        assert_eq!(results, expected);
        let error = of_type(&events, "TOOL_CALL_RESULT")
            .into_iter()
            .find(|e| e["toolCallId"] == "c2")
            .map(|e| e["metadata"].clone());
        assert_eq!(error, Some(json!({"status":"error"})));
        // The list last; first its start up to the first message the client holds (t1, a
        // result it was sent) after ones it never held (ClientView::in_order).
        let snaps = of_type(&events, "MESSAGES_SNAPSHOT");
        let held_at = agui.iter().position(|m| m["id"] == "t1").expect("t1");
        assert_eq!(snaps.len(), 2);
        assert_eq!(snaps[0]["messages"], json!(agui[..held_at]));
        assert_eq!(snaps[1]["messages"], Value::Array(agui));
        assert_eq!(of_type(&events, "STATE_SNAPSHOT").len(), 4);
    }

    /// A state's messages shared ([`State`]) give the results and the run's list their
    /// trees give.
    #[test]
    fn shared_messages_convert_as_their_trees() {
        use crate::model::SharedJson;
        use std::sync::Arc;
        let list = vec![
            json!({"type":"human","content":"q","id":"h1","additional_kwargs":{"k":[1]}}),
            json!({"type":"ai","content":[{"type":"text","text":"a"},{"type":"reasoning","reasoning":"r"},"s"],
                "id":"a1","tool_calls":[{"id":"c1","name":"f","args":{"x":1}}],"response_metadata":{"m":1}}),
            json!({"type":"tool","content":[{"type":"text","text":"r"}],"tool_call_id":"c1","status":"error","id":"t1"}),
            json!({"role":"assistant","content":"x","usage":null}),
            json!({"type":"system","content":"s","id":""}),
            json!([1, 2]),
            json!({"type":"ai","content":"y","tool_calls":[{"id":"c2","name":"g","args":"{\"q\":1}"},{"id":"c3"}],"id":"a2"}),
            json!({"type":"tool","content":{"ok":true},"tool_call_id":"c2"}),
            json!({"type":"ToolMessage","content":7,"tool_call_id":"c3","name":"n"}),
            json!({"type":"other","content":"z","id":"o"}),
        ];
        let events = |state: ModelEvent| {
            run_as(
                MapOptions::default(),
                vec![
                    run_start(Some("r")),
                    tool_start("c1"),
                    tool_start("c2"),
                    tool_start("c3"),
                    state,
                    ModelEvent::RunEnd,
                ],
                false,
            )
        };
        let shared = list
            .iter()
            .map(|m| Arc::new(SharedJson::new(m.clone())))
            .collect();
        let enc = State {
            rest: json!({"messages": [], "k": 1}),
            messages: shared,
        };
        let got = events(ModelEvent::State(Snapshot::Encoded(Box::new(enc))));
        let want = events(state(json!({"messages": list, "k": 1})));
        assert_eq!(got, want);
        let shared: Vec<_> = list
            .iter()
            .map(|m| Arc::new(SharedJson::new(m.clone())))
            .collect();
        let enc = State {
            rest: json!({"messages": [], "k": 1}),
            messages: shared,
        };
        let (mut m, mut out, mut results) = (Mapper::new(MapOptions::default()), vec![], 0);
        for ev in [
            run_start(Some("r")),
            tool_start("c1"),
            ModelEvent::State(Snapshot::Encoded(Box::new(enc))),
            ModelEvent::RunEnd,
        ] {
            m.map(ev, &mut out);
            let out_json: Vec<Value> = out.iter().map(|e| e.to_value().into_owned()).collect();
            results += of_type(&out_json, "TOOL_CALL_RESULT").len();
            m.settle(&mut out);
        }
        // The run's first list goes whole (c1, started with no message, is a1's call), c2 is
        // answered there: only c1's result follows.
        assert_eq!(results, 1);
        assert_eq!(of_type(&want, "TOOL_CALL_RESULT").len(), 3);
        let snaps = of_type(&want, "MESSAGES_SNAPSHOT");
        assert_eq!(
            snaps
                .iter()
                .map(|s| s["messages"].as_array().map(Vec::len))
                .collect::<Vec<_>>(),
            [Some(1), Some(8)]
        );
    }

    /// A thread's next run repeats its history: the items of messages found again at their
    /// places are the last list's, and the lists are what the trees give.
    #[test]
    fn a_next_run_reuses_the_items_of_its_history() {
        use crate::model::SharedJson;
        use std::sync::Arc;
        // The second message is long: its item is made again, not kept.
        let msgs: Vec<Value> = (0..4)
            .map(|i| json!({"type": if i % 2 == 0 {"human"} else {"ai"}, "content": format!("m{i}")}))
            .map(|mut m| {
                if m["content"] == "m1" {
                    m["content"] = json!("m1".repeat(super::KEEP_ITEM));
                }
                m
            })
            .collect();
        let shared: Vec<Arc<SharedJson>> = msgs
            .iter()
            .map(|m| Arc::new(SharedJson::new(m.clone())))
            .collect();
        let start = || run_start(None);
        let encoded = |n: usize| {
            let e = State {
                rest: json!({"messages": []}),
                messages: shared[..n].to_vec(),
            };
            ModelEvent::State(Snapshot::Encoded(Box::new(e)))
        };
        // The second run's list: the first's two messages, then two more (no ids: their
        // places name them).
        let runs = |second: ModelEvent, first: ModelEvent| {
            vec![
                start(),
                first,
                ModelEvent::RunEnd,
                start(),
                second,
                ModelEvent::RunEnd,
            ]
        };
        let trees = run_as(
            MapOptions::default(),
            runs(
                state(json!({"messages": msgs.clone()})),
                state(json!({"messages": msgs[..2].to_vec()})),
            ),
            false,
        );
        let mut m = Mapper::new(MapOptions::default());
        assert_eq!(run_on(&mut m, runs(encoded(4), encoded(2)), false), trees);
        assert_eq!(m.converted.len(), 4);
        assert_eq!(m.converted.kept(), [true, false, true, true]);
        // Each run's first list is sent at once (the client does not hold it), then its
        // last at its end.
        let snaps = of_type(&trees, "MESSAGES_SNAPSHOT");
        assert_eq!(snaps.len(), 4);
        assert_eq!(snaps[3]["messages"][3]["id"], "msg-3");
    }

    #[test]
    fn final_text_reads_the_last_list() {
        let list = vec![
            json!({"type":"human","content":"q","id":"h"}),
            json!({"lc":1,"type":"constructor","id":["langchain_core","messages","AIMessage"],
                "kwargs":{"content":"the answer","id":"fin","type":"ai"}}),
        ];
        let opts = MapOptions {
            text: TextPolicy::Final,
            ..MapOptions::default()
        };
        let events = run(
            opts,
            vec![
                state(json!({ "messages": [list[0].clone()] })),
                state(json!({ "messages": lc::normalize_owned(Value::Array(list.clone())) })),
                ModelEvent::RunEnd,
            ],
        );
        let text = of_type(&events, "TEXT_MESSAGE_CONTENT");
        assert_eq!(text.len(), 1);
        assert_eq!(text[0]["delta"], "the answer");
        let snaps = of_type(&events, "MESSAGES_SNAPSHOT");
        assert_eq!(
            snaps.last().map(|s| &s["messages"][1]["content"]),
            Some(&json!("the answer"))
        );
    }

    /// `--text final` sends each run's answer once, and remembers the answers it sent in a
    /// window, not for the whole log (issue 36 (c)): memory does not grow with the runs.
    #[test]
    fn final_answers_are_sent_once_and_remembered_in_a_window() {
        let opts = MapOptions {
            text: TextPolicy::Final,
            ..MapOptions::default()
        };
        let mut m = Mapper::new(opts);
        let window = super::super::FinalAnswers::WINDOW;
        for i in 0..window + 10 {
            let list = json!([{"type":"human","content":"q","id":format!("h{i}")},
                {"type":"ai","content":format!("answer {i}"),"id":format!("a{i}")}]);
            let run = |id: &str| {
                vec![
                    run_start(Some(id)),
                    state(json!({ "messages": list })),
                    ModelEvent::RunEnd,
                ]
            };
            let events = run_on(&mut m, run(&format!("r{i}")), false);
            let text = of_type(&events, "TEXT_MESSAGE_CONTENT");
            assert_eq!(text.len(), 1, "run {i}");
            assert_eq!(text[0]["delta"], format!("answer {i}"));
            if i % 100 == 0 {
                // A resume whose list ends with the answer already sent: not sent again.
                let again = run_on(&mut m, run(&format!("r{i}-again")), false);
                assert!(
                    of_type(&again, "TEXT_MESSAGE_CONTENT").is_empty(),
                    "run {i} again"
                );
            }
            assert!(m.answered.len() <= window, "{}", m.answered.len());
        }
    }

    #[test]
    fn a_run_with_no_list_has_no_snapshot_and_an_unfinished_run_none() {
        let events = run(
            MapOptions::default(),
            vec![state(json!({ "k": 1 })), ModelEvent::RunEnd],
        );
        assert!(of_type(&events, "MESSAGES_SNAPSHOT").is_empty());
        let events = run(
            MapOptions::default(),
            vec![state(
                json!({ "messages": [{"type":"human","content":"q"}] }),
            )],
        );
        // Only the run's input, sent as it showed: none at its end.
        let snaps = of_type(&events, "MESSAGES_SNAPSHOT");
        assert_eq!(snaps.len(), 1);
        assert!(
            events.iter().position(|e| e["type"] == "MESSAGES_SNAPSHOT")
                < events.iter().position(|e| e["type"] == "RUN_ERROR")
        );
        assert_eq!(of_type(&events, "RUN_ERROR").len(), 1);
    }
}
