//! The pipeline: input files → framing → adapter → mapper → an [`Observer`] (sinks, checker,
//! timeline). Files are processed in order as consecutive runs on one thread.

use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::sync::Arc;

use serde_json::Value;

use indexmap::IndexMap;

use crate::adapter::{classify, Family, Router};
use crate::agui::Event;
use crate::error::{BadLine, Error, Reason};
use crate::input::{
    line_hash, Disposition, Frame, Framer, Framing, IdleHint, Origin, Record,
    DEFAULT_MAX_LINE_BYTES,
};
use crate::mapper::{MapOptions, Mapper};
use crate::model::ModelEvent;

/// What opens an input's bytes, called when the pipeline reaches the input (and dropped, the
/// file closed, when it is done with it).
pub type Opener = Box<dyn FnOnce() -> io::Result<Box<dyn BufRead + Send>> + Send>;

/// One input: a display name (`-` for stdin) and how to open its bytes.
pub struct Input {
    /// The name problems and origins carry: a path, or `-`.
    pub name: Arc<str>,
    /// Opens the input's bytes (a wrapper, such as a progress bar, can wrap what it opens).
    pub open: Opener,
    /// `name` is the path of a regular file, which can be read again (a long last line is
    /// remembered by its place, not held).
    pub rereadable: bool,
}

impl Input {
    /// A path, or stdin for `-`. A path is looked up now (a missing file fails here) but
    /// opened only when the pipeline reaches it, and closed when it is done with it: many
    /// files take one descriptor and one read buffer at a time.
    pub fn open(path: &str) -> Result<Input, Error> {
        fn buffered<R: io::Read + Send + 'static>(r: R) -> Box<dyn BufRead + Send> {
            Box::new(io::BufReader::with_capacity(256 * 1024, r))
        }
        let (open, rereadable): (Opener, bool) = match path {
            "-" => (Box::new(|| Ok(buffered(IdleHint::new(io::stdin())))), false),
            _ => {
                let meta = std::fs::metadata(path).map_err(Error::input(path))?;
                let path = std::path::PathBuf::from(path);
                let open = || Ok(buffered(IdleHint::new(std::fs::File::open(path)?)));
                (Box::new(open), meta.is_file())
            }
        };
        Ok(Input {
            name: Arc::from(path),
            open,
            rereadable,
        })
    }

    /// An input of bytes in memory.
    pub fn from_bytes(name: &str, bytes: Vec<u8>) -> Input {
        Input {
            name: Arc::from(name),
            open: Box::new(|| Ok(Box::new(io::Cursor::new(bytes)))),
            rereadable: false,
        }
    }
}

/// How to convert: what to detect or force, how to map, what to do with a bad line.
/// `Options::default()` detects everything and converts as `aguify convert` does.
#[derive(Debug, Clone)]
pub struct Options {
    /// `--from`: force an input family instead of detecting it per file.
    pub from: Option<Family>,
    /// `--from sse`: force SSE framing instead of detecting it per file.
    pub framing: Option<Framing>,
    /// How model events become AG-UI events (`--text`, `--tool-steps`, `--compat`, ids).
    pub map: MapOptions,
    /// `--max-line-bytes`: a longer line is skipped and reported as bad, not held in memory
    /// (default 64 MiB).
    pub max_line_bytes: usize,
    /// `--strict`: stop at the first bad line.
    pub strict: bool,
    /// Threads parsing NDJSON lines (`input::parallel`); 0 or 1 parses on the
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
    /// Input lines read.
    pub lines: u64,
    /// Lines that made events or state the mapping relies on.
    pub mapped: u64,
    /// Lines that carry nothing for AG-UI, by reason.
    pub ignored: BTreeMap<&'static str, u64>,
    /// Lines that could not be read or understood (each reported).
    pub bad: u64,
    /// Warnings about records that were converted (counted in `mapped` or `ignored` too).
    pub warnings: u64,
    /// AG-UI events written.
    pub events: u64,
    /// What each input held, by name in input order.
    pub files: IndexMap<Arc<str>, Seen>,
}

impl Stats {
    /// All ignored lines, whatever the reason.
    pub fn ignored_total(&self) -> u64 {
        self.ignored.values().sum()
    }
}

/// Whether an input held anything aguify reads (a file of which no record is of a known form
/// is a CSV, a binary file, an empty file, a JSON array, the wrong `--from`: `aguify` names it
/// with why).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Seen {
    /// A record of a known form was read.
    pub read: bool,
    /// A bad line was a JSON array (for the `jq` hint).
    pub array: bool,
    /// The first record of another form than `--from` asks for.
    pub wrong_form: Option<WrongForm>,
}

