//! `aguify redact`: a recording in, the same recording out in the same form, with what users
//! said, the model answered and tools took and returned replaced by placeholder text of the
//! same shape, and credentials replaced in every mode.
//!
//! - [`walk`]: which strings of a record are structure and which are text;
//! - [`placeholder`]: the placeholder text (deterministic, same length, joins across pieces);
//! - [`secret`]: credentials of the common providers, e-mail addresses, URLs with credentials;
//! - [`file`]: NDJSON lines and SSE frames in, the same framing out, a line at a time;
//! - [`slim`]: `--slim`, what a bug report does not need.

pub mod file;
pub mod placeholder;
pub mod secret;
pub mod slim;
pub mod walk;

use std::collections::HashMap;

use placeholder::{Code, Word};
pub use secret::Counts;

/// Whether `word` is a line of `list`, a word list of `words/` (names of keys, types and
/// modes, one a line: data, kept apart from the code that reads it).
pub(crate) fn has(list: &str, word: &str) -> bool {
    list.lines().any(|w| w == word)
}

/// What `redact` keeps and changes besides text: options of `aguify redact` (their doc
/// comments are its help).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Options {
    /// Keep the values at this JSON pointer into each record (`*` matches within a segment,
    /// e.g. /data/input/city, /params/data/input/*); repeatable. Credentials are replaced even
    /// there
    #[arg(long, value_name = "POINTER", value_parser = crate::replay::pointer)]
    pub keep: Vec<String>,
    /// Also drop what a bug report does not need: full states between a run's first and last
    /// (those with interrupts stay), RAW events and rawEvent payloads
    #[arg(long)]
    pub slim: bool,
    /// Move every timestamp by this many milliseconds (may be negative)
    #[arg(long, value_name = "MS", allow_negative_numbers = true)]
    pub shift_time: Option<i64>,
}

/// How a string is redacted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Keep,
    /// Model and user text.
    Text,
    /// An error message: its class name and the words its code is read from stay.
    Error,
    /// An `error` field: a class name stays, a message is an [`Mode::Error`].
    ErrorName,
    /// JSON (or, `true`, a Python repr keeping the values of [`walk::KEEP`] keys).
    Code(bool),
    /// JSON or a repr when the whole string is one, else text.
    Auto(bool),
}

/// The state of one streamed text (a message's content, a tool call's arguments).
#[derive(Debug, Clone)]
enum Stream {
    /// Text not begun: JSON if its first character opens an object or array.
    Start,
    Text(Word),
    Code(Code),
    /// An error message ([`placeholder::error`]), on its own.
    Error,
}

impl Stream {
    /// A text to redact as `mode` (text or code), not begun.
    fn new(mode: Mode) -> Stream {
        match mode {
            Mode::Code(k) => Stream::Code(Code::new(k)),
            _ => Stream::Start,
        }
    }

    /// The text's next piece redacted into `out` (secrets' placeholders as they are).
    fn push(&mut self, s: &str, out: &mut String) {
        if matches!(self, Stream::Start) {
            match s.trim_start().chars().next() {
                Some('{' | '[') => *self = Stream::Code(Code::new(false)),
                Some(_) => *self = Stream::Text(Word::default()),
                None => {}
            }
        }
        // A secret's placeholder is written as it is, and ends the word in progress.
        for (piece, placeholder) in secret::pieces(s) {
            match (&mut *self, placeholder) {
                (Stream::Start, _) | (Stream::Error, true) => out.push_str(piece),
                (Stream::Error, false) => placeholder::error(piece, out),
                (Stream::Text(word), true) => {
                    out.push_str(piece);
                    word.end();
                }
                (Stream::Text(word), false) => placeholder::text(piece, word, out),
                (Stream::Code(code), true) => code.verbatim(piece, out),
                (Stream::Code(code), false) => code.push_str(piece, out),
            }
        }
    }
}

/// Streams remembered at most; past it they are forgotten (a piece after that starts afresh).
const MAX_STREAMS: usize = 4096;

