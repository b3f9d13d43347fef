//! v2 `astream_events` events (`{"event":"on_…","data":…,"run_id","name","tags","metadata",
//! "parent_ids"}`), read typed on a parse thread: the envelope as strings and flags, of
//! `metadata` (a dozen keys from the API server) only the three the adapter reads, and of
//! `data` only what the adapter reads for the event's kind ([`Data`]): a model end's `input`,
//! the whole conversation, is never built, and a model's stream chunk is read into a
//! [`MessageChunk`].
//!
//! A string field that holds another value reads as absent, as a tree's `as_str` does. A line
//! the typed read declines (a repeated key) and a record that came as a tree are read from the
//! text their tree writes; a chain's `data` or a model's chunk that LangChain-normalising makes
//! another value of (an escaped dict, a Python repr) from its normalised tree written back.

use std::borrow::Cow;

use serde::de::{IgnoredAny, MapAccess, SeqAccess};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::payload::Payload;
use crate::wire::langchain::{self as lc, normalize_owned};
use crate::wire::state::State;
use crate::wire::{Lenient, Object, Present, Shape, Text};

mod chain;
use chain::*;

/// A v2 event as the adapter reads it.
#[derive(Debug, Clone, PartialEq, Default)]
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
    /// What is read of `metadata`.
    pub meta: Metadata,
}

/// What is read of `metadata`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct Metadata {
    /// `Some(None)` when present but no string.
    langgraph_node: Present<Text>,
    pub thread_id: Text,
    /// The namespace of the task the event ran in (`tools:<id>|model:<id>`): where a graph
    /// nested in a tool call (a sub-agent) shows.
    #[serde(rename = "langgraph_checkpoint_ns")]
    pub ns: Text,
    /// A chat model's provider and model as LangChain traces them: usage names them when the
    /// message does not.
    pub ls_provider: Text,
    pub ls_model_name: Text,
}

/// What the adapter reads of an event's `data`, by the event's kind (`None` inside: the key
/// is absent, or `data` is no object).
#[derive(Debug, Clone, PartialEq)]
pub enum Data {
    /// The `input` of a root run's or a tool's start; the `output` of a model's or a tool's
    /// end, or of the root chain's whose output is no state [`State`] reads; a tool error's
    /// `data` as it is (`None` too when nothing is read of this kind's `data`, or it has none).
    Value(Option<Value>),
    /// The root chain's end: the state, its messages read as a state's ([`State`]).
    State(Box<State>),
    /// The end of a chain inside the root run, a root chain's stream chunk (a node's update)
    /// or a graph step's start: the calls of the AI messages its output or chunk holds, or
    /// those the step is to execute, those of a `Send` payload (a list of `tool_call`s, of no
    /// message), or, when its `messages` is a list, those of its AI messages that no tool
    /// message in it answers (a resumed run re-executes them). Then, of a step whose input is
    /// a state whose first entry is that list: the list read as a state's ([`State`]), the
    /// conversation so far.
    Calls(Vec<MessageCalls>, Option<Conversation>),
    /// A root chain's stream chunk that is a `[mode, payload]` pair (a stream mode's part):
    /// the payload (normalised) of a `custom` one.
    Part(Option<Value>),
    /// A root chain's stream chunk that is an object with an `__interrupt__` list
    /// (normalised).
    Interrupt(Value),
    /// A model's stream chunk, or the JSON kind it has when it is no object.
    ModelChunk(Option<Result<MessageChunk, &'static str>>),
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
    pub tool_call_chunks: Vec<ToolChunk>,
}

/// A `tool_call_chunks` entry as it is read: its id, name and args when strings, its index
/// unless null. A v2 stream's chunk reads it typed, without a tree.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct ToolChunk {
    pub(crate) id: Text,
    pub(crate) index: Option<Value>,
    pub(crate) name: Text,
    pub(crate) args: Text,
}

impl ToolChunk {
    /// The entries of a `tool_call_chunks` list (a JSON text's or a tree's); `None`: no list,
    /// or a key repeats.
    pub fn list<'de, D: serde::Deserializer<'de>>(d: D) -> Option<Vec<ToolChunk>> {
        let list = Vec::<Object<ToolChunk>>::deserialize(d).ok()?;
        Some(list.into_iter().map(|c| c.0.unwrap_or_default()).collect())
    }
}

