//! A hand-written reader of the commonest v3 lines: compact `messages` events. In a log of
//! the API server they are six lines in ten, and a `content-block-delta` is half of them.
//! Through serde's typed visitors ([`super::Top`]) such a line costs up to twice a bare parse
//! of it, most of it in dispatching keys; read here byte by byte in the writers' shape, the
//! envelope costs a fraction of that. A text, reasoning or tool-call delta is read here
//! whole; any other payload by the typed visitors' own [`super::Data`], on its stretch of the
//! line.
//!
//! [`messages_line`] gives exactly the [`V3Event`] the typed visitors give for the line, or
//! `None`, and the line is read as before. So it declines whatever it does not read exactly
//! as `serde_json` would:
//!
//! - whitespace outside strings (the writers write compact JSON);
//! - a key with an escape; a key read here that appears twice (the typed path gives up too);
//! - a value of a key not read here other than a string, an integer, `true`, `false` or
//!   `null` (objects, lists, fractions and exponents are left to `serde_json`);
//! - a `\u` escape of a surrogate; a raw control character in a string; an integer with a
//!   leading zero, `-0`, or more than 18 digits;
//! - `params.interrupts`; a payload that might nest deeper than the typed path allows
//!   (120 brackets or more after it starts: that reader starts two levels down).
//!
//! Everything else follows [`super::Top`] and [`super::Params`] rule for rule: the first key
//! is `"type":"event"`, `method` (here `messages`) comes before `params`, `params` needs
//! `data`, `namespace` is a list of strings and `timestamp` an integer. A `content-block-delta`
//! payload read here follows [`super::Data`] and [`super::DeltaSeed`]: `event` first, `delta`
//! required, `index` a string or an integer (`"0"` when absent), `text`, `reasoning`, `args`,
//! `id` and `name` strings or `null`; one it cannot read is handed to [`super::Data`]. The
//! tests compare the two readers line by line.

use serde::de::{Deserialize, DeserializeSeed, Deserializer};

use super::namespace::{self, Namespace};
use super::{BlockDelta, Data, Delta, Fast, Method, Payload, V3Event};

