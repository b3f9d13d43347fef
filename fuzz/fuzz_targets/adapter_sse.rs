//! Platform SSE input: the bytes behind an SSE comment line, so the framer reads SSE, then the
//! adapters the frames select.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut bytes = b": fuzz\n".to_vec();
    bytes.extend_from_slice(data);
    common::convert_and_check(&bytes, None, true);
});
