//! The checker (issue 3): a streaming checker of AG-UI event streams and of the LangGraph logs
//! they are converted from.
//!
//! [`Checker`] consumes what the [pipeline](crate::pipeline) produces (it is an
//! [`Observer`](crate::pipeline::Observer)): every AG-UI event with the
//! input line it came from, and for converted input the raw records and model events. Findings
//! name a rule of [`rules::RULES`], the file, the input line, the event index and the ids
//! involved. The families:
//! - [`verifier`]: the official client's pipeline (compat, `transformChunks`, `verifyEvents`);
//! - [`schema`]: the AG-UI 1.0 event schema;
//! - [`strict`]: what the client lets through but front ends break on;
//! - [`state`]: STATE_DELTA patches that do not apply to the state;
//! - [`snapshot`]: a MESSAGES_SNAPSHOT that contradicts the messages streamed before it;
//! - [`interrupts`]: interrupt outcomes and resumes;
//! - [`raw`]: raw LangGraph input;
//! - [`leaks`]: content leaks into answer text;
//! - [`transport`]: SSE framing the JS client cannot read.
//!
//! [`report`] renders findings as text, JSON, GitHub annotations, JUnit, SARIF or Markdown.

pub mod ev;
pub mod interrupts;
pub mod leaks;
pub mod raw;
pub mod report;
pub mod rules;
pub mod schema;
pub mod snapshot;
pub mod state;
pub mod strict;
pub mod transport;
pub mod verifier;

use std::borrow::Cow;
use std::io;
use std::sync::Arc;

use crate::adapter::{classify, Family};
use crate::agui::Event;
use crate::error::{BadLine, Reason};
use crate::input::{Disposition, Framing, Origin, Record};
use crate::model::ModelEvent;
use crate::pipeline::{self, Input, Observer, Options};

pub use rules::{Rule, Severity, RULES};

/// One finding; serialized as a row of the JSON report (schema in docs/check.md).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    /// Written with its rule's title and spec.
    #[serde(flatten, serialize_with = "rule_row")]
    pub rule: &'static str,
    pub severity: Severity,
    pub file: Arc<str>,
    /// 1-based input line (for converted input: the raw LangGraph line); 0 when unknown
    /// (written `null`: a finding about the whole file names no line).
    #[serde(serialize_with = "line_or_null")]
    pub line: u64,
    /// 0-based index of the AG-UI event in its file's stream, when the finding is about one.
    pub event_index: Option<u64>,
    pub event_type: Option<String>,
    pub ids: Vec<String>,
    pub message: String,
}

fn rule_row<S: serde::Serializer>(rule: &&'static str, s: S) -> Result<S::Ok, S::Error> {
    let r = rules::get(rule);
    serde::Serialize::serialize(
        &serde_json::json!({"rule": rule, "title": r.title, "spec": r.spec}),
        s,
    )
}

fn line_or_null<S: serde::Serializer>(line: &u64, s: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&(*line > 0).then_some(*line), s)
}

/// Rule selection: `--allow` silences a rule, `--deny` makes it an error.
#[derive(Debug, Clone, Default)]
pub struct Config {
    pub allow: Vec<String>,
    pub deny: Vec<String>,
    /// Findings kept per file and rule; the rest are only counted ([`Checker::tally`]), so
    /// memory stays bounded on millions of bad lines. 0 keeps every finding.
    pub keep_per_rule: usize,
    /// `--compat thinking`: the stream speaks the 0.x THINKING_* vocabulary on purpose, so
    /// THINKING_* events are not findings (AGX202).
    pub thinking: bool,
}

/// Findings kept per file and rule by `aguify check` (the report shows fewer; the counts are
/// always whole).
pub const KEEP_PER_RULE: usize = 1000;

/// How many findings of one rule a file had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleCount {
    pub rule: &'static str,
    pub severity: Severity,
    pub count: u64,
}

/// Findings counted by rule (in rule order).
type Tally = std::collections::BTreeMap<&'static str, RuleCount>;

/// Counts `n` more findings of `rule` in `tally`; returns its count so far.
fn add(tally: &mut Tally, rule: &'static str, severity: Severity, n: u64) -> u64 {
    let r = tally.entry(rule).or_insert(RuleCount {
        rule,
        severity,
        count: 0,
    });
    r.count += n;
    r.count
}

