//! The one place that reads AG-UI events: each event of the pipeline's stream becomes a call on
//! the [`Conversation`] of its side ([`fold`]), and [`Reader`] is the pipeline [`Observer`]
//! that hands each finished run on.

use std::io;

use serde_json::Value;

use super::conversation::{Conversation, Run};
use crate::agui::{Event, Role, Snapshot};
use crate::input::Origin;
use crate::pipeline::Observer;

/// What one side of a diff yields, in input order.
#[derive(Debug)]
pub enum Item {
    Run(Run),
    /// A line that could not be read (the stream goes on without it).
    Bad {
        origin: Origin,
        message: String,
    },
}

/// Folds one AG-UI event into `conv` (read typed: [`Event::typed`]); a run that ends here
/// comes back.
pub fn fold(conv: &mut Conversation, ev: &Event, origin: &Origin) -> Option<Run> {
    if matches!(ev, Event::Passthrough(v) if !v.get("type").is_some_and(Value::is_string)) {
        return None;
    }
    let typed = ev.typed();
    let given = |id: &str| Some(id).filter(|id| !id.is_empty()).map(str::to_string);
    let mut done = None;
    let starts = matches!(typed.as_ref(), Event::RunStarted { .. });
    if let Event::RunStarted {
        thread_id,
        run_id,
        input,
        ..
    } = typed.as_ref()
    {
        let (thread, run) = (given(thread_id), given(run_id));
        done = conv.run_started(thread.as_deref(), run.as_deref(), input.as_ref(), origin);
    }
    let exact = conv.is_exact();
    if exact {
        conv.exact_event(&ev.to_value(), origin);
    }
    if exact || starts {
        return match typed.as_ref() {
            Event::RunFinished { outcome, .. } => conv.run_finished(Some(outcome), origin),
            Event::RunError { code, message, .. } => {
                conv.run_error(code.as_deref(), message, origin)
            }
            _ => done,
        };
    }
    if let Some(sub) = ev.subagent() {
        match typed.as_ref() {
            Event::SubagentStarted {
                name,
                parent_tool_call_id,
                ..
            } => conv.subagent_started(sub, name, parent_tool_call_id.as_deref(), origin),
            Event::SubagentFinished {
                outcome, result, ..
            } => conv.subagent_ended(sub, Some(outcome), result.as_ref(), None, origin),
            Event::SubagentError { message, .. } => {
                conv.subagent_ended(sub, None, None, Some(message), origin)
            }
            // A sub-agent's own events are folded apart from the run's.
            typed => return conv.in_subagent(sub, origin, |c| own(c, ev, typed, origin)),
        }
        return done;
    }
    own(conv, ev, typed.as_ref(), origin).or(done)
}

