//! `aguify diff`: whether two streams show a front end the same conversation.
//!
//! Each side (LangGraph logs of any form, AG-UI captures, or a [`crate::snapshot`]) is read on
//! its own thread: the pipeline's AG-UI events are folded run by run into a
//! [`conversation::Conversation`] (the one place that reads events), each run becomes the
//! leaves of a document ([`crate::leaf`]), and the runs at the same position are compared
//! ([`compare`]) and reported ([`report`]) as they arrive. Memory is a few runs, not the input.

pub mod compare;
pub mod conversation;
pub mod report;

use std::io::{self, BufRead, Read};
use std::sync::mpsc;
use std::sync::Arc;

use crate::agui::Event;
use crate::error::Error;
use crate::input::Origin;
use crate::pipeline::{self, Input, Observer};

pub use crate::leaf::{self, Item, Run};
pub use compare::{Change, Difference, Options, RunDiff};
use conversation::Conversation;

/// Totals of a diff.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// Runs compared (the longer side's count).
    pub runs: usize,
    /// Runs with a difference (a run only one side has is one).
    pub different_runs: usize,
    pub differences: usize,
    /// Input lines that could not be read, on both sides.
    pub bad_lines: usize,
}

impl Summary {
    pub fn is_equal(&self) -> bool {
        self.different_runs == 0
    }
}

/// An input that is not what it should be.
fn invalid(path: &str, msg: String) -> Error {
    Error::input(path)(io::Error::new(io::ErrorKind::InvalidData, msg))
}

/// Whether `path` is a snapshot (its first line is the snapshot header). Stdin is not.
fn is_snapshot(path: &str) -> Result<bool, Error> {
    if path == "-" {
        return Ok(false);
    }
    let f = std::fs::File::open(path).map_err(Error::input(path))?;
    let mut first = Vec::new();
    let mut head = io::BufReader::new(f).take(256);
    head.read_until(b'\n', &mut first)
        .map_err(Error::input(path))?;
    Ok(first.trim_ascii_end() == crate::snapshot::HEADER.as_bytes())
}

/// Reads one side's files (consecutive runs of one thread, or snapshots) into `out`: each run
/// as it ends, each unreadable line as it is met.
pub fn read_side(
    files: &[String],
    opts: &pipeline::Options,
    exact: bool,
    out: &mut dyn FnMut(Item) -> io::Result<()>,
) -> Result<(), Error> {
    let snapshots = (files.iter().map(|f| is_snapshot(f))).collect::<Result<Vec<_>, _>>()?;
    if snapshots.contains(&true) {
        let why = match (snapshots.contains(&false), exact) {
            (true, _) => Some("a side is either snapshots or event streams, not both"),
            (_, true) => Some("--exact compares events, and a snapshot holds none"),
            _ => None,
        };
        if let Some(why) = why {
            return Err(invalid(&files[0], why.into()));
        }
        let mut runs = 0;
        for f in files {
            let reader = io::BufReader::new(std::fs::File::open(f).map_err(Error::input(f))?);
            crate::snapshot::read::read(&Arc::from(f.as_str()), reader, &mut runs, out)?;
        }
        return Ok(());
    }
    let inputs = files.iter().map(|f| Input::open(f));
    let inputs = inputs.collect::<Result<Vec<_>, _>>()?;
    let mut reader = Reader {
        conv: Conversation::new(exact),
        out,
        held: Vec::new(),
        telling: false,
        failed: None,
    };
    let result = pipeline::run(inputs, opts, &mut reader);
    if let Err(Error::Strict { .. }) = &result {
        // `--strict` stops at a bad line: it is told before the stop.
        reader.flush().map_err(Error::Output)?;
    }
    // A file of which nothing is of a known form (empty, binary, a CSV, the wrong `--from`)
    // is no conversation: an empty golden or "equal: 0 runs" would be a lie.
    if let Some((file, why)) = crate::known::unread_files(&result?).next() {
        return Err(invalid(file, why));
    }
    // The input ended: the lines still held, then the open run, if any.
    reader.flush().map_err(Error::Output)?;
    reader.conv.finish().map_or(Ok(()), |run| {
        (reader.out)(Item::Run(run)).map_err(Error::Output)
    })
}

