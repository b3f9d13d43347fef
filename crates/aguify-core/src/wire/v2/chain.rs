//! A chain event's `data` read typed: the keys the adapter reads ([`ChainData`]), and the
//! messages a value holds walked for their tool calls without building a tree ([`Holder`],
//! [`Keys`], [`Flat`]).

use super::*;

/// A chain event's `data` keys, raw (and a tool's or a model end's, and a model's stream
/// chunk read again: [`MessageChunk::in_line`]).
#[derive(Default, Deserialize)]
#[serde(default, bound(deserialize = "'de: 'a"))]
pub(super) struct ChainData<'a> {
    pub(super) input: Present<&'a RawValue>,
    pub(super) output: Present<&'a RawValue>,
    pub(super) chunk: Present<&'a RawValue>,
}

impl ChainData<'_> {
    /// What the adapter reads of chain event `e`'s `data` (`None`: JSON no tree holds): the
    /// root run's input, state and stream chunks, a graph step's input, the calls of a
    /// chain's output inside the root run; nothing of a node's stream chunk or of a runnable
    /// inside a node.
    pub(super) fn read(self, e: &Event) -> Option<Data> {
        type Reader = fn(Option<Holder>, &str, bool) -> Option<Data>;
        let root = e.is_root();
        let (raw, read): (_, Reader) = match e.event.as_str() {
            "on_chain_start" if root => {
                let text = self.input.0.map(RawValue::get);
                let tree = text.map_or(Some(None), |t| normalised_tree(t).map(Some));
                return Some(Data::Value(tree?));
            }
            "on_chain_end" if root => return self.output.0.map_or(Some(Data::Value(None)), state),
            "on_chain_start" if e.is_step() => (self.input.0, step_input),
            "on_chain_stream" if root => (self.chunk.0, chunk),
            "on_chain_end" => (self.output.0, calls),
            _ => return Some(Data::Value(None)),
        };
        let Some(text) = raw.map(RawValue::get) else {
            return read(None, "", true);
        };
        let typed = from::<Lenient<Holder>>(text);
        let data = match typed.and_then(|h| read(h.0, text, false)) {
            Some(data) => data,
            // A repeated key, or an object normalising makes another value of: its
            // normalised tree's text, read as it is.
            None => {
                let text = normalised_tree(text)?.to_string();
                read(from::<Lenient<Holder>>(&text)?.0, &text, true)?
            }
        };
        match data {
            // Its `messages` a list: read as a state's.
            Data::Calls(calls, Some(_)) => {
                Some(Data::Calls(calls, State::read(text).map(|s| s.messages)))
            }
            data => Some(data),
        }
    }
}

/// The root chain's output: the state [`State`] reads, read again from its normalised tree's
/// text (a repeated key, an lc object the state's read declines), else passed on as a tree
/// (`None`: no tree holds it).
fn state(raw: &RawValue) -> Option<Data> {
    let read = |text: &str| State::read(text).map(|s| Data::State(Box::new(s)));
    read(raw.get()).or_else(|| {
        let tree = normalised_tree(raw.get())?;
        let state = tree.is_object().then(|| read(&tree.to_string())).flatten();
        Some(state.unwrap_or(Data::Value(Some(tree))))
    })
}

/// The calls of the AI messages a chain's output holds.
fn calls(h: Option<Holder>, _: &str, normalised: bool) -> Option<Data> {
    let mut calls = vec![];
    if let Some(h) = h {
        h.calls(&mut calls, normalised)?;
    }
    Some(Data::Calls(calls, None))
}

