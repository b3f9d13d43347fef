//! In-process throughput on generated 10 MB logs of every recorded form (issue 6).
//!
//! `cargo bench --bench throughput` first prints a summary table (median of several passes):
//! MB/s and events/s of `convert --to sse`, `convert --to ndjson`, `check`, and of the baseline, a bare
//! `serde_json` parse of every line into `IgnoredAny` over the same bytes, with each convert's
//! ratio to the baseline. Then divan times the same operations with its own statistics.
//! `AGUIFY_BENCH_MB` changes the input size (default 10); `AGUIFY_BENCH_SUMMARY=0` skips the
//! table. Whole-process runs (peak RSS, 10 MB → 1 GB) are `scripts/bench.sh`.

#[path = "support/gen.rs"]
mod gen;

use std::collections::HashMap;
use std::io::{self, Write};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use aguify::input::Origin;
use aguify::pipeline::{self, Input, Observer, Options};
use aguify::sink::{self, Sink};
use divan::counter::BytesCount;
use divan::Bencher;
use serde_json::Value;

fn size_mb() -> u64 {
    std::env::var("AGUIFY_BENCH_MB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10)
}

fn inputs() -> &'static HashMap<&'static str, Vec<u8>> {
    static INPUTS: OnceLock<HashMap<&'static str, Vec<u8>>> = OnceLock::new();
    INPUTS.get_or_init(|| {
        gen::FORMS
            .iter()
            .map(|f| {
                let v = gen::generate_vec(f, size_mb() << 20)
                    .unwrap_or_else(|e| panic!("generating {f}: {e}"));
                (*f, v)
            })
            .collect()
    })
}

/// Baseline: every line parsed by serde_json into `IgnoredAny`. Returns the line count.
fn bare_parse(bytes: &[u8]) -> u64 {
    let mut n = 0;
    for line in bytes.split(|b| *b == b'\n') {
        if line.is_empty() {
            continue;
        }
        if serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok() {
            n += 1;
        }
    }
    n
}

struct SinkObserver<S>(S);

impl<S: Sink> Observer for SinkObserver<S> {
    fn event(&mut self, ev: &Value, _origin: &Origin) -> io::Result<()> {
        self.0.write_event(ev)
    }
    fn needs_full_records(&self) -> bool {
        false
    }
}

/// `convert --to FORMAT` into a discarding writer. Returns the AG-UI event count.
fn convert(bytes: &[u8], format: sink::Format) -> u64 {
    let input = Input {
        name: "bench".into(),
        reader: Box::new(io::BufReader::with_capacity(
            256 * 1024,
            io::Cursor::new(bytes.to_vec()),
        )),
    };
    let mut obs = SinkObserver(sink::for_format(
        format,
        io::BufWriter::with_capacity(64 * 1024, io::sink()),
    ));
    let stats =
        pipeline::run(vec![input], &Options::default(), &mut obs).expect("in-memory convert");
    stats.events
}

/// `check` of the log held in memory. Returns the AG-UI event count it verified.
fn check(bytes: &[u8]) -> u64 {
    let r = aguify::check::check_bytes(
        "bench.ndjson",
        bytes.to_vec(),
        &Options::default(),
        &Default::default(),
    )
    .expect("in-memory check");
    r.events as u64
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn time(passes: usize, mut f: impl FnMut() -> u64) -> (Duration, u64) {
    let mut n = 0;
    let times = (0..passes)
        .map(|_| {
            let t = Instant::now();
            n = f();
            t.elapsed()
        })
        .collect();
    (median(times), n)
}

fn summary() {
    let passes = 5;
    let mut out = io::stdout().lock();
    let _ = writeln!(
        out,
        "aguify throughput, {} MB inputs, median of {passes} passes",
        size_mb()
    );
    let _ = writeln!(
        out,
        "{:<20} {:>9} {:>9} {:>9} {:>9} {:>10} {:>10} {:>7} {:>7} {:>7}",
        "form",
        "bare MB/s",
        "sse MB/s",
        "nd MB/s",
        "chk MB/s",
        "sse ev/s",
        "nd ev/s",
        "sse/bare",
        "nd/bare",
        "chk/bare"
    );
    for form in gen::FORMS {
        let bytes = &inputs()[form];
        let mb = bytes.len() as f64 / 1e6;
        let (tb, _) = time(passes, || bare_parse(bytes));
        let (ts, evs) = time(passes, || convert(bytes, sink::Format::Sse));
        let (tn, evn) = time(passes, || convert(bytes, sink::Format::Ndjson));
        let (tc, _) = time(passes, || check(bytes));
        let rate = |t: Duration| mb / t.as_secs_f64();
        let _ = writeln!(
            out,
            "{:<20} {:>9.0} {:>9.0} {:>9.0} {:>9.0} {:>10.0} {:>10.0} {:>6.0}% {:>6.0}% {:>6.0}%",
            form,
            rate(tb),
            rate(ts),
            rate(tn),
            rate(tc),
            evs as f64 / ts.as_secs_f64(),
            evn as f64 / tn.as_secs_f64(),
            100.0 * tb.as_secs_f64() / ts.as_secs_f64(),
            100.0 * tb.as_secs_f64() / tn.as_secs_f64(),
            100.0 * tb.as_secs_f64() / tc.as_secs_f64(),
        );
    }
    let _ = writeln!(out);
}

fn main() {
    if std::env::var("AGUIFY_BENCH_SUMMARY").as_deref() != Ok("0") {
        summary();
    }
    divan::main();
}

#[divan::bench(args = gen::FORMS)]
fn bare_parse_ignored_any(b: Bencher, form: &str) {
    let bytes = &inputs()[form];
    b.counter(BytesCount::of_slice(bytes))
        .bench(|| bare_parse(bytes));
}

#[divan::bench(args = gen::FORMS)]
fn convert_sse(b: Bencher, form: &str) {
    let bytes = &inputs()[form];
    b.counter(BytesCount::of_slice(bytes))
        .bench(|| convert(bytes, sink::Format::Sse));
}

#[divan::bench(args = gen::FORMS)]
fn check_json(b: Bencher, form: &str) {
    let bytes = &inputs()[form];
    b.counter(BytesCount::of_slice(bytes))
        .bench(|| check(bytes));
}

#[divan::bench(args = gen::FORMS)]
fn convert_ndjson(b: Bencher, form: &str) {
    let bytes = &inputs()[form];
    b.counter(BytesCount::of_slice(bytes))
        .bench(|| convert(bytes, sink::Format::Ndjson));
}
