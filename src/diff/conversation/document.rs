//! A closed run's document: its ids as placeholders, its leaves.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{json, Value};

use super::{without_messages, Call, Conversation, Message, Open};
use crate::agui::Event;
use crate::input::Origin;
use crate::leaf::{flatten, Leaf};
use crate::text::list_of;

/// A custom event's value longer than this as compact JSON is one leaf, `/custom/N/json`, its
/// text, rather than a leaf per scalar: a 60 MB array of numbers would be 30M leaves of ~150
/// bytes each (issue 41 item 3). Its text is compared whole and its ids are not placeholders.
pub const FLAT_PAYLOAD_BYTES: usize = 64 * 1024;

impl Conversation {
    /// The leaves of a closed run's document (see the module docs of [`super`]).
    pub(super) fn render(&mut self, open: &Open) -> Vec<Leaf> {
        let start = &open.origin;
        let (ids, msg_ids) = self.placeholders(open);
        let lookup = |s: &str| ids.get(s).cloned();
        let mut doc = Doc {
            out: Vec::new(),
            ids: &lookup,
        };

        doc.outcome(open);

        // The resume the run was started with.
        if let Some((resume, o)) = &open.resume {
            match resume.as_array() {
                Some(list) => doc.keyed("/resume", list, "interruptId", o),
                None => doc.tree("/resume", resume, o),
            }
        }

        doc.leaf("/steps", json!([]), start);
        for (n, (name, o)) in open.steps.iter().enumerate() {
            doc.leaf(format!("/steps/{n}"), name.as_str(), o);
        }

        doc.messages(open, &msg_ids, start);

        for (n, (text, encrypted)) in open.reasoning.values().enumerate() {
            let base = format!("/reasoning/reasoning-{}", n + 1);
            doc.out.push(text.leaf(format!("{base}/text")));
            if *encrypted {
                doc.leaf(format!("{base}/encrypted"), true, &text.origin);
            }
        }

        for (n, (name, value, o)) in open.custom.iter().enumerate() {
            doc.leaf(format!("/custom/{n}/name"), name.as_str(), o);
            match value.get().len() > FLAT_PAYLOAD_BYTES {
                true => doc.leaf(format!("/custom/{n}/json"), value.get(), o),
                false => doc.tree(format!("/custom/{n}/value"), &value.to_value(), o),
            }
        }

        if let Some((state, o)) = &open.state {
            // A patch may have put messages back.
            doc.tree("/state", &without_messages(state), o);
        }

        // Sub-agents, each with its own items (placeholders counted within it).
        for (n, (_, s)) in open.subagents.iter().enumerate() {
            let base = format!("/subagents/subagent-{}", n + 1);
            doc.leaf(format!("{base}/name"), s.name.as_str(), &s.origin);
            if let Some(p) = &s.parent {
                let p = lookup(p).map_or_else(|| p.clone(), |p| p.to_string());
                doc.leaf(format!("{base}/parentToolCall"), p, &s.origin);
            }
            // Its outcome first, as a run's: ids in it named as its own items are.
            for mut l in self.render(s) {
                l.pointer = format!("{base}{}", l.pointer);
                doc.out.push(l);
            }
        }
        doc.out
    }

