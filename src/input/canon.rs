//! Messages whose JSON text is already what aguify writes for them.
//!
//! A state's messages are written out in every `STATE_SNAPSHOT` ([`crate::model::EncodedState`]).
//! Most recorded messages are plain JSON objects (no LangChain constructor, nothing
//! escaped), written compactly by the recorder: their text is byte for byte what
//! `serde_json::to_writer` writes for the value parsing them gives, and
//! normalizing that value ([`crate::adapter::lc::normalize_owned`]) changes nothing. Such a
//! message need not be parsed on the parse thread at all: its text is copied into the
//! snapshot, and the value is parsed only if something reads it (a tool message answering an
//! open call, the run's last message list).
//!
//! [`plain_value`] accepts a text only when all of this holds, so the text is exactly the
//! encoder's output:
//!
//! - it is one JSON object or list, with no whitespace outside strings;
//! - strings hold no raw control character and escape only as serde_json escapes (`\"`,
//!   `\\`, `\b \f \n \r \t`, other controls as `\u00xx` in lowercase hex; `\/` and any other
//!   `\u` escape are refused);
//! - numbers are integers of at most 18 digits, not `-0` (parsed as `i64`/`u64`, written back
//!   as they are; a fraction or exponent is refused, as floats may be written differently);
//! - no object repeats a key (a parse keeps one entry), has a key `lc` or `__lc_escaped__`
//!   (normalizing would change it) or a key in serde_json's private namespace;
//! - it nests at most [`MAX_DEPTH`] levels.
//!
//! Anything else gives `None`, and the caller reads the message as before. Debug builds check
//! every accepted text against a parse and the encoder ([`crate::model::SharedJson`]).

/// serde_json's nesting limit.
pub const MAX_DEPTH: usize = 128;

/// The length and nesting depth (containers) of the JSON object or list `text` starts with,
/// when its text is the encoder's own for its value, unchanged by normalizing (see the module
/// documentation); `None` otherwise.
pub fn plain_value(text: &[u8]) -> Option<(usize, usize)> {
    if !matches!(text.first(), Some(b'{' | b'[')) {
        return None;
    }
    value_end(text, 0)
}

