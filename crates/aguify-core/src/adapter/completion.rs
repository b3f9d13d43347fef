//! What a message's complete form adds to what streamed of it (issue 22.6).
//!
//! A model call's stream may stop early or never start (a model that does not stream, a
//! provider that cuts the stream, a callback that reports only the first chunks) while the
//! complete message arrives later: the model's end output, a node's output, the final state.
//! AG-UI deltas only append, so the stream is completed with what is missing after what
//! streamed. When what streamed is not a prefix of the complete text (the provider streamed
//! something else than it returned), nothing streamed can be taken back: the stream keeps
//! what it sent, a warning names the message, and `MESSAGES_SNAPSHOT` carries the complete
//! message.

use serde_json::Value;

use crate::model::ModelEvent;
use crate::wire::langchain as lc;

/// The events of a complete message that did not stream (flat, normalized): its content,
/// then its tool calls whole.
pub fn whole_message(message_id: &str, msg: &Value, out: &mut Vec<ModelEvent>) {
    super::content::chunk_events(message_id, msg, out);
    for (i, (id, name, args)) in lc::tool_calls(msg).into_iter().enumerate() {
        out.push(ModelEvent::ToolCallChunk {
            message_id: message_id.to_string(),
            index: format!("call{i}"),
            id: Some(id),
            name: Some(name),
            args,
        });
    }
}

/// What the complete form adds to what streamed.
#[derive(Debug, PartialEq, Eq)]
pub enum Rest<'a> {
    /// Nothing is missing.
    Complete,
    /// This is missing after what streamed.
    Suffix(&'a str),
    /// What streamed is not a beginning of the complete form.
    Diverged,
}

/// The answer text missing after `streamed`, of the message whose complete text is `complete`.
pub fn text<'a>(streamed: &str, complete: &'a str) -> Rest<'a> {
    match complete.strip_prefix(streamed) {
        Some("") => Rest::Complete,
        Some(rest) => Rest::Suffix(rest),
        // The complete form has no text where the stream had some (content only in blocks
        // aguify does not read as text): nothing to add.
        None if complete.is_empty() => Rest::Complete,
        None => Rest::Diverged,
    }
}

/// The argument text missing after `streamed`, of a call whose complete arguments are written
/// as each of `complete` (the provider's own text first, then aguify's compact JSON): the
/// first of them that `streamed` begins. Arguments that streamed whole, in whatever layout,
/// are complete.
pub fn args<'a>(streamed: &str, complete: &[&'a str]) -> Rest<'a> {
    if !streamed.trim().is_empty() {
        if let (Ok(a), Some(Ok(b))) = (
            serde_json::from_str::<Value>(streamed),
            complete.first().map(|c| serde_json::from_str::<Value>(c)),
        ) {
            if a == b {
                return Rest::Complete;
            }
        }
    }
    for c in complete {
        match c.strip_prefix(streamed) {
            Some("") => return Rest::Complete,
            Some(rest) => return Rest::Suffix(rest),
            None => {}
        }
    }
    Rest::Diverged
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rest_of_a_text() {
        assert_eq!(text("It is", "It is sunny."), Rest::Suffix(" sunny."));
        assert_eq!(text("", "It is sunny."), Rest::Suffix("It is sunny."));
        assert_eq!(text("It is sunny.", "It is sunny."), Rest::Complete);
        assert_eq!(text("It is", ""), Rest::Complete);
        assert_eq!(text("It was", "It is sunny."), Rest::Diverged);
    }

    #[test]
    fn the_rest_of_arguments() {
        let provider = r#"{"city": "Paris"}"#;
        let compact = r#"{"city":"Paris"}"#;
        assert_eq!(
            args(r#"{"city"#, &[provider, compact]),
            Rest::Suffix(r#"": "Paris"}"#)
        );
        // Streamed in the compact layout: the second form completes it.
        assert_eq!(
            args(r#"{"city":"P"#, &[provider, compact]),
            Rest::Suffix(r#"aris"}"#)
        );
        assert_eq!(args("", &[compact]), Rest::Suffix(compact));
        // Whole in another layout: complete.
        assert_eq!(args("{ \"city\" : \"Paris\" }", &[compact]), Rest::Complete);
        assert_eq!(args(r#"{"town"#, &[provider, compact]), Rest::Diverged);
    }
}
