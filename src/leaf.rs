//! A run as a flat list of [`Leaf`]s: one JSON pointer and one value each, in a fixed order.
//! [`crate::diff`] compares runs as the trees of their leaves and a [`crate::snapshot`] writes
//! one leaf a line; both read [`Item`]s of this module, which depends on neither.
//!
//! A JSON value is flattened with its object keys sorted. Objects are implied by their
//! children; an array writes a `[]` leaf at its own pointer before its items, so the tree can be
//! rebuilt from the leaves without mistaking `{"0": x}` for `[x]`. An empty object is the leaf
//! `{}`.

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::Value;

use crate::input::Origin;

/// One run's document, ready to compare or write.
#[derive(Debug, Clone)]
pub struct Run {
    /// 1-based position in its input.
    pub index: usize,
    /// Where the run began (its `RUN_STARTED`, or its first event).
    pub origin: Origin,
    pub leaves: Vec<Leaf>,
}

/// What one side of a diff (or a snapshot being read) yields, in input order.
#[derive(Debug)]
pub enum Item {
    Run(Run),
    /// A line that could not be read (the stream goes on without it).
    Bad {
        origin: Origin,
        message: String,
    },
}

/// One value of a run and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Leaf {
    /// A JSON pointer (RFC 6901) into the run's document, e.g. `/toolCalls/call-1/args/city`.
    pub pointer: String,
    /// A scalar, `[]` (an array, its items follow) or `{}` (an empty object).
    pub value: Value,
    /// The input line the value came from.
    pub origin: Origin,
    /// For a string joined from pieces: `(byte offset, line)` where each piece starts, in order,
    /// in `origin.file` (empty: the whole value came from `origin`).
    pub pieces: Vec<(usize, u64)>,
}

impl Leaf {
    pub fn new(pointer: String, value: Value, origin: Origin) -> Leaf {
        Leaf {
            pointer,
            value,
            origin,
            pieces: Vec::new(),
        }
    }

    /// Where the byte `at` of a joined string came from.
    pub fn origin_at(&self, at: usize) -> Origin {
        match self.pieces.iter().rev().find(|(start, _)| *start <= at) {
            Some(&(_, line)) => Origin {
                file: self.origin.file.clone(),
                line,
            },
            None => self.origin.clone(),
        }
    }
}

/// `key` escaped for a JSON pointer (`~` → `~0`, `/` → `~1`).
pub fn escape(key: &str) -> Cow<'_, str> {
    if key.contains(['~', '/']) {
        key.replace('~', "~0").replace('/', "~1").into()
    } else {
        key.into()
    }
}

/// Appends `value` at `pointer` as leaves (object keys sorted), each from `origin`. Strings that
/// are keys of `ids` are written as their placeholders.
pub fn flatten(
    pointer: &mut String,
    value: &Value,
    origin: &Origin,
    ids: &dyn Fn(&str) -> Option<Arc<str>>,
    out: &mut Vec<Leaf>,
) {
    let children: Vec<(Cow<str>, &Value)> = match value {
        Value::Object(o) if !o.is_empty() => {
            let mut keys: Vec<&String> = o.keys().collect();
            keys.sort();
            keys.into_iter().map(|k| (escape(k), &o[k])).collect()
        }
        Value::Array(a) => {
            let v = Value::Array(Vec::new());
            out.push(Leaf::new(pointer.clone(), v, origin.clone()));
            a.iter()
                .enumerate()
                .map(|(i, v)| (i.to_string().into(), v))
                .collect()
        }
        Value::String(s) => {
            let v = ids(s).map_or_else(|| value.clone(), |p| Value::String(p.to_string()));
            return out.push(Leaf::new(pointer.clone(), v, origin.clone()));
        }
        _ => return out.push(Leaf::new(pointer.clone(), value.clone(), origin.clone())),
    };
    for (seg, v) in children {
        let len = pointer.len();
        pointer.push('/');
        pointer.push_str(&seg);
        flatten(pointer, v, origin, ids, out);
        pointer.truncate(len);
    }
}

/// Whether `pattern` (a pointer whose segments may hold `*`, matching any run of characters
/// within one segment) matches `pointer` or one of its ancestors.
pub fn matches(pattern: &str, pointer: &str) -> bool {
    let mut segs = pointer.split('/');
    pattern
        .split('/')
        .all(|p| segs.next().is_some_and(|s| glob(p, s)))
}

/// `*` matches any run of characters; everything else matches itself. Each part between stars
/// is matched at its first place (linear in `s`).
fn glob(pattern: &str, s: &str) -> bool {
    let Some((parts, last)) = pattern.rsplit_once('*') else {
        return pattern == s;
    };
    let mut parts = parts.split('*');
    let Some(mut rest) = s.strip_prefix(parts.next().unwrap_or_default()) else {
        return false;
    };
    for part in parts {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn origin() -> Origin {
        Origin {
            file: Arc::from("f"),
            line: 1,
        }
    }

    #[test]
    fn flattens_sorted() {
        let v = json!({"b": [1, {"x": "id-1"}], "a": {}, "c/d": {"0": null}});
        let mut out = Vec::new();
        let ids = |s: &str| (s == "id-1").then(|| Arc::from("call-1"));
        flatten(&mut "/s".to_string(), &v, &origin(), &ids, &mut out);
        let ptrs: Vec<(&str, String)> = out
            .iter()
            .map(|l| (l.pointer.as_str(), l.value.to_string()))
            .collect();
        assert_eq!(
            ptrs,
            [
                ("/s/a", "{}".to_string()),
                ("/s/b", "[]".to_string()),
                ("/s/b/0", "1".to_string()),
                ("/s/b/1/x", "\"call-1\"".to_string()),
                ("/s/c~1d/0", "null".to_string()),
            ]
        );
    }

    #[test]
    fn patterns_match_segments_and_ancestors() {
        assert!(matches("/toolCalls/*/args/id", "/toolCalls/call-2/args/id"));
        assert!(matches("/state", "/state/a/b"));
        assert!(matches(
            "/messages/assistant-*/text",
            "/messages/assistant-12/text"
        ));
        assert!(!matches(
            "/messages/assistant-*/text",
            "/messages/user-1/text"
        ));
        assert!(!matches("/state/a", "/state/ab"));
        assert!(!matches("/state/a/b", "/state/a"));
        assert!(matches("/x/*", "/x/"));
        assert!(matches("/k/a*b*c", "/k/aXbYbc"));
        assert!(!matches("/k/a*b*b", "/k/ab"));
        assert!(!matches("/k/a*", "/k/ba"));
    }

    #[test]
    fn joined_strings_point_at_their_pieces() {
        let mut l = Leaf::new("/t".into(), json!("abcdef"), origin());
        l.pieces = vec![(0, 3), (2, 5), (4, 9)];
        assert_eq!(l.origin_at(0).line, 3);
        assert_eq!(l.origin_at(3).line, 5);
        assert_eq!(l.origin_at(5).line, 9);
    }
}
