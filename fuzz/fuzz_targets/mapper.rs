//! Arbitrary sequences of model events (what any adapter could produce) → the mapper: never
//! panics, and the AG-UI stream holds the invariants (one terminal per run, every START ended
//! before it, nothing after it). A typed event is checked exactly as its JSON is, and
//! written as `serde_json` writes its JSON.
#![no_main]

#[path = "../../tests/util/invariants.rs"]
mod invariants;

use std::sync::Arc;

use aguify::check::{Checker, Config};
use aguify::input::Origin;
use aguify::mapper::{Compat, MapOptions, Mapper, TextPolicy, ToolSteps};
use aguify::model::{ErrorInfo, InterruptInfo, ModelEvent, Snapshot, ToolResult, Usage};
use aguify::sink::{FrameSink, Format, Sink};
use aguify::wire::state::State;
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

/// A model event over small id pools, so ids collide the way real logs make them collide.
#[derive(Arbitrary, Debug)]
enum Ev {
    RunStart {
        thread: Option<u8>,
        run: Option<u8>,
        messages: bool,
        resume: Option<bool>,
    },
    RunEnd,
    RunFailed {
        code: bool,
    },
    RunIncomplete,
    Interrupt(Vec<u8>),
    StepStart {
        name: u8,
        key: u8,
    },
    StepEnd {
        key: u8,
    },
    MessageStart(u8),
    Text {
        m: u8,
        empty: bool,
    },
    Reasoning {
        m: u8,
        block: u8,
        empty: bool,
    },
    Encrypted {
        m: u8,
        block: u8,
    },
    ToolChunk {
        m: u8,
        index: u8,
        id: Option<u8>,
        name: Option<u8>,
        args: u8,
    },
    MessageEnd {
        m: u8,
        usage: bool,
    },
    ToolStart {
        id: u8,
        name: u8,
        args: bool,
        parent: Option<u8>,
    },
    ToolOutput(u8),
    ToolEnd {
        id: u8,
        named: bool,
        message: Option<u8>,
        error: bool,
    },
    Custom(u8),
    State {
        messages: bool,
        /// Written on a parse thread (`Snapshot::Encoded`).
        encoded: bool,
        answers: Option<u8>,
    },
}

fn id(prefix: &str, n: u8) -> String {
    format!("{prefix}{}", n % 4)
}

