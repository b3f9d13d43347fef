//! aguify-core: LangGraph event logs in, AG-UI 1.0 events out.
//!
//! The modules follow the data flow:
//! [`input`] frames bytes into JSON records (NDJSON lines or SSE frames) →
//! [`adapter`] turns each input family into the [`model`] (one internal event model) →
//! [`mapper`] turns the model into AG-UI 1.0 events ([`agui`]) →
//! [`sink`] writes them (SSE, NDJSON).
//! [`pipeline`] wires these stages together for one or more input files.

pub mod adapter;
pub mod agui;
pub mod error;
pub mod input;
pub mod js_numbers;
pub mod json;
pub mod mapper;
pub mod model;
pub mod payload;
pub mod pipeline;
pub mod recent;
pub mod sink;
pub mod utf8;
pub mod wire;

pub use error::Error;
