//! SSE framing (WHATWG event-stream rules): a blank line ends a frame; `data:` lines are joined
//! with `\n`; `event:` names the frame; `id:`/`retry:`/`:`-comments carry nothing to map.
//! Bare CR line ends are accepted, as the spec (not the AG-UI JS client) allows.
//!
//! Accounting: every physical (LF-ended) line belongs to exactly one frame, so the frames'
//! `lines` sum to the file's line count. With bare CR line ends one physical line may hold many
//! frames: the first frame dispatched from it counts it, later ones count 0 lines.

use std::collections::VecDeque;
use std::sync::Arc;

use super::{describe_json_error, parse_json, Frame, Origin, Record};

#[derive(Default)]
pub struct SseFramer {
    /// The most bytes of `data` a frame may hold (`--max-line-bytes`; 0: no bound).
    max_bytes: usize,
    /// The frame's data went over `max_bytes`: how many bytes it has (joined by `\n`), its
    /// text dropped; the frame is reported and skipped.
    oversized: Option<usize>,
    /// Physical lines read since the last dispatch.
    lines: u64,
    /// First physical line of the frame (comments included).
    first_line: Option<u64>,
    /// First line holding a field (not a comment): where messages point.
    field_line: Option<u64>,
    event: Option<String>,
    data: Option<String>,
    /// The first line of the frame that is not an SSE field (e.g. a JSON line without `data:`).
    stray: Option<String>,
}

/// Field names the event-stream format defines.
fn is_known_field(name: &str) -> bool {
    matches!(name, "data" | "event" | "id" | "retry")
}

