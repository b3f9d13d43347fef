//! Raw LangGraph input checks (AGX6xx): v3 `seq` order, v3 message and content-block
//! lifecycles, tools that never finish, runs with no terminal, and bad lines.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::Ctx;
use crate::input::Record;
use crate::model::ModelEvent;
use crate::wire::v3::{Data, Params};

#[derive(Default)]
pub struct Raw {
    last_seq: Option<i64>,
    /// The file's first integer `seq` (a run recorded after another starts back at it).
    first_seq: Option<i64>,
    /// Open v3 message per namespace, with its started and finished blocks.
    messages: BTreeMap<String, (String, BTreeSet<String>)>,
    saw_block_start: bool,
    tools: BTreeMap<String, String>,
    /// Scratch: the current record's namespace key and block key (no allocation per record).
    ns: String,
    ns_parts: Option<Vec<String>>,
    index: String,
}

/// Writes the key of a content block (its `index`) into `out`.
fn block_key(v: Option<&Value>, out: &mut String) {
    out.clear();
    match v {
        Some(Value::String(s)) => out.push_str(s),
        // An integer by `itoa`, as `Display` writes it but without the formatting machinery.
        Some(Value::Number(n)) if n.is_u64() => {
            out.push_str(itoa::Buffer::new().format(n.as_u64().unwrap_or(0)))
        }
        Some(Value::Number(n)) if n.is_i64() => {
            out.push_str(itoa::Buffer::new().format(n.as_i64().unwrap_or(0)))
        }
        Some(other) => out.push_str(&other.to_string()),
        None => out.push('0'),
    }
}

/// Writes a namespace as its compact JSON (the key of [`Raw::messages`]) into `out`; an absent
/// namespace is the empty string. `parts` caches the strings of the last array of plain strings
/// written: `Some` when `out` holds exactly that array's JSON, which is then kept.
fn namespace_key(v: Option<&Value>, out: &mut String, parts: &mut Option<Vec<String>>) {
    if let (Some(Value::Array(a)), Some(p)) = (v, parts.as_ref()) {
        if a.len() == p.len() && a.iter().zip(p).all(|(x, p)| x.as_str() == Some(p.as_str())) {
            return;
        }
    }
    *parts = None;
    out.clear();
    let Some(v) = v else {
        return;
    };
    // The common shape, an array of strings that need no escaping, written directly.
    let plain = |s: &str| {
        s.bytes()
            .all(|b| b >= 0x20 && b != b'"' && b != b'\\' && b != 0x7f)
    };
    if let Value::Array(a) = v {
        if a.iter().all(|x| x.as_str().is_some_and(plain)) {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push('"');
                out.push_str(x.as_str().unwrap_or(""));
                out.push('"');
            }
            out.push(']');
            *parts = Some(
                a.iter()
                    .map(|x| x.as_str().unwrap_or("").to_string())
                    .collect(),
            );
            return;
        }
    }
    out.push_str(&v.to_string());
}

impl Raw {
    pub fn record(&mut self, rec: &Record, ctx: &mut Ctx) {
        let Some(ev) = rec.v3.as_deref() else {
            return;
        };
        // langgraph-api forwards no `messages` event of the legacy `[message, metadata]`
        // shape (a model that does not stream sends its whole message so), leaving its `seq`
        // out; the root state after it holds that message: a gap before a root `values`
        // event is that, not a lost event (issue 22.6).
        let root_values = ev.method == "values"
            && ev
                .namespace()
                .is_none_or(|n| n.as_array().is_some_and(Vec::is_empty));
        self.seq(ev.seq.as_ref().and_then(Value::as_i64), root_values, ctx);
        if ev.method != "messages" {
            return;
        }
        // Only a payload with an `event` string has checks.
        let Params::Object {
            namespace,
            data: Data::Message(m),
            ..
        } = &ev.params
        else {
            return;
        };
        namespace_key(namespace.as_ref(), &mut self.ns, &mut self.ns_parts);
        self.message_event(
            &m.event,
            |out| block_key(m.index.as_ref(), out),
            m.id.as_ref().and_then(Value::as_str),
            ctx,
        );
    }

