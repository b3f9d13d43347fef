//! `explain`: for every run that ended in RUN_ERROR or stopped with no terminal event, what went
//! wrong and where.
//!
//! [`Explainer`] is a pipeline [`Observer`] wrapping a [`TimelineBuilder`] (which knows the runs
//! and what was open when they ended). On top of it, it keeps the last raw records (a ring of
//! `-n`), the upstream signals (tool errors, failed tasks and lifecycles, model errors, bad lines)
//! and the model calls still open, and turns each failed run into an [`Explanation`]: the last
//! records before the error and their real types, what was open, the nearest upstream signal,
//! a likely cause and a fix. Rendering: [`render`].

pub mod render;

use std::collections::{HashMap, VecDeque};
use std::io;

use serde::Serialize;
use serde_json::Value;

use crate::adapter::{self, Disposition, RecordKind};
use crate::agui::Event;
use crate::input::{Origin, Record};
use crate::mapper::error_code;
use crate::model::ModelEvent;
use crate::pipeline::Observer;
use crate::text::str_of;
use crate::timeline::render::{count, cut, one_line};
use crate::timeline::{Entry, Kind, Line, Outcome, RunSummary, TimelineBuilder};
use crate::wire::v3::{Data, Params};

/// Version of the JSON report's schema (`docs/timeline.md`).
pub const SCHEMA: &str = "aguify-explain/1";

/// A place in the input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Loc {
    pub file: String,
    pub line: u64,
}

impl From<&Origin> for Loc {
    fn from(o: &Origin) -> Self {
        Loc {
            file: o.file.to_string(),
            line: o.line,
        }
    }
}

impl std::fmt::Display for Loc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// One raw input record (or bad line), described by its real type.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RawRecord {
    pub at: Loc,
    /// What the record is: `v2 on_chat_model_stream ChatOpenAI data{chunk}`, `v3 tools
    /// tool-started`, `error line ValueError`…
    pub summary: String,
    /// What the converter did with it: `mapped`, `ignored: <reason>`, `bad: <message>`.
    pub disposition: String,
    #[serde(skip)]
    event_index: u64,
}

/// The error of a failed run.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorPart {
    pub message: String,
    /// The converter's RUN_ERROR code class (`mapper::error_code`).
    pub code: String,
    /// Exception class, when the log names it.
    pub name: Option<String>,
    /// The input line that carried the error; `null` when nothing did (the input just stops).
    pub carried_by: Option<Loc>,
    /// The last line of the run's input.
    pub input_ends_at: Option<Loc>,
}

/// Something still open when the run ended.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenSpan {
    /// `step`, `model_call`, `text`, `reasoning` or `tool_call`.
    pub kind: &'static str,
    pub name: Option<String>,
    pub id: Option<String>,
    pub since: Loc,
    /// Milliseconds it had been open, when the log has timestamps.
    pub open_ms: Option<i64>,
    /// AG-UI events (or raw records, for model calls) between its start and the error.
    pub open_events: u64,
    /// e.g. `executing, no result`, `cut off after 42 chars`.
    pub state: String,
}

/// An upstream sign of trouble before the error.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Signal {
    /// `tool_error`, `task_error`, `lifecycle_failed`, `model_error`, `truncated_message`,
    /// `bad_line`.
    pub kind: &'static str,
    pub message: String,
    pub at: Loc,
    #[serde(skip)]
    event_index: u64,
}

/// The last full state the run emitted.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FinalState {
    pub at: Loc,
    /// Messages it holds (`null`: the state has no `messages` list).
    pub messages: Option<usize>,
}

/// Why one run failed.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Explanation {
    pub file: String,
    pub run_id: Option<String>,
    pub thread_id: Option<String>,
    pub started_at: Loc,
    /// `run_error` (a RUN_ERROR the input carried) or `no_terminal` (the stream stopped).
    pub ending: &'static str,
    pub error: ErrorPart,
    /// The last raw records before the error (oldest first), at most `-n`.
    pub last_records: Vec<RawRecord>,
    pub open: Vec<OpenSpan>,
    /// Every upstream signal in the run, oldest first.
    pub signals: Vec<Signal>,
    /// The signal closest before the error, if any.
    pub nearest_signal: Option<Signal>,
    pub final_state: Option<FinalState>,
    pub cause: String,
    pub hint: String,
}