    /// Placeholders for the run's ids: messages by role and position, calls and reasoning by
    /// position, interrupts over the thread; and each message's placeholder, in order.
    fn placeholders(&mut self, open: &Open) -> (HashMap<String, Arc<str>>, Vec<Arc<str>>) {
        let named = [(&open.thread_id, "thread"), (&open.run_id, "run")];
        let mut ids: HashMap<String, Arc<str>> = named
            .into_iter()
            .filter_map(|(id, p)| Some((id.clone()?, Arc::from(p))))
            .collect();
        let mut roles: HashMap<&str, usize> = HashMap::new();
        let mut calls = 0;
        let mut msg_ids = Vec::with_capacity(open.messages.len());
        for m in &open.messages {
            let n = roles.entry(m.role.as_str()).or_default();
            *n += 1;
            let p: Arc<str> = Arc::from(format!("{}-{n}", m.role));
            ids.entry(m.id.clone()).or_insert_with(|| p.clone());
            msg_ids.push(p);
            for c in &m.calls {
                calls += 1;
                ids.entry(c.id.clone())
                    .or_insert_with(|| Arc::from(format!("call-{calls}")));
            }
        }
        for (i, id) in open.reasoning.keys().enumerate() {
            ids.entry(id.clone())
                .or_insert_with(|| Arc::from(format!("reasoning-{}", i + 1)));
        }
        let interrupt_ids = interrupts(open).into_iter().flatten();
        for id in interrupt_ids.filter_map(|i| i.get("id")?.as_str()) {
            let n = self.interrupts.len() + 1;
            self.interrupts
                .entry(id.to_string())
                .or_insert_with(|| Arc::from(format!("interrupt-{n}")));
        }
        ids.extend(self.interrupts.iter().map(|(k, v)| (k.clone(), v.clone())));
        // A sub-agent's calls, named where the run mentions them (an interrupt's toolCallId).
        for (n, (_, sub)) in open.subagents.iter().enumerate() {
            let calls = sub.messages.iter().flat_map(|m| &m.calls);
            for (k, c) in calls.enumerate() {
                let p = format!("subagent-{}/call-{}", n + 1, k + 1);
                ids.entry(c.id.clone()).or_insert_with(|| Arc::from(p));
            }
        }
        (ids, msg_ids)
    }
}

/// A run's document being written: its leaves, strings that are ids written as placeholders.
struct Doc<'a> {
    out: Vec<Leaf>,
    ids: &'a dyn Fn(&str) -> Option<Arc<str>>,
}

