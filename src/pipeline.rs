//! The pipeline: input files → framing → adapter → mapper → an [`Observer`] (sinks, checker,
//! timeline). Files are processed in order as consecutive runs on one thread.

use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::sync::Arc;

use serde_json::Value;

use crate::adapter::{Disposition, Family, Router};
use crate::agui::Event;
use crate::error::Error;
use crate::input::{
    line_hash, Frame, Framer, Framing, IdleHint, Origin, Record, DEFAULT_MAX_LINE_BYTES,
};
use crate::mapper::{MapOptions, Mapper};
use crate::model::ModelEvent;

/// One input: a display name (`-` for stdin) and its reader.
pub struct Input {
    pub name: Arc<str>,
    pub reader: Box<dyn BufRead + Send>,
    /// `name` is the path of a regular file, which can be read again ([`Last::Line`]).
    pub rereadable: bool,
}

impl Input {
    /// A path, or stdin for `-`. A path is looked up now (a missing file fails here) but
    /// opened only when the pipeline first reads it, and closed when it is done with it: many
    /// files take one descriptor and one read buffer at a time.
    pub fn open(path: &str) -> Result<Input, Error> {
        if path == "-" {
            return Ok(Input {
                name: Arc::from("-"),
                reader: Box::new(io::BufReader::with_capacity(
                    256 * 1024,
                    IdleHint::new(io::stdin()),
                )),
                rereadable: false,
            });
        }
        let meta = std::fs::metadata(path).map_err(|source| Error::Input {
            path: path.to_string(),
            source,
        })?;
        Ok(Input {
            name: Arc::from(path),
            reader: Box::new(OpenWhenRead {
                path: path.into(),
                reader: None,
            }),
            rereadable: meta.is_file(),
        })
    }

    pub fn from_bytes(name: &str, bytes: Vec<u8>) -> Input {
        Input {
            name: Arc::from(name),
            reader: Box::new(io::Cursor::new(bytes)),
            rereadable: false,
        }
    }
}

/// A file opened (and its buffer made) at its first read ([`Input::open`]).
struct OpenWhenRead {
    path: std::path::PathBuf,
    reader: Option<io::BufReader<IdleHint<std::fs::File>>>,
}

impl OpenWhenRead {
    fn reader(&mut self) -> io::Result<&mut io::BufReader<IdleHint<std::fs::File>>> {
        let r = match self.reader.take() {
            Some(r) => r,
            None => {
                let f = std::fs::File::open(&self.path)?;
                io::BufReader::with_capacity(256 * 1024, IdleHint::new(f))
            }
        };
        Ok(self.reader.insert(r))
    }
}

impl io::Read for OpenWhenRead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.reader()?.read(buf)
    }
}

impl BufRead for OpenWhenRead {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.reader()?.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        if let Some(r) = &mut self.reader {
            r.consume(amt);
        }
    }
}

#[derive(Debug, Clone)]
pub struct Options {
    /// `--from`: force an input family instead of detecting it per file.
    pub from: Option<Family>,
    /// `--from sse`: force SSE framing instead of detecting it per file.
    pub framing: Option<Framing>,
    pub map: MapOptions,
    pub max_line_bytes: usize,
    /// `--strict`: stop at the first bad line.
    pub strict: bool,
    /// Threads parsing NDJSON lines ([`crate::input::parallel`]); 0 or 1 parses on the
    /// calling thread. Output does not depend on it.
    pub parse_threads: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            from: None,
            framing: None,
            map: MapOptions::default(),
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            strict: false,
            parse_threads: 1,
        }
    }
}

/// Where every input line went: the three counts always sum to `lines`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    pub lines: u64,
    pub mapped: u64,
    pub ignored: BTreeMap<&'static str, u64>,
    pub bad: u64,
    /// Warnings about records that were converted (counted in `mapped` or `ignored` too).
    pub warnings: u64,
    pub events: u64,
}

impl Stats {
    pub fn ignored_total(&self) -> u64 {
        self.ignored.values().sum()
    }
}

