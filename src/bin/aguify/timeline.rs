//! `aguify timeline`: the run at a glance, printed as it is read.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use aguify::adapter::Disposition;
use aguify::agui::Event;
use aguify::check::{self, Checker, Finding};
use aguify::input::{Origin, Record};
use aguify::model::ModelEvent;
use aguify::pipeline::{self, Observer};
use aguify::timeline::render::{RenderOptions, Renderer};
use aguify::timeline::{InlineNote, Severity, TimelineBuilder};

use crate::cli::TimelineArgs;
use crate::{options, terminal};

/// Prints settled entries as soon as they are final, so `--follow` shows the run as it grows.
struct Printer<W: Write> {
    builder: TimelineBuilder,
    renderer: Renderer,
    out: W,
    flush_each: bool,
    /// `--exit-on-end`: set when a run has ended.
    stop_at_end: Option<Arc<AtomicBool>>,
    /// The checker (one per input file), unless `--no-check`.
    check: bool,
    checker: Option<Checker>,
}

/// A checker finding as a timeline note. `event` is the timeline's (global) index of the event
/// the finding is about, or the latest event for findings about raw input.
fn note(f: &Finding, event: u64) -> InlineNote {
    let ids = if f.ids.is_empty() {
        String::new()
    } else {
        format!(" [{}]", f.ids.join(", "))
    };
    InlineNote {
        event_index: event,
        origin: (f.line > 0).then(|| Origin {
            file: f.file.clone(),
            line: f.line,
        }),
        rule: f.rule.to_string(),
        severity: match f.severity {
            check::Severity::Error => Severity::Error,
            check::Severity::Warning => Severity::Warning,
        },
        message: format!("{}{ids}", f.message),
    }
}

impl<W: Write> Printer<W> {
    /// Moves the checker's new findings onto the timeline.
    fn take_findings(&mut self) {
        let Some(c) = &mut self.checker else { return };
        let last = self.builder.events_seen().saturating_sub(1);
        let notes: Vec<InlineNote> = c.drain_new().iter().map(|f| note(f, last)).collect();
        self.builder.attach(notes);
    }

    fn finish_checker(&mut self) {
        if let Some(c) = &mut self.checker {
            c.finish();
        }
        self.take_findings();
        self.checker = None;
    }

    fn drain(&mut self) -> io::Result<()> {
        let ready = self.builder.take_settled();
        if ready.is_empty() {
            return Ok(());
        }
        self.renderer.write_all(ready, &mut self.out)?;
        if self.flush_each {
            self.out.flush()?;
        }
        Ok(())
    }
}

impl<W: Write> Observer for Printer<W> {
    fn record(&mut self, rec: &Record, disposition: &Disposition) {
        self.builder.record(rec, disposition);
        if self.check && self.checker.is_none() {
            self.checker = Some(Checker::new(
                rec.origin.file.clone(),
                check::Config::default(),
            ));
        }
        if let Some(c) = &mut self.checker {
            c.record(rec, disposition);
        }
        self.take_findings();
    }

    fn bad_line(&mut self, origin: &Origin, message: &str) {
        self.builder.bad_line(origin, message);
        if let Some(c) = &mut self.checker {
            c.bad_line(origin, message);
        }
    }

    fn model(&mut self, ev: &ModelEvent, origin: &Origin) {
        self.builder.model(ev, origin);
        if let Some(c) = &mut self.checker {
            c.model(ev, origin);
        }
        self.take_findings();
    }

    fn event(&mut self, ev: &Event, origin: &Origin) -> io::Result<()> {
        self.builder.event(ev, origin)?;
        if let Some(c) = &mut self.checker {
            c.event(ev, origin);
        }
        self.take_findings();
        if let Some(stop) = &self.stop_at_end {
            if self.builder.current_run().is_none() && !self.builder.runs().is_empty() {
                stop.store(true, Ordering::SeqCst);
            }
        }
        self.drain()
    }

    fn end_of_file(&mut self, file: &str) -> io::Result<()> {
        self.builder.end_of_file(file)?;
        // Converted input: the mapper closes the file's open run only after this call, so the
        // checker's end-of-stream findings wait for the end of all input (see `run`); a file
        // holding a complete stream is finished here.
        if self.builder.current_run().is_none() {
            self.finish_checker();
        }
        self.drain()
    }
}

pub fn run(args: TimelineArgs) -> anyhow::Result<i32> {
    let opts = options::input_options(&args.input);
    let stdout = io::stdout();
    let color = terminal::use_color(args.color, stdout.is_terminal());
    let width = terminal::width(args.width);
    let follow = args.follow.then(|| Arc::new(AtomicBool::new(false)));
    if let Some(stop) = &follow {
        terminal::stop_on_ctrl_c(stop.clone());
    }
    let progress = if follow.is_none() {
        terminal::progress_for(&args.input.files)
    } else {
        None
    };
    let inputs = terminal::open_inputs(&args.input.files, progress.as_ref(), follow.as_ref())?;
    let mut printer = Printer {
        builder: TimelineBuilder::new(),
        renderer: Renderer::new(RenderOptions {
            width: Some(width),
            full: args.full,
            color,
        }),
        out: io::BufWriter::with_capacity(64 * 1024, stdout.lock()),
        flush_each: follow.is_some(),
        stop_at_end: follow.clone().filter(|_| args.exit_on_end),
        check: !args.no_check,
        checker: None,
    };
    let result = pipeline::run(inputs, &opts, &mut printer);
    if let Some(pb) = &progress {
        pb.finish_and_clear();
    }
    result?;
    printer.finish_checker();
    printer.builder.finish();
    printer.drain()?;
    printer.out.flush()?;
    Ok(0)
}