/// Folds an event (`typed`: `ev` read typed) into the open run of `conv` (the run's own, or a
/// sub-agent's).
fn own(conv: &mut Conversation, ev: &Event, typed: &Event, origin: &Origin) -> Option<Run> {
    match typed {
        Event::RunFinished { outcome, .. } => return conv.run_finished(Some(outcome), origin),
        Event::RunError { code, message, .. } => {
            return conv.run_error(code.as_deref(), message, origin)
        }
        Event::StepStarted { step_name, .. } => conv.step_started(step_name, origin),
        Event::TextMessageStart {
            message_id, role, ..
        } => conv.text_start(message_id, Some(role.as_str()), origin),
        Event::TextMessageContent {
            message_id, delta, ..
        } => conv.text_content(message_id, None, delta, origin),
        Event::TextMessageChunk {
            message_id,
            role,
            delta,
            ..
        } => {
            let (id, delta) = (message_id.as_deref(), delta.as_deref());
            let role = role.map(Role::as_str);
            conv.text_content(id.unwrap_or(""), role, delta.unwrap_or(""), origin)
        }
        Event::ToolCallStart {
            tool_call_id,
            tool_call_name,
            parent_message_id,
            ..
        } => conv.tool_start(
            tool_call_id,
            tool_call_name,
            parent_message_id.as_deref(),
            origin,
        ),
        Event::ToolCallChunk {
            tool_call_id,
            tool_call_name,
            parent_message_id,
            delta,
            ..
        } => {
            let call = tool_call_id.as_deref().unwrap_or("");
            if let Some(name) = tool_call_name {
                conv.tool_start(call, name, parent_message_id.as_deref(), origin);
            }
            conv.tool_args(call, delta.as_deref().unwrap_or(""), origin);
        }
        Event::ToolCallArgs {
            tool_call_id,
            delta,
            ..
        } => conv.tool_args(tool_call_id, delta, origin),
        Event::ToolCallResult {
            message_id,
            tool_call_id,
            content,
            metadata,
            ..
        } => {
            // A capture's own `error` key marks a failed call too.
            let error = metadata.as_ref().is_some_and(|m| m.status == "error")
                || matches!(ev, Event::Passthrough(v) if v.get("error").is_some_and(|e| !e.is_null()));
            conv.tool_result(message_id, tool_call_id, content, error, origin);
        }
        Event::ReasoningStart { message_id, .. }
        | Event::ReasoningMessageStart { message_id, .. } => {
            conv.reasoning_start(message_id, origin)
        }
        Event::ReasoningMessageContent {
            message_id, delta, ..
        } => conv.reasoning_content(message_id, delta, origin),
        Event::ReasoningMessageChunk {
            message_id, delta, ..
        } => {
            let (id, delta) = (message_id.as_deref(), delta.as_deref());
            conv.reasoning_content(id.unwrap_or(""), delta.unwrap_or(""), origin)
        }
        Event::ReasoningEncryptedValue { entity_id, .. } => {
            conv.reasoning_encrypted(entity_id, origin)
        }
        Event::Custom { name, value, .. } => conv.custom(name, value, origin),
        Event::StateSnapshot { snapshot, .. } => conv.state_snapshot(&snapshot.to_value(), origin),
        Event::StateDelta { delta, .. } => conv.state_delta(delta, origin),
        Event::MessagesSnapshot { messages, .. } => conv.messages_snapshot(messages, origin),
        // Step ends, message and call ends, RAW and activity events show nothing of their own.
        _ => {}
    }
    None
}

/// The pipeline observer of one side: folds events and hands on each run as it ends.
pub struct Reader<'a> {
    conv: Conversation,
    out: &'a mut dyn FnMut(Item) -> io::Result<()>,
    bad: Vec<Item>,
}

impl<'a> Reader<'a> {
    pub fn new(exact: bool, out: &'a mut dyn FnMut(Item) -> io::Result<()>) -> Reader<'a> {
        Reader {
            conv: Conversation::new(exact),
            out,
            bad: Vec::new(),
        }
    }

    fn flush_bad(&mut self) -> io::Result<()> {
        for b in self.bad.drain(..) {
            (self.out)(b)?;
        }
        Ok(())
    }

    /// The input ended: the open run, if any, and the lines still held.
    pub fn finish(mut self) -> io::Result<()> {
        self.flush_bad()?;
        if let Some(run) = self.conv.finish() {
            (self.out)(Item::Run(run))?;
        }
        Ok(())
    }
}

impl Observer for Reader<'_> {
    fn bad_line(&mut self, origin: &Origin, message: &str) {
        self.bad.push(Item::Bad {
            origin: origin.clone(),
            message: message.to_string(),
        });
    }

    /// A state written on a parse thread is read without its messages (never parsed), but
    /// for an exact diff.
    fn event(&mut self, ev: &Event, origin: &Origin) -> io::Result<()> {
        self.flush_bad()?;
        if let Event::StateSnapshot {
            snapshot: Snapshot::Encoded(state),
            ..
        } = ev
        {
            if !self.conv.is_exact() {
                self.conv.state_snapshot(state.without_messages(), origin);
                return Ok(());
            }
        }
        match fold(&mut self.conv, ev, origin) {
            Some(run) => (self.out)(Item::Run(run)),
            None => Ok(()),
        }
    }
}
