//! Diff report formats. A report is written run by run as the diff goes ([`Report::run`]),
//! then closed with the summary ([`Report::end`]):
//!
//! - `text`: per run, each difference with its path and both sides' `file:line`,
//!   coloured on a terminal, then a summary line;
//! - `json`: one JSON object, written run by run:
//!   `{"runs": [RUN…], "equal": BOOL, "old": [FILE…], "new": [FILE…], "summary": {…}}`, where
//!   each RUN (only runs that differ) is `{"run", "old", "new", "differences": [{"path",
//!   "change", "old", "new", "oldAt", "newAt"}]}` with each place `{"file", "line"}` (a run one
//!   side lacks has `null` there and no differences);
//! - `github`: one GitHub Actions annotation per difference, on the new side's line, and a
//!   last one with the summary when the sides differ.

mod text;

use std::io::{self, Write};

use serde_json::{json, Value};

use super::{RunDiff, Summary};
use crate::input::Origin;
use crate::text::{count, workflow_data as esc_data, workflow_property as esc_prop};

/// Report format of `aguify diff` (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
    Github,
}

/// A report being written to `w`.
pub struct Report<'w> {
    format: Format,
    color: bool,
    /// Runs written so far (the JSON report's separators).
    written: usize,
    w: &'w mut dyn Write,
}

impl<'w> Report<'w> {
    /// A report in `format` to `w` (`color`: coloured, the text report on a terminal).
    pub fn new(format: Format, color: bool, w: &'w mut dyn Write) -> Report<'w> {
        Report {
            format,
            color,
            written: 0,
            w,
        }
    }

    /// One run's comparison; equal runs write nothing.
    pub fn run(&mut self, d: &RunDiff) -> io::Result<()> {
        if d.is_equal() {
            return Ok(());
        }
        match self.format {
            Format::Text => text::run(d, self.color, self.w)?,
            Format::Json => {
                self.w
                    .write_all(if self.written == 0 { OPEN } else { b"," })?;
                serde_json::to_writer(&mut *self.w, d)?;
                self.w.write_all(b"\n")?
            }
            Format::Github => github(d, self.w)?,
        }
        self.written += 1;
        Ok(())
    }

    /// The summary of `old` against `new` (the sides' file names), and the report's end.
    pub fn end(&mut self, s: &Summary, old: &[String], new: &[String]) -> io::Result<()> {
        match self.format {
            Format::Text => text::end(s, old, new, self.color, self.w),
            // The runs' list closed (opened here when no run differed), then the rest of the
            // object: `"equal"`, `"old"`, `"new"`, `"summary"`.
            Format::Json => {
                if self.written == 0 {
                    self.w.write_all(OPEN)?;
                }
                let rest = json!({"equal": s.is_equal(), "old": old, "new": new, "summary": s});
                // The object's `{` is the report's, written with the first run.
                writeln!(self.w, "],{}", &rest.to_string()[1..])
            }
            Format::Github if s.is_equal() => Ok(()),
            Format::Github => {
                let line = esc_data(&summary_line(s, old, new));
                writeln!(self.w, "::error title=aguify diff::{line}")
            }
        }
    }
}

/// The JSON report's opening before the first run, a separator before the others.
const OPEN: &[u8] = b"{\"runs\":[";

/// A run's GitHub annotations: one per difference, on the new side's line.
fn github(d: &RunDiff, w: &mut dyn Write) -> io::Result<()> {
    let props = |o: &Origin| {
        let line = (o.line > 0).then(|| format!(",line={}", o.line));
        let title = esc_prop(&format!("aguify diff: run {}", d.index));
        let file = esc_prop(&o.file);
        format!("file={file}{},title={title}", line.unwrap_or_default())
    };
    match (&d.old, &d.new) {
        (Some(o), None) => return writeln!(w, "::error {}::run only in old", props(o)),
        (None, Some(n)) => return writeln!(w, "::error {}::run only in new", props(n)),
        _ => {}
    }
    for x in &d.differences {
        let (old, new) = (show(x.old.as_ref()), show(x.new.as_ref()));
        let (change, was) = (x.change.as_str(), at(&x.old_at));
        let msg = format!("{} {change}: {old} → {new} (old {was})", x.pointer);
        writeln!(w, "::error {}::{}", props(&x.new_at), esc_data(&msg))?;
    }
    Ok(())
}

/// A value as one line of compact JSON (`(absent)` when there is none), controls escaped.
fn show(v: Option<&Value>) -> String {
    v.map_or_else(|| "(absent)".to_string(), crate::text::json_string)
}

/// `file:line`, the file name's controls escaped ([`crate::text::printable`]).
fn at(o: &Origin) -> String {
    let file = crate::text::printable(&o.file);
    if o.line == 0 {
        file.into_owned()
    } else {
        format!("{file}:{}", o.line)
    }
}

/// `a.ndjson`, or `a.ndjson (+2 more)`, controls escaped.
fn files(f: &[String]) -> String {
    let p = |s: &str| crate::text::printable(s).into_owned();
    match f {
        [] => "-".to_string(),
        [one] => p(one),
        [first, rest @ ..] => format!("{} (+{} more)", p(first), rest.len()),
    }
}

/// The summary line of the text and GitHub reports.
fn summary_line(s: &Summary, old: &[String], new: &[String]) -> String {
    let sides = format!("{} → {}", files(old), files(new));
    let bad = (s.bad_lines > 0).then(|| format!(", {} unreadable", count(s.bad_lines, "line")));
    let bad = bad.unwrap_or_default();
    if s.is_equal() {
        format!("equal: {} ({sides}){bad}", count(s.runs, "run"))
    } else {
        format!(
            "{} in {} of {} ({sides}){bad}",
            count(s.differences, "difference"),
            s.different_runs,
            count(s.runs, "run"),
        )
    }
}
