//! `transformChunks`: TEXT_MESSAGE_CHUNK, TOOL_CALL_CHUNK and REASONING_MESSAGE_CHUNK expanded
//! into the start, content and end events they stand for (AGX130–AGX133).

use foldhash::fast::RandomState as FastIds;
use indexmap::IndexMap;
use serde_json::Value;

use super::{owner_name, Ev, Life, LIVES};
use crate::agui::EventType;
use EventType as T;

/// The item of [`LIVES`] a chunk of type `t` stands for.
fn of_chunk(t: Option<EventType>) -> Option<&'static Life> {
    LIVES.iter().find(|l| l.chunk.is_some() && l.chunk == t)
}

struct OpenChunk {
    kind: &'static Life,
    id: String,
    /// (field, value) pairs a continuation must match: role/name, toolCallName/parentMessageId.
    fields: Vec<(&'static str, Option<String>)>,
}

impl OpenChunk {
    fn end(self, lane: &Option<String>) -> Expanded {
        let id = [(self.kind.id, Value::String(self.id))];
        (Some(synth(self.kind.end, &id, lane)), false)
    }
}

/// An expanded event (`None`: the event as fed, unchanged; `Some`: a synthetic or changed
/// event) and whether it is the start of a stream opened by a chunk.
pub type Expanded = (Option<Value>, bool);

/// A `transformChunks` error: rule, the client's message, the stream's id.
pub type Fail = (&'static str, String, Option<String>);

/// `transformChunks`: one pending chunk stream per lane (the `subagentRunId`, or the parent).
#[derive(Default)]
pub struct Chunks {
    lanes: IndexMap<Option<String>, OpenChunk, FastIds>,
}

/// Builds a synthetic event with an optional subagent tag.
fn synth(t: EventType, pairs: &[(&str, Value)], lane: &Option<String>) -> Value {
    let sub = lane
        .as_ref()
        .map(|l| ("subagentRunId", Value::from(l.as_str())));
    let all = std::iter::once(("type", Value::from(t.as_str()))).chain(pairs.iter().cloned());
    Value::Object(all.chain(sub).map(|(k, v)| (k.to_string(), v)).collect())
}

impl Chunks {
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

    /// Expands one event into `out`. An `Err` is the client's `transformChunks` error.
    /// `event` is the event as the shim changed it, or `None` for `base` unchanged.
    pub fn feed(
        &mut self,
        event: Option<Value>,
        base: &Ev<'_>,
        out: &mut Vec<Expanded>,
    ) -> Result<(), Fail> {
        let ev = &event.as_ref().map_or(*base, Ev::of);
        let Some(kind) = of_chunk(ev.kind) else {
            match ev.kind {
                // The common case: no stream is open, nothing to close.
                _ if self.lanes.is_empty() => {}
                Some(T::RunStarted | T::RunFinished | T::RunError | T::MessagesSnapshot) => {
                    self.close_all(out)
                }
                Some(
                    T::Raw
                    | T::ActivitySnapshot
                    | T::ActivityDelta
                    | T::ReasoningEncryptedValue
                    | T::SubagentStarted,
                ) => {}
                // The event's lane: the sub-agent it is attributed to, or the parent.
                _ => self.close(&ev.sub.map(str::to_string), out),
            }
            out.push((event, false));
            return Ok(());
        };
        let id = ev.s(kind.id).map(str::to_string);
        let lane = self.lane(kind, id.as_deref(), ev)?;
        let open = self.lanes.get(&lane);
        if let Some(open) =
            open.filter(|o| o.kind == kind && id.as_ref().is_none_or(|i| *i == o.id))
        {
            for (f, v) in &open.fields {
                if let Some(p) = ev.s(f).filter(|p| Some(*p) != v.as_deref()) {
                    let v = v.as_ref().map_or("(absent)".into(), |v| format!("'{v}'"));
                    let (noun, id) = (kind.noun, &open.id);
                    let msg = format!("Cannot continue {noun} '{id}': chunk {f} '{p}' does not match the open stream's {f} {v}.");
                    return Err(("AGX131", msg, Some(open.id.clone())));
                }
            }
            out.extend(content(kind, ev, &open.id, &lane));
            return Ok(());
        }
        // A new stream: close what the lane had open first.
        let Some(id) = id else {
            let msg = format!("First {} must have a {}", ev.t(), kind.id);
            return Err(("AGX130", msg, None));
        };
        if kind.start == T::ToolCallStart && ev.s("toolCallName").is_none() {
            let msg = "First TOOL_CALL_CHUNK must have a toolCallName".into();
            return Err(("AGX130", msg, Some(id)));
        }
        self.close(&lane, out);
        // What a continuation must match, and what the start event carries after the id.
        let field = |k: &'static str| (k, ev.s(k).map(str::to_string));
        let fields = match kind.start {
            T::TextMessageStart => {
                let role = ev.s("role").unwrap_or("assistant").to_string();
                vec![("role", Some(role)), field("name")]
            }
            T::ToolCallStart => vec![field("toolCallName"), field("parentMessageId")],
            _ => vec![],
        };
        let mut pairs = vec![(kind.id, Value::String(id.clone()))];
        for (k, v) in &fields {
            pairs.extend(v.clone().map(|v| (*k, Value::String(v))));
        }
        if kind.start == T::ReasoningMessageStart {
            pairs.push(("role", Value::String("reasoning".into())));
        }
        out.push((Some(synth(kind.start, &pairs, &lane)), true));
        out.extend(content(kind, ev, &id, &lane));
        self.lanes.insert(lane, OpenChunk { kind, id, fields });
        Ok(())
    }

    /// The lane a chunk of `kind` and stream `id` goes to: the lane whose open stream it
    /// continues, else its own tag's; untagged and without an id, the one lane with a stream
    /// of its kind open (AGX132: another lane's stream; AGX133: several lanes could be meant).
    fn lane(
        &self,
        kind: &'static Life,
        id: Option<&str>,
        ev: &Ev<'_>,
    ) -> Result<Option<String>, Fail> {
        let own = ev.sub.map(str::to_string);
        let of_kind = || self.lanes.iter().filter(move |(_, o)| o.kind == kind);
        if let Some(id) = id {
            return match of_kind().find(|(_, o)| o.id == id) {
                Some((lane, _)) if own.is_some() && own != *lane => {
                    let (noun, own) = (kind.noun, own.as_deref().unwrap_or(""));
                    let lane = owner_name(lane.as_deref());
                    let msg = format!("Cannot continue {noun} '{id}': chunk subagentRunId '{own}' does not match the open stream's subagent '{lane}'.");
                    Err(("AGX132", msg, Some(id.to_string())))
                }
                Some((lane, _)) => Ok(lane.clone()),
                None => Ok(own),
            };
        }
        if own.is_some() {
            return Ok(own);
        }
        let open: Vec<&Option<String>> = of_kind().map(|(l, _)| l).collect();
        if open.len() > 1 {
            let (t, key, n, noun) = (ev.t(), kind.id, open.len(), kind.noun);
            let msg = format!("Ambiguous {t}: it carries neither a {key} nor a subagentRunId, but {n} lanes have an open {noun}. Attribute the chunk to the subagent it belongs to.");
            return Err(("AGX133", msg, None));
        }
        Ok(open.first().and_then(|l| (*l).clone()))
    }
}

/// The content event a chunk of stream `id` expands into, when it has a delta (or a rawEvent
/// or metadata: the client then sends an empty delta).
fn content(kind: &'static Life, ev: &Ev<'_>, id: &str, lane: &Option<String>) -> Option<Expanded> {
    let has = |k| ev.get(k).is_some();
    if !(has("delta") || has("rawEvent") || has("metadata")) {
        return None;
    }
    let delta = ev.get("delta").cloned().unwrap_or("".into());
    let pairs = [(kind.id, Value::String(id.into())), ("delta", delta)];
    Some((Some(synth(kind.content, &pairs, lane)), false))
}
