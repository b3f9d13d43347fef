//! A state's message list as the parse threads read it: each message normalised once and
//! shared ([`SharedJson`]), and a message seen in the thread's last state handed out again
//! rather than parsed again: every state repeats the conversation so far, so without this a
//! long conversation costs its length squared.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::langchain;

/// A JSON value shared between threads, with its compact text (as `JSON.stringify` writes
/// it) made once, when first asked for.
#[derive(Debug)]
pub struct SharedJson {
    value: Value,
    json: OnceLock<Box<str>>,
    /// The tool call the message answers ([`SharedJson::answers`]).
    answers: OnceLock<Option<Box<str>>>,
    /// [`SharedJson::may_be_tool_message`], once told (a state repeats every message so
    /// far: searching the text at each state cost more than the rest of the state's check).
    maybe_tool: OnceLock<bool>,
}

impl SharedJson {
    pub fn new(value: Value) -> Self {
        SharedJson {
            value,
            json: OnceLock::new(),
            answers: OnceLock::new(),
            maybe_tool: OnceLock::new(),
        }
    }

    /// The tool call this message answers, as `find` tells it the first time it is asked: a
    /// state repeats every message so far, and the message is shared by all of them.
    pub fn answers(&self, find: impl FnOnce(&Self) -> Option<Box<str>>) -> Option<&str> {
        self.answers.get_or_init(|| find(self)).as_deref()
    }

    pub fn value(&self) -> &Value {
        &self.value
    }

    /// The value's compact JSON text.
    pub fn json(&self) -> &str {
        self.json.get_or_init(|| {
            // As the sinks write it (floats as JSON.stringify does).
            crate::js_numbers::to_vec(&self.value)
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
                .unwrap_or_default()
                .into()
        })
    }

    /// Whether the value may be a message that [`super::langchain::may_be_tool_message`]
    /// says yes to (asked of the value).
    pub fn may_be_tool_message(&self) -> bool {
        *self
            .maybe_tool
            .get_or_init(|| super::langchain::may_be_tool_message(self.value()))
    }

    /// The value, taken when this is its only holder, else copied.
    pub fn into_value(this: Arc<Self>) -> Value {
        match Arc::try_unwrap(this) {
            Ok(s) => s.value,
            Err(a) => a.value().clone(),
        }
    }
}

impl PartialEq for SharedJson {
    fn eq(&self, other: &Self) -> bool {
        self.value() == other.value()
    }
}

impl Eq for SharedJson {}

/// A state object whose first entry is its `messages` list: the list's messages shared, and
/// the other entries (normalised) after `messages` holding `[]`.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub rest: Value,
    pub messages: Vec<Arc<SharedJson>>,
}

/// Messages by their text: foldhash, as every state hashes the whole conversation so far.
type ByText = HashMap<Box<str>, Arc<SharedJson>, foldhash::fast::FixedState>;

thread_local! {
    /// The messages of this thread's last state, by their text.
    static LAST: std::cell::RefCell<ByText> = Default::default();
}

impl State {
    /// The state of a JSON text, when it is an object whose first entry is a `messages`
    /// list and that has no `lc` or `__lc_escaped__` key (normalising would replace it whole);
    /// `None` for any other.
    pub fn read(text: &str) -> Option<State> {
        State::of_entries(serde_json::from_str::<Entries>(text).ok()?)
    }

    /// The state of a state object's entries, when its `messages` is a list.
    pub(super) fn of_entries(Entries { messages, rest }: Entries<'_>) -> Option<State> {
        let items = messages?;
        let messages = LAST.with(|last| {
            let mut last = last.borrow_mut();
            let mut next = ByText::with_capacity_and_hasher(items.len(), Default::default());
            let messages: Vec<_> = items
                .iter()
                .map(|m| {
                    let m = m.get();
                    // The last state's key is kept: a message's text is copied once.
                    if let Some((key, shared)) = last.remove_entry(m) {
                        next.insert(key, Arc::clone(&shared));
                        return shared;
                    }
                    if let Some(shared) = next.get(m) {
                        return Arc::clone(shared);
                    }
                    let v: Value = serde_json::from_str(m).unwrap_or_default();
                    let shared = Arc::new(SharedJson::new(langchain::normalize_owned(v)));
                    // Written here, on the parse thread, once.
                    shared.json();
                    next.insert(m.into(), Arc::clone(&shared));
                    shared
                })
                .collect();
            *last = next;
            messages
        });
        let mut map = Map::with_capacity(rest.len() + 1);
        map.insert("messages".into(), Value::Array(vec![]));
        for (k, v) in rest {
            map.insert(k, langchain::normalize_owned(v));
        }
        Some(State {
            rest: Value::Object(map),
            messages,
        })
    }
}

/// A state object read in one pass: its first key must be `messages` (else an error, as for
/// an `lc` or `__lc_escaped__` key: normalising would replace the object whole); `messages`
/// the items of that list (`None` when it is not one), `rest` the other entries in order. A
/// repeated key's last value takes its first place, as a tree keeps it. serde derive has no
/// ordered map whose first key decides how the rest is read: this visitor is the one place
/// the readers need one.
pub(super) struct Entries<'a> {
    messages: Option<Vec<&'a RawValue>>,
    rest: Vec<(String, Value)>,
}

impl<'de: 'a, 'a> serde::Deserialize<'de> for Entries<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for V<'a> {
            type Value = Entries<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object whose first key is messages")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<Entries<'a>, A::Error> {
                match m.next_key::<String>()?.as_deref() {
                    Some("messages") => {}
                    _ => return Err(A::Error::custom("messages is not the first key")),
                }
                let mut messages = m.next_value::<List<'a>>()?.0;
                let mut rest: Vec<(String, Value)> = Vec::new();
                while let Some(k) = m.next_key::<String>()? {
                    if k == "lc" || k == "__lc_escaped__" {
                        return Err(A::Error::custom("a serialised object"));
                    }
                    if k == "messages" {
                        messages = m.next_value::<List<'a>>()?.0;
                        continue;
                    }
                    let v = m.next_value::<Value>()?;
                    match rest.iter_mut().find(|(key, _)| *key == k) {
                        Some(slot) => slot.1 = v,
                        None => rest.push((k, v)),
                    }
                }
                Ok(Entries { messages, rest })
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// A list's items, raw (`None` for any other value), read as the list is scanned.
struct List<'a>(Option<Vec<&'a RawValue>>);

impl<'de: 'a, 'a> serde::Deserialize<'de> for List<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{IgnoredAny, MapAccess, SeqAccess, Visitor};
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = List<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any value")
            }
            fn visit_seq<S: SeqAccess<'de>>(self, mut s: S) -> Result<List<'a>, S::Error> {
                let mut items = Vec::with_capacity(s.size_hint().unwrap_or(0));
                while let Some(item) = s.next_element::<&'a RawValue>()? {
                    items.push(item);
                }
                Ok(List(Some(items)))
            }
            fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<List<'a>, M::Error> {
                while m.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(List(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<List<'a>, E> {
                Ok(List(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<List<'a>, E> {
                Ok(List(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<List<'a>, E> {
                Ok(List(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<List<'a>, E> {
                Ok(List(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<List<'a>, E> {
                Ok(List(None))
            }
            fn visit_unit<E>(self) -> Result<List<'a>, E> {
                Ok(List(None))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}
