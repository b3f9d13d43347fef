//! The report's data: what the page shows, per run. Serialized into the page as JSON (keys in
//! camelCase, as every JSON aguify writes) and drawn by its script ([`super::html`]);
//! deterministic for a given input.

use std::collections::BTreeMap;

use serde::Serialize;

use super::collect::Change;
use super::text::{is_zero, Clipped};
use crate::check::rules::Rule;
use crate::explain::Explanation;
use crate::timeline::Tokens;

/// The whole report.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// `aguify <version>`.
    pub generator: String,
    pub inputs: Vec<String>,
    /// Runs read in all (also those past [`Report::runs`]).
    pub runs_total: usize,
    /// Runs read but left out of the report (past the header limit).
    pub runs_omitted: usize,
    pub bad_lines: u64,
    pub errors: u64,
    pub warnings: u64,
    /// Findings per rule, most first.
    pub rule_counts: Vec<RuleCount>,
    /// The explanation and fix of every rule that fired.
    pub rules: BTreeMap<&'static str, &'static Rule>,
    pub runs: Vec<Run>,
    /// Findings that belong to no run (e.g. about lines before the first run).
    pub loose_findings: Vec<FindingView>,
    /// The bounds the report was cut to (shown in its footer).
    pub limits: Limits,
}

/// The report's bounds.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Limits {
    /// Largest report, in bytes (page and data).
    pub max_bytes: usize,
    /// Runs with a header.
    pub max_runs: usize,
    /// Transcript items per run (the rest folded).
    pub max_items: usize,
    /// Bars per lane row before close bars are merged.
    pub max_row_bars: usize,
    /// State snapshots kept per run.
    pub max_snapshots: usize,
    /// Runs whose detail (lanes, transcript, states) was left out to stay within
    /// `max_bytes`.
    pub runs_without_detail: usize,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RuleCount {
    pub rule: &'static str,
    pub severity: &'static str,
    pub title: &'static str,
    pub count: u64,
}

/// A checker finding, where it is shown.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FindingView {
    pub rule: &'static str,
    pub severity: &'static str,
    pub message: String,
    /// `file:line` of the input line it names.
    pub at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<u64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ids: Vec<String>,
}

/// One run: its header, and (within the size bound) its detail.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Run {
    /// 1-based number in the report.
    pub n: usize,
    pub file: String,
    pub thread: Option<String>,
    pub run: Option<String>,
    /// `file:line` of its first event.
    pub at: String,
    pub outcome: Outcome,
    pub events: u64,
    pub messages: u64,
    pub tool_calls: u64,
    pub reasoning: u64,
    pub tokens: Option<Tokens>,
    pub duration_ms: Option<i64>,
    /// Interrupts this run resumes.
    pub resumes: usize,
    pub errors: u64,
    pub warnings: u64,
    /// `explain`'s diagnosis of a failed run.
    pub diagnosis: Option<Explanation>,
    pub detail: Option<Detail>,
}

/// How a run ended, and where.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    #[serde(flatten)]
    pub how: crate::timeline::Outcome,
    /// `file:line` of the terminal event (or of the run's last line).
    pub at: Option<String>,
}

/// A run's lanes and transcript.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Detail {
    pub axis: Axis,
    pub lanes: Vec<Lane>,
    pub items: Vec<Item>,
    /// State snapshots of the run not kept.
    pub snapshots_dropped: usize,
}

/// The lane view's horizontal axis.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Axis {
    /// `ms` (recorded timestamps, relative to the run's first) or `event` (the AG-UI event
    /// sequence, for logs without timestamps).
    pub unit: &'static str,
    pub end: i64,
}

/// One lane: a kind of work, at one nesting depth, in rows of bars that do not overlap.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Lane {
    pub label: String,
    pub kind: &'static str,
    pub rows: Vec<Vec<Bar>>,
}

/// One bar (or, for `n` > 1, several close bars merged).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Bar {
    /// Start and end on the axis.
    pub s: i64,
    pub e: i64,
    pub kind: &'static str,
    pub label: String,
    /// `file:line` of its first input line, and of its last when different.
    pub at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_at: Option<String>,
    /// More about it (duration, events, ids).
    pub info: String,
    /// Index of its transcript item.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<usize>,
    #[serde(skip_serializing_if = "is_one")]
    pub n: usize,
}

fn is_one(n: &usize) -> bool {
    *n == 1
}

/// One transcript item.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Item {
    /// `user`, `assistant`, `reasoning`, `tool`, `interrupt`, `resume`, `error`, `state`,
    /// `step`, `custom`, `bad`, `other`, `end`, or `fold` (items left out: `count`).
    pub kind: &'static str,
    pub at: String,
    /// Milliseconds since the run's start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ms: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<Clipped>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub args: Option<Clipped>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Clipped>,
    /// A state snapshot's JSON.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<Clipped>,
    /// What changed from the previous snapshot (or a delta's operations).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changes: Option<Vec<Change>>,
    #[serde(skip_serializing_if = "is_zero")]
    pub changes_total: usize,
    /// e.g. `error`, `cut off`, `no result`, `resolved`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dur_ms: Option<i64>,
    /// The run this item links to (an interrupt's resume, a resume's interrupt), by `n`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<usize>,
    #[serde(skip_serializing_if = "is_zero")]
    pub count: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<FindingView>,
}
