//! The report's data built from what the other parts already worked out: the timeline's runs
//! and entries, `explain`'s diagnoses, the checker's findings, plus what
//! [`super::collect`] kept (states, user messages, model calls).

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use super::collect::{Collected, ModelCall, RunStates};
use super::lanes;
use super::model::{Axis, Bar, Detail, FindingView, Item, Limits, Outcome, Report, RuleCount, Run};
use super::text::{clipped, payload, pretty_value, Clipped};
use super::ReportBuilder;
use crate::check::{rules, Checker, Finding, Severity};
use crate::text::{count, cut, str_of};
use crate::timeline::render::{ms, one_line};
use crate::timeline::{self, Entry, Kind, Line, RunSummary, TimelineBuilder, ToolCall};

/// Bytes of run detail (lanes, transcript, states) in a report: runs past it get a header
/// only; failed runs may use [`FAILED_BUDGET`] more.
pub const DETAIL_BUDGET: usize = 5 << 20;
pub const FAILED_BUDGET: usize = 2 << 20;
/// Bytes of message, reasoning and tool payload text per run; past it each is cut to
/// [`FLOOR`] bytes.
const RUN_TEXT_BYTES: usize = 768 << 10;
const FLOOR: usize = 200;
/// Per item: an answer's text, reasoning, tool arguments and results.
const TEXT_BYTES: usize = 16 << 10;
const REASONING_BYTES: usize = 8 << 10;
const TOOL_BYTES: usize = 6 << 10;
/// Findings shown per item (the rest counted in the run's header).
const ITEM_FINDINGS: usize = 20;
/// Bytes of a resume or interrupt payload shown.
const PAYLOAD_BYTES: usize = 4 * 1024;

fn view(f: &Finding) -> FindingView {
    FindingView {
        rule: f.rule,
        severity: f.severity.as_str(),
        message: f.message.clone(),
        at: format!("{}:{}", f.file, f.line),
        event: f.event_index,
        ids: f.ids.clone(),
    }
}

/// The findings by where they are shown: at an entry of a run, or loose (before any run).
#[derive(Default)]
struct Placed<'a> {
    at_entry: HashMap<usize, Vec<&'a Finding>>,
    loose: Vec<FindingView>,
}

impl<'a> Placed<'a> {
    fn new(findings: &'a [Finding], entries: &[Entry], runs: &[RunSummary]) -> Self {
        // The first and last entry of each input line: where a finding about a line (and no
        // event) is shown.
        let mut by_line = BTreeMap::new();
        for (i, e) in entries.iter().enumerate() {
            by_line
                .entry((&*e.origin.file, e.origin.line))
                .or_insert((i, i))
                .1 = i;
        }
        let mut p = Placed::default();
        let first = runs.first().map_or(usize::MAX, |r| r.first_entry);
        for f in findings {
            let at = (&*f.file, f.line);
            let entry = match f.event_index {
                Some(idx) => timeline::entry_of_event(entries, idx),
                // The first entry of the line, else the last one before it in its file.
                None => by_line
                    .range(..=at)
                    .next_back()
                    .filter(|((file, _), _)| *file == at.0)
                    .map(|(line, e)| if *line == at { e.0 } else { e.1 }),
            };
            match entry.filter(|&e| e >= first) {
                Some(e) => p.at_entry.entry(e).or_default().push(f),
                None => p.loose.push(view(f)),
            }
        }
        p
    }
}