/// A LangChain message constructor (`{"lc":1,"type":"constructor","id":[…,"AIMessage"],
/// "kwargs":{…}}`, compact, keys in dumpd's order) whose kwargs are all plain (as
/// [`plain_value`] says of a value, scalars included) and of a class with a fixed type:
/// its normalized form's text, written here from the text (the type key first, then the
/// kwargs but `type` as they are), the length of the constructor's text and its nesting
/// depth as parsed. What [`crate::input::normread`] reads the text into, written as the
/// encoder writes it; `None` for anything else.
pub fn plain_constructor(text: &str) -> Option<(String, usize, usize)> {
    const HEAD: &[u8] = br#"{"lc":1,"type":"constructor","id":["#;
    const KWARGS: &[u8] = br#","kwargs":{"#;
    let b = text.as_bytes();
    if !b.starts_with(HEAD) {
        return None;
    }
    let mut i = HEAD.len();
    // The id's strings: the class is the last.
    let class = loop {
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let end = string_end(b, i + 1)?;
        let s = &text[i + 1..end - 1];
        i = end + 1;
        match b.get(end)? {
            b',' => {}
            b']' => break s,
            _ => return None,
        }
    };
    if class.contains('\\') {
        return None;
    }
    let Some(Some(ty)) = crate::adapter::lc::fixed_message_type(class) else {
        return None;
    };
    if !b[i..].starts_with(KWARGS) {
        return None;
    }
    i += KWARGS.len();
    let mut out = String::with_capacity(b.len());
    out.push_str(r#"{"type":""#);
    out.push_str(ty);
    out.push('"');
    let mut keys: Vec<&[u8]> = Vec::with_capacity(16);
    let mut deepest = 0;
    if b.get(i) == Some(&b'}') {
        i += 1;
    } else {
        loop {
            let at = i;
            i = key(b, i, &mut keys, 0)?;
            let (end, depth) = value_end(b, i)?;
            deepest = deepest.max(depth);
            // `type` is the class's; any other kwarg as it is, key and all.
            if keys.last() != Some(&&b"type"[..]) {
                out.push(',');
                out.push_str(&text[at..end]);
            }
            i = end + 1;
            match b.get(end)? {
                b',' => {}
                b'}' => break,
                _ => return None,
            }
        }
    }
    if b.get(i) != Some(&b'}') {
        return None;
    }
    out.push('}');
    // The wrapper over its id list and its kwargs object.
    Some((out, i + 1, 2 + deepest))
}

/// Each entry of the object whose plain text is `text` (the caller vouches for it: see
/// [`plain_value`]), as the key (its text between the quotes: escapes are canonical, so a
/// key without one is the text itself) and the value's text, found without reading into
/// it; `None` when `text` is not an object.
pub(crate) fn plain_entries<'a>(text: &'a str, mut f: impl FnMut(&'a str, &'a str)) -> Option<()> {
    let b = text.as_bytes();
    if b.first() != Some(&b'{') {
        return None;
    }
    let mut i = 1;
    if b.get(i) == Some(&b'}') {
        return Some(());
    }
    loop {
        if b.get(i) != Some(&b'"') {
            return None;
        }
        let key_end = plain_string_end(b, i + 1)?;
        let key = text.get(i + 1..key_end - 1)?;
        if b.get(key_end) != Some(&b':') {
            return None;
        }
        let end = plain_value_end(b, key_end + 1)?;
        f(key, text.get(key_end + 1..end)?);
        match b.get(end) {
            Some(b',') => i = end + 1,
            Some(b'}') => return Some(()),
            _ => return None,
        }
    }
}

/// Each item's text of the list whose plain text is `text` (as [`plain_entries`]); `None`
/// when `text` is not a list.
pub(crate) fn plain_items<'a>(text: &'a str, mut f: impl FnMut(&'a str)) -> Option<()> {
    let b = text.as_bytes();
    if b.first() != Some(&b'[') {
        return None;
    }
    let mut i = 1;
    if b.get(i) == Some(&b']') {
        return Some(());
    }
    loop {
        let end = plain_value_end(b, i)?;
        f(text.get(i..end)?);
        match b.get(end) {
            Some(b',') => i = end + 1,
            Some(b']') => return Some(()),
            _ => return None,
        }
    }
}

/// The string a plain value's text holds (`None` when it is not a string): borrowed when
/// it has no escape.
pub(crate) fn plain_str(value: &str) -> Option<std::borrow::Cow<'_, str>> {
    let body = value.strip_prefix('"')?.strip_suffix('"')?;
    if body.as_bytes().contains(&b'\\') {
        serde_json::from_str(value)
            .ok()
            .map(std::borrow::Cow::Owned)
    } else {
        Some(std::borrow::Cow::Borrowed(body))
    }
}

/// The end of the value at `i` of a plain text, found without reading it (the text is
/// valid: see [`plain_entries`]).
fn plain_value_end(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => plain_string_end(b, i + 1),
        b'{' | b'[' => {
            // Brackets nest properly: their count finds the end.
            let (mut depth, mut j) = (0usize, i);
            loop {
                match *b.get(j)? {
                    b'"' => j = plain_string_end(b, j + 1)?,
                    b'{' | b'[' => {
                        depth += 1;
                        j += 1;
                    }
                    b'}' | b']' => {
                        // (A text that is not plain may close more than it opened.)
                        depth = depth.checked_sub(1)?;
                        j += 1;
                        if depth == 0 {
                            return Some(j);
                        }
                    }
                    _ => j += 1,
                }
            }
        }
        // A number or a literal: up to the next separator.
        _ => Some(
            i + b
                .get(i..)?
                .iter()
                .position(|c| matches!(c, b',' | b'}' | b']'))?,
        ),
    }
}

