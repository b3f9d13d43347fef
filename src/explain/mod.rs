//! `explain`: for every run that ended in RUN_ERROR or stopped with no terminal event, what went
//! wrong and where.
//!
//! [`Explainer`] is a pipeline [`Observer`] wrapping a [`TimelineBuilder`] (which knows the runs
//! and what was open when they ended). On top of it, it keeps the last raw records (a ring of
//! `-n`), the upstream signals (tool errors, failed tasks and lifecycles, model errors, bad lines)
//! and the model calls still open, and turns each failed run into an [`Explanation`]: the last
//! records before the error and their real types, what was open, the nearest upstream signal,
//! a likely cause and a fix. Rendering: [`render`].

mod diagnose;
mod record;
pub mod render;

use std::collections::{HashMap, VecDeque};
use std::io;

use serde::Serialize;
use serde_json::Value;

use crate::adapter::{self, json_text, RecordKind};
use crate::agui::Event;
use crate::input::{Disposition, Origin, Record};
use crate::mapper::error_code;
use crate::model::{ModelEvent, ToolResult};
use crate::pipeline::Observer;
use crate::text::{count, cut, str_of};
use crate::timeline::render::one_line;
use crate::timeline::{in_events, Entry, Kind, Line, Outcome, RunSummary, TimelineBuilder};
use crate::wire::v3::Data;

use diagnose::{after_finished, carried_by, explain_run, finished_before};
use record::v3_data_tree;
pub use record::{describe_record, V3View};

/// Version of the JSON report's schema (`docs/timeline.md`).
pub const SCHEMA: &str = "aguify-explain/1";

/// One raw input record (or bad line), described by its real type.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RawRecord {
    pub at: Origin,
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
    pub carried_by: Option<Origin>,
    /// The last line of the run's input.
    pub input_ends_at: Option<Origin>,
}

/// Something still open when the run ended.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenSpan {
    /// `step`, `model_call`, `text`, `reasoning` or `tool_call`.
    pub kind: &'static str,
    pub name: Option<String>,
    pub id: Option<String>,
    pub since: Origin,
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
    pub at: Origin,
    #[serde(skip)]
    event_index: u64,
}

/// The last full state the run emitted.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FinalState {
    pub at: Origin,
    /// Messages it holds (`null`: the state has no `messages` list).
    pub messages: Option<usize>,
}

/// Why one run failed.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Explanation {
    /// The index of the run it explains among the timeline's runs.
    #[serde(skip)]
    pub run: usize,
    pub file: std::sync::Arc<str>,
    pub run_id: Option<String>,
    pub thread_id: Option<String>,
    pub started_at: Origin,
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

/// Explains failed runs. See the module docs.
#[derive(Default)]
pub struct Explainer {
    timeline: TimelineBuilder,
    last_n: usize,
    ring: VecDeque<RawRecord>,
    /// The failed runs explained so far, in order.
    explained: Vec<Explanation>,
    /// Runs before this index have ended and were looked at by
    /// [`Explainer::explain_ended_runs`] (a run's outcome does not change once it ended).
    runs_looked_at: usize,
    signals: Vec<Signal>,
    model_calls: HashMap<String, ModelCall>,
    records: u64,
}

/// Bad-line signals kept in a row (the most recent): memory stays bounded on millions of bad
/// lines (the timeline keeps a bounded number of them too).
const BAD_SIGNALS_IN_A_ROW: usize = 16;

impl Explainer {
    /// `last_n`: how many raw records before the error to show (`-n`).
    pub fn new(last_n: usize) -> Self {
        Explainer {
            last_n,
            timeline: TimelineBuilder::new(),
            ..Explainer::default()
        }
    }

    pub fn timeline(&self) -> &TimelineBuilder {
        &self.timeline
    }

    /// How many of the timeline's runs have ended (the first ones: all but the one open).
    pub fn runs_ended(&self) -> usize {
        self.runs_looked_at
    }

    fn push_raw(&mut self, at: Origin, summary: String, disposition: String) {
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

    /// Explains a run that just ended badly, while the records before its error and the model
    /// calls still open are at hand. Each run is looked at once, after it ended (after every
    /// event: when none ended, the loop stops at once).
    fn explain_ended_runs(&mut self) {
        let runs = self.timeline.runs();
        // The runs that ended (all but one open) and were not looked at yet.
        let ended = runs.len() - usize::from(self.timeline.current_run().is_some());
        let new = runs.iter().enumerate().skip(self.runs_looked_at);
        self.runs_looked_at = ended;
        for (i, run) in new.filter(|(i, run)| *i < ended && run.outcome.failed()) {
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
            recs.drain(..recs.len().saturating_sub(self.last_n));
            let moment = run.last_ts;
            let mut calls: Vec<&ModelCall> = self.model_calls.values().collect();
            calls.sort_by_key(|c| c.record_no);
            let open = calls
                .into_iter()
                .map(|c| OpenSpan {
                    kind: "model_call",
                    name: Some(c.name.clone()),
                    id: None,
                    since: c.origin.clone(),
                    open_ms: moment.zip(c.ts).map(|(m, t)| m - t),
                    open_events: self.records.saturating_sub(c.record_no),
                    state: "no end: the model call never finished".into(),
                })
                .collect();
            let entries = self.timeline.run_entries(i);
            let mut x = explain_run(i, run, entries, recs, open, &self.signals);
            if let Some(prev) = finished_before(runs, i) {
                after_finished(&mut x, prev);
            }
            self.explained.push(x);
            self.model_calls.clear();
        }
    }

    /// All input read: the report, and the finished timeline it was built on.
    pub fn finish(mut self) -> (Report, TimelineBuilder) {
        self.timeline.finish();
        self.explain_ended_runs();
        let runs = self.timeline.runs();
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
            bad_lines: self.timeline.bad_lines(),
            explained: self.explained,
            cancelled,
        };
        (report, self.timeline)
    }

