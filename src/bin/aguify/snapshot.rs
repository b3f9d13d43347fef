//! `aguify snapshot FILE...`: the golden snapshot of the runs to stdout.

use std::io::{self, Write};

use crate::bad_lines::BadLines;
use crate::cli::SnapshotArgs;
use crate::options;

pub fn run(args: SnapshotArgs) -> anyhow::Result<i32> {
    crate::terminal::stdin_guard("snapshot", &args.input.files)?;
    let files = options::or_stdin(&args.input.files);
    let opts = options::pipeline_options(&args.input, &Default::default());
    let mut out = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    aguify::snapshot::write::header(&mut out)?;
    let mut bad = BadLines::default();
    let mut any_bad = false;
    let read = aguify::diff::read_side(&files, &opts, false, &mut |item| match item {
        aguify::diff::Item::Run(r) => aguify::snapshot::write::run(&r, &mut out),
        aguify::diff::Item::Bad { origin, message } => {
            any_bad = true;
            bad.tell(&origin, &message);
            Ok(())
        }
    });
    bad.finish();
    read?;
    out.flush()?;
    Ok(if any_bad { 2 } else { 0 })
}
