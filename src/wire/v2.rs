//! v2 `astream_events` events (`{"event":"on_…","data":…,"run_id","name","tags","metadata",
//! "parent_ids"}`), read typed on a parse thread: of `metadata`, which the API server fills
//! with a dozen keys, only the two the adapter reads; of `data`, only the key the adapter
//! reads for the event's kind ([`Event::read_keys`]: a model end's `input`, the whole
//! conversation, is never built).
//!
//! Fields read as `Option<Value>` keep "absent" apart from `null`, as a lookup in the event's
//! tree would. A line the typed struct declines (a repeated key, `metadata` not an object) is
//! read from its tree.

use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::payload::Payload;

/// A v2 event as the adapter reads it (`D`: `data` as read; on the wire, its raw text).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(bound(deserialize = "D: Deserialize<'de>"))]
pub struct Event<D = Value> {
    /// `on_chain_start`, `on_chat_model_stream`…
    pub event: String,
    #[serde(default, deserialize_with = "present")]
    pub data: Option<D>,
    #[serde(default, deserialize_with = "present")]
    pub run_id: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    pub name: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    pub tags: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    pub parent_ids: Option<Value>,
    #[serde(default)]
    pub metadata: Metadata,
    /// Read to tell a v3 event (`type` `"event"` with a string `method`) apart.
    #[serde(rename = "type", default, deserialize_with = "present")]
    kind: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    method: Option<Value>,
    /// An `on_custom_event`'s `data`, passed through as text (its `data` is then `None`): a
    /// payload of megabytes is not made a tree.
    #[serde(skip)]
    pub custom_data: Option<Payload>,
}

/// What is read of `metadata`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Metadata {
    #[serde(default, deserialize_with = "present")]
    pub langgraph_node: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    pub thread_id: Option<Value>,
    /// The namespace of the task the event ran in (`tools:<id>|model:<id>`): where a graph
    /// nested in a tool call (a sub-agent) shows.
    #[serde(default, deserialize_with = "present")]
    pub langgraph_checkpoint_ns: Option<Value>,
}

fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

impl Event {
    /// The v2 event of a line whose `event` is `on_…` (`None` for any other line).
    pub fn read(text: &str) -> Option<Event> {
        let e = match serde_json::from_str::<Event<&RawValue>>(text) {
            Ok(e) => e.read_data()?,
            Err(_) => Event::of_tree(&serde_json::from_str(text).ok()?)?,
        };
        (e.is_v2() && e.event.starts_with("on_")).then(|| e.with_custom_data())
    }

    /// An `on_custom_event` read from a tree, with its `data` as a payload.
    fn with_custom_data(mut self) -> Event {
        if self.event == "on_custom_event" && self.custom_data.is_none() {
            self.custom_data = self.data.take().map(|d| Payload::from_value(&d));
        }
        self
    }

    /// The v2 event a record's tree holds, as the adapter reads it: the record, or the `data`
    /// of an `events` stream part (`sse_event`: the SSE frame's name). `None` for a record
    /// of another kind.
    pub fn of_record(v: &Value, sse_event: Option<&str>) -> Option<Event> {
        let base = |e: &str| e.split('|').next() == Some("events");
        let event = v.get("event").and_then(Value::as_str);
        let payload = match (sse_event, event) {
            (Some("events"), _) => v,
            (Some(e), _) if base(e) => match event {
                Some("events") => v.get("data").unwrap_or(v),
                _ => v,
            },
            (Some(_), _) => return None,
            (None, Some("events")) => v.get("data").unwrap_or(v),
            (None, Some(e)) if e.starts_with("on_") || base(e) => v,
            (None, _) => return None,
        };
        Event::of_tree(payload)
    }

    /// The v2 event of a tree with an `event` string (not a v3 event).
    fn of_tree(v: &Value) -> Option<Event> {
        let o = v.as_object()?;
        let get = |k: &str| o.get(k).cloned();
        let meta = |k: &str| v.get("metadata").and_then(|m| m.get(k)).cloned();
        let e = Event {
            event: o.get("event")?.as_str()?.to_string(),
            data: get("data"),
            run_id: get("run_id"),
            name: get("name"),
            tags: get("tags"),
            parent_ids: get("parent_ids"),
            metadata: Metadata {
                langgraph_node: meta("langgraph_node"),
                thread_id: meta("thread_id"),
                langgraph_checkpoint_ns: meta("langgraph_checkpoint_ns"),
            },
            kind: get("type"),
            method: get("method"),
            custom_data: None,
        };
        e.is_v2().then(|| e.with_custom_data())
    }
}