/// Builds the report from what the builder's parts worked out: the timeline's runs and
/// entries, `explain`'s diagnoses, the checker's findings (every finding counted by rule; none
/// with `--no-check`), and what it collected.
pub fn build(b: ReportBuilder) -> Report {
    let (explained, timeline) = b.explainer.finish();
    let checked = b.checker.map(Checker::into_report).unwrap_or_default();
    let entries = timeline.entries();
    let runs = timeline.runs();
    let mut limits = b.limits;
    let findings = &checked.findings;
    let placed = Placed::new(findings, entries, runs);
    let links = links(runs);
    // The diagnoses come in run order, one per failed run: taken as the runs go by.
    let mut diagnoses = explained.explained.iter().peekable();
    let mut out_runs = Vec::new();
    let mut detail_bytes = 0usize;
    for (i, run) in runs.iter().enumerate().take(limits.max_runs) {
        let diagnosis = diagnoses.next_if(|x| x.run == i).cloned();
        // The findings at the run's entries.
        let end = runs.get(i + 1).map_or(entries.len(), |r| r.first_entry);
        let found = (run.first_entry..end).filter_map(|e| placed.at_entry.get(&e));
        let found = found.flatten();
        let count = |sev| found.clone().filter(|f| f.severity == sev).count() as u64;
        let budget = DETAIL_BUDGET + usize::from(run.outcome.failed()) * FAILED_BUDGET;
        // Kept while the details so far and its own fit the budget.
        let detail = (detail_bytes < budget)
            .then(|| detail(&timeline, &b.collected, i, &placed, &links, &limits));
        let size = detail.as_ref().and_then(|d| serde_json::to_vec(d).ok());
        let bytes = detail_bytes + size.map_or(0, |v| v.len());
        let detail = detail.filter(|_| bytes <= budget);
        if detail.is_some() {
            detail_bytes = bytes;
        }
        limits.runs_without_detail += usize::from(detail.is_none());
        out_runs.push(Run {
            n: i + 1,
            file: run.origin.file.to_string(),
            thread: run.thread_id.clone(),
            run: run.run_id.clone(),
            at: run.origin.to_string(),
            outcome: Outcome {
                how: run.outcome.clone(),
                at: run.end_origin.as_ref().map(ToString::to_string),
            },
            events: run.events,
            messages: run.messages,
            tool_calls: run.tool_calls,
            reasoning: run.reasoning,
            tokens: run.tokens,
            duration_ms: run.duration_ms(),
            resumes: run.resumes.len(),
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
            diagnosis,
            detail,
        });
    }
    let count = |sev| findings.iter().filter(|f| f.severity == sev).count() as u64;
    // Findings per rule, most first, and the explanation and fix of each rule that fired.
    let counts = &checked.rule_counts;
    let mut rule_counts: Vec<RuleCount> = counts
        .iter()
        .map(|c| RuleCount {
            rule: c.rule,
            severity: c.severity.as_str(),
            title: rules::find(c.rule).map_or("", |r| r.title),
            count: c.count,
        })
        .collect();
    rule_counts.sort_by_key(|c| std::cmp::Reverse(c.count));
    let fired = counts.iter().filter_map(|c| rules::find(c.rule));
    Report {
        generator: format!("aguify {}", env!("CARGO_PKG_VERSION")),
        inputs: b.inputs,
        runs_total: runs.len(),
        runs_omitted: runs.len().saturating_sub(limits.max_runs),
        bad_lines: timeline.bad_lines(),
        errors: count(Severity::Error),
        warnings: count(Severity::Warning),
        rule_counts,
        rules: fired.map(|r| (r.id, r)).collect(),
        runs: out_runs,
        loose_findings: placed.loose,
        limits,
    }
}

/// Interrupt ids by the run (index) whose input resumed them (`(id, RESUMED)`), and by the
/// run that stopped at them (`(id, RAISED)`): the first of each.
type Links<'a> = HashMap<(&'a str, bool), usize>;
const RESUMED: bool = true;
const RAISED: bool = false;

fn links(runs: &[RunSummary]) -> Links<'_> {
    let mut links = Links::new();
    for (i, run) in runs.iter().enumerate() {
        for r in &run.resumes {
            let id = r["interruptId"].as_str().unwrap_or_default();
            links.entry((id, RESUMED)).or_insert(i);
        }
        if let timeline::Outcome::Interrupt { interrupts } = &run.outcome {
            for (id, _) in interrupts {
                links.entry((id.as_str(), RAISED)).or_insert(i);
            }
        }
    }
    links
}

