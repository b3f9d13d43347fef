//! v3 protocol events (`{"type":"event","seq":N,"method":M,"params":{namespace,timestamp,data}}`),
//! read typed on a parse thread: the envelope, then `params.data` by its method, keeping only
//! what the adapter and the checks read. Nothing of a `checkpoints` event's data or of a node
//! update is built, and a text or tool-call delta is read without a tree.
//!
//! Fields read as [`Present`] keep "absent" apart from `null` where a
//! reader tells the two apart, as a lookup in the event's tree would. A line that the typed
//! structs decline (a repeated key, which a tree keeps the last of; `params` before `method`
//! or not an object) is read from its tree.

use serde::de::{Error as _, IgnoredAny, MapAccess};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;
use std::borrow::Cow;

use super::{state, Lenient, Object, Present, Shape, Text};
use crate::json::Field;
use crate::payload::Str;

/// A model call's token usage, and the provider and model that the log names.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Usage {
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    pub total_tokens: Option<u64>,
    pub reasoning_tokens: Option<u64>,
    pub provider: Option<String>,
    pub model: Option<String>,
}

impl Usage {
    /// The usage a `usage_metadata`-shaped object `u` gives (`None` when it is no object),
    /// the provider and model named by the first of `names` that names each, else `traced`.
    pub(crate) fn of(
        u: Option<&Value>,
        names: &[Option<&Value>],
        traced: (Option<&str>, Option<&str>),
    ) -> Option<Usage> {
        let u = u.filter(|u| u.is_object())?;
        let int = |k: &str| u.field(k).and_then(Value::as_u64);
        let named = |k: &str, traced: Option<&str>| {
            let named = names.iter().flatten().find_map(|m| m.field_str(k));
            named.or(traced).map(str::to_string)
        };
        Some(Usage {
            input_tokens: int("input_tokens"),
            output_tokens: int("output_tokens"),
            total_tokens: int("total_tokens"),
            reasoning_tokens: (u.field("output_token_details"))
                .and_then(|d| d.field("reasoning"))
                .and_then(Value::as_u64),
            provider: named("model_provider", traced.0),
            model: named("model_name", traced.1),
        })
    }
}

/// A v3 event as the adapter reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// `seq`, when present (an integer, or anything else to warn about).
    pub seq: Option<Value>,
    /// `method` (a known one is not allocated).
    pub method: Cow<'static, str>,
    /// What is read of `params` (all absent when it is); of `params` that is not an object,
    /// its kind, for the message.
    pub params: Result<Params, &'static str>,
}

/// What is read of `params` (as it is read, `data` read as `D`: [`Params::into_params`]).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default, bound(deserialize = "D: Deserialize<'de> + Default"))]
pub struct Params<D = Data> {
    pub namespace: Present<Value>,
    /// The namespace's key ([`namespace_key`]), made as the line is read.
    #[serde(skip)]
    pub key: String,
    pub timestamp: Present<Value>,
    pub node: Present<Value>,
    pub interrupts: Present<Value>,
    pub data: D,
}

/// `params.data`, as far as its method needs it read.
#[derive(Debug, Clone, PartialEq)]
pub enum Data {
    /// A `messages` payload: an object with an `event` string (of the in-process form
    /// `[payload, metadata]`, the payload).
    Message(Box<Message>),
    /// A `lifecycle` event's data, when an object.
    Lifecycle(Box<Lifecycle>),
    /// A `tasks` event's data.
    Tasks(Tasks),
    /// Data no reader looks at: `checkpoints`, a node update that is no interrupt, a
    /// subgraph's `values`.
    Unread,
    /// A root `values` state whose first entry is its message list.
    State(state::State),
    /// A `custom` event's data (of `custom` and `custom:NAME`), passed through as its text.
    Payload(crate::payload::Payload),
    /// Any other data (`null` when absent), whole.
    Value(Value),
}