impl<D> Event<D> {
    fn is_v2(&self) -> bool {
        !(self.kind.as_ref().and_then(Value::as_str) == Some("event")
            && self.method.as_ref().is_some_and(Value::is_string))
    }

    /// Whether the event is of the root run: no parent runs (or, without `parent_ids`, a
    /// chain event outside any node).
    pub fn is_root(&self) -> bool {
        match self.parent_ids.as_ref().and_then(Value::as_array) {
            Some(p) => p.is_empty(),
            None => self.metadata.langgraph_node.is_none() && self.event.starts_with("on_chain_"),
        }
    }
}

/// Which of an event's `data` the adapter reads.
enum Read {
    Nothing,
    /// `data` whole (a custom event's payload).
    Whole,
    Input,
    Output,
    /// A root chain's stream chunk (a node's update, an interrupt, a custom part).
    Chunk,
    /// A model's stream chunk ([`StreamChunk`]).
    ModelChunk,
    ToolError,
}

impl Event<&RawValue> {
    /// What the adapter (`adapter/v2.rs`) reads of `data` for this event: a node's stream
    /// chunk, a model's start, a runnable inside a node are read by their envelope only.
    fn read_keys(&self) -> Read {
        let root = self.is_root();
        let name = self
            .name
            .as_ref()
            .and_then(Value::as_str)
            .unwrap_or_default();
        let step = self
            .metadata
            .langgraph_node
            .as_ref()
            .and_then(Value::as_str)
            == Some(name);
        match self.event.as_str() {
            "on_chain_start" if root || step => Read::Input,
            "on_chain_stream" if root => Read::Chunk,
            "on_chain_end" => Read::Output,
            "on_chat_model_stream" => Read::ModelChunk,
            "on_chat_model_end" => Read::Output,
            "on_tool_start" => Read::Input,
            "on_tool_end" => Read::Output,
            "on_tool_error" => Read::ToolError,
            "on_custom_event" => Read::Whole,
            _ => Read::Nothing,
        }
    }

    /// The event with its `data` read as far as the adapter reads it: an object of the keys
    /// it reads, or (not an object, a repeated key) the whole tree. `None` when that data is
    /// no JSON serde_json reads (nested too deeply): the line is then read whole, and fails.
    fn read_data(self) -> Option<Event> {
        let mut custom_data = None;
        let data = match self.data {
            None => None,
            // A custom event's payload stays text: megabytes are not made a tree. Data no
            // tree can hold (nested too deep) is read, and reported, whole.
            Some(raw) if matches!(self.read_keys(), Read::Whole) => {
                custom_data = Some(Payload::read(raw.get())?);
                None
            }
            Some(raw) => {
                let text = raw.get();
                let kept = match self.read_keys() {
                    Read::Nothing => Some(None),
                    _ if !text.starts_with('{') => None,
                    Read::Whole => None, // read above, as a payload
                    Read::Input => from::<Input>(text).map(|d| object([("input", norm(d.input))])),
                    Read::Output => {
                        from::<Output>(text).map(|d| object([("output", norm(d.output))]))
                    }
                    Read::Chunk => from::<Chunk>(text).map(|d| object([("chunk", norm(d.chunk))])),
                    Read::ModelChunk => from::<RawChunk>(text).and_then(|d| {
                        let chunk = match d.chunk {
                            Some(c) => Some(StreamChunk::read(c)?),
                            None => None,
                        };
                        Some(object([("chunk", norm(chunk))]))
                    }),
                    Read::ToolError => from::<ToolError>(text)
                        .map(|d| object([("error", d.error), ("tool_call_id", d.tool_call_id)])),
                };
                match kept {
                    Some(kept) => kept,
                    None => Some(tree(text)?),
                }
            }
        };
        Some(Event {
            event: self.event,
            data,
            run_id: self.run_id,
            name: self.name,
            tags: self.tags,
            parent_ids: self.parent_ids,
            metadata: self.metadata,
            kind: self.kind,
            method: self.method,
            custom_data,
        })
    }
}

fn from<'a, T: Deserialize<'a>>(text: &'a str) -> Option<T> {
    serde_json::from_str(text).ok()
}

/// Normalised here, on a parse thread, where the value is owned: the adapter normalises
/// what it reads again, which then changes nothing and copies nothing.
fn norm(v: Option<Value>) -> Option<Value> {
    v.map(crate::wire::langchain::normalize_owned)
}

fn tree(text: &str) -> Option<Value> {
    serde_json::from_str(text).ok()
}

