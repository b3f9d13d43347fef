//! The timeline: one line per meaningful event of a run, not per token.
//!
//! [`TimelineBuilder`] is a pipeline [`Observer`]: it reads the AG-UI events the pipeline produces
//! (for LangGraph input the mapped events, for AG-UI captures the events themselves, read
//! typed: [`Event::typed`]; one the schema rejects is an "other" line), coalesces
//! text / reasoning / tool-argument deltas into one [`Entry`] per message, reasoning block and
//! tool call, and nests them run → step → content. The raw records only supply the subgraph
//! namespace depth (v2 `langgraph_checkpoint_ns`, v3 `params.namespace`), which AG-UI lacks.
//!
//! Rendering lives in [`render`]; the builder knows nothing of colours or widths.
//! Checker findings are [`TimelineBuilder::attach`]ed and appear under the entry of the event they
//! were raised at.

pub mod render;

use std::collections::HashMap;
use std::io;
use std::sync::Arc;

use serde_json::Value;

use crate::adapter::{Disposition, RecordKind};
use crate::agui::{Event, Role};
use crate::input::{Origin, Record};
use crate::mapper::TOOL_OUTPUT_DELTA;
use crate::pipeline::Observer;
use crate::text::Severity;

/// What an entry is about; each kind has its own colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Run,
    Step,
    Text,
    Reasoning,
    Tool,
    State,
    Custom,
    Interrupt,
    Error,
    /// Other events (RAW, ACTIVITY_*) and run footers' plain parts.
    Other,
}

/// A finding shown inline under the timeline entry of the event it was raised at.
#[derive(Debug, Clone, PartialEq)]
pub struct InlineNote {
    /// 0-based index of the AG-UI event in the pipeline's output (the order [`Observer::event`]
    /// sees them in, across all files of one invocation).
    pub event_index: u64,
    /// The input line the finding names, when it differs from the event's own origin.
    pub origin: Option<Origin>,
    /// Stable rule id, e.g. `AGX101`.
    pub rule: String,
    pub severity: Severity,
    pub message: String,
}

/// How a run ended.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Outcome {
    /// Still running (only seen while following a file).
    #[default]
    Open,
    Success {
        /// Tool calls with no result (`outcome.pendingToolCallIds`).
        pending_tool_calls: Vec<String>,
    },
    /// Stopped at `interrupt()`: `(id, reason)` per interrupt.
    Interrupt(Vec<(String, String)>),
    /// The caller cancelled the run (`outcome: {type: "cancelled"}`): not a failure.
    Cancelled,
    Error {
        code: Option<String>,
        message: String,
    },
    /// The input ended (or a new run began) with no terminal event for this run.
    NoTerminal,
}

impl Outcome {
    /// Ended in an error or with no terminal event.
    pub fn failed(&self) -> bool {
        matches!(self, Outcome::Error { .. } | Outcome::NoTerminal)
    }
}

/// Token usage summed over RUN_FINISHED `usage` entries.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tokens {
    pub input: u64,
    pub output: u64,
    pub total: u64,
}

/// One run's summary: the footer.
#[derive(Debug, Clone, Default)]
pub struct RunSummary {
    pub file: Arc<str>,
    pub run_id: Option<String>,
    pub thread_id: Option<String>,
    pub origin: Origin,
    /// Index of the run's first entry in [`TimelineBuilder::entries`].
    pub first_entry: usize,
    pub first_event: u64,
    pub events: u64,
    pub outcome: Outcome,
    /// Where the terminal event came from.
    pub end_origin: Option<Origin>,
    pub end_event: Option<u64>,
    pub messages: u64,
    pub tool_calls: u64,
    pub reasoning: u64,
    pub tokens: Option<Tokens>,
    pub first_ts: Option<i64>,
    pub last_ts: Option<i64>,
}

impl RunSummary {
    /// Wall time between the run's first and last timestamped events, when it has any.
    pub fn duration_ms(&self) -> Option<i64> {
        Some(self.last_ts? - self.first_ts?)
    }
}

/// One timeline line (plus its inline notes).
#[derive(Debug, Clone)]
pub struct Entry {
    pub kind: Kind,
    pub line: Line,
    /// Nesting level: 0 run, 1 step, 2 content of a step…
    pub depth: usize,
    /// Index of the first AG-UI event that made this entry.
    pub index: u64,
    pub origin: Origin,
    /// Absolute timestamp (ms) of the first event, and the run's first timestamp, when known.
    pub ts: Option<i64>,
    pub run_base_ts: Option<i64>,
    /// Span entries: when they ended.
    pub end_ts: Option<i64>,
    pub end_origin: Option<Origin>,
    pub end_index: Option<u64>,
    /// Events coalesced into this entry.
    pub events: u64,
    /// No more events will change it.
    pub settled: bool,
    pub notes: Vec<InlineNote>,
    /// File of the run this entry belongs to (line references are shown relative to it).
    pub run_file: Arc<str>,
}

impl Entry {
    pub fn duration_ms(&self) -> Option<i64> {
        Some(self.end_ts? - self.ts?)
    }
    pub fn rel_ms(&self) -> Option<i64> {
        Some(self.ts? - self.run_base_ts?)
    }
}

