//! The benchmark baseline as a process, for `valgrind --tool=callgrind` comparisons: reads a
//! file and parses every line with serde_json into `IgnoredAny`.
//!
//! `cargo run --release --example bare_parse -- FILE`

use std::io::BufRead;

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: bare_parse FILE");
        std::process::exit(2);
    };
    let file = match std::fs::File::open(&path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("bare_parse: {path}: {e}");
            std::process::exit(2);
        }
    };
    // Streamed like aguify reads (256 KiB buffer, one line at a time), so memory stays flat.
    let mut r = std::io::BufReader::with_capacity(256 * 1024, file);
    let mut line = Vec::with_capacity(8 * 1024);
    let (mut ok, mut bad) = (0u64, 0u64);
    loop {
        line.clear();
        match r.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                eprintln!("bare_parse: {path}: {e}");
                std::process::exit(2);
            }
        }
        if line.last() == Some(&b'\n') {
            line.pop();
        }
        if line.is_empty() {
            continue;
        }
        match serde_json::from_slice::<serde::de::IgnoredAny>(&line) {
            Ok(_) => ok += 1,
            Err(_) => bad += 1,
        }
    }
    println!("{ok} lines parsed, {bad} bad");
}
