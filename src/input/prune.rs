//! Pruned parsing for `convert`: a v2 or v3 NDJSON line is parsed into a [`Value`] that keeps
//! only what the adapters read, skipping the rest at the speed of a bare parse.
//!
//! Building a `Value` tree (an ordered map per object, a `String` per key and string) costs
//! several times a bare parse; most of a v2 line is `metadata` (only `thread_id` and
//! `langgraph_node` are read), the `data` of events aguify ignores, and message fields no
//! AG-UI event carries. What is dropped (the adapters never read it):
//!
//! | line | dropped |
//! |---|---|
//! | v2, every event | `metadata` except `thread_id` (of `on_chain_start`) and `langgraph_node` (of chain events and events of unknown kind); `tags` but of `on_chain_start`, and there every tag but `langsmith:hidden`; `name` of model, chain end/stream and skipped-data events; `run_id` of `on_chain_stream` and skipped-data events; the ids in `parent_ids` (a non-empty list is kept as `[null]`) |
//! | v2 `on_chat_model_stream` | `data` except `chunk`; chunk (and its lc `kwargs`) fields other than `content`, `additional_kwargs`, `tool_call_chunks`, `id`, `type`, `role`, `lc`, `repr`, `__lc_escaped__` |
//! | v2 `on_chat_model_end` | `data` except `output`; output fields other than the chunk's, `tool_calls`, `usage_metadata`, `response_metadata`, `generations` |
//! | v2 message fields (chunk, model end, node end; see `message_field`) | of `additional_kwargs` all but `reasoning_content`, `reasoning`; of `response_metadata` all but `model_provider`, `model_name`; of `usage_metadata` all but the token counts and `output_token_details`; of each of `tool_calls` all but `id`, `name`, `args` |
//! | v2 `on_tool_start`, `on_tool_end`, `on_tool_error` | `metadata`; `data` keys other than `input`, `output`, `error` and `tool_call_id` (as the event reads them) and those of a v3 event (`type`, `method`, `params`, `seq`) |
//! | v2 `on_chat_model_start`, `on_llm_*`, `on_prompt_*`, `on_retriever_*`, `on_parser_*` (skipped-data events) | `data` |
//! | v2 `on_chain_stream` of a node (not the root) | `data` |
//! | v2 `on_chain_stream` of the root | `data` except `chunk`; in an object chunk what a node's end drops |
//! | v2 `on_chain_start` of a node | `data` except `input`, when `input` is an object without `lc`/`__lc_escaped__` keys (kept as `{}`: only a `Send` list is read; an object with such a key gives up) |
//! | v2 `on_chain_end` of a node | `data` except `output`; in it, all but `type`, `role`, `id`, `lc`, `repr`, `tool_calls`, `__interrupt__`, `content` (as `null`) and, pruned alike, `kwargs`, `messages`, `update` |
//! | v3, every event | `params` keys other than `namespace`, `timestamp`, `data`, `interrupts` (and `node` of `updates`) |
//! | v3 `checkpoints`, `debug` | `params.data` |
//! | v3 `tasks` | `params.data` except `interrupts` |
//! | v3 `updates` not of `__interrupt__` | `params.data` except `node` |
//! | v3 `messages` | `params.data` keys other than `event`, `id`, `index`, `delta`, `content`, `usage`, `metadata`; of `[payload, metadata]` the metadata (kept as `null`) |
//!
//! Plain `on_chat_model_stream` lines (text, content-block and tool-call chunks; not reasoning
//! in `additional_kwargs`) and plain v3 lines of most methods do not get here: [`super::fast`]
//! reads their envelope without a `Value` (the payload of a v3 message event other than a plain
//! block delta with `message_keys`, and other methods' data, as here).
//!
//! A v2 line's top level is read into a typed envelope ([`V2Event`], a [`Fast`] form: no map,
//! no `String` per key; keys no reader of a v2 event reads skipped), its `data` pruned as the
//! table says; the v2 adapter reads it through the same view as the `Value` form
//! (`crate::adapter::V2View`). Other lines are read into a pruned `Value` map.
//!
//! Root chain events are known only from `parent_ids` (or the metadata), mostly after `data`.
//! Their data is read in one pass as the line suggests ([`root_guess`]: it ends with an empty
//! or non-empty `parent_ids` list; else the metadata read before the data, or the line's text,
//! has no `langgraph_node`), and the guess is checked once the line is read: a wrong one gives
//! up (the line is parsed whole).
//! Without a guess (`parent_ids` elsewhere in the line) the data is kept as raw text until the
//! line is read, then parsed whole or pruned.
//!
//! The state of a root `on_chain_start` / `on_chain_end` (`"data":{"input":{"messages":[` or
//! `"output"`, guessed the root's from the text) is read through the parse thread's cache of
//! parsed messages ([`super::msgcache`], see `cached_chain`): a long conversation repeats
//! its messages in every state.
//!
//! The form is decided by the first key (`"event":"on_…"` → v2, `"type":"event"` → v3);
//! anything else, any surprise (a duplicate key, a v2 line with v3 keys, an unexpected shape
//! where pruning applies) or any error gives up, and the caller parses the whole line as
//! before, so bad lines get the same messages and odd lines the same treatment.

use std::borrow::Cow;
use std::fmt;
use std::sync::LazyLock;

use memchr::memmem::Finder;

use crate::adapter::lc;
use crate::input::fast::{Fast, TakeOnce, V2Event};
use crate::input::msgcache;
use crate::model::EncodedState;

use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The scalar `visit_*` methods of a visitor that builds a `Value`: a JSON scalar as itself
/// (what `Value`'s own visitor does), for the visitors below that prune only objects and lists.
/// `scalars_as_values!(Some)` wraps each (a visitor whose output is `Option<Value>`, say);
/// `scalars_as_values!(non_strings: W)` leaves strings to the visitor.
macro_rules! scalars_as_values {
    () => {
        scalars_as_values!(std::convert::identity);
    };
    ($wrap:expr) => {
        scalars_as_values!(non_strings: $wrap);
        fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
            Ok($wrap(Value::String(s.to_string())))
        }
        fn visit_string<E: de::Error>(self, s: String) -> Result<Self::Value, E> {
            Ok($wrap(Value::String(s)))
        }
    };
    (non_strings: $wrap:expr) => {
        fn visit_bool<E: de::Error>(self, b: bool) -> Result<Self::Value, E> {
            Ok($wrap(Value::Bool(b)))
        }
        fn visit_i64<E: de::Error>(self, n: i64) -> Result<Self::Value, E> {
            Ok($wrap(Value::Number(n.into())))
        }
        fn visit_u64<E: de::Error>(self, n: u64) -> Result<Self::Value, E> {
            Ok($wrap(Value::Number(n.into())))
        }
        fn visit_f64<E: de::Error>(self, n: f64) -> Result<Self::Value, E> {
            Ok($wrap(
                serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number),
            ))
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($wrap(Value::Null))
        }
    };
}
pub(super) use scalars_as_values;

/// `DeserializeSeed` for a visitor that is its own seed and takes any JSON value (it says what
/// it expects in its own `visit_*` methods): `seed_by_visiting_any!(Seed => Output);`.
macro_rules! seed_by_visiting_any {
    ($seed:ty => $out:ty) => {
        impl<'de> serde::de::DeserializeSeed<'de> for $seed {
            type Value = $out;
            fn deserialize<D: serde::de::Deserializer<'de>>(self, d: D) -> Result<$out, D::Error> {
                d.deserialize_any(self)
            }
        }
    };
}
pub(super) use seed_by_visiting_any;

/// What pruned parsing gives: a v2 line's typed envelope ([`V2Event`], in the box a record
/// holds), or the pruned `Value` map of another line.
#[derive(Debug)]
pub enum Pruned {
    V2(Box<Fast>),
    Map(Map<String, Value>),
}

impl Pruned {
    /// The pruned `Value` of the line.
    pub fn into_value(self) -> Value {
        match self {
            Pruned::V2(f) => match *f {
                Fast::V2Event(e) => e.to_value(),
                _ => Value::Null,
            },
            Pruned::Map(m) => Value::Object(m),
        }
    }
}

/// The pruned form of a line, or `None` when the line must be parsed whole.
pub fn parse_pruned(text: &str) -> Option<Pruned> {
    let mut guess = None;
    if [r#"{"event":"on_chain_end""#, r#"{"event":"on_chain_start""#]
        .iter()
        .any(|e| text.starts_with(e))
    {
        match cached_chain(text) {
            Ok(v) => return Some(v),
            Err(g) => guess = g,
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let v = de.deserialize_map(Top(text, None, guess)).ok()?;
    de.end().ok()?;
    Some(v)
}

/// A root `on_chain_start` / `on_chain_end` line whose state's messages are read through the
/// parse thread's cache of parsed messages ([`msgcache::take_state`]), or `None` (the line
/// is then read as any other).
///
/// The state is found in the text (`"data":{"input":{"messages":[` or `"output"` alike: the
/// state the data's first key) and read there; the line is then read with `0` in the state's
/// place, and the state stands for that `0` only if the line's `data` starts where it was
/// found (compared by address), the data's first key is the one found and does not repeat,
/// the line is read as the root's (guessed so before the data, and checked after) and reads
/// as any other. Else `Err` with the root guess made without the metadata
/// ([`root_guess`]`(text, None)`), when it was made.
fn cached_chain(text: &str) -> Result<Pruned, Option<Option<bool>>> {
    let mut guess = None;
    let v = read_chain(text, &mut guess);
    v.ok_or(guess)
}

fn read_chain(text: &str, guess: &mut Option<Option<bool>>) -> Option<Pruned> {
    static DATA: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(br#""data":{""#));
    const MESSAGES: &[u8] = br#"":{"messages":["#;
    let b = text.as_bytes();
    let data = DATA.find(b)? + br#""data":"#.len();
    let rest = &b[data + 2..];
    let key = ["input", "output"]
        .into_iter()
        .find(|k| rest.starts_with(k.as_bytes()) && rest[k.len()..].starts_with(MESSAGES))?;
    let at = data + 2 + key.len() + 2;
    // Only the root's state is read here (a node's data is pruned): as the line is read.
    if *guess.insert(root_guess(text, None)) != Some(true) {
        return None;
    }
    // The state is at level 3 (the line, `data`, the state).
    let (state, line) = msgcache::take_state(msgcache::Kind::Parsed, text, at, 3)?;
    let slot = Slot {
        data: line[data..].as_ptr(),
        key,
        state,
    };
    let mut de = serde_json::Deserializer::from_str(&line);
    let v = de.deserialize_map(Top(text, Some(slot), None)).ok()?;
    de.end().ok()?;
    Some(v)
}

/// A root `on_chain_end` line whose `output` state (the data's first key, its `messages`
/// first) is read through the parse thread's cache of normalized messages and written there
/// ([`EncodedState`]: the adapter takes it instead of normalizing `data.output`, which holds
/// `null`), as [`crate::input::fast::v3`] reads a root `values` state; `None` (the line is
/// read as any other) unless the line reads as [`cached_chain`] would read it and the state
/// normalizes entry by entry (no `lc` or `__lc_escaped__` key of its own).
pub fn encoded_chain_end(text: &str) -> Option<Box<Fast>> {
    static DATA: LazyLock<Finder<'static>> =
        LazyLock::new(|| Finder::new(br#""data":{"output":{"messages":["#));
    if !text.starts_with(r#"{"event":"on_chain_end""#) {
        return None;
    }
    let b = text.as_bytes();
    let data = DATA.find(b)? + br#""data":"#.len();
    let at = data + br#"{"output":"#.len();
    if root_guess(text, None) != Some(true) {
        return None;
    }
    // The state is at level 3 (the line, `data`, the state).
    let (others, messages, line) =
        msgcache::take_state_parts(msgcache::Kind::Normalized, text, at, 3)?;
    if !lc::keeps_its_entries(&others) {
        return None;
    }
    // What normalizing the whole state gives: its messages one by one (done), then the rest.
    let state = lc::normalize_state_owned(msgcache::with_messages(others, vec![]), "messages");
    let messages = messages
        .into_iter()
        .map(msgcache::Msg::into_shared)
        .collect();
    let state = EncodedState::new(state, messages).ok()?;
    let slot = Slot {
        data: line[data..].as_ptr(),
        key: "output",
        state: Value::Null,
    };
    let mut de = serde_json::Deserializer::from_str(&line);
    let v = de.deserialize_map(Top(text, Some(slot), None)).ok()?;
    de.end().ok()?;
    let Pruned::V2(mut f) = v else {
        return None;
    };
    let Fast::V2Event(e) = &mut *f else {
        return None;
    };
    e.state = Some(TakeOnce::new(Box::new(state)));
    Some(f)
}

/// Where a root chain event's state was taken out of its line ([`cached_chain`]): the
/// address of the line's `data` object, its first key, whose value is `0` in the line, and
/// the state read in its place.
struct Slot {
    data: *const u8,
    key: &'static str,
    state: Value,
}

/// A root chain event's `data` with a [`Slot`]: read as `Value` reads it, the slot's key
/// (first, and not repeated) holding the state.
struct SlotData(Slot);

impl<'de> Visitor<'de> for SlotData {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Value, A::Error> {
        let Slot { key, state, .. } = self.0;
        let mut out = Map::new();
        match m.next_key::<Key<'de>>()? {
            Some(Key(k)) if k == key => {
                if m.next_value::<Value>()? != 0 {
                    return Err(bail());
                }
            }
            _ => return Err(bail()),
        }
        out.insert(key.into(), state);
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            if k == key {
                return Err(bail()); // a whole parse keeps the last one
            }
            let v: Value = m.next_value()?;
            // Read apart from its line (at level 2 there, the line's `data`): as deep as the
            // line allows.
            if msgcache::depth(&v, msgcache::MAX_DEPTH) + 2 > msgcache::MAX_DEPTH - 1 {
                return Err(bail());
            }
            out.insert(k.into_owned(), v);
        }
        Ok(Value::Object(out))
    }
}

fn bail<E: de::Error>() -> E {
    E::custom("pruned parse gave up")
}

/// An object key, borrowed from the line when it has no escapes.
pub(super) struct Key<'de>(pub(super) Cow<'de, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s.to_string())))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s)))
            }
        }
        d.deserialize_str(V)
    }
}

