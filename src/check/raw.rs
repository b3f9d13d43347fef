//! Raw LangGraph input checks (AGX6xx): v3 `seq` order, v3 message and content-block
//! lifecycles, tools that never finish, runs with no terminal, and bad lines.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde_json::Value;

use super::Ctx;
use crate::input::Record;
use crate::model::{ModelEvent, ToolResult};
use crate::wire::v3::{Data, Message, Params};

#[derive(Default)]
pub struct Raw {
    /// The file of the last v3 record: several files converted together are one AG-UI
    /// stream, but each is its own LangGraph stream (its v3 `seq` starts again).
    file: Option<Arc<str>>,
    last_seq: Option<i64>,
    /// The file's first integer `seq` (a run recorded after another starts back at it).
    first_seq: Option<i64>,
    /// Open v3 message per namespace, with its started and finished blocks.
    messages: BTreeMap<String, (String, BTreeSet<String>)>,
    saw_block_start: bool,
    tools: BTreeMap<String, String>,
}

impl Raw {
    pub fn record(&mut self, rec: &Record, ctx: &mut Ctx) {
        let Some(ev) = rec.v3.as_deref() else {
            return;
        };
        // Another input file (an `Arc` compares pointers first): its `seq` starts again.
        if self.file.as_ref() != Some(&rec.origin.file) {
            (self.last_seq, self.first_seq) = (None, None);
            self.file = Some(rec.origin.file.clone());
        }
        // langgraph-api forwards no `messages` event of the legacy `[message, metadata]`
        // shape (a model that does not stream sends its whole message so), leaving its `seq`
        // out; the root state after it holds that message: a gap before a root `values`
        // event is that, not a lost event (issue 22.6).
        let root_values = ev.method == "values"
            && ev
                .namespace()
                .is_none_or(|n| n.as_array().is_some_and(Vec::is_empty));
        self.seq(ev.seq.as_ref().and_then(Value::as_i64), root_values, ctx);
        // Only a `messages` payload with an `event` string has checks; `key` is its namespace's
        // key as the v3 adapter keys it (its parts joined by `|`).
        if let Ok(Params {
            data: Data::Message(m),
            key,
            ..
        }) = &ev.params
        {
            self.message_event(m, key, ctx);
        }
    }

    /// The `seq` checks (AGX601–603) of a v3 event's integer `seq`.
    fn seq(&mut self, seq: Option<i64>, root_values: bool, ctx: &mut Ctx) {
        let Some(seq) = seq else {
            return;
        };
        let first = *self.first_seq.get_or_insert(seq);
        // The file's first seq, or the next run recorded in it: its seq starts again.
        let restarts = |&last: &i64| crate::wire::v3::seq_restarts(seq, first, last);
        let Some(last) = self.last_seq.filter(|l| !restarts(l)) else {
            self.last_seq = Some(seq);
            return;
        };
        let mut report = |rule, msg| ctx.report(rule, vec![seq.to_string()], msg);
        if seq == last {
            report(
                "AGX602",
                format!("seq {seq} repeats the previous event's seq"),
            );
        } else if seq < last {
            report("AGX603", format!("seq {seq} comes after seq {last}"));
        } else if seq > last + 1 && !root_values {
            let n = crate::text::count((seq - last - 1) as usize, "event");
            report(
                "AGX601",
                format!("seq jumps from {last} to {seq}: {n} missing"),
            );
        }
        self.last_seq = Some(last.max(seq));
    }

    /// The lifecycle checks (AGX604/605) of `messages` event `m` in the namespace of key `ns`.
    fn message_event(&mut self, m: &Message, ns: &str, ctx: &mut Ctx) {
        let event = m.event();
        match event {
            "message-start" => {
                let id = m.id.0.as_ref().and_then(Value::as_str);
                let id = id.unwrap_or("").to_string();
                if let Some((prev, _)) = self.messages.get(ns) {
                    let msg = format!("message '{id}' starts while message '{prev}' is still open in the same namespace");
                    ctx.report("AGX604", vec![prev.clone(), id.clone()], msg);
                }
                self.messages.insert(ns.to_string(), (id, BTreeSet::new()));
            }
            "content-block-start" | "content-block-delta" | "content-block-finish" => {
                let start = event == "content-block-start";
                self.saw_block_start |= start;
                // Keyed as the v3 adapter keys it.
                let index = m.index.0.as_ref();
                let index = index.map_or_else(|| "0".into(), crate::adapter::content::block_key);
                // Outside a message, the event is the v3 adapter's bad line (AGX605).
                let Some((id, blocks)) = self.messages.get_mut(ns) else {
                    return;
                };
                if start {
                    blocks.insert(index);
                    return;
                }
                if !blocks.contains(&index) && self.saw_block_start {
                    let msg = format!(
                        "{event} for block {index} of message '{id}' without content-block-start"
                    );
                    ctx.report("AGX605", vec![id.clone(), index.clone()], msg);
                }
                if event == "content-block-finish" {
                    blocks.remove(&index);
                }
            }
            // Without a message open, the event is the v3 adapter's bad line (AGX604).
            "message-finish" | "error" => match self.messages.remove(ns) {
                Some((id, blocks)) if !blocks.is_empty() => {
                    let what = if blocks.len() == 1 { "block" } else { "blocks" };
                    let b = blocks.into_iter().collect::<Vec<_>>().join(", ");
                    let msg = format!("message '{id}' finishes with {what} {b} never finished");
                    ctx.report("AGX605", vec![id], msg);
                }
                _ => {}
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
            ModelEvent::ToolEnd(ToolResult { tool_call_id, .. }) => {
                self.tools.remove(tool_call_id);
            }
            // A cancelled run stops mid-message by design: what it leaves open is no warning.
            ModelEvent::RunFailed(info) if !crate::mapper::error_code::is_cancelled(info) => {
                self.tools.clear()
            }
            ModelEvent::RunFailed(_) | ModelEvent::RunStopped => {
                (self.tools, self.messages) = Default::default()
            }
            ModelEvent::Interrupt(_) => self.tools.clear(),
            ModelEvent::RunEnd | ModelEvent::RunStart { .. } => self.unfinished_tools(ctx),
            ModelEvent::RunIncomplete { reason } => {
                self.unfinished_tools(ctx);
                let msg = format!("the run has no terminal event: {reason}");
                ctx.report("AGX607", vec![], msg);
            }
            _ => {}
        }
    }

    fn unfinished_tools(&mut self, ctx: &mut Ctx) {
        for (id, name) in std::mem::take(&mut self.tools) {
            let msg = format!("tool '{name}' (call '{id}') started and never finished or failed");
            ctx.report("AGX606", vec![id], msg);
        }
    }

    /// End of the file.
    pub fn finish(&mut self, ctx: &mut Ctx) {
        for (_, (id, _)) in std::mem::take(&mut self.messages) {
            let msg = format!("message '{id}' never finishes");
            ctx.report("AGX604", vec![id], msg);
        }
        self.unfinished_tools(ctx);
    }
}
