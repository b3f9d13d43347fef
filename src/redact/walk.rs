//! Walking a record: which strings are structure (kept) and which are what users said, the
//! model answered, tools took and returned (replaced).
//!
//! A record is read in one of three zones:
//! - **envelope**: the event around the payload (event names, ids, namespaces, metadata,
//!   model names, usage, finish reasons): strings kept;
//! - **structure**: a LangChain message, content block, tool call, interrupt, error or v3
//!   message event: the strings of [`KEEP`] keys kept, text and arguments replaced;
//! - **free**: state, tool arguments and results, custom payloads: every string replaced,
//!   keys kept; an object in it that is a message (block, tool call, …) is read as structure.

use serde_json::{Map, Value};

use crate::adapter::RecordKind;
use crate::json::Field;

use super::{has, Mode, Redactor};

/// Keys whose string values are structure wherever they are: names, ids, kinds, outcomes.
pub(crate) const KEEP: &str = include_str!("words/keep.txt");

/// Keys of the model's and the users' text.
const TEXT: &str = include_str!("words/text.txt");

/// Keys of tool arguments: JSON, read as JSON even in pieces.
const ARGS: &[&str] = &["args", "arguments", "partial_json", "input"];

/// Envelope objects inside a message.
const ENVELOPE: &[&str] = &["response_metadata", "usage_metadata", "usage", "metadata"];

/// An object of structure (a message, block, tool call…): whether it is a tool message, and
/// for a message chunk its id and how far below the object its fields are (a constructor's
/// are in `kwargs`).
#[derive(Debug, Default)]
struct Shape<'a> {
    tool: bool,
    chunk: Option<(&'a str, usize)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zone {
    Envelope,
    Struct,
    Free,
}

/// Where the walk is: the record's path (for `--keep`), and the stream a piece of text
/// belongs to.
#[derive(Debug, Default)]
pub struct Cx {
    /// Each segment, and an array item's `index` when in a stream (which names the item by it).
    path: Vec<(String, Option<u64>)>,
    /// The stream's name and the depth it starts at; `last_key` names a piece by its key alone.
    stream: Option<(String, usize, bool)>,
}

impl Cx {
    fn pointer(&self) -> String {
        let segs = self.path.iter().map(|(s, _)| crate::leaf::escape(s));
        segs.map(|s| format!("/{s}")).collect()
    }

    fn stream_key(&self, key: &str) -> Option<String> {
        let (base, depth, last_key) = self.stream.as_ref()?;
        Some(if *last_key {
            format!("{base}:{key}")
        } else {
            let segs = self.path[(*depth).min(self.path.len())..].iter();
            let segs = segs.map(|(s, i)| i.map_or_else(|| s.clone(), |n| format!("i{n}")));
            format!("{base}/{}", segs.collect::<Vec<_>>().join("/"))
        })
    }
}

