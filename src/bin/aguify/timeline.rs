//! `aguify timeline`: the run at a glance, printed as it is read.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use aguify::adapter::Disposition;
use aguify::input::{Origin, Record};
use aguify::model::ModelEvent;
use aguify::pipeline::{self, Observer};
use aguify::timeline::render::{RenderOptions, Renderer};
use aguify::timeline::TimelineBuilder;
use serde_json::Value;

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
}

impl<W: Write> Printer<W> {
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
    }

    fn bad_line(&mut self, origin: &Origin, message: &str) {
        self.builder.bad_line(origin, message);
    }

    fn model(&mut self, ev: &ModelEvent, origin: &Origin) {
        self.builder.model(ev, origin);
    }

    fn event(&mut self, ev: &Value, origin: &Origin) -> io::Result<()> {
        self.builder.event(ev, origin)?;
        if let Some(stop) = &self.stop_at_end {
            if self.builder.current_run().is_none() && !self.builder.runs().is_empty() {
                stop.store(true, Ordering::SeqCst);
            }
        }
        self.drain()
    }

    fn end_of_file(&mut self, file: &str) -> io::Result<()> {
        self.builder.end_of_file(file)?;
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
    };
    let result = pipeline::run(inputs, &opts, &mut printer);
    if let Some(pb) = &progress {
        pb.finish_and_clear();
    }
    result?;
    printer.builder.finish();
    printer.drain()?;
    printer.out.flush()?;
    Ok(0)
}
