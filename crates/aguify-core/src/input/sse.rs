//! SSE framing (WHATWG event-stream rules): a blank line ends a frame; `data:` lines are joined
//! with `\n`; `event:` names the frame; `id:`/`retry:`/`:`-comments carry nothing to map.
//! Bare CR line ends are accepted, as the spec (not the AG-UI JS client) allows.
//!
//! Every physical (LF-ended) line is counted in one frame's `lines`, so they sum to the file's
//! line count; of the frames a bare-CR line holds, the first counts it, later ones count 0.

use std::collections::VecDeque;
use std::sync::Arc;

use super::{parse_json, Disposition, Frame, Origin, Record};
use crate::error::{BadLine, Reason};

#[derive(Default)]
pub struct SseFramer {
    /// The most bytes of `data` a frame may hold (`--max-line-bytes`; 0: no bound).
    max_bytes: usize,
    frame: Partial,
    /// The file is LangGraph.js `streamEvents(…, {version: "v3", encoding: "text/event-stream"})`
    /// ([`SseFramer::bare_v3_envelope`]); `None` until a frame tells.
    bare_v3: Option<bool>,
}

/// The frame being read.
#[derive(Default)]
struct Partial {
    /// Physical lines read since the last dispatch.
    lines: u64,
    /// First physical line of the frame (comments included).
    first_line: Option<u64>,
    /// First line holding a field (not a comment): where messages point.
    field_line: Option<u64>,
    event: Option<String>,
    /// The data joined by `\n`, or `Err` with its length once it went over `max_bytes` (its
    /// text dropped: the frame is reported and skipped).
    data: Option<Result<String, usize>>,
    /// The start of the first line that is not an SSE field (e.g. JSON without `data:`).
    stray: Option<String>,
}

impl SseFramer {
    pub fn new(max_bytes: usize) -> Self {
        SseFramer {
            max_bytes,
            ..SseFramer::default()
        }
    }

    /// Appends one `data:` value to the frame, or counts it when the frame is over its bound.
    fn push_data(&mut self, value: &str) {
        let (data, max) = (&mut self.frame.data, self.max_bytes);
        let before = data
            .as_ref()
            .map(|d| d.as_ref().map_or_else(|n| *n, String::len));
        let joined = before.map_or(0, |n| n + 1) + value.len();
        match data {
            Some(Ok(d)) if max == 0 || joined <= max => {
                d.push('\n');
                d.push_str(value);
            }
            None if max == 0 || joined <= max => *data = Some(Ok(value.to_string())),
            _ => *data = Some(Err(joined)),
        }
    }

    pub fn push_line(
        &mut self,
        text: &str,
        number: u64,
        file: &Arc<str>,
        out: &mut VecDeque<Frame>,
    ) {
        self.frame.lines += 1;
        // A physical line may hold several logical lines when the file uses bare CR.
        for logical in text.split('\r') {
            if logical.is_empty() {
                out.extend(self.dispatch(file, number));
                continue;
            }
            self.frame.first_line.get_or_insert(number);
            let (field, value) = match logical.split_once(':') {
                Some(("", _)) => continue, // comment
                Some((field, v)) => (field, v.strip_prefix(' ').unwrap_or(v)),
                None => (logical, ""),
            };
            self.frame.field_line.get_or_insert(number);
            match field {
                "data" => self.push_data(value),
                "event" => self.frame.event = Some(value.to_string()),
                "id" | "retry" => {}
                // Unknown fields carry nothing to map; the first is named if the frame has no data.
                _ if self.frame.stray.is_none() => {
                    let cut = |(i, _): (usize, char)| format!("{}…", &logical[..i]);
                    let at = logical.char_indices().nth(40);
                    self.frame.stray = Some(at.map_or_else(|| logical.into(), cut));
                }
                _ => {}
            }
        }
    }

    /// Flushes a final frame that had no trailing blank line.
    pub fn finish(&mut self, file: &Arc<str>) -> Option<Frame> {
        self.dispatch(file, 0)
    }

