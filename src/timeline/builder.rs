//! The builder's bookkeeping: its accessors, entries and the spans they open and close, runs,
//! findings attached to entries, and the pipeline [`Observer`] it is.

use super::*;
use crate::text::count;

/// Bad lines a timeline shows as entries unless told otherwise ([`TimelineBuilder::showing`]).
const BAD_LINES_SHOWN: u64 = 100;

impl TimelineBuilder {
    pub fn new() -> Self {
        Self::showing(BAD_LINES_SHOWN)
    }

    /// A builder that gives the first `bad_shown` bad lines an entry each, and the rest one
    /// line at the end.
    pub fn showing(bad_shown: u64) -> Self {
        TimelineBuilder {
            bad_shown,
            ..Self::default()
        }
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

    /// The input line of the newest entry's last event.
    pub fn last_origin(&self) -> Option<Origin> {
        let e = self.entries.last()?;
        Some(e.end_origin.clone().unwrap_or_else(|| e.origin.clone()))
    }

    /// End of all input: the bad lines not shown are told, and a run still open had no
    /// terminal event.
    pub fn finish(&mut self) {
        let more = self.bad_lines.saturating_sub(self.bad_shown);
        if let (1.., Some(at)) = (more, self.last_origin()) {
            let more = count(more as usize, "more bad line");
            self.push_bad(&at, format!("… and {more}"));
        }
        if let (Some(_), Some(origin)) = (self.run, self.last_origin()) {
            self.end_run(Outcome::NoTerminal, None, &origin);
        }
        for e in &mut self.entries {
            e.settled = true;
        }
    }

    pub(super) fn depth_content(&self) -> usize {
        self.depth_step() + usize::from(self.ns_depth > 0)
    }

    /// Under a namespace, what open sub-agents (spans of `open.steps` keyed `subagent <id>`)
    /// run is indented under them, beyond its namespace depth.
    pub(super) fn depth_step(&self) -> usize {
        let steps = self.open.steps.iter();
        match self.ns_depth {
            0 => steps.len() + 1,
            ns => ns + steps.filter(|(k, _)| k.starts_with("subagent ")).count(),
        }
    }

    pub(super) fn push(
        &mut self,
        kind: Kind,
        line: Line,
        depth: usize,
        At { ts, origin }: At,
        settled: bool,
    ) -> usize {
        let (base, file) = match self.run.and_then(|r| self.runs.get_mut(r)) {
            Some(run) => {
                run.first_ts = run.first_ts.or(ts);
                (run.first_ts, run.origin.file.clone())
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
        self.entries.len() - 1
    }

    /// Adds an event to an open span entry; its line, to change.
    pub(super) fn touch(&mut self, idx: usize, At { ts, origin }: At) -> &mut Line {
        let e = &mut self.entries[idx];
        e.events += 1;
        if ts.is_some() {
            e.end_ts = ts;
        }
        e.end_origin = Some(origin.clone());
        e.end_index = Some(self.index);
        &mut e.line
    }

    /// Adds an event to an open span entry and settles it; its line, to change.
    pub(super) fn close(&mut self, idx: usize, at: At) -> &mut Line {
        self.touch(idx, at);
        self.entries[idx].settled = true;
        &mut self.entries[idx].line
    }

    pub(super) fn start_run(
        &mut self,
        run_id: Option<String>,
        thread_id: Option<String>,
        resumes: Vec<Value>,
        at: At,
    ) {
        let At { ts, origin } = at;
        if self.run.is_some() {
            self.end_run(Outcome::NoTerminal, None, origin);
        }
        let run = RunSummary {
            run_id,
            thread_id,
            resumes,
            origin: origin.clone(),
            first_entry: self.entries.len(),
            first_event: self.index,
            first_ts: ts,
            last_ts: ts,
            ..RunSummary::default()
        };
        let line = Line::RunStart(Box::new(run.clone()));
        self.runs.push(run);
        self.run = Some(self.runs.len() - 1);
        self.push(Kind::Run, line, 0, at, true);
    }

    /// `end`: the terminal event's timestamp, when an event ended the run.
    pub(super) fn end_run(&mut self, outcome: Outcome, end: Option<Ts>, origin: &Origin) {
        let Some(r) = self.run else { return };
        // Spans the run left open were cut off.
        let open = std::mem::take(&mut self.open);
        let steps = open.steps.iter().map(|(_, i)| i);
        for &i in open.spans.values().chain(steps) {
            let chunked = open.chunked.contains(&i);
            if let Some(e) = self.entries.get_mut(i) {
                if let Line::Text { cut, .. } = &mut e.line {
                    *cut = !chunked;
                }
                e.settled = true;
            }
        }
        let index = self.index;
        let run = &mut self.runs[r];
        run.outcome = outcome;
        run.end_origin = Some(origin.clone());
        run.end_event = end.map(|_| index);
        let ts = end.flatten();
        if let Some(t) = ts {
            run.last_ts = Some(t);
            run.first_ts = run.first_ts.or(Some(t));
        }
        // The footer is the run's last entry (its file, its base time): the terminal event
        // alone, when one ended it.
        let line = Line::RunEnd(Box::new(run.clone()));
        let i = self.push(Kind::Run, line, 0, At { ts, origin }, true);
        self.entries[i].events = u64::from(end.is_some());
        self.run = None;
    }

    fn push_bad(&mut self, origin: &Origin, message: String) {
        let depth = self.run.map_or(0, |_| self.depth_content());
        let line = Line::BadLine { message };
        self.push(Kind::Error, line, depth, At { ts: None, origin }, true);
    }

    pub(super) fn count(&mut self, f: impl FnOnce(&mut RunSummary)) {
        if let Some(run) = self.run.and_then(|r| self.runs.get_mut(r)) {
            f(run);
        }
    }

    /// Attaches findings (of a checker driven alongside the builder) about event `event`, the
    /// latest one: each goes to that event's entry, or, when that entry is gone, to the newest
    /// entry. Call it right after the event they are about.
    pub fn attach(&mut self, event: u64, notes: impl IntoIterator<Item = Finding>) {
        for n in notes {
            let target = entry_of_event(&self.entries, event)
                .or(self.entries.len().checked_sub(1))
                .filter(|t| *t >= self.rendered);
            match target.and_then(|t| self.entries.get_mut(t)) {
                Some(e) => e.notes.push(n),
                None => {
                    // Its entry is printed already (`--follow`, end-of-stream findings): the
                    // note gets a line of its own.
                    let file = (n.line > 0).then(|| n.file.clone());
                    let file = file.unwrap_or_else(|| Arc::from("-"));
                    let origin = &Origin { file, line: n.line };
                    let at = At { ts: None, origin };
                    let idx = self.push(Kind::Other, Line::Notes, 0, at, true);
                    self.entries[idx].notes.push(n);
                }
            }
        }
    }

    /// An AG-UI event (a capture's is read typed where it is valid).
    pub fn take_event(&mut self, ev: &Event, origin: &Origin) {
        self.on_event(&ev.typed(), origin);
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
            RecordKind::V2 => matches!(&rec.v2, Some(e) if e.meta.thread_id.0.is_some()),
            _ => false,
        };
        if recorded && !self.thread_recorded.contains(&rec.origin.file) {
            self.thread_recorded.push(rec.origin.file.clone());
        }
    }

    fn bad_line(&mut self, origin: &Origin, message: &crate::error::BadLine) {
        self.bad_lines += 1;
        if self.bad_lines <= self.bad_shown {
            self.push_bad(origin, message.to_string());
        }
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
