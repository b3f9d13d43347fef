//! Sinks: where AG-UI events go. One module per output format, each a [`Sink`].

pub mod encode;
mod ndjson;
mod sse;

use std::io::{self, Write};

use serde_json::Value;

pub use ndjson::NdjsonSink;
pub use sse::{frame as sse_frame, SseSink};

/// An output format for AG-UI events.
pub trait Sink {
    /// Writes one event. A frame is written whole or not at all (no half frames on error).
    fn write_event(&mut self, ev: &Value) -> io::Result<()>;
    /// Writes an event whose `snapshot` is the compact JSON text `snapshot` (a state written
    /// on a parse thread, [`crate::model::EncodedState`]), as [`Sink::write_event`] would
    /// write the event with that value in place.
    fn write_with_snapshot(&mut self, ev: &Value, snapshot: &str) -> io::Result<()>;
    fn flush(&mut self) -> io::Result<()>;
}

/// A boxed sink is a sink (so wrappers such as `replay::PacedSink` take either).
impl<S: Sink + ?Sized> Sink for Box<S> {
    fn write_event(&mut self, ev: &Value) -> io::Result<()> {
        (**self).write_event(ev)
    }

    fn write_with_snapshot(&mut self, ev: &Value, snapshot: &str) -> io::Result<()> {
        (**self).write_with_snapshot(ev, snapshot)
    }

    fn flush(&mut self) -> io::Result<()> {
        (**self).flush()
    }
}

/// `--to`: the output formats of `convert`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Sse,
    Ndjson,
}

/// A boxed sink for a format, writing to `w`.
pub fn for_format<'a, W: Write + 'a>(format: Format, w: W) -> Box<dyn Sink + 'a> {
    match format {
        Format::Sse => Box::new(SseSink::new(w)),
        Format::Ndjson => Box::new(NdjsonSink::new(w)),
    }
}

/// Serializes an event exactly as `JSON.stringify` would for these values: compact, keys in
/// insertion order, non-ASCII as raw UTF-8.
pub fn encode_json(ev: &Value, buf: &mut Vec<u8>) {
    encode::write_value(ev, buf);
}
