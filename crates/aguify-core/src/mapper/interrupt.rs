//! Interrupts → the RUN_FINISHED interrupt outcome, and resume input → `RunAgentInput.resume[]`.

use crate::json::Field;
use serde_json::{json, Value};

use crate::model::InterruptInfo;

/// `reason` ← `payload.reason` → `confirmation` for `type: approval` → `payload.type` →
/// `input_required`.
pub fn reason(payload: &Value) -> String {
    let s = |k: &str| payload.field_str(k).filter(|s| !s.is_empty());
    match (s("reason"), s("type")) {
        (Some(r), _) => r,
        (None, Some("approval")) => "confirmation",
        (None, Some(t)) => t,
        (None, None) => "input_required",
    }
    .to_string()
}

/// The interrupt's question: the payload when it is a string, else its `message`, `question`
/// or `prompt`, else the descriptions of LangChain's `HumanInTheLoopMiddleware` requests
/// (`{"action_requests": [{"name", "args", "description"}], "review_configs": […]}`;
/// LangChain.js: `actionRequests`), one per paragraph.
fn message(payload: &Value) -> Option<String> {
    let asked = ["message", "question", "prompt"]
        .into_iter()
        .find_map(|k| payload.get(k));
    if let Some(asked) = payload.as_str().or(asked.and_then(Value::as_str)) {
        return Some(asked.to_string());
    }
    // The `description`s of a `HumanInTheLoopMiddleware` interrupt's `action_requests`.
    let requests = payload.get("action_requests");
    let requests = requests.or_else(|| payload.get("actionRequests"))?;
    let texts: Vec<&str> = (requests.as_array()?.iter())
        .filter_map(|r| r.field_str("description"))
        .filter(|d| !d.is_empty())
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n\n"))
}

/// What a front end without interrupt UI shows for an interrupt (`--compat thinking`): its
/// question, or what it waits for.
pub fn visible_text(payload: &Value) -> String {
    message(payload).unwrap_or_else(|| format!("Waiting for your input ({}).", reason(payload)))
}

/// One AG-UI `Interrupt` object (raised inside sub-agent `subagent`, when one did).
pub fn to_agui(i: &InterruptInfo, subagent: Option<&str>) -> Value {
    let p = &i.value;
    // The payload's key, camelCase or snake_case.
    let field = |camel: &str, snake: &str| p.get(camel).or_else(|| p.get(snake));
    let mut m = json!({"id": i.id, "reason": reason(p)});
    if let Some(t) = message(p) {
        m["message"] = t.into();
    }
    let call = field("toolCallId", "tool_call_id").and_then(Value::as_str);
    if let Some(t) = call.or(i.tool_call_id.as_deref()) {
        m["toolCallId"] = t.into();
    }
    let schema = field("responseSchema", "response_schema").or(i.response_schema.as_ref());
    if let Some(s) = schema.filter(|s| s.is_object()) {
        m["responseSchema"] = s.clone();
    }
    m["metadata"] = json!({"interruptId": i.id, "payload": i.value});
    if let Some(id) = subagent {
        m["subagentRunId"] = id.into();
    }
    m
}

/// `resume[]` entries answering `pending` with a LangGraph resume value: a map keyed by
/// interrupt id answers each id; any other value answers every pending id. `None` (the log
/// does not echo the value) gives entries without payload.
pub fn resume_entries(pending: &[String], value: Option<&Value>) -> Vec<Value> {
    pending
        .iter()
        .map(|id| {
            let payload = match value {
                Some(Value::Object(o)) if pending.iter().all(|p| o.contains_key(p)) => {
                    o.get(id).cloned()
                }
                // A null answers nothing (left out below).
                v => v.cloned(),
            };
            let mut e = json!({"interruptId": id, "status": "resolved"});
            if let Some(p) = payload.filter(|p| !p.is_null()) {
                e["payload"] = p;
            }
            e
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reason_rules() {
        assert_eq!(reason(&json!({"type":"approval"})), "confirmation");
        assert_eq!(reason(&json!({"reason":"pick","type":"approval"})), "pick");
        assert_eq!(reason(&json!({"type":"choose_city"})), "choose_city");
        assert_eq!(reason(&json!("plain question")), "input_required");
    }

    #[test]
    fn hitl_middleware_requests_are_the_message() {
        let one = json!({"action_requests": [{"name": "send_email", "args": {}, "description": "Approve send_email?"}],
                         "review_configs": [{"action_name": "send_email", "allowed_decisions": ["approve"]}]});
        let i = InterruptInfo {
            id: "i1".into(),
            value: one,
            response_schema: None,
            tool_call_id: None,
        };
        assert_eq!(to_agui(&i, None)["message"], "Approve send_email?");
        assert_eq!(visible_text(&i.value), "Approve send_email?");
        let two = json!({"action_requests": [{"description": "A?"}, {"description": "B?"}]});
        assert_eq!(visible_text(&two), "A?\n\nB?");
        let js = json!({"actionRequests": [{"description": "C?"}], "reviewConfigs": []});
        assert_eq!(visible_text(&js), "C?");
        let none = json!({"action_requests": [{"name": "x"}]});
        assert_eq!(
            visible_text(&none),
            "Waiting for your input (input_required)."
        );
    }

    #[test]
    fn resume_keyed_by_id() {
        let pending = vec!["a".to_string(), "b".to_string()];
        let r = resume_entries(&pending, Some(&json!({"a": 1, "b": 2})));
        assert_eq!(r[1]["payload"], 2);
        let r = resume_entries(&pending[..1], Some(&json!({"approved": true})));
        assert_eq!(r[0]["payload"]["approved"], true);
    }
}
