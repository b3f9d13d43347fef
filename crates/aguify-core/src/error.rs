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
    /// `--strict` was given and a line was bad (already reported).
    #[error("{at}: stopping at the first bad line (--strict)")]
    Strict {
        /// The bad line's `file:line`.
        at: String,
        /// Why it is bad, in words: what was expected.
        message: String,
    },
    /// A [`crate::Converter`] was fed after it was finished or returned an error.
    #[error("the converter was finished, or stopped at an earlier error")]
    Stopped,
}

impl Error {
    /// An [`Error::Input`] of `path`, for `map_err`: `File::open(path).map_err(Error::input(path))`.
    pub fn input(path: &str) -> impl FnOnce(io::Error) -> Error + '_ {
        move |source| Error::Input {
            path: path.to_string(),
            source,
        }
    }
}

/// Why a line (or SSE frame) was left out, by type: `check` maps each to its rule. The
/// message ([`BadLine`]) says it in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reason {
    /// Not UTF-8 text.
    NotUtf8,
    /// Longer than `--max-line-bytes` (a line, or an SSE frame's data); skipped unread.
    TooLong,
    /// No JSON (invalid, cut off, nested too deeply), or an SSE frame without JSON data.
    NotJson,
    /// JSON, but an array where a record is an object.
    Array,
    /// JSON, but a string, number, boolean or `null` where a record is an object.
    NotObject,
    /// A record of no known form.
    NoKnownForm,
    /// A record of another form than `--from` asks for.
    NotTheForcedForm {
        /// The form `--from` asks for.
        forced: crate::Family,
        /// The record's form.
        found: crate::Family,
    },
    /// A record of another form than the file's first record (mixed forms).
    MixedForms,
    /// A v3 event that repeats an earlier line exactly (a replayed `seq`).
    DuplicateV3Event,
    /// A record of a known form that lacks what converting it needs.
    Unconvertible,
    /// A v3 `message-finish` or `error` with no message open (a broken message lifecycle).
    MessageLifecycle,
    /// A v3 `content-block-*` event outside a message (a broken content-block lifecycle).
    BlockLifecycle,
}

/// A line that was left out: why, by type and in words. It displays as its message.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct BadLine {
    /// Why, by type.
    pub reason: Reason,
    /// Why, in words: what was expected.
    pub message: String,
}

impl BadLine {
    /// A bad line of `reason`, told by `message`.
    pub fn new(reason: Reason, message: impl Into<String>) -> Self {
        BadLine {
            reason,
            message: message.into(),
        }
    }
}

/// A record of a known form that cannot be converted ([`Reason::Unconvertible`]).
impl<T: Into<String>> From<T> for BadLine {
    fn from(message: T) -> Self {
        BadLine::new(Reason::Unconvertible, message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Origin;
    use crate::pipeline::{run, Input, Observer, Options};

    /// Each bad line's reason, in input order.
    fn reasons(log: &str, opts: &Options) -> Vec<(u64, Reason)> {
        struct Reasons(Vec<(u64, Reason)>);
        impl Observer for Reasons {
            fn bad_line(&mut self, origin: &Origin, bad: &BadLine) {
                self.0.push((origin.line, bad.reason));
            }
            fn event(&mut self, _: &crate::Event, _: &Origin) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut got = Reasons(vec![]);
        let input = Input::from_bytes("t", log.as_bytes().to_vec());
        run(vec![input], opts, &mut got).expect("in memory");
        got.0
    }

    /// A bad line carries why by type, whether the framing or an adapter left it out.
    #[test]
    fn bad_lines_carry_their_reason() {
        let v3 = r#"{"type":"event","seq":1,"method":"lifecycle","params":{"namespace":[],"data":{"event":"running"}}}"#;
        let v2 = r#"{"event":"on_chain_start","name":"a","run_id":"r","data":{},"parent_ids":[]}"#;
        let log = [v3, v3, v2, "[1]", "\"s\"", "{", r#"{"x":1}"#, "\u{1}"].join("\n");
        assert_eq!(
            reasons(&log, &Options::default()),
            [
                (2, Reason::DuplicateV3Event),
                (3, Reason::MixedForms),
                (4, Reason::Array),
                (5, Reason::NotObject),
                (6, Reason::NotJson),
                (7, Reason::NoKnownForm),
                (8, Reason::NotJson),
            ]
        );
        let forced = Options {
            from: Some(crate::Family::V2),
            max_line_bytes: 90,
            ..Options::default()
        };
        assert_eq!(
            reasons(&[v3, "[2]"].join("\n"), &forced),
            [(1, Reason::TooLong), (2, Reason::Array)]
        );
        let v3_short = r#"{"type":"event","method":"lifecycle"}"#;
        assert_eq!(
            reasons(v3_short, &forced),
            [(
                1,
                Reason::NotTheForcedForm {
                    forced: crate::Family::V2,
                    found: crate::Family::V3
                }
            )]
        );
        // SSE data may be an array (`[message, metadata]` frames): of no known form alone.
        let sse = "data: [1]\n\ndata: 5\n\ndata: {\n\n";
        assert_eq!(
            reasons(sse, &Options::default()),
            [
                (1, Reason::NoKnownForm),
                (3, Reason::NotObject),
                (5, Reason::NotJson)
            ]
        );
    }
}
