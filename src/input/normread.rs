//! A message read straight into its normalized form, in one pass over its text.
//!
//! The parse thread's message cache ([`crate::input::msgcache`], [`super::msgcache::Kind::Normalized`])
//! used to parse a message it sees for the first time into a `Value` tree and then normalize
//! it ([`lc::normalize_owned`]): for a LangChain constructor
//! (`{"lc":1,"type":"constructor","id":[…,"AIMessage"],"kwargs":{…}}`) that built a wrapper
//! map (four hashed keys), an id array of strings and a kwargs map, then moved the kwargs out,
//! dropped their `type` and inserted the type key at the front (shifting every entry). Here
//! the kwargs are read into the flat map directly, the type key first.
//!
//! Only the usual shapes are read this way; anything else makes [`read`] give up (`None`)
//! and the caller parses and normalizes as before, so the result is always exactly
//! `lc::normalize_owned(serde_json::from_str(text))`, key order included:
//!
//! - an object whose first key is not `lc`, `__lc_escaped__` or serde_json's raw-value token,
//!   and with no later `lc` / `__lc_escaped__` key, keeps its entries: its values are read
//!   normalized, inserted as a `Value` parse inserts them (a repeated key keeps its first
//!   place and takes its last value);
//! - an object whose first key is `lc` must be a constructor with its keys in dumpd's order
//!   (`lc` equal to the integer 1, `type` the string `constructor`, `id` a non-empty list of
//!   strings, `kwargs` an object, nothing after): its class gives the type key
//!   ([`lc::fixed_message_type`]; a `ChatMessage`, whose type is its raw `role`, gives up),
//!   then the kwargs follow in their order, values normalized, `type` dropped, and a
//!   `__type__` kwarg replaces the class name in the first place, as
//!   `flatten_constructor_owned` does;
//! - anything else with `lc` (secrets, `not_implemented` reprs, keys out of order, extra
//!   keys) or `__lc_escaped__` gives up, and so does any value that does not fit what is
//!   expected (the reader errors, the fallback parses it);
//! - scalars are made as serde_json's own `Value` visitor makes them.
//!
//! The value's nesting depth as parsed (not as normalized) is counted too: the cache checks
//! it against where the message stands in its line.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::adapter::lc;

/// The normalized value of the JSON object or list `text` starts with, the length of its
/// text and its nesting depth as parsed; `None` when it is not one, or not of a shape read
/// here (the caller then parses and normalizes it).
pub fn read(text: &str) -> Option<(Value, usize, usize)> {
    if !matches!(text.as_bytes().first(), Some(b'{' | b'[')) {
        return None;
    }
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<Normalized>();
    let n = values.next()?.ok()?;
    Some((n.value, values.byte_offset(), n.depth))
}

/// A value read normalized, and its depth as parsed (containers nested; a scalar's is 0).
pub struct Normalized {
    pub value: Value,
    pub depth: usize,
}

impl<'de> de::Deserialize<'de> for Normalized {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NormVisitor)
    }
}

/// The error that makes [`read`] give up on an unusual shape.
fn unusual<E: de::Error>() -> E {
    E::custom("not a shape read in one pass")
}

fn scalar(value: Value) -> Normalized {
    Normalized { value, depth: 0 }
}

struct NormVisitor;

