//! Line reading with the hazards of real recordings handled: a BOM, CRLF line ends, invalid
//! UTF-8, and lines longer than a cap (skipped and reported instead of filling memory).

use std::io::{self, BufRead};
use std::ops::Range;

/// Default `--max-line-bytes`: 64 MiB, far above any real event (RAW payloads are ~1 MB).
pub const DEFAULT_MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

pub struct LineReader<R> {
    reader: R,
    buf: Vec<u8>,
    number: u64,
    max: usize,
    /// A line is half read: a read reported `WouldBlock` in its middle (see [`IdleHint`]).
    partial: bool,
    too_long: bool,
    total: usize,
    /// Bytes of a half-read line already appended to the caller's buffer
    /// ([`LineReader::next_line_into`]).
    held: usize,
}

/// One line: its 1-based number and its text (or why it could not be read as text).
pub struct RawLine<'a> {
    pub number: u64,
    pub text: Result<&'a str, String>,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(reader: R, max_line_bytes: usize) -> Self {
        LineReader {
            reader,
            buf: Vec::with_capacity(8 * 1024),
            number: 0,
            max: max_line_bytes.max(1),
            partial: false,
            too_long: false,
            total: 0,
            held: 0,
        }
    }

    /// Lines read so far.
    pub fn lines_read(&self) -> u64 {
        self.number
    }

    /// The next line, `Ok(None)` at end of input. A `WouldBlock` error from the reader is
    /// passed on with the line read so far kept: calling again resumes it.
    pub fn next_line(&mut self) -> io::Result<Option<RawLine<'_>>> {
        if !self.partial {
            self.buf.clear();
        }
        // The line is read into this reader's own buffer the way a batch reads it into its
        // own (a half-read line stays there), then checked as UTF-8 alone.
        let mut buf = std::mem::take(&mut self.buf);
        let got = self.next_line_into(&mut buf);
        self.buf = buf;
        let Some(line) = got? else {
            return Ok(None);
        };
        let text = match line.span {
            Ok(span) => crate::utf8::str_of(&self.buf[span]).map_err(|e| invalid_utf8(&e)),
            Err(message) => Err(message),
        };
        Ok(Some(RawLine {
            number: line.number,
            text,
        }))
    }

    /// The whole lines already in the reader's buffer, appended to `out` in one copy (their
    /// `\n` and any `\r` before it too, outside their spans) with their spans pushed to
    /// `spans`, while `fits(out.len(), spans.len())` says another line may go in: what
    /// [`next_line_into`](Self::next_line_into) gives line by line, without its per-line
    /// setup. `Whole::Lines(0)` when the next line is not whole in the buffer, is over the
    /// limit or a half-read line is pending: `next_line_into` reads that one.
    pub fn whole_lines_into(
        &mut self,
        out: &mut Vec<u8>,
        spans: &mut Spans,
        fits: impl Fn(usize, usize) -> bool,
    ) -> io::Result<Whole> {
        if self.partial {
            return Ok(Whole::Lines(0));
        }
        let available = loop {
            match self.reader.fill_buf() {
                Ok(b) => break b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        if available.is_empty() {
            return Ok(Whole::End);
        }
        let base = out.len();
        let mut taken = 0;
        let mut lines = 0;
        for nl in memchr::memchr_iter(b'\n', available) {
            if !fits(base + taken, spans.len()) || nl - taken > self.max {
                break;
            }
            let body = body(&available[taken..nl]);
            self.number += 1;
            spans.push((
                self.number,
                Ok(base + taken + body.start..base + taken + body.end),
            ));
            lines += 1;
            taken = nl + 1;
        }
        out.extend_from_slice(&available[..taken]);
        self.reader.consume(taken);
        Ok(Whole::Lines(lines))
    }

    /// The next line appended to `out` without a copy of its own, `Ok(None)` at end of input:
    /// what [`next_line`](Self::next_line) does for a batch of lines ([`super::parallel`]),
    /// its line read straight from the reader's buffer into the batch's.
    ///
    /// The line's text is `out[span]`: the CR before its `\n` is dropped, a BOM it starts with
    /// is left before `span`, and its bytes are **not yet checked** to be UTF-8 (the batch
    /// checks them all at once, see [`utf8_spans`]). A line over the limit leaves nothing in
    /// `out` and is its own `Err`. After a `WouldBlock` the half-read line stays at the end of
    /// `out`: the next call resumes it, so `out` must keep those bytes at its end.
    pub fn next_line_into(&mut self, out: &mut Vec<u8>) -> io::Result<Option<SpanLine>> {
        if !self.partial {
            self.held = 0;
            self.too_long = false;
            self.total = 0;
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
            let (chunk, found) = match memchr::memchr(b'\n', available) {
                Some(i) => (&available[..i], Some(i)),
                None => (available, None),
            };
            self.total += chunk.len();
            if !self.too_long {
                if out.len() - start + chunk.len() > self.max {
                    self.too_long = true;
                    out.truncate(start);
                } else {
                    out.extend_from_slice(chunk);
                }
            }
            match found {
                Some(i) => {
                    self.reader.consume(i + 1);
                    break;
                }
                None => {
                    let n = available.len();
                    self.reader.consume(n);
                }
            }
        }
        self.held = 0;
        if !self.partial {
            return Ok(None);
        }
        self.partial = false;
        self.number += 1;
        let number = self.number;
        if self.too_long {
            out.truncate(start);
            return Ok(Some(SpanLine {
                number,
                span: Err(self.too_long_message()),
            }));
        }
        let body = body(&out[start..]);
        Ok(Some(SpanLine {
            number,
            span: Ok(start + body.start..start + body.end),
        }))
    }

    fn too_long_message(&self) -> String {
        format!(
            "line is {} bytes, over the --max-line-bytes limit of {} bytes; skipped",
            self.total, self.max
        )
    }
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Where a line's text is in its bytes (without its `\n`): without the `\r` it ends with, and
/// without a BOM it starts with (the file's, or a later line's when recordings were
/// concatenated: `cat a b`).
fn body(line: &[u8]) -> Range<usize> {
    let end = line.len() - usize::from(line.last() == Some(&b'\r'));
    let from = if line[..end].starts_with(BOM) {
        BOM.len()
    } else {
        0
    };
    from..end
}

/// What [`LineReader::whole_lines_into`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Whole {
    /// This many lines were taken (none: read the next one with `next_line_into`).
    Lines(usize),
    /// The input has ended (no half-read line was pending).
    End,
}

/// One line appended to a buffer by [`LineReader::next_line_into`]: its 1-based number and
/// where its (unchecked) text is, or why it was not kept.
#[derive(Debug, PartialEq, Eq)]
pub struct SpanLine {
    pub number: u64,
    pub span: Result<Range<usize>, String>,
}

/// Lines in a buffer: each line's number and its span ([`SpanLine`]).
pub type Spans = Vec<(u64, Result<Range<usize>, String>)>;

/// Why a line is not UTF-8, as [`LineReader::next_line`] reports it.
pub fn invalid_utf8(e: &std::str::Utf8Error) -> String {
    format!(
        "invalid UTF-8 at byte {} of the line; expected UTF-8 text",
        e.valid_up_to()
    )
}

/// `buf` as a `String` and each line's text checked to be UTF-8, as
/// [`LineReader::next_line`] would have checked it line by line: one pass over the whole
/// buffer when every line is valid (the usual case), a line at a time otherwise.
///
/// `buf` holds the lines' spans in order, with at most whole UTF-8 characters (a BOM) between
/// them. A valid buffer whose spans all start and end on character boundaries has every span
/// valid; a valid buffer can still hold invalid lines (a character split over two lines), so
/// the boundaries are checked too.
pub fn utf8_spans(buf: Vec<u8>, lines: Spans) -> (String, Spans) {
    let buf = match crate::utf8::string_of(buf) {
        Ok(s) => {
            let on_boundaries = lines.iter().all(|(_, l)| match l {
                Ok(r) => s.get(r.clone()).is_some(),
                Err(_) => true,
            });
            if on_boundaries {
                return (s, lines);
            }
            s.into_bytes()
        }
        Err(buf) => buf,
    };
    // Some line is not UTF-8: keep the valid ones, in a buffer of their own.
    let mut text = String::with_capacity(buf.len());
    let lines = lines
        .into_iter()
        .map(|(key, l)| {
            let l = l.and_then(|r| {
                let bytes = buf.get(r).unwrap_or_default();
                let t = crate::utf8::str_of(bytes).map_err(|e| invalid_utf8(&e))?;
                let start = text.len();
                text.push_str(t);
                Ok(start..text.len())
            });
            (key, l)
        })
        .collect();
    (text, lines)
}

/// A reader that reports `WouldBlock` once before a read that would wait for its writer.
///
/// After a short read (the writer of a pipe had no more bytes ready) the next read may wait:
/// when the source can tell ([`Readiness`]) and has nothing ready, or cannot tell, the next
/// read reports `WouldBlock` first. The pipeline takes it as its cue to flush the output
/// written so far (the first events leave while the input is still being written), then reads
/// on. A pipe whose writer keeps up is read without interruption; on a file only the read that
/// meets the end of the file is short.
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
fn poll_ready(fd: std::os::fd::BorrowedFd<'_>) -> Option<bool> {
    use std::os::fd::AsRawFd;
    let mut p = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid, initialised pollfd and a zero timeout: poll only reports readiness.
    let n = unsafe { libc::poll(&mut p, 1, 0) };
    (n >= 0).then_some(n > 0)
}

impl Readiness for io::Stdin {
    fn ready_now(&self) -> Option<bool> {
        #[cfg(unix)]
        {
            poll_ready(std::os::fd::AsFd::as_fd(self))
        }
        #[cfg(not(unix))]
        None
    }
}

impl Readiness for std::fs::File {
    fn ready_now(&self) -> Option<bool> {
        #[cfg(unix)]
        {
            poll_ready(std::os::fd::AsFd::as_fd(self))
        }
        #[cfg(not(unix))]
        None
    }
}

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
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<(u64, Result<String, String>)> {
        let mut r = LineReader::new(input, max);
        let mut out = vec![];
        while let Some(l) = r.next_line().expect("in-memory read") {
            out.push((l.number, l.text.map(str::to_string)));
        }
        out
    }

    #[test]
    fn strips_bom_and_crlf() {
        let got = lines(b"\xEF\xBB\xBF{\"a\":1}\r\n{\"b\":2}", 100);
        assert_eq!(got[0].1.as_deref(), Ok("{\"a\":1}"));
        assert_eq!(got[1].1.as_deref(), Ok("{\"b\":2}"));
        assert_eq!(got.len(), 2);
        let got = lines(b"{}\n\xEF\xBB\xBF{\"b\":2}\n", 100);
        assert_eq!(got[1].1.as_deref(), Ok("{\"b\":2}"));
    }

    #[test]
    fn long_line_is_reported_and_skipped() {
        let got = lines(b"0123456789\nok\n", 5);
        assert!(got[0]
            .1
            .as_ref()
            .is_err_and(|e| e.contains("over the --max-line-bytes")));
        assert_eq!(got[1], (2, Ok("ok".to_string())));
    }

    #[test]
    fn would_block_mid_line_resumes_the_line() {
        struct Gappy(Vec<&'static [u8]>);
        impl io::Read for Gappy {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Ok(0);
                }
                let part = self.0.remove(0);
                buf[..part.len()].copy_from_slice(part);
                Ok(part.len())
            }
        }
        impl Readiness for Gappy {}
        let src = IdleHint::new(Gappy(vec![b"{\"a\":", b"1}\n{\"b\"", b":2}\n"]));
        let mut r = LineReader::new(io::BufReader::new(src), 100);
        let mut got = vec![];
        let mut blocks = 0;
        loop {
            match r.next_line() {
                Ok(Some(l)) => got.push(l.text.map(str::to_string)),
                Ok(None) => break,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => blocks += 1,
                Err(e) => panic!("unexpected error {e}"),
            }
        }
        assert_eq!(
            got,
            vec![Ok("{\"a\":1}".to_string()), Ok("{\"b\":2}".to_string())]
        );
        assert!(blocks >= 2);
    }

    #[test]
    fn invalid_utf8_is_reported() {
        let got = lines(b"\xff\xfe\nok\n", 100);
        assert!(got[0]
            .1
            .as_ref()
            .is_err_and(|e| e.contains("invalid UTF-8")));
        assert_eq!(got[1].0, 2);
    }
}
