//! Property tests on the whole pipeline: generated v3 logs whose runs interleave concurrent
//! messages (text, reasoning, tool-call blocks), tool executions, subgraphs, custom events and
//! state, ending every way a run can end (or cut off), convert to a stream where every START
//! has its END before the run's single terminal and nothing follows it; and converting the
//! same input twice gives the same bytes.

#[path = "util/invariants.rs"]
mod invariants;

use aguify::pipeline::{self, Input, Observer, Options};
use aguify::sink::{self, FrameSink, Sink};
use proptest::prelude::*;
use serde_json::{json, Value};

#[derive(Debug, Clone)]
enum Block {
    Text(u8),
    Reasoning(u8),
    ToolCall(u8),
    /// A tool-call block whose id never arrives (the mapper must still announce and end it).
    ToolCallWithoutId(u8),
}

#[derive(Debug, Clone)]
enum Actor {
    /// A model message on its own namespace; `finish: false` leaves it open (a model that
    /// failed mid-stream leaves its message open, docs/inputs.md).
    Message {
        blocks: Vec<Block>,
        finish: bool,
    },
    /// A tool execution: output deltas, then finished / error / nothing.
    Tool {
        deltas: u8,
        end: u8,
    },
    Subgraph {
        complete: bool,
    },
    Custom,
    Values,
}

#[derive(Debug, Clone, Copy)]
enum Terminal {
    Completed,
    Failed,
    ErrorLine,
    Interrupted,
    Cut,
}

#[derive(Debug, Clone)]
struct RunPlan {
    actors: Vec<Actor>,
    order: Vec<u8>,
    terminal: Terminal,
}

fn block() -> impl Strategy<Value = Block> {
    prop_oneof![
        (0u8..3).prop_map(Block::Text),
        (0u8..3).prop_map(Block::Reasoning),
        (0u8..3).prop_map(Block::ToolCall),
        (0u8..3).prop_map(Block::ToolCallWithoutId),
    ]
}

fn actor() -> impl Strategy<Value = Actor> {
    prop_oneof![
        3 => (prop::collection::vec(block(), 1..4), prop::bool::weighted(0.85))
            .prop_map(|(blocks, finish)| Actor::Message { blocks, finish }),
        2 => (0u8..3, 0u8..3).prop_map(|(deltas, end)| Actor::Tool { deltas, end }),
        1 => any::<bool>().prop_map(|complete| Actor::Subgraph { complete }),
        1 => Just(Actor::Custom),
        1 => Just(Actor::Values),
    ]
}

fn terminal() -> impl Strategy<Value = Terminal> {
    prop_oneof![
        4 => Just(Terminal::Completed),
        1 => Just(Terminal::Failed),
        1 => Just(Terminal::ErrorLine),
        1 => Just(Terminal::Interrupted),
        1 => Just(Terminal::Cut),
    ]
}

fn run_plan() -> impl Strategy<Value = RunPlan> {
    (
        prop::collection::vec(actor(), 0..5),
        prop::collection::vec(any::<u8>(), 0..40),
        terminal(),
    )
        .prop_map(|(actors, order, terminal)| RunPlan {
            actors,
            order,
            terminal,
        })
}

