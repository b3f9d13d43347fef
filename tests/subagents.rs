//! Sub-agents (issue 28 item 2): a supervisor whose tool `ask_weather_agent` runs a compiled
//! agent, in every recorded form, and one whose sub-agent stops at `interrupt()`.

use std::path::PathBuf;

use aguify::pipeline::{convert_to_vec, Input, Options};
use serde_json::Value;

const FORMS: [&str; 6] = [
    "v2-python-api",
    "v2-python-dumpd",
    "v2-js",
    "v3-python",
    "v3-python-inprocess",
    "v3-js",
];

fn recording(form: &str, name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/recordings")
        .join(form)
        .join(format!("{name}.ndjson"))
}

fn convert(form: &str, names: &[&str]) -> Vec<Value> {
    let inputs = names
        .iter()
        .map(|n| {
            let path = recording(form, n);
            let bytes = std::fs::read(&path).expect("recording");
            Input::from_bytes(&path.to_string_lossy(), bytes)
        })
        .collect();
    convert_to_vec(inputs, &Options::default())
        .expect("converts")
        .0
}

fn position(events: &[Value], f: impl Fn(&Value) -> bool) -> usize {
    events
        .iter()
        .position(f)
        .expect("the event is in the stream")
}

/// The sub-agent starts before its first event, naming its parent tool call; every event of
/// its tool call and its answer carries its id; it finishes before the parent's result; the
/// supervisor's own events carry none.
#[test]
fn a_supervisor_tool_runs_a_sub_agent_in_every_form() {
    for form in FORMS {
        let events = convert(form, &["m_supervisor"]);
        let started: Vec<&Value> = events
            .iter()
            .filter(|e| e["type"] == "SUBAGENT_STARTED")
            .collect();
        assert_eq!(started.len(), 1, "{form}: one sub-agent");
        let id = started[0]["subagentRunId"]
            .as_str()
            .expect("an id")
            .to_string();
        assert_eq!(
            started[0]["parentToolCallId"], "call_ask_weather_1",
            "{form}"
        );
        let start = position(&events, |e| e["type"] == "SUBAGENT_STARTED");
        let finish = position(&events, |e| e["type"] == "SUBAGENT_FINISHED");
        let parent_result = position(&events, |e| {
            e["type"] == "TOOL_CALL_RESULT" && e["toolCallId"] == "call_ask_weather_1"
        });
        assert!(start < finish && finish < parent_result, "{form}");
        assert_eq!(events[finish]["subagentRunId"], id.as_str(), "{form}");
        assert_eq!(events[finish]["outcome"]["type"], "success", "{form}");
        let mine = |e: &Value| e["subagentRunId"] == id.as_str();
        let sub_call: Vec<&Value> = events
            .iter()
            .filter(|e| e["toolCallId"] == "call_sub_weather_1")
            .collect();
        assert!(sub_call.len() >= 3, "{form}: start, end, result");
        assert!(sub_call.iter().all(|e| mine(e)), "{form}: {sub_call:?}");
        let answer = position(&events, |e| {
            e["type"] == "TEXT_MESSAGE_CONTENT" && e["delta"] == "Paris:"
        });
        assert!(mine(&events[answer]), "{form}: the sub-agent's answer");
        assert!(start < answer && answer < finish, "{form}");
        for (i, e) in events.iter().enumerate() {
            if i < start || i > finish {
                assert!(e.get("subagentRunId").is_none(), "{form}: #{i} {e}");
            }
        }
    }
}

/// An interrupt inside the sub-agent suspends it and interrupts the run; the resume does not
/// start either waiting call again, it answers both, the resumed sub-agent's call under it.
#[test]
fn an_interrupt_inside_a_sub_agent_suspends_it() {
    for form in FORMS {
        let events = convert(
            form,
            &[
                "m_supervisor_hitl__1_interrupt",
                "m_supervisor_hitl__2_resume",
            ],
        );
        let first_end = position(&events, |e| e["type"] == "RUN_FINISHED");
        let run1 = &events[..=first_end];
        let run2 = &events[first_end + 1..];
        let outcome = &run1[first_end]["outcome"];
        assert_eq!(outcome["type"], "interrupt", "{form}");
        let ids: Vec<Value> = outcome["interrupts"]
            .as_array()
            .expect("interrupts")
            .iter()
            .map(|i| i["id"].clone())
            .collect();
        let suspended = run1
            .iter()
            .find(|e| e["type"] == "SUBAGENT_FINISHED")
            .unwrap_or_else(|| panic!("{form}: the sub-agent is finished"));
        assert_eq!(suspended["outcome"]["type"], "suspended", "{form}");
        // An interrupt raised by a call of the sub-agent is the sub-agent's.
        for i in outcome["interrupts"].as_array().expect("interrupts") {
            if i["toolCallId"] == "call_place_order_1" {
                assert_eq!(i["subagentRunId"], suspended["subagentRunId"], "{form}");
            }
        }
        assert_eq!(
            suspended["outcome"]["interruptIds"],
            Value::Array(ids),
            "{form}"
        );
        for call in ["call_ask_order_1", "call_place_order_1"] {
            let of = |e: &&Value, kind: &str| e["type"] == kind && e["toolCallId"] == call;
            assert!(
                !run2.iter().any(|e| of(&e, "TOOL_CALL_START")),
                "{form}: {call} started again"
            );
            assert!(
                run2.iter().any(|e| of(&e, "TOOL_CALL_RESULT")),
                "{form}: {call} answered"
            );
        }
        let place = run2
            .iter()
            .find(|e| e["type"] == "TOOL_CALL_RESULT" && e["toolCallId"] == "call_place_order_1")
            .expect("result");
        if form != "v2-js" {
            // LangGraph.js v2 names no call at a tool's start (the call is matched to the model
            // message that made it, and the resume file has none): the sub-agent is not found
            // again in the resume run, its events are the run's own.
            assert!(place["subagentRunId"].is_string(), "{form}: {place}");
        }
    }
}