#[derive(Clone, Copy, PartialEq)]
enum V2Data {
    /// `on_chat_model_stream`: only `data.chunk`, pruned as a message.
    Chunk,
    /// `on_chat_model_end`: only `data.output`, pruned as a message.
    ModelEnd,
    /// Events whose data nothing reads.
    Skip,
    /// `on_chain_stream`: read only for the root run, known once the line is read.
    ChainStream,
    /// `on_chain_start`: whole for the root run; a node's `input` only when it is not a plain
    /// object (a `Send` payload).
    ChainStart,
    /// `on_chain_end`: whole for the root run; a node's `output` only for its tool calls.
    ChainEnd,
    /// A tool event: only these keys of its data ([`tool_data_keys`]).
    Tool(&'static [&'static str]),
    Whole,
}

/// The keys of a tool event's `data` that are read: the adapter's (`input` of a start,
/// `output` of an end, `error` and `tool_call_id` of an error), and those the checker and
/// the pipeline read of a `data` that is a v3 event (`type`, `method`, `params`, `seq`).
fn tool_data_keys(event: &str) -> Option<&'static [&'static str]> {
    Some(match event {
        "on_tool_start" => &["input", "type", "method", "params", "seq"],
        "on_tool_end" => &["output", "type", "method", "params", "seq"],
        "on_tool_error" => &["error", "tool_call_id", "type", "method", "params", "seq"],
        _ => return None,
    })
}

enum Mode {
    V2(V2Data),
    V3(Option<String>),
    Whole,
}

fn v2_data(event: &str) -> V2Data {
    match event {
        "on_chat_model_stream" => V2Data::Chunk,
        "on_chat_model_end" => V2Data::ModelEnd,
        "on_chain_stream" => V2Data::ChainStream,
        "on_chain_start" => V2Data::ChainStart,
        "on_chain_end" => V2Data::ChainEnd,
        "on_chat_model_start" => V2Data::Skip,
        e => match tool_data_keys(e) {
            Some(keys) => V2Data::Tool(keys),
            None if ["on_llm_", "on_prompt_", "on_retriever_", "on_parser_"]
                .iter()
                .any(|p| e.starts_with(p)) =>
            {
                V2Data::Skip
            }
            None => V2Data::Whole,
        },
    }
}

/// Whether a v2 event's top-level `key` is read: `tags` only by `on_chain_start` (hidden
/// runs), `name` by `on_chain_start`, tool and custom events (and events of unknown kind),
/// `run_id` by all but `on_chain_stream` and the events whose data is skipped (the adapter
/// maps neither by run).
fn v2_keeps(data: V2Data, key: &str) -> bool {
    match key {
        "tags" => data == V2Data::ChainStart,
        "name" => !matches!(
            data,
            V2Data::Chunk
                | V2Data::ModelEnd
                | V2Data::ChainEnd
                | V2Data::ChainStream
                | V2Data::Skip
        ),
        "run_id" => !matches!(data, V2Data::ChainStream | V2Data::Skip),
        _ => true,
    }
}

/// The top level of a line, whose text is at hand for [`root_guess`] (the line's own text
/// when a [`Slot`] took its state out: the line read is then another), with the slot, if any,
/// and the guess `root_guess(text, None)` when it was made already.
struct Top<'t>(&'t str, Option<Slot>, Option<Option<bool>>);

impl<'de> Visitor<'de> for Top<'_> {
    type Value = Pruned;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
        // A v2 line's keys go to `env`, any other line's to `out`.
        let mut out = Map::new();
        let mut env = V2Event::default();
        let mut mode: Option<Mode> = None;
        let mut deferred: Option<&'de RawValue> = None;
        // Whether a chain event's data was read as the root's (`Some(true)`) or a node's.
        let mut guessed: Option<bool> = None;
        let mut slot = self.1;
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            let v = match (&mode, k.as_ref()) {
                (None, "event") => {
                    let v = match m.next_value::<StrOrValue<'de>>()? {
                        StrOrValue::Str(e) if e.starts_with("on_") => {
                            let data = v2_data(&e);
                            mode = Some(Mode::V2(data));
                            env.event = event_value(e);
                            continue;
                        }
                        StrOrValue::Str(e) => Value::String(e.into_owned()),
                        StrOrValue::Value(v) => v,
                    };
                    mode = Some(Mode::Whole);
                    out = Map::with_capacity(8);
                    v
                }
                (None, "type") => {
                    let v: Value = m.next_value()?;
                    mode = Some(if v == "event" {
                        Mode::V3(None)
                    } else {
                        Mode::Whole
                    });
                    out = Map::with_capacity(8);
                    v
                }
                (None, _) => {
                    mode = Some(Mode::Whole);
                    out = Map::with_capacity(8);
                    m.next_value()?
                }
                (Some(Mode::V2(_)), "type" | "method" | "params" | "event") => {
                    return Err(bail()); // v3 keys, or a duplicate
                }
                (Some(Mode::V3(_)), "event") => return Err(bail()),
                (Some(Mode::V2(data)), "metadata") => {
                    if env.metadata {
                        return Err(bail());
                    }
                    let data = *data;
                    (env.thread_id, env.langgraph_node) = m.next_value_seed(Metadata {
                        thread: data == V2Data::ChainStart,
                        node: matches!(
                            data,
                            V2Data::ChainStart
                                | V2Data::ChainEnd
                                | V2Data::ChainStream
                                | V2Data::Whole
                        ),
                    })?;
                    env.metadata = true;
                    continue;
                }
                (Some(Mode::V2(_)), "parent_ids") => {
                    if env
                        .parent_ids
                        .replace(m.next_value_seed(ParentIds)?)
                        .is_some()
                    {
                        return Err(bail());
                    }
                    continue;
                }
                (Some(Mode::V2(data)), k) if !v2_keeps(*data, k) => {
                    // Unread: a duplicate would be dropped alike.
                    m.next_value::<IgnoredAny>()?;
                    continue;
                }
                (Some(Mode::V2(data)), "data") => {
                    let v = match data {
                        V2Data::Chunk => {
                            m.next_value_seed(OneKey("chunk", Seed::Message(&MESSAGE_KEYS)))?
                        }
                        V2Data::ModelEnd => {
                            m.next_value_seed(OneKey("output", Seed::Message(&MODEL_END_KEYS)))?
                        }
                        V2Data::Skip => {
                            m.next_value::<IgnoredAny>()?;
                            Value::Null
                        }
                        V2Data::ChainStream | V2Data::ChainStart | V2Data::ChainEnd => {
                            let guess = match env.parent_ids.as_deref().and_then(Value::as_array) {
                                Some(p) => Some(p.is_empty()),
                                None => {
                                    let node = env.metadata.then_some(env.langgraph_node.is_some());
                                    match (node, self.2) {
                                        (None, Some(guess)) => guess,
                                        (node, _) => root_guess(self.0, node),
                                    }
                                }
                            };
                            match guess {
                                Some(root) => {
                                    guessed = Some(root);
                                    match slot.take() {
                                        Some(slot) if root && *data != V2Data::ChainStream => {
                                            let raw: &'de RawValue = m.next_value()?;
                                            if raw.get().as_ptr() != slot.data {
                                                return Err(bail());
                                            }
                                            let mut de =
                                                serde_json::Deserializer::from_str(raw.get());
                                            de.deserialize_map(SlotData(slot))
                                                .map_err(|_| bail::<A::Error>())?
                                        }
                                        Some(_) => return Err(bail()),
                                        None => {
                                            m.next_value_seed(ChainData { kind: *data, root })?
                                        }
                                    }
                                }
                                None => {
                                    deferred = Some(m.next_value()?);
                                    Value::Null
                                }
                            }
                        }
                        V2Data::Tool(keys) => m.next_value_seed(KeepKeys(keys))?,
                        V2Data::Whole => m.next_value()?,
                    };
                    set(&mut env.data, v)?;
                    continue;
                }
                (Some(Mode::V2(_)), "run_id") => {
                    set(&mut env.run_id, m.next_value()?)?;
                    continue;
                }
                (Some(Mode::V2(_)), "name") => {
                    set(&mut env.name, m.next_value()?)?;
                    continue;
                }
                (Some(Mode::V2(_)), "tags") => {
                    set(&mut env.tags, m.next_value_seed(Tags)?)?;
                    continue;
                }
                (Some(Mode::V2(_)), _) => {
                    // No reader of a v2 event reads other keys.
                    m.next_value::<IgnoredAny>()?;
                    continue;
                }
                (Some(Mode::V3(None)), "method") => {
                    let v: Value = m.next_value()?;
                    if let Some(s) = v.as_str() {
                        mode = Some(Mode::V3(Some(s.to_string())));
                    }
                    v
                }
                (Some(Mode::V3(Some(method))), "params") => m.next_value_seed(Params(method))?,
                _ => m.next_value()?,
            };
            if out.insert(k.into_owned(), v).is_some() {
                return Err(bail()); // a duplicate key
            }
        }
        if slot.is_some() {
            return Err(bail()); // the state was not the root's data
        }
        let Some(Mode::V2(kind)) = mode else {
            return Ok(Pruned::Map(out));
        };
        if deferred.is_some() || guessed.is_some() {
            // The root run's chain events are read whole (v2 `is_root`).
            let root = match env.parent_ids.as_deref().and_then(Value::as_array) {
                Some(p) => p.is_empty(),
                None => env.langgraph_node.is_none(),
            };
            if let Some(guess) = guessed {
                // Read as the other kind of run: the line is read whole.
                if guess != root {
                    return Err(bail());
                }
            } else if let Some(raw) = deferred {
                let mut de = serde_json::Deserializer::from_str(raw.get());
                let data = ChainData { kind, root }
                    .deserialize(&mut de)
                    .map_err(|_| bail::<A::Error>())?;
                de.end().map_err(|_| bail::<A::Error>())?;
                env.data = Some(data);
            }
        }
        Ok(Pruned::V2(Box::new(Fast::V2Event(Box::new(env)))))
    }
}

