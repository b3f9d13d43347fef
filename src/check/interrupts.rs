//! Interrupt checks (AGX4xx): the outcome's interrupt list, resumes on the next run of the
//! thread, and (for converted input) whether the raw log and the AG-UI agree that a run stopped
//! at an interrupt.

use std::collections::BTreeMap;

use serde_json::Value;

use super::ev::Ev;
use super::Ctx;
use crate::agui::EventType;
use crate::json::Field;

#[derive(Default)]
pub struct Interrupts {
    /// Pending interrupt ids per thread.
    pending: BTreeMap<String, Vec<String>>,
    thread: String,
    /// Converted input: the raw log stopped at an interrupt in the current run (set by the
    /// checker from the model events).
    pub raw_interrupted: bool,
}

impl Interrupts {
    /// An AG-UI event. `converted` is true when the stream was mapped from a LangGraph log.
    /// A run is judged against the pending interrupts only when its RUN_STARTED echoes its
    /// `input`: the resume is in there.
    pub fn feed(&mut self, ev: &Ev<'_>, converted: bool, ctx: &mut Ctx) {
        match ev.kind {
            Some(EventType::RunStarted) => {
                self.thread = ev.s("threadId").unwrap_or("").to_string();
                let pending = self.pending.remove(&self.thread).unwrap_or_default();
                // No RunAgentInput echo (converted runs never have one; many servers send
                // none): nothing shows what the run resumed, so it cannot be judged.
                let Some(input) = ev.get("input") else {
                    return;
                };
                let resume: Vec<String> = crate::text::list_of(input, "resume")
                    .iter()
                    .filter_map(|r| Some(r.field_str("interruptId")?.to_string()))
                    .collect();
                // The ids of `a` not in `b`.
                let absent = |a: &[String], b: &[String]| -> Vec<String> {
                    a.iter().filter(|x| !b.contains(x)).cloned().collect()
                };
                let (missing, unknown) = (absent(&pending, &resume), absent(&resume, &pending));
                if !missing.is_empty() {
                    let n = crate::text::count(missing.len(), "pending interrupt");
                    let list = missing.join(", ");
                    let msg = format!("Thread has {n} not addressed by resume: {list}");
                    ctx.report("AGX404", missing, msg);
                }
                if !unknown.is_empty() {
                    let list = unknown.join(", ");
                    let msg = format!("resume references unknown interrupt ids: {list}");
                    ctx.report("AGX405", unknown, msg);
                }
            }
            Some(EventType::RunFinished) => {
                let outcome = ev.get2("outcome", "type").and_then(Value::as_str);
                let interrupted = outcome == Some("interrupt");
                if interrupted {
                    let list = ev.get2("outcome", "interrupts").and_then(Value::as_array);
                    let mut ids: Vec<String> = vec![];
                    for it in list.into_iter().flatten() {
                        let id = it.field_str("id").unwrap_or("");
                        let reason = it.field_str("reason");
                        if id.is_empty() || reason == Some("") {
                            let what = if id.is_empty() { "id" } else { "reason" };
                            let msg = format!("interrupt '{id}' has an empty {what}");
                            ctx.report("AGX402", vec![id.to_string()], msg);
                        }
                        if ids.iter().any(|i| i == id) {
                            let msg = format!(
                                "interrupt id '{id}' appears more than once in the outcome"
                            );
                            ctx.report("AGX401", vec![id.to_string()], msg);
                        } else {
                            ids.push(id.to_string());
                        }
                    }
                    self.pending.insert(self.thread.clone(), ids);
                } else {
                    self.pending.remove(&self.thread);
                }
                if converted && interrupted != self.raw_interrupted {
                    let msg = if self.raw_interrupted {
                        "the raw log stopped at an interrupt but the AG-UI run finishes as success"
                    } else {
                        "the AG-UI run finishes with an interrupt outcome but the raw log has no interrupt"
                    };
                    ctx.report("AGX406", vec![], msg);
                }
                self.raw_interrupted = false;
            }
            Some(EventType::RunError) => {
                self.pending.remove(&self.thread);
                self.raw_interrupted = false;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Config, Ctx};
    use serde_json::json;

    fn rules(events: &[serde_json::Value]) -> Vec<&'static str> {
        let mut ctx = Ctx::new("t".into(), Config::default());
        let mut i = Interrupts::default();
        for e in events {
            i.feed(&Ev::of(e), false, &mut ctx);
        }
        ctx.out.iter().map(|f| f.rule).collect()
    }

    #[test]
    fn a_resume_is_judged_only_from_the_input_echo() {
        let start = json!({"type":"RUN_STARTED","threadId":"t","runId":"r1"});
        let interrupted = json!({"type":"RUN_FINISHED","threadId":"t","runId":"r1",
            "outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"approve"}]}});
        // No input echo: nothing says what the next run resumed.
        let bare = json!({"type":"RUN_STARTED","threadId":"t","runId":"r2"});
        assert!(rules(&[start.clone(), interrupted.clone(), bare]).is_empty());
        // An echo without the resume: the client refuses to run it.
        let echo = json!({"type":"RUN_STARTED","threadId":"t","runId":"r2",
            "input":{"threadId":"t","runId":"r2","messages":[]}});
        assert_eq!(rules(&[start, interrupted, echo]), ["AGX404"]);
    }

    /// Typed events (a converted stream) keep their pending interrupts by thread too: a run
    /// of another thread is not asked to resume them.
    #[test]
    fn typed_runs_keep_pending_interrupts_per_thread() {
        let parse = |v: serde_json::Value| -> crate::agui::Event {
            serde_json::from_value(v).expect("an AG-UI event")
        };
        let events = [
            parse(json!({"type":"RUN_STARTED","threadId":"a","runId":"r1"})),
            parse(json!({"type":"RUN_FINISHED","threadId":"a","runId":"r1",
                "outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"approve"}]}})),
            parse(json!({"type":"RUN_STARTED","threadId":"b","runId":"r2",
                "input":{"threadId":"b","runId":"r2","messages":[]}})),
            parse(json!({"type":"RUN_FINISHED","threadId":"b","runId":"r2"})),
            parse(json!({"type":"RUN_STARTED","threadId":"a","runId":"r3",
                "input":{"threadId":"a","runId":"r3","messages":[],
                    "resume":[{"interruptId":"i1","status":"resolved"}]}})),
        ];
        let mut ctx = Ctx::new("t".into(), Config::default());
        let mut i = Interrupts::default();
        for e in &events {
            i.feed(&Ev::of_event(e), false, &mut ctx);
        }
        let rules: Vec<_> = ctx.out.iter().map(|f| f.rule).collect();
        // Thread b owes no resume; thread a's next run resumes i1, still pending there.
        assert!(rules.is_empty(), "{rules:?}");
    }
}
