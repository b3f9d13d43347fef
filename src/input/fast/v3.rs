//! Typed fast path for the commonest v3 lines: streaming-protocol `messages` events, above all
//! `content-block-delta` whose delta is text, reasoning or a tool-call chunk.
//!
//! In a v3 log four lines in ten are `messages` events, and a `content-block-delta` is half of
//! them; even pruned ([`super::super::prune`]) each one builds and drops a small `Value` tree.
//! For the plain case this module reads the line with typed serde visitors into a
//! [`V3Messages`]: the envelope (`seq`, `namespace`, `timestamp`) typed, and the payload: a
//! block delta typed, any other message event (`message-start`, `content-block-start`,
//! `content-block-finish`, `usage`, `message-finish`…) as the pruned `Value` of its payload
//! object (what [`super::super::prune`] keeps of it, so the adapter maps it alike). What reads a v3
//! record in `convert` and `check` reads it from this form with the same code as the `Value`
//! form: the v3 adapter (`check_seq`, `on_messages`' block lookup and `block_delta`), the raw
//! checks ([`crate::check`] AGX601–605), the classifier (the record's `value` is
//! `{"type":"event","method":"messages"}`) and the timestamp ([`crate::pipeline`]).
//!
//! A line takes the fast path only when its first key is `"type":"event"` and:
//!
//! - top level: no `event` key, no second `type`; `seq` absent or an integer that fits an
//!   `i64`; `method` the string `"messages"`, before `params`; `params` an object;
//! - `params`: `namespace` absent or a list of strings; `timestamp` absent or an integer that
//!   fits an `i64`; `data` an object, or a non-empty list whose first item is one (the
//!   in-process `[payload, metadata]` form; the rest is skipped);
//! - the payload: an object whose first key is `event`, a string;
//! - of a `content-block-delta`: `index` absent, a string or an integer; `delta` an object
//!   whose `type` is `text-delta`, `text`, `reasoning-delta`, `reasoning` (then `text` /
//!   `reasoning` a string or `null`), `tool-call-delta` or `tool_call_chunk` (then `args`, `id`,
//!   `name` strings or `null`);
//! - no typed field read appears twice in its object.
//!
//! Anything else gives up, and the line is parsed as before (pruned, then whole).

use std::fmt;
use std::sync::LazyLock;

use memchr::memmem::Finder;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::{bail, set, OptText, Text};
use crate::input::prune::{message_keys, Key};

/// What is read of a plain v3 `messages` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct V3Messages {
    /// The event's `seq`, when present.
    pub seq: Option<i64>,
    /// `params.namespace`, when present.
    pub namespace: Option<Vec<String>>,
    /// `params.timestamp`, when present.
    pub timestamp: Option<i64>,
    /// The `messages` payload (`params.data`, or its first item).
    pub data: Payload,
}

/// A `messages` payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Payload {
    /// A plain `content-block-delta`.
    Delta(BlockDelta),
    /// Another event: the payload object as pruned parsing keeps it.
    Other(Value),
}

/// A `content-block-delta` payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockDelta {
    /// The block key of `index` (a string, an integer's digits; `"0"` when absent).
    pub index: String,
    pub delta: Delta,
}

/// A content-block delta of a kind the fast path reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delta {
    /// `text-delta` / `text` (`is_text`) or `reasoning-delta` / `reasoning`: the `text` or
    /// `reasoning` string.
    Text { is_text: bool, text: Option<String> },
    /// `tool-call-delta` / `tool_call_chunk`.
    ToolCall {
        args: Option<String>,
        id: Option<String>,
        name: Option<String>,
    },
}

/// The v3 method of the lines this module reads.
pub const METHOD: &str = "messages";

