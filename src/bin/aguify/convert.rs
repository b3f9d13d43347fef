//! `aguify convert`: LangGraph logs → AG-UI events on stdout.

use std::collections::HashSet;
use std::io::{self, IsTerminal, Write};
use std::sync::Arc;

use aguify::agui::Event;
use aguify::check::report::text::{finding_text, printable};
use aguify::check::report::{more_line, summary_line};
use aguify::check::Checker;
use aguify::input::{Disposition, Origin, Record};
use aguify::model::ModelEvent;
use aguify::pipeline::{self, Observer, Stats};
use aguify::replay::Pacer;
use aguify::sink::{FrameSink, Sink};
use aguify::text::count;

use crate::cli::ConvertArgs;
use crate::options;

struct ConvertObserver {
    sink: FrameSink<io::BufWriter<io::StdoutLock<'static>>>,
    /// `--pace`: each event written after its recorded gap, and flushed.
    pacer: Option<Pacer>,
    checker: Checker,
    color: bool,
    /// `--quiet`: findings are counted, not printed.
    quiet: bool,
    /// The inputs of which no record of a known form was read yet.
    unread: HashSet<Arc<str>>,
    /// Findings about a file of which nothing was read yet: printed once it turns out to be a
    /// recording, dropped when it does not (one message then says so).
    held: Vec<(Arc<str>, String)>,
    /// Findings and warnings for stderr, written out with the events (when the input is
    /// idle, at each file's end and at the end): a log of thousands of findings is not
    /// thousands of unbuffered writes.
    diag: io::BufWriter<io::Stderr>,
    /// `file:line` of the last finding printed (`--strict` tells the bad line it stopped at
    /// unless a finding just did).
    last_told: Option<String>,
}

impl ConvertObserver {
    /// Prints the checker's new findings on stderr as they occur (a test inlined after
    /// every record and event). Findings are not kept: the summary needs only their counts.
    #[inline]
    fn report_new(&mut self) {
        if self.checker.has_new() {
            self.print_new();
        }
    }

