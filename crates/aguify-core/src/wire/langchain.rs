//! LangChain message shapes → one flat form, and what an AG-UI message is made of ([`Fields`];
//! `agui::message` makes the messages).
//!
//! Messages arrive as API-server flat dicts (`{"type":"ai",…}`), langchain `dumpd` constructors
//! (`{"lc":1,"type":"constructor","id":[…,"AIMessage"],"kwargs":{…}}`, Python and JS) or JS
//! dict messages with `role`. Everything downstream reads the flat form produced here.

use crate::json::Field;
use std::borrow::Cow;

use serde_json::{Map, Value};

use super::pyrepr;
use crate::payload::{constructor_type, lc_class_of};

/// [`normalize_cow`] of a value the caller owns: normalised where it lies, an lc
/// constructor's kwargs taken over rather than copied key by key.
pub fn normalize_owned(mut v: Value) -> Value {
    normalize_in_place(&mut v);
    v
}

/// Flattens lc constructors (anywhere inside `v`) into their kwargs plus a `type`, unwraps
/// `__lc_escaped__` user dicts, and parses `not_implemented` reprs of LangGraph types; without
/// a copy when there is nothing to normalize (no object with an `lc` or `__lc_escaped__` key
/// anywhere): API-server logs and already-normalized values are read in place.
pub fn normalize_cow(v: &Value) -> Cow<'_, Value> {
    match may_change(v) {
        true => Cow::Owned(normalize_owned(v.clone())),
        false => Cow::Borrowed(v),
    }
}

/// Whether normalising may change `v`: it has an object with an `lc` or `__lc_escaped__` key.
fn may_change(v: &Value) -> bool {
    match v {
        Value::Object(m) => {
            let (lc, escaped) = special_keys(m);
            lc || escaped || m.values().any(may_change)
        }
        Value::Array(a) => a.iter().any(may_change),
        _ => false,
    }
}

/// The tree normaliser. A state's messages are normalised as their text is written instead
/// (`payload::write_lc`); both flatten a constructor under the head its class gives
/// ([`constructor_type`]). (Writing a tree through the text normaliser cost
/// v2-js and v2-python-dumpd +10 % of their instructions, docs/performance.md.)
fn normalize_in_place(v: &mut Value) {
    match v {
        Value::Object(m) => {
            let (lc, escaped) = special_keys(m);
            if lc && flatten_in_place(m) {
                return;
            }
            if escaped && m.len() == 1 {
                if let Some(mut inner) = m.shift_remove("__lc_escaped__") {
                    normalize_in_place(&mut inner);
                    *v = inner;
                    return;
                }
            }
            // A `not_implemented` object: the Python `repr` it keeps, parsed.
            if lc && m.field("type").is_some_and(|t| t == "not_implemented") {
                if let Some(parsed) = m.field_str("repr").and_then(pyrepr::parse) {
                    *v = parsed;
                    return;
                }
            }
            m.values_mut().for_each(normalize_in_place);
        }
        Value::Array(a) => a.iter_mut().for_each(normalize_in_place),
        _ => {}
    }
}

/// A constructor (`m`) flattened in place: its kwargs, normalised, after the head its class
/// gives. `false` when `m` is no constructor (left as it is).
fn flatten_in_place(m: &mut Map<String, Value>) -> bool {
    let Some((key, head)) = constructor_head(m) else {
        return false;
    };
    let head = Value::String(head.to_string());
    let Some(Value::Object(mut kwargs)) = m.shift_remove("kwargs") else {
        return false;
    };
    // The class gives the `type`.
    kwargs.retain(|k, _| k != "type");
    kwargs.values_mut().for_each(normalize_in_place);
    let head = kwargs.shift_remove(key).unwrap_or(head);
    kwargs.shift_insert(0, key.to_string(), head);
    *m = kwargs;
    true
}

/// The head a constructor flattens under (its class's `type`, else `__type__` and the
/// class); `None` for any other object.
fn constructor_head(m: &Map<String, Value>) -> Option<(&'static str, &str)> {
    if !(m.field("lc").is_some_and(|v| v == 1)
        && m.field("type").is_some_and(|t| t == "constructor"))
    {
        return None;
    }
    let kwargs = m.field("kwargs").filter(|k| k.is_object())?;
    let class = lc_class_of(m.field("id")?)?;
    let head = constructor_type(class, kwargs.field_str("role"));
    Some(head.map_or(("__type__", class), |t| ("type", t)))
}