/// An object of the keys that are present.
fn object<const N: usize>(entries: [(&str, Option<Value>); N]) -> Option<Value> {
    let map: Map<String, Value> = entries
        .into_iter()
        .filter_map(|(k, v)| Some((k.to_string(), v?)))
        .collect();
    Some(Value::Object(map))
}

// The keys of `data` the adapter reads, by event kind.
#[derive(Deserialize)]
struct Input {
    #[serde(default, deserialize_with = "present")]
    input: Option<Value>,
}

#[derive(Deserialize)]
struct Output {
    #[serde(default, deserialize_with = "present")]
    output: Option<Value>,
}

#[derive(Deserialize)]
struct Chunk {
    #[serde(default, deserialize_with = "present")]
    chunk: Option<Value>,
}

#[derive(Deserialize)]
struct RawChunk<'a> {
    #[serde(borrow, default, deserialize_with = "present")]
    chunk: Option<&'a RawValue>,
}

/// A model's stream chunk, flat (`{"content",…,"type":"AIMessageChunk"}`) or serialised
/// (`{"lc":1,"type":"constructor","id":[…],"kwargs":{…}}`): what `adapter::content`
/// reads of it (`content`, `additional_kwargs`, `tool_call_chunks`, `id`) and what
/// normalising it reads (`lc`, `type`, `id`, `kwargs`, `role`, `repr`). The rest (response
/// metadata, usage, the finished tool calls) is skipped: a dozen keys a chunk.
#[derive(Deserialize)]
struct StreamChunk<'a> {
    #[serde(default, deserialize_with = "present")]
    lc: Option<Value>,
    #[serde(rename = "type", default, deserialize_with = "present")]
    kind: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    id: Option<Value>,
    #[serde(borrow, default, deserialize_with = "present")]
    kwargs: Option<&'a RawValue>,
    #[serde(default, deserialize_with = "present")]
    role: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    repr: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    content: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    additional_kwargs: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    tool_call_chunks: Option<Value>,
    /// Present: normalising unwraps an object of this one key only, so the chunk is read
    /// whole.
    #[serde(borrow, default, deserialize_with = "present")]
    __lc_escaped__: Option<&'a RawValue>,
}

impl StreamChunk<'_> {
    /// The chunk's tree as far as it is read (`None`: not JSON serde_json reads).
    fn read(raw: &RawValue) -> Option<Value> {
        let text = raw.get();
        let typed = if text.starts_with('{') {
            from::<StreamChunk>(text)
        } else {
            None
        };
        match typed {
            Some(c) if c.__lc_escaped__.is_none() => {
                let kwargs = match c.kwargs {
                    Some(k) => Some(StreamChunk::read(k)?),
                    None => None,
                };
                object([
                    ("lc", c.lc),
                    ("type", c.kind),
                    ("id", c.id),
                    ("kwargs", kwargs),
                    ("role", c.role),
                    ("repr", c.repr),
                    ("content", c.content),
                    ("additional_kwargs", c.additional_kwargs),
                    ("tool_call_chunks", c.tool_call_chunks),
                ])
            }
            _ => tree(text),
        }
    }
}

#[derive(Deserialize)]
struct ToolError {
    #[serde(default, deserialize_with = "present")]
    error: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    tool_call_id: Option<Value>,
}

impl Event {
    /// A top-level key the adapter reads.
    pub fn field(&self, key: &str) -> Option<&Value> {
        match key {
            "data" => self.data.as_ref(),
            "run_id" => self.run_id.as_ref(),
            "name" => self.name.as_ref(),
            "tags" => self.tags.as_ref(),
            "parent_ids" => self.parent_ids.as_ref(),
            _ => None,
        }
    }

