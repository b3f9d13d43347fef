//! `aguify report`: the runs of FILEs as one self-contained HTML page (src/report).

use std::io::{self, IsTerminal};

use aguify::report::{html, ReportBuilder, LIMITS};

use crate::cli::ReportArgs;
use crate::{known, options, terminal};

pub fn run(args: ReportArgs) -> anyhow::Result<i32> {
    crate::terminal::stdin_guard("report", &args.input.files)?;
    if args.output == "-" && io::stdout().is_terminal() {
        return Err(crate::Usage(
            "report: not writing an HTML page to the terminal; \
             write it to a file with -o report.html (or redirect stdout)"
                .into(),
        )
        .into());
    }
    let opts = options::pipeline_options(&args.input, &Default::default());
    let inputs = terminal::open_inputs(&args.input.files, None, true, None)?;
    let names = options::or_stdin(&args.input.files);
    let mut builder = ReportBuilder::new(names, !args.no_check, LIMITS);
    // A file of which nothing is of a known form: no page of nothing.
    if !known::run(inputs, &opts, &mut builder)? {
        return Ok(2);
    }
    let mut page = builder.finish();
    // A file written whole or not at all: an existing report stays as it was on a write error.
    crate::output::write_to(&args.output, |out| html::write(&mut page, out))?;
    Ok(0)
}