/// A root chain's stream chunk: a stream mode's part (`[mode, payload]`, `text`), an
/// object's `__interrupt__`, else the calls of the AI messages it holds.
fn chunk(h: Option<Holder>, text: &str, normalised: bool) -> Option<Data> {
    match h {
        Some(Holder::Items(_, 2)) => {
            let Value::Array(mut pair) = normalised_tree(text)? else {
                return None;
            };
            let payload = pair.pop()?;
            Some(Data::Part((pair[0] == "custom").then_some(payload)))
        }
        Some(Holder::Object(keys)) => {
            let mut flat = keys.flat(normalised)?;
            if let Some(list) = flat.keys.interrupt.0.take() {
                return Some(Data::Interrupt(normalize_owned(list)));
            }
            let mut calls = vec![];
            flat.calls_in(&mut calls)?;
            Some(Data::Calls(calls, None))
        }
        h => calls(h, text, normalised),
    }
}
/// A value as the calls of the messages it holds are read of it: a list's items (of no
/// other kind: nothing), or an object's keys.
pub(super) enum Holder<'a> {
    /// The items that are lists or objects, and how many items there are.
    Items(Vec<Holder<'a>>, usize),
    Object(Box<Keys<'a>>),
}

impl<'de: 'a, 'a> Shape<'de> for Holder<'a> {
    fn of_map<M: MapAccess<'de>>(m: M) -> Result<Option<Self>, M::Error> {
        let keys = Keys::deserialize(serde::de::value::MapAccessDeserializer::new(m))?;
        Ok(Some(Holder::Object(Box::new(keys))))
    }
    fn of_seq<S: SeqAccess<'de>>(mut s: S) -> Result<Option<Self>, S::Error> {
        let (mut items, mut len) = (vec![], 0);
        while let Some(item) = s.next_element::<Lenient<Holder>>()? {
            items.extend(item.0);
            len += 1;
        }
        Ok(Some(Holder::Items(items, len)))
    }
}

/// The keys of an object that tell whether it is a message (or an lc constructor of one),
/// its calls, or the messages or update it holds; `__interrupt__` for a root chunk; what a
/// model's stream chunk is read for ([`Flat::chunk`]). A repeated key fails the read, and
/// the value is read from its normalised tree's text.
#[derive(Default, Deserialize)]
#[serde(default, bound(deserialize = "'de: 'a"))]
pub(super) struct Keys<'a> {
    pub(super) lc: Option<&'a RawValue>,
    #[serde(rename = "type")]
    pub(super) kind: Present<&'a RawValue>,
    pub(super) role: Present<&'a RawValue>,
    pub(super) id: Option<&'a RawValue>,
    pub(super) content: Present<&'a RawValue>,
    pub(super) additional_kwargs: Present<&'a RawValue>,
    pub(super) tool_call_chunks: Present<&'a RawValue>,
    pub(super) kwargs: Option<Lenient<Holder<'a>>>,
    pub(super) tool_calls: Present<&'a RawValue>,
    pub(super) tool_call_id: Option<&'a RawValue>,
    pub(super) name: Option<&'a RawValue>,
    pub(super) args: Present<&'a RawValue>,
    pub(super) messages: Present<Lenient<Holder<'a>>>,
    pub(super) update: Present<Lenient<Holder<'a>>>,
    #[serde(rename = "__interrupt__")]
    pub(super) interrupt: Present<Value>,
    #[serde(rename = "__lc_escaped__")]
    pub(super) escaped: Present<IgnoredAny>,
}

/// An object's keys as normalising leaves them: an lc constructor's kwargs after the `type`
/// (or `__type__`) its class gives.
pub(super) struct Flat<'a> {
    pub(super) keys: Keys<'a>,
    /// Its `type` when a string: its own, or a constructor's message class's (none for a
    /// constructor of another class, which gets `__type__`).
    pub(super) type_text: Option<Cow<'a, str>>,
    /// Whether it has a `type` (of any value).
    typed: bool,
    /// Whether it is read of a text normalising may change (not of a normalised tree's text).
    pub(super) normalise: bool,
}

