//! Typed fast paths for the commonest lines: a v2 `on_chat_model_stream` (here) and a v3
//! `messages` `content-block-delta` ([`v3`]). A record read by one holds its [`Fast`] form.
//!
//! Typed fast path for the commonest v2 line: an `on_chat_model_stream` whose chunk is text
//! (or content blocks) and tool-call chunks.
//!
//! In an `astream_events` v2 log four lines in ten are model chunks, and even pruned
//! ([`super::prune`]) each one builds and drops a small `Value` tree (an ordered map, a `String`
//! per key). For the plain case this module reads the line with typed serde visitors instead,
//! skipping everything unread at the speed of a bare parse, into a [`V2Stream`]: the run id,
//! the chunk's message id, its text or content blocks and its tool-call chunks. The v2 adapter maps it with the
//! same code as the `Value` form (`on_stream`, [`crate::adapter::content::plain_chunk_events`]),
//! so the output is the same. Only `convert` and `check` (pruned records) use it.
//!
//! A line takes the fast path only when its first key is `"event":"on_chat_model_stream"` and
//! everything the v2 adapter reads of it has the plain shape:
//!
//! - top level: no `type`, `method` or `params` key (such lines are parsed whole); `run_id` a
//!   string or absent; `data` an object holding one `chunk`, an object;
//! - the chunk, flat (API server) or a langchain constructor (`dumpd`, LangGraph.js:
//!   `"lc":1`, `"type":"constructor"`, `id` a list of strings, `kwargs` an object, whose
//!   fields are then the message's), with no `__lc_escaped__` key;
//! - the message: `content` a string, `null`, absent or a list (content blocks, kept as
//!   `Value`s) in which no object has an `lc` or `__lc_escaped__` key; `id` a string,
//!   `null` or absent; `additional_kwargs` absent, `null` or an object without
//!   `reasoning_content`, `reasoning`, `lc` or `__lc_escaped__`; `tool_call_chunks` absent,
//!   `null` or a list of objects (no `lc`, `__lc_escaped__`) whose `index` is a string, an
//!   integer or `null` and whose `id`, `name`, `args` are strings or `null`;
//! - no field read appears twice in its object.
//!
//! Anything else (reasoning in `additional_kwargs`, an odd type, a duplicate key, a syntax error)
//! gives up, and the line is parsed as before ([`super::prune`], then whole), so it gets the
//! same treatment and bad lines the same messages.

use std::borrow::Cow;
use std::fmt;
use std::sync::{LazyLock, Mutex, PoisonError};

use memchr::memmem::Finder;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use serde_json::{Map, Value};

use crate::model::EncodedState;

use super::prune::{scalars_as_values, seed_by_visiting_any, Key};

pub mod v3;

/// The typed form of a record read by a fast path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fast {
    /// A plain v2 model chunk.
    V2(V2Stream),
    /// Any other v2 line pruned ([`super::prune`]): its envelope typed, its data pruned.
    /// (Boxed: its `Value`s would make every fast record's box twice as large.)
    V2Event(Box<V2Event>),
    /// A plain v3 event of a method read there ([`v3`]).
    V3(v3::V3Event),
}

impl Fast {
    /// The typed form of a line, when a fast path reads it.
    pub fn parse(text: &str) -> Option<Fast> {
        if let Some(s) = parse_v2_stream(text) {
            return Some(Fast::V2(s));
        }
        v3::parse_v3_event(text).map(Fast::V3)
    }
}

/// What the v2 adapter reads of a plain `on_chat_model_stream` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct V2Stream {
    /// The event's `run_id` (empty when absent, as the adapter reads it).
    pub run_id: String,
    /// The chunk's message `id`, when a string.
    pub chunk_id: Option<String>,
    /// The chunk's text `content` (empty when absent, `null` or a list).
    pub text: String,
    /// The chunk's content blocks, when its `content` is a list (as parsed whole: no object
    /// in it has an `lc` or `__lc_escaped__` key, so normalizing would not change it).
    pub blocks: Vec<Value>,
    /// The chunk's `tool_call_chunks`.
    pub tool_chunks: Vec<ToolChunk>,
}