impl Redactor<'_> {
    /// One record (an NDJSON line's value, an SSE frame's data with its `event:` name), of
    /// the kind the adapters' classifier ([`crate::adapter::classify`]) found it to be.
    pub fn record(&mut self, v: &mut Value, sse_event: Option<&str>, kind: &RecordKind) {
        self.at = Cx::default();
        // An SDK stream part (`{"event": MODE, "data": …}`): its data as an SSE frame of MODE.
        let part = sse_event.is_none() && *kind != RecordKind::Agui;
        let event = v.field_str("event");
        let mode = event.filter(|e| part && !e.starts_with("on_"));
        if let (Some(mode), Some(data)) = (mode.map(str::to_string), v.get_mut("data")) {
            self.at.path.push(("data".into(), None));
            return self.classified(data, Some(&mode), kind);
        }
        self.classified(v, sse_event, kind)
    }

    fn classified(&mut self, v: &mut Value, mode: Option<&str>, kind: &RecordKind) {
        let enveloped = v.field_str("type") == Some("event");
        // A stream part by its mode: LangGraph.js's v3 SSE names the method (`METHOD|NS`).
        let m = mode.unwrap_or_default();
        let (method, ns) = m.split_once('|').unwrap_or((m, ""));
        match kind {
            RecordKind::Agui | RecordKind::V2 => self.top(v),
            RecordKind::V3 if enveloped => self.top(v),
            // LangGraph.js's v3 SSE: the frame's data is `params.data`, its event the method.
            RecordKind::V3 => self.v3_data(method, ns.to_string(), v),
            RecordKind::ErrorLine(_) => self.value(v, Zone::Struct, ""),
            RecordKind::RunMetadata { .. } => self.value(v, Zone::Envelope, ""),
            RecordKind::MessagesTuple(..) => self.tuple(v),
            RecordKind::Values(_)
            | RecordKind::Custom(..)
            | RecordKind::OtherStreamMode(_)
            | RecordKind::Unknown(_) => match method {
                "messages" | "tools" | "lifecycle" if v.is_object() => {
                    self.v3_data(method, ns.to_string(), v)
                }
                "tasks" | "checkpoints" => self.value(v, Zone::Struct, ""),
                _ => self.value(v, Zone::Free, ""),
            },
        }
    }

    /// An AG-UI event, a v2 event or a v3 event in its envelope (a record, or one inside a
    /// payload: an AG-UI event's `rawEvent`, a custom event's native AG-UI payload).
    fn top(&mut self, v: &mut Value) {
        let Value::Object(map) = v else {
            return self.value(v, Zone::Free, "");
        };
        if map.field_str("type") == Some("event") && map.field_str("method").is_some() {
            return self.v3(map);
        }
        match map.field_str("event") {
            // An AG-UI event (capital `type`) goes to `object`, which knows it.
            Some(e) if e.starts_with("on_") && !is_agui(map) => {
                // A custom event's data is the writer's own; other events' data holds the
                // input, output or chunk beside ids (a tool error's `tool_call_id`).
                let custom = e == "on_custom_event";
                self.each(map, |this, k, v| match (k, v) {
                    ("data", Value::Object(data)) if !custom => this.each(data, |this, k, v| {
                        let zone = match k {
                            "input" | "output" | "chunk" => Zone::Free,
                            _ => Zone::Struct,
                        };
                        this.value(v, zone, k)
                    }),
                    ("data", v) => this.value(v, Zone::Free, "data"),
                    ("metadata", v) => this.metadata(v),
                    (k, v) => this.value(v, Zone::Envelope, k),
                })
            }
            _ => self.object(map, Zone::Free),
        }
    }

    /// A `messages-tuple` part: `[message chunk, metadata]`.
    fn tuple(&mut self, v: &mut Value) {
        let Value::Array(items) = v else {
            return self.value(v, Zone::Free, "");
        };
        // The tuple's message is always a chunk, whatever its `type` says.
        self.with_metadata(items, |this, item| {
            let id = item.field_str("id").unwrap_or_default();
            let saved = (this.at.stream).replace((format!("m:{id}"), this.at.path.len(), false));
            this.value(item, Zone::Free, "");
            this.at.stream = saved;
        })
    }

    /// `[item, metadata]`: `first` reads the first item, the rest are run metadata.
    fn with_metadata(&mut self, items: &mut [Value], mut first: impl FnMut(&mut Self, &mut Value)) {
        for (i, item) in items.iter_mut().enumerate() {
            self.at.path.push((i.to_string(), None));
            match i {
                0 => first(self, item),
                _ => self.metadata(item),
            }
            self.at.path.pop();
        }
    }

    fn v3(&mut self, map: &mut Map<String, Value>) {
        let method = map.field_str("method").unwrap_or_default().to_string();
        self.each(map, |this, k, v| match (k, v) {
            ("params", Value::Object(params)) => {
                let ns = params.get("namespace").and_then(Value::as_array);
                let ns: Vec<&str> = ns.into_iter().flatten().filter_map(Value::as_str).collect();
                let ns = ns.join("|");
                this.each(params, |this, k, v| match k {
                    "data" => this.v3_data(&method, ns.clone(), v),
                    "interrupts" => this.value(v, Zone::Free, k),
                    "timestamp" => this.shift(v),
                    "metadata" => this.metadata(v),
                    _ => this.value(v, Zone::Envelope, k),
                })
            }
            (k, v) => this.value(v, Zone::Envelope, k),
        })
    }

    /// A v3 event's `params.data`: message, tool and lifecycle events are structure, the
    /// rest (values, updates, custom…) free. A content block's text is one stream from its
    /// start to its last delta.
    fn v3_data(&mut self, method: &str, ns: String, data: &mut Value) {
        if !matches!(method, "messages" | "tools" | "lifecycle") {
            return self.value(data, Zone::Free, "");
        }
        // In-process Python: `[event, metadata]`.
        if let Value::Array(items) = data {
            let first = |this: &mut Self, item: &mut Value| this.v3_data(method, ns.clone(), item);
            return self.with_metadata(items, first);
        }
        let Value::Object(m) = data else {
            return self.value(data, Zone::Struct, "");
        };
        let event = m.field_str("event").unwrap_or_default();
        let index = m.get("index").map(|i| i.to_string()).unwrap_or_default();
        let prefix = format!("v3:{ns}:");
        let block = format!("{prefix}{index}");
        match event {
            "message-start" => self.streams.retain(|k, _| !k.starts_with(&prefix)),
            "content-block-start" => {
                let own = format!("{block}:");
                self.streams.retain(|k, _| !k.starts_with(&own));
            }
            _ => {}
        }
        let in_block = matches!(event, "content-block-start" | "content-block-delta");
        let saved = std::mem::replace(&mut self.at.stream, in_block.then_some((block, 0, true)));
        self.object(m, Zone::Struct);
        self.at.stream = saved;
    }

    /// An AG-UI event (`rawEvent` and a RAW event's `event` read as the records they are).
    fn agui(&mut self, map: &mut Map<String, Value>) {
        let ty = map.field_str("type").unwrap_or_default().to_string();
        if self.opts.slim {
            map.remove("rawEvent");
        }
        // A message id is one stream per sub-agent (a chunk may name another's).
        let sub = map.field_str("subagentRunId").unwrap_or_default();
        // The stream a delta continues: `agui:` its kind, then its id's key if it has one.
        let (what, id, mode) = match ty.as_str() {
            "TEXT_MESSAGE_CONTENT" | "TEXT_MESSAGE_CHUNK" => ("text", "messageId", Mode::Text),
            "REASONING_MESSAGE_CONTENT" | "REASONING_MESSAGE_CHUNK" => {
                ("reasoning", "messageId", Mode::Text)
            }
            "THINKING_TEXT_MESSAGE_CONTENT" => ("thinking", "", Mode::Text),
            "TOOL_CALL_ARGS" | "TOOL_CALL_CHUNK" => ("args", "toolCallId", Mode::Code(false)),
            _ => ("", "", Mode::Text),
        };
        let id = match id {
            "" => String::new(),
            k => format!(":{sub}:{}", map.field_str(k).unwrap_or_default()),
        };
        let stream = (!what.is_empty()).then(|| format!("agui:{what}{id}"));
        self.each(map, |this, k, v| match (k, v) {
            ("delta", Value::String(s)) => this.put(s, mode, stream.clone()),
            ("delta", v) => this.value(v, Zone::Struct, "delta"),
            ("rawEvent" | "event", v @ Value::Object(_)) => this.top(v),
            ("snapshot" | "messages" | "value" | "content", v) => this.value(v, Zone::Free, k),
            ("input" | "outcome", v) => this.value(v, Zone::Struct, k),
            ("timestamp", v) => this.shift(v),
            ("message" | "result" | "encryptedValue", v) => this.value(v, Zone::Struct, k),
            (k, v) => this.value(v, Zone::Envelope, k),
        })
    }

    /// `f(self, key, value)` on each entry of `map`, with the walk at the entry.
    fn each(
        &mut self,
        map: &mut Map<String, Value>,
        mut f: impl FnMut(&mut Self, &str, &mut Value),
    ) {
        for (k, v) in map.iter_mut() {
            self.at.path.push((k.clone(), None));
            f(self, k, v);
            self.at.path.pop();
        }
    }

    /// A value under a credential's key (`password`, `api_key`, `authorization`…) replaced;
    /// whether it was one.
    fn credential_at(&mut self, k: &str, v: &mut Value) -> bool {
        let is = super::secret::is_credential_key(k) && v.as_str().is_some_and(|s| !s.is_empty());
        if is && !v.as_str().is_some_and(super::secret::is_placeholder) {
            *self.secrets.entry("credential").or_default() += 1;
            *v = Value::String(super::secret::placeholder("credential"));
        }
        is
    }

    /// A value under `key` in `zone`.
    fn value(&mut self, v: &mut Value, zone: Zone, key: &str) {
        match v {
            Value::String(s) => {
                let mode = match mode_of(zone, key) {
                    Mode::Auto(_) if has(STREAM_MODES, s) => Mode::Keep,
                    m => m,
                };
                // A piece of a stream (`string` reads text and code as one).
                self.put(s, mode, self.at.stream_key(key));
            }
            Value::Array(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    let index = item.get("index").and_then(Value::as_u64);
                    let index = index.filter(|_| self.at.stream.is_some());
                    self.at.path.push((i.to_string(), index));
                    self.value(item, zone, key);
                    self.at.path.pop();
                }
            }
            Value::Object(map) => self.object(map, zone),
            _ => {}
        }
    }

    fn object(&mut self, map: &mut Map<String, Value>, zone: Zone) {
        // A native AG-UI event inside a payload (a custom event named `agui`).
        if is_agui(map) {
            return self.agui(map);
        }
        let shape = shape(map);
        let zone = match shape {
            Some(_) if zone == Zone::Free => Zone::Struct,
            _ => zone,
        };
        let saved = self.at.stream.clone();
        let tool = shape.as_ref().is_some_and(|s| s.tool);
        if let Some((id, below)) = shape.and_then(|s| s.chunk) {
            self.at.stream = Some((format!("m:{id}"), self.at.path.len() + below, false));
        }
        self.each(map, |this, k, v| {
            if this.credential_at(k, v) {
                return;
            }
            let child = match zone {
                _ if k == "metadata" && zone != Zone::Free => return this.metadata(v),
                Zone::Envelope => match k {
                    "payload" | "value" | "resume" => Zone::Struct,
                    "logprobs" => Zone::Free,
                    _ => Zone::Envelope,
                },
                Zone::Free => Zone::Free,
                Zone::Struct => match (k, &mut *v) {
                    (k, _) if ENVELOPE.contains(&k) => Zone::Envelope,
                    ("kwargs" | "payload" | "resume" | "value" | "cause", _) => Zone::Struct,
                    (k, _) if has(KEEP, k) => Zone::Envelope,
                    ("content", Value::String(s)) if tool => {
                        return this.put(s, Mode::Auto(false), None)
                    }
                    (_, Value::String(_)) => Zone::Struct,
                    // A message's content blocks.
                    ("content", Value::Array(_)) => Zone::Struct,
                    (k, _) if has(TEXT, k) || ARGS.contains(&k) => Zone::Free,
                    _ => Zone::Struct,
                },
            };
            this.value(v, child, k)
        });
        self.at.stream = saved;
    }

    /// Run metadata: LangGraph's and LangSmith's own keys (`langgraph_node`, `ls_model_name`,
    /// `thread_id`…) are structure; a key an application added (`user_name`) is its data.
    fn metadata(&mut self, v: &mut Value) {
        let Value::Object(map) = v else {
            return self.value(v, Zone::Envelope, "metadata");
        };
        self.each(map, |this, k, x| {
            if !this.credential_at(k, x) {
                let zone = match k {
                    "payload" => Zone::Struct,
                    k if is_run_metadata(k) => Zone::Envelope,
                    _ => Zone::Free,
                };
                this.value(x, zone, k)
            }
        })
    }

    /// A string of the record redacted as `mode` says, or kept where a `--keep` pointer
    /// matches.
    fn put(&mut self, s: &mut String, mode: Mode, stream: Option<String>) {
        let (keep, at) = (&self.opts.keep, &self.at);
        let kept = keep.iter().any(|k| crate::leaf::matches(k, &at.pointer()));
        self.string(s, if kept { Mode::Keep } else { mode }, stream)
    }

    /// `--shift-time`: an integer timestamp moved by the constant.
    fn shift(&self, v: &mut Value) {
        if let (Some(by), Some(t)) = (self.opts.shift_time, v.as_i64()) {
            *v = Value::from(t.saturating_add(by));
        }
    }
}

