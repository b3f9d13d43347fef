//! v3 input (forced with `--from v3`) through the whole pipeline; and each line read by the
//! hand-written reader of `messages` lines reads as the typed visitors read it, or is declined.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        for line in text.lines() {
            assert!(
                aguify::input::fast::v3::hand_reader_agrees(line),
                "the hand reader disagrees on {line}"
            );
        }
    }
    common::convert_and_check(data, Some(aguify::adapter::Family::V3), true);
    common::convert_and_check(data, None, true);
});
