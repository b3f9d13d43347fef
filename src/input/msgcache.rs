//! A parse thread's cache of state messages: exact JSON text → parsed, normalized `Value`.
//!
//! A run's state snapshots repeat its message list: each root v3 `values` event carries every
//! message so far, most of them in the previous snapshot byte for byte. Building their `Value`
//! trees again (a SipHash and a `String` per key) and normalizing them
//! ([`lc::normalize_owned`]) was the largest item on the parse thread. [`read_state`] reads a
//! state object whose first key is `messages` straight from the line's text
//! ([`crate::input::fast::v3`] finds it and checks it is `params.data`): at each message, the
//! cached texts that share a hash of its first [`PREFIX`] bytes are compared with the text
//! there; one that the text starts with is the message (an object's or list's text ends where
//! it closes), and its value is handed out shared ([`Msg::Cached`]), without reading the
//! message at all: the consumer copies it (a map's clone copies the stored key hashes: no
//! SipHash), for a v3 state the main thread, when it takes the state's events. Otherwise
//! the message is read from there (a `StreamDeserializer`, which tells where it ends) and
//! stored: [`Kind::Normalized`] ones straight into their normalized form where their shape
//! allows ([`super::normread`]), else parsed and normalized. The state's other keys are parsed as a `Value` object.
//!
//! Why a hit changes nothing observable:
//!
//! - a hit is the exact text (the hash only picks the candidates, which are compared in
//!   full), and parsing is a pure function of the text: the clone equals what parsing it
//!   again would give, numbers and strings alike;
//! - normalizing a list element depends on the element alone ([`lc::normalize_owned`]
//!   normalizes an array's items one by one, whatever holds the array); the state holding the
//!   list is then normalized without them ([`lc::normalize_state_owned`]);
//! - nesting: read apart, a value could be nested deeper than serde_json's recursion limit
//!   allows inside its line; each entry keeps its depth (or a bound: a text of n bytes nests at
//!   most n / 2 levels), and a value too deep for where it is gives up;
//! - the text between the messages (whitespace, commas, the closing bracket and brace) is
//!   checked as a parser would; anything unusual (a message that is not an object or list, a
//!   state key that repeats `messages`, serde_json's raw-value key) gives up, and the line is
//!   then read as before;
//! - ids derived from input hash the line's text, which is not touched.
//!
//! Memory stays bounded by about the messages of one state: every state read starts a
//! generation ([`MsgCache::snapshot`]), an entry is stamped with the generation that last hit
//! or inserted it, and every [`KEEP`] generations the entries unused in the last [`KEEP`] are
//! dropped. At most [`MAX_BYTES`] of message text is held (beyond it, misses are parsed and
//! not stored), at most [`BUCKET`] entries share a hash of their first bytes (the least
//! recently used goes), and messages shorter than [`PREFIX`] are parsed, not cached.
//!
//! Each parsing thread has its own cache (a thread local: no locking).
//!
//! v2 root chain events ([`super::prune`]: the `input` state of a root `on_chain_start`, the
//! `output` state of a root `on_chain_end`) go through a second cache of each thread, of
//! [`Kind::Parsed`] messages: the v2 adapter normalizes on the main thread, so these are kept
//! as parsed (never mixed with the normalized ones). A hit there saves only the parse, and in
//! short runs most messages are seen once or twice: a parsed message is stored on its second
//! sight (its text only on the first), so that a message seen once costs a copy of its text,
//! not a copy of its value. The root's `on_chain_stream` chunk is not cached: it is pruned
//! (`Calls`) and costs little.

use foldhash::fast::RandomState as IdBuildHasher;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::{canon, normread};
use crate::adapter::lc;
use crate::model::SharedJson;