    /// The next records come from another input file, a stream of its own: its `seq` starts
    /// again.
    pub fn new_file(&mut self) {
        self.last_seq = None;
        self.first_seq = None;
    }

    /// The `seq` checks (AGX601–603) of a v3 event's integer `seq`.
    fn seq(&mut self, seq: Option<i64>, root_values: bool, ctx: &mut Ctx) {
        if let Some(seq) = seq {
            let first = *self.first_seq.get_or_insert(seq);
            if let Some(last) = self.last_seq {
                if crate::wire::v3::seq_restarts(seq, first, last) {
                    // The next run recorded in this file: its seq starts again.
                    self.last_seq = Some(seq);
                    return;
                }
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
                } else if seq > last + 1 && !root_values {
                    ctx.report(
                        "AGX601",
                        vec![seq.to_string()],
                        format!(
                            "seq jumps from {last} to {seq}: {} missing",
                            crate::timeline::render::count((seq - last - 1) as usize, "event")
                        ),
                    );
                }
            }
            if self.last_seq.is_none_or(|l| seq > l) {
                self.last_seq = Some(seq);
            }
        }
    }

    /// The lifecycle checks (AGX604/605) of a `messages` event in the namespace of key
    /// `self.ns`: `index` writes its block key, `id` is its string `id`.
    fn message_event(
        &mut self,
        event: &str,
        index: impl FnOnce(&mut String),
        id: Option<&str>,
        ctx: &mut Ctx,
    ) {
        match event {
            "message-start" => {
                let id = id.unwrap_or("").to_string();
                if let Some((prev, _)) = self.messages.get(self.ns.as_str()) {
                    ctx.report(
                        "AGX604",
                        vec![prev.clone(), id.clone()],
                        format!("message '{id}' starts while message '{prev}' is still open in the same namespace"),
                    );
                }
                self.messages.insert(self.ns.clone(), (id, BTreeSet::new()));
            }
            "content-block-start" => {
                self.saw_block_start = true;
                index(&mut self.index);
                match self.messages.get_mut(self.ns.as_str()) {
                    Some((_, blocks)) => {
                        if !blocks.contains(self.index.as_str()) {
                            blocks.insert(self.index.clone());
                        }
                    }
                    None => ctx.report(
                        "AGX605",
                        vec![self.index.clone()],
                        "content-block-start outside a message".into(),
                    ),
                }
            }
            "content-block-delta" | "content-block-finish" => {
                index(&mut self.index);
                let index = &self.index;
                match self.messages.get_mut(self.ns.as_str()) {
                    Some((id, blocks)) => {
                        let known = blocks.contains(index.as_str());
                        if !known && self.saw_block_start {
                            ctx.report(
                                "AGX605",
                                vec![id.clone(), index.clone()],
                                format!("{event} for block {index} of message '{id}' without content-block-start"),
                            );
                        }
                        if event == "content-block-finish" {
                            blocks.remove(index.as_str());
                        }
                    }
                    None => ctx.report(
                        "AGX605",
                        vec![index.clone()],
                        format!("{event} outside a message"),
                    ),
                }
            }
            "message-finish" | "error" => match self.messages.remove(self.ns.as_str()) {
                Some((id, blocks)) => {
                    if !blocks.is_empty() {
                        let b: Vec<String> = blocks.into_iter().collect();
                        ctx.report(
                            "AGX605",
                            vec![id.clone()],
                            format!(
                                "message '{id}' finishes with {} {} never finished",
                                if b.len() == 1 { "block" } else { "blocks" },
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
            // A cancelled run stops mid-message by design: what it leaves open is no warning.
            ModelEvent::RunFailed(info) if crate::mapper::error_code::is_cancelled(info) => {
                self.tools.clear();
                self.messages.clear();
            }
            ModelEvent::RunStopped => {
                self.tools.clear();
                self.messages.clear();
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
