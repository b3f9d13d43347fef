//! Peak RSS of the binary on lines of megabytes (issue 36 (c)): its own test binary, so that
//! nothing else this process holds is counted (a child's `ru_maxrss` includes the parent's
//! memory at the spawn). Figures of the release build on the 1 GB logs: docs/performance.md.
#![cfg(all(target_os = "linux", target_env = "gnu"))]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The binary's peak RSS (`ru_maxrss`, bytes) converting `path` with `--threads 1`.
fn peak_rss_of_convert(path: &Path) -> usize {
    usage_of_convert(path, "1").ru_maxrss as usize * 1024
}

/// The binary's resource usage converting `path` with `--threads threads`. The child is
/// waited for by `wait4`, which reports its usage (clippy sees no `Child::wait`).
#[allow(clippy::zombie_processes)]
fn usage_of_convert(path: &Path, threads: &str) -> libc::rusage {
    let child = Command::new(env!("CARGO_BIN_EXE_aguify"))
        .args(["convert", "--to", "sse", "--threads", threads, "-q"])
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
    usage
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
    let sizes = [6_400_000, 3_000_000, 6_500_000, 1_500_000];
    let longest = sizes.iter().max().copied().unwrap_or(1);
    let over = peak_over_a_short_log("long-lines", longest, |path, big| {
        write_log(path, if big { &sizes } else { &[100] })
    });
    assert!(
        over < 4.6,
        "{over:.2}× the longest line over the binary's own"
    );
}

/// `convert --threads 1`'s peak RSS on the log `write` makes big, over its peak on the one it
/// makes small, per `per` bytes (the longest line, or message).
fn peak_over_a_short_log(name: &str, per: usize, write: impl Fn(&Path, bool)) -> f64 {
    let dir = std::env::temp_dir().join(format!("aguify-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (small, big) = (dir.join("small.ndjson"), dir.join("big.ndjson"));
    write(&small, false);
    write(&big, true);
    let base = peak_rss_of_convert(&small);
    let peak = peak_rss_of_convert(&big);
    let _ = std::fs::remove_dir_all(&dir);
    let over = peak.saturating_sub(base) as f64 / per as f64;
    eprintln!("peak RSS {peak} bytes, {base} on a short log: {over:.2}× {per} bytes");
    over
}

/// Freed line buffers stay in the heap for the next lines instead of going back to the system
/// and being faulted in again: with parse threads, 20 lines of 1.5 MB (under the 4 MiB mmap
/// threshold) take under 2 minor faults a page of the log over a short log's. The binary fixes
/// glibc's trim threshold (src/bin/aguify/main.rs); left at 128 KiB (a fixed mmap threshold
/// stops glibc raising it), the heap's top was trimmed and faulted in again around every
/// line: 2.5 faults a page, against 1.4.
#[test]
fn freed_line_buffers_are_not_faulted_in_again() {
    let dir = std::env::temp_dir().join(format!("aguify-faults-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (small, big) = (dir.join("small.ndjson"), dir.join("lines.ndjson"));
    write_log(&small, &[100]);
    write_log(&big, &[1_500_000; 20]);
    let base = usage_of_convert(&small, "2").ru_minflt;
    let faults = usage_of_convert(&big, "2").ru_minflt;
    let pages = std::fs::metadata(&big).map_or(1, |m| m.len() / 4096).max(1);
    let _ = std::fs::remove_dir_all(&dir);
    let per_page = faults.saturating_sub(base) as f64 / pages as f64;
    eprintln!("{faults} minor faults, {base} on a short log: {per_page:.2} a page of the log");
    assert!(
        per_page < 2.0,
        "{per_page:.2} minor faults a page of the log"
    );
}

/// A v2 run whose input holds a message of `content` bytes (its start and end events).
fn write_v2_run(path: &Path, content: usize) {
    let mut w = std::io::BufWriter::new(std::fs::File::create(path).expect("create"));
    for (event, key) in [("on_chain_start", "input"), ("on_chain_end", "output")] {
        write!(
            w,
            "{{\"event\":\"{event}\",\"data\":{{\"{key}\":{{\"messages\":[{{\"content\":\""
        )
        .expect("write");
        w.write_all(&vec![b'a'; content]).expect("write");
        writeln!(w, "\",\"type\":\"human\",\"id\":\"h1\"}}]}}}},\"name\":\"LangGraph\",\"tags\":[],\"run_id\":\"r1\",\"metadata\":{{\"thread_id\":\"t\"}},\"parent_ids\":[]}}").expect("write");
    }
    w.flush().expect("flush");
}

/// A run's input messages become AG-UI messages (RUN_STARTED's input, MESSAGES_SNAPSHOT) read
/// from their tree, not from a second copy of their text: with a 6 MB message, `convert
/// --threads 1` (debug build) peaks 4.4× the message over a short run's. Written out as text to
/// be read again (s56-wire, reverted), it peaked 5.2×, and the 1 GB v2 log went from 29 to
/// 36-37 MiB, over issue 36 (c)'s 32.
#[test]
fn a_runs_input_messages_are_not_copied_to_be_converted() {
    let over = peak_over_a_short_log("v2-input", 6_000_000, |path, big| {
        write_v2_run(path, if big { 6_000_000 } else { 2 })
    });
    assert!(over < 4.8, "{over:.2}× the message over a short run's");
}
