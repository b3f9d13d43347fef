//! aguify: LangGraph event logs in, AG-UI 1.0 events out.
//!
//! The conversion itself (framing, wire readers, adapters, model, mapper, AG-UI events, sinks,
//! the pipeline) is the `aguify-core` crate, re-exported here under its module names.
//! This crate adds what consumes the same stream: [`check`] checks it, and
//! [`timeline`] / [`explain`] turn it into a run-at-a-glance view and a failure diagnosis.
//! [`diff`] compares two streams run by run as a front end shows them, and [`snapshot`]
//! writes that view as a golden file; [`report`] renders an HTML report. [`redact`] writes a
//! recording with its text replaced, to share.
//! [`replay`] paces a stream by its recorded timestamps; [`serve`] serves recorded runs as a
//! live AG-UI HTTP endpoint; [`walk`] finds the recordings in a directory (`check DIR`,
//! `serve --conversation DIR`).

pub use aguify_core::Error;
pub use aguify_core::{
    adapter, agui, convert, error, input, js_numbers, json, mapper, model, payload, pipeline,
    recent, sink, utf8, wire,
};

pub mod check;
pub mod diff;
pub mod explain;
pub mod known;
pub mod leaf;
pub mod redact;
pub mod replay;
pub mod report;
pub mod serve;
pub mod snapshot;
pub mod text;
pub mod timeline;
pub mod walk;
