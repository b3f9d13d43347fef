//! One paced SSE response: the events of a run, framed as `convert --to sse` frames, with
//! keep-alive comments while a gap is longer than the keep-alive period.

use std::borrow::Cow;
use std::convert::Infallible;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use bytes::Bytes;
use futures_util::Stream;
use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use super::log::LogLine;
use super::session::ThreadLease;
use crate::agui::{Event, EventType};
use crate::replay::Pacer;
use crate::sink::sse_frame as frame;

/// The SSE comment written on long gaps (ignored by every SSE reader, AG-UI's included).
pub const KEEP_ALIVE: &[u8] = b": keep-alive\n\n";

/// The RUN_ERROR code of a stream cut short by server shutdown.
pub const SERVER_SHUTDOWN: &str = "SERVER_SHUTDOWN";

/// Held by a stream while it is served: the server's count of live streams (a clone of
/// [`super::App`]'s) and the thread's lease; and its request's log line, written when the
/// stream ends (with the request log on).
pub type ActiveGuard = (Arc<()>, ThreadLease, Option<LogLine>);

/// Replaces the recorded thread and run ids with the request's on RUN_STARTED (and its
/// `input`) and RUN_FINISHED. Every other event is served as recorded.
pub fn personalize<'a>(ev: &'a Event, thread_id: &str, run_id: &str) -> Cow<'a, Event> {
    let ends = matches!(
        ev.kind(),
        Some(EventType::RunStarted | EventType::RunFinished)
    );
    // The event as JSON (keys in their order: preserve_order), served as that JSON.
    let Some(Ok(Value::Object(mut o))) = ends.then(|| serde_json::to_value(ev)) else {
        return Cow::Borrowed(ev);
    };
    set_ids(&mut o, thread_id, run_id);
    if let Some(Value::Object(input)) = o.get_mut("input") {
        set_ids(input, thread_id, run_id);
    }
    Cow::Owned(Event::Passthrough(Value::Object(o)))
}

fn set_ids(o: &mut Map<String, Value>, thread_id: &str, run_id: &str) {
    for (k, v) in [("threadId", thread_id), ("runId", run_id)] {
        // `insert` keeps an existing key's position (preserve_order), so the frame's key order
        // stays the recorded one.
        o.insert(k.to_string(), Value::String(v.to_string()));
    }
}

/// Events to serve, each with its SSE frame: encoded the first time a stream sends it, then one
/// `Bytes` shared by every stream (a client that stops reading holds a reference to the frame
/// it waits on, not a copy of it).
pub type Frames = Arc<[(Event, OnceLock<Bytes>)]>;

/// The events of a run, to serve.
pub fn frames(events: Vec<Event>) -> Frames {
    events.into_iter().map(|ev| (ev, OnceLock::new())).collect()
}

/// One response's replay: its events from `next` on, served to the request's thread and run.
pub struct Replay {
    pub frames: Frames,
    /// The next event to send (0 to start).
    pub next: usize,
    pub thread_id: String,
    pub run_id: String,
    pub pacer: Pacer,
    /// At least 1 ms.
    pub keep_alive: Duration,
    /// The rest of the wait before `events[next]`, once computed (`None` to start).
    pub wait: Option<Duration>,
    pub cancel: CancellationToken,
    pub guard: ActiveGuard,
}

impl Replay {
    /// The body stream of the response.
    pub fn into_stream(self) -> impl Stream<Item = Result<Bytes, Infallible>> + Send + 'static {
        futures_util::stream::unfold(self, |mut st| async move {
            let bytes = st.step().await?;
            Some((Ok(bytes), st))
        })
    }

    async fn step(&mut self) -> Option<Bytes> {
        let (ev, encoded) = self.frames.get(self.next)?;
        let wait = *self
            .wait
            .get_or_insert_with(|| self.pacer.delay_for(ev.timestamp()));
        let sleep_for = wait.min(self.keep_alive);
        if !sleep_for.is_zero() {
            tokio::select! {
                _ = tokio::time::sleep(sleep_for) => {}
                _ = self.cancel.cancelled() => return self.shutdown(),
            }
        } else if self.cancel.is_cancelled() {
            return self.shutdown();
        }
        if wait > self.keep_alive {
            self.wait = Some(wait - sleep_for);
            return Some(Bytes::from_static(KEEP_ALIVE));
        }
        self.wait = None;
        self.next += 1;
        Some(match personalize(ev, &self.thread_id, &self.run_id) {
            Cow::Owned(ev) => frame_bytes(&ev),
            Cow::Borrowed(ev) => encoded.get_or_init(|| frame_bytes(ev)).clone(),
        })
    }

    /// Server shutdown: end the run with a RUN_ERROR unless it did not start or already ended
    /// (its terminal event is out).
    fn shutdown(&mut self) -> Option<Bytes> {
        use EventType::{RunError, RunFinished};
        let sent = &self.frames[..self.next];
        let ended = (sent.iter()).any(|(ev, _)| matches!(ev.kind(), Some(RunFinished | RunError)));
        let cut = !sent.is_empty() && !ended;
        self.next = usize::MAX; // the end: nothing more is sent
        let why = "The replay server is shutting down; the recorded run was cut short.";
        cut.then(|| frame_bytes(&run_error(why.into(), SERVER_SHUTDOWN)))
    }
}

/// A RUN_ERROR of the server's own, with `code`.
pub fn run_error(message: String, code: &'static str) -> Event {
    Event::RunError {
        timestamp: None,
        raw_event: None,
        message,
        code: Some(code.into()),
    }
}

impl Drop for Replay {
    /// The request's log line: the stream ended (every frame out), was cut by shutdown, or
    /// its client left.
    fn drop(&mut self) {
        if let Some(line) = &self.guard.2 {
            let ended = self.next >= self.frames.len();
            line.write(ended, self.cancel.is_cancelled());
        }
    }
}

fn frame_bytes(ev: &Event) -> Bytes {
    let mut buf = Vec::with_capacity(256);
    frame(ev, &mut buf);
    Bytes::from(buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A recorded event (typed, or a capture's as it is) keeps its key order.
    #[test]
    fn personalize_keeps_key_order() {
        let ev = json!({"type":"RUN_STARTED","threadId":"t0","runId":"r0","input":{"threadId":"t0","runId":"r0","messages":[]}});
        let typed = ev.clone();
        for ev in [
            Event::Passthrough(ev),
            Event::typed(&Event::Passthrough(typed)).into_owned(),
        ] {
            assert_eq!(
                serde_json::to_string(&personalize(&ev, "T", "R")).expect("json"),
                r#"{"type":"RUN_STARTED","threadId":"T","runId":"R","input":{"threadId":"T","runId":"R","messages":[]}}"#
            );
        }
        let other =
            Event::Passthrough(json!({"type":"TEXT_MESSAGE_START","messageId":"m","threadId":"x"}));
        assert_eq!(personalize(&other, "T", "R").as_ref(), &other);
    }
}