/// Generations an unused entry survives (interleaved runs alternate their snapshots).
pub const KEEP: u64 = 4;
/// The most message text held: thousands of ordinary messages; two tool results of a megabyte
/// (4 MiB kept two more alive beside those the states in flight hold: 33 MiB peak on a v2 log
/// of them, 27 with 2 MiB, the same time).
pub const MAX_BYTES: usize = 2 << 20;
/// Only messages this long or longer are cached, found by a hash of their first bytes (a
/// shorter one costs little to parse).
pub const PREFIX: usize = 128;
/// The most entries sharing a hash of their first bytes (a lookup compares them all).
pub const BUCKET: usize = 32;
/// serde_json's nesting limit: a value nested this deep fails to parse.
pub(crate) const MAX_DEPTH: usize = 128;

/// What is cached of a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Parsed and normalized ([`lc::normalize_owned`]): v3 root `values` states.
    Normalized,
    /// Parsed: v2 root chain data.
    Parsed,
}

struct Entry {
    held: Held,
    /// The value's nesting depth (a scalar's is 0).
    depth: usize,
    /// The generation that last hit or inserted it.
    used: u64,
}

/// A message's text and value, as an entry holds them. A value is shared: a hit hands it out
/// as it is ([`Msg::Cached`]).
enum Held {
    /// A [`Kind::Parsed`] message seen once (its value stored on its second sight).
    Seen(Box<str>),
    Value(Box<str>, Arc<SharedJson>),
    /// A value made from the message's own text ([`SharedJson::from_text`]): that text,
    /// held once (a state of messages of a megabyte held each twice).
    OwnText(Arc<SharedJson>),
}

impl Entry {
    fn text(&self) -> &str {
        match &self.held {
            Held::Seen(t) | Held::Value(t, _) => t,
            Held::OwnText(v) => v.json(),
        }
    }

    fn value(&self) -> Option<&Arc<SharedJson>> {
        match &self.held {
            Held::Seen(_) => None,
            Held::Value(_, v) | Held::OwnText(v) => Some(v),
        }
    }
}

/// A message [`MsgCache::take`] read: parsed there, or a hit, still the cache's. A hit's copy
/// is made by [`Msg::into_value`] on the thread that consumes the state: for a v3 root state
/// ([`take_state_parts`]), the main thread, which had less to do than the parse thread.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    Parsed(Value),
    /// Read here and stored: the value the cache holds, shared.
    Stored(Arc<SharedJson>),
    /// A hit.
    Cached(Arc<SharedJson>),
}

impl Msg {
    /// The message's value (a shared one copied, unless the cache has let it go meanwhile).
    pub fn into_value(self) -> Value {
        match self {
            Msg::Parsed(v) => v,
            Msg::Stored(a) | Msg::Cached(a) => SharedJson::into_value(a),
        }
    }

    /// The message shared (its JSON text made once, wherever it is written).
    pub fn into_shared(self) -> Arc<SharedJson> {
        match self {
            Msg::Parsed(v) => Arc::new(SharedJson::new(v)),
            Msg::Stored(a) | Msg::Cached(a) => a,
        }
    }
}

/// A cache of one [`Kind`].
pub struct MsgCache {
    kind: Kind,
    map: HashMap<u64, Vec<Entry>, IdBuildHasher>,
    gen: u64,
    bytes: usize,
    hash: fn(&[u8]) -> u64,
}

impl MsgCache {
    pub fn new(kind: Kind) -> Self {
        Self::with_hash(kind, crate::input::text_hash)
    }

    /// A cache with another hash function (tests force collisions).
    pub fn with_hash(kind: Kind, hash: fn(&[u8]) -> u64) -> Self {
        MsgCache {
            kind,
            map: HashMap::default(),
            gen: 0,
            bytes: 0,
            hash,
        }
    }

    /// Starts a state: a new generation. Every [`KEEP`] generations, entries unused for
    /// [`KEEP`] generations are dropped (a sweep walks the whole map: not at every state).
    pub fn snapshot(&mut self) {
        self.gen += 1;
        if self.gen % KEEP != 0 {
            return;
        }
        let (gen, bytes) = (self.gen, &mut self.bytes);
        self.map.retain(|_, entries| {
            entries.retain(|e| {
                let keep = e.used + KEEP > gen;
                if !keep {
                    *bytes -= e.text().len();
                }
                keep
            });
            !entries.is_empty()
        });
    }

