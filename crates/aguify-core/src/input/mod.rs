//! Input framing: bytes → JSON records.
//!
//! A file is either NDJSON (one JSON value a line) or SSE (`event:`/`data:` frames separated by
//! blank lines); [`Framer`] tells them apart from the first non-blank line and yields one
//! [`Frame`] per record, bad line or ignored line, each naming the input line it came from.

mod lines;
pub mod parallel;
mod sse;
mod text;

use std::borrow::Cow;
use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::sync::Arc;

use serde_json::Value;

use crate::error::{BadLine, Reason};
pub use crate::wire::json_kind;
pub use lines::{IdleHint, Readiness, DEFAULT_MAX_LINE_BYTES};
use lines::{LineReader, RawLine};
use sse::SseFramer;
pub use text::RecordText;

/// Where a record came from: file name (`-` for stdin) and 1-based line number (written as
/// `{"file": …, "line": …}`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Origin {
    /// The input's name: its path, or `-` for stdin.
    pub file: Arc<str>,
    /// The 1-based line (an SSE frame's first line); 0 for the end of the input.
    pub line: u64,
}

impl Origin {
    pub(crate) fn at(file: &Arc<str>, line: u64) -> Origin {
        let file = file.clone();
        Origin { file, line }
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// One parsed input record.
#[derive(Debug, Clone)]
pub struct Record {
    /// Where the record starts.
    pub origin: Origin,
    /// How many input lines this record spans (SSE frames span several).
    pub lines: u64,
    /// The SSE `event:` field, when the record came from an SSE frame.
    pub sse_event: Option<String>,
    /// The record's JSON text: the line, or an SSE frame's joined `data`.
    pub text: RecordText,
    /// The record as a tree ([`Record::value`]).
    value: std::sync::OnceLock<Value>,
    /// The v3 event of the record (itself, or an SDK part's `data`), read typed: what the
    /// classifier, the v3 adapter and the checks read of it.
    pub v3: Option<Box<crate::wire::v3::Event>>,
    /// The v2 event of the record (itself, or an `events` stream part's `data`), read typed:
    /// what the v2 adapter reads of it.
    pub v2: Option<Box<crate::wire::v2::Event>>,
}

impl Record {
    /// The record of `text`: a v3 event is read typed (its tree made only if asked for), any
    /// other record by `parse`, whose error says what was expected.
    pub fn read(
        origin: Origin,
        lines: u64,
        sse_event: Option<String>,
        text: RecordText,
        parse: impl FnOnce(&str) -> Result<Value, BadLine>,
    ) -> Result<Self, BadLine> {
        // A line of a typed kind keeps its typed read; its tree is parsed only if asked for.
        // Its whitespace and key order do not change the path (Python's `json.dumps` writes
        // `{"type": "event", …}`).
        let as_v2 = sse_event.is_none() && opens_with(&text, &V2_OPENING);
        let v3 = may_be_v3(&text, as_v2).then(|| crate::wire::v3::Event::read(&text));
        let mut v3 = v3.flatten();
        let v2 = (v3.is_none() && as_v2).then(|| crate::wire::v2::Event::read(&text));
        let mut v2 = v2.flatten();
        let mut value = std::sync::OnceLock::new();
        if v3.is_none() && v2.is_none() {
            let tree = parse(&text)?;
            v3 = crate::wire::v3::Event::of_tree(&tree, sse_event.is_some());
            if v3.is_none() {
                v2 = crate::wire::v2::Event::of_record(&tree, sse_event.as_deref());
            }
            value = tree.into();
        }
        Ok(Record {
            origin,
            lines,
            sse_event,
            text,
            value,
            v3,
            v2,
        })
    }

    /// The record as a tree (of a v3 event read typed, parsed from its text when first asked
    /// for: only the timeline and explain views read it).
    pub fn value(&self) -> &Value {
        self.value
            .get_or_init(|| serde_json::from_str(&self.text).unwrap_or_default())
    }

    /// FNV-1a of the record's JSON text: the seed of ids derived from input. Computed when
    /// asked for (a run's start): hashing every line byte by byte would cost more than parsing it.
    pub fn hash(&self) -> u64 {
        fnv1a(self.text.as_bytes())
    }
}

/// The [`Record::hash`] of line `number` of the NDJSON file at `path`, read again (see
/// `pipeline::Conversion::last`).
pub fn line_hash(path: &str, number: u64) -> io::Result<u64> {
    let file = std::fs::File::open(path)?;
    let mut lines = LineReader::new(io::BufReader::with_capacity(256 * 1024, file), usize::MAX);
    while let Some((n, text)) = lines.next_line()? {
        if n == number {
            let text = text.map_err(|b| io::Error::other(b.message))?;
            return Ok(fnv1a(text.as_bytes()));
        }
    }
    Err(io::Error::other(format!(
        "line {number} is gone: the file changed while it was read"
    )))
}

/// FNV-1a 64, for deterministic ids derived from input bytes.
fn fnv1a(bytes: &[u8]) -> u64 {
    let step = |h: u64, b: &u8| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, step)
}

/// A fast hash of a text, compared, not shown: a v3 line's (to spot an exact replay of a
/// `seq`). foldhash with a fixed seed.
pub fn text_hash(bytes: &[u8]) -> u64 {
    use std::hash::BuildHasher;
    foldhash::quality::FixedState::default().hash_one(bytes)
}

/// What the framer produced for a stretch of input: a record, or lines that are not one.
#[derive(Debug)]
pub struct Frame {
    /// Where the stretch starts (the record's origin).
    pub origin: Origin,
    /// How many input lines it spans.
    pub lines: u64,
    /// The record, or why the lines are not one: ignored (blank lines, SSE comments, with the
    /// reason) or bad (could not be read as one).
    pub body: Result<Box<Record>, Disposition>,
}

/// What became of one input record.
#[derive(Debug, Clone, PartialEq)]
pub enum Disposition {
    /// It produced model events or state the mapping relies on.
    Mapped,
    /// It carries nothing for AG-UI; the reason says why (shown by `--stats`).
    Ignored(&'static str),
    /// It could not be understood; why, by type and in words (what was expected).
    Bad(BadLine),
}

impl Disposition {
    /// A record that could not be understood, for `why`.
    pub(crate) fn bad(why: impl Into<BadLine>) -> Self {
        Disposition::Bad(why.into())
    }
}

/// Which framing a file uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// One JSON value a line.
    Ndjson,
    /// Server-sent events: `event:`/`data:` fields, frames separated by blank lines.
    Sse,
}

/// Frames one input stream, detecting NDJSON vs SSE from its first non-blank line.
pub struct Framer<R: BufRead> {
    /// The lines read (its reader is handed more bytes by a [`crate::convert::Converter`]).
    pub(crate) lines: LineReader<R>,
    /// The input's name.
    pub(crate) file: Arc<str>,
    /// The framing of the input, once told.
    pub(crate) framing: Option<Framing>,
    sse: SseFramer,
    /// Frames to return, in input order.
    ready: VecDeque<Frame>,
    /// Parse threads for NDJSON lines ([`parallel`]), when asked for, and the lines batched
    /// for them.
    pool: Option<parallel::ParsePool>,
    batch: parallel::Batch,
    done: bool,
    /// The reader reported `WouldBlock`: pass it on once every line read so far is out.
    idle: bool,
}

impl<R: BufRead> Framer<R> {
    /// The framer of `file`, read from `reader`, in `framing` (`None`: detected), lines over
    /// `max` bytes skipped; its lines parsed on this thread.
    pub fn new(reader: R, file: Arc<str>, framing: Option<Framing>, max: usize) -> Self {
        Framer {
            lines: LineReader::new(reader, max),
            file,
            framing,
            sse: SseFramer::new(max),
            ready: VecDeque::new(),
            pool: None,
            batch: parallel::Batch::default(),
            done: false,
            idle: false,
        }
    }

