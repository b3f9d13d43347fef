//! AGX315: a `MESSAGES_SNAPSHOT` that contradicts the messages the stream sent before it.
//!
//! `@ag-ui/client` keeps `agent.messages` in arrival order: a streamed message is appended, a
//! `TOOL_CALL_RESULT` goes after the message holding its call, and a snapshot drops what it
//! does not list (reasoning and activity messages stay when it lists none of their role),
//! replaces what it lists and appends what the client never held; it never reorders. This
//! replays that reducer over the ids of the stream (as hashes) and reports a snapshot after
//! which the client's order is not the snapshot's (a message the stream never sent listed
//! before one it did: a run's input that only the final snapshot brings, a tool result under
//! another id). A message the snapshot leaves out is not reported: the client removes it, in
//! place (a sub-agent's messages, a native note the state does not hold).

use std::collections::{HashMap, HashSet};

use super::ev::Ev;
use super::strict::id_hash;
use super::Ctx;
use crate::agui::{EventType, Msg};

/// Messages followed, at most: past that the rule stops, so a stream of millions of messages
/// is checked in flat memory and time (placing a result is linear in the list).
const MAX: usize = 4096;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Tool,
    /// Kept beside a snapshot that lists none of its role.
    Reasoning,
    Activity,
    Other,
}

impl Kind {
    /// The kind of a message, by its `role`.
    fn of_role(role: Option<&str>) -> Kind {
        match role {
            Some("tool") => Kind::Tool,
            Some("reasoning") => Kind::Reasoning,
            Some("activity") => Kind::Activity,
            _ => Kind::Other,
        }
    }
}

#[derive(Default)]
pub struct SnapshotOrder {
    /// The client's messages, in order: id hash and kind, with the id for the report.
    list: Vec<(u64, Kind, String)>,
    /// The ids of `list`.
    ids: HashSet<u64, foldhash::fast::RandomState>,
    /// The message holding each tool call.
    holder: HashMap<u64, u64, foldhash::fast::RandomState>,
    off: bool,
}

impl SnapshotOrder {
    fn push(&mut self, id: &str, kind: Kind) {
        let h = id_hash(id);
        if self.ids.insert(h) {
            self.list.push((h, kind, id.to_string()));
        }
        self.limit();
    }

    fn limit(&mut self) {
        if self.list.len() > MAX {
            self.off = true;
            self.list = vec![];
            self.ids.clear();
            self.holder.clear();
        }
    }

    pub fn feed(&mut self, ev: &Ev<'_>, ctx: &mut Ctx) {
        if self.off {
            return;
        }
        match ev.kind {
            Some(EventType::RunStarted) => {
                for m in ev.messages().into_iter().flatten() {
                    if let Some(id) = m.id() {
                        self.push(id, Kind::of_role(m.role()));
                    }
                }
            }
            Some(k @ (EventType::TextMessageStart | EventType::ReasoningMessageStart)) => {
                if let Some(id) = ev.s("messageId") {
                    let reasoning = k == EventType::ReasoningMessageStart;
                    self.push(id, [Kind::Other, Kind::Reasoning][usize::from(reasoning)]);
                }
            }
            Some(EventType::ToolCallStart) => {
                let Some(call) = ev.s("toolCallId") else {
                    return;
                };
                let holder = ev.s("parentMessageId").unwrap_or(call);
                self.push(holder, Kind::Other);
                self.holder.insert(id_hash(call), id_hash(holder));
            }
            Some(EventType::ToolCallResult) => {
                let (Some(id), Some(call)) = (ev.s("messageId"), ev.s("toolCallId")) else {
                    return;
                };
                let entry = (id_hash(id), Kind::Tool, id.to_string());
                self.ids.insert(entry.0);
                // After the message holding the call and the results filed after it already.
                let holder = self.holder.get(&id_hash(call)).copied();
                let at = holder.and_then(|h| self.list.iter().position(|(x, ..)| *x == h));
                let at = at.map_or(self.list.len(), |at| {
                    let after = self.list[at + 1..].iter();
                    at + 1 + after.take_while(|(_, k, ..)| *k == Kind::Tool).count()
                });
                self.list.insert(at, entry);
                self.limit();
            }
            Some(EventType::MessagesSnapshot) => {
                if let Some(list) = ev.messages() {
                    self.snapshot(&list, ctx);
                }
            }
            _ => {}
        }
    }