/// Receives what the pipeline produces. Only `event` is required.
pub trait Observer {
    /// An input record and what became of it.
    fn record(&mut self, _rec: &Record, _disposition: &Disposition) {}
    /// A line (or SSE frame) that could not be read as a record.
    fn bad_line(&mut self, _origin: &Origin, _message: &str) {}
    /// A record that was converted, with something about it worth telling (not counted as bad).
    fn warning(&mut self, _origin: &Origin, _message: &str) {}
    /// A model event, with the record that produced it.
    fn model(&mut self, _ev: &ModelEvent, _origin: &Origin) {}
    /// An AG-UI event, with the input line it came from.
    fn event(&mut self, ev: &Event, origin: &Origin) -> io::Result<()>;
    /// The input has no more bytes ready (a pipe whose writer is slower than aguify): flush
    /// what was written, so the events out so far leave before the input ends.
    fn input_idle(&mut self) -> io::Result<()> {
        Ok(())
    }
    /// A file was fully read.
    fn end_of_file(&mut self, _file: &str) -> io::Result<()> {
        Ok(())
    }
}

/// The v3 `params.timestamp` of a record (ms), if any; `Err` with what it is when a client
/// cannot hold it ([`crate::wire::v3::Event::timestamp`]).
pub(crate) fn record_timestamp(rec: &Record) -> Result<Option<i64>, String> {
    rec.v3.as_ref().map_or(Ok(None), |ev| ev.timestamp())
}

/// The warning for a file's first timestamp that a client cannot hold (`what` it is).
pub const TIMESTAMP_WARNING: &str = "v3 `timestamp` is";

fn timestamp_warning(what: &str) -> String {
    format!(
        "{TIMESTAMP_WARNING} {what}, expected an integer of milliseconds from 0 to 2^53 - 1 \
         (what a client's number holds); it and every such timestamp of this file are left out \
         of the events"
    )
}

/// Runs inputs through the pipeline, in order, into `obs`.
pub fn run(inputs: Vec<Input>, opts: &Options, obs: &mut dyn Observer) -> Result<Stats, Error> {
    let mut stats = Stats::default();
    let mut mapper = Mapper::new(opts.map.clone());
    let mut model = Vec::new();
    let mut out = Vec::new();
    // The last record read: its hash seeds ids at a file's end when a run must be opened.
    let mut last: Option<Last> = None;
    for input in inputs {
        let file = input.name.clone();
        let rereadable = input.rereadable;
        let mut framer = Framer::new(input.reader, file.clone(), opts.max_line_bytes)
            .with_parse_threads(opts.parse_threads);
        if let Some(f) = opts.framing {
            framer = framer.with_framing(f);
        }
        let mut router = Router::new(opts.from);
        // A timestamp a client cannot hold was reported for this file (once per file).
        let mut bad_timestamp_told = false;
        loop {
            let frame = match framer.next_frame() {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    obs.input_idle().map_err(Error::Output)?;
                    continue;
                }
                r => r.map_err(|source| Error::Input {
                    path: file.to_string(),
                    source,
                })?,
            };
            let Some(frame) = frame else { break };
            match frame {
                Frame::Ignored { lines, reason, .. } => {
                    stats.lines += lines;
                    *stats.ignored.entry(reason).or_default() += lines;
                }
                Frame::Bad {
                    origin,
                    lines,
                    message,
                } => {
                    stats.lines += lines;
                    stats.bad += lines;
                    obs.bad_line(&origin, &message);
                    if opts.strict {
                        return Err(Error::Strict(origin.to_string()));
                    }
                }
                Frame::Record(rec) => {
                    // The record before is done with: gone before this one is mapped, so
                    // that two long lines are not held at once.
                    if let Some(Last::Record(old)) = last.take() {
                        framer.recycle(old);
                    }
                    stats.lines += rec.lines;
                    model.clear();
                    let disposition = router.feed(&rec, &mut model);
                    match &disposition {
                        Disposition::Mapped => stats.mapped += rec.lines,
                        Disposition::Ignored(why) => {
                            *stats.ignored.entry(why).or_default() += rec.lines
                        }
                        Disposition::Bad(msg) => {
                            stats.bad += rec.lines;
                            obs.bad_line(&rec.origin, msg);
                        }
                    }
                    if let Some(w) = router.take_warning() {
                        stats.warnings += 1;
                        obs.warning(&rec.origin, &w);
                    }
                    let timestamp = record_timestamp(&rec).unwrap_or_else(|what| {
                        let converted = !matches!(disposition, Disposition::Bad(_));
                        if converted && !std::mem::replace(&mut bad_timestamp_told, true) {
                            stats.warnings += 1;
                            obs.warning(&rec.origin, &timestamp_warning(&what));
                        }
                        None
                    });
                    obs.record(&rec, &disposition);
                    if opts.strict {
                        if let Disposition::Bad(_) = &disposition {
                            return Err(Error::Strict(rec.origin.to_string()));
                        }
                    }
                    mapper.set_timestamp(timestamp);
                    emit(
                        &mut mapper,
                        &mut model,
                        &mut out,
                        &rec.origin,
                        Some(&|| Ok(rec.hash())),
                        obs,
                        &mut stats,
                    )?;
                    let by_place = rereadable
                        && framer.framing() == Some(Framing::Ndjson)
                        && rec.text.buffer_len() >= REREAD_BYTES;
                    last = Some(if by_place {
                        let origin = rec.origin.clone();
                        framer.recycle(rec);
                        Last::Line(origin)
                    } else {
                        Last::Record(rec)
                    });
                }
            }
        }
        model.clear();
        router.finish(&mut model);
        let end = Origin {
            file: file.clone(),
            line: match last.as_ref().map(Last::origin) {
                Some(o) if o.file == file => o.line,
                _ => 0,
            },
        };
        let seed = last.as_ref().map(|l| move || l.hash());
        let seed = seed.as_ref().map(|f| f as &dyn Fn() -> Result<u64, Error>);
        emit(
            &mut mapper,
            &mut model,
            &mut out,
            &end,
            seed,
            obs,
            &mut stats,
        )?;
        obs.end_of_file(&file).map_err(Error::Output)?;
    }
    let last_origin = match last {
        Some(l) => l.origin().clone(),
        None => Origin {
            file: Arc::from("-"),
            line: 0,
        },
    };
    out.clear();
    mapper.finish(&mut out);
    deliver(&out, &last_origin, obs, &mut stats)?;
    mapper.settle(&mut out);
    Ok(stats)
}

