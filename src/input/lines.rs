//! Line reading with the hazards of real recordings handled: a BOM, CRLF line ends, invalid
//! UTF-8, and lines longer than a cap (skipped and reported instead of filling memory).

use std::io::{self, BufRead};

/// Default `--max-line-bytes`: 64 MiB, far above any real event (RAW payloads are ~1 MB).
pub const DEFAULT_MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

pub struct LineReader<R> {
    reader: R,
    buf: Vec<u8>,
    number: u64,
    max: usize,
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
        }
    }

    /// Lines read so far.
    pub fn lines_read(&self) -> u64 {
        self.number
    }

    pub fn next_line(&mut self) -> io::Result<Option<RawLine<'_>>> {
        self.buf.clear();
        let mut too_long = false;
        let mut seen_any = false;
        let mut total: usize = 0;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                break;
            }
            seen_any = true;
            let (chunk, found) = match memchr::memchr(b'\n', available) {
                Some(i) => (&available[..i], Some(i)),
                None => (available, None),
            };
            total += chunk.len();
            if !too_long {
                if self.buf.len() + chunk.len() > self.max {
                    too_long = true;
                    self.buf.clear();
                } else {
                    self.buf.extend_from_slice(chunk);
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
        if !seen_any {
            return Ok(None);
        }
        self.number += 1;
        let number = self.number;
        if too_long {
            return Ok(Some(RawLine {
                number,
                text: Err(format!(
                    "line is {total} bytes, over the --max-line-bytes limit of {} bytes; skipped",
                    self.max
                )),
            }));
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        // A BOM starts the file, or a later line when recordings were concatenated (`cat a b`).
        let bytes: &[u8] = &self.buf;
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let text = std::str::from_utf8(bytes).map_err(|e| {
            format!(
                "invalid UTF-8 at byte {} of the line; expected UTF-8 text",
                e.valid_up_to()
            )
        });
        Ok(Some(RawLine { number, text }))
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
    fn invalid_utf8_is_reported() {
        let got = lines(b"\xff\xfe\nok\n", 100);
        assert!(got[0]
            .1
            .as_ref()
            .is_err_and(|e| e.contains("invalid UTF-8")));
        assert_eq!(got[1].0, 2);
    }
}