/// What the v2 adapter reads of a v2 line that is not a plain model chunk, read by
/// [`super::prune`] without a `Value` map for its top level: each key as the pruned `Value`
/// would hold it (`None` when absent; `data` pruned by event kind, `parent_ids` a non-empty
/// list as `[null]`), of `metadata` only `thread_id` and `langgraph_node`. Keys the adapter
/// does not read are dropped. [`crate::adapter`] reads it through the same view as the
/// `Value` form.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct V2Event {
    /// `event` (a string starting with `on_`; the common names shared, not allocated per line).
    pub event: Cow<'static, Value>,
    pub run_id: Option<Value>,
    pub name: Option<Value>,
    pub tags: Option<Value>,
    /// Whether the line has `metadata` (an object).
    pub metadata: bool,
    pub thread_id: Option<Value>,
    pub langgraph_node: Option<Value>,
    /// `parent_ids` (a list shared: `[]` or `[null]`).
    pub parent_ids: Option<Cow<'static, Value>>,
    pub data: Option<Value>,
    /// Of a root `on_chain_end` whose `output` state was written on the parse thread
    /// ([`super::prune::encoded_chain_end`]): that state, normalized, taken by the adapter
    /// (`data.output` holds `null`).
    pub state: Option<TakeOnce<Box<EncodedState>>>,
}

/// A value taken once, by the thread that maps the record (a record is fed once).
pub struct TakeOnce<T>(Mutex<Option<T>>);

impl<T> TakeOnce<T> {
    pub fn new(v: T) -> Self {
        TakeOnce(Mutex::new(Some(v)))
    }

    /// The value (`None` once taken).
    pub fn take(&self) -> Option<T> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take()
    }

    /// A copy of the value (`None` once taken).
    pub(crate) fn get(&self) -> Option<T>
    where
        T: Clone,
    {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl<T: Clone> Clone for TakeOnce<T> {
    fn clone(&self) -> Self {
        TakeOnce(Mutex::new(self.get()))
    }
}

impl<T: Clone + PartialEq> PartialEq for TakeOnce<T> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other) || self.get() == other.get()
    }
}

impl<T: Clone + Eq> Eq for TakeOnce<T> {}

impl<T: Clone + fmt::Debug> fmt::Debug for TakeOnce<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.debug_tuple("TakeOnce").field(&self.get()).finish()
    }
}

impl V2Event {
    /// A top-level key as the pruned `Value` holds it (`metadata` aside: [`Self::meta`]).
    pub fn field(&self, key: &str) -> Option<&Value> {
        match key {
            "event" => Some(&*self.event),
            "run_id" => self.run_id.as_ref(),
            "name" => self.name.as_ref(),
            "tags" => self.tags.as_ref(),
            "parent_ids" => self.parent_ids.as_deref(),
            "data" => self.data.as_ref(),
            _ => None,
        }
    }

    /// A key of `metadata`, as the pruned `Value` holds it.
    pub fn meta(&self, key: &str) -> Option<&Value> {
        match key {
            "thread_id" => self.thread_id.as_ref(),
            "langgraph_node" => self.langgraph_node.as_ref(),
            _ => None,
        }
    }

    /// The pruned `Value` of the line (what [`super::prune`] gave before this form).
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        let mut put = |k: &str, v: &Option<Value>| {
            if let Some(v) = v {
                m.insert(k.into(), v.clone());
            }
        };
        put("event", &Some(self.event.clone().into_owned()));
        put("data", &self.data);
        put("run_id", &self.run_id);
        put("name", &self.name);
        put("tags", &self.tags);
        if self.metadata {
            let mut md = Map::new();
            for (k, v) in [
                ("thread_id", &self.thread_id),
                ("langgraph_node", &self.langgraph_node),
            ] {
                if let Some(v) = v {
                    md.insert(k.into(), v.clone());
                }
            }
            m.insert("metadata".into(), Value::Object(md));
        }
        if let Some(p) = &self.parent_ids {
            m.insert("parent_ids".into(), p.clone().into_owned());
        }
        Value::Object(m)
    }
}

/// A `tool_call_chunks` entry as the chunk mapping reads it
/// ([`crate::adapter::content::chunk_events`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolChunk {
    /// `index` (a string, or an integer's digits; `"0"` when absent or `null`).
    pub index: String,
    /// `id`, when a string.
    pub id: Option<String>,
    /// `name`, when a non-empty string.
    pub name: Option<String>,
    /// `args` (empty when absent or `null`).
    pub args: String,
}

/// The v2 event name of the lines this module reads.
pub const EVENT: &str = "on_chat_model_stream";

