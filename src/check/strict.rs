//! What the official client lets through but front ends break on (AGX3xx). Runs on the
//! chunk-expanded stream, across runs (ids must stay unique within a stream).

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::Ctx;

fn s<'a>(ev: &'a Value, k: &str) -> Option<&'a str> {
    ev.get(k).and_then(Value::as_str)
}

#[derive(PartialEq)]
enum ToolState {
    Open,
    Ended,
}

#[derive(Default)]
pub struct Strict {
    events: u64,
    run: Option<(Option<String>, Option<String>)>,
    terminal: bool,
    finished: bool,
    open_text: HashSet<String>,
    closed_text: HashSet<String>,
    open_reasoning: HashSet<String>,
    closed_reasoning: HashSet<String>,
    open_spans: HashSet<String>,
    tools: HashMap<String, ToolState>,
    args: HashMap<String, String>,
}

const ARGS_CAP: usize = 1 << 20;

impl Strict {
    pub fn feed(&mut self, ev: &Value, ctx: &mut Ctx) {
        self.events += 1;
        let t = s(ev, "type").unwrap_or("");
        match t {
            "RUN_STARTED" => {
                self.run = Some((
                    s(ev, "threadId").map(Into::into),
                    s(ev, "runId").map(Into::into),
                ));
                self.terminal = false;
                self.finished = false;
            }
            "RUN_FINISHED" => {
                if let Some((th, run)) = &self.run {
                    let (fth, frun) = (s(ev, "threadId"), s(ev, "runId"));
                    let differs = |a: Option<&str>, b: &Option<String>| {
                        a.is_some() && b.is_some() && a != b.as_deref()
                    };
                    if differs(fth, th) || differs(frun, run) {
                        ctx.report(
                            "AGX304",
                            [fth, frun].into_iter().flatten().map(String::from).collect(),
                            format!(
                                "RUN_FINISHED names thread '{}' run '{}' but the run started as thread '{}' run '{}'",
                                fth.unwrap_or(""),
                                frun.unwrap_or(""),
                                th.as_deref().unwrap_or(""),
                                run.as_deref().unwrap_or("")
                            ),
                        );
                    }
                }
                self.reasoning_left_open(ctx, "RUN_FINISHED");
                self.terminal = true;
                self.finished = true;
            }
            "RUN_ERROR" => {
                if self.finished {
                    ctx.report(
                        "AGX302",
                        self.run
                            .as_ref()
                            .and_then(|r| r.1.clone())
                            .into_iter()
                            .collect(),
                        "RUN_ERROR after the run already finished with RUN_FINISHED".to_string(),
                    );
                }
                self.terminal = true;
            }
            "TEXT_MESSAGE_START" => {
                let id = s(ev, "messageId").unwrap_or("").to_string();
                if self.closed_text.contains(&id) && !self.open_text.contains(&id) {
                    ctx.report(
                        "AGX303",
                        vec![id.clone()],
                        format!("messageId '{id}' is reused for a second text message"),
                    );
                }
                self.open_text.insert(id);
            }
            "TEXT_MESSAGE_END" => {
                let id = s(ev, "messageId").unwrap_or("").to_string();
                self.open_text.remove(&id);
                self.closed_text.insert(id);
            }
            "REASONING_MESSAGE_START" => {
                let id = s(ev, "messageId").unwrap_or("").to_string();
                if self.closed_reasoning.contains(&id) && !self.open_reasoning.contains(&id) {
                    ctx.report(
                        "AGX303",
                        vec![id.clone()],
                        format!("messageId '{id}' is reused for a second reasoning message"),
                    );
                }
                self.open_reasoning.insert(id);
            }
            "REASONING_MESSAGE_END" => {
                let id = s(ev, "messageId").unwrap_or("").to_string();
                self.open_reasoning.remove(&id);
                self.closed_reasoning.insert(id);
            }
            "REASONING_START" => {
                self.open_spans
                    .insert(s(ev, "messageId").unwrap_or("").to_string());
            }
            "REASONING_END" => {
                let id = s(ev, "messageId").unwrap_or("").to_string();
                if !self.open_reasoning.is_empty() {
                    let mut open: Vec<String> = self.open_reasoning.iter().cloned().collect();
                    open.sort();
                    ctx.report(
                        "AGX310",
                        vec![id.clone()],
                        format!("reasoning span '{id}' ends while reasoning message(s) {} are still open", open.join(", ")),
                    );
                }
                self.open_spans.remove(&id);
            }
            "TOOL_CALL_START" => {
                let id = s(ev, "toolCallId").unwrap_or("").to_string();
                if self.tools.get(&id) == Some(&ToolState::Ended) {
                    ctx.report(
                        "AGX309",
                        vec![id.clone()],
                        format!("tool call '{id}' is started again after it ended (double-fired tool call)"),
                    );
                }
                self.tools.insert(id.clone(), ToolState::Open);
                self.args.insert(id, String::new());
            }
            "TOOL_CALL_ARGS" => {
                let id = s(ev, "toolCallId").unwrap_or("");
                if let (Some(buf), Some(d)) = (self.args.get_mut(id), s(ev, "delta")) {
                    if buf.len() + d.len() <= ARGS_CAP {
                        buf.push_str(d);
                    }
                }
            }
            "TOOL_CALL_END" => {
                let id = s(ev, "toolCallId").unwrap_or("").to_string();
                if let Some(args) = self.args.remove(&id) {
                    if !args.trim().is_empty() && serde_json::from_str::<Value>(&args).is_err() {
                        ctx.report(
                            "AGX307",
                            vec![id.clone()],
                            format!("the arguments of tool call '{id}' are not valid JSON once concatenated: {}", clip(&args)),
                        );
                    }
                }
                if self.tools.contains_key(&id) {
                    self.tools.insert(id, ToolState::Ended);
                }
            }
            "TOOL_CALL_RESULT" => {
                let id = s(ev, "toolCallId").unwrap_or("").to_string();
                match self.tools.get(&id) {
                    None => ctx.report(
                        "AGX305",
                        vec![id.clone()],
                        format!("TOOL_CALL_RESULT for tool call '{id}', which was never started"),
                    ),
                    Some(ToolState::Open) => ctx.report(
                        "AGX306",
                        vec![id.clone()],
                        format!("TOOL_CALL_RESULT for tool call '{id}' before its TOOL_CALL_END"),
                    ),
                    Some(ToolState::Ended) => {}
                }
            }
            _ => {}
        }
    }

    fn reasoning_left_open(&mut self, ctx: &mut Ctx, at: &str) {
        let mut open: Vec<String> = self
            .open_spans
            .iter()
            .chain(self.open_reasoning.iter())
            .cloned()
            .collect();
        if open.is_empty() {
            return;
        }
        open.sort();
        open.dedup();
        ctx.report(
            "AGX310",
            open.clone(),
            format!("reasoning left open at {at}: {}", open.join(", ")),
        );
        self.open_spans.clear();
        self.open_reasoning.clear();
    }

    /// End of the stream.
    pub fn finish(&mut self, ctx: &mut Ctx) {
        if self.events > 0 && !self.terminal {
            ctx.report(
                "AGX301",
                self.run
                    .as_ref()
                    .and_then(|r| r.1.clone())
                    .into_iter()
                    .collect(),
                "the stream ends without RUN_FINISHED or RUN_ERROR".to_string(),
            );
        }
        if !self.terminal {
            self.reasoning_left_open(ctx, "the end of the stream");
        }
    }
}

fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}