/// The `--format json` object.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// The document's schema id ([`SCHEMA`]), as `check --format json` has it.
    pub schema: &'static str,
    /// Runs read in all.
    pub runs: usize,
    pub bad_lines: u64,
    pub explained: Vec<Explanation>,
    /// Runs the caller cancelled: not failures, so not explained, but named.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cancelled: Vec<CancelledRun>,
}

/// A run that ended with `outcome: {type: "cancelled"}`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CancelledRun {
    pub run_id: Option<String>,
    /// Events the run had, its RUN_FINISHED included.
    pub events: u64,
}

#[derive(Debug, Clone)]
struct ModelCall {
    name: String,
    origin: Origin,
    ts: Option<i64>,
    record_no: u64,
}

#[derive(Debug, Clone)]
struct StateSeen {
    origin: Origin,
    messages: Option<usize>,
    event_index: u64,
}

/// Explains failed runs. See the module docs.
#[derive(Default)]
pub struct Explainer {
    timeline: TimelineBuilder,
    last_n: usize,
    ring: VecDeque<RawRecord>,
    /// Ring snapshots taken when a run ended badly, by run index.
    snapshots: HashMap<usize, (Vec<RawRecord>, Vec<OpenSpan>)>,
    /// Runs before this index have ended and were looked at by
    /// [`Explainer::snapshot_ended_runs`] (a run's outcome does not change once it ended).
    runs_looked_at: usize,
    signals: Vec<Signal>,
    states: Vec<StateSeen>,
    model_calls: HashMap<String, ModelCall>,
    records: u64,
    /// Bad lines read (the timeline is given the first [`BAD_LINES_KEPT`] only).
    bad_lines: u64,
}

/// Bad lines the explainer's timeline takes in, and bad-line signals kept in a row (the most
/// recent): memory stays bounded on millions of bad lines.
const BAD_LINES_KEPT: u64 = 100;
const BAD_SIGNALS_IN_A_ROW: usize = 16;

impl Explainer {
    /// `last_n`: how many raw records before the error to show (`-n`).
    pub fn new(last_n: usize) -> Self {
        Explainer {
            last_n,
            ..Explainer::default()
        }
    }

    pub fn timeline(&self) -> &TimelineBuilder {
        &self.timeline
    }

    fn push_raw(&mut self, at: Loc, summary: String, disposition: String) {
        self.ring.push_back(RawRecord {
            at,
            summary,
            disposition,
            event_index: self.timeline.events_seen(),
        });
        while self.ring.len() > self.last_n + 1 {
            self.ring.pop_front();
        }
    }

    /// Takes the snapshot of a run that just ended badly: the records before the error and the
    /// model calls still open.
    /// Each run is looked at once, after it ended: linear in the number of runs.
    fn snapshot_ended_runs(&mut self) {
        let runs = self.timeline.runs();
        let open = self.timeline.current_run().map(|_| runs.len() - 1);
        let from = self.runs_looked_at;
        for (i, run) in runs.iter().enumerate().skip(from) {
            if Some(i) == open {
                break;
            }
            self.runs_looked_at = i + 1;
            if self.snapshots.contains_key(&i) || !run.outcome.failed() {
                continue;
            }
            let carried = carried_by(run);
            let next_first = runs.get(i + 1).map_or(u64::MAX, |r| r.first_event);
            let mut recs: Vec<RawRecord> = self
                .ring
                .iter()
                .filter(|r| r.event_index >= run.first_event || r.event_index == 0)
                .filter(|r| r.event_index < next_first || next_first == run.first_event)
                .filter(|r| carried.as_ref().is_none_or(|c| r.at != *c))
                .cloned()
                .collect();
            if recs.len() > self.last_n {
                recs.drain(..recs.len() - self.last_n);
            }
            let moment = run.last_ts;
            let mut calls: Vec<&ModelCall> = self.model_calls.values().collect();
            calls.sort_by_key(|c| c.record_no);
            let open = calls
                .into_iter()
                .map(|c| OpenSpan {
                    kind: "model_call",
                    name: Some(c.name.clone()),
                    id: None,
                    since: Loc::from(&c.origin),
                    open_ms: moment.zip(c.ts).map(|(m, t)| m - t),
                    open_events: self.records.saturating_sub(c.record_no),
                    state: "no end: the model call never finished".into(),
                })
                .collect();
            self.snapshots.insert(i, (recs, open));
            self.model_calls.clear();
        }
    }

    /// All input read: the report.
    pub fn finish(self) -> Report {
        self.finish_with_timeline().0
    }

