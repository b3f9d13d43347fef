//! Tool calls: streamed chunks gathered into START/ARGS/END, and results sent in the
//! conversation's order (held while their message id is unknown or an earlier call waits).

use super::*;

impl Mapper {
    /// A streamed piece of call `index` of a message: ARGS of a call started here, else
    /// gathered until both its id and name are known, then its START.
    pub(super) fn tool_chunk(
        &mut self,
        message_id: String,
        index: String,
        chunk: PendingChunks,
        out: &mut Vec<Event>,
    ) {
        let key = (message_id.clone(), index);
        let run = self.run_mut();
        if let Some(call_id) = run.tool_index.get(&key).cloned() {
            let started_here = run.tools.get(&call_id).is_some_and(|t| !t.ended);
            if started_here && !chunk.args.is_empty() {
                self.emit_args(call_id, chunk.args, out);
            }
            return;
        }
        let buf = run.tool_buffer.entry(key.clone()).or_default();
        buf.id = chunk.id.or(buf.id.take());
        buf.name = chunk.name.or(buf.name.take());
        buf.args.push_str(&chunk.args);
        let (Some(call_id), Some(name)) = (buf.id.clone(), buf.name.clone()) else {
            return;
        };
        let args = (run.tool_buffer.shift_remove(&key)).map_or_else(String::new, |b| b.args);
        // The same call announced again (a replayed message): never a second START.
        let replayed = run.tools.contains_key(&call_id);
        run.tool_index.insert(key, call_id.clone());
        if !replayed {
            self.close_reasoning_of(&message_id, out);
            self.ensure_tool(&call_id, &name, Some(message_id), Some(&args), out);
        }
    }

    /// Sends START (+ ARGS) for a call not announced yet in this run.
    pub(super) fn ensure_tool(
        &mut self,
        call_id: &str,
        name: &str,
        parent: Option<String>,
        args: Option<&str>,
        out: &mut Vec<Event>,
    ) {
        if self.answered_before(call_id) {
            return;
        }
        if self.run_mut().tools.contains_key(call_id) {
            if !self.run_mut().resumed.remove(call_id) {
                return;
            }
            // Started by the interrupted run, shown again here: the scope's (a resumed
            // sub-agent's call is its own again).
            self.subagents.adopt(call_id);
            if self.opts.compat != Compat::Thinking {
                return;
            }
            // A 0.0.x client (TDesign Chat) shows each run as its own message: the call is
            // announced again in the run that answers it, or its result has nowhere to go.
            self.run_mut().tools.shift_remove(call_id);
        }
        let run = self.run_mut();
        let call = ToolCall::new(name, parent.clone(), false);
        run.tools.insert(call_id.to_string(), call);
        run.open_tools.push(call_id.to_string());
        let e = own!(ToolCallStart {
            tool_call_id: call_id.to_string(),
            tool_call_name: name.to_string(),
            parent_message_id: parent
        });
        self.push(e, out);
        if let Some(args) = args.filter(|a| !a.is_empty()) {
            self.emit_args(call_id.into(), args.into(), out);
        }
    }

    fn emit_args(&mut self, tool_call_id: String, delta: String, out: &mut Vec<Event>) {
        let e = own!(ToolCallArgs {
            tool_call_id,
            delta
        });
        self.push(e, out);
    }

    /// Whether call `call_id` was answered by an earlier run of this thread and is not one of
    /// this run's: a re-execution of it adds nothing.
    pub(super) fn answered_before(&mut self, call_id: &str) -> bool {
        self.thread_answers.get(call_id).is_some() && !self.run_mut().tools.contains_key(call_id)
    }

    /// A call a result answers, started (unless it was) and ended; returns its name: the
    /// one given, else the one it started with, else `tool`.
    fn call_ended(&mut self, call_id: &str, name: Option<String>, out: &mut Vec<Event>) -> String {
        let started = || Some(self.run.as_ref()?.tools.get(call_id)?.name.clone());
        let name = name.or_else(started).unwrap_or_else(|| "tool".into());
        self.ensure_tool(call_id, &name, None, None, out);
        self.end_tool(call_id, out);
        name
    }

    pub(super) fn end_tool(&mut self, call_id: &str, out: &mut Vec<Event>) {
        let run = self.run_mut();
        let Some(t) = run.tools.get_mut(call_id).filter(|t| !t.ended) else {
            return;
        };
        t.ended = true;
        if t.result {
            run.tool_done();
        }
        run.open_tools.retain(|id| id != call_id);
        let tool_call_id = call_id.into();
        self.push(own!(ToolCallEnd { tool_call_id }), out);
        // A result that came before its call ([`Run::early_results`]) can go now.
        let early = &mut self.run_mut().early_results;
        if let Some(i) = early.iter().position(|r| r.tool_call_id == call_id) {
            let r = early.remove(i);
            self.tool_result(r, out);
        }
    }

    /// At the run's end, the results whose call never came: the call is started (and ended)
    /// from the result (its id, and its name when the result has one), then the result sent.
    pub(super) fn release_early_results(&mut self, out: &mut Vec<Event>) {
        for r in std::mem::take(&mut self.run_mut().early_results) {
            self.call_ended(&r.tool_call_id, r.name.clone(), out);
            self.tool_result(r, out);
        }
    }

