//! `--compat thinking`: the stream as a client of the THINKING era reads it (`@ag-ui/client`
//! 0.0.42–0.0.59, which TDesign Chat 0.5.2 builds on).
//!
//! - `REASONING_*` become `THINKING_START`, `THINKING_TEXT_MESSAGE_START/CONTENT/END` and
//!   `THINKING_END`, which carry no ids: there is one thinking step at a time. Reasoning spans
//!   that overlap are laid one after the other: a span that starts (or continues) while
//!   another is open closes the open one first, and the closed span's own end is dropped; a
//!   span continued after it was closed opens a new step. So no `THINKING_START` is ever sent
//!   while one is open, and no `THINKING_TEXT_MESSAGE_START` while a thinking message is.
//! - `REASONING_ENCRYPTED_VALUE` is dropped: 0.0.42 has no such event and rejects the stream.
//! - `SUBAGENT_*` are dropped and `subagentRunId` is left out: no 0.0.x client knows
//!   sub-agents (0.0.59's event union has no `SUBAGENT_*` type, and its schemas strip the
//!   unknown key). A sub-agent's messages and tool calls stay, read as the run's own.
//! - `RUN_FINISHED.outcome.pendingToolCallIds` is dropped: 0.0.59's success outcome is a strict
//!   `{type}` object (1.0 added the field).
//!
//! Passed-through AG-UI events are renamed as they are ([`Event::into_thinking`]).

use serde_json::Value;

use crate::agui::Event;

/// An event's timestamp.
type Ts = Option<i64>;

/// The thinking step in progress.
#[derive(Debug)]
struct Step {
    /// The reasoning message id it shows.
    id: String,
    /// Whether its `THINKING_TEXT_MESSAGE_START` was sent and not ended.
    message: bool,
}

/// Rewrites events for a THINKING-era client ([`ThinkingCompat::rewrite`]).
#[derive(Debug, Default)]
pub struct ThinkingCompat {
    open: Option<Step>,
}

impl ThinkingCompat {
    /// `ev` as the 0.x client reads it, appended to `out` (none, one or several events).
    pub fn rewrite(&mut self, ev: Event, out: &mut Vec<Event>) {
        let Some(mut ev) = ev.without_subagents() else {
            return;
        };
        let timestamp = ev.timestamp();
        match ev {
            Event::ReasoningStart { message_id, .. } => {
                self.close_other(&message_id, timestamp, out);
                self.start(&message_id, timestamp, out);
            }
            Event::ReasoningMessageStart { message_id, .. } => {
                self.message(&message_id, timestamp, out)
            }
            Event::ReasoningMessageContent {
                message_id, delta, ..
            } => {
                self.message(&message_id, timestamp, out);
                out.push(Event::ThinkingTextMessageContent { timestamp, delta });
            }
            Event::ReasoningMessageEnd { message_id, .. } => {
                let open = self.open.as_mut();
                if let Some(step) = open.filter(|s| s.id == message_id && s.message) {
                    step.message = false;
                    out.push(Event::ThinkingTextMessageEnd { timestamp });
                }
            }
            Event::ReasoningEnd { message_id, .. } => {
                if self.open.as_ref().is_some_and(|s| s.id == message_id) {
                    self.close(timestamp, out);
                }
            }
            Event::ReasoningEncryptedValue { .. } => {}
            Event::RunFinished {
                outcome: Value::Object(ref mut o),
                ..
            } => {
                o.shift_remove("pendingToolCallIds");
                o.shift_remove("pendingToolCallCount");
                // No 0.0.x interrupt knows sub-agents.
                let ints = o.get_mut("interrupts").and_then(Value::as_array_mut);
                for i in ints.into_iter().flatten().filter_map(Value::as_object_mut) {
                    i.shift_remove("subagentRunId");
                }
                out.push(ev);
            }
            ev => out.push(ev.into_thinking()),
        }
    }

    /// A step for `id` with its message open (opening what is missing).
    fn message(&mut self, id: &str, ts: Ts, out: &mut Vec<Event>) {
        self.close_other(id, ts, out);
        self.start(id, ts, out);
        if let Some(step) = self.open.as_mut().filter(|s| !s.message) {
            step.message = true;
            out.push(Event::ThinkingTextMessageStart { timestamp: ts });
        }
    }

    fn start(&mut self, id: &str, ts: Ts, out: &mut Vec<Event>) {
        if self.open.is_none() {
            self.open = Some(Step {
                id: id.to_string(),
                message: false,
            });
            out.push(Event::ThinkingStart { timestamp: ts });
        }
    }

    /// Closes the open step when it shows another reasoning id.
    fn close_other(&mut self, id: &str, ts: Ts, out: &mut Vec<Event>) {
        if self.open.as_ref().is_some_and(|s| s.id != id) {
            self.close(ts, out);
        }
    }

