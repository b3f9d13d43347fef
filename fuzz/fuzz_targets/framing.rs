//! Bytes → Framer: never panics, and the frames' line counts sum to the input's lines.
#![no_main]

mod common;

use std::sync::Arc;

use aguify::input::{Frame, Framer, Framing};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&ctl, bytes)) = data.split_first() else {
        return;
    };
    let max = if ctl & 1 == 1 { 16 } else { 1 << 16 };
    let mut framer = Framer::new(bytes, Arc::from("fuzz"), max);
    framer = match (ctl >> 1) & 3 {
        1 => framer.with_framing(Framing::Sse),
        2 => framer.with_framing(Framing::Ndjson),
        _ => framer,
    };
    let mut lines = 0;
    loop {
        let frame = match framer.next_frame() {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) => panic!("in-memory read failed: {e}"),
        };
        lines += match frame {
            Frame::Record(r) => r.lines,
            Frame::Ignored { lines, .. } | Frame::Bad { lines, .. } => lines,
        };
    }
    assert_eq!(lines, common::line_count(bytes));
});