impl<'a> Keys<'a> {
    /// The object normalising makes of this one (`normalised`: this one); `None` when it
    /// makes another value of it (an escaped dict, a Python repr).
    pub(super) fn flat(self, normalised: bool) -> Option<Flat<'a>> {
        let own = |keys: Keys<'a>| {
            Some(Flat {
                type_text: text_of(keys.kind.0),
                typed: keys.kind.0.is_some(),
                keys,
                normalise: !normalised,
            })
        };
        if normalised {
            return own(self);
        }
        let lc = self.lc.is_some_and(|v| v.get() == "1");
        let kind = lc.then(|| text_of(self.kind.0)).flatten();
        if self.escaped.0.is_some() || (lc && kind.as_deref() == Some("not_implemented")) {
            return None;
        }
        let class = match lc && kind.as_deref() == Some("constructor") {
            true => self.id.and_then(class_of),
            false => None,
        };
        match (class, self.kwargs) {
            (Some(class), Some(Lenient(Some(Holder::Object(kwargs))))) => {
                if !kwargs.plain() {
                    return None;
                }
                let role = text_of(kwargs.role.0);
                let head = crate::payload::constructor_type(&class, role.as_deref());
                let type_text = head.map(|t| Cow::Owned(t.to_string()));
                Some(Flat {
                    keys: *kwargs,
                    typed: type_text.is_some(),
                    type_text,
                    normalise: true,
                })
            }
            (_, kwargs) => Some(Keys { kwargs, ..self })
                .filter(Keys::plain)
                .and_then(own),
        }
    }

    /// Whether no key read as a string holds an object (which may normalise to a string).
    pub(super) fn plain(&self) -> bool {
        let words = [
            self.kind.0,
            self.role.0,
            self.id,
            self.tool_call_id,
            self.name,
        ];
        !words
            .into_iter()
            .flatten()
            .any(|w| w.get().starts_with('{'))
    }
}

/// The text of a string kept raw (`None`: another value): what is between its quotes, unless
/// it has an escape.
pub(super) fn text_of(raw: Option<&RawValue>) -> Option<Cow<'_, str>> {
    crate::wire::string_text(raw?.get())
}

/// The class an lc object's `id` list ends with.
pub(super) fn class_of(id: &RawValue) -> Option<String> {
    let id = from::<Vec<&RawValue>>(id.get())?;
    text_of(id.last().copied()).map(Cow::into_owned)
}

impl Flat<'_> {
    /// Whether it is a message of `kind` (`lc::message_kind`).
    pub(super) fn is_kind(&self, kind: &str) -> bool {
        let role = || text_of(self.keys.role.0);
        let text = self.type_text.clone().or_else(role);
        text.is_some_and(|t| lc::kind_of(&t) == kind)
    }

    /// Whether it is a message (`lc::is_message`).
    pub(super) fn is_message(&self) -> bool {
        self.keys.content.0.is_some() && (self.typed || self.keys.role.0.is_some())
    }

    pub(super) fn id(&self) -> Option<String> {
        text_of(self.keys.id).map(Cow::into_owned)
    }

    /// A model's stream chunk (`None`: a key no tree holds).
    pub(super) fn chunk(&self) -> Option<MessageChunk> {
        // Most are a string, `{}` or `[]` (which normalising leaves as they are): made
        // without a parse.
        let value = |raw: Option<&RawValue>| match raw.map(|raw| (raw, raw.get())) {
            Some((_, "{}")) => Some(Some(Value::Object(serde_json::Map::new()))),
            Some((_, "[]")) => Some(Some(Value::Array(vec![]))),
            Some((raw, text)) => match text_of(Some(raw)) {
                Some(s) => Some(Some(Value::String(s.into_owned()))),
                None => from(text).map(|v| Some(normalize_owned(v))),
            },
            None => Some(None),
        };
        Some(MessageChunk {
            id: self.id(),
            content: value(self.keys.content.0)?,
            additional_kwargs: value(self.keys.additional_kwargs.0)?,
            tool_call_chunks: self.tool_chunks()?,
        })
    }

    /// Its `tool_call_chunks`, read typed unless a key repeats or normalising may change
    /// them (an `lc` or `__lc_escaped__` key, which an escape may spell), else from their
    /// tree (`None`: no tree holds them).
    fn tool_chunks(&self) -> Option<Vec<ToolChunk>> {
        let text = match self.keys.tool_call_chunks.0.map(RawValue::get) {
            None | Some("[]") => return Some(vec![]),
            Some(text) => text,
        };
        let special = ["\"lc\"", "__lc_escaped__", "\\u"];
        if !(self.normalise && special.iter().any(|s| text.contains(s))) {
            if let Some(list) = ToolChunk::list(&mut serde_json::Deserializer::from_str(text)) {
                return Some(list);
            }
        }
        Some(ToolChunk::list(normalised_tree(text)?).unwrap_or_default())
    }

    /// Its `tool_calls` (kept raw: a model's chunk never reads them); `None`: no tree holds
    /// them.
    pub(super) fn calls(&self) -> Option<Vec<lc::Call>> {
        let Some(raw) = self.keys.tool_calls.0 else {
            return Some(vec![]);
        };
        Some(lc::calls_of_list(&normalised_tree(raw.get())?))
    }

    /// The calls of the AI messages this object is or holds: its own, else its `messages`'
    /// or else its `update`'s (`None`: read again normalised).
    pub(super) fn calls_in(self, out: &mut Vec<MessageCalls>) -> Option<()> {
        if self.is_message() {
            if self.is_kind("ai") {
                let calls = self.calls()?;
                if !calls.is_empty() {
                    out.push(MessageCalls {
                        id: self.id(),
                        calls,
                    });
                }
            }
            return Some(());
        }
        match (self.keys.messages.0, self.keys.update.0) {
            (Some(Lenient(Some(h))), _) | (None, Some(Lenient(Some(h)))) => {
                h.calls(out, !self.normalise)
            }
            _ => Some(()),
        }
    }
}