    fn close(&mut self, ts: Ts, out: &mut Vec<Event>) {
        if let Some(step) = self.open.take() {
            if step.message {
                out.push(Event::ThinkingTextMessageEnd { timestamp: ts });
            }
            out.push(Event::ThinkingEnd { timestamp: ts });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agui::Role;
    use serde_json::json;

    fn rewritten(events: Vec<Event>) -> Vec<Event> {
        let mut c = ThinkingCompat::default();
        let mut out = vec![];
        for ev in events {
            c.rewrite(ev, &mut out);
        }
        out
    }

    /// The types (and deltas) of the events rewritten.
    fn rewrite(events: Vec<Event>) -> Vec<String> {
        rewritten(events)
            .iter()
            .map(|e| {
                let v = e.to_value();
                let t = v["type"].as_str().unwrap_or_default().to_string();
                match v.get("delta").and_then(Value::as_str) {
                    Some(d) => format!("{t} {d}"),
                    None => t,
                }
            })
            .collect()
    }

    fn start(id: &str) -> Event {
        Event::ReasoningStart {
            subagent_run_id: None,
            timestamp: Some(5),
            message_id: id.into(),
        }
    }
    fn msg_start(id: &str) -> Event {
        Event::ReasoningMessageStart {
            subagent_run_id: None,
            timestamp: Some(5),
            message_id: id.into(),
            role: Role::Reasoning,
        }
    }
    fn content(id: &str, delta: &str) -> Event {
        Event::ReasoningMessageContent {
            subagent_run_id: None,
            timestamp: Some(6),
            message_id: id.into(),
            delta: delta.into(),
        }
    }
    fn msg_end(id: &str) -> Event {
        Event::ReasoningMessageEnd {
            subagent_run_id: None,
            timestamp: Some(5),
            message_id: id.into(),
        }
    }
    fn end(id: &str) -> Event {
        Event::ReasoningEnd {
            subagent_run_id: None,
            timestamp: Some(5),
            message_id: id.into(),
        }
    }

    #[test]
    fn one_span_is_renamed_with_ids_dropped() {
        let out = rewritten(vec![
            start("a"),
            msg_start("a"),
            content("a", "hm"),
            msg_end("a"),
            end("a"),
        ]);
        let text: Vec<String> = out
            .iter()
            .map(|e| serde_json::to_string(e).unwrap_or_default())
            .collect();
        assert_eq!(
            text,
            [
                r#"{"type":"THINKING_START","timestamp":5}"#,
                r#"{"type":"THINKING_TEXT_MESSAGE_START","timestamp":5}"#,
                r#"{"type":"THINKING_TEXT_MESSAGE_CONTENT","timestamp":6,"delta":"hm"}"#,
                r#"{"type":"THINKING_TEXT_MESSAGE_END","timestamp":5}"#,
                r#"{"type":"THINKING_END","timestamp":5}"#,
            ]
        );
    }

    /// Two spans that overlap: the second closes the first, the first's late events start
    /// a step of their own, and ends of closed steps are dropped.
    #[test]
    fn overlapping_spans_never_nest() {
        let got = rewrite(vec![
            start("a"),
            msg_start("a"),
            content("a", "1"),
            start("b"),
            msg_start("b"),
            content("b", "2"),
            content("a", "3"),
            msg_end("b"),
            end("b"),
            msg_end("a"),
            end("a"),
        ]);
        let step = |d: &str| {
            [
                "THINKING_START".to_string(),
                "THINKING_TEXT_MESSAGE_START".into(),
                format!("THINKING_TEXT_MESSAGE_CONTENT {d}"),
                "THINKING_TEXT_MESSAGE_END".into(),
                "THINKING_END".into(),
            ]
        };
        assert_eq!(got, [step("1"), step("2"), step("3")].concat());
    }

    #[test]
    fn encrypted_values_and_pending_call_ids_are_dropped() {
        let mut c = ThinkingCompat::default();
        let mut out = vec![];
        c.rewrite(
            Event::ReasoningEncryptedValue {
                subagent_run_id: None,
                timestamp: None,
                subtype: crate::agui::Subtype::Message,
                entity_id: "a".into(),
                encrypted_value: "x".into(),
            },
            &mut out,
        );
        assert!(out.is_empty());
        let fin = |outcome: Value| Event::RunFinished {
            timestamp: None,
            thread_id: "t".into(),
            run_id: "r".into(),
            outcome,
            usage: None,
        };
        c.rewrite(
            fin(json!({"type": "success", "pendingToolCallIds": ["c1"]})),
            &mut out,
        );
        assert_eq!(
            serde_json::to_string(&out[0]).unwrap_or_default(),
            r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"success"}}"#
        );
        let text = Event::TextMessageStart {
            subagent_run_id: None,
            timestamp: None,
            message_id: "m".into(),
            role: Role::Assistant,
        };
        c.rewrite(text.clone(), &mut out);
        assert_eq!(out[1], text);
    }
}
