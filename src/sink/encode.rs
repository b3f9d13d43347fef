//! Compact JSON output of a `Value`, byte for byte what `serde_json::to_writer` writes with
//! floats as `JSON.stringify` writes them ([`crate::js_numbers`]), without going through
//! serde's serializer: strings are scanned 8 bytes at a time for the bytes that need escaping
//! (`"`, `\`, controls) and copied whole when there are none. Numbers are written by
//! `serde_json` with [`crate::js_numbers::JsFormatter`].

use serde_json::Value;

use crate::agui::StrShaped;

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Whether any byte of `w` (little-endian) is a control (< 0x20), `"` or `\`.
#[inline(always)]
pub(crate) fn word_needs_escape(w: u64) -> bool {
    word_specials(w) != 0
}

/// The high bits of the bytes of `w` (little-endian) that may be a control (< 0x20), `"` or
/// `\`: none when no byte is; otherwise the lowest set bit is exactly the first such byte's
/// (`trailing_zeros() / 8` is its index), while bits above it may be false (a borrow of the
/// subtractions carries into the next byte).
#[inline(always)]
pub(crate) fn word_specials(w: u64) -> u64 {
    let ctl = w.wrapping_sub(ONES * 0x20) & !w;
    let q = w ^ (ONES * b'"' as u64);
    let q = q.wrapping_sub(ONES) & !q;
    let b = w ^ (ONES * b'\\' as u64);
    let b = b.wrapping_sub(ONES) & !b;
    (ctl | q | b) & HIGHS
}

/// The index of the first control, `"` or `\` in `s[from..]` (or `s.len()`), 8 bytes at a
/// time.
#[inline]
pub(crate) fn next_special(s: &[u8], mut from: usize) -> usize {
    while from + 8 <= s.len() {
        let m = word_specials(word_at(s, from));
        if m != 0 {
            return from + (m.trailing_zeros() / 8) as usize;
        }
        from += 8;
    }
    while from < s.len() && !ESCAPED[s[from] as usize] {
        from += 1;
    }
    from
}

/// Bytes `serde_json` escapes in strings: controls, `"` and `\`.
static ESCAPED: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

#[inline(always)]
fn word_at(s: &[u8], i: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&s[i..i + 8]);
    u64::from_le_bytes(w)
}

/// Whether any byte of `s` needs escaping.
#[inline]
fn any_escape(s: &[u8]) -> bool {
    let n = s.len();
    if n < 8 {
        return s.iter().any(|&b| ESCAPED[b as usize]);
    }
    let mut i = 0;
    while i + 8 < n {
        if word_needs_escape(word_at(s, i)) {
            return true;
        }
        i += 8;
    }
    // The last 8 bytes (overlapping bytes already checked).
    word_needs_escape(word_at(s, n - 8))
}

/// A JSON string literal, escaped as `serde_json` does (`\"`, `\\`, `\b \f \n \r \t`, other
/// controls as `\u00xx`; everything else, including DEL and U+2028, raw).
#[inline(always)]
pub fn write_str(s: &str, buf: &mut Vec<u8>) {
    let bytes = s.as_bytes();
    buf.reserve(bytes.len() + 2);
    buf.push(b'"');
    if any_escape(bytes) {
        write_escaped(bytes, buf);
    } else {
        buf.extend_from_slice(bytes);
    }
    buf.push(b'"');
}

/// The body of a string with at least one byte to escape.
#[cold]
#[inline(never)]
fn write_escaped(bytes: &[u8], buf: &mut Vec<u8>) {
    let mut start = 0;
    loop {
        let i = next_special(bytes, start);
        let Some(&b) = bytes.get(i) else { break };
        buf.extend_from_slice(&bytes[start..i]);
        match b {
            b'"' => buf.extend_from_slice(b"\\\""),
            b'\\' => buf.extend_from_slice(b"\\\\"),
            0x08 => buf.extend_from_slice(b"\\b"),
            0x0c => buf.extend_from_slice(b"\\f"),
            b'\n' => buf.extend_from_slice(b"\\n"),
            b'\r' => buf.extend_from_slice(b"\\r"),
            b'\t' => buf.extend_from_slice(b"\\t"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                buf.extend_from_slice(b"\\u00");
                buf.push(HEX[(b >> 4) as usize]);
                buf.push(HEX[(b & 0xf) as usize]);
            }
        }
        start = i + 1;
    }
    buf.extend_from_slice(&bytes[start..]);
}