/// The forms of a record of another form than `--from` asks for (its bad line's reason is
/// `NotTheForcedForm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WrongForm {
    /// The form `--from` asks for.
    pub forced: Family,
    /// The record's form.
    pub found: Family,
}

/// Whether a record read with `disposition` is of a known form: a record an adapter mapped is,
/// whatever its kind (a platform `messages` frame of `[chunk, metadata]` has no family of its
/// own).
pub fn is_known(rec: &Record, disposition: &Disposition) -> bool {
    match disposition {
        Disposition::Mapped => true,
        Disposition::Ignored(_) => classify(rec).family().is_some(),
        Disposition::Bad(_) => false,
    }
}

impl Seen {
    /// A bad line of this file: the JSON array hint, the first record of another form.
    pub fn bad_line(&mut self, bad: &BadLine) {
        self.array |= bad.reason == Reason::Array;
        if let (None, Reason::NotTheForcedForm { forced, found }) = (self.wrong_form, bad.reason) {
            self.wrong_form = Some(WrongForm { forced, found });
        }
    }

    /// What another reading of the same file held, added (a file read twice).
    pub fn merge(&mut self, other: &Seen) {
        self.read |= other.read;
        self.array |= other.array;
        self.wrong_form = self.wrong_form.or(other.wrong_form);
    }
}

/// Receives what the pipeline produces. Only `event` is required.
pub trait Observer {
    /// An input record and what became of it.
    fn record(&mut self, _rec: &Record, _disposition: &Disposition) {}
    /// The first record of a known form in `file` (before [`Observer::record`] is told of it).
    fn file_read(&mut self, _file: &str) {}
    /// A line (or SSE frame) that could not be read as a record, or a record that could not
    /// be converted: why, by type and in words.
    fn bad_line(&mut self, _origin: &Origin, _bad: &BadLine) {}
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

/// A line that could not be converted, or one converted with something worth telling.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// Where: the input's name and the 1-based line.
    pub origin: Origin,
    /// Whether the line was left out ([`Severity::Bad`]) or converted ([`Severity::Warning`]).
    pub severity: Severity,
    /// What was wrong, in words.
    pub message: String,
}

/// How bad a [`Problem`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The line could not be read or understood; it added nothing to the output.
    Bad,
    /// The line was converted; something about it is still worth telling.
    Warning,
}

/// What the conversion hands back: its events and problems, until taken.
#[derive(Default)]
pub struct Collect {
    pub events: Vec<Event>,
    pub problems: Vec<Problem>,
}

impl Observer for Collect {
    fn bad_line(&mut self, origin: &Origin, message: &BadLine) {
        self.problems.push(Problem {
            origin: origin.clone(),
            severity: Severity::Bad,
            message: message.to_string(),
        });
    }

    fn warning(&mut self, origin: &Origin, message: &str) {
        self.problems.push(Problem {
            origin: origin.clone(),
            severity: Severity::Warning,
            message: message.to_string(),
        });
    }

    fn event(&mut self, ev: &Event, _origin: &Origin) -> io::Result<()> {
        self.events.push(ev.clone());
        Ok(())
    }
}

/// The warning for a file's first timestamp that a client cannot hold (`what` it is).
pub const TIMESTAMP_WARNING: &str = "v3 `timestamp` is";

/// Runs inputs through the pipeline, in order, into `obs`.
pub fn run(inputs: Vec<Input>, opts: &Options, obs: &mut dyn Observer) -> Result<Stats, Error> {
    let mut conversion = Conversion::new(opts);
    for input in inputs {
        let reader = (input.open)().map_err(Error::input(&input.name))?;
        let mut file = FileRead::new(input.name, input.rereadable, reader, opts);
        while !conversion.pump(&mut file, obs)? {
            obs.input_idle().map_err(Error::Output)?;
        }
        conversion.end_file(file, obs)?;
    }
    conversion.finish(obs)
}

/// One file being read: its name, its framer and its router (a file is locked to one input
/// family).
pub(crate) struct FileRead<R: BufRead> {
    rereadable: bool,
    pub(crate) framer: Framer<R>,
    router: Router,
    /// A timestamp a client cannot hold was reported for this file (once per file).
    bad_timestamp_told: bool,
    seen: Seen,
}

impl<R: BufRead> FileRead<R> {
    /// The file `name` of the bytes `reader` gives, framed as `opts` asks.
    pub(crate) fn new(name: Arc<str>, rereadable: bool, reader: R, opts: &Options) -> Self {
        FileRead {
            framer: Framer::new(reader, name, opts.framing, opts.max_line_bytes)
                .with_parse_threads(opts.parse_threads),
            rereadable,
            router: Router::new(opts.from),
            bad_timestamp_told: false,
            seen: Seen::default(),
        }
    }
}