/// Rule counts of several files (or streams) summed per rule, in rule order.
fn merged<'a>(counts: impl IntoIterator<Item = &'a RuleCount>) -> Vec<RuleCount> {
    let mut all = Tally::new();
    for r in counts {
        add(&mut all, r.rule, r.severity, r.count);
    }
    all.into_values().collect()
}

/// The errors and warnings among rule counts.
fn counts<'a>(rules: impl IntoIterator<Item = &'a RuleCount>) -> report::Counts {
    let mut c = report::Counts::default();
    for r in rules {
        match r.severity {
            Severity::Error => c.errors += r.count,
            Severity::Warning => c.warnings += r.count,
        }
    }
    c
}

impl Config {
    fn severity(&self, rule: &Rule) -> Option<Severity> {
        let has = |l: &[String]| l.iter().any(|r| r.eq_ignore_ascii_case(rule.id));
        match (has(&self.deny), has(&self.allow)) {
            (true, _) => Some(Severity::Error),
            (false, true) => None,
            (false, false) => Some(rule.severity),
        }
    }
}

/// Where findings are being reported from, and the findings so far.
#[derive(Default)]
pub struct Ctx {
    pub file: Arc<str>,
    pub line: u64,
    pub index: Option<u64>,
    /// Borrowed for the AG-UI event types (no allocation per event).
    pub event_type: Option<Cow<'static, str>>,
    pub config: Config,
    pub out: Vec<Finding>,
    /// Findings of rules the official client enforces (counted before `--allow`).
    pub official: u64,
    /// Every finding reported, by file and rule (those not kept in `out` too).
    pub tally: Vec<(Arc<str>, Tally)>,
}

impl Ctx {
    pub fn new(file: Arc<str>, config: Config) -> Ctx {
        Ctx {
            file,
            config,
            ..Ctx::default()
        }
    }

    pub fn report(&mut self, rule: &'static str, ids: Vec<String>, message: impl Into<String>) {
        if self.config.thinking && rule == "AGX202" {
            return;
        }
        let r = rules::get(rule);
        self.official += u64::from(r.official);
        let Some(severity) = self.config.severity(r) else {
            return;
        };
        // Counted by file and rule; kept within `keep_per_rule`.
        let at = self.tally.iter().rposition(|t| t.0 == self.file);
        let at = at.unwrap_or_else(|| {
            self.tally.push((self.file.clone(), Tally::new()));
            self.tally.len() - 1
        });
        let n = add(&mut self.tally[at].1, r.id, severity, 1);
        let keep = self.config.keep_per_rule as u64;
        if keep > 0 && n > keep {
            return;
        }
        self.out.push(Finding {
            rule: r.id,
            severity,
            file: self.file.clone(),
            line: self.line,
            event_index: self.index,
            event_type: self.event_type.as_deref().map(String::from),
            ids,
            message: message.into(),
        });
    }

    /// Where the next findings are: `origin`, and the event `ev` of its index when they are
    /// about one (its type borrowed when it is an AG-UI 1.0 type: no allocation per event).
    fn at(&mut self, origin: &Origin, ev: Option<(u64, &ev::Ev<'_>)>) {
        // Several files converted together form one stream: name the file each line is in.
        // The same name in another allocation is adopted too, so the next lines compare pointers.
        if !Arc::ptr_eq(&origin.file, &self.file) && !origin.file.is_empty() {
            self.file = origin.file.clone();
        }
        self.line = origin.line;
        self.index = ev.map(|(index, _)| index);
        self.event_type = ev.and_then(|(_, e)| match e.kind {
            Some(k) => Some(Cow::Borrowed(k.as_str())),
            None => e.s("type").map(|t| Cow::Owned(t.to_string())),
        });
    }
}

/// The rule of a bad line of a converted log, by why: a line that is no JSON object is
/// AGX608; of a record that was read but could not be converted, a replayed v3 event is a `seq`
/// duplicate (AGX602), a record of no known form or of another form than the file's (or
/// `--from`'s) is AGX609, a v3 message or content-block event outside its message is AGX604 or
/// AGX605, a record of a known form that lacks what it needs is AGX611.
fn bad_rule(reason: Reason) -> &'static str {
    match reason {
        Reason::DuplicateV3Event => "AGX602",
        Reason::MessageLifecycle => "AGX604",
        Reason::BlockLifecycle => "AGX605",
        Reason::NoKnownForm | Reason::MixedForms | Reason::NotTheForcedForm { .. } => "AGX609",
        Reason::Unconvertible => "AGX611",
        _ => "AGX608",
    }
}

