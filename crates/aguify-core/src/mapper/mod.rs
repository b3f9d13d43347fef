//! The AG-UI mapper: model events → AG-UI 1.0 events.
//!
//! It owns everything the protocol requires that a LangGraph log does not say outright: run
//! framing (exactly one terminal per run), pairing (every START gets its END before the run
//! ends), id schemes (reasoning ids), interrupt outcomes, resume input, and the
//! answer-only front-end policies (`--text final`, `--tool-steps reasoning`, `--compat thinking`).

/// An event of the run's own agent: `Event::$kind` with no `subagentRunId` and no time yet
/// ([`Mapper::push`] attributes it and gives it the record's time).
macro_rules! own {
    ($kind:ident { $($field:tt)* }) => {
        Event::$kind { subagent_run_id: None, timestamp: None, $($field)* }
    };
}

mod client_view;
mod compat;
mod conversation;
pub mod error_code;
pub mod interrupt;
mod messages;
mod reasoning;
mod runs;
mod subagent;
mod text;
mod tools;

use std::collections::{HashMap, HashSet};

use indexmap::{IndexMap, IndexSet};
use serde_json::{json, Value};

use crate::agui::{
    ErrorDetail, Event, Item, ResultStatus, Role, Snapshot, Subtype, ToolContent, UsageTotal,
};
use crate::model::{numbered, InterruptInfo, MessageRef, ModelEvent, ToolResult, Usage};
use crate::payload::Payload;
use crate::wire::langchain as lc;
use conversation::{keep_sent_results, SENT_RESULTS};
use foldhash::fast::RandomState as FastIds;
use runs::{add_usage, UsageTotals};

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

/// Ids of the final answers sent (`--text final`), bounded: a resume repeats only its thread's
/// last answer, so the latest 1,024 cover as many threads interleaved in one log.
type FinalAnswers = crate::recent::Recent<String, (), { 1 << 10 }, FastIds>;

#[derive(Default)]
pub struct Mapper {
    opts: MapOptions,
    thread_id: Option<String>,
    runs: usize,
    last_run_id: Option<String>,
    /// Interrupt ids the previous run on this thread stopped at.
    pending: Vec<String>,
    /// Calls whose tool raised `interrupt()` in the previous run, by id: started (and ended)
    /// there, answered by the run that resumes it (no second TOOL_CALL_START).
    suspended: IndexMap<String, ToolCall, FastIds>,
    /// Calls answered since the thread's last run that was not a resume (the latest
    /// [`ThreadAnswers::WINDOW`]): a resume run re-executing one (LangGraph.js re-runs every call of the interrupted
    /// tools node) adds nothing, neither a second start nor a second result.
    thread_answers: ThreadAnswers,
    run: Option<Run>,
    /// Final answers already sent (`--text final`), so a resumed run does not repeat them.
    answered: FinalAnswers,
    /// The timestamp (ms) of the record being mapped.
    pub timestamp: Option<i64>,
    /// The hash from which ids are derived when the log has none (see [`Mapper::needs_seed`]).
    pub seed: u64,
    /// Where in the caller's `out` the `STATE_SNAPSHOT` event just made is whose state's
    /// `messages` become the run's, for [`Mapper::settle`] to keep.
    snapshot_at: Option<usize>,
    /// The last run's message list in AG-UI form, by message ([`messages::Converted`]).
    converted: messages::Converted,
    /// The run's sub-agents and the items they own ([`subagent::Subagents`]).
    subagents: subagent::Subagents,
    /// What the client's message list holds ([`client_view::ClientView`]).
    client: client_view::ClientView,
}

/// A step: its owner (a sub-agent's id, `None`: the run's own agent) and name.
type Step = (Option<String>, String);

/// Unanswered tool calls listed by id in a RUN_FINISHED's `pendingToolCallIds`: past it the
/// list holds the first ones and `pendingToolCallCount` says how many there are in all (a
/// million unanswered calls made one 12.9 MB line).
pub const PENDING_IDS_LISTED: usize = 1000;

