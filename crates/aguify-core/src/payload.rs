//! [`Payload`]: a JSON value passed through from a log into an event (a custom event's value)
//! kept as compact JSON text, not as a tree. A tree of small values costs tens of times their
//! text (a 60 MB line of `[0,0,…]` made 2 GB of `Value`s, twice over). The text is the one the
//! value's tree writes (each key once, numbers as read), and it is written into an event by
//! streaming it from a parser into the event's serializer, so what comes out — `JSON.stringify`
//! numbers on the output ([`crate::js_numbers`]), a tree for the views — is what the tree gave.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::hash::BuildHasher;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::Value;

/// A JSON value as the compact text its tree writes (`serde_json::to_string`). Two payloads are
/// equal when their texts are.
/// `null` by default.
#[derive(Clone, Default)]
pub struct Payload(Box<RawValue>);

impl PartialEq for Payload {
    fn eq(&self, other: &Payload) -> bool {
        self.get() == other.get()
    }
}

impl Payload {
    /// The payload of a JSON text (a value of a line, read in one pass without a tree). A text
    /// whose object repeats a key (a tree keeps the last value, at the first key's place) is
    /// read through its tree, as is one that is no JSON (`null`).
    pub fn from_json(text: &str) -> Payload {
        Payload::read(text).unwrap_or_default()
    }

    /// [`Payload::from_json`], `None` for a text that is no JSON a tree can hold (nested
    /// deeper than 128 levels, as serde_json's parser allows).
    pub fn read(text: &str) -> Option<Payload> {
        match encode(text, false, None) {
            Some(s) => Some(Payload::of_written(s)),
            None => serde_json::from_str(text)
                .ok()
                .map(|v| Payload::from_value(&v)),
        }
    }

    /// The payload of a tree.
    pub fn from_value(v: &Value) -> Payload {
        Payload::of_written(v.to_string())
    }

    /// A text this module wrote (valid JSON by construction).
    fn of_written(text: String) -> Payload {
        RawValue::from_string(text).map(Payload).unwrap_or_default()
    }

    /// The written text.
    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// The payload as a tree.
    pub fn to_value(&self) -> Value {
        serde_json::from_str(self.get()).unwrap_or_default()
    }

    /// The keys of an object payload with their values as payloads (`None` for any other).
    pub fn fields(&self) -> Option<BTreeMap<String, &RawValue>> {
        serde_json::from_str(self.get()).ok()
    }

    /// A value of [`Payload::fields`] as a payload of its own (a part of a written text is
    /// written text).
    pub fn of_field(raw: &RawValue) -> Payload {
        Payload::of_written(raw.get().to_owned())
    }
}

impl fmt::Debug for Payload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.get())
    }
}

/// Read from a tree (an AG-UI capture's event read typed).
impl<'de> Deserialize<'de> for Payload {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Value::deserialize(d).map(|v| Payload::from_value(&v))
    }
}

/// Written as its tree would be, streamed from its text.
impl Serialize for Payload {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut de = serde_json::Deserializer::from_str(self.get());
        serde_transcode::transcode(&mut de, s)
    }
}

/// The compact text of a JSON text's tree, written without the tree: as `serde_json::to_string`
/// writes it, or with `normalise`, as its normalised tree writes it (LangChain objects as
/// [`write_lc`] writes them, numbers as JavaScript writes them). `None` for a
/// text it declines (a repeated key, an LangChain object the normaliser declines): its tree
/// tells. With `noted`, it notes where the written values of some keys of the top object are.
pub(crate) fn encode(text: &str, normalise: bool, noted: Option<&mut Noted>) -> Option<String> {
    let mut out = Vec::with_capacity(text.len());
    let mut de = serde_json::Deserializer::from_str(text);
    let encoder = Encode {
        out: &mut out,
        normalise,
        head: None,
        noted,
    };
    encoder.deserialize(&mut de).and_then(|()| de.end()).ok()?;
    String::from_utf8(out).ok()
}

