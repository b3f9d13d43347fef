//! `aguify explain`: why runs failed. Exit 0 when something was explained, 1 when all runs
//! were clean, 2 on unreadable input (via main).

use std::io::{self, IsTerminal, Write};

use aguify::explain::{render, Explainer};
use aguify::pipeline;

use crate::cli::{ExplainArgs, ExplainFormat};
use crate::{options, terminal};

pub fn run(args: ExplainArgs) -> anyhow::Result<i32> {
    let opts = options::input_options(&args.input);
    let progress = terminal::progress_for(&args.input.files);
    let inputs = terminal::open_inputs(&args.input.files, progress.as_ref(), None)?;
    let mut explainer = Explainer::new(args.last);
    let result = pipeline::run(inputs, &opts, &mut explainer);
    if let Some(pb) = &progress {
        pb.finish_and_clear();
    }
    result?;
    let report = explainer.finish();
    let stdout = io::stdout();
    let color = terminal::use_color(args.color, stdout.is_terminal());
    let mut out = io::BufWriter::new(stdout.lock());
    match args.format {
        ExplainFormat::Text => render::write_text(&report, color, &mut out)?,
        ExplainFormat::Json => render::write_json(&report, &mut out)?,
    }
    out.flush()?;
    Ok(if report.explained.is_empty() { 1 } else { 0 })
}
