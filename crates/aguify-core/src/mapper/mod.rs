//! The AG-UI mapper: model events → AG-UI 1.0 events.
//!
//! It owns everything the protocol requires that a LangGraph log does not say outright: run
//! framing (exactly one terminal per run), pairing (every START gets its END before the run
//! ends), id schemes (reasoning ids), interrupt outcomes, resume input, and the
//! answer-only front-end policies (`--text final`, `--tool-steps reasoning`, `--compat thinking`).

mod client_view;
mod compat;
pub mod error_code;
pub mod interrupt;
mod messages;
mod subagent;

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use serde_json::{json, Value};

use crate::agui::{
    ErrorDetail, Event, ResultStatus, Role, Snapshot, Subtype, ToolContent, UsageTotal,
};
use crate::model::{ErrorInfo, InterruptInfo, MessageRef, ModelEvent, Usage};
use crate::payload::Payload;
use crate::wire::langchain as lc;
use foldhash::fast::RandomState as FastIds;
use messages::RunMessages;

/// `--text`: stream every model message, or only the final state's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TextPolicy {
    /// Every model message's text, streamed as it was.
    #[default]
    Stream,
    /// Only each run's final answer, at the run's end.
    Final,
}

/// `--tool-steps`: also narrate tool calls as short reasoning lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToolSteps {
    /// Tool calls as tool-call events only.
    #[default]
    None,
    /// Each tool call also narrated as a short `REASONING_*` line.
    Reasoning,
}

/// `--compat`: rename REASONING_* to the 0.x THINKING_* names (TDesign Chat 0.5.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compat {
    /// AG-UI 1.0 names.
    #[default]
    None,
    /// `THINKING_*` for `REASONING_*`, as AG-UI 0.x clients expect.
    Thinking,
}

/// `--target`: the client generation the output is for. `Agui0` writes what
/// `@ag-ui/client` 0.0.x accepts where 1.0 output would be rejected: a cancelled run as
/// `RUN_ERROR {code: "CANCELLED"}` (its outcome knows success and interrupt only), no
/// `RUN_FINISHED.outcome.pendingToolCallIds` (its success outcome is a strict object).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Target {
    /// `agui-1.0` (the default): AG-UI 1.0 as `@ag-ui/client` 1.0 reads it.
    #[default]
    Agui1,
    /// `agui-0.0`: what `@ag-ui/client` 0.0.x accepts.
    Agui0,
}

/// How model events become AG-UI events.
#[derive(Debug, Clone, Default)]
pub struct MapOptions {
    /// `--text`: streamed text, or the final answer only.
    pub text: TextPolicy,
    /// `--tool-steps`: tool calls also narrated as reasoning.
    pub tool_steps: ToolSteps,
    /// `--compat`: event names for older clients.
    pub compat: Compat,
    /// `--target`: the client generation the output is for.
    pub target: Target,
    /// `--thread-id`: the thread id of a run whose log carries none (else derived from the
    /// log's bytes).
    pub thread_id: Option<String>,
    /// `--run-id`: the run id of a run whose log carries none (the n-th run's `ID-n`).
    pub run_id: Option<String>,
}

/// The CUSTOM event name carrying streamed tool output (see README: why not TOOL_CALL_CHUNK).
pub const TOOL_OUTPUT_DELTA: &str = "tool-output-delta";

/// The error message of a run or sub-agent the caller cancelled (`--compat thinking`).
const CANCELLED_MESSAGE: &str = "The run was cancelled by the caller";

/// Call ids answered on the thread, bounded ([`crate::recent::Recent`]).
type ThreadAnswers = crate::recent::Recent<String, (), { 1 << 14 }, FastIds>;

#[derive(Default)]
pub struct Mapper {
    opts: MapOptions,
    thread_id: Option<String>,
    runs: usize,
    last_run_id: Option<String>,
    /// Interrupt ids the previous run on this thread stopped at.
    pending: Vec<String>,
    /// Calls (id, name) whose tool raised `interrupt()` in the previous run: started there,
    /// answered by the run that resumes it (no second TOOL_CALL_START).
    suspended: Vec<(String, String, Option<String>)>,
    /// Calls answered since the thread's last run that was not a resume (the latest
    /// [`ThreadAnswers::WINDOW`]): a resume run re-executing one (LangGraph.js re-runs every call of the interrupted
    /// tools node) adds nothing, neither a second start nor a second result.
    thread_answers: ThreadAnswers,
    run: Option<Run>,
    /// Final answers already sent (`--text final`), so a resumed run does not repeat them.
    answered: HashSet<String, FastIds>,
    timestamp: Option<i64>,
    seed: u64,
    /// Where in the caller's `out` the `STATE_SNAPSHOT` event just made is whose state's
    /// `messages` become the run's, for [`Mapper::settle`] to keep.
    snapshot_at: Option<usize>,
    /// The last run's message list in AG-UI form, by message ([`messages::Converted`]).
    converted: messages::Converted,
    /// Where in `out` the `MESSAGES_SNAPSHOT` whose items `converted` lent is, and the
    /// generation that lent them, until [`Mapper::settle`] gives them back.
    lent_at: Option<(usize, u64)>,
    /// `--compat thinking`: the thinking step in progress ([`compat::ThinkingCompat`]).
    thinking: std::cell::RefCell<compat::ThinkingCompat>,
    /// The run's sub-agents and the items they own ([`subagent::Subagents`]).
    subagents: std::cell::RefCell<subagent::Subagents>,
    /// What the client's message list holds ([`client_view::ClientView`]).
    client: std::cell::RefCell<client_view::ClientView>,
}

/// A step: its owner (a sub-agent's id, `None`: the run's own agent) and name.
type Step = (Option<String>, String);

/// Unanswered tool calls listed by id in a RUN_FINISHED's `pendingToolCallIds`: past it the
/// list holds the first ones and `pendingToolCallCount` says how many there are in all (a
/// million unanswered calls made one 12.9 MB line).
pub const PENDING_IDS_LISTED: usize = 1000;

#[derive(Default)]
struct Run {
    thread_id: String,
    run_id: String,
    /// Open steps, with how many node runs of that name are open.
    steps: IndexMap<Step, usize, FastIds>,
    step_keys: HashMap<String, Step, FastIds>,
    /// Text messages with START sent and no END yet.
    text_open: IndexMap<String, (), FastIds>,
    /// Reasoning block (message id, block) → reasoning id, while open.
    reasoning_open: IndexMap<(String, String), String, FastIds>,
    /// How often a reasoning id was used, to keep ids unique when a block reopens.
    reasoning_ids: HashMap<String, usize, FastIds>,
    last_reasoning_id: HashMap<(String, String), String, FastIds>,
    tools: IndexMap<String, ToolCall, FastIds>,
    /// The calls in `tools` not ended yet, in start order: a message's end looks for its
    /// open calls here, not through every call of the run.
    open_tools: Vec<String>,
    /// Calls in `tools` both ended and answered; forgotten (with their `tool_index` keys)
    /// past [`Run::DONE_TOOLS`], so a run of thousands of calls (a long-running agent) is
    /// mapped in flat memory and time. A call forgotten and then replayed is started anew.
    done_tools: usize,
    tool_index: HashMap<(String, String), String, FastIds>,
    /// Chunks of a call whose id or name has not arrived yet.
    tool_buffer: IndexMap<(String, String), PendingChunks, FastIds>,
    interrupts: Vec<InterruptInfo>,
    /// The last state's messages, for `MESSAGES_SNAPSHOT`.
    messages: RunMessages,
    /// Token usage summed per (provider, model) as messages end, in first-seen order.
    usage: UsageTotals,
    /// The id of the tool-step narration span in progress (or last).
    tool_steps_id: Option<String>,
    tool_steps_open: bool,
    /// The calls of `tools` the interrupted run before this one left waiting (this run
    /// resumes them), until they show again: a sub-agent's call is then its again.
    resumed: HashSet<String, FastIds>,
    /// Tool results not sent yet ([`Mapper::tool_end`]): the log has not said the message's
    /// id, or a call made before theirs in the same message has no result yet.
    held: Vec<HeldResult>,
    /// The results sent since the last message list the log showed (AG-UI tool messages):
    /// an interrupted run's final state may not hold them yet (a tools node stopped by
    /// `interrupt()` keeps its finished calls as pending writes).
    sent_results: Vec<Value>,
    /// Results that came before their call (a frame moved ahead in a capture): each waits
    /// for its call's END, or for the run's end (where the call is started from the result).
    early_results: Vec<EarlyResult>,
}

