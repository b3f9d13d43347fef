//! A `MESSAGES_SNAPSHOT`'s messages: the mapper's, typed ([`Item`]), serialised by serde derive,
//! and a capture's, as JSON. (Built as JSON maps, the mapper's items hashed every key as they
//! were made, were cloned, checked and dropped as maps: 9 M instructions of 118 M converting
//! 2 MB of v3-js, docs/performance.md.)

use std::borrow::Cow;

use crate::json::Field;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Role, ToolContent};

/// A message of a `MESSAGES_SNAPSHOT`: one the mapper made, or one a capture holds (any JSON:
/// the schema allows more than the mapper writes). Each is written as it is, and a capture's
/// is read as it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Message {
    /// A message the mapper made.
    #[serde(skip_deserializing)]
    Item(Item),
    /// A capture's message, as it is.
    Json(Value),
}

/// An AG-UI message as the mapper makes it: `id`, `role`, then the role's fields in this
/// order, an absent one left out.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Item {
    /// The message's id.
    pub id: String,
    /// Its role.
    pub role: Role,
    /// Its text (a user, system or tool message's always; an assistant's when it has some),
    /// or a tool message's content parts (a result holding media).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<ToolContent>,
    /// An assistant message's calls.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// The call a tool message answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// A failed tool's message (its content).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// An assistant message's call: `{"id", "type": "function", "function": {"name", "arguments"}}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCall {
    /// The call's id.
    pub id: String,
    #[serde(rename = "type")]
    kind: &'static str,
    /// What is called.
    pub function: Function,
}

/// A call's tool and its arguments (JSON text).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Function {
    /// The tool's name.
    pub name: String,
    /// The arguments, JSON text.
    pub arguments: String,
}

impl ToolCall {
    /// Call `id` of tool `name` with `arguments` (JSON text).
    pub fn new(id: String, name: String, arguments: String) -> ToolCall {
        let (kind, function) = ("function", Function { name, arguments });
        ToolCall { id, kind, function }
    }
}

impl Item {
    /// Message `id` of `role` with `content`, nothing else.
    pub fn new(id: String, role: Role, content: Option<String>) -> Item {
        Item {
            id,
            role,
            content: content.map(ToolContent::Text),
            ..Item::default()
        }
    }

    /// The message as a JSON tree.
    pub fn to_value(&self) -> Value {
        // Serializing strings into a tree cannot fail.
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

impl Message {
    /// The message as a JSON tree (a capture's borrowed).
    pub fn to_value(&self) -> Cow<'_, Value> {
        match self {
            Message::Item(m) => Cow::Owned(m.to_value()),
            Message::Json(v) => Cow::Borrowed(v),
        }
    }

    /// The message read in place.
    pub fn view(&self) -> Msg<'_> {
        match self {
            Message::Item(m) => Msg::Item(m),
            Message::Json(v) => Msg::Json(v),
        }
    }
}

/// A message read in place, typed or JSON (a capture's, a `RUN_STARTED` input's).
#[derive(Debug, Clone, Copy)]
pub enum Msg<'a> {
    /// The mapper's.
    Item(&'a Item),
    /// A JSON message.
    Json(&'a Value),
}

impl<'a> Msg<'a> {
    /// `id`, when a string.
    pub fn id(self) -> Option<&'a str> {
        match self {
            Msg::Item(m) => Some(&m.id),
            Msg::Json(v) => v.field_str("id"),
        }
    }

    /// `role`, when a string.
    pub fn role(self) -> Option<&'a str> {
        match self {
            Msg::Item(m) => Some(m.role.as_str()),
            Msg::Json(v) => v.field_str("role"),
        }
    }

    /// The ids of `toolCalls` that are strings.
    pub fn call_ids(self) -> impl Iterator<Item = &'a str> {
        let (typed, json) = match self {
            Msg::Item(m) => (&m.tool_calls[..], None),
            Msg::Json(v) => (&[][..], v.field("toolCalls").and_then(Value::as_array)),
        };
        let json = json.into_iter().flatten().filter_map(|c| c.field_str("id"));
        typed.iter().map(|c| c.id.as_str()).chain(json)
    }

    /// Key `key` of a JSON message, for a key the mapper's items never have
    /// (`subagentRunId`, `metadata`, …): a typed one has none.
    pub fn extra(self, key: &str) -> Option<&'a Value> {
        match self {
            Msg::Item(_) => None,
            Msg::Json(v) => v.field(key),
        }
    }
}