/// Where in the written text the values of the top object's keys `keys` are (`at`: a place
/// per key).
#[derive(Default)]
pub(crate) struct Noted {
    pub keys: &'static [&'static str],
    pub at: Vec<Option<std::ops::Range<usize>>>,
}

impl Noted {
    fn note(&mut self, key: &str, at: std::ops::Range<usize>) {
        if let Some(i) = self.keys.iter().position(|k| *k == key) {
            self.at[i] = Some(at);
        }
    }
}

/// The hashes of an object's keys so far: the first few scanned, the rest in a set (a set
/// of its own for each object cost allocations on every message).
struct Seen {
    few: [u64; 16],
    n: usize,
    many: HashSet<u64>,
}

impl Seen {
    /// Whether `hash` is new (it is seen now).
    fn insert(&mut self, hash: u64) -> bool {
        // The set is hashed (SipHash) only once it holds keys.
        if self.few[..self.n.min(16)].contains(&hash) || (self.n > 16 && self.many.contains(&hash))
        {
            return false;
        }
        match self.few.get_mut(self.n) {
            Some(slot) => *slot = hash,
            None => _ = self.many.insert(hash),
        }
        self.n += 1;
        true
    }
}

/// Writes the value a deserializer reads into `out` as `serde_json::to_string` writes its
/// tree; fails on a key an object repeats. `head`: the value is a constructor's `kwargs`,
/// written as an object that starts with this entry, without their `type` (the class gives
/// it).
pub(crate) struct Encode<'a> {
    pub out: &'a mut Vec<u8>,
    /// LangChain objects normalised (an object whose first key is `lc` written by
    /// [`write_lc`], any other declined: its tree tells), numbers as
    /// JavaScript writes them; else LangChain objects are written as any object.
    pub normalise: bool,
    pub head: Option<(&'static str, &'a str)>,
    /// Notes the top object's values ([`encode`]).
    pub noted: Option<&'a mut Noted>,
}

impl Encode<'_> {
    fn write<E: de::Error, T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), E> {
        if self.head.is_some() {
            return Err(E::custom("kwargs that are no object"));
        }
        match self.normalise {
            true => crate::js_numbers::to_writer(&mut *self.out, v),
            false => serde_json::to_writer(&mut *self.out, v),
        }
        .map_err(E::custom)
    }

    /// A string of the text (an object key, or a string value): copied when it had no
    /// escapes (`plain`), else written.
    fn write_text<E: de::Error>(&mut self, s: &str, plain: bool) -> Result<(), E> {
        if !plain || self.head.is_some() {
            return self.write(s);
        }
        self.out.push(b'"');
        self.out.extend_from_slice(s.as_bytes());
        self.out.push(b'"');
        Ok(())
    }

    /// An encoder of a value inside this one.
    fn inner(&mut self) -> Encode<'_> {
        Encode {
            out: self.out,
            normalise: self.normalise,
            head: None,
            noted: None,
        }
    }
}

