//! Line reading with the hazards of real recordings handled: a BOM, CRLF line ends, invalid
//! UTF-8, and lines longer than a cap (skipped and reported instead of filling memory).

use std::borrow::Cow;
use std::io::{self, BufRead};
use std::ops::Range;

use crate::error::{BadLine, Reason};

/// Default `--max-line-bytes`: 64 MiB, far above any real event (RAW payloads are ~1 MB).
pub const DEFAULT_MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// A line in a buffer: its 1-based number and where its text is, or why it was not kept.
pub type Span = (u64, Result<Range<usize>, BadLine>);

pub struct LineReader<R> {
    /// The source (a [`crate::convert::Converter`] hands it more bytes).
    pub(crate) reader: R,
    buf: Vec<u8>,
    number: u64,
    max: usize,
    /// A line is half read: a read reported `WouldBlock` in its middle (see [`IdleHint`]).
    partial: bool,
    /// The line is over `max`: its length so far (its bytes are not kept).
    over: Option<usize>,
    /// Bytes of a half-read line already appended to the caller's buffer.
    held: usize,
}

/// One line: its 1-based number and its text (or why it could not be read as text): a short
/// line's borrowed from the reader's buffer, a long one's owned (see [`TAKE_LINE_BYTES`]).
pub type RawLine<'a> = (u64, Result<Cow<'a, str>, BadLine>);

/// A line this long or longer is handed out in the buffer it was read into, the reader taking
/// a new one, instead of being borrowed and then copied by its record.
const TAKE_LINE_BYTES: usize = 64 * 1024;

impl<R: BufRead> LineReader<R> {
    pub fn new(reader: R, max_line_bytes: usize) -> Self {
        LineReader {
            reader,
            buf: Vec::with_capacity(8 * 1024),
            number: 0,
            max: max_line_bytes.max(1),
            partial: false,
            over: None,
            held: 0,
        }
    }

    /// The next line, `Ok(None)` at end of input. A `WouldBlock` error from the reader is
    /// passed on with the line read so far kept: calling again resumes it.
    pub fn next_line(&mut self) -> io::Result<Option<RawLine<'_>>> {
        if !self.partial {
            self.buf.clear();
        }
        // Read into this reader's buffer as a batch reads lines into its own, then checked.
        let mut buf = std::mem::take(&mut self.buf);
        let got = self.next_line_into(&mut buf);
        self.buf = buf;
        let Some((number, span)) = got? else {
            return Ok(None);
        };
        let text = span.and_then(|span| {
            if span.end < TAKE_LINE_BYTES {
                let text = crate::utf8::str_of(&self.buf[span]).map_err(|e| invalid_utf8(&e))?;
                return Ok(Cow::Borrowed(text));
            }
            // A long line takes the buffer it was read into: a copy would hold it twice.
            let mut buf = std::mem::replace(&mut self.buf, Vec::with_capacity(8 * 1024));
            buf.truncate(span.end);
            buf.drain(..span.start);
            crate::utf8::string_of(buf)
                .or_else(String::from_utf8)
                .map(Cow::Owned)
                .map_err(|e| invalid_utf8(&e.utf8_error()))
        });
        Ok(Some((number, text)))
    }

    /// The next line appended to `out`, `Ok(None)` at end of input: a batch's lines
    /// ([`super::parallel`]) go from the reader's buffer straight into the batch's.
    ///
    /// The line's text is `out[span]`, without its CR and a BOM it starts with, **not yet
    /// checked** to be UTF-8 ([`utf8_spans`] checks a batch at once), followed by a `\n`. A
    /// line over the limit leaves only that in `out`. After a `WouldBlock` the half-read line stays at the end of
    /// `out`, which must keep it there: the next call resumes it.
    pub fn next_line_into(&mut self, out: &mut Vec<u8>) -> io::Result<Option<Span>> {
        if !self.partial {
            self.held = 0;
            self.over = None;
        }
        let start = out.len().saturating_sub(self.held);
        loop {
            let available = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.held = out.len() - start;
                    return Err(e);
                }
            };
            if available.is_empty() {
                break;
            }
            self.partial = true;
            let nl = memchr::memchr(b'\n', available);
            let chunk = &available[..nl.unwrap_or(available.len())];
            let len = out.len() - start + chunk.len();
            match &mut self.over {
                Some(total) => *total += chunk.len(),
                None if len > self.max => {
                    self.over = Some(len);
                    out.truncate(start);
                }
                None => out.extend_from_slice(chunk),
            }
            let used = nl.map_or(chunk.len(), |i| i + 1);
            self.reader.consume(used);
            if nl.is_some() {
                break;
            }
        }
        self.held = 0;
        if !self.partial {
            return Ok(None);
        }
        self.partial = false;
        self.number += 1;
        let span = match self.over {
            Some(total) => Err(too_long("line is", total, self.max)),
            None => {
                let body = body(&out[start..]);
                Ok(start + body.start..start + body.end)
            }
        };
        // A line end after each line, outside its span: then a buffer that is UTF-8 as a
        // whole holds lines that are each UTF-8 ([`utf8_spans`]), not the halves of a
        // character split over two lines.
        out.push(b'\n');
        Ok(Some((self.number, span)))
    }
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Where a line's text is in its bytes (without its `\n`): without the `\r` it ends with, and
/// without a BOM it starts with (the file's, or a later line's when recordings were
/// concatenated: `cat a b`).
fn body(line: &[u8]) -> Range<usize> {
    let end = line.len() - usize::from(line.ends_with(b"\r"));
    usize::from(line[..end].starts_with(BOM)) * BOM.len()..end
}