    fn dispatch(&mut self, file: &Arc<str>, at_line: u64) -> Option<Frame> {
        let f = std::mem::take(&mut self.frame);
        let (lines, event) = (f.lines, f.event);
        // Messages point at the first field (the first line of a frame of comments only).
        let origin = Origin::at(file, f.field_line.or(f.first_line).unwrap_or(at_line));
        let body = match (f.first_line, f.data, f.stray) {
            // Only the blank separator line itself (nothing to count when a bare-CR line
            // already gave its count to an earlier frame).
            (None, ..) if lines == 0 => return None,
            (None, ..) => Err(Disposition::Ignored("SSE frame separator")),
            (_, Some(Err(bytes)), _) => {
                let bad = super::lines::too_long("SSE frame's data is", bytes, self.max_bytes);
                Err(Disposition::Bad(bad))
            }
            (_, None, Some(stray)) => {
                let message = format!(
                    "SSE frame without a `data:` field (found `{stray}`): expected `data: <JSON>` \
                     lines, each frame ended by a blank line"
                );
                Err(Disposition::Bad(BadLine::new(Reason::NotJson, message)))
            }
            (_, None, None) => Err(Disposition::Ignored(
                "SSE frame without data (comment, event, id or retry only)",
            )),
            (_, Some(Ok(data)), _) if data.trim().is_empty() => {
                let message = "SSE frame with empty `data:`: expected a JSON object";
                Err(Disposition::Bad(BadLine::new(Reason::NotJson, message)))
            }
            (_, Some(Ok(data)), _) => {
                let data = self.bare_v3_envelope(event.as_deref(), data);
                let parse = |d: &str| parse_json(d, true);
                let read = Record::read(origin.clone(), lines, event, data.into(), parse);
                let bad = |b: BadLine| BadLine::new(b.reason, format!("SSE data: {b}"));
                read.map(Box::new).map_err(|b| Disposition::Bad(bad(b)))
            }
        };
        Some(Frame {
            origin,
            lines,
            body,
        })
    }

