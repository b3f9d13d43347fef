//! The AG-UI item of a message known by its plain text ([`crate::model::SharedJson::unparsed_text`]):
//! what [`lc::to_agui_list_item`] makes of the value the text parses to, read from the text.
//!
//! A run's last message list is converted when the run ends (`MESSAGES_SNAPSHOT`), each
//! message once. Parsing a message to convert it built trees of its content and tool calls
//! (and of every key not read, skipped through serde) only to copy a few strings out of them
//! and write each call's `args` back as text. A plain text is valid, compact and normalized
//! JSON as the encoder writes it ([`crate::input::canon`]), so here the keys read are found
//! by their place, the rest is stepped over without being read, and a call's `args` text is
//! the `arguments` string as it is. Debug builds compare every item with the conversion of
//! the parsed value.

use std::borrow::Cow;

use serde_json::Value;

use super::lc::{self, MessageFields};
use crate::input::canon::{plain_entries, plain_items, plain_str};

/// The AG-UI item of item `i` of a message list, from the message's plain text: `Some` of
/// what [`lc::to_agui_list_item`] gives for the parsed value; `None` when `text` is not an
/// object (not a plain text's message: the caller converts the value).
pub fn agui_item(text: &str, i: usize) -> Option<Option<Value>> {
    let item = lc::agui_message_of(&Fields::of(text)?, || format!("msg-{i}"));
    debug_assert_eq!(
        item,
        serde_json::from_str::<Value>(text)
            .ok()
            .and_then(|v| lc::to_agui_list_item(&v, i)),
        "{text}"
    );
    Some(item)
}

/// The tool call a message answers, from its plain text: [`lc::tool_call_id`] of the parsed
/// value (`None` too when `text` is not an object).
pub fn tool_call_id(text: &str) -> Option<String> {
    let m = Fields::of(text)?;
    let kind = m.kind_text()?;
    (lc::kind_of(&kind) == "tool")
        .then(|| m.tool_call_id().map(Cow::into_owned))
        .flatten()
}

/// The texts of the keys [`lc::to_agui_message`] reads (through [`lc::MessageFields`]).
#[derive(Default)]
struct Fields<'a> {
    ty: Option<&'a str>,
    role: Option<&'a str>,
    id: Option<&'a str>,
    content: Option<&'a str>,
    tool_calls: Option<&'a str>,
    tool_call_id: Option<&'a str>,
    status: Option<&'a str>,
}

impl<'a> Fields<'a> {
    /// The fields of the object whose plain text is `text` (`None` when not an object).
    fn of(text: &'a str) -> Option<Self> {
        let mut m = Fields::default();
        plain_entries(text, |key, value| {
            let slot = match key {
                "type" => &mut m.ty,
                "role" => &mut m.role,
                "id" => &mut m.id,
                "content" => &mut m.content,
                "tool_calls" => &mut m.tool_calls,
                "tool_call_id" => &mut m.tool_call_id,
                "status" => &mut m.status,
                _ => return,
            };
            *slot = Some(value);
        })?;
        Some(m)
    }
}

impl lc::MessageFields for Fields<'_> {
    fn kind_text(&self) -> Option<Cow<'_, str>> {
        self.ty
            .and_then(plain_str)
            .or_else(|| self.role.and_then(plain_str))
    }
    fn id(&self) -> Option<Cow<'_, str>> {
        self.id.and_then(plain_str)
    }
    fn content_text(&self) -> String {
        content_text(self.content)
    }
    fn tool_content_text(&self) -> String {
        tool_content_text(self.content)
    }
    fn tool_calls(&self) -> Vec<(String, String, String)> {
        self.tool_calls.map(tool_calls).unwrap_or_default()
    }
    fn tool_call_id(&self) -> Option<Cow<'_, str>> {
        self.tool_call_id.and_then(plain_str)
    }
    fn failed(&self) -> bool {
        self.status.and_then(plain_str).as_deref() == Some("error")
    }
}

