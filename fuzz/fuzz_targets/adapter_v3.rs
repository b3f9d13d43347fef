//! v3 input (forced with `--from v3`) through the whole pipeline.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::convert_and_check(data, Some(aguify::adapter::Family::V3), true);
    common::convert_and_check(data, None, true);
});
