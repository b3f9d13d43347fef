//! What changed between two states, as the report lists it: added, removed and replaced paths
//! (JSON Pointer), array items by position, at most a given number of them. `aguify diff`
//! compares differently on purpose (items matched by id, every leaf with its input line:
//! [`crate::diff::compare`]); the two share the pointer escaping.

use serde::Serialize;
use serde_json::Value;

use super::text::clip;
use crate::diff::leaf::escape;
use crate::timeline::compact;

/// One change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    /// `add`, `remove` or `replace` (JSON Patch's words).
    pub op: &'static str,
    /// JSON Pointer of the changed value.
    pub path: String,
    /// The new value (compact, clipped); absent for `remove`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

/// Longest value text a change shows.
const VALUE_CHARS: usize = 200;

/// The changes from `old` to `new`, at most `max`; the count of all changes comes back too.
pub fn diff(old: &Value, new: &Value, max: usize) -> (Vec<Change>, usize) {
    let mut c = Changes {
        out: Vec::new(),
        total: 0,
        max,
    };
    c.walk(old, new, &mut String::new());
    (c.out, c.total)
}

/// The changes found so far (the first `max`) and their count.
struct Changes {
    out: Vec<Change>,
    total: usize,
    max: usize,
}

impl Changes {
    /// A change; `new` is the value set (none for a removal).
    fn push(&mut self, op: &'static str, path: String, new: Option<&Value>) {
        self.total += 1;
        if self.out.len() < self.max {
            let value = new.map(|v| clip(&compact(v), VALUE_CHARS).0);
            self.out.push(Change { op, path, value });
        }
    }

    fn walk(&mut self, old: &Value, new: &Value, path: &mut String) {
        if old == new {
            return;
        }
        match (old, new) {
            (Value::Object(a), Value::Object(b)) => {
                for (k, va) in a {
                    let len = path.len();
                    path.push('/');
                    path.push_str(&escape(k));
                    match b.get(k) {
                        Some(vb) => self.walk(va, vb, path),
                        None => self.push("remove", path.clone(), None),
                    }
                    path.truncate(len);
                }
                for (k, vb) in b.iter().filter(|(k, _)| !a.contains_key(*k)) {
                    self.push("add", format!("{path}/{}", escape(k)), Some(vb));
                }
            }
            (Value::Array(a), Value::Array(b)) => {
                for (i, (va, vb)) in a.iter().zip(b).enumerate() {
                    let len = path.len();
                    path.push_str(&format!("/{i}"));
                    self.walk(va, vb, path);
                    path.truncate(len);
                }
                for (i, vb) in b.iter().enumerate().skip(a.len()) {
                    self.push("add", format!("{path}/{i}"), Some(vb));
                }
                for i in (b.len()..a.len()).rev() {
                    self.push("remove", format!("{path}/{i}"), None);
                }
            }
            _ if path.is_empty() => self.push("replace", "/".into(), Some(new)),
            _ => self.push("replace", path.clone(), Some(new)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn adds_removes_and_replaces_by_path() {
        let a = json!({"messages":[{"c":"hi"}],"n":1,"gone":true,"a/b":0});
        let b = json!({"messages":[{"c":"hi"},{"c":"yo"}],"n":2,"a/b":1});
        let (changes, total) = diff(&a, &b, 10);
        let got: Vec<(&str, &str, Option<&str>)> = changes
            .iter()
            .map(|c| (c.op, c.path.as_str(), c.value.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("add", "/messages/1", Some(r#"{"c":"yo"}"#)),
                ("replace", "/n", Some("2")),
                ("remove", "/gone", None),
                ("replace", "/a~1b", Some("1")),
            ]
        );
        assert_eq!(total, 4);
        let (few, total) = diff(&a, &b, 1);
        assert_eq!((few.len(), total), (1, 4));
        assert!(diff(&a, &a, 10).0.is_empty());
    }
}
