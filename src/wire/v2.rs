//! v2 `astream_events` events (`{"event":"on_…","data":…,"run_id","name","tags","metadata",
//! "parent_ids"}`), read typed on a parse thread: the envelope as strings and flags, of
//! `metadata` (a dozen keys from the API server) only the three the adapter reads, and of
//! `data` only what the adapter reads for the event's kind ([`Data`]): a model end's `input`,
//! the whole conversation, is never built, and a model's stream chunk is read into a
//! [`MessageChunk`].
//!
//! A string field that holds another value reads as absent, as a tree's `as_str` does. A line
//! the typed struct declines (a repeated key, `metadata` not an object) is read from its tree.

use serde::de::{IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::json::Field;
use crate::payload::Payload;
use crate::wire::langchain::normalize_owned;

/// A v2 event as the adapter reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// `on_chain_start`, `on_chat_model_stream`…
    pub event: String,
    pub data: Data,
    pub run_id: Option<String>,
    pub name: Option<String>,
    /// `tags` is a list holding `"langsmith:hidden"`.
    pub hidden: bool,
    /// Whether `parent_ids` is an empty list (`None`: absent, or no list).
    parents_empty: Option<bool>,
    /// `metadata.langgraph_node`: `Some(None)` when present but no string.
    node: Option<Option<String>>,
    pub thread_id: Option<String>,
    /// The namespace of the task the event ran in (`tools:<id>|model:<id>`): where a graph
    /// nested in a tool call (a sub-agent) shows.
    pub checkpoint_ns: Option<String>,
}

/// What the adapter reads of an event's `data`, by the event's kind (`None` inside: the key
/// is absent, or `data` is no object).
#[derive(Debug, Clone, PartialEq)]
pub enum Data {
    /// Nothing is read of this kind's `data` (or it has none).
    None,
    /// A root run's or a graph step's start, a tool's start.
    Input(Option<Value>),
    /// A chain's, a model's or a tool's end.
    Output(Option<Value>),
    /// A root chain's stream chunk (a node's update, an interrupt, a custom part).
    Chunk(Option<Value>),
    /// A model's stream chunk, or the JSON kind it has when it is no object.
    ModelChunk(Option<Result<MessageChunk, &'static str>>),
    ToolError {
        error: Option<Value>,
        tool_call_id: Option<String>,
    },
    /// An `on_custom_event`'s `data`, passed through as text: a payload of megabytes is not
    /// made a tree.
    Custom(Payload),
}

/// A model's streamed message chunk, normalised (an lc constructor's kwargs): what
/// `adapter::content` reads of it. The rest (response metadata, usage, the finished tool
/// calls) is skipped: a dozen keys a chunk.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MessageChunk {
    pub id: Option<String>,
    pub content: Option<Value>,
    pub additional_kwargs: Option<Value>,
    pub tool_call_chunks: Option<Value>,
}

/// A value read as `T` when it is of the JSON kind `T` is read from (a string for `String`,
/// an object for the keys of `data`), and as absent for any other, as a lookup in its tree
/// finds nothing. serde derive cannot say "this, or any other value skipped" without
/// buffering the value, so this is a visitor.
#[derive(Debug, Clone, Default, PartialEq)]
struct Lenient<T>(Option<T>);

/// A string field.
type Text = Lenient<String>;

/// What [`Lenient`] reads a value of as.
trait Shape<'de>: Sized {
    fn of_str(_: &str) -> Option<Self> {
        None
    }
    fn of_map<M: MapAccess<'de>>(mut m: M) -> Result<Option<Self>, M::Error> {
        while m.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
    }
}

impl Shape<'_> for String {
    fn of_str(s: &str) -> Option<Self> {
        Some(s.to_string())
    }
}

/// The keys of `data` read by derive from an object.
macro_rules! keys_of_an_object {
    ($($t:ty),*) => {$(
        impl<'de> Shape<'de> for $t {
            fn of_map<M: MapAccess<'de>>(m: M) -> Result<Option<Self>, M::Error> {
                Self::deserialize(serde::de::value::MapAccessDeserializer::new(m)).map(Some)
            }
        }
    )*};
}
keys_of_an_object!(Input, Output, Chunk, ToolError);

