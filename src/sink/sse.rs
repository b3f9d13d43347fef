//! SSE frames byte-compatible with `@ag-ui/encoder`: `data: <compact JSON>\n\n`, LF only, no
//! `event:`/`id:` lines.

use std::io::{self, Write};

use crate::agui::Event;

use super::{write_json, Sink};

pub struct SseSink<W> {
    w: W,
}

impl<W: Write> SseSink<W> {
    pub fn new(w: W) -> Self {
        SseSink { w }
    }
}

/// One SSE frame for an event (typed, or JSON as `serve` keeps them), appended to `buf`.
pub fn frame<E: serde::Serialize + ?Sized>(ev: &E, buf: &mut Vec<u8>) {
    buf.extend_from_slice(b"data: ");
    // Into a Vec this cannot fail.
    let _ = crate::js_numbers::to_writer(&mut *buf, ev);
    buf.extend_from_slice(b"\n\n");
}

fn write_frame<W: Write>(w: &mut W, ev: &Event) -> io::Result<()> {
    w.write_all(b"data: ")?;
    write_json(w, ev)?;
    w.write_all(b"\n\n")
}

impl<W: Write> Sink for SseSink<W> {
    fn write_event(&mut self, ev: &Event) -> io::Result<()> {
        write_frame(&mut self.w, ev)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_is_encoder_compatible() {
        let mut out = vec![];
        let mut s = SseSink::new(&mut out);
        s.write_event(&Event::TextMessageContent {
            subagent_run_id: None,
            timestamp: None,
            message_id: "m".into(),
            delta: "22°C \"q\"".into(),
        })
        .expect("in-memory write");
        assert_eq!(
            String::from_utf8(out).expect("utf8"),
            "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"22°C \\\"q\\\"\"}\n\n"
        );
    }
}
