//! AG-UI 1.0 event vocabulary and small constructors.
//!
//! Events are built as ordered JSON objects (`type` first, then `timestamp`, then the event's
//! own fields) so the SSE sink can write them byte-for-byte as `@ag-ui/encoder` would, with
//! optional fields omitted rather than `null`.

use serde_json::{Map, Value};

/// Declares [`EventType`] and [`EVENT_TYPES`] from one list of names.
macro_rules! event_types {
    ($($variant:ident = $name:literal),* $(,)?) => {
        /// An AG-UI 1.0 event type (`EventType`): the checker tells event types apart by this
        /// instead of comparing their names once per rule family.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum EventType {
            $($variant,)*
        }

        /// Every event type of AG-UI 1.0 (`EventType`, 31 values).
        pub const EVENT_TYPES: [&str; 31] = [$($name,)*];

        impl EventType {
            /// The type named `t`, when it is an AG-UI 1.0 event type.
            #[inline]
            pub fn of(t: &str) -> Option<EventType> {
                Some(match t {
                    $($name => EventType::$variant,)*
                    _ => return None,
                })
            }

            /// The type's name as written on the wire.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(EventType::$variant => $name,)*
                }
            }
        }
    };
}

event_types! {
    TextMessageStart = "TEXT_MESSAGE_START",
    TextMessageContent = "TEXT_MESSAGE_CONTENT",
    TextMessageEnd = "TEXT_MESSAGE_END",
    TextMessageChunk = "TEXT_MESSAGE_CHUNK",
    ToolCallStart = "TOOL_CALL_START",
    ToolCallArgs = "TOOL_CALL_ARGS",
    ToolCallEnd = "TOOL_CALL_END",
    ToolCallChunk = "TOOL_CALL_CHUNK",
    ToolCallResult = "TOOL_CALL_RESULT",
    StateSnapshot = "STATE_SNAPSHOT",
    StateDelta = "STATE_DELTA",
    MessagesSnapshot = "MESSAGES_SNAPSHOT",
    ActivitySnapshot = "ACTIVITY_SNAPSHOT",
    ActivityDelta = "ACTIVITY_DELTA",
    Raw = "RAW",
    Custom = "CUSTOM",
    RunStarted = "RUN_STARTED",
    RunFinished = "RUN_FINISHED",
    RunError = "RUN_ERROR",
    StepStarted = "STEP_STARTED",
    StepFinished = "STEP_FINISHED",
    ReasoningStart = "REASONING_START",
    ReasoningMessageStart = "REASONING_MESSAGE_START",
    ReasoningMessageContent = "REASONING_MESSAGE_CONTENT",
    ReasoningMessageEnd = "REASONING_MESSAGE_END",
    ReasoningMessageChunk = "REASONING_MESSAGE_CHUNK",
    ReasoningEnd = "REASONING_END",
    ReasoningEncryptedValue = "REASONING_ENCRYPTED_VALUE",
    SubagentStarted = "SUBAGENT_STARTED",
    SubagentFinished = "SUBAGENT_FINISHED",
    SubagentError = "SUBAGENT_ERROR",
}

/// The 0.x names TDesign Chat 0.5.2 consumes, for `--compat thinking`.
pub const THINKING_RENAMES: [(&str, &str); 5] = [
    ("REASONING_START", "THINKING_START"),
    ("REASONING_MESSAGE_START", "THINKING_TEXT_MESSAGE_START"),
    ("REASONING_MESSAGE_CONTENT", "THINKING_TEXT_MESSAGE_CONTENT"),
    ("REASONING_MESSAGE_END", "THINKING_TEXT_MESSAGE_END"),
    ("REASONING_END", "THINKING_END"),
];