/// The fast form of a plain v3 `messages` line, or `None` when the line must be parsed as a
/// `Value`.
pub fn parse_v3_messages(text: &str) -> Option<V3Messages> {
    // Most lines are other events: told apart without a parser.
    // The first key is `type`, and `"messages"` is in the first bytes (`method`, maybe after
    // `seq`): other lines are not parsed.
    static MESSAGES: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(br#""messages""#));
    let b = text.as_bytes();
    if !b.starts_with(br#"{"type""#) {
        return None;
    }
    MESSAGES.find(&b[..b.len().min(64)])?;
    let mut de = serde_json::Deserializer::from_str(text);
    let v = de.deserialize_map(Top).ok()?;
    de.end().ok()?;
    Some(v)
}

/// The `Value` kept in a fast record: what the classifier reads of a v3 event.
pub fn stub_value() -> Value {
    // Cloned: cheaper than hashing its keys again.
    static STUB: LazyLock<Value> = LazyLock::new(|| {
        let mut m = Map::new();
        m.insert("type".into(), Value::String("event".into()));
        m.insert("method".into(), Value::String(METHOD.into()));
        Value::Object(m)
    });
    STUB.clone()
}

/// An integer that fits an `i64` (anything else gives up).
struct Int;

impl<'de> DeserializeSeed<'de> for Int {
    type Value = i64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<i64, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Int {
    type Value = i64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an integer")
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<i64, E> {
        Ok(n)
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<i64, E> {
        i64::try_from(n).map_err(|_| bail())
    }
}

/// The line: `"type":"event"` first, then `seq`, `method` and `params`.
struct Top;

impl<'de> Visitor<'de> for Top {
    type Value = V3Messages;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<V3Messages, A::Error> {
        match m.next_key::<Key<'de>>()? {
            Some(Key(k)) if k == "type" => {}
            _ => return Err(bail()),
        }
        // Strings only compared are read as `Key`s: borrowed from the line, not copied.
        if m.next_value::<Key<'de>>()?.0 != "event" {
            return Err(bail());
        }
        let (mut seq, mut method, mut params) = (None, None, None);
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            match k.as_ref() {
                "type" | "event" => return Err(bail()),
                "seq" => set(&mut seq, m.next_value_seed(Int)?)?,
                "method" => {
                    if m.next_value::<Key<'de>>()?.0 != METHOD {
                        return Err(bail());
                    }
                    set(&mut method, ())?;
                }
                "params" => {
                    if method.is_none() {
                        return Err(bail());
                    }
                    set(&mut params, m.next_value_seed(Params)?)?;
                }
                _ => {
                    m.next_value::<IgnoredAny>()?;
                }
            }
        }
        let (namespace, timestamp, data) = params.ok_or_else(bail)?;
        Ok(V3Messages {
            seq,
            namespace,
            timestamp,
            data,
        })
    }
}

type ParamsOut = (Option<Vec<String>>, Option<i64>, Payload);

/// `params`: `namespace`, `timestamp` and `data`, which must be there.
struct Params;