/// Why a line or an SSE frame's data (`what`: `line is`…) of `bytes` bytes is skipped.
pub(super) fn too_long(what: &str, bytes: usize, max: usize) -> BadLine {
    let limit = format!("over the --max-line-bytes limit of {max} bytes");
    let message = format!("{what} {bytes} bytes, {limit}; skipped");
    BadLine::new(Reason::TooLong, message)
}

/// Why a line is not UTF-8, as [`LineReader::next_line`] reports it.
pub fn invalid_utf8(e: &std::str::Utf8Error) -> BadLine {
    let at = e.valid_up_to();
    let message = format!("invalid UTF-8 at byte {at} of the line; expected UTF-8 text");
    BadLine::new(Reason::NotUtf8, message)
}

/// `buf` as a `String`, each line's text checked to be UTF-8 as [`LineReader::next_line`]
/// checks it: in one pass over the whole buffer when it is valid (the usual case: its lines'
/// spans, between line ends and BOMs, are then valid too), else a line at a time, the bytes of
/// a line that is not blanked and its span made the error.
pub fn utf8_spans(buf: Vec<u8>, mut lines: Vec<Span>) -> (String, Vec<Span>) {
    let mut buf = match crate::utf8::string_of(buf) {
        Ok(text) => return (text, lines),
        Err(buf) => buf,
    };
    for (_, line) in &mut lines {
        let Ok(span) = line else { continue };
        let Some(bytes) = buf.get_mut(span.clone()) else {
            continue;
        };
        if let Err(e) = crate::utf8::str_of(bytes) {
            *line = Err(invalid_utf8(&e));
            bytes.fill(b' ');
        }
    }
    // Left: valid lines and whole characters (line ends, BOMs) between them.
    (String::from_utf8(buf).unwrap_or_default(), lines)
}

/// A reader that reports `WouldBlock` once before a read that would wait for its writer: after
/// a short read, when the source has nothing ready ([`Readiness`]) or cannot tell. The pipeline
/// then flushes the output written so far (the first events leave while the input is still
/// being written) and reads on. On a file only the read that meets its end is short.
pub struct IdleHint<R> {
    inner: R,
    hint: bool,
}

impl<R> IdleHint<R> {
    pub fn new(inner: R) -> Self {
        IdleHint { inner, hint: false }
    }
}

/// Whether a source has bytes to read right now, when it can tell.
pub trait Readiness {
    /// `Some(true)`: a read would not wait; `Some(false)`: it would; `None`: unknown.
    fn ready_now(&self) -> Option<bool> {
        None
    }
}

#[cfg(unix)]
impl<T: std::os::fd::AsFd> Readiness for T {
    fn ready_now(&self) -> Option<bool> {
        use std::os::fd::AsRawFd;
        let mut p = libc::pollfd {
            fd: self.as_fd().as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid, initialised pollfd and a zero timeout: poll only reports readiness.
        let n = unsafe { libc::poll(&mut p, 1, 0) };
        (n >= 0).then_some(n > 0)
    }
}

#[cfg(not(unix))]
impl Readiness for io::Stdin {}

#[cfg(not(unix))]
impl Readiness for std::fs::File {}

impl<R: io::Read + Readiness> io::Read for IdleHint<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.hint {
            self.hint = false;
            if self.inner.ready_now() != Some(true) {
                return Err(io::ErrorKind::WouldBlock.into());
            }
        }
        let n = self.inner.read(buf)?;
        self.hint = n > 0 && n < buf.len();
        Ok(n)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub type Got = Vec<(u64, Result<String, String>)>;

