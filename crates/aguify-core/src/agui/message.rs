//! A `MESSAGES_SNAPSHOT`'s messages: the mapper's, typed ([`Item`]), serialised by serde derive,
//! made from a log's messages here ([`to_agui_messages`], [`MessageRef::to_agui`], from what
//! `wire::langchain::Fields` reads of them), and a capture's, as JSON. (Built as JSON maps, the
//! mapper's items hashed every key as they were made, were cloned, checked and dropped as maps:
//! 9 M instructions of 118 M converting 2 MB of v3-js, docs/performance.md.)

use std::borrow::Cow;

use crate::json::Field;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{Role, ToolContent};
use crate::model::{MessageRef, SharedJson, ToolResult};
use crate::wire::langchain::{self as lc, Fields};

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

impl MessageRef<'_> {
    /// Its AG-UI form as item `i` of its list (`msg-<i>` when it has no id).
    pub fn to_agui(self, i: usize) -> Option<Item> {
        match self {
            MessageRef::Value(v) => to_agui_list_item(v, i),
            MessageRef::Shared(m) => m.to_agui(i),
        }
    }

    /// The result this tool message (item `i` of its list) holds, converted, answering
    /// `tool_call_id` (a state's, when the log streams no `tools` event for it).
    pub(crate) fn tool_result(self, i: usize, tool_call_id: String) -> Option<ToolResult> {
        let m = self.to_agui(i)?;
        Some(ToolResult {
            content: (m.content).unwrap_or(ToolContent::Text(String::new())),
            message_id: Some(m.id),
            error: m.error.is_some(),
            tool_call_id,
            name: None,
        })
    }
}

impl SharedJson {
    /// The message's AG-UI form as item `i` of its list ([`to_agui_list_item`]),
    /// read from its text.
    /// A tool message without `tool_call_id` answers the call its list paired it with.
    pub fn to_agui(&self, i: usize) -> Option<Item> {
        self.fields().agui_item(i, self.paired.as_deref())
    }
}

impl Fields<'_> {
    /// The AG-UI form of the message as item `i` of its list, its id falling back to
    /// `msg-<i>` (`None` for a kind AG-UI has no role for, or a tool message answering no
    /// call). `answers`: the call a tool message without `tool_call_id` was paired with
    /// (`langchain::idless_answer`).
    pub(crate) fn agui_item(&self, i: usize, answers: Option<&str>) -> Option<Item> {
        let kind = self.kind()?;
        let id = self.id_or(|| format!("msg-{i}"));
        let text = || lc::content_text(&self.content);
        Some(match kind {
            "human" => Item::new(id, Role::User, Some(text())),
            "system" => Item::new(id, Role::System, Some(text())),
            "ai" => {
                let calls = lc::calls_of_message(&self.tool_calls, &self.content, &id, true);
                let content = Some(text()).filter(|t| !t.is_empty());
                Item {
                    tool_calls: (calls.into_iter())
                        .map(|c| ToolCall::new(c.id, c.name, c.args))
                        .collect(),
                    ..Item::new(id, Role::Assistant, content)
                }
            }
            "tool" => {
                let call_id = match self.tool_call_id() {
                    Some(id) => id.to_string(),
                    None => answers?.to_string(),
                };
                let error = (self.status.as_deref() == Some("error"))
                    .then(|| lc::tool_content_text(&self.content));
                Item {
                    tool_call_id: Some(call_id),
                    error,
                    content: Some(tool_content(&self.content)),
                    ..Item::new(id, Role::Tool, None)
                }
            }
            _ => return None,
        })
    }
}

/// Tool output as AG-UI content: its content parts when its block list holds media (an
/// image, audio, video or file block; text blocks as text parts, other blocks left out),
/// else its text (`langchain::tool_content_text`).
pub fn tool_content(content: &Value) -> ToolContent {
    let parts = (content.as_array()).map(|b| b.iter().filter_map(content_part).collect::<Vec<_>>());
    match parts {
        Some(p) if p.iter().any(|p| p.field_str("type") != Some("text")) => ToolContent::Parts(p),
        _ => ToolContent::Text(lc::tool_content_text(content)),
    }
}

