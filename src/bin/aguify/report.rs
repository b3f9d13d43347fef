//! `aguify report`: the runs of FILEs as one self-contained HTML page (src/report).

use std::fs::File;
use std::io::{self, Write};

use aguify::pipeline;
use aguify::report::{html, ReportBuilder, LIMITS};

use crate::cli::ReportArgs;
use crate::{options, terminal};

pub fn run(args: ReportArgs) -> anyhow::Result<i32> {
    let opts = options::input_options(&args.input);
    let progress = terminal::progress_for(&args.input.files);
    let inputs = terminal::open_inputs(&args.input.files, progress.as_ref(), None)?;
    let names = if args.input.files.is_empty() {
        vec!["-".to_string()]
    } else {
        args.input.files.clone()
    };
    let mut builder = ReportBuilder::new(names, !args.no_check, LIMITS);
    let result = pipeline::run(inputs, &opts, &mut builder);
    if let Some(pb) = &progress {
        pb.finish_and_clear();
    }
    result?;
    let mut report = builder.finish();
    if args.output == "-" {
        let mut out = io::BufWriter::new(io::stdout().lock());
        html::write(&mut report, &mut out)?;
        out.flush()?;
    } else {
        let f = File::create(&args.output)
            .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", args.output))?;
        let mut out = io::BufWriter::new(f);
        html::write(&mut report, &mut out)?;
        out.flush()?;
    }
    Ok(0)
}
