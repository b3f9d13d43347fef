//! JSON Patch (RFC 6902) for `STATE_DELTA`, applied as the `json-patch` crate applies it (the
//! checker's AGX311 uses the same crate): one operation at a time, an operation that does not
//! apply (or is no operation) is skipped and the rest still apply.

use serde::Deserialize;
use serde_json::Value;

/// Applies one operation to `doc`; one that does not apply leaves `doc` as it was.
pub fn apply(doc: &mut Value, op: &Value) {
    if let Ok(op) = json_patch::PatchOperation::deserialize(op) {
        // Skipped on failure: the crate leaves the document as it was.
        let _ = json_patch::patch(doc, std::slice::from_ref(&op));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn applies_operations() {
        let mut d = json!({"a": [1, 2], "b": {"c": 1}});
        for op in [
            json!({"op": "add", "path": "/a/1", "value": 9}),
            json!({"op": "replace", "path": "/b/c", "value": 2}),
            json!({"op": "remove", "path": "/a/0"}),
            json!({"op": "add", "path": "/a/-", "value": 3}),
            json!({"op": "copy", "from": "/b", "path": "/d"}),
            json!({"op": "move", "from": "/b/c", "path": "/e"}),
            json!({"op": "remove", "path": "/nope/x"}),
        ] {
            apply(&mut d, &op);
        }
        assert_eq!(d, json!({"a": [9, 2, 3], "b": {}, "d": {"c": 2}, "e": 2}));
    }

    /// `replace` at an array index replaces the item (it was inserted before, growing the
    /// array), and a `replace` of a path that is not there is skipped (it was added).
    #[test]
    fn replace_replaces_and_needs_the_path() {
        let mut d = json!({"a": [1, 2]});
        apply(
            &mut d,
            &json!({"op": "replace", "path": "/a/0", "value": 9}),
        );
        assert_eq!(d, json!({"a": [9, 2]}));
        apply(&mut d, &json!({"op": "replace", "path": "/b", "value": 1}));
        assert_eq!(d, json!({"a": [9, 2]}));
        apply(&mut d, &json!({"op": "test", "path": "/a/0", "value": 1}));
        apply(&mut d, &json!({"op": "nonsense", "path": "/a"}));
        assert_eq!(d, json!({"a": [9, 2]}));
    }
}
