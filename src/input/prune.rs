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
//! | v2, every event | `metadata` except `thread_id`, `langgraph_node` |
//! | v2 `on_chat_model_stream` | `data` except `chunk`; chunk (and its lc `kwargs`) fields other than `content`, `additional_kwargs`, `tool_call_chunks`, `id`, `type`, `role`, `lc`, `repr`, `__lc_escaped__` |
//! | v2 `on_chat_model_start`, `on_llm_*`, `on_prompt_*`, `on_retriever_*`, `on_parser_*` | `data` |
//! | v2 `on_chain_stream` of a node (not the root) | `data` |
//! | v3 `checkpoints`, `debug` | `params.data` |
//! | v3 `tasks` | `params.data` except `interrupts` |
//! | v3 `updates` not of `__interrupt__` | `params.data` except `node` |
//!
//! The form is decided by the first key (`"event":"on_…"` → v2, `"type":"event"` → v3);
//! anything else, any surprise (a duplicate key, a v2 line with v3 keys, an unexpected shape
//! where pruning applies) or any error gives up, and the caller parses the whole line as
//! before, so bad lines get the same messages and odd lines the same treatment.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The pruned value of a line, or `None` when the line must be parsed whole.
pub fn parse_pruned(text: &str) -> Option<Value> {
    let mut de = serde_json::Deserializer::from_str(text);
    let map = de.deserialize_map(Top).ok()?;
    de.end().ok()?;
    Some(Value::Object(map))
}

fn bail<E: de::Error>() -> E {
    E::custom("pruned parse gave up")
}

/// An object key, borrowed from the line when it has no escapes.
struct Key<'de>(Cow<'de, str>);

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
    /// Events whose data nothing reads.
    Skip,
    /// `on_chain_stream`: read only for the root run, known once the line is read.
    ChainStream,
    Whole,
}

enum Mode {
    V2(V2Data),
    V3(Option<String>),
    Whole,
}

fn v2_data(event: &str) -> V2Data {
    match event {
        "on_chat_model_stream" => V2Data::Chunk,
        "on_chain_stream" => V2Data::ChainStream,
        "on_chat_model_start" => V2Data::Skip,
        e if ["on_llm_", "on_prompt_", "on_retriever_", "on_parser_"]
            .iter()
            .any(|p| e.starts_with(p)) =>
        {
            V2Data::Skip
        }
        _ => V2Data::Whole,
    }
}

struct Top;

impl<'de> Visitor<'de> for Top {
    type Value = Map<String, Value>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
        let mut out = Map::new();
        let mut mode: Option<Mode> = None;
        let mut deferred: Option<&'de RawValue> = None;
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            let v = match (&mode, k.as_ref()) {
                (None, "event") => {
                    let v: Value = m.next_value()?;
                    mode = Some(match v.as_str() {
                        Some(e) if e.starts_with("on_") => Mode::V2(v2_data(e)),
                        _ => Mode::Whole,
                    });
                    v
                }
                (None, "type") => {
                    let v: Value = m.next_value()?;
                    mode = Some(if v == "event" {
                        Mode::V3(None)
                    } else {
                        Mode::Whole
                    });
                    v
                }
                (None, _) => {
                    mode = Some(Mode::Whole);
                    m.next_value()?
                }
                (Some(Mode::V2(_)), "type" | "method" | "params") => return Err(bail()),
                (Some(Mode::V3(_)), "event") => return Err(bail()),
                (Some(Mode::V2(_)), "metadata") => {
                    m.next_value_seed(KeepKeys(&["thread_id", "langgraph_node"]))?
                }
                (Some(Mode::V2(data)), "data") => match data {
                    V2Data::Chunk => m.next_value_seed(ChunkData)?,
                    V2Data::Skip => {
                        m.next_value::<IgnoredAny>()?;
                        Value::Null
                    }
                    V2Data::ChainStream => {
                        deferred = Some(m.next_value()?);
                        Value::Null
                    }
                    V2Data::Whole => m.next_value()?,
                },
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
        if let Some(raw) = deferred {
            // The root run's stream carries interrupts and node updates (v2 `is_root`).
            let root = match out.get("parent_ids").and_then(Value::as_array) {
                Some(p) => p.is_empty(),
                None => out
                    .get("metadata")
                    .and_then(|m| m.get("langgraph_node"))
                    .is_none(),
            };
            if root {
                let data: Value =
                    serde_json::from_str(raw.get()).map_err(|_| bail::<A::Error>())?;
                out.insert("data".into(), data);
            }
        }
        Ok(out)
    }
}