/// A conversion in progress: the mapper and what one file hands the next (files are
/// consecutive runs of one thread).
#[derive(Default)]
pub(crate) struct Conversion {
    stats: Stats,
    mapper: Mapper,
    model: Vec<ModelEvent>,
    out: Vec<Event>,
    /// The last record read, whose [`Record::hash`] seeds ids when a run must be opened: by
    /// the record (a run's start), or at its file's end (rarely: a run is open at most files'
    /// ends). `None` after a line of [`REREAD_BYTES`] or more of an NDJSON file: its text is
    /// gone before the next line is read (two such lines are not held at once), and read
    /// again from the file (`last_at`) if its hash is asked for. Hashing every long line
    /// instead would cost more than reading it (FNV-1a, a byte at a time).
    last: Option<Box<Record>>,
    /// Where the last record is.
    last_at: Option<Origin>,
    strict: bool,
}

impl Conversion {
    pub(crate) fn new(opts: &Options) -> Self {
        Conversion {
            mapper: Mapper::new(opts.map.clone()),
            strict: opts.strict,
            ..Conversion::default()
        }
    }

    /// The frames `file` has ready, converted: `true` at its end, `false` when its bytes ran
    /// out before it ended (its reader would block).
    pub(crate) fn pump<R: BufRead>(
        &mut self,
        file: &mut FileRead<R>,
        obs: &mut dyn Observer,
    ) -> Result<bool, Error> {
        loop {
            match file.framer.next_frame() {
                Ok(Some(frame)) => self.frame(frame, file, obs)?,
                Ok(None) => return Ok(true),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(false),
                Err(e) => return Err(Error::input(&file.framer.file)(e)),
            }
        }
    }

    /// One frame of `file`, through the adapter and the mapper into `obs`.
    fn frame<R: BufRead>(
        &mut self,
        frame: Frame,
        file: &mut FileRead<R>,
        obs: &mut dyn Observer,
    ) -> Result<(), Error> {
        let (origin, lines) = (frame.origin, frame.lines);
        let (disposition, rec) = match frame.body {
            Err(disposition) => (disposition, None),
            Ok(rec) => {
                // The record before is done with: gone before this one is mapped, so
                // that two long lines are not held at once.
                if let Some(old) = self.last.take() {
                    file.framer.recycle(old);
                }
                self.model.clear();
                (file.router.feed(&rec, &mut self.model), Some(rec))
            }
        };
        let stats = &mut self.stats;
        stats.lines += lines;
        match &disposition {
            Disposition::Mapped => stats.mapped += lines,
            Disposition::Ignored(why) => *stats.ignored.entry(why).or_default() += lines,
            Disposition::Bad(bad) => {
                stats.bad += lines;
                file.seen.bad_line(bad);
                obs.bad_line(&origin, bad);
            }
        }
        let bad = matches!(disposition, Disposition::Bad(_));
        if let Some(rec) = &rec {
            if let Some(w) = file.router.take_warning() {
                stats.warnings += 1;
                obs.warning(&origin, &w);
            }
            // The v3 `params.timestamp` (ms), if any a client can hold.
            let ts = rec.v3.as_ref().map_or(Ok(None), |ev| ev.timestamp());
            self.mapper.timestamp = ts.unwrap_or_else(|what| {
                if !bad && !std::mem::replace(&mut file.bad_timestamp_told, true) {
                    stats.warnings += 1;
                    let warning = format!(
                        "{TIMESTAMP_WARNING} {what}, expected an integer of milliseconds from 0 \
                         to 2^53 - 1 (what a client's number holds); it and every such \
                         timestamp of this file are left out of the events"
                    );
                    obs.warning(&origin, &warning);
                }
                None
            });
            if !file.seen.read && is_known(rec, &disposition) {
                file.seen.read = true;
                obs.file_read(&origin.file);
            }
            obs.record(rec, &disposition);
        }
        if let (true, Disposition::Bad(bad)) = (self.strict, &disposition) {
            let (at, message) = (origin.to_string(), bad.message.clone());
            return Err(Error::Strict { at, message });
        }
        let Some(rec) = rec else { return Ok(()) };
        let by_place = file.rereadable
            && file.framer.framing == Some(Framing::Ndjson)
            && rec.text.buffer_len() >= REREAD_BYTES;
        (self.last, self.last_at) = (Some(rec), Some(origin.clone()));
        self.emit(&origin, obs)?;
        if let Some(rec) = self.last.take_if(|_| by_place) {
            file.framer.recycle(rec);
        }
        Ok(())
    }

    /// The end of `file`: what its adapter left open, closed.
    pub(crate) fn end_file<R: BufRead>(
        &mut self,
        mut file: FileRead<R>,
        obs: &mut dyn Observer,
    ) -> Result<(), Error> {
        self.model.clear();
        file.router.finish(&mut self.model);
        let name = &file.framer.file;
        let seen = self.stats.files.entry(name.clone()).or_default();
        seen.merge(&file.seen);
        let line = (self.last_at.as_ref()).filter(|o| o.file == *name);
        self.emit(&Origin::at(name, line.map_or(0, |o| o.line)), obs)?;
        obs.end_of_file(name).map_err(Error::Output)
    }