/// Whether an object has an `lc` / `__lc_escaped__` key.
fn special_keys(m: &Map<String, Value>) -> (bool, bool) {
    (m.field("lc").is_some(), m.field("__lc_escaped__").is_some())
}

/// The normalized role of a flat message: `human`, `ai`, `tool`, `system` (JS `role` dicts too).
pub fn message_kind(m: &Value) -> Option<&str> {
    let t = m.field_str("type").or_else(|| m.field_str("role"))?;
    Some(kind_of(t))
}

/// The message kind a `type` or `role` names (see [`message_kind`]).
pub(super) fn kind_of(t: &str) -> &str {
    match t {
        "human" | "user" | "HumanMessage" | "HumanMessageChunk" => "human",
        "ai" | "assistant" | "AIMessageChunk" | "AIMessage" => "ai",
        "tool" | "ToolMessage" | "ToolMessageChunk" => "tool",
        "system" | "developer" | "SystemMessage" => "system",
        other => other,
    }
}

/// Whether a JSON value looks like a (flat or constructor) LangChain message.
pub fn is_message(v: &Value) -> bool {
    match v {
        Value::Object(m) => {
            (m.contains_key("content") && (m.contains_key("type") || m.contains_key("role")))
                || constructor_head(m).is_some_and(|(k, _)| k == "type")
        }
        _ => false,
    }
}

/// The answer text of a message content: a string, or the `text` blocks of a block list
/// (reasoning, tool-use and other blocks are not answer text).
pub fn content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => (blocks.iter())
            .filter_map(|b| match b {
                Value::String(s) => Some(s.as_str()),
                Value::Object(o) if o.field_str("type") == Some("text") => o.field_str("text"),
                _ => None,
            })
            .collect(),
        _ => String::new(),
    }
}

/// A tool call of an AI message, complete: its id, its tool's name, its arguments (JSON text).
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The call's id.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments, JSON text.
    pub args: String,
}

/// Tool calls of an AI message.
pub fn tool_calls(msg: &Value) -> Vec<Call> {
    msg.field("tool_calls").map_or_else(Vec::new, calls_of_list)
}

/// [`tool_calls`] of a message's `tool_calls` value.
pub fn calls_of_list(calls: &Value) -> Vec<Call> {
    calls_named(calls, |c, _| c.field_str("id").map(str::to_string))
}

/// The calls of an AI message (its `tool_calls`, its `content`, its id as its list names it)
/// ([`Call`]s): [`calls_of_list`], but a call the log gave no id (none, or `""`) is
/// named as the stream named it ([`made_up_call_id`]: by the place of its `tool_call` block in
/// `content`) rather than left out; with `own` false, only those.
pub(crate) fn calls_of_message(
    calls: &Value,
    content: &Value,
    message_id: &str,
    own: bool,
) -> Vec<Call> {
    let blocks = content.as_array().into_iter().flatten().enumerate();
    let blocks: Vec<usize> = (blocks.filter(|(_, b)| b.field_str("type") == Some("tool_call")))
        .map(|(i, _)| i)
        .collect();
    // A call's own id: its `id` when a non-empty string.
    calls_named(calls, |c, n| {
        match c.field_str("id").filter(|id| !id.is_empty()) {
            Some(id) => own.then(|| id.to_string()),
            None => Some(made_up_call_id(message_id, blocks.get(n).unwrap_or(&n))),
        }
    })
}