/// [`lc::content_text`] of a content's text (absent: `null`).
fn content_text(content: Option<&str>) -> String {
    let Some(c) = content else {
        return String::new();
    };
    match c.as_bytes().first() {
        Some(b'"') => plain_str(c).map(Cow::into_owned).unwrap_or_default(),
        Some(b'[') => {
            let mut out = String::new();
            plain_items(c, |block| match block.as_bytes().first() {
                Some(b'"') => out.push_str(&plain_str(block).unwrap_or_default()),
                Some(b'{') => {
                    let (mut ty, mut text) = (None, None);
                    plain_entries(block, |k, v| match k {
                        "type" => ty = Some(v),
                        "text" => text = Some(v),
                        _ => {}
                    });
                    if ty.and_then(plain_str).as_deref() == Some("text") {
                        if let Some(t) = text.and_then(plain_str) {
                            out.push_str(&t);
                        }
                    }
                }
                _ => {}
            });
            out
        }
        _ => String::new(),
    }
}

/// [`lc::tool_content_text`] of a content's text (absent: `null`): a value's compact JSON is
/// its plain text.
fn tool_content_text(content: Option<&str>) -> String {
    let Some(c) = content else {
        return String::new();
    };
    match c.as_bytes().first() {
        Some(b'"') => plain_str(c).map(Cow::into_owned).unwrap_or_default(),
        Some(b'[') => {
            let t = content_text(Some(c));
            if t.is_empty() {
                c.to_string()
            } else {
                t
            }
        }
        Some(b'n') => String::new(),
        _ => c.to_string(),
    }
}

/// [`lc::tool_calls`] of an AI message's `tool_calls` text: a call's `args` other than a
/// string is its text.
fn tool_calls(calls: &str) -> Vec<(String, String, String)> {
    let mut out = vec![];
    plain_items(calls, |call| {
        let (mut id, mut name, mut args) = (None, None, None);
        plain_entries(call, |k, v| match k {
            "id" => id = Some(v),
            "name" => name = Some(v),
            "args" => args = Some(v),
            _ => {}
        });
        let (Some(id), Some(name)) = (id.and_then(plain_str), name.and_then(plain_str)) else {
            return;
        };
        let args = match args {
            Some(a) if a.starts_with('"') => plain_str(a).map(Cow::into_owned).unwrap_or_default(),
            Some(a) => a.to_string(),
            None => "{}".to_string(),
        };
        out.push((id.into_owned(), name.into_owned(), args));
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Messages of every kind and content shape, written as the encoder writes them: each
    /// converts as its parsed value does.
    #[test]
    fn items_are_what_the_value_converts_to() {
        let mut texts: Vec<String> = lc::tests::message_list()
            .into_iter()
            .map(lc::normalize_owned)
            .filter(|v| v.is_object())
            .map(|v| {
                let mut buf = vec![];
                serde_json::to_writer(&mut buf, &v).expect("a value");
                String::from_utf8(buf).expect("utf8")
            })
            .collect();
        texts.extend(
            [
                r#"{"type":"ai","id":"a","content":[{"type":"text","text":"x\"}]"},"s",{"type":"reasoning","text":"no"},{"text":"t"},7],"tool_calls":[{"id":"c","name":"f","args":{"q":[1,{"r":"]"}]}},{"id":"d","name":"g","args":"{\"raw\":1}"},{"id":"e","name":"h"},{"id":"f","name":"i","args":null},{"id":1,"name":"j"},"x"]}"#,
                r#"{"role":"assistant","content":"","id":""}"#,
                r#"{"type":7,"role":"user","content":{"a":1}}"#,
                r#"{"type":"tool","tool_call_id":"c","status":"error","content":[{"type":"image"}]}"#,
                r#"{"type":"tool","tool_call_id":"c","content":[{"type":"text","text":"t"}]}"#,
                r#"{"type":"tool","tool_call_id":"c","content":12}"#,
                r#"{"type":"tool","tool_call_id":"c","content":null,"status":"error"}"#,
                r#"{"type":"tool","tool_call_id":5,"content":"x"}"#,
                r#"{"type":"developer","content":"sys \u0001 \\ \n"}"#,
                r#"{"type":"critic","content":"c"}"#,
                r#"{"content":"no kind"}"#,
                r#"{}"#,
            ]
            .map(String::from),
        );
        let mut converted = 0;
        for (i, t) in texts.iter().enumerate() {
            let v: Value = serde_json::from_str(t).expect("json");
            let want = lc::to_agui_list_item(&v, i);
            converted += usize::from(want.is_some());
            assert_eq!(agui_item(t, i), Some(want), "{t}");
        }
        assert!(converted >= 15, "{converted} converted");
        assert_eq!(agui_item("[]", 0), None);
        assert_eq!(agui_item(r#""s""#, 0), None);
    }
}