/// Redacts the records of one input, in order.
pub struct Redactor<'o> {
    opts: &'o Options,
    streams: HashMap<String, Stream>,
    /// Where the walk of a record is.
    at: walk::Cx,
    /// Secrets replaced, by kind.
    pub secrets: Counts,
}

impl<'o> Redactor<'o> {
    pub fn new(opts: &'o Options) -> Self {
        Redactor {
            opts,
            streams: HashMap::new(),
            at: walk::Cx::default(),
            secrets: Counts::new(),
        }
    }

    /// Replaces `s` as `mode` says; a piece of a stream continues the one before it.
    fn string(&mut self, s: &mut String, mode: Mode, stream: Option<String>) {
        if let Some(r) = secret::replace(s, &mut self.secrets) {
            *s = r;
        }
        if mode == Mode::Keep || is_js_undefined(s) {
            return;
        }
        let out = match (stream, mode) {
            (Some(name), Mode::Text | Mode::Code(_)) => {
                if self.streams.len() >= MAX_STREAMS && !self.streams.contains_key(&name) {
                    self.streams.clear();
                }
                let mut out = String::with_capacity(s.len());
                let state = self
                    .streams
                    .entry(name)
                    .or_insert_with(|| Stream::new(mode));
                state.push(s, &mut out);
                out
            }
            _ => render(s, mode),
        };
        *s = out;
    }
}

/// `undefined`, once or repeated: what LangGraph.js writes for a missing value (the adapters
/// drop it), not text.
fn is_js_undefined(s: &str) -> bool {
    !s.is_empty() && s.len() % 9 == 0 && s.as_bytes().chunks(9).all(|c| c == b"undefined")
}

/// `s` redacted as `mode` says, on its own (its secrets replaced already).
pub fn render(s: &str, mode: Mode) -> String {
    let mut out = String::with_capacity(s.len());
    let mut stream = match mode {
        Mode::Keep => return s.to_string(),
        // Text that opens as JSON is read as JSON (a model answering with tool output).
        Mode::Text | Mode::Code(_) => Stream::new(mode),
        Mode::ErrorName if placeholder::is_class_name(s) => return s.to_string(),
        Mode::Error | Mode::ErrorName if walk::opens_as_code(s) => Stream::Code(Code::new(true)),
        Mode::Error | Mode::ErrorName => Stream::Error,
        Mode::Auto(k) => match walk::code_kind(s) {
            Some(repr) => Stream::Code(Code::new(k || repr)),
            None => Stream::Text(Word::default()),
        },
    };
    stream.push(s, &mut out);
    out
}

/// Whether `redacted` is what `redact` makes of `original` in some mode: how `diff` tells a
/// redacted recording from its original apart from a real change.
pub fn is_redaction_of(original: &str, redacted: &str) -> bool {
    if original == redacted || secret::is_placeholder(redacted) {
        return true;
    }
    let mut counts = Counts::new();
    let original = secret::replace(original, &mut counts).unwrap_or_else(|| original.into());
    [
        Mode::Text,
        Mode::Error,
        Mode::Auto(false),
        Mode::Auto(true),
        Mode::Code(false),
    ]
    .into_iter()
    .any(|m| render(&original, m) == redacted)
        || original.split_once(": ").is_some_and(|(name, rest)| {
            // `Name: message` as an adapter joins a class and its message.
            placeholder::is_class_name(name)
                && redacted == format!("{name}: {}", render(rest, Mode::Text))
        })
        || joined_of_two(&original, redacted)
}

/// Whether `redacted` is two texts redacted apart and joined (a consumer joining two results
/// of one message id): placeholder text keeps every character's place, so the two pieces
/// split both strings at the same character.
fn joined_of_two(original: &str, redacted: &str) -> bool {
    let n = original.chars().count();
    if n > 2048 || n != redacted.chars().count() {
        return false;
    }
    let at = |s: &str, i: usize| s.char_indices().nth(i).map_or(s.len(), |(b, _)| b);
    (1..n).any(|i| {
        let (a, b) = original.split_at(at(original, i));
        let (x, y) = redacted.split_at(at(redacted, i));
        render(a, Mode::Text) == x && render(b, Mode::Text) == y
    })
}
