//! A run's framing: RUN_STARTED with its input (and resume), and the run's one terminal
//! event (RUN_FINISHED with its outcome, or RUN_ERROR) after everything open is closed.

use super::*;

impl Mapper {
    pub(super) fn start_run(
        &mut self,
        thread_id: Option<String>,
        run_id: Option<String>,
        messages: Vec<Value>,
        resume: Option<Value>,
        state: Option<Value>,
        out: &mut Vec<Event>,
    ) {
        self.runs += 1;
        let thread_id = thread_id
            .or_else(|| self.opts.thread_id.clone())
            .or_else(|| self.thread_id.clone())
            .unwrap_or_else(|| format!("thread-{:016x}", self.seed));
        let mut run_id = run_id
            .or_else(|| {
                self.opts.run_id.as_ref().map(|r| {
                    if self.runs == 1 {
                        r.clone()
                    } else {
                        format!("{r}-{}", self.runs)
                    }
                })
            })
            .unwrap_or_else(|| format!("run-{:016x}", self.seed));
        if self.last_run_id.as_deref() == Some(run_id.as_str()) {
            run_id = format!("{run_id}-{}", self.runs);
        }
        let same_thread = self.thread_id.as_deref() == Some(thread_id.as_str());
        if !same_thread {
            self.client.get_mut().new_thread();
        }
        let (pending, suspended) = if same_thread {
            (
                std::mem::take(&mut self.pending),
                std::mem::take(&mut self.suspended),
            )
        } else {
            (vec![], vec![])
        };
        self.pending.clear();
        self.suspended.clear();
        self.thread_id = Some(thread_id.clone());
        self.last_run_id = Some(run_id.clone());
        // A run on a thread with pending interrupts resumes them: v2 says so in its input
        // (`Command(resume=…)`); v3 does not echo input, so a run with no input messages does.
        let resumes = !pending.is_empty() && (resume.is_some() || messages.is_empty());
        if !resumes {
            // Only a resume run re-executes calls an earlier run answered.
            self.thread_answers.clear();
        }
        let input = (resumes || !messages.is_empty()).then(|| {
            // A complete `RunAgentInput`: the 0.x clients require every field. The log records
            // no tools, context or forwarded props; the state is the input's other keys. The
            // state and messages are moved in (`json!` would copy them by serializing).
            let mut input: serde_json::Map<String, Value> = [
                ("threadId", Value::from(thread_id.as_str())),
                ("runId", Value::from(run_id.as_str())),
                ("state", state.unwrap_or_else(|| json!({}))),
                ("messages", Value::Array(messages)),
                ("tools", json!([])),
                ("context", json!([])),
                ("forwardedProps", json!({})),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
            if resumes {
                let entries = interrupt::resume_entries(&pending, resume.as_ref());
                input.insert("resume".into(), Value::Array(entries));
            }
            Value::Object(input)
        });
        let e = Event::RunStarted {
            timestamp: self.timestamp,
            thread_id: thread_id.clone(),
            run_id: run_id.clone(),
            input,
        };
        *self.subagents.get_mut() = Default::default();
        let mut run = Run {
            thread_id,
            run_id,
            ..Run::default()
        };
        if resumes {
            // The calls the interrupt suspended are this run's to answer, already started.
            for (id, name, parent) in suspended {
                run.resumed.insert(id.clone());
                let call = ToolCall {
                    name,
                    parent,
                    ended: true,
                    result: false,
                };
                run.tools.insert(id, call);
            }
        }
        self.run = Some(run);
        self.push(e, out);
    }

    pub(super) fn end_run(&mut self, ending: Ending, out: &mut Vec<Event>) {
        if self.run.is_none() {
            return;
        }
        self.send_held(out);
        // An interrupt inside a sub-agent suspends its calls and its parent's: the resume
        // answers them.
        let suspended_subagent_calls = match &ending {
            Ending::Finished => self.subagent_calls(),
            _ => vec![],
        };
        self.end_subagents(&ending, out);
        // Close everything still open, innermost first.
        self.close_all_reasoning(out);
        let texts: Vec<String> = self
            .run_mut()
            .text_open
            .drain(..)
            .map(|(id, ())| id)
            .collect();
        for id in texts {
            self.emit_text_end(&id, out);
        }
        let msgs: Vec<String> = self
            .run_mut()
            .tool_buffer
            .keys()
            .map(|(m, _)| m.clone())
            .collect();
        for m in msgs {
            self.close_message(&m, out);
        }
        let tools = self.run_mut().open_tools.clone();
        for id in tools {
            self.end_tool(&id, out);
        }
        self.release_early_results(out);
        self.close_narration(out);
        if matches!(ending, Ending::Finished) && self.opts.text == TextPolicy::Final {
            self.final_answer(out);
        }
        let steps: Vec<Step> = self.run_mut().steps.drain(..).map(|(k, _)| k).collect();
        for step in steps.into_iter().rev() {
            self.emit_step_finished(step, out);
        }
        let Some(mut run) = self.run.take() else {
            return;
        };
        let timestamp = self.timestamp;
        // Only a run stopped at interrupts leaves some to resume.
        self.pending.clear();
        let error = |raw_event, message, code: &'static str| Event::RunError {
            timestamp,
            raw_event,
            message,
            code: Some(code.into()),
        };
        let finished = |run: Run, outcome| Event::RunFinished {
            timestamp,
            thread_id: run.thread_id,
            run_id: run.run_id,
            outcome,
            usage: usage_summary(&run.usage),
        };
        let e = match ending {
            Ending::Failed(info, code) => {
                let detail = ErrorDetail {
                    error: info.name,
                    message: info.message.clone(),
                    lc_error_code: info.lc_code,
                };
                error(Some(detail), info.message, code)
            }
            // A 0.0.x client (`--compat thinking`) has no `cancelled` outcome and reads an absent
            // or unknown one as success: it gets RUN_ERROR with code CANCELLED instead.
            Ending::Cancelled
                if self.opts.compat == Compat::Thinking || self.opts.target == Target::Agui0 =>
            {
                error(None, CANCELLED_MESSAGE.into(), error_code::CANCELLED)
            }
            Ending::Cancelled => finished(run, json!({"type": "cancelled"})),
            Ending::Incomplete(message) => error(None, message, error_code::INCOMPLETE_STREAM),
            Ending::Finished => {
                if self.opts.compat == Compat::Thinking {
                    for i in &run.interrupts {
                        self.interrupt_text(i, out);
                    }
                }
                if let Some((mut messages, lent)) = run.messages.take(&mut self.converted) {
                    if !run.interrupts.is_empty() {
                        keep_sent_results(&mut messages, std::mem::take(&mut run.sent_results));
                    }
                    self.client.get_mut().rename(&mut messages);
                    self.lent_at = lent.map(|generation| (out.len(), generation));
                    self.push(
                        Event::MessagesSnapshot {
                            timestamp,
                            messages,
                        },
                        out,
                    );
                }
                let outcome = if run.interrupts.is_empty() {
                    let mut pending = run.tools.iter().filter(|(_, t)| !t.result);
                    let pending_calls: Vec<&String> = pending
                        .by_ref()
                        .take(PENDING_IDS_LISTED)
                        .map(|(id, _)| id)
                        .collect();
                    let more = pending.count();
                    if pending_calls.is_empty() || self.opts.target == Target::Agui0 {
                        json!({"type": "success"})
                    } else if more == 0 {
                        json!({"type": "success", "pendingToolCallIds": pending_calls})
                    } else {
                        // A bounded line: the first ids, and how many there are in all.
                        json!({
                            "type": "success",
                            "pendingToolCallIds": pending_calls,
                            "pendingToolCallCount": PENDING_IDS_LISTED + more,
                        })
                    }
                } else {
                    let subagents = self.subagents.get_mut();
                    let ints: Vec<Value> = run
                        .interrupts
                        .iter()
                        .map(|i| {
                            let mut v = interrupt::to_agui(i);
                            // Raised inside a sub-agent (by one of its calls): its id.
                            let owner = i
                                .tool_call_id
                                .as_deref()
                                .and_then(|c| subagents.owner_of(c));
                            if let (Some(o), Some(m)) = (owner, v.as_object_mut()) {
                                m.insert("subagentRunId".into(), Value::String(o.to_string()));
                            }
                            v
                        })
                        .collect();
                    self.pending = run.interrupts.iter().map(|i| i.id.clone()).collect();
                    // The calls the interrupts name (and a sub-agent's open at the interrupt)
                    // first, then every other call the run left without a result: v3 does
                    // not say which of several open tools raised which interrupt, LangGraph.js
                    // names the first interrupt of a tools node only (the resume runs the
                    // others again), a middleware interrupts before the tools run.
                    self.suspended = run
                        .interrupts
                        .iter()
                        .filter_map(|i| i.tool_call_id.as_ref())
                        .chain(&suspended_subagent_calls)
                        .filter_map(|id| Some((id, run.tools.get(id)?)))
                        .chain(&run.tools)
                        .filter(|(_, t)| !t.result)
                        .map(|(id, t)| (id.clone(), t.name.clone(), t.parent.clone()))
                        .collect();
                    let mut seen = HashSet::<String, FastIds>::default();
                    self.suspended.retain(|(id, _, _)| seen.insert(id.clone()));
                    // In call order: the resume answers them in the order the state lists.
                    (self.suspended).sort_by_key(|(id, _, _)| run.tools.get_index_of(id));
                    json!({"type": "interrupt", "interrupts": ints})
                };
                finished(run, outcome)
            }
        };
        self.push(e, out);
    }

