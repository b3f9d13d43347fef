//! Two runs' documents compared leaf by leaf: each difference once, at the highest pointer
//! where the two sides part, with the input line of each side.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::conversation::Run;
use super::leaf::{matches, unflatten, Leaf};
use crate::input::Origin;

/// What is compared.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `--ignore`: pointers (with `*` within a segment) whose values are not compared.
    pub ignore: Vec<String>,
    /// `--ignore-text`: model text is compared only as empty or not.
    pub ignore_text: bool,
    /// `--exact`: the runs are their events (set when they were read).
    pub exact: bool,
}

/// The model's text under `--ignore-text`.
pub const TEXT_POINTERS: [&str; 4] = [
    "/messages/assistant-*/text",
    "/messages/*/streamedText",
    "/reasoning/*/text",
    "/toolCalls/*/streamedResult",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    Changed,
    Added,
    Removed,
}

impl Change {
    pub fn as_str(self) -> &'static str {
        match self {
            Change::Changed => "changed",
            Change::Added => "added",
            Change::Removed => "removed",
        }
    }
}

/// One difference. A value absent on a side is `None`; its origin there is the nearest thing
/// that side has (the enclosing value, or the run's start).
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    pub pointer: String,
    pub change: Change,
    pub old: Option<Value>,
    pub new: Option<Value>,
    pub old_at: Origin,
    pub new_at: Origin,
}

/// The differences of the runs at one position; a run only one side has is `None` on the
/// other.
#[derive(Debug, Clone)]
pub struct RunDiff {
    pub index: usize,
    pub old: Option<Origin>,
    pub new: Option<Origin>,
    pub differences: Vec<Difference>,
}

impl RunDiff {
    pub fn is_equal(&self) -> bool {
        self.old.is_some() && self.new.is_some() && self.differences.is_empty()
    }
}

/// One side's leaves after `--ignore`, indexed by pointer and by every ancestor pointer.
struct Side<'a> {
    leaves: Vec<&'a Leaf>,
    at: HashMap<&'a str, usize>,
    /// Every pointer and ancestor → its first leaf.
    prefixes: HashMap<&'a str, usize>,
    start: &'a Origin,
}

impl<'a> Side<'a> {
    fn new(run: &'a Run, opts: &Options) -> Side<'a> {
        let leaves: Vec<&Leaf> = run
            .leaves
            .iter()
            .filter(|l| !opts.ignore.iter().any(|p| matches(p, &l.pointer)))
            .collect();
        let mut at = HashMap::with_capacity(leaves.len());
        let mut prefixes = HashMap::with_capacity(leaves.len() * 2);
        for (i, l) in leaves.iter().enumerate() {
            at.entry(l.pointer.as_str()).or_insert(i);
            for p in ancestors(&l.pointer) {
                prefixes.entry(p).or_insert(i);
            }
        }
        Side {
            leaves,
            at,
            prefixes,
            start: &run.origin,
        }
    }

    /// The value at `pointer` (a leaf's, or the subtree under it).
    fn value(&self, pointer: &str) -> Value {
        if let Some(&i) = self.at.get(pointer) {
            if !self.leaves[i].value.is_array() {
                return self.leaves[i].value.clone();
            }
        }
        let under = format!("{pointer}/");
        unflatten(
            pointer,
            self.leaves
                .iter()
                .copied()
                .filter(|l| l.pointer == pointer || l.pointer.starts_with(&under)),
        )
    }

    /// Where `pointer` is, or failing that its nearest ancestor, or the run's start.
    fn origin(&self, pointer: &str) -> Origin {
        let mut p = pointer;
        loop {
            if let Some(&i) = self.prefixes.get(p) {
                return self.leaves[i].origin.clone();
            }
            match p.rfind('/') {
                Some(0) | None => return self.start.clone(),
                Some(i) => p = &p[..i],
            }
        }
    }
}

/// `/a/b/c` → `/a`, `/a/b`, `/a/b/c`.
fn ancestors(pointer: &str) -> impl Iterator<Item = &str> {
    pointer
        .match_indices('/')
        .skip(1)
        .map(move |(i, _)| &pointer[..i])
        .chain(std::iter::once(pointer))
}

/// The value compared: under `--ignore-text` the model's text only as empty or not.
fn compared<'v>(leaf: &'v Leaf, opts: &Options) -> std::borrow::Cow<'v, Value> {
    if opts.ignore_text && TEXT_POINTERS.iter().any(|p| matches(p, &leaf.pointer)) {
        if let Value::String(s) = &leaf.value {
            return std::borrow::Cow::Owned(Value::String(if s.is_empty() {
                String::new()
            } else {
                "…".to_string()
            }));
        }
    }
    std::borrow::Cow::Borrowed(&leaf.value)
}

/// The first byte at which two strings differ (on a character boundary of both).
fn first_difference(a: &str, b: &str) -> usize {
    let mut at = 0;
    for ((i, x), y) in a.char_indices().zip(b.chars()) {
        if x != y {
            return i;
        }
        at = i + x.len_utf8();
    }
    at
}