/// The content of an entry, by kind.
#[derive(Debug, Clone)]
pub enum Line {
    RunStart {
        run_id: Option<String>,
        thread_id: Option<String>,
        resumes: usize,
    },
    RunEnd(Box<RunSummary>),
    StepStart {
        name: String,
        /// Set when the step finished.
        finished: bool,
    },
    StepEnd {
        name: String,
        duration_ms: Option<i64>,
        events: u64,
    },
    Text {
        id: String,
        role: String,
        text: String,
        /// The run ended before the message's END.
        cut: bool,
    },
    Reasoning {
        id: String,
        text: String,
        encrypted: usize,
        cut: bool,
    },
    Tool {
        id: String,
        name: String,
        args: String,
        args_done: bool,
        streamed_output: usize,
        result: Option<String>,
        error: bool,
    },
    State {
        what: &'static str,
        detail: String,
    },
    Custom {
        name: String,
        value: String,
    },
    Interrupt {
        id: String,
        reason: String,
        message: Option<String>,
    },
    Error {
        code: Option<String>,
        message: String,
    },
    BadLine {
        message: String,
    },
    Other {
        what: String,
        detail: String,
    },
    /// Only notes (findings about entries already printed).
    Notes,
}

impl Line {
    /// A tool call's entry as it starts.
    fn tool(id: String, name: String, args: String) -> Line {
        Line::Tool {
            id,
            name,
            args,
            args_done: false,
            streamed_output: 0,
            result: None,
            error: false,
        }
    }
}

/// Open spans of the current run, by id.
#[derive(Default)]
struct Open {
    texts: HashMap<String, usize>,
    reasoning: HashMap<String, usize>,
    tools: HashMap<String, usize>,
    /// Step name → entry indices (a name may be open more than once).
    steps: Vec<(String, usize)>,
    /// Entries opened by *_CHUNK events: they need no END.
    chunked: Vec<usize>,
    /// The id of the last chunk of each kind: a chunk without an id continues it.
    last_chunk: HashMap<&'static str, String>,
}

/// Builds the timeline from the pipeline's output. See the module docs.
#[derive(Default)]
pub struct TimelineBuilder {
    entries: Vec<Entry>,
    runs: Vec<RunSummary>,
    run: Option<usize>,
    open: Open,
    index: u64,
    /// Namespace depth of the record being mapped (0 when unknown or root).
    ns_depth: usize,
    rendered: usize,
    bad_lines: u64,
    /// The entry the event being taken in made or went into.
    touched: Option<usize>,
    /// Files whose log records a thread id (AG-UI captures, v2 `metadata.thread_id`): a run
    /// of another file only inherits the thread of the run before it when it resumes it.
    thread_recorded: Vec<Arc<str>>,
    /// The latest event and the entry it made or went into: notes about it find their entry
    /// at once, however many entries (bad lines) came since.
    last_event_entry: Option<(u64, usize)>,
}

/// How far back [`TimelineBuilder::attach`] looks for the entry of an older event.
const ATTACH_SCAN: usize = 256;

/// An event's timestamp (ms), when it has one.
type Ts = Option<i64>;

/// An id a capture may leave out (read as "").
fn given(id: &str) -> Option<String> {
    Some(id.to_string()).filter(|s| !s.is_empty())
}

