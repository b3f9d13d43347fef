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
//! - `RUN_FINISHED.outcome.pendingToolCallIds` is dropped: 0.0.59's success outcome is a strict
//!   `{type}` object (1.0 added the field).

use serde_json::{Map, Value};

use crate::json::Field;

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
    /// `Err(ev)` gives back an event this mode leaves unchanged.
    pub fn rewrite(&mut self, ev: Value, out: &mut Vec<Value>) -> Result<(), Value> {
        let kind = ev.field_str("type").unwrap_or_default();
        let id = ev.field_str("messageId").unwrap_or_default();
        let ts = ev.field("timestamp").cloned();
        match kind {
            "REASONING_START" => {
                self.close_other(id, &ts, out);
                self.start(id, &ts, out);
            }
            "REASONING_MESSAGE_START" => self.message(id, &ts, out),
            "REASONING_MESSAGE_CONTENT" => {
                self.message(id, &ts, out);
                let delta = ev.field("delta").cloned().unwrap_or_default();
                out.push(event("THINKING_TEXT_MESSAGE_CONTENT", &ts, Some(delta)));
            }
            "REASONING_MESSAGE_END" => {
                if let Some(step) = self.open.as_mut().filter(|s| s.id == id && s.message) {
                    step.message = false;
                    out.push(event("THINKING_TEXT_MESSAGE_END", &ts, None));
                }
            }
            "REASONING_END" => {
                if self.open.as_ref().is_some_and(|s| s.id == id) {
                    self.close(&ts, out);
                }
            }
            "REASONING_ENCRYPTED_VALUE" => {}
            "RUN_FINISHED"
                if ev
                    .field("outcome")
                    .and_then(|o| o.field("pendingToolCallIds"))
                    .is_some() =>
            {
                let mut ev = ev;
                if let Some(outcome) = ev.get_mut("outcome").and_then(Value::as_object_mut) {
                    outcome.shift_remove("pendingToolCallIds");
                }
                out.push(ev);
            }
            _ => return Err(ev),
        }
        Ok(())
    }

    /// A step for `id` with its message open (opening what is missing).
    fn message(&mut self, id: &str, ts: &Option<Value>, out: &mut Vec<Value>) {
        self.close_other(id, ts, out);
        if self.open.is_none() {
            self.start(id, ts, out);
        }
        if let Some(step) = self.open.as_mut().filter(|s| !s.message) {
            step.message = true;
            out.push(event("THINKING_TEXT_MESSAGE_START", ts, None));
        }
    }

    fn start(&mut self, id: &str, ts: &Option<Value>, out: &mut Vec<Value>) {
        if self.open.is_none() {
            self.open = Some(Step {
                id: id.to_string(),
                message: false,
            });
            out.push(event("THINKING_START", ts, None));
        }
    }

    /// Closes the open step when it shows another reasoning id.
    fn close_other(&mut self, id: &str, ts: &Option<Value>, out: &mut Vec<Value>) {
        if self.open.as_ref().is_some_and(|s| s.id != id) {
            self.close(ts, out);
        }
    }

    fn close(&mut self, ts: &Option<Value>, out: &mut Vec<Value>) {
        if let Some(step) = self.open.take() {
            if step.message {
                out.push(event("THINKING_TEXT_MESSAGE_END", ts, None));
            }
            out.push(event("THINKING_END", ts, None));
        }
    }
}