    /// Entries held.
    pub fn entries(&self) -> usize {
        self.map.values().map(Vec::len).sum()
    }

    /// Message text held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The value (parsed, and normalized for [`Kind::Normalized`]) of the JSON object or
    /// list `rest` starts with, and its length in bytes; `None` when `rest` does not start
    /// with one, or it is nested more than `max_depth` levels deep. A [`Kind::Parsed`]
    /// message's value is stored on its second sight. A hit is the cache's value, shared.
    pub fn take(&mut self, rest: &str, max_depth: usize) -> Option<(Msg, usize)> {
        let b = rest.as_bytes();
        if !matches!(b.first(), Some(b'{' | b'[')) {
            return None;
        }
        let h = (b.len() >= PREFIX).then(|| (self.hash)(&b[..PREFIX]));
        let mut seen = None;
        if let Some(h) = h {
            // An object's or a list's text ends where it closes: a cached text that `rest`
            // starts with is the value there.
            if let Some(e) = self
                .map
                .get_mut(&h)
                .and_then(|es| es.iter_mut().find(|e| b.starts_with(e.text().as_bytes())))
            {
                e.used = self.gen;
                match e.value() {
                    Some(v) => {
                        return (e.depth <= max_depth)
                            .then(|| (Msg::Cached(Arc::clone(v)), e.text().len()))
                    }
                    None => seen = Some(e),
                }
            }
        }
        if let Some(e) = seen {
            // Seen once: parsed, and stored now.
            let Held::Seen(text) = &mut e.held else {
                return None;
            };
            let parsed: Value = serde_json::from_str(text).ok()?;
            let (len, depth) = (text.len(), depth_of(&parsed, text.len()));
            let text = std::mem::take(text);
            e.depth = depth;
            e.held = Held::Value(text, Arc::new(SharedJson::new(parsed.clone())));
            return (depth <= max_depth).then_some((Msg::Parsed(parsed), len));
        }
        if self.kind == Kind::Normalized {
            // A plain message whose text is the encoder's own: kept as text, not parsed
            // here ([`canon`]).
            if let Some((len, depth)) = canon::plain_value(b) {
                return self.store_text(h, rest, len, depth, max_depth, &rest[..len]);
            }
            // A constructor of plain kwargs: its normalized text written from its text.
            if let Some((flat, len, depth)) = canon::plain_constructor(rest) {
                debug_assert_eq!(
                    normread::read(rest).map(|(v, n, d)| (v, n, bounded_depth(d, n))),
                    serde_json::from_str(&flat)
                        .ok()
                        .map(|v| (v, len, bounded_depth(depth, len))),
                    "{rest}"
                );
                return self.store_text(h, rest, len, depth, max_depth, flat);
            }
            // Read normalized in one pass, or parsed and normalized when it is of a shape
            // that reader leaves alone: the same value ([`normread`]).
            let (value, len, depth) = match normread::read(rest) {
                Some((value, len, depth)) => (value, len, bounded_depth(depth, len)),
                None => {
                    let mut values = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
                    let parsed = values.next()?.ok()?;
                    let len = values.byte_offset();
                    let depth = depth_of(&parsed, len);
                    (lc::normalize_owned(parsed), len, depth)
                }
            };
            if depth > max_depth {
                return None;
            }
            if let Some(h) = h.filter(|_| len >= PREFIX && self.bytes + len <= MAX_BYTES) {
                let shared = Arc::new(SharedJson::new(value));
                let held = Held::Value(rest[..len].into(), Arc::clone(&shared));
                self.insert(h, held, depth);
                return Some((Msg::Stored(shared), len));
            }
            return Some((Msg::Parsed(value), len));
        }
        let mut values = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
        let parsed = values.next()?.ok()?;
        let len = values.byte_offset();
        // A parsed message is stored on its second sight (most are seen once in short runs:
        // a copy of the value would cost more than parsing it again): its text now.
        if let Some(h) = h.filter(|_| len >= PREFIX && self.bytes + len <= MAX_BYTES) {
            self.insert(h, Held::Seen(rest[..len].into()), 0);
        }
        // Nested as deep as the text allows: the line is read with it apart from it.
        let depth = depth_of(&parsed, len);
        (depth <= max_depth).then_some((Msg::Parsed(parsed), len))
    }

