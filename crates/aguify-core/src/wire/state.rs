//! A state's message list as the parse threads read it: each message normalised once and
//! shared ([`SharedJson`]), and a message seen in the thread's last state handed out again
//! rather than parsed again: every state repeats the conversation so far, so without this a
//! long conversation costs its length squared.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::langchain;

/// A state's message shared between threads: its compact text (normalised, as the sinks
/// write it), made once, and what is read of it without a tree ([`SharedJson::kind`],
/// [`SharedJson::id`], [`SharedJson::tool_call`], its AG-UI form). A tree is made only when
/// asked for ([`SharedJson::to_value`]) and not kept: a state's messages as trees took more
/// memory than their text.
#[derive(Debug)]
pub struct SharedJson {
    json: Box<str>,
    head: Head,
    /// The text is the one read ([`SharedJson::read`] wrote it as it was): a later state's
    /// list that holds these bytes holds this message ([`known_prefix`]).
    as_read: bool,
    /// A tool message without `tool_call_id`: the call its list pairs it with
    /// ([`pair_unanswered`]), set once, when the message is read.
    pub(crate) paired: Option<Box<str>>,
    /// Where the values of [`Head::KEYS`] are in the text (`None`: absent): what its AG-UI
    /// form reads besides the head (`content`, `tool_calls`, `status`, `name`) is parsed from
    /// these alone, the rest of the text skipped.
    parts: [Option<Range<usize>>; 8],
}

/// What is read of a message: its `type` (else `role`), `id` and `tool_call_id`, when
/// strings.
#[derive(Debug, Default)]
struct Head {
    kind: Option<Box<str>>,
    id: Option<Box<str>>,
    tool_call_id: Option<Box<str>>,
}

impl Head {
    /// The keys read, in the order of [`Head::noted`]'s places.
    const KEYS: &'static [&'static str] = &[
        "type",
        "role",
        "id",
        "tool_call_id",
        "content",
        "tool_calls",
        "status",
        "name",
    ];

    /// The head of a message's compact text, of where [`Head::KEYS`]' values are in it.
    fn noted(json: &str, at: &[Option<Range<usize>>]) -> Head {
        let value = |i: usize| super::string_text(json.get(at.get(i)?.clone()?)?).map(Box::from);
        Head {
            kind: value(0).or_else(|| value(1)),
            id: value(2),
            tool_call_id: value(3),
        }
    }
}

impl SharedJson {
    /// A normalised value shared (every message a state holds is: [`SharedJson::read`]
    /// normalises what it reads, and makes one of a tree only once it normalised it).
    pub fn new(value: Value) -> Self {
        // As the sinks write it (floats as JSON.stringify does), an object entry by entry,
        // noting where the values of [`Head::KEYS`] are.
        let mut json = vec![];
        let mut parts = <[Option<Range<usize>>; 8]>::default();
        match &value {
            Value::Object(m) => {
                json.push(b'{');
                for (k, v) in m {
                    if json.len() > 1 {
                        json.push(b',');
                    }
                    let _ = crate::js_numbers::to_writer(&mut json, k);
                    json.push(b':');
                    let at = json.len();
                    let _ = crate::js_numbers::to_writer(&mut json, v);
                    if let Some(i) = Head::KEYS.iter().position(|key| key == k) {
                        parts[i] = Some(at..json.len());
                    }
                }
                json.push(b'}');
            }
            other => _ = crate::js_numbers::to_writer(&mut json, other),
        }
        let json = String::from_utf8(json).unwrap_or_default();
        SharedJson {
            head: Head::noted(&json, &parts),
            json: json.into(),
            as_read: false,
            paired: None,
            parts,
        }
    }

    /// A message of a state's list, as its JSON text: normalised as it is read, or through
    /// its tree when the text has what only the tree tells (`payload::write_lc`).
    pub fn read(text: &str) -> Self {
        let mut noted = crate::payload::Noted {
            keys: Head::KEYS,
            at: vec![None; Head::KEYS.len()],
        };
        match crate::payload::encode(text, true, Some(&mut noted)) {
            Some(json) => SharedJson {
                head: Head::noted(&json, &noted.at),
                as_read: json == text,
                json: json.into(),
                paired: None,
                parts: noted.at.try_into().unwrap_or_default(),
            },
            None => {
                let v: Value = serde_json::from_str(text).unwrap_or_default();
                SharedJson::new(langchain::normalize_owned(v))
            }
        }
    }

