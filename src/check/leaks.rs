//! Seed 004's leaks, as warnings (AGX7xx): tool output JSON repeated inside assistant text, and
//! reasoning text repeated as answer text.

use std::collections::HashMap;

use super::ev::Ev;
use super::Ctx;
use crate::agui::EventType;

const CAP: usize = 256 * 1024;

#[derive(Default)]
pub struct Leaks {
    /// Tool outputs of the run that look like JSON (toolCallId, text).
    tool_outputs: Vec<(String, String)>,
    reasoning: String,
    text: Texts,
}

/// Open text messages (id → text so far): a map that scans its first few entries (a run rarely
/// has more than one or two open at once; hashing each id cost more than the rest of the rule)
/// and hashes the others.
#[derive(Default)]
struct Texts {
    few: Vec<(String, String)>,
    many: HashMap<String, String>,
}

impl Texts {
    const FEW: usize = 16;

    fn insert(&mut self, id: String, text: String) {
        if let Some(slot) = self.get_mut(&id) {
            *slot = text;
        } else if self.few.len() < Self::FEW {
            self.few.push((id, text));
        } else {
            self.many.insert(id, text);
        }
    }

    fn get_mut(&mut self, id: &str) -> Option<&mut String> {
        match self.few.iter().position(|(k, _)| k == id) {
            Some(i) => Some(&mut self.few[i].1),
            None if self.many.is_empty() => None,
            None => self.many.get_mut(id),
        }
    }

    fn remove(&mut self, id: &str) -> Option<String> {
        match self.few.iter().position(|(k, _)| k == id) {
            Some(i) => Some(self.few.swap_remove(i).1),
            None if self.many.is_empty() => None,
            None => self.many.remove(id),
        }
    }
}

fn push_capped(buf: &mut String, s: &str) {
    if buf.len() + s.len() <= CAP {
        buf.push_str(s);
    }
}

impl Leaks {
    pub fn feed(&mut self, ev: &Ev<'_>, ctx: &mut Ctx) {
        let st = |k: &str| ev.s(k).unwrap_or("");
        match ev.kind {
            Some(EventType::RunStarted) => *self = Leaks::default(),
            Some(EventType::ToolCallResult) => {
                if let Some(c) = ev.s("content") {
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
            Some(EventType::ReasoningMessageContent) => {
                push_capped(&mut self.reasoning, st("delta"))
            }
            Some(EventType::TextMessageStart) => {
                self.text.insert(st("messageId").to_string(), String::new());
            }
            Some(EventType::TextMessageContent) => {
                if let Some(buf) = self.text.get_mut(st("messageId")) {
                    push_capped(buf, st("delta"));
                }
            }
            Some(EventType::TextMessageEnd) => {
                let id = st("messageId");
                let Some(text) = self.text.remove(id) else {
                    return;
                };
                // Lengths first: a needle longer than its haystack is never in it, and
                // searching still prepares the needle (a cost per byte of it).
                for (tc, out) in &self.tool_outputs {
                    if out.len() <= text.len() && text.contains(out.as_str()) {
                        ctx.report(
                            "AGX701",
                            vec![id.to_string(), tc.clone()],
                            format!(
                                "text message '{id}' repeats the JSON output of tool call '{tc}'"
                            ),
                        );
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
                    ctx.report(
                        "AGX702",
                        vec![id.to_string()],
                        format!("text message '{id}' repeats reasoning text of the same run"),
                    );
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod texts_tests {
    use super::Texts;
    use std::collections::HashMap;

    #[test]
    fn texts_is_a_map() {
        let mut t = Texts::default();
        let mut m: HashMap<String, String> = HashMap::new();
        // Interleaved inserts, re-inserts, appends and removes across the scanned/hashed split.
        for step in 0..400u32 {
            let id = format!("m{}", (step * 7) % 37);
            match step % 5 {
                0 | 1 => {
                    t.insert(id.clone(), format!("s{step}"));
                    m.insert(id.clone(), format!("s{step}"));
                }
                2 | 3 => {
                    if let Some(b) = t.get_mut(&id) {
                        b.push('x');
                    }
                    if let Some(b) = m.get_mut(&id) {
                        b.push('x');
                    }
                }
                _ => assert_eq!(t.remove(&id), m.remove(&id), "{id}"),
            }
            for k in 0..37 {
                let k = format!("m{k}");
                assert_eq!(t.get_mut(&k).cloned(), m.get(&k).cloned(), "{k}");
            }
        }
    }
}