/// An object of which only some keys are kept (anything but an object gives up).
struct KeepKeys(&'static [&'static str]);

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
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            if self.0.contains(&k.as_ref()) {
                if out.insert(k.into_owned(), m.next_value()?).is_some() {
                    return Err(bail());
                }
            } else {
                m.next_value::<IgnoredAny>()?;
            }
        }
        Ok(Value::Object(out))
    }
}

/// v2 `on_chat_model_stream` data: `{"chunk": message}`, other keys dropped.
struct ChunkData;

impl<'de> DeserializeSeed<'de> for ChunkData {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ChunkData {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            if k == "chunk" {
                if out
                    .insert("chunk".into(), m.next_value_seed(Message)?)
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

/// A streamed message chunk, flat or an lc constructor (whose `kwargs` is pruned alike).
struct Message;

impl<'de> DeserializeSeed<'de> for Message {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Message {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        let mut skipped = false;
        let mut escaped = false;
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            let old = if k == "kwargs" {
                out.insert("kwargs".into(), m.next_value_seed(Message)?)
            } else if MESSAGE_KEYS.contains(&k.as_ref()) {
                escaped |= k == "__lc_escaped__";
                out.insert(k.into_owned(), m.next_value()?)
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
            let v = if k == "data" {
                match self.0 {
                    "checkpoints" | "debug" => {
                        m.next_value::<IgnoredAny>()?;
                        Value::Null
                    }
                    "tasks" => m.next_value_seed(KeepKeys(&["interrupts"]))?,
                    "updates" => {
                        updates = Some(m.next_value()?);
                        Value::Null
                    }
                    _ => m.next_value()?,
                }
            } else {
                m.next_value()?
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn v2_stream_keeps_what_the_adapter_reads() {
        let line = r#"{"event":"on_chat_model_stream","data":{"chunk":{"content":"Hi","type":"AIMessageChunk","id":"m","usage_metadata":null,"tool_calls":[]},"x":1},"run_id":"r","metadata":{"thread_id":"t","langgraph_node":"n","ls_provider":"p"},"parent_ids":["a"]}"#;
        let v = parse_pruned(line).expect("pruned");
        assert_eq!(
            v,
            json!({"event":"on_chat_model_stream","data":{"chunk":{"content":"Hi","type":"AIMessageChunk","id":"m"}},
                "run_id":"r","metadata":{"thread_id":"t","langgraph_node":"n"},"parent_ids":["a"]})
        );
    }

    #[test]
    fn v2_root_chain_stream_keeps_data_node_stream_drops_it() {
        let root = r#"{"event":"on_chain_stream","data":{"chunk":{"a":1}},"parent_ids":[]}"#;
        assert_eq!(
            parse_pruned(root).expect("pruned")["data"],
            json!({"chunk":{"a":1}})
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
    fn surprises_give_up() {
        assert!(parse_pruned(r#"{"event":"on_x","event":"on_y"}"#).is_none());
        assert!(parse_pruned(r#"{"event":"on_x","data":"#).is_none());
        assert!(parse_pruned("[1]").is_none());
        assert!(parse_pruned(
            r#"{"event":"on_chat_model_stream","data":{"chunk":{"__lc_escaped__":{},"x":1}}}"#
        )
        .is_none());
    }
}