/// The tool calls of an AI message, with the message's `id`.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageCalls {
    pub id: Option<String>,
    pub calls: Vec<lc::Call>,
}

/// A conversation's messages, read as a state's ([`State`]).
pub type Conversation = Vec<std::sync::Arc<crate::wire::state::SharedJson>>;

/// The line as read: the event filled in place (its few hundred bytes not moved through
/// the returns), `data` read for the event's kind as it comes (every recorder writes `event`
/// first: its kind is read whatever the rest of the envelope says).
#[derive(Default)]
struct Wire<'a> {
    ev: Box<Event>,
    /// A chain event's keys, raw, to be read once the envelope says whose event it is (the
    /// root run's, a graph step's, a runnable's inside a node).
    chain: Option<ChainData<'a>>,
    /// A model's chunk the typed read declined ([`MessageChunk::in_line`]).
    chunk: bool,
    /// The keys seen, by [`Key`].
    seen: [bool; 9],
    /// `type` is `"event"`: with `method` a string, a v3 event.
    is_event: bool,
    /// `method` is a string.
    method: bool,
}

/// A tag that is `"langsmith:hidden"`.
struct HiddenTag;

impl Shape<'_> for HiddenTag {
    fn of_str(s: &str) -> Option<Self> {
        (s == "langsmith:hidden").then_some(HiddenTag)
    }
}

/// A list of tags holding `"langsmith:hidden"`.
struct Hidden;

impl<'de> Shape<'de> for Hidden {
    fn of_seq<S: SeqAccess<'de>>(mut s: S) -> Result<Option<Self>, S::Error> {
        let mut hidden = None;
        while let Some(tag) = s.next_element::<Lenient<HiddenTag>>()? {
            hidden = hidden.or(tag.0.map(|_| Hidden));
        }
        Ok(hidden)
    }
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

/// serde derive cannot read one field by the value of another read before it: this map
/// reader reads the envelope in one pass with `data` read for its event's kind (every
/// recorder writes `event` first). A repeated key or `data` before `event` is an error, and
/// the line is read from the text its tree writes, `event` first.
impl<'de> Shape<'de> for Wire<'de> {
    fn of_map<M: MapAccess<'de>>(mut m: M) -> Result<Option<Wire<'de>>, M::Error> {
        use serde::de::Error;
        let mut w = Wire::default();
        while let Some(key) = m.next_key::<Key>()? {
            if key != Key::Other && std::mem::replace(&mut w.seen[key as usize], true) {
                return Err(M::Error::custom("a repeated key"));
            }
            let ev = &mut w.ev;
            match key {
                Key::Event => ev.event = m.next_value()?,
                Key::Data if !w.seen[Key::Event as usize] => {
                    return Err(M::Error::custom("`data` before `event`"))
                }
                Key::Data if ev.event.starts_with("on_chain_") => {
                    w.chain = Some(m.next_value::<Object<ChainData>>()?.0.unwrap_or_default())
                }
                Key::Data => match Data::next(&ev.event, &mut m)? {
                    Some(data) => ev.data = data,
                    None => w.chunk = true,
                },
                Key::RunId => ev.run_id = m.next_value::<Text>()?.0,
                Key::Name => ev.name = m.next_value::<Text>()?.0,
                Key::Tags => ev.hidden = m.next_value::<Lenient<Hidden>>()?.0.is_some(),
                Key::ParentIds => {
                    let ids = m.next_value::<Lenient<Vec<IgnoredAny>>>()?;
                    ev.parents_empty = ids.0.map(|p| p.is_empty());
                }
                Key::Metadata => ev.meta = m.next_value::<Object<_>>()?.0.unwrap_or_default(),
                Key::Type => w.is_event = m.next_value::<Text>()?.0.is_some_and(|t| t == "event"),
                Key::Method => w.method = m.next_value::<Text>()?.0.is_some(),
                Key::Other => drop(m.next_value::<IgnoredAny>()?),
            }
        }
        Ok(Some(w))
    }
}

impl Event {
    /// The v2 event of a line whose `event` is `on_…` (`None` for any other line). A line
    /// the typed read declines (a repeated key, `data` before `event`) is read from the text
    /// its tree writes.
    pub fn read(text: &str) -> Option<Box<Event>> {
        let e = Event::of_text(text).or_else(|| Event::of_tree(&from(text)?))?;
        e.event.starts_with("on_").then_some(e)
    }