    /// [`Explainer::finish`], also handing back the finished timeline it was built on.
    pub fn finish_with_timeline(mut self) -> (Report, TimelineBuilder) {
        self.timeline.finish();
        self.snapshot_ended_runs();
        let runs = self.timeline.runs();
        let entries = self.timeline.entries();
        // Tool errors whose record did not name the tool: take the name from the call (the
        // first named call of that id, looked up in one map of the calls).
        let unnamed = |s: &Signal| s.kind == "tool_error" && s.message.contains("`?`");
        if self.signals.iter().any(unnamed) {
            let mut names: HashMap<&str, &str> = HashMap::new();
            for e in entries {
                if let Line::Tool { id, name, .. } = &e.line {
                    if name != "?" {
                        names.entry(id.as_str()).or_insert(name.as_str());
                    }
                }
            }
            for sig in self.signals.iter_mut().filter(|s| unnamed(s)) {
                let Some(call) = sig.message.split(&['(', ')'][..]).nth(1) else {
                    continue;
                };
                if let Some(n) = names.get(call) {
                    sig.message = sig.message.replacen("`?`", &format!("`{n}`"), 1);
                }
            }
        }
        let mut explained = Vec::new();
        for (i, run) in runs.iter().enumerate() {
            if !run.outcome.failed() {
                continue;
            }
            let (recs, model_open) = self.snapshots.get(&i).cloned().unwrap_or_default();
            let mut x = explain_run(
                run,
                self.timeline.run_entries(i),
                recs,
                model_open,
                &self.signals,
                &self.states,
            );
            if let Some(prev) = finished_before(runs, i) {
                after_finished(&mut x, prev);
            }
            explained.push(x);
        }
        let cancelled = runs
            .iter()
            .filter(|r| matches!(r.outcome, Outcome::Cancelled))
            .map(|r| CancelledRun {
                run_id: r.run_id.clone(),
                events: r.events,
            })
            .collect();
        let report = Report {
            schema: SCHEMA,
            runs: runs.len(),
            bad_lines: self.bad_lines,
            explained,
            cancelled,
        };
        (report, self.timeline)
    }
}

/// The run that had finished right before run `i`, when run `i` is nothing but a RUN_ERROR
/// (the timeline opens a run of its own for a terminal that comes after the run ended).
fn finished_before(runs: &[RunSummary], i: usize) -> Option<&RunSummary> {
    let run = &runs[i];
    let prev = runs.get(i.checked_sub(1)?)?;
    let lone_error = matches!(run.outcome, Outcome::Error { .. })
        && run.events <= 1
        && run
            .run_id
            .as_ref()
            .is_none_or(|r| Some(r) == prev.run_id.as_ref());
    let finished = matches!(
        prev.outcome,
        Outcome::Success { .. } | Outcome::Interrupt(_)
    );
    (lone_error && finished).then_some(prev)
}

/// Says of `x` what it is: a RUN_ERROR sent after its run had finished (AGX302).
fn after_finished(x: &mut Explanation, prev: &RunSummary) {
    x.ending = "error_after_finished";
    x.run_id = prev.run_id.clone();
    x.thread_id = x.thread_id.take().or_else(|| prev.thread_id.clone());
    x.started_at = Loc::from(&prev.origin);
    x.last_records.clear();
    x.open.clear();
    let finished_at = prev
        .end_origin
        .as_ref()
        .map_or_else(|| "?".to_string(), |o| o.to_string());
    x.cause = format!(
        "RUN_ERROR after RUN_FINISHED: the run had finished at {finished_at}, then the stream sent \
         RUN_ERROR; a front end shows the finished run as failed (AGX302)."
    );
    x.hint = "Send one terminal event per run: RUN_FINISHED or RUN_ERROR, never both; an error \
              after the run belongs to the next run (RUN_STARTED first)."
        .into();
}

/// The line that carried a run's error: the terminal's origin, unless the mapper made the
/// error up because the input stopped (INCOMPLETE_STREAM) or the run had no terminal at all.
fn carried_by(run: &RunSummary) -> Option<Loc> {
    match &run.outcome {
        Outcome::Error { code, .. } if code.as_deref() != Some(error_code::INCOMPLETE_STREAM) => {
            run.end_origin.as_ref().map(Loc::from)
        }
        _ => None,
    }
}