impl<'de> DeserializeSeed<'de> for Encode<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Encode<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(mut self, v: bool) -> Result<(), E> {
        self.write(&v)
    }

    fn visit_i64<E: de::Error>(mut self, v: i64) -> Result<(), E> {
        self.write(&v)
    }

    fn visit_u64<E: de::Error>(mut self, v: u64) -> Result<(), E> {
        self.write(&v)
    }

    fn visit_f64<E: de::Error>(mut self, v: f64) -> Result<(), E> {
        self.write(&v)
    }

    fn visit_str<E: de::Error>(mut self, v: &str) -> Result<(), E> {
        self.write(v)
    }

    /// A string of the text without escapes (so without a character a writer escapes):
    /// written as it is.
    fn visit_borrowed_str<E: de::Error>(mut self, v: &'de str) -> Result<(), E> {
        self.write_text(v, true)
    }

    fn visit_unit<E: de::Error>(mut self) -> Result<(), E> {
        self.write(&())
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        if self.head.is_some() {
            return Err(de::Error::custom("kwargs that are no object"));
        }
        // A comma after each item; the last item's (no value ends with one) is the bracket.
        self.out.push(b'[');
        while seq.next_element_seed(self.inner())?.is_some() {
            self.out.push(b',');
        }
        match self.out.last_mut() {
            Some(comma @ b',') => *comma = b']',
            _ => self.out.push(b']'),
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        // Keys are told apart by a hash: a collision reads the text through its tree, which
        // gives the same output.
        let hasher = foldhash::quality::FixedState::default();
        let mut seen = Seen {
            few: [0; 16],
            n: 0,
            many: HashSet::new(),
        };
        let mut key = map.next_key_seed(Key)?;
        if self.normalise && self.head.is_none() && key.as_deref() == Some("lc") {
            return write_lc(self, map);
        }
        self.out.push(b'{');
        let head = self.head.take();
        let mut noted = self.noted.take();
        if let Some((k, v)) = head {
            self.write(k)?;
            self.out.push(b':');
            let at = self.out.len();
            self.write(v)?;
            if let Some(n) = noted.as_deref_mut() {
                n.note(k, at..self.out.len());
            }
        }
        while let Some(k) = key {
            let dropped = head.is_some() && k == "type";
            // A kwarg of the head's name (`__type__`) takes its place: the tree tells.
            let takes_head = !dropped && head.is_some_and(|(h, _)| h == k);
            if self.normalise && (takes_head || matches!(&*k, "lc" | "__lc_escaped__")) {
                return Err(de::Error::custom("an lc object read from its tree"));
            }
            if !seen.insert(hasher.hash_one(&k)) {
                return Err(de::Error::custom("repeated key"));
            }
            if dropped {
                map.next_value::<de::IgnoredAny>()?;
            } else {
                if seen.n > 1 || head.is_some() {
                    self.out.push(b',');
                }
                self.write_text(&k, matches!(k, Cow::Borrowed(_)))?;
                self.out.push(b':');
                let at = self.out.len();
                map.next_value_seed(self.inner())?;
                if let Some(n) = noted.as_deref_mut() {
                    n.note(&k, at..self.out.len());
                }
            }
            key = map.next_key_seed(Key)?;
        }
        self.out.push(b'}');
        Ok(())
    }
}

/// The text normaliser's LangChain objects ([`encode`] with `normalise`: a JSON text's value
/// normalised as compact text, as the sinks write it, read without a tree; `None` when its
/// tree must tell): the rest of an object after its `lc` key, a message constructor in
/// LangChain's key order (`lc`, `type`, `id`, `kwargs`), written as its kwargs after the head
/// its class gives, as they are read, numbers as JavaScript writes them. It declines any
/// other lc object (its tree is normalised instead). Here, with the class table it reads
/// ([`constructor_type`]), below `wire`: the encoder calls no higher layer, and the tree
/// normaliser (`wire::langchain`) reads the same table.
fn write_lc<'de, A: MapAccess<'de>>(enc: Encode<'_>, mut map: A) -> Result<(), A::Error> {
    let decline = || de::Error::custom("an lc object read from its tree");
    let lc: Value = map.next_value()?;
    let mut next = |key: &str| -> Result<Value, A::Error> {
        if map.next_key_seed(Key)?.as_deref() != Some(key) {
            return Err(decline());
        }
        map.next_value()
    };
    if lc != 1 || next("type")? != "constructor" {
        return Err(decline());
    }
    let id = next("id")?;
    let class = lc_class_of(&id).ok_or_else(decline)?;
    // A `ChatMessage`'s head is its `role` kwarg: its tree tells.
    if class.strip_suffix("Chunk").unwrap_or(class) == "ChatMessage" {
        return Err(decline());
    }
    let head = constructor_type(class, None).map_or(("__type__", class), |t| ("type", t));
    if map.next_key_seed(Key)?.as_deref() != Some("kwargs") {
        return Err(decline());
    }
    map.next_value_seed(Encode {
        head: Some(head),
        ..enc
    })?;
    match map.next_key_seed(Key)? {
        Some(_) => Err(decline()),
        None => Ok(()),
    }
}

