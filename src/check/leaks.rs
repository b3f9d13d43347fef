//! Seed 004's leaks, as warnings (AGX7xx): tool output JSON repeated inside assistant text, and
//! reasoning text repeated as answer text.

use std::collections::HashMap;

use serde_json::Value;

use super::ev::Ev;
use super::Ctx;

const CAP: usize = 256 * 1024;

#[derive(Default)]
pub struct Leaks {
    /// Tool outputs of the run that look like JSON (toolCallId, text).
    tool_outputs: Vec<(String, String)>,
    reasoning: String,
    text: HashMap<String, String>,
}

fn push_capped(buf: &mut String, s: &str) {
    if buf.len() + s.len() <= CAP {
        buf.push_str(s);
    }
}

impl Leaks {
    pub fn feed(&mut self, ev: &Ev<'_>, ctx: &mut Ctx) {
        let t = ev.t();
        let st = |k: &str| ev.get(k).and_then(Value::as_str).unwrap_or("");
        match t {
            "RUN_STARTED" => *self = Leaks::default(),
            "TOOL_CALL_RESULT" => {
                if let Some(c) = ev.get("content").and_then(Value::as_str) {
                    let c = c.trim();
                    if c.len() >= 8
                        && (c.starts_with('{') || c.starts_with('['))
                        && self.tool_outputs.len() < 256
                    {
                        self.tool_outputs
                            .push((st("toolCallId").to_string(), c.to_string()));
                    }
                }
            }
            "REASONING_MESSAGE_CONTENT" => push_capped(&mut self.reasoning, st("delta")),
            "TEXT_MESSAGE_START" => {
                self.text.insert(st("messageId").to_string(), String::new());
            }
            "TEXT_MESSAGE_CONTENT" => {
                if let Some(buf) = self.text.get_mut(st("messageId")) {
                    push_capped(buf, st("delta"));
                }
            }
            "TEXT_MESSAGE_END" => {
                let id = st("messageId").to_string();
                let Some(text) = self.text.remove(&id) else {
                    return;
                };
                for (tc, out) in &self.tool_outputs {
                    if text.contains(out.as_str()) {
                        ctx.report(
                            "AGX701",
                            vec![id.clone(), tc.clone()],
                            format!(
                                "text message '{id}' repeats the JSON output of tool call '{tc}'"
                            ),
                        );
                        break;
                    }
                }
                let answer = text.trim();
                let reasoning = self.reasoning.trim();
                if answer.chars().count() >= 20
                    && reasoning.chars().count() >= 20
                    && (reasoning.contains(answer) || answer.contains(reasoning))
                {
                    ctx.report(
                        "AGX702",
                        vec![id.clone()],
                        format!("text message '{id}' repeats reasoning text of the same run"),
                    );
                }
            }
            _ => {}
        }
    }
}
