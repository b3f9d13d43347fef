//! AG-UI captures (`--from agui`): passed through unchanged, so only panics and accounting.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::convert_and_check(data, Some(aguify::adapter::Family::Agui), false);
});