/// The calls of `calls` that have a name, each with the id `id_of` gives it (and its place
/// in the list); one it gives none is left out.
fn calls_named(calls: &Value, id_of: impl Fn(&Value, usize) -> Option<String>) -> Vec<Call> {
    let mut out = vec![];
    for (n, c) in calls.as_array().into_iter().flatten().enumerate() {
        let (Some(id), Some(name)) = (id_of(c, n), c.field_str("name")) else {
            continue;
        };
        let args = match c.field("args") {
            Some(Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
            None => "{}".to_string(),
        };
        let name = name.to_string();
        out.push(Call { id, name, args });
    }
    out
}

/// The id made up for a tool call the log gave no id (LangGraph.js with
/// @langchain/google-genai: Gemini sends none): `<message id>:tool:<block index>`. The stream
/// names it so (the v3 adapter, the mapper), and so does the message list
/// ([`calls_of_message`]), where the block index is the place of the call's `tool_call` block
/// in the message's `content` (the n-th such block for the n-th call), else the call's place
/// in `tool_calls`.
pub fn made_up_call_id(message_id: &str, block: impl std::fmt::Display) -> String {
    format!("{message_id}:tool:{block}")
}

/// The call a tool message the log gave no `tool_call_id` answers (LangGraph.js's ToolNode
/// with @langchain/google-genai), the messages `before` it in its list given, and its tool
/// `name`: the first call of the last AI message before it that has calls without ids whose
/// name is `name` (any name, when the message has none) and that no tool message between
/// them answers. By name and order, as the stream pairs the tool runs of such calls
/// (AGX613); the ToolNode writes its messages in the order of the calls. `None` when no
/// call is left.
pub(crate) fn idless_answer<'l>(
    before: impl DoubleEndedIterator<Item = (Fields<'l>, Option<&'l str>)> + ExactSizeIterator,
    name: Option<&str>,
) -> Option<String> {
    let mut answered: Vec<String> = vec![];
    for (at, (m, paired)) in before.enumerate().rev() {
        match m.kind() {
            Some("tool") => answered.extend(m.tool_call_id().or(paired).map(str::to_string)),
            Some("ai") => {
                // Its calls the log gave no id, named as the stream named them.
                let mid = m.id_or(|| format!("msg-{at}"));
                let calls = calls_of_message(&m.tool_calls, &m.content, &mid, false);
                if calls.is_empty() {
                    continue;
                }
                let open =
                    |c: &Call| name.is_none_or(|name| name == c.name) && !answered.contains(&c.id);
                return calls.into_iter().find(open).map(|c| c.id);
            }
            _ => {}
        }
    }
    None
}

/// What an AG-UI message is made of, read from a normalised message: borrowed from its tree
/// ([`Fields::of_value`]), or read from the parts of its compact text with the other fields
/// (metadata, usage, a copy of the content as blocks) skipped, not built ([`Fields::of_parts`]).
/// A value absent or of another kind (a string field's that is no string) is `None`
/// (`content` and `tool_calls`: `null`).
#[derive(Default)]
pub(crate) struct Fields<'a> {
    /// `type`, or else `role`.
    kind: Option<Cow<'a, str>>,
    pub(crate) id: Option<Cow<'a, str>>,
    pub(crate) content: Cow<'a, Value>,
    pub(crate) tool_calls: Cow<'a, Value>,
    tool_call_id: Option<Cow<'a, str>>,
    pub(crate) status: Option<Cow<'a, str>>,
    /// A tool message's tool.
    pub(crate) name: Option<Cow<'a, str>>,
}