    /// The v2 event a record's tree holds, as the adapter reads it: the record, or the `data`
    /// of an `events` stream part (`sse_event`: the SSE frame's name), read from the text its
    /// tree writes. `None` for a record of another kind.
    pub fn of_record(v: &Value, sse_event: Option<&str>) -> Option<Box<Event>> {
        let part = |e: &str| e.split('|').next() == Some("events");
        let event = v.get("event").and_then(Value::as_str);
        let read = match sse_event {
            Some(e) => part(e),
            None => event.is_some_and(|e| e.starts_with("on_") || part(e)),
        };
        read.then_some(payload(v, sse_event))
            .and_then(Event::of_tree)
    }

    /// The v2 event of a tree, read from the text it writes with `event` first (`data` is
    /// read by it).
    fn of_tree(v: &Value) -> Option<Box<Event>> {
        match v.as_object() {
            Some(o) if o.keys().next().is_some_and(|k| k != "event") => {
                let mut o = o.clone();
                let event = o.shift_remove("event")?;
                o.shift_insert(0, "event".into(), event);
                Event::of_text(&Value::Object(o).to_string())
            }
            _ => Event::of_text(&v.to_string()),
        }
    }

    /// The v2 event of a JSON text with an `event` string (not a v3 event); `None` too when
    /// the typed read declines it.
    fn of_text(text: &str) -> Option<Box<Event>> {
        from::<Lenient<Wire>>(text)?.0?.event(text)
    }

    /// Whether the event is of the root run: no parent runs (or, without `parent_ids`, a
    /// chain event outside any node).
    pub fn is_root(&self) -> bool {
        let outside =
            || self.meta.langgraph_node.0.is_none() && self.event.starts_with("on_chain_");
        self.parents_empty.unwrap_or_else(outside)
    }

    /// `metadata.langgraph_node`, when a string.
    pub fn node(&self) -> Option<&str> {
        self.meta.langgraph_node.0.as_ref()?.0.as_deref()
    }

    /// Whether this chain start is a graph step the adapter shows (a node's run of its own
    /// name, not hidden).
    pub fn is_step(&self) -> bool {
        let name = self.name.as_deref().unwrap_or_default();
        self.node() == Some(name) && !name.starts_with("__") && !self.hidden
    }
}

impl Wire<'_> {
    /// The event (`None`: no `event`, a v3 event, or `data` no JSON a tree can hold), a
    /// model's chunk the typed read declined read again from the line's `text`.
    fn event(self, text: &str) -> Option<Box<Event>> {
        let mut ev = self.ev;
        if (self.is_event && self.method) || !self.seen[Key::Event as usize] {
            return None;
        }
        if let Some(keys) = self.chain {
            ev.data = keys.read(&ev)?;
        } else if self.chunk {
            ev.data = Data::ModelChunk(Some(MessageChunk::in_line(text)?));
        }
        Some(ev)
    }
}

/// Absent.
impl Default for Data {
    fn default() -> Self {
        Data::Value(None)
    }
}

impl Data {
    /// The value read ([`Data::Value`]; `null` when there is none).
    pub fn value(&self) -> &Value {
        match self {
            Data::Value(Some(v)) => v,
            _ => &Value::Null,
        }
    }

