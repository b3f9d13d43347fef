//! v2 `astream_events` events (`{"event":"on_…","data":…,"run_id","name","tags","metadata",
//! "parent_ids"}`), read typed on a parse thread: of `metadata`, which the API server fills
//! with a dozen keys, only the two the adapter reads; `data` whole.
//!
//! Fields read as `Option<Value>` keep "absent" apart from `null`, as a lookup in the event's
//! tree would. A line the typed struct declines (a repeated key, `metadata` not an object) is
//! read from its tree.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// A v2 event as the adapter reads it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Event {
    /// `on_chain_start`, `on_chat_model_stream`…
    pub event: String,
    #[serde(default, deserialize_with = "present")]
    pub data: Option<Value>,
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
        let e = match serde_json::from_str::<Event>(text) {
            Ok(e) => e,
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
                langgraph_checkpoint_ns: meta("langgraph_checkpoint_ns"),
            },
            kind: get("type"),
            method: get("method"),
        };
        e.is_v2().then_some(e)
    }

    fn is_v2(&self) -> bool {
        !(self.kind.as_ref().and_then(Value::as_str) == Some("event")
            && self.method.as_ref().is_some_and(Value::is_string))
    }

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
            assert_eq!(Some(&e), Event::of_record(&line, None).as_ref(), "{text}");
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
        assert_eq!(
            Event::read(r#"{"event":"on_a","type":"event","method":"m"}"#),
            None
        );
    }
}
