//! Memory bounds (issue 26 items 8 and 11), asserted by counting the bytes this test binary
//! holds allocated at its peak: a count, not a time, so it does not depend on the machine.
//! The tests take turns (one counter for the binary). Wall-clock and RSS figures of the
//! release build: scripts/bench_memory.sh.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use aguify::agui::Event;
use aguify::input::Origin;
use aguify::pipeline::{run, Input, Observer, Options};
use aguify::sink::{Format, FrameSink, Sink};

struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static TURN: Mutex<()> = Mutex::new(());

// SAFETY: every call is passed to the system allocator unchanged; only counts are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            let now = HELD.fetch_add(l.size(), Ordering::Relaxed) + l.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) };
        HELD.fetch_sub(l.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, l, new) };
        if !q.is_null() {
            if new >= l.size() {
                let now = HELD.fetch_add(new - l.size(), Ordering::Relaxed) + new - l.size();
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                HELD.fetch_sub(l.size() - new, Ordering::Relaxed);
            }
        }
        q
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Writes every event as NDJSON into nothing, as `convert --to ndjson` writes them.
struct Out(FrameSink<io::Sink>);

impl Observer for Out {
    fn event(&mut self, ev: &Event, _origin: &Origin) -> io::Result<()> {
        self.0.write_event(ev)
    }
}

/// Peak bytes held above those held before, while converting `input`.
fn peak_converting(name: &str, input: Vec<u8>) -> usize {
    let before = HELD.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let mut out = Out(FrameSink::new(Format::Ndjson, io::sink()));
    let stats = run(
        vec![Input::from_bytes(name, input)],
        &Options::default(),
        &mut out,
    )
    .expect("in memory");
    assert_eq!(stats.bad, 0, "{stats:?}");
    PEAK.load(Ordering::Relaxed) - before
}

/// A custom payload of small values passes through as text: a 4 MB line of `[0,0,…]` is held
/// in a few times its size (as a tree it took ~36 bytes a byte, twice over: 290 MB).
#[test]
fn a_custom_payload_is_held_in_a_few_times_its_line() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let zeros = format!("[{}0]", "0,".repeat(2_000_000));
    let v3 = format!(
        "{{\"type\":\"event\",\"seq\":1,\"method\":\"custom\",\"params\":{{\"namespace\":[],\"data\":{zeros}}}}}\n"
    );
    let v2 = format!(
        "{{\"event\":\"on_custom_event\",\"name\":\"n\",\"run_id\":\"r\",\"parent_ids\":[],\"data\":{zeros}}}\n"
    );
    for (name, line) in [("v3.ndjson", v3), ("v2.ndjson", v2)] {
        let len = line.len();
        let peak = peak_converting(name, line.into_bytes());
        eprintln!("{name}: {len}-byte line, peak {peak} bytes");
        assert!(
            peak < 6 * len,
            "{name}: a {len}-byte line peaked at {peak} bytes ({:.1}×)",
            peak as f64 / len as f64
        );
    }
}

/// What `diff` and `snapshot` fold: each run's document, its leaves held.
struct Fold(
    aguify::diff::conversation::Conversation,
    Vec<aguify::diff::Run>,
);

impl Observer for Fold {
    fn event(&mut self, ev: &Event, origin: &Origin) -> io::Result<()> {
        self.1.extend(self.0.fold(ev, origin));
        Ok(())
    }

    fn end_of_file(&mut self, _file: &str) -> io::Result<()> {
        self.1.extend(self.0.finish());
        Ok(())
    }
}

/// Peak bytes held above those held before, while `observer` reads the conversion of `input`.
fn peak_observing(name: &str, input: Vec<u8>, observer: &mut dyn Observer) -> usize {
    let before = HELD.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let stats = run(
        vec![Input::from_bytes(name, input)],
        &Options::default(),
        observer,
    )
    .expect("in memory");
    assert_eq!(stats.bad, 0, "{stats:?}");
    PEAK.load(Ordering::Relaxed) - before
}

/// The same 4 MB custom line read by `timeline` (and so `explain`, `report`) and by `diff` and
/// `snapshot` (issue 41 item 3): as a tree it took ~40× the line in the timeline, and a leaf per
/// scalar ~120× in the diff's document; its text is kept instead.
#[test]
fn a_custom_payload_is_held_in_a_few_times_its_line_by_every_view() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let zeros = format!("[{}0]", "0,".repeat(2_000_000));
    let line = format!(
        "{{\"type\":\"event\",\"seq\":1,\"method\":\"custom\",\"params\":{{\"namespace\":[],\"data\":{zeros}}}}}\n"
    );
    let len = line.len();
    let mut timeline = aguify::timeline::TimelineBuilder::new();
    let mut fold = Fold(aguify::diff::conversation::Conversation::new(false), vec![]);
    let folded = |f: &Fold| f.1.iter().map(|r| r.leaves.len()).sum::<usize>();
    for (what, observer) in [
        ("timeline", &mut timeline as &mut dyn Observer),
        ("diff", &mut fold),
    ] {
        let peak = peak_observing("v3.ndjson", line.clone().into_bytes(), observer);
        eprintln!("{what}: {len}-byte line, peak {peak} bytes");
        assert!(
            peak < 6 * len,
            "{what}: a {len}-byte line peaked at {peak} bytes ({:.1}×)",
            peak as f64 / len as f64
        );
    }
    assert!(folded(&fold) > 0, "the run's document was made");
}

/// `diff` hands on each unreadable line of a recording as it is met (issue 36 (c)): 100,000 of
/// them inside one run are not held until the run's next event (they were: 12 MB here, 237 MiB
/// of RSS at a million; scripts/bench_bad_lines.sh).
#[test]
fn diff_holds_no_unreadable_lines_of_a_recording() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let lines = 100_000;
    let mut text = String::from("{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n");
    for i in 0..lines {
        text += &format!("{{bad {i}\n");
    }
    text += "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n";
    let name = format!("aguify-memory-{}-bad-lines.ndjson", std::process::id());
    let path = std::env::temp_dir().join(name);
    std::fs::write(&path, text).expect("write the input");
    let file = path.to_string_lossy().into_owned();
    let before = HELD.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let (mut runs, mut bad) = (0, 0);
    let mut count = |item: aguify::diff::Item| {
        match item {
            aguify::diff::Item::Run(_) => runs += 1,
            aguify::diff::Item::Bad { .. } => bad += 1,
        }
        Ok(())
    };
    let read = aguify::diff::read_side(&[file], &Options::default(), false, &mut count);
    let peak = PEAK.load(Ordering::Relaxed) - before;
    let _ = std::fs::remove_file(&path);
    read.expect("read the side");
    assert_eq!((runs, bad), (1, lines));
    eprintln!("{lines} unreadable lines: peak {peak} bytes");
    assert!(
        peak < 2 << 20,
        "{lines} unreadable lines peaked at {peak} bytes"
    );
}
