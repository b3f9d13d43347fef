//! `transformChunks`: TEXT_MESSAGE_CHUNK, TOOL_CALL_CHUNK and REASONING_MESSAGE_CHUNK expanded
//! into the start, content and end events they stand for (AGX130–AGX133).

use foldhash::fast::RandomState as FastIds;
use indexmap::IndexMap;
use serde_json::{Map, Value};

use super::{owner_name, tag, Ev};
use crate::agui::EventType;
use EventType as T;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Text,
    Tool,
    Reasoning,
}

impl Kind {
    fn of_chunk(t: Option<EventType>) -> Option<Kind> {
        match t? {
            EventType::TextMessageChunk => Some(Kind::Text),
            EventType::ToolCallChunk => Some(Kind::Tool),
            EventType::ReasoningMessageChunk => Some(Kind::Reasoning),
            _ => None,
        }
    }
    fn noun(self) -> &'static str {
        match self {
            Kind::Text => "text message",
            Kind::Tool => "tool call",
            Kind::Reasoning => "reasoning message",
        }
    }
    fn id_field(self) -> &'static str {
        match self {
            Kind::Tool => "toolCallId",
            _ => "messageId",
        }
    }
    fn chunk_type(self) -> &'static str {
        match self {
            Kind::Text => T::TextMessageChunk,
            Kind::Tool => T::ToolCallChunk,
            Kind::Reasoning => T::ReasoningMessageChunk,
        }
        .as_str()
    }
    /// The start, content and end a chunk expands into.
    fn types(self) -> (EventType, EventType, EventType) {
        match self {
            Kind::Text => (
                T::TextMessageStart,
                T::TextMessageContent,
                T::TextMessageEnd,
            ),
            Kind::Tool => (T::ToolCallStart, T::ToolCallArgs, T::ToolCallEnd),
            Kind::Reasoning => (
                T::ReasoningMessageStart,
                T::ReasoningMessageContent,
                T::ReasoningMessageEnd,
            ),
        }
    }
}

struct OpenChunk {
    kind: Kind,
    id: String,
    /// (field, value) pairs a continuation must match: role/name, toolCallName/parentMessageId.
    fields: Vec<(&'static str, Option<String>)>,
}

impl OpenChunk {
    fn end(self, lane: &Option<String>) -> Expanded {
        let id = [(self.kind.id_field(), Value::String(self.id))];
        (Some(synth(self.kind.types().2, &id, lane)), false)
    }
}

/// An expanded event (`None`: the event as fed, unchanged; `Some`: a synthetic or changed
/// event) and whether it is the start of a stream opened by a chunk.
pub type Expanded = (Option<Value>, bool);

/// `transformChunks`: one pending chunk stream per lane (the `subagentRunId`, or the parent).
#[derive(Default)]
pub struct Chunks {
    lanes: IndexMap<Option<String>, OpenChunk, FastIds>,
}

/// Builds a synthetic event with an optional subagent tag.
fn synth(t: EventType, pairs: &[(&str, Value)], lane: &Option<String>) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), Value::String(t.as_str().into()));
    for (k, v) in pairs {
        m.insert((*k).into(), v.clone());
    }
    if let Some(l) = lane {
        m.insert("subagentRunId".into(), Value::String(l.clone()));
    }
    Value::Object(m)
}

impl Chunks {
    /// Whether `ev` (as the shim left it) expands into itself alone: no stream is open, it is
    /// no chunk and carries no chunk marker.
    pub fn passes(&self, ev: &Ev<'_>) -> bool {
        self.lanes.is_empty() && Kind::of_chunk(ev.kind).is_none() && !ev.has("aguifyChunk")
    }

    /// Closes the stream open in `lane`: the end event of its kind.
    fn close(&mut self, lane: &Option<String>, out: &mut Vec<Expanded>) {
        if let Some(open) = self.lanes.shift_remove(lane) {
            out.push(open.end(lane));
        }
    }

    /// Closes every open stream, in the order they opened.
    fn close_all(&mut self, out: &mut Vec<Expanded>) {
        for (lane, open) in std::mem::take(&mut self.lanes) {
            out.push(open.end(&lane));
        }
    }