/// A `messages` payload, read when its `event` is a string ([`Message::read`]; one without
/// is read whole, from the tree).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct Message {
    event: Text,
    pub id: Present<Value>,
    pub index: Present<Value>,
    /// A `content-block-delta`'s delta (or, without one, its `content`); of anything but an
    /// object, its kind.
    pub delta: Present<Object<Box<Delta>>>,
    /// The delta was read from `content` (the event has no `delta`).
    #[serde(skip)]
    pub in_content: bool,
    /// The `content` of any other event.
    pub content: Present<Value>,
    usage: Option<Value>,
    metadata: Option<Value>,
    /// LangGraph.js names the model in `message-finish.responseMetadata` (Python: `metadata`).
    #[serde(rename = "responseMetadata")]
    response_metadata: Option<Value>,
    /// `message` (an `error` event's text), when present.
    pub message: Present<Value>,
    /// A `message-start`'s `role`, when a string other than `ai` (the platform streams a
    /// tool's `ToolMessage` as a message of role `tool`).
    pub role: Text,
}

/// A block delta: its `type` (`text-delta`/`text`, `reasoning-delta`/`reasoning`,
/// `tool-call-delta`/`tool_call_chunk`, `block-delta`, or any other), and the fields those read.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct Delta {
    #[serde(rename = "type")]
    pub(crate) kind: Text,
    pub(crate) text: Text,
    pub(crate) reasoning: Text,
    pub(crate) args: Text,
    pub(crate) id: Text,
    pub(crate) name: Text,
    /// A `block-delta`'s `fields`, which LangGraph.js merges into the block by replacement
    /// (each delta carries a fragment of the provider's own, not the text so far).
    pub(crate) fields: Present<Value>,
}

impl Delta {
    /// `type`, when a string (`""` when not).
    pub fn kind(&self) -> &str {
        self.kind.0.as_deref().unwrap_or_default()
    }
}

impl Message {
    /// The payload as the readers take it (`None` when its `event` is no string): a delta's
    /// block in `delta` (not `content`), an `ai` role as none.
    fn read(mut self: Box<Self>) -> Option<Data> {
        self.event.0.as_ref()?;
        if self.event() == "content-block-delta" {
            // The platform sends some deltas (a node's replayed message) with the block in
            // `content` instead of `delta`.
            if let (None, Some(c)) = (&self.delta.0, self.content.0.take()) {
                self.delta.0 = Some(Object::deserialize(&c).ok()?);
                self.in_content = true;
            }
        } else {
            self.delta.0 = None;
        }
        self.role.0 = self.role.0.filter(|r| r != "ai");
        Some(Data::Message(self))
    }

    /// `event`.
    pub fn event(&self) -> &str {
        self.event.0.as_deref().unwrap_or_default()
    }

    /// `delta.type`, when `delta` is an object with a string `type`.
    pub fn delta_type(&self) -> Option<&str> {
        let d = self.delta.0.as_ref().filter(|_| !self.in_content)?;
        d.0.as_ref().ok()?.kind.0.as_deref()
    }

    /// `usage`, when an object, with the model's names from `metadata` (or `responseMetadata`)
    /// when `named`.
    pub fn usage(&self, named: bool) -> Option<Usage> {
        let names = [&self.metadata, &self.response_metadata].map(|m| m.as_ref());
        let names = if named { &names[..] } else { &[] };
        Usage::of(self.usage.as_ref(), names, (None, None))
    }
}

/// A `lifecycle` event's data (`namespace` and `error` `Some` when `null`: a `null`
/// namespace is the root's, a `null` error is shown).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct Lifecycle {
    pub event: Option<Value>,
    pub namespace: Present<Value>,
    pub graph_name: Option<Value>,
    pub error: Present<Value>,
    /// What started it: `{"type":"toolCall","tool_call_id":…}` for a graph a tool invoked
    /// (a sub-agent, Python).
    pub cause: Option<Value>,
}

/// Absent data.
impl Default for Data {
    fn default() -> Self {
        Data::Value(Value::Null)
    }
}

impl Data {
    /// The data read whole (`null` for data read in part).
    pub fn value(&self) -> &Value {
        match self {
            Data::Value(v) => v,
            _ => &Value::Null,
        }
    }
}

impl Event {
    /// The v3 event of a line, `None` when it is no v3 event (`type` is not `"event"`, or
    /// `method` is not a string).
    pub fn read(text: &str) -> Option<Box<Event>> {
        if let Some(ev) = Event::read_known_messages(text) {
            return Some(ev);
        }
        match serde_json::from_str::<Lenient<Line>>(text).map(|l| l.0.map(|l| l.finish(0))) {
            Ok(None) => None,
            Ok(Some(Some(ev))) => Some(ev),
            _ => Event::of_tree(&serde_json::from_str(text).ok()?, true),
        }
    }