/// Sets a key's value once (a duplicate gives up).
fn set<E: de::Error>(slot: &mut Option<Value>, v: Value) -> Result<(), E> {
    match slot.replace(v) {
        Some(_) => Err(bail()),
        None => Ok(()),
    }
}

/// A v2 `metadata` object: its `thread_id` (when `thread`: only a root `on_chain_start`'s
/// is read) and `langgraph_node` (when `node`: only chain events', and unknown events', are).
struct Metadata {
    thread: bool,
    node: bool,
}

impl<'de> DeserializeSeed<'de> for Metadata {
    type Value = (Option<Value>, Option<Value>);
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Metadata {
    type Value = (Option<Value>, Option<Value>);
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
        let (mut thread, mut node) = (None, None);
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            match k.as_ref() {
                "thread_id" if self.thread => set(&mut thread, m.next_value()?)?,
                "langgraph_node" if self.node => set(&mut node, m.next_value()?)?,
                _ => {
                    m.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok((thread, node))
    }
}

/// Whether a chain event is the root run's, guessed before its `data` is read (checked against
/// `parent_ids` and the metadata once the line is read): a line that ends with
/// `"parent_ids": [...]}` is the root's when the list is empty; else, the root's when the
/// metadata read so far, or without it the line's text, has no `langgraph_node`. `None` (no
/// guess) when the text has no `langgraph_node` but `parent_ids` elsewhere.
fn root_guess(text: &str, metadata_node: Option<bool>) -> Option<bool> {
    static PARENT_IDS: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"parent_ids\""));
    static NODE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"langgraph_node\""));
    let b = text.trim_end().as_bytes();
    let ws = |b: &[u8]| b.trim_ascii_end().len();
    if let Some(n) = b.strip_suffix(b"}").map(ws) {
        if let Some(n) = b[..n].strip_suffix(b"]").map(ws) {
            let (empty, open) = match b[..n].last() {
                Some(b'[') => (true, n - 1),
                _ => (false, memchr::memrchr(b'[', &b[..n])?),
            };
            let n = ws(&b[..open]);
            if let Some(n) = b[..n].strip_suffix(b":").map(ws) {
                if b[..n].ends_with(PARENT_IDS.needle()) {
                    return Some(empty);
                }
            }
        }
    }
    if let Some(node) = metadata_node {
        // JS `on_chain_stream`: the metadata comes before the data.
        return Some(!node);
    }
    if NODE.find(b).is_some() {
        return Some(false);
    }
    PARENT_IDS.find(b).is_none().then_some(true)
}

/// The `data` of a chain event, read as the root's or a node's.
struct ChainData {
    kind: V2Data,
    root: bool,
}

impl<'de> DeserializeSeed<'de> for ChainData {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        match (self.kind, self.root) {
            (V2Data::ChainStream, true) => d.deserialize_map(RootStream),
            (_, true) => Value::deserialize(d),
            (V2Data::ChainStart, false) => d.deserialize_map(StartData),
            (V2Data::ChainEnd, false) => d.deserialize_map(OneKey("output", Seed::Calls)),
            _ => {
                IgnoredAny::deserialize(d)?;
                Ok(Value::Null)
            }
        }
    }
}

/// The JSON object `text` holds with only `keys` kept, their values whole; `None` unless it
/// is an object with no kept key repeated (a whole parse would keep the last). The reference
/// the plain texts' reader is tested against ([`crate::input::canon::plain_entries`]).
#[cfg(test)]
pub fn object_with_keys(text: &str, keys: &'static [&'static str]) -> Option<Value> {
    let mut de = serde_json::Deserializer::from_str(text);
    let v = KeepKeys(keys).deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(v)
}

/// An object of which only some keys are kept (anything but an object gives up).
pub(super) struct KeepKeys(pub(super) &'static [&'static str]);

impl<'de> DeserializeSeed<'de> for KeepKeys {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for KeepKeys {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<Value, A::Error> {
        keep_keys(m, self.0, false)
    }
}

/// The object `m` with only `keys` kept, their values whole (a kept key that repeats gives
/// up); when `strict`, a key normalizing reads (`lc`, `__lc_escaped__`) or a serde_json
/// private key gives up too.
fn keep_keys<'de, A: MapAccess<'de>>(
    mut m: A,
    keys: &'static [&'static str],
    strict: bool,
) -> Result<Value, A::Error> {
    let mut out = Map::with_capacity(keys.len());
    while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
        if strict && (k == "lc" || k == "__lc_escaped__" || k.starts_with("$serde_json::private::"))
        {
            return Err(bail());
        }
        if keys.contains(&k.as_ref()) {
            if out.insert(k.into_owned(), m.next_value()?).is_some() {
                return Err(bail());
            }
        } else {
            m.next_value::<IgnoredAny>()?;
        }
    }
    Ok(Value::Object(out))
}

/// How a kept value is pruned.
#[derive(Clone, Copy)]
enum Seed {
    /// A message: only these keys (and an lc constructor's `kwargs`, pruned alike).
    Message(&'static [&'static str]),
    /// Only what [`Calls`] keeps.
    Calls,
}

impl<'de> DeserializeSeed<'de> for Seed {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        match self {
            Seed::Message(keys) => d.deserialize_map(Message(keys)),
            Seed::Calls => d.deserialize_any(Calls { whole_seq: false }),
        }
    }
}

/// v2 event data of which only one key is read: `{"chunk": message}` of a model stream,
/// `{"output": …}` of a model or node end; other keys dropped.
struct OneKey(&'static str, Seed);

impl<'de> DeserializeSeed<'de> for OneKey {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for OneKey {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Value, A::Error> {
        let mut out = Map::with_capacity(1);
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            if k == self.0 {
                if out
                    .insert(self.0.into(), m.next_value_seed(self.1)?)
                    .is_some()
                {
                    return Err(bail());
                }
            } else {
                m.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Value::Object(out))
    }
}

/// The message fields the chunk mapping reads (flat form, and the lc constructor's own keys).
const MESSAGE_KEYS: [&str; 9] = [
    "content",
    "additional_kwargs",
    "tool_call_chunks",
    "id",
    "type",
    "role",
    "lc",
    "repr",
    "__lc_escaped__",
];

/// What `on_chat_model_end` reads of its output message: the chunk fields, the tool calls,
/// the usage and the older `generations` form.
const MODEL_END_KEYS: [&str; 13] = concat_keys(
    MESSAGE_KEYS,
    [
        "tool_calls",
        "usage_metadata",
        "response_metadata",
        "generations",
    ],
);

/// `a` then `b` (`N` must be their total length: checked when the constant is evaluated).
const fn concat_keys<const A: usize, const B: usize, const N: usize>(
    a: [&'static str; A],
    b: [&'static str; B],
) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < A {
        out[i] = a[i];
        i += 1;
    }
    while i < N {
        out[i] = b[i - A];
        i += 1;
    }
    out
}

/// A message, flat or an lc constructor (whose `kwargs` is pruned alike).
struct Message(&'static [&'static str]);

impl<'de> Visitor<'de> for Message {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Value, A::Error> {
        let mut out = Map::with_capacity(self.0.len());
        let mut skipped = false;
        let mut escaped = false;
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            let old = if k == "kwargs" {
                out.insert("kwargs".into(), m.next_value_seed(Seed::Message(self.0))?)
            } else if self.0.contains(&k.as_ref()) {
                escaped |= k == "__lc_escaped__";
                let v = match message_field(&k) {
                    Some(seed) => m.next_value_seed(seed)?,
                    None => m.next_value()?,
                };
                out.insert(k.into_owned(), v)
            } else {
                m.next_value::<IgnoredAny>()?;
                skipped = true;
                None
            };
            if old.is_some() {
                return Err(bail());
            }
        }
        // `{"__lc_escaped__": …}` is unwrapped only when it is the sole key.
        if skipped && escaped {
            return Err(bail());
        }
        Ok(Value::Object(out))
    }
}

/// How a message field the adapter reads only in part is pruned: `additional_kwargs` (the
/// chunk mapping reads only its reasoning keys), `response_metadata` and `usage_metadata` (the
/// usage reads the provider, the model and the token counts), `tool_calls` (each call's
/// `id`, `name` and `args`). Other fields are read whole (`None`).
fn message_field(key: &str) -> Option<Part> {
    Some(match key {
        "additional_kwargs" => Part::Only(&["reasoning_content", "reasoning"]),
        "response_metadata" => Part::Only(&["model_provider", "model_name"]),
        "usage_metadata" => Part::Only(&[
            "input_tokens",
            "output_tokens",
            "total_tokens",
            "output_token_details",
        ]),
        "tool_calls" => TOOL_CALLS,
        _ => return None,
    })
}

/// A message's `tool_calls`: of each call only what `lc::tool_calls` reads.
const TOOL_CALLS: Part = Part::EachOnly(&["id", "name", "args"]);

/// A value read in part ([`message_field`]).
///
/// `Only(keys)`: an object keeps only `keys` (their values whole); anything else is read
/// whole. `EachOnly(keys)`: a list's elements are read as `Only(keys)`; anything else whole.
/// An object pruned so gives up when it has a key normalizing reads (`lc`, `__lc_escaped__`:
/// it could become another value) or a serde_json private key (a whole parse could read it
/// as another value), or when a kept key repeats (a whole parse keeps the last one).
#[derive(Clone, Copy)]
enum Part {
    Only(&'static [&'static str]),
    EachOnly(&'static [&'static str]),
}

seed_by_visiting_any!(Part => Value);