/// The differences between two runs at one position.
pub fn compare(index: usize, old: &Run, new: &Run, opts: &Options) -> RunDiff {
    let o = Side::new(old, opts);
    let n = Side::new(new, opts);
    let mut out = Vec::new();
    let mut reported: HashSet<String> = HashSet::new();
    for ol in &o.leaves {
        match n.at.get(ol.pointer.as_str()) {
            Some(&j) => {
                let nl = n.leaves[j];
                let (a, b) = (compared(ol, opts), compared(nl, opts));
                if a == b {
                    continue;
                }
                let (old_at, new_at) = match (&ol.value, &nl.value) {
                    (Value::String(x), Value::String(y)) => {
                        let at = first_difference(x, y);
                        (ol.origin_at(at), nl.origin_at(at))
                    }
                    _ => (ol.origin.clone(), nl.origin.clone()),
                };
                out.push(Difference {
                    pointer: ol.pointer.clone(),
                    change: Change::Changed,
                    old: Some(a.into_owned()),
                    new: Some(b.into_owned()),
                    old_at,
                    new_at,
                });
            }
            None => one_sided(
                &ol.pointer,
                &o,
                &n,
                Change::Removed,
                &mut reported,
                &mut out,
            ),
        }
    }
    for nl in &n.leaves {
        if !o.at.contains_key(nl.pointer.as_str()) {
            one_sided(&nl.pointer, &n, &o, Change::Added, &mut reported, &mut out);
        }
    }
    RunDiff {
        index,
        old: Some(old.origin.clone()),
        new: Some(new.origin.clone()),
        differences: out,
    }
}

/// A leaf `this` side has and `other` lacks: reported once, at its highest ancestor `other`
/// lacks (or, where `other` has a plain value in its place, as that value changed).
fn one_sided(
    pointer: &str,
    this: &Side,
    other: &Side,
    change: Change,
    reported: &mut HashSet<String>,
    out: &mut Vec<Difference>,
) {
    let mut at = None;
    for p in ancestors(pointer) {
        if let Some(&j) = other.at.get(p) {
            if !other.leaves[j].value.is_array() {
                // `other` has a plain value where `this` has a tree: one change, there.
                at = Some((p, Change::Changed));
                break;
            }
        }
        if !other.prefixes.contains_key(p) {
            at = Some((p, change));
            break;
        }
    }
    let Some((p, kind)) = at else { return };
    if !reported.insert(p.to_string()) {
        return;
    }
    let mine = Some(this.value(p));
    let theirs = (kind == Change::Changed).then(|| other.value(p));
    let (mine_at, theirs_at) = (this.origin(p), other.origin(p));
    let (old, new, old_at, new_at) = if change == Change::Removed {
        (mine, theirs, mine_at, theirs_at)
    } else {
        (theirs, mine, theirs_at, mine_at)
    };
    out.push(Difference {
        pointer: p.to_string(),
        change: kind,
        old,
        new,
        old_at,
        new_at,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::sync::Arc;

    fn run(file: &str, leaves: &[(&str, Value, u64)]) -> Run {
        let file: Arc<str> = Arc::from(file);
        Run {
            index: 1,
            origin: Origin {
                file: file.clone(),
                line: 1,
            },
            leaves: leaves
                .iter()
                .map(|(p, v, l)| {
                    Leaf::new(
                        p.to_string(),
                        v.clone(),
                        Origin {
                            file: file.clone(),
                            line: *l,
                        },
                    )
                })
                .collect(),
        }
    }

    #[test]
    fn reports_changes_once_at_the_highest_pointer() {
        let a = run(
            "a",
            &[
                ("/outcome", json!("success"), 9),
                ("/toolCalls/call-1/name", json!("x"), 3),
                ("/toolCalls/call-2/name", json!("y"), 4),
                ("/toolCalls/call-2/args/q", json!(1), 4),
                ("/state/s", json!("open"), 8),
            ],
        );
        let b = run(
            "b",
            &[
                ("/outcome", json!("success"), 7),
                ("/toolCalls/call-1/name", json!("x"), 2),
                ("/state/s", json!("done"), 6),
                ("/state/t", json!(true), 6),
            ],
        );
        let d = compare(1, &a, &b, &Options::default());
        let got: Vec<(&str, Change, u64, u64)> = d
            .differences
            .iter()
            .map(|d| (d.pointer.as_str(), d.change, d.old_at.line, d.new_at.line))
            .collect();
        assert_eq!(
            got,
            [
                ("/toolCalls/call-2", Change::Removed, 4, 2),
                ("/state/s", Change::Changed, 8, 6),
                ("/state/t", Change::Added, 8, 6),
            ]
        );
        assert_eq!(
            d.differences[0].old,
            Some(json!({"args": {"q": 1}, "name": "y"}))
        );
        let ignored = Options {
            ignore: vec!["/toolCalls/*".into(), "/state".into()],
            ..Options::default()
        };
        assert!(compare(1, &a, &b, &ignored).is_equal());
    }

    #[test]
    fn a_value_become_a_tree_is_one_change() {
        let a = run("a", &[("/state/x", json!("s"), 2)]);
        let b = run(
            "b",
            &[("/state/x/y", json!(1), 3), ("/state/x/z", json!(2), 3)],
        );
        let d = compare(1, &a, &b, &Options::default());
        assert_eq!(d.differences.len(), 1);
        assert_eq!(d.differences[0].change, Change::Changed);
        assert_eq!(d.differences[0].new, Some(json!({"y": 1, "z": 2})));
    }

    #[test]
    fn ignore_text_keeps_emptiness() {
        let a = run("a", &[("/messages/assistant-1/text", json!("hi"), 2)]);
        let b = run("b", &[("/messages/assistant-1/text", json!("hello"), 2)]);
        let c = run("c", &[("/messages/assistant-1/text", json!(""), 2)]);
        let opts = Options {
            ignore_text: true,
            ..Options::default()
        };
        assert!(compare(1, &a, &b, &opts).is_equal());
        assert!(!compare(1, &a, &c, &opts).is_equal());
        assert!(!compare(1, &a, &b, &Options::default()).is_equal());
    }
}
