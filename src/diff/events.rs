//! The one place that reads AG-UI events: each event of the pipeline's stream becomes a call on
//! the [`Conversation`] of its side ([`fold`]), and [`Reader`] is the pipeline [`Observer`]
//! that hands each finished run on.

use std::io;

use serde_json::Value;

use super::conversation::{Conversation, Run};
use crate::agui::{Event, Snapshot};
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

/// Folds one AG-UI event into `conv`; a run that ends here comes back.
pub fn fold(conv: &mut Conversation, ev: &Value, origin: &Origin) -> Option<Run> {
    let s = |k: &str| ev.get(k).and_then(Value::as_str);
    let t = s("type")?;
    let exact = conv.is_exact();
    let starts = t == "RUN_STARTED";
    let mut done = None;
    if starts {
        done = conv.run_started(s("threadId"), s("runId"), ev.get("input"), origin);
    }
    if exact {
        conv.exact_event(ev, origin);
    }
    if exact || starts {
        return match t {
            "RUN_FINISHED" => conv.run_finished(ev.get("outcome"), origin),
            "RUN_ERROR" => conv.run_error(s("code"), s("message").unwrap_or(""), origin),
            _ => done,
        };
    }
    match (t, s("subagentRunId")) {
        ("SUBAGENT_STARTED", Some(sub)) => {
            conv.subagent_started(sub, s("name").unwrap_or(""), s("parentToolCallId"), origin);
            return done;
        }
        ("SUBAGENT_FINISHED", Some(sub)) => {
            conv.subagent_ended(sub, ev.get("outcome"), ev.get("result"), None, origin);
            return done;
        }
        ("SUBAGENT_ERROR", Some(sub)) => {
            let message = s("message").unwrap_or("");
            conv.subagent_ended(sub, None, None, Some(message), origin);
            return done;
        }
        // A sub-agent's own events are folded apart from the run's.
        (_, Some(sub)) => return conv.in_subagent(sub, origin, |c| own(c, t, ev, origin)),
        _ => {}
    }
    own(conv, t, ev, origin).or(done)
}

/// Folds an event into the open run of `conv` (the run's own, or a sub-agent's).
fn own(conv: &mut Conversation, t: &str, ev: &Value, origin: &Origin) -> Option<Run> {
    let s = |k: &str| ev.get(k).and_then(Value::as_str);
    let id = s("messageId").unwrap_or("");
    let delta = s("delta").unwrap_or("");
    match t {
        "RUN_FINISHED" => return conv.run_finished(ev.get("outcome"), origin),
        "RUN_ERROR" => return conv.run_error(s("code"), s("message").unwrap_or(""), origin),
        "STEP_STARTED" => conv.step_started(s("stepName").unwrap_or(""), origin),
        "TEXT_MESSAGE_START" => conv.text_start(id, s("role"), origin),
        "TEXT_MESSAGE_CONTENT" | "TEXT_MESSAGE_CHUNK" => {
            conv.text_content(id, s("role"), delta, origin)
        }
        "TOOL_CALL_START" | "TOOL_CALL_CHUNK" => {
            let call = s("toolCallId").unwrap_or("");
            if let Some(name) = s("toolCallName") {
                conv.tool_start(call, name, s("parentMessageId"), origin);
            }
            conv.tool_args(call, delta, origin);
        }
        "TOOL_CALL_ARGS" => conv.tool_args(s("toolCallId").unwrap_or(""), delta, origin),
        "TOOL_CALL_RESULT" => {
            let error = ev.get("error").is_some_and(|e| !e.is_null())
                || ev.pointer("/metadata/status").and_then(Value::as_str) == Some("error");
            conv.tool_result(
                id,
                s("toolCallId").unwrap_or(""),
                ev.get("content").unwrap_or(&Value::Null),
                error,
                origin,
            );
        }
        "REASONING_START" | "REASONING_MESSAGE_START" => conv.reasoning_start(id, origin),
        "REASONING_MESSAGE_CONTENT" | "REASONING_MESSAGE_CHUNK" => {
            conv.reasoning_content(id, delta, origin)
        }
        "REASONING_ENCRYPTED_VALUE" => {
            conv.reasoning_encrypted(s("entityId").unwrap_or(""), origin)
        }
        "CUSTOM" => conv.custom(
            s("name").unwrap_or(""),
            ev.get("value").unwrap_or(&Value::Null),
            origin,
        ),
        "STATE_SNAPSHOT" => conv.state_snapshot(ev.get("snapshot").unwrap_or(&Value::Null), origin),
        "STATE_DELTA" => conv.state_delta(ev.get("delta").unwrap_or(&Value::Null), origin),
        "MESSAGES_SNAPSHOT" => {
            conv.messages_snapshot(ev.get("messages").unwrap_or(&Value::Null), origin)
        }
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
        match fold(&mut self.conv, &ev.to_value(), origin) {
            Some(run) => (self.out)(Item::Run(run)),
            None => Ok(()),
        }
    }
}