    /// A root `values` line whose message list opens with messages of the thread's last
    /// state as they were read ([`state::known_prefix`]): read with those cut out of its
    /// text, not scanned again. `None` for any other line (it is read whole).
    fn read_known_messages(text: &str) -> Option<Box<Event>> {
        let (list, cut, known) = state::known_prefix(text)?;
        let short = [&text[..list], &text[list + cut..]].concat();
        let Ok(Lenient(Some(line))) = serde_json::from_str::<Lenient<Line>>(&short) else {
            return None;
        };
        // The list cut is a root state's (the one kept: its first key's).
        let key_at = short.as_ptr() as usize + list - r#"messages":["#.len();
        match &line.1 {
            Some(e) if e.messages_at == key_at => line.finish(known),
            _ => None,
        }
    }

    /// The v3 event in a record's tree: the record itself, or the `data` of an SDK stream
    /// part (`{"event":M,"data":…}`, `M` not `on_…`; an SSE frame's data is the record). It
    /// is read as a line again (a repeated key is gone from a tree), `method` before
    /// `params`; data the typed readers decline is taken whole ([`whole`]).
    pub fn of_tree(v: &Value, sse: bool) -> Option<Box<Event>> {
        let is_event = |v: &Value| {
            v.get("type").and_then(Value::as_str) == Some("event")
                && v.get("method").is_some_and(Value::is_string)
        };
        let part = !sse
            && v.get("event")
                .and_then(Value::as_str)
                .is_some_and(|e| !e.starts_with("on_"));
        let v = match v.get("data") {
            _ if is_event(v) => v,
            Some(data) if part && is_event(data) => data,
            _ => return None,
        };
        let method = v.get("method")?.as_str()?;
        let params = match v.get("params") {
            None => Ok(Params::default()),
            Some(p @ Value::Object(_)) => {
                let line = format!(
                    r#"{{"type":"event","method":{},"params":{p}}}"#,
                    Value::from(method)
                );
                let read = serde_json::from_str::<Lenient<Line>>(&line).ok();
                let read = read.and_then(|line| line.0?.finish(0));
                read.map_or_else(|| whole(method, p), |ev| ev.params)
            }
            Some(other) => Err(super::json_kind(other)),
        };
        Some(Box::new(Event {
            seq: v.get("seq").cloned(),
            method: known(method, &METHODS),
            params,
        }))
    }

    /// `params.namespace`, when `params` is an object.
    pub fn namespace(&self) -> Option<&Value> {
        self.params.as_ref().ok()?.namespace.0.as_ref()
    }

    /// `params.timestamp` in ms: `Ok(None)` when absent or `null`; `Err` with what it is
    /// when it is not an integer from 0 to 2^53 − 1, which a client's number cannot hold
    /// exactly (or is no time). A number written with a fraction part of zero
    /// (`1700000000000.0`) is the integer it is to a client.
    pub fn timestamp(&self) -> Result<Option<i64>, String> {
        let exact = |f: &f64| f.fract() == 0.0 && (0.0..=MAX_SAFE_INTEGER as f64).contains(f);
        match self.params.as_ref().map(|p| &p.timestamp.0) {
            Err(_) | Ok(None | Some(Value::Null)) => Ok(None),
            // Up to 2^53 − 1, an integer is the float it reads as.
            Ok(Some(Value::Number(n))) => match n.as_f64().filter(exact) {
                Some(ms) => Ok(Some(ms as i64)),
                None => Err(n.to_string()),
            },
            Ok(Some(other)) => Err(super::json_kind(other).to_string()),
        }
    }
}

/// The params of a tree whose data the typed readers decline (a payload without an `event`
/// string, a state whose first key is not `messages`, data that is no object), the data
/// whole: of the in-process `[payload, metadata]` form, the payload.
fn whole(method: &str, p: &Value) -> Result<Params, &'static str> {
    let mut out = Ok(Params::default());
    // Every field a `Present<Value>`: the params of any object read (no default taken).
    let wire = Params::<Present<Value>>::deserialize(p).unwrap_or_default();
    let _ = wire.into_params(&mut out, |data, _, root| {
        Ok::<_, ()>(match (method, data) {
            // A subgraph's state is not the graph's.
            ("values", _) if !root => Data::Unread,
            ("messages", Value::Array(mut items)) if !items.is_empty() => {
                Data::Value(items.swap_remove(0))
            }
            (_, data) => Data::Value(data),
        })
    });
    out
}

