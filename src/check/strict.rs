//! What the official client lets through but front ends break on (AGX3xx). Runs on the
//! chunk-expanded stream, across runs (ids must stay unique within a stream).

use std::collections::{HashMap, HashSet};

use super::ev::Ev;
use super::Ctx;
use crate::agui::EventType;

#[derive(Default)]
pub struct Strict {
    events: u64,
    run: Option<(Option<String>, Option<String>)>,
    terminal: bool,
    finished: bool,
    /// Text messages, then reasoning messages: the open ones (id hash → id, listed when
    /// reasoning is left open), and those that ended. Ended messages and tool calls are kept as
    /// 64-bit hashes of their ids (the reuse rules need identity only), the last
    /// [`Closed::WINDOW`] of each kind: a stream of millions of messages is checked in flat
    /// memory, as the verifier keeps its ids (`check::verifier`); an id reused after that many
    /// others is not reported.
    messages: [(HashMap<u64, String, IdHasher>, Closed); 2],
    open_spans: HashSet<String, IdHasher>,
    /// Tool calls ended (the last [`Closed::WINDOW`]): a result for a call that is neither
    /// open nor here was never started, unless calls were forgotten.
    ended_tools: Closed,
    /// Tool calls started and not ended, with their arguments so far.
    args: HashMap<u64, String, IdHasher>,
    /// Tool calls with a TOOL_CALL_RESULT (the last [`Closed::WINDOW`]).
    answered: Closed,
    /// Tool calls of the messages a MESSAGES_SNAPSHOT or RUN_STARTED.input hands the client
    /// (the last [`Closed::WINDOW`]): a result may answer one without a TOOL_CALL_START.
    handed_tools: Closed,
    /// The run's active sub-agents, with the tool call each runs under.
    subagents: HashMap<String, Option<String>, IdHasher>,
    /// The run has sent SUBAGENT_STARTED: it declares its sub-agents (a stream that only
    /// attributes events, with no SUBAGENT_*, is valid and not judged by AGX312).
    declares_subagents: bool,
}

/// The last 65,536 id hashes of ended items of one kind.
type Closed = crate::recent::Recent<u64, (), { 1 << 16 }, IdHasher>;
/// The hasher of the sets and maps of ids or id hashes.
type IdHasher = foldhash::fast::RandomState;

/// A fixed-seed foldhash of an id (deterministic across runs; a third of SipHash's cost).
/// Two of n distinct ids collide with probability ≈ n²/2⁶⁵: ~3·10⁻⁶ for the 10⁷ ids of a
/// multi-gigabyte log.
pub fn id_hash(id: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::with_seed(0).hash_one(id)
}

const ARGS_CAP: usize = 1 << 20;

/// "message a is" / "messages a, b are": the ids of `noun` still open.
fn still(noun: &str, ids: &[String]) -> String {
    match ids {
        [one] => format!("{noun} {one} is"),
        _ => format!("{noun}s {} are", ids.join(", ")),
    }
}

impl Strict {
    pub fn feed(&mut self, ev: &Ev<'_>, ctx: &mut Ctx) {
        self.events += 1;
        self.subagent_rules(ev, ctx);
        // The calls of the messages a client is handed are its calls: a result may answer
        // one (a resume run answers a call its snapshot lists).
        for m in ev.messages().into_iter().flatten() {
            for id in m.call_ids() {
                self.handed_tools.insert(id_hash(id), ());
            }
        }
        match ev.kind {
            Some(EventType::RunStarted | EventType::RunFinished | EventType::RunError) => {
                self.run_event(ev, ctx)
            }
            Some(k @ (EventType::TextMessageStart | EventType::ReasoningMessageStart)) => {
                let reasoning = k == EventType::ReasoningMessageStart;
                let id = ev.s("messageId").unwrap_or("");
                let h = id_hash(id);
                let (open, ended) = &mut self.messages[usize::from(reasoning)];
                if ended.get(&h).is_some() && !open.contains_key(&h) {
                    let noun = if reasoning { "reasoning" } else { "text" };
                    let msg = format!("messageId '{id}' is reused for a second {noun} message");
                    ctx.report("AGX303", vec![id.to_string()], msg);
                }
                // Only open reasoning messages are listed (AGX310): a text message's id is not kept.
                open.insert(h, if reasoning { id } else { "" }.to_string());
            }
            Some(k @ (EventType::TextMessageEnd | EventType::ReasoningMessageEnd)) => {
                let h = id_hash(ev.s("messageId").unwrap_or(""));
                let (open, ended) =
                    &mut self.messages[usize::from(k == EventType::ReasoningMessageEnd)];
                open.remove(&h);
                ended.insert(h, ());
            }
            Some(EventType::ReasoningStart) => {
                self.open_spans
                    .insert(ev.s("messageId").unwrap_or("").to_string());
            }
            Some(EventType::ReasoningEnd) => {
                let id = ev.s("messageId").unwrap_or("");
                if !self.messages[1].0.is_empty() {
                    let open = still("reasoning message", &sorted(self.messages[1].0.values()));
                    let msg = format!("reasoning span '{id}' ends while {open} still open");
                    ctx.report("AGX310", vec![id.to_string()], msg);
                }
                self.open_spans.remove(id);
            }
            Some(
                EventType::ToolCallStart
                | EventType::ToolCallArgs
                | EventType::ToolCallEnd
                | EventType::ToolCallResult,
            ) => self.tool_event(ev, ctx),
            _ => {}
        }
    }

