//! Issue 22 items 6, 7, 8 and 10, each on its recordings in every form that has them: what
//! a stream cut short the complete message finishes, an interrupt inside a tool suspends its
//! call, a dumpd tool error keeps its message, and error classes come from the message.

mod common;

use aguify::pipeline::{convert_to_vec, Input, Options};
use serde_json::Value;

const NDJSON_FORMS: [&str; 6] = [
    "v2-python-api",
    "v2-python-dumpd",
    "v2-js",
    "v3-js",
    "v3-python",
    "v3-python-inprocess",
];

fn convert(files: &[String]) -> Vec<Value> {
    let inputs = files
        .iter()
        .map(|f| {
            let path = common::testdata().join("recordings").join(f);
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{f}: {e}"));
            Input::from_bytes(f, bytes)
        })
        .collect();
    convert_to_vec(inputs, &Options::default())
        .unwrap_or_else(|e| panic!("{files:?}: {e}"))
        .0
}

fn of<'a>(events: &'a [Value], kind: &str, call: &str) -> Vec<&'a Value> {
    events
        .iter()
        .filter(|e| e["type"] == kind && e["toolCallId"] == call)
        .collect()
}

/// 22.6: a model that does not stream, and one whose stream stops after two chunks (the
/// complete message comes at its end, in a node's output or only in the state): the AG-UI
/// stream carries the whole answer and the whole arguments, not only MESSAGES_SNAPSHOT.
#[test]
fn the_complete_message_finishes_what_the_stream_cut_short() {
    for form in NDJSON_FORMS {
        for case in ["k_no_stream", "k_stream_cut"] {
            let name = format!("{form}/{case}.ndjson");
            let events = convert(std::slice::from_ref(&name));
            let text: String = events
                .iter()
                .filter(|e| e["type"] == "TEXT_MESSAGE_CONTENT")
                .filter_map(|e| e["delta"].as_str())
                .collect();
            assert_eq!(text, "It is sunny and 22°C in Paris.", "{name}");
            let args: String = of(&events, "TOOL_CALL_ARGS", "call_weather_1")
                .iter()
                .filter_map(|e| e["delta"].as_str())
                .collect();
            let args: Value = serde_json::from_str(&args)
                .unwrap_or_else(|e| panic!("{name}: args {args:?}: {e}"));
            assert_eq!(args, serde_json::json!({"city": "Paris"}), "{name}");
            assert_eq!(
                of(&events, "TOOL_CALL_START", "call_weather_1").len(),
                1,
                "{name}"
            );
        }
    }
}

/// 22.7: `interrupt()` inside a tool: the call stays open without a result, the run ends
/// with the interrupt naming the call, and the resume run answers it without starting it
/// again (no AGX309).
#[test]
fn an_interrupt_inside_a_tool_suspends_its_call() {
    let call = "call_place_order_1";
    for form in NDJSON_FORMS {
        let files = [
            format!("{form}/d_hitl_in_tool__1_interrupt.ndjson"),
            format!("{form}/d_hitl_in_tool__2_resume.ndjson"),
        ];
        let events = convert(&files);
        let ends: Vec<usize> = events
            .iter()
            .enumerate()
            .filter(|(_, e)| e["type"] == "RUN_FINISHED" || e["type"] == "RUN_ERROR")
            .map(|(i, _)| i)
            .collect();
        assert_eq!(ends.len(), 2, "{form}: {events:?}");
        let (first, second) = events.split_at(ends[0] + 1);
        let outcome = &first[ends[0]]["outcome"];
        assert_eq!(outcome["type"], "interrupt", "{form}: {outcome}");
        assert_eq!(outcome["interrupts"][0]["toolCallId"], call, "{form}");
        assert_eq!(of(first, "TOOL_CALL_START", call).len(), 1, "{form}");
        assert!(of(first, "TOOL_CALL_RESULT", call).is_empty(), "{form}");
        assert!(of(second, "TOOL_CALL_START", call).is_empty(), "{form}");
        let results = of(second, "TOOL_CALL_RESULT", call);
        assert_eq!(results.len(), 1, "{form}");
        assert_eq!(results[0]["content"], "Order of 2 widget placed.", "{form}");
        assert_eq!(
            second.last().map(|e| &e["outcome"]["type"]),
            Some(&"success".into())
        );
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_aguify"))
            .arg("check")
            .args(
                files
                    .iter()
                    .map(|f| common::testdata().join("recordings").join(f)),
            )
            .output()
            .expect("run aguify");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{form}: {stderr}");
        assert!(!stderr.contains("AGX309"), "{form}: {stderr}");
    }
}

/// 22.8: the dumpd form keeps a tool error only as the exception's repr; its result reads
/// the exception's message, as the API form's does.
#[test]
fn a_dumpd_tool_error_keeps_its_message() {
    for form in ["v2-python-api", "v2-python-dumpd"] {
        let events = convert(&[format!("{form}/e_error_tool_raises.ndjson")]);
        let results: Vec<&Value> = events
            .iter()
            .filter(|e| e["type"] == "TOOL_CALL_RESULT")
            .collect();
        assert_eq!(results.len(), 1, "{form}");
        assert_eq!(
            results[0]["content"], "ValueError: order service unavailable for A-1",
            "{form}"
        );
    }
}