    /// A message of `len` bytes at the start of `rest` (nested `depth` levels as parsed),
    /// kept as `text`, its output's ([`SharedJson::from_text`]): stored when it is long
    /// enough and there is room. `None` when nested deeper than `max_depth` allows.
    fn store_text(
        &mut self,
        h: Option<u64>,
        rest: &str,
        len: usize,
        depth: usize,
        max_depth: usize,
        text: impl Into<Box<str>>,
    ) -> Option<(Msg, usize)> {
        let depth = bounded_depth(depth, len);
        if depth > max_depth {
            return None;
        }
        let text: Box<str> = text.into();
        let own = *text == rest[..len];
        let shared = Arc::new(SharedJson::from_text(text));
        if let Some(h) = h.filter(|_| len >= PREFIX && self.bytes + len <= MAX_BYTES) {
            let held = match own {
                true => Held::OwnText(Arc::clone(&shared)),
                false => Held::Value(rest[..len].into(), Arc::clone(&shared)),
            };
            self.insert(h, held, depth);
        }
        Some((Msg::Stored(shared), len))
    }

    /// Stores a message's text (and value) under the hash of its first bytes.
    fn insert(&mut self, h: u64, held: Held, depth: usize) {
        let bucket = self.map.entry(h).or_default();
        if bucket.len() >= BUCKET {
            // The least recently used goes.
            if let Some((i, _)) = bucket.iter().enumerate().min_by_key(|(_, e)| e.used) {
                self.bytes -= bucket.swap_remove(i).text().len();
            }
        }
        let entry = Entry {
            held,
            depth,
            used: self.gen,
        };
        self.bytes += entry.text().len();
        bucket.push(entry);
    }
}

/// The nesting depth of a value parsed from a text of `len` bytes, or a bound of it: a text
/// of n bytes nests at most n / 2 levels; a short text's bound is kept (below any
/// `max_depth` of the callers), a longer one's depth is counted.
fn depth_of(v: &Value, len: usize) -> usize {
    match len / 2 {
        bound @ 0..64 => bound,
        _ => depth(v, MAX_DEPTH),
    }
}

/// [`depth_of`] from a value's counted depth (as parsed) and its text's length.
fn bounded_depth(depth: usize, len: usize) -> usize {
    match len / 2 {
        bound @ 0..64 => bound,
        _ => depth.min(MAX_DEPTH),
    }
}

/// A value's nesting depth (containers), counted up to `limit`.
pub(crate) fn depth(v: &Value, limit: usize) -> usize {
    if limit == 0 {
        return 0;
    }
    match v {
        Value::Array(a) => 1 + a.iter().map(|c| depth(c, limit - 1)).max().unwrap_or(0),
        Value::Object(m) => 1 + m.values().map(|c| depth(c, limit - 1)).max().unwrap_or(0),
        _ => 0,
    }
}

thread_local! {
    static NORMALIZED: RefCell<MsgCache> = RefCell::new(MsgCache::new(Kind::Normalized));
    static PARSED: RefCell<MsgCache> = RefCell::new(MsgCache::new(Kind::Parsed));
}

/// JSON whitespace from `at` on skipped.
fn skip_ws(b: &[u8], mut at: usize) -> usize {
    while matches!(b.get(at), Some(b' ' | b'\n' | b'\t' | b'\r')) {
        at += 1;
    }
    at
}

