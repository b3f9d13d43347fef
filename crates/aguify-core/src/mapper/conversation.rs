//! The message lists the log shows (states, a step's input): what the client does not hold
//! yet is sent, and tool results only a state shows are answered.

use super::*;
use crate::agui::{Item, Message};

impl Mapper {
    /// A message list the log shows: what the client does not hold yet is sent, then the
    /// results the list says, then the held results that can go now.
    pub(super) fn messages_shown(&mut self, list: &[MessageRef<'_>], out: &mut Vec<Event>) {
        self.follow_conversation(list, out);
        self.results_from_state(list, out);
        self.release_held(out);
    }

    /// What the client does not hold yet of a list is sent, in the list's order. The run's
    /// first list, when the run has sent no message, is sent whole as a `MESSAGES_SNAPSHOT`
    /// (the run's input and the thread's history, which v3 does not echo); after that an AI
    /// message no model streamed (a node or middleware wrote it) is sent as a text message
    /// with its calls.
    fn follow_conversation(&mut self, list: &[MessageRef<'_>], out: &mut Vec<Event>) {
        self.run_mut().sent_results.clear();
        let first = !std::mem::replace(&mut self.client.run_began, true);
        // A result of this run's calls goes as TOOL_CALL_RESULT (results_from_state), not here.
        let waiting =
            |this: &Self, m: &MessageRef<'_>| m.tool_call().is_some_and(|c| this.unanswered(&c));
        // The part of the list after the last message the client holds: whether it has a
        // message, and the places of its AI messages (latest first).
        let (mut ais, mut any_new) = (vec![], false);
        for (i, m) in list.iter().enumerate().rev() {
            if waiting(self, m) {
                continue;
            }
            let (kind, id) = m.kind_and_id();
            let id = id.unwrap_or_else(|| format!("msg-{i}"));
            let ai = kind.as_deref() == Some("ai");
            if self.client.holds(&id) || (ai && self.client.holds_ai(&id)) {
                break;
            }
            any_new = true;
            ais.extend(ai.then_some(i));
        }
        if !any_new {
            return;
        }
        let orphans = std::mem::take(&mut self.client.run_orphans);
        let messages: Option<Vec<Item>> = first.then(|| {
            (list.iter().enumerate())
                .filter(|(_, m)| !waiting(self, m))
                .filter_map(|(i, m)| m.to_agui(i))
                .collect()
        });
        // Calls started with no parent message before the list: sent whole only when the list
        // has the message that made each (the client then files the call there).
        let made = |list: &Vec<Item>, call: &String| list.iter().any(|m| makes_call(m, call));
        if let Some(messages) = messages.filter(|l| orphans.iter().all(|c| made(l, c))) {
            return self.push_snapshot(messages, out);
        }
        if self.opts.text == TextPolicy::Final {
            return;
        }
        for msg in ais.into_iter().rev().filter_map(|i| list[i].to_agui(i)) {
            let id = msg.id;
            if self.client.holds_ai(&id) {
                continue;
            }
            if let Some(ToolContent::Text(text)) = msg.content.filter(|t| t.text() != Some("")) {
                self.text_message(id.clone(), text, out);
            }
            for call in &msg.tool_calls {
                let (call_id, f) = (&call.id, &call.function);
                self.ensure_tool(call_id, &f.name, Some(id.clone()), Some(&f.arguments), out);
                self.end_tool(call_id, out);
            }
        }
    }

    /// A `MESSAGES_SNAPSHOT` of `messages`, named as the client holds them. Sent inside a
    /// run (its first list), its calls are the client's ([`Mapper::calls_shown`]).
    pub(super) fn push_snapshot(&mut self, mut messages: Vec<Item>, out: &mut Vec<Event>) {
        self.client.rename(&mut messages);
        if self.run.is_some() {
            self.calls_shown(&messages);
        }
        // A list that reorders what the client holds (a history replaced by a summary) goes
        // as the start the client takes as it is first: what it drops then comes back after.
        let snapshot = |messages: Vec<Item>| Event::MessagesSnapshot {
            timestamp: None,
            messages: messages.into_iter().map(Message::Item).collect(),
        };
        let keep = self.client.in_order(&messages);
        if keep < messages.len() {
            self.push(snapshot(messages[..keep].to_vec()), out);
        }
        self.push(snapshot(messages), out);
    }

    /// The calls of a `MESSAGES_SNAPSHOT`'s messages are the client's: a call answered there
    /// is answered (no second result), one not answered is started (no second start, whose
    /// arguments the client would append to the ones it holds).
    fn calls_shown(&mut self, messages: &[Item]) {
        let answered: HashSet<&str, FastIds> = (messages.iter())
            .filter_map(|m| m.tool_call_id.as_deref())
            .collect();
        for m in messages {
            for call in &m.tool_calls {
                let id = call.id.as_str();
                let done = answered.contains(id);
                if done {
                    self.thread_answers.insert(id.to_string(), ());
                }
                let t = self.run_mut().tools.entry(id.to_string());
                let (name, parent) = (&call.function.name, Some(m.id.clone()));
                let t = t.or_insert_with(|| ToolCall::new(name, parent, true));
                t.result |= done;
            }
        }
    }

    /// Tool results only the state shows (Python v3 has no `tools` events outside create_agent):
    /// a tool message of a list the log shows (`msgs`) answers a call of
    /// this run that has no result yet. Only those tool messages are converted (as
    /// [`crate::agui::to_agui_messages`] would, at their place in the list).
    fn results_from_state(&mut self, msgs: &[MessageRef<'_>], out: &mut Vec<Event>) {
        for (i, m) in msgs.iter().enumerate() {
            let call = m.tool_call().filter(|c| self.unanswered(c));
            if let Some(r) = call.and_then(|c| m.tool_result(i, c.into_owned())) {
                self.tool_end(r, out);
            }
        }
    }

    /// Whether `call` is a call of the run with no result yet.
    fn unanswered(&self, call: &str) -> bool {
        let call = self.run.as_ref().and_then(|r| r.tools.get(call));
        call.is_some_and(|t| !t.result)
    }
}

/// The results a run keeps for its interrupted end ([`Run::sent_results`]), at most.
pub(super) const SENT_RESULTS: usize = 256;

/// An interrupted run's final list with the results it sent that the list does not hold
/// (pending writes of the interrupted tools node), each after the message holding its call
/// and the results already there, where the client put it: the snapshot keeps them.
pub(super) fn keep_sent_results(messages: &mut Vec<Item>, sent: Vec<Item>) {
    for r in sent {
        let call = r.tool_call_id.as_deref().unwrap_or_default();
        let answered = messages
            .iter()
            .any(|m| m.tool_call_id.as_deref() == Some(call));
        let at = messages.iter().position(|m| makes_call(m, call));
        let Some(at) = at.filter(|_| !answered) else {
            continue;
        };
        let after = messages[at + 1..].iter();
        let results = after.take_while(|m| m.role == Role::Tool).count();
        messages.insert(at + 1 + results, r);
    }
}

/// Whether AG-UI message `m` made call `id`.
fn makes_call(m: &Item, id: &str) -> bool {
    m.tool_calls.iter().any(|c| c.id == id)
}
