//! Small helpers every feature may use, so that none imports another for one: text made safe
//! for a terminal ([`printable`]), a finding's [`Severity`], and reading a JSON event's fields
//! ([`list_of`], [`str_of`]).

use std::borrow::Cow;
use std::fmt::Write;

use serde_json::Value;

/// Text from a log made safe for a terminal or a CI log: control characters (a newline that
/// would start a forged `::error` workflow command, an escape sequence that sets the
/// terminal's title) are written as escapes (`\n`, `\u{1b}`), everything else as it is.
pub fn printable(s: &str) -> Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return Cow::Borrowed(s);
    }
    let mut o = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(o, "\\u{{{:x}}}", c as u32);
            }
            c => o.push(c),
        }
    }
    Cow::Owned(o)
}

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
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