/// The checker for one stream (one input file); a pipeline [`Observer`].
#[derive(Default)]
pub struct Checker {
    ctx: Ctx,
    family: Option<Family>,
    events: u64,
    client: verifier::Client,
    strict: strict::Strict,
    snapshot: snapshot::SnapshotOrder,
    state: state::State,
    interrupts: interrupts::Interrupts,
    leaks: leaks::Leaks,
    raw: raw::Raw,
    pending_bad: Option<(Origin, BadLine)>,
    /// The chunk-expanded events of the current event (`None`: the event itself), kept between
    /// events (no allocation per event).
    expanded: Vec<verifier::Expanded>,
    finished: bool,
    /// Whether a record of a known form was read, and what to say when none is.
    read: crate::pipeline::Seen,
    /// A line was unreadable before any record was read: if none ever is, the client (which
    /// reads the file as AG-UI) fails on that line.
    unreadable: bool,
    /// `--strict`: the `file:line` of the bad line the check stopped at.
    stopped: Option<String>,
}

/// The result for one file.
#[derive(Debug, Clone, Default)]
pub struct FileReport {
    pub file: Arc<str>,
    /// The input family, when any record was readable.
    pub family: Option<Family>,
    pub events: u64,
    /// The findings kept ([`Config::keep_per_rule`] per rule), in line order.
    pub findings: Vec<Finding>,
    /// Every finding, counted by rule (in rule order).
    pub rule_counts: Vec<RuleCount>,
    /// Whether the official client would accept the stream (no official rule fired).
    pub official_valid: bool,
    /// Whether any record of a known form (AG-UI or LangGraph) was read; when not, the only
    /// finding is AGX505 and `official_valid` means nothing.
    pub read: bool,
    /// `--strict`: the `file:line` of the bad line the check stopped at.
    pub stopped: Option<String>,
}

impl FileReport {
    /// A file that could not be opened or read: one AGX504 finding.
    pub fn unreadable(file: &str, why: &str, config: &Config) -> FileReport {
        let mut c = Checker::new(Arc::from(file), config.clone());
        let why = format!("cannot read: {why}");
        c.ctx.report("AGX504", vec![], why);
        // Not a file of nothing known (AGX505): it was never read.
        c.read.read = true;
        FileReport {
            read: false,
            ..c.into_report()
        }
    }

    pub fn counts(&self) -> report::Counts {
        counts(&self.rule_counts)
    }
}

impl Checker {
    pub fn new(file: Arc<str>, config: Config) -> Checker {
        Checker {
            ctx: Ctx::new(file, config),
            ..Checker::default()
        }
    }

    fn converted(&self) -> bool {
        matches!(self.family, Some(Family::V2 | Family::V3))
    }

    /// Reports the bad line held back, if any.
    fn flush_bad(&mut self) {
        let Some((origin, msg)) = self.pending_bad.take() else {
            return;
        };
        self.ctx.at(&origin, None);
        let rule = match self.family {
            // The client skips an SSE frame without data (the line is AGX503's).
            Some(Family::Agui) if msg.message.starts_with(transport::NO_DATA_FRAME) => "AGX503",
            Some(Family::Agui) => "AGX501",
            _ => bad_rule(msg.reason),
        };
        self.ctx.report(rule, vec![], msg.message);
        self.unreadable |= self.family.is_none();
    }

    /// An AG-UI event and the input line it came from.
    pub fn event(&mut self, ev: &Event, origin: &Origin) {
        self.flush_bad();
        let base = ev::Ev::of_event(ev);
        self.ctx.at(origin, Some((self.events, &base)));
        self.events += 1;
        self.schema(&base);
        self.client.feed(&base, &mut self.ctx, &mut self.expanded);
        let converted = self.converted();
        for (e, _) in &self.expanded {
            let e = &e.as_ref().map_or(base, ev::Ev::of);
            self.strict.feed(e, &mut self.ctx);
            self.snapshot.feed(e, &mut self.ctx);
            self.state.feed(e, converted, &mut self.ctx);
            self.interrupts.feed(e, converted, &mut self.ctx);
            self.leaks.feed(e, &mut self.ctx);
        }
        self.expanded.clear();
    }

    /// The schema's findings of `ev`, each message after its path.
    fn schema(&mut self, ev: &ev::Ev<'_>) {
        for issue in schema::check_ev(ev) {
            self.ctx.report(issue.rule, vec![], issue.message);
        }
    }

