//! Builds a long-conversation log: one thread whose state grows by two messages a turn, every
//! snapshot carrying the whole message list (what LangGraph writes for a long-running chat).
//! The recordings behind `gen_logs` are short runs; this is the case where re-reading each
//! snapshot's messages makes the cost grow with the square of the conversation's length.
//!
//! ```text
//! cargo run --release --example gen_long -- FORM TURNS OUT
//! cargo run --release --example gen_long -- v3 300 /tmp/aguify-bench/long-v3-300.ndjson
//! ```
//!
//! FORM `v3`: one root run of the v3 protocol (lifecycle, then a root `values` state per turn,
//! then the run's end). FORM `v2`: one `astream_events` v2 root run per turn (API-server
//! serialization: `on_chain_start` with the history as input, `on_chain_stream` and
//! `on_chain_end` with the history plus the turn's reply). Messages are flat API-server dicts
//! with distinct texts of a few hundred bytes. The output is deterministic.

use std::fs;
use std::io::{BufWriter, Write};

use serde_json::{json, Value};

fn main() {
    if let Err(e) = run() {
        eprintln!("gen_long: {e}");
        std::process::exit(2);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [form, turns, out] = args.as_slice() else {
        return Err("usage: gen_long v2|v3 TURNS OUT   (e.g. v3 300 /tmp/long-v3.ndjson)".into());
    };
    let turns: usize = turns
        .parse()
        .map_err(|_| format!("TURNS: expected a number, got {turns:?}"))?;
    let file = fs::File::create(out).map_err(|e| format!("{out}: {e}"))?;
    let mut w = BufWriter::new(file);
    let lines = match form.as_str() {
        "v3" => v3(turns),
        "v2" => v2(turns),
        other => return Err(format!("FORM: expected v2 or v3, got {other:?}")),
    };
    for line in lines {
        serde_json::to_writer(&mut w, &line).map_err(|e| e.to_string())?;
        w.write_all(b"\n").map_err(|e| e.to_string())?;
    }
    w.flush().map_err(|e| format!("{out}: {e}"))
}

/// The `i`-th message of the conversation: a human question on even turns' first half, an AI
/// answer with usage and response metadata on the second.
fn message(i: usize) -> Value {
    let words = [
        "state", "graph", "tool", "reply", "stream", "node", "token", "event",
    ];
    let text: Vec<&str> = (0..40)
        .map(|k| words[(i * 7 + k * 3) % words.len()])
        .collect();
    let content = format!("[{i}] {}", text.join(" "));
    if i % 2 == 0 {
        json!({
            "content": content, "additional_kwargs": {}, "response_metadata": {},
            "type": "human", "name": null, "id": format!("human-{i:06}")
        })
    } else {
        json!({
            "content": content, "additional_kwargs": {},
            "response_metadata": {"model_provider": "openai", "model_name": "fake-gpt-4o", "finish_reason": "stop"},
            "type": "ai", "name": null, "id": format!("lc_run--{i:06}"),
            "tool_calls": [], "invalid_tool_calls": [],
            "usage_metadata": {"input_tokens": 12 + i, "output_tokens": 40, "total_tokens": 52 + i}
        })
    }
}

fn v3(turns: usize) -> Vec<Value> {
    let mut seq = 0u64;
    let mut event = |method: &str, data: Value| {
        let e = json!({
            "type": "event", "seq": seq, "method": method,
            "params": {"namespace": [], "timestamp": 1_795_994_517_805u64 + seq, "data": data}
        });
        seq += 1;
        e
    };
    let mut out = vec![event(
        "lifecycle",
        json!({"event": "running", "graph_name": "root"}),
    )];
    let mut messages = vec![];
    for turn in 0..turns {
        messages.push(message(2 * turn));
        messages.push(message(2 * turn + 1));
        out.push(event("values", json!({ "messages": messages })));
    }
    out.push(event(
        "lifecycle",
        json!({"event": "completed", "graph_name": "root"}),
    ));
    out
}

fn v2(turns: usize) -> Vec<Value> {
    let mut out = vec![];
    let mut messages = vec![];
    for turn in 0..turns {
        let run = format!("01a2299c-0000-7000-9000-{turn:012}");
        let meta = json!({"thread_id": "thread-long"});
        messages.push(message(2 * turn));
        out.push(json!({
            "event": "on_chain_start", "data": {"input": {"messages": messages}},
            "name": "LangGraph", "tags": [], "run_id": run, "metadata": meta, "parent_ids": []
        }));
        messages.push(message(2 * turn + 1));
        out.push(json!({
            "event": "on_chain_stream", "run_id": run, "name": "LangGraph", "tags": [],
            "metadata": meta, "data": {"chunk": {"messages": messages}}, "parent_ids": []
        }));
        out.push(json!({
            "event": "on_chain_end", "data": {"output": {"messages": messages}},
            "run_id": run, "name": "LangGraph", "tags": [], "metadata": meta, "parent_ids": []
        }));
    }
    out
}