    fn tool_result(&mut self, r: ToolResult, out: &mut Vec<Event>) {
        if self.answered_before(&r.tool_call_id) {
            return;
        }
        if !self.run_mut().tools.contains_key(&r.tool_call_id) {
            // Before its call: held, so the call's START, ARGS and END still come first.
            self.run_mut().early_results.push(r);
            return;
        }
        let call_id = r.tool_call_id;
        self.thread_answers.insert(call_id.clone(), ());
        let name = self.call_ended(&call_id, r.name, out);
        let run = self.run_mut();
        // Ended now ([`Mapper::call_ended`]): done.
        if let Some(t) = run.tools.get_mut(&call_id).filter(|t| !t.result) {
            t.result = true;
            run.tool_done();
        }
        // The sub-agents run under the call (latest first) end with its result.
        let under = (self.subagents.open.iter().rev()).filter(|(_, c)| **c == call_id);
        for id in under.map(|(id, _)| id.clone()).collect::<Vec<_>>() {
            let text = r.content.clone().into_text();
            let end = match r.error {
                false => Ok((Some(text.into()), json!({"type": "success"}))),
                true => Err((error_code::AGENT_INTERNAL, text)),
            };
            self.subagent_end(id, end, out);
        }
        let message_id = r.message_id.unwrap_or_else(|| format!("result-{call_id}"));
        let sent = &mut self.run_mut().sent_results;
        if sent.len() == SENT_RESULTS {
            // A run of thousands of results between two lists stays small: the oldest go.
            sent.remove(0);
        }
        sent.push(Item {
            tool_call_id: Some(call_id.clone()),
            content: Some(r.content.clone()),
            ..Item::new(message_id.clone(), Role::Tool, None)
        });
        let e = own!(ToolCallResult {
            message_id,
            tool_call_id: call_id,
            content: r.content,
            role: Role::Tool,
            metadata: r.error.then(|| ResultStatus {
                status: "error".into(),
            })
        });
        self.push(e, out);
        let how = if r.error { "failed" } else { "returned" };
        self.tool_step_line(format_args!("Tool {name} {how}.\n"), out);
    }

    /// A tool finished: its result is sent now, or held ([`ToolResult`]) while the log has
    /// not said its message's id (the state will) or a call made before it in the same
    /// message has no result yet (the client puts results in arrival order, the state in
    /// call order).
    pub(super) fn tool_end(&mut self, result: ToolResult, out: &mut Vec<Event>) {
        let call = result.tool_call_id.clone();
        let run = self.run.as_mut();
        if let Some(h) = run.and_then(|r| r.held.iter_mut().find(|h| h.tool_call_id == call)) {
            // Held already: a state now says the message's id.
            h.message_id = h.message_id.take().or(result.message_id);
            return self.release_held(out);
        }
        // Before its call: tool_result holds it until the call ends (early results).
        let unknown = !self.run_mut().tools.contains_key(&call);
        if unknown || (result.message_id.is_some() && !self.run_mut().waits_for_earlier_call(&call))
        {
            self.tool_result(result, out);
            return self.release_held(out);
        }
        if self.answered_before(&call) {
            return;
        }
        self.call_ended(&call, result.name.clone(), out);
        self.run_mut().held.push(result);
    }

    /// Sends the held results that can go now; forgets those a state answered meanwhile.
    pub(super) fn release_held(&mut self, out: &mut Vec<Event>) {
        loop {
            let Some(run) = self.run.as_mut() else { return };
            let tools = &run.tools;
            run.held
                .retain(|h| tools.get(&h.tool_call_id).is_none_or(|t| !t.result));
            let ready = |h: &ToolResult| {
                h.message_id.is_some() && !run.waits_for_earlier_call(&h.tool_call_id)
            };
            let Some(i) = run.held.iter().position(ready) else {
                return;
            };
            let h = run.held.remove(i);
            self.tool_result(h, out);
        }
    }

    /// The results still held, in call order (`result-<call id>` for a message whose id the
    /// log never said): at a run's end all of them (`in_scope` false); when a model streams
    /// again, those of the agent in scope, whose next turn follows them. Another agent's wait
    /// on (a supervisor's parallel calls while one sub-agent's model streams, or a sibling
    /// sub-agent's): sent then, they would reach the client out of call order.
    pub(super) fn send_held(&mut self, in_scope: bool, out: &mut Vec<Event>) {
        self.release_held(out);
        let Some(run) = self.run.as_mut() else { return };
        let (scope, subagents) = (self.subagents.scope.as_deref(), &self.subagents);
        let (mut held, kept): (Vec<_>, _) = std::mem::take(&mut run.held)
            .into_iter()
            .partition(|h| !in_scope || subagents.owner_of(&h.tool_call_id) == scope);
        run.held = kept;
        held.sort_by_key(|h| run.tools.get_index_of(&h.tool_call_id));
        for h in held {
            self.tool_result(h, out);
        }
    }
}