    fn signal(&mut self, kind: &'static str, message: String, at: &Origin) {
        self.signals.push(Signal {
            kind,
            message,
            at: at.clone(),
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
    fn scan(&mut self, rec: &Record, kind: &RecordKind) {
        let mut signal = |kind, message| self.signal(kind, message, &rec.origin);
        match kind {
            RecordKind::ErrorLine(e) => {
                if let Some(n) = &e.name {
                    signal("error_line", n.clone());
                }
            }
            RecordKind::V3 => {
                let v3 = V3View::of(rec);
                let ns = v3.parts().collect::<Vec<_>>().join("|");
                match (v3.method, v3.event().unwrap_or_default(), v3.data) {
                    ("tasks", _, Some(Data::Tasks(t)))
                        if t.error.0.as_ref().is_some_and(|e| !e.is_null()) =>
                    {
                        let err = t.error.0.as_ref().unwrap_or(&Value::Null);
                        let msg = str_of(err, "message").unwrap_or_else(|| json_text(err));
                        let name = t.name.0.as_deref().unwrap_or("?");
                        signal("task_error", format!("task `{name}` failed: {msg}"));
                    }
                    // The root's failure is the error itself, not a sign before it.
                    ("lifecycle", "failed", Some(Data::Lifecycle(l)))
                        if !ns.is_empty() || l.namespace.0.is_some() =>
                    {
                        let g = l.graph_name.as_ref().and_then(Value::as_str).unwrap_or("?");
                        let err = l.error.0.as_ref().map(|e| format!(": {}", json_text(e)));
                        let err = err.unwrap_or_default();
                        signal("lifecycle_failed", format!("node `{g}` failed{err}"));
                    }
                    ("messages", "error", Some(Data::Message(m))) => {
                        let m = match m.message.0.as_ref().and_then(Value::as_str) {
                            Some(text) => text.to_string(),
                            // The typed read keeps no whole payload: one without a text is
                            // shown whole, from the tree.
                            None => json_text(v3_data_tree(rec)),
                        };
                        signal("model_error", format!("model stream error: {m}"));
                    }
                    ("messages", "message-start", _) => {
                        let name = v3.node.map_or("model".into(), |n| format!("model in {n}"));
                        // The timestamp as the events get it: one a client can hold.
                        let ts = rec.v3.as_ref().and_then(|ev| ev.timestamp().ok().flatten());
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
        // Classified once for what explain reads of it.
        let kind = adapter::classify(rec);
        self.scan(rec, &kind);
        let disposition = match disposition {
            Disposition::Mapped => "mapped".into(),
            Disposition::Ignored(why) => format!("ignored: {why}"),
            Disposition::Bad(msg) => format!("bad: {msg}"),
        };
        self.push_raw(rec.origin.clone(), describe_record(rec, &kind), disposition);
    }

    fn bad_line(&mut self, origin: &Origin, message: &crate::error::BadLine) {
        self.timeline.bad_line(origin, message);
        let at = origin.clone();
        // A bad record is also reported through `record` (with its disposition); a bad frame
        // only here.
        if self.ring.back().is_none_or(|r| r.at != at) {
            self.records += 1;
            self.push_raw(at, "unreadable line".into(), format!("bad: {message}"));
        }
        if message.reason == crate::error::Reason::NotJson {
            // Of many bad lines in a row, the most recent are kept.
            let row = self.signals.len().checked_sub(BAD_SIGNALS_IN_A_ROW);
            let all_bad = |&k: &usize| self.signals[k..].iter().all(|s| s.kind == "bad_line");
            if let Some(k) = row.filter(all_bad) {
                self.signals.remove(k);
            }
            self.signal("bad_line", message.to_string(), origin);
        }
    }

    fn model(&mut self, ev: &ModelEvent, origin: &Origin) {
        if let ModelEvent::ToolEnd(ToolResult {
            tool_call_id,
            name,
            content,
            error: true,
            ..
        }) = ev
        {
            let text = content.clone().into_text();
            let text = cut(&one_line(&text), 160);
            // A record that does not name the tool: the name of its call.
            let call = self.timeline.tool_name(tool_call_id).filter(|n| *n != "?");
            let name = name.as_deref().or(call).unwrap_or("?");
            let message = format!("tool `{name}` ({tool_call_id}) failed: {text}");
            self.signal("tool_error", message, origin);
        }
    }

    fn event(&mut self, ev: &Event, origin: &Origin) -> io::Result<()> {
        // A new RUN_STARTED ends a run left open: explained before the ring moves on.
        self.timeline.take_event(&ev.typed(), origin);
        self.explain_ended_runs();
        Ok(())
    }

    fn end_of_file(&mut self, file: &str) -> io::Result<()> {
        self.timeline.end_of_file(file)
    }
}