    /// This framer with `threads` over 1: NDJSON lines parsed on `threads - 1` worker threads,
    /// frames still in input order ([`parallel`]).
    pub fn with_parse_threads(mut self, threads: usize) -> Self {
        self.pool = (threads > 1).then(|| parallel::ParsePool::new(threads - 1));
        self
    }

    /// Hands back a record the caller is done with: with parse threads it is dropped on one
    /// of them (dropping a parsed tree costs about a tenth of parsing it).
    pub fn recycle(&mut self, rec: Box<Record>) {
        if let Some(pool) = &mut self.pool {
            pool.recycle(rec);
        }
    }

    /// Sends the lines batched so far to be parsed.
    fn flush_batch(&mut self, at_end: bool) {
        if let Some(pool) = self.pool.as_mut().filter(|_| !self.batch.is_empty()) {
            pool.submit(self.batch.take(), &self.file, at_end);
        }
    }

    /// The next frame, `Ok(None)` at end of input. A `WouldBlock` from the reader is passed
    /// on once every frame of the lines read before it has been returned.
    pub fn next_frame(&mut self) -> io::Result<Option<Frame>> {
        loop {
            if let Some(f) = self.ready.pop_front() {
                return Ok(Some(f));
            }
            let pool = self.pool.as_mut();
            let pool = pool.filter(|p| self.done || self.idle || p.full());
            if let Some(frames) = pool.and_then(|p| p.next_batch()) {
                // `ready` is empty: it takes the batch's frames without moving them.
                self.ready = frames.into();
                continue;
            }
            if self.idle {
                self.idle = false;
                return Err(io::ErrorKind::WouldBlock.into());
            }
            if self.done {
                return Ok(None);
            }
            // Whether a line was read.
            let read = if self.pool.is_some() && self.framing == Some(Framing::Ndjson) {
                // Lines go from the reader's buffer straight into the batch's.
                self.batch.read_line(&mut self.lines)
            } else {
                let (framing, sse, ready) = (&mut self.framing, &mut self.sse, &mut self.ready);
                let line = self.lines.next_line();
                line.map(|raw| {
                    raw.map(|raw| frame_line(raw, framing, sse, ready, &self.file))
                        .is_some()
                })
            };
            match read {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    self.flush_batch(false);
                    self.idle = true;
                }
                Err(e) => return Err(e),
                Ok(true) if self.batch.is_full() => self.flush_batch(false),
                Ok(true) => {}
                Ok(false) => {
                    self.done = true;
                    if self.framing == Some(Framing::Sse) {
                        self.ready.extend(self.sse.finish(&self.file));
                    }
                    self.flush_batch(true);
                }
            }
        }
    }
}

