//! A v2 `on_tool_error`'s `data.error`, in each form it is logged: an API-server dict
//! `{"error": NAME, "message": MSG}`, a langchain `dumpd` object that keeps only the
//! exception's Python `repr`, or a LangGraph.js string (message, a blank line, the stack).
//!
//! An `interrupt()` inside a tool surfaces as a tool error whose exception is a
//! `GraphInterrupt`: that is not a failed tool but a suspended one (issue 22.7).

use serde_json::Value;

use crate::json::Field;
use crate::model::InterruptInfo;
use crate::wire::{langchain as lc, pyrepr};

/// What a tool's error was.
#[derive(Debug, PartialEq)]
pub enum ToolError {
    /// The tool called `interrupt()`: these interrupts suspend it.
    Interrupted(Vec<InterruptInfo>),
    /// The tool raised: the result text (`Name: message`, or what the log has of it).
    Failed(String),
}

/// The exception classes LangGraph raises for `interrupt()` (`NodeInterrupt` is its older name).
fn is_interrupt_class(name: &str) -> bool {
    matches!(
        name.rsplit('.').next().unwrap_or(name),
        "GraphInterrupt" | "NodeInterrupt"
    )
}

/// Reads a tool error (`data.error`, as logged).
pub fn read(err: &Value) -> ToolError {
    if let Some(ints) = interrupts(err).filter(|i| !i.is_empty()) {
        return ToolError::Interrupted(ints);
    }
    let err = lc::normalize_cow(err);
    let text = match &*err {
        Value::String(s) => s.lines().next().unwrap_or_default().to_string(),
        Value::Object(o) => match o.field_str("__type__") {
            // A dumpd exception whose repr parsed: `ValueError('msg')` → `ValueError: msg`.
            Some(name) => match o.field("_0") {
                Some(Value::String(m)) => format!("{name}: {m}"),
                Some(other) => format!("{name}: {other}"),
                None => name.to_string(),
            },
            // A dumpd exception whose repr did not parse: the repr is what there is.
            None if o.field("lc").is_some() => (o.field_str("repr"))
                .map_or_else(|| super::error_info(&err).message, str::to_string),
            None => {
                let e = super::error_info(&err);
                match e.name {
                    Some(n) => format!("{n}: {}", e.message),
                    None => e.message,
                }
            }
        },
        other => lc::tool_content_text(other),
    };
    ToolError::Failed(text)
}

/// The interrupts of a `GraphInterrupt` tool error, in any of its forms; `None` for another
/// error.
fn interrupts(err: &Value) -> Option<Vec<InterruptInfo>> {
    match err {
        // LangGraph.js: `JSON.stringify(interrupts, null, 2)`, then `\n\nGraphInterrupt: …`.
        Value::String(s) => {
            let named = s.lines().any(|l| {
                l.split_once(':')
                    .is_some_and(|(name, _)| is_interrupt_class(name.trim()))
            });
            if !named {
                return None;
            }
            let first = serde_json::Deserializer::from_str(s)
                .into_iter::<Value>()
                .next()?
                .ok()?;
            Some(super::interrupts_from(&first))
        }
        Value::Object(o) => {
            // API server: `{"error": "GraphInterrupt", "message": "(Interrupt(…),)"}`.
            if let Some(name) = o.field_str("error") {
                if !is_interrupt_class(name) {
                    return None;
                }
                let message = o.field_str("message")?;
                let list = pyrepr::parse(message)?;
                return Some(super::interrupts_from(&list));
            }
            // dumpd: `GraphInterrupt((Interrupt(…),))`, parsed by normalizing.
            let n = lc::normalize_cow(err);
            let name = n.field_str("__type__")?;
            if !is_interrupt_class(name) {
                return None;
            }
            Some(super::interrupts_from(n.field("_0")?))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ids(e: ToolError) -> Vec<String> {
        match e {
            ToolError::Interrupted(list) => list.into_iter().map(|i| i.id).collect(),
            ToolError::Failed(t) => panic!("not an interrupt: {t}"),
        }
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
        let ToolError::Interrupted(list) =
            read(&json!({"error": "GraphInterrupt", "message": repr}))
        else {
            panic!("an interrupt")
        };
        assert_eq!(list[0].value["message"], "Approve?");
    }

    /// A dumpd exception keeps its message from the repr (issue 22.8), as the API form has it.
    #[test]
    fn a_dumpd_error_keeps_its_message() {
        let dumpd = json!({"lc": 1, "type": "not_implemented", "id": ["builtins", "ValueError"],
            "repr": "ValueError('order service unavailable for A-1')"});
        let api = json!({"error": "ValueError", "message": "order service unavailable for A-1"});
        let want = ToolError::Failed("ValueError: order service unavailable for A-1".into());
        assert_eq!(read(&dumpd), want);
        assert_eq!(read(&api), want);
        let odd = json!({"lc": 1, "type": "not_implemented", "id": ["x", "E"], "repr": "E((("});
        assert_eq!(read(&odd), ToolError::Failed("E(((".into()));
        // Other errors stay errors, the first line of a JS string their text.
        assert_eq!(
            read(&json!("Error: boom\n    at f (x.js:1:1)")),
            ToolError::Failed("Error: boom".into())
        );
        assert_eq!(
            read(&json!({"error": "GraphInterrupt", "message": "not a repr ((("})),
            ToolError::Failed("GraphInterrupt: not a repr (((".into())
        );
    }
}