fn explain_run(
    run: &RunSummary,
    entries: &[Entry],
    last_records: Vec<RawRecord>,
    model_open: Vec<OpenSpan>,
    signals: &[Signal],
    states: &[StateSeen],
) -> Explanation {
    // A run with no terminal ends after its last event.
    let end_event = run.end_event.unwrap_or(run.first_event + run.events);
    let in_run = |idx: u64| idx >= run.first_event && idx <= end_event;
    // Signals and states are kept in event order: the run's own found by binary search, so
    // explaining every run stays linear in their number.
    let signals = in_order_between(signals, |s| s.event_index, run.first_event, end_event);
    let states = in_order_between(states, |s| s.event_index, run.first_event, end_event);
    let (message, code, ending) = match &run.outcome {
        Outcome::Error { code, message } => {
            // A RUN_ERROR without a code (another adapter's) is classed by its message, as
            // the converter classes a log's error: one classifier.
            let code = code.clone().unwrap_or_else(|| {
                let info = crate::model::ErrorInfo {
                    name: None,
                    message: message.clone(),
                    lc_code: None,
                };
                error_code::classify(&info).to_string()
            });
            let ending = if code == error_code::INCOMPLETE_STREAM {
                "no_terminal"
            } else {
                "run_error"
            };
            (message.clone(), code, ending)
        }
        _ => (
            "The stream ended without a terminal event (no RUN_FINISHED or RUN_ERROR)".to_string(),
            error_code::INCOMPLETE_STREAM.to_string(),
            "no_terminal",
        ),
    };
    let err_entry = entries
        .iter()
        .find(|e| matches!(e.line, Line::Error { .. }));
    let name = signals
        .iter()
        .rev()
        .find(|s| in_run(s.event_index) && s.kind == "error_line")
        .map(|s| s.message.clone());
    let carried = carried_by(run);
    let err_origin = run.end_origin.clone();
    let err_index = err_entry.map_or(end_event, |e| e.index);
    let moment = err_entry.and_then(|e| e.ts).or(run.last_ts);

    // What was open: spans the terminal record (or the end of input) had to close.
    let mut open = Vec::new();
    for e in entries {
        if e.index >= err_index && err_entry.is_some() {
            continue;
        }
        let closed_by_end = e.end_origin.is_none() || e.end_origin == err_origin;
        let span = |kind, name: Option<&String>, id: Option<&String>, state: String| OpenSpan {
            kind,
            name: name.cloned(),
            id: id.cloned(),
            since: Loc::from(&e.origin),
            open_ms: moment.zip(e.ts).map(|(m, t)| m - t),
            open_events: err_index.saturating_sub(e.index),
            state,
        };
        open.extend(match &e.line {
            Line::StepStart { name, finished } if !finished || closed_by_end => {
                Some(span("step", Some(name), None, "node running".into()))
            }
            Line::Text { id, text, cut, .. } | Line::Reasoning { id, text, cut, .. }
                if *cut || closed_by_end =>
            {
                let kind = match e.kind {
                    Kind::Text => "text",
                    _ => "reasoning",
                };
                let state = format!("cut off after {} chars", text.chars().count());
                Some(span(kind, None, Some(id), state))
            }
            Line::Tool {
                id,
                name,
                args_done,
                result: None,
                ..
            } => {
                let state = if *args_done {
                    "executing, no result"
                } else {
                    "streaming arguments (no TOOL_CALL_END), no result"
                };
                Some(span("tool_call", Some(name), Some(id), state.into()))
            }
            _ => None,
        });
    }
    open.extend(model_open);

    let mut run_signals: Vec<Signal> = signals
        .iter()
        .filter(|s| in_run(s.event_index) && s.kind != "error_line")
        .filter(|s| carried.as_ref() != Some(&s.at))
        .cloned()
        .collect();
    for o in &open {
        if matches!(o.kind, "text" | "reasoning") {
            run_signals.push(Signal {
                kind: "truncated_message",
                message: format!(
                    "{} message {} {}",
                    o.kind,
                    o.id.as_deref().unwrap_or("?"),
                    o.state
                ),
                at: o.since.clone(),
                event_index: err_index,
            });
        }
    }
    run_signals.sort_by_key(|s| (s.at.file.clone(), s.at.line));
    let nearest = run_signals.last().cloned();
    let final_state = states
        .iter()
        .rev()
        .find(|s| in_run(s.event_index))
        .map(|s| FinalState {
            at: Loc::from(&s.origin),
            messages: s.messages,
        });
    let steps: Vec<&str> = entries
        .iter()
        .filter_map(|e| match &e.line {
            Line::StepStart { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    let (cause, hint) = advice(&code, &message, &steps, &open, nearest.as_ref());
    Explanation {
        file: run.file.to_string(),
        run_id: run.run_id.clone(),
        thread_id: run.thread_id.clone(),
        started_at: Loc::from(&run.origin),
        ending,
        error: ErrorPart {
            message,
            code,
            name,
            carried_by: carried,
            input_ends_at: err_origin.as_ref().map(Loc::from),
        },
        last_records,
        open,
        signals: run_signals,
        nearest_signal: nearest,
        final_state,
        cause,
        hint,
    }
}

/// The run config's key of the recursion limit: LangGraph.js names it `recursionLimit` (and
/// says so in its error), Python `recursion_limit`.
fn recursion_key(message: &str) -> &'static str {
    if message.contains("recursionLimit") {
        "recursionLimit"
    } else {
        "recursion_limit"
    }
}

/// The items of `list` (in order of `key`) whose key is in `from..=to`.
fn in_order_between<T>(list: &[T], key: impl Fn(&T) -> u64, from: u64, to: u64) -> &[T] {
    let lo = list.partition_point(|x| key(x) < from);
    let hi = list.partition_point(|x| key(x) <= to).max(lo);
    &list[lo..hi]
}

/// The two nodes that ran most often, in order of first appearance: the likely loop.
fn loop_nodes<'a>(steps: &[&'a str]) -> Vec<(&'a str, usize)> {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for s in steps {
        match counts.iter_mut().find(|(n, _)| n == s) {
            Some(c) => c.1 += 1,
            None => counts.push((s, 1)),
        }
    }
    let mut top = counts.clone();
    top.sort_by_key(|c| std::cmp::Reverse(c.1));
    top.truncate(2);
    counts.retain(|c| top.contains(c));
    counts
}