    /// The v3 event of a frame of LangGraph.js's v3 event stream, as the envelope the v3
    /// reader reads (`{"type":"event","method":M,"params":{"namespace":[…],"data":D}}`): the
    /// frame names the method and the namespace (`event: messages|chat:<id>`), the data is the
    /// event's `params.data`; there is no `seq` and no timestamp. Whether a file is of this
    /// form its first readable `lifecycle`, `messages` or `tools` frame tells
    /// ([`tells_bare_v3`]); its `error` frames keep their own shape. Any other frame, and data
    /// that is no JSON (reported as it is), is returned unchanged, as is a frame without a
    /// name.
    fn bare_v3_envelope(&mut self, name: Option<&str>, data: String) -> String {
        let mut parts = name.unwrap_or_default().split('|');
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
    if data.trim_start().starts_with('[') {
        return Some(false);
    }
    let h = serde_json::from_str::<Head>(data).ok()?;
    Some(h.event.is_some_and(|e| e.is_string()) && h.kind.is_none_or(|k| k != "event"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The frames of `input`, whose frames hold at most `max_bytes` of data (0: no bound).
    fn frames(input: &str, max_bytes: usize) -> Vec<Frame> {
        let file: Arc<str> = Arc::from("t.sse");
        let mut f = SseFramer::new(max_bytes);
        let mut out = VecDeque::new();
        for (i, l) in input.split('\n').enumerate() {
            f.push_line(l, i as u64 + 1, &file, &mut out);
        }
        out.extend(f.finish(&file));
        out.into_iter().collect()
    }

    fn records(frames: &[Frame]) -> Vec<&Record> {
        frames
            .iter()
            .filter_map(|f| f.body.as_deref().ok())
            .collect()
    }

    /// Each frame as `record|bad|ignored LINE/LINES`, a bad one with its message.
    fn shapes(frames: &[Frame]) -> Vec<String> {
        let shape = |f: &Frame| match &f.body {
            Ok(r) => format!("record {}/{}", r.origin.line, r.lines),
            Err(Disposition::Bad(bad)) => format!("bad {}/{}: {bad}", f.origin.line, f.lines),
            Err(_) => format!("ignored {}/{}", f.origin.line, f.lines),
        };
        frames.iter().map(shape).collect()
    }

    #[test]
    fn joins_multiline_data_and_keeps_event_name() {
        let got = frames(": hi\nevent: values\ndata: {\"a\":\ndata: 1}\nid: 3\n\n", 0);
        assert_eq!(shapes(&got), ["record 2/6", "ignored 7/1"]);
        assert_eq!(records(&got)[0].sse_event.as_deref(), Some("values"));
        assert_eq!(records(&got)[0].value()["a"], 1);
        // The last frame is kept without a blank line after it.
        assert_eq!(shapes(&frames("data: {\"a\":1}", 0)), ["record 1/1"]);
        let got = frames("event: values\n{\"a\":1}\n\n", 0);
        assert!(shapes(&got)[0].contains("without a `data:` field"));
    }

    /// Bare CR ends lines too: two frames on one physical line.
    #[test]
    fn every_line_is_accounted_once() {
        let input =
            ": c\nevent: values\ndata: {\"a\":1}\n\n\n\ndata: {\"a\":2}\r\rdata: {\"a\":3}\r\r";
        let got = frames(input, 0);
        let lines: u64 = got.iter().map(|f| f.lines).sum();
        assert_eq!(lines, input.split('\n').count() as u64);
        let values: Vec<&serde_json::Value> =
            records(&got).iter().map(|r| &r.value()["a"]).collect();
        assert_eq!(values, [1, 2, 3]);
    }

    /// LangGraph.js's v3 event stream: the frame names the method and namespace, the data is
    /// `params.data`; the record is the v3 event of the envelope it stands for.
    #[test]
    fn bare_v3_frames_are_read_as_v3_events() {
        let got = frames(
            concat!(
                "event: lifecycle\ndata: {\"event\":\"running\",\"graph_name\":\"root\"}\n\n",
                "event: messages|a:1|b:2\ndata: {\"event\":\"message-start\",\"id\":\"m\"}\n\n",
                "event: values\ndata: {\"messages\":[]}\n\n",
                "event: error\ndata: {\"message\":\"Error: boom\"}\n\n",
                "event: values\ndata: {\"messages\":\n\n",
            ),
            0,
        );
        let recs = records(&got);
        let methods: Vec<Option<&str>> = recs
            .iter()
            .map(|r| r.v3.as_ref().map(|e| e.method.as_ref()))
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
        let bad: Vec<String> = shapes(&got)
            .into_iter()
            .filter(|s| s.starts_with("bad"))
            .collect();
        assert_eq!(bad.len(), 1, "{got:?}");
        assert!(
            bad[0].starts_with("bad 13/3: SSE data: truncated JSON"),
            "{bad:?}"
        );
    }

    /// Frames of other forms are not taken for it: the platform's v3 frames hold the whole
    /// envelope, `graph.stream`'s `messages` frames a `[chunk, metadata]` tuple.
    #[test]
    fn other_forms_stay_as_they_are() {
        let platform = frames(
            concat!(
                "event: lifecycle\n",
                "data: {\"type\":\"event\",\"seq\":1,\"method\":\"lifecycle\",\"params\":{\"namespace\":[],\"data\":{\"event\":\"running\"}}}\n\n",
            ),
            0,
        );
        let Some(Ok(r)) = platform.first().map(|f| &f.body) else {
            panic!("{platform:?}")
        };
        assert_eq!(r.v3.as_ref().and_then(|e| e.seq.clone()), Some(1.into()));
        let modes = frames(
            concat!(
                "event: messages|research:1\ndata: [{\"content\":\"a\",\"type\":\"ai\"},{}]\n\n",
                "event: updates\ndata: {\"agent\":{}}\n\n",
            ),
            0,
        );
        let recs = records(&modes);
        assert_eq!(recs.len(), 2);
        for r in recs {
            assert!(r.v3.is_none(), "{:?}", r.sse_event);
        }
    }

    /// A frame whose `data:` lines together pass the bound is skipped and reported at its
    /// first field line, its lines still counted; the frames around it are read.
    #[test]
    fn a_frame_over_the_bound_is_skipped_and_the_rest_flows() {
        let big = format!("data: [{}\ndata: 0]\n\n", "0,".repeat(10));
        let input = format!("data: {{\"a\":1}}\n\nevent: x\n{big}data: {{\"a\":2}}\n\n");
        let got = frames(&input, 20);
        assert_eq!(
            shapes(&got),
            [
                "record 1/2",
                "bad 3/4: SSE frame's data is 24 bytes, over the --max-line-bytes limit of 20 \
                 bytes; skipped",
                "record 7/2",
                "ignored 9/1",
            ],
        );
        // Within the bound (a frame of exactly 20 bytes) it is read.
        let got = frames("data: [0,0,0,0,0,0,0\ndata: ,0,0]\n\n", 20);
        assert_eq!(shapes(&got), ["record 1/3", "ignored 4/1"]);
    }
}