impl<'de> Shape<'de> for RawChunk<'de> {
    fn of_map<M: MapAccess<'de>>(m: M) -> Result<Option<Self>, M::Error> {
        Self::deserialize(serde::de::value::MapAccessDeserializer::new(m)).map(Some)
    }
}

impl<'de, T: Shape<'de>> Deserialize<'de> for Lenient<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Shape<'de>> Visitor<'de> for V<T> {
            type Value = Lenient<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any value")
            }
            fn visit_str<E>(self, s: &str) -> Result<Lenient<T>, E> {
                Ok(Lenient(T::of_str(s)))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Lenient<T>, E> {
                Ok(Lenient(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Lenient<T>, E> {
                Ok(Lenient(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Lenient<T>, E> {
                Ok(Lenient(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Lenient<T>, E> {
                Ok(Lenient(None))
            }
            fn visit_unit<E>(self) -> Result<Lenient<T>, E> {
                Ok(Lenient(None))
            }
            fn visit_seq<S: SeqAccess<'de>>(self, mut s: S) -> Result<Lenient<T>, S::Error> {
                while s.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Lenient(None))
            }
            fn visit_map<M: MapAccess<'de>>(self, m: M) -> Result<Lenient<T>, M::Error> {
                T::of_map(m).map(Lenient)
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// The line as read: `tags` and `parent_ids` raw, `data` read for the event's kind as it
/// comes ([`Slot`]).
#[derive(Default)]
struct Wire<'a> {
    event: Option<String>,
    data: Slot<'a>,
    run_id: Text,
    name: Text,
    tags: Option<&'a RawValue>,
    parent_ids: Option<&'a RawValue>,
    metadata: Metadata,
    /// Read to tell a v3 event (`type` `"event"` with a string `method`) apart.
    kind: Text,
    method: Text,
}

/// `data` as the envelope's one pass reads it (a value on the stack while the line is read:
/// its size does not matter).
#[derive(Default)]
#[allow(clippy::large_enum_variant)]
enum Slot<'a> {
    #[default]
    Absent,
    /// Read by kind as it came: `event` came before it, and its kind is read whatever the
    /// rest of the envelope says.
    Read(Data),
    /// Kept raw, to be read once the envelope is read: a chain's start or stream chunk (read
    /// for the root run and graph steps only), or `data` before `event`.
    Raw(&'a RawValue),
}

/// The envelope's keys.
#[derive(Clone, Copy, PartialEq, Deserialize)]
#[serde(field_identifier, rename_all = "snake_case")]
enum Key {
    Event,
    Data,
    RunId,
    Name,
    Tags,
    ParentIds,
    Metadata,
    #[serde(rename = "type")]
    Type,
    Method,
    #[serde(other)]
    Other,
}

/// serde derive cannot read one field by the value of another read before it: this visitor
/// reads the envelope in one pass with `data` read for its event's kind (every recorder
/// writes `event` first). A repeated key is an error, and the line is read from its tree.
impl<'de> Deserialize<'de> for Wire<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Wire<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a v2 event")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<Wire<'de>, M::Error> {
                use serde::de::Error;
                let mut w = Wire::default();
                let mut seen = [false; 9];
                while let Some(key) = m.next_key::<Key>()? {
                    if key != Key::Other && std::mem::replace(&mut seen[key as usize], true) {
                        return Err(M::Error::custom("a repeated key"));
                    }
                    match key {
                        Key::Event => w.event = Some(m.next_value()?),
                        Key::Data => {
                            w.data = match w.event.as_deref().and_then(Read::of_kind) {
                                Some(read) => Slot::Read(Data::next(read, &mut m)?),
                                None => Slot::Raw(m.next_value()?),
                            }
                        }
                        Key::RunId => w.run_id = m.next_value()?,
                        Key::Name => w.name = m.next_value()?,
                        Key::Tags => w.tags = m.next_value()?,
                        Key::ParentIds => w.parent_ids = m.next_value()?,
                        Key::Metadata => w.metadata = m.next_value()?,
                        Key::Type => w.kind = m.next_value()?,
                        Key::Method => w.method = m.next_value()?,
                        Key::Other => {
                            m.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(w)
            }
        }
        d.deserialize_map(V)
    }
}

/// What is read of `metadata`.
#[derive(Default, Deserialize)]
struct Metadata {
    #[serde(default, deserialize_with = "present")]
    langgraph_node: Option<Text>,
    #[serde(default)]
    thread_id: Text,
    #[serde(default)]
    langgraph_checkpoint_ns: Text,
}

fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

impl Event {
    /// The v2 event of a line whose `event` is `on_…` (`None` for any other line).
    pub fn read(text: &str) -> Option<Event> {
        let e = match serde_json::from_str::<Wire>(text) {
            Ok(w) => w.event()?,
            Err(_) => Event::of_tree(&serde_json::from_str(text).ok()?)?,
        };
        e.event.starts_with("on_").then_some(e)
    }

    /// The v2 event a record's tree holds, as the adapter reads it: the record, or the `data`
    /// of an `events` stream part (`sse_event`: the SSE frame's name). `None` for a record
    /// of another kind.
    pub fn of_record(v: &Value, sse_event: Option<&str>) -> Option<Event> {
        let base = |e: &str| e.split('|').next() == Some("events");
        let event = v.get("event").and_then(Value::as_str);
        let payload = match (sse_event, event) {
            (Some("events"), _) => v,
            (Some(e), _) if base(e) => match event {
                Some("events") => v.get("data").unwrap_or(v),
                _ => v,
            },
            (Some(_), _) => return None,
            (None, Some("events")) => v.get("data").unwrap_or(v),
            (None, Some(e)) if e.starts_with("on_") || base(e) => v,
            (None, _) => return None,
        };
        Event::of_tree(payload)
    }

    /// The v2 event of a tree with an `event` string (not a v3 event).
    fn of_tree(v: &Value) -> Option<Event> {
        let o = v.as_object()?;
        let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
        let meta = |k: &str| o.field("metadata").and_then(|m| m.field(k));
        let v3 =
            o.field_str("type") == Some("event") && o.field("method").is_some_and(Value::is_string);
        if v3 {
            return None;
        }
        let mut e = Event {
            event: o.field_str("event")?.to_string(),
            data: Data::None,
            run_id: text(o.field("run_id")),
            name: text(o.field("name")),
            hidden: o
                .field("tags")
                .and_then(Value::as_array)
                .is_some_and(|t| t.iter().any(|t| t == "langsmith:hidden")),
            parents_empty: o
                .field("parent_ids")
                .and_then(Value::as_array)
                .map(Vec::is_empty),
            node: meta("langgraph_node").map(|n| n.as_str().map(str::to_string)),
            thread_id: text(meta("thread_id")),
            checkpoint_ns: text(meta("langgraph_checkpoint_ns")),
        };
        e.data = Data::of_value(e.reads(), o.field("data").cloned());
        Some(e)
    }

    /// Whether the event is of the root run: no parent runs (or, without `parent_ids`, a
    /// chain event outside any node).
    pub fn is_root(&self) -> bool {
        match self.parents_empty {
            Some(empty) => empty,
            None => self.node.is_none() && self.event.starts_with("on_chain_"),
        }
    }

    /// `metadata.langgraph_node`, when a string.
    pub fn node(&self) -> Option<&str> {
        self.node.as_ref()?.as_deref()
    }

    /// Whether this chain start is a graph step the adapter shows (a node's run of its own
    /// name, not hidden).
    pub fn is_step(&self) -> bool {
        let name = self.name.as_deref().unwrap_or_default();
        self.node() == Some(name) && !name.starts_with("__") && !self.hidden
    }

    /// What the adapter (`adapter/v2.rs`) reads of `data` for this event: a node's stream
    /// chunk, a model's start, a runnable inside a node are read by their envelope only.
    fn reads(&self) -> Read {
        let root = self.is_root();
        match self.event.as_str() {
            "on_chain_start" if root || self.is_step() => Read::Input,
            "on_chain_stream" if root => Read::Chunk,
            kind => Read::of_kind(kind).unwrap_or(Read::Nothing),
        }
    }
}

impl Wire<'_> {
    /// The event (`None`: no `event`, a v3 event, or `data` no JSON a tree can hold).
    fn event(self) -> Option<Event> {
        if self.kind.0.as_deref() == Some("event") && self.method.0.is_some() {
            return None;
        }
        // Read as a tree only when it may hold the tag: a tag list is rarely hidden.
        let hidden = self.tags.is_some_and(|t| {
            let t = t.get();
            (t.contains("langsmith:hidden") || t.contains('\\'))
                && tree(t)
                    .and_then(|t| {
                        t.as_array()
                            .map(|t| t.iter().any(|t| t == "langsmith:hidden"))
                    })
                    .unwrap_or(false)
        });
        let parents_empty = self
            .parent_ids
            .and_then(|p| from::<Vec<IgnoredAny>>(p.get()))
            .map(|p| p.is_empty());
        let mut e = Event {
            event: self.event?,
            data: Data::None,
            run_id: self.run_id.0,
            name: self.name.0,
            hidden,
            parents_empty,
            node: self.metadata.langgraph_node.map(|n| n.0),
            thread_id: self.metadata.thread_id.0,
            checkpoint_ns: self.metadata.langgraph_checkpoint_ns.0,
        };
        e.data = match self.data {
            Slot::Absent => Data::None,
            Slot::Read(data) => data,
            // Read from its tree (no JSON a tree holds: the line is read whole, and fails).
            Slot::Raw(raw) => match e.reads() {
                Read::Nothing => Data::None,
                Read::Custom => Data::Custom(Payload::read(raw.get())?),
                read => Data::of_value(read, Some(tree(raw.get())?)),
            },
        };
        Some(e)
    }
}

/// Which of an event's `data` the adapter reads.
#[derive(Clone, Copy)]
enum Read {
    Nothing,
    Input,
    Output,
    Chunk,
    ModelChunk,
    ToolError,
    Custom,
}

impl Read {
    /// What is read of `data` for an event of kind `event` whatever the rest of the envelope
    /// says (`None` for a chain's start and stream chunk: read for the root run and graph
    /// steps only).
    fn of_kind(event: &str) -> Option<Read> {
        Some(match event {
            "on_chain_start" | "on_chain_stream" => return None,
            "on_chain_end" | "on_chat_model_end" | "on_tool_end" => Read::Output,
            "on_chat_model_stream" => Read::ModelChunk,
            "on_tool_start" => Read::Input,
            "on_tool_error" => Read::ToolError,
            "on_custom_event" => Read::Custom,
            _ => Read::Nothing,
        })
    }
}

impl Data {
    /// What is read for `read` of the `data` a map's next value is.
    fn next<'de, M: MapAccess<'de>>(read: Read, m: &mut M) -> Result<Data, M::Error> {
        // JSON no tree holds (nested too deeply): the line is read whole, and fails.
        let no_tree = || <M::Error as serde::de::Error>::custom("data no tree holds");
        Ok(match read {
            Read::Nothing => {
                m.next_value::<IgnoredAny>()?;
                Data::None
            }
            Read::Input => {
                let keys = m.next_value::<Lenient<Input>>()?.0.unwrap_or_default();
                Data::Input(keys.input.map(normalize_owned))
            }
            Read::Output => {
                let keys = m.next_value::<Lenient<Output>>()?.0.unwrap_or_default();
                Data::Output(keys.output.map(normalize_owned))
            }
            Read::Chunk => {
                let keys = m.next_value::<Lenient<Chunk>>()?.0.unwrap_or_default();
                Data::Chunk(keys.chunk.map(normalize_owned))
            }
            Read::ToolError => {
                let e = m.next_value::<Lenient<ToolError>>()?.0.unwrap_or_default();
                Data::ToolError {
                    error: e.error,
                    tool_call_id: e.tool_call_id.0,
                }
            }
            Read::Custom => {
                let raw = m.next_value::<&RawValue>()?;
                Data::Custom(Payload::read(raw.get()).ok_or_else(no_tree)?)
            }
            Read::ModelChunk => {
                let chunk = m.next_value::<Lenient<RawChunk>>()?.0.and_then(|c| c.chunk);
                Data::ModelChunk(match chunk {
                    Some(c) => Some(MessageChunk::read(c.get()).ok_or_else(no_tree)?),
                    None => None,
                })
            }
        })
    }

    /// What is read for `read` of `data`'s tree (a repeated key: the last; no object: nothing).
    fn of_value(read: Read, data: Option<Value>) -> Data {
        let Some(mut data) = data else {
            return Data::None;
        };
        if let Read::Custom = read {
            return Data::Custom(Payload::from_value(&data));
        }
        let mut take = |k: &str| data.as_object_mut().and_then(|o| o.shift_remove(k));
        match read {
            Read::Nothing | Read::Custom => Data::None,
            Read::Input => Data::Input(take("input").map(normalize_owned)),
            Read::Output => Data::Output(take("output").map(normalize_owned)),
            Read::Chunk => Data::Chunk(take("chunk").map(normalize_owned)),
            Read::ToolError => Data::ToolError {
                error: take("error"),
                tool_call_id: take("tool_call_id").and_then(|v| v.as_str().map(str::to_string)),
            },
            Read::ModelChunk => Data::ModelChunk(take("chunk").map(|c| match c {
                Value::Object(_) => MessageChunk::of_value(normalize_owned(c)),
                other => Err(crate::wire::json_kind(&other)),
            })),
        }
    }
}

fn from<'a, T: Deserialize<'a>>(text: &'a str) -> Option<T> {
    serde_json::from_str(text).ok()
}

fn tree(text: &str) -> Option<Value> {
    serde_json::from_str(text).ok()
}

// The keys of `data` the adapter reads, by event kind.
#[derive(Default, Deserialize)]
struct Input {
    #[serde(default, deserialize_with = "present")]
    input: Option<Value>,
}

#[derive(Default, Deserialize)]
struct Output {
    #[serde(default, deserialize_with = "present")]
    output: Option<Value>,
}

#[derive(Default, Deserialize)]
struct Chunk {
    #[serde(default, deserialize_with = "present")]
    chunk: Option<Value>,
}

#[derive(Default, Deserialize)]
struct ToolError {
    #[serde(default, deserialize_with = "present")]
    error: Option<Value>,
    #[serde(default)]
    tool_call_id: Text,
}

#[derive(Deserialize)]
struct RawChunk<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    chunk: Option<&'a RawValue>,
}

/// A model's stream chunk as written, flat (`{"content",…,"type":"AIMessageChunk"}`) or
/// serialised (`{"lc":1,"type":"constructor","id":[…],"kwargs":{…}}`): the keys
/// [`MessageChunk`] takes and those normalising decides by (`lc`, `type`, `id`, `kwargs`,
/// `__lc_escaped__`; a `not_implemented` object is normalised from its tree).
#[derive(Deserialize)]
struct StreamChunk<'a> {
    #[serde(default, deserialize_with = "present")]
    lc: Option<Value>,
    #[serde(rename = "type", default)]
    kind: Text,
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    kwargs: Option<&'a RawValue>,
    #[serde(default, deserialize_with = "present")]
    content: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    additional_kwargs: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    tool_call_chunks: Option<Value>,
    /// Present: normalising unwraps an object of this one key only, so the chunk is read
    /// whole.
    #[serde(borrow, default, deserialize_with = "present")]
    __lc_escaped__: Option<&'a RawValue>,
}

impl MessageChunk {
    /// The chunk of a JSON text, normalised; the JSON kind of what normalising makes of it
    /// when that is no object. `None`: not JSON serde_json reads.
    fn read(text: &str) -> Option<Result<MessageChunk, &'static str>> {
        let typed = match text.starts_with('{') {
            true => from::<StreamChunk>(text).filter(|c| c.__lc_escaped__.is_none()),
            false => None,
        };
        if let Some(c) = typed {
            let lc = c.lc.as_ref().is_some_and(|v| v == 1);
            // The class an lc object's `id` list ends with.
            let class = || {
                let id = from::<Vec<&RawValue>>(c.id?.get())?;
                Some(id.last()?.get().starts_with('"'))
            };
            match c.kwargs {
                // A constructor: its kwargs, flat.
                Some(kw)
                    if lc
                        && c.kind.0.as_deref() == Some("constructor")
                        && kw.get().starts_with('{')
                        && class() == Some(true) =>
                {
                    if let Some(k) = from::<StreamChunk>(kw.get()) {
                        return Some(Ok(k.flat()));
                    }
                }
                _ if lc && c.kind.0.as_deref() == Some("not_implemented") => {}
                _ => return Some(Ok(c.flat())),
            }
        }
        MessageChunk::of_value(normalize_owned(tree(text)?)).into()
    }

    /// The chunk of a (normalised) tree; the tree's kind when it is no object.
    fn of_value(v: Value) -> Result<MessageChunk, &'static str> {
        let Value::Object(mut m) = v else {
            return Err(crate::wire::json_kind(&v));
        };
        Ok(MessageChunk {
            id: m.field_str("id").map(str::to_string),
            content: m.shift_remove("content"),
            additional_kwargs: m.shift_remove("additional_kwargs"),
            tool_call_chunks: m.shift_remove("tool_call_chunks"),
        })
    }
}

impl StreamChunk<'_> {
    /// The fields of a chunk with no `lc` object to flatten: normalised each.
    fn flat(self) -> MessageChunk {
        MessageChunk {
            id: self
                .id
                .and_then(|id| from::<Text>(id.get()))
                .and_then(|id| id.0),
            content: self.content.map(normalize_owned),
            additional_kwargs: self.additional_kwargs.map(normalize_owned),
            tool_call_chunks: self.tool_call_chunks.map(normalize_owned),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn read_as_its_tree() {
        for line in [
            json!({"event":"on_chain_start","data":{"input":null},"run_id":"r","name":"n","tags":[],"metadata":{"langgraph_node":"a","x":1},"parent_ids":[]}),
            json!({"event":"on_chain_start","data":{"input":{"messages":[]}},"run_id":"r","name":"a","tags":["langsmith:hidden"],"metadata":{"langgraph_node":"a"},"parent_ids":["p"]}),
            json!({"event":"on_chain_start","data":{"input":1},"run_id":1,"name":"a","tags":["x"],"metadata":{"langgraph_node":"a","thread_id":"t"},"parent_ids":["p"]}),
            json!({"event":"on_chain_end","metadata":"not an object","data":null}),
            json!({"event":"on_chain_end","metadata":{"langgraph_node":null},"tags":"x","parent_ids":{}}),
            json!({"event":"on_x","metadata":{"thread_id":null,"langgraph_checkpoint_ns":"tools:1"}}),
            json!({"event":"on_tool_error","data":{"error":"e","tool_call_id":"c","input":1}}),
            json!({"event":"on_tool_end","data":"x"}),
            json!({"event":"on_chat_model_stream","data":{"chunk":"text"}}),
            json!({"event":"on_chat_model_stream","data":{"x":1}}),
            json!({"event":"on_chat_model_stream","data":[{"chunk":{}}]}),
            json!({"event":"on_chain_end","data":[1]}),
            json!({"data":{"output":1,"input":2},"event":"on_tool_end"}),
            json!({"event":"on_tool_error","data":{"error":{"a":1},"tool_call_id":5}}),
            json!({"event":"on_custom_event","data":"x","name":"n"}),
        ] {
            let text = line.to_string();
            let e = Event::read(&text).expect("v2");
            assert_eq!(Some(&e), Event::of_record(&line, None).as_ref(), "{text}");
        }
        let e = Event::read(r#"{"event":"on_chain_start","run_id":1,"metadata":{"langgraph_node":null},"tags":["a","langsmith:hidden"],"parent_ids":["p"]}"#).expect("v2");
        assert_eq!(
            (e.run_id, e.node, e.hidden, e.parents_empty),
            (None, Some(None), true, Some(false))
        );
        let repeated = r#"{"event":"on_a","run_id":"1","run_id":"2"}"#;
        assert_eq!(
            Event::read(repeated).and_then(|e| e.run_id).as_deref(),
            Some("2")
        );
        assert_eq!(Event::read(r#"{"event":"events","data":{}}"#), None);
        assert_eq!(
            Event::read(r#"{"event":"on_a","type":"event","method":"m"}"#),
            None
        );
        // Of `data`, the keys the adapter reads for the kind (a repeated key: the last).
        let data = |line: &str| Event::read(line).map(|e| e.data);
        assert_eq!(
            data(
                r#"{"event":"on_chat_model_end","data":{"input":{"messages":[]},"output":{"id":"m"}}}"#
            ),
            Some(Data::Output(Some(json!({"id":"m"}))))
        );
        assert_eq!(
            data(r#"{"event":"on_tool_end","data":{"input":1,"output":2,"output":3}}"#),
            Some(Data::Output(Some(json!(3))))
        );
        assert_eq!(
            data(r#"{"event":"on_tool_error","data":{"error":"e","input":1}}"#),
            Some(Data::ToolError {
                error: Some(json!("e")),
                tool_call_id: None
            })
        );
        assert_eq!(
            data(r#"{"event":"on_chat_model_start","data":{"input":1}}"#),
            Some(Data::None)
        );
        assert_eq!(
            data(r#"{"event":"on_chain_stream","data":{"chunk":1},"parent_ids":["r"]}"#),
            Some(Data::None)
        );
        assert_eq!(
            data(r#"{"event":"on_chain_stream","data":{"chunk":1},"parent_ids":[]}"#),
            Some(Data::Chunk(Some(json!(1))))
        );
        assert_eq!(
            data(r#"{"event":"on_chain_start","data":[1],"parent_ids":[]}"#),
            Some(Data::Input(None))
        );
        // A model's stream chunk: what the adapter reads of it normalised, as of its tree.
        for chunk in [
            json!({"content":"a","additional_kwargs":{"reasoning_content":"r"},"response_metadata":{},"type":"AIMessageChunk","name":null,"id":"m","tool_calls":[],"tool_call_chunks":[{"id":"c","args":"{"}]}),
            json!({"lc":1,"type":"constructor","id":["x","AIMessageChunk"],"kwargs":{"content":[{"type":"text","text":"b"}],"id":"m","tool_calls":[],"usage_metadata":{"input_tokens":1}}}),
            json!({"lc":1,"type":"constructor","id":["x","ChatMessageChunk"],"kwargs":{"content":"c","role":"critic","additional_kwargs":{"lc":1,"type":"constructor","id":["y","Z"],"kwargs":{"k":1}}}}),
            json!({"lc":1,"type":"constructor","id":["x",1],"kwargs":{"content":"c"}}),
            json!({"lc":1,"type":"not_implemented","id":["x"],"repr":"X(content='d')"}),
            json!({"lc":1,"type":"not_implemented","id":["x"],"repr":"((("}),
            json!({"__lc_escaped__":{"content":"e"}}),
            json!({"__lc_escaped__":"e"}),
            json!({"lc":1,"type":"constructor","id":["x","AIMessageChunk"],"kwargs":[1]}),
            json!({"lc":2,"content":"f","id":["m"]}),
        ] {
            let line = json!({"event":"on_chat_model_stream","data":{"chunk":chunk.clone(),"x":1}});
            let read = data(&line.to_string()).expect("data");
            let tree = MessageChunk::of_value(crate::wire::langchain::normalize_deep(&chunk));
            assert_eq!(read, Data::ModelChunk(Some(tree)), "{chunk}");
        }
        // An `on_custom_event`'s data is a payload, whichever way it was read.
        for text in [
            r#"{"event":"on_custom_event","data":{"a":[1.0,2]},"name":"n","run_id":"r"}"#,
            r#"{"name":"n","event":"on_custom_event","data":{"a":[1.0,2]},"run_id":"r"}"#,
        ] {
            let e = Event::read(text).expect("v2");
            let tree: Value = serde_json::from_str(text).expect("json");
            assert_eq!(Some(&e), Event::of_record(&tree, None).as_ref(), "{text}");
            assert_eq!(e.data, Data::Custom(Payload::from_json(r#"{"a":[1.0,2]}"#)));
        }
    }
}
