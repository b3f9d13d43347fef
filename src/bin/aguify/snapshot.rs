//! `aguify snapshot FILE...`: the golden snapshot of the runs to stdout.

use std::io::{self, Write};

use aguify::text::printable;

use crate::cli::SnapshotArgs;
use crate::options;

pub fn run(args: SnapshotArgs) -> anyhow::Result<i32> {
    let files = options::or_stdin(&args.input.files);
    let opts = options::input_options(&args.input);
    let mut out = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    aguify::snapshot::write::header(&mut out)?;
    let mut bad = 0;
    aguify::diff::read_side(&files, &opts, false, &mut |item| match item {
        aguify::diff::Item::Run(r) => aguify::snapshot::write::run(&r, &mut out),
        aguify::diff::Item::Bad { origin, message } => {
            bad += 1;
            eprintln!("aguify: {}", printable(&format!("{origin}: {message}")));
            Ok(())
        }
    })?;
    out.flush()?;
    Ok(if bad > 0 { 2 } else { 0 })
}