/// The typed form of a plain `on_chat_model_stream` line, or `None` when the line must be
/// parsed as a `Value`.
pub fn parse_v2_stream(text: &str) -> Option<V2Stream> {
    // Most lines are other events: told apart by their first bytes, without a parser.
    // (A `memmem::find` call builds its searcher each time: more than the search of 64 bytes.)
    static FINDER: LazyLock<Finder<'static>> =
        LazyLock::new(|| Finder::new(b"\"on_chat_model_stream\""));
    // A compact line (`{"event":"…`, as logs are written) is told by its prefix alone.
    const COMPACT: &str = r#"{"event":""#;
    if let Some(rest) = text.strip_prefix(COMPACT) {
        if !rest.starts_with(EVENT) {
            return None;
        }
    } else {
        let head = &text.as_bytes()[..text.len().min(64)];
        FINDER.find(head)?;
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let v = de.deserialize_map(Top).ok()?;
    de.end().ok()?;
    Some(v)
}

fn bail<E: de::Error>() -> E {
    E::custom("fast parse gave up")
}

/// A string, owned (borrowed from the line when it has no escapes, then copied).
struct Text;

impl<'de> Visitor<'de> for Text {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<String, E> {
        Ok(s.to_string())
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<String, E> {
        Ok(s)
    }
}

impl<'de> DeserializeSeed<'de> for Text {
    type Value = String;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_str(self)
    }
}

/// A string, compared with `.0` without copying it: whether they are equal (anything but a
/// string gives up, as [`Text`] does). For strings read only to be compared or checked.
struct StrIs(&'static str);

impl<'de> Visitor<'de> for StrIs {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<bool, E> {
        Ok(s == self.0)
    }
}

impl<'de> DeserializeSeed<'de> for StrIs {
    type Value = bool;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_str(self)
    }
}

/// A string or `null` (anything else gives up).
struct OptText;

impl<'de> Visitor<'de> for OptText {
    type Value = Option<String>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string or null")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Some(s.to_string()))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Self::Value, E> {
        Ok(Some(s))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

seed_by_visiting_any!(OptText => Option<String>);

/// Sets a field read once; a second occurrence gives up (a whole parse keeps the last one).
fn set<T, E: de::Error>(slot: &mut Option<T>, v: T) -> Result<(), E> {
    match slot.replace(v) {
        None => Ok(()),
        Some(_) => Err(bail()),
    }
}

/// The line: `"event":"on_chat_model_stream"` first, then `run_id` and `data.chunk`.
struct Top;

impl<'de> Visitor<'de> for Top {
    type Value = V2Stream;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<V2Stream, A::Error> {
        match m.next_key::<Key<'de>>()? {
            Some(Key(k)) if k == "event" => {}
            _ => return Err(bail()),
        }
        if !m.next_value_seed(StrIs(EVENT))? {
            return Err(bail());
        }
        let mut run_id = None;
        let mut chunk = None;
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            match k.as_ref() {
                // A second event; v3 keys (the line is then read whole).
                "event" | "type" | "method" | "params" => return Err(bail()),
                "run_id" => set(&mut run_id, m.next_value_seed(Text)?)?,
                "data" => set(&mut chunk, m.next_value_seed(Data)?)?,
                _ => {
                    m.next_value::<IgnoredAny>()?;
                }
            }
        }
        let msg = chunk.ok_or_else(bail)?;
        Ok(V2Stream {
            run_id: run_id.unwrap_or_default(),
            chunk_id: msg.id,
            text: msg.content.unwrap_or_default(),
            blocks: msg.blocks,
            tool_chunks: msg.tool_chunks,
        })
    }
}

/// `data`: only its `chunk`, which must be there.
struct Data;

impl<'de> DeserializeSeed<'de> for Data {
    type Value = Plain;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Plain, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Data {
    type Value = Plain;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Plain, A::Error> {
        let mut chunk = None;
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            if k == "chunk" {
                set(&mut chunk, m.next_value_seed(Chunk)?)?;
            } else {
                m.next_value::<IgnoredAny>()?;
            }
        }
        chunk.ok_or_else(bail)
    }
}

/// The fields of a plain message.
#[derive(Default)]
struct Plain {
    content: Option<String>,
    blocks: Vec<Value>,
    id: Option<String>,
    tool_chunks: Vec<ToolChunk>,
}

/// The message fields read, as found in one object (the chunk, or a constructor's `kwargs`).
#[derive(Default)]
struct Fields {
    content: Option<Content>,
    id: Option<Id>,
    additional_kwargs: Option<()>,
    tool_call_chunks: Option<Vec<ToolChunk>>,
}

