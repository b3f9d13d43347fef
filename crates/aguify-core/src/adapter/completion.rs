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
    for (i, call) in lc::tool_calls(msg).into_iter().enumerate() {
        out.push(whole_call(message_id, i, call));
    }
}

/// Call `i` of a complete message, whole: keyed `call<i>`, apart from the keys of what
/// streamed.
pub fn whole_call(message_id: &str, i: usize, call: lc::Call) -> ModelEvent {
    let lc::Call { id, name, args } = call;
    super::content::call_chunk(message_id, format!("call{i}"), Some(id), Some(name), args)
}

/// The answer text missing after `streamed`, of the message whose complete text is `complete`
/// (`""`: nothing is missing). `None` when what streamed is not a beginning of the complete
/// form: text a client has received cannot be taken back, and appending anything would only
/// corrupt it, so nothing is added (the complete message still reaches the client in
/// MESSAGES_SNAPSHOT).
pub fn text<'a>(streamed: &str, complete: &'a str) -> Option<&'a str> {
    match complete.strip_prefix(streamed) {
        // The complete form has no text where the stream had some (content only in blocks
        // aguify does not read as text): nothing to add.
        None if complete.is_empty() => Some(""),
        rest => rest,
    }
}

/// The argument text missing after `sent`, of a call whose complete arguments are `full`
/// (`None` when they diverge, as for [`text`]). The two may be spaced differently (Python
/// streams `{"city": "Pa`, a finish's args object is written `{"city":"Paris"}`): whitespace
/// outside strings is skipped on both sides.
pub fn args<'a>(sent: &str, full: &'a str) -> Option<&'a str> {
    if let Some(rest) = full.strip_prefix(sent) {
        return Some(rest);
    }
    if let (Ok(a), Ok(b)) = (
        serde_json::from_str::<Value>(sent),
        serde_json::from_str::<Value>(full),
    ) {
        return (a == b).then_some("");
    }
    let mut f = significant(full);
    for c in significant(sent) {
        if f.next().map(|(_, d)| d) != Some(c.1) {
            return None;
        }
    }
    // All of `sent` matched: the rest of `full` completes it.
    Some(&full[f.next().map_or(full.len(), |(at, _)| at)..])
}

/// The characters of a JSON text with their offsets, skipping whitespace outside strings.
fn significant(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let (mut in_string, mut escaped) = (false, false);
    text.char_indices().filter(move |&(_, c)| {
        if !in_string {
            in_string = c == '"';
            return !c.is_ascii_whitespace();
        }
        match (escaped, c) {
            (true, _) => escaped = false,
            (false, '\\') => escaped = true,
            (false, '"') => in_string = false,
            _ => {}
        }
        true
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rest_of_a_text() {
        assert_eq!(text("It is", "It is sunny."), Some(" sunny."));
        assert_eq!(text("", "It is sunny."), Some("It is sunny."));
        assert_eq!(text("It is sunny.", "It is sunny."), Some(""));
        assert_eq!(text("It is", ""), Some(""));
        assert_eq!(text("It was", "It is sunny."), None);
    }

    #[test]
    fn the_rest_of_arguments() {
        let missing = Some;
        assert_eq!(args("", "{}"), missing("{}"));
        assert_eq!(args("{\"a\"", "{\"a\":1}"), missing(":1}"));
        assert_eq!(args("{\"a\": 1}", "{\"a\":1}"), Some(""));
        assert_eq!(args("{\"a\":1}", "{\"a\":1}"), Some(""));
        // Spacing differs, and a string holding spaces and an escaped quote.
        assert_eq!(
            args("{\"q\": \"a \\\" b", "{\"q\":\"a \\\" bc\", \"n\":1}"),
            missing("c\", \"n\":1}")
        );
        assert_eq!(args("{\"q\": \"a b", "{\"q\":\"ab\"}"), None);
        assert_eq!(args("{\"a\": 2}", "{\"a\":1}"), None);
        assert_eq!(args("{\"a\": 1", "{\"a\":12}"), missing("2}"));
    }
}