impl Holder<'_> {
    /// The calls of the AI messages this value is or holds ([`Flat::calls_in`]).
    pub(super) fn calls(self, out: &mut Vec<MessageCalls>, normalised: bool) -> Option<()> {
        match self {
            Holder::Items(items, _) => items.into_iter().try_for_each(|h| h.calls(out, normalised)),
            Holder::Object(keys) => keys.flat(normalised)?.calls_in(out),
        }
    }
}

/// A graph step's input ([`Data::Calls`], the conversation `Some` (empty) when its `messages`
/// is a list; `None`: read again normalised).
fn step_input(h: Option<Holder>, _: &str, normalised: bool) -> Option<Data> {
    let (mut calls, mut conversation) = (vec![], None);
    match h {
        None => {}
        Some(Holder::Items(items, _)) => {
            let mut send = vec![];
            for item in items {
                let Holder::Object(keys) = item else { continue };
                let c = keys.flat(normalised)?;
                if c.type_text.as_deref() != Some("tool_call") {
                    continue;
                }
                if let (Some(id), Some(name)) = (c.id(), text_of(c.keys.name)) {
                    let args = match c.keys.args.0 {
                        Some(a) => normalised_tree(a.get())?.to_string(),
                        None => String::new(),
                    };
                    let name = name.into_owned();
                    send.push(lc::Call { id, name, args });
                }
            }
            calls.push(MessageCalls {
                id: None,
                calls: send,
            });
        }
        Some(Holder::Object(keys)) => {
            let flat = keys.flat(normalised)?;
            match flat.keys.messages.0 {
                // An object normalising may make a list of.
                Some(Lenient(Some(Holder::Object(_)))) if !normalised => return None,
                Some(Lenient(Some(Holder::Items(list, _)))) => {
                    // The calls of its AI messages, and the calls its tool messages answer.
                    let mut answered = std::collections::HashSet::new();
                    for m in list {
                        let Holder::Object(m) = m else { continue };
                        let m = m.flat(normalised)?;
                        if m.is_kind("ai") {
                            let (id, list) = (m.id(), m.calls()?);
                            calls.push(MessageCalls { id, calls: list });
                        } else if m.is_kind("tool") {
                            answered.extend(text_of(m.keys.tool_call_id).map(Cow::into_owned))
                        }
                    }
                    calls.retain_mut(|m| {
                        m.calls.retain(|c| !answered.contains(&c.id));
                        !m.calls.is_empty()
                    });
                    conversation = Some(vec![]);
                }
                _ => {}
            }
        }
    }
    Some(Data::Calls(calls, conversation))
}
