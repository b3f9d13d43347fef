//! Sinks: where AG-UI events go, one frame per event: SSE (`data: <compact JSON>\n\n`, LF
//! only, no `event:`/`id:` lines: byte-compatible with `@ag-ui/encoder`) or NDJSON (one event
//! per line). Each [`Event`] is written with `serde_json` (compact, keys in order, non-ASCII
//! raw, floats by [`crate::js_numbers`]: what `JSON.stringify` writes) straight into its
//! writer (a buffered one: `convert` gives a `BufWriter`), so no frame is copied, however long
//! its strings.

use std::io::{self, Write};

use crate::agui::{Event, Snapshot};

/// An output format for AG-UI events.
pub trait Sink {
    /// Writes one event.
    fn write_event(&mut self, ev: &Event) -> io::Result<()>;
    /// Flushes what was written to the writer underneath.
    fn flush(&mut self) -> io::Result<()>;
}

/// `--to`: the output formats of `convert`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// `data: <JSON>\n\n` per event, as `@ag-ui/encoder` writes it.
    #[default]
    Sse,
    /// One JSON event a line.
    Ndjson,
}

/// Writes each event as a frame of its [`Format`] to `W`.
pub struct FrameSink<W> {
    w: W,
    format: Format,
}

impl<W: Write> FrameSink<W> {
    /// A sink writing `format` frames to `w` (buffer it: each frame is several writes).
    pub fn new(format: Format, w: W) -> Self {
        FrameSink { w, format }
    }

    /// The writer, with every frame written so far.
    pub fn into_inner(self) -> W {
        self.w
    }
}

impl<W: Write> Sink for FrameSink<W> {
    fn write_event(&mut self, ev: &Event) -> io::Result<()> {
        let (before, after): (&[u8], &[u8]) = match self.format {
            Format::Sse => (b"data: ", b"\n\n"),
            Format::Ndjson => (b"", b"\n"),
        };
        self.w.write_all(before)?;
        write_json(&mut self.w, ev)?;
        self.w.write_all(after)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}

/// One SSE frame for an event (typed, or JSON as `serve` keeps them), appended to `buf`.
pub fn sse_frame<E: serde::Serialize + ?Sized>(ev: &E, buf: &mut Vec<u8>) {
    buf.extend_from_slice(b"data: ");
    // Into a Vec this cannot fail.
    let _ = crate::js_numbers::to_writer(&mut *buf, ev);
    buf.extend_from_slice(b"\n\n");
}

/// Writes `ev` as compact JSON. A state a parse thread wrote is written from its parts
/// ([`crate::wire::state::State::write`]), not joined into one copy first.
pub fn write_json<W: Write>(w: &mut W, ev: &Event) -> io::Result<()> {
    if let Event::StateSnapshot {
        timestamp,
        snapshot: Snapshot::Encoded(state),
        ..
    } = ev
    {
        w.write_all(br#"{"type":"STATE_SNAPSHOT""#)?;
        if let Some(ts) = timestamp {
            w.write_all(br#","timestamp":"#)?;
            serde_json::to_writer(&mut *w, ts)?;
        }
        w.write_all(br#","snapshot":"#)?;
        state.write(w)?;
        return w.write_all(b"}");
    }
    crate::js_numbers::to_writer(w, ev).map_err(io::Error::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::state::State;
    use serde_json::json;

    #[test]
    fn sse_frames_are_encoder_compatible() {
        let mut out = vec![];
        let ev = Event::TextMessageContent {
            subagent_run_id: None,
            timestamp: None,
            message_id: "m".into(),
            delta: "22°C \"q\"".into(),
        };
        FrameSink::new(Format::Sse, &mut out)
            .write_event(&ev)
            .expect("in-memory write");
        assert_eq!(
            String::from_utf8(out).expect("utf8"),
            "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"22°C \\\"q\\\"\"}\n\n"
        );
    }

    /// A state written from its parts, long or short, makes the frame the state as a tree
    /// makes, in either format.
    #[test]
    fn encoded_snapshots_equal_trees() {
        let long = "é\"\n".repeat(64 * 1024);
        for text in ["x".to_string(), long] {
            let state = json!({"messages": [{"content": text, "id": "m"}], "note": 1});
            let Some(encoded) = State::read(&state.to_string()) else {
                panic!("a state with messages first");
            };
            for timestamp in [None, Some(7)] {
                let split = Event::StateSnapshot {
                    subagent_run_id: None,
                    timestamp,
                    snapshot: Snapshot::Encoded(Box::new(encoded.clone())),
                };
                let whole = Event::StateSnapshot {
                    subagent_run_id: None,
                    timestamp,
                    snapshot: Snapshot::Value(state.clone()),
                };
                for format in [Format::Sse, Format::Ndjson] {
                    let (mut a, mut b) = (vec![], vec![]);
                    FrameSink::new(format, &mut a)
                        .write_event(&split)
                        .expect("in memory");
                    FrameSink::new(format, &mut b)
                        .write_event(&whole)
                        .expect("in memory");
                    assert!(a == b, "{format:?}, {} bytes", a.len());
                }
                assert_eq!(
                    serde_json::to_value(&split).expect("serializes"),
                    serde_json::to_value(&whole).expect("serializes")
                );
            }
        }
    }
}
