//! NDJSON: one compact AG-UI event per line.

use std::io::{self, Write};

use serde_json::Value;

use crate::agui::StrShaped;

use super::{encode_json, write_snapshot_frame, Sink};

pub struct NdjsonSink<W> {
    w: W,
    buf: Vec<u8>,
}

impl<W: Write> NdjsonSink<W> {
    pub fn new(w: W) -> Self {
        NdjsonSink {
            w,
            buf: Vec::with_capacity(4096),
        }
    }
}

impl<W: Write> Sink for NdjsonSink<W> {
    fn write_event(&mut self, ev: &Value) -> io::Result<()> {
        self.buf.clear();
        encode_json(ev, &mut self.buf);
        self.buf.push(b'\n');
        self.w.write_all(&self.buf)
    }

    fn write_with_snapshot(&mut self, ev: &Value, snapshot: &str) -> io::Result<()> {
        write_snapshot_frame(&mut self.w, &mut self.buf, ev, snapshot, b"", b"\n")
    }

    fn write_shaped(&mut self, ev: &Value, shape: StrShaped) -> io::Result<()> {
        self.buf.clear();
        super::encode::write_shaped(ev, shape, &mut self.buf);
        self.buf.push(b'\n');
        self.w.write_all(&self.buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}
