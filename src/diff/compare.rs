//! Two runs' documents compared leaf by leaf: each difference once, at the highest pointer
//! where the two sides part, with the input line of each side.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::input::Origin;
use crate::leaf::{matches, unflatten, Leaf, Run};

/// What is compared.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `--ignore`: pointers (with `*` within a segment) whose values are not compared.
    pub ignore: Vec<String>,
    /// `--ignore-text`: model text is compared only as empty or not, and a string as equal to
    /// its redaction by `aguify redact`.
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
/// that side has (the enclosing value, or the run's start). Serialized as the JSON report
/// writes it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Difference {
    #[serde(rename = "path")]
    pub pointer: String,
    pub change: Change,
    pub old: Option<Value>,
    pub new: Option<Value>,
    pub old_at: Origin,
    pub new_at: Origin,
}

/// The differences of the runs at one position; a run only one side has is `None` on the
/// other.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RunDiff {
    #[serde(rename = "run")]
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

/// One side's leaves after `--ignore`, each under the pointer it is compared at (the new side's
/// array items renamed to the old side's indices where the arrays align), indexed by pointer
/// and by every ancestor pointer.
struct Side<'a> {
    leaves: &'a [(String, &'a Leaf)],
    at: HashMap<&'a str, usize>,
    /// Every pointer and ancestor → its first leaf.
    prefixes: HashMap<&'a str, usize>,
    start: &'a Origin,
}

impl<'a> Side<'a> {
    fn leaves(run: &'a Run, opts: &Options) -> Vec<(String, &'a Leaf)> {
        run.leaves
            .iter()
            .filter(|l| !opts.ignore.iter().any(|p| matches(p, &l.pointer)))
            .map(|l| (l.pointer.clone(), l))
            .collect()
    }

    fn index(leaves: &'a [(String, &'a Leaf)], start: &'a Origin) -> Side<'a> {
        let mut at = HashMap::with_capacity(leaves.len());
        let mut prefixes = HashMap::with_capacity(leaves.len() * 2);
        for (i, (p, _)) in leaves.iter().enumerate() {
            at.entry(p.as_str()).or_insert(i);
            for a in ancestors(p) {
                prefixes.entry(a).or_insert(i);
            }
        }
        Side {
            leaves,
            at,
            prefixes,
            start,
        }
    }

    /// The value at `pointer` (a leaf's, or the subtree under it).
    fn value(&self, pointer: &str) -> Value {
        if let Some(&i) = self.at.get(pointer) {
            if !self.leaves[i].1.value.is_array() {
                return self.leaves[i].1.value.clone();
            }
        }
        let under = format!("{pointer}/");
        unflatten(
            pointer,
            self.leaves
                .iter()
                .filter(|(p, _)| p == pointer || p.starts_with(&under))
                .map(|(p, l)| (p.as_str(), &l.value)),
        )
    }

    /// The pointer as the input has it (`pointer`'s segments, as many, of the leaf it leads to).
    fn shown(&self, pointer: &str) -> String {
        let Some(&i) = self.prefixes.get(pointer) else {
            return pointer.to_string();
        };
        let depth = pointer.matches('/').count();
        let original = &self.leaves[i].1.pointer;
        match original.match_indices('/').nth(depth) {
            Some((end, _)) => original[..end].to_string(),
            None => original.clone(),
        }
    }

    /// Where `pointer` is, or failing that its nearest ancestor, or the run's start.
    fn origin(&self, pointer: &str) -> Origin {
        let mut p = pointer;
        loop {
            if let Some(&i) = self.prefixes.get(p) {
                return self.leaves[i].1.origin.clone();
            }
            match p.rfind('/') {
                Some(0) | None => return self.start.clone(),
                Some(i) => p = &p[..i],
            }
        }
    }
}

/// Arrays larger than this (items on one side times the other's) are compared by index.
const ALIGN_LIMIT: usize = 250_000;