impl Doc<'_> {
    fn leaf(&mut self, pointer: impl Into<String>, value: impl Into<Value>, o: &Origin) {
        self.out
            .push(Leaf::new(pointer.into(), value.into(), o.clone()));
    }

    fn tree(&mut self, pointer: impl Into<String>, value: &Value, o: &Origin) {
        flatten(&mut pointer.into(), value, o, self.ids, &mut self.out);
    }

    /// Objects under `base`, each keyed by its `id_key`'s placeholder (else its position) and
    /// written without that key.
    fn keyed(&mut self, base: &str, list: &[Value], id_key: &str, o: &Origin) {
        for (n, item) in list.iter().enumerate() {
            let key = item.get(id_key).and_then(Value::as_str).and_then(self.ids);
            let key = key.map_or_else(|| n.to_string(), |p| p.to_string());
            let mut rest = item.clone();
            if let Some(r) = rest.as_object_mut() {
                r.remove(id_key);
            }
            self.tree(format!("{base}/{key}"), &rest, o);
        }
    }

    /// The run's outcome, and its interrupts or error; a sub-agent's, and its result,
    /// interrupts or error.
    fn outcome(&mut self, open: &Open) {
        let Some((ev, o)) = &open.outcome else {
            // No terminal event: where the run (or sub-agent) was last seen.
            return self.leaf("/outcome", "none", &open.last);
        };
        if let Some(list) = interrupts(open) {
            self.leaf("/outcome", "interrupt", o);
            return self.keyed("/interrupts", list, "id", o);
        }
        match ev {
            Event::RunFinished { outcome, .. } => match outcome["type"].as_str() {
                Some("cancelled") => self.leaf("/outcome", "cancelled", o),
                _ => self.leaf("/outcome", "success", o),
            },
            // A sub-agent's error is told as a run's: its code (when given) and message.
            Event::RunError { code, message, .. } | Event::SubagentError { code, message, .. } => {
                self.leaf("/outcome", "error", o);
                if let Some(c) = code {
                    self.leaf("/error/code", c.as_ref(), o);
                }
                self.leaf("/error/message", message.as_str(), o);
            }
            Event::SubagentFinished {
                outcome, result, ..
            } => {
                let kind = outcome.get("type").and_then(Value::as_str);
                self.leaf("/outcome", kind.unwrap_or("success"), o);
                if let Some(r) = result {
                    self.tree("/result", r, o);
                }
                let ids = list_of(outcome, "interruptIds");
                if !ids.is_empty() {
                    self.tree("/interrupts", &ids.into(), o);
                }
            }
            _ => self.leaf("/outcome", "none", &open.last),
        }
    }

    /// Messages, then the tool calls they carry.
    fn messages(&mut self, open: &Open, msg_ids: &[Arc<str>], start: &Origin) {
        for (m, p) in open.messages.iter().zip(msg_ids) {
            let base = format!("/messages/{p}");
            let call = m.tool_call_id.as_deref().and_then(self.ids);
            match (m.role.as_str(), &call) {
                ("tool", Some(c)) => self.leaf(format!("{base}/toolCall"), &**c, &m.text.origin),
                _ => self.out.push(m.text.leaf(format!("{base}/text"))),
            }
            // A tool message's streamed text is its call's `streamedResult`.
            let streamed = m.streamed.as_ref();
            if let Some(s) = streamed.filter(|_| m.role != "tool" || call.is_none()) {
                self.out.push(s.leaf(format!("{base}/streamedText")));
            }
        }
        if open.messages.is_empty() {
            self.leaf("/messages", json!({}), start);
        }
        let results: HashMap<&str, &Message> = open
            .messages
            .iter()
            .filter_map(|m| Some((m.tool_call_id.as_deref()?, m)))
            .collect();
        for (m, p) in open.messages.iter().zip(msg_ids) {
            for c in &m.calls {
                self.call(c, p, results.get(c.id.as_str()).copied());
            }
        }
    }

    /// A tool call of the message placeholder `p`, and its `result`.
    fn call(&mut self, c: &Call, p: &str, result: Option<&Message>) {
        let cp = (self.ids)(&c.id).map(|p| p.to_string()).unwrap_or_default();
        let cb = format!("/toolCalls/{cp}");
        let o = &c.args.origin;
        self.leaf(format!("{cb}/name"), c.name.as_str(), o);
        self.leaf(format!("{cb}/message"), p, o);
        let args_at = Origin {
            file: o.file.clone(),
            line: c.args.pieces.first().map_or(o.line, |&(_, l)| l),
        };
        match serde_json::from_str::<Value>(&c.args.text) {
            _ if c.args.text.trim().is_empty() => {
                self.leaf(format!("{cb}/args"), json!({}), &args_at)
            }
            Ok(v) => {
                let first = self.out.len();
                self.tree(format!("{cb}/args"), &v, &args_at);
                // Each argument at the delta that carried it, when its JSON is found in the
                // streamed text.
                let joined = c.args.leaf(String::new());
                for l in &mut self.out[first..] {
                    if l.value.is_array() || l.value.is_object() {
                        continue;
                    }
                    if let Some(at) = c.args.text.find(&l.value.to_string()) {
                        l.origin = joined.origin_at(at);
                    }
                }
            }
            Err(_) => self.out.push(c.args.leaf(format!("{cb}/args"))),
        }
        if let Some(r) = result {
            self.out.push(r.text.leaf(format!("{cb}/result")));
            if r.error {
                self.leaf(format!("{cb}/error"), true, &r.text.origin);
            }
            if let Some(s) = &r.streamed {
                self.out.push(s.leaf(format!("{cb}/streamedResult")));
            }
        }
    }
}

/// The interrupts of a run that ended in one.
fn interrupts(open: &Open) -> Option<&[Value]> {
    match &open.outcome {
        Some((Event::RunFinished { outcome, .. }, _))
            if outcome.get("type").and_then(Value::as_str) == Some("interrupt") =>
        {
            Some(list_of(outcome, "interrupts"))
        }
        _ => None,
    }
}