    /// End of the stream: checks that need the whole stream.
    pub fn finish(&mut self) {
        if self.finished {
            return;
        }
        self.finished = true;
        self.flush_bad();
        self.ctx.index = None;
        self.ctx.event_type = None;
        self.strict.finish(&mut self.ctx);
        if self.converted() {
            self.raw.finish(&mut self.ctx);
        }
    }

    /// Whether findings were reported since the last [`Checker::stream_new`] (a cheap test
    /// before it).
    #[inline]
    pub fn has_new(&self) -> bool {
        !self.ctx.out.is_empty()
    }

    /// Hands the findings not yet handed to `f`, then forgets them (their counts stay in
    /// [`Checker::tally`]): memory stays flat for callers that print findings as they occur
    /// and report only counts (`convert`).
    pub fn stream_new(&mut self, mut f: impl FnMut(&Finding)) {
        for x in self.ctx.out.drain(..) {
            f(&x);
        }
    }

    /// The counts of every finding so far (kept or not, drained or not).
    pub fn streamed_counts(&self) -> report::Counts {
        counts(self.ctx.tally.iter().flat_map(|t| t.1.values()))
    }

    /// Each rule found more than `limit` times in a file: the file, the rule and how many of
    /// its findings are past `limit` (the "… and N more" of `convert` and `timeline`).
    pub fn over(&self, limit: u64) -> impl Iterator<Item = (&str, &RuleCount, u64)> {
        self.ctx.tally.iter().flat_map(move |(file, t)| {
            let over = t.values().filter(move |r| r.count > limit);
            over.map(move |r| (&**file, r, r.count - limit))
        })
    }

    pub fn into_report(mut self) -> FileReport {
        self.finish();
        let read = self.read.read;
        let file = self.ctx.file.clone();
        if !read {
            // Nothing of a known form: one finding about the file says so, instead of one
            // per line.
            let why = crate::known::why(&self.read, &file);
            (self.ctx.out, self.ctx.tally, self.ctx.line) = (vec![], vec![], 0);
            self.ctx.report("AGX505", vec![], why);
        }
        let mut findings = self.ctx.out;
        findings.sort_by_key(|f| (f.line, f.event_index.unwrap_or(u64::MAX)));
        FileReport {
            file,
            family: self.family,
            events: self.events,
            findings,
            // Several files converted together: one count per rule.
            rule_counts: merged(self.ctx.tally.iter().flat_map(|t| t.1.values())),
            // With nothing read, JSON shows no verdict (`null`), and a bad line fails the
            // client. A file read is what `convert` writes from it: the verdict is the official
            // rules' (a bad line of a log that is not AG-UI never reaches the client).
            official_valid: self.ctx.official == 0 && (read || !self.unreadable),
            read,
            stopped: self.stopped,
        }
    }
}

impl Observer for Checker {
    /// A record converted with a warning ([`Observer::warning`]): a v3 `seq` that is not an
    /// integer is AGX610, a timestamp a client cannot hold AGX612, tool events that lost their
    /// call ids AGX613; the other warnings (a `seq` out of order or reused) are the facts
    /// AGX602/AGX603 report already, so they are not told twice.
    fn warning(&mut self, origin: &Origin, message: &str) {
        let rules = [
            ("v3 `seq` is", "AGX610"),
            (crate::pipeline::TIMESTAMP_WARNING, "AGX612"),
            (crate::adapter::IDLESS_TOOLS_WARNING, "AGX613"),
        ];
        let Some(&(_, rule)) = rules.iter().find(|(p, _)| message.starts_with(p)) else {
            return;
        };
        self.ctx.at(origin, None);
        self.ctx.report(rule, vec![], message);
    }

    /// An input record and its disposition.
    fn record(&mut self, rec: &Record, disposition: &Disposition) {
        if self.family.is_none() {
            self.family = classify(rec).family();
        }
        // A record an adapter mapped is of a known form whatever its kind (`convert` counts
        // the same): a `graph.stream` SSE capture has only `messages`, `updates` and `error`
        // frames, none with a family of its own. A replayed event was skipped: its seq
        // finding is the AGX602 just reported, not one more from the raw checks.
        let (bad, replay) = match disposition {
            Disposition::Bad(b) => (true, b.reason == Reason::DuplicateV3Event),
            _ => (false, false),
        };
        self.read.read |= crate::pipeline::is_known(rec, disposition);
        if bad
            && matches!(self.family, None | Some(Family::Agui))
            && transport::unknown_agui_type(rec.value())
        {
            // An event of a type AG-UI 1.0 does not have (`runStarted`): the client reads it
            // and its enforcement drops it, as the converter does (no event index).
            self.pending_bad = None;
            self.read.read = true;
            self.family = Some(Family::Agui);
            // Its only finding (AGX201 or AGX202) is about the `type`: no path before it.
            self.ctx.at(&rec.origin, None);
            self.schema(&ev::Ev::of(rec.value()));
            return;
        }
        self.flush_bad();
        if self.converted() && !replay {
            self.ctx.at(&rec.origin, None);
            self.raw.record(rec, &mut self.ctx);
        }
    }

