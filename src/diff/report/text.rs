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
        let pointer = crate::text::printable(&diff.pointer);
        let path = if color {
            pointer.cyan().to_string()
        } else {
            pointer.into_owned()
        };
        writeln!(w, "  {path} {}", diff.change.as_str())?;
        let (old, new) = cut(&show(diff.old.as_ref()), &show(diff.new.as_ref()), color);
        let (dim_old, dim_new) = (diff.change == Change::Added, diff.change == Change::Removed);
        let minus = paint(format!("- {}", at(&diff.old_at)), color, true, dim_old);
        let plus = paint(format!("+ {}", at(&diff.new_at)), color, false, dim_new);
        writeln!(w, "    {minus}  {old}")?;
        writeln!(w, "    {plus}  {new}")?;
    }
    Ok(())
}

/// A side's line, on a terminal red (old) or green (new), or dimmed.
fn paint(s: String, color: bool, red: bool, dim: bool) -> String {
    match (color, dim, red) {
        (false, ..) => s,
        (true, true, _) => s.dimmed().to_string(),
        (true, false, true) => s.red().to_string(),
        (true, false, false) => s.green().to_string(),
    }
}

/// Characters of context kept on each side of a changed part of a long value.
const CONTEXT: usize = 40;

/// Two values' JSON texts, the part that differs marked in colour (bold, red / green), and a
/// long common start or end cut to [`CONTEXT`] characters around it.
fn cut(a: &str, b: &str, color: bool) -> (String, String) {
    let prefix = crate::diff::compare::first_difference(a, b);
    let (ra, rb) = (&a[prefix..], &b[prefix..]);
    let same = ra.chars().rev().zip(rb.chars().rev());
    let suffix: usize = same
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum();
    let one = |s: &str, red: bool| {
        let (head, rest) = s.split_at(prefix);
        let (mid, tail) = rest.split_at(rest.len() - suffix);
        let head = match head.char_indices().rev().nth(CONTEXT - 1) {
            Some((i, _)) => format!("…{}", &head[i..]),
            None => head.to_string(),
        };
        let tail = match tail.char_indices().nth(CONTEXT) {
            Some((i, _)) => format!("{}…", &tail[..i]),
            None => tail.to_string(),
        };
        let mid = match (color, red) {
            (false, _) => mid.to_string(),
            (true, true) => mid.red().bold().underline().to_string(),
            (true, false) => mid.green().bold().underline().to_string(),
        };
        format!("{head}{mid}{tail}")
    };
    (one(a, true), one(b, false))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_values_are_cut_around_the_change() {
        let a = format!("{} cat {}", "x".repeat(100), "y".repeat(100));
        let b = format!("{} dog {}", "x".repeat(100), "y".repeat(100));
        let (x, y) = cut(&show(Some(&a.into())), &show(Some(&b.into())), false);
        let (head, tail) = ("x".repeat(CONTEXT - 1), "y".repeat(CONTEXT - 1));
        assert_eq!(x, format!("…{head} cat {tail}…"));
        assert_eq!(y, format!("…{head} dog {tail}…"));
        assert_eq!(cut("\"a\\\"b\"", "\"a\\\"c\"", false).0, "\"a\\\"b\"");
        assert_eq!(
            cut("\"ab\"", "\"abc\"", false),
            ("\"ab\"".into(), "\"abc\"".into())
        );
        let list = |last: u32| show(Some(&(0..50).chain([last]).collect::<Vec<u32>>().into()));
        let (x, y) = cut(&list(1), &list(2), false);
        assert!(
            x.starts_with('…') && x.ends_with(",1]") && y.ends_with(",2]"),
            "{x} {y}"
        );
    }
}
