//! `aguify timeline`: the run at a glance, printed as it is read.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use aguify::agui::Event;
use aguify::check::{self, report::more_line, Checker, Finding};
use aguify::explain::V3View;
use aguify::input::{Disposition, Origin, Record};
use aguify::model::ModelEvent;
use aguify::pipeline::{self, Observer};
use aguify::timeline::render::{RenderOptions, Renderer};
use aguify::timeline::TimelineBuilder;

use crate::cli::TimelineArgs;
use crate::{options, terminal};

/// Prints settled entries as soon as they are final, so `--follow` shows the run as it grows.
struct Printer<W: Write> {
    builder: TimelineBuilder,
    renderer: Renderer,
    out: W,
    flush_each: bool,
    /// `--exit-on-end`: set when the input is idle and its last run has ended.
    stop_at_end: Option<Arc<AtomicBool>>,
    /// A v3 root lifecycle said the run is over (the converter writes its terminal event only
    /// at the next record or the end of input).
    raw_run_ended: bool,
    /// The checker (one for all input files: one thread, as in `convert`), unless
    /// `--no-check`.
    checker: Option<Checker>,
}

/// Findings shown inline per file and rule (the checker keeps no more), and bad lines under
/// `--no-check` (the builder keeps no more); the rest are counted (memory stays bounded on
/// millions of bad lines).
const SHOW_PER_RULE: u64 = aguify::check::report::DEFAULT_MAX_PER_RULE as u64;

impl<W: Write> Printer<W> {
    /// Feeds the checker (unless `--no-check`) and moves its new findings onto the timeline.
    fn check(&mut self, feed: impl FnOnce(&mut Checker)) {
        let Some(c) = &mut self.checker else { return };
        feed(c);
        // A finding about raw input goes with the latest event.
        let last = self.builder.events_seen().saturating_sub(1);
        let mut notes = vec![];
        c.stream_new(|f| notes.push(f.clone()));
        self.builder.attach(last, notes);
    }

    /// Tells what was left out: per file and rule in one note each (the builder tells the bad
    /// lines left out under `--no-check`).
    fn finish_checker(&mut self) {
        self.check(Checker::finish);
        let at = self.builder.last_origin().unwrap_or_else(|| Origin {
            file: Arc::from("-"),
            line: 0,
        });
        let Some(c) = self.checker.take() else { return };
        let last = self.builder.events_seen().saturating_sub(1);
        let more = c.over(SHOW_PER_RULE).map(|(file, r, n)| Finding {
            rule: r.rule,
            severity: r.severity,
            file: at.file.clone(),
            line: at.line,
            event_index: None,
            event_type: None,
            ids: vec![],
            message: more_line(n, r.rule, file),
        });
        self.builder.attach(last, more);
    }

    fn drain(&mut self) -> io::Result<()> {
        let ready = self.builder.take_settled();
        self.renderer.write_all(ready, &mut self.out)?;
        if self.flush_each && !ready.is_empty() {
            self.out.flush()?;
        }
        Ok(())
    }
}

impl<W: Write> Observer for Printer<W> {
    fn record(&mut self, rec: &Record, disposition: &Disposition) {
        // Once said, it stays said: a record after the root's end (a `custom` event that
        // LangGraph.js writes after `lifecycle completed`) does not reopen the run.
        if self.stop_at_end.is_some() && !self.raw_run_ended {
            self.raw_run_ended = V3View::of(rec).ends_the_run();
        }
        self.builder.record(rec, disposition);
        self.check(|c| c.record(rec, disposition));
    }

    fn bad_line(&mut self, origin: &Origin, message: &aguify::error::BadLine) {
        // Told once: as the checker's finding (its rule, line and why), or as an entry of its own.
        if self.checker.is_some() {
            self.check(|c| c.bad_line(origin, message));
        } else {
            self.builder.bad_line(origin, message);
        }
    }

