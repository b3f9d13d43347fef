//! aguify-core: LangGraph event logs in, AG-UI 1.0 events out.
//!
//! LangGraph records a graph's run as a stream of events: `astream_events` v2 (`on_chain_start`,
//! `on_chat_model_stream`, …), the v3 streaming protocol (`{"type":"event","method":…}`), or
//! the platform's SSE / SDK stream parts. This crate reads any of them, NDJSON or SSE, and
//! writes the [AG-UI 1.0](https://docs.ag-ui.com) events a front end expects (`RUN_STARTED`,
//! `TEXT_MESSAGE_CONTENT`, `TOOL_CALL_START`, `STATE_SNAPSHOT`, …) as typed [`Event`]s, then as
//! SSE (`data: <JSON>\n\n`, byte-compatible with `@ag-ui/encoder`) or NDJSON.
//!
//! # Converting a stream
//!
//! Build a [`Converter`] with [`Options`], feed it bytes or lines as they arrive, take the
//! events each feed completes, and [`finish`](Converter::finish) it at the end of the input:
//!
//! ```
//! use aguify_core::{Converter, Format, FrameSink, Options, Sink};
//!
//! let log = concat!(
//!     r#"{"event":"on_chain_start","name":"agent","run_id":"r1","data":{"input":{"messages":[]}},"metadata":{"thread_id":"t1"},"parent_ids":[]}"#,
//!     "\n",
//!     r#"{"event":"on_chain_end","name":"agent","run_id":"r1","data":{"output":{"messages":[]}},"metadata":{"thread_id":"t1"},"parent_ids":[]}"#,
//!     "\n",
//! );
//! let mut converter = Converter::new(Options::default());
//! let mut sse = FrameSink::new(Format::Sse, Vec::new());
//! for chunk in log.as_bytes().chunks(50) {
//!     for event in converter.feed(chunk)? {
//!         sse.write_event(&event)?;
//!     }
//! }
//! let (last, _stats) = converter.finish()?;
//! for event in last {
//!     sse.write_event(&event)?;
//! }
//! let text = String::from_utf8(sse.into_inner()).expect("SSE is UTF-8");
//! assert!(text.starts_with(r#"data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1""#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A line that cannot be read is reported as a [`Problem`] ([`Converter::take_problems`]), and
//! the rest of the stream still converts. Output is deterministic: ids the log does not carry
//! are derived from its bytes, never random.
//!
//! `examples/stream_sse.rs` in the repository streams stdin to stdout this way.
//!
//! # Reading along
//!
//! [`observe`] runs whole files through the same stages with an [`Observer`](observe::Observer)
//! that sees each input record with its kind, the internal model events and the AG-UI events:
//! what the `aguify` binary's checker, timeline and explain views are built on.
//!
//! # The stages
//!
//! Inside, the modules follow the data flow: input framing (NDJSON lines or SSE frames, parse
//! threads) → wire readers (one typed reader per line kind) → one adapter per input family →
//! the internal model → the mapper (model → AG-UI events: framing, pairing, ids, resume) →
//! sinks. They are not public API.
#![deny(missing_docs)]

// Not API: the stages are public only for the `aguify` package, its tests and fuzz targets
// (`#[doc(hidden)]`); anything in them may change in any release. The API is re-exported
// below.
#[doc(hidden)]
pub mod adapter;
#[doc(hidden)]
pub mod agui;
mod convert;
#[doc(hidden)]
pub mod error;
#[doc(hidden)]
pub mod input;
#[doc(hidden)]
pub mod js_numbers;
#[doc(hidden)]
pub mod json;
#[doc(hidden)]
pub mod mapper;
#[doc(hidden)]
pub mod model;
#[doc(hidden)]
pub mod payload;
#[doc(hidden)]
pub mod pipeline;
#[doc(hidden)]
pub mod recent;
#[doc(hidden)]
pub mod sink;
#[doc(hidden)]
pub mod utf8;
#[doc(hidden)]
pub mod wire;

pub use adapter::Family;
pub use agui::{
    ErrorDetail, Event, EventType, ResultStatus, Role, Snapshot, Subtype, ToolContent, UsageTotal,
    EVENT_TYPES,
};
pub use convert::{Converter, Problem, Severity};
pub use error::Error;
pub use input::Framing;
pub use mapper::{Compat, MapOptions, TextPolicy, ToolSteps};
pub use pipeline::{Options, Stats};
pub use sink::{Format, FrameSink, Sink};

pub mod observe {
    //! Whole files through the conversion, watched stage by stage: [`run`] feeds every input
    //! in order to an [`Observer`], which sees each [`Record`] with its [`RecordKind`] and
    //! [`Disposition`], each model event, and each AG-UI event with the line it came from.
    //! The `aguify` binary's `convert`, `check`, `timeline` and `explain` are observers.
    pub use crate::adapter::{classify, Disposition, RecordKind};
    pub use crate::input::{detect_framing, Origin, Record, DEFAULT_MAX_LINE_BYTES};
    pub use crate::model::{ErrorInfo, ModelEvent};
    pub use crate::pipeline::{convert_to_vec, run, Input, Observer};
}
