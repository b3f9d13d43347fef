//! `--format json`: one JSON object, written run by run:
//! `{"runs": [RUN…], "equal": BOOL, "old": [FILE…], "new": [FILE…], "summary": {…}}`, where each RUN (only
//! runs that differ) is `{"run", "old", "new", "differences": [{"path", "change", "old",
//! "new", "oldAt", "newAt"}]}` with each place `{"file", "line"}` (a run one side lacks has
//! `null` there and no differences).

use std::io::{self, Write};

use serde_json::json;

use crate::diff::{RunDiff, Summary};

/// The report's opening before the first run, a separator before the others.
const OPEN: &[u8] = b"{\"runs\":[";

pub fn run(d: &RunDiff, first: bool, w: &mut dyn Write) -> io::Result<()> {
    w.write_all(if first { OPEN } else { b"," })?;
    serde_json::to_writer(&mut *w, d)?;
    w.write_all(b"\n")
}

/// Closes the runs' list (opened here when no run differed) and writes the rest: `"equal"`,
/// `"old"`, `"new"`, `"summary"`.
pub fn end(
    s: &Summary,
    old: &[String],
    new: &[String],
    none: bool,
    w: &mut dyn Write,
) -> io::Result<()> {
    if none {
        w.write_all(OPEN)?;
    }
    let rest = json!({"equal": s.is_equal(), "old": old, "new": new, "summary": s});
    // The object's `{` is the report's, written by [`begin`].
    writeln!(w, "],{}", &rest.to_string()[1..])
}
