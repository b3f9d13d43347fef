//! v3 input (forced with `--from v3`) through the whole pipeline; and each line's typed read
//! (`wire::v3`) is what reading its tree gives.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        for line in text.lines() {
            if let Ok(tree) = serde_json::from_str::<serde_json::Value>(line) {
                assert_eq!(
                    aguify::wire::v3::Event::read(line),
                    aguify::wire::v3::Event::of_tree(&tree, true),
                    "{line}"
                );
            }
        }
    }
    common::convert_and_check(data, Some(aguify::adapter::Family::V3), true);
    common::convert_and_check(data, None, true);
});