/// A JSON value pretty-printed as a payload is shown (within [`PAYLOAD_BYTES`], shown as whole).
fn shown_payload(v: &Value) -> Clipped {
    Clipped {
        more: 0,
        ..pretty_value(v, PAYLOAD_BYTES)
    }
}

/// Where on the run's axis an event is.
struct Clock {
    ms: bool,
    base: i64,
    first_event: u64,
    /// `(event index, timestamp)`, by index: for events without a timestamp in a timed run.
    known: Vec<(u64, i64)>,
}

impl Clock {
    fn new(run: &RunSummary, entries: &[Entry]) -> Clock {
        let mut known: Vec<(u64, i64)> = entries
            .iter()
            .flat_map(|e| {
                [
                    e.ts.map(|t| (e.index, t)),
                    e.end_ts.zip(e.end_index).map(|(t, i)| (i, t)),
                ]
            })
            .flatten()
            .collect();
        known.sort_unstable();
        let base = run.first_ts.unwrap_or(0);
        let ms = run.first_ts.is_some() && run.last_ts.is_some_and(|l| l > base);
        Clock {
            ms,
            base,
            first_event: run.first_event,
            known,
        }
    }

    fn pos(&self, index: u64, ts: Option<i64>) -> i64 {
        if !self.ms {
            return index.saturating_sub(self.first_event) as i64;
        }
        let t = ts.or_else(|| {
            let i = self.known.partition_point(|(k, _)| *k <= index);
            i.checked_sub(1)
                .and_then(|i| self.known.get(i))
                .or(self.known.first())
                .map(|(_, t)| *t)
        });
        t.map_or(0, |t| (t - self.base).max(0))
    }
}

/// A run's lanes and transcript.
fn detail(
    timeline: &TimelineBuilder,
    collected: &Collected,
    r: usize,
    placed: &Placed<'_>,
    links: &Links<'_>,
    limits: &Limits,
) -> Detail {
    let runs = timeline.runs();
    let run = &runs[r];
    let start = run.first_entry.min(timeline.entries().len());
    let entries = timeline.run_entries(r);
    let first_event = run.first_event;
    let next_event = runs.get(r + 1).map_or(u64::MAX, |n| n.first_event);
    // The input line of the run's first entry at or after an event.
    let origin_at = |idx: u64| {
        let k = entries.partition_point(|e| e.index < idx);
        entries
            .get(k)
            .map_or_else(|| run.origin.to_string(), |e| e.origin.to_string())
    };
    let clock = Clock::new(run, entries);
    let states = collected.states.get(&r);
    let mut cx = ItemCx {
        budget: RUN_TEXT_BYTES,
        states,
        links,
    };

    let mut items: Vec<Item> = Vec::new();
    // What started the run: the resumes, then the user's new messages.
    for r in &run.resumes {
        let id = str_of(r, "interruptId").unwrap_or_default();
        items.push(Item {
            kind: "resume",
            at: run.origin.to_string(),
            ms: clock.ms.then_some(0),
            link: links.get(&(id.as_str(), RAISED)).map(|&i| i + 1),
            id: Some(id),
            status: Some(str_of(r, "status").unwrap_or_default()),
            text: r.get("payload").map(shown_payload),
            ..Item::default()
        });
    }
    for (idx, text) in timeline::in_events(&collected.users, |u| u.0, first_event, next_event) {
        items.push(Item {
            kind: "user",
            at: origin_at(*idx),
            text: Some(cx.spend(clipped, text, TEXT_BYTES)),
            ..Item::default()
        });
    }

    let mut bars: Vec<(usize, Bar)> = Vec::new();
    let mut item_of_message: HashMap<&str, usize> = HashMap::new();
    for (k, e) in entries.iter().enumerate() {
        let shown = placed.at_entry.get(&(start + k)).into_iter().flatten();
        let findings: Vec<FindingView> = shown.take(ITEM_FINDINGS).map(|f| view(f)).collect();
        let Some(mut item) = entry_item(e, &mut cx) else {
            findings_without_item(&mut items, findings, e);
            continue;
        };
        item.ms = clock.ms.then(|| clock.pos(e.index, e.ts));
        item.findings = findings;
        // A model call links to the answer it streamed, else to its reasoning.
        if let Line::Text { id, .. } = &e.line {
            let slot = item_of_message.entry(id.as_str()).or_insert(items.len());
            if e.kind == Kind::Text {
                *slot = items.len();
            }
        }
        // The lanes nest steps by depth (the other kinds have a lane each); a run's end has
        // no bar.
        if !matches!(e.line, Line::RunEnd(_)) {
            let b = entry_bar(e, run, &clock, &item, items.len());
            bars.push((e.depth, b));
        }
        items.push(item);
    }
    let calls = &collected.model_calls;
    for c in timeline::in_events(calls, |c| c.start, first_event, next_event) {
        let b = model_bar(c, &clock, origin_at(c.start), &item_of_message);
        bars.push((0, b));
    }

    let items = fold(items, limits.max_items, &mut bars);
    let axis_end = bars.iter().map(|(_, b)| b.e).max().unwrap_or(0).max(1);
    Detail {
        axis: Axis {
            unit: if clock.ms { "ms" } else { "event" },
            end: axis_end,
        },
        lanes: lanes::layout(bars, axis_end, limits.max_row_bars),
        items,
        snapshots_dropped: states.map_or(0, |s| s.dropped),
    }
}

