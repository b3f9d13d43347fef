//! Golden tests: every recording in testdata/recordings converts to exactly the AG-UI stream
//! in testdata/golden (ids normalised). Regenerate deliberately with `UPDATE_GOLDEN=1`.

mod common;

use aguify::mapper::{Compat, MapOptions, TextPolicy, ToolSteps};
use aguify::pipeline::{convert_to_vec, Input, Options};
use common::{check_golden, recording_cases, testdata, Case, Normalizer};

fn convert(case: &Case, map: MapOptions) -> Vec<serde_json::Value> {
    let inputs = case
        .files
        .iter()
        .map(|f| {
            let bytes = std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let name = f
                .strip_prefix(testdata())
                .unwrap_or(f)
                .display()
                .to_string();
            Input::from_bytes(&name, bytes)
        })
        .collect();
    let opts = Options {
        map,
        ..Options::default()
    };
    convert_to_vec(inputs, &opts)
        .unwrap_or_else(|e| panic!("{}: {e}", case.name))
        .0
}

fn normalized_ndjson(events: Vec<serde_json::Value>) -> String {
    let mut n = Normalizer::new();
    let mut out = String::new();
    for mut e in events {
        n.event(&mut e);
        out.push_str(&e.to_string());
        out.push('\n');
    }
    out
}

fn run_variant(dir: &str, map: impl Fn() -> MapOptions, filter: impl Fn(&Case) -> bool) {
    let cases = recording_cases();
    assert!(!cases.is_empty(), "no recordings under testdata/recordings");
    let mut failures = vec![];
    let mut n = 0;
    for case in cases.iter().filter(|c| filter(c)) {
        n += 1;
        let actual = normalized_ndjson(convert(case, map()));
        let path = testdata().join(dir).join(format!("{}.ndjson", case.name));
        if let Err(e) = check_golden(&path, &actual) {
            failures.push(e);
        }
    }
    assert!(n > 0, "no cases for {dir}");
    assert!(
        failures.is_empty(),
        "{} of {n} golden files differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn default_mapping_matches_golden() {
    run_variant("golden/default", MapOptions::default, |_| true);
}

/// Seed 004 policies on the scenario families they matter for.
#[test]
fn tdesign_policies_match_golden() {
    run_variant(
        "golden/tdesign",
        || MapOptions {
            text: TextPolicy::Final,
            tool_steps: ToolSteps::Reasoning,
            compat: Compat::Thinking,
            ..MapOptions::default()
        },
        |c| {
            let stem = c.name.rsplit('/').next().unwrap_or_default();
            ["b_react", "c_reasoning_openai", "d_hitl"]
                .iter()
                .any(|p| stem.starts_with(p))
        },
    );
}

/// `--compat thinking` for TDesign Chat, whose AG-UI adapter, while a thinking block is open,
/// only updates the block's current item: no tool call event, text message or other thinking
/// block may start inside one (the tool-step narration is closed first), and an interrupt is
/// shown as a text message (TDesign ignores `RUN_FINISHED.outcome`). The Node harness in
/// conformance/tdesign checks what TDesign then renders.
#[test]
fn tdesign_compat_keeps_thinking_blocks_flat_and_shows_interrupts() {
    let variants = [
        (TextPolicy::Stream, ToolSteps::None),
        (TextPolicy::Stream, ToolSteps::Reasoning),
        (TextPolicy::Final, ToolSteps::Reasoning),
    ];
    let mut problems = vec![];
    let (mut narrated, mut interrupts) = (0, 0);
    for case in recording_cases() {
        for (text, tool_steps) in variants {
            let map = MapOptions {
                text,
                tool_steps,
                compat: Compat::Thinking,
                ..MapOptions::default()
            };
            let mut open = false;
            let mut shown: Vec<String> = vec![];
            for (i, e) in convert(&case, map).iter().enumerate() {
                let kind = e["type"].as_str().unwrap_or_default();
                let at = format!("{} {text:?}/{tool_steps:?} event {i} {kind}", case.name);
                match kind {
                    "THINKING_START" if open => problems.push(format!("{at}: nested")),
                    "THINKING_START" => open = true,
                    "THINKING_END" => open = false,
                    "THINKING_TEXT_MESSAGE_CONTENT" => {
                        narrated +=
                            usize::from(e["delta"].as_str() == Some("Calling tool get_weather.\n"));
                    }
                    "TEXT_MESSAGE_START" | "TOOL_CALL_START" | "TOOL_CALL_ARGS"
                    | "TOOL_CALL_END" | "TOOL_CALL_RESULT"
                        if open =>
                    {
                        problems.push(format!("{at}: inside an open thinking block"))
                    }
                    _ => {}
                }
                if kind == "TEXT_MESSAGE_CONTENT" {
                    shown.push(e["delta"].as_str().unwrap_or_default().to_string());
                }
                if kind == "RUN_STARTED" {
                    shown.clear();
                }
                if kind == "RUN_FINISHED" && e["outcome"]["type"] == "interrupt" {
                    for int in e["outcome"]["interrupts"].as_array().into_iter().flatten() {
                        interrupts += 1;
                        let text = int["message"].as_str().unwrap_or_default();
                        if !shown.iter().any(|s| s == text) {
                            problems.push(format!("{at}: interrupt {text:?} not shown"));
                        }
                    }
                }
            }
        }
    }
    assert!(
        narrated > 0 && interrupts > 0,
        "the recordings no longer exercise this"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn conversion_is_deterministic() {
    for case in recording_cases() {
        let a = convert(&case, MapOptions::default());
        let b = convert(&case, MapOptions::default());
        assert_eq!(a, b, "{}: two conversions differ", case.name);
    }
}