impl<'de> Visitor<'de> for Part {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    scalars_as_values!();
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        match self {
            Part::EachOnly(keys) => {
                while let Some(v) = s.next_element_seed(Part::Only(keys))? {
                    out.push(v);
                }
            }
            Part::Only(_) => {
                while let Some(v) = s.next_element::<Value>()? {
                    out.push(v);
                }
            }
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<Value, A::Error> {
        match self {
            Part::Only(keys) => keep_keys(m, keys, true),
            Part::EachOnly(_) => Value::deserialize(de::value::MapAccessDeserializer::new(m)),
        }
    }
}

/// What the v2 adapter's `remember_calls_in` reads of a node's output (or the root's stream
/// chunk): messages (`type`/`role`, `id`, `tool_calls`, `content` only as present), the
/// `messages` and `update` it descends into, lc constructors (`lc`, `type`, `id`, `kwargs`,
/// `repr`), and `__interrupt__` (read whole from the root stream). Everything else is dropped;
/// `__lc_escaped__` (unwrapped only as a sole key) gives up. Arrays are pruned element-wise,
/// unless `whole_seq` (the root stream's `[mode, payload]` parts are read whole).
struct Calls {
    whole_seq: bool,
}

impl<'de> Visitor<'de> for Calls {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    scalars_as_values!();
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        if self.whole_seq {
            while let Some(v) = s.next_element::<Value>()? {
                out.push(v);
            }
        } else {
            while let Some(v) = s.next_element_seed(Seed::Calls)? {
                out.push(v);
            }
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Value, A::Error> {
        let mut out = Map::with_capacity(4);
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            let v = match k.as_ref() {
                "content" => {
                    m.next_value::<IgnoredAny>()?;
                    Value::Null
                }
                "type" | "role" | "id" | "lc" | "repr" | "__interrupt__" => m.next_value()?,
                "tool_calls" => m.next_value_seed(TOOL_CALLS)?,
                "kwargs" | "messages" | "update" => m.next_value_seed(Seed::Calls)?,
                "__lc_escaped__" => return Err(bail()),
                _ => {
                    m.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            // A repeated key: the last one wins in place, as in a whole parse.
            out.insert(k.into_owned(), v);
        }
        Ok(Value::Object(out))
    }
}

/// The root's `on_chain_stream` data: `chunk` as [`Calls`] keeps it (arrays whole).
struct RootStream;

impl<'de> Visitor<'de> for RootStream {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Value, A::Error> {
        let mut out = Map::with_capacity(1);
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            if k == "chunk" {
                let v = m.next_value_seed(RootChunk)?;
                out.insert("chunk".into(), v);
            } else {
                m.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Value::Object(out))
    }
}

struct RootChunk;

impl<'de> DeserializeSeed<'de> for RootChunk {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(Calls { whole_seq: true })
    }
}

/// A node's `on_chain_start` data: its `input` is read only as a `Send` payload (a list of
/// tool calls), so a plain object (no `lc` or `__lc_escaped__` key, which could normalize to a
/// list) is kept as `{}` and the other keys are dropped. Any other `input` is read whole, and
/// then the whole data is (its other keys kept as raw text until then); an object with such a
/// key gives up.
struct StartData;

impl<'de> Visitor<'de> for StartData {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Value, A::Error> {
        let mut entries: Vec<(Cow<'de, str>, Result<Value, &'de RawValue>)> = Vec::new();
        let mut whole = false;
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            if k == "input" {
                if entries.iter().any(|(k, _)| k == "input") {
                    return Err(bail()); // a whole parse keeps the last one
                }
                let input = m.next_value_seed(Input)?;
                whole |= input.is_some();
                entries.push((k, Ok(input.unwrap_or_else(|| Value::Object(Map::new())))));
            } else {
                entries.push((k, Err(m.next_value()?)));
            }
        }
        let mut out = Map::with_capacity(entries.len());
        for (k, v) in entries {
            match v {
                Ok(input) => {
                    out.insert(k.into_owned(), input);
                }
                Err(raw) if whole => {
                    let v = serde_json::from_str(raw.get()).map_err(|_| bail::<A::Error>())?;
                    out.insert(k.into_owned(), v);
                }
                Err(_) => {}
            }
        }
        Ok(Value::Object(out))
    }
}

/// A node's start `input`: `None` for an object with no `lc` or `__lc_escaped__` key (its
/// content skipped), anything else but an object whole (an object with such a key gives up).
struct Input;

seed_by_visiting_any!(Input => Option<Value>);

impl<'de> Visitor<'de> for Input {
    type Value = Option<Value>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    scalars_as_values!(Some);
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = s.next_element::<Value>()? {
            out.push(v);
        }
        Ok(Some(Value::Array(out)))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            if k == "lc" || k == "__lc_escaped__" {
                return Err(bail());
            }
            m.next_value::<IgnoredAny>()?;
        }
        Ok(None)
    }
}

/// A v2 `parent_ids` list: only its emptiness is read, so a non-empty list is kept as `[null]`
/// (both lists shared, [`EMPTY_LIST`] and [`NULL_LIST`]: no allocation per line).
struct ParentIds;

static EMPTY_LIST: Value = Value::Array(Vec::new());
static NULL_LIST: LazyLock<Value> = LazyLock::new(|| Value::Array(vec![Value::Null]));

seed_by_visiting_any!(ParentIds => Cow<'static, Value>);

impl<'de> Visitor<'de> for ParentIds {
    type Value = Cow<'static, Value>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Self::Value, A::Error> {
        let mut any = false;
        while s.next_element::<IgnoredAny>()?.is_some() {
            any = true;
        }
        Ok(Cow::Borrowed(if any { &NULL_LIST } else { &EMPTY_LIST }))
    }
    // Not a list (never seen): read as `Calls` would, i.e. whole for anything but objects.
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Self::Value, A::Error> {
        Err(bail())
    }
    scalars_as_values!(Cow::Owned);
}

/// The tag the v2 adapter looks for (a hidden run's).
const HIDDEN_TAG: &str = "langsmith:hidden";

/// A v2 `tags` list: only whether it holds the string [`HIDDEN_TAG`] is read, so the list keeps
/// only that string's occurrences (most lists then need no allocation). Anything but a list
/// is kept whole (an object gives up: never seen).
struct Tags;

seed_by_visiting_any!(Tags => Value);

impl<'de> Visitor<'de> for Tags {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list")
    }
    scalars_as_values!();
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(hidden) = s.next_element_seed(IsHiddenTag)? {
            if hidden {
                out.push(Value::String(HIDDEN_TAG.into()));
            }
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Value, A::Error> {
        Err(bail())
    }
}

/// A `tags` element: whether it is the string [`HIDDEN_TAG`] (anything else skipped).
struct IsHiddenTag;

seed_by_visiting_any!(IsHiddenTag => bool);

impl<'de> Visitor<'de> for IsHiddenTag {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<bool, E> {
        Ok(s == HIDDEN_TAG)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_unit<E: de::Error>(self) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<bool, A::Error> {
        while s.next_element::<IgnoredAny>()?.is_some() {}
        Ok(false)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<bool, A::Error> {
        while m.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(false)
    }
}

/// A string borrowed from the line when it has no escapes, or any other value as a `Value`.
enum StrOrValue<'de> {
    Str(Cow<'de, str>),
    Value(Value),
}

impl<'de> Deserialize<'de> for StrOrValue<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrOrValueVisitor)
    }
}

struct StrOrValueVisitor;

impl<'de> Visitor<'de> for StrOrValueVisitor {
    type Value = StrOrValue<'de>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Self::Value, E> {
        Ok(StrOrValue::Str(Cow::Borrowed(s)))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        Ok(StrOrValue::Str(Cow::Owned(s.to_string())))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Self::Value, E> {
        Ok(StrOrValue::Str(Cow::Owned(s)))
    }
    scalars_as_values!(non_strings: StrOrValue::Value);
    fn visit_seq<A: SeqAccess<'de>>(self, s: A) -> Result<Self::Value, A::Error> {
        let v = Value::deserialize(de::value::SeqAccessDeserializer::new(s))?;
        Ok(StrOrValue::Value(v))
    }
    fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<Self::Value, A::Error> {
        let v = Value::deserialize(de::value::MapAccessDeserializer::new(m))?;
        Ok(StrOrValue::Value(v))
    }
}

/// The v2 event names seen in logs, each as a `Value` made once: a line's `event` is one of
/// these shared values (no allocation per line), else its own.
const EVENT_NAMES: [&str; 22] = [
    "on_chat_model_stream",
    "on_chain_stream",
    "on_chain_start",
    "on_chain_end",
    "on_chat_model_start",
    "on_chat_model_end",
    "on_tool_start",
    "on_tool_end",
    "on_tool_error",
    "on_custom_event",
    "on_llm_start",
    "on_llm_stream",
    "on_llm_end",
    "on_llm_error",
    "on_chain_error",
    "on_chat_model_error",
    "on_prompt_start",
    "on_prompt_end",
    "on_retriever_start",
    "on_retriever_end",
    "on_parser_start",
    "on_parser_end",
];

static EVENT_VALUES: LazyLock<[Value; 22]> =
    LazyLock::new(|| EVENT_NAMES.map(|e| Value::String(e.into())));

/// A v2 event name as a `Value`: a shared one of [`EVENT_NAMES`], or its own.
fn event_value(e: Cow<'_, str>) -> Cow<'static, Value> {
    match EVENT_NAMES.iter().position(|n| *n == e) {
        Some(i) => Cow::Borrowed(&EVENT_VALUES[i]),
        None => Cow::Owned(Value::String(e.into_owned())),
    }
}

/// v3 `params`, with `data` pruned by method.
struct Params<'a>(&'a str);

impl<'de> DeserializeSeed<'de> for Params<'_> {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Params<'_> {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        let mut updates: Option<&'de RawValue> = None;
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            let v = match k.as_ref() {
                "data" => match self.0 {
                    "checkpoints" | "debug" => {
                        m.next_value::<IgnoredAny>()?;
                        Value::Null
                    }
                    "tasks" => m.next_value_seed(KeepKeys(&["interrupts"]))?,
                    "updates" => {
                        updates = Some(m.next_value()?);
                        Value::Null
                    }
                    "messages" => m.next_value_seed(MessagesData { first: true })?,
                    _ => m.next_value()?,
                },
                "namespace" | "timestamp" | "interrupts" => m.next_value()?,
                "node" if self.0 == "updates" => m.next_value()?,
                _ => {
                    // Unread (a duplicate would be dropped alike).
                    m.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            if out.insert(k.into_owned(), v).is_some() {
                return Err(bail());
            }
        }
        if let Some(raw) = updates {
            // Only the node is read, unless it is `__interrupt__` (then its values are).
            #[derive(serde::Deserialize)]
            struct Node {
                node: Option<Value>,
            }
            let node = serde_json::from_str::<Node>(raw.get())
                .ok()
                .and_then(|n| n.node);
            let interrupt = match &node {
                Some(n) => n == "__interrupt__",
                None => out.get("node").is_some_and(|n| n == "__interrupt__"),
            };
            let data = if interrupt || !raw.get().starts_with('{') {
                serde_json::from_str(raw.get()).map_err(|_| bail::<A::Error>())?
            } else {
                let mut d = Map::new();
                if let Some(n) = node {
                    d.insert("node".into(), n);
                }
                Value::Object(d)
            };
            out.insert("data".into(), data);
        }
        Ok(Value::Object(out))
    }
}

/// v3 `messages` data: the keys the adapter reads of a message event; of the in-process
/// `[payload, metadata]` form only the payload (the rest as `null`s, so the length stays).
struct MessagesData {
    first: bool,
}

seed_by_visiting_any!(MessagesData => Value);

impl<'de> Visitor<'de> for MessagesData {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    scalars_as_values!();
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        if !self.first {
            // Not the params' data itself: read whole.
            while let Some(v) = s.next_element::<Value>()? {
                out.push(v);
            }
            return Ok(Value::Array(out));
        }
        if let Some(v) = s.next_element_seed(MessagesData { first: false })? {
            out.push(v);
            while s.next_element::<IgnoredAny>()?.is_some() {
                out.push(Value::Null);
            }
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        message_keys(&mut m, &mut out)?;
        Ok(Value::Object(out))
    }
}

