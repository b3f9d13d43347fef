//! Writes runs as a snapshot ([`super`]).

use std::io::{self, Write};

use crate::leaf::Run;

/// The header and the comment that opens a snapshot.
pub fn header(w: &mut dyn Write) -> io::Result<()> {
    writeln!(w, "{}", super::HEADER)?;
    writeln!(
        w,
        "# one value a line: JSON pointer, JSON value; ids are placeholders by role and position"
    )
}

/// One run: `run N`, then its leaves.
pub fn run(run: &Run, w: &mut dyn Write) -> io::Result<()> {
    writeln!(w, "run {}", run.index)?;
    for leaf in &run.leaves {
        let quoted = |c: char| c.is_whitespace() || crate::text::is_unsafe(c) || c == '"';
        let plain = !leaf.pointer.is_empty() && !leaf.pointer.chars().any(quoted);
        if plain {
            w.write_all(leaf.pointer.as_bytes())?;
        } else {
            crate::text::write_json(&mut *w, &leaf.pointer)?;
        }
        w.write_all(b" ")?;
        crate::text::write_json(&mut *w, &leaf.value)?;
        w.write_all(b"\n")?;
    }
    Ok(())
}
