//! `aguify report`: one self-contained HTML page per invocation showing each run: a header
//! (outcome, counts, tokens, duration, `explain`'s diagnosis of a failed run), a lane view of
//! where the time went, the conversation as a transcript with the checker's findings at their
//! events, and the state snapshots with what changed.
//!
//! [`ReportBuilder`] is a pipeline [`Observer`]: it drives an [`Explainer`] (which holds the
//! [`crate::timeline::TimelineBuilder`]) and a [`Checker`] over the input, and keeps the little
//! the timeline does not ([`collect`], the one place that reads the events itself). At the end,
//! [`build`] turns their results into the [`model::Report`], and [`html`] writes the page.
//! The page's size is bounded whatever the input's ([`model::Limits`]).

pub mod build;
pub mod collect;
pub mod html;
pub mod lanes;
pub mod model;
pub mod text;

use std::io;
use std::sync::Arc;

use crate::agui::Event;

use crate::check::{self, Checker};
use crate::explain::Explainer;
use crate::input::{Disposition, Origin, Record};
use crate::model::ModelEvent;
use crate::pipeline::Observer;

pub use model::Limits;

/// The bounds `aguify report` keeps to.
pub const LIMITS: Limits = Limits {
    max_bytes: 10 << 20,
    max_runs: 2000,
    max_items: 400,
    max_row_bars: 600,
    max_snapshots: 4,
    runs_without_detail: 0,
};

/// Raw records before an error that a diagnosis lists (`explain -n`'s default).
const LAST_RECORDS: usize = 8;

/// See the module docs.
pub struct ReportBuilder {
    explainer: Explainer,
    checker: Option<Checker>,
    collected: collect::Collected,
    limits: Limits,
    inputs: Vec<String>,
}

impl ReportBuilder {
    /// `check`: run the checker (its findings are shown at their events).
    pub fn new(inputs: Vec<String>, check: bool, limits: Limits) -> Self {
        let name: Arc<str> = Arc::from(inputs.first().map_or("-", String::as_str));
        ReportBuilder {
            explainer: Explainer::new(LAST_RECORDS),
            checker: check.then(|| Checker::new(name, check::Config::default())),
            collected: collect::Collected::new(limits.max_snapshots),
            limits,
            inputs,
        }
    }

    /// All input read: the report's data.
    pub fn finish(self) -> model::Report {
        build::build(self)
    }

    /// Feeds the checker, unless `--no-check`.
    fn check(&mut self, feed: impl FnOnce(&mut Checker)) {
        if let Some(c) = &mut self.checker {
            feed(c);
        }
    }
}

impl Observer for ReportBuilder {
    fn record(&mut self, rec: &Record, disposition: &Disposition) {
        self.explainer.record(rec, disposition);
        self.check(|c| c.record(rec, disposition));
    }

    fn bad_line(&mut self, origin: &Origin, message: &crate::error::BadLine) {
        self.explainer.bad_line(origin, message);
        self.check(|c| c.bad_line(origin, message));
    }

    fn model(&mut self, ev: &ModelEvent, origin: &Origin) {
        let next = self.explainer.timeline().events_seen();
        self.collected.model(next, ev);
        self.explainer.model(ev, origin);
        self.check(|c| c.model(ev, origin));
    }

    fn event(&mut self, ev: &Event, origin: &Origin) -> io::Result<()> {
        let index = self.explainer.timeline().events_seen();
        let ended = self.explainer.runs_ended();
        let typed = ev.typed();
        self.explainer.event(&typed, origin)?;
        self.check(|c| c.event(ev, origin));
        let runs = self.explainer.timeline().runs();
        self.collected
            .event(index, runs.len().saturating_sub(1), &typed);
        // A run that ended keeps its states or lets them go.
        let now_ended = runs.iter().enumerate().take(self.explainer.runs_ended());
        for (r, run) in now_ended.skip(ended) {
            self.collected.run_ended(r, run.outcome.failed());
        }
        Ok(())
    }

    fn end_of_file(&mut self, file: &str) -> io::Result<()> {
        self.explainer.end_of_file(file)
    }
}