/// Diffs `old` against `new`: each side is read on its own thread, the runs at one position
/// are compared as soon as both have arrived, and every run's comparison goes to `report`
/// (equal ones too); unreadable lines go to `bad`. An input that cannot be read at all stops
/// the diff with its error.
pub fn diff(
    old: &[String],
    new: &[String],
    popts: &pipeline::Options,
    opts: &Options,
    report: &mut dyn FnMut(&RunDiff) -> io::Result<()>,
    bad: &mut dyn FnMut(&Origin, &str),
) -> Result<Summary, Error> {
    // A file that cannot be opened stops the diff before anything is reported.
    for f in old.iter().chain(new).filter(|f| *f != "-") {
        std::fs::File::open(f).map_err(Error::input(f))?;
    }
    std::thread::scope(|s| {
        // Each side on a thread of its own, its items coming through a short queue.
        let [(old_rx, old_h), (new_rx, new_h)] = [old, new].map(|files| {
            let (tx, rx) = mpsc::sync_channel(READ_AHEAD);
            let closed = || io::Error::new(io::ErrorKind::BrokenPipe, "diff ended");
            let read = move || {
                read_side(files, popts, opts.exact, &mut |item| {
                    tx.send(item).map_err(|_| closed())
                })
            };
            (rx, s.spawn(read))
        });
        let mut summary = Summary::default();
        // Per side: runs and unreadable lines seen.
        let mut seen = [(0usize, 0usize); 2];
        let mut next = |side: usize, rx: &mpsc::Receiver<Item>| loop {
            match rx.recv().ok()? {
                Item::Run(r) => {
                    seen[side].0 += 1;
                    return Some(r);
                }
                Item::Bad { origin, message } => {
                    seen[side].1 += 1;
                    bad(&origin, &message);
                }
            }
        };
        loop {
            let a = next(0, &old_rx);
            let b = next(1, &new_rx);
            if a.is_none() && b.is_none() {
                break;
            }
            let d = compare::compare(summary.runs + 1, a.as_ref(), b.as_ref(), opts);
            summary.runs += 1;
            if !d.is_equal() {
                summary.different_runs += 1;
                summary.differences += d.differences.len().max(1);
            }
            // Returning drops the queues: the sides stop, and the scope joins them.
            report(&d).map_err(Error::Output)?;
        }
        summary.bad_lines = seen[0].1 + seen[1].1;
        for h in [old_h, new_h] {
            h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))?;
        }
        // A side whose lines were all unreadable is not an empty conversation.
        for ((runs, bad), files) in seen.iter().zip([old, new]) {
            if *runs == 0 && *bad > 0 {
                let msg = format!("no run could be read ({bad} unreadable lines)");
                return Err(invalid(&files.join(" "), msg));
            }
        }
        Ok(summary)
    })
}

/// Items a side's thread may read ahead of the comparison: memory is a few runs, not a side.
const READ_AHEAD: usize = 16;

/// The pipeline observer of one side: folds events and hands on each run as it ends, and each
/// unreadable line as it is met.
struct Reader<'a> {
    conv: Conversation,
    out: &'a mut dyn FnMut(Item) -> io::Result<()>,
    /// Unreadable lines of a file none of whose records was of a known form yet (a file of
    /// which nothing is read is an error, not a list of bad lines).
    held: Vec<Item>,
    /// Unreadable lines are handed on as they come: the file being read turned out to be a
    /// recording, or [`HELD_MAX`] of its lines were held (memory is a few runs, not a file).
    telling: bool,
    /// The first failure to hand an item on in a hook that cannot return it.
    failed: Option<io::Error>,
}

/// Unreadable lines held at most while a file's first record of a known form is awaited.
const HELD_MAX: usize = 1000;

impl Reader<'_> {
    /// Hands `item` on; the first failure is kept for the next hook that can return it.
    fn send(&mut self, item: Item) {
        if self.failed.is_none() {
            self.failed = (self.out)(item).err();
        }
    }

    /// Hands on the lines held.
    fn release(&mut self) {
        for b in std::mem::take(&mut self.held) {
            self.send(b);
        }
    }

    /// Hands on the lines held, and returns the first failure to hand anything on.
    fn flush(&mut self) -> io::Result<()> {
        self.release();
        self.failed.take().map_or(Ok(()), Err)
    }
}

impl Observer for Reader<'_> {
    fn file_read(&mut self, _file: &str) {
        self.telling = true;
        self.release();
    }

    fn bad_line(&mut self, origin: &Origin, message: &crate::error::BadLine) {
        let item = Item::Bad {
            origin: origin.clone(),
            message: message.to_string(),
        };
        if self.telling {
            return self.send(item);
        }
        self.held.push(item);
        if self.held.len() == HELD_MAX {
            self.telling = true;
            self.release();
        }
    }

    fn event(&mut self, ev: &Event, origin: &Origin) -> io::Result<()> {
        self.flush()?;
        match self.conv.fold(ev, origin) {
            Some(run) => (self.out)(Item::Run(run)),
            None => Ok(()),
        }
    }

    fn end_of_file(&mut self, _file: &str) -> io::Result<()> {
        self.telling = false;
        self.failed.take().map_or(Ok(()), Err)
    }
}