/// A JSON value as compact text (strings unquoted).
pub fn compact(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

pub use crate::text::{list_of, str_of};

/// The namespace depth a record's events live at: v3 `params.namespace` (or a subgraph
/// lifecycle's `data.namespace`), v2 `metadata.langgraph_checkpoint_ns`, as the typed readers
/// read them. A record with neither event (AG-UI, a stream part, a line no reader takes) is
/// at the root.
pub fn namespace_depth(rec: &Record) -> usize {
    use crate::wire::v3::{Data, Params};
    if let Some(ev) = rec.v3.as_deref() {
        let lifecycle = match &ev.params {
            Params::Object {
                data: Data::Lifecycle(l),
                ..
            } if ev.method == "lifecycle" => l.namespace.as_ref().and_then(Value::as_array),
            _ => None,
        };
        let ns = lifecycle.or_else(|| ev.namespace().and_then(Value::as_array));
        return ns.map_or(0, Vec::len);
    }
    match rec.v2.as_ref().and_then(|e| e.checkpoint_ns.as_deref()) {
        Some(ns) if !ns.is_empty() => ns.split('|').count(),
        _ => 0,
    }
}

impl TimelineBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    pub fn runs(&self) -> &[RunSummary] {
        &self.runs
    }

    /// The entries of run `i`.
    pub fn run_entries(&self, i: usize) -> &[Entry] {
        let len = self.entries.len();
        let start = self.runs.get(i).map_or(0, |r| r.first_entry).min(len);
        let end = self.runs.get(i + 1).map_or(len, |r| r.first_entry);
        &self.entries[start..end.clamp(start, len)]
    }

    pub fn current_run(&self) -> Option<&RunSummary> {
        self.run.and_then(|r| self.runs.get(r))
    }

    pub fn bad_lines(&self) -> u64 {
        self.bad_lines
    }

    /// AG-UI events seen so far.
    pub fn events_seen(&self) -> u64 {
        self.index
    }

    /// Entries that will not change any more and were not handed out yet, in order (for
    /// `--follow`, which prints as it reads). Stops at the first entry still open.
    pub fn take_settled(&mut self) -> &[Entry] {
        let start = self.rendered;
        while self.rendered < self.entries.len() && self.entries[self.rendered].settled {
            self.rendered += 1;
        }
        &self.entries[start..self.rendered]
    }

    /// End of all input: a run still open had no terminal event.
    pub fn finish(&mut self) {
        let origin = self
            .entries
            .last()
            .map(|e| e.end_origin.clone().unwrap_or_else(|| e.origin.clone()));
        if let (Some(_), Some(origin)) = (self.run, origin) {
            self.end_run(Outcome::NoTerminal, None, &origin);
        }
        for e in &mut self.entries {
            e.settled = true;
        }
    }

    fn depth_content(&self) -> usize {
        self.depth_step() + usize::from(self.ns_depth > 0)
    }

    fn depth_step(&self) -> usize {
        if self.ns_depth > 0 {
            self.ns_depth + self.open_subagents()
        } else {
            self.open.steps.len() + 1
        }
    }

    /// Sub-agents open (spans of `open.steps` keyed `subagent <id>`): what they run is
    /// indented under them, beyond its namespace depth.
    fn open_subagents(&self) -> usize {
        let subagent = |(k, _): &&(String, usize)| k.starts_with("subagent ");
        self.open.steps.iter().filter(subagent).count()
    }

    fn push(
        &mut self,
        kind: Kind,
        line: Line,
        depth: usize,
        ts: Ts,
        origin: &Origin,
        settled: bool,
    ) -> usize {
        let (base, file) = match self.run.and_then(|r| self.runs.get_mut(r)) {
            Some(run) => {
                if run.first_ts.is_none() {
                    run.first_ts = ts;
                }
                (run.first_ts, run.file.clone())
            }
            None => (ts, origin.file.clone()),
        };
        self.entries.push(Entry {
            kind,
            line,
            depth,
            index: self.index,
            origin: origin.clone(),
            ts,
            run_base_ts: base,
            end_ts: None,
            end_origin: None,
            end_index: None,
            events: 1,
            settled,
            notes: Vec::new(),
            run_file: file,
        });
        self.touched = Some(self.entries.len() - 1);
        self.entries.len() - 1
    }

    /// Adds an event to an open span entry.
    fn touch(&mut self, idx: usize, ts: Ts, origin: &Origin) {
        let index = self.index;
        self.touched = Some(idx);
        if let Some(e) = self.entries.get_mut(idx) {
            e.events += 1;
            if ts.is_some() {
                e.end_ts = ts;
            }
            e.end_origin = Some(origin.clone());
            e.end_index = Some(index);
        }
    }

    /// Adds an event to an open text, reasoning or tool entry, its delta appended.
    fn append(&mut self, idx: usize, delta: &str, ts: Ts, origin: &Origin) {
        self.touch(idx, ts, origin);
        let line = self.entries.get_mut(idx).map(|e| &mut e.line);
        if let Some(
            Line::Text { text, .. } | Line::Reasoning { text, .. } | Line::Tool { args: text, .. },
        ) = line
        {
            text.push_str(delta);
        }
    }

    fn close(&mut self, idx: usize, ts: Ts, origin: &Origin) {
        self.touch(idx, ts, origin);
        if let Some(e) = self.entries.get_mut(idx) {
            e.settled = true;
        }
    }

    fn start_run(
        &mut self,
        run_id: Option<String>,
        thread_id: Option<String>,
        resumes: usize,
        ts: Ts,
        origin: &Origin,
    ) {
        if self.run.is_some() {
            self.end_run(Outcome::NoTerminal, None, origin);
        }
        self.runs.push(RunSummary {
            file: origin.file.clone(),
            run_id: run_id.clone(),
            thread_id: thread_id.clone(),
            origin: origin.clone(),
            first_entry: self.entries.len(),
            first_event: self.index,
            first_ts: ts,
            last_ts: ts,
            ..RunSummary::default()
        });
        self.run = Some(self.runs.len() - 1);
        self.push(
            Kind::Run,
            Line::RunStart {
                run_id,
                thread_id,
                resumes,
            },
            0,
            ts,
            origin,
            true,
        );
    }

    /// `end`: the terminal event's timestamp, when an event ended the run.
    fn end_run(&mut self, outcome: Outcome, end: Option<Ts>, origin: &Origin) {
        let Some(r) = self.run.take() else { return };
        // Spans the run left open were cut off.
        let open = std::mem::take(&mut self.open);
        let mut idxs: Vec<usize> = open
            .texts
            .values()
            .chain(open.reasoning.values())
            .chain(open.tools.values())
            .copied()
            .chain(open.steps.iter().map(|(_, i)| *i))
            .collect();
        idxs.sort_unstable();
        for i in idxs {
            let chunked = open.chunked.contains(&i);
            if let Some(e) = self.entries.get_mut(i) {
                match &mut e.line {
                    Line::Text { cut, .. } | Line::Reasoning { cut, .. } => *cut = !chunked,
                    _ => {}
                }
                e.settled = true;
            }
        }
        let index = self.index;
        let Some(run) = self.runs.get_mut(r) else {
            return;
        };
        run.outcome = outcome;
        run.end_origin = Some(origin.clone());
        run.end_event = end.map(|_| index);
        if let Some(t) = end.flatten() {
            run.last_ts = Some(t);
            if run.first_ts.is_none() {
                run.first_ts = Some(t);
            }
        }
        let summary = run.clone();
        let (base, file) = (summary.first_ts, summary.file.clone());
        let line = Line::RunEnd(Box::new(summary));
        let i = self.push(Kind::Run, line, 0, end.flatten(), origin, true);
        let e = &mut self.entries[i];
        (e.run_base_ts, e.run_file, e.events) = (base, file, u64::from(end.is_some()));
    }

    fn on_event(&mut self, ev: &Event, origin: &Origin) {
        let ts = ev.timestamp();
        if !matches!(ev, Event::RunStarted { .. }) {
            if self.run.is_none() {
                self.start_run(None, None, 0, ts, origin);
            }
            self.count(|run| {
                run.events += 1;
                if let Some(ts) = ts {
                    run.last_ts = Some(run.last_ts.map_or(ts, |l| l.max(ts)));
                    run.first_ts.get_or_insert(ts);
                }
            });
        }
        let chunk = match ev {
            Event::TextMessageChunk { message_id, .. } => Some(("text", message_id)),
            Event::ReasoningMessageChunk { message_id, .. } => Some(("reasoning", message_id)),
            Event::ToolCallChunk { tool_call_id, .. } => Some(("tool", tool_call_id)),
            _ => None,
        };
        // A chunk without an id continues the previous chunk of its kind (AG-UI chunk rules).
        let chunk_id = chunk.map(|(kind, id)| {
            let cid = id
                .clone()
                .or_else(|| self.open.last_chunk.get(kind).cloned())
                .unwrap_or_default();
            self.open.last_chunk.insert(kind, cid.clone());
            cid
        });
        let opened_before = self.entries.len();
        let chunked = chunk_id.is_some();
        self.on_event_kind(ev, ts, origin, chunk_id);
        if chunked && self.entries.len() > opened_before {
            self.open.chunked.push(opened_before);
        }
    }

    /// `chunk_id`: a `*_CHUNK` event's id, its own or the one it continues.
    fn on_event_kind(&mut self, ev: &Event, ts: Ts, origin: &Origin, chunk_id: Option<String>) {
        let chunk = || chunk_id.clone().unwrap_or_default();
        match ev {
            Event::RunStarted {
                thread_id,
                run_id,
                input,
                ..
            } => {
                let resumes = input
                    .as_ref()
                    .and_then(|i| i.get("resume"))
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len);
                let mut thread = given(thread_id);
                // Several files are one thread for the mapper; a file that records no thread
                // id and resumes nothing is not shown under the thread of the file before.
                if let Some(prev) = self.runs.last() {
                    if prev.file != origin.file
                        && resumes == 0
                        && prev.thread_id == thread
                        && !self.thread_recorded.contains(&origin.file)
                    {
                        thread = None;
                    }
                }
                self.start_run(given(run_id), thread, resumes, ts, origin);
                self.count(|r| r.events = 1);
            }
            Event::RunFinished { outcome, usage, .. } => {
                let o = self.outcome(outcome, ts, origin);
                if let Some(usage) = usage {
                    let mut t = Tokens::default();
                    for u in usage {
                        t.input += u.input_tokens;
                        t.output += u.output_tokens;
                        t.total += u.total_tokens.unwrap_or(u.input_tokens + u.output_tokens);
                    }
                    self.count(|r| r.tokens = Some(t));
                }
                self.end_run(o, Some(ts), origin);
            }
            Event::RunError { message, code, .. } => {
                let code = code.as_ref().map(|c| c.to_string());
                let line = Line::Error {
                    code: code.clone(),
                    message: message.clone(),
                };
                self.push(Kind::Error, line, 1, ts, origin, true);
                let message = message.clone();
                self.end_run(Outcome::Error { code, message }, Some(ts), origin);
            }
            Event::StepStarted { step_name, .. } => {
                let depth = self.depth_step();
                self.step_start(step_name.clone(), step_name.clone(), depth, ts, origin);
            }
            // A sub-agent is an open span keyed by its id, shown with its name and the tool
            // call it runs under; its steps and items nest in it.
            Event::SubagentStarted {
                subagent_run_id: id,
                name,
                parent_tool_call_id,
                ..
            } => {
                let shown = match parent_tool_call_id {
                    Some(call) => format!("subagent {name} {id} (in tool call {call})"),
                    None => format!("subagent {name} {id}"),
                };
                // A sub-agent is indented under the step running its parent tool call.
                let step = self
                    .open
                    .steps
                    .last()
                    .and_then(|(_, i)| self.entries.get(*i));
                let depth = step.map_or_else(|| self.depth_content(), |e| e.depth + 1);
                self.step_start(format!("subagent {id}"), shown, depth, ts, origin);
            }
            Event::StepFinished { step_name, .. } => {
                self.step_end(ev, step_name, step_name.clone(), ts, origin)
            }
            Event::SubagentFinished {
                subagent_run_id: id,
                outcome,
                ..
            } => {
                let key = format!("subagent {id}");
                let shown = if outcome["type"] == "suspended" {
                    let ids: Vec<&str> = outcome["interruptIds"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .collect();
                    format!("{key} suspended at interrupt {}", ids.join(", "))
                } else {
                    key.clone()
                };
                self.step_end(ev, &key, shown, ts, origin)
            }
            Event::SubagentError {
                subagent_run_id: id,
                message,
                ..
            } => {
                let key = format!("subagent {id}");
                let shown = format!("{key} failed: {message}");
                self.step_end(ev, &key, shown, ts, origin)
            }
            Event::TextMessageStart {
                message_id, role, ..
            } => self.text(message_id.clone(), "", *role, ts, origin),
            Event::TextMessageContent {
                message_id, delta, ..
            } => self.text(message_id.clone(), delta, Role::Assistant, ts, origin),
            Event::TextMessageChunk { role, delta, .. } => {
                let (delta, role) = (delta.as_deref(), role.unwrap_or_default());
                self.text(chunk(), delta.unwrap_or_default(), role, ts, origin)
            }
            Event::TextMessageEnd { message_id, .. } => {
                if let Some(i) = self.open.texts.remove(message_id) {
                    self.close(i, ts, origin);
                }
            }
            Event::ReasoningStart { .. } | Event::ThinkingStart { .. } => {}
            Event::ReasoningMessageStart { message_id, .. } => {
                self.reasoning(message_id.clone(), "", ts, origin)
            }
            Event::ReasoningMessageContent {
                message_id, delta, ..
            } => self.reasoning(message_id.clone(), delta, ts, origin),
            Event::ReasoningMessageChunk { delta, .. } => {
                self.reasoning(chunk(), delta.as_deref().unwrap_or_default(), ts, origin)
            }
            Event::ThinkingTextMessageStart { .. } => self.reasoning(String::new(), "", ts, origin),
            Event::ThinkingTextMessageContent { delta, .. } => {
                self.reasoning(String::new(), delta, ts, origin)
            }
            // REASONING_END closes a block whose message never started (no content).
            Event::ReasoningMessageEnd { message_id, .. }
            | Event::ReasoningEnd { message_id, .. } => {
                if let Some(i) = self.open.reasoning.remove(message_id) {
                    self.close(i, ts, origin);
                }
            }
            Event::ThinkingTextMessageEnd { .. } | Event::ThinkingEnd { .. } => {
                if let Some(i) = self.open.reasoning.remove("") {
                    self.close(i, ts, origin);
                }
            }
            Event::ReasoningEncryptedValue { entity_id, .. } => {
                self.encrypted(entity_id.clone(), ts, origin)
            }
            Event::ToolCallStart {
                tool_call_id,
                tool_call_name,
                ..
            } => self.tool(tool_call_id.clone(), "", Some(tool_call_name), ts, origin),
            Event::ToolCallArgs {
                tool_call_id,
                delta,
                ..
            } => self.tool(tool_call_id.clone(), delta, None, ts, origin),
            Event::ToolCallChunk {
                tool_call_name,
                delta,
                ..
            } => {
                let (delta, name) = (delta.as_deref(), tool_call_name.as_deref());
                self.tool(chunk(), delta.unwrap_or_default(), name, ts, origin)
            }
            Event::ToolCallEnd { tool_call_id, .. } => {
                if let Some(i) = self.open.tools.get(tool_call_id).copied() {
                    self.touch(i, ts, origin);
                    if let Some(Line::Tool { args_done, .. }) =
                        self.entries.get_mut(i).map(|e| &mut e.line)
                    {
                        *args_done = true;
                    }
                }
            }
            Event::ToolCallResult {
                tool_call_id,
                content,
                metadata,
                ..
            } => {
                let content = content.text().unwrap_or_default().to_string();
                let is_error = metadata.as_ref().is_some_and(|m| m.status == "error");
                self.tool_result(tool_call_id, content, is_error, ts, origin);
            }
            Event::StateSnapshot { snapshot, .. } => {
                let (tree, msgs) = snapshot.outline();
                let detail = match tree {
                    Value::Object(o) => {
                        let keys: Vec<&str> = o.keys().map(String::as_str).collect();
                        match msgs {
                            Some(n) => format!("keys: {} · messages: {n}", keys.join(", ")),
                            None => format!("keys: {}", keys.join(", ")),
                        }
                    }
                    other => compact(other),
                };
                self.state("state snapshot", detail, ts, origin);
            }
            Event::StateDelta { delta, .. } => {
                let detail = render::count(delta.len(), "op");
                self.state("state delta", detail, ts, origin);
            }
            Event::MessagesSnapshot { messages, .. } => {
                let detail = render::count(messages.len(), "message");
                self.state("messages snapshot", detail, ts, origin);
            }
            Event::Custom { name, value, .. } => self.custom(name, &value.to_value(), ts, origin),
            Event::Raw { event, .. } => self.other(ev, compact(event), ts, origin),
            Event::ActivitySnapshot { activity_type, .. }
            | Event::ActivityDelta { activity_type, .. } => {
                self.other(ev, activity_type.clone(), ts, origin)
            }
            // An event the schema rejects, or of no AG-UI type.
            Event::Passthrough(v) => {
                let detail = str_of(v, "activityType").or_else(|| str_of(v, "messageId"));
                self.other(ev, detail.unwrap_or_default(), ts, origin)
            }
        }
    }

    /// A `RUN_FINISHED`'s outcome; an interrupt's each get a line.
    fn outcome(&mut self, outcome: &Value, ts: Ts, origin: &Origin) -> Outcome {
        match outcome.get("type").and_then(Value::as_str) {
            Some("interrupt") => {
                let mut ids = Vec::new();
                for i in list_of(outcome, "interrupts") {
                    let id = str_of(i, "id").unwrap_or_default();
                    let reason = str_of(i, "reason").unwrap_or_default();
                    ids.push((id.clone(), reason.clone()));
                    let message = str_of(i, "message");
                    let line = Line::Interrupt {
                        id,
                        reason,
                        message,
                    };
                    self.push(Kind::Interrupt, line, 1, ts, origin, true);
                }
                Outcome::Interrupt(ids)
            }
            Some("cancelled") => Outcome::Cancelled,
            _ => Outcome::Success {
                pending_tool_calls: list_of(outcome, "pendingToolCallIds")
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect(),
            },
        }
    }

    /// A step (or a sub-agent) opens: an open span keyed `key`, shown as `shown`.
    fn step_start(&mut self, key: String, shown: String, depth: usize, ts: Ts, origin: &Origin) {
        let line = Line::StepStart {
            name: shown,
            finished: false,
        };
        let i = self.push(Kind::Step, line, depth, ts, origin, true);
        self.open.steps.push((key, i));
    }

    /// `STEP_FINISHED` (or a sub-agent's end) closes the latest open step keyed `name` (a
    /// sub-agent's: `subagent <id>`); its end line is shown as `shown`.
    fn step_end(&mut self, ev: &Event, name: &str, shown: String, ts: Ts, origin: &Origin) {
        let pos = self.open.steps.iter().rposition(|(n, _)| n == name);
        let Some(pos) = pos else {
            let depth = self.depth_step();
            let line = Line::Other {
                what: ev.type_name().to_ascii_lowercase(),
                detail: format!("{name} (never started)"),
            };
            self.push(Kind::Step, line, depth, ts, origin, true);
            return;
        };
        let (_, start) = self.open.steps.remove(pos);
        self.touch(start, ts, origin);
        let (depth, dur, events) = match self.entries.get_mut(start) {
            Some(e) => {
                if let Line::StepStart { finished, .. } = &mut e.line {
                    *finished = true;
                }
                let events = self.index.saturating_sub(e.index) + 1;
                (e.depth, e.duration_ms(), events)
            }
            None => (1, None, 1),
        };
        let line = Line::StepEnd {
            name: shown,
            duration_ms: dur,
            events,
        };
        self.push(Kind::Step, line, depth, ts, origin, true);
    }

    /// A text message's start or content: its entry grows, or is made.
    fn text(&mut self, mid: String, delta: &str, role: Role, ts: Ts, origin: &Origin) {
        if let Some(i) = self.open.texts.get(&mid).copied() {
            return self.append(i, delta, ts, origin);
        }
        let depth = self.depth_content();
        let line = Line::Text {
            id: mid.clone(),
            role: role.as_str().to_string(),
            text: delta.to_string(),
            cut: false,
        };
        let i = self.push(Kind::Text, line, depth, ts, origin, false);
        self.open.texts.insert(mid, i);
        self.count(|r| r.messages += 1);
    }

    /// A reasoning message's start or content.
    fn reasoning(&mut self, mid: String, delta: &str, ts: Ts, origin: &Origin) {
        if let Some(i) = self.open.reasoning.get(&mid).copied() {
            return self.append(i, delta, ts, origin);
        }
        let depth = self.depth_content();
        let line = Line::Reasoning {
            id: mid.clone(),
            text: delta.to_string(),
            encrypted: 0,
            cut: false,
        };
        let i = self.push(Kind::Reasoning, line, depth, ts, origin, false);
        self.open.reasoning.insert(mid, i);
        self.count(|r| r.reasoning += 1);
    }

    /// An encrypted value counts on its reasoning block (a line of its own when that block
    /// is printed already), or is a block of its own.
    fn encrypted(&mut self, eid: String, ts: Ts, origin: &Origin) {
        let found = self
            .entries
            .iter()
            .rposition(|e| matches!(&e.line, Line::Reasoning { id, .. } if *id == eid));
        let Some(i) = found else {
            let depth = self.depth_content();
            let line = Line::Reasoning {
                id: eid,
                text: String::new(),
                encrypted: 1,
                cut: false,
            };
            self.push(Kind::Reasoning, line, depth, ts, origin, true);
            self.count(|r| r.reasoning += 1);
            return;
        };
        if let Some(Line::Reasoning { encrypted, .. }) =
            self.entries.get_mut(i).map(|e| &mut e.line)
        {
            *encrypted += 1;
        }
        let depth = self.entries.get(i).map_or(2, |e| e.depth);
        if self.entries.get(i).is_some_and(|e| e.settled) {
            let line = Line::Other {
                what: "encrypted reasoning".into(),
                detail: eid,
            };
            self.push(Kind::Reasoning, line, depth, ts, origin, true);
        }
    }

    /// A tool call's start or arguments; `name` is known from a start (or a chunk).
    fn tool(&mut self, cid: String, delta: &str, name: Option<&str>, ts: Ts, origin: &Origin) {
        if let Some(i) = self.open.tools.get(&cid).copied() {
            return self.append(i, delta, ts, origin);
        }
        let depth = self.depth_content();
        let line = Line::tool(
            cid.clone(),
            name.unwrap_or("?").to_string(),
            delta.to_string(),
        );
        let i = self.push(Kind::Tool, line, depth, ts, origin, false);
        self.open.tools.insert(cid, i);
        self.count(|r| r.tool_calls += 1);
    }

    fn tool_result(&mut self, cid: &str, content: String, is_error: bool, ts: Ts, origin: &Origin) {
        let i = match self.open.tools.remove(cid) {
            Some(i) => i,
            None => {
                let depth = self.depth_content();
                // A call announced in an earlier run (resumed after an interrupt).
                let name = self
                    .entries
                    .iter()
                    .rev()
                    .find_map(|e| match &e.line {
                        Line::Tool { id, name, .. } if id == cid => Some(name.clone()),
                        _ => None,
                    })
                    .unwrap_or_else(|| "?".into());
                let line = Line::tool(cid.to_string(), name, String::new());
                self.push(Kind::Tool, line, depth, ts, origin, false)
            }
        };
        self.close(i, ts, origin);
        if let Some(Line::Tool {
            result,
            error,
            args_done,
            ..
        }) = self.entries.get_mut(i).map(|e| &mut e.line)
        {
            *result = Some(content);
            *error = is_error;
            *args_done = true;
        }
    }

    fn state(&mut self, what: &'static str, detail: String, ts: Ts, origin: &Origin) {
        let depth = self.depth_content();
        let line = Line::State { what, detail };
        self.push(Kind::State, line, depth, ts, origin, true);
    }

    /// A `CUSTOM` event; a tool's streamed output counts on its call.
    fn custom(&mut self, name: &str, value: &Value, ts: Ts, origin: &Origin) {
        if name == TOOL_OUTPUT_DELTA {
            let cid = value
                .get("toolCallId")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let n = value
                .get("delta")
                .and_then(Value::as_str)
                .map_or(0, |d| d.chars().count());
            if let Some(i) = self.open.tools.get(cid).copied() {
                self.touch(i, ts, origin);
                if let Some(Line::Tool {
                    streamed_output, ..
                }) = self.entries.get_mut(i).map(|e| &mut e.line)
                {
                    *streamed_output += n;
                }
                return;
            }
        }
        let depth = self.depth_content();
        let line = Line::Custom {
            name: name.to_string(),
            value: compact(value),
        };
        self.push(Kind::Custom, line, depth, ts, origin, true);
    }

    fn other(&mut self, ev: &Event, detail: String, ts: Ts, origin: &Origin) {
        let depth = self.depth_content();
        let line = Line::Other {
            what: ev.type_name().to_ascii_lowercase(),
            detail,
        };
        self.push(Kind::Other, line, depth, ts, origin, true);
    }

    fn count(&mut self, f: impl FnOnce(&mut RunSummary)) {
        if let Some(run) = self.run.and_then(|r| self.runs.get_mut(r)) {
            f(run);
        }
    }
}