/// The last record read, whose [`Record::hash`] seeds ids at a file's end when a run must be
/// opened there (rarely: a run is open at most files' ends).
enum Last {
    Record(Box<Record>),
    /// A line of [`REREAD_BYTES`] or more of an NDJSON file, remembered by where it is: its
    /// text is gone before the next line is read (two such lines are not held at once), and
    /// read again from the file if its hash is asked for. Hashing every long line instead
    /// would cost more than reading it (FNV-1a, a byte at a time).
    Line(Origin),
}

/// See [`Last::Line`].
const REREAD_BYTES: usize = 1 << 20;

impl Last {
    fn origin(&self) -> &Origin {
        match self {
            Last::Record(r) => &r.origin,
            Last::Line(origin) => origin,
        }
    }

    fn hash(&self) -> Result<u64, Error> {
        match self {
            Last::Record(r) => Ok(r.hash()),
            Last::Line(at) => line_hash(&at.file, at.line).map_err(|source| Error::Input {
                path: at.file.to_string(),
                source,
            }),
        }
    }
}

/// The events of the last [`Mapper::map`] (or [`Mapper::finish`]) to `obs`.
fn deliver(
    out: &[Event],
    origin: &Origin,
    obs: &mut dyn Observer,
    stats: &mut Stats,
) -> Result<(), Error> {
    for e in out {
        stats.events += 1;
        obs.event(e, origin).map_err(Error::Output)?;
    }
    Ok(())
}

fn emit(
    mapper: &mut Mapper,
    model: &mut Vec<ModelEvent>,
    out: &mut Vec<Event>,
    origin: &Origin,
    seed: Option<&dyn Fn() -> Result<u64, Error>>,
    obs: &mut dyn Observer,
    stats: &mut Stats,
) -> Result<(), Error> {
    for ev in model.drain(..) {
        obs.model(&ev, origin);
        if let Some(seed) = seed.filter(|_| mapper.needs_seed(&ev)) {
            mapper.set_seed(seed()?);
        }
        out.clear();
        mapper.map(ev, out);
        deliver(out, origin, obs, stats)?;
        mapper.settle(out);
    }
    Ok(())
}

/// Converts in-memory inputs to AG-UI events (for tests, the server and benchmarks).
pub fn convert_to_vec(inputs: Vec<Input>, opts: &Options) -> Result<(Vec<Value>, Stats), Error> {
    struct Collect(Vec<Value>);
    impl Observer for Collect {
        fn event(&mut self, ev: &Event, _origin: &Origin) -> io::Result<()> {
            self.0.push(ev.to_value().into_owned());
            Ok(())
        }
    }
    let mut c = Collect(vec![]);
    let stats = run(inputs, opts, &mut c)?;
    Ok((c.0, stats))
}
