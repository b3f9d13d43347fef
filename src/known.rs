//! Whether each input held anything aguify reads: a file of which no record is of a known form
//! (a CSV, a binary file, an empty file, a JSON array, the wrong `--from`) is named with why,
//! and the command exits 2 (`check` says it as an AGX505 finding).

use crate::pipeline::{Seen, Stats};

/// What is said of file `name` when none of its records is of a known form (after `FILE: `):
/// the form found instead of the one `--from` asks for, or the `jq` hint for a JSON array.
pub fn why(seen: &Seen, name: &str) -> String {
    if let Some(wrong) = seen.wrong_form {
        let (forced, found) = (wrong.forced.name(), wrong.found.name());
        return format!(
            "its records are {found} records, not the {forced} records --from asks for \
             (without --from the form is detected per file)"
        );
    }
    let array = format!("; it holds a JSON array: `jq -c '.[]' {name}` writes one record a line");
    let array = if seen.array { array.as_str() } else { "" };
    format!("no AG-UI or LangGraph records (is it NDJSON or SSE?){array}")
}

/// `(file, why)` of each input of `stats` that held nothing of a known form, in input order.
pub fn unread_files(stats: &Stats) -> impl Iterator<Item = (&str, String)> {
    let unread = stats.files.iter().filter(|(_, f)| !f.read);
    unread.map(|(name, f)| (&**name, why(f, name)))
}