/// A tool result held until its call ends ([`Run::early_results`]).
struct EarlyResult {
    call_id: String,
    name: Option<String>,
    content: Value,
    message_id: Option<String>,
    error: bool,
}

/// A tool's result kept until it can be sent in the conversation's order, under its id.
struct HeldResult {
    call_id: String,
    name: Option<String>,
    content: Value,
    message_id: Option<String>,
    error: bool,
}

impl Run {
    /// Done calls remembered (see `done_tools`).
    const DONE_TOOLS: usize = 4096;

    /// Counts a call that is now both ended and answered, and forgets the done calls when
    /// there are too many.
    fn tool_done(&mut self) {
        self.done_tools += 1;
        if self.done_tools > Self::DONE_TOOLS {
            self.tools.retain(|_, t| !(t.ended && t.result));
            let tools = &self.tools;
            self.tool_index.retain(|_, id| tools.contains_key(id));
            self.done_tools = 0;
        }
    }

    /// Takes the open reasoning spans `which` picks (by message and block, and id), in the
    /// order they opened.
    fn take_reasoning(&mut self, which: impl Fn(&(String, String), &str) -> bool) -> Vec<String> {
        let taken = self
            .reasoning_open
            .extract_if(.., |key, rid| which(key, rid));
        taken.map(|(_, rid)| rid).collect()
    }
}

#[derive(Default, Clone)]
struct PendingChunks {
    id: Option<String>,
    name: Option<String>,
    args: String,
}

struct ToolCall {
    name: String,
    parent: Option<String>,
    ended: bool,
    result: bool,
}

/// How a sub-agent ends.
enum SubagentEnding {
    /// Normally, with what it handed back to its parent tool (when known).
    Success(Option<Value>),
    /// Stopped at the run's interrupts (their ids, when they are known to be its).
    Suspended(Vec<String>),
    /// With an error: its message and code class.
    Error(String, &'static str),
}

enum Ending {
    Finished,
    /// The log's error, and its code class.
    Failed(ErrorInfo, &'static str),
    /// The caller (or the platform at its request) cancelled the run.
    Cancelled,
    /// The log stopped without a terminal event.
    Incomplete(String),
}

impl Mapper {
    pub fn new(opts: MapOptions) -> Self {
        Mapper {
            opts,
            ..Mapper::default()
        }
    }

    /// Context of the record being mapped: its timestamp (ms) and a hash of its bytes, from
    /// which ids are derived when the log has none.
    pub fn set_context(&mut self, timestamp: Option<i64>, seed: u64) {
        self.timestamp = timestamp;
        self.seed = seed;
    }

    /// The timestamp (ms) of the record being mapped.
    pub fn set_timestamp(&mut self, timestamp: Option<i64>) {
        self.timestamp = timestamp;
    }

    /// The hash from which ids are derived when the log has none (see [`Mapper::needs_seed`]).
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// Whether mapping `ev` may derive ids from the seed (it starts a run): the pipeline hashes
    /// a record only then.
    pub fn needs_seed(&self, ev: &ModelEvent) -> bool {
        match ev {
            ModelEvent::RunStart { .. } => true,
            ModelEvent::Native(_) => false,
            _ => self.run.is_none(),
        }
    }

    /// Adds an event to `out` (under `--compat thinking`, as [`compat::ThinkingCompat`]
    /// rewrites it).
    fn push(&self, ev: Event, out: &mut Vec<Event>) {
        self.client.borrow_mut().saw(&ev);
        let ev = {
            let mut subagents = self.subagents.borrow_mut();
            if subagents.any() {
                subagents.attribute(ev)
            } else {
                ev
            }
        };
        match self.opts.compat {
            Compat::Thinking => self.thinking.borrow_mut().rewrite(ev, out),
            Compat::None => out.push(ev),
        }
    }

    fn emit_text_start(&self, id: &str, out: &mut Vec<Event>) {
        let e = Event::TextMessageStart {
            subagent_run_id: None,
            timestamp: self.timestamp,
            message_id: id.into(),
            role: Role::Assistant,
        };
        self.push(e, out);
    }

    fn emit_text_end(&self, id: &str, out: &mut Vec<Event>) {
        let e = Event::TextMessageEnd {
            subagent_run_id: None,
            timestamp: self.timestamp,
            message_id: id.into(),
        };
        self.push(e, out);
    }

    fn emit_text_content(&self, id: String, delta: String, out: &mut Vec<Event>) {
        let e = Event::TextMessageContent {
            subagent_run_id: None,
            timestamp: self.timestamp,
            message_id: id,
            delta,
        };
        self.push(e, out);
    }

    fn emit_reasoning_content(&self, rid: String, delta: String, out: &mut Vec<Event>) {
        let e = Event::ReasoningMessageContent {
            subagent_run_id: None,
            timestamp: self.timestamp,
            message_id: rid,
            delta,
        };
        self.push(e, out);
    }

    fn emit_step_finished(&self, (owner, name): Step, out: &mut Vec<Event>) {
        let e = Event::StepFinished {
            timestamp: self.timestamp,
            subagent_run_id: owner,
            step_name: name,
        };
        self.push(e, out);
    }

    /// REASONING_START + REASONING_MESSAGE_START for one reasoning id.
    fn emit_reasoning_open(&self, rid: &str, out: &mut Vec<Event>) {
        let timestamp = self.timestamp;
        let start = Event::ReasoningStart {
            subagent_run_id: None,
            timestamp,
            message_id: rid.into(),
        };
        self.push(start, out);
        let e = Event::ReasoningMessageStart {
            subagent_run_id: None,
            timestamp,
            message_id: rid.into(),
            role: Role::Reasoning,
        };
        self.push(e, out);
    }