    /// RUN_STARTED, RUN_FINISHED and RUN_ERROR (AGX302, AGX304, AGX310).
    fn run_event(&mut self, ev: &Ev<'_>, ctx: &mut Ctx) {
        let (thread, run) = (ev.s("threadId"), ev.s("runId"));
        match ev.kind {
            Some(EventType::RunStarted) => {
                self.subagents.clear();
                self.declares_subagents = false;
                self.run = Some((thread.map(Into::into), run.map(Into::into)));
                (self.terminal, self.finished) = (false, false);
            }
            Some(EventType::RunFinished) => {
                if let Some((th, r)) = &self.run {
                    let differs = |a: Option<&str>, b: &Option<String>| {
                        a.is_some() && b.is_some() && a != b.as_deref()
                    };
                    if differs(thread, th) || differs(run, r) {
                        let ids = thread.into_iter().chain(run).map(String::from).collect();
                        let (t, r0) = (thread.unwrap_or(""), run.unwrap_or(""));
                        let (th, r) = (th.as_deref().unwrap_or(""), r.as_deref().unwrap_or(""));
                        let msg = format!("RUN_FINISHED names thread '{t}' run '{r0}' but the run started as thread '{th}' run '{r}'");
                        ctx.report("AGX304", ids, msg);
                    }
                }
                self.reasoning_left_open(ctx, EventType::RunFinished.as_str());
                (self.terminal, self.finished) = (true, true);
            }
            _ => {
                if self.finished {
                    let msg = "RUN_ERROR after the run already finished with RUN_FINISHED";
                    ctx.report("AGX302", self.run_id(), msg);
                }
                self.terminal = true;
            }
        }
    }

    /// Tool call `h` was started or handed the client by a snapshot (or, once calls were
    /// forgotten, may have been): AGX305 and AGX313.
    fn call_known(&self, h: u64) -> bool {
        let started = self.args.contains_key(&h) || self.ended_tools.get(&h).is_some();
        started || self.handed_tools.get(&h).is_some() || self.ended_tools.forgot()
    }

    /// TOOL_CALL_* (AGX305–AGX307, AGX309).
    fn tool_event(&mut self, ev: &Ev<'_>, ctx: &mut Ctx) {
        let id = ev.s("toolCallId").unwrap_or("");
        let h = id_hash(id);
        let ids = || vec![id.to_string()];
        match ev.kind {
            Some(EventType::ToolCallStart) => {
                if self.ended_tools.get(&h).is_some() && !self.args.contains_key(&h) {
                    let msg = format!(
                        "tool call '{id}' is started again after it ended (double-fired tool call)"
                    );
                    ctx.report("AGX309", ids(), msg);
                }
                self.args.insert(h, String::new());
            }
            Some(EventType::ToolCallArgs) => {
                if let (Some(buf), Some(d)) = (self.args.get_mut(&h), ev.s("delta")) {
                    super::leaks::push_capped(buf, d, ARGS_CAP);
                }
            }
            Some(EventType::ToolCallEnd) => {
                let Some(args) = self.args.remove(&h) else {
                    return;
                };
                self.ended_tools.insert(h, ());
                let valid = serde_json::from_str::<serde::de::IgnoredAny>(&args).is_ok();
                if !args.trim().is_empty() && !valid {
                    let args = crate::text::cut(&args, 61);
                    let msg = format!("the arguments of tool call '{id}' are not valid JSON once concatenated: {args}");
                    ctx.report("AGX307", ids(), msg);
                }
            }
            Some(EventType::ToolCallResult) => {
                let (rule, why) = if self.args.contains_key(&h) {
                    ("AGX306", " before its TOOL_CALL_END")
                } else if !self.call_known(h) {
                    ("AGX305", ", which was never started")
                } else {
                    return;
                };
                let msg = format!("TOOL_CALL_RESULT for tool call '{id}'{why}");
                ctx.report(rule, ids(), msg);
            }
            _ => {}
        }
    }