fn model(ev: Ev) -> ModelEvent {
    match ev {
        Ev::RunStart {
            thread,
            run,
            messages,
            resume,
        } => ModelEvent::RunStart {
            state: None,
            thread_id: thread.map(|t| id("t", t)),
            run_id: run.map(|r| id("r", r)),
            messages: if messages {
                vec![json!({"id": "u1", "role": "user", "content": "hi"})]
            } else {
                vec![]
            },
            resume: resume.map(|r| {
                if r {
                    json!({"approved": true})
                } else {
                    Value::Null
                }
            }),
        },
        Ev::RunEnd => ModelEvent::RunEnd,
        Ev::RunFailed { code } => ModelEvent::RunFailed(ErrorInfo {
            name: Some("ValueError".into()),
            message: "boom".into(),
            lc_code: code.then(|| "GRAPH_RECURSION_LIMIT".into()),
        }),
        Ev::RunIncomplete => ModelEvent::RunIncomplete {
            reason: "cut".into(),
        },
        Ev::Interrupt(ids) => ModelEvent::Interrupt(
            ids.into_iter()
                .take(3)
                .map(|i| InterruptInfo {
                    id: id("i", i),
                    value: json!({"type": "approval"}),
                    response_schema: None,
                    tool_call_id: None,
                })
                .collect(),
        ),
        Ev::StepStart { name, key } => ModelEvent::StepStart {
            name: id("node", name),
            key: id("k", key),
        },
        Ev::StepEnd { key } => ModelEvent::StepEnd { key: id("k", key) },
        Ev::MessageStart(m) => ModelEvent::MessageStart {
            message_id: id("m", m),
        },
        Ev::Text { m, empty } => ModelEvent::TextDelta {
            message_id: id("m", m),
            text: if empty { String::new() } else { "x".into() },
        },
        Ev::Reasoning { m, block, empty } => ModelEvent::ReasoningDelta {
            message_id: id("m", m),
            block: id("b", block),
            text: if empty { String::new() } else { "r".into() },
        },
        Ev::Encrypted { m, block } => ModelEvent::ReasoningEncrypted {
            message_id: id("m", m),
            block: id("b", block),
            value: "sig".into(),
        },
        Ev::ToolChunk {
            m,
            index,
            id: call,
            name,
            args,
        } => ModelEvent::ToolCallChunk {
            message_id: id("m", m),
            index: id("", index),
            id: call.map(|c| id("call", c)),
            name: name.map(|n| id("tool", n)),
            args: if args % 2 == 0 {
                String::new()
            } else {
                "{".into()
            },
        },
        Ev::MessageEnd { m, usage } => ModelEvent::MessageEnd {
            message_id: id("m", m),
            usage: usage.then(|| Usage {
                input_tokens: Some(1),
                output_tokens: Some(2),
                ..Usage::default()
            }),
        },
        Ev::ToolStart {
            id: call,
            name,
            args,
            parent,
        } => ModelEvent::ToolStart {
            tool_call_id: id("call", call),
            name: id("tool", name),
            args: args.then(|| "{}".into()),
            parent_message_id: parent.map(|p| id("m", p)),
        },
        Ev::ToolOutput(call) => ModelEvent::ToolOutputDelta {
            tool_call_id: id("call", call),
            delta: "o".into(),
        },
        Ev::ToolEnd {
            id: call,
            named,
            message,
            error,
        } => ModelEvent::ToolEnd(ToolResult {
            tool_call_id: id("call", call),
            name: named.then(|| "tool0".into()),
            content: aguify::agui::ToolContent::Text("done".into()),
            message_id: message.map(|m| id("tm", m)),
            error,
        }),
        Ev::Custom(n) => ModelEvent::Custom {
            name: id("c", n),
            value: aguify::payload::Payload::from_value(&json!({"n": n})),
        },
        Ev::State {
            messages,
            encoded,
            answers,
        } => {
            let mut list = vec![];
            if messages {
                list.push(json!({"id": "a1", "type": "ai", "content": "hi"}));
            }
            if let Some(call) = answers {
                // A tool message answering a call (a TOOL_CALL_RESULT if it is open).
                list.push(
                    json!({"type": "tool", "content": "r", "tool_call_id": id("call", call)}),
                );
            }
            let state = json!({"messages": list, "k": 1});
            ModelEvent::State(match encoded.then(|| State::read(&state.to_string())).flatten() {
                Some(e) => Snapshot::Encoded(Box::new(e)),
                None => Snapshot::Value(state),
            })
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Case {
    final_text: bool,
    tool_steps: bool,
    thinking: bool,
    events: Vec<(Ev, Option<u16>)>,
}

fuzz_target!(|case: Case| {
    let mut mapper = Mapper::new(MapOptions {
        text: if case.final_text {
            TextPolicy::Final
        } else {
            TextPolicy::Stream
        },
        tool_steps: if case.tool_steps {
            ToolSteps::Reasoning
        } else {
            ToolSteps::None
        },
        compat: if case.thinking {
            Compat::Thinking
        } else {
            Compat::None
        },
        ..MapOptions::default()
    });
    // As the pipeline drives it: each event's output written, then settled.
    let (mut out, mut step) = (vec![], vec![]);
    let origin = Origin {
        file: Arc::from("f"),
        line: 1,
    };
    let mut typed = Checker::new(Arc::from("f"), Config::default());
    let mut whole = Checker::new(Arc::from("f"), Config::default());
    for (i, (ev, ts)) in case.events.into_iter().enumerate() {
        mapper.timestamp = ts.map(i64::from);
        mapper.seed = i as u64;
        mapper.map(model(ev), &mut step);
        for e in &step {
            let json = e.to_value().into_owned();
            typed.event(e, &origin);
            whole.event(&aguify::agui::Event::Passthrough(json.clone()), &origin);
            let (mut written, mut plain) = (vec![], vec![]);
            FrameSink::new(Format::Ndjson, &mut written)
                .write_event(e)
                .expect("in memory");
            serde_json::to_writer(&mut plain, &json).expect("in memory");
            plain.push(b'\n');
            assert_eq!(written, plain, "written as its JSON: {json}");
            out.push(json);
        }
        mapper.settle(&mut step);
    }
    let (mut a, mut b) = (vec![], vec![]);
    typed.stream_new(|f| a.push(f.clone()));
    whole.stream_new(|f| b.push(f.clone()));
    assert_eq!(a, b, "typed checks");
    mapper.finish(&mut step);
    out.extend(step.iter().map(|e| e.to_value().into_owned()));
    if let Err(e) = invariants::check_stream(&out) {
        panic!("stream invariant: {e}");
    }
});
