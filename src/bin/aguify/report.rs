//! `aguify report`: the runs of FILEs as one self-contained HTML page (src/report).

use std::fs::File;
use std::io::{self, Write};

use aguify::pipeline;
use aguify::report::{html, ReportBuilder, LIMITS};

use crate::cli::ReportArgs;
use crate::{options, terminal};

pub fn run(args: ReportArgs) -> anyhow::Result<i32> {
    let opts = options::input_options(&args.input);
    let inputs = terminal::open_inputs(&args.input.files, true, None)?;
    let names = options::or_stdin(&args.input.files);
    let mut builder = ReportBuilder::new(names, !args.no_check, LIMITS);
    pipeline::run(inputs, &opts, &mut builder)?;
    let out: Box<dyn Write> = if args.output == "-" {
        Box::new(io::stdout().lock())
    } else {
        let f = File::create(&args.output)
            .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", args.output))?;
        Box::new(f)
    };
    let mut out = io::BufWriter::new(out);
    html::write(&mut builder.finish(), &mut out)?;
    out.flush()?;
    Ok(0)
}
