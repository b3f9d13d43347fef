//! Sub-agents: a graph run nested inside a tool call (a tool that invokes a compiled agent)
//! becomes `SUBAGENT_STARTED {subagentRunId, name, parentToolCallId}`, its events carry the
//! `subagentRunId`, and `SUBAGENT_FINISHED` (or `SUBAGENT_ERROR`) closes it before its parent
//! tool's `TOOL_CALL_RESULT`.
//!
//! The adapters say where a sub-agent starts and ends ([`crate::model::ModelEvent::SubagentStart`],
//! `SubagentEnd`) and whose events follow (`Scope`). Here the events are attributed: an item
//! (text message, reasoning message, tool call) belongs to the sub-agent in scope when it
//! started, and every later event of that item carries the same id, whatever the scope then
//! (the mapper closes items at a run's end, a message's end closes its calls). Steps are told
//! apart by owner and name (a sub-agent's `model` step is not the supervisor's).

use std::collections::HashMap;

use super::*;

use foldhash::fast::RandomState as FastIds;
use indexmap::IndexMap;

use crate::agui::Event;

/// A run's sub-agents and who owns which item.
#[derive(Debug, Default)]
pub(super) struct Subagents {
    /// Open sub-agents' ids → the tool call each runs under, in start order.
    pub open: IndexMap<String, String, FastIds>,
    /// The `subagentRunId` of the events being mapped (`None`: the run's own agent).
    pub scope: Option<String>,
    /// Items (message, reasoning, tool call ids) started inside a sub-agent → its id. Items of
    /// the run's own agent are not listed, so a log without sub-agents keeps this empty.
    owners: HashMap<String, String, FastIds>,
}

impl Subagents {
    /// Whether an item may be a sub-agent's (only then are events looked at).
    pub fn any(&self) -> bool {
        !self.open.is_empty() || !self.owners.is_empty()
    }

    /// Item `id` (not started here: a call the interrupted run started) belongs to the scope.
    pub fn adopt(&mut self, id: &str) {
        if let Some(s) = &self.scope {
            self.owners.insert(id.to_string(), s.clone());
        }
    }

    /// The owner of item `id` (`None`: the run's own agent).
    pub fn owner_of(&self, id: &str) -> Option<&str> {
        self.owners.get(id).map(String::as_str)
    }

    /// The sub-agent whose call raised interrupt `i`, when known.
    pub fn raised(&self, i: &InterruptInfo) -> Option<&str> {
        self.owner_of(i.tool_call_id.as_deref()?)
    }

    /// `ev` with its `subagentRunId`: an item's start takes the scope (and the item is
    /// remembered as the scope's), a later event of an item its owner, an event of no item
    /// (CUSTOM, STATE_SNAPSHOT) the scope.
    pub fn attribute(&mut self, ev: Event) -> Event {
        let owner = match &ev {
            // Steps are attributed where they are kept (by owner and name).
            Event::StepStarted { .. } | Event::StepFinished { .. } => return ev,
            Event::TextMessageStart { message_id: id, .. }
            | Event::ReasoningStart { message_id: id, .. }
            | Event::ToolCallStart {
                tool_call_id: id, ..
            } => {
                match &self.scope {
                    Some(s) => self.owners.insert(id.clone(), s.clone()),
                    None => self.owners.remove(id),
                };
                self.scope.clone()
            }
            ev => match ev.item() {
                Some(id) => self.owners.get(id).cloned(),
                None => self.scope.clone(),
            },
        };
        ev.attributed(owner.as_deref())
    }
}

impl Mapper {
    /// SUBAGENT_STARTED for sub-agent `id` (once).
    pub(super) fn subagent_start(
        &mut self,
        id: String,
        name: String,
        parent_tool_call_id: String,
        out: &mut Vec<Event>,
    ) {
        let parent = parent_tool_call_id.clone();
        if self.subagents.open.insert(id.clone(), parent).is_some() {
            return;
        }
        let e = Event::SubagentStarted {
            timestamp: None,
            subagent_run_id: id,
            name,
            parent_tool_call_id: Some(parent_tool_call_id),
        };
        self.push(e, out);
    }

    /// Closes what sub-agent `id` has open (its reasoning, text, tool calls and steps), then
    /// SUBAGENT_FINISHED or SUBAGENT_ERROR.
    pub(super) fn subagent_end(&mut self, id: String, end: SubagentEnding, out: &mut Vec<Event>) {
        if self.subagents.open.shift_remove(&id).is_none() {
            return;
        }
        let owned = |owner: Option<&str>| owner == Some(id.as_str());
        self.close_where(|owner, _| owned(owner), out);
        self.finish_steps(owned, out);
        self.subagents.scope.take_if(|s| *s == id);
        let e = match end {
            Ok((result, outcome)) => Event::SubagentFinished {
                timestamp: None,
                subagent_run_id: id,
                result,
                outcome,
            },
            Err((code, message)) => Event::SubagentError {
                timestamp: None,
                subagent_run_id: id,
                message,
                code: Some(code.into()),
            },
        };
        self.push(e, out);
    }

    /// At a run's end: each sub-agent still open ends as the run does (an interrupt suspends
    /// it, naming the run's interrupts when it is the only one open), latest first.
    pub(super) fn end_subagents(&mut self, ending: &Ending, out: &mut Vec<Event>) {
        let interrupts = self.run.as_ref().map_or(&[][..], |r| &r.interrupts[..]);
        let subagents = &self.subagents;
        // When none is known to be a sub-agent's, all of them are the only open one's
        // (LangGraph stops the whole graph at one).
        let unowned = interrupts.iter().all(|i| subagents.raised(i).is_none());
        let anyone = subagents.open.len() == 1 && unowned;
        let ends = (subagents.open.keys().rev()).map(|id| {
            let own = (interrupts.iter()).filter(|i| anyone || subagents.raised(i) == Some(id));
            let own: Vec<String> = own.map(|i| i.id.clone()).collect();
            let end = match ending {
                Ending::Finished if interrupts.is_empty() => Ok((None, json!({"type": "success"}))),
                // Stopped at the run's interrupts: their ids, when known.
                Ending::Finished if own.is_empty() => Ok((None, json!({"type": "suspended"}))),
                Ending::Finished => Ok((None, json!({"type": "suspended", "interruptIds": own}))),
                Ending::Failed(code, message, _) => Err((*code, message.clone())),
                Ending::Cancelled => Err((error_code::CANCELLED, CANCELLED_MESSAGE.into())),
            };
            (id.clone(), end)
        });
        for (id, end) in ends.collect::<Vec<_>>() {
            self.subagent_end(id, end, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(id: &str) -> Event {
        Event::TextMessageContent {
            timestamp: None,
            subagent_run_id: None,
            message_id: id.into(),
            delta: "d".into(),
        }
    }

    /// An item belongs to the scope it started in, later events of it too, whatever the scope.
    #[test]
    fn items_keep_the_owner_they_started_under() {
        let mut s = Subagents::default();
        let id = String::from("call_1:subagent");
        s.open.insert(id.clone(), "call_1".into());
        s.scope = Some(id.clone());
        let start = Event::TextMessageStart {
            timestamp: None,
            subagent_run_id: None,
            message_id: "m".into(),
            role: crate::agui::Role::Assistant,
        };
        assert_eq!(s.attribute(start).subagent(), Some(id.as_str()));
        s.scope = None;
        assert_eq!(s.attribute(text("m")).subagent(), Some(id.as_str()));
        assert_eq!(s.attribute(text("other")).subagent(), None);
    }
}
