//! Wire types: one reader per input line kind, typed with `serde` derive, run on the parse
//! threads. What the adapters read of a line is read here once; what is passed on whole
//! (states, tool input and output, custom payloads) stays a tree.

pub mod langchain;
pub mod pyrepr;
pub mod state;
pub mod v2;
pub mod v3;

use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// A field read as `Some` whenever it is present, `null` included (an `Option` reads `null`
/// as `None`), as a lookup in the tree finds it; `None` when absent. A struct of these with
/// `#[serde(default)]` keeps "absent" apart from `null` without an attribute a field.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Present<T>(pub Option<T>);

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
