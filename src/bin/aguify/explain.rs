//! `aguify explain`: why runs failed. Exit 0 when something was explained, 1 when all runs
//! were clean, 2 on unreadable input (via main).

use std::io::{self, IsTerminal};

use aguify::explain::{render, Explainer};

use crate::cli::{ExplainArgs, ExplainFormat};
use crate::{known, options, terminal};

pub fn run(args: ExplainArgs) -> anyhow::Result<i32> {
    crate::terminal::stdin_guard("explain", &args.input.files)?;
    let opts = options::pipeline_options(&args.input, &Default::default());
    let stdin_name = args.stdin.stdin_filename.as_deref();
    let inputs = terminal::open_inputs(&args.input.files, stdin_name, true, None)?;
    let mut explainer = Explainer::new(args.last);
    if !known::run(inputs, &opts, &mut explainer)? {
        return Ok(2);
    }
    let (report, _) = explainer.finish();
    let color = terminal::use_color(args.color, io::stdout().is_terminal());
    let written = crate::output::write_to("-", |out| match args.format {
        ExplainFormat::Text => render::write_text(&report, color, out),
        ExplainFormat::Json => render::write_json(&report, out),
    });
    crate::verdict_written(written, report.explained.is_empty().into())
}