fn frame_line(
    (number, text): RawLine<'_>,
    framing: &mut Option<Framing>,
    sse: &mut SseFramer,
    ready: &mut VecDeque<Frame>,
    file: &Arc<str>,
) {
    // Blank lines before the first that tells are NDJSON's blank lines.
    let tells = |t: &&Cow<'_, str>| framing.is_none() && !t.trim().is_empty();
    if let Some(text) = text.as_ref().ok().filter(tells) {
        *framing = Some(detect_framing(text));
    }
    match (framing, text) {
        (Some(Framing::Sse), Ok(text)) => sse.push_line(&text, number, file, ready),
        // A line that is not text is a bad line of its own in either framing.
        (_, text) => ready.push_back(frame_ndjson_line(text, Origin::at(file, number))),
    }
}

/// SSE when the first non-blank line is an SSE field or comment, NDJSON otherwise.
pub fn detect_framing(first_line: &str) -> Framing {
    let t = first_line.trim_start_matches('\u{feff}');
    let fields = ["data:", "event:", "id:", "retry:", ":"];
    match fields.iter().any(|p| t.starts_with(p)) || t == "data" || t == "event" {
        true => Framing::Sse,
        false => Framing::Ndjson,
    }
}

/// Frames one NDJSON line, or why it could not be read as text; `line` becomes the record's
/// text (a `&str` is copied; a `String`, or a [`RecordText`] of a batch, is kept as it is).
pub(crate) fn frame_ndjson_line<T>(line: Result<T, BadLine>, origin: Origin) -> Frame
where
    T: std::ops::Deref<Target = str> + Into<RecordText>,
{
    let body = match line {
        Ok(l) if l.trim().is_empty() => Err(Disposition::Ignored("blank line")),
        line => line
            .and_then(|l| Record::read(origin.clone(), 1, None, l.into(), |l| parse_json(l, false)))
            .map(Box::new)
            .map_err(Disposition::Bad),
    };
    Frame {
        origin,
        lines: 1,
        body,
    }
}

