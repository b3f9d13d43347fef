//! Builds large benchmark logs by replicating the recordings of one input form.
//!
//! ```text
//! cargo run --release --example gen_logs -- FORM SIZE OUT
//! cargo run --release --example gen_logs -- v2-python-api 100M /tmp/aguify-bench/v2-python-api-100M.ndjson
//! ```
//!
//! FORM is a folder of `testdata/recordings` (`v2-python-api`, `v2-python-dumpd`, `v2-js`,
//! `v3-python`, `v3-python-inprocess`, `v3-js`); SIZE is a byte count with an optional `K`, `M`
//! or `G` suffix (powers of 1024). The files of the form are appended in name order, pass after
//! pass, until the output reaches SIZE. Ids the scripted recordings reuse across runs
//! (`call_…`, `toolu_…`, `ai-…`, `agui-…`, `chatcmpl-…`) get a per-run suffix in every pass; in pass `k > 0`
//! every other id is rewritten too so that runs never collide: UUIDs and 32-hex ids get a new
//! tail, `human-…`, `thread-…` ids get a `_k` suffix, and v3 `seq` numbers continue from the
//! previous file. The output is deterministic, and `aguify check` finds no error in it.
//! Files of several runs (`*_one_file`) are left out, as their `seq` restarts.
//!
//! FORM with the suffix `-big` (`v3-python-big`) grows every tool result to 1 MiB wherever it
//! appears (the tool's end, each state holding it), as a retrieved document or a file read
//! would; `-zh` writes the model's text in Chinese characters, letter for letter (long
//! payloads and text of other scripts: the UTF-8 check, escaping, the allocator's large
//! blocks).
//!
//! FORM with the suffix `-one-run` (`v3-js-one-run`) builds one long run instead: the form's
//! `b_react_one_tool` steps repeated inside its run, as a long-running agent's stream (for
//! peak RSS and time at millions of events in a run).
//!
//! Recordings that end without a terminal event (`e_truncated_stream`) are left out: the run
//! after them would be read as a second root run inside an open one.

#[path = "../benches/support/gen.rs"]
mod gen;

use std::fs;
use std::io::{BufWriter, Write};

fn main() {
    if let Err(e) = run() {
        eprintln!("gen_logs: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [form, size, out] = args.as_slice() else {
        return Err(
            "usage: gen_logs FORM SIZE OUT   (e.g. v2-python-api 10M /tmp/v2.ndjson)".into(),
        );
    };
    let target = parse_size(size)?;
    let f = fs::File::create(out).map_err(|e| format!("{out}: {e}"))?;
    let mut w = BufWriter::with_capacity(1 << 20, f);
    if let Some(form) = form.strip_suffix(gen::ONE_RUN) {
        let (bytes, lines) = gen::generate_one_run(form, target, &mut w)?;
        w.flush().map_err(|e| format!("{out}: {e}"))?;
        eprintln!("gen_logs: {out}: {bytes} bytes, {lines} lines of one {form} run");
        return Ok(());
    }
    let files = gen::form_recordings(form)?;
    let (bytes, lines) =
        gen::generate(&files, target, &mut w).map_err(|e| format!("{out}: {e}"))?;
    w.flush().map_err(|e| format!("{out}: {e}"))?;
    eprintln!(
        "gen_logs: {out}: {bytes} bytes, {lines} lines from {} recordings of {form}",
        files.len()
    );
    Ok(())
}

fn parse_size(s: &str) -> Result<u64, String> {
    let (num, mult) = match s.as_bytes().last() {
        Some(b'K' | b'k') => (&s[..s.len() - 1], 1u64 << 10),
        Some(b'M' | b'm') => (&s[..s.len() - 1], 1 << 20),
        Some(b'G' | b'g') => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    num.parse::<u64>()
        .map(|n| n * mult)
        .map_err(|_| format!("bad size {s:?}: expected a number with an optional K, M or G suffix"))
}
