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
    /// What streamed is not a beginning of the complete form. Text a client has received
    /// cannot be taken back: appending anything would only corrupt it, so nothing is added
    /// (the complete message still reaches the client in MESSAGES_SNAPSHOT).
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

/// The argument text missing after `sent`, of a call whose complete arguments are `full`. The two
/// may be spaced differently (Python streams `{"city": "Pa`, a finish's args object is written
/// `{"city":"Paris"}`): whitespace outside strings is skipped on both sides.
pub fn args<'a>(sent: &str, full: &'a str) -> Rest<'a> {
    if let Some(rest) = full.strip_prefix(sent) {
        return match rest {
            "" => Rest::Complete,
            rest => Rest::Suffix(rest),
        };
    }
    if let (Ok(a), Ok(b)) = (
        serde_json::from_str::<Value>(sent),
        serde_json::from_str::<Value>(full),
    ) {
        return if a == b {
            Rest::Complete
        } else {
            Rest::Diverged
        };
    }
    let (mut s, mut f) = (JsonChars::new(sent), JsonChars::new(full));
    loop {
        let Some(c) = s.next_significant() else {
            // All of `sent` matched: the rest of `full` completes it.
            let at = f.next_significant_at().unwrap_or(full.len());
            return match &full[at..] {
                "" => Rest::Complete,
                rest => Rest::Suffix(rest),
            };
        };
        if f.next_significant() != Some(c) {
            return Rest::Diverged;
        }
    }
}

/// The characters of a JSON text, skipping whitespace outside strings.
struct JsonChars<'a> {
    text: &'a str,
    at: usize,
    in_string: bool,
    escaped: bool,
}

impl<'a> JsonChars<'a> {
    fn new(text: &'a str) -> Self {
        JsonChars {
            text,
            at: 0,
            in_string: false,
            escaped: false,
        }
    }

    /// The byte offset of the next significant character, without taking it.
    fn next_significant_at(&mut self) -> Option<usize> {
        while let Some(c) = self.text[self.at..].chars().next() {
            if self.in_string || !c.is_ascii_whitespace() {
                return Some(self.at);
            }
            self.at += c.len_utf8();
        }
        None
    }

    /// The next significant character.
    fn next_significant(&mut self) -> Option<char> {
        let at = self.next_significant_at()?;
        let c = self.text[at..].chars().next()?;
        self.at = at + c.len_utf8();
        if self.in_string {
            match (self.escaped, c) {
                (true, _) => self.escaped = false,
                (false, '\\') => self.escaped = true,
                (false, '"') => self.in_string = false,
                _ => {}
            }
        } else if c == '"' {
            self.in_string = true;
        }
        Some(c)
    }
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
        let missing = Rest::Suffix;
        assert_eq!(args("", "{}"), missing("{}"));
        assert_eq!(args("{\"a\"", "{\"a\":1}"), missing(":1}"));
        assert_eq!(args("{\"a\": 1}", "{\"a\":1}"), Rest::Complete);
        assert_eq!(args("{\"a\":1}", "{\"a\":1}"), Rest::Complete);
        // Spacing differs, and a string holding spaces and an escaped quote.
        assert_eq!(
            args("{\"q\": \"a \\\" b", "{\"q\":\"a \\\" bc\", \"n\":1}"),
            missing("c\", \"n\":1}")
        );
        assert_eq!(args("{\"q\": \"a b", "{\"q\":\"ab\"}"), Rest::Diverged);
        assert_eq!(args("{\"a\": 2}", "{\"a\":1}"), Rest::Diverged);
        assert_eq!(args("{\"a\": 1", "{\"a\":12}"), missing("2}"));
    }
}