/// The largest integer a JavaScript number holds exactly (`Number.MAX_SAFE_INTEGER`).
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Whether an event's integer `seq` opens the next of several runs recorded in one file: it is
/// back at (or below) the file's first `seq` (Python numbers each run from 1, LangGraph.js from
/// 0) and below the run's highest so far. A `seq` that only goes back within a run is out of
/// order; the platform numbers `seq` on across the runs of a thread (its runs part at the root
/// `lifecycle`).
pub fn seq_restarts(seq: i64, file_first: i64, run_max: i64) -> bool {
    seq <= file_first && seq < run_max
}

/// A namespace's key: its parts joined with `|` (empty for the root: absent, `[]`, not a
/// list).
pub fn namespace_key(ns: Option<&Value>) -> String {
    let parts = ns.and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let mut parts = parts.iter().map(|p| p.as_str().unwrap_or_default());
    let mut key = parts.next().unwrap_or_default().to_string();
    parts.for_each(|part| key.extend(["|", part]));
    key
}

/// A v3 line read in one pass: `params.data` is read by `method` as `params` is scanned,
/// not captured raw and scanned again. serde derive cannot choose a field's type by another
/// field's value: this map reader does, for the line kinds read typed here. `Ok(None)`: no v3
/// event. An error (`params` before `method`, a repeated key, data the typed readers
/// decline) has the line read from its tree ([`Event::of_tree`]). A root `values`
/// event's state is read from its entries once the line is read ([`Line::finish`]).
struct Line<'de>(Box<Event>, Option<state::Entries<'de>>);

impl<'de> Line<'de> {
    /// The event, its root state read (its list's first `known` messages the last state's):
    /// `None` when the state is none the typed readers read (its tree tells).
    fn finish(self, known: usize) -> Option<Box<Event>> {
        let Line(mut ev, entries) = self;
        if let (Some(e), Ok(p)) = (entries, &mut ev.params) {
            p.data = Data::State(state::State::of_entries(e, known)?);
        }
        Some(ev)
    }
}

impl<'de> Shape<'de> for Line<'de> {
    fn of_map<A: MapAccess<'de>>(mut m: A) -> Result<Option<Line<'de>>, A::Error> {
        // Filled in place: the event's ~600 bytes are not moved through the returns (`params`
        // as absent once the line has none: nothing made to be dropped).
        let mut ev = Box::new(Event {
            seq: None,
            method: Cow::Borrowed(""),
            params: Err("absent"),
        });
        let (mut kind, mut method, mut params) = (None, None, false);
        let mut entries = None;
        // A key with an escape is no `&str`: the line is read from its tree.
        while let Some(key) = m.next_key::<&str>()? {
            match key {
                "type" if kind.is_none() => kind = Some(m.next_value::<&str>()?),
                "seq" if ev.seq.is_none() => ev.seq = Some(m.next_value::<Value>()?),
                "method" if method.is_none() => {
                    method = Some(known(&m.next_value::<Str>()?.0, &METHODS))
                }
                "params" if !params => {
                    let Some(method) = method.as_deref() else {
                        return Err(A::Error::custom("params before method"));
                    };
                    entries = params_of(method, &mut m, &mut ev.params)?;
                    params = true;
                }
                "type" | "seq" | "method" | "params" => {
                    return Err(A::Error::custom("a repeated key"))
                }
                _ => drop(m.next_value::<IgnoredAny>()?),
            }
        }
        Ok(match (kind, method) {
            (Some("event"), Some(method)) => {
                ev.method = method;
                if !params {
                    ev.params = Ok(Params::default());
                }
                Some(Line(ev, entries))
            }
            _ => None,
        })
    }
}

