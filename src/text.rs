//! Text from a log or a file name made safe for a terminal or a CI log: the one escaping
//! function every text output uses ([`printable`]), and the other small helpers every feature
//! may use, so that none imports another for one: a finding's [`Severity`], text cut to a
//! width ([`cut`]), reading a JSON event's fields ([`list_of`], [`str_of`]), counted nouns
//! ([`count`]), XML and HTML text ([`markup_escape`]), an OS error's text ([`os_text`]), and
//! GitHub workflow command text ([`workflow_data`], [`workflow_property`]: check's and diff's
//! `--format github`).
//!
//! A newline in a run id would start a forged `::error` workflow command in a CI log, `ESC ]0;…
//! BEL` sets a terminal's title, a CR rewrites the line shown, a bidi override (U+202E) shows
//! text in another order than it is, and U+2028/U+2029 break a line in some viewers. Each such
//! character is written as an escape (`\n`, `\r`, `\t`, `\u{1b}`, `\u{202e}`); all other
//! characters pass as they are.

use std::borrow::Cow;
use std::fmt::Write;

use serde_json::Value;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Whether `c` must be escaped: C0 and C1 controls and DEL, bidi embedding, override and
/// isolate controls and marks, and the line and paragraph separators.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{2028}'
                | '\u{2029}'
        )
}

/// `s` with every [`is_unsafe`] character escaped; borrowed when there is none.
pub fn printable(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut o = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if is_unsafe(c) => {
                let _ = write!(o, "\\u{{{:x}}}", c as u32);
            }
            c => o.push(c),
        }
    }
    Cow::Owned(o)
}

/// [`printable`], cut to at most `max` characters of the original text, with how long it was:
/// `abc… (1000078 chars)`. For text of any length written to a log (paths, ids, headers).
pub fn printable_cut(s: &str, max: usize) -> Cow<'_, str> {
    match s.char_indices().nth(max) {
        None => printable(s),
        Some((end, _)) => Cow::Owned(format!(
            "{}… ({} chars)",
            printable(&s[..end]),
            s.chars().count()
        )),
    }
}

/// Cuts `s` to `max` columns, ending with `…` when cut.
pub fn cut(s: &str, max: usize) -> String {
    if s.width() <= max {
        return s.to_string();
    }
    if max == 0 {
        return String::new();
    }
    // Each character that leaves a column for the `…`.
    let mut w = 0;
    let keep = |c: &char| {
        w += c.width().unwrap_or(0);
        w < max
    };
    let mut out: String = s.chars().take_while(keep).collect();
    out.push('…');
    out
}

/// Writes `value` as compact JSON with every [`is_unsafe`] character in its strings written as
/// a `\\uXXXX` escape (serde_json escapes only C0 controls): the same value to a JSON reader,
/// and nothing a terminal acts on. For JSON shown to a person (snapshots, diff values).
pub fn write_json<W: std::io::Write, T: serde::Serialize + ?Sized>(
    w: W,
    value: &T,
) -> serde_json::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(w, SafeJson);
    value.serialize(&mut ser)
}

/// `value` as compact JSON, as [`write_json`] writes it.
pub fn json_string<T: serde::Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::new();
    // Writing to a Vec fails only on a value serde_json cannot write (a map with non-string
    // keys), which the callers' JSON values never hold.
    let _ = write_json(&mut out, value);
    String::from_utf8(out).unwrap_or_default()
}

/// serde_json's compact formatter, escaping [`is_unsafe`] characters in strings too.
struct SafeJson;

impl serde_json::ser::Formatter for SafeJson {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if is_unsafe(c) {
                w.write_all(&fragment.as_bytes()[start..i])?;
                write!(w, "\\u{:04x}", c as u32)?;
                start = i + c.len_utf8();
            }
        }
        w.write_all(&fragment.as_bytes()[start..])
    }
}

/// A GitHub Actions workflow command's data: `%`, CR and LF percent-encoded (so no text from a
/// log starts a command line of its own), other controls escaped ([`printable`]).
pub fn workflow_data(s: &str) -> String {
    let s = s
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    printable(&s).into_owned()
}

/// A workflow command's property (`file=`, `title=`): its data, `:` and `,` encoded too.
pub fn workflow_property(s: &str) -> String {
    workflow_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// `1 message`, `2 messages` (the core's, which words its own messages so).
pub use crate::adapter::count;

/// `v[k]` as a string, when it is one.
pub fn str_of(v: &Value, k: &str) -> Option<String> {
    v.get(k).and_then(Value::as_str).map(str::to_string)
}

/// `v[k]` as a list (none: empty).
pub fn list_of<'a>(v: &'a Value, k: &str) -> &'a [Value] {
    v.get(k)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Text safe in XML and HTML (check's JUnit report, the report page's title): the five
/// markup characters escaped, controls other than newlines and tabs dropped.
pub fn markup_escape(s: &str) -> String {
    let s: String = (s.chars())
        .filter(|&c| c >= ' ' || matches!(c, '\n' | '\t' | '\r'))
        .collect();
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// An OS error's text without std's " (os error N)" suffix: "No such file or directory".
pub fn os_text(e: &std::io::Error) -> String {
    let text = e.to_string();
    let code = e.raw_os_error().map(|c| format!(" (os error {c})"));
    text.strip_suffix(&code.unwrap_or_default())
        .unwrap_or(&text)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_bidi_and_separators_are_escaped() {
        let s = "a\n::error file=x::y\u{1b}]0;t\u{7}\rz\u{85}\u{9b}\u{202e}\u{2066}\u{2028}\u{2029}\u{200f}\u{7f}";
        let p = printable(s);
        assert_eq!(
            p,
            "a\\n::error file=x::y\\u{1b}]0;t\\u{7}\\rz\\u{85}\\u{9b}\\u{202e}\\u{2066}\\u{2028}\\u{2029}\\u{200f}\\u{7f}"
        );
        assert!(!p.chars().any(is_unsafe));
    }

    #[test]
    fn json_escapes_the_same_characters_and_reads_back_the_same() {
        let v = serde_json::json!({"k\u{202e}": ["a\u{85}b\u{2028}", "\u{1b}]0;t\u{7}", 1.5]});
        let s = json_string(&v);
        assert!(!s.chars().any(is_unsafe), "{s}");
        assert!(s.contains("\\u202e") && s.contains("\\u0085"), "{s}");
        let back: serde_json::Value = serde_json::from_str(&s).expect("valid JSON");
        assert_eq!(back, v);
    }

    #[test]
    fn long_text_is_cut_with_its_length() {
        let long = "a\u{1b}".repeat(100);
        assert_eq!(printable_cut(&long, 4), "a\\u{1b}a\\u{1b}… (200 chars)");
        assert_eq!(printable_cut("short", 10), "short");
    }

    #[test]
    fn plain_text_is_borrowed() {
        let s = "run-1 · thread é ✓ 日本";
        assert!(matches!(printable(s), Cow::Borrowed(_)));
    }
}
