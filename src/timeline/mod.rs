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

mod builder;
mod events;
pub mod render;

pub(crate) use events::piece;

use std::collections::HashMap;
use std::io;
use std::sync::Arc;

use serde_json::Value;

use crate::adapter::{json_text, RecordKind};
use crate::agui::{Event, Role};
use crate::check::Finding;
use crate::input::{Disposition, Origin, Record};
use crate::mapper::TOOL_OUTPUT_DELTA;
use crate::pipeline::Observer;

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

/// How a run ended; written as the report's data has it (`{"kind": "error", "code": …}`).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum Outcome {
    Success {
        /// Tool calls with no result (`outcome.pendingToolCallIds`).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        pending_tool_calls: Vec<String>,
    },
    /// Stopped at `interrupt()`: `(id, reason)` per interrupt.
    Interrupt {
        #[serde(skip_serializing_if = "Vec::is_empty")]
        interrupts: Vec<(String, String)>,
    },
    /// The caller cancelled the run (`outcome: {type: "cancelled"}`): not a failure.
    Cancelled,
    Error {
        #[serde(skip_serializing_if = "Option::is_none")]
        code: Option<String>,
        message: String,
    },
    /// The input ended (or a new run began) with no terminal event for this run; a run's
    /// outcome until it ends.
    #[default]
    NoTerminal,
}

impl Outcome {
    /// Ended in an error or with no terminal event.
    pub fn failed(&self) -> bool {
        matches!(self, Outcome::Error { .. } | Outcome::NoTerminal)
    }

    /// Its `kind` in the report: `success`, `interrupt`, `error`, `no_terminal`…
    pub fn kind(&self) -> &'static str {
        match self {
            Outcome::Success { .. } => "success",
            Outcome::Interrupt { .. } => "interrupt",
            Outcome::Cancelled => "cancelled",
            Outcome::Error { .. } => "error",
            Outcome::NoTerminal => "no_terminal",
        }
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
    pub run_id: Option<String>,
    pub thread_id: Option<String>,
    /// The `resume` entries of its RUN_STARTED's input, as the event has them.
    pub resumes: Vec<Value>,
    /// Where the run starts (its file is the run's file).
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
    /// Checker findings shown under it ([`TimelineBuilder::attach`]).
    pub notes: Vec<Finding>,
    /// File of the run this entry belongs to (line references are shown relative to it).
    pub run_file: Arc<str>,
}

impl Entry {
    pub fn duration_ms(&self) -> Option<i64> {
        Some(self.end_ts? - self.ts?)
    }
}

/// The content of an entry, by kind.
#[derive(Debug, Clone)]
pub enum Line {
    /// The run as it started (its ids, what it resumes).
    RunStart(Box<RunSummary>),
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
    /// A text message ([`Kind::Text`]) or a reasoning block ([`Kind::Reasoning`], by the
    /// assistant, with its encrypted values).
    Text {
        id: String,
        role: String,
        text: String,
        encrypted: usize,
        /// The run ended before its END.
        cut: bool,
    },
    Tool(ToolCall),
    State {
        what: &'static str,
        detail: String,
        /// A full state's messages (`None`: a delta, or a state with no `messages` list).
        messages: Option<usize>,
    },
    Custom {
        name: String,
        value: String,
    },
    Interrupt {
        id: String,
        reason: String,
        message: Option<String>,
        /// The interrupt as RUN_FINISHED's outcome has it.
        value: Value,
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

/// A tool call's entry: its arguments as they streamed, its streamed output and its result.
#[derive(Debug, Clone, Default)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub args: String,
    pub args_done: bool,
    pub streamed_output: usize,
    pub result: Option<String>,
    pub error: bool,
}

/// Open spans of the current run, by id.
#[derive(Default)]
struct Open {
    /// Text, reasoning and tool call entries, by kind and id.
    spans: HashMap<(Kind, String), usize>,
    /// Step name → entry indices (a name may be open more than once).
    steps: Vec<(String, usize)>,
    /// Entries opened by *_CHUNK events: they need no END.
    chunked: Vec<usize>,
    /// The id of the last chunk of each kind: a chunk without an id continues it.
    last_chunk: HashMap<Kind, String>,
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
    /// Bad lines read, and how many of them get an entry (the rest are told in one line at the
    /// end: memory stays bounded on millions of bad lines).
    bad_lines: u64,
    bad_shown: u64,
    /// Files whose log records a thread id (AG-UI captures, v2 `metadata.thread_id`): a run
    /// of another file only inherits the thread of the run before it when it resumes it.
    thread_recorded: Vec<Arc<str>>,
}

/// An event's timestamp (ms), when it has one.
type Ts = Option<i64>;

/// The event being taken in: its timestamp and its input line.
#[derive(Clone, Copy)]
struct At<'a> {
    ts: Ts,
    origin: &'a Origin,
}

