//! The message lists the log shows (states, a step's input): what the client does not hold
//! yet is sent, and tool results only a state shows are answered.

use super::*;

impl Mapper {
    /// A message list the log shows (a state, a step's input): what the client does not hold
    /// yet is sent, in the list's order. The run's first list, when the run has sent no
    /// message, is sent whole as a `MESSAGES_SNAPSHOT` (the run's input and the thread's
    /// history, which v3 does not echo); after that an AI message no model streamed (a node
    /// or middleware wrote it) is sent as a text message with its calls.
    pub(super) fn follow_conversation(&mut self, list: &[MessageRef<'_>], out: &mut Vec<Event>) {
        if let Some(run) = self.run.as_mut() {
            run.sent_results.clear();
        }
        let first = {
            let client = self.client.get_mut();
            let first = !client.run_viewed && !client.run_streamed;
            client.run_viewed = true;
            first
        };
        // A result of this run's calls goes as TOOL_CALL_RESULT (results_from_state), not here.
        let waiting = |this: &Self, m: &MessageRef<'_>| {
            let call = m.tool_call();
            let run = this.run.as_ref();
            call.is_some_and(|c| run.is_some_and(|r| r.tools.get(&c).is_some_and(|t| !t.result)))
        };
        // The part of the list after the last message the client holds.
        let mut new_from = 0;
        let mut any_new = false;
        for (i, m) in list.iter().enumerate().rev() {
            if waiting(self, m) {
                continue;
            }
            let (kind, id) = m.kind_and_id();
            let id = id.unwrap_or_else(|| format!("msg-{i}"));
            let client = self.client.get_mut();
            let held = match kind.as_deref() {
                Some("ai") => client.holds_ai(&id),
                _ => client.holds(&id),
            };
            if held {
                new_from = i + 1;
                break;
            }
            any_new = true;
        }
        if !any_new {
            return;
        }
        let orphans = std::mem::take(&mut self.client.get_mut().run_orphans);
        let messages: Option<Vec<Value>> = first.then(|| {
            (list.iter().enumerate())
                .filter(|(_, m)| !waiting(self, m))
                .filter_map(|(i, m)| m.to_agui(i))
                .collect()
        });
        // Calls started with no parent message before the list: sent whole only when the list
        // has the message that made each (the client then files the call there).
        let messages = messages.filter(|list| {
            orphans.iter().all(|call| {
                list.iter().any(|m| {
                    let calls = m.get("toolCalls").and_then(Value::as_array);
                    calls.is_some_and(|c| {
                        c.iter()
                            .any(|c| c.get("id").and_then(Value::as_str) == Some(call))
                    })
                })
            })
        });
        if let Some(mut messages) = messages {
            self.client.get_mut().rename(&mut messages);
            self.calls_shown(&messages);
            let e = Event::MessagesSnapshot {
                timestamp: self.timestamp,
                messages,
            };
            self.push(e, out);
            return;
        }
        if self.opts.text == TextPolicy::Final {
            return;
        }
        for (i, m) in list.iter().enumerate().skip(new_from) {
            if m.kind_and_id().0.as_deref() != Some("ai") {
                continue;
            }
            let Some(msg) = m.to_agui(i) else { continue };
            let Some(id) = msg.get("id").and_then(Value::as_str).map(str::to_string) else {
                continue;
            };
            if self.client.get_mut().holds_ai(&id) {
                continue;
            }
            let text = msg.get("content").and_then(Value::as_str).unwrap_or("");
            if !text.is_empty() {
                self.emit_text_start(&id, out);
                self.emit_text_content(id.clone(), text.to_string(), out);
                self.emit_text_end(&id, out);
            }
            for call in msg
                .get("toolCalls")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let (Some(call_id), Some(name)) = (
                    call.get("id").and_then(Value::as_str),
                    call.pointer("/function/name").and_then(Value::as_str),
                ) else {
                    continue;
                };
                let args = call.pointer("/function/arguments").and_then(Value::as_str);
                self.ensure_tool(call_id, name, Some(id.clone()), args, out);
                self.end_tool(call_id, out);
            }
        }
    }

    /// The calls of a `MESSAGES_SNAPSHOT`'s messages are the client's: a call answered there
    /// is answered (no second result), one not answered is started (no second start, whose
    /// arguments the client would append to the ones it holds).
    pub(super) fn calls_shown(&mut self, messages: &[Value]) {
        let answered: HashSet<&str, FastIds> = messages
            .iter()
            .filter_map(|m| m.get("toolCallId").and_then(Value::as_str))
            .collect();
        for m in messages {
            let parent = m.get("id").and_then(Value::as_str);
            for call in m
                .get("toolCalls")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let Some(id) = call.get("id").and_then(Value::as_str) else {
                    continue;
                };
                let done = answered.contains(id);
                if done {
                    self.thread_answers.insert(id.to_string(), ());
                }
                let run = self.run_mut();
                let t = run.tools.entry(id.to_string()).or_insert_with(|| ToolCall {
                    name: call
                        .pointer("/function/name")
                        .and_then(Value::as_str)
                        .unwrap_or("tool")
                        .to_string(),
                    parent: parent.map(str::to_string),
                    ended: true,
                    result: false,
                });
                t.result |= done;
            }
        }
    }

    /// Tool results only the state shows (Python v3 has no `tools` events outside create_agent):
    /// a tool message of a state's `msgs` (each with its place in the list) answers a call of
    /// this run that has no result yet. Only those tool messages are converted (as
    /// [`lc::to_agui_messages`] would, at their place in the list).
    pub(super) fn results_from_state<'a>(
        &mut self,
        msgs: impl Iterator<Item = (usize, MessageRef<'a>)>,
        out: &mut Vec<Event>,
    ) {
        let waiting =
            |this: &mut Self, call: &str| this.run_mut().tools.get(call).is_some_and(|t| !t.result);
        for (i, m) in msgs {
            let (call_id, item) = match m {
                MessageRef::Value(v) => {
                    if !lc::may_be_tool_message(v) {
                        continue;
                    }
                    let m = lc::normalize_cow(v);
                    match lc::tool_call_id(&m) {
                        Some(call) if waiting(self, call) => (
                            call.to_string(),
                            lc::to_agui_message(&m, &format!("msg-{i}")),
                        ),
                        _ => continue,
                    }
                }
                MessageRef::Shared(m) => {
                    let Some(call) = m.tool_call().filter(|c| waiting(self, c)) else {
                        continue;
                    };
                    (call.to_string(), m.to_agui(i))
                }
            };
            let Some(m) = item else {
                continue;
            };
            let content = m.get("content").cloned().unwrap_or(Value::Null);
            let result = HeldResult {
                call_id,
                name: None,
                content,
                message_id: m.get("id").and_then(Value::as_str).map(str::to_string),
                error: m.get("error").is_some(),
            };
            self.tool_end(result, out);
        }
    }
}

/// The results a run keeps for its interrupted end ([`Run::sent_results`]), at most.
pub(super) const SENT_RESULTS: usize = 256;

/// An interrupted run's final list with the results it sent that the list does not hold
/// (pending writes of the interrupted tools node), each after the message holding its call
/// and the results already there, where the client put it: the snapshot keeps them.
pub(super) fn keep_sent_results(messages: &mut Vec<Value>, sent: Vec<Value>) {
    for r in sent {
        let call = r
            .get("toolCallId")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let answers = |m: &Value| m.get("toolCallId").and_then(Value::as_str) == Some(call);
        if messages.iter().any(answers) {
            continue;
        }
        let holds = |m: &Value| {
            let calls = m.get("toolCalls").and_then(Value::as_array);
            calls.is_some_and(|c| {
                c.iter()
                    .any(|c| c.get("id").and_then(Value::as_str) == Some(call))
            })
        };
        let Some(mut at) = messages.iter().position(holds) else {
            continue;
        };
        at += 1;
        while messages
            .get(at)
            .is_some_and(|m| m.get("role").and_then(Value::as_str) == Some("tool"))
        {
            at += 1;
        }
        messages.insert(at, r);
    }
}