    /// Expands one event into `out`. An `Err` is the client's `transformChunks` error
    /// `(rule, message, id)`.
    /// `event` is the event as the shim changed it, or `None` for `base` unchanged.
    pub fn feed(
        &mut self,
        event: Option<Value>,
        base: &Ev<'_>,
        out: &mut Vec<Expanded>,
    ) -> Result<(), (&'static str, String, Option<String>)> {
        let local;
        let ev: &Ev<'_> = match &event {
            None => base,
            Some(v) => {
                local = Ev::of(v);
                &local
            }
        };
        let Some(kind) = Kind::of_chunk(ev.kind) else {
            match ev.kind {
                Some(EventType::RunStarted)
                | Some(EventType::RunFinished)
                | Some(EventType::RunError)
                | Some(EventType::MessagesSnapshot) => self.close_all(out),
                Some(EventType::Raw)
                | Some(EventType::ActivitySnapshot)
                | Some(EventType::ActivityDelta)
                | Some(EventType::ReasoningEncryptedValue)
                | Some(EventType::SubagentStarted) => {}
                _ => self.close(&tag(ev), out),
            }
            // An input event that carries the marker itself is treated like an expanded start.
            let marked = ev.has("aguifyChunk");
            let copy = (marked && event.is_none())
                .then(|| ev.json().cloned())
                .flatten();
            let mut event = event.or(copy);
            if marked {
                if let Some(o) = event.as_mut().and_then(Value::as_object_mut) {
                    o.remove("aguifyChunk");
                }
            }
            out.push((event, marked));
            return Ok(());
        };
        let id = ev.s(kind.id_field()).map(str::to_string);
        let t_tag = tag(ev);
        let lane: Option<String> = match &id {
            Some(id) => {
                let found = self
                    .lanes
                    .iter()
                    .find(|(_, o)| o.kind == kind && &o.id == id)
                    .map(|(l, _)| l.clone());
                match found {
                    Some(l) => {
                        if t_tag.is_some() && t_tag != l {
                            return Err((
                                "AGX132",
                                format!(
                                    "Cannot continue {} '{}': chunk subagentRunId '{}' does not match the open stream's subagent '{}'.",
                                    kind.noun(),
                                    id,
                                    t_tag.as_deref().unwrap_or(""),
                                    owner_name(l.as_deref())
                                ),
                                Some(id.clone()),
                            ));
                        }
                        l
                    }
                    None => t_tag.clone(),
                }
            }
            None if t_tag.is_some() => t_tag.clone(),
            None => {
                let open: Vec<&Option<String>> = self
                    .lanes
                    .iter()
                    .filter(|(_, o)| o.kind == kind)
                    .map(|(l, _)| l)
                    .collect();
                if open.len() > 1 {
                    return Err((
                        "AGX133",
                        format!(
                            "Ambiguous {}: it carries neither a {} nor a subagentRunId, but {} lanes have an open {}. Attribute the chunk to the subagent it belongs to.",
                            kind.chunk_type(),
                            kind.id_field(),
                            open.len(),
                            kind.noun()
                        ),
                        None,
                    ));
                }
                open.first().map(|l| (*l).clone()).unwrap_or(None)
            }
        };
        let continues = self
            .lanes
            .get(&lane)
            .is_some_and(|o| o.kind == kind && id.as_ref().is_none_or(|i| *i == o.id));
        if continues {
            let Some(open) = self.lanes.get(&lane) else {
                return Ok(());
            };
            for (f, v) in &open.fields {
                if let Some(p) = ev.s(f).filter(|p| Some(*p) != v.as_deref()) {
                    return Err((
                        "AGX131",
                        format!(
                            "Cannot continue {} '{}': chunk {} '{}' does not match the open stream's {} {}.",
                            kind.noun(),
                            open.id,
                            f,
                            p,
                            f,
                            match v {
                                Some(v) => format!("'{v}'"),
                                None => "(absent)".into(),
                            }
                        ),
                        Some(open.id.clone()),
                    ));
                }
            }
            out.extend(content(kind, ev, &open.id, &lane));
            return Ok(());
        }
        // A new stream: close what the lane had open first.
        let Some(id) = id else {
            return Err((
                "AGX130",
                format!(
                    "First {} must have a {}",
                    kind.chunk_type(),
                    kind.id_field()
                ),
                None,
            ));
        };
        if kind == Kind::Tool && ev.s("toolCallName").is_none() {
            return Err((
                "AGX130",
                "First TOOL_CALL_CHUNK must have a toolCallName".into(),
                Some(id),
            ));
        }
        self.close(&lane, out);
        // What a continuation must match, and what the start event carries after the id.
        let field = |k: &'static str| (k, ev.s(k).map(str::to_string));
        let fields = match kind {
            Kind::Text => vec![
                (
                    "role",
                    Some(ev.s("role").unwrap_or("assistant").to_string()),
                ),
                field("name"),
            ],
            Kind::Tool => vec![field("toolCallName"), field("parentMessageId")],
            Kind::Reasoning => vec![],
        };
        let mut pairs = vec![(kind.id_field(), Value::String(id.clone()))];
        for (k, v) in &fields {
            pairs.extend(v.clone().map(|v| (*k, Value::String(v))));
        }
        if kind == Kind::Reasoning {
            pairs.push(("role", Value::String("reasoning".into())));
        }
        out.push((Some(synth(kind.types().0, &pairs, &lane)), true));
        out.extend(content(kind, ev, &id, &lane));
        self.lanes.insert(lane, OpenChunk { kind, id, fields });
        Ok(())
    }
}

/// The content event a chunk of stream `id` expands into, when it has a delta (or a rawEvent
/// or metadata: the client then sends an empty delta).
fn content(kind: Kind, ev: &Ev<'_>, id: &str, lane: &Option<String>) -> Option<Expanded> {
    if !(ev.has("delta") || ev.has("rawEvent") || ev.has("metadata")) {
        return None;
    }
    let delta = ev
        .get("delta")
        .cloned()
        .unwrap_or(Value::String(String::new()));
    let pairs = [
        (kind.id_field(), Value::String(id.into())),
        ("delta", delta),
    ];
    Some((Some(synth(kind.types().1, &pairs, lane)), false))
}
