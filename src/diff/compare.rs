//! Two runs' documents compared as the trees of their leaves: each difference once, at the
//! highest pointer where the two sides part, with the input line of each side.

use std::borrow::Cow;
use std::collections::HashMap;

use indexmap::IndexMap;
use serde_json::Value;

use crate::input::Origin;
use crate::leaf::{matches, Leaf, Run};

/// What is compared: the options of `aguify diff` (their doc comments are its help; `exact`
/// runs are their events, set when they were read; under `ignore_text` a string is also equal
/// to its redaction by `aguify redact`).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Options {
    /// Compare event by event (ids, timestamps and chunks included) instead of what is shown
    #[arg(long)]
    pub exact: bool,
    /// Do not compare the value at this JSON pointer (repeatable; `*` matches within a segment,
    /// e.g. /state/updatedAt, /toolCalls/*/args/requestId)
    #[arg(long, value_name = "POINTER", value_parser = crate::replay::pointer)]
    pub ignore: Vec<String>,
    /// Compare the model's text (assistant messages, reasoning) only as empty or not
    #[arg(long)]
    pub ignore_text: bool,
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

/// One side's document as a tree: the leaf at a pointer (the first, should a hand-edited
/// snapshot repeat one) and the pointers below it, in the order of their first leaves. A leaf
/// comes with its position among the side's leaves, which orders the differences.
#[derive(Default)]
struct Node<'a> {
    leaf: Option<(usize, &'a Leaf)>,
    /// The first leaf at or below the pointer: where the side has it.
    first: Option<(usize, &'a Leaf)>,
    children: IndexMap<&'a str, Node<'a>>,
}

impl<'a> Node<'a> {
    fn of(leaves: &[&'a Leaf]) -> Node<'a> {
        let mut root = Node::default();
        for (i, &l) in leaves.iter().enumerate() {
            let mut node = &mut root;
            for seg in l.pointer.split('/').skip(1) {
                node = node.children.entry(seg).or_default();
                node.first.get_or_insert((i, l));
            }
            node.leaf.get_or_insert((i, l));
        }
        root
    }

    fn is_array(&self) -> bool {
        self.leaf.is_some_and(|(_, l)| l.value.is_array())
    }

    /// The value at the pointer: the leaf's, or the tree below it (an array's items placed
    /// by index, one past its end the next).
    fn value(&self) -> Value {
        let children = self.children.iter();
        match self.leaf.map(|(_, l)| &l.value) {
            Some(Value::Array(items)) => {
                let mut items = items.clone();
                for (k, c) in children {
                    match k.parse::<usize>() {
                        Ok(i) if i < items.len() => items[i] = c.value(),
                        _ => items.push(c.value()),
                    }
                }
                items.into()
            }
            Some(v) => v.clone(),
            None => (children.map(|(k, c)| (unescape(k), c.value())))
                .collect::<serde_json::Map<_, _>>()
                .into(),
        }
    }

    /// Where the side has the pointer, and the position that orders a difference there.
    fn at(&self) -> (usize, &'a Origin) {
        let (i, l) = self.first.expect("a pointer below the root has a leaf");
        (i, &l.origin)
    }

    /// The items of an array, each as the compact JSON of its [`value`](Node::value): what an
    /// item is compared by when the items are aligned. `None` when an index is past the
    /// side's count of leaves (every item has one): a corrupt snapshot, whose items are then
    /// compared by position.
    fn items(&self, count: usize) -> Option<Vec<String>> {
        let mut out: Vec<String> = Vec::new();
        for (k, c) in &self.children {
            let Ok(j) = k.parse::<usize>() else { continue };
            if j >= count {
                return None;
            }
            if out.len() <= j {
                out.resize(j + 1, String::new());
            }
            out[j].push_str(&c.value().to_string());
        }
        Some(out)
    }
}

fn unescape(seg: &str) -> String {
    seg.replace("~1", "/").replace("~0", "~")
}

/// Arrays larger than this (items on one side times the other's) are compared by index.
const ALIGN_LIMIT: usize = 250_000;

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
    // An item only new has is `N+` unless it is paired with an old one.
    let mut names: Vec<String> = (0..m).map(|j| format!("{j}+")).collect();
    // Along the longest common subsequence; `gap`: where the unmatched items since the last
    // match begin on each side, paired in order at the next match (or the end).
    let (mut i, mut j, mut gap) = (0, 0, (0, 0));
    loop {
        let matched = i < n && j < m && a[i] == b[j];
        if matched || (i, j) == (n, m) {
            for k in 0..(i - gap.0).min(j - gap.1) {
                names[gap.1 + k] = (gap.0 + k).to_string();
            }
            if !matched {
                return names;
            }
            names[j] = i.to_string();
            (i, j) = (i + 1, j + 1);
            gap = (i, j);
        } else if j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j]) {
            j += 1;
        } else {
            i += 1;
        }
    }
}

