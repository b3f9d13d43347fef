//! Parallel parsing of NDJSON lines, in input order.
//!
//! Parsing a line into a `Value` (and dropping it later) is most of what `convert` and `check`
//! spend; lines are independent, so the [`crate::input::Framer`] reads and frames lines on the
//! caller's thread, packs them into [`Batch`]es of about [`BATCH_BYTES`], and worker threads
//! parse each batch into [`Frame`]s. The caller takes the batches back in the order it sent
//! them, so output is byte-identical to a sequential run. Spent records are handed back
//! ([`ParsePool::recycle`]) and dropped on a worker too.
//!
//! Memory stays bounded: at most [`ParsePool::in_flight_limit`] batches are out at a time. A
//! file that fits in one batch never starts a thread (the batch is parsed on the caller's
//! thread), and threads end with the pool.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use super::{frame_ndjson_line, Frame, Origin, Record};

/// A batch is sent once its lines hold this many bytes (or at end of input or when the input
/// is idle).
pub const BATCH_BYTES: usize = 64 * 1024;
/// …or once it holds this many lines.
const BATCH_LINES: usize = 1024;

/// Lines to parse: their texts in one buffer (one copy, one allocation per batch).
#[derive(Default)]
pub struct Batch {
    text: String,
    lines: Vec<(u64, Result<Range<usize>, String>)>,
}

impl Batch {
    pub fn push(&mut self, number: u64, text: Result<&str, String>) {
        let entry = text.map(|t| {
            let start = self.text.len();
            self.text.push_str(t);
            start..self.text.len()
        });
        self.lines.push((number, entry));
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    pub fn is_full(&self) -> bool {
        self.text.len() >= BATCH_BYTES || self.lines.len() >= BATCH_LINES
    }

    /// Parses every line, as the sequential framer would.
    pub fn parse(self, file: &Arc<str>, prune: bool) -> Vec<Frame> {
        let Batch { text, lines } = self;
        lines
            .into_iter()
            .map(|(line, entry)| {
                let origin = Origin {
                    file: file.clone(),
                    line,
                };
                match entry {
                    Ok(r) => frame_ndjson_line(&text[r], origin, prune),
                    Err(message) => Frame::Bad {
                        origin,
                        lines: 1,
                        message,
                    },
                }
            })
            .collect()
    }
}

struct Job {
    batch: Batch,
    file: Arc<str>,
    prune: bool,
    reply: SyncSender<Vec<Frame>>,
    /// Records the caller is done with, dropped here instead of on the caller's thread.
    garbage: Vec<Record>,
}

/// Worker threads parsing batches; results are taken in submission order.
pub struct ParsePool {
    workers: usize,
    jobs: Option<SyncSender<Job>>,
    handles: Vec<JoinHandle<()>>,
    in_flight: VecDeque<Receiver<Vec<Frame>>>,
    garbage: Vec<Record>,
    tried: bool,
}

impl ParsePool {
    /// A pool of `workers` threads (at least one), started on the first [`submit`](Self::submit).
    pub fn new(workers: usize) -> Self {
        ParsePool {
            workers: workers.max(1),
            jobs: None,
            handles: Vec::new(),
            in_flight: VecDeque::new(),
            garbage: Vec::new(),
            tried: false,
        }
    }

    /// Batches out at once: enough to keep every worker busy while the caller reads ahead.
    pub fn in_flight_limit(&self) -> usize {
        2 * self.workers + 1
    }

    /// Whether threads were started (the first batch was submitted).
    pub fn started(&self) -> bool {
        self.tried
    }

    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Starts the workers once; `false` when no thread could be started.
    fn start(&mut self) -> bool {
        if self.jobs.is_none() && !self.tried {
            self.tried = true;
            let (tx, rx) = mpsc::sync_channel::<Job>(self.in_flight_limit());
            let rx = Arc::new(Mutex::new(rx));
            for i in 0..self.workers {
                let rx = Arc::clone(&rx);
                let spawned = std::thread::Builder::new()
                    .name(format!("aguify-parse-{i}"))
                    .spawn(move || worker(&rx));
                if let Ok(h) = spawned {
                    self.handles.push(h);
                }
            }
            if !self.handles.is_empty() {
                self.jobs = Some(tx);
            }
        }
        self.jobs.is_some()
    }