    fn warning(&mut self, origin: &Origin, message: &str) {
        // Told with the record's other findings, at the next one taken.
        if let Some(c) = &mut self.checker {
            c.warning(origin, message);
        }
    }

    fn model(&mut self, ev: &ModelEvent, origin: &Origin) {
        self.check(|c| c.model(ev, origin));
    }

    fn event(&mut self, ev: &Event, origin: &Origin) -> io::Result<()> {
        self.builder.event(ev, origin)?;
        self.check(|c| c.event(ev, origin));
        self.drain()
    }

    /// The followed file has no more data for now: what was read is shown; with
    /// `--exit-on-end`, a run that has ended (or whose v3 root lifecycle ended it) stops.
    fn input_idle(&mut self) -> io::Result<()> {
        let ended = self.builder.current_run().is_none() && !self.builder.runs().is_empty();
        if let (Some(stop), true) = (&self.stop_at_end, ended || self.raw_run_ended) {
            stop.store(true, Ordering::SeqCst);
        }
        self.drain()?;
        self.out.flush()
    }

    fn end_of_file(&mut self, file: &str) -> io::Result<()> {
        self.builder.end_of_file(file)?;
        // The checker's end-of-stream findings wait for the end of all input (see `run`):
        // several files are one thread, an interrupt run then its resume run.
        self.drain()
    }
}

pub fn run(args: TimelineArgs) -> anyhow::Result<i32> {
    crate::terminal::stdin_guard("timeline", &args.input.files)?;
    let opts = options::pipeline_options(&args.input, &Default::default());
    let stdout = io::stdout();
    let color = terminal::use_color(args.color, stdout.is_terminal());
    let width = terminal::width(args.width);
    let follow = args.follow.then(|| Arc::new(AtomicBool::new(false)));
    if let Some(stop) = &follow {
        terminal::stop_on_ctrl_c(stop.clone());
    }
    let restart = terminal::Restart::default();
    let following = follow.as_ref().map(|stop| (stop, &restart));
    let stdin_name = args.stdin.stdin_filename.as_deref();
    let mut inputs =
        terminal::open_inputs(&args.input.files, stdin_name, follow.is_none(), following)?;
    let names: Vec<Arc<str>> = inputs.iter().map(|i| i.name.clone()).collect();
    let mut printer = Printer {
        builder: TimelineBuilder::showing(SHOW_PER_RULE),
        renderer: Renderer::new(RenderOptions {
            width,
            full: args.full,
            color,
        }),
        out: io::BufWriter::with_capacity(64 * 1024, stdout.lock()),
        flush_each: follow.is_some(),
        stop_at_end: follow.clone().filter(|_| args.exit_on_end),
        raw_run_ended: false,
        checker: (!args.no_check).then(|| {
            let config = check::Config {
                keep_per_rule: SHOW_PER_RULE as usize,
                ..Default::default()
            };
            Checker::new(names.first().cloned().unwrap_or(Arc::from("-")), config)
        }),
    };
    // What each input held, over every reading of it.
    let mut read = pipeline::Stats::default();
    loop {
        let result = pipeline::run(inputs, &opts, &mut printer);
        if let Err(aguify::Error::Strict { .. }) = &result {
            // The bad line it stopped at is told, then the stop.
            let _ = printer.drain();
            let _ = printer.out.flush();
            crate::known::tell_last_bad(&result);
        }
        for (name, seen) in result?.files {
            read.files.entry(name).or_default().merge(&seen);
        }
        // A followed file replaced, truncated or rewritten: read again as a new file (its
        // lines from 1, its runs its own), with the files after it.
        let again = restart.lock().ok().and_then(|mut r| r.take());
        let Some(path) = again else { break };
        let files = &args.input.files;
        let at = files.iter().position(|f| *f == path).unwrap_or(0);
        inputs = terminal::open_inputs(&files[at..], None, false, following)?;
    }
    printer.finish_checker();
    printer.builder.finish();
    printer.drain()?;
    printer.out.flush()?;
    Ok(if crate::known::report(&read) { 2 } else { 0 })
}
