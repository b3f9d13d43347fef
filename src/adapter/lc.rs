//! LangChain message shapes → one flat form, and flat messages → AG-UI messages.
//!
//! Messages arrive as API-server flat dicts (`{"type":"ai",…}`), langchain `dumpd` constructors
//! (`{"lc":1,"type":"constructor","id":[…,"AIMessage"],"kwargs":{…}}`, Python and JS) or JS
//! dict messages with `role`. Everything downstream reads the flat form produced here.

use crate::json::Field;
use std::borrow::Cow;

use serde_json::{json, Map, Value};

use super::pyrepr;

/// Flattens lc constructors (anywhere inside `v`) into their kwargs plus a `type`, unwraps
/// `__lc_escaped__` user dicts, and parses `not_implemented` reprs of LangGraph types.
pub fn normalize_deep(v: &Value) -> Value {
    normalize_changed(v).unwrap_or_else(|| v.clone())
}

/// [`normalize_deep`] without the copy when there is nothing to normalize (no object with an
/// `lc` or `__lc_escaped__` key anywhere): API-server logs and already-normalized values are
/// read in place.
pub fn normalize_cow(v: &Value) -> Cow<'_, Value> {
    match normalize_changed(v) {
        Some(n) => Cow::Owned(n),
        None => Cow::Borrowed(v),
    }
}

/// Whether an object has an `lc` / `__lc_escaped__` key: a scan of the keys, cheaper than two
/// hashed lookups for the small objects of messages.
fn special_keys(m: &Map<String, Value>) -> (bool, bool) {
    if m.len() > 16 {
        return (m.contains_key("lc"), m.contains_key("__lc_escaped__"));
    }
    let (mut lc, mut escaped) = (false, false);
    for k in m.keys() {
        lc |= k == "lc";
        escaped |= k == "__lc_escaped__";
    }
    (lc, escaped)
}

/// The normalized form of `v`, or `None` when it is `v` itself (clean parts are then copied
/// whole instead of rebuilt key by key).
fn normalize_changed(v: &Value) -> Option<Value> {
    match v {
        Value::Object(m) => {
            let (lc, escaped) = special_keys(m);
            if lc {
                if let Some(flat) = flatten_constructor(m) {
                    return Some(flat);
                }
            }
            if escaped && m.len() == 1 {
                if let Some(inner) = m.field("__lc_escaped__") {
                    return Some(normalize_deep(inner));
                }
            }
            if lc && is_not_implemented(m) {
                if let Some(parsed) = parse_repr_object(m) {
                    return Some(parsed);
                }
            }
            let (at, first) = m
                .values()
                .enumerate()
                .find_map(|(i, c)| normalize_changed(c).map(|n| (i, n)))?;
            let mut first = Some(first);
            Some(Value::Object(
                m.iter()
                    .enumerate()
                    .map(|(i, (k, c))| {
                        let c = match i.cmp(&at) {
                            std::cmp::Ordering::Less => c.clone(),
                            std::cmp::Ordering::Equal => first.take().unwrap_or(Value::Null),
                            std::cmp::Ordering::Greater => normalize_deep(c),
                        };
                        (k.clone(), c)
                    })
                    .collect(),
            ))
        }
        Value::Array(a) => {
            let (at, first) = a
                .iter()
                .enumerate()
                .find_map(|(i, c)| normalize_changed(c).map(|n| (i, n)))?;
            let mut out = Vec::with_capacity(a.len());
            out.extend(a[..at].iter().cloned());
            out.push(first);
            out.extend(a[at + 1..].iter().map(normalize_deep));
            Some(Value::Array(out))
        }
        _ => None,
    }
}

fn is_not_implemented(m: &Map<String, Value>) -> bool {
    m.field("lc").is_some_and(|v| v == 1) && m.field("type").is_some_and(|t| t == "not_implemented")
}

/// The class name of an lc-serialized object (`["langgraph","types","Interrupt"]` → `Interrupt`).
pub fn lc_class(m: &Map<String, Value>) -> Option<&str> {
    m.field("id")?.as_array()?.last()?.as_str()
}

/// Parses the Python `repr` of a `not_implemented` object into JSON (`{"__type__":…, …}`).
pub fn parse_repr_object(m: &Map<String, Value>) -> Option<Value> {
    let repr = m.field("repr")?.as_str()?;
    pyrepr::parse(repr).ok()
}

fn flatten_constructor(m: &Map<String, Value>) -> Option<Value> {
    if !(m.field("lc").is_some_and(|v| v == 1)
        && m.field("type").is_some_and(|t| t == "constructor"))
    {
        return None;
    }
    let class = lc_class(m)?;
    let kwargs = m.field("kwargs")?.as_object()?;
    let mut out = Map::new();
    if let Some(t) = message_type_for_class(class, kwargs) {
        out.insert("type".into(), Value::String(t.to_string()));
    } else {
        out.insert("__type__".into(), Value::String(class.to_string()));
    }
    for (k, v) in kwargs {
        if k == "type" {
            continue;
        }
        out.insert(k.clone(), normalize_deep(v));
    }
    Some(Value::Object(out))
}

fn message_type_for_class<'a>(class: &str, kwargs: &'a Map<String, Value>) -> Option<&'a str> {
    let base = class.strip_suffix("Chunk").unwrap_or(class);
    Some(match base {
        "HumanMessage" => "human",
        "AIMessage" => "ai",
        "ToolMessage" => "tool",
        "SystemMessage" => "system",
        "FunctionMessage" => "function",
        "RemoveMessage" => "remove",
        "ChatMessage" => kwargs
            .field("role")
            .and_then(Value::as_str)
            .unwrap_or("chat"),
        _ => return None,
    })
}

