//! In-process throughput on generated 10 MB logs of every recorded form (issue 6).
//!
//! `cargo bench --bench throughput` first prints a summary table (median of several passes):
//! MB/s and events/s of `convert --to sse`, `convert --to ndjson`, `check`, and of the baseline, a bare
//! `serde_json` parse of every line into `IgnoredAny` over the same bytes, with each convert's
//! ratio to the baseline — once parsing on one thread (`--threads 1`) and once with the
//! default (`--threads` = cores). Converts run the inline checker, as `aguify convert` does.
//! Then divan times the same operations with its own statistics.
//! `AGUIFY_BENCH_MB` changes the input size (default 10); `AGUIFY_BENCH_SUMMARY=0` skips the
//! table. Whole-process runs (peak RSS, 10 MB → 1 GB) are `scripts/bench.sh`.

#[path = "support/gen.rs"]
mod gen;

use std::collections::HashMap;
use std::io::{self, Write};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use aguify::agui::Event;
use aguify::check::{Checker, Config};
use aguify::input::{Disposition, Origin, Record};
use aguify::model::ModelEvent;
use aguify::pipeline::{self, Input, Observer, Options};
use aguify::sink::{self, FrameSink, Sink};
use divan::counter::BytesCount;
use divan::Bencher;

// The binary's allocator, so in-process figures match the CLI's.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn options(threads: usize) -> Options {
    Options {
        parse_threads: threads,
        ..Options::default()
    }
}

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

/// What `aguify convert` does with the stream: the sink, and the inline checker (findings
/// counted instead of printed).
struct ConvertObserver<S> {
    sink: S,
    checker: Checker,
    findings: usize,
}

impl<S> ConvertObserver<S> {
    fn drain(&mut self) {
        let mut n = 0;
        self.checker.stream_new(|_| n += 1);
        self.findings += n;
    }
}

impl<S: Sink> Observer for ConvertObserver<S> {
    fn record(&mut self, rec: &Record, disposition: &Disposition) {
        self.checker.record(rec, disposition);
        self.drain();
    }
    fn bad_line(&mut self, origin: &Origin, message: &aguify::error::BadLine) {
        self.checker.bad_line(origin, message);
        self.drain();
    }
    fn model(&mut self, ev: &ModelEvent, origin: &Origin) {
        self.checker.model(ev, origin);
        self.drain();
    }
    fn event(&mut self, ev: &Event, origin: &Origin) -> io::Result<()> {
        self.checker.event(ev, origin);
        self.drain();
        self.sink.write_event(ev)
    }
}

/// `convert --to FORMAT --threads N` into a discarding writer. Returns the AG-UI event count.
fn convert(bytes: &[u8], format: sink::Format, threads: usize) -> u64 {
    let bytes = io::Cursor::new(bytes.to_vec());
    let input = Input {
        name: "bench".into(),
        open: Box::new(|| Ok(Box::new(io::BufReader::with_capacity(256 * 1024, bytes)))),
        rereadable: false,
    };
    let mut obs = ConvertObserver {
        sink: FrameSink::new(format, io::BufWriter::with_capacity(64 * 1024, io::sink())),
        checker: Checker::new("bench".into(), Config::default()),
        findings: 0,
    };
    let stats = pipeline::run(vec![input], &options(threads), &mut obs).expect("in-memory convert");
    obs.checker.finish();
    obs.drain();
    stats.events
}

/// `check` of the log held in memory. Returns the AG-UI event count it verified.
fn check(bytes: &[u8], threads: usize) -> u64 {
    let r = aguify::check::check_bytes(
        "bench.ndjson",
        bytes.to_vec(),
        &options(threads),
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
        "{:<20} {:>7} {:>9} {:>9} {:>9} {:>9} {:>10} {:>10} {:>7} {:>7} {:>7}",
        "form",
        "threads",
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
    let mut threads = vec![1, cores()];
    threads.dedup();
    for form in gen::FORMS {
        let bytes = &inputs()[form];
        let mb = bytes.len() as f64 / 1e6;
        let (tb, _) = time(passes, || bare_parse(bytes));
        for &n in &threads {
            let (ts, evs) = time(passes, || convert(bytes, sink::Format::Sse, n));
            let (tn, evn) = time(passes, || convert(bytes, sink::Format::Ndjson, n));
            let (tc, _) = time(passes, || check(bytes, n));
            let rate = |t: Duration| mb / t.as_secs_f64();
            let _ = writeln!(
            out,
            "{:<20} {:>7} {:>9.0} {:>9.0} {:>9.0} {:>9.0} {:>10.0} {:>10.0} {:>6.0}% {:>6.0}% {:>6.0}%",
            form,
            n,
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
        .bench(|| convert(bytes, sink::Format::Sse, cores()));
}

#[divan::bench(args = gen::FORMS)]
fn check_json(b: Bencher, form: &str) {
    let bytes = &inputs()[form];
    b.counter(BytesCount::of_slice(bytes))
        .bench(|| check(bytes, cores()));
}

#[divan::bench(args = gen::FORMS)]
fn convert_ndjson(b: Bencher, form: &str) {
    let bytes = &inputs()[form];
    b.counter(BytesCount::of_slice(bytes))
        .bench(|| convert(bytes, sink::Format::Ndjson, cores()));
}
