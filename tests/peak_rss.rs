//! Peak RSS of the binary on lines of megabytes (issue 36 (c)): its own test binary, so that
//! nothing else this process holds is counted (a child's `ru_maxrss` includes the parent's
//! memory at the spawn). Figures of the release build on the 1 GB logs: docs/performance.md.
#![cfg(all(target_os = "linux", target_env = "gnu"))]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The binary's peak RSS (`ru_maxrss`, bytes) converting `path` with `--threads 1`. The child
/// is waited for by `wait4`, which reports its usage (clippy sees no `Child::wait`).
#[allow(clippy::zombie_processes)]
fn peak_rss_of_convert(path: &Path) -> usize {
    let child = Command::new(env!("CARGO_BIN_EXE_aguify"))
        .args(["convert", "--to", "sse", "--threads", "1", "-q"])
        .arg(path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("aguify runs");
    let mut status = 0;
    // SAFETY: a zeroed rusage is valid; wait4 fills it for this one child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    // SAFETY: the child is ours and waited for once, here (Child::wait is never called).
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4");
    usage.ru_maxrss as usize * 1024
}

/// A log of v3 custom events whose payloads are `sizes` bytes, written a block at a time
/// (this process stays small).
fn write_log(path: &Path, sizes: &[usize]) {
    let mut w = std::io::BufWriter::new(std::fs::File::create(path).expect("create"));
    let block = [b'a'; 4096];
    for (seq, n) in sizes.iter().enumerate() {
        write!(w, "{{\"type\":\"event\",\"seq\":{seq},\"method\":\"custom\",\"params\":{{\"namespace\":[],\"timestamp\":1,\"data\":{{\"name\":\"x\",\"payload\":\"").expect("write");
        for _ in 0..n / block.len() {
            w.write_all(&block).expect("write");
        }
        w.write_all(&block[..n % block.len()]).expect("write");
        writeln!(w, "\"}}}}}}").expect("write");
    }
    w.flush().expect("flush");
}

/// Lines of megabytes do not stay resident once freed: `convert --threads 1` peaks within
/// 4.6× the longest line over what it takes on a short log. The binary fixes glibc's mmap
/// threshold (src/bin/aguify/main.rs); left to rise to the largest block freed, the freed line
/// buffers stayed in the heap (30 or 36-38 MiB on the 1 GB v3-js-big log from run to run).
#[test]
fn megabyte_lines_do_not_stay_resident_once_freed() {
    let dir = std::env::temp_dir().join(format!("aguify-peak-rss-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (small, big) = (dir.join("small.ndjson"), dir.join("long-lines.ndjson"));
    let sizes = [6_400_000, 3_000_000, 6_500_000, 1_500_000];
    write_log(&small, &[100]);
    write_log(&big, &sizes);
    let base = peak_rss_of_convert(&small);
    let peak = peak_rss_of_convert(&big);
    let _ = std::fs::remove_dir_all(&dir);
    let longest = sizes.iter().max().copied().unwrap_or(1);
    let over = peak.saturating_sub(base) as f64 / longest as f64;
    eprintln!("peak RSS {peak} bytes, {base} on a short log: {over:.2}× the longest line");
    assert!(
        over < 4.6,
        "{over:.2}× the longest line over the binary's own"
    );
}
