//! Content leaks an answer-only front end shows, as warnings (AGX7xx): tool output JSON repeated inside assistant text, and
//! reasoning text repeated as answer text.

use std::collections::HashMap;

use super::ev::Ev;
use super::strict::id_hash;
use super::Ctx;
use crate::agui::EventType;

const CAP: usize = 256 * 1024;

#[derive(Default)]
pub struct Leaks {
    /// Tool outputs of the run that look like JSON (toolCallId, text).
    tool_outputs: Vec<(String, String)>,
    reasoning: String,
    /// Open text messages: id hash ([`id_hash`]) → text so far.
    text: HashMap<u64, String, foldhash::fast::RandomState>,
    /// The buffer of the last message ended, emptied: the next one's (no allocation per
    /// message).
    spare: String,
}

/// `s` added to `buf` when the two fit in `cap` bytes (text past that is not kept).
pub(super) fn push_capped(buf: &mut String, s: &str, cap: usize) {
    if buf.len() + s.len() <= cap {
        buf.push_str(s);
    }
}

impl Leaks {
    pub fn feed(&mut self, ev: &Ev<'_>, ctx: &mut Ctx) {
        let st = |k: &str| ev.s(k).unwrap_or("");
        match ev.kind {
            Some(EventType::RunStarted) => {
                // Emptied, the buffers kept: no allocation per run.
                self.tool_outputs.clear();
                self.reasoning.clear();
                self.text.clear();
            }
            Some(EventType::ToolCallResult) => {
                let c = st("content").trim();
                if c.len() >= 8
                    && (c.starts_with('{') || c.starts_with('['))
                    && self.tool_outputs.len() < 256
                {
                    let call = st("toolCallId").to_string();
                    self.tool_outputs.push((call, c.to_string()));
                }
            }
            Some(EventType::ReasoningMessageContent) => {
                push_capped(&mut self.reasoning, st("delta"), CAP)
            }
            Some(EventType::TextMessageStart) => {
                let buf = std::mem::take(&mut self.spare);
                self.text.insert(id_hash(st("messageId")), buf);
            }
            Some(EventType::TextMessageContent) => {
                if let Some(buf) = self.text.get_mut(&id_hash(st("messageId"))) {
                    push_capped(buf, st("delta"), CAP);
                }
            }
            Some(EventType::TextMessageEnd) => {
                let id = st("messageId");
                let Some(text) = self.text.remove(&id_hash(id)) else {
                    return;
                };
                // Lengths first: a needle longer than its haystack is never in it, and
                // searching still prepares the needle (a cost per byte of it).
                for (tc, out) in &self.tool_outputs {
                    if out.len() <= text.len() && text.contains(out.as_str()) {
                        let msg = format!(
                            "text message '{id}' repeats the JSON output of tool call '{tc}'"
                        );
                        ctx.report("AGX701", vec![id.to_string(), tc.clone()], msg);
                        break;
                    }
                }
                let answer = text.trim();
                let reasoning = self.reasoning.trim();
                // At least 20 characters each (the 20th found, not every one counted).
                if answer.chars().nth(19).is_some()
                    && reasoning.chars().nth(19).is_some()
                    && (answer.len() <= reasoning.len() && reasoning.contains(answer)
                        || reasoning.len() <= answer.len() && answer.contains(reasoning))
                {
                    let msg = format!("text message '{id}' repeats reasoning text of the same run");
                    ctx.report("AGX702", vec![id.to_string()], msg);
                }
                self.spare = text;
                self.spare.clear();
            }
            _ => {}
        }
    }
}
