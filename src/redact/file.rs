//! One input in, the same framing out: NDJSON line by line, SSE frame by frame (`event:`,
//! `id:`, `retry:` and comment lines kept; the `data:` lines become one). A line that is not a
//! record is reported and written redacted as JSON text (keys kept), never dropped unseen.

use std::io::{self, BufRead, Write};

use super::slim::{self, Slim};
use super::{Mode, Options, Redactor};
use serde_json::Value;

use crate::adapter::classify;
use crate::input::{detect_framing, parse_json, Framing, Origin, Record, RecordText};

/// What redacting one input did.
#[derive(Debug, Default, Clone)]
pub struct Summary {
    pub bad_lines: u64,
    pub secrets: super::Counts,
}

/// Redacts `input` into `out`, counting into `summary` (added to what it holds); `bad` hears
/// of each line that is not a record, as `(line, why)`.
pub fn redact(
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    opts: &Options,
    summary: &mut Summary,
    bad: &mut dyn FnMut(u64, &str),
) -> io::Result<()> {
    let mut redactor = Redactor::new(opts);
    redactor.secrets = std::mem::take(&mut summary.secrets);
    let mut r = Reader {
        redactor,
        slim: opts.slim.then(Slim::default),
        summary,
        last_seq: None,
        out,
        bad,
    };
    let (mut framing, mut frame, mut buf, mut number) = (None, Frame::new(), Vec::new(), 0);
    while input.read_until(b'\n', &mut buf)? > 0 {
        for (body, end) in lines_of(&buf) {
            number += 1;
            let text = String::from_utf8_lossy(body);
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
            let blank = text.trim().is_empty();
            if !blank {
                framing.get_or_insert_with(|| detect_framing(text));
            }
            if framing != Some(Framing::Sse) {
                r.ndjson_line(number, text, end)?;
                continue;
            }
            // A frame's closing blank line keeps its end, not its text.
            let text = if blank { "" } else { text };
            frame.push((number, text.to_string(), end.to_vec()));
            if blank {
                r.sse_frame(std::mem::take(&mut frame))?;
            }
        }
        buf.clear();
    }
    if !frame.is_empty() {
        r.sse_frame(frame)?;
    }
    if let Some(s) = &mut r.slim {
        s.flush(r.out)?;
    }
    r.summary.secrets = r.redactor.secrets;
    Ok(())
}

/// The lines of what one `read_until('\n')` read, each with its end (`\n`, `\r\n`, a bare
/// `\r` as old SSE servers end lines, or nothing at the end of input).
fn lines_of(mut buf: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    std::iter::from_fn(move || {
        let at = buf.iter().position(|&b| b == b'\n' || b == b'\r');
        let (line, end) = match (at, buf) {
            (_, []) => return None,
            (None, _) => (buf.len(), 0),
            (Some(i), _) if buf[i..].starts_with(b"\r\n") => (i, 2),
            (Some(i), _) => (i, 1),
        };
        let (text, rest) = buf.split_at(line + end);
        buf = rest;
        Some(text.split_at(line))
    })
}

/// An SSE frame's lines, each with its number and end.
type Frame = Vec<(u64, String, Vec<u8>)>;

struct Reader<'a, 'o> {
    redactor: Redactor<'o>,
    slim: Option<Slim>,
    summary: &'a mut Summary,
    last_seq: Option<u64>,
    out: &'a mut dyn Write,
    /// Hears of each line that is not a record, as `(line, why)`.
    bad: &'a mut dyn FnMut(u64, &str),
}

impl Reader<'_, '_> {
    fn write(&mut self, kind: slim::Kind, bytes: Vec<u8>) -> io::Result<()> {
        match &mut self.slim {
            Some(s) => s.push(kind, bytes, self.out),
            None => self.out.write_all(&bytes),
        }
    }

    fn ndjson_line(&mut self, number: u64, text: &str, end: &[u8]) -> io::Result<()> {
        let value = (!text.trim().is_empty()).then(|| {
            parse_json(text, false).or_else(|why| {
                self.summary.bad_lines += 1;
                (self.bad)(number, &why.message);
                // JSON, not an object: its strings replaced all the same.
                serde_json::from_str(text)
            })
        });
        let (kind, text) = match value {
            None => (slim::Kind::Other, text.to_string()),
            Some(Ok(v)) => self.record(v, text, None)?,
            Some(Err(_)) => (slim::Kind::Other, self.bad_text(text)),
        };
        self.write(kind, [text.as_bytes(), end].concat())
    }

    /// A record (its JSON text `text`, read as `v`) redacted as compact JSON, and what it is
    /// to `--slim`. Its form is what the adapters' classifier finds (as `convert` detects it).
    fn record(
        &mut self,
        mut v: Value,
        text: &str,
        event: Option<&str>,
    ) -> io::Result<(slim::Kind, String)> {
        let kind = slim::kind(&v, event, &mut self.last_seq);
        let (sse_event, text_of) = (event.map(str::to_string), RecordText::from(text));
        let rec = Record::read(Origin::default(), 1, sse_event, text_of, |_| Ok(v.clone()))
            .map_err(|bad| io::Error::other(bad.message))?;
        self.redactor.record(&mut v, event, &classify(&rec));
        Ok((kind, serde_json::to_string(&v).map_err(io::Error::other)?))
    }

    /// A line that is not a record: its secrets, and its strings as JSON text's.
    fn bad_text(&mut self, text: &str) -> String {
        let mut s = text.to_string();
        self.redactor.string(&mut s, Mode::Code(true), None);
        s
    }

    fn sse_frame(&mut self, frame: Frame) -> io::Result<()> {
        let fields: Vec<(&str, &str)> = frame.iter().map(|(_, line, _)| field(line)).collect();
        let event = fields.iter().rev().find(|(f, _)| *f == "event");
        let event = event.map(|(_, v)| *v);
        let first_data = fields.iter().position(|(f, _)| *f == "data");
        let (mut kind, mut json) = (slim::Kind::Other, None);
        if let Some(at) = first_data {
            let data = fields.iter().filter(|(f, _)| *f == "data");
            let data = data.map(|(_, v)| *v).collect::<Vec<_>>().join("\n");
            match serde_json::from_str(&data) {
                Ok(v) => (kind, json) = self.record(v, &data, event).map(|(k, j)| (k, Some(j)))?,
                Err(e) => {
                    self.summary.bad_lines += 1;
                    (self.bad)(frame[at].0, &crate::input::describe_json_error(&e, &data));
                }
            }
        }
        let mut b = Vec::new();
        for (i, ((_, line, end), (f, _))) in frame.iter().zip(&fields).enumerate() {
            let text = match &json {
                // The frame's data is written whole at its first line.
                Some(_) if *f == "data" && Some(i) != first_data => continue,
                Some(json) if *f == "data" => {
                    let space = if line.starts_with("data: ") { " " } else { "" };
                    format!("data:{space}{json}")
                }
                None if *f == "data" => {
                    let value = line.strip_prefix("data:").unwrap_or_default();
                    format!("data:{}", self.bad_text(value))
                }
                _ => {
                    let mut l = line.clone();
                    self.redactor.string(&mut l, Mode::Keep, None);
                    l
                }
            };
            b.extend_from_slice(text.as_bytes());
            b.extend_from_slice(end);
        }
        self.write(kind, b)
    }
}

/// An SSE line's field and value (`data` alone is a field with an empty value).
fn field(line: &str) -> (&str, &str) {
    match line.split_once(':') {
        Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
        None => (line, ""),
    }
}