/// The state object at byte `at` of the line `text` (at nesting level `level`), read as
/// [`read_state`] reads it, and the line with `0` in its place: the caller parses that line
/// and checks that the `0` stands where the state was (by address).
pub fn take_state(kind: Kind, text: &str, at: usize, level: usize) -> Option<(Value, String)> {
    let (others, messages, line) = take_state_parts(kind, text, at, level)?;
    Some((with_messages(others, messages), line))
}

/// [`take_state`], the state in its parts ([`read_state_parts`]).
pub fn take_state_parts(
    kind: Kind,
    text: &str,
    at: usize,
    level: usize,
) -> Option<(Map<String, Value>, Vec<Msg>, String)> {
    let (others, messages, len) = read_state_parts(kind, &text[at..], level)?;
    let mut line = String::with_capacity(text.len() - len + 1);
    line.push_str(&text[..at]);
    line.push('0');
    line.push_str(&text[at + len..]);
    Some((others, messages, line))
}

/// The state of [`read_state_parts`]' parts: `messages` first, then the other keys.
pub fn with_messages(others: Map<String, Value>, messages: Vec<Msg>) -> Value {
    // Put in place with `shift_insert`, as normalizing does: a new caller of `insert`
    // changed how the compiler inlined `Value` parsing elsewhere.
    let mut state = others;
    let messages = messages.into_iter().map(Msg::into_value).collect();
    state.shift_insert(0, "messages".into(), Value::Array(messages));
    Value::Object(state)
}

/// The state object `text` starts with, when its first key is `messages` (`{"messages":[`):
/// the state as a `Value` parse gives it but its `messages` read through this thread's cache
/// of `kind` (one snapshot; [`Kind::Normalized`]: normalized one by one, [`Kind::Parsed`]: as
/// parsing gives them), and the length of its text. The object is at nesting level `level` of
/// its line. `None` (the caller gives up) unless the messages are objects or lists, the text
/// up to the state's end is valid JSON, and nothing is nested deeper than the line allows.
pub fn read_state(kind: Kind, text: &str, level: usize) -> Option<(Value, usize)> {
    let (others, messages, len) = read_state_parts(kind, text, level)?;
    Some((with_messages(others, messages), len))
}

