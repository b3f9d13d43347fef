//! Parallel parsing (`--threads`) changes nothing but speed: for inputs of many batches, the
//! bytes on stdout and stderr and the exit code are the same with 1 thread and with several.

use std::path::{Path, PathBuf};
use std::process::Command;

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata")
}

/// Every NDJSON recording of one form, concatenated in name order, twice (~0.3–1 MB: many batches
/// of `aguify::input::parallel::BATCH_BYTES`), plus hazards: a bad line, a blank line, a line
/// of invalid UTF-8.
fn big_input(form: &str) -> PathBuf {
    let dir = testdata().join("recordings").join(form);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("recordings dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "ndjson"))
        .collect();
    files.sort();
    let mut bytes = Vec::new();
    for (i, f) in files.iter().chain(&files).enumerate() {
        bytes.extend(std::fs::read(f).expect("recording"));
        if !bytes.ends_with(b"\n") {
            bytes.push(b'\n');
        }
        match i % 7 {
            3 => bytes.extend_from_slice(b"{\"event\": \"on_chain_end\", \"data\": \n"),
            4 => bytes.extend_from_slice(b"\n"),
            5 => bytes.extend_from_slice(b"\xff\xfe{}\n"),
            _ => {}
        }
    }
    assert!(
        bytes.len() > 2 * aguify::input::parallel::BATCH_BYTES,
        "{form}: input too small to need several batches"
    );
    let path = std::env::temp_dir().join(format!(
        "aguify-threads-{}-{form}.ndjson",
        std::process::id()
    ));
    std::fs::write(&path, bytes).expect("write temp input");
    path
}

fn run(args: &[&str], threads: &str) -> (Vec<u8>, Vec<u8>, Option<i32>) {
    let out = Command::new(env!("CARGO_BIN_EXE_aguify"))
        .args(args)
        .args(["--threads", threads])
        .output()
        .expect("run aguify");
    (out.stdout, out.stderr, out.status.code())
}

#[test]
fn output_does_not_depend_on_threads() {
    for form in ["v2-python-api", "v2-js", "v3-python", "v3-js"] {
        let input = big_input(form);
        let path = input.to_str().expect("utf-8 temp path");
        for args in [
            vec!["convert", "--to", "sse", "--stats", path],
            vec!["convert", "--to", "ndjson", "--text", "final", path],
            vec!["check", "--format", "json", path],
            vec!["timeline", "--color", "never", path],
            // Stops at the first bad line (exit 2): the parse threads are dropped mid-file.
            vec!["convert", "--strict", path],
        ] {
            let one = run(&args, "1");
            assert!(!one.0.is_empty(), "{form} {args:?}: no output");
            for threads in ["2", "5"] {
                let many = run(&args, threads);
                assert!(
                    one == many,
                    "{form} {args:?}: --threads {threads} differs from --threads 1\n{}",
                    String::from_utf8_lossy(&many.1)
                );
            }
        }
        let _ = std::fs::remove_file(&input);
    }
}