/// 22.10: Python's ConnectionResetError is UPSTREAM_UNREACHABLE in every form.
#[test]
fn a_connection_reset_is_upstream_unreachable() {
    for form in [
        "v2-python-api",
        "v2-python-dumpd",
        "v3-python",
        "v3-python-inprocess",
    ] {
        let events = convert(&[format!("{form}/e_model_connection_reset.ndjson")]);
        let last = events.last().expect("events");
        assert_eq!(last["type"], "RUN_ERROR", "{form}");
        assert_eq!(last["code"], "UPSTREAM_UNREACHABLE", "{form}");
    }
}

/// Two parallel tool calls whose tools both raise `interrupt()` (Python: both interrupts in
/// one run, the resume answers both by id). v3 does not say which call raised which
/// interrupt: the calls still wait for the resume run, which answers them without starting
/// them again (no AGX309).
#[test]
fn two_interrupts_in_parallel_tools_resume_both_calls() {
    let calls = [
        ("call_order_widget", "Order of 2 widget placed."),
        ("call_order_gadget", "Order rejected."),
    ];
    for form in [
        "v2-python-api",
        "v2-python-dumpd",
        "v3-python",
        "v3-python-inprocess",
    ] {
        let files = [
            format!("{form}/n_two_interrupts__1_interrupt.ndjson"),
            format!("{form}/n_two_interrupts__2_resume.ndjson"),
        ];
        let events = convert(&files);
        let end = events
            .iter()
            .position(|e| e["type"] == "RUN_FINISHED")
            .unwrap_or_else(|| panic!("{form}: no RUN_FINISHED"));
        let (first, second) = events.split_at(end + 1);
        let outcome = &first[end]["outcome"];
        assert_eq!(outcome["type"], "interrupt", "{form}: {outcome}");
        assert_eq!(outcome["interrupts"].as_array().map(Vec::len), Some(2));
        let resume = second
            .iter()
            .find(|e| e["type"] == "RUN_STARTED")
            .map(|e| &e["input"]["resume"]);
        assert_eq!(resume.and_then(|r| r.as_array()).map(Vec::len), Some(2));
        for (call, result) in calls {
            assert_eq!(of(first, "TOOL_CALL_START", call).len(), 1, "{form} {call}");
            assert!(of(first, "TOOL_CALL_RESULT", call).is_empty(), "{form}");
            assert!(
                of(second, "TOOL_CALL_START", call).is_empty(),
                "{form} {call} started again"
            );
            let results = of(second, "TOOL_CALL_RESULT", call);
            assert_eq!(results.len(), 1, "{form} {call}");
            assert_eq!(results[0]["content"], result, "{form}");
        }
        assert_eq!(
            second.last().map(|e| &e["outcome"]["type"]),
            Some(&"success".into())
        );
    }
}

/// A tool that returns a LangGraph `Command` (a handoff: `goto` the billing agent, with a
/// `ToolMessage` in `update.messages`): the call's result is that message's content, not the
/// serialized `Command`, in every form (a dict, a dumpd repr, LangGraph.js's `lg_name`).
#[test]
fn a_tool_returning_a_command_answers_with_its_tool_message() {
    for form in NDJSON_FORMS {
        let events = convert(&[format!("{form}/n_handoff.ndjson")]);
        let results = of(&events, "TOOL_CALL_RESULT", "call_transfer_1");
        assert_eq!(results.len(), 1, "{form}");
        assert_eq!(
            results[0]["content"], "Transferred to billing: refund request",
            "{form}"
        );
        let text: String = events
            .iter()
            .filter(|e| e["type"] == "TEXT_MESSAGE_CONTENT")
            .filter_map(|e| e["delta"].as_str())
            .collect();
        assert!(
            text.ends_with("Billing here: your refund is on its way."),
            "{form}: {text}"
        );
    }
}

/// Anthropic thinking, text, then a `tool_use` block whose arguments stream as
/// `input_json_delta`: one tool call, the provider's id and name, whole args, its result,
/// and both thinking blocks as reasoning. LangGraph.js v3 keeps the provider's `tool_use`
/// block at the start (and types the merged finish `input_json_delta`).
#[test]
fn an_anthropic_tool_use_block_is_one_tool_call() {
    for form in NDJSON_FORMS {
        let events = convert(&[format!("{form}/n_anthropic_thinking_tool.ndjson")]);
        let starts: Vec<&Value> = events
            .iter()
            .filter(|e| e["type"] == "TOOL_CALL_START")
            .collect();
        assert_eq!(starts.len(), 1, "{form}: {starts:?}");
        assert_eq!(starts[0]["toolCallId"], "toolu_01weather", "{form}");
        assert_eq!(starts[0]["toolCallName"], "get_weather", "{form}");
        let args: String = of(&events, "TOOL_CALL_ARGS", "toolu_01weather")
            .iter()
            .filter_map(|e| e["delta"].as_str())
            .collect();
        let args: Value = serde_json::from_str(&args).unwrap_or(Value::Null);
        assert_eq!(args, serde_json::json!({"city": "Paris"}), "{form}");
        assert_eq!(of(&events, "TOOL_CALL_RESULT", "toolu_01weather").len(), 1);
        let reasoning: String = events
            .iter()
            .filter(|e| e["type"] == "REASONING_MESSAGE_CONTENT")
            .filter_map(|e| e["delta"].as_str())
            .collect();
        assert_eq!(
            reasoning, "The user wants Paris weather. I should call the tool.The tool says sunny.",
            "{form}"
        );
        let done = events.last().map(|e| e["outcome"].clone());
        assert_eq!(done, Some(serde_json::json!({"type": "success"})), "{form}");
    }
}

