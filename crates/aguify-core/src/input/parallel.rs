//! Parallel parsing of NDJSON lines, in input order.
//!
//! Parsing a line (and dropping its record later) is most of what `convert` and `check` spend,
//! and lines are independent: the [`crate::input::Framer`] reads lines into [`Batch`]es of
//! about [`BATCH_BYTES`] on the caller's thread, worker threads parse them into [`Frame`]s, and
//! the caller takes the batches back in the order it sent them, so output is byte-identical to
//! a sequential run. Spent records go back to be dropped on a worker ([`ParsePool::recycle`]).
//! At most [`ParsePool::in_flight_limit`] batches are out at a time, fewer once they hold
//! [`BYTES_OUT`] ([`ParsePool::full`]).

use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex};

use super::lines::{utf8_spans, Span};
use super::{frame_ndjson_line, Frame, LineReader, Origin, Record, RecordText};

/// A batch is sent once its lines hold this many bytes (or at end of input or when the input
/// is idle).
pub const BATCH_BYTES: usize = 64 * 1024;
/// …or once it holds this many lines.
const BATCH_LINES: usize = 1024;
/// A batch's buffer is allocated this much over [`BATCH_BYTES`] once, so the line that fills
/// it fits without the buffer regrowing (and being copied) a doubling at a time. Recordings'
/// lines are a few KB; a longer one only regrows its own batch's buffer.
const BATCH_SLACK: usize = 32 * 1024;

/// The bytes of the batches out at once ([`ParsePool::full`]): of lines this long, one is out.
const BYTES_OUT: usize = 2 << 20;
/// See [`ParsePool::recycle`].
const DROP_HERE: usize = 1 << 20;

/// Lines to parse: their texts in one buffer (read into it straight from the reader's buffer,
/// one allocation per batch), each record's text then a range of it ([`RecordText`]).
#[derive(Default)]
pub struct Batch {
    /// The lines' bytes, not yet checked to be UTF-8 ([`utf8_spans`]); past `end`, the bytes
    /// of a line half read when the input went idle.
    text: Vec<u8>,
    /// The end of the last whole line in `text`.
    end: usize,
    lines: Vec<Span>,
}

impl Batch {
    /// Appends a line already read (tests build batches line by line).
    #[cfg(test)]
    pub fn push(&mut self, number: u64, text: Result<&str, crate::error::BadLine>) {
        self.text.truncate(self.end);
        let entry = text.map(|t| {
            let start = self.text.len();
            self.text.extend_from_slice(t.as_bytes());
            start..self.text.len()
        });
        self.end = self.text.len();
        self.lines.push((number, entry));
    }

    /// Reads the next line straight into the batch, `Ok(false)` at end of input. A
    /// `WouldBlock` leaves a half-read line at the end of the buffer ([`take`](Self::take)
    /// carries it over); the next call resumes it.
    pub fn read_line<R: BufRead>(&mut self, lines: &mut LineReader<R>) -> io::Result<bool> {
        if self.text.capacity() < BATCH_BYTES {
            self.text.reserve_exact(BATCH_BYTES + BATCH_SLACK);
        }
        let Some(line) = lines.next_line_into(&mut self.text)? else {
            return Ok(false);
        };
        self.end = self.text.len();
        self.lines.push(line);
        Ok(true)
    }

