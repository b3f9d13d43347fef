//! NDJSON: one compact AG-UI event per line.

use std::io::{self, Write};

use serde_json::Value;

use crate::agui::StrShaped;

use super::{encode, write_frame, write_snapshot_frame, Sink};

pub struct NdjsonSink<W> {
    w: W,
    buf: Vec<u8>,
    /// Long strings' escaped pieces ([`super::write_frame`]).
    scratch: Vec<u8>,
}

impl<W: Write> NdjsonSink<W> {
    pub fn new(w: W) -> Self {
        NdjsonSink {
            w,
            buf: Vec::with_capacity(4096),
            scratch: Vec::new(),
        }
    }
}

impl<W: Write> Sink for NdjsonSink<W> {
    fn write_event(&mut self, ev: &Value) -> io::Result<()> {
        let (w, buf, scratch) = (&mut self.w, &mut self.buf, &mut self.scratch);
        write_frame(w, buf, scratch, b"", b"\n", |buf, holes| {
            encode::write_value_with(ev, buf, holes)
        })
    }

    fn write_with_snapshot(&mut self, ev: &Value, snapshot: &[&str]) -> io::Result<()> {
        write_snapshot_frame(&mut self.w, &mut self.buf, ev, snapshot, b"", b"\n")
    }

    fn write_shaped(&mut self, ev: &Value, shape: StrShaped) -> io::Result<()> {
        let (w, buf, scratch) = (&mut self.w, &mut self.buf, &mut self.scratch);
        write_frame(w, buf, scratch, b"", b"\n", |buf, holes| {
            encode::write_shaped_with(ev, shape, buf, holes)
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}