/// `HumanInTheLoopMiddleware`: the run stops after the model's tool call, before the tool
/// runs (the interrupt names no call); the resume run executes it. The call is started once,
/// in the interrupted run, and answered in the resume run (no AGX309).
#[test]
fn a_call_approved_before_its_tool_runs_is_answered_by_the_resume_run() {
    let call = "call_email_1";
    for form in NDJSON_FORMS {
        let files = [
            format!("{form}/n_hitl_middleware__1_interrupt.ndjson"),
            format!("{form}/n_hitl_middleware__2_resume.ndjson"),
        ];
        let events = convert(&files);
        let end = events
            .iter()
            .position(|e| e["type"] == "RUN_FINISHED")
            .unwrap_or_else(|| panic!("{form}: no RUN_FINISHED"));
        let (first, second) = events.split_at(end + 1);
        assert_eq!(first[end]["outcome"]["type"], "interrupt", "{form}");
        let message = first[end]["outcome"]["interrupts"][0]["message"].as_str();
        assert!(
            message.is_some_and(|m| m.starts_with("Tool execution requires approval")),
            "{form}: {message:?}"
        );
        assert_eq!(of(first, "TOOL_CALL_START", call).len(), 1, "{form}");
        assert!(of(second, "TOOL_CALL_START", call).is_empty(), "{form}");
        let results = of(second, "TOOL_CALL_RESULT", call);
        assert_eq!(results.len(), 1, "{form}");
        assert_eq!(
            results[0]["content"], "Email to bob@example.com sent: Lunch",
            "{form}"
        );
    }
}

/// LangGraph.js: two parallel `place_order` calls whose tools both raise `interrupt()`. The
/// ToolNode surfaces the first interrupt only; the resume answers it and the second
/// surfaces; a third run answers that one; every resume re-runs both tools. Each call is
/// started once (run 1), the widget answered in run 2, the gadget in run 3, and a re-run of
/// a call already answered adds nothing (v2 JS runs name no call: the gadget's run is the
/// only waiting `place_order` call).
#[test]
fn js_two_interrupts_answer_each_call_once_across_three_runs() {
    let (widget, gadget) = ("call_order_widget", "call_order_gadget");
    for form in ["v2-js", "v3-js"] {
        let files = [
            format!("{form}/n_two_interrupts__1_interrupt.ndjson"),
            format!("{form}/n_two_interrupts__2_resume.ndjson"),
            format!("{form}/n_two_interrupts__3_resume.ndjson"),
        ];
        let events = convert(&files);
        let runs: Vec<&[Value]> = events
            .split_inclusive(|e| e["type"] == "RUN_FINISHED")
            .filter(|r| !r.is_empty())
            .collect();
        assert_eq!(runs.len(), 3, "{form}: three runs");
        let outcomes: Vec<&Value> = runs.iter().map(|r| &r[r.len() - 1]["outcome"]).collect();
        assert_eq!(outcomes[0]["type"], "interrupt", "{form}");
        assert_eq!(outcomes[1]["type"], "interrupt", "{form}");
        assert_eq!(outcomes[1]["interrupts"][0]["toolCallId"], gadget, "{form}");
        assert_eq!(outcomes[2]["type"], "success", "{form}");
        assert!(outcomes[2].get("pendingToolCallIds").is_none(), "{form}");
        let starts: Vec<&Value> = events
            .iter()
            .filter(|e| e["type"] == "TOOL_CALL_START")
            .collect();
        let ids: Vec<&Value> = starts.iter().map(|e| &e["toolCallId"]).collect();
        assert_eq!(
            ids,
            [widget, gadget],
            "{form}: each call started once, in run 1"
        );
        let answered = |run: &[Value]| -> Vec<String> {
            run.iter()
                .filter(|e| e["type"] == "TOOL_CALL_RESULT")
                .map(|e| {
                    format!(
                        "{}={}",
                        e["toolCallId"].as_str().unwrap_or("?"),
                        e["content"]
                    )
                })
                .collect()
        };
        assert!(answered(runs[0]).is_empty(), "{form}");
        assert_eq!(
            answered(runs[1]),
            [format!("{widget}=\"Order of 2 widget placed.\"")],
            "{form}"
        );
        assert_eq!(
            answered(runs[2]),
            [format!("{gadget}=\"Order rejected.\"")],
            "{form}"
        );
    }
}