/// Findings at an entry shown through others: at the run's start they go to what started it
/// (a resume, the user's message), at a node's end to the item before.
fn findings_without_item(items: &mut Vec<Item>, findings: Vec<FindingView>, e: &Entry) {
    match items.last_mut() {
        _ if findings.is_empty() => {}
        Some(prev) => prev.findings.extend(findings),
        None => items.push(Item {
            kind: "other",
            name: Some("run started".into()),
            at: e.origin.to_string(),
            findings,
            ..Item::default()
        }),
    }
}

/// What a transcript item needs besides its entry.
struct ItemCx<'a> {
    /// Text left to the run's payloads.
    budget: usize,
    states: Option<&'a RunStates>,
    links: &'a Links<'a>,
}

impl ItemCx<'_> {
    /// `s` made into a [`Clipped`] by `how` ([`clipped`], [`payload`]) within `cap` bytes, or
    /// what is left of the run's budget (at least [`FLOOR`]).
    fn spend(&mut self, how: fn(&str, usize) -> Clipped, s: &str, cap: usize) -> Clipped {
        let c = how(s, cap.min(self.budget).max(FLOOR));
        self.budget = self.budget.saturating_sub(c.text.len());
        c
    }
}

/// An entry's transcript item; `None` for entries shown through others (a run's start, a
/// node's end).
fn entry_item(e: &Entry, cx: &mut ItemCx<'_>) -> Option<Item> {
    // Only spans (steps, messages, reasoning, tool calls) have a duration.
    let mut item = Item {
        at: e.origin.to_string(),
        dur_ms: e.duration_ms(),
        ..Item::default()
    };
    match &e.line {
        Line::RunStart(_) | Line::StepEnd { .. } | Line::Notes => return None,
        // How the run ended (an error's message is its run error item's: the RUN_ERROR that
        // ended the run made both).
        Line::RunEnd(summary) => {
            item.kind = "end";
            item.name = Some(summary.outcome.kind().to_string());
            match &summary.outcome {
                timeline::Outcome::Error { code, .. } => item.status = code.clone(),
                timeline::Outcome::Interrupt { interrupts } if !interrupts.is_empty() => {
                    let ids: Vec<&str> = interrupts.iter().map(|(i, _)| i.as_str()).collect();
                    item.text = Some(clipped(&format!("interrupts: {}", ids.join(", ")), 1000));
                }
                _ => {}
            }
        }
        Line::StepStart { name, finished } => {
            item.kind = "step";
            item.name = Some(name.clone());
            item.status = (!finished).then(|| "not finished".into());
        }
        Line::Text {
            id,
            role,
            text,
            encrypted,
            cut,
        } => {
            let cap = match e.kind {
                Kind::Text => {
                    item.kind = if role == "user" { "user" } else { "assistant" };
                    item.name = Some(role.clone());
                    TEXT_BYTES
                }
                _ => {
                    item.kind = "reasoning";
                    item.name = (*encrypted > 0).then(|| format!("{encrypted} encrypted"));
                    REASONING_BYTES
                }
            };
            item.id = Some(id.clone());
            item.text = Some(cx.spend(clipped, text, cap));
            item.status = cut.then(|| "cut off".into());
        }
        Line::Tool(t) => tool_item(&mut item, t, cx),
        Line::State { what, detail, .. } => {
            item.kind = "state";
            item.name = Some(what.to_string());
            item.text = Some(clipped(detail, 1000));
            if let Some(v) = cx.states.and_then(|s| s.get(e.index)) {
                item.state = v.state.clone();
                item.changes = v.changes.clone();
                item.changes_total = v.changes_total;
            }
        }
        Line::Custom { name, value } => {
            item.kind = "custom";
            item.name = Some(name.clone());
            item.text = Some(cx.spend(payload, value, TOOL_BYTES));
        }
        Line::Interrupt {
            id,
            reason,
            message,
            value,
        } => {
            item.kind = "interrupt";
            item.id = Some(id.clone());
            item.name = Some(reason.clone());
            item.text = message.as_ref().map(|m| clipped(m, 2000));
            // The payload it carries: its `metadata.payload`, else its `value`, else itself.
            let payload = value
                .pointer("/metadata/payload")
                .or_else(|| value.get("value"));
            item.args = Some(shown_payload(payload.unwrap_or(value)));
            item.link = cx.links.get(&(id.as_str(), RESUMED)).map(|&i| i + 1);
        }
        Line::Error { code, message } => {
            item.kind = "error";
            item.name = code.clone();
            item.text = Some(clipped(message, 4000));
        }
        Line::BadLine { message } => {
            item.kind = "bad";
            item.text = Some(clipped(message, 2000));
        }
        Line::Other { what, detail } => {
            item.kind = "other";
            item.name = Some(what.clone());
            item.text = Some(clipped(detail, 2000));
        }
    }
    Some(item)
}

