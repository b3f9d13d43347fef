//! Texts as the report shows them: clipped to a size, JSON pretty-printed.

use serde::Serialize;
use serde_json::Value;

/// A text cut to a size: what is shown, and how many bytes were left out.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Clipped {
    pub text: String,
    /// Bytes left out (0: the whole text); for a JSON value cut while being written, at least
    /// this many.
    #[serde(skip_serializing_if = "is_zero")]
    pub more: usize,
    /// The text is pretty-printed JSON.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub json: bool,
}

pub(super) fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A text clipped to `max` bytes (at a character boundary), with the count of bytes left out.
pub fn clipped(s: &str, max: usize) -> Clipped {
    let mut end = max.min(s.len());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    Clipped {
        text: s[..end].to_string(),
        more: s.len() - end,
        json: false,
    }
}

/// A value pretty-printed, written no further than `max` bytes (a large state is not written
/// whole to be cut): into a slice of `max` bytes, which refuses what does not fit.
pub fn pretty_value(v: &Value, max: usize) -> Clipped {
    let mut buf = vec![0; max];
    let mut room = &mut buf[..];
    let cut = serde_json::to_writer_pretty(&mut room, v).is_err();
    let len = max - room.len();
    let mut text = String::from_utf8_lossy(&buf[..len]).into_owned();
    if cut {
        // A multi-byte character cut in two shows as U+FFFD: drop it.
        while text.ends_with('\u{FFFD}') {
            text.pop();
        }
    }
    Clipped {
        text,
        more: usize::from(cut),
        json: true,
    }
}

/// The longest JSON text [`payload`] pretty-prints.
pub const PRETTY_BYTES: usize = 1 << 20;

/// A payload that may be JSON text (tool arguments, tool results): pretty-printed when it
/// parses as an object or array (and is at most [`PRETTY_BYTES`]), else as it is; clipped to
/// `max` bytes.
pub fn payload(s: &str, max: usize) -> Clipped {
    let t = s.trim_start();
    // A longer text is only clipped: its tree would be tens of times its size for the first
    // `max` bytes of it (a 20 MB line of `[0,0,…]`: 765 MiB; issue 41 item 3).
    if s.len() <= PRETTY_BYTES && (t.starts_with('{') || t.starts_with('[')) {
        if let Ok(v) = serde_json::from_str::<Value>(s) {
            let mut c = pretty_value(&v, max);
            if c.more > 0 {
                c.more = s.len().saturating_sub(c.text.len()).max(1);
            }
            return c;
        }
    }
    clipped(s, max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_text_over_pretty_bytes_is_clipped_as_it_is() {
        let big = format!("[{}0]", "0,".repeat(PRETTY_BYTES / 2));
        let c = payload(&big, 100);
        assert!(c.text.starts_with("[0,0,0,"), "{:?}", c.text);
        assert!(!c.text.contains('\n'));
        assert!(c.more > 0);
        assert!(
            payload("[0,0]", 100).text.contains('\n'),
            "a short one is pretty"
        );
    }

    #[test]
    fn clips_at_char_boundaries_and_pretty_prints_json() {
        let c = |s, max| (clipped(s, max).text, clipped(s, max).more);
        assert_eq!(c("héllo", 2), ("h".to_string(), 5));
        assert_eq!(c("abc", 5), ("abc".to_string(), 0));
        let p = payload(r#"{"a":[1,2]}"#, 1000);
        assert!(p.json && p.more == 0);
        assert_eq!(p.text, "{\n  \"a\": [\n    1,\n    2\n  ]\n}");
        let cut = payload(r#"{"a":"0123456789012345678901234567890123456789"}"#, 20);
        assert_eq!(cut.text.len(), 20);
        assert!(cut.more > 0);
        let plain = payload("not json", 3);
        assert_eq!(
            (plain.text.as_str(), plain.more, plain.json),
            ("not", 5, false)
        );
    }
}