/// The `messages` line `text` read as the typed visitors would read it; `None` leaves the
/// line to them.
pub(super) fn messages_line(text: &str) -> Option<Box<Fast>> {
    let mut c = Cursor {
        s: text,
        b: text.as_bytes(),
        i: 0,
    };
    c.lit(br#"{"type":"event""#)?;
    let (mut seq, mut method, mut params) = (None, None, None);
    c.more_entries(|c, key| match key {
        b"type" | b"event" => None,
        b"seq" => once(&mut seq, c.int()?),
        b"method" => {
            c.lit(br#""messages""#)?;
            once(&mut method, Method::Messages)
        }
        b"params" => {
            method?;
            once(&mut params, c.params()?)
        }
        _ => c.skip_scalar(),
    })?;
    if c.i != c.b.len() {
        return None;
    }
    let (namespace, timestamp, data) = params?;
    let mut e = V3Event {
        method: method?,
        seq,
        namespace,
        timestamp,
        interrupts: None,
        data,
        ns: String::new(),
        state: None,
        text_hash: 0,
    };
    e.finish(text);
    Some(Box::new(Fast::V3(e)))
}

/// Sets a field read once; a second occurrence declines.
fn once<T>(slot: &mut Option<T>, v: T) -> Option<()> {
    match slot.replace(v) {
        None => Some(()),
        Some(_) => None,
    }
}

/// A payload read by [`Data`] (as `params.data` of a `messages` event), for a stream
/// deserializer (which tells where the value ends).
struct DataPayload(Payload);

impl<'de> Deserialize<'de> for DataPayload {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Data { first: true }.deserialize(d).map(DataPayload)
    }
}

struct Cursor<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        let hit = self.peek() == Some(c);
        self.i += usize::from(hit);
        hit
    }

    fn lit(&mut self, s: &[u8]) -> Option<()> {
        if self.b.get(self.i..)?.starts_with(s) {
            self.i += s.len();
            Some(())
        } else {
            None
        }
    }

    /// The object at the cursor: `f` has each key, with the cursor at its value, and reads
    /// the value.
    fn object(&mut self, f: impl FnMut(&mut Self, &'a [u8]) -> Option<()>) -> Option<()> {
        if !self.eat(b'{') {
            return None;
        }
        if self.eat(b'}') {
            return Some(());
        }
        self.entries(f)
    }

    /// The rest of an object after an entry read otherwise: its closing brace, or a `,` and
    /// the entries left, handed to `f` as [`Cursor::object`] hands them.
    fn more_entries(&mut self, f: impl FnMut(&mut Self, &'a [u8]) -> Option<()>) -> Option<()> {
        if self.eat(b'}') {
            return Some(());
        }
        if !self.eat(b',') {
            return None;
        }
        self.entries(f)
    }

    /// Entries from a key at the cursor to the object's closing brace.
    fn entries(&mut self, mut f: impl FnMut(&mut Self, &'a [u8]) -> Option<()>) -> Option<()> {
        loop {
            let key = self.key()?;
            f(self, key)?;
            if self.eat(b'}') {
                return Some(());
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    /// A key without escapes, and the `:` after it.
    fn key(&mut self) -> Option<&'a [u8]> {
        let body = self.b.get(self.i..)?.strip_prefix(b"\"")?;
        // One pass to the closing quote; a backslash or a control before it declines.
        let n = body
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20)?;
        if body[n] != b'"' || body.get(n + 1) != Some(&b':') {
            return None;
        }
        self.i += n + 3;
        Some(&body[..n])
    }

    /// Moves to the next `"` or `\` of a string; a raw control character before it (or none
    /// found) declines.
    fn plain_run(&mut self) -> Option<()> {
        let rest = self.b.get(self.i..)?;
        // Most strings here are short: a byte loop finds their end sooner than a vector
        // search is set up.
        let head = &rest[..rest.len().min(32)];
        let n = match head
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
        {
            Some(n) => n,
            None => {
                let n = head.len() + memchr::memchr2(b'"', b'\\', &rest[head.len()..])?;
                if rest[head.len()..n].iter().any(|&c| c < 0x20) {
                    return None;
                }
                n
            }
        };
        if rest[n] < 0x20 {
            return None;
        }
        self.i += n;
        Some(())
    }

    /// The character of the escape after a backslash (at `self.i`), moving past it.
    fn escape(&mut self) -> Option<char> {
        let ch = match *self.b.get(self.i)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let hex = self.b.get(self.i + 1..self.i + 5)?;
                let mut n = 0u32;
                for &h in hex {
                    n = n * 16 + char::from(h).to_digit(16)?;
                }
                self.i += 4;
                // Surrogates (pairs or lone) are left to serde_json.
                char::from_u32(n)?
            }
            _ => return None,
        };
        self.i += 1;
        Some(ch)
    }

    /// A string, unescaped as `serde_json` does (a surrogate escape declines).
    fn string(&mut self) -> Option<String> {
        if !self.eat(b'"') {
            return None;
        }
        let mut out = String::new();
        loop {
            let start = self.i;
            self.plain_run()?;
            out.push_str(self.slice(start)?);
            if self.eat(b'"') {
                return Some(out);
            }
            self.i += 1;
            out.push(self.escape()?);
        }
    }

    /// A string not kept: checked as [`Cursor::string`] reads it, without copying it.
    fn skip_string(&mut self) -> Option<()> {
        if !self.eat(b'"') {
            return None;
        }
        loop {
            self.plain_run()?;
            if self.eat(b'"') {
                return Some(());
            }
            self.i += 1;
            self.escape()?;
        }
    }

    /// A string without escapes, borrowed (one with an escape declines).
    fn plain_str(&mut self) -> Option<&'a str> {
        if !self.eat(b'"') {
            return None;
        }
        let start = self.i;
        self.plain_run()?;
        let s = self.slice(start)?;
        self.eat(b'"').then_some(s)
    }

    /// The text from `start` to here (both ASCII bytes of the line: not checked again).
    fn slice(&self, start: usize) -> Option<&'a str> {
        self.s.get(start..self.i)
    }

    /// A string or `null`.
    fn opt_string(&mut self) -> Option<Option<String>> {
        if self.lit(b"null").is_some() {
            return Some(None);
        }
        self.string().map(Some)
    }

    /// An integer that fits an `i64`, without a fraction or exponent.
    fn int(&mut self) -> Option<i64> {
        self.int_text().map(|(n, _)| n)
    }

    /// [`Cursor::int`] and its text, which is the number's own digits (`to_string`'s): no
    /// leading zero, no `-0` (`serde_json` reads it as a float), no `+`. More than 18 digits
    /// declines (they might not fit).
    fn int_text(&mut self) -> Option<(i64, &'a str)> {
        let rest = self.b.get(self.i..)?;
        let sign = usize::from(rest.first() == Some(&b'-'));
        let digits = &rest[sign..];
        // The digits and their value in one pass (19 digits or more decline below, before
        // the value could overflow).
        let (mut n, mut value) = (0, 0i64);
        while let Some(d) = digits
            .get(n)
            .filter(|c| c.is_ascii_digit())
            .filter(|_| n < 19)
        {
            value = value * 10 + i64::from(d - b'0');
            n += 1;
        }
        if n == 0 || n > 18 || (n > 1 && digits[0] == b'0') {
            return None;
        }
        if matches!(digits.get(n), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        let value = match (sign, value) {
            (1, 0) => return None,
            (1, v) => -v,
            (_, v) => v,
        };
        let from = self.i;
        self.i += sign + n;
        Some((value, self.slice(from)?))
    }

    /// The value of a key not read: a string, an integer, `true`, `false` or `null`.
    fn skip_scalar(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.skip_string(),
            b't' => self.lit(b"true"),
            b'f' => self.lit(b"false"),
            b'n' => self.lit(b"null"),
            _ => self.int().map(drop),
        }
    }

    /// `params`: `namespace`, `timestamp` and the `data` payload.
    #[allow(clippy::type_complexity)]
    fn params(&mut self) -> Option<(Option<Namespace>, Option<i64>, Payload)> {
        let (mut namespace, mut timestamp, mut data) = (None, None, None);
        self.object(|c, key| match key {
            b"namespace" => once(&mut namespace, c.namespace()?),
            b"timestamp" => once(&mut timestamp, c.int()?),
            b"data" => once(&mut data, c.payload()?),
            b"interrupts" => None,
            _ => c.skip_scalar(),
        })?;
        Some((namespace, timestamp, data?))
    }

    /// A list of strings: the namespace read last when its text is the same
    /// ([`namespace::again`]).
    fn namespace(&mut self) -> Option<Namespace> {
        let start = self.i;
        if let Some((ns, len)) = namespace::again(self.s.get(start..)?, false) {
            self.i += len;
            return Some(ns);
        }
        let parts = self.parts()?;
        Some(namespace::read(self.slice(start)?, parts))
    }

    /// A list of strings.
    fn parts(&mut self) -> Option<Vec<String>> {
        if !self.eat(b'[') {
            return None;
        }
        let mut out = Vec::new();
        if self.eat(b']') {
            return Some(out);
        }
        loop {
            out.push(self.string()?);
            if self.eat(b']') {
                return Some(out);
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    /// `params.data`: a block delta read here, or any payload read by [`Data`].
    fn payload(&mut self) -> Option<Payload> {
        let start = self.i;
        if let Some(d) = self.block_delta() {
            return Some(Payload::Delta(d));
        }
        self.i = start;
        let rest = self.s.get(start..)?;
        // The typed path reads the payload two levels down (the line, `params`): one nested
        // near serde_json's limit is not read here, where it would start at the top.
        if memchr::memchr2_iter(b'{', b'[', rest.as_bytes()).count() >= 120 {
            return None;
        }
        let mut values = serde_json::Deserializer::from_str(rest).into_iter::<DataPayload>();
        let DataPayload(payload) = values.next()?.ok()?;
        self.i = start + values.byte_offset();
        Some(payload)
    }

    /// A `content-block-delta` payload: `event` first, then `index` and `delta`; `None` for
    /// anything else or anything not read here.
    fn block_delta(&mut self) -> Option<BlockDelta> {
        self.lit(br#"{"event":"content-block-delta""#)?;
        let (mut index, mut delta) = (None, None);
        self.more_entries(|c, key| match key {
            b"event" => None,
            b"index" => once(&mut index, c.index()?),
            b"delta" => once(&mut delta, c.delta()?),
            _ => c.skip_scalar(),
        })?;
        Some(BlockDelta {
            index: index.unwrap_or_else(|| "0".into()),
            delta: delta?,
        })
    }

    /// A block index: a string, or an integer as its digits.
    fn index(&mut self) -> Option<String> {
        if self.peek()? == b'"' {
            self.string()
        } else {
            self.int_text().map(|(_, digits)| digits.to_string())
        }
    }

    /// A `delta` object of a kind read here.
    fn delta(&mut self) -> Option<Delta> {
        let (mut ty, mut text, mut reasoning, mut args, mut id, mut name) =
            (None, None, None, None, None, None);
        self.object(|c, key| match key {
            b"type" => once(&mut ty, c.plain_str()?),
            b"text" => once(&mut text, c.opt_string()?),
            b"reasoning" => once(&mut reasoning, c.opt_string()?),
            b"args" => once(&mut args, c.opt_string()?),
            b"id" => once(&mut id, c.opt_string()?),
            b"name" => once(&mut name, c.opt_string()?),
            _ => c.skip_scalar(),
        })?;
        Some(match ty? {
            "text-delta" | "text" => Delta::Text {
                is_text: true,
                text: text.flatten(),
            },
            "reasoning-delta" | "reasoning" => Delta::Text {
                is_text: false,
                text: reasoning.flatten(),
            },
            "tool-call-delta" | "tool_call_chunk" => Delta::ToolCall {
                args: args.flatten(),
                id: id.flatten(),
                name: name.flatten(),
            },
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `messages_line(line)` is what the typed visitors give, or nothing; whether the line
    /// was read here.
    fn agrees(line: &str) -> bool {
        assert!(super::super::hand_reader_agrees(line), "{line}");
        messages_line(line).is_some()
    }

    /// Every `messages` line of the v3 recordings in testdata.
    fn recorded() -> Vec<String> {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/recordings");
        let mut lines = vec![];
        for form in ["v3-js", "v3-python", "v3-python-inprocess"] {
            let Ok(dir) = std::fs::read_dir(format!("{root}/{form}")) else {
                continue;
            };
            let mut files: Vec<_> = dir.flatten().map(|e| e.path()).collect();
            files.sort();
            for f in files {
                let text = std::fs::read_to_string(&f).unwrap_or_default();
                lines.extend(
                    text.lines()
                        .filter(|l| l.contains(r#""method":"messages""#))
                        .map(String::from),
                );
            }
        }
        lines
    }

    #[test]
    fn reads_the_recorded_lines_as_the_typed_visitors_do() {
        let lines = recorded();
        assert!(lines.len() > 500, "{} lines", lines.len());
        let mut read = 0;
        for line in &lines {
            read += usize::from(agrees(line));
            // A delta the writers wrote is read here, not handed back.
            if line.contains(r#""content-block-delta""#) && super::super::typed_line(line).is_some()
            {
                assert!(messages_line(line).is_some(), "declined {line}");
            }
        }
        assert!(
            read * 10 >= lines.len() * 9,
            "{read} of {} read",
            lines.len()
        );
    }

    /// Lines changed where this reader declines or must read as serde_json does: each is
    /// read as the typed visitors read it, or declined.
    #[test]
    fn changed_lines_are_read_alike_or_declined() {
        let lines = recorded();
        let edits: &[(&str, &str)] = &[
            (r#""type":"text-delta""#, r#""type":"te\u0078t-delta""#),
            (r#""text":""#, r#""text":"\ud83d\ude00 \u00e9\n\t\"q\" "#),
            (r#""text":""#, r#""text":"\ud800"#),
            (r#""text":""#, "\"text\":\"\u{1}"),
            (r#""index":0"#, r#""index":-0"#),
            (r#""index":0"#, r#""index":00"#),
            (r#""index":0"#, r#""index":-7"#),
            (r#""index":0"#, r#""index":"b""#),
            (r#""index":0"#, r#""index":1.0"#),
            (r#""index":0"#, r#""index":123456789012345678901"#),
            (r#""index":0"#, r#""index":null"#),
            (r#""index":0,"#, ""),
            (r#""delta":{"#, r#""delta":{"extra":{"a":[1]},"#),
            (r#""delta":{"#, r#""delta":{"extra":true,"#),
            (r#""delta":{"#, r#""delta":{"text":null,"#),
            (r#","delta":{"#, r#","index":1,"delta":{"#),
            (r#""params":{"#, r#""params":{"interrupts":[],"#),
            (r#""params":{"#, r#""params":{"x":{"y":1},"#),
            (r#""params":{"#, r#""params":{"x":-12,"#),
            (r#""params":{"#, r#""params":{ "#),
            (r#""namespace":[]"#, r#""namespace":["a\\b","c"]"#),
            (r#""namespace":[]"#, r#""namespace":null"#),
            (r#""namespace":[]"#, r#""namespace":[1]"#),
            (r#""timestamp":"#, r#""timestamp":-0,"t2":"#),
            (r#""timestamp":"#, r#""timestamp":1e3,"t2":"#),
            (r#"{"type":"event","#, r#"{"type":"event","seq":1,"#),
            (r#"{"type":"event","#, r#"{"type":"event","type":"event","#),
            (
                r#""method":"messages""#,
                r#""method":"messages","method":"messages""#,
            ),
            (r#""method":"messages","#, ""),
            (r#"{"event":"#, r#"{"ev\u0065nt":"#),
            (r#"{"event":"#, r#"{"x":1,"event":"#),
            (r#""data":{"#, r#""data":[{"#),
        ];
        let mut changed = 0;
        for line in &lines {
            for (from, to) in edits {
                if let Some(at) = line.find(from) {
                    let mut l = line.clone();
                    l.replace_range(at..at + from.len(), to);
                    agrees(&l);
                    changed += 1;
                }
            }
            // Trailing bytes, nesting past serde_json's limit in the payload.
            agrees(&format!("{line} "));
            agrees(&format!("{line}x"));
            // Lists nested in a value the payload's reader parses (a block's `content`), to
            // depths the typed path (two levels down) refuses and a reader starting at the
            // payload would not; and in one it skips (a delta's unknown key).
            for key in [r#""content":{"#, r#""delta":{"#] {
                if let Some(at) = line.find(key) {
                    for depth in [123, 124, 125, 126, 127, 130] {
                        let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
                        let mut l = line.clone();
                        l.insert_str(at + key.len(), &format!(r#""deep":{deep},"#));
                        agrees(&l);
                    }
                }
            }
        }
        assert!(changed > 1000, "{changed} changed lines");
    }
}