    /// The client's list after snapshot `listed`, and what contradicts it.
    fn snapshot(&mut self, listed: &[Msg<'_>], ctx: &mut Ctx) {
        let ids: Vec<(u64, Kind, &str)> = listed
            .iter()
            .filter_map(|m| Some((id_hash(m.id()?), Kind::of_role(m.role()), m.id()?)))
            .collect();
        let named: HashSet<u64, foldhash::fast::RandomState> =
            ids.iter().map(|(h, ..)| *h).collect();
        let lists = |k: Kind| ids.iter().any(|(_, kind, _)| *kind == k);
        let (reasoning, activity) = (lists(Kind::Reasoning), lists(Kind::Activity));
        let stays =
            |k: Kind| (k == Kind::Reasoning && !reasoning) || (k == Kind::Activity && !activity);
        let mut next = std::mem::take(&mut self.list);
        next.retain(|(h, k, ..)| named.contains(h) || stays(*k));
        let held: HashSet<u64, foldhash::fast::RandomState> =
            next.iter().map(|(h, ..)| *h).collect();
        for (h, k, id) in &ids {
            if !held.contains(h) {
                next.push((*h, *k, id.to_string()));
            }
        }
        // The snapshot's messages in the client's order, against the snapshot's.
        let order = next.iter().filter(|(h, ..)| named.contains(h));
        let first_off =
            (ids.iter().zip(order).enumerate()).find(|(_, ((want, ..), (got, ..)))| want != got);
        if let Some((i, ((_, _, want), (_, _, got)))) = first_off {
            let msg = format!("MESSAGES_SNAPSHOT lists '{want}' as message {i}, but a client that followed the stream holds '{got}' there: the snapshot does not reorder what it holds and appends what it never held");
            ctx.report("AGX315", vec![want.to_string(), got.to_string()], msg);
        }
        self.ids.clear();
        self.ids.extend(next.iter().map(|(h, ..)| *h));
        self.list = next;
        self.holder
            .retain(|_, m| held.contains(m) || named.contains(m));
        // The client files a result after the assistant message that lists its call.
        for m in listed {
            let Some(id) = m.id() else {
                continue;
            };
            for call in m.call_ids() {
                self.holder.insert(id_hash(call), id_hash(id));
            }
        }
        self.limit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Config;
    use serde_json::{json, Value};

    fn rules(events: &[Value]) -> Vec<String> {
        let mut s = SnapshotOrder::default();
        let mut ctx = Ctx::new("t".into(), Config::default());
        for e in events {
            s.feed(&Ev::of(e), &mut ctx);
        }
        ctx.out.drain(..).map(|f| f.message).collect()
    }

    fn text(id: &str) -> Value {
        json!({"type":"TEXT_MESSAGE_START","messageId":id,"role":"assistant"})
    }

    fn snap(ids: &[(&str, &str)]) -> Value {
        let list: Vec<Value> = ids
            .iter()
            .map(|(id, role)| json!({"id": id, "role": role, "content": "x"}))
            .collect();
        json!({"type":"MESSAGES_SNAPSHOT","messages":list})
    }

    #[test]
    fn a_snapshot_that_puts_the_input_after_the_answer_is_reported() {
        let got = rules(&[text("a"), snap(&[("u", "user"), ("a", "assistant")])]);
        assert_eq!(got.len(), 1);
        assert!(
            got[0].contains("lists 'u' as message 0") && got[0].contains("holds 'a'"),
            "{got:?}"
        );
        // The input sent first (RUN_STARTED.input, or an early snapshot): nothing to report.
        let input = json!({"type":"RUN_STARTED","threadId":"t","runId":"r",
            "input":{"messages":[{"id":"u","role":"user","content":"q"}]}});
        assert!(rules(&[input, text("a"), snap(&[("u", "user"), ("a", "assistant")])]).is_empty());
        let early = snap(&[("u", "user")]);
        assert!(rules(&[early, text("a"), snap(&[("u", "user"), ("a", "assistant")])]).is_empty());
    }

    #[test]
    fn a_result_under_another_id_is_reported() {
        let call = json!({"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f","parentMessageId":"a"});
        let result = json!({"type":"TOOL_CALL_RESULT","messageId":"result-c","toolCallId":"c","content":"r"});
        let got = rules(&[
            call.clone(),
            result.clone(),
            text("b"),
            snap(&[("a", "assistant"), ("t", "tool"), ("b", "assistant")]),
        ]);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].contains("lists 't' as message 1"), "{got:?}");
        // Under the snapshot's id it goes after its call's message: nothing to report, and a
        // reasoning message the snapshot does not list stays.
        let result =
            json!({"type":"TOOL_CALL_RESULT","messageId":"t","toolCallId":"c","content":"r"});
        let reasoning = json!({"type":"REASONING_MESSAGE_START","messageId":"b:reasoning:0","role":"reasoning"});
        assert!(rules(&[
            call.clone(),
            text("b"),
            reasoning,
            result,
            snap(&[("a", "assistant"), ("t", "tool"), ("b", "assistant")])
        ])
        .is_empty());
        // A streamed message the snapshot leaves out is removed in place: no contradiction.
        assert!(rules(&[text("a"), snap(&[("a2", "assistant")])]).is_empty());
    }
}
