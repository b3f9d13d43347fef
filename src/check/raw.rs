//! Raw LangGraph input checks (AGX6xx): v3 `seq` order, v3 message and content-block
//! lifecycles, tools that never finish, runs with no terminal, and bad lines.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::Ctx;
use crate::input::Record;
use crate::model::ModelEvent;

#[derive(Default)]
pub struct Raw {
    last_seq: Option<i64>,
    /// Open v3 message per namespace, with its started and finished blocks.
    messages: BTreeMap<String, (String, BTreeSet<String>)>,
    saw_block_start: bool,
    tools: BTreeMap<String, String>,
}

/// The v3 event of a record (plain, or the `data` of an SDK part).
fn v3_event(v: &Value) -> Option<&Value> {
    let is = |x: &Value| {
        x.get("type").and_then(Value::as_str) == Some("event")
            && x.get("method").is_some_and(Value::is_string)
    };
    if is(v) {
        return Some(v);
    }
    v.get("data").filter(|d| is(d))
}

fn block_key(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => "0".into(),
    }
}

impl Raw {
    pub fn record(&mut self, rec: &Record, ctx: &mut Ctx) {
        let Some(ev) = v3_event(&rec.value) else {
            return;
        };
        if let Some(seq) = ev.get("seq").and_then(Value::as_i64) {
            if let Some(last) = self.last_seq {
                if seq == last {
                    ctx.report(
                        "AGX602",
                        vec![seq.to_string()],
                        format!("seq {seq} repeats the previous event's seq"),
                    );
                } else if seq < last {
                    ctx.report(
                        "AGX603",
                        vec![seq.to_string()],
                        format!("seq {seq} comes after seq {last}"),
                    );
                } else if seq > last + 1 {
                    ctx.report(
                        "AGX601",
                        vec![seq.to_string()],
                        format!(
                            "seq jumps from {last} to {seq}: {} event(s) missing",
                            seq - last - 1
                        ),
                    );
                }
            }
            if self.last_seq.is_none_or(|l| seq > l) {
                self.last_seq = Some(seq);
            }
        }
        if ev.get("method").and_then(Value::as_str) != Some("messages") {
            return;
        }
        let params = ev.get("params").unwrap_or(&Value::Null);
        let ns = params
            .get("namespace")
            .map(|n| n.to_string())
            .unwrap_or_default();
        let data = match params.get("data") {
            Some(Value::Array(a)) if !a.is_empty() => &a[0],
            Some(d) => d,
            None => return,
        };
        let event = data.get("event").and_then(Value::as_str).unwrap_or("");
        let index = block_key(data.get("index"));
        match event {
            "message-start" => {
                let id = data
                    .get("id")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                if let Some((prev, _)) = self.messages.get(&ns) {
                    ctx.report(
                        "AGX604",
                        vec![prev.clone(), id.clone()],
                        format!("message '{id}' starts while message '{prev}' is still open in the same namespace"),
                    );
                }
                self.messages.insert(ns, (id, BTreeSet::new()));
            }
            "content-block-start" => {
                self.saw_block_start = true;
                match self.messages.get_mut(&ns) {
                    Some((_, blocks)) => {
                        blocks.insert(index);
                    }
                    None => ctx.report(
                        "AGX605",
                        vec![index],
                        "content-block-start outside a message".into(),
                    ),
                }
            }
            "content-block-delta" | "content-block-finish" => match self.messages.get_mut(&ns) {
                Some((id, blocks)) => {
                    let known = blocks.contains(&index);
                    if !known && self.saw_block_start {
                        ctx.report(
                            "AGX605",
                            vec![id.clone(), index.clone()],
                            format!("{event} for block {index} of message '{id}' without content-block-start"),
                        );
                    }
                    if event == "content-block-finish" {
                        blocks.remove(&index);
                    }
                }
                None => ctx.report("AGX605", vec![index], format!("{event} outside a message")),
            },
            "message-finish" | "error" => match self.messages.remove(&ns) {
                Some((id, blocks)) => {
                    if !blocks.is_empty() {
                        let b: Vec<String> = blocks.into_iter().collect();
                        ctx.report(
                            "AGX605",
                            vec![id.clone()],
                            format!(
                                "message '{id}' finishes with block(s) {} never finished",
                                b.join(", ")
                            ),
                        );
                    }
                }
                None => ctx.report(
                    "AGX604",
                    vec![],
                    format!("message-{event} without message-start"),
                ),
            },
            _ => {}
        }
    }

    pub fn model(&mut self, ev: &ModelEvent, ctx: &mut Ctx) {
        match ev {
            ModelEvent::ToolStart {
                tool_call_id, name, ..
            } => {
                self.tools.insert(tool_call_id.clone(), name.clone());
            }
            ModelEvent::ToolEnd { tool_call_id, .. } => {
                self.tools.remove(tool_call_id);
            }
            ModelEvent::RunFailed(_) | ModelEvent::Interrupt(_) => self.tools.clear(),
            ModelEvent::RunEnd | ModelEvent::RunStart { .. } => self.unfinished_tools(ctx),
            ModelEvent::RunIncomplete { reason } => {
                self.unfinished_tools(ctx);
                ctx.report(
                    "AGX607",
                    vec![],
                    format!("the run has no terminal event: {reason}"),
                );
            }
            _ => {}
        }
    }

    fn unfinished_tools(&mut self, ctx: &mut Ctx) {
        for (id, name) in std::mem::take(&mut self.tools) {
            ctx.report(
                "AGX606",
                vec![id.clone()],
                format!("tool '{name}' (call '{id}') started and never finished or failed"),
            );
        }
    }

    /// End of the file.
    pub fn finish(&mut self, ctx: &mut Ctx) {
        for (_, (id, _)) in std::mem::take(&mut self.messages) {
            ctx.report(
                "AGX604",
                vec![id.clone()],
                format!("message '{id}' never finishes"),
            );
        }
        self.unfinished_tools(ctx);
    }
}