    fn print_new(&mut self) {
        let (color, quiet) = (self.color, self.quiet);
        let (diag, unread, held) = (&mut self.diag, &self.unread, &mut self.held);
        let last_told = &mut self.last_told;
        self.checker.stream_new(|f| {
            if quiet {
                return;
            }
            let line = format!("aguify: {}", finding_text(f, color, true));
            if !unread.contains(&f.file) {
                *last_told = Some(format!("{}:{}", f.file, f.line));
                let _ = writeln!(diag, "{line}");
            } else if held.len() < HELD_MAX {
                held.push((f.file.clone(), line));
            }
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

/// Findings held back at most (a file of which nothing is read yet).
const HELD_MAX: usize = 1000;

impl Observer for ConvertObserver {
    fn file_read(&mut self, file: &str) {
        // A recording after all: what was held back about it is told now.
        self.unread.remove(file);
        for (_, line) in self.held.iter().filter(|(f, _)| **f == *file) {
            let _ = writeln!(self.diag, "{line}");
        }
        self.held.retain(|(f, _)| **f != *file);
    }

    fn record(&mut self, rec: &Record, disposition: &Disposition) {
        self.checker.record(rec, disposition);
        self.report_new();
    }

    fn bad_line(&mut self, origin: &Origin, message: &aguify::error::BadLine) {
        // The checker reports a bad line (AGX608/609, naming file:line and what was expected);
        // printing it here too would say everything twice.
        self.checker.bad_line(origin, message);
        self.report_new();
    }

    /// A record converted with a warning: the checker reports it under its rule (once, with
    /// the checker's other findings about the record).
    fn warning(&mut self, origin: &Origin, message: &str) {
        self.checker.warning(origin, message);
        self.report_new();
    }

    fn model(&mut self, ev: &ModelEvent, origin: &Origin) {
        self.checker.model(ev, origin);
        self.report_new();
    }

    fn event(&mut self, ev: &Event, origin: &Origin) -> io::Result<()> {
        self.checker.event(ev, origin);
        self.report_new();
        let Some(pacer) = &mut self.pacer else {
            return self.sink.write_event(ev);
        };
        std::thread::sleep(pacer.delay_for(ev.timestamp()));
        self.sink.write_event(ev)?;
        self.sink.flush()
    }

    fn input_idle(&mut self) -> io::Result<()> {
        self.flush()
    }

    fn end_of_file(&mut self, _file: &str) -> io::Result<()> {
        self.flush()
    }
}

pub fn run(args: ConvertArgs) -> anyhow::Result<i32> {
    crate::terminal::stdin_guard("convert", &args.input.files)?;
    let stdin_name = args.stdin.stdin_filename.as_deref();
    let inputs = crate::terminal::open_inputs(&args.input.files, stdin_name, false, None)?;
    let names: Vec<Arc<str>> = inputs.iter().map(|i| i.name.clone()).collect();
    let opts = options::pipeline_options(&args.input, &args.map);
    let out = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let name = match names.as_slice() {
        [one] => one.clone(),
        _ => Arc::from("(input)"),
    };
    // Printed as they occur: only the first few of each rule are kept and printed.
    let config = options::check_config(&args.rules, &args.map.policy, args.rules.max_per_rule);
    let mut obs = ConvertObserver {
        sink: FrameSink::new(args.to, out),
        pacer: args.pace.then(|| Pacer::new(args.pacing)),
        checker: Checker::new(name, config),
        unread: names.iter().cloned().collect(),
        held: vec![],
        color: crate::terminal::use_color(args.color, io::stderr().is_terminal()),
        quiet: args.quiet,
        diag: io::BufWriter::with_capacity(16 * 1024, io::stderr()),
        last_told: None,
    };
    let stats = pipeline::run(inputs, &opts, &mut obs);
    // What was found before an error is told before it; `--strict`'s bad line too.
    let _ = obs.diag.flush();
    if let Err(aguify::Error::Strict { at, .. }) = &stats {
        if obs.last_told.as_ref() != Some(at) {
            crate::known::tell_last_bad(&stats);
        }
    }
    let stats = stats?;
    obs.sink.flush()?;
    obs.checker.finish();
    obs.report_new();
    let limit = args.rules.max_per_rule as u64;
    if !args.quiet && limit > 0 {
        for (file, r, n) in obs.checker.over(limit) {
            if !obs.unread.contains(file) {
                let line = more_line(n, r.rule, &printable(file));
                let _ = writeln!(obs.diag, "aguify: {line}");
            }
        }
    }
    let _ = obs.diag.flush();
    let counts = obs.checker.streamed_counts();
    if args.stats {
        print_stats(&stats, counts.warnings);
    }
    // Quiet on success (like ripgrep): the summary only follows findings; a file of which
    // nothing was read gets its one message instead.
    let unread = obs.unread.len();
    if counts.errors + counts.warnings > 0 && !args.quiet && unread < names.len() {
        eprintln!("aguify: {}", summary_line(counts, names.len()));
    }
    if crate::known::report(&stats) {
        return Ok(2);
    }
    Ok(crate::check::fails(counts, args.fail_on, None).into())
}

/// `--stats` on stderr; `warnings` is the checker's count (the one the summary gives).
pub fn print_stats(stats: &Stats, warnings: u64) {
    let mut e = io::stderr().lock();
    let _ = writeln!(
        e,
        "aguify: {} lines read: {} mapped, {} ignored, {} bad; {} AG-UI events written{}",
        stats.lines,
        stats.mapped,
        stats.ignored_total(),
        stats.bad,
        stats.events,
        match warnings {
            0 => String::new(),
            n => format!("; {}", count(n as usize, "warning")),
        }
    );
    for (why, n) in &stats.ignored {
        let _ = writeln!(e, "aguify:   ignored {n:>6}  {why}");
    }
}