/// A THINKING_* event: `type`, `timestamp` when the event it stands for had one, `delta`.
fn event(kind: &str, ts: &Option<Value>, delta: Option<Value>) -> Value {
    let mut m = Map::with_capacity(3);
    m.insert("type".into(), Value::String(kind.into()));
    if let Some(ts) = ts {
        m.insert("timestamp".into(), ts.clone());
    }
    if let Some(delta) = delta {
        m.insert("delta".into(), delta);
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rewrite(events: Vec<Value>) -> Vec<String> {
        let mut c = ThinkingCompat::default();
        let mut out = vec![];
        for ev in events {
            if let Err(ev) = c.rewrite(ev, &mut out) {
                out.push(ev);
            }
        }
        out.iter()
            .map(|e| {
                let t = e["type"].as_str().unwrap_or_default();
                match e.get("delta").and_then(Value::as_str) {
                    Some(d) => format!("{t} {d}"),
                    None => t.to_string(),
                }
            })
            .collect()
    }

    fn r(kind: &str, id: &str) -> Value {
        json!({"type": kind, "timestamp": 5, "messageId": id})
    }

    fn content(id: &str, delta: &str) -> Value {
        json!({"type": "REASONING_MESSAGE_CONTENT", "messageId": id, "delta": delta})
    }

    #[test]
    fn one_span_is_renamed_with_ids_dropped() {
        let mut c = ThinkingCompat::default();
        let mut out = vec![];
        for ev in [
            r("REASONING_START", "a"),
            json!({"type": "REASONING_MESSAGE_START", "timestamp": 5, "messageId": "a", "role": "reasoning"}),
            json!({"type": "REASONING_MESSAGE_CONTENT", "timestamp": 6, "messageId": "a", "delta": "hm"}),
            r("REASONING_MESSAGE_END", "a"),
            r("REASONING_END", "a"),
        ] {
            assert!(c.rewrite(ev, &mut out).is_ok());
        }
        let text: Vec<String> = out.iter().map(Value::to_string).collect();
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
            r("REASONING_START", "a"),
            r("REASONING_MESSAGE_START", "a"),
            content("a", "1"),
            r("REASONING_START", "b"),
            r("REASONING_MESSAGE_START", "b"),
            content("b", "2"),
            content("a", "3"),
            r("REASONING_MESSAGE_END", "b"),
            r("REASONING_END", "b"),
            r("REASONING_MESSAGE_END", "a"),
            r("REASONING_END", "a"),
        ]);
        assert_eq!(
            got,
            [
                "THINKING_START",
                "THINKING_TEXT_MESSAGE_START",
                "THINKING_TEXT_MESSAGE_CONTENT 1",
                "THINKING_TEXT_MESSAGE_END",
                "THINKING_END",
                "THINKING_START",
                "THINKING_TEXT_MESSAGE_START",
                "THINKING_TEXT_MESSAGE_CONTENT 2",
                "THINKING_TEXT_MESSAGE_END",
                "THINKING_END",
                "THINKING_START",
                "THINKING_TEXT_MESSAGE_START",
                "THINKING_TEXT_MESSAGE_CONTENT 3",
                "THINKING_TEXT_MESSAGE_END",
                "THINKING_END",
            ]
        );
        // Whatever the order, starts and ends alternate.
        let mut depth = 0;
        for t in &got {
            if t == "THINKING_START" {
                depth += 1;
            } else if t == "THINKING_END" {
                depth -= 1;
            }
            assert!((0..=1).contains(&depth), "{got:?}");
        }
    }

    #[test]
    fn encrypted_values_and_pending_call_ids_are_dropped() {
        let mut c = ThinkingCompat::default();
        let mut out = vec![];
        let enc = json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": "message", "entityId": "a", "encryptedValue": "x"});
        assert!(c.rewrite(enc, &mut out).is_ok());
        assert!(out.is_empty());
        let fin = json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
            "outcome": {"type": "success", "pendingToolCallIds": ["c1"]}});
        assert!(c.rewrite(fin, &mut out).is_ok());
        assert_eq!(
            out[0].to_string(),
            r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"success"}}"#
        );
        let plain = json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "outcome": {"type": "success"}});
        assert_eq!(c.rewrite(plain.clone(), &mut out), Err(plain));
        let text = json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"});
        assert_eq!(c.rewrite(text.clone(), &mut out), Err(text));
    }
}