    pub fn map(&mut self, ev: ModelEvent, out: &mut Vec<Event>) {
        // Lent items of events taken without `settle` are not looked for again.
        self.lent_at = None;
        if !matches!(ev, ModelEvent::RunStart { .. } | ModelEvent::Native(_)) && self.run.is_none()
        {
            // Events outside a run (e.g. a v2 file whose root start is missing) open one.
            self.start_run(None, None, vec![], None, None, out);
        }
        let streams = matches!(
            ev,
            ModelEvent::MessageStart { .. }
                | ModelEvent::TextDelta { .. }
                | ModelEvent::ReasoningDelta { .. }
                | ModelEvent::ToolCallChunk { .. }
        );
        if streams && self.run.as_ref().is_some_and(|r| !r.held.is_empty()) {
            // A model streams again: the results before its message go first, named as the
            // log allows.
            self.send_held(out);
        }
        match ev {
            ModelEvent::RunStart {
                thread_id,
                run_id,
                messages,
                resume,
                state,
            } => {
                if self.run.is_some() {
                    self.end_run(
                        Ending::Incomplete("a new run started before this one ended".into()),
                        out,
                    );
                }
                self.start_run(thread_id, run_id, messages, resume, state, out);
            }
            ModelEvent::RunEnd => self.end_run(Ending::Finished, out),
            ModelEvent::RunFailed(info) if error_code::is_cancelled(&info) => {
                self.end_run(Ending::Cancelled, out)
            }
            ModelEvent::RunFailed(info) => {
                let code = error_code::classify(&info);
                self.end_run(Ending::Failed(info, code), out);
            }
            ModelEvent::RunStopped => {
                let at_interrupt = self.run.as_ref().is_some_and(|r| !r.interrupts.is_empty());
                let ending = if at_interrupt {
                    Ending::Finished
                } else {
                    Ending::Cancelled
                };
                self.end_run(ending, out);
            }
            ModelEvent::RunIncomplete { reason } => self.end_run(
                Ending::Incomplete(format!(
                    "The agent stream ended without a terminal event: {reason}"
                )),
                out,
            ),
            ModelEvent::Interrupt(list) => {
                let run = self.run_mut();
                for i in list {
                    match run.interrupts.iter_mut().find(|x| x.id == i.id) {
                        // The same interrupt again (the tool's error, then the state's
                        // `__interrupt__`): what one of them knows of its call is kept.
                        Some(x) => {
                            if x.tool_call_id.is_none() {
                                x.tool_call_id = i.tool_call_id;
                            }
                        }
                        None => run.interrupts.push(i),
                    }
                }
            }
            ModelEvent::StepStart { name, key } => {
                let owner = self.subagents.get_mut().scope.clone();
                let run = self.run_mut();
                let step = (owner, name);
                run.step_keys.insert(key, step.clone());
                let n = run.steps.entry(step.clone()).or_insert(0);
                *n += 1;
                if *n == 1 {
                    let e = Event::StepStarted {
                        timestamp: self.timestamp,
                        subagent_run_id: step.0,
                        step_name: step.1,
                    };
                    self.push(e, out);
                }
            }
            ModelEvent::StepEnd { key } => {
                let run = self.run_mut();
                let Some(step) = run.step_keys.remove(&key) else {
                    return;
                };
                let Some(n) = run.steps.get_mut(&step) else {
                    return;
                };
                *n -= 1;
                if *n == 0 {
                    run.steps.shift_remove(&step);
                    self.emit_step_finished(step, out);
                }
            }
            ModelEvent::Scope(key) => {
                let subagents = self.subagents.get_mut();
                subagents.scope = key.and_then(|k| subagents.id_of(&k).map(str::to_string));
            }
            ModelEvent::SubagentStart {
                key,
                name,
                parent_tool_call_id,
            } => self.subagent_start(key, name, parent_tool_call_id, out),
            ModelEvent::SubagentEnd { key, error } => {
                let end = match error {
                    None => SubagentEnding::Success(None),
                    Some(info) => {
                        let code = error_code::classify(&info);
                        SubagentEnding::Error(info.message, code)
                    }
                };
                self.subagent_end(&key, end, out);
            }
            ModelEvent::MessageStart { .. } => {}
            ModelEvent::TextDelta { message_id, text } => self.text_delta(message_id, text, out),
            ModelEvent::ReasoningDelta {
                message_id,
                block,
                text,
            } => {
                let rid = self.open_reasoning(&message_id, &block, out);
                if !text.is_empty() {
                    self.emit_reasoning_content(rid, text, out);
                }
            }
            ModelEvent::ReasoningEncrypted {
                message_id,
                block,
                value,
            } => {
                let key = (message_id.clone(), block.clone());
                let run = self.run_mut();
                let rid = run
                    .reasoning_open
                    .get(&key)
                    .or_else(|| run.last_reasoning_id.get(&key))
                    .cloned()
                    .unwrap_or_else(|| reasoning_id(&message_id, &block));
                let e = Event::ReasoningEncryptedValue {
                    subagent_run_id: None,
                    timestamp: self.timestamp,
                    subtype: Subtype::Message,
                    entity_id: rid,
                    encrypted_value: value,
                };
                self.push(e, out);
            }
            ModelEvent::ToolCallChunk {
                message_id,
                index,
                id,
                name,
                args,
            } => self.tool_chunk(message_id, index, id, name, args, out),
            ModelEvent::MessageEnd { message_id, usage } => {
                self.close_message(&message_id, out);
                if let Some(u) = usage {
                    add_usage(&mut self.run_mut().usage, u);
                }
            }
            ModelEvent::ToolStart {
                tool_call_id,
                name,
                args,
                parent_message_id,
            } => {
                self.ensure_tool(
                    &tool_call_id,
                    &name,
                    parent_message_id,
                    args.as_deref(),
                    out,
                );
                self.end_tool(&tool_call_id, out);
                if self.opts.tool_steps == ToolSteps::Reasoning {
                    self.tool_step_line(&format!("Calling tool {name}.\n"), out);
                }
            }
            ModelEvent::ToolOutputDelta {
                tool_call_id,
                delta,
            } => {
                let e = Event::Custom {
                    subagent_run_id: None,
                    timestamp: self.timestamp,
                    name: TOOL_OUTPUT_DELTA.into(),
                    value: Payload::from_value(
                        &json!({"toolCallId": tool_call_id, "delta": delta}),
                    ),
                };
                self.push(e, out);
            }
            ModelEvent::ToolEnd {
                tool_call_id,
                name,
                content,
                message_id,
                error,
            } => {
                let held = HeldResult {
                    call_id: tool_call_id,
                    name,
                    content,
                    message_id,
                    error,
                };
                self.tool_end(held, out);
            }
            ModelEvent::Custom { name, value } => {
                let e = Event::Custom {
                    subagent_run_id: None,
                    timestamp: self.timestamp,
                    name,
                    value,
                };
                self.push(e, out);
            }
            ModelEvent::State { state } => {
                let has_messages = match state.get("messages").and_then(Value::as_array) {
                    Some(msgs) => {
                        let list: Vec<MessageRef> = msgs.iter().map(MessageRef::Value).collect();
                        self.follow_conversation(&list, out);
                        self.results_from_state(list.into_iter().enumerate(), out);
                        self.release_held(out);
                        true
                    }
                    None => false,
                };
                let e = Event::StateSnapshot {
                    subagent_run_id: None,
                    timestamp: self.timestamp,
                    snapshot: Snapshot::Value(state),
                };
                if has_messages {
                    self.snapshot_at = Some(out.len());
                }
                self.push(e, out);
            }
            ModelEvent::EncodedState(state) => {
                let list: Vec<MessageRef> = (state.shared_messages().iter())
                    .map(|m| MessageRef::Shared(m))
                    .collect();
                self.follow_conversation(&list, out);
                self.results_from_state(state.tool_message_candidates(), out);
                self.release_held(out);
                let e = Event::StateSnapshot {
                    subagent_run_id: None,
                    timestamp: self.timestamp,
                    snapshot: Snapshot::Encoded(state),
                };
                self.snapshot_at = Some(out.len());
                self.push(e, out);
            }
            ModelEvent::Conversation(list) => {
                let list: Vec<MessageRef> = list.iter().map(|m| MessageRef::Shared(m)).collect();
                self.follow_conversation(&list, out);
                self.results_from_state(list.into_iter().enumerate(), out);
                self.release_held(out);
            }
            ModelEvent::Native(v) => self.push(Event::Passthrough(v), out),
        }
    }

    /// After the caller has read the events [`Mapper::map`] or [`Mapper::finish`] put in
    /// `out`: the mapper takes back what it reads later (the state of the `STATE_SNAPSHOT`
    /// whose messages are the run's, instead of an AG-UI copy of every state's list; the
    /// items a `MESSAGES_SNAPSHOT` was lent), and `out` is cleared.
    pub fn settle(&mut self, out: &mut Vec<Event>) {
        if let Some((at, generation)) = self.lent_at.take() {
            if let Some(Event::MessagesSnapshot { messages, .. }) = out.get_mut(at) {
                self.converted
                    .give_back(generation, std::mem::take(messages));
            }
        }
        if let Some(at) = self.snapshot_at.take() {
            if let Some(Event::StateSnapshot { snapshot, .. }) = out.get_mut(at) {
                let state = std::mem::replace(snapshot, Snapshot::Value(Value::Null));
                self.run_mut().messages.keep(state);
            }
        }
        out.clear();
    }