impl<'de> Visitor<'de> for NormVisitor {
    type Value = Normalized;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Normalized, E> {
        Ok(scalar(Value::Bool(v)))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Normalized, E> {
        Ok(scalar(Value::Number(v.into())))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Normalized, E> {
        Ok(scalar(Value::Number(v.into())))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Normalized, E> {
        Ok(scalar(
            Number::from_f64(v).map_or(Value::Null, Value::Number),
        ))
    }

    fn visit_str<E>(self, v: &str) -> Result<Normalized, E> {
        Ok(scalar(Value::String(String::from(v))))
    }

    fn visit_string<E>(self, v: String) -> Result<Normalized, E> {
        Ok(scalar(Value::String(v)))
    }

    fn visit_unit<E>(self) -> Result<Normalized, E> {
        Ok(scalar(Value::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Normalized, A::Error> {
        let mut out = Vec::new();
        let mut depth = 0;
        while let Some(n) = seq.next_element::<Normalized>()? {
            depth = depth.max(n.depth);
            out.push(n.value);
        }
        Ok(Normalized {
            value: Value::Array(out),
            depth: depth + 1,
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Normalized, A::Error> {
        let Some(first) = map.next_key_seed(KeySeed)? else {
            return Ok(Normalized {
                value: Value::Object(Map::new()),
                depth: 1,
            });
        };
        match first.as_str() {
            "lc" => return constructor(map),
            "__lc_escaped__" | super::msgcache::RAW_VALUE_TOKEN => return Err(unusual()),
            _ => {}
        }
        let mut out = Map::new();
        let mut key = first.into_string();
        let mut depth = 0;
        loop {
            let n: Normalized = map.next_value()?;
            depth = depth.max(n.depth);
            out.insert(key, n.value);
            match map.next_key_seed(KeySeed)? {
                None => break,
                Some(k) if matches!(k.as_str(), "lc" | "__lc_escaped__") => return Err(unusual()),
                Some(k) => key = k.into_string(),
            }
        }
        Ok(Normalized {
            value: Value::Object(out),
            depth: depth + 1,
        })
    }
}

/// The rest of an object whose first key, `lc`, was read: a constructor in dumpd's key
/// order, flattened (see the module's rules), or an error (the caller falls back).
fn constructor<'de, A: MapAccess<'de>>(mut map: A) -> Result<Normalized, A::Error> {
    let lc: Value = map.next_value()?;
    if lc != 1 {
        return Err(unusual());
    }
    expect_key(&mut map, "type")?;
    if map.next_value_seed(KeySeed)?.as_str() != "constructor" {
        return Err(unusual());
    }
    expect_key(&mut map, "id")?;
    let class = map.next_value_seed(LastString)?.ok_or_else(unusual)?;
    let (key, first) = match lc::fixed_message_type(class.as_str()) {
        Some(Some(t)) => ("type", t.to_string()),
        Some(None) => ("__type__", class.into_string()),
        // A `ChatMessage`: its type is its raw `role` kwarg.
        None => return Err(unusual()),
    };
    expect_key(&mut map, "kwargs")?;
    let (flat, kwargs_depth) = map.next_value_seed(Kwargs { key, first })?;
    if map.next_key_seed(KeySeed)?.is_some() {
        return Err(unusual());
    }
    // The wrapper holds `id` (depth 1) and the kwargs object.
    Ok(Normalized {
        value: Value::Object(flat),
        depth: 1 + kwargs_depth.max(1),
    })
}

/// Reads the next key and errors unless it is `want`.
fn expect_key<'de, A: MapAccess<'de>>(map: &mut A, want: &str) -> Result<(), A::Error> {
    match map.next_key_seed(KeySeed)? {
        Some(k) if k.as_str() == want => Ok(()),
        _ => Err(unusual()),
    }
}

/// A key (or a string value), borrowed from the text when it has no escapes: the
/// constructor's own keys are compared without being copied.
enum Key<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl Key<'_> {
    fn as_str(&self) -> &str {
        match self {
            Key::Borrowed(s) => s,
            Key::Owned(s) => s,
        }
    }

    fn into_string(self) -> String {
        match self {
            Key::Borrowed(s) => String::from(s),
            Key::Owned(s) => s,
        }
    }
}

struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key<'de>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
        Ok(Key::Borrowed(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
        Ok(Key::Owned(String::from(v)))
    }

    fn visit_string<E>(self, v: String) -> Result<Key<'de>, E> {
        Ok(Key::Owned(v))
    }
}

/// The last element of a list of strings (`None` for an empty list; anything but strings
/// errors): a constructor's class.
struct LastString;

impl<'de> DeserializeSeed<'de> for LastString {
    type Value = Option<Key<'de>>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for LastString {
    type Value = Option<Key<'de>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of strings")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut last = None;
        while let Some(s) = seq.next_element_seed(KeySeed)? {
            last = Some(s);
        }
        Ok(last)
    }
}

/// A constructor's kwargs object read into its flat form: the type key `key` first with
/// `first`, then the kwargs in their order, values normalized, `type` dropped (a `key`
/// kwarg takes the first place's value). Also gives the kwargs object's depth as parsed.
struct Kwargs {
    key: &'static str,
    first: String,
}

impl<'de> DeserializeSeed<'de> for Kwargs {
    type Value = (Map<String, Value>, usize);

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Kwargs {
    type Value = (Map<String, Value>, usize);

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        // A message's kwargs (content, id, metadata maps, tool calls…) and its type key:
        // room for them at once.
        let mut out = Map::with_capacity(8);
        out.insert(self.key.to_string(), Value::String(self.first));
        let mut depth = 0;
        while let Some(k) = map.next_key_seed(KeySeed)? {
            let n: Normalized = map.next_value()?;
            depth = depth.max(n.depth);
            if k.as_str() == "type" {
                continue;
            }
            out.insert(k.into_string(), n.value);
        }
        Ok((out, depth + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// What [`read`] must give whenever it gives anything.
    fn want(text: &str) -> (Value, usize) {
        let v: Value = serde_json::from_str(text).expect("json");
        let depth = crate::input::msgcache::depth(&v, 1000);
        (lc::normalize_owned(v), depth)
    }

    fn check(text: &str) -> bool {
        let Some((got, len, depth)) = read(text) else {
            return false;
        };
        let text = &text[..len];
        let (want, want_depth) = want(text);
        assert_eq!(got, want, "{text}");
        assert_eq!(got.to_string(), want.to_string(), "{text}");
        assert_eq!(depth, want_depth, "{text}");
        true
    }

    fn ctor(class: &str, kwargs: &str) -> String {
        format!(
            r#"{{"lc":1,"type":"constructor","id":["langchain_core","messages","{class}"],"kwargs":{kwargs}}}"#
        )
    }

    /// Every message of every testdata recording's states, and odd shapes: what is read in
    /// one pass is what parsing and normalizing gives; the usual shapes are read.
    #[test]
    fn one_pass_is_parse_then_normalize() {
        let mut texts: Vec<String> = crate::input::msgcache::tests::messages();
        texts.extend(lc::tests::message_list().iter().map(Value::to_string));
        let usual = [
            ctor("AIMessage", r#"{"content":"hi","id":"a","tool_calls":[{"id":"c","name":"f","args":{"x":[1,2.5,-3,1e300,null,true]}}],"type":"ai"}"#),
            ctor("AIMessageChunk", r#"{"content":[{"type":"text","text":"\u00e9\n\"q\""}],"additional_kwargs":{},"response_metadata":{}}"#),
            ctor("HumanMessage", r#"{"content":"x","type":"human","type":"h2","id":"h"}"#),
            ctor("ToolMessage", r#"{"content":"r","tool_call_id":"c","__type__":"own","status":"error"}"#),
            ctor("SystemMessage", r#"{}"#),
            ctor("RemoveMessage", r#"{"id":"r"}"#),
            ctor("FunctionMessage", r#"{"name":"f","content":"1"}"#),
            ctor("Other", r#"{"__type__":"own","k":1,"__type__":"own2","type":"t"}"#),
            ctor("Other", r#"{"k":1,"k":{"a":[]},"j":2}"#),
            ctor("AIMessage", &format!(r#"{{"content":"n","artifact":{}}}"#, ctor("Inner", r#"{"v":[{"w":1}]}"#))),
            ctor("AIMessage", r#"{"content":"n","nested":{"deep":[[[{"a":{}}]]]}}"#),
            ctor("AIMessage", r#"{"lc":5,"__lc_escaped__":{"a":1},"content":"x"}"#),
            r#"{"lc":1,"type":"constructor","id":["Only"],"kwargs":{"a":1}}"#.to_string(),
            r#"{"lc" : 1 , "type" : "constructor" , "id" : [ "x" , "AIMessage" ] , "kwargs" : { "content" : "s" } }"#.to_string(),
            r#"{"l\u0063":1,"typ\u0065":"constructor","id":["x","AI\u004dessage"],"kwargs":{"typ\u0065":1,"c":2}}"#.to_string(),
            r#"{"type":"human","content":"hi","id":"h","name":null,"additional_kwargs":{}}"#.to_string(),
            r#"{"k":1,"k":2}"#.to_string(),
            r#"[1,[2,[3]],{"a":{"b":{}}},[]]"#.to_string(),
            r#"{"lc":1,"type":"constructor","id":["a","B"],"kwargs":{"__lc_escaped__":{"a":1}}}"#.to_string(),
            "{}".to_string(),
            "[]".to_string(),
        ];
        for t in &usual {
            assert!(check(t), "read in one pass: {t}");
        }
        let unusual = [
            r#"{"lc":1,"type":"constructor","id":["a","ChatMessage"],"kwargs":{"role":"critic","content":"c"}}"#.to_string(),
            r#"{"lc":1,"type":"constructor","id":["a","ChatMessageChunk"],"kwargs":{"content":"c"}}"#.to_string(),
            r#"{"lc":1,"type":"constructor","id":[],"kwargs":{"a":1}}"#.to_string(),
            r#"{"lc":1,"type":"constructor","id":["a",{"__lc_escaped__":"AIMessage"}],"kwargs":{"a":1}}"#.to_string(),
            r#"{"lc":1,"type":"constructor","id":["a","B"],"kwargs":[1]}"#.to_string(),
            r#"{"lc":1,"type":"constructor","id":["a","B"],"kwargs":{},"extra":1}"#.to_string(),
            r#"{"lc":1,"type":"constructor","id":["a","B"],"kwargs":{},"lc":1}"#.to_string(),
            r#"{"lc":1,"id":["a","B"],"type":"constructor","kwargs":{}}"#.to_string(),
            r#"{"type":"constructor","lc":1,"id":["a","B"],"kwargs":{}}"#.to_string(),
            r#"{"lc":1.0,"type":"constructor","id":["a","B"],"kwargs":{}}"#.to_string(),
            r#"{"lc":"1","type":"constructor","id":["a","B"],"kwargs":{}}"#.to_string(),
            r#"{"lc":2,"type":"constructor","id":["a","B"],"kwargs":{}}"#.to_string(),
            r#"{"lc":1,"type":"secret","id":["K"]}"#.to_string(),
            r#"{"lc":1,"type":"not_implemented","id":["builtins","ValueError"],"repr":"ValueError('x')"}"#.to_string(),
            r#"{"lc":1,"type":"not_implemented","id":["x"],"repr":"((("}"#.to_string(),
            r#"{"__lc_escaped__":{"lc":1,"type":"constructor","id":["a","B"],"kwargs":{}}}"#.to_string(),
            r#"{"__lc_escaped__":{"a":1},"b":2}"#.to_string(),
            r#"{"a":1,"__lc_escaped__":{"b":2}}"#.to_string(),
            r#"{"a":1,"lc":1}"#.to_string(),
            r#"{"$serde_json::private::RawValue":"1"}"#.to_string(),
            ctor("AIMessage", r#"{"content":"x","artifact":{"lc":1,"type":"secret","id":["K"]}}"#),
            ctor("AIMessage", r#"{"content":"x","a":[{"__lc_escaped__":1}]}"#),
            r#"{"lc":1}"#.to_string(),
            ctor("AIMessage", r#"{"kwargs":{"lc":1}}"#),
            r#"{"a":1"#.to_string(),
            "1".to_string(),
            r#""s""#.to_string(),
        ];
        for t in &unusual {
            assert!(!check(t), "gives up: {t}");
        }
        texts.extend(usual.iter().cloned());
        texts.extend(unusual.iter().cloned());
        // With text after the value, as the cache reads them in a list.
        let followed: Vec<String> = texts.iter().map(|t| format!("{t} ,{{\"x\":1}}]")).collect();
        texts.extend(followed);
        let recorded = recorded_messages();
        assert!(recorded.len() > 100, "{}", recorded.len());
        let read_in_one_pass = recorded.iter().filter(|t| check(t)).count();
        assert!(
            read_in_one_pass * 10 >= recorded.len() * 9,
            "{read_in_one_pass}"
        );
        for t in &texts {
            check(t);
        }
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        assert!(read(&deep).is_none());
        let _ = json!(null);
    }

    /// The messages of the `values` states of every testdata recording, as texts.
    fn recorded_messages() -> Vec<String> {
        let mut out = vec![];
        let mut stack = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/testdata"
        ))];
        while let Some(p) = stack.pop() {
            let Ok(rd) = std::fs::read_dir(&p) else {
                if let Ok(s) = std::fs::read_to_string(&p) {
                    for line in s.lines() {
                        let line = line.strip_prefix("data:").unwrap_or(line);
                        let Ok(v) = serde_json::from_str::<Value>(line) else {
                            continue;
                        };
                        collect_messages(&v, &mut out);
                    }
                }
                continue;
            };
            stack.extend(rd.flatten().map(|e| e.path()));
        }
        out
    }

    /// Every element of every `messages` list in `v`.
    fn collect_messages(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                for (k, c) in m {
                    if let (true, Value::Array(list)) = (k == "messages", c) {
                        out.extend(list.iter().map(Value::to_string));
                    }
                    collect_messages(c, out);
                }
            }
            Value::Array(a) => a.iter().for_each(|c| collect_messages(c, out)),
            _ => {}
        }
    }
}
