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
//! sinks. They are private: the `internals` feature makes them public for the `aguify` package
//! (its checker, views, tests and fuzz targets), and is not API.
#![cfg_attr(
    not(feature = "internals"),
    doc = "```compile_fail\n// A stage is not reachable without `internals`.\nuse aguify_core::wire;\n```"
)]
#![deny(missing_docs)]
// Without `internals`, what only the `aguify` package reads of the stages is unused here.
#![cfg_attr(not(feature = "internals"), allow(dead_code, unused_imports))]

// Not API: the stages below are private unless the `internals` feature is on. The `aguify`
// package turns it on (its checker, views and tests read the stages' types); anything in them
// may change in any release. They are declared in one module (its files in this directory,
// where `cargo fmt` reaches them) whose modules are imported here: their paths read
// `crate::input`, and the `internals` feature re-exports them. A `pub(in …)` path names the
// module they are in (`super::…`, or `crate::stages::…`).
#[doc(hidden)]
#[path = ""]
mod stages {
    pub mod adapter;
    pub mod agui;
    pub mod convert;
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
}
#[cfg(feature = "internals")]
#[doc(hidden)]
pub use stages::*;
#[cfg(not(feature = "internals"))]
use stages::*;

pub use adapter::Family;
pub use agui::{
    ErrorDetail, Event, EventType, ResultStatus, Role, Snapshot, Subtype, ToolContent, UsageTotal,
    EVENT_TYPES,
};
pub use convert::Converter;
pub use error::Error;
pub use input::Framing;
pub use mapper::{Compat, MapOptions, Target, TextPolicy, ToolSteps};
pub use pipeline::{Options, Problem, Seen, Severity, Stats, WrongForm};
pub use sink::{Format, FrameSink, Sink};

pub mod observe {
    //! Whole files through the conversion, watched stage by stage: [`run`] feeds every input
    //! in order to an [`Observer`], which sees each [`Record`] with its [`RecordKind`] and
    //! [`Disposition`], each model event, and each AG-UI event with the line it came from.
    //! The `aguify` binary's `convert`, `check`, `timeline` and `explain` are observers.
    pub use crate::adapter::{classify, RecordKind};
    pub use crate::input::{detect_framing, Disposition, Origin, Record, DEFAULT_MAX_LINE_BYTES};
    pub use crate::model::{ErrorInfo, ModelEvent, ToolResult};
    pub use crate::pipeline::{convert_to_vec, run, Input, Observer, Opener};
}