/// The `params` of an event of `method`, next in `m`, written to `out` in place (a root
/// state's data: `Unread`, and its entries returned, read into the state once the line is
/// read).
fn params_of<'de, A: MapAccess<'de>>(
    method: &str,
    m: &mut A,
    out: &mut Result<Params, &'static str>,
) -> Result<Option<state::Entries<'de>>, A::Error> {
    let not_read = || A::Error::custom("data not read typed");
    match method {
        "values" => {
            let mut entries = None;
            read(
                m,
                out,
                |Lenient(e): Lenient<state::Entries<'de>>, _, root| {
                    // A subgraph's state is not the graph's.
                    if root {
                        entries = Some(e.ok_or_else(not_read)?);
                    }
                    Ok(Data::Unread)
                },
            )?;
            return Ok(entries);
        }
        "messages" => read(m, out, |p: Object<Box<Message>, true>, _, _| {
            p.0.ok().and_then(Message::read).ok_or_else(not_read)
        }),
        "tasks" => read(m, out, |t: Object<Tasks>, _, _| {
            Ok(Data::Tasks(t.0.unwrap_or_default()))
        }),
        "lifecycle" => read(m, out, |l: Object<Box<Lifecycle>>, _, _| {
            l.0.map(Data::Lifecycle).map_err(|_| not_read())
        }),
        "checkpoints" => read(m, out, |_: IgnoredAny, _, _| Ok(Data::Unread)),
        "updates" => read(m, out, |u: Object<UpdateWire>, node, _| {
            // Only an update of the `__interrupt__` node is read (whole, from the tree).
            let named = u.0.ok().and_then(|u| u.node.0);
            match named.as_ref().or(node).and_then(Value::as_str) {
                Some("__interrupt__") => Err(not_read()),
                _ => Ok(Data::Unread),
            }
        }),
        c if c == "custom" || c.starts_with("custom:") => read(m, out, |raw: &RawValue, _, _| {
            Ok(Data::Payload(crate::payload::Payload::from_json(raw.get())))
        }),
        _ => read(m, out, |data, _, _| Ok(Data::Value(data))),
    }?;
    Ok(None)
}

/// `params` next in `m`, its `data` read as `D`, written to `out` ([`Params::into_params`]).
fn read<'de, D: Deserialize<'de>, A: MapAccess<'de>>(
    m: &mut A,
    out: &mut Result<Params, &'static str>,
    data: impl FnOnce(D, Option<&Value>, bool) -> Result<Data, A::Error>,
) -> Result<(), A::Error> {
    m.next_value::<Params<Present<D>>>()?.into_params(out, data)
}

/// What is read of a `tasks` event's data (all absent when it is no object): its
/// `interrupts`, and the task's `name` and `error` (for the explain view).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct Tasks {
    pub interrupts: Present<Value>,
    pub name: Text,
    pub error: Present<Value>,
}

impl<D> Params<Present<D>> {
    /// The params, of `data` made by `read` (given the node and whether the event is in the
    /// root namespace; absent data: `null`), written to `out` (in place: not moved through
    /// the returns).
    fn into_params<E>(
        self,
        out: &mut Result<Params, &'static str>,
        read: impl FnOnce(D, Option<&Value>, bool) -> Result<Data, E>,
    ) -> Result<(), E> {
        let key = namespace_key(self.namespace.0.as_ref());
        let data = match self.data.0 {
            Some(d) => read(d, self.node.0.as_ref(), key.is_empty())?,
            None => Data::Value(Value::Null),
        };
        *out = Ok(Params {
            data,
            namespace: self.namespace,
            key,
            timestamp: self.timestamp,
            node: self.node,
            interrupts: self.interrupts,
        });
        Ok(())
    }
}

#[derive(Default, Deserialize)]
#[serde(default)]
struct UpdateWire {
    node: Present<Value>,
}

