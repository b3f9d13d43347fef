//! `aguify diff OLD NEW`: arguments to the library's diff, the report to stdout, unreadable
//! lines to stderr.

use std::io::{self, IsTerminal, Write};

use aguify::diff;
use aguify::diff::report::Report;

use crate::bad_lines::BadLines;
use crate::cli::{DiffArgs, PolicyArgs};
use crate::Usage;
use crate::{options, terminal};

pub fn run(args: DiffArgs) -> anyhow::Result<i32> {
    let (old, new) = match (args.old_file, args.new_file) {
        (Some(o), Some(n)) => (vec![o], vec![n]),
        _ => (args.old, args.new),
    };
    let sides: Vec<String> = old.iter().chain(&new).cloned().collect();
    terminal::stdin_guard("diff", &sides)?;
    if sides.iter().filter(|f| *f == "-").count() > 1 {
        return Err(Usage("only one side can be stdin (-)".into()).into());
    }
    let popts = aguify::pipeline::Options {
        parse_threads: args.threads.unwrap_or(1),
        ..options::mapping(args.from, &PolicyArgs::default())
    };
    let color = terminal::use_color(args.color, io::stdout().is_terminal());
    let mut out = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let mut report = Report::new(args.format, color, &mut out);
    let mut bad = BadLines::default();
    let summary = diff::diff(
        &old,
        &new,
        &popts,
        &args.compare,
        &mut |d| report.run(d),
        &mut |origin, message| bad.tell(origin, message),
    );
    bad.finish();
    let summary = summary?;
    report.end(&summary, &old, &new)?;
    out.flush()?;
    Ok((!summary.is_equal()).into())
}
