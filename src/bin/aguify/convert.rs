//! `aguify convert`: LangGraph logs → AG-UI events on stdout.

use std::io::{self, IsTerminal, Write};
use std::sync::Arc;

use aguify::adapter::Disposition;
use aguify::agui::Event;
use aguify::check::report::summary_line;
use aguify::check::report::text::finding_line;
use aguify::check::{Checker, Config};
use aguify::input::{Origin, Record};
use aguify::model::ModelEvent;
use aguify::pipeline::{self, Observer, Stats};
use aguify::replay::PacedSink;
use aguify::sink::{self, Sink};

use crate::cli::ConvertArgs;
use crate::options;

struct ConvertObserver<'a> {
    sink: Box<dyn Sink + 'a>,
    checker: Checker,
    color: bool,
    /// Findings and warnings for stderr, written out with the events (when the input is
    /// idle, at each file's end and at the end): a log of thousands of findings is not
    /// thousands of unbuffered writes.
    diag: io::BufWriter<io::Stderr>,
}

impl ConvertObserver<'_> {
    /// Prints the checker's new findings on stderr as they occur.
    /// Findings are not kept: the summary needs only their counts.
    fn report_new(&mut self) {
        if !self.checker.has_new() {
            return;
        }
        let color = self.color;
        let diag = &mut self.diag;
        self.checker.stream_new(|f| {
            let _ = writeln!(diag, "aguify: {}", finding_line(f, color));
        });
    }

    /// Writes out the events and the findings so far (stderr's errors are not the
    /// output's: ignored, as a failed `eprintln!` would not stop the conversion either).
    fn flush(&mut self) -> io::Result<()> {
        self.sink.flush()?;
        let _ = self.diag.flush();
        Ok(())
    }
}

impl Observer for ConvertObserver<'_> {
    fn record(&mut self, rec: &Record, disposition: &Disposition) {
        self.checker.record(rec, disposition);
        self.report_new();
    }

    fn bad_line(&mut self, origin: &Origin, message: &str) {
        // The checker reports a bad line (AGX608/609, naming file:line and what was expected);
        // printing it here too would say everything twice.
        self.checker.bad_line(origin, message);
        self.report_new();
    }

    fn warning(&mut self, origin: &Origin, message: &str) {
        let _ = writeln!(self.diag, "aguify: {origin}: warning: {message}");
    }

    fn model(&mut self, ev: &ModelEvent, origin: &Origin) {
        self.checker.model(ev, origin);
        self.report_new();
    }

    fn event(&mut self, ev: &Event, origin: &Origin) -> io::Result<()> {
        self.checker.event(ev, origin);
        self.report_new();
        self.sink.write_event(ev)
    }

    /// Pruned records suffice: the inline checker's record rules read only what pruning keeps
    /// (v3 `seq`, `method`, `params.namespace`, `messages` data; see `input::prune`).
    fn needs_full_records(&self) -> bool {
        false
    }

    fn input_idle(&mut self) -> io::Result<()> {
        self.flush()
    }

    fn end_of_file(&mut self, _file: &str) -> io::Result<()> {
        self.flush()
    }
}

pub fn run(args: ConvertArgs) -> anyhow::Result<i32> {
    let inputs = options::open_inputs(&args.input.files)?;
    let opts = options::pipeline_options(&args.input, &args.map);
    let stdout = io::stdout();
    let lock = io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let format = match args.to {
        crate::cli::To::Sse => sink::Format::Sse,
        crate::cli::To::Ndjson => sink::Format::Ndjson,
    };
    let mut sink = sink::for_format(format, lock);
    if args.pace {
        sink = Box::new(PacedSink::new(sink, options::pacing(&args.pacing)));
    }
    let name = match args.input.files.as_slice() {
        [one] => one.clone(),
        [] => "-".to_string(),
        _ => "(input)".to_string(),
    };
    let mut obs = ConvertObserver {
        sink,
        checker: Checker::new(Arc::from(name.as_str()), Config::default()),
        color: crate::check::use_color(crate::cli::Color::Auto, io::stderr().is_terminal()),
        diag: io::BufWriter::with_capacity(16 * 1024, io::stderr()),
    };
    let stats = pipeline::run(inputs, &opts, &mut obs);
    // What was found before an error is told before it.
    let _ = obs.diag.flush();
    let stats = stats?;
    obs.sink.flush()?;
    obs.checker.finish();
    obs.report_new();
    let _ = obs.diag.flush();
    if args.stats {
        print_stats(&stats);
    }
    let counts = obs.checker.streamed_counts();
    // Quiet on success (like ripgrep): the summary only follows findings.
    if counts.errors + counts.warnings > 0 {
        eprintln!("aguify: check: {}", summary_line(counts, 1));
    }
    Ok(if crate::check::fails(counts, args.fail_on, None) {
        1
    } else {
        0
    })
}

pub fn print_stats(stats: &Stats) {
    let mut e = io::stderr().lock();
    let _ = writeln!(
        e,
        "aguify: {} lines read: {} mapped, {} ignored, {} bad; {} AG-UI events written{}",
        stats.lines,
        stats.mapped,
        stats.ignored_total(),
        stats.bad,
        stats.events,
        match stats.warnings {
            0 => String::new(),
            n => format!("; {n} warning(s)"),
        }
    );
    for (why, n) in &stats.ignored {
        let _ = writeln!(e, "aguify:   ignored {n:>6}  {why}");
    }
}