    /// The whole lines batched so far, checked to be UTF-8 (here, on the reading thread:
    /// the parsing threads have more to do), leaving here an empty batch with a half-read
    /// line's bytes (if any) carried over.
    pub fn take(&mut self) -> Lines {
        let tail = self.text.split_off(self.end);
        let mut text = std::mem::replace(&mut self.text, tail);
        // A long line regrew the buffer a doubling at a time, to up to twice its bytes: the
        // rest is given back while the batch's records hold it (shrinking does not copy).
        if text.capacity() > BATCH_BYTES + BATCH_SLACK {
            text.shrink_to_fit();
        }
        // Room for a full batch's lines, so the list never regrows (and gets copied) a
        // doubling at a time.
        let lines = std::mem::replace(&mut self.lines, Vec::with_capacity(BATCH_LINES));
        self.end = 0;
        let (text, lines) = utf8_spans(text, lines);
        Lines {
            text: Arc::new(text),
            lines,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    pub fn is_full(&self) -> bool {
        self.end >= BATCH_BYTES || self.lines.len() >= BATCH_LINES
    }
}

/// A batch's lines, ready to parse: their texts in one buffer their records share.
pub struct Lines {
    text: Arc<String>,
    lines: Vec<Span>,
}

impl Lines {
    /// Parses every line, as the sequential framer would.
    fn parse(self, file: &Arc<str>) -> Vec<Frame> {
        let Lines { text, lines } = self;
        let frame = |(line, span): Span| {
            let shared = span.map(|r| RecordText::shared(&text, r));
            frame_ndjson_line(shared, Origin::at(file, line))
        };
        lines.into_iter().map(frame).collect()
    }
}

/// A batch's parse, run by a worker (or here): its frames sent back.
type Job = Box<dyn FnOnce() + Send>;

/// Worker threads parsing batches; results are taken in submission order.
pub struct ParsePool {
    workers: usize,
    /// The workers' queue, from when they were started (when the first batch of several went
    /// out; `None` before), once for the run. A worker ends when it is closed. When no worker
    /// could be spawned (or every one has ended), nothing receives from it: each send fails
    /// and the batch is parsed here.
    jobs: Option<SyncSender<Job>>,
    /// Each batch out, with its bytes.
    in_flight: VecDeque<(Receiver<Vec<Frame>>, usize)>,
    /// Records the caller is done with, dropped by the next batch's job instead of on the
    /// caller's thread (boxed as their frames held them: unboxing would copy each).
    #[allow(clippy::vec_box)]
    garbage: Vec<Box<Record>>,
}

impl ParsePool {
    /// A pool of `workers` threads (at least one), started on the first [`submit`](Self::submit).
    pub fn new(workers: usize) -> Self {
        ParsePool {
            workers: workers.max(1),
            jobs: None,
            in_flight: VecDeque::new(),
            garbage: Vec::new(),
        }
    }

    /// Batches out at once: enough to keep every worker busy while the caller reads ahead.
    pub fn in_flight_limit(&self) -> usize {
        2 * self.workers + 1
    }

    /// Whether no more batches should go out before the oldest is taken back: the limit's
    /// count, or once they hold [`BYTES_OUT`]. A batch of a line that long is then parsed
    /// while nothing more is read: the lines held at once are the last record's (its hash may
    /// seed ids at the file's end) and the one parsed, not a third read ahead. Megabyte lines
    /// gain nothing from being read ahead (the 1 GB `-big` logs take as long either way).
    pub fn full(&self) -> bool {
        let n = self.in_flight.len();
        let bytes = || self.in_flight.iter().map(|(_, b)| b).sum::<usize>();
        n >= self.in_flight_limit() || bytes() >= BYTES_OUT
    }

    fn start(&mut self) {
        let (tx, rx) = mpsc::sync_channel::<Job>(self.in_flight_limit());
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..self.workers {
            let rx = Arc::clone(&rx);
            let work = move || {
                while let Ok(Ok(job)) = rx.lock().map(|queue| queue.recv()) {
                    job();
                }
            };
            let spawned = std::thread::Builder::new().name(format!("aguify-parse-{i}"));
            // A thread that could not be spawned dropped its `work`, and its end of the queue.
            let _ = spawned.spawn(work);
        }
        self.jobs = Some(tx);
    }

    /// Sends a batch to be parsed. It is parsed here when it is the input's only batch (`last`
    /// and the first: no thread is started for it) or no worker could be started (they are
    /// not tried again: every batch is then parsed here).
    pub fn submit(&mut self, batch: Lines, file: &Arc<str>, last: bool) {
        let bytes = batch.text.len();
        let (reply, result) = mpsc::sync_channel(1);
        // The next batch hands back about as many records: room for them and a quarter more
        // at once, not regrown (and the records moved) a doubling at a time.
        let room = Vec::with_capacity(self.garbage.len() * 5 / 4 + 8);
        let garbage = std::mem::replace(&mut self.garbage, room);
        let file = file.clone();
        let job: Job = Box::new(move || {
            drop(garbage);
            // The caller may have stopped early (broken pipe): nobody waits for this batch.
            let _ = reply.send(batch.parse(&file));
        });
        if self.jobs.is_none() && !last {
            self.start();
        }
        let unsent = match &self.jobs {
            Some(tx) => tx.send(job).err().map(|unsent| unsent.0),
            None => Some(job),
        };
        if let Some(job) = unsent {
            job();
        }
        self.in_flight.push_back((result, bytes));
    }

    /// The frames of the oldest batch, waiting for them; `None` when nothing is out.
    pub fn next_batch(&mut self) -> Option<Vec<Frame>> {
        let (rx, _) = self.in_flight.pop_front()?;
        // A worker that panicked drops its reply sender: report nothing rather than hang.
        Some(rx.recv().unwrap_or_default())
    }

    /// Hands back a record the caller is done with, to be dropped on a worker when it takes
    /// the next batch; one of a batch of [`DROP_HERE`] bytes or more (few records, few nodes
    /// each) is dropped here, now, so that its batch's buffer is freed at once.
    pub fn recycle(&mut self, rec: Box<Record>) {
        if self.jobs.is_some() && rec.text.buffer_len() < DROP_HERE {
            self.garbage.push(rec);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::lines::tests::{by_next_line, is_err_with, reader, Got};
    use super::*;

    /// Every line read straight into batches, a batch taken at each `WouldBlock` (with a
    /// half-read line in it) and every `every` lines, as the framer does.
    fn by_batches(parts: &[&[u8]], cap: usize, max: usize, every: usize) -> Got {
        let mut r = LineReader::new(reader(parts, cap), max);
        let mut batch = Batch::default();
        let mut taken = vec![];
        loop {
            match batch.read_line(&mut r) {
                Ok(true) if batch.lines.len() >= every => taken.push(batch.take()),
                Ok(true) => {}
                Ok(false) => break,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => taken.push(batch.take()),
                Err(e) => panic!("unexpected error {e}"),
            }
        }
        taken.push(batch.take());
        let mut out = vec![];
        for Lines { text, lines } in taken {
            for (n, l) in lines {
                out.push((n, l.map(|r| text[r].to_string()).map_err(|e| e.message)));
            }
        }
        out
    }

    #[test]
    fn batches_read_lines_as_next_line_does() {
        let many: Vec<u8> = (0..BATCH_LINES + 700)
            .flat_map(|i| {
                format!("{{\"i\":{i}}}{}\n", if i % 3 == 0 { "\r" } else { "" }).into_bytes()
            })
            .collect();
        let cases: Vec<Vec<&[u8]>> = vec![
            vec![b"{\"a\":1}\r\n{\"b\":2}"],
            vec![b"\xEF\xBB\xBF{}\n{}\n\xEF\xBB\xBF{\"b\":2}\r\n\n\r\n"],
            vec![b"ok\n\xff\xfe\nok\n{\"\xc3\xa9\":1}\n\xc3"],
            // A character split over two lines: each line is invalid.
            vec![b"{}\n\xc3\n\xa9\n{}\n"],
            // …in lines longer than the reader's buffer.
            vec![b"{}\n0123\xc3\n\xa90123\n{}\n"],
            vec![b"0123456789012345678901234567890\nok\n0123456789012345678901\r\n"],
            // Lines split across reads, with the input idle in their middle.
            vec![
                b"{\"a\":",
                b"1}\n{\"b\"",
                b":2}\r",
                b"\n\xEF\xBB",
                b"\xBF{}\n",
            ],
            vec![b"01234567890123456789", b"0123456789\nok\n"],
            vec![b"\r\n\r\r\n\n"],
            vec![],
            // More lines than a batch holds in one read of the reader (whole lines are
            // taken from its buffer together, up to the batch's limits).
            vec![many.as_slice()],
        ];
        for parts in &cases {
            for cap in [3, 7, 64, 8192] {
                let (want, _) = by_next_line(parts, cap, 24);
                for every in [1, 2, 1000] {
                    let got = by_batches(parts, cap, 24, every);
                    assert_eq!(
                        got, want,
                        "{parts:?}, reader buffer {cap}, batch every {every}"
                    );
                }
            }
        }
        let (want, _) = by_next_line(&cases[5], 8192, 24);
        assert!(is_err_with(&want, 0, "--max-line-bytes"));
        assert!(want[2].1.is_ok(), "21 bytes and a CR fit in 24");
        let (want, _) = by_next_line(&cases[3], 8192, 24);
        assert!(is_err_with(&want, 1, "invalid UTF-8") && is_err_with(&want, 2, "invalid UTF-8"));
    }

    #[test]
    fn lines_fill_a_batch_to_its_limits_in_one_buffer() {
        let fill = |input: &[u8]| {
            let mut r = LineReader::new(io::BufReader::with_capacity(1 << 20, input), 4096);
            let mut batch = Batch::default();
            while !batch.is_full() {
                assert!(batch.read_line(&mut r).is_ok_and(|more| more));
            }
            batch
        };
        // Short lines: to its line limit.
        let batch = fill(&b"{}\n".repeat(BATCH_LINES + 10));
        assert_eq!(batch.lines.len(), BATCH_LINES);
        // Long lines: to its byte limit, the line that reaches it included.
        let batch = fill(&[vec![b'x'; 999], vec![b'\n']].concat().repeat(100));
        assert_eq!(batch.lines.len(), BATCH_BYTES.div_ceil(1000));
        let capacity = BATCH_BYTES + BATCH_SLACK;
        assert_eq!(batch.text.capacity(), capacity, "the buffer was regrown");
        let numbers: Vec<u64> = batch.lines.iter().map(|(n, _)| *n).collect();
        assert_eq!(numbers, (1..=numbers.len() as u64).collect::<Vec<_>>());
    }

    /// Batches of megabyte lines go out while they hold less than [`BYTES_OUT`] (one of a
    /// longer line alone), and their records are dropped on the caller's thread; batches of
    /// short lines go out three at a time (one worker), their records handed to a worker.
    #[test]
    fn big_batches_are_held_to_their_bytes_and_dropped_here() {
        let file: Arc<str> = Arc::from("t");
        let big = format!("{{\"a\":\"{}\"}}", "x".repeat(BYTES_OUT / 2));
        assert!(big.len() >= DROP_HERE);
        let mut pool = ParsePool::new(1);
        let send = |pool: &mut ParsePool, line: &str| {
            let mut b = Batch::default();
            b.push(1, Ok(line));
            pool.submit(b.take(), &file, false);
        };
        for n in 1..=3 {
            assert!(!pool.full(), "{n}");
            send(&mut pool, "{}");
        }
        assert!(pool.full());
        let recycle = |pool: &mut ParsePool| {
            for f in pool.next_batch().unwrap_or_default() {
                if let Ok(r) = f.body {
                    pool.recycle(r);
                }
            }
        };
        (0..3).for_each(|_| recycle(&mut pool));
        assert_eq!(pool.garbage.len(), 3);
        send(&mut pool, &big);
        assert!(
            pool.garbage.is_empty(),
            "handed to the worker with the batch"
        );
        assert!(!pool.full());
        send(&mut pool, &big);
        assert!(pool.full());
        recycle(&mut pool);
        assert!(
            pool.garbage.is_empty(),
            "a big batch's record is dropped here"
        );
        recycle(&mut pool);
        let bigger = format!("{{\"a\":\"{}\"}}", "x".repeat(BYTES_OUT));
        send(&mut pool, &bigger);
        assert!(pool.full(), "a batch of BYTES_OUT is out alone");
    }

    /// A pool that could start no worker (a thread limit) is started once for the run: each
    /// batch is parsed here, in order, and no worker is spawned later, when one could be.
    #[test]
    fn a_failed_start_is_not_tried_again() {
        let file: Arc<str> = Arc::from("t");
        // No worker to spawn leaves what a start of which every spawn failed does.
        let mut pool = ParsePool {
            workers: 0,
            ..ParsePool::new(1)
        };
        let mut got = vec![];
        for n in 1..=3 {
            let mut b = Batch::default();
            b.push(n, Ok(&format!("{{\"n\":{n}}}")));
            pool.submit(b.take(), &file, false);
            // Threads could be spawned from now on.
            pool.workers = 1;
            let frames = pool.next_batch().unwrap_or_default();
            got.extend(
                frames
                    .iter()
                    .map(|f| f.body.as_ref().map_or(0, |r| r.origin.line)),
            );
        }
        assert_eq!(got, [1, 2, 3]);
        let probe: Job = Box::new(|| {});
        let sent = pool.jobs.as_ref().map(|queue| queue.send(probe).is_ok());
        assert_eq!(
            sent,
            Some(false),
            "started once, and no worker takes a batch"
        );
    }

    /// Batches come back in order; bad and blank lines keep their frames.
    #[test]
    fn batches_come_back_in_order() {
        let file: Arc<str> = Arc::from("t");
        let mut pool = ParsePool::new(3);
        let mut got = vec![];
        let line = |f: &Frame| f.body.as_ref().map_or(0, |r| r.origin.line);
        for b in 0..40u64 {
            let mut batch = Batch::default();
            for i in 0..10 {
                let n = b * 10 + i + 1;
                batch.push(n, Ok(&format!("{{\"n\":{n}}}")));
            }
            pool.submit(batch.take(), &file, false);
            if pool.full() {
                got.extend(pool.next_batch().expect("a batch is out").iter().map(line));
            }
        }
        while let Some(frames) = pool.next_batch() {
            got.extend(frames.iter().map(line));
        }
        assert_eq!(got, (1..=400).collect::<Vec<_>>());
        let mut batch = Batch::default();
        batch.push(1, Ok("{\"a\":1}"));
        batch.push(2, Err("invalid UTF-8".into()));
        batch.push(3, Ok("  "));
        batch.push(4, Ok("{\"a\""));
        let frames = batch.take().parse(&file);
        assert!(frames[0].body.is_ok());
        let shape = |f: &Frame| match &f.body {
            Err(disposition) => format!("{disposition:?}"),
            Ok(_) => "record".into(),
        };
        assert!(shape(&frames[1]).contains("\"invalid UTF-8\""));
        assert!(shape(&frames[2]).starts_with("Ignored"));
        assert!(shape(&frames[3]).starts_with("Bad"));
    }
}