/// Renames the items of every array both sides have on the new side to the old side's indices
/// where the items align (longest common subsequence of the items' contents; the unmatched
/// items between two matches paired in order), so an item inserted or removed is one
/// difference instead of a shift of every later item. New items with no partner get an index
/// the old side cannot have (`N+`); the report shows the input's pointer.
fn align(old: &[(String, &Leaf)], new: &mut [(String, &Leaf)]) {
    let old_arrays: HashSet<&str> = old
        .iter()
        .filter(|(_, l)| l.value.is_array())
        .map(|(p, _)| p.as_str())
        .collect();
    let mut i = 0;
    while i < new.len() {
        let (p, l) = &new[i];
        i += 1;
        if !l.value.is_array() || !old_arrays.contains(p.as_str()) {
            continue;
        }
        let prefix = format!("{p}/");
        let (Some(a), Some(b)) = (items(old, &prefix), items(new, &prefix)) else {
            continue;
        };
        if a == b || a.len().saturating_mul(b.len()) > ALIGN_LIMIT {
            continue;
        }
        let names = partners(&a, &b);
        for (ptr, _) in new.iter_mut().skip(i) {
            let Some((index, tail)) = item_at(ptr, &prefix) else {
                continue;
            };
            if let Some(name) = index.parse::<usize>().ok().and_then(|j| names.get(j)) {
                *ptr = format!("{prefix}{name}{tail}");
            }
        }
    }
}

/// The items of the array at `prefix` (`P/`): each item's leaves below it, as one text. `None`
/// when an index is past the count of leaves (every item has one): a corrupt snapshot, whose
/// items are then compared by position.
fn items(leaves: &[(String, &Leaf)], prefix: &str) -> Option<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for (p, l) in leaves {
        let Some((Ok(j), tail)) = item_at(p, prefix).map(|(i, t)| (i.parse::<usize>(), t)) else {
            continue;
        };
        if j >= leaves.len() {
            return None;
        }
        if out.len() <= j {
            out.resize(j + 1, String::new());
        }
        out[j].push_str(tail);
        out[j].push(' ');
        out[j].push_str(&l.value.to_string());
        out[j].push('\n');
    }
    Some(out)
}

/// The item index of pointer `p` under the array at `prefix` (`P/`), and the rest of `p`.
fn item_at<'p>(p: &'p str, prefix: &str) -> Option<(&'p str, &'p str)> {
    let rest = p.strip_prefix(prefix)?;
    Some(rest.split_at(rest.find('/').unwrap_or(rest.len())))
}

/// For each new item, the old index it is compared with, or `N+` for an item only new has.
fn partners(a: &[String], b: &[String]) -> Vec<String> {
    let (n, m) = (a.len(), b.len());
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut names = vec![String::new(); m];
    let (mut i, mut j) = (0, 0);
    // Unmatched items since the last match, paired in order at the next match (or the end).
    let (mut gap_a, mut gap_b) = (Vec::new(), Vec::new());
    let pair = |gap_a: &mut Vec<usize>, gap_b: &mut Vec<usize>, names: &mut Vec<String>| {
        for (k, &nj) in gap_b.iter().enumerate() {
            names[nj] = match gap_a.get(k) {
                Some(oi) => oi.to_string(),
                None => format!("{nj}+"),
            };
        }
        gap_a.clear();
        gap_b.clear();
    };
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            pair(&mut gap_a, &mut gap_b, &mut names);
            names[j] = i.to_string();
            i += 1;
            j += 1;
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            gap_b.push(j);
            j += 1;
        } else {
            gap_a.push(i);
            i += 1;
        }
    }
    pair(&mut gap_a, &mut gap_b, &mut names);
    names
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

/// Whether two leaves hold the same value; under `--ignore-text` a string and what `aguify
/// redact` makes of it are the same too (either side may be the redacted one).
fn same_value(a: &Leaf, b: &Leaf, opts: &Options) -> bool {
    if compared(a, opts) == compared(b, opts) {
        return true;
    }
    match (&a.value, &b.value) {
        (Value::String(x), Value::String(y)) if opts.ignore_text => {
            crate::redact::is_redaction_of(x, y) || crate::redact::is_redaction_of(y, x)
        }
        _ => false,
    }
}

/// The first byte at which two strings differ (on a character boundary of both).
pub(crate) fn first_difference(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i)
}

/// The differences between two runs at one position.
pub fn compare(index: usize, old: &Run, new: &Run, opts: &Options) -> RunDiff {
    let old_leaves = Side::leaves(old, opts);
    let mut new_leaves = Side::leaves(new, opts);
    let mut out = Vec::new();
    let same =
        |(a, b): (&(String, &Leaf), &(String, &Leaf))| a.0 == b.0 && same_value(a.1, b.1, opts);
    // The common case first: the same values in the same order.
    if old_leaves.len() != new_leaves.len() || !old_leaves.iter().zip(&new_leaves).all(same) {
        align(&old_leaves, &mut new_leaves);
        let o = Side::index(&old_leaves, &old.origin);
        let n = Side::index(&new_leaves, &new.origin);
        differences(&o, &n, opts, &mut out);
    }
    RunDiff {
        index,
        old: Some(old.origin.clone()),
        new: Some(new.origin.clone()),
        differences: out,
    }
}