/// The value compared: under `--ignore-text` the model's text only as empty or not.
fn compared<'v>(leaf: &'v Leaf, opts: &Options) -> Cow<'v, Value> {
    let text = opts.ignore_text && TEXT_POINTERS.iter().any(|p| matches(p, &leaf.pointer));
    match &leaf.value {
        Value::String(s) if text => Cow::Owned(if s.is_empty() { "" } else { "…" }.into()),
        v => Cow::Borrowed(v),
    }
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

/// The differences between the runs at one position (a run only one side has: none).
pub fn compare(index: usize, old: Option<&Run>, new: Option<&Run>, opts: &Options) -> RunDiff {
    let mut walk = Walk {
        opts,
        counts: [0, 0],
        out: Vec::new(),
    };
    if let Some((old, new)) = old.zip(new) {
        let [a, b] = [old, new].map(|run| -> Vec<&Leaf> {
            let ignored = |l: &&Leaf| opts.ignore.iter().any(|p| matches(p, &l.pointer));
            run.leaves.iter().filter(|l| !ignored(l)).collect()
        });
        let same = |(x, y): (&&Leaf, &&Leaf)| x.pointer == y.pointer && same_value(x, y, opts);
        walk.counts = [a.len(), b.len()];
        // The common case first: the same values in the same order.
        if a.len() != b.len() || !a.iter().zip(&b).all(same) {
            let (o, n) = (Node::of(&a), Node::of(&b));
            walk.pair(&o, &n, ["", ""], [&old.origin, &new.origin]);
        }
    }
    // As the old side's leaves show them, then the new side's.
    walk.out.sort_by_key(|(at, _)| *at);
    let origin = |run: Option<&Run>| run.map(|r| r.origin.clone());
    RunDiff {
        index,
        old: origin(old),
        new: origin(new),
        differences: walk.out.into_iter().map(|(_, d)| d).collect(),
    }
}

/// Two sides' trees compared from the root: each difference once, at the highest pointer where
/// the sides part.
struct Walk<'o> {
    opts: &'o Options,
    /// Each side's count of leaves.
    counts: [usize; 2],
    /// Each difference with the side (0 old, 1 new) and position of the first leaf showing it.
    out: Vec<((u8, usize), Difference)>,
}