/// An id a capture may leave out (read as "").
pub(crate) fn given(id: &str) -> Option<String> {
    Some(id.to_string()).filter(|s| !s.is_empty())
}

/// The part of `list` (in event order, by `key`) whose events are in `from..to`: a run's, found
/// by binary search.
pub fn in_events<T>(list: &[T], key: impl Fn(&T) -> u64, from: u64, to: u64) -> &[T] {
    let lo = list.partition_point(|x| key(x) < from);
    let hi = list.partition_point(|x| key(x) < to).max(lo);
    &list[lo..hi]
}

/// The entry event `idx` made or went into: the newest whose events reach it (a message
/// still streaming), else the newest before it (a bad line's entry comes after its event).
pub fn entry_of_event(entries: &[Entry], idx: u64) -> Option<usize> {
    let last = entries.partition_point(|e| e.index <= idx).checked_sub(1)?;
    let reaches = |&i: &usize| idx <= entries[i].end_index.unwrap_or(entries[i].index);
    let mut near = (last.saturating_sub(64)..=last).rev();
    Some(near.find(reaches).unwrap_or(last))
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
            Ok(Params {
                data: Data::Lifecycle(l),
                ..
            }) if ev.method == "lifecycle" => l.namespace.0.as_ref().and_then(Value::as_array),
            _ => None,
        };
        let ns = lifecycle.or_else(|| ev.namespace().and_then(Value::as_array));
        return ns.map_or(0, Vec::len);
    }
    match rec.v2.as_ref().and_then(|e| e.meta.ns.0.as_deref()) {
        Some(ns) if !ns.is_empty() => ns.split('|').count(),
        _ => 0,
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
        let note = |rule: &'static str| Finding {
            rule,
            severity: crate::text::Severity::Warning,
            file: Arc::from("cap.ndjson"),
            line: 0,
            event_index: None,
            event_type: None,
            ids: vec![],
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
                b.attach(2, [note("AGX001")]);
            }
        }
        b.finish();
        // Index 99 is never reached: it goes to the last entry.
        b.attach(99, [note("AGX002")]);
        let texts: Vec<&Entry> = b
            .entries()
            .iter()
            .filter(|e| e.kind == Kind::Text)
            .collect();
        assert_eq!(texts.len(), 1);
        assert_eq!(texts[0].events, 3);
        assert_eq!(texts[0].notes.len(), 1);
        let mut out = Vec::new();
        let mut renderer = Renderer::new(RenderOptions::default());
        renderer.write_all(b.entries(), &mut out).expect("to a Vec");
        let out = String::from_utf8(out).expect("UTF-8");
        assert!(out.contains("! AGX001 warning: finding AGX001"), "{out}");
        assert!(out.contains("! AGX002 warning"), "{out}");
        assert_eq!(b.runs()[0].messages, 1);
        assert!(matches!(b.runs()[0].outcome, Outcome::Success { .. }));
    }

    #[test]
    fn cut_left_keeps_the_end_of_a_path() {
        use super::render::cut_left;
        assert_eq!(cut_left("dir/file.ndjson:12", 10), "…ndjson:12");
        assert_eq!(cut_left("ab漢字", 4), "…字");
        assert_eq!(cut_left("short", 9), "short");
        assert_eq!(cut_left("short", 0), "");
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