/// A plain-language likely cause and a fix hint, per code class.
fn advice(
    code: &str,
    message: &str,
    steps: &[&str],
    open: &[OpenSpan],
    nearest: Option<&Signal>,
) -> (String, String) {
    let open_model = open
        .iter()
        .find(|o| o.kind == "model_call")
        .and_then(|o| o.name.clone());
    let open_tool = open
        .iter()
        .find(|o| o.kind == "tool_call")
        .map(|o| o.name.clone().unwrap_or_default());
    let during = match (&open_tool, &open_model) {
        (Some(t), _) => format!(" while tool `{t}` was executing"),
        (None, Some(m)) => format!(" during a call to model `{m}`"),
        _ => String::new(),
    };
    match code {
        error_code::GRAPH_STEP_LIMIT => {
            let nodes = loop_nodes(steps);
            let loop_text = match nodes.as_slice() {
                [(a, na), (b, nb)] => format!(
                    "find the loop between nodes `{a}` ({}) and `{b}` ({}): the condition that should route to END never holds",
                    count(*na, "run"),
                    count(*nb, "run")
                ),
                [(a, na)] => format!("find why node `{a}` keeps running ({})", count(*na, "run")),
                _ => "find the loop between the graph's nodes".into(),
            };
            (
                "The graph hit its recursion limit: nodes kept routing to each other without reaching END.".into(),
                format!("Raise `{}` in the run config if the work is legitimately long, or {loop_text}.", recursion_key(message)),
            )
        }
        error_code::LLM_RATE_LIMITED => (
            format!("The model provider rejected the request for rate or quota reasons{during} (HTTP 429)."),
            "Retry with backoff (e.g. `max_retries` on the chat model), lower concurrency, or check the account's quota.".into(),
        ),
        error_code::LLM_AUTH_FAILED => (
            format!("The model provider refused the credentials{during} (HTTP 401/403)."),
            "Check the API key the server runs with (environment variable, secret mount) and that it may use this model.".into(),
        ),
        error_code::UPSTREAM_TIMEOUT => (
            format!("A call to an upstream service timed out{during}."),
            "Raise the client timeout of the model or tool, or find why the upstream is slow; a partial answer may already be on screen.".into(),
        ),
        error_code::UPSTREAM_UNREACHABLE => (
            format!("An upstream service could not be reached{during} (connection refused, DNS, network)."),
            "Check the base URL, proxy and network from the server's host; the service may be down.".into(),
        ),
        error_code::INCOMPLETE_STREAM => {
            let what = open
                .iter()
                .find(|o| matches!(o.kind, "text" | "reasoning" | "tool_call" | "model_call"))
                .map(|o| format!(" in the middle of a {} ({})", o.kind.replace('_', " "), o.state))
                .unwrap_or_default();
            (
                format!("The stream just stops{what}: the server died or was killed, the connection dropped, or the recorder lost the tail."),
                "Check the server's logs and exit status around that time; if the recording is at fault, record again with the error line kept.".into(),
            )
        }
        _ => {
            let (cause, hint) = match nearest {
                Some(s) if s.kind == "tool_error" || open_tool.is_some() => (
                    format!("An exception in the graph's code{during}: {} ({}).", s.message, s.at),
                    "Fix the failing tool, or let the tool node turn exceptions into tool messages (e.g. `ToolNode(handle_tool_errors=True)`) so the model can react.".to_string(),
                ),
                Some(s) => (
                    format!("An exception in the graph's code{during}; nearest sign: {} ({}).", s.message, s.at),
                    "Read the error message and the node it came from; catch the exception there or fix its cause.".to_string(),
                ),
                None => (
                    format!("An exception in the graph's code{during}."),
                    "Read the error message and the last records before it; catch the exception in the node that raised or fix its cause.".to_string(),
                ),
            };
            (cause, hint)
        }
    }
}