impl Walk<'_> {
    /// The pointer both sides have: `ptr` as the old side has it and as the new side does
    /// (their array items may be aligned differently), `at` where each side has it.
    fn pair(&mut self, o: &Node, n: &Node, ptr: [&str; 2], at: [&Origin; 2]) {
        if let (Some((i, ol)), Some((_, nl))) = (o.leaf, n.leaf) {
            if !same_value(ol, nl, self.opts) {
                let values = [ol, nl].map(|l| Some(compared(l, self.opts).into_owned()));
                // A joined string's side is the line of the piece where they part.
                let at = match (&ol.value, &nl.value) {
                    (Value::String(x), Value::String(y)) => first_difference(x, y),
                    _ => 0,
                };
                let origins = [ol.origin_at(at), nl.origin_at(at)];
                self.push((0, i), ptr[0].into(), Change::Changed, values, origins);
            }
        }
        // A plain value on one side where the other has a tree: one change, there.
        let first_below = |x: &Node| x.children.values().next().map(|c| c.at().0);
        let lone = |x: &Node| x.leaf.is_some() && !x.is_array() && x.children.is_empty();
        let tree = match (first_below(o), first_below(n)) {
            (Some(i), _) if lone(n) => Some((0, i)),
            (_, Some(i)) if lone(o) => Some((1, i)),
            _ => None,
        };
        if let Some(key) = tree {
            let values = [Some(o.value()), Some(n.value())];
            let at = at.map(Origin::clone);
            return self.push(key, ptr[0].into(), Change::Changed, values, at);
        }
        // The new side's items renamed to the old side's indices where the arrays align
        // (longest common subsequence of the items' contents; the unmatched items between two
        // matches paired in order), so an item inserted or removed is one difference instead
        // of a shift of every later item; an item only the new side has is `N+`.
        let names = (o.is_array() && n.is_array())
            .then(|| Some((o.items(self.counts[0])?, n.items(self.counts[1])?)))
            .flatten()
            .filter(|(a, b)| a != b && a.len().saturating_mul(b.len()) <= ALIGN_LIMIT)
            .map(|(a, b)| partners(&a, &b));
        let mut new_items: HashMap<String, (&str, &Node)> = (n.children.iter())
            .map(|(k, c)| {
                let named = names.as_ref().zip(k.parse::<usize>().ok());
                let named = named.and_then(|(names, j)| names.get(j));
                (named.map_or(*k, String::as_str).to_string(), (*k, c))
            })
            .collect();
        for (k, oc) in &o.children {
            let p = format!("{}/{k}", ptr[0]);
            match new_items.remove(*k) {
                Some((nk, nc)) => {
                    let q = format!("{}/{nk}", ptr[1]);
                    self.pair(oc, nc, [&p, &q], [oc.at().1, nc.at().1]);
                }
                None => self.one_sided(0, p, oc, at[1]),
            }
        }
        // What is left only the new side has (the differences are ordered at the end).
        for (k, nc) in new_items.into_values() {
            self.one_sided(1, format!("{}/{k}", ptr[1]), nc, at[0]);
        }
    }

    /// `node`, at `pointer`, only on `side` (0: old, removed; 1: new, added); `there` is where
    /// the other side has its parent.
    fn one_sided(&mut self, side: u8, pointer: String, node: &Node, there: &Origin) {
        let (i, here) = node.at();
        let (mut values, mut at) = ([None, None], [there.clone(), there.clone()]);
        values[usize::from(side)] = Some(node.value());
        at[usize::from(side)] = here.clone();
        let change = [Change::Removed, Change::Added][usize::from(side)];
        self.push((side, i), pointer, change, values, at);
    }

    /// A difference, shown first by the leaf at `key` (side, position).
    fn push(
        &mut self,
        key: (u8, usize),
        pointer: String,
        change: Change,
        [old, new]: [Option<Value>; 2],
        [old_at, new_at]: [Origin; 2],
    ) {
        let d = Difference {
            pointer,
            change,
            old,
            new,
            old_at,
            new_at,
        };
        self.out.push((key, d));
    }
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
        let d = compare(1, Some(&a), Some(&b), &Options::default());
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
        assert!(compare(1, Some(&a), Some(&b), &ignored).is_equal());
    }

    /// A pointer only one side has is shown as the tree below it, an array with its items
    /// (a snapshot's hand-written `[1, 2]` as well as `[]` and the items that follow it).
    #[test]
    fn a_tree_one_side_has_is_shown_whole() {
        let a = run("a", &[("/outcome", json!("success"), 2)]);
        let b = run(
            "b",
            &[
                ("/outcome", json!("success"), 2),
                ("/state/list", json!([]), 3),
                ("/state/list/0", json!({}), 3),
                ("/state/list/1/k", json!("v"), 4),
                ("/state/more", json!([1, 2]), 5),
                ("/state/a~1b", json!(null), 6),
            ],
        );
        let d = compare(1, Some(&a), Some(&b), &Options::default());
        assert_eq!(d.differences.len(), 1);
        let want = json!({"list": [{}, {"k": "v"}], "more": [1, 2], "a/b": null});
        assert_eq!(d.differences[0].new, Some(want));
        assert_eq!(
            (
                d.differences[0].pointer.as_str(),
                d.differences[0].new_at.line
            ),
            ("/state", 3)
        );
    }

    #[test]
    fn a_value_become_a_tree_is_one_change() {
        let a = run("a", &[("/state/x", json!("s"), 2)]);
        let b = run(
            "b",
            &[("/state/x/y", json!(1), 3), ("/state/x/z", json!(2), 3)],
        );
        let d = compare(1, Some(&a), Some(&b), &Options::default());
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
        assert!(compare(1, Some(&a), Some(&b), &opts).is_equal());
        assert!(!compare(1, Some(&a), Some(&c), &opts).is_equal());
        assert!(!compare(1, Some(&a), Some(&b), &Options::default()).is_equal());
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
        assert!(compare(1, Some(&a), Some(&b), &opts).is_equal());
        assert!(compare(1, Some(&b), Some(&a), &opts).is_equal());
        assert!(!compare(1, Some(&b), Some(&c), &opts).is_equal());
        assert!(!compare(1, Some(&a), Some(&b), &Options::default()).is_equal());
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
        let d = compare(1, Some(&a), Some(&b), &Options::default());
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
        let r = compare(1, Some(&b), Some(&a), &Options::default());
        assert_eq!(r.differences.len(), 2);
        assert_eq!(r.differences[0].pointer, "/steps/1");
        assert_eq!(r.differences[0].change, Change::Removed);
    }
}
