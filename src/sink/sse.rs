//! SSE frames byte-compatible with `@ag-ui/encoder`: `data: <compact JSON>\n\n`, LF only, no
//! `event:`/`id:` lines.

use std::io::{self, Write};

use serde_json::Value;

use crate::agui::StrShaped;

use super::{encode, encode_json, write_frame, write_snapshot_frame, Sink};

pub struct SseSink<W> {
    w: W,
    buf: Vec<u8>,
    /// Long strings' escaped pieces ([`super::write_frame`]).
    scratch: Vec<u8>,
}

impl<W: Write> SseSink<W> {
    pub fn new(w: W) -> Self {
        SseSink {
            w,
            buf: Vec::with_capacity(4096),
            scratch: Vec::new(),
        }
    }
}

/// One SSE frame for an event.
pub fn frame(ev: &Value, buf: &mut Vec<u8>) {
    buf.extend_from_slice(b"data: ");
    encode_json(ev, buf);
    buf.extend_from_slice(b"\n\n");
}

impl<W: Write> Sink for SseSink<W> {
    fn write_event(&mut self, ev: &Value) -> io::Result<()> {
        let (w, buf, scratch) = (&mut self.w, &mut self.buf, &mut self.scratch);
        write_frame(w, buf, scratch, b"data: ", b"\n\n", |buf, holes| {
            encode::write_value_with(ev, buf, holes)
        })
    }

    fn write_with_snapshot(&mut self, ev: &Value, snapshot: &[&str]) -> io::Result<()> {
        write_snapshot_frame(&mut self.w, &mut self.buf, ev, snapshot, b"data: ", b"\n\n")
    }

    fn write_shaped(&mut self, ev: &Value, shape: StrShaped) -> io::Result<()> {
        let (w, buf, scratch) = (&mut self.w, &mut self.buf, &mut self.scratch);
        write_frame(w, buf, scratch, b"data: ", b"\n\n", |buf, holes| {
            encode::write_shaped_with(ev, shape, buf, holes)
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn frame_is_encoder_compatible() {
        let mut out = vec![];
        let mut s = SseSink::new(&mut out);
        s.write_event(&json!({"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"22°C \"q\""}))
            .expect("in-memory write");
        assert_eq!(
            String::from_utf8(out).expect("utf8"),
            "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"22°C \\\"q\\\"\"}\n\n"
        );
    }
}