/// A tool call's item: its arguments, result and status.
fn tool_item(item: &mut Item, t: &ToolCall, cx: &mut ItemCx<'_>) {
    item.kind = "tool";
    item.name = Some(t.name.clone());
    item.id = Some(t.id.clone());
    item.args = Some(cx.spend(payload, &t.args, TOOL_BYTES));
    item.result = (t.result.as_ref()).map(|r| cx.spend(payload, r, TOOL_BYTES));
    item.status = match (t.error, &t.result, t.args_done) {
        (true, ..) => Some("error"),
        (false, Some(_), _) => None,
        (false, None, true) => Some("no result"),
        (false, None, false) => Some("arguments cut off, no result"),
    }
    .map(String::from);
    if t.streamed_output > 0 {
        item.name = Some(format!("{} (streamed {} chars)", t.name, t.streamed_output));
    }
}

/// An entry's bar on the run's axis (`index`: its transcript item), labelled by its item's
/// name unless said otherwise.
fn entry_bar(e: &Entry, run: &RunSummary, clock: &Clock, item: &Item, index: usize) -> Bar {
    let label = match &e.line {
        Line::Text { text, .. } => cut(&one_line(text), 60),
        Line::Tool(t) => t.name.clone(),
        Line::Interrupt { reason, .. } => format!("interrupt: {reason}"),
        Line::BadLine { .. } => "bad line".into(),
        _ => item.name.clone().unwrap_or_else(|| "error".into()),
    };
    let s = clock.pos(e.index, e.ts);
    // Spans the run's end cut off last until it.
    let open_at_end = match &e.line {
        Line::StepStart { finished, .. } => !finished,
        Line::Tool(t) => t.result.is_none() && run.outcome.failed(),
        Line::Text { cut, .. } => *cut,
        _ => false,
    };
    let end = match e.end_index {
        _ if open_at_end => clock.pos(
            run.end_event.unwrap_or(run.first_event + run.events),
            run.last_ts,
        ),
        Some(ei) => clock.pos(ei, e.end_ts),
        None => s,
    };
    let info = dotted([
        e.duration_ms().map(ms),
        Some(count(e.events as usize, "event")),
        item.id.clone(),
    ]);
    Bar {
        s,
        e: end.max(s),
        // A message's bar is a text bar, whoever wrote it.
        kind: match item.kind {
            "user" | "assistant" => "text",
            kind => kind,
        },
        label,
        at: e.origin.to_string(),
        end_at: e
            .end_origin
            .as_ref()
            .filter(|o| **o != e.origin)
            .map(ToString::to_string),
        info,
        item: Some(index),
        n: 1,
    }
}

