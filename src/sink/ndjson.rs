//! NDJSON: one compact AG-UI event per line.

use std::io::{self, Write};

use crate::agui::Event;

use super::{write_json, Sink};

pub struct NdjsonSink<W> {
    w: W,
}

impl<W: Write> NdjsonSink<W> {
    pub fn new(w: W) -> Self {
        NdjsonSink { w }
    }
}

impl<W: Write> Sink for NdjsonSink<W> {
    fn write_event(&mut self, ev: &Event) -> io::Result<()> {
        write_json(&mut self.w, ev)?;
        self.w.write_all(b"\n")
    }

    fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}
