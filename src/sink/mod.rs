//! Sinks: where AG-UI events go. One module per output format, each a [`Sink`].

pub mod encode;
mod ndjson;
mod sse;

use std::io::{self, Write};

use serde_json::Value;

use crate::agui::StrShaped;

pub use ndjson::NdjsonSink;
pub use sse::{frame as sse_frame, SseSink};

/// An output format for AG-UI events.
pub trait Sink {
    /// Writes one event. A frame is handed to the writer whole (no half frames on error), but
    /// for a snapshot ([`Sink::write_with_snapshot`]) or a string of 64 KiB or more
    /// ([`encode::Holes`]): those are written from where they are, in pieces.
    fn write_event(&mut self, ev: &Value) -> io::Result<()>;
    /// Writes an event whose `snapshot` is the compact JSON text `snapshot` joins (a state
    /// written on a parse thread, [`crate::model::EncodedState::json_parts`]), as
    /// [`Sink::write_event`] would write the event with that value in place. A snapshot of
    /// 64 KiB or more is handed to the writer from where its parts are, between the frame's
    /// head and tail.
    fn write_with_snapshot(&mut self, ev: &Value, snapshot: &[&str]) -> io::Result<()>;
    /// Writes an event laid out as `shape` says, as [`Sink::write_event`] would (without
    /// looking its keys up: [`encode::write_shaped`]).
    fn write_shaped(&mut self, ev: &Value, _shape: StrShaped) -> io::Result<()> {
        self.write_event(ev)
    }
    fn flush(&mut self) -> io::Result<()>;
}

/// A boxed sink is a sink (so wrappers such as `replay::PacedSink` take either).
impl<S: Sink + ?Sized> Sink for Box<S> {
    fn write_event(&mut self, ev: &Value) -> io::Result<()> {
        (**self).write_event(ev)
    }

    fn write_with_snapshot(&mut self, ev: &Value, snapshot: &[&str]) -> io::Result<()> {
        (**self).write_with_snapshot(ev, snapshot)
    }

    fn write_shaped(&mut self, ev: &Value, shape: StrShaped) -> io::Result<()> {
        (**self).write_shaped(ev, shape)
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

/// A snapshot this long is written from where its parts are kept
/// ([`crate::model::EncodedState`]), not copied into the sink's frame buffer: a state of long
/// messages would otherwise hold a second copy of itself there, in a buffer kept at its size.
const SPLIT_SNAPSHOT: usize = 64 * 1024;
/// Writes a frame of `prefix`, `ev` with `snapshot` (the parts of a compact JSON text) as its
/// `snapshot` value, and `suffix`, byte for byte as [`encode::write_with_snapshot`] would
/// between them: a long snapshot straight from its parts ([`SPLIT_SNAPSHOT`]).
fn write_snapshot_frame<W: Write>(
    w: &mut W,
    buf: &mut Vec<u8>,
    ev: &Value,
    snapshot: &[&str],
    prefix: &[u8],
    suffix: &[u8],
) -> io::Result<()> {
    buf.clear();
    buf.extend_from_slice(prefix);
    if snapshot.iter().map(|p| p.len()).sum::<usize>() >= SPLIT_SNAPSHOT {
        if let Some(at) = encode::write_with_snapshot_slot(ev, buf) {
            buf.extend_from_slice(suffix);
            w.write_all(&buf[..at])?;
            for part in snapshot {
                w.write_all(part.as_bytes())?;
            }
            return w.write_all(&buf[at..]);
        }
        buf.truncate(prefix.len());
    }
    encode::write_with_snapshot(ev, snapshot, buf);
    buf.extend_from_slice(suffix);
    w.write_all(buf)
}

/// Writes `prefix`, what `encode` writes, and `suffix` to `w` through `buf` (cleared first),
/// with the strings `encode` leaves out ([`encode::Holes`]) escaped in their places a piece at
/// a time through `scratch`: a frame buffer stays the size of a frame's short fields, not of
/// a megabyte's tool result.
fn write_frame<'a, W: Write>(
    w: &mut W,
    buf: &mut Vec<u8>,
    scratch: &mut Vec<u8>,
    prefix: &[u8],
    suffix: &[u8],
    encode: impl FnOnce(&mut Vec<u8>, &mut encode::Holes<'a>),
) -> io::Result<()> {
    buf.clear();
    buf.extend_from_slice(prefix);
    let mut holes = encode::Holes::default();
    encode(buf, &mut holes);
    buf.extend_from_slice(suffix);
    if holes.0.is_empty() {
        w.write_all(buf)
    } else {
        encode::write_holes(w, buf, &holes.0, scratch)
    }
}

/// Serializes an event exactly as `JSON.stringify` would for these values: compact, keys in
/// insertion order, non-ASCII as raw UTF-8.
pub fn encode_json(ev: &Value, buf: &mut Vec<u8>) {
    encode::write_value(ev, buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A snapshot written from its text, long or short, makes the frame the event with that
    /// value in place makes, in either format.
    #[test]
    fn snapshot_frames_equal_whole_events() {
        let long = "é\"\n".repeat(SPLIT_SNAPSHOT / 2);
        for text in ["x".to_string(), "y".repeat(SPLIT_SNAPSHOT - 2), long] {
            let state = json!({"messages": [], "note": text});
            let snapshot = serde_json::to_string(&state).expect("a value");
            let ev = json!({"type": "STATE_SNAPSHOT", "timestamp": 7, "snapshot": null, "rawEvent": {"a": [1]}});
            let mut whole = ev.clone();
            whole["snapshot"] = state;
            for format in [Format::Sse, Format::Ndjson] {
                let (mut split, mut plain) = (vec![], vec![]);
                for_format(format, &mut split)
                    .write_with_snapshot(&ev, &[&snapshot[..1], &snapshot[1..]])
                    .expect("in-memory write");
                for_format(format, &mut plain)
                    .write_event(&whole)
                    .expect("in-memory write");
                assert_eq!(
                    split,
                    plain,
                    "{format:?}, snapshot of {} bytes",
                    snapshot.len()
                );
            }
        }
        // Not an event object with a snapshot key: written whole, as it is.
        let mut out = vec![];
        for_format(Format::Ndjson, &mut out)
            .write_with_snapshot(&json!([1]), &[&"z".repeat(SPLIT_SNAPSHOT)])
            .expect("in-memory write");
        assert_eq!(out, b"[1]\n");
    }
}