    /// A line or frame that could not be read.
    fn bad_line(&mut self, origin: &Origin, bad: &BadLine) {
        self.flush_bad();
        self.read.bad_line(bad);
        self.pending_bad = Some((origin.clone(), bad.clone()));
    }

    /// A model event (converted input).
    fn model(&mut self, ev: &ModelEvent, origin: &Origin) {
        self.flush_bad();
        if !self.converted() {
            return;
        }
        self.ctx.at(origin, None);
        if matches!(ev, ModelEvent::Interrupt(_)) {
            self.interrupts.raw_interrupted = true;
        }
        self.raw.model(ev, &mut self.ctx);
    }

    fn event(&mut self, ev: &Event, origin: &Origin) -> io::Result<()> {
        Checker::event(self, ev, origin);
        Ok(())
    }
}

/// Checks one input held in memory: the pipeline, plus the SSE transport checks for AG-UI
/// captures.
pub fn check_bytes(
    name: &str,
    bytes: Vec<u8>,
    opts: &Options,
    config: &Config,
) -> Result<FileReport, crate::Error> {
    let transport = match starts_as_sse(&bytes) {
        true => transport::check_sse(&bytes),
        false => vec![],
    };
    check_input(Input::from_bytes(name, bytes), transport, opts, config)
}

/// Whether the first non-blank line of `head` (its first 64 KiB) is SSE framing.
fn starts_as_sse(head: &[u8]) -> bool {
    let head = String::from_utf8_lossy(&head[..head.len().min(64 * 1024)]);
    let first = head.lines().find(|l| !l.trim().is_empty());
    first.is_some_and(|l| crate::input::detect_framing(l) == Framing::Sse)
}

/// Runs `input` through a checker, then adds the `transport` findings of an AG-UI capture;
/// with `--strict`, the report says which bad line it stopped at.
fn check_input(
    input: Input,
    transport: Vec<transport::Framing>,
    opts: &Options,
    config: &Config,
) -> Result<FileReport, crate::Error> {
    let mut checker = Checker::new(input.name.clone(), config.clone());
    match pipeline::run(vec![input], opts, &mut checker) {
        Ok(_) => {}
        Err(crate::Error::Strict { at, .. }) => {
            // The bad line is reported; what would only follow from the stop is not.
            checker.flush_bad();
            checker.finished = true;
            checker.stopped = Some(at);
        }
        Err(e) => return Err(e),
    }
    if checker.family == Some(Family::Agui) && checker.stopped.is_none() {
        // Findings about the file's framing, not about an event.
        let ctx = &mut checker.ctx;
        (ctx.index, ctx.event_type) = (None, None);
        for (line, rule, message) in transport {
            ctx.line = line;
            ctx.report(rule, vec![], message);
        }
    }
    Ok(checker.into_report())
}

/// Reads and checks one file (stdin: [`check_bytes`]). An NDJSON file is streamed (memory
/// stays flat whatever its size); SSE input is read whole for the transport checks.
pub fn check_path(path: &str, opts: &Options, config: &Config) -> Result<FileReport, crate::Error> {
    let err = || crate::Error::input(path);
    let f = std::fs::File::open(path).map_err(err())?;
    let rereadable = f.metadata().is_ok_and(|m| m.is_file());
    let mut r = io::BufReader::with_capacity(256 * 1024, f);
    let head = io::BufRead::fill_buf(&mut r).map_err(err())?;
    if starts_as_sse(head) || opts.framing == Some(Framing::Sse) {
        return check_bytes(path, std::fs::read(path).map_err(err())?, opts, config);
    }
    let input = Input {
        name: Arc::from(path),
        open: Box::new(|| Ok(Box::new(r))),
        rereadable,
    };
    check_input(input, vec![], opts, config)
}