/// The rest of a v3 `messages` payload object into `out`: the keys the adapter reads.
pub(super) fn message_keys<'de, A: MapAccess<'de>>(
    m: &mut A,
    out: &mut Map<String, Value>,
) -> Result<(), A::Error> {
    while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
        match k.as_ref() {
            "event" | "id" | "index" | "delta" | "content" | "usage" | "metadata" => {
                let v = m.next_value()?;
                // A repeated key: the last one wins in place, as in a whole parse.
                out.insert(k.into_owned(), v);
            }
            _ => {
                m.next_value::<IgnoredAny>()?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The pruned `Value` of a line (a v2 line's typed envelope as a `Value`).
    fn parse_pruned(text: &str) -> Option<Value> {
        super::parse_pruned(text).map(Pruned::into_value)
    }

    #[test]
    fn v2_stream_keeps_what_the_adapter_reads() {
        let line = r#"{"event":"on_chat_model_stream","data":{"chunk":{"content":"Hi","type":"AIMessageChunk","id":"m","usage_metadata":null,"tool_calls":[]},"x":1},"run_id":"r","metadata":{"thread_id":"t","langgraph_node":"n","ls_provider":"p"},"parent_ids":["a"]}"#;
        let v = parse_pruned(line).expect("pruned");
        assert_eq!(
            v,
            json!({"event":"on_chat_model_stream","data":{"chunk":{"content":"Hi","type":"AIMessageChunk","id":"m"}},
                "run_id":"r","metadata":{},"parent_ids":[null]})
        );
    }

    #[test]
    fn v2_root_chain_stream_keeps_data_node_stream_drops_it() {
        let root =
            r#"{"event":"on_chain_stream","data":{"chunk":{"a":{"messages":[]}}},"parent_ids":[]}"#;
        assert_eq!(
            parse_pruned(root).expect("pruned")["data"],
            json!({"chunk":{}})
        );
        let root = r#"{"event":"on_chain_stream","data":{"chunk":{"messages":[{"content":"c","type":"ai","x":1}]}},"parent_ids":[]}"#;
        assert_eq!(
            parse_pruned(root).expect("pruned")["data"],
            json!({"chunk":{"messages":[{"content":null,"type":"ai"}]}})
        );
        let node = r#"{"event":"on_chain_stream","data":{"chunk":{"a":1}},"parent_ids":["r"]}"#;
        assert_eq!(parse_pruned(node).expect("pruned")["data"], Value::Null);
    }

    #[test]
    fn v3_updates_keep_interrupts_whole() {
        let line = r#"{"type":"event","method":"updates","params":{"namespace":[],"data":{"node":"__interrupt__","values":[{"id":"i"}]}},"seq":1}"#;
        assert_eq!(
            parse_pruned(line).expect("pruned")["params"]["data"],
            json!({"node":"__interrupt__","values":[{"id":"i"}]})
        );
        let line = r#"{"type":"event","method":"updates","params":{"data":{"node":"agent","values":{"messages":[]}}}}"#;
        assert_eq!(
            parse_pruned(line).expect("pruned")["params"]["data"],
            json!({"node":"agent"})
        );
    }

    #[test]
    fn v2_node_chain_end_keeps_only_the_calls() {
        let line = r#"{"event":"on_chain_end","data":{"output":{"messages":[{"content":"x","type":"ai","id":"a","tool_calls":[{"id":"c","name":"f","args":{}}],"usage_metadata":{"n":1}}],"other":{"messages":[]}},"input":{"big":1}},"run_id":"r","name":"n","tags":["t"],"metadata":{"langgraph_node":"n","x":1},"parent_ids":["p","q"]}"#;
        let v = parse_pruned(line).expect("pruned");
        assert_eq!(
            v,
            json!({"event":"on_chain_end","data":{"output":{"messages":[{"content":null,"type":"ai","id":"a","tool_calls":[{"id":"c","name":"f","args":{}}]}]}},
                "run_id":"r","metadata":{"langgraph_node":"n"},"parent_ids":[null]})
        );
        // The root's end is read whole.
        let root = r#"{"event":"on_chain_end","data":{"output":{"a":{"b":1}},"input":2},"name":"g","parent_ids":[]}"#;
        assert_eq!(
            parse_pruned(root).expect("pruned")["data"],
            json!({"output":{"a":{"b":1}},"input":2})
        );
        // An escaped user dict (unwrapped only as a sole key) gives up.
        let esc = r#"{"event":"on_chain_end","data":{"output":{"__lc_escaped__":{"lc":1},"x":1}},"parent_ids":["p"]}"#;
        assert!(parse_pruned(esc).is_none());
    }

    #[test]
    fn v2_node_chain_start_keeps_send_payloads() {
        let plain = r#"{"event":"on_chain_start","data":{"input":{"messages":[1,2]},"x":1},"name":"n","tags":["a"],"parent_ids":["p"]}"#;
        assert_eq!(
            parse_pruned(plain).expect("pruned"),
            json!({"event":"on_chain_start","data":{"input":{}},"name":"n","tags":[],"parent_ids":[null]})
        );
        let send = r#"{"event":"on_chain_start","data":{"input":[{"type":"tool_call","id":"c"}]},"parent_ids":["p"]}"#;
        assert_eq!(
            parse_pruned(send).expect("pruned")["data"],
            json!({"input":[{"type":"tool_call","id":"c"}]})
        );
        let lc =
            r#"{"event":"on_chain_start","data":{"input":{"lc":1,"type":"x"}},"parent_ids":["p"]}"#;
        // An object that could normalize to a list: the line is read whole.
        assert!(parse_pruned(lc).is_none());
    }

    #[test]
    fn v2_root_stream_keeps_interrupts_and_parts_whole() {
        let ints = r#"{"event":"on_chain_stream","data":{"chunk":{"__interrupt__":[{"id":"i","value":{"q":1}}],"node":{"x":1}}},"parent_ids":[]}"#;
        assert_eq!(
            parse_pruned(ints).expect("pruned")["data"],
            json!({"chunk":{"__interrupt__":[{"id":"i","value":{"q":1}}]}})
        );
        let part = r#"{"event":"on_chain_stream","data":{"chunk":["custom",{"a":{"b":1}}]},"parent_ids":[]}"#;
        assert_eq!(
            parse_pruned(part).expect("pruned")["data"],
            json!({"chunk":["custom",{"a":{"b":1}}]})
        );
    }

    #[test]
    fn v2_model_end_keeps_output_fields_read() {
        let line = r#"{"event":"on_chat_model_end","data":{"output":{"content":"hi","type":"ai","id":"m","tool_calls":[],"usage_metadata":{"input_tokens":1},"response_metadata":{"model_name":"x"},"invalid_tool_calls":[],"name":null},"input":{"messages":[]}},"name":"M","tags":["t"],"run_id":"r"}"#;
        assert_eq!(
            parse_pruned(line).expect("pruned"),
            json!({"event":"on_chat_model_end","data":{"output":{"content":"hi","type":"ai","id":"m","tool_calls":[],"usage_metadata":{"input_tokens":1},"response_metadata":{"model_name":"x"}}},"run_id":"r"})
        );
    }

    #[test]
    fn v3_messages_and_params_keep_what_is_read() {
        let line = r#"{"type":"event","seq":7,"method":"messages","params":{"namespace":["a"],"timestamp":5,"node":"chat","data":{"event":"content-block-delta","index":0,"delta":{"type":"text-delta","text":"Hi"},"run_id":"r"}}}"#;
        assert_eq!(
            parse_pruned(line).expect("pruned"),
            json!({"type":"event","seq":7,"method":"messages","params":{"namespace":["a"],"timestamp":5,
                "data":{"event":"content-block-delta","index":0,"delta":{"type":"text-delta","text":"Hi"}}}})
        );
        let inproc = r#"{"type":"event","method":"messages","params":{"data":[{"event":"message-start","id":"m","role":"ai"},{"thread_id":"t"}]}}"#;
        assert_eq!(
            parse_pruned(inproc).expect("pruned")["params"]["data"],
            json!([{"event":"message-start","id":"m"},null])
        );
    }

    #[test]
    fn chain_roots_are_guessed_from_the_text() {
        let g = |t| root_guess(t, None);
        assert_eq!(g(r#"{"event":"on_chain_end","parent_ids":[]}"#), Some(true));
        assert_eq!(g(r#"{"event": "x", "parent_ids": [ ] } "#), Some(true));
        assert_eq!(g(r#"{"event":"x","parent_ids":["a","b"]}"#), Some(false));
        assert_eq!(g(r#"{"event": "x", "parent_ids": ["a"]}"#), Some(false));
        // JS: no parent_ids; a node's metadata has its langgraph_node.
        assert_eq!(
            g(r#"{"event":"x","metadata":{"langgraph_node":"n"}}"#),
            Some(false)
        );
        assert_eq!(
            g(r#"{"event":"x","metadata":{"thread_id":"t"}}"#),
            Some(true)
        );
        // parent_ids not last: no guess.
        assert_eq!(g(r#"{"parent_ids":[],"event":"x"}"#), None);
        assert_eq!(g(r#"{"event":"x","parent_ids":{"a":[1]}}"#), None);
        // The metadata read before the data (JS stream order) decides without parent_ids.
        assert_eq!(root_guess(r#"{"metadata":{}}"#, Some(true)), Some(false));
        assert_eq!(
            root_guess(r#"{"x":"\"langgraph_node\""}"#, Some(false)),
            Some(true)
        );
        assert_eq!(
            root_guess(r#"{"parent_ids":["a"]}"#, Some(false)),
            Some(false)
        );
    }

    #[test]
    fn chain_data_read_in_one_pass_or_deferred() {
        // JS key order, the root: data whole.
        let js = r#"{"event":"on_chain_end","data":{"output":{"a":{"b":1}},"input":2},"run_id":"r","name":"LangGraph","tags":[],"metadata":{"thread_id":"t"}}"#;
        assert_eq!(
            parse_pruned(js).expect("pruned"),
            json!({"event":"on_chain_end","data":{"output":{"a":{"b":1}},"input":2},"run_id":"r","metadata":{}})
        );
        // JS key order, a node: pruned.
        let js = r#"{"event":"on_chain_end","data":{"output":{"a":{"b":1}},"input":2},"run_id":"r","name":"n","metadata":{"langgraph_node":"n"}}"#;
        assert_eq!(
            parse_pruned(js).expect("pruned")["data"],
            json!({"output":{}})
        );
        // Python stream order (parent_ids after data).
        let node = r#"{"event":"on_chain_stream","run_id":"r","metadata":{"langgraph_node":"n"},"data":{"chunk":{"a":1}},"parent_ids":["p"]}"#;
        assert_eq!(parse_pruned(node).expect("pruned")["data"], Value::Null);
        // parent_ids already read: no guess needed.
        let root =
            r#"{"event":"on_chain_start","parent_ids":[],"data":{"input":{"x":1}},"name":"g"}"#;
        assert_eq!(
            parse_pruned(root).expect("pruned")["data"],
            json!({"input":{"x":1}})
        );
        // parent_ids not last: the data is kept as text and read after the line.
        let root =
            r#"{"event":"on_chain_end","data":{"output":{"x":1}},"parent_ids":[],"name":"g"}"#;
        assert_eq!(
            parse_pruned(root).expect("pruned")["data"],
            json!({"output":{"x":1}})
        );
        let node = r#"{"event":"on_chain_start","data":{"input":{"x":1},"y":2},"parent_ids":["p"],"name":"n"}"#;
        assert_eq!(
            parse_pruned(node).expect("pruned")["data"],
            json!({"input":{}})
        );
        // A wrong guess (a root whose data mentions a langgraph_node; a node whose metadata
        // has none): the line is parsed whole.
        let root = r#"{"event":"on_chain_end","data":{"output":{"langgraph_node":"x"}},"metadata":{"thread_id":"t"}}"#;
        assert!(parse_pruned(root).is_none());
        let node = r#"{"event":"on_chain_end","data":{"output":{"x":1}},"metadata":{"langgraph\u005fnode":"n"}}"#;
        assert_eq!(root_guess(node, None), Some(true));
        assert!(parse_pruned(node).is_none());
    }

    #[test]
    fn node_start_data_whole_for_send_payloads() {
        let send = r#"{"event":"on_chain_start","data":{"x":{"a":1},"input":[{"type":"tool_call","id":"c"}],"y":null},"parent_ids":["p"]}"#;
        assert_eq!(
            parse_pruned(send).expect("pruned")["data"],
            json!({"x":{"a":1},"input":[{"type":"tool_call","id":"c"}],"y":null})
        );
        let s = r#"{"event":"on_chain_start","data":{"input":"q"},"parent_ids":["p"]}"#;
        assert_eq!(
            parse_pruned(s).expect("pruned")["data"],
            json!({"input":"q"})
        );
        // Twice, or an object that could normalize: given up.
        let dup =
            r#"{"event":"on_chain_start","data":{"input":[1],"input":{}},"parent_ids":["p"]}"#;
        assert!(parse_pruned(dup).is_none());
        let esc = r#"{"event":"on_chain_start","data":{"input":{"__lc_escaped__":[1]}},"parent_ids":["p"]}"#;
        assert!(parse_pruned(esc).is_none());
        // Deferred (parent_ids not last), likewise.
        let send = r#"{"event":"on_chain_start","data":{"x":1,"input":[2]},"parent_ids":["p"],"name":"n"}"#;
        assert_eq!(
            parse_pruned(send).expect("pruned")["data"],
            json!({"x":1,"input":[2]})
        );
    }

    #[test]
    fn chain_lines_give_the_same_model_events_three_ways() {
        use crate::input::three_ways;
        let lines = [
            r#"{"event":"on_chain_start","data":{"input":{"messages":[{"content":"hi","type":"human","id":"h"}]}},"run_id":"g","name":"LangGraph","tags":[],"metadata":{"thread_id":"t"},"parent_ids":[]}"#,
            r#"{"event":"on_chain_start","data":{"input":{"messages":[]}},"run_id":"n1","name":"chat","tags":["graph:step:1"],"metadata":{"thread_id":"t","langgraph_node":"chat"},"parent_ids":["g"]}"#,
            r#"{"event":"on_chain_end","data":{"output":{"messages":[{"content":"","type":"ai","id":"a1","tool_calls":[{"id":"c1","name":"f","args":{"x":1}}]}]},"input":{}},"run_id":"n1","name":"chat","tags":[],"metadata":{"thread_id":"t","langgraph_node":"chat"},"parent_ids":["g"]}"#,
            r#"{"event":"on_chain_stream","run_id":"n1","name":"chat","tags":[],"metadata":{"thread_id":"t","langgraph_node":"chat"},"data":{"chunk":{"messages":[]}},"parent_ids":["g"]}"#,
            r#"{"event":"on_chain_start","data":{"input":[{"type":"tool_call","id":"c1","name":"f","args":{"x":1}}]},"run_id":"n2","name":"tools","tags":[],"metadata":{"thread_id":"t","langgraph_node":"tools"},"parent_ids":["g"]}"#,
            r#"{"event":"on_chain_stream","run_id":"g","name":"LangGraph","tags":[],"metadata":{"thread_id":"t"},"data":{"chunk":{"chat":{"messages":[{"content":"x","type":"ai","id":"a1"}]}}},"parent_ids":[]}"#,
            r#"{"event":"on_chain_stream","data":{"chunk":{"langgraph_node":{"__interrupt__":[{"value":"q","id":"i"}]}}},"run_id":"g","name":"LangGraph","tags":[],"metadata":{"thread_id":"t"}}"#,
            r#"{"event":"on_chain_stream","run_id":"g","name":"LangGraph","tags":[],"metadata":{"thread_id":"t"},"data":{"chunk":{"langgraph_node":{"__interrupt__":[{"value":"q","id":"i"}]}}}}"#,
            r#"{"event":"on_chain_end","data":{"output":{"messages":[{"content":"bye","type":"ai","id":"a2"}]}},"run_id":"g","name":"LangGraph","tags":[],"metadata":{"thread_id":"t"},"parent_ids":[]}"#,
        ];
        three_ways::assert_agree(&lines);
        assert!(lines[..6].iter().all(|l| parse_pruned(l).is_some()));
        // A root stream line whose data mentions a langgraph_node: guessed wrong from the text,
        // read whole; right from the metadata read before it (JS stream order).
        assert!(parse_pruned(lines[6]).is_none());
        assert!(parse_pruned(lines[7]).is_some());
    }

    #[test]
    fn v2_envelopes_give_the_same_model_events_three_ways() {
        use crate::input::three_ways;
        let meta = r#""metadata":{"thread_id":"t","langgraph_node":"chat","x":[1]}"#;
        let lines = [
            r#"{"event":"on_chain_start","data":{"input":{"messages":[]}},"run_id":"g","name":"LangGraph","tags":[],"metadata":{"thread_id":"t"},"parent_ids":[]}"#.to_string(),
            format!(r#"{{"event":"on_chain_start","data":{{"input":{{}}}},"run_id":"n","name":"chat","tags":["graph:step:1"],{meta},"parent_ids":["g"]}}"#),
            format!(r#"{{"event":"on_chat_model_start","data":{{"input":{{"messages":[[]]}}}},"run_id":"m","name":"M","tags":[],{meta},"parent_ids":["g","n"]}}"#),
            // Not a plain chunk (reasoning): pruned.
            format!(r#"{{"event":"on_chat_model_stream","data":{{"chunk":{{"content":"a","additional_kwargs":{{"reasoning_content":"r"}},"type":"AIMessageChunk","id":"m1"}}}},"run_id":"m",{meta},"parent_ids":["g","n"]}}"#),
            format!(r#"{{"event":"on_chat_model_stream","data":{{"chunk":{{"content":"b","tool_call_chunks":[{{"index":0,"id":"c1","name":"f","args":"{{}}"}}],"type":"AIMessageChunk","id":"m1"}}}},"run_id":"m",{meta},"parent_ids":["g","n"],"x":1}}"#),
            format!(r#"{{"event":"on_chat_model_end","data":{{"output":{{"content":"ab","type":"ai","id":"m1","tool_calls":[{{"id":"c1","name":"f","args":{{}}}}],"usage_metadata":{{"input_tokens":1,"output_tokens":2,"total_tokens":3}}}}}},"run_id":"m","name":"M",{meta},"parent_ids":["g","n"]}}"#),
            format!(r#"{{"event":"on_chain_end","data":{{"output":{{"messages":[]}}}},"run_id":"n","name":"chat","tags":[],{meta},"parent_ids":["g"]}}"#),
            r#"{"event":"on_tool_start","data":{"input":{}},"run_id":"t1","name":"f","tags":["x"],"metadata":{"thread_id":"t","langgraph_node":"tools"},"parent_ids":["g"]}"#.to_string(),
            r#"{"event":"on_tool_end","data":{"output":{"content":"ok","type":"tool","tool_call_id":"c1","id":"tm"},"input":{}},"run_id":"t1","name":"f","tags":[],"metadata":{"langgraph_node":"tools"},"parent_ids":["g"]}"#.to_string(),
            r#"{"event":"on_tool_start","data":{"input":"q"},"run_id":"t2","name":7,"parent_ids":["g"]}"#.to_string(),
            r#"{"event":"on_tool_error","data":{"error":"boom\nmore","tool_call_id":"c9"},"run_id":"t2","name":"g","parent_ids":["g"]}"#.to_string(),
            // A custom event whose data looks like a v3 event (its timestamp is read).
            r#"{"event":"on_custom_event","data":{"type":"event","method":"x","seq":3,"params":{"timestamp":5}},"run_id":"c","name":"progress","tags":[],"metadata":{},"parent_ids":["g"]}"#.to_string(),
            r#"{"event":"on_custom_event","run_id":"c","name":"n2","data":[1,{"a":null}]}"#.to_string(),
            r#"{"event":"on_custom_event","name":null}"#.to_string(),
            r#"{"event":"on_llm_start","data":{"x":1},"run_id":"l","parent_ids":["g"]}"#.to_string(),
            r#"{"event":"on_retriever_end","data":{"documents":[]},"parent_ids":["g"]}"#.to_string(),
            r#"{"event":"on_prompt_start","data":{}}"#.to_string(),
            r#"{"event":"on_parser_stream","data":{"chunk":1},"parent_ids":["g"]}"#.to_string(),
            r#"{"event":"on_foo","data":{"a":1},"run_id":"f"}"#.to_string(),
            // Odd shapes: wrong types, duplicates, missing keys, JS order, odd metadata.
            r#"{"event":"on_chain_start","data":{"input":{}},"run_id":5,"name":"chat","tags":"x","metadata":{"langgraph_node":"chat"},"parent_ids":["g"]}"#.to_string(),
            r#"{"event":"on_chain_start","data":{"input":{}},"run_id":"h","name":"__hidden","metadata":{"langgraph_node":"__hidden"},"parent_ids":["g"]}"#.to_string(),
            r#"{"event":"on_chain_start","data":{"input":{}},"run_id":"h2","name":"chat","tags":["langsmith:hidden"],"metadata":{"langgraph_node":"chat"},"parent_ids":["g"]}"#.to_string(),
            r#"{"event":"on_chain_end","data":{"output":{}},"run_id":"h2","run_id":"h3","metadata":{"langgraph_node":"chat"},"parent_ids":["g"]}"#.to_string(),
            r#"{"event":"on_chain_end","data":{"output":{}},"run_id":"h2","name":"a","name":"b","metadata":{"langgraph_node":"chat"},"parent_ids":["g"]}"#.to_string(),
            r#"{"event":"on_chain_end","data":{"output":{}},"data":{},"run_id":"n","metadata":{"langgraph_node":"chat"},"parent_ids":["g"]}"#.to_string(),
            r#"{"event":"on_chain_end","data":{"output":{}},"run_id":"n","metadata":{"langgraph_node":"chat"},"metadata":{},"parent_ids":["g"]}"#.to_string(),
            r#"{"event":"on_chain_end","data":{"output":{}},"run_id":"n","metadata":{"langgraph_node":"chat","langgraph_node":"x"},"parent_ids":["g"]}"#.to_string(),
            r#"{"event":"on_chain_end","data":{"output":{}},"run_id":"n","metadata":null,"parent_ids":["g"]}"#.to_string(),
            r#"{"event":"on_chain_end","data":{"output":{}},"run_id":"n","metadata":[1],"parent_ids":["g"]}"#.to_string(),
            r#"{"event":"on_chain_stream","data":{"chunk":{}},"run_id":"n","parent_ids":"g"}"#.to_string(),
            r#"{"event":"on_chain_stream","data":{"chunk":{}},"run_id":"n","parent_ids":{"a":1}}"#.to_string(),
            r#"{"event":"on_chain_stream","data":{"chunk":{}},"parent_ids":["g"],"parent_ids":[]}"#.to_string(),
            r#"{"event":"on_chat_model_stream","data":null,"run_id":"m9"}"#.to_string(),
            r#"{"event":"on_chat_model_stream","data":{"chunk":[1]},"run_id":"m9"}"#.to_string(),
            r#"{"event":"on_chat_model_stream","run_id":"m9"}"#.to_string(),
            r#"{"event":"on_tool_end","data":{"x":1},"run_id":"t9","parent_ids":["g"]}"#.to_string(),
            r#"{"event":"on_tool_end","data":{},"run_id":"t9","type":"event","parent_ids":["g"]}"#.to_string(),
            r#"{"event":"on_tool_end","event":"on_tool_start","data":{},"run_id":"t9"}"#.to_string(),
            r#"{"run_id":"x","event":"on_tool_start","data":{"input":{}},"name":"f"}"#.to_string(),
            r#"{"event":5,"data":{}}"#.to_string(),
            // JS order, no parent_ids: a node's (langgraph_node), then the root's.
            r#"{"event":"on_chain_stream","run_id":"n","name":"chat","tags":[],"metadata":{"langgraph_node":"chat"},"data":{"chunk":{"messages":[]}}}"#.to_string(),
            r#"{"event":"on_chain_stream","run_id":"g","name":"LangGraph","tags":[],"metadata":{"thread_id":"t"},"data":{"chunk":{"chat":{"messages":[{"content":"x","type":"ai","id":"a1","tool_calls":[{"id":"c2","name":"f","args":{}}]}]}}}}"#.to_string(),
            r#"{"event":"on_chain_stream","run_id":"g","data":{"chunk":["custom",{"p":1}]},"metadata":{}}"#.to_string(),
            r#"{"event":"on_chain_end","data":{"output":{"messages":[{"content":"bye","type":"ai","id":"a2"}]}},"run_id":"g","name":"LangGraph","tags":[],"metadata":{"thread_id":"t"}}"#.to_string(),
            r#"{"event":"on_chain_start","data":{"input":{"messages":[]}},"run_id":"g2","name":"LangGraph","tags":[],"metadata":{}}"#.to_string(),
            r#"{"event":"on_chain_end","data":{"output":[1]},"run_id":"g2","parent_ids":[]}"#.to_string(),
        ];
        three_ways::assert_agree(&lines);
        // Most take the typed envelope; what the pipeline and `check` read of the records too.
        let typed = lines
            .iter()
            .filter_map(|l| three_ways::framed(l, 1))
            .filter(|r| r.fast_v2_event().is_some())
            .count();
        assert!(typed >= 30, "{typed}");
        for l in &lines {
            let (Some(framed), Some(whole)) = (three_ways::framed(l, 1), three_ways::whole(l, 1))
            else {
                continue;
            };
            assert_eq!(
                crate::pipeline::record_timestamp(&framed),
                crate::pipeline::record_timestamp(&whole),
                "{l}"
            );
            assert_eq!(
                crate::adapter::classify(&framed),
                crate::adapter::classify(&whole),
                "{l}"
            );
        }
        assert_eq!(
            crate::pipeline::record_timestamp(&three_ways::framed(&lines[11], 1).expect("rec")),
            Some(5)
        );
    }

    /// Pruned parsing without the message cache.
    fn uncached(text: &str) -> Option<Value> {
        let mut de = serde_json::Deserializer::from_str(text);
        let v = de.deserialize_map(Top(text, None, None)).ok()?;
        de.end().ok()?;
        Some(v.into_value())
    }

    /// Root `on_chain_start` / `on_chain_end` lines of a growing conversation made of
    /// `messages` (odd ones, lc constructors among them), in Python and JS key order, with
    /// odd spacing, other data keys and lines that are not what they look like.
    fn growing_chain_lines(messages: &[String]) -> Vec<String> {
        let mut lines = vec![];
        let nest = |d: usize| format!("{}1{}", "[".repeat(d), "]".repeat(d));
        for n in 1..=messages.len() {
            let list = messages[..n].join(",");
            let state = format!(r#"{{"messages":[{list}]}}"#);
            let spaced = format!(
                r#"{{"messages":[ {} ] , "x" : 1 }}"#,
                messages[..n].join(" , ")
            );
            let tail = r#""run_id":"g","name":"LangGraph","tags":[],"metadata":{"thread_id":"t"}"#;
            lines.extend([
                // Python order.
                format!(r#"{{"event":"on_chain_start","data":{{"input":{state}}},{tail},"parent_ids":[]}}"#),
                format!(r#"{{"event":"on_chain_end","data":{{"output":{state},"input":{{"a":[1,2.50]}}}},{tail},"parent_ids":[]}}"#),
                format!(r#"{{"event":"on_chain_end","data":{{"output":{spaced}}},{tail},"parent_ids":[ ] }} "#),
                // JS order: no parent_ids, the metadata after the data.
                format!(r#"{{"event":"on_chain_end","data":{{"output":{state}}},{tail}}}"#),
                // Odd spacing: not read through the cache.
                format!(r#"{{"event":"on_chain_end","data": {{"output":{state}}},{tail},"parent_ids":[]}}"#),
                // The slot's key repeated, the state not the data's first key.
                format!(r#"{{"event":"on_chain_end","data":{{"output":{state},"output":0}},{tail},"parent_ids":[]}}"#),
                format!(r#"{{"event":"on_chain_end","data":{{"output":{state},"output":{state}}},{tail},"parent_ids":[]}}"#),
                format!(r#"{{"event":"on_chain_end","data":{{"x":{{"output":{state}}}}},{tail},"parent_ids":[]}}"#),
                // A node's: pruned, not cached.
                format!(r#"{{"event":"on_chain_end","data":{{"output":{state}}},"run_id":"n","metadata":{{"langgraph_node":"chat"}},"parent_ids":["g"]}}"#),
                format!(r#"{{"event":"on_chain_start","data":{{"input":{state}}},"run_id":"n","metadata":{{"langgraph_node":"chat"}}}}"#),
                // A wrong root guess: the root's, its text mentions a langgraph_node.
                format!(r#"{{"event":"on_chain_end","data":{{"output":{state},"y":{{"langgraph_node":1}}}},{tail}}}"#),
                // A node's, guessed the root's from its text (parent_ids not last).
                format!(r#"{{"event":"on_chain_end","data":{{"output":{state}}},"parent_ids":["g"],"run_id":"n"}}"#),
                // The rest of the line bad, or deep.
                format!(r#"{{"event":"on_chain_end","data":{{"output":{state}}},"parent_ids":[]"#),
                format!(r#"{{"event":"on_chain_end","data":{{"output":{state}}},"x":1,,"parent_ids":[]}}"#),
                format!(r#"{{"event":"on_chain_end","data":{{"output":{state},"z":{}}},"parent_ids":[]}}"#, nest(125)),
                format!(r#"{{"event":"on_chain_end","data":{{"output":{state},"z":{}}},"parent_ids":[]}}"#, nest(126)),
                format!(r#"{{"event":"on_chain_end","data":{{"output":{{"messages":[{list},{}]}}}},"parent_ids":[]}}"#, nest(124)),
                format!(r#"{{"event":"on_chain_end","data":{{"output":{{"messages":[{list},{}]}}}},"parent_ids":[]}}"#, nest(125)),
            ]);
        }
        lines
    }

    #[test]
    fn root_chain_states_read_through_the_cache_as_a_parse() {
        let ms = crate::input::msgcache::tests::messages();
        let lines = growing_chain_lines(&ms);
        let mut cached = 0;
        for round in 0..3 {
            for l in &lines {
                let want = uncached(l);
                assert_eq!(parse_pruned(l), want, "round {round}: {l}");
                if let Some(want) = &want {
                    // The root's data as a whole parse gives it: messages not normalized.
                    let whole: Value = serde_json::from_str(l).expect("json");
                    if whole.get("parent_ids") == Some(&json!([])) {
                        assert_eq!(want["data"], whole["data"], "{l}");
                    }
                }
                cached += usize::from(cached_chain(l).is_ok());
            }
        }
        // The plain Python and JS lines, and one nested as deep as allowed (5 of each 18), go
        // through the cache.
        assert_eq!(cached, 3 * 5 * ms.len());
    }

    #[test]
    fn growing_root_chains_give_the_same_model_events_three_ways() {
        use crate::input::three_ways;
        let ms = crate::input::msgcache::tests::messages();
        let ms: Vec<String> = ms
            .into_iter()
            .filter(|m| m.starts_with('{') && m.len() >= crate::input::msgcache::PREFIX)
            .collect();
        let mut lines = growing_chain_lines(&ms);
        lines.extend(growing_chain_lines(&ms));
        three_ways::assert_agree(&lines);
        // The root `on_chain_end` states read normalized and written on the parse thread
        // (each checked against the tree it stands for when made): of each 18 lines, the
        // Python order, the spaced state, the JS order and the deepest allowed.
        let encoded = lines
            .iter()
            .filter(|l| encoded_chain_end(l).is_some())
            .count();
        assert_eq!(encoded, 2 * 4 * ms.len());
    }

    #[test]
    fn surprises_give_up() {
        assert!(parse_pruned(r#"{"event":"on_x","event":"on_y"}"#).is_none());
        assert!(parse_pruned(r#"{"event":"on_x","data":"#).is_none());
        assert!(parse_pruned("[1]").is_none());
        assert!(parse_pruned(
            r#"{"event":"on_chat_model_stream","data":{"chunk":{"__lc_escaped__":{},"x":1}}}"#
        )
        .is_none());
    }

    /// Reads `text` as `part` reads a field's value (`None` when it gives up).
    fn read_part(part: Part, text: &str) -> Option<Value> {
        let mut de = serde_json::Deserializer::from_str(text);
        let v = part.deserialize(&mut de).ok()?;
        de.end().ok()?;
        Some(v)
    }

    #[test]
    fn fields_read_in_part_read_as_whole_values() {
        use crate::json::Field;
        let keys: &'static [&'static str] = &["model_provider", "model_name"];
        for text in [
            r#"{"model_name":"m","model_provider":"p","x":{"y":[1,2]}}"#,
            r#"{}"#,
            r#"null"#,
            r#"3"#,
            r#""s""#,
            r#"[{"model_name":"m"},1]"#,
            r#"{"model_name":null,"x":1}"#,
            r#"{"model_name":7,"model_provider":[1]}"#,
            r#"{"model\u005fname":"m\n\"q","z":"\u00e9"}"#,
            r#"{"model_name":{"lc":1,"type":"x"}}"#,
            r#"{"x":1,"x":2,"model_name":"m"}"#,
        ] {
            let whole: Value = serde_json::from_str(text).expect("valid");
            let part = read_part(Part::Only(keys), text).expect(text);
            if whole.is_object() {
                assert!(part.is_object(), "{text}");
                for k in keys {
                    assert_eq!(part.field(k), whole.field(k), "{text}");
                }
            } else {
                assert_eq!(part, whole, "{text}");
            }
        }
        // A kept key that repeats, a key normalizing reads, serde_json's private key, bad JSON:
        // given up.
        for text in [
            r#"{"model_name":"a","model_name":"b"}"#,
            r#"{"lc":1,"model_name":"m"}"#,
            r#"{"__lc_escaped__":{"model_name":"m"}}"#,
            r#"{"$serde_json::private::RawValue":"1"}"#,
            r#"{"model_name":"m""#,
            r#"{"model_name":"m",}"#,
        ] {
            assert!(read_part(Part::Only(keys), text).is_none(), "{text}");
        }
        // Tool calls: each call as `lc::tool_calls` reads it.
        for text in [
            r#"[{"id":"c","name":"f","args":{"a":[1,{"b":null}]},"type":"tool_call"},{"id":null,"name":"g"},{"name":"h","id":"d","args":"{\"s\":1}"},3,"s",[1],null]"#,
            r#"{"id":"c","name":"f"}"#,
            r#"null"#,
            r#"[]"#,
        ] {
            let whole: Value = serde_json::from_str(text).expect("valid");
            let part = read_part(TOOL_CALLS, text).expect(text);
            let msg = |calls: Value| json!({"type": "ai", "tool_calls": calls});
            assert_eq!(
                crate::adapter::lc::tool_calls(&msg(part.clone())),
                crate::adapter::lc::tool_calls(&msg(whole.clone())),
                "{text}"
            );
            if !whole.is_array() {
                assert_eq!(part, whole, "{text}");
            }
        }
        assert!(read_part(TOOL_CALLS, r#"[{"id":"c","id":"d"}]"#).is_none());
        assert!(read_part(TOOL_CALLS, r#"[{"lc":1,"id":"c"}]"#).is_none());
        // Usage: as `usage_from` reads it.
        let usage = |u: &str, m: &str| {
            let p = (
                read_part(message_field("usage_metadata").expect("part"), u),
                read_part(message_field("response_metadata").expect("part"), m),
            );
            let w: (Value, Value) = (
                serde_json::from_str(u).expect("valid"),
                serde_json::from_str(m).expect("valid"),
            );
            assert_eq!(
                crate::adapter::content::usage_from(p.0.as_ref(), p.1.as_ref()),
                crate::adapter::content::usage_from(Some(&w.0), Some(&w.1)),
                "{u} {m}"
            );
        };
        usage(
            r#"{"input_tokens":1,"output_tokens":2,"total_tokens":3,"input_token_details":{"cache_read":0},"output_token_details":{"reasoning":4}}"#,
            r#"{"model_provider":"openai","model_name":"gpt","finish_reason":"stop","logprobs":null}"#,
        );
        usage(r#"null"#, r#"{}"#);
        usage(r#"{"input_tokens":-1,"output_tokens":"2"}"#, r#"[1]"#);
    }

    #[test]
    fn v2_envelopes_keep_only_what_the_adapter_reads() {
        // `thread_id` of `on_chain_start` only; `langgraph_node` of chain events; of `tags`
        // only the hidden tag; `run_id` and `name` of skipped-data events dropped.
        let start = r#"{"event":"on_chain_start","data":{"input":{"messages":[]}},"run_id":"g","name":"LangGraph","tags":["a",1,null,{"x":1},["langsmith:hidden"],"langsmith:hidden","lang\u0073mith:hidden"],"metadata":{"thread_id":"t","langgraph_node":"x"},"parent_ids":["p"]}"#;
        let v = parse_pruned(start).expect("pruned");
        assert_eq!(v["metadata"], json!({"thread_id":"t","langgraph_node":"x"}));
        assert_eq!(v["tags"], json!(["langsmith:hidden", "langsmith:hidden"]));
        for tags in [r#""s""#, "null", "3", "[]"] {
            let line = start.replacen(
                r#"["a",1,null,{"x":1},["langsmith:hidden"],"langsmith:hidden","lang\u0073mith:hidden"]"#,
                tags,
                1,
            );
            let whole: Value = serde_json::from_str(tags).expect("valid");
            assert_eq!(parse_pruned(&line).expect("pruned")["tags"], whole);
        }
        assert!(
            parse_pruned(&start.replacen(r#""tags":["a""#, r#""tags":{"a":1},"x":["a""#, 1))
                .is_none()
        );
        let model_start = r#"{"event":"on_chat_model_start","data":{"input":1},"run_id":"r","name":"M","tags":["t"],"metadata":{"thread_id":"t","langgraph_node":"n"},"parent_ids":[]}"#;
        assert_eq!(
            parse_pruned(model_start).expect("pruned"),
            json!({"event":"on_chat_model_start","data":null,"metadata":{},"parent_ids":[]})
        );
        let tool = r#"{"event":"on_tool_start","data":{"input":{"a":1}},"run_id":"r","name":"f","metadata":{"thread_id":"t","langgraph_node":"tools"},"parent_ids":["p"]}"#;
        assert_eq!(
            parse_pruned(tool).expect("pruned"),
            json!({"event":"on_tool_start","data":{"input":{"a":1}},"run_id":"r","name":"f","metadata":{},"parent_ids":[null]})
        );
        // An escaped or unknown event name reads as itself; one not a string, whole.
        let esc = r#"{"event":"on\u005fchain_stream","data":{"chunk":1},"run_id":"r","parent_ids":["p"]}"#;
        assert_eq!(
            parse_pruned(esc).expect("pruned"),
            json!({"event":"on_chain_stream","data":null,"parent_ids":[null]})
        );
        let odd = r#"{"event":"on_something","data":{"a":1},"parent_ids":[]}"#;
        assert_eq!(
            parse_pruned(odd).expect("pruned"),
            json!({"event":"on_something","data":{"a":1},"parent_ids":[]})
        );
        for line in [
            r#"{"event":1,"data":{"a":[1]}}"#,
            r#"{"event":["on_x"],"b":2}"#,
        ] {
            assert_eq!(
                parse_pruned(line).expect("pruned"),
                serde_json::from_str::<Value>(line).expect("valid")
            );
        }
    }

    #[test]
    fn model_and_tag_lines_give_the_same_model_events_three_ways() {
        use crate::input::three_ways;
        let lines = [
            r#"{"event":"on_chain_start","data":{"input":{"messages":[]}},"run_id":"g","name":"LangGraph","tags":[],"metadata":{"thread_id":"t"},"parent_ids":[]}"#,
            r#"{"event":"on_chain_start","data":{"input":{}},"run_id":"h","name":"chat","tags":["x","langsmith:hidden"],"metadata":{"thread_id":"t","langgraph_node":"chat"},"parent_ids":["g"]}"#,
            r#"{"event":"on_chain_start","data":{"input":{}},"run_id":"n","name":"chat","tags":["x",{"langsmith:hidden":1}],"metadata":{"thread_id":"t","langgraph_node":"chat"},"parent_ids":["g"]}"#,
            r#"{"event":"on_chat_model_start","data":{"input":{}},"run_id":"m","name":"M","tags":[],"metadata":{"langgraph_node":"chat"},"parent_ids":["g","n"]}"#,
            r#"{"event":"on_chat_model_end","data":{"output":{"content":"hi","additional_kwargs":{"reasoning_content":"think","other":{"a":1}},"response_metadata":{"model_provider":"p","model_name":"m","x":[1]},"type":"ai","id":"a1","tool_calls":[{"id":"c1","name":"f","args":{"q":1},"type":"tool_call"}],"usage_metadata":{"input_tokens":1,"output_tokens":2,"total_tokens":3,"input_token_details":{}}},"input":{}},"run_id":"m","name":"M","metadata":{"langgraph_node":"chat"},"parent_ids":["g","n"]}"#,
            r#"{"event":"on_chat_model_end","data":{"output":{"lc":1,"type":"constructor","id":["langchain","schema","messages","AIMessage"],"kwargs":{"content":"yo","response_metadata":{"model_name":"m2"},"usage_metadata":{"output_tokens":5},"tool_calls":[{"name":"g","args":{},"id":"c2"}],"type":"ai","id":"a2"}}},"run_id":"m2","metadata":{"langgraph_node":"chat"},"parent_ids":["g","n"]}"#,
            r#"{"event":"on_chat_model_end","data":{"output":{"content":"z","response_metadata":{"lc":1,"type":"not_implemented"},"type":"ai","id":"a3"}},"run_id":"m3","parent_ids":["g","n"]}"#,
            r#"{"event":"on_chain_end","data":{"output":{"messages":[{"content":"","type":"ai","id":"a4","tool_calls":[{"id":"c3","name":"h","args":{"k":[1]},"type":"tool_call"},5]}]}},"run_id":"n","metadata":{"langgraph_node":"chat"},"parent_ids":["g"]}"#,
            r#"{"event":"on_tool_start","data":{"input":{"k":[1]}},"run_id":"tr","name":"h","metadata":{"langgraph_node":"tools"},"parent_ids":["g"]}"#,
            r#"{"event":"on_chain_stream","data":{"chunk":{}},"run_id":"n","parent_ids":["g"]}"#,
            r#"{"event":"on_chain_end","data":{"output":{"messages":[]}},"run_id":"g","name":"LangGraph","tags":[],"metadata":{"thread_id":"t"},"parent_ids":[]}"#,
        ];
        three_ways::assert_agree(&lines);
        // Pruned, except the model end whose metadata is an lc constructor.
        for (i, l) in lines.iter().enumerate() {
            assert_eq!(parse_pruned(l).is_some(), i != 6, "{l}");
        }
    }

    #[test]
    fn tool_lines_give_the_same_model_events_three_ways() {
        use crate::input::three_ways;
        let lines = [
            r#"{"event":"on_chain_start","data":{"input":{"messages":[]}},"run_id":"g","name":"LangGraph","tags":[],"metadata":{"thread_id":"t"},"parent_ids":[]}"#,
            r#"{"event":"on_chain_end","data":{"output":{"messages":[{"content":"","type":"ai","id":"a","tool_calls":[{"id":"c1","name":"f","args":{"x":1}},{"id":"c2","name":"f","args":{"x":2}},{"id":"c3","name":"h","args":{}}]}]}},"run_id":"n","metadata":{"langgraph_node":"chat"},"parent_ids":["g"]}"#,
            r#"{"event":"on_tool_start","data":{"input":{"x":2},"other":[1,{"a":null}]},"run_id":"t1","name":"f","metadata":{"langgraph_node":"tools","thread_id":"t"},"parent_ids":["g"]}"#,
            r#"{"event":"on_tool_end","data":{"output":{"content":"ok","type":"tool","tool_call_id":"c2","id":"m","status":"success"},"input":{"x":2}},"run_id":"t1","name":"f","metadata":5,"parent_ids":["g"]}"#,
            r#"{"event":"on_tool_start","data":{"inp\u0075t":{"x":1}},"run_id":"t2","name":"f","parent_ids":["g"]}"#,
            r#"{"event":"on_tool_error","data":{"error":"boom\nmore","tool_call_id":"c1","input":{}},"run_id":"t2","name":"f","parent_ids":["g"]}"#,
            r#"{"event":"on_tool_start","data":{"input":{},"input":{"y":1}},"run_id":"t3","name":"h","parent_ids":["g"]}"#,
            r#"{"event":"on_tool_end","data":null,"run_id":"t3","name":"h","parent_ids":["g"]}"#,
            r#"{"event":"on_tool_end","data":{"type":"event","method":"messages","seq":3,"params":{"namespace":[],"data":{}},"output":1},"run_id":"t3","parent_ids":["g"]}"#,
            r#"{"event":"on_chain_end","data":{"output":{"messages":[]}},"run_id":"g","name":"LangGraph","tags":[],"metadata":{"thread_id":"t"},"parent_ids":[]}"#,
        ];
        three_ways::assert_agree(&lines);
        // Metadata that is no object, a kept key that repeats, data that is no object: read
        // whole.
        for (i, l) in lines.iter().enumerate() {
            assert_eq!(parse_pruned(l).is_some(), ![3, 6, 7].contains(&i), "{l}");
        }
        assert_eq!(
            parse_pruned(lines[2]).expect("pruned")["data"],
            json!({"input":{"x":2}})
        );
        // What the checker reads of a `data` that is a v3 event is kept.
        assert_eq!(
            parse_pruned(lines[8]).expect("pruned")["data"],
            json!({"type":"event","method":"messages","seq":3,"params":{"namespace":[],"data":{}},"output":1})
        );
    }
}