/// What explain reads of a v3 event, from its typed read: `params.node`, `params.namespace`'s
/// parts, and of `params.data` the `event` and `delta.type` (data read whole: of a list, the
/// first item).
struct V3View<'a> {
    method: &'a str,
    node: Option<&'a str>,
    namespace: Option<&'a [Value]>,
    data: Option<&'a Data>,
}

impl<'a> V3View<'a> {
    /// The view of a record the classifier calls v3 (whose v3 event is always read: a record
    /// without one shows as an event without method or params).
    fn of(rec: &'a Record) -> Self {
        let ev = rec.v3.as_deref();
        let params = ev.and_then(|e| match &e.params {
            Params::Object {
                node,
                namespace,
                data,
                ..
            } => Some((node, namespace, data)),
            _ => None,
        });
        V3View {
            method: ev.map_or("", |e| e.method.as_ref()),
            node: params.and_then(|p| p.0.as_ref()?.as_str()),
            namespace: params.and_then(|p| p.1.as_ref()?.as_array().map(Vec::as_slice)),
            data: params.map(|p| p.2),
        }
    }

    /// The data read whole (of a list, its first item).
    fn whole(&self) -> Option<&'a Value> {
        match self.data? {
            Data::Value(Value::Array(a)) => a.first(),
            Data::Value(v) => Some(v),
            _ => None,
        }
    }

    /// `data.event`.
    fn event(&self) -> Option<&'a str> {
        match self.data? {
            Data::Message(m) => Some(&m.event),
            Data::Lifecycle(l) => l.event.as_ref()?.as_str(),
            _ => self.whole()?.get("event")?.as_str(),
        }
    }

    /// `data.delta.type`.
    fn delta_type(&self) -> Option<&'a str> {
        match self.data? {
            Data::Message(m) => m.delta_type.as_deref(),
            _ => self.whole()?.get("delta")?.get("type")?.as_str(),
        }
    }

    /// The namespace's string parts.
    fn parts(&self) -> impl Iterator<Item = &'a str> {
        self.namespace
            .unwrap_or_default()
            .iter()
            .filter_map(Value::as_str)
    }
}

/// A v3 record's `params.data` from its tree (of a list, the first item).
fn v3_data_tree(rec: &Record) -> &Value {
    let v = rec.value();
    let ev = match v.get("type").and_then(Value::as_str) {
        Some("event") => v,
        _ => v.get("data").unwrap_or(v),
    };
    match ev.pointer("/params/data").unwrap_or(&Value::Null) {
        Value::Array(a) => a.first().unwrap_or(&Value::Null),
        d => d,
    }
}

