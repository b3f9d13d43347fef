//! aguify: LangGraph event logs in, AG-UI 1.0 events out.
//!
//! The modules follow the data flow:
//! [`input`] frames bytes into JSON records (NDJSON lines or SSE frames) →
//! [`adapter`] turns each input family into the [`model`] (one internal event model) →
//! [`mapper`] turns the model into AG-UI 1.0 events ([`agui`]) →
//! [`sink`] writes them (SSE, NDJSON), while [`check`] consumes the same stream, and
//! [`timeline`] / [`explain`] turn it into a run-at-a-glance view and a failure diagnosis.
//! [`pipeline`] wires these stages together for one or more input files.
//! [`diff`] compares two streams run by run as a front end shows them, and [`snapshot`]
//! writes that view as a golden file. [`redact`] writes a recording with its text replaced,
//! to share.
//! [`replay`] paces a stream by its recorded timestamps; [`serve`] serves recorded runs as a
//! live AG-UI HTTP endpoint.

pub mod adapter;
pub mod agui;
pub mod check;
pub mod diff;
pub mod error;
pub mod explain;
pub mod input;
pub mod js_numbers;
pub mod json;
pub mod known;
pub mod mapper;
pub mod model;
pub mod payload;
pub mod pipeline;
pub mod recent;
pub mod redact;
pub mod replay;
pub mod report;
pub mod serve;
pub mod sink;
pub mod snapshot;
pub mod text;
pub mod timeline;
pub mod utf8;
pub mod wire;

pub use error::Error;