    /// The end of the last file: the mapper's last events.
    pub(crate) fn finish(mut self, obs: &mut dyn Observer) -> Result<Stats, Error> {
        let last_origin = (self.last_at.clone()).unwrap_or_else(|| Origin::at(&"-".into(), 0));
        self.mapper.finish(&mut self.out);
        self.deliver(&last_origin, obs)?;
        Ok(self.stats)
    }

    /// The model events the adapter made of a record (or at a file's end) through the mapper,
    /// their events to `obs`; the last record's hash seeds a run the mapper must open.
    fn emit(&mut self, origin: &Origin, obs: &mut dyn Observer) -> Result<(), Error> {
        let mut model = std::mem::take(&mut self.model);
        for ev in model.drain(..) {
            obs.model(&ev, origin);
            let seeds = self.mapper.needs_seed(&ev);
            if let Some(at) = self.last_at.as_ref().filter(|_| seeds) {
                self.mapper.seed = match &self.last {
                    Some(rec) => rec.hash(),
                    None => line_hash(&at.file, at.line).map_err(Error::input(&at.file))?,
                };
            }
            self.mapper.map(ev, &mut self.out);
            self.deliver(origin, obs)?;
        }
        self.model = model;
        Ok(())
    }

    /// The events of the last [`Mapper::map`] (or [`Mapper::finish`]) to `obs`, then handed
    /// back to the mapper ([`Mapper::settle`]).
    fn deliver(&mut self, origin: &Origin, obs: &mut dyn Observer) -> Result<(), Error> {
        for e in &self.out {
            self.stats.events += 1;
            obs.event(e, origin).map_err(Error::Output)?;
        }
        self.mapper.settle(&mut self.out);
        Ok(())
    }
}

/// See [`Conversion::last`].
const REREAD_BYTES: usize = 1 << 20;

/// Converts in-memory inputs to AG-UI events (for tests, the server and benchmarks).
pub fn convert_to_vec(inputs: Vec<Input>, opts: &Options) -> Result<(Vec<Value>, Stats), Error> {
    let mut c = Collect::default();
    let stats = run(inputs, opts, &mut c)?;
    let events = c.events.iter().map(|e| e.to_value().into_owned()).collect();
    Ok((events, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run the log does not start (no root chain) is opened by the record that needs it, its
    /// ids derived from that record's bytes (FNV-1a of the line).
    #[test]
    fn a_run_opened_by_a_record_has_ids_of_its_bytes() {
        let line = r#"{"event":"on_chat_model_stream","name":"m","run_id":"c1","data":{"chunk":{"content":"hi","id":"m1"}},"parent_ids":[]}"#;
        let fnv = line.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        let input = Input::from_bytes("-", format!("{line}\n").into_bytes());
        let (events, _) = convert_to_vec(vec![input], &Options::default()).expect("in memory");
        assert_eq!(events[0]["type"], "RUN_STARTED");
        assert_eq!(events[0]["threadId"], format!("thread-{fnv:016x}"));
    }

    /// `--strict` stops with the bad line's `file:line` and why, by name (its message as
    /// before); a file of another form than `--from` holds the first such record's forms.
    #[test]
    fn a_strict_stop_and_a_wrong_form_name_their_parts() {
        let v3 = r#"{"type":"event","seq":1,"method":"lifecycle","params":{"namespace":[],"data":{"event":"running"}}}"#;
        let log = |text: &str| vec![Input::from_bytes("t", text.as_bytes().to_vec())];
        let strict = Options {
            strict: true,
            ..Options::default()
        };
        let stop = convert_to_vec(log(&format!("{v3}\n[1]\n{v3}\n")), &strict).err();
        let Some(Error::Strict { at, message }) = &stop else {
            panic!("{stop:?}")
        };
        assert_eq!(
            (at.as_str(), message.as_str()),
            ("t:2", "expected a JSON object, found an array")
        );
        let told = stop.as_ref().map(ToString::to_string);
        assert_eq!(
            told.as_deref(),
            Some("t:2: stopping at the first bad line (--strict)")
        );
        let forced = Options {
            from: Some(Family::V2),
            ..Options::default()
        };
        let (_, stats) = convert_to_vec(log(&format!("{v3}\n{{}}\n")), &forced).expect("in memory");
        let (forced, found) = (Family::V2, Family::V3);
        assert_eq!(
            stats.files["t"].wrong_form,
            Some(WrongForm { forced, found })
        );
    }
}