    /// The value, as a tree made now.
    pub fn to_value(&self) -> Value {
        serde_json::from_str(&self.json).unwrap_or_default()
    }

    /// What an AG-UI message is made of, read from the normalised text.
    pub(crate) fn fields(&self) -> langchain::Fields<'_> {
        langchain::Fields::of_parts(self.parts.each_ref().map(|at| self.json.get(at.clone()?)))
    }

    /// The value's compact JSON text.
    pub fn json(&self) -> &str {
        &self.json
    }

    /// The message kind ([`langchain::message_kind`]).
    pub fn kind(&self) -> Option<&str> {
        self.head.kind.as_deref().map(langchain::kind_of)
    }

    /// `id`, when a string.
    pub fn id(&self) -> Option<&str> {
        self.head.id.as_deref()
    }

    /// The tool call a tool message answers ([`langchain::tool_call_id`]: its `tool_call_id`,
    /// when a non-empty string), or, without one, the call its list paired it with
    /// ([`pair_unanswered`]).
    pub fn tool_call(&self) -> Option<&str> {
        if self.kind() != Some("tool") {
            return None;
        }
        let own = self.head.tool_call_id.as_deref().filter(|c| !c.is_empty());
        own.or(self.paired.as_deref())
    }
}

/// Pairs each tool message of `list` that has no `tool_call_id`, is not paired yet and is
/// held by this list only (read for it: a message of an earlier list was paired in that
/// list), with the call [`langchain::idless_answer`] finds for it.
pub(crate) fn pair_unanswered(list: &mut [Arc<SharedJson>]) {
    for at in 0..list.len() {
        let (before, rest) = list.split_at_mut(at);
        let Some(m) = Arc::get_mut(&mut rest[0]) else {
            continue;
        };
        if m.kind() != Some("tool") || m.tool_call().is_some() {
            continue;
        }
        let name = m.fields().name.map(Cow::into_owned);
        // Only AI and tool messages take part: no other message is parsed (a long human
        // message is walked past by its head).
        let before = (before.iter()).map(|m| match m.kind() {
            Some("ai" | "tool") => (m.fields(), m.paired.as_deref()),
            _ => Default::default(),
        });
        m.paired = langchain::idless_answer(before, name.as_deref()).map(String::into_boxed_str);
    }
}

/// Two values are equal when their texts are.
impl PartialEq for SharedJson {
    fn eq(&self, other: &Self) -> bool {
        self.json == other.json
    }
}

impl Eq for SharedJson {}

/// A state object whose first entry is its `messages` list, as a parse thread reads it: the
/// list's messages shared (one message for every state that repeats it), and the other
/// entries (normalised) after `messages` holding `[]`. Its text is written from these parts
/// ([`State::write`]), so that no message's text is copied into a state's (each state repeats
/// every message so far).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    /// The state with `messages` holding `[]`: all but its messages, with nothing parsed or
    /// copied (`aguify diff` compares the messages as messages).
    pub rest: Value,
    pub messages: Vec<Arc<SharedJson>>,
}

thread_local! {
    /// The messages of this thread's last state, in order, each with the [`Key`] of its text
    /// as read (the text itself is not kept: only its normalised form, in the message).
    static LAST: std::cell::RefCell<Vec<(Key, Arc<SharedJson>)>> = Default::default();
}

/// A message's text as read, known by its length and a 128-bit hash (two foldhash hashes
/// with independent fixed seeds). Two texts with one key are taken for one message; for
/// texts not made to collide the chance is about 2^-128 per comparison, far below any other
/// cause of a wrong output. foldhash is not a cryptographic hash: a log crafted to collide
/// could only make its own conversion show one of its messages in place of the other.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    len: usize,
    hash: [u64; 2],
}

