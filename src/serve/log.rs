//! The request log: one line per request when its response ends (a stream when its last
//! frame is out or the client leaves): method, path, status, duration, and the thread, run and
//! outcome of a POST or the code of a refusal.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use bytes::Bytes;
use http_body::{Body as HttpBody, Frame, SizeHint};
use tokio_util::sync::CancellationToken;

use crate::text::printable_cut;

/// Characters of a request's path (or id, or header) a log line keeps; the rest is counted.
pub const LOG_FIELD_CHARS: usize = 200;

/// The end of a response's log line (a response extension): the thread, run and outcome of
/// a POST, or the code of a refusal (and a hint).
#[derive(Debug, Clone)]
pub struct LogNote(pub String);

/// The middleware: logs through `log` when the response body is dropped (hyper drops it once
/// it has ended), noting a response that ended while `shutdown` was cancelled.
pub async fn requests(
    log: fn(&str),
    shutdown: CancellationToken,
    req: Request,
    next: Next,
) -> Response {
    let start = Instant::now();
    let path = printable_cut(req.uri().path(), LOG_FIELD_CHARS);
    let head = format!("{} {path}", req.method());
    let resp = next.run(req).await;
    let line = format!("{head} {}", resp.status().as_u16());
    let tail = resp
        .extensions()
        .get::<LogNote>()
        .map_or(String::new(), |n| n.0.clone());
    let (parts, body) = resp.into_parts();
    let body = Logged {
        inner: body,
        line,
        tail,
        start,
        log,
        shutdown,
        ended: false,
    };
    Response::from_parts(parts, Body::new(body))
}

struct Logged {
    inner: Body,
    line: String,
    tail: String,
    start: Instant,
    log: fn(&str),
    shutdown: CancellationToken,
    ended: bool,
}

impl HttpBody for Logged {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        self.ended |= matches!(polled, Poll::Ready(None));
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for Logged {
    fn drop(&mut self) {
        // A body hyper never polled to its end because it knew the length (a full JSON
        // answer) is complete when dropped after its data was taken.
        let left = if self.shutdown.is_cancelled() {
            ", server shutting down"
        } else if self.ended || self.inner.is_end_stream() {
            ""
        } else {
            ", client left"
        };
        (self.log)(&format!(
            "{} {}{}{left}",
            self.line,
            duration(self.start.elapsed()),
            self.tail
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
