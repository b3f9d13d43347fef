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
}

/// What is read of `metadata`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct Metadata {
    #[serde(default, deserialize_with = "present")]
    pub langgraph_node: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    pub thread_id: Option<Value>,
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
        (e.is_v2() && e.event.starts_with("on_")).then_some(e)
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
            },
            kind: get("type"),
            method: get("method"),
        };
        e.is_v2().then_some(e)
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
    Keys(&'static [&'static str]),
    Whole,
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
        Read::Keys(match self.event.as_str() {
            "on_chain_start" if root || step => &["input"],
            "on_chain_stream" if root => &["chunk"],
            "on_chain_end" => &["output"],
            "on_chat_model_stream" => &["chunk"],
            "on_chat_model_end" => &["output"],
            "on_tool_start" => &["input"],
            "on_tool_end" => &["output"],
            "on_tool_error" => &["error", "tool_call_id"],
            "on_custom_event" => return Read::Whole,
            _ => return Read::Nothing,
        })
    }

    /// The event with its `data` read as far as the adapter reads it: an object of the keys
    /// it reads, or (not an object, a repeated key) the whole tree. `None` when that data is
    /// no JSON serde_json reads (nested too deeply): the line is then read whole, and fails.
    fn read_data(self) -> Option<Event> {
        let tree = |text: &str| serde_json::from_str::<Value>(text).ok();
        let data = match self.data {
            None => None,
            Some(raw) => {
                let text = raw.get();
                match self.read_keys() {
                    Read::Nothing => None,
                    Read::Keys(keys) if text.starts_with('{') => {
                        let kept = match keys {
                            ["input"] => from::<Input>(text).map(|d| vec![("input", d.input)]),
                            ["output"] => from::<Output>(text).map(|d| vec![("output", d.output)]),
                            ["chunk"] => from::<Chunk>(text).map(|d| vec![("chunk", d.chunk)]),
                            _ => from::<ToolError>(text).map(|d| {
                                vec![("error", d.error), ("tool_call_id", d.tool_call_id)]
                            }),
                        };
                        Some(match kept {
                            Some(kept) => Value::Object(
                                kept.into_iter()
                                    .filter_map(|(k, v)| Some((k.to_string(), v?)))
                                    .collect::<Map<_, _>>(),
                            ),
                            None => tree(text)?,
                        })
                    }
                    _ => Some(tree(text)?),
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
        })
    }
}

fn from<'a, T: Deserialize<'a>>(text: &'a str) -> Option<T> {
    serde_json::from_str(text).ok()
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
            for k in ["langgraph_node", "thread_id"] {
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
        assert_eq!(
            data(r#"{"event":"on_custom_event","data":{"a":1,"b":[2]}}"#),
            Some(json!({"a":1,"b":[2]}))
        );
        assert_eq!(
            Event::read(r#"{"event":"on_a","type":"event","method":"m"}"#),
            None
        );
    }
}
