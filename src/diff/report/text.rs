//! The text report: per run, each difference with its path and both sides' `file:line`,
//! coloured on a terminal, then a summary line.

use std::io::{self, Write};

use owo_colors::OwoColorize;

use super::{at, show, summary_line};
use crate::diff::{Change, RunDiff, Summary};

pub fn run(d: &RunDiff, color: bool, w: &mut dyn Write) -> io::Result<()> {
    let side = |o: &Option<crate::input::Origin>| o.as_ref().map_or("(none)".to_string(), at);
    let head = format!("run {}", d.index);
    let head = if color { head.bold().to_string() } else { head };
    writeln!(w, "{head}  old {}  new {}", side(&d.old), side(&d.new))?;
    match (&d.old, &d.new) {
        (None, _) => return writeln!(w, "  only in new"),
        (_, None) => return writeln!(w, "  only in old"),
        _ => {}
    }
    for diff in &d.differences {
        let path = if color {
            diff.pointer.cyan().to_string()
        } else {
            diff.pointer.clone()
        };
        writeln!(w, "  {path} {}", diff.change.as_str())?;
        let (old, new) = (show(diff.old.as_ref()), show(diff.new.as_ref()));
        let (minus, plus) = (
            format!("- {}  {old}", at(&diff.old_at)),
            format!("+ {}  {new}", at(&diff.new_at)),
        );
        if color {
            let dim_old = diff.change == Change::Added;
            let dim_new = diff.change == Change::Removed;
            let paint = |s: String, dim: bool, red: bool| match (dim, red) {
                (true, _) => s.dimmed().to_string(),
                (false, true) => s.red().to_string(),
                (false, false) => s.green().to_string(),
            };
            writeln!(w, "    {}", paint(minus, dim_old, true))?;
            writeln!(w, "    {}", paint(plus, dim_new, false))?;
        } else {
            writeln!(w, "    {minus}")?;
            writeln!(w, "    {plus}")?;
        }
    }
    Ok(())
}

pub fn end(
    s: &Summary,
    old: &[String],
    new: &[String],
    color: bool,
    w: &mut dyn Write,
) -> io::Result<()> {
    let line = summary_line(s, old, new);
    match (color, s.is_equal()) {
        (true, true) => writeln!(w, "{}", line.green()),
        (true, false) => writeln!(w, "{}", line.red().bold()),
        _ => writeln!(w, "{line}"),
    }
}