    /// A key of `metadata` the adapter reads.
    pub fn meta(&self, key: &str) -> Option<&Value> {
        match key {
            "langgraph_node" => self.metadata.langgraph_node.as_ref(),
            "thread_id" => self.metadata.thread_id.as_ref(),
            "langgraph_checkpoint_ns" => self.metadata.langgraph_checkpoint_ns.as_ref(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn read_as_its_tree() {
        for line in [
            json!({"event":"on_chain_start","data":{"input":null},"run_id":"r","name":"n","tags":[],"metadata":{"langgraph_node":"a","x":1},"parent_ids":[]}),
            json!({"event":"on_chain_end","metadata":"not an object","data":null}),
            json!({"event":"on_x","metadata":{"thread_id":null}}),
        ] {
            let text = line.to_string();
            let e = Event::read(&text).expect("v2");
            let tree = Event::of_record(&line, None).expect("v2");
            assert_eq!(e.data, tree.data, "{text}");
            assert_eq!(e.metadata, tree.metadata, "{text}");
            for k in ["data", "run_id", "name", "tags", "parent_ids"] {
                assert_eq!(e.field(k), line.get(k), "{k} of {text}");
            }
            for k in ["langgraph_node", "thread_id", "langgraph_checkpoint_ns"] {
                assert_eq!(e.meta(k), line["metadata"].get(k), "{k} of {text}");
            }
        }
        let repeated = r#"{"event":"on_a","run_id":"1","run_id":"2"}"#;
        assert_eq!(
            Event::read(repeated).and_then(|e| e.run_id),
            Some(json!("2"))
        );
        assert_eq!(Event::read(r#"{"event":"events","data":{}}"#), None);
        // Of `data`, the keys the adapter reads for the kind (a repeated key: the whole tree,
        // which counts it last).
        let data = |line: &str| Event::read(line).and_then(|e| e.data);
        assert_eq!(
            data(
                r#"{"event":"on_chat_model_end","data":{"input":{"messages":[]},"output":{"id":"m"}}}"#
            ),
            Some(json!({"output":{"id":"m"}}))
        );
        assert_eq!(
            data(r#"{"event":"on_tool_end","data":{"input":1,"output":2,"output":3}}"#),
            Some(json!({"input":1,"output":3}))
        );
        assert_eq!(
            data(r#"{"event":"on_tool_error","data":{"error":"e","input":1}}"#),
            Some(json!({"error":"e"}))
        );
        assert_eq!(
            data(r#"{"event":"on_chat_model_start","data":{"input":1}}"#),
            None
        );
        assert_eq!(
            data(r#"{"event":"on_chain_stream","data":{"chunk":1},"parent_ids":["r"]}"#),
            None
        );
        assert_eq!(
            data(r#"{"event":"on_chain_stream","data":{"chunk":1},"parent_ids":[]}"#),
            Some(json!({"chunk":1}))
        );
        assert_eq!(
            data(r#"{"event":"on_chain_start","data":[1],"parent_ids":[]}"#),
            Some(json!([1]))
        );
        // A model's stream chunk: what the adapter reads of it normalised, as of its tree.
        for chunk in [
            json!({"content":"a","additional_kwargs":{"reasoning_content":"r"},"response_metadata":{},"type":"AIMessageChunk","name":null,"id":"m","tool_calls":[],"tool_call_chunks":[{"id":"c","args":"{"}]}),
            json!({"lc":1,"type":"constructor","id":["x","AIMessageChunk"],"kwargs":{"content":[{"type":"text","text":"b"}],"id":"m","tool_calls":[],"usage_metadata":{"input_tokens":1}}}),
            json!({"lc":1,"type":"constructor","id":["x","ChatMessageChunk"],"kwargs":{"content":"c","role":"critic"}}),
            json!({"lc":1,"type":"not_implemented","id":["x"],"repr":"X(content='d')"}),
            json!({"__lc_escaped__":{"content":"e"}}),
            json!({"lc":1,"type":"constructor","id":["x","AIMessageChunk"],"kwargs":[1]}),
        ] {
            let line = json!({"event":"on_chat_model_stream","data":{"chunk":chunk.clone(),"x":1}});
            let read = data(&line.to_string()).expect("data");
            let read = crate::wire::langchain::normalize_deep(&read["chunk"]);
            let tree = crate::wire::langchain::normalize_deep(&chunk);
            for k in [
                "content",
                "additional_kwargs",
                "tool_call_chunks",
                "id",
                "type",
            ] {
                assert_eq!(read.get(k), tree.get(k), "{k} of {chunk}");
            }
        }
        // An `on_custom_event`'s data is a payload, whichever way it was read.
        for text in [
            r#"{"event":"on_custom_event","data":{"a":[1.0,2]},"name":"n","run_id":"r"}"#,
            r#"{"name":"n","event":"on_custom_event","data":{"a":[1.0,2]},"run_id":"r"}"#,
        ] {
            let e = Event::read(text).expect("v2");
            let tree: Value = serde_json::from_str(text).expect("json");
            assert_eq!(Some(&e), Event::of_record(&tree, None).as_ref(), "{text}");
            assert_eq!(e.data, None);
            assert_eq!(
                e.custom_data.as_ref().map(Payload::get),
                Some(r#"{"a":[1.0,2]}"#)
            );
        }
        assert_eq!(
            Event::read(r#"{"event":"on_a","type":"event","method":"m"}"#),
            None
        );
    }
}