    /// `--compat thinking`: an interrupt as a text message (its message, or what it waits for).
    /// TDesign Chat has no interrupt UI and ignores `RUN_FINISHED.outcome`; without this the
    /// run would read as complete with nothing asked.
    pub(super) fn interrupt_text(&self, i: &InterruptInfo, out: &mut Vec<Event>) {
        let text = interrupt::visible_text(&i.value);
        let id = format!("interrupt-{}", i.id);
        self.emit_text_start(&id, out);
        self.emit_text_content(id.clone(), text, out);
        self.emit_text_end(&id, out);
    }

    /// `--text final`: the final state's answer, as one text message.
    pub(super) fn final_answer(&mut self, out: &mut Vec<Event>) {
        let run = self.run.get_or_insert_with(Run::default);
        let Some(last) = run
            .messages
            .get(&mut self.converted)
            .and_then(|l| l.last())
            .cloned()
        else {
            return;
        };
        if last.get("role").and_then(Value::as_str) != Some("assistant") {
            return;
        }
        let (Some(id), Some(text)) = (
            last.get("id").and_then(Value::as_str),
            last.get("content")
                .and_then(Value::as_str)
                .filter(|t| !t.is_empty()),
        ) else {
            return;
        };
        if !self.answered.insert(id.to_string()) {
            return;
        }
        let (id, text) = (id.to_string(), text.to_string());
        self.emit_text_start(&id, out);
        self.emit_text_content(id.clone(), text, out);
        self.emit_text_end(&id, out);
    }
}

/// Token usage by (provider, model).
pub(super) type UsageTotals = IndexMap<(Option<String>, Option<String>), UsageTotal, FastIds>;

/// Adds one message's usage to the run's totals (kept summed so a long run stays small).
pub(super) fn add_usage(totals: &mut UsageTotals, u: Usage) {
    let (input, output) = (u.input_tokens.unwrap_or(0), u.output_tokens.unwrap_or(0));
    let key = (u.provider, u.model);
    let t = totals.entry(key.clone()).or_insert_with(|| UsageTotal {
        provider: key.0,
        model: key.1,
        input_tokens: 0,
        output_tokens: 0,
        total_tokens: Some(0),
        reasoning_tokens: 0,
    });
    t.input_tokens += input;
    t.output_tokens += output;
    *t.total_tokens.get_or_insert(0) += u.total_tokens.unwrap_or(input + output);
    t.reasoning_tokens += u.reasoning_tokens.unwrap_or(0);
}

pub(super) fn usage_summary(by_model: &UsageTotals) -> Option<Vec<UsageTotal>> {
    (!by_model.is_empty()).then(|| by_model.values().cloned().collect())
}
