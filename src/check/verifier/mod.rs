//! The official client pipeline, re-implemented for verdict parity: the compatibility shim
//! (THINKING_* and legacy nulls), `transformChunks` (chunk expansion, AGX130–AGX133) and the 24
//! `verifyEvents` rules (AGX101–AGX124) with the client's exact messages.
//!
//! Like the client, verification stops at the first error of a stream. Chunk expansion goes on,
//! so the later checks ([`super::strict`], [`super::interrupts`]) see the expanded stream.

mod chunks;
mod compat;
mod verify;

use serde_json::Value;

use super::ev::Ev;
use super::Ctx;
use crate::agui::EventType as T;
use chunks::Chunks;
pub use chunks::Expanded;
use compat::Compat;
use verify::Verify;

/// An item the client opens with `start`, continues with `content` and closes with `end`
/// (the three a `chunk` expands into), and how its rules and messages name it.
#[derive(Debug, PartialEq, Eq)]
struct Life {
    start: T,
    /// A reasoning span has no content: its `end`.
    content: T,
    end: T,
    chunk: Option<T>,
    /// The key of its id.
    id: &'static str,
    noun: &'static str,
    /// The owners of its ids ([`verify`]'s buckets).
    owners: usize,
    /// The rules of a start while open, a content and an end while not open; whether the
    /// client's message for an end says "must be sent first".
    rules: [&'static str; 3],
    end_sent_first: bool,
}

/// The items, in [`verify`]'s index order of its open sets.
const LIVES: [Life; 4] = [
    Life {
        start: T::TextMessageStart,
        content: T::TextMessageContent,
        end: T::TextMessageEnd,
        chunk: Some(T::TextMessageChunk),
        id: "messageId",
        noun: "text message",
        owners: verify::MESSAGE,
        rules: ["AGX109", "AGX110", "AGX111"],
        end_sent_first: true,
    },
    Life {
        start: T::ToolCallStart,
        content: T::ToolCallArgs,
        end: T::ToolCallEnd,
        chunk: Some(T::ToolCallChunk),
        id: "toolCallId",
        noun: "tool call",
        owners: verify::TOOL_CALL,
        rules: ["AGX112", "AGX114", "AGX114"],
        end_sent_first: true,
    },
    Life {
        start: T::ReasoningMessageStart,
        content: T::ReasoningMessageContent,
        end: T::ReasoningMessageEnd,
        chunk: Some(T::ReasoningMessageChunk),
        id: "messageId",
        noun: "reasoning message",
        owners: verify::REASONING,
        rules: ["AGX117", "AGX118", "AGX118"],
        end_sent_first: false,
    },
    // One owner for a span and the messages of the same id: the first opener's.
    Life {
        start: T::ReasoningStart,
        content: T::ReasoningEnd,
        end: T::ReasoningEnd,
        chunk: None,
        id: "messageId",
        noun: "reasoning span",
        owners: verify::REASONING,
        rules: ["AGX117", "AGX119", "AGX119"],
        end_sent_first: true,
    },
];

/// The index in [`LIVES`] of the item an event of kind `k` opens, continues or closes.
fn life_of(k: Option<T>) -> Option<usize> {
    LIVES
        .iter()
        .position(|l| [l.start, l.content, l.end].map(Some).contains(&k))
}

/// An owner as the client's messages name it: a subagent run id, or the parent agent.
fn owner_name(o: Option<&str>) -> &str {
    o.unwrap_or("(the parent agent)")
}

/// The client pipeline for one stream: compat → (enforce drop) → transformChunks → verifyEvents.
#[derive(Default)]
pub struct Client {
    compat: Compat,
    chunks: Chunks,
    verify: Verify,
    /// The client stopped at an error: later official findings would be cascades.
    stopped: bool,
}

impl Client {
    /// Feeds one input event; official findings go to `ctx`, the expanded events to `out`
    /// (empty when fed). `base` is `ev`'s [`Ev`]; in `out`, `None` stands for `ev` itself.
    pub fn feed(&mut self, base: &Ev<'_>, ctx: &mut Ctx, out: &mut Vec<Expanded>) {
        let Some(c) = self.compat.apply(base) else {
            return;
        };
        if let Err((rule, msg, id)) = self.chunks.feed(c, base, out) {
            if !self.stopped {
                self.stopped = true;
                ctx.report(rule, id.into_iter().collect(), msg);
            }
            out.clear();
            return;
        }
        for (e, from_chunk) in out.iter() {
            self.verify(&e.as_ref().map_or(*base, Ev::of), *from_chunk, ctx);
        }
    }

    /// `verifyEvents` of one expanded event `e` (`from_chunk`: the start of a stream a chunk
    /// opened), until the first error.
    fn verify(&mut self, e: &Ev<'_>, from_chunk: bool, ctx: &mut Ctx) {
        if self.stopped {
            return;
        }
        if from_chunk {
            if let Some(id) = self.verify.open_already(e) {
                let et = e.t();
                let msg = format!("a chunk continues '{id}', which was opened with an explicit {et}: the client expands it into a second {et}");
                ctx.report("AGX308", vec![id.to_string()], msg);
            }
        }
        if e.kind == Some(T::RunFinished)
            && e.get2("outcome", "type").and_then(Value::as_str) == Some("interrupt")
        {
            let (what, ids): (Vec<&str>, Vec<Vec<String>>) =
                self.verify.open_items().into_iter().unzip();
            if !what.is_empty() {
                let (what, ids) = (what.join(", "), ids.concat());
                let list = ids.join(", ");
                let msg = format!("the run is interrupted while {what} are still open: {list}");
                ctx.report("AGX403", ids, msg);
            }
        }
        if let Err((rule, msg, ids)) = self.verify.feed(e) {
            self.stopped = true;
            ctx.report(rule, ids, msg);
        }
    }
}