/// Every difference between two indexed sides, into `out`.
fn differences(o: &Side, n: &Side, opts: &Options, out: &mut Vec<Difference>) {
    let mut reported: HashSet<String> = HashSet::new();
    for (op, ol) in o.leaves {
        match n.at.get(op.as_str()) {
            Some(&j) => {
                let nl = n.leaves[j].1;
                if same_value(ol, nl, opts) {
                    continue;
                }
                let (a, b) = (compared(ol, opts), compared(nl, opts));
                let (old_at, new_at) = match (&ol.value, &nl.value) {
                    (Value::String(x), Value::String(y)) => {
                        let at = first_difference(x, y);
                        (ol.origin_at(at), nl.origin_at(at))
                    }
                    _ => (ol.origin.clone(), nl.origin.clone()),
                };
                out.push(Difference {
                    pointer: op.clone(),
                    change: Change::Changed,
                    old: Some(a.into_owned()),
                    new: Some(b.into_owned()),
                    old_at,
                    new_at,
                });
            }
            None => one_sided(op, o, n, Change::Removed, &mut reported, out),
        }
    }
    for (np, _) in n.leaves {
        if !o.at.contains_key(np.as_str()) {
            one_sided(np, n, o, Change::Added, &mut reported, out);
        }
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
            if !other.leaves[j].1.value.is_array() {
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
    // Pointers are the old side's (the new side's array items renamed to old indices), but
    // an item only the new side has is shown as the new input has it.
    let shown = match kind {
        Change::Added => this.shown(p),
        _ => p.to_string(),
    };
    let (old, new, old_at, new_at) = if change == Change::Removed {
        (mine, theirs, mine_at, theirs_at)
    } else {
        (theirs, mine, theirs_at, mine_at)
    };
    out.push(Difference {
        pointer: shown,
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

    fn run<P: AsRef<str>>(file: &str, leaves: &[(P, Value, u64)]) -> Run {
        let file: Arc<str> = Arc::from(file);
        let at = |line| Origin {
            file: file.clone(),
            line,
        };
        let leaf = |(p, v, l): &(P, Value, u64)| Leaf::new(p.as_ref().into(), v.clone(), at(*l));
        Run {
            index: 1,
            origin: at(1),
            leaves: leaves.iter().map(leaf).collect(),
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

    /// Under `--ignore-text` a value and its redaction are equal, either way round; a real
    /// change is still one.
    #[test]
    fn ignore_text_takes_a_redacted_value_as_its_original() {
        let redacted = crate::redact::render("Paris", crate::redact::Mode::Text);
        let a = run("a", &[("/toolCalls/call-1/args/city", json!("Paris"), 2)]);
        let b = run("b", &[("/toolCalls/call-1/args/city", json!(redacted), 2)]);
        let c = run("c", &[("/toolCalls/call-1/args/city", json!("Lyon"), 2)]);
        let opts = Options {
            ignore_text: true,
            ..Options::default()
        };
        assert!(compare(1, &a, &b, &opts).is_equal());
        assert!(compare(1, &b, &a, &opts).is_equal());
        assert!(!compare(1, &b, &c, &opts).is_equal());
        assert!(!compare(1, &a, &b, &Options::default()).is_equal());
    }

    #[test]
    fn an_inserted_item_is_one_difference() {
        let steps = |file: &str, names: &[&str]| {
            let mut l: Vec<(String, Value, u64)> = vec![("/steps".into(), json!([]), 1)];
            for (i, n) in names.iter().enumerate() {
                l.push((format!("/steps/{i}"), json!(n), i as u64 + 2));
            }
            run(file, &l)
        };
        let a = steps("a", &["plan", "model", "tools", "model"]);
        let b = steps("b", &["plan", "guard", "model", "tools", "answer"]);
        let d = compare(1, &a, &b, &Options::default());
        let got: Vec<(&str, Change, Option<Value>, Option<Value>)> = d
            .differences
            .iter()
            .map(|d| (d.pointer.as_str(), d.change, d.old.clone(), d.new.clone()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "/steps/3",
                    Change::Changed,
                    Some(json!("model")),
                    Some(json!("answer"))
                ),
                ("/steps/1", Change::Added, None, Some(json!("guard"))),
            ]
        );
        assert_eq!(d.differences[1].new_at.line, 3);
        let r = compare(1, &b, &a, &Options::default());
        assert_eq!(r.differences.len(), 2);
        assert_eq!(r.differences[0].pointer, "/steps/1");
        assert_eq!(r.differences[0].change, Change::Removed);
    }
}
