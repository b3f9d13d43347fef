//! `aguify convert`: LangGraph logs → AG-UI events on stdout.

use std::io::{self, Write};

use aguify::input::Origin;
use aguify::pipeline::{self, Observer, Stats};
use aguify::sink::{self, Sink};
use serde_json::Value;

use crate::cli::ConvertArgs;
use crate::options;

struct ConvertObserver<'a> {
    sink: Box<dyn Sink + 'a>,
}

impl Observer for ConvertObserver<'_> {
    fn bad_line(&mut self, origin: &Origin, message: &str) {
        eprintln!("aguify: {origin}: {message}");
    }

    fn warning(&mut self, origin: &Origin, message: &str) {
        eprintln!("aguify: {origin}: warning: {message}");
    }

    fn event(&mut self, ev: &Value, _origin: &Origin) -> io::Result<()> {
        self.sink.write_event(ev)
    }

    fn end_of_file(&mut self, _file: &str) -> io::Result<()> {
        self.sink.flush()
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
    let mut obs = ConvertObserver {
        sink: sink::for_format(format, lock),
    };
    let stats = pipeline::run(inputs, &opts, &mut obs)?;
    obs.sink.flush()?;
    if args.stats {
        print_stats(&stats);
    }
    Ok(0)
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
