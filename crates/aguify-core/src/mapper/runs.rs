//! A run's framing: RUN_STARTED with its input (and resume), and the run's one terminal
//! event (RUN_FINISHED with its outcome, or RUN_ERROR) after everything open is closed.

use super::*;

impl Mapper {
    /// A run starts or ends (a new run's start ends the one still open, cut off).
    pub(super) fn run_event(&mut self, ev: ModelEvent, out: &mut Vec<Event>) {
        let ending = match ev {
            ModelEvent::RunStart {
                thread_id,
                run_id,
                messages,
                resume,
                state,
            } => {
                // A run still open is cut off ([`Mapper::end_run`] does nothing otherwise).
                let cut = "a new run started before this one ended";
                let code = error_code::INCOMPLETE_STREAM;
                self.end_run(Ending::Failed(code, cut.into(), None), out);
                return self.start_run(thread_id, run_id, messages, resume, state, out);
            }
            ModelEvent::RunFailed(info) if error_code::is_cancelled(&info) => Ending::Cancelled,
            ModelEvent::RunFailed(info) => {
                let (code, message) = (error_code::classify(&info), info.message.clone());
                Ending::Failed(code, message, Some(info))
            }
            // A platform stop at an interrupt is the interrupt, else a cancellation.
            ModelEvent::RunStopped if self.run.as_ref().is_none_or(|r| r.interrupts.is_empty()) => {
                Ending::Cancelled
            }
            ModelEvent::RunIncomplete { reason } => {
                let message = format!("The agent stream ended without a terminal event: {reason}");
                Ending::Failed(error_code::INCOMPLETE_STREAM, message, None)
            }
            // RunEnd, or a stop at an interrupt.
            _ => Ending::Finished,
        };
        self.end_run(ending, out);
    }

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
        let nth = |r: &String| match self.runs {
            1 => r.clone(),
            n => format!("{r}-{n}"),
        };
        let mut run_id = (run_id.or_else(|| self.opts.run_id.as_ref().map(nth)))
            .unwrap_or_else(|| format!("run-{:016x}", self.seed));
        if self.last_run_id.as_deref() == Some(run_id.as_str()) {
            run_id = format!("{run_id}-{}", self.runs);
        }
        let same_thread = self.thread_id.as_deref() == Some(thread_id.as_str());
        if !same_thread {
            // A new thread: the client holds nothing of it.
            self.client = Default::default();
        }
        let pending = std::mem::take(&mut self.pending);
        let suspended = std::mem::take(&mut self.suspended);
        self.thread_id = Some(thread_id.clone());
        self.last_run_id = Some(run_id.clone());
        // A run on a thread with pending interrupts resumes them: v2 says so in its input
        // (`Command(resume=…)`); v3 does not echo input, so a run with no input messages does.
        let resume_given = resume.is_some();
        let resumes = same_thread && !pending.is_empty() && (resume_given || messages.is_empty());
        if !resumes {
            // Only a resume run re-executes calls an earlier run answered.
            self.thread_answers.clear();
        }
        let input = (resumes || !messages.is_empty()).then(|| {
            // A complete `RunAgentInput`: the 0.x clients require every field. The log records
            // no tools, context or forwarded props; the state is the input's other keys. The
            // state and messages are moved in (`json!` would copy them by serializing).
            let mut input = json!({"threadId": thread_id, "runId": run_id, "state": {},
                "messages": [], "tools": [], "context": [], "forwardedProps": {}});
            input["state"] = state.unwrap_or_else(|| json!({}));
            input["messages"] = Value::Array(messages);
            if resumes {
                let entries = interrupt::resume_entries(&pending, resume.as_ref());
                input["resume"] = Value::Array(entries);
            }
            input
        });
        let e = Event::RunStarted {
            timestamp: None,
            thread_id,
            run_id,
            input,
        };
        self.subagents = Default::default();
        // The calls the interrupt suspended are this run's to answer, already started; so are
        // the calls a finished run left pending when the next says it resumes (the platform's
        // classic `events` mode records no interrupt).
        let carries = resumes || (same_thread && resume_given);
        let mut run = Run::default();
        run.tools = suspended.into_iter().filter(|_| carries).collect();
        run.resumed = run.tools.keys().cloned().collect();
        self.run = Some(run);
        self.push(e, out);
    }

    /// The run's one terminal event, once everything still open is closed.
    pub(super) fn end_run(&mut self, ending: Ending, out: &mut Vec<Event>) {
        if self.run.is_none() {
            return;
        }
        self.send_held(false, out);
        self.end_subagents(&ending, out);
        // A finished run's last list, converted once: its answer (`--text final`), its snapshot.
        let state = (self.run_mut().messages.take()).filter(|_| matches!(ending, Ending::Finished));
        let messages = state.and_then(|state| self.converted.list(state));
        self.close_open(messages.as_deref(), out);
        let mut run = self.run.take().unwrap_or_default();
        // Only a run stopped at interrupts leaves some to resume.
        self.pending.clear();
        let e = match ending {
            Ending::Failed(code, message, detail) => run_error(detail, message, code),
            // A 0.0.x client (`--compat thinking`) has no `cancelled` outcome and reads an absent
            // or unknown one as success: it gets RUN_ERROR with code CANCELLED instead.
            Ending::Cancelled if self.agui0() => {
                run_error(None, CANCELLED_MESSAGE.into(), error_code::CANCELLED)
            }
            Ending::Cancelled => self.run_finished(run, json!({"type": "cancelled"})),
            Ending::Finished => {
                if self.opts.compat == Compat::Thinking {
                    // TDesign Chat has no interrupt UI and ignores `RUN_FINISHED.outcome`: an
                    // interrupt is a text message (its question, or what it waits for), or the
                    // run would read as complete with nothing asked.
                    for i in &run.interrupts {
                        let id = format!("interrupt-{}", i.id);
                        self.text_message(id, interrupt::visible_text(&i.value), out);
                    }
                }
                // The calls left without a result are the next run's to answer if it resumes
                // ([`Mapper::suspended`]): an interrupted run's all, a finished run's those its
                // final list (when known) holds in a message: a call it does not (a node's own
                // model call, e.g. `with_structured_output`) waits for nobody.
                let held = (messages.as_deref()).filter(|_| run.interrupts.is_empty());
                let calls = held.map(|list| list.iter().flat_map(|m| &m.tool_calls));
                let held: Option<HashSet<&str, FastIds>> =
                    calls.map(|c| c.map(|c| &c.id[..]).collect());
                // Every call is ended by now ([`Mapper::close_open`]): taken whole.
                run.tools
                    .retain(|id, t| !t.result && held.as_ref().is_none_or(|h| h.contains(&id[..])));
                self.suspended = std::mem::take(&mut run.tools);
                if let Some(mut messages) = messages {
                    if !run.interrupts.is_empty() {
                        keep_sent_results(&mut messages, std::mem::take(&mut run.sent_results));
                    }
                    self.push_snapshot(messages, out);
                }
                let outcome = match run.interrupts.is_empty() {
                    true => self.success(),
                    false => self.interrupted(&run),
                };
                self.run_finished(run, outcome)
            }
        };
        self.push(e, out);
    }

    /// At a run's end: what is still open is closed, innermost first (and under `--text final`
    /// the answer of a finished run, whose last message list is `list`).
    fn close_open(&mut self, list: Option<&[Item]>, out: &mut Vec<Event>) {
        self.close_where(|_, _| true, out);
        self.release_early_results(out);
        self.close_narration(out);
        if let Some(list) = list.filter(|_| self.opts.text == TextPolicy::Final) {
            self.final_answer(list, out);
        }
        self.finish_steps(|_| true, out);
    }

    /// A finished run's outcome: success, with the calls it left without a result
    /// ([`Mapper::suspended`]: the first [`PENDING_IDS_LISTED`], and how many there are when
    /// there are more).
    fn success(&self) -> Value {
        let n = self.suspended.len();
        if n == 0 || self.agui0() {
            return json!({"type": "success"});
        }
        let listed: Vec<&String> = self.suspended.keys().take(PENDING_IDS_LISTED).collect();
        let mut outcome = json!({"type": "success", "pendingToolCallIds": listed});
        if n > PENDING_IDS_LISTED {
            // A bounded line: the first ids, and how many there are in all.
            outcome["pendingToolCallCount"] = json!(n);
        }
        outcome
    }

    /// An interrupted run's outcome. The run that resumes it answers its interrupts and every
    /// call it left without a result, in call order: v3 does not say which of several open
    /// tools raised which interrupt, LangGraph.js names the first interrupt of a tools node
    /// only (the resume runs the others again), a middleware interrupts before the tools run,
    /// and an interrupt inside a sub-agent suspends its calls and its parent's.
    fn interrupted(&mut self, run: &Run) -> Value {
        // Raised inside a sub-agent (by one of its calls): its id (no 0.0.x client knows
        // sub-agents).
        let thinking = self.opts.compat == Compat::Thinking;
        let subagent = |i| self.subagents.raised(i).filter(|_| !thinking);
        let ints: Vec<Value> = (run.interrupts.iter())
            .map(|i| interrupt::to_agui(i, subagent(i)))
            .collect();
        self.pending = run.interrupts.iter().map(|i| i.id.clone()).collect();
        json!({"type": "interrupt", "interrupts": ints})
    }

    /// RUN_FINISHED of `run`, with its outcome and the tokens it used.
    fn run_finished(&self, run: Run, outcome: Value) -> Event {
        Event::RunFinished {
            timestamp: None,
            thread_id: self.thread_id.clone().unwrap_or_default(),
            run_id: self.last_run_id.clone().unwrap_or_default(),
            outcome,
            usage: (!run.usage.is_empty()).then(|| run.usage.into_values().collect()),
        }
    }

    /// `--text final`: the answer of the final state's `list`, as one text message.
    fn final_answer(&mut self, list: &[Item], out: &mut Vec<Event>) {
        let last = list.last().filter(|m| m.role == Role::Assistant);
        let text = last
            .and_then(|m| m.content.as_ref()?.text())
            .filter(|t| !t.is_empty());
        let (Some(last), Some(text)) = (last, text) else {
            return;
        };
        if self.answered.get(&last.id).is_none() {
            self.answered.insert(last.id.clone(), ());
            self.text_message(last.id.clone(), text.to_string(), out);
        }
    }
}

/// RUN_ERROR with the log's error (when it has one), its message and its code class.
fn run_error(raw_event: Option<ErrorDetail>, message: String, code: &'static str) -> Event {
    Event::RunError {
        timestamp: None,
        raw_event,
        message,
        code: Some(code.into()),
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
        ..UsageTotal::default()
    });
    t.input_tokens += input;
    t.output_tokens += output;
    *t.total_tokens.get_or_insert(0) += u.total_tokens.unwrap_or(input + output);
    t.reasoning_tokens += u.reasoning_tokens.unwrap_or(0);
}