/// A short, char-safe excerpt of a line for messages.
fn excerpt(s: &str) -> String {
    const MAX: usize = 40;
    match s.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

impl SseFramer {
    /// A framer whose frames hold at most `max_bytes` of data (their `data:` values joined):
    /// a longer frame is skipped and reported, its data not kept.
    pub fn new(max_bytes: usize) -> Self {
        SseFramer {
            max_bytes,
            ..SseFramer::default()
        }
    }

    /// Appends one `data:` value to the frame, or counts it when the frame is over its bound.
    fn push_data(&mut self, value: &str) {
        let joined = match (&self.data, self.oversized) {
            (_, Some(n)) => n + 1 + value.len(),
            (Some(d), None) => d.len() + 1 + value.len(),
            (None, None) => value.len(),
        };
        if self.oversized.is_some() || (self.max_bytes > 0 && joined > self.max_bytes) {
            self.data = None;
            self.oversized = Some(joined);
            return;
        }
        match &mut self.data {
            Some(d) => {
                d.push('\n');
                d.push_str(value);
            }
            None => self.data = Some(value.to_string()),
        }
    }

    pub fn push_line(
        &mut self,
        text: &str,
        number: u64,
        file: &Arc<str>,
        out: &mut VecDeque<Frame>,
    ) {
        self.lines += 1;
        // A physical line may hold several logical lines when the file uses bare CR.
        for logical in text.split('\r') {
            if logical.is_empty() {
                if let Some(f) = self.dispatch(file, number) {
                    out.push_back(f);
                }
                continue;
            }
            self.first_line.get_or_insert(number);
            let (field, value) = match logical.find(':') {
                Some(0) => continue, // comment
                Some(i) => {
                    let v = &logical[i + 1..];
                    (&logical[..i], v.strip_prefix(' ').unwrap_or(v))
                }
                None => (logical, ""),
            };
            self.field_line.get_or_insert(number);
            match field {
                "data" => self.push_data(value),
                "event" => self.event = Some(value.to_string()),
                f if !is_known_field(f) && self.stray.is_none() => {
                    self.stray = Some(excerpt(logical));
                }
                _ => {} // id, retry and further unknown fields carry nothing to map
            }
        }
    }

    /// Flushes a final frame that had no trailing blank line.
    pub fn finish(&mut self, file: &Arc<str>) -> Option<Frame> {
        self.dispatch(file, 0)
    }

    fn dispatch(&mut self, file: &Arc<str>, at_line: u64) -> Option<Frame> {
        let lines = std::mem::take(&mut self.lines);
        let first = self.first_line.take();
        let field_line = self.field_line.take();
        let event = self.event.take();
        let data = self.data.take();
        let stray = self.stray.take();
        let oversized = self.oversized.take();
        let Some(first) = first else {
            // Only the blank separator line itself (nothing to account when a bare-CR line
            // already gave its count to an earlier frame).
            return (lines > 0).then(|| Frame::Ignored {
                origin: Origin {
                    file: file.clone(),
                    line: at_line,
                },
                lines,
                reason: "SSE frame separator",
            });
        };
        let origin = Origin {
            file: file.clone(),
            line: field_line.unwrap_or(first),
        };
        if let Some(bytes) = oversized {
            return Some(Frame::Bad {
                origin,
                lines,
                message: format!(
                    "SSE frame's data is {bytes} bytes, over the --max-line-bytes limit of {} \
                     bytes; skipped",
                    self.max_bytes
                ),
            });
        }
        let Some(data) = data else {
            if let Some(stray) = stray {
                return Some(Frame::Bad {
                    origin,
                    lines,
                    message: format!(
                        "SSE frame without a `data:` field (found `{stray}`): expected \
                         `data: <JSON>` lines, each frame ended by a blank line"
                    ),
                });
            }
            return Some(Frame::Ignored {
                origin,
                lines,
                reason: "SSE frame without data (comment, event, id or retry only)",
            });
        };
        if data.trim().is_empty() {
            return Some(Frame::Bad {
                origin,
                lines,
                message: "SSE frame with empty `data:`: expected a JSON object".into(),
            });
        }
        Some(
            match Record::read(origin.clone(), lines, event, data.into(), parse_frame_data) {
                Ok(rec) => Frame::Record(Box::new(rec)),
                Err(message) => Frame::Bad {
                    origin,
                    lines,
                    message: format!("SSE data: {message}"),
                },
            },
        )
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
        frames_within(input, 0)
    }

    fn frames_within(input: &str, max_bytes: usize) -> Vec<Frame> {
        let file: Arc<str> = Arc::from("t.sse");
        let mut f = SseFramer::new(max_bytes);
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
        assert_eq!(recs[0].value()["a"], 1);
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

    #[test]
    fn every_line_is_accounted_once() {
        let input =
            ": c\nevent: values\ndata: {\"a\":1}\n\n\n\ndata: {\"a\":2}\r\rdata: {\"a\":3}\r\r";
        let got = frames(input);
        let lines: u64 = got
            .iter()
            .map(|f| match f {
                Frame::Record(r) => r.lines,
                Frame::Ignored { lines, .. } | Frame::Bad { lines, .. } => *lines,
            })
            .sum();
        assert_eq!(lines, input.split('\n').count() as u64);
        let n = got.iter().filter(|f| matches!(f, Frame::Record(_))).count();
        assert_eq!(n, 3);
    }

    #[test]
    fn json_without_data_prefix_is_bad() {
        let got = frames("event: values\n{\"a\":1}\n\n");
        assert!(
            matches!(&got[0], Frame::Bad { message, .. } if message.contains("without a `data:` field"))
        );
    }

    /// A frame whose `data:` lines together pass the bound is skipped and reported at its
    /// first field line, its lines still counted; the frames around it are read.
    #[test]
    fn a_frame_over_the_bound_is_skipped_and_the_rest_flows() {
        let big = format!("data: [{}\ndata: 0]\n\n", "0,".repeat(10));
        let input = format!("data: {{\"a\":1}}\n\nevent: x\n{big}data: {{\"a\":2}}\n\n");
        let got = frames_within(&input, 20);
        let kinds: Vec<String> = got
            .iter()
            .map(|f| match f {
                Frame::Record(r) => format!("record {}", r.origin.line),
                Frame::Bad {
                    origin,
                    lines,
                    message,
                } => format!("bad {}/{lines}: {message}", origin.line),
                Frame::Ignored { .. } => "ignored".into(),
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "record 1",
                "bad 3/4: SSE frame's data is 24 bytes, over the --max-line-bytes limit of 20 \
                 bytes; skipped",
                "record 7",
                "ignored",
            ],
        );
        // Within the bound (a frame of exactly 20 bytes) it is read.
        let got = frames_within("data: [0,0,0,0,0,0,0\ndata: ,0,0]\n\n", 20);
        assert!(
            matches!(&got[..], [Frame::Record(_), Frame::Ignored { .. }]),
            "{}",
            got.len()
        );
    }
}