/// A text or media content block (LangChain standard, OpenAI `image_url`, Anthropic `source`
/// forms) as an AG-UI content part: media with a `data` source (base64 and a MIME type) or a
/// `url` one. `None` for any other block.
fn content_part(b: &Value) -> Option<Value> {
    let kind = match b.field_str("type")? {
        "text" => return Some(json!({"type": "text", "text": b.field_str("text")?})),
        "image" | "image_url" => "image",
        "file" => "document",
        k @ ("audio" | "video") => k,
        _ => return None,
    };
    let src = b.field("source").filter(|s| s.is_object());
    let first = |keys: &[&str]| {
        let own = keys.iter().find_map(|k| b.field_str(k));
        own.or_else(|| src.and_then(|s| keys.iter().find_map(|k| s.field_str(k))))
    };
    let image_url = b
        .field("image_url")
        .and_then(|u| u.field_str("url").or(u.as_str()));
    let mime = first(&["mime_type", "mimeType"]).or(src.and_then(|s| s.field_str("media_type")));
    let source = match (first(&["base64", "data"]), first(&["url"]).or(image_url)) {
        (Some(data), _) => json!({"type": "data", "value": data, "mimeType": mime?}),
        (None, Some(url)) => match mime {
            Some(m) => json!({"type": "url", "value": url, "mimeType": m}),
            None => json!({"type": "url", "value": url}),
        },
        _ => return None,
    };
    Some(json!({"type": kind, "source": source}))
}

/// A message list (flat or constructor form) → AG-UI messages, ids falling back to `msg-<n>`.
/// A call the log gave no id gets the id the stream made up for it
/// (`langchain::made_up_call_id`), and a tool message without `tool_call_id` answers the call
/// `langchain::idless_answer` pairs it with.
pub fn to_agui_messages(list: &[Value]) -> Vec<Item> {
    let mut items: Vec<(Cow<Value>, Option<String>)> =
        list.iter().map(|m| (lc::normalize_cow(m), None)).collect();
    for at in 0..items.len() {
        let (before, rest) = items.split_at_mut(at);
        let m = Fields::of_value(&rest[0].0);
        if m.kind() == Some("tool") && m.tool_call_id().is_none() {
            let before = before
                .iter()
                .map(|(m, p)| (Fields::of_value(m), p.as_deref()));
            rest[0].1 = lc::idless_answer(before, m.name.as_deref());
        }
    }
    (items.iter().enumerate())
        .filter_map(|(i, (m, paired))| Fields::of_value(m).agui_item(i, paired.as_deref()))
        .collect()
}