    /// End of all input: a run still open was cut off.
    pub fn finish(&mut self, out: &mut Vec<Event>) {
        if self.run.is_some() {
            self.map(
                ModelEvent::RunIncomplete {
                    reason: "the input ended inside a run".into(),
                },
                out,
            );
        }
    }

    fn run_mut(&mut self) -> &mut Run {
        self.run.get_or_insert_with(Run::default)
    }

    fn start_run(
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

    fn text_delta(&mut self, message_id: String, text: String, out: &mut Vec<Event>) {
        if text.is_empty() || self.opts.text == TextPolicy::Final {
            return;
        }
        self.close_reasoning_of(&message_id, out);
        if !self.run_mut().text_open.contains_key(&message_id) {
            self.close_narration_for_tdesign(out);
            self.run_mut().text_open.insert(message_id.clone(), ());
            self.emit_text_start(&message_id, out);
        }
        self.emit_text_content(message_id, text, out);
    }

    fn open_reasoning(&mut self, message_id: &str, block: &str, out: &mut Vec<Event>) -> String {
        let key = (message_id.to_string(), block.to_string());
        if let Some(rid) = self.run_mut().reasoning_open.get(&key) {
            return rid.clone();
        }
        // Reasoning for a message whose text already streams: close the text first is wrong
        // (text may continue); reasoning and text may overlap, so just open the span. Two
        // reasoning spans never overlap (a summary's next part, another block or message,
        // the tool-step narration): the open one ends first, as a client shows one
        // reasoning message at a time (issue 22.9).
        self.close_all_reasoning(out);
        self.close_narration(out);
        let run = self.run_mut();
        let rid = numbered(&mut run.reasoning_ids, reasoning_id(message_id, block));
        run.reasoning_open.insert(key.clone(), rid.clone());
        run.last_reasoning_id.insert(key, rid.clone());
        self.emit_reasoning_open(&rid, out);
        rid
    }

    /// Ends every open reasoning span, in the order they opened.
    fn close_all_reasoning(&mut self, out: &mut Vec<Event>) {
        self.close_reasoning_where(|_, _| true, out);
    }

    fn close_reasoning_of(&mut self, message_id: &str, out: &mut Vec<Event>) {
        self.close_reasoning_where(|(m, _), _| m == message_id, out);
    }

    fn close_reasoning_where(
        &mut self,
        which: impl Fn(&(String, String), &str) -> bool,
        out: &mut Vec<Event>,
    ) {
        let Some(run) = self.run.as_mut() else { return };
        for rid in run.take_reasoning(which) {
            self.emit_reasoning_end(rid, out);
        }
    }

    fn emit_reasoning_end(&mut self, rid: String, out: &mut Vec<Event>) {
        let timestamp = self.timestamp;
        let end = Event::ReasoningMessageEnd {
            subagent_run_id: None,
            timestamp,
            message_id: rid.clone(),
        };
        self.push(end, out);
        let e = Event::ReasoningEnd {
            subagent_run_id: None,
            timestamp,
            message_id: rid,
        };
        self.push(e, out);
    }

    fn tool_chunk(
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
    fn ensure_tool(
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
    fn answered_before(&mut self, call_id: &str) -> bool {
        self.thread_answers.get(call_id).is_some() && !self.run_mut().tools.contains_key(call_id)
    }

    fn end_tool(&mut self, call_id: &str, out: &mut Vec<Event>) {
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
    fn release_early_result(&mut self, call_id: &str, out: &mut Vec<Event>) {
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
    fn release_early_results(&mut self, out: &mut Vec<Event>) {
        for r in std::mem::take(&mut self.run_mut().early_results) {
            let name = r.name.clone().unwrap_or_else(|| "tool".into());
            self.ensure_tool(&r.call_id, &name, None, None, out);
            self.tool_result(r.call_id, r.name, r.content, r.message_id, r.error, out);
        }
    }

    fn tool_result(
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
    fn tool_end(&mut self, held: HeldResult, out: &mut Vec<Event>) {
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

    fn send_result(&mut self, h: HeldResult, out: &mut Vec<Event>) {
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
    fn waits_for_earlier_call(&self, call_id: &str) -> bool {
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
    fn release_held(&mut self, out: &mut Vec<Event>) {
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
    fn send_held(&mut self, out: &mut Vec<Event>) {
        self.release_held(out);
        let Some(run) = self.run.as_mut() else { return };
        let mut held = std::mem::take(&mut run.held);
        held.sort_by_key(|h| run.tools.get_index_of(&h.call_id));
        for h in held {
            self.send_result(h, out);
        }
    }

    /// A message list the log shows (a state, a step's input): what the client does not hold
    /// yet is sent, in the list's order. The run's first list, when the run has sent no
    /// message, is sent whole as a `MESSAGES_SNAPSHOT` (the run's input and the thread's
    /// history, which v3 does not echo); after that an AI message no model streamed (a node
    /// or middleware wrote it) is sent as a text message with its calls.
    fn follow_conversation(&mut self, list: &[MessageRef<'_>], out: &mut Vec<Event>) {
        if let Some(run) = self.run.as_mut() {
            run.sent_results.clear();
        }
        let first = {
            let client = self.client.get_mut();
            let first = !client.run_viewed && !client.run_streamed;
            client.run_viewed = true;
            first
        };
        // A result of this run's calls goes as TOOL_CALL_RESULT (results_from_state), not here.
        let waiting = |this: &Self, m: &MessageRef<'_>| {
            let call = m.tool_call();
            let run = this.run.as_ref();
            call.is_some_and(|c| run.is_some_and(|r| r.tools.get(&c).is_some_and(|t| !t.result)))
        };
        // The part of the list after the last message the client holds.
        let mut new_from = 0;
        let mut any_new = false;
        for (i, m) in list.iter().enumerate().rev() {
            if waiting(self, m) {
                continue;
            }
            let (kind, id) = m.kind_and_id();
            let id = id.unwrap_or_else(|| format!("msg-{i}"));
            let client = self.client.get_mut();
            let held = match kind.as_deref() {
                Some("ai") => client.holds_ai(&id),
                _ => client.holds(&id),
            };
            if held {
                new_from = i + 1;
                break;
            }
            any_new = true;
        }
        if !any_new {
            return;
        }
        let orphans = std::mem::take(&mut self.client.get_mut().run_orphans);
        let messages: Option<Vec<Value>> = first.then(|| {
            (list.iter().enumerate())
                .filter(|(_, m)| !waiting(self, m))
                .filter_map(|(i, m)| m.to_agui(i))
                .collect()
        });
        // Calls started with no parent message before the list: sent whole only when the list
        // has the message that made each (the client then files the call there).
        let messages = messages.filter(|list| {
            orphans.iter().all(|call| {
                list.iter().any(|m| {
                    let calls = m.get("toolCalls").and_then(Value::as_array);
                    calls.is_some_and(|c| {
                        c.iter()
                            .any(|c| c.get("id").and_then(Value::as_str) == Some(call))
                    })
                })
            })
        });
        if let Some(mut messages) = messages {
            self.client.get_mut().rename(&mut messages);
            self.calls_shown(&messages);
            let e = Event::MessagesSnapshot {
                timestamp: self.timestamp,
                messages,
            };
            self.push(e, out);
            return;
        }
        if self.opts.text == TextPolicy::Final {
            return;
        }
        for (i, m) in list.iter().enumerate().skip(new_from) {
            if m.kind_and_id().0.as_deref() != Some("ai") {
                continue;
            }
            let Some(msg) = m.to_agui(i) else { continue };
            let Some(id) = msg.get("id").and_then(Value::as_str).map(str::to_string) else {
                continue;
            };
            if self.client.get_mut().holds_ai(&id) {
                continue;
            }
            let text = msg.get("content").and_then(Value::as_str).unwrap_or("");
            if !text.is_empty() {
                self.emit_text_start(&id, out);
                self.emit_text_content(id.clone(), text.to_string(), out);
                self.emit_text_end(&id, out);
            }
            for call in msg
                .get("toolCalls")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let (Some(call_id), Some(name)) = (
                    call.get("id").and_then(Value::as_str),
                    call.pointer("/function/name").and_then(Value::as_str),
                ) else {
                    continue;
                };
                let args = call.pointer("/function/arguments").and_then(Value::as_str);
                self.ensure_tool(call_id, name, Some(id.clone()), args, out);
                self.end_tool(call_id, out);
            }
        }
    }

    /// The calls of a `MESSAGES_SNAPSHOT`'s messages are the client's: a call answered there
    /// is answered (no second result), one not answered is started (no second start, whose
    /// arguments the client would append to the ones it holds).
    fn calls_shown(&mut self, messages: &[Value]) {
        let answered: HashSet<&str, FastIds> = messages
            .iter()
            .filter_map(|m| m.get("toolCallId").and_then(Value::as_str))
            .collect();
        for m in messages {
            let parent = m.get("id").and_then(Value::as_str);
            for call in m
                .get("toolCalls")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let Some(id) = call.get("id").and_then(Value::as_str) else {
                    continue;
                };
                let done = answered.contains(id);
                if done {
                    self.thread_answers.insert(id.to_string(), ());
                }
                let run = self.run_mut();
                let t = run.tools.entry(id.to_string()).or_insert_with(|| ToolCall {
                    name: call
                        .pointer("/function/name")
                        .and_then(Value::as_str)
                        .unwrap_or("tool")
                        .to_string(),
                    parent: parent.map(str::to_string),
                    ended: true,
                    result: false,
                });
                t.result |= done;
            }
        }
    }

    /// Tool results only the state shows (Python v3 has no `tools` events outside create_agent):
    /// a tool message of a state's `msgs` (each with its place in the list) answers a call of
    /// this run that has no result yet. Only those tool messages are converted (as
    /// [`lc::to_agui_messages`] would, at their place in the list).
    fn results_from_state<'a>(
        &mut self,
        msgs: impl Iterator<Item = (usize, MessageRef<'a>)>,
        out: &mut Vec<Event>,
    ) {
        let waiting =
            |this: &mut Self, call: &str| this.run_mut().tools.get(call).is_some_and(|t| !t.result);
        for (i, m) in msgs {
            let (call_id, item) = match m {
                MessageRef::Value(v) => {
                    if !lc::may_be_tool_message(v) {
                        continue;
                    }
                    let m = lc::normalize_cow(v);
                    match lc::tool_call_id(&m) {
                        Some(call) if waiting(self, call) => (
                            call.to_string(),
                            lc::to_agui_message(&m, &format!("msg-{i}")),
                        ),
                        _ => continue,
                    }
                }
                MessageRef::Shared(m) => {
                    let Some(call) = m.tool_call().filter(|c| waiting(self, c)) else {
                        continue;
                    };
                    (call.to_string(), m.to_agui(i))
                }
            };
            let Some(m) = item else {
                continue;
            };
            let content = m.get("content").cloned().unwrap_or(Value::Null);
            let result = HeldResult {
                call_id,
                name: None,
                content,
                message_id: m.get("id").and_then(Value::as_str).map(str::to_string),
                error: m.get("error").is_some(),
            };
            self.tool_end(result, out);
        }
    }

    fn tool_step_line(&mut self, line: &str, out: &mut Vec<Event>) {
        if !self.run_mut().tool_steps_open {
            // The narration is a reasoning span too: the model's open one ends first.
            self.close_all_reasoning(out);
            let run = self.run_mut();
            let base = format!("{}:tool-steps", run.run_id);
            let rid = numbered(&mut run.reasoning_ids, base);
            run.tool_steps_open = true;
            run.tool_steps_id = Some(rid.clone());
            self.emit_reasoning_open(&rid, out);
        }
        let rid = self.run_mut().tool_steps_id.clone().unwrap_or_default();
        self.emit_reasoning_content(rid, line.to_string(), out);
    }

    /// Closes the tool-step narration if it is open.
    fn close_narration(&mut self, out: &mut Vec<Event>) {
        let Some(run) = self.run.as_mut().filter(|r| r.tool_steps_open) else {
            return;
        };
        run.tool_steps_open = false;
        let rid = run.tool_steps_id.clone().unwrap_or_default();
        self.emit_reasoning_end(rid, out);
    }

    /// `--compat thinking`: the narration is closed before a tool call event, a text message
    /// or another reasoning block starts. While a thinking block is open, TDesign Chat's AG-UI
    /// adapter only updates the block's current item: a tool result would be dropped, a
    /// nested tool call would swallow the narration after it, and the block's spinner would
    /// turn while the answer streams. A later line opens a new block.
    fn close_narration_for_tdesign(&mut self, out: &mut Vec<Event>) {
        if self.opts.compat == Compat::Thinking {
            self.close_narration(out);
        }
    }

    /// A message finished: close its reasoning, its text and its tool calls' argument streams.
    fn close_message(&mut self, message_id: &str, out: &mut Vec<Event>) {
        self.close_reasoning_of(message_id, out);
        if self.run_mut().text_open.shift_remove(message_id).is_some() {
            self.emit_text_end(message_id, out);
        }
        // Calls whose name never arrived still get announced, so their args are not lost.
        let stranded: Vec<((String, String), PendingChunks)> = (self.run_mut().tool_buffer)
            .extract_if(.., |(m, _), _| m == message_id)
            .collect();
        for (k, PendingChunks { id, name, args }) in stranded {
            let call_id = id.unwrap_or_else(|| lc::made_up_call_id(&k.0, &k.1));
            let name = name.unwrap_or_else(|| "unknown_tool".into());
            self.ensure_tool(&call_id, &name, Some(k.0.clone()), Some(&args), out);
            self.run_mut().tool_index.insert(k, call_id);
        }
        let run = self.run_mut();
        let calls: Vec<String> = run
            .open_tools
            .iter()
            .filter(|id| {
                run.tools
                    .get(*id)
                    .is_some_and(|t| t.parent.as_deref() == Some(message_id))
            })
            .cloned()
            .collect();
        for id in calls {
            self.end_tool(&id, out);
        }
    }

    fn end_run(&mut self, ending: Ending, out: &mut Vec<Event>) {
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

    /// SUBAGENT_STARTED for sub-agent `key` (once).
    fn subagent_start(
        &mut self,
        key: String,
        name: String,
        parent_tool_call_id: String,
        out: &mut Vec<Event>,
    ) {
        let Some(id) = self.subagents.get_mut().start(&key, &parent_tool_call_id) else {
            return;
        };
        let e = Event::SubagentStarted {
            timestamp: self.timestamp,
            subagent_run_id: id,
            name,
            parent_tool_call_id: Some(parent_tool_call_id),
        };
        self.push(e, out);
    }

    /// Closes what sub-agent `key` has open (its reasoning, text, tool calls and steps), then
    /// SUBAGENT_FINISHED or SUBAGENT_ERROR.
    fn subagent_end(&mut self, key: &str, end: SubagentEnding, out: &mut Vec<Event>) {
        let Some(open) = self.subagents.get_mut().open.shift_remove(key) else {
            return;
        };
        let id = open.id;
        let owned = |subagents: &subagent::Subagents, item: &str| {
            subagents.owner_of(item) == Some(id.as_str())
        };
        let Some(run) = self.run.as_mut() else { return };
        let subagents = self.subagents.get_mut();
        let reasoning = run.take_reasoning(|_, rid| owned(subagents, rid));
        let texts: Vec<String> = (run.text_open)
            .extract_if(.., |m, ()| owned(subagents, m))
            .map(|(m, ())| m)
            .collect();
        let tools: Vec<String> = run
            .open_tools
            .iter()
            .filter(|c| owned(subagents, c))
            .cloned()
            .collect();
        for rid in reasoning {
            self.emit_reasoning_end(rid, out);
        }
        for m in texts {
            self.emit_text_end(&m, out);
        }
        for c in tools {
            self.end_tool(&c, out);
        }
        let steps: Vec<(Option<String>, String)> = self
            .run_mut()
            .steps
            .keys()
            .filter(|(o, _)| o.as_deref() == Some(id.as_str()))
            .rev()
            .cloned()
            .collect();
        for step in steps {
            let run = self.run_mut();
            run.steps.shift_remove(&step);
            run.step_keys.retain(|_, s| *s != step);
            self.emit_step_finished(step, out);
        }
        let subagents = self.subagents.get_mut();
        if subagents.scope.as_deref() == Some(id.as_str()) {
            subagents.scope = None;
        }
        let timestamp = self.timestamp;
        let e = match end {
            SubagentEnding::Success(result) => Event::SubagentFinished {
                timestamp,
                subagent_run_id: id,
                result,
                outcome: subagent::success(),
            },
            SubagentEnding::Suspended(ids) => Event::SubagentFinished {
                timestamp,
                subagent_run_id: id,
                result: None,
                outcome: subagent::suspended(&ids),
            },
            SubagentEnding::Error(message, code) => Event::SubagentError {
                timestamp,
                subagent_run_id: id,
                message,
                code: Some(code.into()),
            },
        };
        self.push(e, out);
    }

    /// The calls of the open sub-agents and the calls they run under.
    fn subagent_calls(&mut self) -> Vec<String> {
        let subagents = self.subagents.get_mut();
        if subagents.open.is_empty() {
            return vec![];
        }
        let Some(run) = self.run.as_ref() else {
            return vec![];
        };
        let open: HashSet<&str> = subagents.open.values().map(|o| o.id.as_str()).collect();
        let mut calls: Vec<String> = subagents
            .open
            .values()
            .map(|o| o.parent_tool_call_id.clone())
            .collect();
        calls.extend(
            run.tools
                .keys()
                .filter(|c| subagents.owner_of(c).is_some_and(|o| open.contains(o)))
                .cloned(),
        );
        calls
    }

    /// At a run's end: each sub-agent still open ends as the run does (an interrupt suspends
    /// it, naming the run's interrupts when it is the only one open), latest first.
    fn end_subagents(&mut self, ending: &Ending, out: &mut Vec<Event>) {
        let keys: Vec<String> = self
            .subagents
            .get_mut()
            .open
            .keys()
            .rev()
            .cloned()
            .collect();
        if keys.is_empty() {
            return;
        }
        // Each interrupt with the sub-agent whose call raised it, when known.
        let interrupts: Vec<(String, Option<String>)> = {
            let subagents = self.subagents.get_mut();
            self.run
                .as_ref()
                .map(|r| {
                    let owner = |i: &InterruptInfo| {
                        let call = i.tool_call_id.as_deref()?;
                        subagents.owner_of(call).map(str::to_string)
                    };
                    r.interrupts
                        .iter()
                        .map(|i| (i.id.clone(), owner(i)))
                        .collect()
                })
                .unwrap_or_default()
        };
        let only = keys.len() == 1;
        for key in keys {
            let id = self.subagents.get_mut().id_of(&key).map(str::to_string);
            // Its own interrupts; when none is known to be its, all of them if it is the only
            // sub-agent open (LangGraph stops the whole graph at one).
            let mut own: Vec<String> = interrupts
                .iter()
                .filter(|(_, o)| o.is_some() && *o == id)
                .map(|(i, _)| i.clone())
                .collect();
            if own.is_empty() && only && interrupts.iter().all(|(_, o)| o.is_none()) {
                own = interrupts.iter().map(|(i, _)| i.clone()).collect();
            }
            let end = match ending {
                Ending::Finished if interrupts.is_empty() => SubagentEnding::Success(None),
                Ending::Finished => SubagentEnding::Suspended(own),
                Ending::Failed(info, code) => SubagentEnding::Error(info.message.clone(), code),
                Ending::Cancelled => {
                    SubagentEnding::Error(CANCELLED_MESSAGE.into(), error_code::CANCELLED)
                }
                Ending::Incomplete(message) => {
                    SubagentEnding::Error(message.clone(), error_code::INCOMPLETE_STREAM)
                }
            };
            self.subagent_end(&key, end, out);
        }
    }

    /// `--compat thinking`: an interrupt as a text message (its message, or what it waits for).
    /// TDesign Chat has no interrupt UI and ignores `RUN_FINISHED.outcome`; without this the
    /// run would read as complete with nothing asked.
    fn interrupt_text(&self, i: &InterruptInfo, out: &mut Vec<Event>) {
        let text = interrupt::visible_text(&i.value);
        let id = format!("interrupt-{}", i.id);
        self.emit_text_start(&id, out);
        self.emit_text_content(id.clone(), text, out);
        self.emit_text_end(&id, out);
    }

    /// `--text final`: the final state's answer, as one text message.
    fn final_answer(&mut self, out: &mut Vec<Event>) {
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

/// The results a run keeps for its interrupted end ([`Run::sent_results`]), at most.
const SENT_RESULTS: usize = 256;

/// An interrupted run's final list with the results it sent that the list does not hold
/// (pending writes of the interrupted tools node), each after the message holding its call
/// and the results already there, where the client put it: the snapshot keeps them.
fn keep_sent_results(messages: &mut Vec<Value>, sent: Vec<Value>) {
    for r in sent {
        let call = r
            .get("toolCallId")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let answers = |m: &Value| m.get("toolCallId").and_then(Value::as_str) == Some(call);
        if messages.iter().any(answers) {
            continue;
        }
        let holds = |m: &Value| {
            let calls = m.get("toolCalls").and_then(Value::as_array);
            calls.is_some_and(|c| {
                c.iter()
                    .any(|c| c.get("id").and_then(Value::as_str) == Some(call))
            })
        };
        let Some(mut at) = messages.iter().position(holds) else {
            continue;
        };
        at += 1;
        while messages
            .get(at)
            .is_some_and(|m| m.get("role").and_then(Value::as_str) == Some("tool"))
        {
            at += 1;
        }
        messages.insert(at, r);
    }
}

/// `base` the first time it is used, then `base:2`, `base:3`…: ids stay unique when a span
/// reopens.
fn numbered(used: &mut HashMap<String, usize, FastIds>, base: String) -> String {
    let n = used.entry(base.clone()).or_insert(0);
    *n += 1;
    if *n == 1 {
        base
    } else {
        format!("{base}:{n}")
    }
}

/// A reasoning message's id is `<message id>:reasoning:<block index>`.
pub fn reasoning_id(message_id: &str, block: &str) -> String {
    format!("{message_id}:reasoning:{block}")
}

/// Token usage by (provider, model).
type UsageTotals = IndexMap<(Option<String>, Option<String>), UsageTotal, FastIds>;

/// Adds one message's usage to the run's totals (kept summed so a long run stays small).
fn add_usage(totals: &mut UsageTotals, u: Usage) {
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

fn usage_summary(by_model: &UsageTotals) -> Option<Vec<UsageTotal>> {
    (!by_model.is_empty()).then(|| by_model.values().cloned().collect())
}

#[cfg(test)]
mod tests {
    use super::messages::tests::run_start;
    use super::*;

    fn map_all(m: &mut Mapper, evs: Vec<ModelEvent>, out: &mut Vec<Value>) {
        let mut step = vec![];
        for ev in evs {
            m.map(ev, &mut step);
            out.extend(step.iter().map(|e| e.to_value().into_owned()));
            m.settle(&mut step);
        }
    }

    fn count(events: &[Value], kind: &str, id: &str) -> usize {
        events
            .iter()
            .filter(|e| e["type"] == kind && e["toolCallId"] == id)
            .count()
    }

    /// A run of more tool calls than it remembers done ones: every call is started, ended and
    /// answered once, a call announced again soon after is not started again, and what the
    /// run holds stays bounded.
    #[test]
    fn a_long_run_maps_every_call_once_in_bounded_memory() {
        let mut m = Mapper::new(MapOptions::default());
        let mut out = vec![];
        let start = run_start(Some("r"));
        map_all(&mut m, vec![start], &mut out);
        let n = 3 * Run::DONE_TOOLS;
        for i in 0..n {
            let (msg, call) = (format!("m{i}"), format!("call{i}"));
            let chunk = || ModelEvent::ToolCallChunk {
                message_id: msg.clone(),
                index: "0".into(),
                id: Some(call.clone()),
                name: Some("f".into()),
                args: "{}".into(),
            };
            let mut evs = vec![
                ModelEvent::MessageStart {
                    message_id: msg.clone(),
                },
                chunk(),
                ModelEvent::MessageEnd {
                    message_id: msg.clone(),
                    usage: None,
                },
                ModelEvent::ToolEnd {
                    tool_call_id: call.clone(),
                    name: Some("f".into()),
                    content: Value::String("ok".into()),
                    message_id: Some(format!("t{i}")),
                    error: false,
                },
            ];
            if i % 100 == 7 {
                // The same call announced again (a replayed chunk): no second START.
                evs.push(chunk());
            }
            let from = out.len();
            map_all(&mut m, evs, &mut out);
            let new = &out[from..];
            for kind in ["TOOL_CALL_START", "TOOL_CALL_END", "TOOL_CALL_RESULT"] {
                assert_eq!(count(new, kind, &call), 1, "{kind} of {call}");
            }
            let run = m.run.as_ref().expect("the run is open");
            assert!(
                run.tools.len() <= Run::DONE_TOOLS + 1,
                "{}",
                run.tools.len()
            );
            assert!(run.tool_index.len() <= Run::DONE_TOOLS + 1);
            assert!(run.open_tools.is_empty());
        }
    }

    fn tool_start(call: &str) -> ModelEvent {
        ModelEvent::ToolStart {
            tool_call_id: call.into(),
            name: "f".into(),
            args: Some("{}".into()),
            parent_message_id: None,
        }
    }

    /// Unanswered calls past [`PENDING_IDS_LISTED`]: RUN_FINISHED lists the first ones and
    /// counts them all, so its line stays bounded (issue 41 item 4).
    #[test]
    fn run_finished_lists_a_bounded_number_of_pending_calls_and_counts_them() {
        let outcome = |calls: usize| {
            let mut m = Mapper::new(MapOptions::default());
            let mut out = vec![];
            let mut evs = vec![run_start(Some("r"))];
            evs.extend((0..calls).map(|i| tool_start(&format!("c{i}"))));
            evs.push(ModelEvent::RunEnd);
            map_all(&mut m, evs, &mut out);
            let fin = out.iter().find(|e| e["type"] == "RUN_FINISHED").cloned();
            fin.expect("RUN_FINISHED")["outcome"].clone()
        };
        let few = outcome(3);
        assert_eq!(few["pendingToolCallIds"].as_array().map(Vec::len), Some(3));
        assert!(few.get("pendingToolCallCount").is_none());
        let many = outcome(PENDING_IDS_LISTED + 5);
        let ids = many["pendingToolCallIds"].as_array().expect("ids");
        assert_eq!(ids.len(), PENDING_IDS_LISTED);
        assert_eq!(ids[0], "c0");
        assert_eq!(many["pendingToolCallCount"], PENDING_IDS_LISTED + 5);
    }

    /// A result whose call never came (issue 41 item 7): at the run's end the call is started
    /// from the result (its id and name) and ended, then the result sent; a result before its
    /// call's START waits for its END.
    #[test]
    fn a_result_before_its_call_waits_for_it() {
        let mut m = Mapper::new(MapOptions::default());
        let mut out = vec![];
        let result = |call: &str| ModelEvent::ToolEnd {
            tool_call_id: call.into(),
            name: Some("lookup".into()),
            content: Value::String("ok".into()),
            message_id: None,
            error: false,
        };
        let evs = vec![
            run_start(Some("r")),
            result("early"),
            result("orphan"),
            tool_start("early"),
            ModelEvent::RunEnd,
        ];
        map_all(&mut m, evs, &mut out);
        let seq: Vec<String> = out
            .iter()
            .filter(|e| e["toolCallId"].is_string())
            .map(|e| {
                format!(
                    "{} {}",
                    e["type"].as_str().unwrap_or("?"),
                    e["toolCallId"].as_str().unwrap_or("?")
                )
            })
            .collect();
        assert_eq!(
            seq,
            [
                "TOOL_CALL_START early",
                "TOOL_CALL_ARGS early",
                "TOOL_CALL_END early",
                "TOOL_CALL_RESULT early",
                "TOOL_CALL_START orphan",
                "TOOL_CALL_END orphan",
                "TOOL_CALL_RESULT orphan",
            ]
        );
        let orphan = out
            .iter()
            .find(|e| e["type"] == "TOOL_CALL_START" && e["toolCallId"] == "orphan");
        assert_eq!(
            orphan.map(|e| e["toolCallName"].clone()),
            Some(json!("lookup"))
        );
    }

    /// A cancelled run: `end` after a streaming message, mapped with `compat`.
    fn cancelled_run(end: ModelEvent, before: Vec<ModelEvent>, compat: Compat) -> Vec<Value> {
        let mut m = Mapper::new(MapOptions {
            compat,
            ..MapOptions::default()
        });
        let mut out = vec![];
        let mut evs = vec![
            run_start(Some("r")),
            ModelEvent::MessageStart {
                message_id: "m".into(),
            },
            ModelEvent::TextDelta {
                message_id: "m".into(),
                text: "This".into(),
            },
        ];
        evs.extend(before);
        evs.push(end);
        map_all(&mut m, evs, &mut out);
        out
    }

    fn error(name: &str, message: &str) -> ModelEvent {
        ModelEvent::RunFailed(ErrorInfo {
            name: Some(name.into()),
            message: message.into(),
            lc_code: None,
        })
    }

    /// CancelledError, AbortError and a platform stop without an interrupt end the run with
    /// outcome cancelled, the open message closed first; any other error stays RUN_ERROR.
    #[test]
    fn a_cancelled_run_finishes_cancelled_after_closing_its_spans() {
        for end in [
            error("CancelledError", ""),
            error("AbortError", "This operation was aborted"),
            ModelEvent::RunStopped,
        ] {
            let out = cancelled_run(end.clone(), vec![], Compat::None);
            let types: Vec<&str> = out.iter().filter_map(|e| e["type"].as_str()).collect();
            assert_eq!(
                types[types.len() - 2..],
                ["TEXT_MESSAGE_END", "RUN_FINISHED"],
                "{end:?}: {types:?}"
            );
            assert_eq!(out.last().unwrap()["outcome"], json!({"type": "cancelled"}));
        }
        let out = cancelled_run(error("ValueError", "boom"), vec![], Compat::None);
        assert_eq!(out.last().unwrap()["code"], "AGENT_INTERNAL");
    }

    /// A platform stop after an interrupt is the interrupt, not a cancellation.
    #[test]
    fn a_platform_stop_at_an_interrupt_is_an_interrupt() {
        let int = ModelEvent::Interrupt(vec![InterruptInfo {
            id: "i1".into(),
            value: json!("approve?"),
            response_schema: None,
            tool_call_id: None,
        }]);
        let out = cancelled_run(ModelEvent::RunStopped, vec![int], Compat::None);
        assert_eq!(out.last().unwrap()["outcome"]["type"], "interrupt");
    }

    /// `--compat thinking` (a 0.0.x client, no `cancelled` outcome): RUN_ERROR code CANCELLED.
    #[test]
    fn a_cancelled_run_under_compat_thinking_is_run_error_cancelled() {
        let out = cancelled_run(error("CancelledError", ""), vec![], Compat::Thinking);
        let last = out.last().unwrap();
        assert_eq!(last["type"], "RUN_ERROR");
        assert_eq!(last["code"], error_code::CANCELLED);
    }

    /// A sub-agent under tool call `c`, with a text message open, when the run ends as `end`.
    fn subagent_run(end: ModelEvent, compat: Compat) -> Vec<Value> {
        let mut m = Mapper::new(MapOptions {
            compat,
            ..MapOptions::default()
        });
        let mut out = vec![];
        let evs = vec![
            run_start(Some("r")),
            ModelEvent::ToolStart {
                tool_call_id: "c".into(),
                name: "ask".into(),
                args: Some("{}".into()),
                parent_message_id: None,
            },
            ModelEvent::SubagentStart {
                key: "tools:1".into(),
                name: "helper".into(),
                parent_tool_call_id: "c".into(),
            },
            ModelEvent::Scope(Some("tools:1".into())),
            ModelEvent::StepStart {
                name: "model".into(),
                key: "k".into(),
            },
            ModelEvent::MessageStart {
                message_id: "m".into(),
            },
            ModelEvent::TextDelta {
                message_id: "m".into(),
                text: "hi".into(),
            },
            ModelEvent::Scope(None),
            end,
        ];
        map_all(&mut m, evs, &mut out);
        out
    }

    /// A run that fails or is cancelled with a sub-agent open: the sub-agent's message and
    /// step are closed under its id, then SUBAGENT_ERROR, then the run's end.
    #[test]
    fn a_sub_agent_open_when_the_run_fails_ends_with_an_error() {
        for (end, code) in [
            (error("ValueError", "boom"), "AGENT_INTERNAL"),
            (error("CancelledError", ""), "CANCELLED"),
        ] {
            let out = subagent_run(end, Compat::None);
            let types: Vec<&str> = out.iter().filter_map(|e| e["type"].as_str()).collect();
            let at = types
                .iter()
                .position(|t| *t == "SUBAGENT_ERROR")
                .expect("the sub-agent errs");
            assert_eq!(
                types[at - 2..=at],
                ["TEXT_MESSAGE_END", "STEP_FINISHED", "SUBAGENT_ERROR"],
                "{types:?}"
            );
            for e in &out[at - 2..=at] {
                assert_eq!(e["subagentRunId"], "c:subagent", "{e}");
            }
            assert_eq!(out[at]["code"], code);
            // The supervisor's tool call is its own.
            assert!(out
                .iter()
                .filter(|e| e["toolCallId"] == "c")
                .all(|e| e.get("subagentRunId").is_none()));
        }
    }

    /// `--compat thinking` (0.0.x): no SUBAGENT_*, no `subagentRunId`; the sub-agent's step is
    /// named by its id so it does not collide with the supervisor's.
    #[test]
    fn compat_thinking_leaves_sub_agents_out() {
        let out = subagent_run(ModelEvent::RunEnd, Compat::Thinking);
        assert!(out.iter().all(|e| {
            !e["type"]
                .as_str()
                .unwrap_or_default()
                .starts_with("SUBAGENT_")
                && e.get("subagentRunId").is_none()
        }));
        assert!(out
            .iter()
            .any(|e| e["type"] == "STEP_STARTED" && e["stepName"] == "c:subagent/model"));
    }

    /// A message's end ends the calls it carried and only those.
    #[test]
    fn a_message_end_ends_its_own_calls() {
        let mut m = Mapper::new(MapOptions::default());
        let mut out = vec![];
        let chunk = |msg: &str, call: &str| ModelEvent::ToolCallChunk {
            message_id: msg.into(),
            index: call.into(),
            id: Some(call.into()),
            name: Some("f".into()),
            args: String::new(),
        };
        let start = |msg: &str| ModelEvent::MessageStart {
            message_id: msg.into(),
        };
        let end = |msg: &str| ModelEvent::MessageEnd {
            message_id: msg.into(),
            usage: None,
        };
        map_all(
            &mut m,
            vec![
                start("a"),
                chunk("a", "a1"),
                start("b"),
                chunk("b", "b1"),
                chunk("a", "a2"),
                end("a"),
            ],
            &mut out,
        );
        let ended = |out: &[Value]| -> Vec<String> {
            out.iter()
                .filter(|e| e["type"] == "TOOL_CALL_END")
                .filter_map(|e| e["toolCallId"].as_str().map(str::to_string))
                .collect()
        };
        assert_eq!(ended(&out), ["a1", "a2"]);
        map_all(&mut m, vec![end("b")], &mut out);
        assert_eq!(ended(&out), ["a1", "a2", "b1"]);
    }

    /// Reasoning spans as a client sees them: at most one open at a time. Returns the span
    /// ids in order, or the first overlap.
    fn spans(events: &[Value]) -> Result<Vec<String>, String> {
        let (mut open, mut seen): (Option<String>, Vec<String>) = (None, vec![]);
        for (i, e) in events.iter().enumerate() {
            let id = e["messageId"].as_str().unwrap_or_default().to_string();
            match e["type"].as_str() {
                Some("REASONING_START") => {
                    if let Some(o) = &open {
                        return Err(format!("event {i}: span {id} opens while {o} is open"));
                    }
                    open = Some(id.clone());
                    seen.push(id);
                }
                Some("REASONING_END") => open = None,
                _ => {}
            }
        }
        Ok(seen)
    }

    fn reasoning(message_id: &str, block: &str, text: &str) -> ModelEvent {
        ModelEvent::ReasoningDelta {
            message_id: message_id.into(),
            block: block.into(),
            text: text.into(),
        }
    }

    /// Issue 22.9: a summary's second part, another block and another message's reasoning
    /// each open a span only after the open one ended, also around the tool-step narration;
    /// a part that comes back gets a span of its own.
    #[test]
    fn reasoning_spans_never_overlap() {
        for tool_steps in [ToolSteps::None, ToolSteps::Reasoning] {
            let mut m = Mapper::new(MapOptions {
                tool_steps,
                ..MapOptions::default()
            });
            let mut out = vec![];
            let evs = vec![
                run_start(Some("r")),
                reasoning("m1", "0", "The user asks."),
                reasoning("m1", "0.1", "France's capital"),
                reasoning("m2", "0", "Parallel call."),
                reasoning("m1", "0.1", " is Paris."),
                ModelEvent::ToolStart {
                    tool_call_id: "c1".into(),
                    name: "f".into(),
                    args: None,
                    parent_message_id: None,
                },
                reasoning("m2", "0", " More."),
                ModelEvent::RunEnd,
            ];
            map_all(&mut m, evs, &mut out);
            let ids = spans(&out).unwrap_or_else(|e| panic!("{tool_steps:?}: {e}"));
            let mut want = vec![
                "m1:reasoning:0",
                "m1:reasoning:0.1",
                "m2:reasoning:0",
                "m1:reasoning:0.1:2",
            ];
            if tool_steps == ToolSteps::Reasoning {
                want.push("r:tool-steps");
            }
            want.push("m2:reasoning:0:2");
            assert_eq!(ids, want, "{tool_steps:?}");
        }
    }
}
