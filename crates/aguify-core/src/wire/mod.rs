//! Wire types: one reader per input line kind, typed with `serde` derive, run on the parse
//! threads. What the adapters read of a line is read here once; what is passed on whole
//! (states, tool input and output, custom payloads) stays a tree.

pub mod langchain;
pub mod pyrepr;
pub mod state;
pub mod v2;
pub mod v3;

use serde_json::Value;

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