    /// What is read of `data` for an event of kind `event` that is no chain event (a chain's
    /// is read once the envelope says whose it is: [`ChainData::read`]); `None`: a model's
    /// chunk the typed read declines, read again from its text ([`MessageChunk::in_line`]).
    fn next<'de, M: MapAccess<'de>>(event: &str, m: &mut M) -> Result<Option<Data>, M::Error> {
        // JSON no tree holds (nested too deeply): the line is read whole, and fails.
        let no_tree = || <M::Error as serde::de::Error>::custom("data no tree holds");
        Ok(Some(match event {
            // A tool's start: `input`; a model's or a tool's end: `output` (a model end's
            // `input`, the conversation, skipped).
            "on_tool_start" | "on_chat_model_end" | "on_tool_end" => {
                let keys = m.next_value::<Object<ChainData>>()?.0.unwrap_or_default();
                let raw = if event == "on_tool_start" {
                    keys.input
                } else {
                    keys.output
                };
                let tree = raw.0.map(|r| normalised_tree(r.get()).ok_or_else(no_tree));
                Data::Value(tree.transpose()?)
            }
            "on_tool_error" => Data::Value(Some(m.next_value()?)),
            "on_custom_event" => {
                let raw = m.next_value::<&RawValue>()?;
                Data::Custom(Payload::read(raw.get()).ok_or_else(no_tree)?)
            }
            "on_chat_model_stream" => {
                let chunk = m
                    .next_value::<Object<ModelData>>()?
                    .0
                    .ok()
                    .and_then(|c| c.chunk.0);
                let flat = |k: Keys<'de>| k.flat(false)?.chunk();
                match chunk.map(|c| c.0.ok().and_then(flat)) {
                    Some(Some(c)) => Data::ModelChunk(Some(Ok(c))),
                    Some(None) => return Ok(None),
                    None => Data::ModelChunk(None),
                }
            }
            _ => {
                m.next_value::<IgnoredAny>()?;
                Data::Value(None)
            }
        }))
    }
}

/// The v2 event payload of a record's tree (`sse_event`: its SSE frame's name): a record
/// `{"event":"events","data":…}` holds the event in its `data` (a frame named `events` holds
/// it whole), any other record is the event.
pub fn payload<'a>(v: &'a Value, sse_event: Option<&str>) -> &'a Value {
    let part = v.get("event").and_then(Value::as_str) == Some("events");
    let data = v
        .get("data")
        .filter(|_| part && sse_event != Some("events"));
    data.unwrap_or(v)
}

fn from<'a, T: Deserialize<'a>>(text: &'a str) -> Option<T> {
    serde_json::from_str(text).ok()
}

/// The tree of a JSON text, LangChain-normalised.
fn normalised_tree(text: &str) -> Option<Value> {
    from(text).map(normalize_owned)
}

// The keys of `data` the adapter reads, by event kind (a repeated key fails the read).

#[derive(Default, Deserialize)]
#[serde(default, bound(deserialize = "'de: 'a"))]
struct ModelData<'a> {
    chunk: Present<Object<Keys<'a>>>,
}

/// A line's `data`, read again for a model's chunk the typed read declined.
#[derive(Deserialize)]
struct Line<'a> {
    #[serde(borrow)]
    data: ChainData<'a>,
}