/// The class an lc object's `id` names (`["langgraph","types","Interrupt"]` → `Interrupt`).
pub(crate) fn lc_class_of(id: &Value) -> Option<&str> {
    id.as_array()?.last()?.as_str()
}

/// The `type` a flattened constructor of `class` gets, its kwargs' `role` given (`None`: it
/// gets `__type__`, and its kwargs' own `type` is dropped).
pub fn constructor_type<'a>(class: &str, role: Option<&'a str>) -> Option<&'a str> {
    Some(match class.strip_suffix("Chunk").unwrap_or(class) {
        "HumanMessage" => "human",
        "AIMessage" => "ai",
        "ToolMessage" => "tool",
        "SystemMessage" => "system",
        "FunctionMessage" => "function",
        "RemoveMessage" => "remove",
        "ChatMessage" => role.unwrap_or("chat"),
        _ => return None,
    })
}

/// A string, borrowed from the text when it has no escapes.
#[derive(Deserialize)]
pub(crate) struct Str<'a>(#[serde(borrow)] pub Cow<'a, str>);

/// An object key as a [`Str`].
pub(crate) struct Key;

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Cow<'de, str>;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        Str::deserialize(d).map(|k| k.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text of a payload read from JSON text is what writing the text's tree gives.
    #[test]
    fn written_as_its_tree_is_written() {
        for text in [
            r#"[0, 0,0 ]"#,
            r#"{"a": 1.0, "b": [1e2, -0.0, 1.5e-7, 12345678901234567890, -3], "c": "é\"\n\u00e9\/"}"#,
            r#"{"a": 1, "b": 2, "a": 3}"#,
            r#"{"x": {"k": 1, "k": 2}, "y": []}"#,
            r#"{}"#,
            r#"[]"#,
            r#"[[],[{}],{"":null}]"#,
            r#"null"#,
            r#"true"#,
            r#""s""#,
            r#"123456789012345678901234567890"#,
            r#"{"a\u0041": 1, "aA": 2}"#,
            // Copied as they are (no escapes): a slash, DEL, non-ASCII, in a key and a value.
            "{\"k/\u{7f}é\": [\"v/\u{7f}é\", \"\"]}",
            r#"not json"#,
        ] {
            let tree: Value = serde_json::from_str(text).unwrap_or_default();
            let p = Payload::from_json(text);
            assert_eq!(p.get(), tree.to_string(), "{text}");
            assert_eq!(Payload::from_value(&tree).get(), tree.to_string(), "{text}");
            // Written in an event, and made a tree, it is what its tree gives.
            assert_eq!(
                crate::js_numbers::to_vec(&p).expect("writes"),
                crate::js_numbers::to_vec(&tree).expect("writes"),
                "{text}"
            );
            assert_eq!(serde_json::to_value(&p).expect("a tree"), tree, "{text}");
            assert_eq!(p.to_value(), tree, "{text}");
        }
    }

    /// A value nested deeper than a tree can hold is no payload (its line is reported).
    #[test]
    fn too_deep_is_none() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(Payload::read(&deep).is_none());
        assert_eq!(Payload::from_json(&deep).get(), "null");
        let ok = format!("{}{}", "[".repeat(100), "]".repeat(100));
        assert_eq!(Payload::read(&ok).map(|p| p.get().len()), Some(200));
    }

    #[test]
    fn fields_of_an_object() {
        let p = Payload::from_json(r#"{"name": "n", "payload": [1, 2.0]}"#);
        let f = p.fields().expect("an object");
        assert_eq!(f["name"].get(), r#""n""#);
        assert_eq!(Payload::of_field(f["payload"]).get(), "[1,2.0]");
        assert!(Payload::from_json("[1]").fields().is_none());
    }

    /// Written in an event, the payload's numbers are JavaScript's.
    #[test]
    fn serializes_with_javascript_numbers() {
        let p = Payload::from_json(r#"{"a": [1.0, -0.0, 1e21]}"#);
        assert_eq!(
            crate::js_numbers::to_vec(&p).expect("writes"),
            br#"{"a":[1,0,1e+21]}"#
        );
    }
}