/// A model call's bar, linked to the transcript item of the message it streamed.
fn model_bar(
    c: &ModelCall,
    clock: &Clock,
    origin: String,
    item_of_message: &HashMap<&str, usize>,
) -> Bar {
    let s = clock.pos(c.start, c.start_ts);
    let e = c.end.map_or(s, |ei| clock.pos(ei, c.end_ts)).max(s);
    let info = dotted([
        c.start_ts.zip(c.end_ts).map(|(a, b)| ms(b - a)),
        c.tokens.map(|(i, o)| format!("{i} in / {o} out tokens")),
        c.end.is_none().then(|| "never finished".into()),
        Some(c.message_id.clone()),
    ]);
    Bar {
        s,
        e,
        kind: "model",
        label: c.model.clone().unwrap_or_else(|| "model call".into()),
        at: origin,
        end_at: None,
        info,
        item: item_of_message.get(c.message_id.as_str()).copied(),
        n: 1,
    }
}

/// A bar's info: the parts it has, joined by ` · `.
fn dotted<const N: usize>(parts: [Option<String>; N]) -> String {
    parts.into_iter().flatten().collect::<Vec<_>>().join(" · ")
}

/// At most `max` items (about): the first half, the last third, and every item with findings,
/// an error or an interrupt; each run of left-out items becomes one `fold` item. The bars are
/// linked to their item's new index (to none when it is folded).
fn fold(items: Vec<Item>, max: usize, bars: &mut [(usize, Bar)]) -> Vec<Item> {
    let n = items.len();
    if n <= max {
        return items;
    }
    let (head, tail) = (max / 2, max / 3);
    let keep = |i: usize, it: &Item| {
        i < head
            || i >= n - tail
            || !it.findings.is_empty()
            || matches!(it.kind, "error" | "interrupt" | "resume" | "end" | "bad")
    };
    let mut out: Vec<Item> = Vec::new();
    let mut map = Vec::with_capacity(n);
    for (i, it) in items.into_iter().enumerate() {
        if keep(i, &it) {
            map.push(Some(out.len()));
            out.push(it);
            continue;
        }
        map.push(None);
        match out.last_mut() {
            Some(fold) if fold.kind == "fold" => fold.count += 1,
            _ => out.push(Item {
                kind: "fold",
                at: it.at,
                count: 1,
                ..Item::default()
            }),
        }
    }
    for (_, b) in bars {
        b.item = b.item.and_then(|i| map.get(i).copied().flatten());
    }
    out
}
