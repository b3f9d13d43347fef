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
use crate::wire::langchain::{self as lc, normalize_owned};
use crate::wire::state::State;

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
    /// A root run's start, a tool's start.
    Input(Option<Value>),
    /// A graph step's start.
    StepInput(StepInput),
    /// A model's or a tool's end, or the root chain's whose output is no state [`State`]
    /// reads.
    Output(Option<Value>),
    /// The root chain's end: the state, its messages read as a state's ([`State`]).
    State(Box<State>),
    /// The end of a chain inside the root run: the calls of the AI messages its output holds.
    Calls(Vec<MessageCalls>),
    /// A root chain's stream chunk that is no object (a custom part).
    Chunk(Option<Value>),
    /// A root chain's stream chunk that is an object: its `__interrupt__` list (normalised),
    /// else the calls of the AI messages it holds (a node's update).
    Update {
        interrupt: Option<Value>,
        calls: Vec<MessageCalls>,
    },
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

/// The tool calls of an AI message: the message's `id`, each call as (id, name, args as JSON
/// text).
#[derive(Debug, Clone, PartialEq)]
pub struct MessageCalls {
    pub id: Option<String>,
    pub calls: Vec<(String, String, String)>,
}

/// What the adapter reads of a graph step's input: the calls of a `Send` payload (a list of
/// `tool_call`s), and, when its `messages` is a list, the calls of its AI messages that no
/// tool message in it answers (id, name, message id).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StepInput {
    pub send: Vec<(String, String, String)>,
    pub waiting: Option<Vec<(String, String, Option<String>)>>,
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
    fn of_seq<S: SeqAccess<'de>>(mut s: S) -> Result<Option<Self>, S::Error> {
        while s.next_element::<IgnoredAny>()?.is_some() {}
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
keys_of_an_object!(Input, Output, ToolError);

/// The same, of types that borrow from the line.
macro_rules! borrowed_keys_of_an_object {
    ($($t:ident),*) => {$(
        impl<'de: 'a, 'a> Shape<'de> for $t<'a> {
            fn of_map<M: MapAccess<'de>>(m: M) -> Result<Option<Self>, M::Error> {
                Self::deserialize(serde::de::value::MapAccessDeserializer::new(m)).map(Some)
            }
        }
    )*};
}
borrowed_keys_of_an_object!(ModelData, StreamChunk, ChainData);

impl<'de: 'a, 'a> Shape<'de> for Holder<'a> {
    fn of_map<M: MapAccess<'de>>(m: M) -> Result<Option<Self>, M::Error> {
        let keys = Keys::deserialize(serde::de::value::MapAccessDeserializer::new(m))?;
        Ok(Some(Holder::Object(Box::new(keys))))
    }
    fn of_seq<S: SeqAccess<'de>>(mut s: S) -> Result<Option<Self>, S::Error> {
        let mut items = vec![];
        while let Some(item) = s.next_element::<Lenient<Holder>>()? {
            items.extend(item.0);
        }
        Ok(Some(Holder::Items(items)))
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
            fn visit_seq<S: SeqAccess<'de>>(self, s: S) -> Result<Lenient<T>, S::Error> {
                T::of_seq(s).map(Lenient)
            }
            fn visit_map<M: MapAccess<'de>>(self, m: M) -> Result<Lenient<T>, M::Error> {
                T::of_map(m).map(Lenient)
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// The line as read: `tags` and `parent_ids` as flags, `data` read for the event's kind as it
/// comes ([`Slot`]).
#[derive(Default)]
struct Wire<'a> {
    event: Option<String>,
    data: Slot<'a>,
    run_id: Text,
    name: Text,
    tags: Lenient<Hidden>,
    parent_ids: Lenient<Empty>,
    metadata: Metadata,
    /// Read to tell a v3 event (`type` `"event"` with a string `method`) apart.
    kind: Text,
    method: Text,
}

/// `tags` read as whether it is a list holding `"langsmith:hidden"`.
#[derive(Default)]
struct Hidden(bool);

