//! `--format github`: one GitHub Actions annotation per difference, on the new side's line,
//! and a last one with the summary when the sides differ.

use std::io::{self, Write};

use super::{at, show, summary_line};
use crate::diff::{RunDiff, Summary};
use crate::input::Origin;
use crate::text::{workflow_data as esc_data, workflow_property as esc_prop};

fn props(o: &Origin, title: &str) -> String {
    let line = (o.line > 0).then(|| format!(",line={}", o.line));
    let (file, title) = (esc_prop(&o.file), esc_prop(title));
    format!("file={file}{},title={title}", line.unwrap_or_default())
}

pub fn run(d: &RunDiff, w: &mut dyn Write) -> io::Result<()> {
    let title = format!("aguify diff: run {}", d.index);
    match (&d.old, &d.new) {
        (Some(o), None) => return writeln!(w, "::error {}::run only in old", props(o, &title)),
        (None, Some(n)) => return writeln!(w, "::error {}::run only in new", props(n, &title)),
        _ => {}
    }
    for x in &d.differences {
        let msg = format!(
            "{} {}: {} → {} (old {})",
            x.pointer,
            x.change.as_str(),
            show(x.old.as_ref()),
            show(x.new.as_ref()),
            at(&x.old_at)
        );
        writeln!(
            w,
            "::error {}::{}",
            props(&x.new_at, &title),
            esc_data(&msg)
        )?;
    }
    Ok(())
}

pub fn end(s: &Summary, old: &[String], new: &[String], w: &mut dyn Write) -> io::Result<()> {
    if s.is_equal() {
        return Ok(());
    }
    writeln!(
        w,
        "::error title=aguify diff::{}",
        esc_data(&summary_line(s, old, new))
    )
}
