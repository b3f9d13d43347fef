//! A v2 `on_tool_error`'s `data.error`, in each form it is logged: an API-server dict
//! `{"error": NAME, "message": MSG}`, a langchain `dumpd` object that keeps only the
//! exception's Python `repr`, or a LangGraph.js string (message, a blank line, the stack).
//!
//! An `interrupt()` inside a tool surfaces as a tool error whose exception is a
//! `GraphInterrupt`: that is not a failed tool but a suspended one (issue 22.7).

use serde_json::Value;

use crate::json::Field;
use crate::model::ModelEvent;
use crate::wire::{langchain as lc, pyrepr};

/// A tool error (`data.error`, as logged) of call `tool_call_id` (of tool `name`) → its model
/// event: each form gives the exception's class and what it was raised with (`GraphInterrupt`'s:
/// its interrupts, which suspend the call), and the text of a failure (`Name: message`, or what
/// the log has of it), the call's result.
pub fn read(err: &Value, tool_call_id: String, name: String) -> ModelEvent {
    let err = lc::normalize_cow(err);
    let (class, arg, text) = match &*err {
        // LangGraph.js: the message, a blank line, the stack; a `GraphInterrupt`'s message is
        // `JSON.stringify(interrupts, null, 2)`, and a line of the stack names the class.
        Value::String(s) => {
            let first = || {
                serde_json::Deserializer::from_str(s)
                    .into_iter::<Value>()
                    .next()?
                    .ok()
            };
            let mut classes = s.lines().filter_map(|l| Some(l.split_once(':')?.0.trim()));
            let class = classes.find(|c| is_interrupt(c));
            let text = s.lines().next().unwrap_or_default().to_string();
            (class, class.and_then(|_| first()), text)
        }
        Value::Object(o) => {
            let e = super::error_info(&err);
            let text = match (o.field_str("__type__"), o.field("_0")) {
                // A dumpd exception whose repr parsed: `ValueError('msg')` → `ValueError: msg`.
                (Some(name), Some(Value::String(m))) => format!("{name}: {m}"),
                (Some(name), Some(other)) => format!("{name}: {other}"),
                (Some(name), None) => name.to_string(),
                // A dumpd exception whose repr did not parse: the repr is what there is.
                _ if o.field("lc").is_some() => {
                    o.field_str("repr").map_or(e.message, str::to_string)
                }
                _ => match e.name {
                    Some(n) => format!("{n}: {}", e.message),
                    None => e.message,
                },
            };
            // API server: `{"error": "GraphInterrupt", "message": "(Interrupt(…),)"}`; dumpd:
            // `GraphInterrupt((Interrupt(…),))`, parsed by normalising.
            match o.field_str("error") {
                Some(class) => (
                    Some(class),
                    o.field_str("message").and_then(pyrepr::parse),
                    text,
                ),
                None => (o.field_str("__type__"), o.field("_0").cloned(), text),
            }
        }
        other => (None, None, lc::tool_content_text(other)),
    };
    let ints = arg.filter(|_| class.is_some_and(is_interrupt));
    let mut ints = ints.map(|a| super::interrupts_from(&a)).unwrap_or_default();
    if ints.is_empty() {
        return super::tool_failed(tool_call_id, Some(name), text);
    }
    for i in &mut ints {
        i.tool_call_id = Some(tool_call_id.clone());
    }
    ModelEvent::Interrupt(ints)
}

/// Whether `class` is one LangGraph raises for `interrupt()` (`NodeInterrupt`: its older name).
fn is_interrupt(class: &str) -> bool {
    matches!(
        class.rsplit('.').next(),
        Some("GraphInterrupt" | "NodeInterrupt")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(err: &Value) -> ModelEvent {
        super::read(err, "c1".into(), "f".into())
    }

    fn ids(e: ModelEvent) -> Vec<String> {
        match e {
            ModelEvent::Interrupt(list) => list.into_iter().map(|i| i.id).collect(),
            other => panic!("not an interrupt: {other:?}"),
        }
    }

    fn failed(text: &str) -> ModelEvent {
        crate::adapter::tool_failed("c1".into(), Some("f".into()), text.into())
    }

    /// `interrupt()` in a tool, in the API, dumpd and JS forms: the interrupt, with its id
    /// and payload, not a failed tool (issue 22.7).
    #[test]
    fn a_graph_interrupt_is_an_interrupt_in_every_form() {
        let repr = "(Interrupt(value={'type': 'approval', 'message': 'Approve?'}, id='i1', response_schema=None),)";
        let api = json!({"error": "GraphInterrupt", "message": repr});
        let dumpd = json!({"lc": 1, "type": "not_implemented", "id": ["langgraph", "errors", "GraphInterrupt"],
            "repr": format!("GraphInterrupt({repr})")});
        let list = "[\n  {\n    \"id\": \"i1\",\n    \"value\": {\"type\": \"approval\"}\n  }\n]";
        let js = json!(format!(
            "{list}\n\nGraphInterrupt: {list}\n    at interrupt (file:///x.js:93:8)"
        ));
        for err in [api, dumpd, js] {
            assert_eq!(ids(read(&err)), ["i1"], "{err}");
        }
        let ModelEvent::Interrupt(list) =
            read(&json!({"error": "GraphInterrupt", "message": repr}))
        else {
            panic!("an interrupt")
        };
        assert_eq!(list[0].value["message"], "Approve?");
        assert_eq!(list[0].tool_call_id.as_deref(), Some("c1"));
    }

    /// A dumpd exception keeps its message from the repr (issue 22.8), as the API form has it.
    #[test]
    fn a_dumpd_error_keeps_its_message() {
        let dumpd = json!({"lc": 1, "type": "not_implemented", "id": ["builtins", "ValueError"],
            "repr": "ValueError('order service unavailable for A-1')"});
        let api = json!({"error": "ValueError", "message": "order service unavailable for A-1"});
        let want = failed("ValueError: order service unavailable for A-1");
        assert_eq!(read(&dumpd), want);
        assert_eq!(read(&api), want);
        let odd = json!({"lc": 1, "type": "not_implemented", "id": ["x", "E"], "repr": "E((("});
        assert_eq!(read(&odd), failed("E((("));
        // Other errors stay errors, the first line of a JS string their text.
        assert_eq!(
            read(&json!("Error: boom\n    at f (x.js:1:1)")),
            failed("Error: boom")
        );
        assert_eq!(
            read(&json!({"error": "GraphInterrupt", "message": "not a repr ((("})),
            failed("GraphInterrupt: not a repr (((")
        );
    }
}