impl TimelineBuilder {
    /// Attaches findings (of a checker driven alongside the builder): each goes to the entry of
    /// its event index, or, when that entry is gone or the note has no event, to the newest
    /// entry. Call it right after the event it is about.
    pub fn attach(&mut self, notes: Vec<InlineNote>) {
        for n in notes {
            let target = self
                .entry_of_event(n.event_index)
                .or(self.entries.len().checked_sub(1))
                .filter(|t| *t >= self.rendered);
            match target.and_then(|t| self.entries.get_mut(t)) {
                Some(e) => e.notes.push(n),
                None => {
                    // Its entry is printed already (`--follow`, end-of-stream findings): the
                    // note gets a line of its own.
                    let origin = n.origin.clone().unwrap_or_else(|| Origin {
                        file: Arc::from("-"),
                        line: 0,
                    });
                    let idx = self.push(Kind::Other, Line::Notes, 0, None, &origin, true);
                    if let Some(e) = self.entries.get_mut(idx) {
                        e.notes.push(n);
                    }
                }
            }
        }
    }
}

impl TimelineBuilder {
    /// The entry event `i` made or went into: known at once for the latest event; an older
    /// one is looked for among the last [`ATTACH_SCAN`] entries (linear time however many
    /// entries there are).
    fn entry_of_event(&self, i: u64) -> Option<usize> {
        if let Some((ev, at)) = self.last_event_entry {
            if ev == i {
                return Some(at);
            }
        }
        let from = self.entries.len().saturating_sub(ATTACH_SCAN);
        self.entries[from..]
            .iter()
            .rposition(|e| e.index == i || e.end_index == Some(i))
            .map(|t| t + from)
    }