impl Key {
    fn of(text: &str) -> Key {
        use std::hash::BuildHasher;
        let hash = |seed| foldhash::quality::FixedState::with_seed(seed).hash_one(text);
        Key {
            len: text.len(),
            hash: [hash(0x243f_6a88_85a3_08d3), hash(0x1319_8a2e_0370_7344)],
        }
    }
}

impl State {
    /// The state of a JSON text, when it is an object whose first entry is a `messages`
    /// list and that has no `lc` or `__lc_escaped__` key (normalising would replace it whole);
    /// `None` for any other.
    pub fn read(text: &str) -> Option<State> {
        let entries = serde_json::from_str::<super::Lenient<Entries>>(text);
        State::of_entries(entries.ok()?.0?, 0)
    }

    /// The state of a state object's entries, when its `messages` is a list: the list's
    /// items after its first `known` ones, which are the last state's first `known`
    /// ([`known_prefix`]).
    pub(super) fn of_entries(entries: Entries<'_>, known: usize) -> Option<State> {
        let Entries { messages, rest, .. } = entries;
        let items = messages?;
        let messages = LAST.with(|last| {
            let mut last = last.borrow_mut();
            let kept = last.get(..known)?.iter().map(|(k, m)| (*k, Arc::clone(m)));
            // Each message is looked for in the last state by its key: first just after the
            // last one found (a state repeats the one before and adds to it; a removed message
            // shifts the rest by one), else through an index of the last state built once (past
            // the last state's end only if it was built: appended messages are new). One not
            // found is normalised here, on the parse thread, once. A state costs its length,
            // not its square.
            let mut at = known;
            let mut index: Option<HashMap<Key, usize, foldhash::fast::FixedState>> = None;
            let (keys, mut messages): (Vec<Key>, Vec<Arc<SharedJson>>) = kept
                .chain(items.iter().map(|m| {
                    let key = Key::of(m.get());
                    let place = match last.get(at) {
                        Some((k, _)) if *k == key => Some(at),
                        Some(_) => index
                            .get_or_insert_with(|| {
                                last.iter().enumerate().map(|(i, (k, _))| (*k, i)).collect()
                            })
                            .get(&key)
                            .copied(),
                        None => index.as_ref().and_then(|index| index.get(&key).copied()),
                    };
                    let shared = match place {
                        Some(p) => {
                            at = p + 1;
                            Arc::clone(&last[p].1)
                        }
                        None => {
                            let made = SharedJson::read(m.get());
                            // Its text is its tree's as the sinks write it, so a state's text
                            // is its tree's (checked once a message, in every test and debug run).
                            debug_assert!(crate::js_numbers::to_vec(&made.to_value())
                                .is_ok_and(|t| t == made.json().as_bytes()));
                            Arc::new(made)
                        }
                    };
                    (key, shared)
                }))
                .unzip();
            // A new tool message without `tool_call_id` answers a call of this list.
            pair_unanswered(&mut messages);
            *last = keys.into_iter().zip(messages.iter().cloned()).collect();
            Some(messages)
        })?;
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

    /// Writes the whole state's compact JSON text: `{"messages":[`, each message's text
    /// (commas between), `]`, the other entries, `}`.
    pub fn write<W: std::io::Write>(&self, w: &mut W) -> std::io::Result<()> {
        w.write_all(br#"{"messages":["#)?;
        for (i, m) in self.messages.iter().enumerate() {
            if i > 0 {
                w.write_all(b",")?;
            }
            w.write_all(m.json().as_bytes())?;
        }
        w.write_all(b"]")?;
        for (k, v) in self.rest.as_object().into_iter().flatten().skip(1) {
            w.write_all(b",")?;
            crate::js_numbers::to_writer(&mut *w, k)?;
            w.write_all(b":")?;
            crate::js_numbers::to_writer(&mut *w, v)?;
        }
        w.write_all(b"}")
    }

    /// The whole state's compact JSON text ([`State::write`]).
    pub fn json(&self) -> String {
        let mut buf = Vec::new();
        let _ = self.write(&mut buf);
        String::from_utf8(buf).unwrap_or_default()
    }
}

/// The head of a v3 line's state message list, written compact ([`known_prefix`]).
const STATE_LIST: &str = r#""data":{"messages":["#;
static STATE_LIST_FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(STATE_LIST));

/// Where a line's text has a state's message list (`"data":{"messages":[`, written compact),
/// and the messages it opens with that are the thread's last state's first ones, written in it
/// as they were read ([`SharedJson::as_read`]: Python writes them compact and normal): the
/// list's items' offset, the bytes those messages take up to the next item (or up to the `]`
/// after the last), and their count. Comparing the bytes is what reading them again finds (a
/// text holding a message's whole text at an item's start is that message: a JSON value ends
/// where its text does); they are not scanned or hashed again. `None` when the text has no
/// such list or it opens with no such message (the caller checks that the list is the root
/// state's).
pub(super) fn known_prefix(text: &str) -> Option<(usize, usize, usize)> {
    const SPACE: [char; 4] = [' ', '\t', '\n', '\r'];
    LAST.with(|last| {
        let last = last.borrow();
        if !last.first()?.1.as_read {
            return None;
        }
        let at = STATE_LIST_FINDER.find(text.as_bytes())? + STATE_LIST.len();
        let list = text.get(at..)?;
        let mut known = 0;
        let mut rest = list.trim_start_matches(SPACE);
        for (_, m) in last.iter().take_while(|(_, m)| m.as_read) {
            let Some(after) = rest.strip_prefix(&*m.json) else {
                break;
            };
            let after = after.trim_start_matches(SPACE);
            let next = match after.strip_prefix(',') {
                Some(next) => next.trim_start_matches(SPACE),
                None if after.starts_with(']') => after,
                None => break,
            };
            if next.starts_with(']') && after.starts_with(',') {
                break;
            }
            (rest, known) = (next, known + 1);
        }
        (known > 0).then_some((at, list.len() - rest.len(), known))
    })
}

/// A state object read in one pass: its first key must be `messages` (else an error, as for
/// an `lc` or `__lc_escaped__` key: normalising would replace the object whole); `messages`
/// the items of that list (`None` when it is not one), `rest` the other entries in order. A
/// repeated key's last value takes its first place, as a tree keeps it. serde derive has no
/// ordered map whose first key decides how the rest is read: this map reader is the one place
/// the readers need one.
pub(super) struct Entries<'a> {
    pub(super) messages: Option<Vec<&'a RawValue>>,
    pub(super) rest: Vec<(String, Value)>,
    /// Where in the text the `messages` key of the list kept is (0: a repeated key's list,
    /// or a key written with an escape).
    pub(super) messages_at: usize,
}

