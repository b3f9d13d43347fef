//! Diff report formats, one module each. A report is written run by run as the diff goes
//! ([`Report::run`]), then closed with the summary ([`Report::end`]).

mod github;
mod json;
mod text;

use std::io::{self, Write};

use serde_json::Value;

use super::{RunDiff, Summary};
use crate::input::Origin;
use crate::text::count;

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
            Format::Json => json::run(d, self.written == 0, self.w)?,
            Format::Github => github::run(d, self.w)?,
        }
        self.written += 1;
        Ok(())
    }

    /// The summary of `old` against `new` (the sides' file names), and the report's end.
    pub fn end(&mut self, s: &Summary, old: &[String], new: &[String]) -> io::Result<()> {
        match self.format {
            Format::Text => text::end(s, old, new, self.color, self.w),
            Format::Json => json::end(s, old, new, self.written == 0, self.w),
            Format::Github => github::end(s, old, new, self.w),
        }
    }
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
    let bad = if s.bad_lines > 0 {
        format!(", {} unreadable", count(s.bad_lines, "line"))
    } else {
        String::new()
    };
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
