//! Field lookup in JSON objects without hashing.
//!
//! `serde_json`'s ordered maps (`preserve_order`, needed so output keys keep the input order
//! like `JSON.stringify`) find a key by SipHashing it: on the objects of LangGraph events —
//! rarely more than a dozen keys — that costs several times a scan of the keys, and lookups
//! were a third of `convert`'s main thread. [`Field::field`] scans small objects and hashes
//! only large ones; the result is the same as `get`.

use serde_json::{Map, Value};

/// Objects with at most this many keys are scanned instead of hashed.
const SCAN_MAX: usize = 16;

/// `get` for object keys, by scanning small objects.
pub trait Field {
    /// The value of `key` when `self` is an object holding it.
    fn field(&self, key: &str) -> Option<&Value>;

    /// The string value of `key`.
    fn field_str(&self, key: &str) -> Option<&str> {
        self.field(key).and_then(Value::as_str)
    }
}

impl Field for Map<String, Value> {
    #[inline]
    fn field(&self, key: &str) -> Option<&Value> {
        if self.len() <= SCAN_MAX {
            self.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
        } else {
            self.get(key)
        }
    }
}

impl Field for Value {
    #[inline]
    fn field(&self, key: &str) -> Option<&Value> {
        self.as_object()?.field(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn same_as_get_for_small_and_large_objects() {
        let mut big = Map::new();
        for i in 0..40 {
            big.insert(format!("k{i}"), json!(i));
        }
        let big = Value::Object(big);
        let small = json!({"a": 1, "b": {"c": "x"}, "": null});
        for (v, keys) in [
            (&small, vec!["a", "b", "", "c", "z"]),
            (&big, vec!["k0", "k39", "k17", "k40", ""]),
        ] {
            for k in keys {
                assert_eq!(v.field(k), v.get(k), "{k}");
            }
        }
        assert_eq!(small.field("b").and_then(|b| b.field_str("c")), Some("x"));
        assert_eq!(json!([1]).field("a"), None);
        assert_eq!(json!("s").field("a"), None);
    }
}