/// How a v2 event's line opens: its first key `event`, its value starting `on_` (whitespace
/// allowed between the tokens, as Python's `json.dumps` writes them).
const V2_OPENING: [&str; 4] = ["{", r#""event""#, ":", r#""on_"#];
/// How a v3 event's line opens: `{"type":"event"`.
const V3_OPENING: [&str; 4] = ["{", r#""type""#, ":", r#""event""#];

/// Whether `text` may be a v3 event, to be read typed: it opens as one ([`V3_OPENING`],
/// whitespace allowed between the tokens), or it is no v2 event and has a `"method"` key
/// anywhere (keys in another order). A line that is not one costs a scan.
fn may_be_v3(text: &str, as_v2: bool) -> bool {
    opens_with(text, &V3_OPENING)
        || (!as_v2 && memchr::memmem::find(text.as_bytes(), br#""method""#).is_some())
}

/// Whether `text` starts with `tokens`, whitespace allowed before each.
fn opens_with(text: &str, tokens: &[&str]) -> bool {
    let rest = tokens
        .iter()
        .try_fold(text, |rest, t| rest.trim_start().strip_prefix(t));
    rest.is_some()
}

/// Parses one JSON object (or, with `arrays`, an array: SSE data, where platform
/// `messages-tuple` frames carry `[message, metadata]` and the `event:` name says what it is),
/// with an error that says what was expected.
pub fn parse_json(text: &str, arrays: bool) -> Result<Value, BadLine> {
    match serde_json::from_str::<Value>(text) {
        Ok(v) if v.is_object() || (arrays && v.is_array()) => Ok(v),
        Ok(other) => {
            let reason = match other {
                Value::Array(_) => Reason::Array,
                _ => Reason::NotObject,
            };
            let message = format!("expected a JSON object, found {}", json_kind(&other));
            Err(BadLine::new(reason, message))
        }
        Err(e) => Err(BadLine::new(Reason::NotJson, describe_json_error(&e, text))),
    }
}

/// What a JSON parse error means for a line, in words (`redact` says it too).
pub fn describe_json_error(e: &serde_json::Error, text: &str) -> String {
    use serde_json::error::Category;
    match e.classify() {
        Category::Eof => format!(
            "truncated JSON: the line ends after {} bytes inside a value (was the recording cut off?)",
            text.len()
        ),
        Category::Syntax if e.to_string().contains("recursion limit") => {
            "JSON nested too deeply (more than 128 levels)".to_string()
        }
        // Multi-line SSE data: say which of its lines.
        _ if text.contains('\n') => format!(
            "invalid JSON at line {} column {} of the data: {}",
            e.line(),
            e.column(),
            strip_position(e)
        ),
        _ => format!("invalid JSON at column {}: {}", e.column(), strip_position(e)),
    }
}

fn strip_position(e: &serde_json::Error) -> String {
    let s = e.to_string();
    s.split(" at line ").next().unwrap_or_default().to_string()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::{frame_ndjson_line, line_hash, Origin, Record};

    /// A line read again from its file hashes as its record did: without its BOM and CR.
    #[test]
    fn a_line_read_again_hashes_as_its_record() {
        let path = std::env::temp_dir().join(format!("aguify-line-hash-{}", std::process::id()));
        let lines = ["\u{feff}{\"a\":1}\r", "", "{\"b\":\"é\"}", "{\"c\":3}"];
        std::fs::write(&path, lines.join("\n")).expect("a temporary file");
        let path_str = path.to_str().expect("a UTF-8 path");
        for (n, want) in [(1, "{\"a\":1}"), (3, "{\"b\":\"é\"}"), (4, "{\"c\":3}")] {
            let rec = framed(want, n).expect("a record");
            assert_eq!(line_hash(path_str, n).ok(), Some(rec.hash()), "line {n}");
        }
        assert!(line_hash(path_str, 5).is_err(), "no line 5");
        let _ = std::fs::remove_file(&path);
    }

    /// A v3 line takes the typed path whatever its whitespace and key order: read typed,
    /// its tree never parsed, the same event.
    #[test]
    fn formatting_does_not_change_the_path() {
        let compact = r#"{"type":"event","seq":3,"method":"messages","params":{"namespace":[],"timestamp":5,"data":{"event":"message-start","role":"ai","id":"m1"}}}"#;
        let python = r#"{"type": "event", "seq": 3, "method": "messages", "params": {"namespace": [], "timestamp": 5, "data": {"event": "message-start", "role": "ai", "id": "m1"}}}"#;
        let reordered = r#"{ "seq":3, "method":"messages", "type":"event", "params":{"namespace":[],"timestamp":5,"data":{"event":"message-start","role":"ai","id":"m1"}}}"#;
        let want = framed(compact, 1).and_then(|r| r.v3).expect("read typed");
        for line in [compact, python, reordered] {
            let rec = framed(line, 1).expect("a record");
            assert!(rec.value.get().is_none(), "no tree made: {line}");
            assert_eq!(
                format!("{:?}", rec.v3.expect("read typed")),
                format!("{want:?}"),
                "{line}"
            );
        }
        // A v2 line naming a `method` somewhere is still read as v2, not tried as v3.
        let v2 = r#"{"event": "on_tool_start", "name": "t", "run_id": "r", "data": {"input": {"method": "GET"}}, "parent_ids": []}"#;
        let rec = framed(v2, 1).expect("a record");
        assert!(rec.v3.is_none() && rec.v2.is_some());
    }

    /// A line framed as an NDJSON record (line `n` of file `t`).
    pub fn framed(l: &str, n: u64) -> Option<Record> {
        let origin = Origin {
            file: "t".into(),
            line: n,
        };
        frame_ndjson_line(Ok(l), origin).body.ok().map(|r| *r)
    }
}