impl<'de> DeserializeSeed<'de> for Params {
    type Value = ParamsOut;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<ParamsOut, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Params {
    type Value = ParamsOut;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<ParamsOut, A::Error> {
        let (mut namespace, mut timestamp, mut data) = (None, None, None);
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            match k.as_ref() {
                "namespace" => set(&mut namespace, m.next_value_seed(Namespace)?)?,
                "timestamp" => set(&mut timestamp, m.next_value_seed(Int)?)?,
                "data" => set(&mut data, m.next_value_seed(Data { first: true })?)?,
                _ => {
                    m.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok((namespace, timestamp, data.ok_or_else(bail)?))
    }
}

/// A namespace: a list of strings.
struct Namespace;

impl<'de> DeserializeSeed<'de> for Namespace {
    type Value = Vec<String>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<String>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Namespace {
    type Value = Vec<String>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of strings")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Vec<String>, A::Error> {
        let mut out = Vec::new();
        while let Some(p) = s.next_element_seed(Text)? {
            out.push(p);
        }
        Ok(out)
    }
}

/// `params.data`: the payload object, or (`first`) a list whose first item is.
struct Data {
    first: bool,
}

impl<'de> DeserializeSeed<'de> for Data {
    type Value = Payload;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Payload, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Data {
    type Value = Payload;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Payload, A::Error> {
        if !self.first {
            return Err(bail());
        }
        let payload = s
            .next_element_seed(Data { first: false })?
            .ok_or_else(bail)?;
        while s.next_element::<IgnoredAny>()?.is_some() {}
        Ok(payload)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Payload, A::Error> {
        match m.next_key::<Key<'de>>()? {
            Some(Key(k)) if k == "event" => {}
            _ => return Err(bail()),
        }
        let Key(event) = m.next_value::<Key<'de>>()?;
        if event != "content-block-delta" {
            // Pruned as `prune` does, the event first.
            let mut out = Map::new();
            out.insert("event".into(), Value::String(event.into_owned()));
            message_keys(&mut m, &mut out)?;
            return Ok(Payload::Other(Value::Object(out)));
        }
        let (mut index, mut delta) = (None, None);
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            match k.as_ref() {
                "event" => return Err(bail()),
                "index" => set(&mut index, m.next_value_seed(Index)?)?,
                "delta" => set(&mut delta, m.next_value_seed(DeltaSeed)?)?,
                _ => {
                    m.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Payload::Delta(BlockDelta {
            index: index.unwrap_or_else(|| "0".into()),
            delta: delta.ok_or_else(bail)?,
        }))
    }
}

/// A block `index`: a string or an integer (as its digits).
struct Index;

impl<'de> DeserializeSeed<'de> for Index {
    type Value = String;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Index {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an index")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<String, E> {
        Ok(s.to_string())
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<String, E> {
        Ok(n.to_string())
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<String, E> {
        Ok(n.to_string())
    }
}

/// `delta`: an object of a kind read here.
struct DeltaSeed;

impl<'de> DeserializeSeed<'de> for DeltaSeed {
    type Value = Delta;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Delta, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for DeltaSeed {
    type Value = Delta;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Delta, A::Error> {
        let (mut ty, mut text, mut reasoning, mut args, mut id, mut name) =
            (None, None, None, None, None, None);
        while let Some(Key(k)) = m.next_key::<Key<'de>>()? {
            match k.as_ref() {
                "type" => set(&mut ty, m.next_value::<Key<'de>>()?.0)?,
                "text" => set(&mut text, m.next_value_seed(OptText)?)?,
                "reasoning" => set(&mut reasoning, m.next_value_seed(OptText)?)?,
                "args" => set(&mut args, m.next_value_seed(OptText)?)?,
                "id" => set(&mut id, m.next_value_seed(OptText)?)?,
                "name" => set(&mut name, m.next_value_seed(OptText)?)?,
                _ => {
                    m.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(match ty.as_deref() {
            Some("text-delta" | "text") => Delta::Text {
                is_text: true,
                text: text.flatten(),
            },
            Some("reasoning-delta" | "reasoning") => Delta::Text {
                is_text: false,
                text: reasoning.flatten(),
            },
            Some("tool-call-delta" | "tool_call_chunk") => Delta::ToolCall {
                args: args.flatten(),
                id: id.flatten(),
                name: name.flatten(),
            },
            _ => return Err(bail()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapter::{Disposition, Router};
    use crate::check::{Checker, Config, Finding};
    use crate::input::three_ways::{self, origin};
    use crate::input::{frame_ndjson_line, prune, Frame, Record};
    use crate::model::ModelEvent;

    const JS: &str = r#"{"type":"event","seq":7,"method":"messages","params":{"namespace":["chat:d7"],"timestamp":1795994517830,"node":"chat","data":{"event":"content-block-delta","index":0,"delta":{"type":"text-delta","text":"Hello!"},"run_id":"01a2"}}}"#;
    const PY: &str = r#"{"type":"event","method":"messages","params":{"namespace":[],"timestamp":1795994433263,"data":{"event":"content-block-delta","index":0,"delta":{"type":"text-delta","text":" How"}}},"seq":5}"#;
    const INPROC: &str = r#"{"type":"event","method":"messages","params":{"namespace":[],"timestamp":1795994433263,"data":[{"event":"content-block-delta","index":0,"delta":{"type":"reasoning-delta","reasoning":"Hm"}},{"thread_id":"t","langgraph_node":"chat"}]},"seq":6}"#;

    /// A `messages` line with `seq`, namespace list `ns` and payload `data`.
    fn line(seq: &str, ns: &str, data: &str) -> String {
        format!(
            r#"{{"type":"event","seq":{seq},"method":"messages","params":{{"namespace":{ns},"timestamp":17,"data":{data}}}}}"#
        )
    }

    fn delta(index: &str, delta: &str) -> String {
        format!(r#"{{"event":"content-block-delta","index":{index},"delta":{delta}}}"#)
    }

    /// Deltas that take the fast path.
    fn fast_deltas() -> Vec<&'static str> {
        vec![
            r#"{"type":"text-delta","text":"a"}"#,
            r#"{"type":"text","text":"b","extra":[1,{"x":2}]}"#,
            r#"{"type":"text-delta","text":""}"#,
            r#"{"type":"text-delta","text":null}"#,
            r#"{"type":"text-delta"}"#,
            r#"{"text":"esc \"q\" \u00e9\n","type":"text-delta"}"#,
            r#"{"type":"reasoning-delta","reasoning":"r"}"#,
            r#"{"type":"reasoning","reasoning":"s","text":"ignored"}"#,
            r#"{"type":"tool-call-delta","args":"{\"a"}"#,
            r#"{"type":"tool-call-delta","args":"1}","id":"c1","name":"f"}"#,
            r#"{"type":"tool_call_chunk","args":null,"id":null,"name":null}"#,
            r#"{"type":"tool-call-delta"}"#,
        ]
    }

    /// Other `messages` payloads (all take the fast path, as pruned `Value`s).
    fn other_payloads() -> Vec<&'static str> {
        vec![
            r#"{"event":"message-start","id":"m9","role":"ai","x":{"y":[1]}}"#,
            r#"{"event":"message-start"}"#,
            r#"{"event":"content-block-start","index":0,"content":{"type":"text","text":"He"}}"#,
            r#"{"event":"content-block-start","index":1,"content":{"type":"reasoning","reasoning":"R"}}"#,
            r#"{"event":"content-block-start","index":"t","content":{"type":"tool_call_chunk","id":"c9","name":"g","args":"{"}}"#,
            r#"{"event":"content-block-start","index":2,"content":{"type":"non_standard","value":{"type":"redacted_thinking","data":"enc"}}}"#,
            r#"{"event":"content-block-finish","index":0,"content":{"type":"text","text":"Hello"}}"#,
            r#"{"event":"content-block-finish","index":1,"content":{"type":"reasoning","reasoning":"Rx","extras":{"signature":"s2"}}}"#,
            r#"{"event":"content-block-finish","index":3,"content":{"type":"text","text":"undefinedundefined"}}"#,
            r#"{"event":"content-block-finish","index":"t","content":{"type":"tool_call","id":"c9","name":"g","args":{"a":1}}}"#,
            r#"{"event":"usage","usage":{"input_tokens":3,"output_tokens":4,"total_tokens":7}}"#,
            r#"{"event":"message-finish","reason":"stop","metadata":{"model":"m"},"usage":{"input_tokens":1,"output_tokens":2}}"#,
            r#"{"event":"message-finish","event":"message-start","id":"dup"}"#,
            r#"{"event":"error","message":"boom"}"#,
            r#"{"event":"weird","index":[1],"content":5}"#,
        ]
    }

    /// Deltas that fall back.
    fn fallback_deltas() -> Vec<&'static str> {
        vec![
            r#"{"type":"block-delta","fields":{"signature":"sig"}}"#,
            r#"{"type":"text-delta","text":5}"#,
            r#"{"type":"text-delta","text":"a","text":"b"}"#,
            r#"{"type":"other","text":"a"}"#,
            r#"{"text":"a"}"#,
            r#"{"type":5}"#,
            r#"{"type":"tool-call-delta","args":{"a":1}}"#,
            r#"{"type":"tool-call-delta","id":1}"#,
            r#""text""#,
            r#"null"#,
        ]
    }

    /// Whole lines that fall back.
    fn fallback_lines() -> Vec<String> {
        let d = delta("0", r#"{"type":"text-delta","text":"x"}"#);
        vec![
            // Envelope.
            format!(r#"{{"seq":1,"type":"event","method":"messages","params":{{"data":{d}}}}}"#),
            format!(
                r#"{{"type":"event","type":"event","method":"messages","params":{{"data":{d}}}}}"#
            ),
            format!(
                r#"{{"type":"event","event":"x","method":"messages","params":{{"data":{d}}}}}"#
            ),
            format!(r#"{{"type":"event","seq":1.5,"method":"messages","params":{{"data":{d}}}}}"#),
            format!(r#"{{"type":"event","seq":"1","method":"messages","params":{{"data":{d}}}}}"#),
            format!(
                r#"{{"type":"event","seq":18446744073709551615,"method":"messages","params":{{"data":{d}}}}}"#
            ),
            format!(
                r#"{{"type":"event","seq":1,"seq":2,"method":"messages","params":{{"data":{d}}}}}"#
            ),
            format!(r#"{{"type":"event","params":{{"data":{d}}},"method":"messages"}}"#),
            format!(
                r#"{{"type":"event","method":"messages","method":"messages","params":{{"data":{d}}}}}"#
            ),
            format!(r#"{{"type":"event","method":"values","params":{{"data":{d}}}}}"#),
            format!(r#"{{"type":"event","method":"messages","params":[{d}]}}"#),
            format!(
                r#"{{"type":"event","method":"messages","params":{{"data":{d}}},"params":{{}}}}"#
            ),
            format!(r#"{{"type":"event","method":"messages"}}"#),
            format!(r#"{{"type":"event","method":"messages","params":{{"data":{d}}}}} x"#),
            format!(r#"{{"type":"event","method":"messages","params":{{"data":{d}"#),
            // Params.
            format!(
                r#"{{"type":"event","method":"messages","params":{{"namespace":null,"data":{d}}}}}"#
            ),
            format!(
                r#"{{"type":"event","method":"messages","params":{{"namespace":"a","data":{d}}}}}"#
            ),
            format!(
                r#"{{"type":"event","method":"messages","params":{{"namespace":["a",1],"data":{d}}}}}"#
            ),
            format!(
                r#"{{"type":"event","method":"messages","params":{{"namespace":[],"namespace":["a"],"data":{d}}}}}"#
            ),
            format!(
                r#"{{"type":"event","method":"messages","params":{{"timestamp":1.5,"data":{d}}}}}"#
            ),
            format!(
                r#"{{"type":"event","method":"messages","params":{{"timestamp":null,"data":{d}}}}}"#
            ),
            format!(r#"{{"type":"event","method":"messages","params":{{"data":{d},"data":{d}}}}}"#),
            format!(r#"{{"type":"event","method":"messages","params":{{"namespace":[]}}}}"#),
            format!(r#"{{"type":"event","method":"messages","params":{{"data":[]}}}}"#),
            format!(r#"{{"type":"event","method":"messages","params":{{"data":[[{d}]]}}}}"#),
            format!(r#"{{"type":"event","method":"messages","params":{{"data":["x",{d}]}}}}"#),
            format!(
                r#"{{"type":"event","method":"messages","params":{{"data":"content-block-delta"}}}}"#
            ),
            // Payload.
            line(
                "1",
                "[]",
                r#"{"index":0,"event":"content-block-start","content":{"type":"text","text":"a"}}"#,
            ),
            line("1", "[]", r#"{}"#),
            line(
                "1",
                "[]",
                r#"{"event":"content-block-delta","event":"content-block-delta","delta":{"type":"text-delta","text":"x"}}"#,
            ),
            line(
                "1",
                "[]",
                r#"{"event":"content-block-delta","index":0,"index":1,"delta":{"type":"text-delta","text":"x"}}"#,
            ),
            line(
                "1",
                "[]",
                r#"{"event":"content-block-delta","index":1.0,"delta":{"type":"text-delta","text":"x"}}"#,
            ),
            line(
                "1",
                "[]",
                r#"{"event":"content-block-delta","index":null,"delta":{"type":"text-delta","text":"x"}}"#,
            ),
            line("1", "[]", r#"{"event":"content-block-delta","index":0}"#),
            line(
                "1",
                "[]",
                r#"{"event":"content-block-delta","index":0,"content":{"type":"text","text":"c"}}"#,
            ),
            line(
                "1",
                "[]",
                r#"{"event":"content-block-delta","delta":{"type":"text-delta","text":"x"},"delta":{"type":"text-delta","text":"y"}}"#,
            ),
            line(
                "1",
                "[]",
                r#"{"index":0,"delta":{"type":"text-delta","text":"content-block-delta"}}"#,
            ),
            line(
                "1",
                "[]",
                r#"{"event":5,"delta":{"type":"text-delta","text":"content-block-delta"}}"#,
            ),
            // Another form.
            format!(r#"{{"event":"messages","data":{}}}"#, line("1", "[]", &d)),
        ]
    }

    #[test]
    fn plain_lines_take_it() {
        for l in [JS, PY, INPROC] {
            assert!(parse_v3_messages(l).is_some(), "{l}");
        }
        assert_eq!(
            parse_v3_messages(JS),
            Some(V3Messages {
                seq: Some(7),
                namespace: Some(vec!["chat:d7".into()]),
                timestamp: Some(1795994517830),
                data: Payload::Delta(BlockDelta {
                    index: "0".into(),
                    delta: Delta::Text {
                        is_text: true,
                        text: Some("Hello!".into())
                    }
                })
            })
        );
        let p = parse_v3_messages(INPROC).expect("fast");
        assert_eq!(p.seq, Some(6));
        let Payload::Delta(d) = p.data else {
            panic!("a delta")
        };
        assert_eq!(
            d.delta,
            Delta::Text {
                is_text: false,
                text: Some("Hm".into())
            }
        );
        for d in other_payloads() {
            let l = line("1", r#"["a"]"#, d);
            let m = parse_v3_messages(&l).expect("fast");
            let Payload::Other(v) = &m.data else {
                panic!("{l}")
            };
            // What pruning keeps of the payload.
            let pruned = prune::parse_pruned(&l).expect("pruned");
            assert_eq!(v, &pruned["params"]["data"], "{l}");
            let l = line("1", r#"["a"]"#, &format!(r#"[{d},{{"x":1}},2]"#));
            let m2 = parse_v3_messages(&l).expect("fast");
            assert_eq!(m.data, m2.data, "{l}");
        }
        for d in fast_deltas() {
            for index in ["0", "3", "-2", r#""b1""#] {
                let l = line("1", r#"["a","b:c"]"#, &delta(index, d));
                assert!(parse_v3_messages(&l).is_some(), "{l}");
            }
        }
        let l = line(
            "1",
            "[]",
            r#"{"event":"content-block-delta","delta":{"type":"text","text":"x"},"content":5}"#,
        );
        assert!(matches!(
            parse_v3_messages(&l).map(|m| m.data),
            Some(Payload::Delta(BlockDelta { index, .. })) if index == "0"
        ));
        let l = format!(
            r#"{{"type":"event","method":"messages","params":{{"data":{}}}}}"#,
            delta("\"k\"", fast_deltas()[0])
        );
        let m = parse_v3_messages(&l).expect("fast");
        assert_eq!((m.seq, m.namespace, m.timestamp), (None, None, None));
    }

    #[test]
    fn other_lines_fall_back() {
        for d in fallback_deltas() {
            let l = line("1", "[]", &delta("0", d));
            assert!(parse_v3_messages(&l).is_none(), "{l}");
        }
        for l in fallback_lines() {
            assert!(parse_v3_messages(&l).is_none(), "{l}");
        }
    }

    type Run = (
        Vec<(Option<Disposition>, Vec<ModelEvent>, Option<i64>)>,
        Vec<Finding>,
    );

    /// Feeds lines in order through one router and one checker, each record made by `record`.
    fn run(lines: &[String], record: impl Fn(&str, u64) -> Option<Record>) -> Run {
        let mut router = Router::new(None);
        let mut checker = Checker::new("t".into(), Config::default());
        let mut out = vec![];
        for (i, l) in lines.iter().enumerate() {
            let mut evs = vec![];
            let rec = record(l, i as u64 + 1);
            let d = rec.as_ref().map(|r| {
                let d = router.feed(r, &mut evs);
                checker.record(r, &d);
                for ev in &evs {
                    checker.model(ev, &r.origin);
                }
                d
            });
            if rec.is_none() {
                checker.bad_line(&origin(i as u64 + 1), "bad");
            }
            out.push((
                d,
                evs,
                rec.as_ref().and_then(crate::pipeline::record_timestamp),
            ));
        }
        let mut evs = vec![];
        router.finish(&mut evs);
        for ev in &evs {
            checker.model(ev, &origin(lines.len() as u64));
        }
        out.push((None, evs, None));
        (out, checker.into_report().findings)
    }

    #[test]
    fn all_paths_give_the_same_events_and_findings() {
        let start = |seq: &str, ns: &str, id: &str| {
            line(
                seq,
                ns,
                &format!(r#"{{"event":"message-start","id":"{id}"}}"#),
            )
        };
        let block_start = |seq: &str, ns: &str, index: &str| {
            line(
                seq,
                ns,
                &format!(
                    r#"{{"event":"content-block-start","index":{index},"content":{{"type":"tool_call_chunk","id":"tc","name":"f","args":""}}}}"#
                ),
            )
        };
        let finish = |seq: &str, ns: &str| line(seq, ns, r#"{"event":"message-finish"}"#);
        // Every other payload, in a message of its own namespace, plain and in-process.
        let mut others = vec![];
        for (i, d) in other_payloads().into_iter().enumerate() {
            let ns = format!(r#"["o{}"]"#, i % 3);
            others.push(start(&(400 + 2 * i).to_string(), &ns, "mo"));
            others.push(line(&(401 + 2 * i).to_string(), &ns, d));
            others.push(
                line("", &ns, &format!(r#"[{d},{{"langgraph_node":"n"}}]"#))
                    .replace(r#""seq":,"#, ""),
            );
        }
        let mut lines: Vec<String> = vec![JS.into(), PY.into(), INPROC.into()];
        // Deltas outside a message.
        for d in fast_deltas() {
            lines.push(line("8", "[]", &delta("0", d)));
        }
        // Two namespaces with open messages; blocks with and without a start; seq repeats,
        // gaps and regressions; exact replays.
        lines.push(start("10", r#"["a"]"#, "m1"));
        lines.push(start("11", r#"["a","b:c"]"#, "m2"));
        lines.push(block_start("12", r#"["a"]"#, "2"));
        let mut seq = 13;
        for d in fast_deltas().into_iter().chain(fallback_deltas()) {
            for (ns, index) in [
                (r#"["a"]"#, "2"),
                (r#"["a","b:c"]"#, "0"),
                (r#"["a"]"#, r#""x""#),
            ] {
                lines.push(line(&seq.to_string(), ns, &delta(index, d)));
                seq += 1;
            }
        }
        let replay = line("200", r#"["a"]"#, &delta("2", fast_deltas()[0]));
        lines.push(replay.clone());
        lines.push(replay);
        lines.push(line("200", r#"["a"]"#, &delta("2", fast_deltas()[1])));
        lines.push(line("150", r#"["a"]"#, &delta("2", fast_deltas()[6])));
        lines.push(line("300", r#"["a","b:c"]"#, &delta("1", fast_deltas()[8])));
        lines.push(line(
            "300",
            r#"["a","b\"q"]"#,
            &delta("1", fast_deltas()[8]),
        ));
        lines.extend(fallback_lines());
        lines.push(finish("301", r#"["a"]"#));
        lines.push(line("302", r#"["a"]"#, &delta("2", fast_deltas()[0])));
        lines.push(start("303", "[]", "m3"));
        lines.push(INPROC.into());
        lines.push(PY.into());
        lines.push(finish("304", "[]"));
        lines.extend(others);
        let framed = run(&lines, three_ways::framed);
        let pruned = run(&lines, three_ways::pruned);
        let whole = run(&lines, three_ways::whole);
        for (i, l) in lines.iter().enumerate() {
            assert_eq!(framed.0[i], pruned.0[i], "line {}: {l}", i + 1);
            assert_eq!(framed.0[i], whole.0[i], "line {}: {l}", i + 1);
        }
        assert_eq!(framed.0.last(), whole.0.last());
        assert_eq!(framed.1, pruned.1);
        assert_eq!(framed.1, whole.1);
        let rules: Vec<&str> = framed.1.iter().map(|f| f.rule).collect();
        for r in ["AGX601", "AGX602", "AGX603", "AGX604", "AGX605"] {
            assert!(rules.contains(&r), "{r} in {rules:?}");
        }
        let fast = lines
            .iter()
            .filter(|l| parse_v3_messages(l).is_some())
            .count();
        assert!(fast > 3 * fast_deltas().len(), "{fast}");
    }

    #[test]
    fn fast_records_classify_as_v3() {
        let Frame::Record(r) = frame_ndjson_line(JS, origin(1), true) else {
            panic!("a record");
        };
        assert!(r.fast_v3().is_some());
        assert_eq!(crate::adapter::classify(&r), crate::adapter::RecordKind::V3);
        let Frame::Record(r) = frame_ndjson_line(JS, origin(1), false) else {
            panic!("a record");
        };
        assert!(r.fast.is_none());
    }
}