/// What a raw record is, by its real type.
pub fn describe_record(rec: &Record) -> String {
    match adapter::classify(rec) {
        RecordKind::V3 => {
            let v3 = V3View::of(rec);
            let mut out = format!("v3 {}", v3.method);
            if let Some(ev) = v3.event() {
                out.push(' ');
                out.push_str(ev);
            }
            if let Some(dt) = v3.delta_type() {
                out.push_str(&format!(" ({dt})"));
            }
            let task = match v3.data {
                Some(Data::Tasks { name, .. }) if v3.method == "tasks" => name.as_deref(),
                _ => None,
            };
            if let Some(n) = v3.node.or(task) {
                out.push_str(&format!(" node={n}"));
            }
            if v3.namespace.is_some_and(|a| !a.is_empty()) {
                let parts: Vec<&str> = v3
                    .parts()
                    .map(|p| p.split(':').next().unwrap_or(p))
                    .collect();
                out.push_str(&format!(" ns=[{}]", parts.join("|")));
            }
            out
        }
        RecordKind::V2 => {
            let ev = rec.v2.as_deref();
            let mut out = format!(
                "v2 {} {}",
                ev.map_or("", |e| e.event.as_str()),
                ev.and_then(|e| e.name.as_deref()).unwrap_or_default()
            );
            // The typed reader reads `data` by the event's kind, not its keys or a chunk's
            // class: the outline of `data` is read from the tree.
            let v = adapter::v2_payload(rec);
            if let Some(Value::Object(d)) = v.get("data") {
                let keys: Vec<&str> = d.keys().map(String::as_str).collect();
                out.push_str(&format!(" data{{{}}}", keys.join(",")));
                if let Some(chunk) = d.get("chunk") {
                    let lc_class = chunk
                        .get("id")
                        .and_then(Value::as_array)
                        .and_then(|a| a.last())
                        .and_then(Value::as_str);
                    let ty = lc_class
                        .map(str::to_string)
                        .or_else(|| str_of(chunk, "type"));
                    if let Some(t) = ty {
                        out.push_str(&format!(" chunk: {t}"));
                    }
                }
            }
            if let Some(node) = ev.and_then(|e| e.node()) {
                out.push_str(&format!(" node={node}"));
            }
            out
        }
        RecordKind::ErrorLine(e) => format!(
            "error line {}",
            e.name.unwrap_or_else(|| "(unnamed)".into())
        ),
        RecordKind::RunMetadata { .. } => "stream part metadata".into(),
        RecordKind::Values => "stream part values".into(),
        RecordKind::Custom => "stream part custom".into(),
        RecordKind::MessagesTuple => "stream part messages (messages-tuple)".into(),
        RecordKind::OtherStreamMode(m) => format!("stream part {m}"),
        RecordKind::Agui => format!("AG-UI {}", str_of(rec.value(), "type").unwrap_or_default()),
        RecordKind::Unknown(_) => "unknown record".into(),
    }
}

impl Explainer {
    fn signal(&mut self, kind: &'static str, message: String, at: &Origin) {
        self.signals.push(Signal {
            kind,
            message,
            at: Loc::from(at),
            event_index: self.timeline.events_seen(),
        });
    }

    fn model_call_started(&mut self, key: String, name: String, at: &Origin, ts: Option<i64>) {
        let call = ModelCall {
            name,
            origin: at.clone(),
            ts,
            record_no: self.records,
        };
        self.model_calls.insert(key, call);
    }

