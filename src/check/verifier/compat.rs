//! The client's compatibility boundary: THINKING_* events become REASONING_*, and the legacy
//! nulls of optional fields are dropped.

use serde_json::{Map, Value};

use super::Ev;
use crate::agui::EventType as T;
use crate::check::ev::Src;

/// The compatibility boundary: THINKING_* → REASONING_*, legacy nulls dropped.
#[derive(Default)]
pub struct Compat {
    minted: u64,
    span: Option<String>,
    message: Option<String>,
}

impl Compat {
    /// The event as the client's later stages see it: `Some(None)` when the shim leaves it
    /// as it is (the common case: no copy of the event), `None` when enforcement drops it.
    pub fn apply(&mut self, f: &Ev<'_>) -> Option<Option<Value>> {
        let Some(kind) = f.kind else {
            return self.thinking(f);
        };
        // The optional fields the shim drops when they are null. A typed event writes no null
        // but in the JSON it carries (an outcome, a result).
        let nullable: &[&str] = match (kind, f.src) {
            (T::RunFinished, _) => &["rawEvent", "result", "outcome"],
            (T::SubagentFinished, _) => &["rawEvent", "result"],
            (_, Src::Typed(_)) => &[],
            (T::ToolCallStart | T::ToolCallChunk, _) => &["rawEvent", "parentMessageId"],
            _ => &["rawEvent"],
        };
        let null = |k: &&str| f.get(k).is_some_and(Value::is_null);
        if !nullable.iter().any(null) {
            return Some(None);
        }
        // Only JSON has nulls.
        let Src::Json(v) = f.src else { return None };
        let mut m: Map<String, Value> = v.as_object()?.clone();
        m.retain(|k, v| !(v.is_null() && nullable.contains(&k.as_str())));
        Some(Some(Value::Object(m)))
    }

    /// A THINKING_* event as the REASONING_* event it stands for (`None`: an event of no
    /// AG-UI 1.0 type, which enforcement drops).
    fn thinking(&mut self, f: &Ev<'_>) -> Option<Option<Value>> {
        let rest = f.s("type")?.strip_prefix("THINKING_")?;
        // A typed THINKING_* event (`--compat thinking`) is rewritten as JSON.
        let mut m: Map<String, Value> = match f.src {
            Src::Json(v) => v.as_object()?.clone(),
            Src::Typed(e) => match e.to_value().into_owned() {
                Value::Object(m) => m,
                _ => return None,
            },
        };
        let (nt, open) = match rest {
            "START" => (T::ReasoningStart, &mut self.span),
            "END" => (T::ReasoningEnd, &mut self.span),
            "TEXT_MESSAGE_START" => (T::ReasoningMessageStart, &mut self.message),
            "TEXT_MESSAGE_CONTENT" => (T::ReasoningMessageContent, &mut self.message),
            "TEXT_MESSAGE_END" => (T::ReasoningMessageEnd, &mut self.message),
            _ => return None,
        };
        // A start mints the id its content and end continue.
        let id = match nt {
            T::ReasoningStart | T::ReasoningMessageStart => {
                self.minted += 1;
                open.insert(format!("thinking-{}", self.minted)).clone()
            }
            T::ReasoningMessageContent => open.clone().unwrap_or_default(),
            _ => open.take().unwrap_or_default(),
        };
        if nt == T::ReasoningMessageStart {
            m.insert("role".into(), Value::String("reasoning".into()));
        }
        m.remove("title");
        m.insert("type".into(), Value::String(nt.as_str().into()));
        m.entry("messageId").or_insert(Value::String(id));
        Some(Some(Value::Object(m)))
    }
}