    /// Sends a batch to be parsed (parsed here when no worker could be started).
    pub fn submit(&mut self, batch: Batch, file: &Arc<str>, prune: bool) {
        let (reply, result) = mpsc::sync_channel(1);
        // The next batch hands back about as many records: room for them at once, not
        // regrown (and the records moved) a doubling at a time.
        let room = Vec::with_capacity(self.garbage.len());
        let job = Job {
            batch,
            file: file.clone(),
            prune,
            reply,
            garbage: std::mem::replace(&mut self.garbage, room),
        };
        let job = match (self.start(), &self.jobs) {
            (true, Some(tx)) => tx.send(job).err().map(|e| e.0),
            _ => Some(job),
        };
        if let Some(job) = job {
            let frames = job.batch.parse(&job.file, job.prune);
            let _ = job.reply.send(frames);
        }
        self.in_flight.push_back(result);
    }

    /// The frames of the oldest batch, waiting for them; `None` when nothing is out.
    pub fn next_batch(&mut self) -> Option<Vec<Frame>> {
        let rx = self.in_flight.pop_front()?;
        // A worker that panicked drops its reply sender: report nothing rather than hang.
        Some(rx.recv().unwrap_or_default())
    }

    /// Hands back a record the caller is done with, to be dropped on a worker.
    pub fn recycle(&mut self, rec: Record) {
        if self.jobs.is_some() {
            self.garbage.push(rec);
        }
    }
}

fn worker(rx: &Mutex<Receiver<Job>>) {
    loop {
        let job = {
            let Ok(guard) = rx.lock() else { return };
            match guard.recv() {
                Ok(job) => job,
                Err(_) => return, // the pool is gone
            }
        };
        drop(job.garbage);
        let frames = job.batch.parse(&job.file, job.prune);
        // The caller may have stopped early (broken pipe): nobody waits for this batch.
        let _ = job.reply.send(frames);
    }
}

impl Drop for ParsePool {
    fn drop(&mut self) {
        self.in_flight.clear();
        self.jobs = None;
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(frames: &[Frame]) -> Vec<u64> {
        frames.iter().map(|f| f.origin().line).collect()
    }

    #[test]
    fn batches_come_back_in_order() {
        let file: Arc<str> = Arc::from("t");
        let mut pool = ParsePool::new(3);
        let mut got = vec![];
        for b in 0..40u64 {
            let mut batch = Batch::default();
            for i in 0..10 {
                let n = b * 10 + i + 1;
                batch.push(n, Ok(&format!("{{\"n\":{n}}}")));
            }
            pool.submit(batch, &file, false);
            if pool.in_flight() >= pool.in_flight_limit() {
                got.extend(lines(&pool.next_batch().expect("a batch is out")));
            }
        }
        while let Some(frames) = pool.next_batch() {
            got.extend(lines(&frames));
        }
        assert_eq!(got, (1..=400).collect::<Vec<_>>());
    }

    #[test]
    fn bad_and_blank_lines_keep_their_frames() {
        let file: Arc<str> = Arc::from("t");
        let mut batch = Batch::default();
        batch.push(1, Ok("{\"a\":1}"));
        batch.push(2, Err("invalid UTF-8".into()));
        batch.push(3, Ok("  "));
        batch.push(4, Ok("{\"a\""));
        let frames = batch.parse(&file, true);
        assert!(matches!(frames[0], Frame::Record(_)));
        assert!(matches!(&frames[1], Frame::Bad { message, .. } if message == "invalid UTF-8"));
        assert!(matches!(frames[2], Frame::Ignored { .. }));
        assert!(matches!(frames[3], Frame::Bad { .. }));
    }
}
