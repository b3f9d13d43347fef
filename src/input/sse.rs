//! SSE framing (WHATWG event-stream rules): a blank line ends a frame; `data:` lines are joined
//! with `\n`; `event:` names the frame; `id:`/`retry:`/`:`-comments carry nothing to map.
//! Bare CR line ends are accepted, as the spec (not the AG-UI JS client) allows.

use std::collections::VecDeque;
use std::sync::Arc;

use super::{describe_json_error, parse_json, Frame, Origin, Record};

#[derive(Default)]
pub struct SseFramer {
    start_line: Option<u64>,
    lines: u64,
    event: Option<String>,
    data: Option<String>,
}

impl SseFramer {
    pub fn push_line(
        &mut self,
        text: &str,
        number: u64,
        file: &Arc<str>,
        out: &mut VecDeque<Frame>,
    ) {
        // A physical line may hold several logical lines when the file uses bare CR.
        let mut first = true;
        for logical in text.split('\r') {
            if first {
                self.lines += 1;
                first = false;
            }
            if logical.is_empty() {
                if let Some(f) = self.dispatch(file, number) {
                    out.push_back(f);
                }
                continue;
            }
            let (field, value) = match logical.find(':') {
                Some(0) => continue, // comment
                Some(i) => {
                    let v = &logical[i + 1..];
                    (&logical[..i], v.strip_prefix(' ').unwrap_or(v))
                }
                None => (logical, ""),
            };
            self.start_line.get_or_insert(number);
            match field {
                "data" => match &mut self.data {
                    Some(d) => {
                        d.push('\n');
                        d.push_str(value);
                    }
                    None => self.data = Some(value.to_string()),
                },
                "event" => self.event = Some(value.to_string()),
                _ => {} // id, retry and unknown fields carry nothing to map
            }
        }
    }

    /// Flushes a final frame that had no trailing blank line.
    pub fn finish(&mut self, file: &Arc<str>) -> Option<Frame> {
        self.dispatch(file, 0)
    }

    fn dispatch(&mut self, file: &Arc<str>, at_line: u64) -> Option<Frame> {
        let lines = std::mem::take(&mut self.lines);
        let start = self.start_line.take();
        let event = self.event.take();
        let data = self.data.take();
        if lines == 0 && start.is_none() {
            // A second frame on a physical line already counted (bare CR line ends) has
            // lines == 0 but still carries data.
            return None;
        }
        let origin = Origin {
            file: file.clone(),
            line: start.unwrap_or(0),
        };
        let Some(start) = start else {
            // Only the blank separator line itself.
            return Some(Frame::Ignored {
                origin: Origin {
                    file: file.clone(),
                    line: at_line,
                },
                lines,
                reason: "SSE frame separator",
            });
        };
        let origin = Origin {
            line: start,
            ..origin
        };
        let Some(data) = data else {
            return Some(Frame::Ignored {
                origin,
                lines,
                reason: "SSE frame without data (comment, id or retry only)",
            });
        };
        Some(match parse_frame_data(&data) {
            Ok(value) => Frame::Record(Record::new(origin, lines, event, data.into(), value)),
            Err(message) => Frame::Bad {
                origin,
                lines,
                message: format!("SSE data: {message}"),
            },
        })
    }
}

/// SSE data: a JSON object, or an array (platform `messages-tuple` frames carry
/// `[message, metadata]`; the `event:` name says what it is).
fn parse_frame_data(data: &str) -> Result<serde_json::Value, String> {
    if data.trim_start().starts_with('[') {
        return serde_json::from_str(data).map_err(|e| describe_json_error(&e, data));
    }
    parse_json(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &str) -> Vec<Frame> {
        let file: Arc<str> = Arc::from("t.sse");
        let mut f = SseFramer::default();
        let mut out = VecDeque::new();
        for (i, l) in input.split('\n').enumerate() {
            f.push_line(l, i as u64 + 1, &file, &mut out);
        }
        out.extend(f.finish(&file));
        out.into_iter().collect()
    }

    #[test]
    fn joins_multiline_data_and_keeps_event_name() {
        let got = frames(": hi\nevent: values\ndata: {\"a\":\ndata: 1}\nid: 3\n\n");
        let recs: Vec<_> = got
            .iter()
            .filter_map(|f| match f {
                Frame::Record(r) => Some(r),
                _ => None,
            })
            .collect();
        assert_eq!(recs.len(), 1);
        assert_eq!(recs[0].sse_event.as_deref(), Some("values"));
        assert_eq!(recs[0].value["a"], 1);
        assert_eq!(recs[0].origin.line, 2);
    }

    #[test]
    fn bare_cr_frames_split() {
        let got = frames("data: {\"a\":1}\r\rdata: {\"a\":2}\r\r");
        let n = got.iter().filter(|f| matches!(f, Frame::Record(_))).count();
        assert_eq!(n, 2);
    }

    #[test]
    fn last_frame_without_blank_line_is_kept() {
        let got = frames("data: {\"a\":1}");
        assert!(matches!(got.last(), Some(Frame::Record(_))));
    }
}
