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

#[test]
fn conversion_is_deterministic() {
    for case in recording_cases() {
        let a = convert(&case, MapOptions::default());
        let b = convert(&case, MapOptions::default());
        assert_eq!(a, b, "{}: two conversions differ", case.name);
    }
}
