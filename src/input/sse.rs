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
    /// The file is LangGraph.js `streamEvents(…, {version: "v3", encoding: "text/event-stream"})`:
    /// frames `event: <method>[|<namespace>]` whose data is the event's `params.data`
    /// ([`SseFramer::bare_v3_envelope`]); `None` until a frame tells.
    bare_v3: Option<bool>,
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
                "data" => match &mut self.data {
                    Some(d) => {
                        d.push('\n');
                        d.push_str(value);
                    }
                    None => self.data = Some(value.to_string()),
                },
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
        let data = match event.as_deref() {
            Some(name) => self.bare_v3_envelope(name, data),
            None => data,
        };
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

impl SseFramer {
    /// The v3 event of a frame of LangGraph.js's v3 event stream, as the envelope the v3
    /// reader reads (`{"type":"event","method":M,"params":{"namespace":[…],"data":D}}`): the
    /// frame names the method and the namespace (`event: messages|chat:<id>`), the data is the
    /// event's `params.data`; there is no `seq` and no timestamp. Whether a file is of this
    /// form its first readable `lifecycle`, `messages` or `tools` frame tells
    /// ([`tells_bare_v3`]); its `error` frames keep their own shape. Any other frame, and data
    /// that is no JSON (reported as it is), is returned unchanged.
    fn bare_v3_envelope(&mut self, name: &str, data: String) -> String {
        let mut parts = name.split('|');
        let method = parts.next().unwrap_or_default();
        if method == "error" || method.is_empty() {
            return data;
        }
        if self.bare_v3.is_none() {
            self.bare_v3 = tells_bare_v3(method, &data);
        }
        if self.bare_v3 != Some(true)
            || serde_json::from_str::<serde::de::IgnoredAny>(&data).is_err()
        {
            return data;
        }
        let namespace: Vec<&str> = parts.collect();
        format!(
            r#"{{"type":"event","method":{},"params":{{"namespace":{},"data":{data}}}}}"#,
            serde_json::Value::from(method),
            serde_json::Value::from(namespace),
        )
    }
}

/// Whether a file whose frame of `method` holds `data` is LangGraph.js's v3 event stream:
/// `Some(true)` for a `lifecycle`, `messages` or `tools` event's data (an object with an
/// `event` string), `Some(false)` for such a frame holding anything else (the platform's v3
/// frames hold the whole envelope, `graph.stream`'s `messages` frames `[chunk, metadata]`),
/// `None` for a frame that does not tell (another method, data that is no JSON).
fn tells_bare_v3(method: &str, data: &str) -> Option<bool> {
    #[derive(serde::Deserialize)]
    struct Head {
        #[serde(rename = "type")]
        kind: Option<serde_json::Value>,
        event: Option<serde_json::Value>,
    }
    if !matches!(method, "lifecycle" | "messages" | "tools") {
        return None;
    }
    let data = data.trim_start();
    if data.starts_with(r#"{"type":"event""#) || data.starts_with('[') {
        return Some(false);
    }
    let h = serde_json::from_str::<Head>(data).ok()?;
    Some(h.event.is_some_and(|e| e.is_string()) && h.kind.is_none_or(|k| k != "event"))
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

    /// LangGraph.js's v3 event stream: the frame names the method and namespace, the data is
    /// `params.data`; the record is the v3 event of the envelope it stands for.
    #[test]
    fn bare_v3_frames_are_read_as_v3_events() {
        let got = frames(concat!(
            "event: lifecycle\ndata: {\"event\":\"running\",\"graph_name\":\"root\"}\n\n",
            "event: messages|a:1|b:2\ndata: {\"event\":\"message-start\",\"id\":\"m\"}\n\n",
            "event: values\ndata: {\"messages\":[]}\n\n",
            "event: error\ndata: {\"message\":\"Error: boom\"}\n\n",
            "event: values\ndata: {\"messages\":\n\n",
        ));
        let recs: Vec<&Record> = got
            .iter()
            .filter_map(|f| match f {
                Frame::Record(r) => Some(&**r),
                _ => None,
            })
            .collect();
        let methods: Vec<Option<&str>> = recs
            .iter()
            .map(|r| r.v3.as_ref().map(|e| e.method.as_str()))
            .collect();
        assert_eq!(
            methods,
            [Some("lifecycle"), Some("messages"), Some("values"), None]
        );
        assert_eq!(
            recs[1].v3.as_ref().and_then(|e| e.namespace()),
            Some(&serde_json::json!(["a:1", "b:2"]))
        );
        assert_eq!(recs[1].sse_event.as_deref(), Some("messages|a:1|b:2"));
        // The error frame keeps its shape; data that is no JSON is reported as it is.
        assert_eq!(recs[3].value()["message"], "Error: boom");
        let bad: Vec<&String> = got
            .iter()
            .filter_map(|f| match f {
                Frame::Bad { message, .. } => Some(message),
                _ => None,
            })
            .collect();
        assert_eq!(bad.len(), 1, "{got:?}");
        assert!(bad[0].starts_with("SSE data: truncated JSON"), "{bad:?}");
    }

    /// Frames of other forms are not taken for it: the platform's v3 frames hold the whole
    /// envelope, `graph.stream`'s `messages` frames a `[chunk, metadata]` tuple.
    #[test]
    fn other_forms_stay_as_they_are() {
        let platform = frames(concat!(
            "event: lifecycle\n",
            "data: {\"type\":\"event\",\"seq\":1,\"method\":\"lifecycle\",\"params\":{\"namespace\":[],\"data\":{\"event\":\"running\"}}}\n\n",
        ));
        let Some(Frame::Record(r)) = platform.first() else {
            panic!("{platform:?}")
        };
        assert_eq!(r.v3.as_ref().and_then(|e| e.seq.clone()), Some(1.into()));
        let modes = frames(concat!(
            "event: messages|research:1\ndata: [{\"content\":\"a\",\"type\":\"ai\"},{}]\n\n",
            "event: updates\ndata: {\"agent\":{}}\n\n",
        ));
        let recs: Vec<&Record> = modes
            .iter()
            .filter_map(|f| match f {
                Frame::Record(r) => Some(&**r),
                _ => None,
            })
            .collect();
        assert_eq!(recs.len(), 2);
        for r in recs {
            assert!(r.v3.is_none(), "{:?}", r.sse_event);
        }
    }

    #[test]
    fn json_without_data_prefix_is_bad() {
        let got = frames("event: values\n{\"a\":1}\n\n");
        assert!(
            matches!(&got[0], Frame::Bad { message, .. } if message.contains("without a `data:` field"))
        );
    }
}