    /// A source handing out its parts one read at a time, idle (`WouldBlock`) between them.
    pub struct Gappy(Vec<Vec<u8>>);

    impl io::Read for Gappy {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let Some(part) = self.0.first_mut() else {
                return Ok(0);
            };
            let n = part.len().min(buf.len());
            buf[..n].copy_from_slice(&part[..n]);
            part.drain(..n);
            if part.is_empty() {
                self.0.remove(0);
            }
            Ok(n)
        }
    }

    impl Readiness for Gappy {}

    /// `parts` read through a buffer of `cap` bytes.
    pub fn reader(parts: &[&[u8]], cap: usize) -> io::BufReader<IdleHint<Gappy>> {
        let parts = parts.iter().map(|p| p.to_vec()).collect();
        io::BufReader::with_capacity(cap, IdleHint::new(Gappy(parts)))
    }

    /// Every line as [`LineReader::next_line`] reads it, and how often it was retried after a
    /// `WouldBlock`.
    pub fn by_next_line(parts: &[&[u8]], cap: usize, max: usize) -> (Got, usize) {
        let mut r = LineReader::new(reader(parts, cap), max);
        let mut out = vec![];
        let mut blocks = 0;
        loop {
            match r.next_line() {
                Ok(Some((n, text))) => out.push((n, text.map(String::from).map_err(|e| e.message))),
                Ok(None) => return (out, blocks),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => blocks += 1,
                Err(e) => panic!("unexpected error {e}"),
            }
        }
    }

    /// Whether line `i` of `got` is an error that says `what`.
    pub fn is_err_with(got: &Got, i: usize, what: &str) -> bool {
        got[i].1.as_ref().is_err_and(|e| e.contains(what))
    }

    #[test]
    fn lines_are_read_as_text() {
        let ok = |n, s: &str| (n, Ok(s.to_string()));
        // BOMs (a later line's too, of concatenated recordings) and CRs are not the text.
        let (got, _) = by_next_line(
            &[b"\xEF\xBB\xBF{\"a\":1}\r\n{\"b\":2}\n\xEF\xBB\xBF{}"],
            64,
            99,
        );
        assert_eq!(got, [ok(1, "{\"a\":1}"), ok(2, "{\"b\":2}"), ok(3, "{}")]);
        // A line over the limit or not UTF-8 is reported, the next one read.
        let (got, _) = by_next_line(&[b"0123456789\nok\n"], 64, 5);
        assert!(is_err_with(&got, 0, "over the --max-line-bytes"));
        assert_eq!(got[1], ok(2, "ok"));
        let (got, _) = by_next_line(&[b"\xff\xfe\nok\n"], 64, 99);
        assert!(is_err_with(&got, 0, "invalid UTF-8"));
        assert_eq!(got[1], ok(2, "ok"));
        // A `WouldBlock` mid-line is passed on; the next call resumes the line.
        let (got, blocks) = by_next_line(&[b"{\"a\":", b"1}\n{\"b\"", b":2}\n"], 64, 99);
        assert_eq!(got, [ok(1, "{\"a\":1}"), ok(2, "{\"b\":2}")]);
        assert!(blocks >= 2);
    }

    /// A long line, handed out in the buffer it was read into, reads as a short one does: its
    /// BOM and CR left out, invalid UTF-8 reported, and the line after it read on.
    #[test]
    fn long_lines_are_taken_whole() {
        let long = "é".repeat(TAKE_LINE_BYTES);
        let mut bad = long.clone().into_bytes();
        bad[6] = 0xff;
        let input = [
            b"\xEF\xBB\xBF".as_slice(),
            long.as_bytes(),
            b"\r\n",
            &bad,
            b"\nok\n",
        ]
        .concat();
        let (got, _) = by_next_line(&[&input], 8192, usize::MAX);
        assert_eq!(got[0], (1, Ok(long)));
        assert!(is_err_with(&got, 1, "invalid UTF-8 at byte 6 of the line"));
        assert_eq!(got[2], (3, Ok("ok".to_string())));
    }
}