    /// AGX312–AGX314: sub-agents against the tool calls they run under.
    fn subagent_rules(&mut self, ev: &Ev<'_>, ctx: &mut Ctx) {
        let sub = ev.sub;
        match ev.kind {
            Some(EventType::SubagentStarted) => {
                let parent = ev.s("parentToolCallId");
                if let Some(call) = parent {
                    let h = id_hash(call);
                    // A call a snapshot handed the client is linked too (a resume run
                    // continues the sub-agent of a call its snapshot lists).
                    let why = match (self.call_known(h), self.answered.get(&h).is_some()) {
                        (false, _) => Some("was never started"),
                        (true, true) => Some("already has its TOOL_CALL_RESULT"),
                        (true, false) => None,
                    };
                    if let Some(why) = why {
                        let sub = sub.unwrap_or("");
                        let msg = format!(
                            "sub-agent '{sub}' starts under tool call '{call}', which {why}"
                        );
                        ctx.report("AGX313", vec![sub.to_string(), call.to_string()], msg);
                    }
                }
                if let Some(id) = sub {
                    self.subagents
                        .insert(id.to_string(), parent.map(str::to_string));
                }
                self.declares_subagents = true;
            }
            Some(EventType::SubagentFinished | EventType::SubagentError) => {
                if let Some(id) = sub {
                    self.subagents.remove(id);
                }
            }
            _ => {
                let undeclared = |id: &&str| !self.subagents.contains_key(*id);
                if let Some(id) = sub.filter(|_| self.declares_subagents).filter(undeclared) {
                    let t = ev.s("type").unwrap_or("the event");
                    let msg = format!("{t} is attributed to sub-agent '{id}', which is not active (no SUBAGENT_STARTED, or already finished)");
                    ctx.report("AGX312", vec![id.to_string()], msg);
                }
                if ev.kind == Some(EventType::ToolCallResult) {
                    let call = ev.s("toolCallId").unwrap_or("");
                    self.answered.insert(id_hash(call), ());
                    let running = sorted(
                        (self.subagents.iter())
                            .filter(|(_, p)| p.as_deref() == Some(call))
                            .map(|(id, _)| id),
                    );
                    if !running.is_empty() {
                        let running = still("sub-agent", &running);
                        let msg = format!("TOOL_CALL_RESULT for tool call '{call}' while its {running} still active");
                        ctx.report("AGX314", vec![call.to_string()], msg);
                    }
                }
            }
        }
    }

    fn reasoning_left_open(&mut self, ctx: &mut Ctx, at: &str) {
        let open = sorted(self.open_spans.iter().chain(self.messages[1].0.values()));
        if open.is_empty() {
            return;
        }
        let msg = format!("reasoning left open at {at}: {}", open.join(", "));
        ctx.report("AGX310", open, msg);
        self.open_spans.clear();
        self.messages[1].0.clear();
    }

    /// The run's id, when it has one (the ids of a run-level finding).
    fn run_id(&self) -> Vec<String> {
        self.run.iter().filter_map(|r| r.1.clone()).collect()
    }

    /// End of the stream.
    pub fn finish(&mut self, ctx: &mut Ctx) {
        if self.events > 0 && !self.terminal {
            let msg = "the stream ends without RUN_FINISHED or RUN_ERROR";
            ctx.report("AGX301", self.run_id(), msg);
        }
        if !self.terminal {
            self.reasoning_left_open(ctx, "the end of the stream");
        }
    }
}

