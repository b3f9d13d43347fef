//! `--format json`: one JSON object, written run by run:
//! `{"runs": [RUN…], "equal": BOOL, "old": [FILE…], "new": [FILE…], "summary": {…}}`, where each RUN (only
//! runs that differ) is `{"run", "old", "new", "differences": [{"path", "change", "old",
//! "new", "oldAt", "newAt"}]}` with each place `{"file", "line"}` (a run one side lacks has
//! `null` there and no differences).

use std::io::{self, Write};

use serde_json::{json, Value};

use crate::diff::{RunDiff, Summary};
use crate::input::Origin;

fn place(o: &Origin) -> Value {
    json!({"file": &*o.file, "line": o.line})
}

/// The report's opening before the first run, a separator before the others.
const OPEN: &[u8] = b"{\"runs\":[";

pub fn run(d: &RunDiff, first: bool, w: &mut dyn Write) -> io::Result<()> {
    w.write_all(if first { OPEN } else { b"," })?;
    let differences: Vec<Value> = d
        .differences
        .iter()
        .map(|x| {
            json!({
                "path": x.pointer,
                "change": x.change.as_str(),
                "old": x.old,
                "new": x.new,
                "oldAt": place(&x.old_at),
                "newAt": place(&x.new_at),
            })
        })
        .collect();
    let v = json!({
        "run": d.index,
        "old": d.old.as_ref().map(place),
        "new": d.new.as_ref().map(place),
        "differences": differences,
    });
    serde_json::to_writer(&mut *w, &v)?;
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