/// Metadata keys of LangGraph, LangSmith, LangChain and the platform (besides [`KEEP`]'s).
fn is_run_metadata(k: &str) -> bool {
    const OWN: &str = include_str!("words/run-metadata.txt");
    ["langgraph_", "ls_", "lc_", "checkpoint_"]
        .iter()
        .any(|p| k.starts_with(p))
        || has(OWN, k)
        || has(KEEP, k)
}

/// How a string under `key` in `zone` is redacted.
fn mode_of(zone: Zone, key: &str) -> Mode {
    match (zone, key) {
        (Zone::Free, _) => Mode::Auto(false),
        (Zone::Struct, k) if has(KEEP, k) => Mode::Keep,
        (Zone::Struct, "repr") => Mode::Code(true),
        (_, "message") => Mode::Error,
        (_, "error") => Mode::ErrorName,
        (Zone::Struct, k) if ARGS.contains(&k) => Mode::Code(false),
        (_, k) if has(TEXT, k) => Mode::Text,
        (Zone::Envelope, _) => Mode::Keep,
        (Zone::Struct, _) => Mode::Auto(false),
    }
}

/// Stream mode names, as `[mode, payload]` tuples carry them: structure even where free.
const STREAM_MODES: &str = include_str!("words/stream-modes.txt");

