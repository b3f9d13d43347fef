//! Transport checks on the bytes of an AG-UI SSE capture, as the JS client reads them
//! (`HttpAgent`'s SSE parser): it splits frames only on `\n\n`, so CRLF or bare-CR framing merges frames
//! into JSON it cannot parse (AGX502); lines without a field name are dropped silently (AGX503).

use serde_json::Value;

use crate::agui::EventType;

/// How the SSE reader's message for a frame with no `data:` line begins: the client skips such
/// a frame, so it is AGX503 (a line the client drops), not an unreadable frame.
pub const NO_DATA_FRAME: &str = "SSE frame without a `data:` field";

/// Whether a record the client reads as an event (an object with a non-empty string `type`)
/// has a type AG-UI 1.0 does not define, such as `runStarted`: the client parses it, then
/// its enforcement drops it (AGX201). A v3 LangGraph event (`"type":"event"` with a `method`)
/// and an SDK stream part (`event`) are other forms, not AG-UI events.
pub fn unknown_agui_type(v: &Value) -> bool {
    let Some(t) = v.get("type").and_then(Value::as_str) else {
        return false;
    };
    let v3 = t == "event" && v.get("method").is_some_and(Value::is_string);
    !t.is_empty() && !v3 && v.get("event").is_none() && EventType::of(t).is_none()
}

/// A transport finding: input line, rule, message.
pub type Framing = (u64, &'static str, &'static str);

/// Checks SSE bytes; returns the findings (at most one AGX502: the client stops there).
pub fn check_sse(bytes: &[u8]) -> Vec<Framing> {
    let mut out = vec![];
    let text = String::from_utf8_lossy(bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut line = 1u64;
    for frame in text.split("\n\n") {
        let start = line;
        line += frame.matches('\n').count() as u64 + 2;
        let mut data: Vec<&str> = vec![];
        // A frame with no `data:` line at all is reported by the reader (NO_DATA_FRAME).
        let has_data = frame.split('\n').any(|l| l.starts_with("data:"));
        for (i, l) in frame.split('\n').enumerate() {
            let field = l.split(':').next().unwrap_or(l);
            if let Some(v) = l.strip_prefix("data:") {
                data.push(v.strip_prefix(' ').unwrap_or(v));
            } else if has_data
                && !l.trim().is_empty()
                && !l.starts_with(':')
                && !matches!(field, "event" | "id" | "retry" | "data")
                && !l.contains('\r')
            {
                let why = "a line without `data:` in an SSE stream: the client drops it silently";
                out.push((start + i as u64, "AGX503", why));
            }
        }
        let d = data.join("\n");
        if !data.is_empty()
            && d.contains('\r')
            && serde_json::from_str::<serde_json::Value>(&d).is_err()
        {
            out.push((start, "AGX502", "the JS client splits SSE frames only on \"\\n\\n\": with CRLF or CR line ends, frames run together into invalid JSON"));
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(s: &str) -> Vec<&'static str> {
        check_sse(s.as_bytes()).into_iter().map(|f| f.1).collect()
    }

    #[test]
    fn lf_framing_is_fine() {
        assert!(rules("data: {\"type\":\"A\"}\n\ndata: {\"type\":\"B\"}\n\n").is_empty());
        assert!(rules("data: {\"type\":\"A\"}\n\ndata: {\"type\":\"B\"}\r\n").is_empty());
    }

    #[test]
    fn crlf_framing_fails() {
        assert_eq!(
            rules("data: {\"type\":\"A\"}\r\n\r\ndata: {\"type\":\"B\"}\r\n\r\n"),
            ["AGX502"]
        );
        // A stray line in a frame with data; a frame without any is the reader's to report.
        assert_eq!(rules("data: {}\n{\"type\":\"X\"}\n\n"), ["AGX503"]);
        assert!(rules("data: {}\n\n{\"type\":\"X\"}\n\n").is_empty());
    }
}