impl<'de: 'a, 'a> super::Shape<'de> for Entries<'a> {
    fn of_map<A: serde::de::MapAccess<'de>>(mut m: A) -> Result<Option<Self>, A::Error> {
        use crate::payload::Key;
        use serde::de::Error;
        let messages_at = match m.next_key_seed(Key)? {
            Some(Cow::Borrowed(k @ "messages")) => k.as_ptr() as usize,
            Some(k) if k == "messages" => 0,
            _ => return Err(A::Error::custom("messages is not the first key")),
        };
        let mut entries = Entries {
            messages: m.next_value::<super::Lenient<Vec<&'a RawValue>>>()?.0,
            rest: Vec::new(),
            messages_at,
        };
        while let Some(k) = m.next_key_seed(Key)? {
            if k == "lc" || k == "__lc_escaped__" {
                return Err(A::Error::custom("a serialised object"));
            }
            if k == "messages" {
                entries.messages = m.next_value::<super::Lenient<Vec<&'a RawValue>>>()?.0;
                entries.messages_at = 0;
                continue;
            }
            let v = m.next_value::<Value>()?;
            match entries.rest.iter_mut().find(|(key, _)| *key == k) {
                Some(slot) => slot.1 = v,
                None => entries.rest.push((k.into_owned(), v)),
            }
        }
        Ok(Some(entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agui::{to_agui_list_item, to_agui_messages};

    /// A message read from its text is the message its normalised tree makes, and what is
    /// read of it is what the tree says.
    #[test]
    fn read_as_the_normalized_tree() {
        let mut tools = 0;
        for m in langchain::tests::message_list() {
            let read = SharedJson::read(&m.to_string());
            let tree = langchain::normalize_owned(m.clone());
            assert_eq!(read, SharedJson::new(tree.clone()), "{m}");
            let text = |key| tree.get(key).and_then(Value::as_str);
            assert_eq!(
                (
                    read.head.kind.as_deref(),
                    read.head.id.as_deref(),
                    read.head.tool_call_id.as_deref()
                ),
                (
                    text("type").or(text("role")),
                    text("id"),
                    text("tool_call_id")
                ),
                "{m}"
            );
            // Its values are where they are in its tree written.
            assert_eq!(read.parts, SharedJson::new(tree.clone()).parts, "{m}");
            assert_eq!(read.to_value(), tree, "{m}");
            assert_eq!(read.kind(), langchain::message_kind(&tree), "{m}");
            assert_eq!(read.id(), tree.get("id").and_then(Value::as_str), "{m}");
            assert_eq!(read.tool_call(), langchain::tool_call_id(&tree), "{m}");
            assert_eq!(read.to_agui(3), to_agui_list_item(&m, 3), "{m}");
            tools += usize::from(read.tool_call().is_some());
        }
        assert!(tools >= 8, "{tools}");
    }

    /// A state's shared messages pair tool messages without `tool_call_id` as a list of
    /// values does ([`to_agui_messages`]), whether read after a state that held
    /// some of them or with none before, and a later state that repeats them keeps their
    /// pairing (they are not paired again: the tool message answering no call stays so).
    #[test]
    fn tool_messages_without_call_ids_paired_as_the_list_of_values() {
        let list = langchain::tests::idless_conversation();
        let want = to_agui_messages(&list);
        let agui = |messages: &[Arc<SharedJson>]| -> Vec<crate::agui::Item> {
            (messages.iter().enumerate())
                .filter_map(|(i, m)| m.to_agui(i))
                .collect()
        };
        let text = |l: &[Value]| serde_json::json!({ "messages": l }).to_string();
        let first = State::read(&text(&list[..4])).expect("a state");
        assert_eq!(agui(&first.messages), want[..4]);
        let read = State::read(&text(&list)).expect("a state");
        assert!(Arc::ptr_eq(&read.messages[2], &first.messages[2]));
        assert_eq!(agui(&read.messages), want);
        let calls: Vec<Option<&str>> = read.messages.iter().map(|m| m.tool_call()).collect();
        let of_values: Vec<Option<&str>> = (want.iter())
            .filter(|m| m.role != crate::agui::Role::User)
            .map(|m| m.tool_call_id.as_deref())
            .collect();
        assert_eq!(calls[2..4], of_values[1..3]);
        assert_eq!(calls[4], None);
        // The whole list read with no last state: all paired in one list.
        LAST.with(|last| last.borrow_mut().clear());
        let fresh = State::read(&text(&list)).expect("a state");
        assert!(!Arc::ptr_eq(&fresh.messages[2], &first.messages[2]));
        assert_eq!(agui(&fresh.messages), want);
    }

    /// A message the last state held is handed out again, not read again, wherever it moved:
    /// after a removal (the rest shift by one), a reordering, or a new message between.
    #[test]
    fn messages_of_the_last_state_shared() {
        let state = |ids: &[&str]| {
            let list: Vec<String> = ids
                .iter()
                .map(|id| format!(r#"{{"type":"human","content":"text {id}","id":"{id}"}}"#))
                .collect();
            State::read(&format!(r#"{{"messages":[{}]}}"#, list.join(","))).expect("a state")
        };
        let same =
            |a: &State, i: usize, b: &State, j: usize| Arc::ptr_eq(&a.messages[i], &b.messages[j]);
        let first = state(&["a", "b", "c", "d"]);
        let shifted = state(&["b", "c", "d", "e"]);
        assert!((0..3).all(|i| same(&shifted, i, &first, i + 1)));
        assert_eq!(shifted.messages[3].id(), Some("e"));
        let moved = state(&["e", "x", "b", "c"]);
        assert!(same(&moved, 0, &shifted, 3));
        assert!(same(&moved, 2, &shifted, 0) && same(&moved, 3, &shifted, 1));
        assert_eq!(moved.messages[1].id(), Some("x"));
    }
}