/// `ids` sorted, each once.
fn sorted<'a>(ids: impl Iterator<Item = &'a String>) -> Vec<String> {
    let ids: std::collections::BTreeSet<&String> = ids.collect();
    ids.into_iter().cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Config;
    use serde_json::{json, Value};

    fn feed(s: &mut Strict, ctx: &mut Ctx, v: Value) {
        s.feed(&Ev::of(&v), ctx);
    }

    fn rules(ctx: &mut Ctx) -> Vec<&'static str> {
        ctx.out.drain(..).map(|f| f.rule).collect()
    }

    /// Joined args are JSON as `JSON.parse` reads it: a lone surrogate escape and a number
    /// past a double's range are; a cut-off object is not (AGX307).
    #[test]
    fn args_are_json_as_json_parse_reads_it() {
        for (args, want) in [
            (r#"{"a":"\ud800"}"#, vec![]),
            ("[1e400]", vec![]),
            (r#"{"a":"#, vec!["AGX307"]),
        ] {
            let mut s = Strict::default();
            let mut ctx = Ctx::new("t".into(), Config::default());
            for ev in [
                json!({"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"f"}),
                json!({"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":args}),
                json!({"type":"TOOL_CALL_END","toolCallId":"c"}),
            ] {
                feed(&mut s, &mut ctx, ev);
            }
            assert_eq!(rules(&mut ctx), want, "{args}");
        }
    }

    /// Ended message and tool call ids are kept for the last 65,536 of each kind (issue 26
    /// item 11: a stream of millions of messages grew by every id): reuse within the window is
    /// reported, a result for a call forgotten is not called "never started".
    #[test]
    fn ended_ids_are_a_window() {
        let mut s = Strict::default();
        let mut ctx = Ctx::new("t".into(), Config::default());
        let n = Closed::WINDOW + 10;
        for i in 0..n {
            let (m, t) = (format!("m{i}"), format!("t{i}"));
            feed(
                &mut s,
                &mut ctx,
                json!({"type":"TEXT_MESSAGE_START","messageId":m,"role":"assistant"}),
            );
            feed(
                &mut s,
                &mut ctx,
                json!({"type":"TEXT_MESSAGE_END","messageId":m}),
            );
            feed(
                &mut s,
                &mut ctx,
                json!({"type":"TOOL_CALL_START","toolCallId":t,"toolCallName":"f"}),
            );
            feed(
                &mut s,
                &mut ctx,
                json!({"type":"TOOL_CALL_END","toolCallId":t}),
            );
        }
        assert_eq!(rules(&mut ctx), Vec::<&str>::new());
        assert_eq!(s.messages[0].1.len(), Closed::WINDOW);
        assert_eq!(s.ended_tools.len(), Closed::WINDOW);
        assert!(s.messages[0].0.is_empty() && s.args.is_empty());
        let last = format!("m{}", n - 1);
        feed(
            &mut s,
            &mut ctx,
            json!({"type":"TEXT_MESSAGE_START","messageId":last,"role":"assistant"}),
        );
        feed(
            &mut s,
            &mut ctx,
            json!({"type":"TOOL_CALL_START","toolCallId":format!("t{}", n - 1),"toolCallName":"f"}),
        );
        assert_eq!(rules(&mut ctx), ["AGX303", "AGX309"]);
        feed(
            &mut s,
            &mut ctx,
            json!({"type":"TOOL_CALL_RESULT","toolCallId":"t0","messageId":"r","content":"x"}),
        );
        assert_eq!(
            rules(&mut ctx),
            Vec::<&str>::new(),
            "t0 is forgotten, not unknown"
        );
        // While nothing is forgotten, a result for a call never started is AGX305.
        let mut s = Strict::default();
        feed(
            &mut s,
            &mut ctx,
            json!({"type":"TOOL_CALL_RESULT","toolCallId":"t0","messageId":"r","content":"x"}),
        );
        assert_eq!(rules(&mut ctx), ["AGX305"]);
        // A call a snapshot handed the client may be answered without a start.
        let mut s = Strict::default();
        for ev in [
            json!({"type":"MESSAGES_SNAPSHOT","messages":[{"id":"a","role":"assistant",
                "toolCalls":[{"id":"t0","type":"function","function":{"name":"f","arguments":"{}"}}]}]}),
            json!({"type":"TOOL_CALL_RESULT","toolCallId":"t0","messageId":"r","content":"x"}),
        ] {
            feed(&mut s, &mut ctx, ev);
        }
        assert_eq!(rules(&mut ctx), Vec::<&str>::new());
    }
}