impl Fields {
    /// Reads one key of a message; `false` when the key is not a message field.
    fn read<'de, A: MapAccess<'de>>(
        &mut self,
        key: &str,
        m: &mut A,
        class_id: bool,
    ) -> Result<bool, A::Error> {
        match key {
            "content" => set(&mut self.content, m.next_value_seed(ContentSeed)?)?,
            "id" => set(&mut self.id, m.next_value_seed(IdSeed { class_id })?)?,
            "additional_kwargs" => set(&mut self.additional_kwargs, m.next_value_seed(Kwargs)?)?,
            "tool_call_chunks" => set(&mut self.tool_call_chunks, m.next_value_seed(ToolChunks)?)?,
            "__lc_escaped__" => return Err(bail()),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The message, when its `id` is not a constructor's class path.
    fn plain<E: de::Error>(self) -> Result<Plain, E> {
        let id = match self.id {
            None | Some(Id::Null) => None,
            Some(Id::Str(s)) => Some(s),
            Some(Id::Class) => return Err(bail()),
        };
        let (content, blocks) = match self.content {
            None | Some(Content::Null) => (None, Vec::new()),
            Some(Content::Text(t)) => (Some(t), Vec::new()),
            Some(Content::Blocks(b)) => (None, b),
        };
        Ok(Plain {
            content,
            blocks,
            id,
            tool_chunks: self.tool_call_chunks.unwrap_or_default(),
        })
    }
}

/// A message's `content`: a string, `null` or a list of content blocks.
enum Content {
    Null,
    Text(String),
    Blocks(Vec<Value>),
}

struct ContentSeed;

seed_by_visiting_any!(ContentSeed => Content);

impl<'de> Visitor<'de> for ContentSeed {
    type Value = Content;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string, a list or null")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Content, E> {
        Ok(Content::Text(s.to_string()))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Content, E> {
        Ok(Content::Text(s))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Content, E> {
        Ok(Content::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Content, A::Error> {
        let mut out = Vec::new();
        while let Some(b) = s.next_element_seed(Clean)? {
            out.push(b);
        }
        Ok(Content::Blocks(out))
    }
}

/// A value as a whole parse gives it, when normalizing would leave it alone: an object with
/// an `lc` or `__lc_escaped__` key anywhere in it gives up (as does serde_json's private
/// raw-value key, which a `Value` reads otherwise).
struct Clean;

seed_by_visiting_any!(Clean => Value);

impl<'de> Visitor<'de> for Clean {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    scalars_as_values!();
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = s.next_element_seed(Clean)? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            if k == "lc" || k == "__lc_escaped__" || k.starts_with("$serde_json::private::") {
                return Err(bail());
            }
            // A repeated key: the last one wins in place, as in a whole parse.
            out.insert(k.into_owned(), m.next_value_seed(Clean)?);
        }
        Ok(Value::Object(out))
    }
}

/// `data.chunk`: a flat message, or an lc constructor whose `kwargs` is the message.
struct Chunk;

impl<'de> DeserializeSeed<'de> for Chunk {
    type Value = Plain;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Plain, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Chunk {
    type Value = Plain;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Plain, A::Error> {
        let mut fields = Fields::default();
        let mut lc = None;
        let mut constructor = None;
        let mut kwargs = None;
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            if fields.read(&k, &mut m, true)? {
                continue;
            }
            match k.as_ref() {
                "lc" => set(&mut lc, m.next_value_seed(LcOne)?)?,
                "type" => set(&mut constructor, m.next_value_seed(StrIs("constructor"))?)?,
                "kwargs" => set(&mut kwargs, m.next_value_seed(KwargsMessage)?)?,
                _ => {
                    m.next_value::<IgnoredAny>()?;
                }
            }
        }
        match (lc, kwargs) {
            // Flat.
            (None, None) => fields.plain(),
            // `{"lc":1,"type":"constructor","id":[…],"kwargs":{…}}`: flattened into its kwargs.
            (Some(()), Some(msg))
                if constructor == Some(true) && matches!(fields.id, Some(Id::Class)) =>
            {
                Ok(msg)
            }
            _ => Err(bail()),
        }
    }
}

/// A constructor's `kwargs`: a flat message (no nested constructor).
struct KwargsMessage;

impl<'de> DeserializeSeed<'de> for KwargsMessage {
    type Value = Plain;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Plain, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for KwargsMessage {
    type Value = Plain;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Plain, A::Error> {
        let mut fields = Fields::default();
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            if fields.read(&k, &mut m, false)? {
                continue;
            }
            match k.as_ref() {
                "lc" | "kwargs" => return Err(bail()),
                _ => {
                    m.next_value::<IgnoredAny>()?;
                }
            }
        }
        fields.plain()
    }
}

/// A message `id`: a string, `null`, or (of a constructor) its class path.
enum Id {
    Null,
    Str(String),
    /// A non-empty list of strings.
    Class,
}

struct IdSeed {
    class_id: bool,
}

seed_by_visiting_any!(IdSeed => Id);

impl<'de> Visitor<'de> for IdSeed {
    type Value = Id;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an id")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Id, E> {
        Ok(Id::Str(s.to_string()))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Id, E> {
        Ok(Id::Str(s))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Id, E> {
        Ok(Id::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Id, A::Error> {
        if !self.class_id {
            return Err(bail());
        }
        let mut any = false;
        while s.next_element_seed(StrIs(""))?.is_some() {
            any = true;
        }
        if any {
            Ok(Id::Class)
        } else {
            Err(bail())
        }
    }
}

/// `"lc": 1` (an integer; anything else gives up).
struct LcOne;

seed_by_visiting_any!(LcOne => ());

impl<'de> Visitor<'de> for LcOne {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("1")
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<(), E> {
        if n == 1 {
            Ok(())
        } else {
            Err(bail())
        }
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<(), E> {
        if n == 1 {
            Ok(())
        } else {
            Err(bail())
        }
    }
}

/// `additional_kwargs` with nothing the chunk mapping reads: `null`, or an object without
/// reasoning keys (nor lc keys, which normalizing could turn into them).
struct Kwargs;

seed_by_visiting_any!(Kwargs => ());

impl<'de> Visitor<'de> for Kwargs {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object or null")
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<(), A::Error> {
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            if matches!(
                k.as_ref(),
                "reasoning_content" | "reasoning" | "lc" | "__lc_escaped__"
            ) {
                return Err(bail());
            }
            m.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }
}

/// `tool_call_chunks`: `null` or a list of chunk objects.
struct ToolChunks;

seed_by_visiting_any!(ToolChunks => Vec<ToolChunk>);

impl<'de> Visitor<'de> for ToolChunks {
    type Value = Vec<ToolChunk>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list or null")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(c) = s.next_element_seed(ToolChunkSeed)? {
            out.push(c);
        }
        Ok(out)
    }
}

/// One tool-call chunk: an object whose `index` is a string, an integer or `null`, whose
/// `id`, `name` and `args` are strings or `null`.
struct ToolChunkSeed;

impl<'de> DeserializeSeed<'de> for ToolChunkSeed {
    type Value = ToolChunk;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<ToolChunk, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ToolChunkSeed {
    type Value = ToolChunk;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<ToolChunk, A::Error> {
        let (mut index, mut id, mut name, mut args) = (None, None, None, None);
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            match k.as_ref() {
                "index" => set(&mut index, m.next_value_seed(Index)?)?,
                "id" => set(&mut id, m.next_value_seed(OptText)?)?,
                "name" => set(&mut name, m.next_value_seed(OptText)?)?,
                "args" => set(&mut args, m.next_value_seed(OptText)?)?,
                // Normalizing could change such an object.
                "lc" | "__lc_escaped__" => return Err(bail()),
                _ => {
                    m.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(ToolChunk {
            index: index.flatten().unwrap_or_else(|| "0".into()),
            id: id.flatten(),
            name: name.flatten().filter(|n| !n.is_empty()),
            args: args.flatten().unwrap_or_default(),
        })
    }
}

/// A chunk `index`: a string, an integer (as its digits) or `null`.
struct Index;

seed_by_visiting_any!(Index => Option<String>);

impl<'de> Visitor<'de> for Index {
    type Value = Option<String>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an index")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Some(s.to_string()))
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Self::Value, E> {
        Ok(Some(n.to_string()))
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Self::Value, E> {
        Ok(Some(n.to_string()))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::three_ways::{self, origin};
    use crate::input::{frame_ndjson_line, Frame};

    const PY: &str = r#"{"event":"on_chat_model_stream","data":{"chunk":{"content":"Hi","additional_kwargs":{},"response_metadata":{},"type":"AIMessageChunk","name":null,"id":"lc_run--r1","tool_calls":[],"invalid_tool_calls":[],"usage_metadata":null,"tool_call_chunks":[],"chunk_position":null}},"run_id":"r1","name":"M","tags":["seq:step:1"],"metadata":{"thread_id":"t","langgraph_node":"chat"},"parent_ids":["a","b"]}"#;
    const JS: &str = r#"{"event":"on_chat_model_stream","data":{"chunk":{"lc":1,"type":"constructor","id":["langchain_core","messages","AIMessageChunk"],"kwargs":{"content":" there","tool_calls":[],"invalid_tool_calls":[],"tool_call_chunks":[],"additional_kwargs":{},"response_metadata":{},"id":"run-r2"}}},"run_id":"r2","name":"M","tags":[],"metadata":{"thread_id":"t","langgraph_node":"chat"}}"#;
    const DUMPD: &str = r#"{"event": "on_chat_model_stream", "data": {"chunk": {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "AIMessageChunk"], "kwargs": {"content": "Yo", "type": "AIMessageChunk", "id": "lc_run--r3", "tool_calls": [], "invalid_tool_calls": []}}}, "run_id": "r3", "parent_ids": ["a"]}"#;

    /// A stream line with `chunk` as its chunk and `run_id` r.
    fn line(chunk: &str) -> String {
        format!(
            r#"{{"event":"on_chat_model_stream","data":{{"chunk":{chunk}}},"run_id":"r","metadata":{{"langgraph_node":"n"}},"parent_ids":["p"]}}"#
        )
    }

    /// Lines that take the fast path, as chunk objects.
    fn fast_chunks() -> Vec<&'static str> {
        vec![
            r#"{"content":"a","id":"m1"}"#,
            r#"{"content":"","id":"m1"}"#,
            r#"{"content":null,"id":null}"#,
            r#"{"content":"no id"}"#,
            r#"{"content":"empty id","id":""}"#,
            r#"{"content":"esc \"q\" \u00e9\n","id":"m\u0031"}"#,
            r#"{"id":"m1","additional_kwargs":{"refusal":null,"x":{"lc":1}},"tool_call_chunks":null}"#,
            r#"{"content":"x","additional_kwargs":null,"type":"AIMessageChunk","role":"assistant","repr":"r"}"#,
            r#"{"content":"","tool_call_chunks":[{"name":"f","args":"","id":"c1","index":0,"type":"tool_call_chunk"}]}"#,
            r#"{"content":"","tool_call_chunks":[{"name":null,"args":"{\"a","id":null,"index":0}]}"#,
            r#"{"content":"","tool_call_chunks":[{"name":"","args":null,"index":"blk"},{"args":"1}"},{"id":"c2","index":-3,"name":"g"}]}"#,
            r#"{"content":"","tool_call_chunks":[{"index":null,"args":"z","id":"c3"},{}]}"#,
            r#"{"lc":1,"type":"constructor","id":["x","AIMessageChunk"],"kwargs":{"content":"k","id":"m9","type":"ai"}}"#,
            r#"{"lc":1,"type":"constructor","id":["x","ToolMessageChunk"],"kwargs":{"content":"k"},"content":"ignored"}"#,
            r#"{"lc":1,"type":"constructor","id":["x","AIMessageChunk"],"kwargs":{"tool_call_chunks":[{"type":"tool_call_chunk","args":"{","index":1,"id":"c4","name":"h"}]}}"#,
            // Content blocks.
            r#"{"content":[],"id":"m1"}"#,
            r#"{"content":[{"type":"text","text":"a"}],"id":"m1"}"#,
            r#"{"content":[{"type":"text","text":"b","index":0},{"type":"text","text":"","index":1},"raw",5,null,[1]]}"#,
            r#"{"content":[{"type":"thinking","thinking":"hm","index":0}]}"#,
            r#"{"content":[{"type":"thinking","signature":"sig","index":0}]}"#,
            r#"{"content":[{"type":"redacted_thinking","data":"enc","index":1}]}"#,
            r#"{"content":[{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"s","index":0}],"index":0}]}"#,
            r#"{"content":[{"type":"reasoning","reasoning":"r","extras":{"signature":"x"}}]}"#,
            r#"{"content":[{"type":"non_standard","value":{"type":"text","text":"ns"}}]}"#,
            r#"{"content":[{"type":"tool_use","id":"tu","name":"f","input":{},"index":2},{"type":"input_json_delta","partial_json":"{\"a","index":2}],"tool_call_chunks":[{"index":2,"args":"{\"a"}]}"#,
            r#"{"content":[{"type":"text","text":"dup","text":"last","index":"k"},{"type":"text","text":"n","index":1.5}]}"#,
            r#"{"lc":1,"type":"constructor","id":["x","AIMessageChunk"],"kwargs":{"content":[{"type":"text","text":"k","index":0}],"id":"m9"}}"#,
        ]
    }

    /// Lines that fall back to the `Value` path, as chunk objects.
    fn fallback_chunks() -> Vec<&'static str> {
        vec![
            r#"{"content":[{"type":"text","text":"a","lc":1}]}"#,
            r#"{"content":[{"type":"text","extras":{"x":[{"__lc_escaped__":{}}]}}]}"#,
            r#"{"content":[{"$serde_json::private::RawValue":"1"}]}"#,
            r#"{"content":[],"content":"a"}"#,
            r#"{"content":{"type":"text","text":"a"}}"#,
            r#"{"content":"a","additional_kwargs":{"reasoning_content":"r"}}"#,
            r#"{"content":"a","additional_kwargs":{"reasoning":{"summary":[{"text":"s"}]}}}"#,
            r#"{"content":"a","additional_kwargs":{"lc":1}}"#,
            r#"{"content":"a","additional_kwargs":[]}"#,
            r#"{"content":5}"#,
            r#"{"content":"a","content":"b"}"#,
            r#"{"content":"a","id":7}"#,
            r#"{"content":"a","id":["x","AIMessageChunk"]}"#,
            r#"{"__lc_escaped__":{"content":"a"}}"#,
            r#"{"content":"a","__lc_escaped__":1}"#,
            r#"{"content":"a","kwargs":{}}"#,
            r#"{"lc":2,"type":"constructor","id":["AIMessageChunk"],"kwargs":{"content":"a"}}"#,
            r#"{"lc":1.0,"type":"constructor","id":["AIMessageChunk"],"kwargs":{"content":"a"}}"#,
            r#"{"lc":1,"type":"not_implemented","id":["AIMessageChunk"],"repr":"X()"}"#,
            r#"{"lc":1,"type":"constructor","id":[],"kwargs":{"content":"a"}}"#,
            r#"{"lc":1,"type":"constructor","id":["a",1],"kwargs":{"content":"a"}}"#,
            r#"{"lc":1,"type":"constructor","id":["AIMessageChunk"],"kwargs":"a"}"#,
            r#"{"lc":1,"type":"constructor","id":["AIMessageChunk"],"kwargs":{"content":"a","lc":1}}"#,
            r#"{"lc":1,"type":"constructor","id":["AIMessageChunk"]}"#,
            r#"{"content":"","tool_call_chunks":[{"index":1.5}]}"#,
            r#"{"content":"","tool_call_chunks":[{"index":0,"args":{"a":1}}]}"#,
            r#"{"content":"","tool_call_chunks":[{"index":0,"lc":1}]}"#,
            r#"{"content":"","tool_call_chunks":[{"index":0,"id":"a","id":"b"}]}"#,
            r#"{"content":"","tool_call_chunks":["x"]}"#,
            r#"{"content":"","tool_call_chunks":{}}"#,
            r#""text""#,
            r#"null"#,
        ]
    }

    /// Whole lines that fall back.
    fn fallback_lines() -> Vec<String> {
        vec![
            r#"{"run_id":"r","event":"on_chat_model_stream","data":{"chunk":{"content":"a"}}}"#.into(),
            r#"{"event":"on_chat_model_stream","event":"on_chat_model_stream","data":{"chunk":{"content":"a"}}}"#.into(),
            r#"{"event":"on_chat_model_stream","run_id":"a","run_id":"b","data":{"chunk":{"content":"a"}}}"#.into(),
            r#"{"event":"on_chat_model_stream","run_id":5,"data":{"chunk":{"content":"a"}}}"#.into(),
            r#"{"event":"on_chat_model_stream","type":"event","data":{"chunk":{"content":"a"}}}"#.into(),
            r#"{"event":"on_chat_model_stream","data":{"chunk":{"content":"a"}},"data":{}}"#.into(),
            r#"{"event":"on_chat_model_stream","data":{"other":1}}"#.into(),
            r#"{"event":"on_chat_model_stream","data":{"chunk":{"content":"a"},"chunk":{}}}"#.into(),
            r#"{"event":"on_chat_model_stream","data":[]}"#.into(),
            r#"{"event":"on_chat_model_stream"}"#.into(),
            r#"{"event":"on_chat_model_stream","data":{"chunk":{"content":"a"}}} x"#.into(),
            r#"{"event":"on_chat_model_stream","data":{"chunk":{"content":"a"#.into(),
            r#"{"event":"on_chat_model_end","data":{"output":{"content":"a"}}}"#.into(),
            r#"{"event":"events","data":{"event":"on_chat_model_stream","data":{"chunk":{"content":"a"}}}}"#.into(),
        ]
    }

    #[test]
    fn plain_lines_take_it() {
        for l in [PY, JS, DUMPD] {
            assert!(parse_v2_stream(l).is_some(), "{l}");
        }
        assert_eq!(
            parse_v2_stream(PY),
            Some(V2Stream {
                run_id: "r1".into(),
                chunk_id: Some("lc_run--r1".into()),
                text: "Hi".into(),
                blocks: vec![],
                tool_chunks: vec![],
            })
        );
        assert_eq!(
            parse_v2_stream(JS).map(|s| s.chunk_id),
            Some(Some("run-r2".into()))
        );
        let t = parse_v2_stream(&line(fast_chunks()[10])).expect("fast");
        assert_eq!(
            t.tool_chunks,
            vec![
                ToolChunk {
                    index: "blk".into(),
                    id: None,
                    name: None,
                    args: "".into()
                },
                ToolChunk {
                    index: "0".into(),
                    id: None,
                    name: None,
                    args: "1}".into()
                },
                ToolChunk {
                    index: "-3".into(),
                    id: Some("c2".into()),
                    name: Some("g".into()),
                    args: "".into()
                },
            ]
        );
        for c in fast_chunks() {
            assert!(parse_v2_stream(&line(c)).is_some(), "{c}");
        }
    }

    #[test]
    fn other_lines_fall_back() {
        for c in fallback_chunks() {
            assert!(parse_v2_stream(&line(c)).is_none(), "{c}");
        }
        for l in fallback_lines() {
            assert!(parse_v2_stream(&l).is_none(), "{l}");
        }
    }

    use crate::input::three_ways::run;

    #[test]
    fn both_paths_give_the_same_model_events() {
        let mut lines: Vec<String> = vec![PY.into(), JS.into(), DUMPD.into()];
        lines.extend(fast_chunks().into_iter().map(line));
        lines.extend(fallback_chunks().into_iter().map(line));
        lines.extend(fallback_lines());
        // Again, with the runs' messages open and tool indexes known.
        lines.extend(fast_chunks().into_iter().map(line));
        lines.extend(
            fast_chunks()
                .into_iter()
                .map(|c| line(c).replace(r#""run_id":"r""#, r#""run_id":"r2""#)),
        );
        let framed = run(&lines, three_ways::framed);
        let pruned = run(&lines, three_ways::pruned);
        let whole = run(&lines, three_ways::whole);
        for (i, l) in lines.iter().enumerate() {
            assert_eq!(framed[i], pruned[i], "line {}: {l}", i + 1);
            assert_eq!(framed[i], whole[i], "line {}: {l}", i + 1);
        }
        assert_eq!(framed.last(), whole.last());
        let fast = lines
            .iter()
            .filter(|l| parse_v2_stream(l).is_some())
            .count();
        assert_eq!(fast, 3 + 3 * fast_chunks().len());
    }

    #[test]
    fn event_names_read_without_copies() {
        // A compact line's event told by its prefix: an escaped name is not a plain chunk's
        // (read by the pruned path), nor is a longer one.
        let esc = PY.replacen("on_chat_model_stream", r"on\u005fchat_model_stream", 1);
        assert!(parse_v2_stream(&esc).is_none());
        assert!(super::super::prune::parse_pruned(&esc).is_some());
        let long = PY.replacen("on_chat_model_stream", "on_chat_model_stream2", 1);
        assert!(parse_v2_stream(&long).is_none());
        // A spaced line: found in its first bytes.
        let spaced = PY.replacen(r#"{"event":"#, r#"{ "event" : "#, 1);
        assert!(parse_v2_stream(&spaced).is_some());
        // A constructor's `type` and class path: strings only.
        let js = |t: &str, id: &str| {
            JS.replacen(r#""type":"constructor""#, &format!(r#""type":{t}"#), 1)
                .replacen(r#"["langchain_core","messages","AIMessageChunk"]"#, id, 1)
        };
        assert!(parse_v2_stream(&js(r#""constructor""#, r#"["a"]"#)).is_some());
        assert!(parse_v2_stream(&js(r#""constructor""#, r#"["a"]"#)).is_some());
        assert!(parse_v2_stream(&js(r#""other""#, r#"["a"]"#)).is_none());
        assert!(parse_v2_stream(&js("1", r#"["a"]"#)).is_none());
        assert!(parse_v2_stream(&js(r#""constructor""#, r#"["a",1]"#)).is_none());
        assert!(parse_v2_stream(&js(r#""constructor""#, r#"["a",null]"#)).is_none());
        assert!(parse_v2_stream(&js(r#""constructor""#, "[]")).is_none());
    }

    #[test]
    fn fast_records_classify_as_v2() {
        let Frame::Record(r) = frame_ndjson_line(PY, origin(1), true) else {
            panic!("a record");
        };
        assert!(r.fast.is_some());
        assert_eq!(crate::adapter::classify(&r), crate::adapter::RecordKind::V2);
        // Without pruning (timeline, explain), lines are parsed whole.
        let Frame::Record(r) = frame_ndjson_line(PY, origin(1), false) else {
            panic!("a record");
        };
        assert!(r.fast.is_none());
    }
}