    /// An AG-UI event (a capture's is read typed where it is valid).
    pub fn take_event(&mut self, ev: &Event, origin: &Origin) {
        let before = self.entries.len();
        self.touched = None;
        self.on_event(&ev.typed(), origin);
        // The newest entry the event reached: the last one it made, or the one it went into.
        let reached = if self.entries.len() > before {
            Some(self.entries.len() - 1)
        } else {
            self.touched
        };
        if let Some(t) = reached {
            self.last_event_entry = Some((self.index, t));
        }
        self.index += 1;
    }
}

impl Observer for TimelineBuilder {
    fn record(&mut self, rec: &Record, _disposition: &Disposition) {
        let kind = crate::adapter::classify(rec);
        // An error line's events (the run's terminal) are never nested.
        self.ns_depth = match kind {
            RecordKind::ErrorLine(_) => 0,
            _ => namespace_depth(rec),
        };
        let recorded = match kind {
            RecordKind::Agui => true,
            RecordKind::V2 => rec.v2.as_ref().is_some_and(|e| e.thread_id.is_some()),
            _ => false,
        };
        if recorded && !self.thread_recorded.contains(&rec.origin.file) {
            self.thread_recorded.push(rec.origin.file.clone());
        }
    }

    fn bad_line(&mut self, origin: &Origin, message: &str) {
        self.bad_lines += 1;
        let depth = if self.run.is_some() {
            self.depth_content()
        } else {
            0
        };
        let line = Line::BadLine {
            message: message.to_string(),
        };
        self.push(Kind::Error, line, depth, None, origin, true);
    }

