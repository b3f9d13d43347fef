//! v2 tool runs → tool calls: the calls models made, pending until a tool run claims one (by
//! name and args), and the calls a resumed run re-executes.

use serde_json::Value;

use super::V2Adapter;
use crate::adapter::{json_text, str_field as s, tool_end, tool_error, tool_start, Disposition};
use crate::model::ModelEvent;
use crate::wire::langchain as lc;
use crate::wire::v2::{Data, Event, MessageCalls};

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

pub(super) struct ToolRun {
    tool_call_id: Option<String>,
    name: String,
    /// Its input as the call's arguments text.
    args: String,
}

impl V2Adapter {
    /// The calls of AI messages, pending until a tool run claims them.
    pub(super) fn remember_calls(&mut self, messages: &[MessageCalls]) {
        for m in messages {
            for (id, name, args) in &m.calls {
                self.pend(id, name, args, m.id.as_deref(), false);
            }
        }
    }

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
        match kind {
            "on_tool_start" => {
                let input = ev.data.value();
                let id = self.claim_call(&name, input);
                let args = match input {
                    Value::Null => "{}".into(),
                    v => json_text(v),
                };
                if let Some((id, parent)) = id.clone() {
                    let ns = ev.meta.ns.0.as_deref().unwrap_or_default();
                    self.run.nest.tool_started(&id, &name, ns);
                    out.push(tool_start(id, name.clone(), Some(args.clone()), parent));
                }
                let tool_call_id = id.map(|(i, _)| i);
                let run = ToolRun {
                    tool_call_id,
                    name,
                    args,
                };
                self.run.tool_runs.insert(run_id, run);
                Disposition::Mapped
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
                self.run.nest.tool_ended(&id);
                out.push(tool_end(id, Some(name), &output));
                Disposition::Mapped
            }
            "on_tool_error" => {
                let data = ev.data.value();
                let call_id = s(data, "tool_call_id");
                let id = self.resolve_tool_run(&run_id, call_id, &name, out);
                // A failure ends the call; `interrupt()` inside the tool suspends it (it waits
                // for the resume run).
                let error = data.get("error").unwrap_or(&Value::Null);
                let read = tool_error::read(error, id, name);
                if let ModelEvent::ToolEnd(r) = &read {
                    self.run.nest.tool_ended(&r.tool_call_id);
                }
                out.push(read);
                Disposition::Mapped
            }
            _ => Disposition::Ignored("tool event of no AG-UI meaning"),
        }
    }

    /// The tool call a starting tool run executes: the unclaimed call of that name whose
    /// arguments equal the tool input, or the only unclaimed call of that name. When several
    /// could match, the id waits for the tool's end (which names it).
    fn claim_call(&mut self, name: &str, input: &Value) -> Option<(String, Option<String>)> {
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
    fn claim(&mut self, pos: usize) -> (String, Option<String>) {
        let c = self.pending_calls.remove(pos);
        self.run.claimed.insert(c.id.clone(), c.message_id.clone());
        (c.id, c.message_id)
    }

    fn resolve_tool_run(
        &mut self,
        run_id: &str,
        call_id: Option<String>,
        name: &str,
        out: &mut Vec<ModelEvent>,
    ) -> String {
        let run = self.run.tool_runs.remove(run_id);
        let known = run.as_ref().and_then(|r| r.tool_call_id.clone());
        let id = (call_id.or(known.clone())).unwrap_or_else(|| format!("tool-run-{run_id}"));
        if known.is_none() {
            // The start could not be matched to a call: announce it now that the id is known.
            let parent = match self.pending_calls.iter().position(|c| c.id == id) {
                Some(pos) => self.claim(pos).1,
                None => self.run.claimed.get(&id).cloned().flatten(),
            };
            let (tname, args) = match run {
                Some(r) => (r.name, Some(r.args)),
                None => (name.to_string(), None),
            };
            out.push(tool_start(id.clone(), tname, args, parent));
        }
        id
    }
}
