//! Which files of a directory are recordings: a walk in name order with ripgrep's rules.
//!
//! A recording is a regular file named `*.ndjson`, `*.jsonl` or `*.sse` (any case). Hidden
//! entries (a name starting with `.`) and `node_modules` folders are not entered; symbolic
//! links are skipped unless `follow_links`, and then a link back to a folder being walked is
//! told once and not walked again. Sockets, FIFOs and devices are skipped: a FIFO named
//! `x.ndjson` would block the reader forever.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// What `check DIR` and `serve --conversation DIR` look for, for messages.
pub const RECORDING_PATTERNS: &str = "*.ndjson, *.jsonl, *.sse";

/// Whether a file name is a recording's (`.ndjson`, `.jsonl`, `.sse`, any case).
pub fn is_recording_name(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        ["ndjson", "jsonl", "sse"]
            .iter()
            .any(|x| e.eq_ignore_ascii_case(x))
    })
}

/// A folder the walk does not enter: hidden, or `node_modules`.
fn skipped_folder(name: &str) -> bool {
    name.starts_with('.') || name == "node_modules"
}

/// The result of a walk: the recordings in name order, and what could not be walked.
#[derive(Debug, Default)]
pub struct Walk {
    /// The recordings, and `(path, why)` of each folder that could not be read, at its place.
    pub entries: Vec<Result<String, (String, io::Error)>>,
    /// `(link, target)` of each followed link that leads back to a folder being walked.
    pub loops: Vec<(String, String)>,
}

/// Walks `dir` (always entered, whatever its name; a link given as the folder is followed),
/// and with `nested` the folders below it.
pub fn recordings(dir: &Path, follow_links: bool, nested: bool) -> Walk {
    let mut walk = Walk::default();
    let mut ancestors = vec![];
    walk_dir(dir, (follow_links, nested), &mut ancestors, &mut walk);
    walk
}

/// A file's identity (device and inode; none off Unix): to tell a link back to an ancestor
/// folder, a followed file replaced.
#[cfg(unix)]
pub fn identity(m: &fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (m.dev(), m.ino())
}

#[cfg(not(unix))]
pub fn identity(_: &fs::Metadata) -> (u64, u64) {
    (0, 0)
}

fn walk_dir(
    dir: &Path,
    (follow_links, nested): (bool, bool),
    ancestors: &mut Vec<((u64, u64), PathBuf)>,
    walk: &mut Walk,
) {
    let unreadable = |walk: &mut Walk, e| walk.entries.push(Err((dir.display().to_string(), e)));
    let id = match fs::metadata(dir) {
        Ok(m) => identity(&m),
        Err(e) => return unreadable(walk, e),
    };
    if cfg!(unix) {
        if let Some((_, first)) = ancestors.iter().find(|(a, _)| *a == id) {
            let target = first.display().to_string();
            walk.loops.push((dir.display().to_string(), target));
            return;
        }
    }
    let mut entries: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(read) => read.filter_map(Result::ok).map(|e| e.path()).collect(),
        Err(e) => return unreadable(walk, e),
    };
    entries.sort();
    ancestors.push((id, dir.to_path_buf()));
    for path in entries {
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        // A link not followed is neither a folder nor a file; a dangling one is skipped.
        let meta = match fs::symlink_metadata(&path) {
            Ok(m) if follow_links && m.file_type().is_symlink() => fs::metadata(&path),
            m => m,
        };
        let Ok(meta) = meta else {
            continue;
        };
        if meta.is_dir() {
            if nested && !skipped_folder(name) {
                walk_dir(&path, (follow_links, nested), ancestors, walk);
            }
        } else if meta.is_file() && !name.starts_with('.') && is_recording_name(&path) {
            walk.entries.push(Ok(path.to_string_lossy().into_owned()));
        }
    }
    ancestors.pop();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recording_names_any_case() {
        for n in ["a.ndjson", "a.NDJSON", "b.JsonL", "c.sse", "d.SSE"] {
            assert!(is_recording_name(Path::new(n)), "{n}");
        }
        for n in ["a.json", "a.ndjson.txt", "ndjson", "a.csv"] {
            assert!(!is_recording_name(Path::new(n)), "{n}");
        }
    }
}
