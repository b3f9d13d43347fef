//! The request log: one line per request when its response ends (a stream when its last
//! frame is out or the client leaves: [`LogLine`], written by the stream): method, path,
//! status, duration, and the thread, run and outcome of a POST or the code of a refusal.

use std::time::{Duration, Instant};

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use tokio_util::sync::CancellationToken;

use crate::text::printable_cut;

/// Characters of a request's path (or id, or header) a log line keeps; the rest is counted.
pub const LOG_FIELD_CHARS: usize = 200;

/// Text from a request as a log line or a refusal shows it: escaped, cut to
/// [`LOG_FIELD_CHARS`].
pub fn field(s: &str) -> String {
    printable_cut(s, LOG_FIELD_CHARS).into_owned()
}

/// The end of a refusal's log line (a response extension): its code (and a hint).
#[derive(Debug, Clone)]
pub struct LogNote(pub String);

/// Marks a response whose body is a stream that writes its own line ([`LogLine`]).
#[derive(Debug, Clone)]
pub struct Streamed;

/// The middleware: logs through `log` each response that is not a stream (a whole body,
/// written at once), noting one answered while `shutdown` was cancelled.
pub async fn requests(
    log: fn(&str),
    shutdown: CancellationToken,
    req: Request,
    next: Next,
) -> Response {
    let start = Instant::now();
    let head = format!("{} {}", req.method(), field(req.uri().path()));
    let resp = next.run(req).await;
    if resp.extensions().get::<Streamed>().is_none() {
        let note = resp.extensions().get::<LogNote>();
        let line = LogLine {
            line: format!("{head} {}", resp.status().as_u16()),
            note: note.map_or(String::new(), |n| n.0.clone()),
            start,
            log,
        };
        line.write(true, shutdown.is_cancelled());
    }
    resp
}

/// A response's log line: up to its status, and its note; written when the response ends.
pub struct LogLine {
    pub line: String,
    pub note: String,
    pub start: Instant,
    pub log: fn(&str),
}

impl LogLine {
    /// Writes the line with its duration, its note, and how it ended when not whole (`ended`).
    pub fn write(&self, ended: bool, shutdown: bool) {
        let left = match (shutdown, ended) {
            (true, _) => ", server shutting down",
            (false, true) => "",
            (false, false) => ", client left",
        };
        (self.log)(&format!(
            "{} {}{}{left}",
            self.line,
            duration(self.start.elapsed()),
            self.note
        ));
    }
}

fn duration(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        format!("{:.1} ms", d.as_secs_f64() * 1000.0)
    } else {
        format!("{:.2} s", d.as_secs_f64())
    }
}
