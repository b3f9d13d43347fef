//! `--compat thinking`: the stream as a client of the THINKING era reads it (`@ag-ui/client`
//! 0.0.42–0.0.59, which TDesign Chat 0.5.2 builds on).
//!
//! - `REASONING_*` become `THINKING_START`, `THINKING_TEXT_MESSAGE_START/CONTENT/END` and
//!   `THINKING_END`, which carry no ids: there is one thinking step at a time, and the
//!   mapper's reasoning spans never overlap (one is open at a time, issue 22.9), so each span
//!   is renamed event by event ([`Event::into_thinking`]).
//! - `REASONING_ENCRYPTED_VALUE` is dropped: 0.0.42 has no such event and rejects the stream.
//! - `SUBAGENT_*` are dropped and `subagentRunId` is left out: no 0.0.x client knows
//!   sub-agents (0.0.59's event union has no `SUBAGENT_*` type, and its schemas strip the
//!   unknown key). A sub-agent's messages and tool calls stay, read as the run's own.
//! - `RUN_FINISHED.outcome` has no `pendingToolCallIds` ([`super::Mapper::agui0`]: 0.0.59's
//!   success outcome is a strict `{type}` object, 1.0 added the field), and its interrupts no
//!   `subagentRunId`.
//!
//! Passed-through AG-UI events are renamed as they are.

use serde_json::Value;

use crate::agui::{Event, EventType, Message, ToolContent};

/// Turns `ev`'s tool messages' content parts to text (0.0.x tool messages hold text only):
/// the text of the text parts, or the parts as JSON when there is none. (The mapper's
/// snapshots hold its own items only; a captured event is passed through as it is.)
pub(super) fn text_content(ev: &mut Event) {
    let as_text = |c: &mut ToolContent| {
        let text = std::mem::replace(c, ToolContent::Text(String::new())).into_text();
        *c = ToolContent::Text(text);
    };
    match ev {
        Event::ToolCallResult { content, .. } => as_text(content),
        Event::MessagesSnapshot { messages, .. } => {
            for m in messages.iter_mut() {
                if let Message::Item(m) = m {
                    m.content.iter_mut().for_each(as_text);
                }
            }
        }
        _ => {}
    }
}

/// `ev` as the 0.x client reads it (`None`: it has no such event, REASONING_ENCRYPTED_VALUE
/// and SUBAGENT_*, whether mapped or passed through). No 0.0.x schema knows
/// sub-agents: SUBAGENT_* are dropped and `subagentRunId` is left out; the sub-agent's
/// messages, tool calls and steps stay, as the run's own ([`super::Mapper::emit_step`]
/// names its steps apart).
pub(super) fn thinking(mut ev: Event) -> Option<Event> {
    use EventType::{ReasoningEncryptedValue, SubagentError, SubagentFinished, SubagentStarted};
    // A passed-through event is told by its `type` alike.
    if let Some(SubagentStarted | SubagentFinished | SubagentError | ReasoningEncryptedValue) =
        ev.kind()
    {
        return None;
    }
    if let Event::Passthrough(Value::Object(m)) = &mut ev {
        m.shift_remove("subagentRunId");
    }
    Some(ev.attributed(None).into_thinking())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agui::Role;

    #[test]
    fn one_span_is_renamed_with_ids_dropped() {
        let (timestamp, message_id) = (Some(5), || "a".to_string());
        let out = [
            Event::ReasoningStart {
                subagent_run_id: None,
                timestamp,
                message_id: message_id(),
            },
            Event::ReasoningMessageStart {
                subagent_run_id: None,
                timestamp,
                message_id: message_id(),
                role: Role::Reasoning,
            },
            Event::ReasoningMessageContent {
                subagent_run_id: None,
                timestamp: Some(6),
                message_id: message_id(),
                delta: "hm".into(),
            },
            Event::ReasoningMessageEnd {
                subagent_run_id: None,
                timestamp,
                message_id: message_id(),
            },
            Event::ReasoningEnd {
                subagent_run_id: None,
                timestamp,
                message_id: message_id(),
            },
        ];
        let text: Vec<String> = (out.into_iter().filter_map(thinking))
            .map(|e| serde_json::to_string(&e).unwrap_or_default())
            .collect();
        assert_eq!(
            text,
            [
                r#"{"type":"THINKING_START","timestamp":5}"#,
                r#"{"type":"THINKING_TEXT_MESSAGE_START","timestamp":5}"#,
                r#"{"type":"THINKING_TEXT_MESSAGE_CONTENT","timestamp":6,"delta":"hm"}"#,
                r#"{"type":"THINKING_TEXT_MESSAGE_END","timestamp":5}"#,
                r#"{"type":"THINKING_END","timestamp":5}"#,
            ]
        );
    }

    #[test]
    fn encrypted_values_are_dropped() {
        let encrypted = Event::ReasoningEncryptedValue {
            subagent_run_id: None,
            timestamp: None,
            subtype: crate::agui::Subtype::Message,
            entity_id: "a".into(),
            encrypted_value: "x".into(),
        };
        assert_eq!(thinking(encrypted), None);
        let text = Event::TextMessageStart {
            subagent_run_id: None,
            timestamp: None,
            message_id: "m".into(),
            role: Role::Assistant,
        };
        assert_eq!(thinking(text.clone()), Some(text));
    }
}