/// One v3 event: (method, namespace, data, extra params).
type Ev = (&'static str, Vec<String>, Value, Option<Value>);

fn actor_events(run: usize, i: usize, a: &Actor) -> Vec<Ev> {
    let ns = vec![format!("model:{run}-{i}")];
    let msg = |data: Value| ("messages", ns.clone(), data, None);
    match a {
        Actor::Message { blocks, finish } => {
            let mut evs = vec![msg(
                json!({"event": "message-start", "role": "ai", "id": format!("m{run}-{i}")}),
            )];
            for (b, kind) in blocks.iter().enumerate() {
                let (content, deltas): (Value, Vec<Value>) = match kind {
                    Block::Text(n) => (
                        json!({"type": "text", "text": ""}),
                        (0..*n).map(|k| json!({"type": "text-delta", "text": format!("t{k}")})).collect(),
                    ),
                    Block::Reasoning(n) => (
                        json!({"type": "reasoning", "reasoning": ""}),
                        (0..*n).map(|k| json!({"type": "reasoning-delta", "reasoning": format!("r{k}")})).collect(),
                    ),
                    Block::ToolCallWithoutId(n) => (
                        json!({"type": "tool_call_chunk", "name": "lookup", "args": "{"}),
                        (0..*n).map(|_| json!({"type": "tool-call-delta", "args": "}"})).collect(),
                    ),
                    Block::ToolCall(n) => (
                        json!({"type": "tool_call_chunk", "id": format!("tc{run}-{i}-{b}"), "name": "lookup", "args": ""}),
                        (0..*n).map(|_| json!({"type": "tool-call-delta", "args": "{}"})).collect(),
                    ),
                };
                evs.push(msg(
                    json!({"event": "content-block-start", "index": b, "content": content}),
                ));
                for d in deltas {
                    evs.push(msg(
                        json!({"event": "content-block-delta", "index": b, "delta": d}),
                    ));
                }
            }
            if *finish {
                for (b, kind) in blocks.iter().enumerate() {
                    let content = match kind {
                        Block::Text(_) => json!({"type": "text"}),
                        Block::Reasoning(_) => json!({"type": "reasoning"}),
                        Block::ToolCall(_) => {
                            json!({"type": "tool_call", "id": format!("tc{run}-{i}-{b}"), "name": "lookup", "args": {}})
                        }
                        Block::ToolCallWithoutId(_) => {
                            json!({"type": "tool_call", "name": "lookup", "args": {}})
                        }
                    };
                    evs.push(msg(
                        json!({"event": "content-block-finish", "index": b, "content": content}),
                    ));
                }
                evs.push(msg(json!({"event": "message-finish", "usage": {"input_tokens": 1, "output_tokens": 2}})));
            }
            evs
        }
        Actor::Tool { deltas, end } => {
            let id = format!("call{run}-{i}");
            let tool = |data: Value| ("tools", ns.clone(), data, None);
            let mut evs = vec![tool(
                json!({"event": "tool-started", "tool_call_id": id, "tool_name": "lookup", "input": {"q": 1}}),
            )];
            for k in 0..*deltas {
                evs.push(tool(json!({"event": "tool-output-delta", "tool_call_id": id, "delta": format!("o{k}")})));
            }
            match end {
                0 => evs.push(tool(json!({"event": "tool-finished", "tool_call_id": id, "output": {"type": "tool", "content": "ok", "tool_call_id": id}}))),
                1 => evs.push(tool(json!({"event": "tool-error", "tool_call_id": id, "message": "failed"}))),
                _ => {}
            }
            evs
        }
        Actor::Subgraph { complete } => {
            let sub = vec![format!("sub:{run}-{i}")];
            let mut evs = vec![(
                "lifecycle",
                sub.clone(),
                json!({"event": "started", "graph_name": "sub"}),
                None,
            )];
            if *complete {
                evs.push(("lifecycle", sub, json!({"event": "completed"}), None));
            }
            evs
        }
        Actor::Custom => vec![(
            "custom",
            vec![],
            json!({"name": "progress", "payload": {"i": i}}),
            None,
        )],
        Actor::Values => vec![(
            "values",
            vec![],
            json!({"messages": [{"type": "human", "content": "hi", "id": "h1"}]}),
            None,
        )],
    }
}

/// A v3 log (NDJSON) for the runs, one after another, each interleaving its actors.
fn v3_log(runs: &[RunPlan]) -> String {
    let mut lines = vec![];
    let mut seq = 0u64;
    let mut line = |method: &str, ns: &[String], data: Value, extra: Option<Value>| {
        seq += 1;
        let mut params = json!({"namespace": ns, "timestamp": 1_000 + seq, "data": data});
        if let Some(Value::Object(x)) = extra {
            for (k, v) in x {
                params[k] = v;
            }
        }
        json!({"type": "event", "seq": seq, "method": method, "params": params}).to_string()
    };
    for (r, plan) in runs.iter().enumerate() {
        lines.push(line(
            "lifecycle",
            &[],
            json!({"event": "running", "graph_name": "g"}),
            None,
        ));
        let mut queues: Vec<std::collections::VecDeque<Ev>> = plan
            .actors
            .iter()
            .enumerate()
            .map(|(i, a)| actor_events(r, i, a).into())
            .collect();
        let mut picks = plan
            .order
            .iter()
            .copied()
            .cycle()
            .take(plan.order.len().max(1) * 64);
        loop {
            let live: Vec<usize> = (0..queues.len())
                .filter(|&i| !queues[i].is_empty())
                .collect();
            if live.is_empty() {
                break;
            }
            let pick = picks.next().unwrap_or(0) as usize;
            let q = live[pick % live.len()];
            if let Some((m, ns, d, x)) = queues[q].pop_front() {
                lines.push(line(m, &ns, d, x));
            }
        }
        match plan.terminal {
            Terminal::Completed => {
                lines.push(line("lifecycle", &[], json!({"event": "completed"}), None))
            }
            Terminal::Failed => lines.push(line(
                "lifecycle",
                &[],
                json!({"event": "failed", "error": {"name": "ValueError", "message": "boom"}}),
                None,
            )),
            Terminal::ErrorLine => lines.push(
                json!({"event": "error", "data": {"error": "ValueError", "message": "boom"}})
                    .to_string(),
            ),
            Terminal::Interrupted => {
                lines.push(line(
                    "values",
                    &[],
                    json!({"messages": []}),
                    Some(json!({"interrupts": [{"id": format!("int{r}"), "value": {"type": "approval"}}]})),
                ));
                lines.push(line(
                    "lifecycle",
                    &[],
                    json!({"event": "interrupted"}),
                    None,
                ));
            }
            Terminal::Cut => {}
        }
    }
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

/// Converts to SSE bytes (what `aguify convert` writes) and the events.
fn convert(log: &str) -> (Vec<u8>, Vec<Value>, pipeline::Stats) {
    struct Both<'a> {
        sink: FrameSink<&'a mut Vec<u8>>,
        events: Vec<Value>,
    }
    impl Observer for Both<'_> {
        fn event(
            &mut self,
            ev: &aguify::agui::Event,
            _origin: &aguify::input::Origin,
        ) -> std::io::Result<()> {
            self.events.push(ev.to_value().into_owned());
            self.sink.write_event(ev)
        }
    }
    let mut bytes = vec![];
    let (events, stats) = {
        let mut obs = Both {
            sink: FrameSink::new(sink::Format::Sse, &mut bytes),
            events: vec![],
        };
        let input = Input::from_bytes("gen.ndjson", log.as_bytes().to_vec());
        let stats =
            pipeline::run(vec![input], &Options::default(), &mut obs).expect("in-memory convert");
        obs.sink.flush().expect("flush");
        (std::mem::take(&mut obs.events), stats)
    };
    (bytes, events, stats)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn interleaved_runs_convert_to_a_well_formed_stream(runs in prop::collection::vec(run_plan(), 1..4)) {
        let log = v3_log(&runs);
        let (_, events, stats) = convert(&log);
        prop_assert_eq!(stats.bad, 0, "a valid log has no bad line:\n{}", log);
        prop_assert_eq!(stats.mapped + stats.ignored_total(), stats.lines);
        if let Err(e) = invariants::check_stream(&events) {
            let trace: Vec<String> = events.iter().map(|e| e.to_string()).collect();
            prop_assert!(false, "{}\n--- log\n{}\n--- events\n{}", e, log, trace.join("\n"));
        }
        let runs_started = events.iter().filter(|e| e["type"] == "RUN_STARTED").count();
        prop_assert!(runs_started >= 1);
    }

    #[test]
    fn convert_is_deterministic(runs in prop::collection::vec(run_plan(), 1..3)) {
        let log = v3_log(&runs);
        let (a, _, _) = convert(&log);
        let (b, _, _) = convert(&log);
        prop_assert!(
            a == b,
            "two conversions of one input differ:\n{}\n--- first\n{}\n--- second\n{}",
            log,
            String::from_utf8_lossy(&a),
            String::from_utf8_lossy(&b)
        );
    }
}