#[derive(Default)]
struct Run {
    /// Open steps in the order they opened, each with how many of its node runs are open (a
    /// step is open while one is). Counted, not found by a scan of the open runs: a fan-out of
    /// N parallel runs of one node would cost N² (scripts/bench_fanout.sh).
    steps: IndexMap<Step, usize, FastIds>,
    /// Open node runs by key: their step.
    step_keys: HashMap<String, Step, FastIds>,
    /// Text messages with START sent and no END yet.
    text_open: IndexSet<String, FastIds>,
    /// The reasoning span open: one at a time, as a client shows one reasoning message at a
    /// time (issue 22.9).
    reasoning: Option<Span>,
    /// How often a reasoning id was used, to keep ids unique when a block reopens.
    reasoning_ids: HashMap<String, usize, FastIds>,
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
    /// The last state with a `messages` list, once its `STATE_SNAPSHOT` is written
    /// ([`Mapper::settle`]): the run's list, converted at its end ([`messages::Converted`]).
    messages: Option<Snapshot>,
    /// Token usage summed per (provider, model) as messages end, in first-seen order.
    usage: UsageTotals,
    /// The calls of `tools` the interrupted run before this one left waiting (this run
    /// resumes them), until they show again: a sub-agent's call is then its again.
    resumed: HashSet<String, FastIds>,
    /// Tool results not sent yet ([`Mapper::tool_end`]): the log has not said the message's
    /// id, or a call made before theirs in the same message has no result yet.
    held: Vec<ToolResult>,
    /// The results sent since the last message list the log showed (AG-UI tool messages):
    /// an interrupted run's final state may not hold them yet (a tools node stopped by
    /// `interrupt()` keeps its finished calls as pending writes).
    sent_results: Vec<Item>,
    /// Results that came before their call (a frame moved ahead in a capture): each waits
    /// for its call's END, or for the run's end (where the call is started from the result).
    early_results: Vec<ToolResult>,
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

    /// Whether a call started before `call_id` in the same message has no result yet.
    fn waits_for_earlier_call(&self, call_id: &str) -> bool {
        let Some((at, _, t)) = self.tools.get_full(call_id) else {
            return false;
        };
        let same = |e: &ToolCall| e.parent.is_some() && e.parent == t.parent && !e.result;
        self.tools.values().take(at).any(same)
    }
}

/// A reasoning span: its id, and the message's block whose reasoning it shows (`None`: the
/// `--tool-steps` narration).
struct Span {
    id: String,
    block: Option<ReasoningBlock>,
}