/// How an encoder writes a string value: escaped in place ([`Inline`]), or left out and its
/// place noted ([`Holes`]). Object keys are always written in place.
pub trait Strings<'a> {
    fn string(&mut self, s: &'a str, buf: &mut Vec<u8>);
    /// The buffer was cut back to `len` bytes: strings noted past it are gone.
    fn truncate(&mut self, _len: usize) {}
}

/// Every string escaped in place.
pub struct Inline;

impl Strings<'_> for Inline {
    #[inline(always)]
    fn string(&mut self, s: &str, buf: &mut Vec<u8>) {
        write_str(s, buf)
    }
}

/// Strings of [`Holes::LONG`] bytes or more are left out of the buffer: each is noted with
/// where its literal goes, for a writer to escape from where it is ([`write_holes`]) instead
/// of a frame buffer growing to hold a megabyte's copy.
#[derive(Default)]
pub struct Holes<'a>(pub Vec<(usize, &'a str)>);

impl Holes<'_> {
    pub const LONG: usize = 64 * 1024;
}

impl<'a> Strings<'a> for Holes<'a> {
    #[inline(always)]
    fn string(&mut self, s: &'a str, buf: &mut Vec<u8>) {
        if s.len() >= Self::LONG {
            self.0.push((buf.len(), s));
        } else {
            write_str(s, buf)
        }
    }

    fn truncate(&mut self, len: usize) {
        self.0.retain(|&(at, _)| at < len);
    }
}

/// Writes `buf` to `w` with each hole's string literal in its place, escaped a piece at a
/// time through `scratch`: the bytes `buf` would hold had the strings been written in it.
pub fn write_holes<W: std::io::Write>(
    w: &mut W,
    buf: &[u8],
    holes: &[(usize, &str)],
    scratch: &mut Vec<u8>,
) -> std::io::Result<()> {
    let mut at = 0;
    for &(pos, s) in holes {
        w.write_all(buf.get(at..pos).unwrap_or_default())?;
        at = pos;
        scratch.clear();
        scratch.push(b'"');
        for piece in s.as_bytes().chunks(Holes::LONG) {
            if any_escape(piece) {
                write_escaped(piece, scratch);
            } else {
                scratch.extend_from_slice(piece);
            }
            if scratch.len() >= Holes::LONG {
                w.write_all(scratch)?;
                scratch.clear();
            }
        }
        scratch.push(b'"');
        w.write_all(scratch)?;
    }
    w.write_all(buf.get(at..).unwrap_or_default())
}

/// `serde_json::to_writer(buf, v)` for a `Value` (compact, keys in map order), floats as
/// JavaScript writes them ([`crate::js_numbers::to_writer`]).
pub fn write_value(v: &Value, buf: &mut Vec<u8>) {
    write_value_with(v, buf, &mut Inline)
}

/// [`write_value`], strings written as `strings` says.
pub fn write_value_with<'a, S: Strings<'a>>(v: &'a Value, buf: &mut Vec<u8>, strings: &mut S) {
    match v {
        Value::Null => buf.extend_from_slice(b"null"),
        Value::Bool(true) => buf.extend_from_slice(b"true"),
        Value::Bool(false) => buf.extend_from_slice(b"false"),
        Value::Number(n) => {
            // serde_json's formatting (itoa), floats as JSON.stringify writes them (ryu-js):
            // digit loops here measured no faster. Into a Vec this cannot fail.
            crate::js_numbers::to_writer(&mut *buf, n).unwrap_or_default();
        }
        Value::String(s) => strings.string(s, buf),
        Value::Array(a) => {
            buf.push(b'[');
            let mut first = true;
            for x in a {
                if !first {
                    buf.push(b',');
                }
                first = false;
                write_value_with(x, buf, strings);
            }
            buf.push(b']');
        }
        Value::Object(m) => write_object(m, buf, |_, x, buf| write_value_with(x, buf, strings)),
    }
}

/// An object's entries, each value written by `value` (given its key).
#[inline(always)]
fn write_object<'a>(
    m: &'a serde_json::Map<String, Value>,
    buf: &mut Vec<u8>,
    mut value: impl FnMut(&str, &'a Value, &mut Vec<u8>),
) {
    buf.push(b'{');
    let mut first = true;
    for (k, x) in m {
        if !first {
            buf.push(b',');
        }
        first = false;
        write_str(k, buf);
        buf.push(b':');
        value(k, x, buf);
    }
    buf.push(b'}');
}

