//! Tool calls: streamed chunks gathered into START/ARGS/END, and results sent in the
//! conversation's order (held while their message id is unknown or an earlier call waits).

use super::*;

impl Mapper {
    pub(super) fn tool_chunk(
        &mut self,
        message_id: String,
        index: String,
        id: Option<String>,
        name: Option<String>,
        args: String,
        out: &mut Vec<Event>,
    ) {
        let key = (message_id.clone(), index);
        let known = self.run_mut().tool_index.get(&key).cloned();
        if let Some(call_id) = known {
            let started_here = self.run_mut().tools.get(&call_id).is_some_and(|t| !t.ended);
            if started_here && !args.is_empty() {
                self.close_narration_for_tdesign(out);
                let e = Event::ToolCallArgs {
                    subagent_run_id: None,
                    timestamp: self.timestamp,
                    tool_call_id: call_id,
                    delta: args,
                };
                self.push(e, out);
            }
            return;
        }
        // Not started yet: gather id, name and args until both id and name are known.
        let run = self.run_mut();
        let buf = run.tool_buffer.entry(key.clone()).or_default();
        if id.is_some() {
            buf.id = id;
        }
        if name.is_some() {
            buf.name = name;
        }
        buf.args.push_str(&args);
        if buf.id.is_none() || buf.name.is_none() {
            return;
        }
        let PendingChunks { id, name, args } =
            run.tool_buffer.shift_remove(&key).unwrap_or_default();
        let (call_id, name) = (id.unwrap_or_default(), name.unwrap_or_default());
        if run.tools.contains_key(&call_id) {
            // The same call announced again (a replayed message): never a second START.
            run.tool_index.insert(key, call_id);
            return;
        }
        run.tool_index.insert(key, call_id.clone());
        self.close_reasoning_of(&message_id, out);
        self.ensure_tool(&call_id, &name, Some(message_id), Some(&args), out);
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
            self.subagents.get_mut().adopt(call_id);
            if self.opts.compat != Compat::Thinking {
                return;
            }
            // A 0.0.x client (TDesign Chat) shows each run as its own message: the call is
            // announced again in the run that answers it, or its result has nowhere to go.
            self.run_mut().tools.shift_remove(call_id);
        }
        let run = self.run_mut();
        run.tools.insert(
            call_id.to_string(),
            ToolCall {
                name: name.to_string(),
                parent: parent.clone(),
                ended: false,
                result: false,
            },
        );
        run.open_tools.push(call_id.to_string());
        self.close_narration_for_tdesign(out);
        let e = Event::ToolCallStart {
            subagent_run_id: None,
            timestamp: self.timestamp,
            tool_call_id: call_id.into(),
            tool_call_name: name.into(),
            parent_message_id: parent,
        };
        self.push(e, out);
        if let Some(a) = args.filter(|a| !a.is_empty()) {
            let e = Event::ToolCallArgs {
                subagent_run_id: None,
                timestamp: self.timestamp,
                tool_call_id: call_id.into(),
                delta: a.into(),
            };
            self.push(e, out);
        }
    }

    /// Whether call `call_id` was answered by an earlier run of this thread and is not one of
    /// this run's: a re-execution of it adds nothing.
    pub(super) fn answered_before(&mut self, call_id: &str) -> bool {
        self.thread_answers.get(call_id).is_some() && !self.run_mut().tools.contains_key(call_id)
    }

    pub(super) fn end_tool(&mut self, call_id: &str, out: &mut Vec<Event>) {
        let run = self.run_mut();
        let Some(t) = run.tools.get_mut(call_id) else {
            return;
        };
        if t.ended {
            return;
        }
        t.ended = true;
        let done = t.result;
        if let Some(i) = run.open_tools.iter().rposition(|id| id == call_id) {
            run.open_tools.remove(i);
        }
        if done {
            run.tool_done();
        }
        self.close_narration_for_tdesign(out);
        let e = Event::ToolCallEnd {
            subagent_run_id: None,
            timestamp: self.timestamp,
            tool_call_id: call_id.into(),
        };
        self.push(e, out);
        self.release_early_result(call_id, out);
    }

    /// The result held for `call_id` ([`Run::early_results`]), now that its call ended.
    pub(super) fn release_early_result(&mut self, call_id: &str, out: &mut Vec<Event>) {
        let held = &mut self.run_mut().early_results;
        if held.is_empty() {
            return;
        }
        if let Some(i) = held.iter().position(|r| r.call_id == call_id) {
            let r = held.remove(i);
            self.tool_result(r.call_id, r.name, r.content, r.message_id, r.error, out);
        }
    }

    /// At the run's end, the results whose call never came: the call is started (and ended)
    /// from the result (its id, and its name when the result has one), then the result sent.
    pub(super) fn release_early_results(&mut self, out: &mut Vec<Event>) {
        for r in std::mem::take(&mut self.run_mut().early_results) {
            let name = r.name.clone().unwrap_or_else(|| "tool".into());
            self.ensure_tool(&r.call_id, &name, None, None, out);
            self.tool_result(r.call_id, r.name, r.content, r.message_id, r.error, out);
        }
    }

    pub(super) fn tool_result(
        &mut self,
        call_id: String,
        name: Option<String>,
        content: Value,
        message_id: Option<String>,
        error: bool,
        out: &mut Vec<Event>,
    ) {
        if self.answered_before(&call_id) {
            return;
        }
        if !self.run_mut().tools.contains_key(&call_id) {
            // Before its call: held, so the call's START, ARGS and END still come first.
            self.run_mut().early_results.push(EarlyResult {
                call_id,
                name,
                content,
                message_id,
                error,
            });
            return;
        }
        self.thread_answers.insert(call_id.clone(), ());
        let name = name
            .or_else(|| self.run_mut().tools.get(&call_id).map(|t| t.name.clone()))
            .unwrap_or_else(|| "tool".into());
        self.ensure_tool(&call_id, &name, None, None, out);
        self.end_tool(&call_id, out);
        let run = self.run_mut();
        if let Some(t) = run.tools.get_mut(&call_id).filter(|t| !t.result) {
            t.result = true;
            if t.ended {
                run.tool_done();
            }
        }
        let text = lc::tool_content_text(&content);
        for key in self.subagents.get_mut().under_call(&call_id) {
            let end = match error {
                false => SubagentEnding::Success(Some(Value::String(text.clone()))),
                true => SubagentEnding::Error(text.clone(), error_code::AGENT_INTERNAL),
            };
            self.subagent_end(&key, end, out);
        }
        let message_id = message_id.unwrap_or_else(|| format!("result-{call_id}"));
        let sent = &mut self.run_mut().sent_results;
        if sent.len() == SENT_RESULTS {
            // A run of thousands of results between two lists stays small: the oldest go.
            sent.remove(0);
        }
        sent.push(json!({
            "id": message_id, "role": "tool", "toolCallId": call_id, "content": text,
        }));
        self.close_narration_for_tdesign(out);
        let e = Event::ToolCallResult {
            subagent_run_id: None,
            timestamp: self.timestamp,
            message_id,
            tool_call_id: call_id,
            content: ToolContent::Text(text),
            role: Role::Tool,
            metadata: error.then_some(ResultStatus {
                status: "error".into(),
            }),
        };
        self.push(e, out);
        if self.opts.tool_steps == ToolSteps::Reasoning {
            let how = if error { "failed" } else { "returned" };
            self.tool_step_line(&format!("Tool {name} {how}.\n"), out);
        }
    }

    /// A tool finished: its result is sent now, or held ([`HeldResult`]) while the log has
    /// not said its message's id (the state will) or a call made before it in the same
    /// message has no result yet (the client puts results in arrival order, the state in
    /// call order).
    pub(super) fn tool_end(&mut self, held: HeldResult, out: &mut Vec<Event>) {
        let call = held.call_id.clone();
        if let Some(h) =
            (self.run.as_mut()).and_then(|r| r.held.iter_mut().find(|h| h.call_id == call))
        {
            // Held already: a state now says the message's id.
            if h.message_id.is_none() {
                h.message_id = held.message_id;
            }
            return self.release_held(out);
        }
        // Before its call: tool_result holds it until the call ends (early results).
        let unknown = !self.run_mut().tools.contains_key(&call);
        if unknown || (held.message_id.is_some() && !self.waits_for_earlier_call(&call)) {
            self.send_result(held, out);
            self.release_held(out);
            return;
        }
        if self.answered_before(&call) {
            return;
        }
        let name = (held.name.clone())
            .or_else(|| self.run_mut().tools.get(&call).map(|t| t.name.clone()))
            .unwrap_or_else(|| "tool".into());
        self.ensure_tool(&call, &name, None, None, out);
        self.end_tool(&call, out);
        self.run_mut().held.push(held);
    }

    pub(super) fn send_result(&mut self, h: HeldResult, out: &mut Vec<Event>) {
        let HeldResult {
            call_id,
            name,
            content,
            message_id,
            error,
        } = h;
        self.tool_result(call_id, name, content, message_id, error, out);
    }

    /// Whether a call started before `call_id` in the same message has no result yet.
    pub(super) fn waits_for_earlier_call(&self, call_id: &str) -> bool {
        let Some(run) = self.run.as_ref() else {
            return false;
        };
        let Some((at, _, t)) = run.tools.get_full(call_id) else {
            return false;
        };
        let Some(parent) = t.parent.as_deref() else {
            return false;
        };
        (run.tools.values().take(at)).any(|e| e.parent.as_deref() == Some(parent) && !e.result)
    }

    /// Sends the held results that can go now; forgets those a state answered meanwhile.
    pub(super) fn release_held(&mut self, out: &mut Vec<Event>) {
        loop {
            let Some(run) = self.run.as_mut() else { return };
            let tools = &run.tools;
            run.held
                .retain(|h| tools.get(&h.call_id).is_none_or(|t| !t.result));
            let ready = (0..run.held.len()).find(|&i| {
                let h = &self.run.as_ref().map(|r| &r.held[i]);
                h.is_some_and(|h| {
                    h.message_id.is_some() && !self.waits_for_earlier_call(&h.call_id)
                })
            });
            let Some(i) = ready else { return };
            let h = self.run_mut().held.remove(i);
            self.send_result(h, out);
        }
    }

    /// At a run's end: every result still held, in call order (`result-<call id>` for a
    /// message whose id the log never said).
    pub(super) fn send_held(&mut self, out: &mut Vec<Event>) {
        self.release_held(out);
        let Some(run) = self.run.as_mut() else { return };
        let mut held = std::mem::take(&mut run.held);
        held.sort_by_key(|h| run.tools.get_index_of(&h.call_id));
        for h in held {
            self.send_result(h, out);
        }
    }
}