/// The index of the first control, `"` or `\` in `b[from..]` (or `b.len()`): `memchr2` to
/// the next quote or backslash, then a vectorizable pass for a control before it.
fn next_special(b: &[u8], from: usize) -> usize {
    let rest = b.get(from..).unwrap_or_default();
    let q = memchr::memchr2(b'"', b'\\', rest).unwrap_or(rest.len());
    let run = &rest[..q];
    if run.iter().fold(false, |any, &c| any | (c < 0x20)) {
        return from + run.iter().position(|&c| c < 0x20).unwrap_or(q);
    }
    from + q
}

/// The position after the closing quote of a valid string whose body starts at `i`.
fn plain_string_end(b: &[u8], mut i: usize) -> Option<usize> {
    loop {
        // Eight bytes at a time to the next quote or backslash (a plain text has no raw
        // control: one is stepped over).
        i = next_special(b, i);
        match *b.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
}

/// The end and nesting depth of the plain JSON value at `i` (see [`plain_value`]).
fn value_end(b: &[u8], mut i: usize) -> Option<(usize, usize)> {
    // Per open container: whether it is an object, and where its keys start in `keys`.
    let mut stack: Vec<(bool, usize)> = Vec::new();
    let mut keys: Vec<&[u8]> = Vec::new();
    let mut deepest = 0;
    loop {
        // A value at `i`.
        match *b.get(i)? {
            open @ (b'{' | b'[') => {
                let object = open == b'{';
                stack.push((object, keys.len()));
                deepest = deepest.max(stack.len());
                if stack.len() > MAX_DEPTH {
                    return None;
                }
                i += 1;
                let close = if object { b'}' } else { b']' };
                if b.get(i) == Some(&close) {
                    i += 1;
                    stack.pop();
                } else {
                    if object {
                        let first = keys.len();
                        i = key(b, i, &mut keys, first)?;
                    }
                    continue;
                }
            }
            b'"' => i = string_end(b, i + 1)?,
            b't' => i = literal(b, i, b"true")?,
            b'f' => i = literal(b, i, b"false")?,
            b'n' => i = literal(b, i, b"null")?,
            b'-' | b'0'..=b'9' => i = integer_end(b, i)?,
            _ => return None,
        }
        // After a value: the containers it closes, up to the next value.
        loop {
            let Some(&(object, first_key)) = stack.last() else {
                return Some((i, deepest));
            };
            match *b.get(i)? {
                b',' if object => {
                    i = key(b, i + 1, &mut keys, first_key)?;
                    break;
                }
                b',' => {
                    i += 1;
                    break;
                }
                b'}' if object => {
                    keys.truncate(first_key);
                    stack.pop();
                    i += 1;
                }
                b']' if !object => {
                    stack.pop();
                    i += 1;
                }
                _ => return None,
            }
        }
    }
}

/// A key at `i` and its colon: the position after them. The key must not be one of the
/// object's keys so far (`keys[first..]`), nor one normalizing or serde_json reads apart.
fn key<'a>(b: &'a [u8], i: usize, keys: &mut Vec<&'a [u8]>, first: usize) -> Option<usize> {
    if b.get(i) != Some(&b'"') {
        return None;
    }
    let end = string_end(b, i + 1)?;
    let k = &b[i + 1..end - 1];
    if k == b"lc" || k == b"__lc_escaped__" || k.starts_with(b"$serde_json::private::") {
        return None;
    }
    // Escapes are canonical: equal texts are equal keys.
    if keys[first..].contains(&k) {
        return None;
    }
    keys.push(k);
    (b.get(end) == Some(&b':')).then_some(end + 1)
}

