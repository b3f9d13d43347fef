//! What every byte-input target checks: the pipeline never panics, `--stats` accounts for
//! every line, and (for LangGraph input) the output holds the stream invariants.
#![allow(dead_code)]

#[path = "../../tests/util/invariants.rs"]
mod invariants;

use aguify::adapter::Family;
use aguify::pipeline::{convert_to_vec, Input, Options};

/// Lines as `wc -l` counts them, plus a last line without a newline.
pub fn line_count(bytes: &[u8]) -> u64 {
    let n = bytes.iter().filter(|b| **b == b'\n').count() as u64;
    if bytes.last().is_some_and(|b| *b != b'\n') {
        n + 1
    } else {
        n
    }
}

pub fn convert_and_check(bytes: &[u8], from: Option<Family>, check_invariants: bool) {
    let opts = Options {
        from,
        // Small, so the long-line path is reached too.
        max_line_bytes: 4096,
        ..Options::default()
    };
    let input = Input::from_bytes("fuzz", bytes.to_vec());
    let (events, stats) = match convert_to_vec(vec![input], &opts) {
        Ok(r) => r,
        Err(e) => panic!("convert failed on in-memory input: {e}"),
    };
    assert_eq!(stats.lines, line_count(bytes), "lines read vs wc -l");
    assert_eq!(
        stats.mapped + stats.ignored_total() + stats.bad,
        stats.lines,
        "mapped + ignored + bad == lines"
    );
    // A custom event named `agui` injects native AG-UI events, which are passed on as they are.
    let native = bytes.windows(4).any(|w| w.eq_ignore_ascii_case(b"agui"));
    if check_invariants && !native {
        if let Err(e) = invariants::check_stream(&events) {
            panic!("stream invariant: {e}");
        }
    }
}