/// A reasoning block of a message ([`ModelEvent::ReasoningDelta`]).
#[derive(PartialEq)]
struct ReasoningBlock {
    /// The message it belongs to.
    message_id: String,
    /// Its block position or provider key within the message.
    block: String,
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

impl ToolCall {
    /// A call of message `parent` not answered yet, `ended` when its arguments are whole.
    fn new(name: impl Into<String>, parent: Option<String>, ended: bool) -> Self {
        ToolCall {
            name: name.into(),
            parent,
            ended,
            result: false,
        }
    }
}

/// How a sub-agent ends: normally or suspended (`Ok`: what it handed back to its parent tool,
/// when known, and its outcome), or with an error (its code class and message).
type SubagentEnding = Result<(Option<Value>, Value), (&'static str, String)>;

enum Ending {
    Finished,
    /// An error's code class, message and, for the log's own error, what it named it: the
    /// log's error, or a log that stopped without a terminal event (`INCOMPLETE_STREAM`).
    Failed(&'static str, String, Option<ErrorDetail>),
    /// The caller (or the platform at its request) cancelled the run.
    Cancelled,
}

impl Mapper {
    pub fn new(opts: MapOptions) -> Self {
        Mapper {
            opts,
            ..Mapper::default()
        }
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

    /// Adds an event to `out`, at the record's time (attributed to its sub-agent, and under
    /// `--compat thinking` as [`compat::thinking`] rewrites it).
    fn push(&mut self, ev: Event, out: &mut Vec<Event>) {
        // `--compat thinking`: the narration is closed before a tool call's or a text
        // message's event. While a thinking block is open, TDesign Chat's AG-UI adapter only
        // updates the block's current item: a tool result would be dropped, a nested tool
        // call would swallow the narration after it, and the block's spinner would turn while
        // the answer streams. A later line opens a new block.
        let thinking = self.opts.compat == Compat::Thinking;
        if thinking && ev.item().is_some() && !ev.type_name().starts_with("REASONING") {
            self.close_narration(out);
        }
        let mut ev = ev.at(self.timestamp);
        self.client.saw(&ev);
        if self.subagents.any() {
            ev = self.subagents.attribute(ev);
        }
        if self.agui0() {
            compat::text_content(&mut ev);
        }
        match self.opts.compat {
            Compat::Thinking => out.extend(compat::thinking(ev)),
            Compat::None => out.push(ev),
        }
    }

    /// Whether a 0.0.x client reads the output (`--target agui-0.0`, or `--compat thinking`,
    /// whose TDesign Chat builds on one): no `cancelled` outcome, no pending calls listed,
    /// tool messages of text only.
    fn agui0(&self) -> bool {
        self.opts.compat == Compat::Thinking || self.opts.target == Target::Agui0
    }

    pub fn map(&mut self, ev: ModelEvent, out: &mut Vec<Event>) {
        if self.needs_seed(&ev) && !matches!(ev, ModelEvent::RunStart { .. }) {
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
            // A model streams again: its agent's results before its message go first, named
            // as the log allows.
            self.send_held(true, out);
        }
        match ev {
            ev @ (ModelEvent::RunStart { .. }
            | ModelEvent::RunEnd
            | ModelEvent::RunFailed(_)
            | ModelEvent::RunStopped
            | ModelEvent::RunIncomplete { .. }) => self.run_event(ev, out),
            ModelEvent::Interrupt(list) => self.interrupts(list),
            ModelEvent::StepStart { name, key } => self.step_start(name, key, out),
            ModelEvent::StepEnd { key } => self.step_end(&key, out),
            ModelEvent::Scope(id) => {
                let subagents = &mut self.subagents;
                subagents.scope = id.filter(|id| subagents.open.contains_key(id));
            }
            ModelEvent::SubagentStart {
                id,
                name,
                parent_tool_call_id,
            } => self.subagent_start(id, name, parent_tool_call_id, out),
            ModelEvent::SubagentEnd { id, error } => {
                let success = Ok((None, json!({"type": "success"})));
                let end = error.map(|e| (error_code::classify(&e), e.message));
                self.subagent_end(id, end.map_or(success, Err), out)
            }
            ModelEvent::MessageStart { .. } => {}
            ModelEvent::TextDelta { message_id, text } => self.text_delta(message_id, text, out),
            ModelEvent::ReasoningDelta {
                message_id,
                block,
                text,
            } => self.reasoning_text(Some(ReasoningBlock { message_id, block }), text, out),
            ModelEvent::ReasoningEncrypted {
                message_id,
                block,
                value,
            } => self.reasoning_encrypted(message_id, block, value, out),
            ModelEvent::ToolCallChunk {
                message_id,
                index,
                id,
                name,
                args,
            } => self.tool_chunk(message_id, index, PendingChunks { id, name, args }, out),
            ModelEvent::MessageEnd { message_id, usage } => {
                self.close_where(|_, m| m == Some(&message_id), out);
                if let Some(u) = usage {
                    add_usage(&mut self.run_mut().usage, u);
                }
            }
            // A tool starts running: its call, started here unless a model streamed it, ends.
            ModelEvent::ToolStart {
                tool_call_id: id,
                name,
                args,
                parent_message_id,
            } => {
                self.ensure_tool(&id, &name, parent_message_id, args.as_deref(), out);
                self.end_tool(&id, out);
                self.tool_step_line(format_args!("Calling tool {name}.\n"), out);
            }
            // Streamed tool output, as a CUSTOM event ([`TOOL_OUTPUT_DELTA`]).
            ModelEvent::ToolOutputDelta {
                tool_call_id,
                delta,
            } => {
                let value = json!({"toolCallId": tool_call_id, "delta": delta});
                let (name, value) = (TOOL_OUTPUT_DELTA.into(), Payload::from_value(&value));
                self.push(own!(Custom { name, value }), out);
            }
            ModelEvent::ToolEnd(result) => self.tool_end(result, out),
            ModelEvent::Custom { name, value } => self.push(own!(Custom { name, value }), out),
            ModelEvent::State(snapshot) => {
                if let Some(list) = snapshot.messages() {
                    self.messages_shown(&list, out);
                    self.snapshot_at = Some(out.len());
                }
                self.push(own!(StateSnapshot { snapshot }), out);
            }
            ModelEvent::Conversation(list) => {
                let list: Vec<MessageRef> = list.iter().map(|m| MessageRef::Shared(m)).collect();
                self.messages_shown(&list, out);
            }
            ModelEvent::Native(v) => self.push(Event::Passthrough(v), out),
        }
    }

    /// Interrupts the run stops at. The same interrupt again (the tool's error, then the
    /// state's `__interrupt__`): what one of them knows of its call is kept.
    fn interrupts(&mut self, list: Vec<InterruptInfo>) {
        let run = self.run_mut();
        for i in list {
            match run.interrupts.iter_mut().find(|x| x.id == i.id) {
                Some(x) => x.tool_call_id = x.tool_call_id.take().or(i.tool_call_id),
                None => run.interrupts.push(i),
            }
        }
    }

    /// A node starts: STEP_STARTED for its name's first open run, in its owner's scope.
    fn step_start(&mut self, name: String, key: String, out: &mut Vec<Event>) {
        let step = (self.subagents.scope.clone(), name);
        let run = self.run_mut();
        run.step_keys.insert(key, step.clone());
        let n = run.steps.entry(step.clone()).or_insert(0);
        *n += 1;
        if *n == 1 {
            self.emit_step(step, true, out);
        }
    }

    /// A node ends: STEP_FINISHED when no other run of its name is open.
    fn step_end(&mut self, key: &str, out: &mut Vec<Event>) {
        let run = self.run_mut();
        let step = run.step_keys.remove(key);
        let Some(n) = step.as_ref().and_then(|s| run.steps.get_mut(s)) else {
            return;
        };
        *n -= 1;
        if let (0, Some(step)) = (*n, step) {
            run.steps.shift_remove(&step);
            self.emit_step(step, false, out);
        }
    }

    /// Closes the items still open that `pick` chooses by their owner (a sub-agent's id,
    /// `None`: the run's own agent) and their message (a call's parent, `None` for a call of
    /// no message), innermost first: the reasoning, the texts, the calls whose id or name
    /// never arrived (announced, so their args are not lost) and the open calls. A message's
    /// end, a sub-agent's end and a run's end close through it.
    fn close_where(
        &mut self,
        pick: impl Fn(Option<&str>, Option<&str>) -> bool,
        out: &mut Vec<Event>,
    ) {
        let in_block = |sp: &Span, owner: Option<&str>| match &sp.block {
            Some(b) => pick(owner, Some(&b.message_id)),
            None => false,
        };
        self.close_reasoning_where(in_block, out);
        let pick = |s: &subagent::Subagents, item: &str, m: Option<&str>| pick(s.owner_of(item), m);
        let Some(run) = self.run.as_mut() else { return };
        let s = &self.subagents;
        let texts = (run.text_open).extract_if(.., |m| pick(s, m, Some(m)));
        let texts: Vec<String> = texts.collect();
        let stranded = (run.tool_buffer).extract_if(.., |(m, _), _| pick(s, m, Some(m)));
        let stranded: Vec<_> = stranded.collect();
        for m in texts {
            self.emit_text_end(&m, out);
        }
        for (k, PendingChunks { id, name, args }) in stranded {
            let call_id = id.unwrap_or_else(|| lc::made_up_call_id(&k.0, &k.1));
            let name = name.unwrap_or_else(|| "unknown_tool".into());
            self.ensure_tool(&call_id, &name, Some(k.0.clone()), Some(&args), out);
            self.run_mut().tool_index.insert(k, call_id);
        }
        let Some(run) = self.run.as_ref() else { return };
        let s = &self.subagents;
        let parent = |c: &str| run.tools.get(c).and_then(|t| t.parent.as_deref());
        let tools = run.open_tools.iter().filter(|c| pick(s, c, parent(c)));
        for c in tools.cloned().collect::<Vec<String>>() {
            self.end_tool(&c, out);
        }
    }

    /// STEP_FINISHED for each open step whose owner `owned` picks, latest first (a step
    /// once, however many of its runs are open).
    fn finish_steps(&mut self, owned: impl Fn(Option<&str>) -> bool, out: &mut Vec<Event>) {
        let run = self.run_mut();
        run.step_keys.retain(|_, (o, _)| !owned(o.as_deref()));
        let steps = run.steps.extract_if(.., |(o, _), _| owned(o.as_deref()));
        let steps: Vec<Step> = steps.map(|(s, _)| s).collect();
        for step in steps.into_iter().rev() {
            self.emit_step(step, false, out);
        }
    }

    /// STEP_STARTED (`started`) or STEP_FINISHED of a step, under its owner's id; for a 0.0.x
    /// client, which knows no sub-agents (`--compat thinking`), a sub-agent's step is named
    /// `<its id>/<step>` instead (its `tools` step is not the run's, still open).
    fn emit_step(&mut self, (owner, step_name): Step, started: bool, out: &mut Vec<Event>) {
        let (owner, step_name) = match owner {
            Some(id) if self.opts.compat == Compat::Thinking => (None, format!("{id}/{step_name}")),
            owner => (owner, step_name),
        };
        let e = match started {
            true => own!(StepStarted { step_name }),
            false => own!(StepFinished { step_name }),
        };
        self.push(e.attributed(owner.as_deref()), out);
    }

    /// After the caller has read the events [`Mapper::map`] or [`Mapper::finish`] put in
    /// `out`: the mapper takes back what it reads later (the state of the `STATE_SNAPSHOT`
    /// whose messages are the run's, instead of an AG-UI copy of every state's list), and
    /// `out` is cleared.
    pub fn settle(&mut self, out: &mut Vec<Event>) {
        let at = self.snapshot_at.take();
        if let Some(Event::StateSnapshot { snapshot, .. }) = at.and_then(|at| out.get_mut(at)) {
            let state = std::mem::replace(snapshot, Snapshot::Value(Value::Null));
            self.run_mut().messages = Some(state);
        }
        out.clear();
    }

    /// End of all input: a run still open was cut off.
    pub fn finish(&mut self, out: &mut Vec<Event>) {
        if self.run.is_some() {
            let reason = "the input ended inside a run".into();
            self.map(ModelEvent::RunIncomplete { reason }, out);
        }
    }

    fn run_mut(&mut self) -> &mut Run {
        self.run.get_or_insert_with(Run::default)
    }
}

/// A reasoning message's id is `<message id>:reasoning:<block index>`.
pub fn reasoning_id(message_id: &str, block: &str) -> String {
    format!("{message_id}:reasoning:{block}")
}

#[cfg(test)]
mod tests {
    use super::messages::tests::run_start;
    use super::*;
    use crate::model::ErrorInfo;

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
                ModelEvent::ToolEnd(ToolResult {
                    tool_call_id: call.clone(),
                    name: Some("f".into()),
                    content: ToolContent::Text("ok".into()),
                    message_id: Some(format!("t{i}")),
                    error: false,
                }),
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

    /// A run that finished with a pending call, then a run on the same thread that says it
    /// resumes (the platform's classic `events` mode records no interrupt, so the first run
    /// reads as finished): the resume answers the call without starting it again.
    #[test]
    fn a_resume_after_a_finished_run_answers_its_pending_call() {
        let mut m = Mapper::new(MapOptions::default());
        let mut out = vec![];
        let resume = match run_start(Some("r2")) {
            ModelEvent::RunStart {
                thread_id,
                run_id,
                messages,
                state,
                ..
            } => {
                let resume = Some(json!({"approved": true}));
                ModelEvent::RunStart {
                    thread_id,
                    run_id,
                    messages,
                    resume,
                    state,
                }
            }
            _ => unreachable!(),
        };
        let result = ModelEvent::ToolEnd(ToolResult {
            tool_call_id: "c1".into(),
            name: Some("f".into()),
            content: ToolContent::Text("ok".into()),
            message_id: Some("t1".into()),
            error: false,
        });
        let evs = vec![run_start(Some("r1")), tool_start("c1"), ModelEvent::RunEnd];
        map_all(&mut m, evs, &mut out);
        let evs = vec![resume, tool_start("c1"), result, ModelEvent::RunEnd];
        map_all(&mut m, evs, &mut out);
        assert_eq!(count(&out, "TOOL_CALL_START", "c1"), 1, "{out:?}");
        assert_eq!(count(&out, "TOOL_CALL_RESULT", "c1"), 1, "{out:?}");
    }

    /// A call no message of the run's final list holds (a node's own model call, e.g.
    /// `with_structured_output`) is no pending call; one a message holds still is.
    #[test]
    fn pending_calls_are_those_the_final_list_holds() {
        let mut m = Mapper::new(MapOptions::default());
        let mut out = vec![];
        let ai = json!({"type": "ai", "id": "a", "content": "",
            "tool_calls": [{"id": "c2", "name": "f", "args": {}}]});
        let state = json!({"messages": [{"type": "human", "id": "h", "content": "hi"}, ai]});
        let evs = vec![
            run_start(Some("r")),
            tool_start("c1"),
            tool_start("c2"),
            ModelEvent::State(crate::model::Snapshot::Value(state)),
            ModelEvent::RunEnd,
        ];
        map_all(&mut m, evs.clone(), &mut out);
        let fin = out
            .iter()
            .find(|e| e["type"] == "RUN_FINISHED")
            .expect("RUN_FINISHED");
        assert_eq!(
            fin["outcome"]["pendingToolCallIds"],
            json!(["c2"]),
            "{out:?}"
        );
        // A 0.0.x client's success outcome is a strict `{type}` object.
        for (compat, target) in [
            (Compat::Thinking, Target::Agui1),
            (Compat::None, Target::Agui0),
        ] {
            let opts = MapOptions {
                compat,
                target,
                ..MapOptions::default()
            };
            let (mut m, mut out) = (Mapper::new(opts), vec![]);
            map_all(&mut m, evs.clone(), &mut out);
            let fin = out.iter().find(|e| e["type"] == "RUN_FINISHED");
            assert_eq!(
                fin.map(|e| &e["outcome"]),
                Some(&json!({"type": "success"}))
            );
        }
    }

    /// A result whose call never came (issue 41 item 7): at the run's end the call is started
    /// from the result (its id and name) and ended, then the result sent; a result before its
    /// call's START waits for its END.
    #[test]
    fn a_result_before_its_call_waits_for_it() {
        let mut m = Mapper::new(MapOptions::default());
        let mut out = vec![];
        let result = |call: &str| {
            ModelEvent::ToolEnd(ToolResult {
                tool_call_id: call.into(),
                name: Some("lookup".into()),
                content: ToolContent::Text("ok".into()),
                message_id: None,
                error: false,
            })
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
                id: "c:subagent".into(),
                name: "helper".into(),
                parent_tool_call_id: "c".into(),
            },
            ModelEvent::Scope(Some("c:subagent".into())),
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
            let out = overlapping_reasoning(tool_steps, Compat::None);
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
            // `--compat thinking` renames the spans event by event: its steps never nest.
            let out = overlapping_reasoning(tool_steps, Compat::Thinking);
            let mut steps: Vec<&str> = (out.iter().filter_map(|e| e["type"].as_str()))
                .filter(|t| t.starts_with("THINKING"))
                .collect();
            steps.dedup();
            let step = [
                "THINKING_START",
                "THINKING_TEXT_MESSAGE_START",
                "THINKING_TEXT_MESSAGE_CONTENT",
                "THINKING_TEXT_MESSAGE_END",
                "THINKING_END",
            ];
            assert_eq!(steps, step.repeat(want.len()), "{tool_steps:?}");
        }
    }

    /// Reasoning of two messages and blocks that interleave, and a tool call between.
    fn overlapping_reasoning(tool_steps: ToolSteps, compat: Compat) -> Vec<Value> {
        let mut m = Mapper::new(MapOptions {
            tool_steps,
            compat,
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
        out
    }
}