    fn event(&mut self, ev: &Event, origin: &Origin) -> io::Result<()> {
        self.take_event(ev, origin);
        Ok(())
    }

    fn end_of_file(&mut self, _file: &str) -> io::Result<()> {
        // AG-UI captures are not framed by the mapper: a capture that stops inside a run
        // leaves it open; the next file's RUN_STARTED (or `finish`) closes it as cut off.
        self.ns_depth = 0;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::render::{RenderOptions, Renderer};
    use super::*;
    use crate::pipeline::{self, Input, Options};

    const CAPTURE: &str = concat!(
        "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n",
        "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}\n",
        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"Hi\"}\n",
        "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}\n",
        "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n",
    );

    #[test]
    fn deltas_coalesce_and_notes_attach_to_their_entry() {
        let note = |i: u64, rule: &str| InlineNote {
            event_index: i,
            origin: None,
            rule: rule.into(),
            severity: Severity::Warning,
            message: format!("finding {rule}"),
        };
        let mut b = TimelineBuilder::new();
        for (i, line) in CAPTURE.lines().enumerate() {
            let ev = Event::Passthrough(serde_json::from_str(line).expect("JSON"));
            let file = Arc::from("cap.ndjson");
            b.take_event(
                &ev,
                &Origin {
                    file,
                    line: i as u64 + 1,
                },
            );
            // Event 2 is the CONTENT delta: its note belongs to the message entry.
            if i == 2 {
                b.attach(vec![note(2, "AGX001")]);
            }
        }
        b.finish();
        // Index 99 is never reached: it goes to the last entry.
        b.attach(vec![note(99, "AGX002")]);
        let texts: Vec<&Entry> = b
            .entries()
            .iter()
            .filter(|e| e.kind == Kind::Text)
            .collect();
        assert_eq!(texts.len(), 1);
        assert_eq!(texts[0].events, 3);
        assert_eq!(texts[0].notes.len(), 1);
        let out = Renderer::new(RenderOptions::default()).render_to_string(b.entries());
        assert!(out.contains("! AGX001 warning: finding AGX001"), "{out}");
        assert!(out.contains("! AGX002 warning"), "{out}");
        assert_eq!(b.runs()[0].messages, 1);
        assert!(matches!(b.runs()[0].outcome, Outcome::Success { .. }));
    }

    #[test]
    fn settled_entries_come_out_in_order_once() {
        let mut b = TimelineBuilder::new();
        let input = Input::from_bytes("cap.ndjson", CAPTURE.as_bytes().to_vec());
        let _ = pipeline::run(vec![input], &Options::default(), &mut b);
        let first = b.take_settled().len();
        assert!(first > 0);
        assert_eq!(b.take_settled().len(), 0);
        b.finish();
        assert_eq!(first + b.take_settled().len(), b.entries().len());
    }
}