/// The methods the readers know: not allocated.
const METHODS: [&str; 8] = [
    "messages",
    "values",
    "updates",
    "tasks",
    "checkpoints",
    "lifecycle",
    "custom",
    "tools",
];
/// A string, borrowed when it is one of `known`.
fn known(s: &str, known: &[&'static str]) -> Cow<'static, str> {
    match known.iter().find(|k| **k == s) {
        Some(k) => Cow::Borrowed(k),
        None => Cow::Owned(s.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::sync::Arc;

    #[test]
    fn absent_is_not_null() {
        let e = Event::read(r#"{"type":"event","seq":null,"method":"m"}"#).expect("v3");
        assert_eq!(e.seq, Some(Value::Null));
        assert_eq!(e.params, Ok(Params::default()));
        let e = Event::read(r#"{"type":"event","method":"m","params":"x"}"#).expect("v3");
        assert_eq!((e.seq, e.params), (None, Err("a string")));
        assert_eq!(Event::read(r#"{"type":"x","method":"m"}"#), None);
        assert_eq!(Event::read(r#"{"type":"event","method":7}"#), None);
    }

    #[test]
    fn params_before_method_read_alike() {
        let params = r#"{"namespace":[],"data":{"event":"content-block-delta","delta":{"type":"text-delta","text":"a"}}}"#;
        let first = format!(r#"{{"type":"event","method":"messages","params":{params},"seq":1}}"#);
        let after = format!(r#"{{"params":{params},"seq":1,"type":"event","method":"messages"}}"#);
        let e = Event::read(&first).expect("v3");
        assert!(matches!(
            &e.params,
            Ok(Params {
                data: Data::Message(_),
                ..
            })
        ));
        assert_eq!(Event::read(&after), Some(e));
        // A state whose first key is not `messages`, and a payload without an event: whole.
        let state = r#"{"type":"event","method":"values","params":{"data":{"a":1,"messages":[]}}}"#;
        let Some(Ok(Params { data, .. })) = Event::read(state).map(|e| e.params) else {
            panic!("v3")
        };
        assert_eq!(data, Data::Value(json!({"a": 1, "messages": []})));
        let legacy = r#"{"type":"event","method":"messages","params":{"data":[{"type":"ai"},{}]}}"#;
        let Some(Ok(Params { data, .. })) = Event::read(legacy).map(|e| e.params) else {
            panic!("v3")
        };
        assert_eq!(data, Data::Value(json!({"type": "ai"})));
    }

    /// An envelope key written with an escape reads as the key it is (from the line's tree).
    #[test]
    fn an_escaped_key_reads_alike() {
        let plain = r#"{"type":"event","method":"tasks","params":{"data":{"name":"n"}},"seq":3}"#;
        let escaped =
            r#"{"typ\u0065":"event","method":"tasks","params":{"data":{"name":"n"}},"s\u0065q":3}"#;
        let e = Event::read(plain).expect("v3");
        assert_eq!(e.seq, Some(Value::from(3)));
        assert_eq!(Event::read(escaped), Some(e));
    }

    #[test]
    fn a_repeated_key_counts_last() {
        let message = |line: &str| match Event::read(line).map(|e| e.params) {
            Some(Ok(Params {
                data: Data::Message(m),
                ..
            })) => m,
            other => panic!("{other:?}"),
        };
        let m = message(
            r#"{"type":"event","method":"messages","params":{"data":{"event":"x","event":"content-block-delta","delta":{"type":"text-delta","text":"a","text":"b"}}}}"#,
        );
        assert_eq!(m.event(), "content-block-delta");
        let delta = |m: &Message| {
            let d = m.delta.0.clone().expect("a delta").0.expect("an object");
            (d.kind().to_string(), d.text.0)
        };
        let b = ("text-delta".to_string(), Some("b".to_string()));
        assert_eq!(delta(&m), b);
        // A delta in `content`.
        let m = message(
            r#"{"type":"event","method":"messages","params":{"data":{"event":"content-block-delta","content":{"type":"text-delta","text":"a","text":"b"}}}}"#,
        );
        assert_eq!((delta(&m), m.in_content), (b, true));
    }

    /// A root state whose list opens with the last state's messages, as they were read, is
    /// read with them cut out of its text: as the whole text reads, the messages handed out
    /// again; a list that is not the state's, or that is no JSON, is read whole.
    #[test]
    fn known_messages_read_as_the_whole_text() {
        let item = |id: &str| format!(r#"{{"type":"human","content":"text {id}","id":"{id}"}}"#);
        let line = |sep: &str, list: &str| {
            format!(
                r#"{{"type":"event","method":"values","params":{{"namespace":[],"data":{{"messages":{sep}[{list}]}}}},"seq":1}}"#
            )
        };
        let state_of = |ev: Option<Box<Event>>| match ev.map(|e| e.params) {
            Some(Ok(Params {
                data: Data::State(s),
                ..
            })) => s,
            other => panic!("{other:?}"),
        };
        let state = |text: &str| state_of(Event::read(text));
        let ab = line("", &[item("a"), item("b")].join(","));
        let first = state(&ab);
        let list = [item("a"), item("b"), item("c")].join(" , ");
        let cut = state_of(Event::read_known_messages(&line("", &list)));
        assert!((0..2).all(|i| Arc::ptr_eq(&cut.messages[i], &first.messages[i])));
        assert_eq!(cut.messages[2].id(), Some("c"));
        // Read whole (the list is not where the cut looks): the same state.
        state(&ab);
        assert_eq!(Event::read_known_messages(&line(" ", &list)), None);
        assert_eq!(state(&line(" ", &list)), cut);
        // No JSON (a comma before `]`), read whole or cut: no event.
        let abc = [item("a"), item("b"), item("c")].join(",");
        assert_eq!(Event::read(&line("", &format!("{abc},"))), None);
        // A repeated `messages` key: the last list is the state's.
        let repeated = line(
            "",
            &format!(r#"{abc}],"messages":[{{"type":"ai","id":"x"}}"#),
        );
        assert_eq!(Event::read_known_messages(&repeated), None);
        let ids: Vec<_> = (state(&repeated).messages.iter())
            .map(|m| m.id().map(str::to_string))
            .collect();
        assert_eq!(ids, [Some("x".to_string())]);
    }

    #[test]
    fn namespace_keys() {
        let line = r#"{"type":"event","method":"tasks","params":{"namespace":["a:1","b"]}}"#;
        let e = Event::read(line).expect("v3");
        assert_eq!(e.params.map(|p| p.key), Ok("a:1|b".to_string()));
        let key = |ns: Value| namespace_key(Some(&ns));
        assert_eq!(key(json!(["a:1", "b:2"])), "a:1|b:2");
        assert_eq!(key(json!(["x", 7, ""])), "x||");
        assert_eq!(
            (key(json!([])), key(json!("a")), namespace_key(None)),
            (String::new(), String::new(), String::new())
        );
    }

    #[test]
    fn payloads_by_method() {
        let data = |method: &str, data: Value| {
            let line = json!({"type":"event","method":method,"params":{"node":"n","data":data}});
            match Event::read(&line.to_string()).map(|e| e.params) {
                Some(Ok(Params { data, .. })) => data,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(data("checkpoints", json!({"id": 1})), Data::Unread);
        assert_eq!(data("updates", json!({"values": 1})), Data::Unread);
        assert_eq!(
            data("updates", json!({"node": "__interrupt__", "values": 1})),
            Data::Value(json!({"node": "__interrupt__", "values": 1}))
        );
        assert_eq!(
            data("tasks", json!({"id": 1, "interrupts": []})),
            Data::Tasks(Tasks {
                interrupts: Present(Some(json!([]))),
                ..Tasks::default()
            })
        );
        assert_eq!(data("values", json!([1])), Data::Value(json!([1])));
        assert_eq!(data("messages", json!(42)), Data::Value(json!(42)));
        assert_eq!(
            data("messages", json!({"index": 0})),
            Data::Value(json!({"index": 0}))
        );
        let Data::Message(m) = data(
            "messages",
            json!([{"event":"content-block-delta","content":{"type":"tool_call_chunk","args":"{"}}, {}]),
        ) else {
            panic!("a message")
        };
        let d = m.delta.0.expect("a delta").0.expect("an object");
        assert_eq!(d.kind(), "tool_call_chunk");
        assert_eq!((d.args.0, d.id.0, d.name.0), (Some("{".into()), None, None));
        // Metadata without the model's names.
        let start = json!({"event":"message-start","role":"ai","metadata":{"provider":"p"}});
        assert!(matches!(data("messages", start), Data::Message(_)));
        let Data::Message(m) = data("messages", json!({"event":"content-block-delta","delta":7}))
        else {
            panic!("a message")
        };
        assert_eq!(m.delta.0.map(|d| d.0.err()), Some(Some("a number")));
        // A delta type none of the readers knows is kept; one that is no string is absent.
        for (ty, kept) in [
            (json!("citation-delta"), Some("citation-delta")),
            (json!(7), None),
        ] {
            let delta = json!({"event":"content-block-delta","delta":{"type":ty}});
            let Data::Message(m) = data("messages", delta) else {
                panic!("a message")
            };
            assert_eq!(m.delta_type(), kept);
        }
    }
}
