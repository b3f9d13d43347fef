//! Per-thread replay state: which recorded run a thread gets next, and which interrupt ids it
//! must answer first.

use std::sync::{Arc, Mutex, PoisonError};

use indexmap::IndexMap;

use super::store::Conversation;

/// RUN_ERROR codes of refused requests.
pub const RESUME_MISMATCH: &str = "RESUME_MISMATCH";
pub const CONVERSATION_ENDED: &str = "CONVERSATION_ENDED";

/// What a request gets: the index of the recorded run, or a RUN_ERROR's code and message
/// (the thread's state unchanged).
pub type Admission = Result<usize, (&'static str, String)>;

#[derive(Debug, Clone, Default)]
struct Session {
    next: usize,
    pending: Vec<String>,
    /// Held by the thread's streams in progress: the thread is streaming while other
    /// holders exist.
    live: Arc<()>,
}

/// Held by a stream while it is served: its thread is not forgotten meanwhile if any other
/// thread can be.
pub type ThreadLease = Arc<()>;

/// Thread states of every conversation, keyed by (conversation, threadId). Bounded: past
/// `capacity` threads the least recently used one with no stream in progress is forgotten
/// (the least recently used of all if every one streams).
pub struct Sessions {
    map: Mutex<IndexMap<(String, String), Session>>,
    capacity: usize,
}

impl Sessions {
    pub fn new(capacity: usize) -> Self {
        Sessions {
            map: Mutex::new(IndexMap::new()),
            capacity: capacity.max(1),
        }
    }

    /// Decides what a request on `thread` answering `resume_ids` gets, and advances the thread
    /// when it gets a run (when its request is admitted, not when the stream completes); the
    /// lease is for the stream that answers it.
    pub fn admit(
        &self,
        conv: &Conversation,
        thread: &str,
        resume_ids: &[String],
    ) -> (Admission, ThreadLease) {
        let mut map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
        let key = (conv.name.clone(), thread.to_string());
        let mut session = map.shift_remove(&key).unwrap_or_default();
        let admission = decide(conv, thread, &session, resume_ids);
        if let Ok(i) = admission {
            session.next = i + 1;
            session.pending = conv.runs[i].interrupts.clone();
        }
        while map.len() >= self.capacity {
            let idle = map
                .values()
                .position(|s| Arc::strong_count(&s.live) == 1)
                .unwrap_or(0);
            map.shift_remove_index(idle);
        }
        let lease = session.live.clone();
        map.insert(key, session);
        (admission, lease)
    }

    /// How many threads are remembered.
    pub(crate) fn len(&self) -> usize {
        self.map.lock().map(|m| m.len()).unwrap_or(0)
    }
}

fn decide(conv: &Conversation, thread: &str, s: &Session, resume_ids: &[String]) -> Admission {
    let total = conv.runs.len();
    let plural = |n: usize, one, many| if n == 1 { one } else { many };
    if s.next >= total {
        let message = format!(
            "The recorded conversation '{}' has {} and thread '{thread}' has \
             replayed {}. Start a new thread (a new threadId) to replay it from the start.",
            conv.name,
            crate::text::count(total, "run"),
            plural(total, "it", "all of them")
        );
        return Err((CONVERSATION_ENDED, message));
    }
    let not_in = |ids: &[String], of: &[String]| -> Vec<String> {
        ids.iter().filter(|i| !of.contains(i)).cloned().collect()
    };
    let (missing, unknown) = (
        not_in(&s.pending, resume_ids),
        not_in(resume_ids, &s.pending),
    );
    if missing.is_empty() && unknown.is_empty() {
        return Ok(s.next);
    }
    let mut message = if s.pending.is_empty() {
        let answers = quote(&unknown);
        format!("Thread '{thread}' has no pending interrupt, but resume[] answers {answers}")
    } else {
        format!(
            "Thread '{thread}' is paused at {} {} of recorded run {} of '{}'",
            plural(s.pending.len(), "interrupt", "interrupts"),
            quote(&s.pending),
            s.next,
            conv.name
        )
    };
    if !missing.is_empty() {
        message += &format!("; resume[] does not answer: {}", quote(&missing));
    }
    // With no pending interrupt, every id is unknown (said above).
    if !unknown.is_empty() && !s.pending.is_empty() {
        let ids = plural(unknown.len(), "id", "ids");
        message += &format!(
            "; resume[] names unknown interrupt {ids}: {}",
            quote(&unknown)
        );
    }
    message.push_str(
        ". Send resume[] with one entry per pending interrupt id, as the recording requires.",
    );
    Err((RESUME_MISMATCH, message))
}

/// `'a', 'b'` (never called with no id).
fn quote(ids: &[String]) -> String {
    format!("'{}'", ids.join("', '"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv() -> Conversation {
        Conversation {
            name: "c".into(),
            files: vec![],
            runs: crate::serve::store::tests::interrupt_then_resume(),
            bad_lines: None,
        }
    }

    fn refused(a: Admission) -> (&'static str, String) {
        a.expect_err("a refusal")
    }

    #[test]
    fn ids_are_quoted_one_by_one() {
        assert_eq!(quote(&["i1".into()]), "'i1'");
        assert_eq!(quote(&["i1".into(), "i2".into()]), "'i1', 'i2'");
    }

    #[test]
    fn evicts_the_oldest_thread_with_no_stream_in_progress() {
        let c = conv();
        let s = Sessions::new(2);
        let (_, streaming) = s.admit(&c, "a", &[]);
        let (_, finished) = s.admit(&c, "b", &[]);
        drop(finished);
        let _ = s.admit(&c, "c", &[]);
        assert_eq!(s.len(), 2);
        // "a" (older, still streaming) is kept; "b" (finished) was forgotten.
        assert_eq!(refused(s.admit(&c, "a", &[]).0).0, RESUME_MISMATCH);
        drop(streaming);
        assert_eq!(s.admit(&c, "b", &[]).0, Ok(0));
    }
}
