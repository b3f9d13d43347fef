//! Wire types: one reader per input line kind, typed with `serde` derive, run on the parse
//! threads. What the adapters read of a line is read here once; what is passed on whole
//! (states, tool input and output, custom payloads) stays a tree.

pub mod langchain;
pub mod pyrepr;
pub mod state;
pub mod v2;
pub mod v3;

use serde::de::{IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use std::borrow::Cow;

/// A field read as `Some` whenever it is present, `null` included (an `Option` reads `null`
/// as `None`), as a lookup in the tree finds it; `None` when absent. A struct of these with
/// `#[serde(default)]` keeps "absent" apart from `null` without an attribute a field.
#[derive(Debug, Clone, PartialEq)]
pub struct Present<T>(pub Option<T>);

impl<T> Default for Present<T> {
    fn default() -> Self {
        Present(None)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Present<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(|t| Present(Some(t)))
    }
}

/// A value read as `T` when it is of a JSON kind `T` is read from ([`Shape`]: a string for
/// `String`, an object for a struct's keys), and as absent for any other, as a lookup in its
/// tree finds nothing. serde derive cannot say "this, or any other value skipped" without
/// buffering the value: this is the readers' one visitor that does.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Lenient<T>(pub Option<T>);

/// What [`Lenient`] reads a value of as: by default nothing of any kind, a map or a list
/// skipped.
pub(crate) trait Shape<'de>: Sized {
    /// A value of a kind the other methods do not read (`kind`: its name, for messages).
    fn of_other(_kind: &'static str) -> Option<Self> {
        None
    }
    fn of_str(_: &str) -> Option<Self> {
        Self::of_other("a string")
    }
    fn of_map<M: MapAccess<'de>>(mut m: M) -> Result<Option<Self>, M::Error> {
        while m.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Self::of_other("an object"))
    }
    fn of_seq<S: SeqAccess<'de>>(mut s: S) -> Result<Option<Self>, S::Error> {
        while s.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Self::of_other("an array"))
    }
}

/// A string field (any other value: absent).
pub type Text = Lenient<String>;

/// The text of a JSON string given as its JSON text: what is between its quotes when it has
/// no escape (no parse, no copy), else parsed. `None` when it is no string.
pub(crate) fn string_text(json: &str) -> Option<Cow<'_, str>> {
    let text = json.strip_prefix('"')?.strip_suffix('"')?;
    match memchr::memchr(b'\\', text.as_bytes()) {
        None => Some(Cow::Borrowed(text)),
        Some(_) => serde_json::from_str(json).ok().map(Cow::Owned),
    }
}

impl Shape<'_> for String {
    fn of_str(s: &str) -> Option<Self> {
        Some(s.to_string())
    }
}

/// A list, its items read as they are scanned.
impl<'de, T: Deserialize<'de>> Shape<'de> for Vec<T> {
    fn of_seq<S: SeqAccess<'de>>(mut s: S) -> Result<Option<Self>, S::Error> {
        let mut items = vec![];
        while let Some(item) = s.next_element()? {
            items.push(item);
        }
        Ok(Some(items))
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
                Ok(Lenient(T::of_other("a boolean")))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Lenient<T>, E> {
                Ok(Lenient(T::of_other("a number")))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Lenient<T>, E> {
                Ok(Lenient(T::of_other("a number")))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Lenient<T>, E> {
                Ok(Lenient(T::of_other("a number")))
            }
            fn visit_unit<E>(self) -> Result<Lenient<T>, E> {
                Ok(Lenient(T::of_other("null")))
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

/// A value that is an object, read as `T` (with `LIST`, also a list whose first item is one:
/// the in-process `[payload, metadata]` form); of anything else, its kind.
#[derive(Debug, Clone, PartialEq)]
pub struct Object<T, const LIST: bool = false>(pub Result<T, &'static str>);

/// Absent.
impl<T, const LIST: bool> Default for Object<T, LIST> {
    fn default() -> Self {
        Object(Err("nothing"))
    }
}

impl<'de, T: Deserialize<'de>, const LIST: bool> Deserialize<'de> for Object<T, LIST> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let read = Lenient::<Object<T, LIST>>::deserialize(d)?;
        Ok(read.0.unwrap_or(Object(Err("no value"))))
    }
}

impl<'de, T: Deserialize<'de>, const LIST: bool> Shape<'de> for Object<T, LIST> {
    fn of_other(kind: &'static str) -> Option<Self> {
        Some(Object(Err(kind)))
    }
    fn of_map<M: MapAccess<'de>>(m: M) -> Result<Option<Self>, M::Error> {
        let t = T::deserialize(serde::de::value::MapAccessDeserializer::new(m))?;
        Ok(Some(Object(Ok(t))))
    }
    fn of_seq<S: SeqAccess<'de>>(mut s: S) -> Result<Option<Self>, S::Error> {
        let first = match LIST {
            true => s.next_element::<Object<T, false>>()?,
            false => None,
        };
        while s.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Some(Object(first.map_or(Err("an array"), |f| f.0))))
    }
}

/// A short name for a JSON value's kind, for messages.
pub fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