/// [`write_value`] of an event object whose `snapshot` entry is written as `snapshot_json`
/// (compact JSON text, as [`write_value`] writes it), whatever `ev` holds there.
pub fn write_with_snapshot(ev: &Value, snapshot_json: &[&str], buf: &mut Vec<u8>) {
    let Value::Object(m) = ev else {
        return write_value(ev, buf);
    };
    buf.reserve(snapshot_json.iter().map(|p| p.len()).sum::<usize>() + 64);
    write_object(m, buf, |k, x, buf| {
        if k == "snapshot" {
            for part in snapshot_json {
                buf.extend_from_slice(part.as_bytes());
            }
        } else {
            write_value(x, buf);
        }
    });
}

/// [`write_value`] of an event laid out as `shape` says: `type`, maybe `timestamp`, then
/// the shape's fields, each a string (what [`crate::agui::EventBuilder::build_shaped`]
/// vouches for). Its keys are written as the shape holds them encoded, not each escaped
/// anew. Anything else is written by [`write_value`].
pub fn write_shaped(ev: &Value, shape: StrShaped, buf: &mut Vec<u8>) {
    write_shaped_with(ev, shape, buf, &mut Inline)
}

/// [`write_shaped`], string values written as `strings` says.
pub fn write_shaped_with<'a, S: Strings<'a>>(
    ev: &'a Value,
    shape: StrShaped,
    buf: &mut Vec<u8>,
    strings: &mut S,
) {
    debug_assert!(shape.fits(ev), "not laid out as its shape: {ev}");
    let Value::Object(m) = ev else {
        return write_value_with(ev, buf, strings);
    };
    let mut values = m.values();
    let (Some(Value::String(kind)), fields) = (values.next(), shape.0.fields().len()) else {
        return write_value_with(ev, buf, strings);
    };
    let timestamp = match m.len() - fields {
        1 => None,
        2 => match values.next() {
            Some(Value::Number(n)) => Some(n),
            _ => return write_value_with(ev, buf, strings),
        },
        _ => return write_value_with(ev, buf, strings),
    };
    let start = buf.len();
    buf.extend_from_slice(br#"{"type":"#);
    write_str(kind, buf);
    if let Some(n) = timestamp {
        buf.extend_from_slice(br#","timestamp":"#);
        match n.as_i64() {
            Some(i) => {
                let (text, at) = int_text(i < 0, i.unsigned_abs());
                buf.extend_from_slice(&text[at..]);
            }
            None => crate::js_numbers::to_writer(&mut *buf, n).unwrap_or_default(),
        }
    }
    for (i, v) in values.enumerate() {
        let Value::String(text) = v else {
            buf.truncate(start);
            strings.truncate(start);
            return write_value_with(ev, buf, strings);
        };
        buf.extend_from_slice(shape.0.key_json(i));
        strings.string(text, buf);
    }
    buf.push(b'}');
}

/// The decimal text of the integer `-magnitude` (`negative`) or `magnitude`, as serde_json
/// writes integers: `buf[start..]` of the returned `(buf, start)`.
pub(crate) fn int_text(negative: bool, mut magnitude: u64) -> ([u8; 21], usize) {
    let mut buf = [0u8; 21];
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (magnitude % 10) as u8;
        magnitude /= 10;
        if magnitude == 0 {
            break;
        }
    }
    if negative {
        at -= 1;
        buf[at] = b'-';
    }
    (buf, at)
}

/// [`write_with_snapshot`] with nothing written for the `snapshot` entry's value: where it
/// goes in `buf` (`None`, and the event written whole, when `ev` is not an object with a
/// `snapshot` key). A sink writes a long snapshot from where it is kept, not copied into
/// its frame buffer ([`super::write_snapshot_frame`]).
pub fn write_with_snapshot_slot(ev: &Value, buf: &mut Vec<u8>) -> Option<usize> {
    let Value::Object(m) = ev else {
        write_value(ev, buf);
        return None;
    };
    let mut slot = None;
    write_object(m, buf, |k, x, buf| {
        if k == "snapshot" {
            slot = Some(buf.len());
        } else {
            write_value(x, buf);
        }
    });
    slot
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn next_special_finds_the_first_special_byte() {
        // Each special byte, and the bytes around the SWAR borrows' edges (0x1f/0x20, 0x21,
        // 0x5b/0x5d beside `\`, 0x7f/0x80, 0xa0, 0xff), at every position of strings up to
        // 40 bytes, alone and after another special byte.
        let fill = [b'a', 0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80, 0xa0, 0xff];
        let special = [b'"', b'\\', 0x00, 0x01, 0x0a, 0x1f];
        for len in 0..40 {
            for &f in &fill {
                let plain = vec![f; len];
                assert_eq!(next_special(&plain, 0), len, "{plain:?}");
                for at in 0..len {
                    for &x in &special {
                        let mut s = plain.clone();
                        s[at] = x;
                        for from in 0..=at {
                            assert_eq!(next_special(&s, from), at, "{s:?} from {from}");
                        }
                        assert_eq!(next_special(&s, at + 1), len, "{s:?} after {at}");
                        if at + 1 < len {
                            let mut t = s.clone();
                            t[at + 1..].fill(0x01);
                            assert_eq!(next_special(&t, 0), at, "{t:?}");
                        }
                    }
                }
            }
        }
    }

    fn same(v: &Value) {
        let mut ours = vec![];
        write_value(v, &mut ours);
        let theirs = crate::js_numbers::to_vec(v).expect("serializes");
        assert_eq!(
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&theirs)
        );
    }

    #[test]
    fn tricky_strings_match_serde_json() {
        let mut cases: Vec<String> = vec![
            "".into(),
            "plain ascii text that is longer than eight bytes".into(),
            "\"".into(),
            "\\".into(),
            "a\"b\\c\nd\re\tf\u{8}g\u{c}h".into(),
            "22°C \"q\" — ünïcödé 漢字 🎉".into(),
            "\u{2028}\u{2029}\u{7f}\u{80}\u{ff}".into(),
            "</script><!-- & ' `".into(),
            "12345678\"12345678\\1234567\n".into(),
            "\"\"\"\"\"\"\"\"\"\"\\\\\\\\\\\\\\\\".into(),
        ];
        // Every byte value below 0x80 at every position of a 17-byte string.
        for b in 0u8..0x80 {
            for pos in 0..17 {
                let mut s: Vec<u8> = b"abcdefghijklmnopq".to_vec();
                s[pos] = b;
                cases.push(String::from_utf8(s).expect("ascii"));
            }
        }
        // Two bytes to escape at every pair of positions of a 24-byte string: the words
        // skipped whole before, between and after them.
        for (a, b) in [(b'"', b'\n'), (b'\\', 0x01), (b'\t', b'"')] {
            for p in 0..24 {
                for q in p..24 {
                    let mut s: Vec<u8> = b"abcdefghijklmnopqrstuvwx".to_vec();
                    s[p] = a;
                    s[q] = b;
                    cases.push(String::from_utf8(s).expect("ascii"));
                }
            }
        }
        // Bytes next to the SWAR thresholds, in words with high bytes.
        for c in ['\u{1f}', ' ', '!', '"', '#', '[', '\\', ']', 'é', '\u{a0}'] {
            cases.push(format!("ééé{c}ééé{c}{c}xyz"));
        }
        for s in &cases {
            same(&Value::String(s.clone()));
            let mut m = serde_json::Map::new();
            m.insert(s.clone(), Value::String(s.clone()));
            same(&Value::Object(m));
        }
    }

    #[test]
    fn a_snapshot_written_apart_is_written_in_place() {
        let state = json!({"messages": [{"content": "a\nb", "id": "m"}], "k": [1.5, null]});
        let text = serde_json::to_string(&state).expect("serializes");
        for ev in [
            json!({"type": "STATE_SNAPSHOT", "timestamp": 17, "snapshot": state}),
            json!({"type": "STATE_SNAPSHOT", "snapshot": state}),
            json!({"snapshot": state, "type": "STATE_SNAPSHOT", "rawEvent": {"snapshot": 1}}),
        ] {
            let mut apart = ev.clone();
            apart["snapshot"] = Value::Null;
            let mut ours = vec![];
            write_with_snapshot(&apart, &[&text], &mut ours);
            assert_eq!(ours, serde_json::to_vec(&ev).expect("serializes"));
        }
    }

    #[test]
    fn values_match_serde_json() {
        for v in [
            json!(null),
            json!(true),
            json!(false),
            json!(0),
            json!(-1),
            json!(u64::MAX),
            json!(i64::MIN),
            json!(i64::MAX),
            json!(-9),
            json!(10),
            json!(1_700_000_000_000i64),
            json!(-1_700_000_000_000i64),
            json!(1.5),
            json!(-0.0),
            json!(1e300),
            json!(1e-7),
            json!(0.1),
            json!(123456789012345680000.0),
            json!([]),
            json!({}),
            json!([1, "a", null, [true, {"k": []}], {}]),
            json!({"type": "STATE_SNAPSHOT", "timestamp": 1700000000000i64,
                   "snapshot": {"messages": [{"content": "a\nb", "n": 2.25}], "": ""}}),
        ] {
            same(&v);
        }
        // Integers around every power of ten, both signs, and floats near them.
        let mut p: u64 = 1;
        for _ in 0..20 {
            for d in [p - 1, p, p + 1] {
                same(&json!(d));
                if let Ok(i) = i64::try_from(d) {
                    same(&json!(-i));
                    same(&json!(i as f64 / 7.0));
                }
            }
            p = p.saturating_mul(10);
        }
    }

    /// A shaped event is written byte for byte as the generic encoder writes it.
    #[test]
    fn shaped_events_encode_as_values() {
        use crate::agui::Shape;
        use crate::shape;
        let two: &'static Shape = shape!("messageId", "delta");
        let one: &'static Shape = shape!("toolCallId");
        let texts = [
            "",
            "plain",
            "q\"uo\\te",
            "line\nbreak\t\u{1}",
            "22°C 晴",
            "\u{7f}\u{2028}",
        ];
        let stamps = [
            None,
            Some(0),
            Some(-1),
            Some(1_795_994_433_263),
            Some(i64::MIN),
            Some(i64::MAX),
        ];
        for text in texts {
            for ts in stamps {
                for (ev, shaped) in [
                    two.event_strs("TEXT_MESSAGE_CONTENT", ts, [text, text])
                        .build_shaped(),
                    one.event_strs("TOOL_CALL_END", ts, [text]).build_shaped(),
                ] {
                    let shaped = shaped.expect("string fields: shaped");
                    let (mut fast, mut plain) = (vec![], vec![]);
                    write_shaped(&ev, shaped, &mut fast);
                    write_value(&ev, &mut plain);
                    assert_eq!(
                        String::from_utf8_lossy(&fast),
                        String::from_utf8_lossy(&plain)
                    );
                }
            }
        }
        // A field added after the shape's: not shaped any more.
        let b = two
            .event_strs("TEXT_MESSAGE_CONTENT", None, ["m", "d"])
            .str("extra", "x");
        assert!(b.build_shaped().1.is_none());
    }

    /// Long strings escaped from where they are, a piece at a time, give the bytes written in
    /// place: escapes and multi-byte characters on either side of a piece's edge, several long
    /// strings in one event, values and shaped events.
    #[test]
    fn holes_write_what_the_buffer_would_hold() {
        use crate::agui::Shape;
        use crate::shape;
        const LONG: usize = Holes::LONG;
        let mut texts = vec![];
        for len in [LONG - 1, LONG, LONG + 1, 2 * LONG + 5, 3 * LONG] {
            texts.push("a".repeat(len));
            for at in [0, LONG - 2, LONG - 1, LONG, LONG + 1, len - 1] {
                for special in ["\"", "\n", "\u{1}", "é", "晴"] {
                    let mut t = "b".repeat(len);
                    if at + special.len() <= len {
                        t.replace_range(at..at + special.len(), special);
                        texts.push(t);
                    }
                }
            }
        }
        let two: &'static Shape = shape!("messageId", "delta");
        for text in &texts {
            let ev = json!({"type": "RAW", "event": {"a": [text, 1, "short", text]}, "b": text});
            let (shaped, shape) = two
                .event_strs("TEXT_MESSAGE_CONTENT", Some(3), ["m\"1", text])
                .build_shaped();
            let mut holes = Holes::default();
            let mut buf = b"data: ".to_vec();
            write_value_with(&ev, &mut buf, &mut holes);
            let long = usize::from(text.len() >= LONG);
            assert_eq!(holes.0.len(), 3 * long);
            let (mut out, mut scratch) = (vec![], vec![]);
            write_holes(&mut out, &buf, &holes.0, &mut scratch).expect("in memory");
            let mut plain = b"data: ".to_vec();
            write_value(&ev, &mut plain);
            assert!(out == plain, "a value, {} bytes", text.len());
            assert!(scratch.capacity() < 8 * LONG);

            let shape = shape.expect("string fields: shaped");
            let mut holes = Holes::default();
            let mut buf = vec![];
            write_shaped_with(&shaped, shape, &mut buf, &mut holes);
            assert_eq!(holes.0.len(), long);
            out.clear();
            write_holes(&mut out, &buf, &holes.0, &mut scratch).expect("in memory");
            plain.clear();
            write_value(&shaped, &mut plain);
            assert!(out == plain, "a shaped event, {} bytes", text.len());
        }
    }
}