/// An AG-UI event: `type` in capitals.
fn is_agui(m: &Map<String, Value>) -> bool {
    m.field_str("type").is_some_and(|t| {
        t.len() > 2
            && t.bytes()
                .all(|b| b.is_ascii_uppercase() || b == b'_' || b.is_ascii_digit())
    })
}

const MESSAGE_TYPES: &str = include_str!("words/message-types.txt");

const BLOCK_TYPES: &str = include_str!("words/block-types.txt");

const INTERRUPT_KEYS: &str = include_str!("words/interrupt-keys.txt");
const ERROR_KEYS: &str = include_str!("words/error-keys.txt");

/// Whether an object is structure, and which.
fn shape<'a>(m: &'a Map<String, Value>) -> Option<Shape<'a>> {
    let ty = m.field_str("type");
    // A message of type or class `t`, its fields `at` a depth below the object (a chunk's id
    // among them).
    let message = |t: &str, id: Option<&'a str>, at| Shape {
        tool: t == "tool" || t.starts_with("ToolMessage"),
        chunk: t.ends_with("Chunk").then_some((id.unwrap_or_default(), at)),
    };
    if m.get("lc").is_some_and(Value::is_number) {
        let class = m.get("id").and_then(Value::as_array).and_then(|a| a.last());
        let id = m.get("kwargs").and_then(|k| k.get("id")?.as_str());
        let class = class.and_then(Value::as_str).unwrap_or_default();
        return Some(message(class, id, 1));
    }
    if m.contains_key("content") || m.contains_key("tool_calls") || m.contains_key("toolCalls") {
        if let Some(t) = ty.filter(|t| {
            has(MESSAGE_TYPES, t) || t.ends_with("MessageChunk") || t.ends_with("Message")
        }) {
            return Some(message(t, m.field_str("id"), 0));
        }
        if let Some(r) = m.field_str("role") {
            let tool = r == "tool";
            return Some(Shape { tool, chunk: None });
        }
    }
    let keys_in = |set: &str| m.keys().all(|k| has(set, k));
    let known = m.field_str("name") == Some("agui")
        || m.contains_key("lg_name")
        || m.contains_key("interrupt_id")
        || m.contains_key("interruptId")
        || ty.is_some_and(|t| has(BLOCK_TYPES, t))
        || m.field_str("event").is_some_and(|e| e.contains('-'))
        || (m.contains_key("value") && keys_in(INTERRUPT_KEYS))
        || ((m.contains_key("error") || m.contains_key("message")) && keys_in(ERROR_KEYS))
        || (m.contains_key("name") && m.contains_key("args"));
    known.then(Shape::default)
}

/// Whether an error's text opens as JSON or a repr (a `GraphInterrupt` lists its interrupts,
/// a stack trace may follow).
pub fn opens_as_code(s: &str) -> bool {
    let t = s.trim_start();
    t.starts_with(['{', '[']) || code_kind(s).is_some()
}

/// Whether `s` reads as code: JSON, or a Python repr (`Interrupt(…)`, `{'a': 1}`).
pub fn code_kind(s: &str) -> Option<bool> {
    let t = s.trim();
    if (t.starts_with('{') || t.starts_with('['))
        && serde_json::from_str::<serde::de::IgnoredAny>(t).is_ok()
    {
        return Some(false);
    }
    let call = t.trim_start_matches('(');
    let repr_call = call.starts_with(|c: char| c.is_ascii_uppercase())
        && call
            .find('(')
            .is_some_and(|i| call[..i].chars().all(|c| c.is_alphanumeric() || c == '_'))
        && t.ends_with(')');
    let repr_dict = (t.starts_with('{') || t.starts_with('[')) && t.contains('\'');
    (repr_call || repr_dict).then_some(true)
}