/// One supervisor turn calls two sub-agents at once and their events interleave (the news
/// agent answers first). Each sub-agent is its own call's, named by its graph where the log
/// says it: the weather agent's tool call and answer carry its id, the news agent's answer
/// its own. The supervisor's results reach the client in call order, not the order the
/// sub-agents finished in (a sub-agent's model streaming again does not send the
/// supervisor's held results), each after its sub-agent finished. In
/// `m_supervisor_parallel_tool_node` (v2 Python) a ToolNode runs both calls in one task:
/// the second graph is told apart by LangGraph's `tools:<task>|1` namespace, as in the JS
/// forms of `m_supervisor_parallel`. Its v3 Python forms announce only the first graph
/// (no `cause`) and record no tool events: the graphs are paired with the supervisor
/// message's calls in order, and the second is named by its tool.
#[test]
fn parallel_sub_agents_keep_their_own_events_and_the_call_order() {
    let cases = FORMS
        .iter()
        .map(|form| (*form, "m_supervisor_parallel"))
        .chain([
            ("v2-python-api", "m_supervisor_parallel_tool_node"),
            ("v2-python-dumpd", "m_supervisor_parallel_tool_node"),
            ("v3-python", "m_supervisor_parallel_tool_node"),
            ("v3-python-inprocess", "m_supervisor_parallel_tool_node"),
        ]);
    for (form, name) in cases {
        let events = convert(form, &[name]);
        let started: Vec<&Value> = events
            .iter()
            .filter(|e| e["type"] == "SUBAGENT_STARTED")
            .collect();
        let parents: Vec<&Value> = started.iter().map(|e| &e["parentToolCallId"]).collect();
        assert_eq!(
            parents,
            ["call_ask_weather_1", "call_ask_news_1"],
            "{form}/{name}: one sub-agent per call"
        );
        let id_of = |call: &str| format!("{call}:subagent");
        let (weather, news) = (id_of("call_ask_weather_1"), id_of("call_ask_news_1"));
        if !form.ends_with("js") {
            // v3 JS names a sub-agent by its tool (no graph name reaches that log); v2 JS's
            // names are pinned by its snapshot (testdata/snap).
            assert_eq!(started[0]["name"], "weather_agent", "{form}/{name}");
            let v3_task = form.starts_with("v3") && name.ends_with("tool_node");
            let second = if v3_task {
                "ask_news_agent"
            } else {
                "news_agent"
            };
            assert_eq!(started[1]["name"], second, "{form}/{name}");
        }
        let owner = |f: &dyn Fn(&Value) -> bool| &events[position(&events, f)]["subagentRunId"];
        let sub_call =
            owner(&|e| e["type"] == "TOOL_CALL_START" && e["toolCallId"] == "call_sub_weather_1");
        assert_eq!(sub_call, weather.as_str(), "{form}/{name}");
        let text = |delta: &'static str| {
            move |e: &Value| e["type"] == "TEXT_MESSAGE_CONTENT" && e["delta"] == delta
        };
        assert_eq!(owner(&text("Paris:")), weather.as_str(), "{form}/{name}");
        assert_eq!(owner(&text(" Seine")), news.as_str(), "{form}/{name}");
        let result = |call: &'static str| {
            position(&events, move |e| {
                e["type"] == "TOOL_CALL_RESULT" && e["toolCallId"] == call
            })
        };
        let finished = |id: &str| {
            position(&events, |e| {
                e["type"] == "SUBAGENT_FINISHED" && e["subagentRunId"] == id
            })
        };
        let (weather_result, news_result) =
            (result("call_ask_weather_1"), result("call_ask_news_1"));
        assert!(weather_result < news_result, "{form}/{name}: call order");
        assert!(finished(&weather) < weather_result, "{form}/{name}");
        assert!(finished(&news) < news_result, "{form}/{name}");
    }
}
