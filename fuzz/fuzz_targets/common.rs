//! What every byte-input target checks: the pipeline never panics, `--stats` accounts for
//! every line, and (for LangGraph input) the output holds the stream invariants.
#![allow(dead_code)]

#[path = "../../tests/util/invariants.rs"]
mod invariants;

use aguify::adapter::Family;
use aguify::input::Origin;
use aguify::model::ModelEvent;
use aguify::pipeline::{run, Input, Observer, Options};
use serde_json::Value;

/// Lines as `wc -l` counts them, plus a last line without a newline.
pub fn line_count(bytes: &[u8]) -> u64 {
    let n = bytes.iter().filter(|b| **b == b'\n').count() as u64;
    if bytes.last().is_some_and(|b| *b != b'\n') {
        n + 1
    } else {
        n
    }
}

/// Collects the AG-UI events, noting whether any came through unchanged (AG-UI input, or a
/// custom event named `agui`): those are passed on as they are, so the invariants are the
/// producer's business, not aguify's.
#[derive(Default)]
struct Collect {
    events: Vec<Value>,
    native: bool,
}

impl Observer for Collect {
    fn model(&mut self, ev: &ModelEvent, _origin: &Origin) {
        if matches!(ev, ModelEvent::Native(_)) {
            self.native = true;
        }
    }

    fn event(&mut self, ev: &aguify::agui::Event, _origin: &Origin) -> std::io::Result<()> {
        self.events.push(ev.to_value().into_owned());
        Ok(())
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
    let mut obs = Collect::default();
    let stats = match run(vec![input], &opts, &mut obs) {
        Ok(s) => s,
        Err(e) => panic!("convert failed on in-memory input: {e}"),
    };
    assert_eq!(stats.lines, line_count(bytes), "lines read vs wc -l");
    assert_eq!(
        stats.mapped + stats.ignored_total() + stats.bad,
        stats.lines,
        "mapped + ignored + bad == lines"
    );
    if check_invariants && !obs.native {
        if let Err(e) = invariants::check_stream(&obs.events) {
            panic!("stream invariant: {e}");
        }
    }
}
