//! Golden snapshots: a conversation's runs written one value a line, stable across executions
//! (placeholder ids, no timestamps, joined text, sorted keys), for a repository to commit and a
//! reviewer to read in a pull request. `aguify diff` takes a snapshot as either side.
//!
//! ```text
//! # aguify snapshot 1
//! run 1
//! /outcome "success"
//! /steps []
//! /steps/0 "model"
//! /messages/user-1/text "Weather in Paris?"
//! /toolCalls/call-1/args/city "Paris"
//! ```
//!
//! After the header line, `run N` starts a run and every other line is a JSON pointer, one
//! space, and a JSON value ([`crate::leaf`]: `[]` marks an array whose items follow,
//! `{}` is an empty object). A pointer holding a space, a `"` or a control character is written
//! as a JSON string. Blank lines and lines starting with `#` are skipped.

pub mod read;
pub mod write;

/// The first line of every snapshot.
pub const HEADER: &str = "# aguify snapshot 1";
