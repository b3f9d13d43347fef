//! Issue 39 items 1, 2, 4, 5 and 6: provider shapes of the current integrations, each on its
//! recordings in every form that has them (testdata/recordings/README: which recorder made
//! them, real integration or scripted chunks).

mod common;

use aguify::pipeline::{convert_to_vec, Input, Options};
use serde_json::{json, Value};

const NDJSON_FORMS: [&str; 6] = [
    "v2-python-api",
    "v2-python-dumpd",
    "v2-js",
    "v3-js",
    "v3-python",
    "v3-python-inprocess",
];

fn path(f: &str) -> std::path::PathBuf {
    common::testdata().join("recordings").join(f)
}

fn convert(f: &str) -> Vec<Value> {
    let bytes = std::fs::read(path(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    convert_to_vec(vec![Input::from_bytes(f, bytes)], &Options::default())
        .unwrap_or_else(|e| panic!("{f}: {e}"))
        .0
}

fn of<'a>(events: &'a [Value], kind: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["type"] == kind).collect()
}

/// `aguify check` of a recording: its exit code and report.
fn check(f: &str) -> (Option<i32>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_aguify"))
        .arg("check")
        .arg(path(f))
        .output()
        .expect("run aguify");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

/// Each call's id, name and args (its ARGS deltas joined, read as JSON), in START order,
/// with the content of each of its results.
fn calls(events: &[Value]) -> Vec<(String, String, Value, Vec<String>)> {
    of(events, "TOOL_CALL_START")
        .iter()
        .map(|s| {
            let id = s["toolCallId"].as_str().unwrap_or_default().to_string();
            let args: String = (events.iter())
                .filter(|e| e["type"] == "TOOL_CALL_ARGS" && e["toolCallId"] == id.as_str())
                .filter_map(|e| e["delta"].as_str())
                .collect();
            let args = serde_json::from_str(&args).unwrap_or(Value::String(args));
            let results = (events.iter())
                .filter(|e| e["type"] == "TOOL_CALL_RESULT" && e["toolCallId"] == id.as_str())
                .map(|e| e["content"].as_str().unwrap_or_default().to_string())
                .collect();
            let name = s["toolCallName"].as_str().unwrap_or_default().to_string();
            (id, name, args, results)
        })
        .collect()
}

fn outcome(events: &[Value]) -> &Value {
    let last = events.last().expect("events");
    assert_eq!(last["type"], "RUN_FINISHED", "{last}");
    &last["outcome"]
}

/// 39.1: two whole calls in one model chunk, both without an index (langchain-google-genai
/// <= 4.3.6; @langchain/google-genai leaves `index` out): two calls, each with its own id,
/// name and args, each announced once and answered once.
#[test]
fn two_whole_calls_in_one_chunk_are_two_calls() {
    let mut files: Vec<String> = NDJSON_FORMS
        .iter()
        .map(|f| format!("{f}/n_two_calls_one_chunk.ndjson"))
        .collect();
    files.push("v2-js/n_gemini_two_calls.ndjson".into());
    for f in &files {
        let events = convert(f);
        let calls = calls(&events);
        assert_eq!(calls.len(), 2, "{f}: {calls:?}");
        assert_ne!(calls[0].0, calls[1].0, "{f}");
        for ((_, name, args, results), city) in calls.iter().zip(["Paris", "Tokyo"]) {
            assert_eq!(name, "get_weather", "{f}");
            assert_eq!(*args, json!({ "city": city }), "{f}");
            assert_eq!(results.len(), 1, "{f}: {results:?}");
            assert!(results[0].contains(city), "{f}: {results:?}");
        }
        assert_eq!(outcome(&events)["type"], "success", "{f}");
        let (code, report) = check(f);
        assert_eq!(code, Some(0), "{f}: {report}");
    }
}

/// 39.2: LangGraph.js v3 with @langchain/google-genai: tool blocks without ids, `tool-started`
/// with `tool_call_id: ""`, tool messages without `tool_call_id`. Each result answers its
/// call (by name and args, in order), no call has the id "", nothing is left pending, and
/// the log's lost ids are a finding (AGX613).
#[test]
fn calls_without_ids_are_paired_with_their_results() {
    let f = "v3-js/n_gemini_two_calls.ndjson";
    let events = convert(f);
    assert!(
        !events.iter().any(|e| e["toolCallId"] == ""),
        "a call or result with the id \"\""
    );
    let calls = calls(&events);
    assert_eq!(calls.len(), 2, "{calls:?}");
    for ((_, _, args, results), (city, answer)) in calls.iter().zip([
        ("Paris", "Sunny, 22°C in Paris"),
        ("Tokyo", "Cloudy, 18°C in Tokyo"),
    ]) {
        assert_eq!(*args, json!({ "city": city }));
        assert_eq!(results, &[answer.to_string()]);
    }
    let outcome = outcome(&events);
    assert_eq!(outcome["type"], "success");
    assert!(outcome.get("pendingToolCallIds").is_none(), "{outcome}");
    let (code, report) = check(f);
    assert_eq!(code, Some(0), "{report}");
    assert_eq!(report.matches("warning[AGX613]").count(), 1, "{report}");
}

/// 39.2, the conversation the client ends with: the run's last MESSAGES_SNAPSHOT lists the
/// calls the log gave no id under the ids the stream made up for them, and each tool message
/// (no `tool_call_id` in the log) answers its call by name and order, under the message id
/// its TOOL_CALL_RESULT had: a client that takes the snapshot keeps what was streamed, in
/// the conversation's order. Before, the snapshot listed the model message without its calls
/// and left both tool messages out.
#[test]
fn the_final_snapshot_pairs_calls_without_ids() {
    let f = "v3-js/n_gemini_two_calls.ndjson";
    let events = convert(f);
    let snapshots = of(&events, "MESSAGES_SNAPSHOT");
    let messages = snapshots.last().expect("a MESSAGES_SNAPSHOT")["messages"]
        .as_array()
        .expect("messages");
    let roles: Vec<&str> = messages.iter().filter_map(|m| m["role"].as_str()).collect();
    assert_eq!(roles, ["user", "assistant", "tool", "tool", "assistant"]);
    let streamed: Vec<String> = calls(&events).into_iter().map(|c| c.0).collect();
    let listed: Vec<&str> = (messages[1]["toolCalls"].as_array().into_iter().flatten())
        .filter_map(|c| c["id"].as_str())
        .collect();
    assert_eq!(listed, streamed);
    assert!(streamed
        .iter()
        .all(|id| id.ends_with(":tool:0") || id.ends_with(":tool:1")));
    let results: Vec<(&Value, &Value, &Value)> = of(&events, "TOOL_CALL_RESULT")
        .into_iter()
        .map(|e| (&e["messageId"], &e["toolCallId"], &e["content"]))
        .collect();
    let answers: Vec<(&Value, &Value, &Value)> = messages[2..4]
        .iter()
        .map(|m| (&m["id"], &m["toolCallId"], &m["content"]))
        .collect();
    assert_eq!(results, answers);
    assert_eq!(answers[0].1, streamed[0].as_str());
    assert_eq!(answers[0].2, "Sunny, 22°C in Paris");
    assert_eq!(answers[1].1, streamed[1].as_str());
}

/// 39.2 with a text block before the calls and two tools (LangGraph.js v3, Gemini): the
/// made-up ids name the calls' blocks (1 and 2, after the text's 0) in the stream and in the
/// final snapshot alike, and each tool message answers the call of its tool's name.
#[test]
fn calls_without_ids_after_text_keep_their_block_index() {
    let f = "v3-js/n_gemini_text_and_calls.ndjson";
    let events = convert(f);
    let streamed: Vec<(String, String)> =
        (calls(&events).into_iter()).map(|c| (c.0, c.1)).collect();
    let block = |id: &str| id.rsplit(':').next().unwrap_or_default().to_string();
    let blocks: Vec<(String, &str)> = (streamed.iter())
        .map(|(id, name)| (block(id), name.as_str()))
        .collect();
    assert_eq!(
        blocks,
        [("1".into(), "get_weather"), ("2".into(), "get_time")]
    );
    let snapshots = of(&events, "MESSAGES_SNAPSHOT");
    let messages = snapshots.last().expect("a MESSAGES_SNAPSHOT")["messages"]
        .as_array()
        .expect("messages");
    let listed: Vec<(&Value, &Value)> = (messages[1]["toolCalls"].as_array().into_iter())
        .flatten()
        .map(|c| (&c["id"], &c["function"]["name"]))
        .collect();
    let want: Vec<(Value, Value)> = (streamed.iter())
        .map(|(id, name)| (json!(id), json!(name)))
        .collect();
    assert_eq!(listed, want.iter().map(|(a, b)| (a, b)).collect::<Vec<_>>());
    let answers: Vec<(&Value, &Value)> = (messages.iter())
        .filter(|m| m["role"] == "tool")
        .map(|m| (&m["toolCallId"], &m["content"]))
        .collect();
    assert_eq!(
        answers,
        [
            (&want[0].0, &json!("Sunny, 22°C in Paris")),
            (&want[1].0, &json!("12:00 in Paris")),
        ]
    );
}

/// 39.4: Bedrock Converse reasoning in LangGraph.js: block deltas whose fields LangGraph.js
/// merges by replacement (parts with an index), and fragments it starts as blocks of their
/// own (@langchain/aws 1.3.9, parts without one). One reasoning message with the whole text
/// and the signature, as the v2 forms have it.
#[test]
fn bedrock_reasoning_keeps_every_fragment() {
    for f in [
        "v3-js/c_reasoning_bedrock.ndjson",
        "v3-js/n_bedrock_reasoning.ndjson",
        "v2-js/c_reasoning_bedrock.ndjson",
        "v2-js/n_bedrock_reasoning.ndjson",
    ] {
        let events = convert(f);
        let text: String = of(&events, "REASONING_MESSAGE_CONTENT")
            .iter()
            .filter_map(|e| e["delta"].as_str())
            .collect();
        assert_eq!(
            text, "The user wants the capital of France. That is Paris.",
            "{f}"
        );
        assert_eq!(of(&events, "REASONING_MESSAGE_START").len(), 1, "{f}");
        let encrypted = of(&events, "REASONING_ENCRYPTED_VALUE");
        assert_eq!(encrypted.len(), 1, "{f}");
        assert_eq!(
            encrypted[0]["encryptedValue"], "EqQBCkYIBxgCKkBfakeBedrockSig==",
            "{f}"
        );
        let answer: String = of(&events, "TEXT_MESSAGE_CONTENT")
            .iter()
            .filter_map(|e| e["delta"].as_str())
            .collect();
        assert_eq!(answer, "The capital of France is Paris.", "{f}");
    }
}

/// 39.5 and 39.6 (a): OpenAI `stream_usage` in LangGraph.js (usage on a last chunk of its
/// own, which LangGraph.js gives the id `run-…`): one message under the provider's id, usage
/// naming the model and provider the log names; `graph.stream`'s SSE encoding, which has no
/// lifecycle, ends as a finished run.
#[test]
fn usage_on_the_last_chunk_stays_with_its_message() {
    for f in [
        "v2-js/n_openai_stream_usage.ndjson",
        "v3-js/n_openai_stream_usage.ndjson",
        "sse/js-stream-modes.n_openai_stream_usage.sse",
    ] {
        let events = convert(f);
        let starts = of(&events, "TEXT_MESSAGE_START");
        assert_eq!(starts.len(), 1, "{f}");
        assert_eq!(starts[0]["messageId"], "chatcmpl-0a1b2c3d4e5f", "{f}");
        assert!(
            !(events.iter()).any(|e| e["messageId"]
                .as_str()
                .is_some_and(|m| m.starts_with("run-"))),
            "{f}: a message under the run's id"
        );
        let outcome = outcome(&events);
        assert_eq!(outcome["type"], "success", "{f}");
        let usage = &events.last().expect("events")["usage"];
        assert_eq!(usage.as_array().map(Vec::len), Some(1), "{f}: {usage}");
        assert_eq!(usage[0]["provider"], "openai", "{f}: {usage}");
        assert!(
            usage[0]["model"]
                .as_str()
                .is_some_and(|m| m.starts_with("gpt-4o-mini")),
            "{f}: {usage}"
        );
        assert_eq!(usage[0]["totalTokens"], 21, "{f}: {usage}");
    }
}

/// 39.6 (b): a model whose stream stops early (2 chunks) in every platform capture, and a
/// classic `events` capture without `on_chat_model_end`: the node's output completes the
/// arguments before the tool runs, the final state the answer.
#[test]
fn platform_captures_carry_the_complete_message() {
    for f in [
        "sse/platform-classic-events.k_stream_cut.sse",
        "sse/platform-classic-events.k_stream_cut_no_model_end.sse",
        "sse/platform-v3-protocol.k_stream_cut.sse",
        "sdk-parts/k_stream_cut.ndjson",
    ] {
        let events = convert(f);
        let text: String = of(&events, "TEXT_MESSAGE_CONTENT")
            .iter()
            .filter_map(|e| e["delta"].as_str())
            .collect();
        assert_eq!(text, "It is sunny and 22°C in Paris.", "{f}");
        let calls = calls(&events);
        assert_eq!(calls.len(), 1, "{f}: {calls:?}");
        assert_eq!(calls[0].2, json!({"city": "Paris"}), "{f}");
        // Every ARGS of the call comes before its END.
        let at = |kind: &str| {
            (events.iter()).rposition(|e| e["type"] == kind && e["toolCallId"] == "call_weather_1")
        };
        assert!(at("TOOL_CALL_ARGS") < at("TOOL_CALL_END"), "{f}");
        assert_eq!(outcome(&events)["type"], "success", "{f}");
        let (code, report) = check(f);
        assert_eq!(code, Some(0), "{f}: {report}");
    }
}

/// A v3 Python log without `tools` events shows tool results only in its states: a result
/// holding media is read from the state as an AG-UI tool message, then sent as
/// TOOL_CALL_RESULT content parts, its image kept (it was dropped when the converted parts were
/// converted again).
#[test]
fn a_states_tool_result_keeps_its_media() {
    let f = "v3-python/m_supervisor_parallel_tool_node.ndjson";
    let log = std::fs::read_to_string(path(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    assert!(
        !log.contains(r#""method":"tools""#),
        "{f} now has tools events"
    );
    let media = r#""content":[{"type":"text","text":"Paris:"},{"type":"image","base64":"QUJD","mime_type":"image/png"}]"#;
    let log = log.replace(r#""content":"Paris: sunny, 22°C.""#, media);
    assert!(log.contains(media), "the recording's tool result changed");
    let events = convert_to_vec(
        vec![Input::from_bytes(f, log.into_bytes())],
        &Options::default(),
    )
    .unwrap_or_else(|e| panic!("{f}: {e}"))
    .0;
    let results = of(&events, "TOOL_CALL_RESULT");
    let paris: Vec<_> = (results.iter())
        .filter(|r| r["content"].to_string().contains("Paris:"))
        .collect();
    assert_eq!(paris.len(), 1, "{results:?}");
    assert_eq!(
        paris[0]["content"],
        serde_json::json!([
            {"type": "text", "text": "Paris:"},
            {"type": "image", "source": {"type": "data", "value": "QUJD", "mimeType": "image/png"}}
        ])
    );
}