/// The normalized role of a flat message: `human`, `ai`, `tool`, `system` (JS `role` dicts too).
pub fn message_kind(m: &Value) -> Option<&str> {
    let t = m
        .field("type")
        .and_then(Value::as_str)
        .or_else(|| m.field("role").and_then(Value::as_str))?;
    Some(match t {
        "human" | "user" | "HumanMessage" | "HumanMessageChunk" => "human",
        "ai" | "assistant" | "AIMessageChunk" | "AIMessage" => "ai",
        "tool" | "ToolMessage" | "ToolMessageChunk" => "tool",
        "system" | "developer" | "SystemMessage" => "system",
        other => other,
    })
}

/// Whether a JSON value looks like a (flat or constructor) LangChain message.
pub fn is_message(v: &Value) -> bool {
    match v {
        Value::Object(m) => {
            (m.contains_key("content") && (m.contains_key("type") || m.contains_key("role")))
                || flatten_constructor(m).is_some_and(|f| f.field("type").is_some())
        }
        _ => false,
    }
}

/// The answer text of a message content: a string, or the `text` blocks of a block list
/// (reasoning, tool-use and other blocks are not answer text).
pub fn content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => {
            let mut out = String::new();
            for b in blocks {
                match b {
                    Value::String(s) => out.push_str(s),
                    Value::Object(o) if o.field("type").and_then(Value::as_str) == Some("text") => {
                        if let Some(t) = o.field("text").and_then(Value::as_str) {
                            out.push_str(t);
                        }
                    }
                    _ => {}
                }
            }
            out
        }
        _ => String::new(),
    }
}

/// Tool calls of an AI message as (id, name, args-as-JSON-text).
pub fn tool_calls(msg: &Value) -> Vec<(String, String, String)> {
    let mut out = vec![];
    if let Some(calls) = msg.field("tool_calls").and_then(Value::as_array) {
        for c in calls {
            let (Some(id), Some(name)) = (
                c.field("id").and_then(Value::as_str),
                c.field("name").and_then(Value::as_str),
            ) else {
                continue;
            };
            let args = match c.field("args") {
                Some(Value::String(s)) => s.clone(),
                Some(v) => v.to_string(),
                None => "{}".to_string(),
            };
            out.push((id.to_string(), name.to_string(), args));
        }
    }
    out
}

/// A flat LangChain message → an AG-UI message. `fallback_id` is used when the message has none.
pub fn to_agui_message(msg: &Value, fallback_id: &str) -> Option<Value> {
    let kind = message_kind(msg)?;
    let id = msg
        .field("id")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .unwrap_or(fallback_id)
        .to_string();
    let content = msg.field("content").unwrap_or(&Value::Null);
    let text = content_text(content);
    let mut out = Map::new();
    out.insert("id".into(), Value::String(id));
    match kind {
        "human" => {
            out.insert("role".into(), "user".into());
            out.insert("content".into(), Value::String(text));
        }
        "system" => {
            out.insert("role".into(), "system".into());
            out.insert("content".into(), Value::String(text));
        }
        "ai" => {
            out.insert("role".into(), "assistant".into());
            if !text.is_empty() {
                out.insert("content".into(), Value::String(text));
            }
            let calls = tool_calls(msg);
            if !calls.is_empty() {
                let calls: Vec<Value> = calls
                    .into_iter()
                    .map(|(id, name, args)| {
                        json!({"id": id, "type": "function", "function": {"name": name, "arguments": args}})
                    })
                    .collect();
                out.insert("toolCalls".into(), Value::Array(calls));
            }
        }
        "tool" => {
            let call_id = msg.field("tool_call_id").and_then(Value::as_str)?;
            out.insert("role".into(), "tool".into());
            out.insert("content".into(), Value::String(tool_content_text(content)));
            out.insert("toolCallId".into(), Value::String(call_id.to_string()));
            if msg.field("status").and_then(Value::as_str) == Some("error") {
                out.insert("error".into(), Value::String(tool_content_text(content)));
            }
        }
        _ => return None,
    }
    Some(Value::Object(out))
}

/// Tool output as text: strings as they are, anything else as compact JSON.
pub fn tool_content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(_) => {
            let t = content_text(content);
            if t.is_empty() {
                content.to_string()
            } else {
                t
            }
        }
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// A message list (flat or constructor form) → AG-UI messages, ids falling back to `msg-<n>`.
pub fn to_agui_messages(list: &[Value]) -> Vec<Value> {
    list.iter()
        .enumerate()
        .filter_map(|(i, m)| to_agui_message(&normalize_cow(m), &format!("msg-{i}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructor_is_flattened() {
        let v = json!({"lc":1,"type":"constructor","id":["langchain_core","messages","AIMessageChunk"],
            "kwargs":{"content":"hi","id":"run-1","tool_call_chunks":[]}});
        let f = normalize_deep(&v);
        assert_eq!(f["type"], "ai");
        assert_eq!(f["content"], "hi");
    }

    #[test]
    fn agui_message_from_ai_with_tool_calls() {
        let m = json!({"type":"ai","id":"a1","content":[{"type":"reasoning","summary":[]},{"type":"text","text":"ok"}],
            "tool_calls":[{"id":"c1","name":"f","args":{"x":1}}]});
        let a = to_agui_message(&m, "x").expect("ai message converts");
        assert_eq!(a["content"], "ok");
        assert_eq!(a["toolCalls"][0]["function"]["arguments"], "{\"x\":1}");
    }
}