/// An event under construction. One made by a [`Shape`] knows it until a field is added
/// ([`EventBuilder::build_shaped`]).
pub struct EventBuilder(Map<String, Value>, Option<(&'static Shape, bool)>);

/// The keys of an event kind's fields, as ready maps to clone: cloning copies the hash table
/// and the keys' stored hashes, so filling one in hashes no key (each `insert` into
/// `serde_json`'s ordered map SipHashes its key), and a spare map of an event already
/// written ([`recycle`]) is not even copied. Declare one per call site with [`shape!`].
pub struct Shape {
    /// `type`, `timestamp`, the fields.
    with_ts: Keys,
    /// `type`, the fields.
    without_ts: Keys,
    /// The fields' keys.
    fields: Vec<String>,
    /// Each field's key as written between two values: `,"key":`.
    key_json: Vec<Vec<u8>>,
}

impl Shape {
    pub fn new(fields: &[&str]) -> Shape {
        let keys = |head: &[&str]| Keys::new(&[head, fields].concat());
        Shape {
            with_ts: keys(&["type", "timestamp"]),
            without_ts: keys(&["type"]),
            fields: fields.iter().map(|f| f.to_string()).collect(),
            key_json: fields
                .iter()
                .map(|f| {
                    let mut k = b",".to_vec();
                    crate::sink::encode::write_str(f, &mut k);
                    k.push(b':');
                    k
                })
                .collect(),
        }
    }

    /// The fields' keys, in order (`type` and `timestamp` not among them).
    pub fn fields(&self) -> &[String] {
        &self.fields
    }

    /// Field `i`'s key as the encoder writes it after a value: `,"key":`.
    pub fn key_json(&self, i: usize) -> &[u8] {
        &self.key_json[i]
    }

    /// An event of this shape: `type`, `timestamp` when given, then `values` in field order.
    #[inline]
    pub fn event<const N: usize>(
        &'static self,
        kind: &str,
        timestamp: Option<i64>,
        values: [Value; N],
    ) -> EventBuilder {
        self.filled(kind, timestamp, values, |slot, v| *slot = v)
    }

    /// [`Shape::event`] of string fields: a spare event's strings ([`recycle`]) are written
    /// over, not allocated anew.
    #[inline]
    pub fn event_strs<const N: usize>(
        &'static self,
        kind: &str,
        timestamp: Option<i64>,
        values: [&str; N],
    ) -> EventBuilder {
        self.filled(kind, timestamp, values, set_str)
    }

    /// An event of this shape with its fields set by `set`, one value each, in field order.
    #[inline]
    fn filled<T, const N: usize>(
        &'static self,
        kind: &str,
        timestamp: Option<i64>,
        values: [T; N],
        set: impl Fn(&mut Value, T),
    ) -> EventBuilder {
        let mut m = self.map(timestamp, N);
        let mut slots = m.values_mut();
        if let Some(t) = slots.next() {
            set_str(t, kind);
        }
        if let Some(ts) = timestamp {
            if let Some(t) = slots.next() {
                *t = Value::Number(ts.into());
            }
        }
        for (slot, v) in slots.zip(values) {
            set(slot, v);
        }
        EventBuilder(m, Some((self, timestamp.is_some())))
    }

    /// A map of this shape's keys, values to be written over: a spare one of the same keys
    /// when [`recycle`] kept one, else a copy of the template.
    #[inline]
    fn map(&self, timestamp: Option<i64>, fields: usize) -> Map<String, Value> {
        let keys = match timestamp {
            Some(_) => &self.with_ts,
            None => &self.without_ts,
        };
        debug_assert_eq!(keys.0.len(), 1 + usize::from(timestamp.is_some()) + fields);
        SPARE
            .with_borrow_mut(|spare| spare.take(keys))
            .unwrap_or_else(|| keys.0.clone())
    }
}

/// `slot` set to the string `v`, in the string already there when it is one.
#[inline]
fn set_str(slot: &mut Value, v: &str) {
    match slot {
        Value::String(s) => {
            s.clear();
            s.push_str(v);
        }
        _ => *slot = Value::String(v.to_string()),
    }
}

/// Events handed back after use ([`recycle`]), for [`Shape`] to fill in again: the mapper
/// makes the same few kinds of event over and over (a `*_CONTENT` per token), and a spare
/// map of the same keys saves copying the template's table and keys, and freeing them.
/// Each map is kept with the address of the template it was made from ([`Layout`]), so
/// finding one is comparing addresses, not keys; a map of no known template is not kept.
struct Spare(Vec<(usize, Map<String, Value>)>);

impl Spare {
    /// Maps kept (per thread): a run makes a few dozen kinds of event.
    const MAX: usize = 32;
    /// A string value longer than this is not kept in a spare map.
    const MAX_STR: usize = 256;

    /// A spare map whose keys are `keys`' keys, in order.
    fn take(&mut self, keys: &Keys) -> Option<Map<String, Value>> {
        let tag = keys.addr();
        // The most recent first: a kind of event tends to follow itself (`*_CONTENT`).
        let at = self.0.iter().rposition(|(t, _)| *t == tag)?;
        let (_, m) = self.0.swap_remove(at);
        debug_assert!(m.keys().eq(keys.0.keys()), "a spare map of other keys");
        Some(m)
    }

    fn put(&mut self, tag: usize, mut m: Map<String, Value>) {
        if m.len() > EventBuilder::CAPACITY {
            return;
        }
        // Small strings stay, to be written over; anything else is let go now.
        for v in m.values_mut() {
            if !matches!(v, Value::String(s) if s.capacity() <= Self::MAX_STR) {
                *v = Value::Null;
            }
        }
        if self.0.len() == Self::MAX {
            self.0.remove(0);
        }
        self.0.push((tag, m));
    }
}

thread_local! {
    static SPARE: std::cell::RefCell<Spare> = const { std::cell::RefCell::new(Spare(Vec::new())) };
}

/// Hands an event back once it has been written: one made from a [`Shape`]'s template and
/// untouched since ([`EventBuilder::build_laid_out`] gave its `layout`) is kept for the
/// shape to reuse its map (see [`Spare`]); anything else is dropped.
pub fn recycle(ev: Value, layout: Option<Layout>) {
    if let (Value::Object(m), Some(layout)) = (ev, layout) {
        SPARE.with_borrow_mut(|spare| spare.put(layout.0, m));
    }
}

/// Which template an event's map was made from, for [`recycle_as`].
#[derive(Clone, Copy)]
pub struct Layout(usize);

/// The keys of a plain object (no `type`/`timestamp` added), as a ready map to clone: see
/// [`Shape`]. Declare one per call site with [`keys!`].
pub struct Keys(Map<String, Value>);

impl Keys {
    /// This template's address (a `Shape`'s templates live as long as the program).
    fn addr(&self) -> usize {
        std::ptr::from_ref(self) as usize
    }

    pub fn new(keys: &[&str]) -> Keys {
        // Exactly these keys: a smaller table to copy (a field added after them with
        // `EventBuilder::val` may grow it).
        let mut m = Map::with_capacity(keys.len());
        for k in keys {
            let old = m.insert((*k).into(), Value::Null);
            assert!(old.is_none(), "duplicate key {k}");
        }
        Keys(m)
    }

    /// An object of these keys and `values`, in order.
    #[inline]
    pub fn object<const N: usize>(&self, values: [Value; N]) -> Value {
        debug_assert_eq!(N, self.0.len(), "one value per key");
        let mut m = self.0.clone();
        for (slot, v) in m.values_mut().zip(values) {
            *slot = v;
        }
        Value::Object(m)
    }
}

/// A `&'static Keys` for these keys, built once (see [`Keys`]).
#[macro_export]
macro_rules! keys {
    ($($k:literal),+ $(,)?) => {{
        static KEYS: ::std::sync::LazyLock<$crate::agui::Keys> =
            ::std::sync::LazyLock::new(|| $crate::agui::Keys::new(&[$($k),+]));
        &*KEYS
    }};
}

/// A `&'static Shape` for these field keys, built once (see [`Shape`]).
#[macro_export]
macro_rules! shape {
    ($($k:literal),+ $(,)?) => {{
        static SHAPE: ::std::sync::LazyLock<$crate::agui::Shape> =
            ::std::sync::LazyLock::new(|| $crate::agui::Shape::new(&[$($k),+]));
        &*SHAPE
    }};
}

impl EventBuilder {
    /// `type`, `timestamp` and up to five fields (RUN_FINISHED, TOOL_CALL_RESULT) fit in the
    /// same hash table (8 buckets) as four would.
    const CAPACITY: usize = 7;

    pub fn new(kind: &str, timestamp: Option<i64>) -> Self {
        // Room for every field an event of the mapper has, so inserting never regrows the map.
        let mut m = Map::with_capacity(Self::CAPACITY);
        m.insert("type".into(), Value::String(kind.to_string()));
        if let Some(ts) = timestamp {
            m.insert("timestamp".into(), Value::Number(ts.into()));
        }
        EventBuilder(m, None)
    }

    pub fn str(mut self, key: &str, v: impl Into<String>) -> Self {
        self.0.insert(key.into(), Value::String(v.into()));
        self.1 = None;
        self
    }

    pub fn opt_str(self, key: &str, v: Option<impl Into<String>>) -> Self {
        match v {
            Some(v) => self.str(key, v),
            None => self,
        }
    }

    pub fn val(mut self, key: &str, v: Value) -> Self {
        self.0.insert(key.into(), v);
        self.1 = None;
        self
    }

    pub fn build(self) -> Value {
        Value::Object(self.0)
    }

    /// The event, and its [`Shape`] when it was made by one with a string in every field
    /// (`type` and `timestamp` aside) and nothing added since: a [`StrShaped`] event.
    pub fn build_shaped(self) -> (Value, Option<StrShaped>) {
        let (v, shaped, _) = self.build_laid_out();
        (v, shaped)
    }

    /// [`EventBuilder::build_shaped`], and the template its map was made from when nothing
    /// was added since (for [`recycle_as`]).
    pub fn build_laid_out(self) -> (Value, Option<StrShaped>, Option<Layout>) {
        let layout = self.1.map(|(shape, ts)| {
            Layout(if ts {
                shape.with_ts.addr()
            } else {
                shape.without_ts.addr()
            })
        });
        let shaped = self.1.filter(|(shape, ts)| {
            let head = 1 + usize::from(*ts);
            self.0.len() == head + shape.fields.len()
                && self.0.values().skip(head).all(Value::is_string)
        });
        (
            Value::Object(self.0),
            shaped.map(|(shape, _)| StrShaped(shape)),
            layout,
        )
    }
}

/// The [`Shape`] of an event whose fields are all strings, as [`EventBuilder::build_shaped`]
/// made it: its keys are `type`, maybe `timestamp`, then the shape's fields in order. The
/// checker ([`crate::check::Checker::shaped_event`]) and the sinks
/// ([`crate::sink::Sink::write_shaped`]) read such an event without looking its keys up.
#[derive(Clone, Copy)]
pub struct StrShaped(pub &'static Shape);

impl StrShaped {
    /// Whether `ev` is laid out as this shape says (checked in debug builds by the readers).
    pub fn fits(&self, ev: &Value) -> bool {
        let Value::Object(m) = ev else {
            return false;
        };
        let mut keys = m.keys();
        keys.next().is_some_and(|k| k == "type")
            && keys
                .skip_while(|k| *k == "timestamp")
                .eq(self.0.fields.iter())
            && m.values().skip(1).all(|v| v.is_string() || v.is_i64())
    }
}

/// The `type` of an event value.
pub fn event_type(ev: &Value) -> &str {
    crate::json::Field::field_str(ev, "type").unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn event_types_are_the_list() {
        let name = |t: &str| EventType::of(t).map(EventType::as_str);
        for t in EVENT_TYPES {
            assert_eq!(name(t), Some(t));
        }
        for t in [
            "",
            "THINKING_START",
            "text_message_start",
            "RUN_STARTED ",
            "RAW2",
        ] {
            assert_eq!(name(t), None);
        }
    }

    #[test]
    fn recycled_maps_make_the_same_events() {
        let delta = crate::shape!("messageId", "delta");
        let role = crate::shape!("messageId", "role");
        let built = |kind: &str, ts: Option<i64>, fields: &[(&str, &str)]| {
            let mut b = EventBuilder::new(kind, ts);
            for (k, v) in fields {
                b = b.str(k, *v);
            }
            b.build()
        };
        for round in 0..3 {
            for ts in [None, Some(1_700_000_000_000i64)] {
                let long = "x".repeat(1000 * round);
                let (a, _, a_layout) = delta
                    .event_strs("TEXT_MESSAGE_CONTENT", ts, ["m1", &long])
                    .build_laid_out();
                assert_eq!(
                    a,
                    built(
                        "TEXT_MESSAGE_CONTENT",
                        ts,
                        &[("messageId", "m1"), ("delta", &long)]
                    )
                );
                let b = role.event("TEXT_MESSAGE_START", ts, [json!("m2"), json!("assistant")]);
                let (b, _, b_layout) = b.build_laid_out();
                assert_eq!(
                    b,
                    built(
                        "TEXT_MESSAGE_START",
                        ts,
                        &[("messageId", "m2"), ("role", "assistant")]
                    )
                );
                // An event grown past its shape is not handed out for the shape again.
                let (c, _, c_layout) = delta
                    .event("REASONING_MESSAGE_CONTENT", ts, [json!("r"), json!(1)])
                    .val("extra", json!(true))
                    .build_laid_out();
                assert!(c_layout.is_none());
                for (e, layout) in [(a, a_layout), (b, b_layout), (c, c_layout)] {
                    recycle(e, layout);
                }
                recycle(json!("not an object"), a_layout);
            }
        }
        let d = delta
            .event_strs("TOOL_CALL_ARGS", None, ["t", "{}"])
            .build();
        assert_eq!(
            d,
            built(
                "TOOL_CALL_ARGS",
                None,
                &[("messageId", "t"), ("delta", "{}")]
            )
        );
    }

    #[test]
    fn shaped_events_equal_built_ones() {
        let shape = crate::shape!("messageId", "delta");
        for ts in [None, Some(1_700_000_000_000i64)] {
            let a = shape
                .event("TEXT_MESSAGE_CONTENT", ts, [json!("m1"), json!("hi")])
                .val("extra", json!(1))
                .build();
            let b = EventBuilder::new("TEXT_MESSAGE_CONTENT", ts)
                .str("messageId", "m1")
                .str("delta", "hi")
                .val("extra", json!(1))
                .build();
            assert_eq!(a, b);
            // Same key order, so the same bytes.
            assert_eq!(
                serde_json::to_string(&a).expect("serializes"),
                serde_json::to_string(&b).expect("serializes")
            );
        }
        let o = crate::keys!("type", "interrupts").object([json!("interrupt"), json!([])]);
        assert_eq!(
            serde_json::to_string(&o).expect("serializes"),
            r#"{"type":"interrupt","interrupts":[]}"#
        );
    }
}