    /// Signals and model calls a raw record tells of.
    fn scan(&mut self, rec: &Record) {
        let mut signal = |kind, message| self.signal(kind, message, &rec.origin);
        match adapter::classify(rec) {
            RecordKind::ErrorLine(e) => {
                if let Some(n) = e.name {
                    signal("error_line", n);
                }
            }
            RecordKind::V3 => {
                let v3 = V3View::of(rec);
                let ns = v3.parts().collect::<Vec<_>>().join("|");
                match (v3.method, v3.event().unwrap_or_default(), v3.data) {
                    ("tasks", _, Some(Data::Tasks { name, error, .. }))
                        if error.as_ref().is_some_and(|e| !e.is_null()) =>
                    {
                        let err = error.as_ref().unwrap_or(&Value::Null);
                        let msg =
                            str_of(err, "message").unwrap_or_else(|| crate::timeline::compact(err));
                        let name = name.as_deref().unwrap_or("?");
                        signal("task_error", format!("task `{name}` failed: {msg}"));
                    }
                    // The root's failure is the error itself, not a sign before it.
                    ("lifecycle", "failed", Some(Data::Lifecycle(l)))
                        if !ns.is_empty() || l.namespace.is_some() =>
                    {
                        let g = l.graph_name.as_ref().and_then(Value::as_str).unwrap_or("?");
                        let err = l
                            .error
                            .as_ref()
                            .map(|e| format!(": {}", crate::timeline::compact(e)))
                            .unwrap_or_default();
                        signal("lifecycle_failed", format!("node `{g}` failed{err}"));
                    }
                    ("messages", "error", Some(Data::Message(m))) => {
                        let m = match m.message.as_ref().and_then(Value::as_str) {
                            Some(text) => text.to_string(),
                            // The typed read keeps no whole payload: one without a text is
                            // shown whole, from the tree.
                            None => crate::timeline::compact(v3_data_tree(rec)),
                        };
                        signal("model_error", format!("model stream error: {m}"));
                    }
                    ("messages", "message-start", _) => {
                        let name = v3
                            .node
                            .map(|n| format!("model in {n}"))
                            .unwrap_or_else(|| "model".into());
                        // The timestamp as the events get it: one a client can hold.
                        let ts = crate::pipeline::record_timestamp(rec).ok().flatten();
                        self.model_call_started(format!("v3:{ns}"), name, &rec.origin, ts);
                    }
                    ("messages", "message-finish", _) => {
                        self.model_calls.remove(&format!("v3:{ns}"));
                    }
                    _ => {}
                }
            }
            RecordKind::V2 => {
                let Some(ev) = rec.v2.as_deref() else { return };
                let run_id = ev.run_id.as_deref().unwrap_or_default();
                match ev.event.as_str() {
                    "on_chat_model_start" | "on_llm_start" => {
                        let name = ev.name.clone().unwrap_or_else(|| "model".into());
                        self.model_call_started(format!("v2:{run_id}"), name, &rec.origin, None);
                    }
                    "on_chat_model_end" | "on_llm_end" => {
                        self.model_calls.remove(&format!("v2:{run_id}"));
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

impl Observer for Explainer {
    fn record(&mut self, rec: &Record, disposition: &Disposition) {
        self.timeline.record(rec, disposition);
        self.records += 1;
        self.scan(rec);
        let disposition = match disposition {
            Disposition::Mapped => "mapped".into(),
            Disposition::Ignored(why) => format!("ignored: {why}"),
            Disposition::Bad(msg) => format!("bad: {msg}"),
        };
        self.push_raw(Loc::from(&rec.origin), describe_record(rec), disposition);
    }

    fn bad_line(&mut self, origin: &Origin, message: &str) {
        self.bad_lines += 1;
        if self.bad_lines <= BAD_LINES_KEPT {
            self.timeline.bad_line(origin, message);
        }
        let at = Loc::from(origin);
        // A bad record is also reported through `record` (with its disposition); a bad frame
        // only here.
        if self.ring.back().is_none_or(|r| r.at != at) {
            self.records += 1;
            self.push_raw(at, "unreadable line".into(), format!("bad: {message}"));
        }
        if message.contains("truncated") || message.contains("invalid JSON") {
            // Of many bad lines in a row, the most recent are kept.
            let n = self.signals.len();
            if n >= BAD_SIGNALS_IN_A_ROW
                && self.signals[n - BAD_SIGNALS_IN_A_ROW..]
                    .iter()
                    .all(|s| s.kind == "bad_line")
            {
                self.signals.remove(n - BAD_SIGNALS_IN_A_ROW);
            }
            self.signal("bad_line", message.to_string(), origin);
        }
    }

    fn model(&mut self, ev: &ModelEvent, origin: &Origin) {
        self.timeline.model(ev, origin);
        if let ModelEvent::ToolEnd {
            tool_call_id,
            name,
            content,
            error: true,
            ..
        } = ev
        {
            let text = crate::wire::langchain::tool_content_text(content);
            let text = cut(&one_line(&text), 160);
            let name = name.as_deref().unwrap_or("?");
            let message = format!("tool `{name}` ({tool_call_id}) failed: {text}");
            self.signal("tool_error", message, origin);
        }
    }

    fn event(&mut self, ev: &Event, origin: &Origin) -> io::Result<()> {
        let index = self.timeline.events_seen();
        let ev = ev.typed();
        let messages = match ev.as_ref() {
            Event::StateSnapshot { snapshot, .. } => Some(snapshot.outline().1),
            Event::MessagesSnapshot { messages, .. } => Some(Some(messages.len())),
            _ => None,
        };
        if let Some(messages) = messages {
            self.states.push(StateSeen {
                origin: origin.clone(),
                messages,
                event_index: index,
            });
        }
        let runs_before = self.timeline.runs().len();
        let open_before = self.timeline.current_run().is_some();
        // A new RUN_STARTED ends a run left open: snapshot before the ring moves on.
        self.timeline.take_event(&ev, origin);
        if self.timeline.runs().len() != runs_before
            || open_before != self.timeline.current_run().is_some()
        {
            self.snapshot_ended_runs();
        }
        Ok(())
    }

    fn end_of_file(&mut self, file: &str) -> io::Result<()> {
        self.timeline.end_of_file(file)
    }
}
