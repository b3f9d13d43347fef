//! The benchmark baseline as a process, for `valgrind --tool=callgrind` comparisons: reads a
//! file and parses every line with serde_json into `IgnoredAny`.
//!
//! `cargo run --release --example bare_parse -- FILE`

use std::io::Read;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: bare_parse FILE");
        std::process::exit(2);
    };
    let mut bytes = vec![];
    if let Err(e) = std::fs::File::open(&path).and_then(|mut f| f.read_to_end(&mut bytes)) {
        eprintln!("bare_parse: {path}: {e}");
        std::process::exit(2);
    }
    let (mut ok, mut bad) = (0u64, 0u64);
    for line in bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        match serde_json::from_slice::<serde::de::IgnoredAny>(line) {
            Ok(_) => ok += 1,
            Err(_) => bad += 1,
        }
    }
    println!("{ok} lines parsed, {bad} bad");
}
