//! JSON Patch (RFC 6902) for `STATE_DELTA`: `add`, `remove`, `replace`, `move`, `copy`
//! (`test` checks nothing here). An operation whose path does not resolve is skipped.

use serde_json::Value;

use super::leaf::segments;

/// Applies one operation to `doc`.
pub fn apply(doc: &mut Value, op: &Value) {
    let path = op.get("path").and_then(Value::as_str);
    let from = op.get("from").and_then(Value::as_str);
    match (op.get("op").and_then(Value::as_str), path) {
        (Some("add"), Some(p)) | (Some("replace"), Some(p)) => {
            if let Some(v) = op.get("value") {
                add(doc, p, v.clone());
            }
        }
        (Some("remove"), Some(p)) => {
            remove(doc, p);
        }
        (Some("move"), Some(p)) => {
            if let Some(v) = from.and_then(|f| remove(doc, f)) {
                add(doc, p, v);
            }
        }
        (Some("copy"), Some(p)) => {
            if let Some(v) = from.and_then(|f| doc.pointer(f)).cloned() {
                add(doc, p, v);
            }
        }
        _ => {}
    }
}

/// The parent of `path`'s target and the last segment.
fn parent<'a>(doc: &'a mut Value, path: &str) -> Option<(&'a mut Value, String)> {
    let segs: Vec<String> = segments(path).collect();
    let (last, init) = segs.split_last()?;
    let mut at = doc;
    for s in init {
        at = match at {
            Value::Object(o) => o.get_mut(s)?,
            Value::Array(a) => a.get_mut(s.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some((at, last.clone()))
}

fn add(doc: &mut Value, path: &str, v: Value) {
    if path.is_empty() {
        *doc = v;
        return;
    }
    let Some((p, key)) = parent(doc, path) else {
        return;
    };
    match p {
        Value::Object(o) => {
            o.insert(key, v);
        }
        Value::Array(a) if key == "-" => a.push(v),
        Value::Array(a) => {
            if let Ok(i) = key.parse::<usize>() {
                if i <= a.len() {
                    a.insert(i, v);
                }
            }
        }
        _ => {}
    }
}

fn remove(doc: &mut Value, path: &str) -> Option<Value> {
    let (p, key) = parent(doc, path)?;
    match p {
        Value::Object(o) => o.shift_remove(&key),
        Value::Array(a) => {
            let i = key.parse::<usize>().ok()?;
            (i < a.len()).then(|| a.remove(i))
        }
        _ => None,
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
}
