//! Shared harness for the tests that run the built `aguify` binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_aguify");

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn bad_dir() -> PathBuf {
    repo().join("testdata").join("bad")
}

pub struct Run {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

/// Runs `aguify ARGS` in `cwd` with no stdin.
pub fn aguify(cwd: &Path, args: &[&str]) -> Run {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .expect("the aguify binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Event types of an NDJSON output, in order.
pub fn event_types(stdout: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("each output line is JSON");
            v.get("type")
                .and_then(|t| t.as_str())
                .unwrap_or("?")
                .to_string()
        })
        .collect()
}

/// The `--stats` summary: (lines, mapped, ignored, bad).
pub fn stats_line(stderr: &str) -> Option<(u64, u64, u64, u64)> {
    let line = stderr.lines().find(|l| l.contains(" lines read: "))?;
    let nums: Vec<u64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .filter_map(|s| s.parse().ok())
        .collect();
    Some((nums[0], nums[1], nums[2], nums[3]))
}

/// Lines as `wc -l` counts them, plus a last line without a newline.
pub fn line_count(bytes: &[u8]) -> u64 {
    let n = bytes.iter().filter(|b| **b == b'\n').count() as u64;
    if bytes.last().is_some_and(|b| *b != b'\n') {
        n + 1
    } else {
        n
    }
}

/// Compares `actual` with the golden file, or rewrites it when `UPDATE_GOLDEN=1`.
pub fn golden(path: &Path, actual: &str) {
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        std::fs::write(path, actual).expect("golden file writes");
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_else(|_| {
        panic!(
            "missing golden file {} (run with UPDATE_GOLDEN=1 to create it)",
            path.display()
        )
    });
    if expected != actual {
        panic!(
            "{} differs (UPDATE_GOLDEN=1 regenerates it after review)\n--- expected\n{expected}\n--- actual\n{actual}",
            path.display()
        );
    }
}

/// A fresh folder for one test (`PREFIX-PID-NAME` under the temp dir), removed when the test
/// ends.
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A new empty [`Scratch`] folder for the test `name` of the test file `prefix`.
pub fn scratch_dir(prefix: &str, name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("aguify-{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    Scratch(d)
}