impl MessageChunk {
    /// The chunk of a model stream's line the typed read declined (an escaped dict, a Python
    /// repr, no object): its normalised tree's text read as it is; the tree's kind when it
    /// is no object. `None`: no chunk a tree holds.
    fn in_line(line: &str) -> Option<Result<MessageChunk, &'static str>> {
        let chunk = normalised_tree(from::<Line>(line)?.data.chunk.0?.get())?;
        if !chunk.is_object() {
            return Some(Err(crate::wire::json_kind(&chunk)));
        }
        let text = chunk.to_string();
        Some(Ok(from::<Keys>(&text)?.flat(true)?.chunk()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(id: &str, name: &str, args: &str) -> lc::Call {
        let (id, name, args) = (id.into(), name.into(), args.into());
        lc::Call { id, name, args }
    }

    /// A model chunk's `tool_call_chunks` read typed read as their tree does: a repeated key
    /// (the last), an `lc` key spelled with an escape (normalised).
    #[test]
    fn tool_call_chunks_read_as_their_tree() {
        for (calls, id) in [
            (r#"[{"id":"c","id":"d","args":"x","index":0}]"#, "d"),
            (
                r#"[{"\u006cc":1,"type":"constructor","id":["x","Y"],"kwargs":{"id":"e"}}]"#,
                "e",
            ),
            (
                r#"[{"id":"f","name":"g","args":"{\"a\":1}","index":"2"}]"#,
                "f",
            ),
        ] {
            let text = format!(
                r#"{{"event":"on_chat_model_stream","data":{{"chunk":{{"content":"","tool_call_chunks":{calls}}}}}}}"#
            );
            let e = Event::read(&text).expect("v2");
            let tree: Value = serde_json::from_str(&text).expect("json");
            assert_eq!(Some(&e), Event::of_record(&tree, None).as_ref(), "{text}");
            let Data::ModelChunk(Some(Ok(chunk))) = e.data else {
                panic!("a chunk: {text}");
            };
            assert_eq!(
                chunk.tool_call_chunks[0].id.0.as_deref(),
                Some(id),
                "{text}"
            );
        }
    }

    /// A string kept raw reads as its text, borrowed unless it has an escape; another value
    /// has none.
    #[test]
    fn a_raw_string_is_read_as_its_text() {
        let raw = |t: &'static str| Some(serde_json::from_str::<&RawValue>(t).expect("json"));
        assert!(matches!(text_of(raw(r#""ai""#)), Some(Cow::Borrowed("ai"))));
        assert_eq!(text_of(raw(r#""a\u0069\"""#)).as_deref(), Some("ai\""));
        for other in ["1", "null", "{}", r#"["a"]"#] {
            assert_eq!(text_of(raw(other)), None, "{other}");
        }
        assert_eq!(text_of(None), None);
    }

    /// A chain's data reads as its tree does, of the root run, a graph step or a runnable
    /// inside a node, with `parent_ids` (Python) or without (JS).
    #[test]
    fn a_chain_is_read_as_its_tree() {
        let ai = json!({"content":"","type":"ai","id":"m","tool_calls":[{"id":"c","name":"f"}]});
        // A line of the root run (`G`, in no node) or of node `agent`'s step, with
        // `parent_ids` (Python) or without (JS).
        let line = |event: &str, data: Value, step: bool, parents: bool| {
            let (name, meta, parent) = match step {
                true => ("agent", json!({"langgraph_node":"agent"}), json!(["p"])),
                false => ("G", json!({}), json!([])),
            };
            let mut line = json!({"event":event,"data":data,"name":name,"metadata":meta});
            if parents {
                line["parent_ids"] = parent;
            }
            line.to_string()
        };
        let (start, end, stream) = ("on_chain_start", "on_chain_end", "on_chain_stream");
        let state = json!({"output":{"messages":[ai.clone()]}});
        let send = json!({"input":[{"type":"tool_call","id":"c","name":"f","args":{}}]});
        let runnable = line(start, json!({"input":1}), true, true).replacen("agent", "W", 1);
        for text in [
            // The root run's, a graph step's, a runnable's inside a node.
            line(start, json!({"input":{"messages":[]}}), false, true),
            line(
                start,
                json!({"input":{"messages":[ai.clone()]}}),
                true,
                true,
            ),
            runnable,
            line(end, state.clone(), false, true),
            line(end, state.clone(), true, true),
            line(
                stream,
                json!({"chunk":{"agent":state.clone()}}),
                false,
                true,
            ),
            line(stream, json!({"chunk":{}}), true, true),
            // A step's `Send` payload; a step's state with a key that may normalise.
            line(start, send, true, true),
            line(start, json!({"input":{"messages":[],"id":{}}}), true, true),
            // Without `parent_ids` (JS), by `langgraph_node`.
            line(end, state.clone(), false, false),
            line(end, state.clone(), true, false),
            // Python's default separators.
            line(end, state.clone(), false, true).replace(':', ": "),
            // A stream mode's part, a root output that is no state.
            line(stream, json!({"chunk":["custom",1]}), false, true),
            line(end, json!({"output":{"k":1,"messages":[]}}), false, true),
            // A root output holding `langgraph_node`.
            line(
                end,
                json!({"output":{"messages":[],"langgraph_node":1}}),
                false,
                false,
            ),
        ] {
            let tree: Value = serde_json::from_str(&text).expect("json");
            let e = Event::read(&text);
            assert!(e.is_some(), "{text}");
            assert_eq!(e, Event::of_record(&tree, None), "{text}");
        }
    }

    #[test]
    fn read_whatever_the_text() {
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
            (
                e.run_id,
                e.meta.langgraph_node.0.map(|n| n.0),
                e.hidden,
                e.parents_empty
            ),
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
            Some(Data::Value(Some(json!({"id":"m"}))))
        );
        assert_eq!(
            data(r#"{"event":"on_tool_end","data":{"input":1,"output":2,"output":3}}"#),
            Some(Data::Value(Some(json!(3))))
        );
        assert_eq!(
            data(r#"{"event":"on_tool_error","data":{"error":"e","input":1}}"#),
            Some(Data::Value(Some(json!({"error":"e","input":1}))))
        );
        assert_eq!(
            data(r#"{"event":"on_chat_model_start","data":{"input":1}}"#),
            Some(Data::Value(None))
        );
        assert_eq!(
            data(r#"{"event":"on_chain_stream","data":{"chunk":1},"parent_ids":["r"]}"#),
            Some(Data::Value(None))
        );
        assert_eq!(
            data(r#"{"event":"on_chain_stream","data":{"chunk":1},"parent_ids":[]}"#),
            Some(Data::Calls(vec![], None))
        );
        // A stream mode's part: the payload of a `custom` one, normalised.
        for (chunk, part) in [
            (
                r#"["custom",{"__lc_escaped__":{"a":1}}]"#,
                Some(json!({"a":1})),
            ),
            (r#"[{"__lc_escaped__":"custom"},2]"#, Some(json!(2))),
            (r#"["values",{}]"#, None),
        ] {
            let line = format!(
                r#"{{"event":"on_chain_stream","data":{{"chunk":{chunk}}},"parent_ids":[]}}"#
            );
            assert_eq!(data(&line), Some(Data::Part(part)), "{chunk}");
        }
        assert_eq!(
            data(r#"{"event":"on_chain_start","data":[1],"parent_ids":[]}"#),
            Some(Data::Value(None))
        );
        // A model's stream chunk: what the adapter reads of it, normalised.
        let chunk =
            |id: Option<&str>, content: Value, kwargs: Option<Value>, calls: Option<Value>| {
                Ok(MessageChunk {
                    id: id.map(str::to_string),
                    content: Some(content).filter(|c| !c.is_null()),
                    additional_kwargs: kwargs,
                    tool_call_chunks: calls.and_then(|c| ToolChunk::list(&c)).unwrap_or_default(),
                })
            };
        let none = Ok(MessageChunk::default());
        let esc_c = json!({"__lc_escaped__":"c"});
        let ctor_d =
            json!({"lc":1,"type":"constructor","id":["x","Y"],"kwargs":{"id":"d","index":1}});
        for (c, read) in [
            (
                json!({"content":"a","additional_kwargs":{"reasoning_content":"r"},"response_metadata":{},"type":"AIMessageChunk","name":null,"id":"m","tool_calls":[],"tool_call_chunks":[{"id":"c","args":"{"}]}),
                chunk(
                    Some("m"),
                    json!("a"),
                    Some(json!({"reasoning_content":"r"})),
                    Some(json!([{"id":"c","args":"{"}])),
                ),
            ),
            (
                json!({"lc":1,"type":"constructor","id":["x","AIMessageChunk"],"kwargs":{"content":[{"type":"text","text":"b"}],"id":"m","tool_calls":[],"usage_metadata":{"input_tokens":1}}}),
                chunk(Some("m"), json!([{"type":"text","text":"b"}]), None, None),
            ),
            (
                json!({"lc":1,"type":"constructor","id":["x","ChatMessageChunk"],"kwargs":{"content":"c","role":"critic","additional_kwargs":{"lc":1,"type":"constructor","id":["y","Z"],"kwargs":{"k":1}}}}),
                chunk(None, json!("c"), Some(json!({"__type__":"Z","k":1})), None),
            ),
            (
                json!({"lc":1,"type":"constructor","id":["x",1],"kwargs":{"content":"c"}}),
                none.clone(),
            ),
            (
                json!({"lc":1,"type":"not_implemented","id":["x"],"repr":"X(content='d')"}),
                chunk(None, json!("d"), None, None),
            ),
            (
                json!({"lc":1,"type":"not_implemented","id":["x"],"repr":"((("}),
                none.clone(),
            ),
            (
                json!({"__lc_escaped__":{"content":"e","id":{"__lc_escaped__":"m"}}}),
                chunk(Some("m"), json!("e"), None, None),
            ),
            (json!({"__lc_escaped__":"e"}), Err("a string")),
            (
                json!({"lc":1,"type":"constructor","id":["x","AIMessageChunk"],"kwargs":[1]}),
                none.clone(),
            ),
            (
                json!({"lc":2,"content":"f","id":["m"]}),
                chunk(None, json!("f"), None, None),
            ),
            (
                json!({"content":"g","id":{"__lc_escaped__":"m"}}),
                chunk(Some("m"), json!("g"), None, None),
            ),
            (json!([{}]), Err("an array")),
            // Tool call chunks that normalise (an escaped id, an lc object) or are no object.
            (
                json!({"content":"","tool_call_chunks":[{"id":esc_c,"args":"{","index":null},7,ctor_d]}),
                chunk(
                    None,
                    json!(""),
                    None,
                    Some(normalize_owned(
                        json!([{"id":esc_c,"args":"{","index":null},7,ctor_d]),
                    )),
                ),
            ),
            (
                json!({"content":"a\"\u{e9}","additional_kwargs":{},"tool_call_chunks":[]}),
                chunk(None, json!("a\"é"), Some(json!({})), Some(json!([]))),
            ),
        ] {
            for line in [
                json!({"event":"on_chat_model_stream","data":{"chunk":c.clone(),"x":1}})
                    .to_string(),
                json!({"data":{"chunk":c.clone()},"event":"on_chat_model_stream"}).to_string(),
            ] {
                assert_eq!(
                    data(&line),
                    Some(Data::ModelChunk(Some(read.clone()))),
                    "{line}"
                );
            }
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
        let waiting = vec![MessageCalls {
            id: Some("m1".into()),
            calls: vec![call("c2", "g", "{}")],
        }];
        let Some(Data::Calls(got, conversation)) =
            step(&json!({"messages":[ai.clone(), tool.clone()]}).to_string())
        else {
            panic!("a step input");
        };
        // The list, read as a state's: the conversation so far.
        let ids: Vec<Option<&str>> = conversation.iter().flatten().map(|m| m.id()).collect();
        assert_eq!(ids, [Some("m1"), None]);
        assert_eq!(got, waiting);
        let calls = |v: Value| {
            let text =
                format!(r#"{{"event":"on_chain_end","data":{{"output":{v}}},"parent_ids":["r"]}}"#);
            Event::read(&text).map(|e| e.data)
        };
        assert_eq!(
            calls(json!({"messages":[ai_ctor]})),
            Some(Data::Calls(
                vec![MessageCalls {
                    id: Some("m2".into()),
                    calls: vec![call("c3", "f", r#"{"a":{"__type__":"Z","k":2}}"#)]
                }],
                None
            ))
        );
        // What normalising makes another value of (an escaped dict, a Python repr, an object
        // where a string is read) is read from its normalised tree's text.
        let one = |id: &str, call: &str| {
            Some(Data::Calls(
                vec![MessageCalls {
                    id: Some(id.into()),
                    calls: vec![self::call(call, "f", "{}")],
                }],
                None,
            ))
        };
        let esc = |v: Value| json!({ "__lc_escaped__": v });
        let msg = json!({"content":"","type":"ai","id":"m4","tool_calls":[{"id":"c4","name":"f","args":{}}]});
        let repr = "X(messages=[{'content': '', 'type': 'ai', 'id': 'm4', 'tool_calls': [{'name': 'f', 'args': {}, 'id': 'c4'}]}])";
        for v in [
            json!([{"lc":1,"type":"not_implemented","id":["x"],"repr":repr}]),
            esc(json!({ "messages": [msg.clone()] })),
            json!({"messages":[{"content":"","type":esc(json!("ai")),"id":"m4","tool_calls":[{"id":"c4","name":"f","args":{}}]}]}),
            json!({"messages":[{"content":"","type":"ai","id":esc(json!("m4")),"tool_calls":[{"id":"c4","name":"f","args":{}}]}]}),
            json!({"update": esc(json!([msg.clone()]))}),
        ] {
            assert_eq!(calls(v.clone()), one("m4", "c4"), "{v}");
        }
        let tool = json!({"content":"","type":"tool","tool_call_id":esc(json!("c4"))});
        assert_eq!(
            step(&json!({"messages":esc(json!([msg.clone(), ai.clone(), tool]))}).to_string()),
            Some(Data::Calls(
                vec![MessageCalls {
                    id: Some("m1".into()),
                    calls: vec![call("c1", "f", r#"{"k":1}"#), call("c2", "g", "{}")]
                }],
                // An escaped list is no state's list.
                None,
            ))
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