impl<'a> Fields<'a> {
    /// The fields of a message's tree, borrowed (none of a value that is no object).
    pub(crate) fn of_value(m: &'a Value) -> Fields<'a> {
        let field = |key| m.field(key).map_or_else(Cow::default, Cow::Borrowed);
        let text = |key| m.field_str(key).map(Cow::Borrowed);
        Fields {
            kind: text("type").or_else(|| text("role")),
            id: text("id"),
            content: field("content"),
            tool_calls: field("tool_calls"),
            tool_call_id: text("tool_call_id"),
            status: text("status"),
            name: text("name"),
        }
    }

    /// The fields of a message read from its text in parts: the texts of its `type`,
    /// `role`, `id`, `tool_call_id`, `content`, `tool_calls`, `status` and `name` values
    /// (`None`: absent).
    pub(crate) fn of_parts(parts: [Option<&'a str>; 8]) -> Self {
        let value =
            |t: Option<&str>| Cow::Owned(t.and_then(|t| t.parse().ok()).unwrap_or_default());
        let text = |t: Option<&'a str>| t.and_then(super::string_text);
        let [kind, role, id, tool_call_id, content, tool_calls, status, name] = parts;
        Fields {
            kind: text(kind).or_else(|| text(role)),
            id: text(id),
            tool_call_id: text(tool_call_id),
            content: value(content),
            tool_calls: value(tool_calls),
            status: text(status),
            name: text(name),
        }
    }

    /// The message kind ([`kind_of`] its `type` or `role`).
    pub(crate) fn kind(&self) -> Option<&str> {
        self.kind.as_deref().map(kind_of)
    }

    /// `id` when a non-empty string, else `fallback`'s.
    pub(crate) fn id_or(&self, fallback: impl FnOnce() -> String) -> String {
        let id = self.id.as_deref().filter(|s| !s.is_empty());
        id.map_or_else(fallback, str::to_string)
    }

    /// `tool_call_id`, when a non-empty string.
    pub(crate) fn tool_call_id(&self) -> Option<&str> {
        self.tool_call_id.as_deref().filter(|c| !c.is_empty())
    }
}

/// Tool output as text: strings as they are, anything else as compact JSON.
pub fn tool_content_text(content: &Value) -> String {
    let text = content_text(content);
    match content {
        Value::Array(_) if text.is_empty() => content.to_string(),
        Value::Null | Value::String(_) | Value::Array(_) => text,
        other => other.to_string(),
    }
}

/// The tool message a tool's output carries when the tool returned a LangGraph `Command`
/// (a handoff, or a state update) instead of a result: the tool message of its
/// `update.messages` (the one answering `call_id` when given), as a flat tool message. The
/// output is normalized ([`normalize_cow`]); a `Command` is logged as `{"lg_name":
/// "Command", …}` (LangGraph.js), a dict of `graph`/`update`/`resume`/`goto` (langgraph-api)
/// or a parsed dumpd repr (`{"__type__": "Command", …}`, its messages `{"__type__":
/// "ToolMessage", …}`). `None` for any other output.
pub fn command_tool_message(output: &Value, call_id: Option<&str>) -> Option<Value> {
    let o = output.as_object()?;
    let is_command = o.field_str("lg_name") == Some("Command")
        || o.field_str("__type__") == Some("Command")
        || (o.contains_key("update")
            && o.contains_key("goto")
            && o.keys()
                .all(|k| matches!(k.as_str(), "graph" | "update" | "resume" | "goto")));
    if !is_command {
        return None;
    }
    let list = o.field("update")?.field("messages")?.as_array()?;
    // A tool message, or a parsed dumpd repr `ToolMessage(content=…, tool_call_id=…)`: found
    // first, only it copied.
    let repr = |m: &Value| m.field_str("__type__") == Some("ToolMessage");
    let mut tools = (list.iter()).filter(|m| repr(m) || message_kind(m) == Some("tool"));
    let answers = |m: &&Value| {
        call_id.is_none_or(|id| !id.is_empty() && m.field_str("tool_call_id") == Some(id))
    };
    let found = (tools.clone()).find(answers).or(tools.next())?;
    let mut m = found.as_object()?.clone();
    if repr(found) {
        m.insert("type".into(), Value::String("tool".into()));
    }
    Some(Value::Object(m))
}

/// Whether `m` (a message of a normalized list, not normalized again yet) may be a tool
/// message once [`normalize_cow`] has run: it is one already (normalizing an object with no
/// `lc` / `__lc_escaped__` key keeps its keys and its strings), or normalizing may replace it
/// whole. Lets a state's tool messages be found without normalizing every message.
pub fn may_be_tool_message(m: &Value) -> bool {
    match m {
        Value::Object(o) => {
            let (lc, escaped) = special_keys(o);
            lc || escaped || message_kind(m) == Some("tool")
        }
        _ => false,
    }
}

/// The tool call a flat message answers: its `tool_call_id` when it is a tool message and
/// that is a non-empty string (what `agui::to_agui_list_item` reads as `toolCallId`; without one
/// it gives no message, unless its list pairs it: `agui::to_agui_messages`).
pub fn tool_call_id(m: &Value) -> Option<&str> {
    if message_kind(m) != Some("tool") {
        return None;
    }
    m.field_str("tool_call_id").filter(|c| !c.is_empty())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn constructor_is_flattened() {
        let v = json!({"lc":1,"type":"constructor","id":["langchain_core","messages","AIMessageChunk"],
            "kwargs":{"content":"hi","id":"run-1","tool_call_chunks":[]}});
        let f = normalize_cow(&v).into_owned();
        assert_eq!(f["type"], "ai");
        assert_eq!(f["content"], "hi");
    }

    /// Odd and ordinary values: normalizing an owned copy gives what `normalize_cow` does.
    pub(crate) fn odd_values() -> Vec<Value> {
        let ai = json!({"lc":1,"type":"constructor","id":["langchain_core","messages","AIMessage"],
            "kwargs":{"content":[{"type":"text","text":"a"}],"type":"ai","id":"m1",
                "tool_calls":[{"id":"c","name":"f","args":{"lc":1,"type":"constructor","id":["x","Y"],"kwargs":{"q":1}}}]}});
        let escaped_lc = json!({"__lc_escaped__":{"lc":1,"type":"constructor","id":["a","HumanMessage"],"kwargs":{"content":"x"}}});
        let escaped_twice = json!({"__lc_escaped__":{"__lc_escaped__":{"lc":1,"type":"constructor","id":["a","B"],"kwargs":{}}}});
        let not_impl = json!({"lc":1,"type":"not_implemented","id":["builtins","ValueError"],
            "repr":"ValueError('order service unavailable for A-1')"});
        let interrupt = json!({"lc":1,"type":"not_implemented","id":["langgraph","types","Interrupt"],
            "repr":"Interrupt(value='ok?', id='i1')"});
        let bad_repr =
            json!({"lc":1,"type":"not_implemented","id":["x"],"repr":"(((","k":[{"lc":2}]});
        vec![
            json!(null),
            json!(1),
            json!("s"),
            json!([]),
            json!({}),
            json!({"messages":[{"type":"human","content":"hi","id":"h"}]}),
            json!({"messages":[ai.clone(), escaped_lc.clone(), not_impl.clone()], "x": [escaped_twice.clone()]}),
            ai,
            escaped_lc.clone(),
            escaped_twice,
            json!({"__lc_escaped__":{"a":1},"b":2}),
            json!([1, {"__lc_escaped__":[escaped_lc]}, not_impl.clone()]),
            not_impl,
            json!({"__interrupt__":[interrupt.clone()],"messages":[]}),
            interrupt,
            bad_repr,
            json!({"lc":1,"type":"constructor","id":["a","ChatMessage"],"kwargs":{"role":"critic","content":"c"}}),
            json!({"lc":1,"type":"constructor","id":["a","ChatMessageChunk"],"kwargs":{"content":"c"}}),
            json!({"lc":1,"type":"constructor","id":["a","Other"],"kwargs":{"__type__":"own","type":"t","v":{"lc":1}}}),
            json!({"lc":1,"type":"constructor","id":[],"kwargs":{"a":1},"z":{"__lc_escaped__":{"lc":1}}}),
            json!({"lc":1,"type":"constructor","id":["a","B"],"kwargs":[1]}),
            json!({"lc":"1","type":"constructor","id":["a","B"],"kwargs":{}}),
            json!({"lc":1,"type":"secret","id":["K"]}),
        ]
    }

    #[test]
    fn normalized_in_place_as_copied() {
        for v in message_list() {
            let n = normalize_cow(&v).into_owned();
            assert_eq!(normalize_owned(v.clone()), n, "{v}");
            assert_eq!(
                serde_json::to_string(&normalize_owned(v.clone())).ok(),
                serde_json::to_string(&n).ok(),
                "key order of {v}"
            );
            // Normalising twice changes nothing (the v2 reader normalises what the adapter
            // normalises again).
            assert_eq!(normalize_cow(&n).into_owned(), n, "{v}");
        }
    }

    /// Read without a tree, a text is what its tree normalised writes; an lc object other than
    /// a message constructor in LangChain's key order is left to the tree.
    #[test]
    fn normalized_text_is_the_normalized_tree_written() {
        let normalized_text = |text: &str| crate::payload::encode(text, true, None);
        let mut texts: Vec<String> = message_list().iter().map(Value::to_string).collect();
        texts.extend(
            [
                r#"{"lc":1,"type":"constructor","id":["m","AIMessage"],"kwargs":{"type":"x","a":1.0,"b":[{"lc":1,"type":"constructor","id":["m","HumanMessage"],"kwargs":{}}]}}"#,
                r#"{"lc":1,"type":"constructor","id":["m","Other"],"kwargs":{"k":"\u00e9\/","type":1}}"#,
                r#"{"lc":1,"type":"constructor","id":["m","Other"],"kwargs":{"k":1,"__type__":"own"}}"#,
                r#"{"lc":1,"type":"constructor","kwargs":{"k":1},"id":["m","ToolMessage"]}"#,
                r#"{"lc":1,"type":"constructor","id":["m","ToolMessage"],"kwargs":{"k":1},"z":2}"#,
                r#"{"lc":1,"type":"constructor","id":["m","ToolMessage"],"kwargs":{"k":1,"k":2}}"#,
                r#"{"lc":1.0,"type":"constructor","id":["m","ToolMessage"],"kwargs":{}}"#,
                r#"{"a": 1.5e-7, "b": -0.0, "c": 2E3, "d": {"x": 1, "x": 2}}"#,
                r#"{"a": [1, {"type": "tool"}], "lc": 2}"#,
                r#"{"lc":1,"type":"constructor","id":["m","ChatMessage"],"kwargs":{"role":"critic","content":"c","type":"x"}}"#,
                r#"{"__lc_escaped__":{"lc":1,"type":"constructor","id":["m","HumanMessage"],"kwargs":{"content":"x"}},"b":[{"lc":2}]}"#,
                r#"{"lc":1,"type":"not_implemented","id":["x"],"repr":"X(a=1.0, b=[1, 2])"}"#,
                r#"{"lc":1,"type":"constructor","id":["m","Other"],"kwargs":{"__type__":"own","type":"t","n":0.30000000000000004}}"#,
            ]
            .map(String::from),
        );
        let mut read = 0;
        for text in texts {
            let tree: Value = serde_json::from_str(&text).expect("json");
            let written = crate::js_numbers::to_vec(&normalize_owned(tree)).expect("writes");
            if let Some(n) = normalized_text(&text) {
                assert_eq!(n.as_bytes(), written, "{text}");
                read += 1;
            }
        }
        assert!(read >= 15, "{read}");
        for declined in [
            r#"{"lc":1,"type":"constructor","kwargs":{},"id":["m","AIMessage"]}"#,
            r#"{"a":{"__lc_escaped__":{}}}"#,
            r#"{"a":1,"a":2}"#,
        ] {
            assert_eq!(normalized_text(declined), None, "{declined}");
        }
        let flat = normalized_text(
            r#"{"lc":1,"type":"constructor","id":["m","AIMessage"],"kwargs":{"content":"c","type":"ai","n":2.0}}"#,
        );
        assert_eq!(
            flat.as_deref(),
            Some(r#"{"type":"ai","content":"c","n":2}"#)
        );
    }

    #[test]
    fn escaped_dicts_are_unwrapped() {
        let twice = json!({"__lc_escaped__":{"__lc_escaped__":{"a":1}}});
        assert_eq!(normalize_cow(&twice).into_owned(), json!({"a":1}));
        let lc_inside =
            json!({"__lc_escaped__":{"lc":1,"type":"constructor","id":["a","B"],"kwargs":{"k":2}}});
        assert_eq!(
            normalize_cow(&lc_inside).into_owned(),
            json!({"__type__":"B","k":2})
        );
    }

    /// Messages of every form, tool messages among them.
    pub(crate) fn message_list() -> Vec<Value> {
        let tool_ctor = json!({"lc":1,"type":"constructor","id":["langchain_core","messages","ToolMessage"],
            "kwargs":{"content":"42","tool_call_id":"c2","id":"t2","status":"error"}});
        let mut list = vec![
            json!({"type":"human","content":"hi","id":"h"}),
            json!({"type":"ai","content":"","id":"a","tool_calls":[{"id":"c1","name":"f","args":{}}]}),
            json!({"type":"tool","content":[{"type":"text","text":"r"}],"tool_call_id":"c1","id":"t1"}),
            json!({"type":"tool","content":{"k":1},"tool_call_id":"c3"}),
            json!({"type":"tool","content":"no call id"}),
            json!({"role":"tool","content":"js","tool_call_id":"c4","id":""}),
            json!({"type":"ToolMessageChunk","content":"chunk","tool_call_id":"c5"}),
            json!({"type":"ToolMessage","content":"x","tool_call_id":"c6","lc":2}),
            json!({"__lc_escaped__":{"type":"tool","content":"esc","tool_call_id":"c7"}}),
            json!({"__lc_escaped__": tool_ctor.clone()}),
            json!({"type":"tool","content":"nested","tool_call_id":"c8","artifact":{"__lc_escaped__":{"lc":1}}}),
            tool_ctor,
            json!("a string"),
            json!([{"type":"tool","content":"in a list","tool_call_id":"c9"}]),
            // What the AG-UI form reads of a text's parts, and what it reads whole.
            json!({"type":"tool","content":[{"type":"image","url":"u"},3],"tool_call_id":"d1"}),
            json!({"type":"tool","content":15,"tool_call_id":"d2","status":7}),
            json!({"type":"tool","content":null,"tool_call_id":"d3","name":["n"]}),
            json!({"type":"tool","tool_call_id":"d4","status":"error"}),
            json!({"type":"ai","id":"d5","content":["a",{"type":"tool_call","id":"x"},{"type":"text","text":7},
                {"type":"reasoning","text":"r"},{"type":"text","text":"b","extra":{"k":[1]}}],
                "tool_calls":[{"name":"f","args":"{\"s\":1}"},{"id":"","name":"g","args":{"x":[1,-2,"s"]}},
                    {"id":"c","name":"h"},{"id":"d","name":"k","args":null},7,{"id":1,"name":"z","args":{}}]}),
            json!({"type":"human","content":{"text":"obj"},"id":7}),
        ];
        list.extend(odd_values());
        list
    }

    /// A conversation whose calls the log gave no ids (LangGraph.js with Gemini): a model
    /// message with text and two calls of different names, their tool messages without
    /// `tool_call_id` in the other order, then a second turn whose tool message has no name.
    pub(crate) fn idless_conversation() -> Vec<Value> {
        let call =
            |name: &str, city: &str| json!({"type":"tool_call","name":name,"args":{"city":city}});
        vec![
            json!({"type":"human","content":"Paris?","id":"h"}),
            json!({"type":"ai","id":"a1",
                "content":[{"type":"text","text":"Looking."}, call("get_weather","Paris"), call("get_time","Paris")],
                "tool_calls":[call("get_weather","Paris"), call("get_time","Paris")]}),
            json!({"type":"tool","name":"get_time","content":"12:00","id":"t1"}),
            json!({"type":"tool","name":"get_weather","content":"Sunny","id":"t2"}),
            json!({"type":"tool","name":"get_weather","content":"a third answer","id":"t3"}),
            json!({"lc":1,"type":"constructor","id":["langchain_core","messages","AIMessage"],
                "kwargs":{"content":"","tool_calls":[{"name":"f","args":{},"id":""}, {"name":"g","args":{},"id":"has-one"}]}}),
            json!({"type":"tool","content":"g's","tool_call_id":"has-one","id":"t4"}),
            json!({"type":"tool","content":"f's","tool_call_id":"","id":"t5"}),
        ]
    }

    /// A message's fields read from its tree borrow it: read into owned values, every
    /// conversion of a message copied its content, a list's at once for a snapshot (peak RSS
    /// on v2-python-api-big 33-35 MiB, over issue 36's 32: c953bee).
    #[test]
    fn fields_of_a_tree_borrow_it() {
        let m = json!({"type":"ai","id":"a","content":[{"type":"text","text":"x"}],
            "tool_calls":[{"id":"c","name":"f","args":{}}],"status":null});
        let f = Fields::of_value(&m);
        let borrowed = |field: &Cow<'_, Value>, key: &str| matches!(field, Cow::Borrowed(v) if std::ptr::eq(*v, &m[key]));
        assert!(borrowed(&f.content, "content") && borrowed(&f.tool_calls, "tool_calls"));
        let kind = m["type"].as_str().expect("a type");
        assert!(matches!(&f.kind, Some(Cow::Borrowed(k)) if std::ptr::eq(*k, kind)));
        assert!(f.name.is_none() && f.status.is_none());
        // Read from a text, they are its values.
        let text = crate::wire::state::SharedJson::read(&m.to_string());
        assert_eq!(*text.fields().content, m["content"]);
    }
}