/// The position after the closing quote of the string whose body starts at `i`.
fn string_end(b: &[u8], mut i: usize) -> Option<usize> {
    loop {
        // Eight bytes at a time to the next quote, backslash or control.
        i = next_special(b, i);
        match *b.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => {
                i += match *b.get(i + 1)? {
                    b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't' => 2,
                    b'u' => {
                        // Only a control without a short escape, as `\u00xx` (lowercase).
                        let hex = b.get(i + 2..i + 6)?;
                        let digit = |c: u8| match c {
                            b'0'..=b'9' => Some(c - b'0'),
                            b'a'..=b'f' => Some(c - b'a' + 10),
                            _ => None,
                        };
                        if hex[..2] != *b"00" {
                            return None;
                        }
                        let c = digit(hex[2])? * 16 + digit(hex[3])?;
                        if c >= 0x20 || matches!(c, 0x08 | 0x09 | 0x0a | 0x0c | 0x0d) {
                            return None;
                        }
                        6
                    }
                    _ => return None,
                };
            }
            // A raw control (`next_special` stops at nothing else).
            _ => return None,
        }
    }
}

fn literal(b: &[u8], i: usize, word: &[u8]) -> Option<usize> {
    b[i..].starts_with(word).then_some(i + word.len())
}

/// The end of an integer of at most 18 digits at `i` (not `-0`, no fraction or exponent).
fn integer_end(b: &[u8], i: usize) -> Option<usize> {
    let start = i + usize::from(b[i] == b'-');
    let digits = b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
    let end = start + digits;
    let ok = (1..=18).contains(&digits)
        && (b[start] != b'0' || (digits == 1 && start == i))
        && !matches!(b.get(end), Some(b'.' | b'e' | b'E'));
    ok.then_some(end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// What [`plain_value`] promises, checked the long way.
    fn encoder_text(text: &str) -> Option<String> {
        let v: Value = serde_json::from_str(text).ok()?;
        let mut buf = vec![];
        serde_json::to_writer(&mut buf, &v).expect("a value");
        let normalized = crate::adapter::lc::normalize_owned(v.clone());
        (normalized == v).then(|| String::from_utf8(buf).expect("utf8"))
    }

    #[test]
    fn accepts_only_the_encoders_own_text() {
        let yes = [
            r#"{}"#,
            r#"[]"#,
            r#"{"content":"Hi there","additional_kwargs":{},"type":"human","name":null,"id":"h"}"#,
            r#"{"a":[1,-2,0,123456789012345678,-123456789012345678,true,false,null,[],{}]}"#,
            r#"{"s":"caf\u00e9","q":"\"\\\b\f\n\r\t\u0000\u001f\u000b","u":"é 漢字 🎉 \u007f"}"#,
            r#"[{"type":"tool","content":"x","tool_call_id":"c"},"lc",{"LC":1,"lcx":2}]"#,
            r#"{"a":{"a":{"a":1}},"b":{"a":1}}"#,
            r#"{"k":"12345678\"12345678\\1234567\n"}"#,
        ];
        for t in yes {
            // Non-ASCII and DEL raw (the encoder does not escape them).
            let t = t.replace("\\u00e9", "é").replace("\\u007f", "\u{7f}");
            let (len, _) = plain_value(t.as_bytes()).unwrap_or_else(|| panic!("{t}"));
            assert_eq!(len, t.len(), "{t}");
            assert_eq!(encoder_text(&t).as_deref(), Some(t.as_str()), "{t}");
        }
        let no = [
            r#"{"a": 1}"#,
            r#"{ "a":1}"#,
            r#"[1 ]"#,
            r#"{"a":1.5}"#,
            r#"{"a":1e3}"#,
            r#"{"a":1E3}"#,
            r#"{"a":-0}"#,
            r#"{"a":01}"#,
            r#"{"a":1234567890123456789}"#,
            r#"{"a":"\/"}"#,
            r#"{"a":"\u00E9"}"#,
            r#"{"a":"\u0041"}"#,
            r#"{"a":"\u007f"}"#,
            r#"{"a":"\u000a"}"#,
            r#"{"a":"\u001F"}"#,
            r#"{"a":"\ud83d\ude00"}"#,
            r#"{"a":1,"a":2}"#,
            r#"{"lc":1,"type":"constructor","id":["a"],"kwargs":{}}"#,
            r#"{"x":{"__lc_escaped__":{}}}"#,
            r#"{"$serde_json::private::RawValue":"1"}"#,
            r#"{"a":tru}"#,
            r#"{"a":1"#,
            r#"{"a":[1,]}"#,
            r#"{"a":1,}"#,
            r#"{,"a":1}"#,
            r#"{"a"}"#,
            r#"{"a":"x"#,
            "{\"a\":\"\t\"}",
            r#""str""#,
            r#"7"#,
            r#"{"a":1]"#,
            r#"[1}"#,
        ];
        for t in no {
            assert_eq!(plain_value(t.as_bytes()), None, "{t}");
        }
        // Only the value at the start is read; what follows is the caller's.
        assert_eq!(plain_value(br#"{"a":1},{"b":2}]"#), Some((7, 1)));
        assert_eq!(plain_value(br#"[[1],[[2]]]x"#), Some((11, 3)));
    }

    /// The object `text` holds with only `keys` kept, read by [`plain_entries`].
    fn object_keys(text: &str, keys: &[&str]) -> Option<Value> {
        let mut out = serde_json::Map::new();
        let mut parsed = true;
        plain_entries(text, |key, value| {
            if keys.contains(&key) {
                match serde_json::from_str(value) {
                    Ok(v) => {
                        out.insert(key.to_string(), v);
                    }
                    Err(_) => parsed = false,
                }
            }
        })?;
        parsed.then_some(Value::Object(out))
    }

    /// Objects of plain text with their keys kept: what the pruned parse keeps, values with
    /// brackets, quotes and escapes of both kinds inside them skipped whole.
    #[test]
    fn plain_objects_keep_the_keys_a_pruned_parse_keeps() {
        const KEYS: &[&str] = &["type", "id", "content", "n"];
        let texts = [
            r#"{}"#,
            r#"{"type":"ai"}"#,
            r#"{"x":{"y":["}","]","{\"","\\"]},"type":"ai","z":[[],{},"]]"],"id":"m"}"#,
            r#"{"content":[{"type":"text","text":"a}b]c\"d"}],"skip":{"a":{"b":{}}},"n":-12}"#,
            r#"{"a":true,"b":false,"c":null,"n":0,"id":"\"}\\","type":"t"}"#,
            r#"{"content":"Hi","additional_kwargs":{},"type":"human","name":null,"id":"h"}"#,
            r#"{"z":[1,2,[3,[4]]],"content":{"k":[{"l":"]"}]}}"#,
            r#"{"é":"漢字 🎉","type":"x\n"}"#,
        ];
        for t in texts {
            assert!(plain_value(t.as_bytes()).is_some(), "plain: {t}");
            let read = object_keys(t, KEYS);
            assert!(read.is_some(), "{t}");
            assert_eq!(read, crate::input::prune::object_with_keys(t, KEYS), "{t}");
        }
        assert_eq!(object_keys("[1]", KEYS), None);
        assert_eq!(object_keys(r#""s""#, KEYS), None);
    }

    #[test]
    fn constructors_are_written_as_their_normalized_text() {
        let yes = [
            r#"{"lc":1,"type":"constructor","id":["langchain_core","messages","AIMessage"],"kwargs":{"content":"hi","tool_calls":[{"id":"c","name":"f","args":{"q":1}}],"type":"ai","id":"m1"}}"#,
            r#"{"lc":1,"type":"constructor","id":["x","HumanMessageChunk"],"kwargs":{}}"#,
            r#"{"lc":1,"type":"constructor","id":["ToolMessage"],"kwargs":{"content":"r","tool_call_id":"c","__type__":"z"}}"#,
            r#"{"lc":1,"type":"constructor","id":["a","SystemMessage"],"kwargs":{"type":"system"}}"#,
        ];
        for t in yes {
            let Some((flat, len, depth)) = plain_constructor(t) else {
                panic!("{t}");
            };
            assert_eq!(len, t.len(), "{t}");
            let Some((want, n, d)) = crate::input::normread::read(t) else {
                panic!("normread reads {t}");
            };
            let mut buf = vec![];
            serde_json::to_writer(&mut buf, &want).expect("a value");
            assert_eq!(flat.as_bytes(), buf.as_slice(), "{t}");
            assert_eq!((len, depth), (n, d), "{t}");
        }
        let no = [
            // Not dumpd's order, spaced, or not a constructor of a fixed type.
            r#"{"type":"constructor","lc":1,"id":["AIMessage"],"kwargs":{}}"#,
            r#"{"lc": 1,"type":"constructor","id":["AIMessage"],"kwargs":{}}"#,
            r#"{"lc":2,"type":"constructor","id":["AIMessage"],"kwargs":{}}"#,
            r#"{"lc":1,"type":"secret","id":["AIMessage"],"kwargs":{}}"#,
            r#"{"lc":1,"type":"constructor","id":["x","ChatMessage"],"kwargs":{"role":"r"}}"#,
            r#"{"lc":1,"type":"constructor","id":["x","Other"],"kwargs":{}}"#,
            r#"{"lc":1,"type":"constructor","id":[],"kwargs":{}}"#,
            r#"{"lc":1,"type":"constructor","id":["AI\u004dessage"],"kwargs":{}}"#,
            r#"{"lc":1,"type":"constructor","id":["AIMessage"],"kwargs":{},"extra":1}"#,
            r#"{"lc":1,"type":"constructor","id":["AIMessage"],"kwargs":[]}"#,
            // Kwargs that are not plain: a nested constructor, a float, a repeated key.
            r#"{"lc":1,"type":"constructor","id":["AIMessage"],"kwargs":{"a":{"lc":1}}}"#,
            r#"{"lc":1,"type":"constructor","id":["AIMessage"],"kwargs":{"a":1.5}}"#,
            r#"{"lc":1,"type":"constructor","id":["AIMessage"],"kwargs":{"a":1,"a":2}}"#,
            r#"{"lc":1,"type":"constructor","id":["AIMessage"],"kwargs":{"lc":1}}"#,
            r#"{"lc":1,"type":"constructor","id":["AIMessage"],"kwargs":{"a":1}"#,
        ];
        for t in no {
            assert_eq!(plain_constructor(t), None, "{t}");
        }
    }

    #[test]
    fn nests_as_deep_as_serde_json_allows() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert_eq!(plain_value(deep(128).as_bytes()), Some((256, 128)));
        assert_eq!(plain_value(deep(129).as_bytes()), None);
    }

    /// Every byte in every position of a string, and short texts made of JSON's own
    /// characters: accepted only when the encoder writes the same text.
    #[test]
    fn agrees_with_the_encoder_byte_by_byte() {
        for c in 0u8..0x80 {
            for pos in 0..10 {
                let mut s = b"abcdefghij".to_vec();
                s[pos] = c;
                let text = format!(r#"{{"k":"{}"}}"#, String::from_utf8(s).expect("ascii"));
                let ours = plain_value(text.as_bytes()).map(|(n, _)| &text[..n]);
                let want = encoder_text(&text).filter(|e| *e == text);
                assert_eq!(ours, want.as_deref(), "{text:?}");
            }
        }
        let alphabet = [
            "{", "}", "[", "]", ",", ":", "\"a\"", "\"lc\"", "1", "-", "0", " ", ".",
        ];
        let mut texts = vec![String::new()];
        for _ in 0..5 {
            texts = texts
                .iter()
                .flat_map(|t| alphabet.iter().map(move |a| format!("{t}{a}")))
                .collect();
            for t in &texts {
                if let Some((n, _)) = plain_value(t.as_bytes()) {
                    assert_eq!(encoder_text(&t[..n]).as_deref(), Some(&t[..n]), "{t:?}");
                }
            }
        }
    }
}
