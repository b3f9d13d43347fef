//! v2 tool runs → tool calls: the calls models made, pending until a tool run claims one (by
//! name and args), and the calls a resumed run re-executes.

use serde_json::Value;

use super::V2Adapter;
use crate::adapter::{json_text, str_field as s, tool_end, tool_error, tool_start, Disposition};
use crate::model::ModelEvent;
use crate::wire::langchain as lc;
use crate::wire::v2::{Data, Event};

pub(super) struct PendingCall {
    pub(super) id: String,
    pub(super) name: String,
    pub(super) args: String,
    pub(super) message_id: Option<String>,
    /// Args accumulate from streamed chunks (otherwise they came whole from a message).
    pub(super) from_chunks: bool,
    /// The run (counted in this file) whose model made the call.
    pub(super) run: u64,
}

/// Call ids matched to tool runs, with their messages' ids: the latest 16,384, so a run of
/// thousands of calls (a long-running agent) is read in flat memory, and looking a call up
/// scans only the pending ones.
pub(super) type Claimed =
    crate::recent::Recent<String, Option<String>, { 1 << 14 }, foldhash::fast::RandomState>;

/// A tool run in progress: matched at its start to the call it executes, or not (its name and
/// input, as the call's arguments text, wait for its end to name the call).
pub(super) enum ToolRun {
    /// The call's id.
    Call(String),
    Unmatched {
        name: String,
        args: String,
    },
}

impl V2Adapter {
    /// Call `id` pending unless known already: pending, or matched to a tool run
    /// (`from_chunks`: its args are still streaming).
    pub(super) fn pend(
        &mut self,
        id: &str,
        name: &str,
        args: &str,
        message_id: Option<&str>,
        from_chunks: bool,
    ) {
        if !self.pending_calls.iter().any(|c| c.id == id) && self.run.claimed.get(id).is_none() {
            self.pending_calls.push(PendingCall {
                run: self.run_no,
                id: id.to_string(),
                name: name.to_string(),
                args: args.to_string(),
                message_id: message_id.map(str::to_string),
                from_chunks,
            });
        }
    }

    pub(super) fn on_tool(
        &mut self,
        ev: &Event,
        kind: &str,
        out: &mut Vec<ModelEvent>,
    ) -> Disposition {
        self.ensure_started(out);
        let run_id = ev.run_id.clone().unwrap_or_default();
        let name = ev.name.clone().unwrap_or_else(|| "tool".into());
        let event = match kind {
            "on_tool_start" => {
                let input = ev.data.value();
                let args = match input {
                    Value::Null => "{}".into(),
                    v => json_text(v),
                };
                let run = match self.claim_call(&name, input) {
                    Some(c) => {
                        let ns = ev.meta.ns.0.as_deref().unwrap_or_default();
                        self.run.nest.tool_started(&c.id, &name, ns);
                        out.push(tool_start(c.id.clone(), name, Some(args), c.message_id));
                        ToolRun::Call(c.id)
                    }
                    None => ToolRun::Unmatched { name, args },
                };
                self.run.tool_runs.insert(run_id, run);
                return Disposition::Mapped;
            }
            "on_tool_end" => {
                let Data::Value(Some(output)) = &ev.data else {
                    return Disposition::bad(
                        "on_tool_end without `data.output`: expected the tool's result",
                    );
                };
                let output =
                    lc::command_tool_message(output, None).unwrap_or_else(|| output.clone());
                let is_msg = lc::message_kind(&output) == Some("tool");
                let call_id = s(&output, "tool_call_id").filter(|_| is_msg);
                let id = self.resolve_tool_run(&run_id, call_id, &name, out);
                tool_end(id, Some(name), &output)
            }
            "on_tool_error" => {
                let data = ev.data.value();
                let call_id = s(data, "tool_call_id");
                let id = self.resolve_tool_run(&run_id, call_id, &name, out);
                let error = data.get("error").unwrap_or(&Value::Null);
                tool_error::read(error, id, name)
            }
            _ => return Disposition::Ignored("tool event of no AG-UI meaning"),
        };
        // A result ends the call; `interrupt()` inside the tool suspends it (it waits for the
        // resume run).
        if let ModelEvent::ToolEnd(r) = &event {
            self.run.nest.tool_ended(&r.tool_call_id);
        }
        out.push(event);
        Disposition::Mapped
    }

    /// The tool call a starting tool run executes: the unclaimed call of that name whose
    /// arguments equal the tool input, or the only unclaimed call of that name. When several
    /// could match, the id waits for the tool's end (which names it).
    fn claim_call(&mut self, name: &str, input: &Value) -> Option<PendingCall> {
        let calls = &self.pending_calls;
        let named: Vec<usize> = (0..calls.len())
            .filter(|&i| calls[i].name == name)
            .collect();
        let same_args =
            |i: &usize| serde_json::from_str::<Value>(&calls[*i].args).is_ok_and(|a| &a == input);
        let only = (named.len() == 1).then(|| named[0]);
        let pos = named.iter().copied().find(same_args).or(only)?;
        Some(self.claim(pos))
    }

    /// Matches pending call `pos` to a tool run: it leaves the pending calls.
    fn claim(&mut self, pos: usize) -> PendingCall {
        let c = self.pending_calls.remove(pos);
        self.run.claimed.insert(c.id.clone(), c.message_id.clone());
        c
    }

    /// The call tool run `run_id` executed, at its end: the id its result names (`call_id`),
    /// else the call its start claimed; a run whose start claimed none starts now.
    fn resolve_tool_run(
        &mut self,
        run_id: &str,
        call_id: Option<String>,
        name: &str,
        out: &mut Vec<ModelEvent>,
    ) -> String {
        let (name, args) = match self.run.tool_runs.remove(run_id) {
            Some(ToolRun::Call(known)) => return call_id.unwrap_or(known),
            Some(ToolRun::Unmatched { name, args }) => (name, Some(args)),
            None => (name.to_string(), None),
        };
        // The start could not be matched to a call: announce it now that the id is known.
        let id = call_id.unwrap_or_else(|| format!("tool-run-{run_id}"));
        let parent = match self.pending_calls.iter().position(|c| c.id == id) {
            Some(pos) => self.claim(pos).message_id,
            None => self.run.claimed.get(&id).cloned().flatten(),
        };
        out.push(tool_start(id.clone(), name, args, parent));
        id
    }
}