impl<'de> Shape<'de> for Hidden {
    fn of_seq<S: SeqAccess<'de>>(mut s: S) -> Result<Option<Self>, S::Error> {
        let mut hidden = false;
        while let Some(tag) = s.next_element::<Lenient<HiddenTag>>()? {
            hidden |= tag.0.is_some();
        }
        Ok(Some(Hidden(hidden)))
    }
}

/// A tag that is `"langsmith:hidden"`.
struct HiddenTag;

impl Shape<'_> for HiddenTag {
    fn of_str(s: &str) -> Option<Self> {
        (s == "langsmith:hidden").then_some(HiddenTag)
    }
}

/// `parent_ids` read as whether it is an empty list.
#[derive(Default)]
struct Empty(bool);

impl<'de> Shape<'de> for Empty {
    fn of_seq<S: SeqAccess<'de>>(mut s: S) -> Result<Option<Self>, S::Error> {
        let mut empty = true;
        while s.next_element::<IgnoredAny>()?.is_some() {
            empty = false;
        }
        Ok(Some(Empty(empty)))
    }
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
    /// A chain event's keys, raw, to be read once the envelope says whose event it is (the
    /// root run's, a graph step's, a runnable's inside a node).
    Chain(ChainData<'a>),
    /// Kept raw, to be read once the envelope is read: `data` before `event`.
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
                            w.data = match w.event.as_deref() {
                                None => Slot::Raw(m.next_value()?),
                                Some(e) if e.starts_with("on_chain_") => Slot::Chain(
                                    m.next_value::<Lenient<ChainData>>()?.0.unwrap_or_default(),
                                ),
                                Some(e) => Slot::Read(Data::next(Read::of_kind(e), &mut m)?),
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
            "on_chain_start" if root => Read::Input,
            "on_chain_start" if self.is_step() => Read::StepInput,
            "on_chain_stream" if root => Read::Chunk,
            "on_chain_end" if root => Read::State,
            "on_chain_end" => Read::Calls,
            kind => Read::of_kind(kind),
        }
    }
}

