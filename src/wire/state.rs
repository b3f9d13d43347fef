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

thread_local! {
    /// The messages of this thread's last state, by their text.
    static LAST: std::cell::RefCell<HashMap<Box<str>, Arc<SharedJson>>> = Default::default();
}

impl State {
    /// The state of a JSON text, when it is an object whose first entry is a `messages`
    /// list and that has no `lc` or `__lc_escaped__` key (normalising would replace it whole);
    /// `None` for any other.
    pub fn read(text: &str) -> Option<State> {
        let entries = serde_json::from_str::<Entries>(text).ok()?.0;
        let (first, list) = entries.first()?;
        let special = |k: &String| k == "lc" || k == "__lc_escaped__";
        if first != "messages" || entries.iter().any(|(k, _)| special(k)) {
            return None;
        }
        let items: Vec<&RawValue> = serde_json::from_str(list.get()).ok()?;
        let messages = LAST.with(|last| {
            let mut last = last.borrow_mut();
            let mut next = HashMap::with_capacity(items.len());
            let messages: Vec<_> = items
                .iter()
                .map(|m| {
                    let m = m.get();
                    let shared = match last.remove(m).or_else(|| next.get(m).cloned()) {
                        Some(s) => s,
                        None => {
                            let v: Value = serde_json::from_str(m).unwrap_or_default();
                            let s = Arc::new(SharedJson::new(langchain::normalize_deep(&v)));
                            // Written here, on the parse thread, once.
                            s.json();
                            s
                        }
                    };
                    next.insert(m.into(), Arc::clone(&shared));
                    shared
                })
                .collect();
            *last = next;
            messages
        });
        let mut rest = Map::with_capacity(entries.len());
        rest.insert("messages".into(), Value::Array(vec![]));
        for (k, raw) in entries.iter().skip(1) {
            let v: Value = serde_json::from_str(raw.get()).ok()?;
            rest.insert(k.clone(), langchain::normalize_deep(&v));
        }
        Some(State {
            rest: Value::Object(rest),
            messages,
        })
    }
}

/// An object's entries in order, a repeated key's last value in its first place (as a tree
/// keeps it). serde derive has no ordered map of raw values: this visitor is the one place
/// the readers need one.
struct Entries<'a>(Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> serde::Deserialize<'de> for Entries<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for V<'a> {
            type Value = Entries<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<Entries<'a>, A::Error> {
                let mut out: Vec<(String, &'a RawValue)> = Vec::new();
                while let Some((k, v)) = m.next_entry::<String, &'a RawValue>()? {
                    match out.iter_mut().find(|(key, _)| *key == k) {
                        Some(slot) => slot.1 = v,
                        None => out.push((k, v)),
                    }
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}
