//! v2 input (forced with `--from v2`) through the whole pipeline; and each `on_…` line reads
//! (`wire::v2`) as the text its tree writes does (its key order, repeated keys and spacing
//! aside).
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        for line in text.lines() {
            let Ok(tree) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            if tree.get("event").and_then(|e| e.as_str()).is_some_and(|e| e.starts_with("on_")) {
                assert_eq!(
                    aguify::wire::v2::Event::read(line),
                    aguify::wire::v2::Event::of_record(&tree, None),
                    "{line}"
                );
            }
        }
    }
    common::convert_and_check(data, Some(aguify::adapter::Family::V2), true);
    common::convert_and_check(data, None, true);
});
