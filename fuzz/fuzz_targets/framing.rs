//! Bytes → Framer: never panics, and the frames' line counts sum to the input's lines. With a
//! parse thread (NDJSON in batches, each batch's UTF-8 checked at once) the frames are the
//! ones the sequential framer gives.
#![no_main]

mod common;

use std::sync::Arc;

use aguify::input::{Disposition, Framer, Framing};
use libfuzzer_sys::fuzz_target;

/// Each frame's kind, first line, line count and message (of a bad line).
fn frames(bytes: &[u8], ctl: u8, threads: usize) -> Vec<(char, u64, u64, String)> {
    let max = if ctl & 1 == 1 { 16 } else { 1 << 16 };
    let framing = match (ctl >> 1) & 3 {
        1 => Some(Framing::Sse),
        2 => Some(Framing::Ndjson),
        _ => None,
    };
    let mut framer = Framer::new(bytes, Arc::from("fuzz"), framing, max).with_parse_threads(threads);
    let mut out = vec![];
    loop {
        let frame = match framer.next_frame() {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) => panic!("in-memory read failed: {e}"),
        };
        let (line, lines) = (frame.origin.line, frame.lines);
        out.push(match frame.body {
            Ok(r) => ('r', r.origin.line, r.lines, String::new()),
            Err(Disposition::Bad(bad)) => ('b', line, lines, bad.message),
            Err(_) => ('i', line, lines, String::new()),
        });
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let Some((&ctl, bytes)) = data.split_first() else {
        return;
    };
    let one = frames(bytes, ctl, 1);
    let lines: u64 = one.iter().map(|f| f.2).sum();
    assert_eq!(lines, common::line_count(bytes));
    if ctl & 8 != 0 {
        assert_eq!(frames(bytes, ctl, 2), one);
    }
});
