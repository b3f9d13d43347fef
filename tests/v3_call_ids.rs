//! v3: a model's tool call serves the graph a tool node's task starts later without naming
//! the call (v3 Python, `lifecycle started` without `cause`: [`Nest::made_call`]) wherever
//! the log first gives the call's id — at its block's start, in a delta, or only in the
//! block's finish. Each log converts as the one whose id comes at the start.

use aguify_core::{Converter, Options, Severity};
use serde_json::Value;

/// A v3 Python log: the model calls `ask_weather_agent` (the call's block start, delta and
/// finish given), then the tool node's task runs a graph (namespace `tools:t1`) whose
/// lifecycle names no call, and whose model answers.
fn log(start: &str, delta: &str, finish: &str) -> String {
    let ev = |seq: usize, method: &str, ns: &str, data: &str| {
        format!(
            r#"{{"type":"event","seq":{seq},"method":"{method}","params":{{"namespace":[{ns}],"data":{data}}}}}"#
        )
    };
    let task = r#""tools:t1""#;
    [
        ev(1, "values", "", r#"{"messages":[{"type":"human","content":"Weather?","id":"h1"}]}"#),
        ev(2, "messages", "", r#"{"event":"message-start","role":"ai","id":"m1"}"#),
        ev(3, "messages", "", &format!(r#"{{"event":"content-block-start","index":0,"content":{{"type":"tool_call_chunk",{start}"name":"ask_weather_agent","args":"","index":0}}}}"#)),
        ev(4, "messages", "", &format!(r#"{{"event":"content-block-delta","index":0,"delta":{{"type":"tool-call-delta",{delta}"args":"{{\"request\": \"Paris\"}}"}}}}"#)),
        ev(5, "messages", "", &format!(r#"{{"event":"content-block-finish","index":0,"content":{{"type":"tool_call",{finish}"name":"ask_weather_agent","args":{{"request":"Paris"}}}}}}"#)),
        ev(6, "messages", "", r#"{"event":"message-finish"}"#),
        ev(7, "lifecycle", "", r#"{"event":"started","namespace":["tools:t1"],"graph_name":"weather_agent"}"#),
        ev(8, "messages", task, r#"{"event":"message-start","role":"ai","id":"m2"}"#),
        ev(9, "messages", task, r#"{"event":"content-block-start","index":0,"content":{"type":"text","text":"Sunny"}}"#),
        ev(10, "messages", task, r#"{"event":"content-block-finish","index":0,"content":{"type":"text","text":"Sunny"}}"#),
        ev(11, "messages", task, r#"{"event":"message-finish"}"#),
        ev(12, "lifecycle", "", r#"{"event":"completed","namespace":["tools:t1"]}"#),
    ]
    .join("\n")
}

fn convert(log: &str) -> Vec<Value> {
    let mut c = Converter::new(Options::default());
    let mut events = c.feed(log.as_bytes()).expect("not strict");
    events.extend(c.finish().expect("not strict").0);
    let bad: Vec<_> = (c.take_problems().into_iter())
        .filter(|p| p.severity == Severity::Bad)
        .collect();
    assert!(bad.is_empty(), "{bad:?}");
    events.iter().map(|e| e.to_value().into_owned()).collect()
}

const ID: &str = r#""id":"call_w","#;

/// The call whose id comes at its block's start: the task's graph is its sub-agent, and the
/// graph's answer carries the sub-agent's id.
#[test]
fn a_call_whose_id_comes_at_its_start_is_served_by_the_task_graph() {
    let events = convert(&log(ID, "", ID));
    let started: Vec<_> = (events.iter())
        .filter(|e| e["type"] == "SUBAGENT_STARTED")
        .collect();
    assert_eq!(started.len(), 1, "{events:#?}");
    assert_eq!(started[0]["parentToolCallId"], "call_w");
    assert_eq!(started[0]["name"], "weather_agent");
    let id = &started[0]["subagentRunId"];
    let answer = (events.iter())
        .find(|e| e["type"] == "TEXT_MESSAGE_CONTENT" && e["messageId"] == "m2")
        .expect("the graph's answer");
    assert_eq!(&answer["subagentRunId"], id, "{events:#?}");
}

/// The id given only by the block's finish, or only by a delta (the finish naming it or
/// not), makes the same events: the same sub-agent, and no id made up for the call.
#[test]
fn a_call_whose_id_comes_later_converts_as_one_whose_id_comes_at_its_start() {
    let want = convert(&log(ID, "", ID));
    for (case, start, delta, finish) in [
        ("id only at the finish", "", "", ID),
        ("id in a delta and the finish", "", ID, ID),
        ("id only in a delta", "", ID, ""),
    ] {
        let got = convert(&log(start, delta, finish));
        assert!(got == want, "{case}:\n{got:#?}\nwant:\n{want:#?}");
    }
}

/// A model that does not stream (its message only in the root state, the in-process legacy
/// `[message, metadata]` payload ignored): its call is served by the task's graph as a
/// streamed one's.
#[test]
fn a_call_of_a_message_only_in_the_state_is_served_by_the_task_graph() {
    let streamed = log(ID, "", ID);
    let lines: Vec<&str> = streamed.lines().collect();
    let state = r#"{"type":"event","seq":6,"method":"values","params":{"namespace":[],"data":{"messages":[{"type":"human","content":"Weather?","id":"h1"},{"type":"ai","content":"","id":"m1","tool_calls":[{"id":"call_w","name":"ask_weather_agent","args":{"request":"Paris"}}]}]}}}"#;
    let legacy = r#"{"type":"event","seq":5,"method":"messages","params":{"namespace":[],"data":[{"type":"ai","content":"","id":"m1"},{"langgraph_node":"model"}]}}"#;
    let whole = [&lines[..1], &[legacy, state], &lines[6..]]
        .concat()
        .join("\n");
    let events = convert(&whole);
    let started: Vec<_> = (events.iter())
        .filter(|e| e["type"] == "SUBAGENT_STARTED")
        .collect();
    assert_eq!(started.len(), 1, "{events:#?}");
    assert_eq!(started[0]["parentToolCallId"], "call_w");
    let answer = (events.iter())
        .find(|e| e["type"] == "TEXT_MESSAGE_CONTENT" && e["messageId"] == "m2")
        .expect("the graph's answer");
    assert_eq!(answer["subagentRunId"], started[0]["subagentRunId"]);
}