/// [`read_state`] in parts: the state's keys but `messages`, its messages (hits still the
/// cache's), and the length of its text.
pub fn read_state_parts(
    kind: Kind,
    text: &str,
    level: usize,
) -> Option<(Map<String, Value>, Vec<Msg>, usize)> {
    const HEAD: &[u8] = br#"{"messages":["#;
    let b = text.as_bytes();
    if !b.starts_with(HEAD) {
        return None;
    }
    let mut messages = vec![];
    let mut at = skip_ws(b, HEAD.len());
    let cache = match kind {
        Kind::Normalized => &NORMALIZED,
        Kind::Parsed => &PARSED,
    };
    cache.with_borrow_mut(|cache| {
        cache.snapshot();
        if b.get(at) == Some(&b']') {
            at += 1;
            return Some(());
        }
        // The messages are at level `level + 2`.
        let max_depth = (MAX_DEPTH - 1).checked_sub(level + 1)?;
        loop {
            let (v, n) = cache.take(&text[at..], max_depth)?;
            messages.push(v);
            at = skip_ws(b, at + n);
            match b.get(at)? {
                b',' => at = skip_ws(b, at + 1),
                b']' => {
                    at += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    })?;
    at = skip_ws(b, at);
    match b.get(at)? {
        b'}' => Some((Map::new(), messages, at + 1)),
        // A key after the comma (the object read next could be empty).
        b',' if b.get(skip_ws(b, at + 1)) == Some(&b'"') => {
            // The other keys: the rest read as an object of its own (`{` in the comma's
            // place), then checked as the state's entries.
            let rest = format!("{{{}", &text[at + 1..]);
            let mut values = serde_json::Deserializer::from_str(&rest).into_iter::<Value>();
            let Value::Object(others) = values.next()?.ok()? else {
                return None;
            };
            let end = at + values.byte_offset();
            // `Value`'s own visitor reads this first key as a raw value's; a second
            // `messages` would replace the first.
            if others.keys().next().is_some_and(|k| k == RAW_VALUE_TOKEN)
                || others.contains_key("messages")
                || others
                    .values()
                    .any(|v| depth(v, MAX_DEPTH) + level > MAX_DEPTH - 1)
            {
                return None;
            }
            Some((others, messages, end))
        }
        _ => None,
    }
}

/// serde_json's raw-value key: `Value`'s visitor reads an object with it first as a raw value.
pub(crate) const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;

    /// `m` (an object or a list) made at least [`PREFIX`] bytes long.
    fn long(m: &str) -> String {
        let pad = "p".repeat(PREFIX);
        match m.trim_start().as_bytes() {
            [b'{', b'}'] => format!(r#"{{"pad":"{pad}"}}"#),
            [b'[', b']'] => format!(r#"["{pad}"]"#),
            [b'{', ..] => format!(r#"{},"pad":"{pad}"}}"#, &m[..m.len() - 1]),
            _ => format!(r#"{},"{pad}"]"#, &m[..m.len() - 1]),
        }
    }

    /// Messages (objects and lists) of every kind normalizing meets, and odd JSON.
    pub(crate) fn messages() -> Vec<String> {
        let mut out: Vec<String> = crate::adapter::lc::tests::odd_values()
            .iter()
            .map(Value::to_string)
            .filter(|m| m.starts_with(['{', '[']))
            .collect();
        out.extend(
            [
                r#"{"type":"human","content":"caf\u00e9 \ud83d\ude00 \"q\" \n","id":"h1"}"#,
                r#"{"type":"ai","content":"x","usage":{"a":1.5,"b":1e300,"c":-0.0,"d":12345678901234567890,"e":0.1,"f":1E-7,"g":-3,"h":2.50}}"#,
                r#"{"__lc_escaped__":{"lc":1,"type":"constructor","id":["a","AIMessage"],"kwargs":{"content":"e"}}}"#,
                r#"{"__lc_escaped__":{"__lc_escaped__":{"lc":1,"type":"constructor","id":["a","B"],"kwargs":{}}}}"#,
                r#"{"lc":1,"type":"constructor","id":["langchain_core","messages","ToolMessage"],"kwargs":{"content":"r","tool_call_id":"c"}}"#,
                r#"{"a" : [ 1 , 2.50 ] , "b":{ }}"#,
                r#"{"k":1,"k":2}"#,
            ]
            .map(String::from),
        );
        let long: Vec<String> = out.iter().map(|m| long(m)).collect();
        out.extend(long);
        out
    }

    fn distinct_long(ms: &[String]) -> usize {
        let set: std::collections::HashSet<&str> = ms
            .iter()
            .map(String::as_str)
            .filter(|m| m.len() >= PREFIX)
            .collect();
        set.len()
    }

    pub(crate) fn fresh(kind: Kind, text: &str) -> Value {
        let v: Value = serde_json::from_str(text).expect("json");
        match kind {
            Kind::Normalized => lc::normalize_owned(v),
            Kind::Parsed => v,
        }
    }

    #[test]
    fn a_hit_is_a_fresh_parse() {
        for kind in [Kind::Normalized, Kind::Parsed] {
            let mut c = MsgCache::new(kind);
            let mut sights = HashMap::new();
            for round in 0..3 {
                c.snapshot();
                for m in messages() {
                    for after in ["", ",", "]", " ,1]", "}x"] {
                        let (got, n) = c.take(&format!("{m}{after}"), 100).expect("parses");
                        // A long message is stored on its first sight (normalized) or its
                        // second (parsed), then shared.
                        let seen = sights.entry(m.clone()).or_insert(0usize);
                        let stored_after = if kind == Kind::Normalized { 1 } else { 2 };
                        let hit = m.len() >= PREFIX && *seen >= stored_after;
                        *seen += 1;
                        assert_eq!(matches!(got, Msg::Cached(_)), hit, "{kind:?} {round}: {m}");
                        let got = got.into_value();
                        let want = fresh(kind, &m);
                        assert_eq!(n, m.len(), "{m}");
                        assert_eq!(got, want, "{kind:?} round {round}: {m}");
                        // Same text out: numbers and strings alike.
                        assert_eq!(got.to_string(), want.to_string(), "{m}");
                    }
                }
            }
            assert_eq!(c.entries(), distinct_long(&messages()));
            assert!(c.entries() > 20);
        }
        let mut c = MsgCache::new(Kind::Parsed);
        let num = "1".repeat(2 * PREFIX);
        for t in [
            &num,
            "\"s\"",
            "null",
            "",
            " {}",
            "{",
            &long("{\"a\":1}")[..PREFIX + 4],
        ] {
            assert!(c.take(t, 100).is_none(), "{t}");
        }
    }

    #[test]
    fn colliding_hashes_compare_the_texts() {
        for kind in [Kind::Normalized, Kind::Parsed] {
            let mut c = MsgCache::with_hash(kind, |_| 7);
            let ms = messages();
            for round in 0..3 {
                c.snapshot();
                for m in ms.iter().chain(ms.iter().rev()) {
                    let (v, n) = c.take(m, 100).expect("parses");
                    assert_eq!(
                        (v.into_value(), n),
                        (fresh(kind, m), m.len()),
                        "{round}: {m}"
                    );
                }
            }
            assert_eq!(
                (c.map.len(), c.entries()),
                (1, distinct_long(&ms).min(BUCKET))
            );
        }
    }

    #[test]
    fn parsed_messages_are_stored_on_their_second_sight() {
        let mut c = MsgCache::new(Kind::Parsed);
        let m = long(r#"{"type":"ai","content":"x","n":2.50}"#);
        for sight in 0..4 {
            c.snapshot();
            let (v, n) = c.take(&m, 100).expect("parses");
            assert_eq!((v.into_value(), n), (fresh(Kind::Parsed, &m), m.len()));
            let stored = c.map.values().flatten().all(|e| e.value().is_some());
            assert_eq!((c.entries(), stored), (1, sight > 0), "{sight}");
        }
    }

    #[test]
    fn a_plain_message_is_held_once() {
        // The encoder's own text: the value is made from it and the entry holds that text.
        let m = long(r#"{"type":"human","content":"hi \"there\"","id":"h1"}"#);
        let rest = format!("{m}, {{\"type\":\"ai\"}}]");
        let mut c = MsgCache::new(Kind::Normalized);
        for sight in 0..3 {
            c.snapshot();
            let (v, n) = c.take(&rest, 100).expect("parses");
            assert_eq!(n, m.len());
            assert_eq!(v.clone().into_value(), fresh(Kind::Normalized, &m));
            assert_eq!(matches!(v, Msg::Cached(_)), sight > 0, "{sight}");
            let entries: Vec<_> = c.map.values().flatten().collect();
            assert!(matches!(
                entries[..],
                [Entry {
                    held: Held::OwnText(_),
                    ..
                }]
            ));
            assert_eq!((entries[0].text(), c.bytes()), (&m[..], m.len()));
        }
    }

    #[test]
    fn eviction_bounds_the_size() {
        let mut c = MsgCache::new(Kind::Parsed);
        let pad = "x".repeat(PREFIX);
        // A growing conversation: each snapshot repeats the last 10 messages and adds one.
        for n in 0..200u64 {
            c.snapshot();
            for i in n.saturating_sub(10)..=n {
                let m = json!({"type":"ai","content":format!("m{i}{pad}"),"id":i}).to_string();
                c.take(&m, 100).expect("parses");
            }
            assert!(c.entries() <= 11 + 2 * KEEP as usize, "{}", c.entries());
        }
        // Unused entries leave after KEEP to 2 * KEEP snapshots.
        for _ in 0..2 * KEEP {
            c.snapshot();
        }
        assert_eq!((c.entries(), c.bytes()), (0, 0));
        // The text held is capped.
        c.snapshot();
        let big = "x".repeat(MAX_BYTES / 4 - 16);
        for i in 0..5 {
            let m = format!("[\"{big}{i}\"] ");
            assert!(c.take(&m, 100).is_some());
        }
        assert!(
            c.bytes() <= MAX_BYTES && c.entries() == 4,
            "{}",
            c.entries()
        );
    }

    #[test]
    fn too_deep_gives_up() {
        let deep = format!("{}1{}", "[".repeat(100), "]".repeat(100));
        for _ in 0..2 {
            let mut c = MsgCache::new(Kind::Parsed);
            c.snapshot();
            assert!(c.take(&deep, 100).is_some());
            assert!(c.take(&deep, 99).is_none());
            assert!(c.take(&deep, 100).is_some());
        }
        let mut c = MsgCache::new(Kind::Parsed);
        assert!(c.take(&deep, 99).is_none());
        assert!(c.take(&deep, 100).is_some());
    }

    /// What `read_state` must give: the state parsed, its messages normalized one by one.
    fn want_state(text: &str) -> Value {
        let mut v: Value = serde_json::from_str(text).expect("json");
        if let Some(Value::Array(ms)) = v.get_mut("messages") {
            for m in ms {
                *m = lc::normalize_owned(std::mem::take(m));
            }
        }
        v
    }

    #[test]
    fn states_read_as_a_parse() {
        let ms = messages();
        let mut states = vec![];
        for n in [0, 1, 3, ms.len()] {
            let list = ms[..n].join(" ,\n");
            states.push(format!(r#"{{"messages":[{list}]}}"#));
            states.push(format!(
                r#"{{"messages":[ {list} ] ,"x":{{"lc":1}},"x":[2.50],"y":null}}"#
            ));
            states.push(format!(
                r#"{{"messages":[{list}],"y":1,"$serde_json::private::RawValue":1}}"#
            ));
        }
        for _ in 0..2 {
            for s in &states {
                for after in ["", ",\"interrupts\":[]}", "}}"] {
                    let (v, n) =
                        read_state(Kind::Normalized, &format!("{s}{after}"), 3).expect("reads");
                    assert_eq!((&v, n), (&want_state(s), s.len()), "{s}");
                    assert_eq!(v.to_string(), want_state(s).to_string());
                }
            }
        }
        for bad in [
            r#"{"messages":[1]}"#,
            r#"{"messages":[{},]}"#,
            r#"{"messages":[{} {}]}"#,
            r#"{"messages":[{}],"messages":[]}"#,
            r#"{"messages":[{}],}"#,
            r#"{"messages":[{}], }"#,
            r#"{"messages":[{}],,"a":1}"#,
            r#"{"messages":[{}],"a":1"#,
            r#"{"messages":[{}]"#,
            r#"{"messages": [{}]}"#,
            r#"{"x":1,"messages":[{}]}"#,
            r#"{"messages":[{}],"$serde_json::private::RawValue":"1"}"#,
        ] {
            assert!(read_state(Kind::Normalized, bad, 3).is_none(), "{bad}");
        }
        // Nesting: as deep as the line allows at level 3, and no deeper.
        let nest = |d: usize| format!("{}1{}", "[".repeat(d), "]".repeat(d));
        let ok = format!(r#"{{"messages":[{}],"a":{}}}"#, nest(123), nest(124));
        assert!(read_state(Kind::Normalized, &ok, 3).is_some());
        for bad in [
            format!(r#"{{"messages":[{}]}}"#, nest(124)),
            format!(r#"{{"messages":[],"a":{}}}"#, nest(125)),
        ] {
            assert!(read_state(Kind::Normalized, &bad, 3).is_none(), "{bad}");
        }
    }
}