/// The AG-UI form of item `i` of a message list (what [`to_agui_messages`] makes of it).
pub fn to_agui_list_item(m: &Value, i: usize) -> Option<Item> {
    Fields::of_value(&lc::normalize_cow(m)).agui_item(i, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::langchain::tests::{idless_conversation, message_list};
    use crate::wire::langchain::{
        may_be_tool_message, normalize_cow, tool_call_id, tool_content_text,
    };
    use serde_json::json;

    /// [`to_agui_messages`] as JSON trees.
    fn agui_values(list: &[Value]) -> Vec<Value> {
        to_agui_messages(list).iter().map(Item::to_value).collect()
    }

    /// [`to_agui_list_item`] as a JSON tree.
    fn item_value(m: &Value, i: usize) -> Option<Value> {
        to_agui_list_item(m, i).as_ref().map(Item::to_value)
    }

    #[test]
    fn tool_messages_are_found_as_the_full_conversion_finds_them() {
        let list = message_list();
        let eager: Vec<Value> = agui_values(&list)
            .into_iter()
            .filter(|m| m["role"] == "tool")
            .collect();
        let mut lazy = vec![];
        for (i, m) in list.iter().enumerate() {
            let n = normalize_cow(m);
            let full = item_value(&n, i);
            if !may_be_tool_message(m) {
                assert!(full.is_none_or(|f| f["role"] != "tool"), "{m}");
                continue;
            }
            if tool_call_id(&n).is_some() {
                lazy.extend(full);
            }
        }
        assert_eq!(lazy, eager);
        assert!(eager.len() >= 9, "{eager:?}");
    }

    /// The calls get the ids the stream made up for them (`<message id>:tool:<block index>`:
    /// the place of their `tool_call` block in `content`, else in `tool_calls`; `msg-<n>` for
    /// a message without id), and each tool message without `tool_call_id` answers the first
    /// call of that name left; one no call is left for gives no message.
    #[test]
    fn calls_without_ids_are_paired_by_name_and_order() {
        let list = agui_values(&idless_conversation());
        let calls = |m: &Value| -> Vec<Value> {
            (m["toolCalls"].as_array().into_iter().flatten())
                .map(|c| c["id"].clone())
                .collect()
        };
        assert_eq!(calls(&list[1]), [json!("a1:tool:1"), json!("a1:tool:2")]);
        assert_eq!(calls(&list[4]), [json!("msg-5:tool:0"), json!("has-one")]);
        let answers: Vec<(&Value, &Value)> = (list.iter())
            .filter(|m| m["role"] == "tool")
            .map(|m| (&m["id"], &m["toolCallId"]))
            .collect();
        assert_eq!(
            answers,
            [
                (&json!("t1"), &json!("a1:tool:2")),
                (&json!("t2"), &json!("a1:tool:1")),
                (&json!("t4"), &json!("has-one")),
                (&json!("t5"), &json!("msg-5:tool:0")),
            ]
        );
        // Item by item (no list to pair them in), they answer nothing; the calls are named.
        assert_eq!(item_value(&idless_conversation()[2], 2), None);
        assert_eq!(
            calls(&item_value(&idless_conversation()[1], 1).expect("ai")),
            calls(&list[1])
        );
    }

    #[test]
    fn agui_message_from_ai_with_tool_calls() {
        let m = json!({"type":"ai","id":"a1","content":[{"type":"reasoning","summary":[]},{"type":"text","text":"ok"}],
            "tool_calls":[{"id":"c1","name":"f","args":{"x":1}}]});
        let a = item_value(&m, 0).expect("ai message converts");
        assert_eq!(a["content"], "ok");
        assert_eq!(a["toolCalls"][0]["function"]["arguments"], "{\"x\":1}");
    }

    /// A tool output holding media is sent as content parts (every block form read), text
    /// and the other blocks as before; a tool message's AG-UI form holds the same parts.
    #[test]
    fn tool_output_with_media_is_content_parts() {
        let data = |mime: &str| json!({"type": "data", "value": "QUJD", "mimeType": mime});
        let url = json!({"type": "url", "value": "https://x/c.png"});
        let cases = [
            (
                json!({"type": "image", "base64": "QUJD", "mime_type": "image/png"}),
                json!({"type": "image", "source": data("image/png")}),
            ),
            (
                json!({"type": "image", "data": "QUJD", "mimeType": "image/png"}),
                json!({"type": "image", "source": data("image/png")}),
            ),
            (
                json!({"type": "image", "source": {"type": "base64", "media_type": "image/gif", "data": "QUJD"}}),
                json!({"type": "image", "source": data("image/gif")}),
            ),
            (
                json!({"type": "image_url", "image_url": {"url": "https://x/c.png"}}),
                json!({"type": "image", "source": url}),
            ),
            (
                json!({"type": "file", "url": "https://x/c.png"}),
                json!({"type": "document", "source": url}),
            ),
            (
                json!({"type": "audio", "base64": "QUJD", "mime_type": "audio/wav"}),
                json!({"type": "audio", "source": data("audio/wav")}),
            ),
        ];
        for (block, part) in cases {
            let content = json!([{"type": "text", "text": "Chart:"}, block, {"type": "reasoning"}]);
            let want = json!([{"type": "text", "text": "Chart:"}, part]);
            assert_eq!(
                serde_json::to_value(tool_content(&content)).expect("json"),
                want,
                "{content}"
            );
            let m = json!({"type": "tool", "content": content, "tool_call_id": "c1", "id": "t1"});
            assert_eq!(
                to_agui_list_item(&m, 0).expect("a tool message").to_value()["content"],
                want
            );
        }
        // No media (or media without a source, data without a MIME type): text, as before.
        for content in [
            json!("ok"),
            json!([{"type": "text", "text": "ok"}]),
            json!([{"type": "image", "base64": "QUJD"}]),
            json!({"k": 1}),
        ] {
            assert_eq!(
                serde_json::to_value(tool_content(&content)).expect("json"),
                Value::String(tool_content_text(&content)),
                "{content}"
            );
        }
    }
}
