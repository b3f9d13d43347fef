//! Library errors. `anyhow` lives only in the binary.

use std::io;

/// Errors that stop a pipeline (as opposed to per-line diagnostics, which let the stream go on).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An input could not be opened or read.
    #[error("{path}: {source}")]
    Input {
        /// The input's path (`-` for stdin).
        path: String,
        /// What went wrong.
        #[source]
        source: io::Error,
    },
    /// Writing the output failed (a closed pipe is reported as this, with `BrokenPipe`).
    #[error("writing output: {0}")]
    Output(#[source] io::Error),
    /// `--strict` was given and a line was bad (already reported); holds its `file:line`.
    #[error("{0}: stopping at the first bad line (--strict)")]
    Strict(String),
    /// A [`crate::Converter`] was fed after it was finished or returned an error.
    #[error("the converter was finished, or stopped at an earlier error")]
    Stopped,
}

impl Error {
    /// True when the error is a closed output pipe, which a CLI treats as a quiet success.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Output(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// An OS error's text without std's " (os error N)" suffix: "No such file or directory".
pub fn os_text(e: &io::Error) -> String {
    let text = e.to_string();
    match e.raw_os_error() {
        Some(code) => text
            .strip_suffix(&format!(" (os error {code})"))
            .map_or(text.clone(), str::to_string),
        None => text,
    }
}