impl Wire<'_> {
    /// The event (`None`: no `event`, a v3 event, or `data` no JSON a tree can hold).
    fn event(self) -> Option<Event> {
        if self.kind.0.as_deref() == Some("event") && self.method.0.is_some() {
            return None;
        }
        let mut e = Event {
            event: self.event?,
            data: Data::None,
            run_id: self.run_id.0,
            name: self.name.0,
            hidden: self.tags.0.is_some_and(|h| h.0),
            parents_empty: self.parent_ids.0.map(|p| p.0),
            node: self.metadata.langgraph_node.map(|n| n.0),
            thread_id: self.metadata.thread_id.0,
            checkpoint_ns: self.metadata.langgraph_checkpoint_ns.0,
        };
        e.data = match self.data {
            Slot::Absent => Data::None,
            Slot::Read(data) => data,
            Slot::Chain(keys) => keys.read(e.reads())?,
            // Read from its tree (no JSON a tree holds: the line is read whole, and fails).
            Slot::Raw(raw) => match e.reads() {
                Read::Nothing => Data::None,
                Read::Custom => Data::Custom(Payload::read(raw.get())?),
                read if e.event.starts_with("on_chain_") => {
                    match from::<Lenient<ChainData>>(raw.get()) {
                        Some(keys) => keys.0.unwrap_or_default().read(read)?,
                        None => Data::of_value(read, Some(tree(raw.get())?)),
                    }
                }
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
    StepInput,
    Output,
    State,
    Calls,
    Chunk,
    ModelChunk,
    ToolError,
    Custom,
}

impl Read {
    /// What is read of `data` for an event of kind `event` that is no chain event (a
    /// chain's is read once the envelope says whose it is: [`Event::reads`]).
    fn of_kind(event: &str) -> Read {
        match event {
            "on_chat_model_end" | "on_tool_end" => Read::Output,
            "on_chat_model_stream" => Read::ModelChunk,
            "on_tool_start" => Read::Input,
            "on_tool_error" => Read::ToolError,
            "on_custom_event" => Read::Custom,
            _ => Read::Nothing,
        }
    }

    /// What is read for `self` of a chain's key read typed (`h`: `None` when no list or
    /// object); `None`: it is read from its tree.
    fn of_holder(self, h: Option<Holder>) -> Option<Data> {
        match self {
            Read::StepInput => StepInput::of_holder(h).map(Data::StepInput),
            Read::Calls => {
                let mut calls = vec![];
                if let Some(h) = h {
                    h.calls(&mut calls)?;
                }
                Some(Data::Calls(calls))
            }
            Read::Chunk => {
                let Some(Holder::Object(keys)) = h else {
                    return None;
                };
                let mut flat = keys.flat()?;
                if let Some(list) = flat.keys.interrupt.take() {
                    let interrupt = Some(normalize_owned(list));
                    return Some(Data::Update {
                        interrupt,
                        calls: vec![],
                    });
                }
                let mut calls = vec![];
                flat.calls_in(&mut calls)?;
                Some(Data::Update {
                    interrupt: None,
                    calls,
                })
            }
            _ => None,
        }
    }
}

impl Data {
    /// What is read for `read` of the `data` a map's next value is.
    fn next<'de, M: MapAccess<'de>>(read: Read, m: &mut M) -> Result<Data, M::Error> {
        // JSON no tree holds (nested too deeply): the line is read whole, and fails.
        let no_tree = || <M::Error as serde::de::Error>::custom("data no tree holds");
        Ok(match read {
            Read::Input => {
                let keys = m.next_value::<Lenient<Input>>()?.0.unwrap_or_default();
                Data::Input(keys.input.map(normalize_owned))
            }
            Read::Output => {
                let keys = m.next_value::<Lenient<Output>>()?.0.unwrap_or_default();
                Data::Output(keys.output.map(normalize_owned))
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
                // A chunk normalising makes another value of, or no object: the line is read
                // from its tree.
                let declined = || <M::Error as serde::de::Error>::custom("a chunk of its tree");
                let chunk = m
                    .next_value::<Lenient<ModelData>>()?
                    .0
                    .and_then(|c| c.chunk);
                Data::ModelChunk(match chunk {
                    Some(Lenient(Some(c))) => Some(Ok(c.message().ok_or_else(declined)?)),
                    Some(Lenient(None)) => return Err(declined()),
                    None => None,
                })
            }
            // A chain's data is read by the envelope's visitor.
            Read::Nothing | Read::StepInput | Read::State | Read::Calls | Read::Chunk => {
                m.next_value::<IgnoredAny>()?;
                Data::None
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
            Read::Input | Read::StepInput => Data::of_key(read, take("input")),
            Read::Output | Read::State | Read::Calls => Data::of_key(read, take("output")),
            Read::Chunk => Data::of_key(read, take("chunk")),
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

impl Data {
    /// What is read for `read` of a chain key's value (normalised here).
    fn of_key(read: Read, v: Option<Value>) -> Data {
        let v = v.map(normalize_owned);
        match read {
            Read::Input => Data::Input(v),
            Read::Output => Data::Output(v),
            // As the typed read has it (read again from its text: a tree is read so only
            // where a line was declined or a record came as a tree).
            Read::State => match v.as_ref().filter(|v| v.is_object()) {
                Some(tree) => match State::read(&tree.to_string()) {
                    Some(state) => Data::State(Box::new(state)),
                    None => Data::Output(v),
                },
                None => Data::Output(v),
            },
            Read::StepInput => {
                Data::StepInput(v.map_or_else(Default::default, |v| StepInput::of_tree(&v)))
            }
            Read::Calls => {
                let mut calls = vec![];
                if let Some(v) = &v {
                    MessageCalls::in_tree(v, &mut calls);
                }
                Data::Calls(calls)
            }
            Read::Chunk => match v {
                Some(Value::Object(mut o)) => match o.shift_remove("__interrupt__") {
                    Some(list) => Data::Update {
                        interrupt: Some(list),
                        calls: vec![],
                    },
                    None => {
                        let mut calls = vec![];
                        MessageCalls::in_tree(&Value::Object(o), &mut calls);
                        Data::Update {
                            interrupt: None,
                            calls,
                        }
                    }
                },
                other => Data::Chunk(other),
            },
            _ => Data::None,
        }
    }
}

impl MessageCalls {
    /// The calls of a (normalised) message, when it is an AI message that made some.
    pub fn of_message(msg: &Value) -> Option<MessageCalls> {
        if lc::message_kind(msg) != Some("ai") {
            return None;
        }
        let calls = lc::tool_calls(msg);
        (!calls.is_empty()).then(|| MessageCalls {
            id: msg.field_str("id").map(str::to_string),
            calls,
        })
    }

    /// The calls of the AI messages a (normalised) tree holds: a message's, a list's items',
    /// an object's `messages`' or else its `update`'s.
    pub fn in_tree(v: &Value, out: &mut Vec<MessageCalls>) {
        match v {
            Value::Array(a) => a.iter().for_each(|m| MessageCalls::in_tree(m, out)),
            Value::Object(_) if lc::is_message(v) => out.extend(MessageCalls::of_message(v)),
            Value::Object(o) => {
                if let Some(msgs) = o.field("messages") {
                    MessageCalls::in_tree(msgs, out);
                } else if let Some(update) = o.field("update") {
                    MessageCalls::in_tree(update, out);
                }
            }
            _ => {}
        }
    }
}

impl StepInput {
    /// The step input of a (normalised) tree.
    fn of_tree(input: &Value) -> StepInput {
        let text = |v: &Value, k: &str| v.field_str(k).map(str::to_string);
        let send = input.as_array().into_iter().flatten();
        let send = send
            .filter(|c| c.field_str("type") == Some("tool_call"))
            .filter_map(|c| {
                let args = c.field("args").map(|a| a.to_string()).unwrap_or_default();
                Some((text(c, "id")?, text(c, "name")?, args))
            })
            .collect();
        let waiting = input
            .field("messages")
            .and_then(Value::as_array)
            .map(|list| {
                let said = list.iter().map(|m| match lc::message_kind(m) {
                    Some("ai") => Said::Calls(text(m, "id"), lc::tool_calls(m)),
                    Some("tool") => text(m, "tool_call_id").map_or(Said::Other, Said::Answers),
                    _ => Said::Other,
                });
                waiting(said.collect())
            });
        StepInput { send, waiting }
    }

    /// The step input of a typed read (`None`: it is read from its tree).
    fn of_holder(h: Option<Holder>) -> Option<StepInput> {
        let mut input = StepInput::default();
        match h {
            None => {}
            Some(Holder::Items(items)) => {
                for item in items {
                    let Holder::Object(keys) = item else { continue };
                    let c = keys.flat()?;
                    if c.type_text() != Some("tool_call") {
                        continue;
                    }
                    if let (Some(id), Some(name)) = (c.id(), c.keys.name.0) {
                        let args = c.keys.args.map(|a| normalize_owned(a).to_string());
                        input.send.push((id, name, args.unwrap_or_default()));
                    }
                }
            }
            Some(Holder::Object(keys)) => {
                let flat = keys.flat()?;
                if let Some(Lenient(Some(Holder::Items(list)))) = flat.keys.messages {
                    let mut said = Vec::with_capacity(list.len());
                    for m in list {
                        let Holder::Object(m) = m else {
                            said.push(Said::Other);
                            continue;
                        };
                        let mut m = m.flat()?;
                        said.push(match m.kind() {
                            Some("ai") => Said::Calls(m.id(), m.calls()),
                            Some("tool") => {
                                m.keys.tool_call_id.0.map_or(Said::Other, Said::Answers)
                            }
                            _ => Said::Other,
                        });
                    }
                    input.waiting = Some(waiting(said));
                }
            }
        }
        Some(input)
    }
}

/// What a message of a step's input list says about calls.
enum Said {
    /// An AI message's id and calls.
    Calls(Option<String>, Vec<(String, String, String)>),
    /// A tool message's call.
    Answers(String),
    Other,
}

/// The calls of a message list's AI messages no tool message in it answers.
fn waiting(said: Vec<Said>) -> Vec<(String, String, Option<String>)> {
    let answered: std::collections::HashSet<&str> = said
        .iter()
        .filter_map(|s| match s {
            Said::Answers(id) => Some(id.as_str()),
            _ => None,
        })
        .collect();
    let mut out = vec![];
    for s in &said {
        if let Said::Calls(message, calls) = s {
            for (id, name, _) in calls {
                if !answered.contains(id.as_str()) {
                    out.push((id.clone(), name.clone(), message.clone()));
                }
            }
        }
    }
    out
}

/// A chain event's `data` keys, raw.
#[derive(Default, Deserialize)]
struct ChainData<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    input: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    output: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    chunk: Option<&'a RawValue>,
}

impl ChainData<'_> {
    /// What is read for `read` (`None`: JSON no tree holds).
    fn read(self, read: Read) -> Option<Data> {
        let raw = match read {
            Read::Input | Read::StepInput => self.input,
            Read::Output | Read::State | Read::Calls => self.output,
            Read::Chunk => self.chunk,
            _ => return Some(Data::None),
        };
        let Some(raw) = raw else {
            return Some(Data::of_key(read, None));
        };
        let typed = match read {
            Read::State => State::read(raw.get()).map(|s| Data::State(Box::new(s))),
            Read::StepInput | Read::Calls | Read::Chunk => {
                from::<Lenient<Holder>>(raw.get()).and_then(|h| read.of_holder(h.0))
            }
            _ => None,
        };
        Some(match typed {
            Some(data) => data,
            None => Data::of_key(read, Some(tree(raw.get())?)),
        })
    }
}

/// A value as the calls of the messages it holds are read of it: a list's items (of no
/// other kind: nothing), or an object's keys.
enum Holder<'a> {
    Items(Vec<Holder<'a>>),
    Object(Box<Keys<'a>>),
}

/// The keys of an object that tell whether it is a message (or an lc constructor of one),
/// its calls, or the messages or update it holds; `__interrupt__` for a root chunk. A
/// repeated key fails the read, and the line is read from its tree.
#[derive(Deserialize)]
struct Keys<'a> {
    #[serde(borrow, default)]
    lc: Option<&'a RawValue>,
    #[serde(rename = "type", default, deserialize_with = "present")]
    kind: Option<Text>,
    #[serde(default, deserialize_with = "present")]
    role: Option<Text>,
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(default, deserialize_with = "present")]
    content: Option<IgnoredAny>,
    #[serde(borrow, default)]
    kwargs: Option<Lenient<Holder<'a>>>,
    #[serde(default, deserialize_with = "present")]
    tool_calls: Option<Value>,
    #[serde(default)]
    tool_call_id: Text,
    #[serde(default)]
    name: Text,
    #[serde(default, deserialize_with = "present")]
    args: Option<Value>,
    #[serde(borrow, default, deserialize_with = "present")]
    messages: Option<Lenient<Holder<'a>>>,
    #[serde(borrow, default, deserialize_with = "present")]
    update: Option<Lenient<Holder<'a>>>,
    #[serde(rename = "__interrupt__", default, deserialize_with = "present")]
    interrupt: Option<Value>,
    #[serde(rename = "__lc_escaped__", default, deserialize_with = "present")]
    escaped: Option<IgnoredAny>,
}

/// An object's keys as normalising leaves them: an lc constructor's kwargs after the `type`
/// (or `__type__`) its class gives.
struct Flat<'a> {
    keys: Keys<'a>,
    head: Head,
}

/// The `type` of a [`Flat`] object.
enum Head {
    /// Its own.
    Own,
    /// A constructor's message class's.
    Type(String),
    /// None: a constructor of another class (`__type__`).
    Class,
}

impl<'a> Keys<'a> {
    /// The object normalising makes of this one; `None` when it makes another value of it
    /// (an escaped dict, a Python repr): it is read from its tree.
    fn flat(self) -> Option<Flat<'a>> {
        let lc = self.lc.is_some_and(|v| v.get() == "1");
        let kind = self.kind.as_ref().and_then(|k| k.0.as_deref());
        if self.escaped.is_some() || (lc && kind == Some("not_implemented")) {
            return None;
        }
        let class = match lc && kind == Some("constructor") {
            true => self.id.and_then(class_of),
            false => None,
        };
        if let (Some(class), Some(Lenient(Some(Holder::Object(_))))) = (&class, &self.kwargs) {
            let Some(Lenient(Some(Holder::Object(kwargs)))) = self.kwargs else {
                return None;
            };
            let role = kwargs.role.as_ref().and_then(|r| r.0.as_deref());
            let head = match lc::constructor_type(class, role) {
                Some(t) => Head::Type(t.to_string()),
                None => Head::Class,
            };
            return Some(Flat {
                keys: *kwargs,
                head,
            });
        }
        Some(Flat {
            keys: self,
            head: Head::Own,
        })
    }
}

/// The class an lc object's `id` list ends with.
fn class_of(id: &RawValue) -> Option<String> {
    let id = from::<Vec<&RawValue>>(id.get())?;
    from::<Text>(id.last()?.get())?.0
}

impl Flat<'_> {
    /// `type`, when a string.
    fn type_text(&self) -> Option<&str> {
        match &self.head {
            Head::Own => self.keys.kind.as_ref().and_then(|k| k.0.as_deref()),
            Head::Type(t) => Some(t),
            Head::Class => None,
        }
    }

    /// The message kind (`lc::message_kind`).
    fn kind(&self) -> Option<&str> {
        let role = || self.keys.role.as_ref().and_then(|r| r.0.as_deref());
        self.type_text().or_else(role).map(lc::kind_of)
    }

    /// Whether it is a message (`lc::is_message`).
    fn is_message(&self) -> bool {
        let typed = match self.head {
            Head::Own => self.keys.kind.is_some(),
            Head::Type(_) => true,
            Head::Class => false,
        };
        self.keys.content.is_some() && (typed || self.keys.role.is_some())
    }

    fn id(&self) -> Option<String> {
        from::<Text>(self.keys.id?.get())?.0
    }

    fn calls(&mut self) -> Vec<(String, String, String)> {
        let calls = self.keys.tool_calls.take().map(normalize_owned);
        calls.map_or_else(Vec::new, |c| lc::calls_of_list(&c))
    }

    /// [`MessageCalls::in_tree`] of this object (`None`: read from its tree).
    fn calls_in(mut self, out: &mut Vec<MessageCalls>) -> Option<()> {
        if self.is_message() {
            if self.kind() == Some("ai") {
                let calls = self.calls();
                if !calls.is_empty() {
                    out.push(MessageCalls {
                        id: self.id(),
                        calls,
                    });
                }
            }
            return Some(());
        }
        match (self.keys.messages, self.keys.update) {
            (Some(Lenient(Some(h))), _) | (None, Some(Lenient(Some(h)))) => h.calls(out),
            _ => Some(()),
        }
    }
}

impl Holder<'_> {
    /// [`MessageCalls::in_tree`] of this value (`None`: read from its tree).
    fn calls(self, out: &mut Vec<MessageCalls>) -> Option<()> {
        match self {
            Holder::Items(items) => items.into_iter().try_for_each(|h| h.calls(out)),
            Holder::Object(keys) => keys.flat()?.calls_in(out),
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
struct ToolError {
    #[serde(default, deserialize_with = "present")]
    error: Option<Value>,
    #[serde(default)]
    tool_call_id: Text,
}

#[derive(Deserialize)]
struct ModelData<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    chunk: Option<Lenient<StreamChunk<'a>>>,
}

/// A model's stream chunk as written, flat (`{"content",…,"type":"AIMessageChunk"}`) or
/// serialised (`{"lc":1,"type":"constructor","id":[…],"kwargs":{…}}`): the keys
/// [`MessageChunk`] takes and those normalising decides by (`lc`, `type`, `id`, `kwargs`,
/// `__lc_escaped__`; an escaped or `not_implemented` object is normalised from its tree).
#[derive(Deserialize)]
struct StreamChunk<'a> {
    #[serde(default, deserialize_with = "present")]
    lc: Option<Value>,
    #[serde(rename = "type", default)]
    kind: Text,
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    kwargs: Option<Box<Lenient<StreamChunk<'a>>>>,
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
    /// The chunk normalised (an lc constructor's kwargs); `None` when normalising makes
    /// another value of it (an escaped dict, a Python repr).
    fn message(self) -> Option<MessageChunk> {
        let lc = self.lc.as_ref().is_some_and(|v| v == 1);
        let kind = self.kind.0.as_deref();
        if self.__lc_escaped__.is_some() || (lc && kind == Some("not_implemented")) {
            return None;
        }
        let kwargs = matches!(self.kwargs.as_deref(), Some(Lenient(Some(_))));
        if lc && kind == Some("constructor") && kwargs && self.id.and_then(class_of).is_some() {
            return self.kwargs.and_then(|k| k.0).map(StreamChunk::flat);
        }
        Some(self.flat())
    }

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
        // `tags` holding the tag (escaped too), not a list holding it.
        for (tags, hidden) in [
            (r#"["langsmith\u003ahidden"]"#, true),
            (r#"[["langsmith:hidden"],{"a":"langsmith:hidden"}]"#, false),
            ("[]", false),
        ] {
            let text = format!(r#"{{"event":"on_x","tags":{tags},"parent_ids":[[]]}}"#);
            let e = Event::read(&text).expect("v2");
            assert_eq!(e.hidden, hidden, "{tags}");
            let tree: Value = serde_json::from_str(&text).expect("json");
            assert_eq!(Some(&e), Event::of_record(&tree, None).as_ref(), "{tags}");
        }
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
        // A chain's data, typed for the root run, a graph step or a runnable inside a node,
        // reads as its tree does.
        let ai = json!({"content":"","type":"ai","id":"m1","tool_calls":[{"id":"c1","name":"f","args":{"k":1}},{"id":"c2","name":"g","args":"{}"}]});
        let ctor = |class: &str, kwargs: Value| json!({"lc":1,"type":"constructor","id":["x",class],"kwargs":kwargs});
        let ai_ctor = ctor(
            "AIMessage",
            json!({"content":"","id":"m2","tool_calls":[{"id":"c3","name":"f","args":{"a":{"lc":1,"type":"constructor","id":["y","Z"],"kwargs":{"k":2}}}}]}),
        );
        let tool = json!({"content":"ok","type":"tool","tool_call_id":"c1"});
        let values = [
            json!({"messages":[ai.clone(), tool.clone(), ai_ctor.clone()]}),
            json!({"messages":[ai_ctor.clone(), ctor("ToolMessage", json!({"content":"r","tool_call_id":"c3"}))]}),
            json!({"agent":{"messages":[ai.clone()]}}),
            json!({"update":{"messages":[ai.clone()]},"goto":"x"}),
            json!({"messages":null,"update":[ai.clone()]}),
            json!([ai.clone(), [ai_ctor.clone()], 1, "s"]),
            json!([{"type":"tool_call","id":"c9","name":"f","args":{"x":[1.5]}},{"type":"tool_call","id":"c8"},ctor("Other", json!({"type":"tool_call","id":"c7","name":"h"}))]),
            json!({"role":"assistant","content":"","id":"m3","tool_calls":[{"id":"c4","name":"f"}]}),
            json!({"type":7,"role":"ai","content":"x","tool_calls":[{"id":"c5","name":"f","args":null}]}),
            ctor(
                "ChatMessage",
                json!({"role":"assistant","content":"","tool_calls":[{"id":"c6","name":"f","args":{}}]}),
            ),
            ctor(
                "Other",
                json!({"content":"","type":"ai","tool_calls":[{"id":"c10","name":"f","args":{}}]}),
            ),
            ctor(
                "Other",
                json!({"content":"","role":"ai","tool_calls":[{"id":"c11","name":"f","args":{}}]}),
            ),
            json!({"lc":1,"type":"constructor","id":["x",1],"kwargs":{"content":"","type":"ai","tool_calls":[{"id":"c12","name":"f"}]}}),
            ctor("AIMessage", json!([1])),
            json!({"__interrupt__":[{"value":"v","id":"i1"}],"messages":[ai.clone()]}),
            json!({"__interrupt__":null}),
            json!({"__lc_escaped__":{"messages":[ai.clone()]}}),
            json!({"messages":[{"lc":1,"type":"not_implemented","id":["x"],"repr":"Y(a=1)"}, ai.clone()]}),
            json!({"messages":[ai.clone(), {"type":"tool","content":"dup","tool_call_id":"c1","tool_call_id":"c2"}]}),
            json!({"messages":{"not":"a list"}}),
            json!("tools"),
            json!([["custom", {"a": 1}]]),
            json!(["custom", {"a": 1}]),
            json!(null),
        ];
        let mut values: Vec<String> = values.iter().map(Value::to_string).collect();
        // A repeated key: the last, as in a tree.
        values.push(format!(
            r#"{{"messages":[{ai},{{"type":"tool","content":"","tool_call_id":"c1","tool_call_id":"c2"}}]}}"#
        ));
        for v in values {
            for (kind, key, parents) in [
                ("on_chain_start", "input", "[]"),
                ("on_chain_start", "input", r#"["r"]"#),
                ("on_chain_stream", "chunk", "[]"),
                ("on_chain_end", "output", "[]"),
                ("on_chain_end", "output", r#"["r"]"#),
            ] {
                let meta = r#"{"langgraph_node":"agent"}"#;
                let first = format!(
                    r#"{{"event":"{kind}","data":{{"{key}":{v},"input":1}},"name":"agent","metadata":{meta},"parent_ids":{parents}}}"#
                );
                let last = format!(
                    r#"{{"name":"agent","data":{{"{key}":{v}}},"metadata":{meta},"event":"{kind}","parent_ids":{parents}}}"#
                );
                for text in [first, last] {
                    let e = Event::read(&text).expect("v2");
                    let tree: Value = serde_json::from_str(&text).expect("json");
                    assert_eq!(Some(&e), Event::of_record(&tree, None).as_ref(), "{text}");
                }
            }
        }
        // The root end's state is read as a state, its messages shared.
        let root_end =
            r#"{"event":"on_chain_end","data":{"output":{"messages":[],"k":1}},"parent_ids":[]}"#;
        let data = Event::read(root_end).map(|e| e.data);
        assert!(matches!(data, Some(Data::State(_))), "{data:?}");
        let step = |input: &str| {
            let text = format!(
                r#"{{"event":"on_chain_start","data":{{"input":{input}}},"name":"tools","metadata":{{"langgraph_node":"tools"}},"parent_ids":["r"]}}"#
            );
            Event::read(&text).map(|e| e.data)
        };
        let waiting = StepInput {
            send: vec![],
            waiting: Some(vec![("c2".into(), "g".into(), Some("m1".into()))]),
        };
        assert_eq!(
            step(&json!({"messages":[ai.clone(), tool.clone()]}).to_string()),
            Some(Data::StepInput(waiting))
        );
        let calls = |v: Value| {
            let text =
                format!(r#"{{"event":"on_chain_end","data":{{"output":{v}}},"parent_ids":["r"]}}"#);
            Event::read(&text).map(|e| e.data)
        };
        assert_eq!(
            calls(json!({"messages":[ai_ctor]})),
            Some(Data::Calls(vec![MessageCalls {
                id: Some("m2".into()),
                calls: vec![(
                    "c3".into(),
                    "f".into(),
                    r#"{"a":{"__type__":"Z","k":2}}"#.into()
                )]
            }]))
        );
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
