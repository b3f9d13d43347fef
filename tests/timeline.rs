//! Snapshot tests of `aguify timeline` and `aguify explain` (issue 4).
//!
//! Goldens live in `testdata/timeline-golden/`: `<case>.timeline.txt` and `<case>.explain.txt`
//! (explain's exit code is the first line). `UPDATE_GOLDEN=1 cargo test --test timeline`
//! rewrites them; review the diff before committing.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Every scenario family (a plain chat … i tool output delta) and every failure kind
/// (tool raises, model auth / connection / rate limit / timeout, recursion limit, truncated
/// stream, bad tail line, task error, AG-UI RUN_ERROR and missing terminal).
const CASES: &[&str] = &[
    "recordings/v3-js/a_plain_chat.ndjson",
    "recordings/v3-js/b_react_one_tool.ndjson",
    "recordings/v3-js/b_react_parallel.ndjson",
    "recordings/v3-js/b_react_text_and_tool.ndjson",
    "recordings/v3-js/c_reasoning_anthropic.ndjson",
    "recordings/v3-js/c_reasoning_anthropic_redacted.ndjson",
    "recordings/v3-js/c_reasoning_deepseek.ndjson",
    "recordings/v3-js/c_reasoning_openai.ndjson",
    "recordings/v3-js/c_reasoning_v1.ndjson",
    "recordings/v3-js/d_hitl__1_interrupt.ndjson",
    "recordings/v3-js/d_hitl__2_resume.ndjson",
    "recordings/v3-js/e_error_tool_handled.ndjson",
    "recordings/v3-js/e_error_tool_raises.ndjson",
    "recordings/v3-js/e_model_auth.ndjson",
    "recordings/v3-js/e_model_connection.ndjson",
    "recordings/v3-js/e_model_rate_limit.ndjson",
    "recordings/v3-js/e_model_timeout.ndjson",
    "recordings/v3-js/e_recursion_limit.ndjson",
    "recordings/v3-js/e_truncated_stream.ndjson",
    "recordings/v3-js/f_subgraph.ndjson",
    "recordings/v3-js/g_custom_events.ndjson",
    "recordings/v3-js/h_state.ndjson",
    "recordings/v3-js/i_tool_output_delta.ndjson",
    "recordings/v3-js/l_cancelled.ndjson",
    // A supervisor whose tool runs a sub-agent: nested under the step running the call.
    "recordings/v3-js/m_supervisor.ndjson",
    "recordings/v2-python-api/m_supervisor.ndjson",
    "recordings/v3-python/m_supervisor_hitl__1_interrupt.ndjson",
    "recordings/v2-python-api/a_plain_chat.ndjson",
    "recordings/v2-python-api/d_hitl__1_interrupt.ndjson",
    "recordings/v2-python-api/d_hitl__2_resume.ndjson",
    "recordings/v2-python-api/e_error_tool_handled.ndjson",
    "recordings/v2-python-api/e_model_auth.ndjson",
    "recordings/v2-python-api/e_truncated_stream.ndjson",
    "recordings/v2-python-api/f_subgraph.ndjson",
    "recordings/v2-python-api/l_cancelled.ndjson",
    "recordings/v3-python/c_reasoning_anthropic.ndjson",
    "recordings/v3-python/e_model_timeout.ndjson",
    "recordings/sse/platform-classic-events.e_error_tool_raises.sse",
    "recordings/sse/platform-classic-events.d_hitl__1_interrupt.sse",
    "recordings/sse/platform-v3-protocol.e_recursion_limit.sse",
    "recordings/sse/platform-v3-protocol.f_subgraph.sse",
    "recordings/sse/platform-v3-protocol.l_cancelled.sse",
    "timeline/agui-chunks-interrupt.ndjson",
    "timeline/agui-no-terminal.ndjson",
    "timeline/agui-run-error.ndjson",
    // Another adapter's RUN_ERROR without a code: explain classes it by its message (22.10).
    "timeline/peer-ag-ui-langgraph.e_model_connection_reset.ndjson",
    "timeline/peer-ag-ui-langgraph.e_recursion_limit.ndjson",
    "timeline/sse-auth-error.sse",
    "timeline/v2-bad-tail.ndjson",
    "timeline/v3-task-error.ndjson",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn aguify(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_aguify"))
        .args(args)
        .current_dir(root().join("testdata"))
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("COLUMNS")
        .output()
        .expect("run aguify");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn golden_name(case: &str, what: &str) -> PathBuf {
    let stem = case.replace(['/', '.'], "_");
    root()
        .join("testdata/timeline-golden")
        .join(format!("{stem}.{what}.txt"))
}

/// Compares with the golden file, or rewrites it under UPDATE_GOLDEN=1. Returns a diff note.
fn check_golden(path: &Path, actual: &str) -> Option<String> {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().expect("golden dir")).expect("mkdir");
        std::fs::write(path, actual).expect("write golden");
        return None;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        return None;
    }
    let first = expected
        .lines()
        .zip(actual.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    Some(format!(
        "{}: differs at line {}\n  expected: {:?}\n  actual:   {:?}",
        path.display(),
        first + 1,
        expected.lines().nth(first).unwrap_or("<end>"),
        actual.lines().nth(first).unwrap_or("<end>")
    ))
}

#[test]
fn timeline_snapshots() {
    let mut failures = vec![];
    for case in CASES {
        let (code, out, err) = aguify(&["timeline", "--color", "never", "--width", "110", case]);
        assert_eq!(code, 0, "{case}: {err}");
        failures.extend(check_golden(&golden_name(case, "timeline"), &out));
    }
    assert!(
        failures.is_empty(),
        "{}\n(UPDATE_GOLDEN=1 to accept)",
        failures.join("\n")
    );
}

#[test]
fn explain_snapshots() {
    let mut failures = vec![];
    for case in CASES {
        let (code, out, err) = aguify(&["explain", "--color", "never", case]);
        assert!(code == 0 || code == 1, "{case}: exit {code}: {err}");
        let name = case.rsplit('/').next().unwrap_or(case);
        let failure_case = name.starts_with("e_") || name.contains(".e_");
        let failed = failure_case && !name.contains("tool_handled")
            || case.starts_with("timeline/") && !case.contains("interrupt");
        assert_eq!(code == 0, failed, "{case}: exit {code}\n{out}");
        failures.extend(check_golden(
            &golden_name(case, "explain"),
            &format!("exit {code}\n{out}"),
        ));
    }
    assert!(
        failures.is_empty(),
        "{}\n(UPDATE_GOLDEN=1 to accept)",
        failures.join("\n")
    );
}

/// Issue 22.10: another adapter's RUN_ERROR has a message and no code; explain classes it
/// as the converter classes a log's error (one classifier), not as AGENT_INTERNAL.
#[test]
fn explain_classes_a_run_error_without_a_code_by_its_message() {
    for (case, code) in [
        (
            "timeline/peer-ag-ui-langgraph.e_model_connection_reset.ndjson",
            "UPSTREAM_UNREACHABLE",
        ),
        (
            "timeline/peer-ag-ui-langgraph.e_recursion_limit.ndjson",
            "GRAPH_STEP_LIMIT",
        ),
    ] {
        let (_, out, err) = aguify(&["explain", "--format", "json", case]);
        let v: serde_json::Value =
            serde_json::from_str(&out).unwrap_or_else(|e| panic!("{case}: {e}: {err}"));
        assert_eq!(v["explained"][0]["error"]["code"], code, "{case}");
    }
}

#[test]
fn explain_json_is_the_documented_object() {
    let (code, out, _) = aguify(&[
        "explain",
        "--format",
        "json",
        "-n",
        "3",
        "timeline/v3-task-error.ndjson",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["schema"], "aguify-explain/1");
    assert_eq!(v["runs"], 1);
    let x = &v["explained"][0];
    assert_eq!(x["ending"], "run_error");
    assert_eq!(x["error"]["code"], "UPSTREAM_UNREACHABLE");
    assert_eq!(x["error"]["name"], "APIConnectionError");
    assert_eq!(x["error"]["carriedBy"]["line"], 8);
    assert_eq!(x["lastRecords"].as_array().map(Vec::len), Some(3));
    assert_eq!(x["nearestSignal"]["kind"], "lifecycle_failed");
    let kinds: Vec<&str> = x["signals"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["kind"].as_str())
        .collect();
    assert!(
        kinds.contains(&"tool_error") && kinds.contains(&"task_error"),
        "{kinds:?}"
    );
    for key in [
        "file",
        "runId",
        "threadId",
        "startedAt",
        "open",
        "finalState",
        "cause",
        "hint",
    ] {
        assert!(x.get(key).is_some(), "missing {key}");
    }
}

#[test]
fn explain_exit_codes() {
    let (code, out, _) = aguify(&["explain", "recordings/v3-js/a_plain_chat.ndjson"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("nothing to explain"));
    let (code, _, err) = aguify(&["explain", "timeline/does-not-exist.ndjson"]);
    assert_eq!(code, 2);
    assert!(err.contains("does-not-exist"));
}

/// tailspin's invariant: colour changes nothing but the escape codes.
#[test]
fn coloured_output_stripped_equals_plain() {
    for case in CASES {
        for width in ["60", "110"] {
            let (_, plain, _) = aguify(&["timeline", "--color", "never", "--width", width, case]);
            let (_, coloured, _) =
                aguify(&["timeline", "--color", "always", "--width", width, case]);
            assert!(coloured.contains("\u{1b}["), "{case}: no colour");
            assert_eq!(strip_ansi(&coloured), plain, "{case} at width {width}");
        }
        let (_, plain, _) = aguify(&["explain", "--color", "never", case]);
        let (_, coloured, _) = aguify(&["explain", "--color", "always", case]);
        assert_eq!(strip_ansi(&coloured), plain, "explain {case}");
    }
}

#[test]
fn color_env_is_honoured_and_pipes_are_plain() {
    let case = "timeline/agui-run-error.ndjson";
    let run = |env: &[(&str, &str)]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_aguify"));
        c.args(["timeline", case])
            .current_dir(root().join("testdata"));
        c.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
        for (k, v) in env {
            c.env(k, v);
        }
        String::from_utf8_lossy(&c.output().expect("run").stdout).into_owned()
    };
    assert!(!run(&[]).contains('\u{1b}'), "a pipe gets plain output");
    assert!(run(&[("CLICOLOR_FORCE", "1")]).contains('\u{1b}'));
    assert!(!run(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]).contains('\u{1b}'));
}

#[test]
fn width_cuts_previews_and_full_does_not() {
    let case = "timeline/agui-chunks-interrupt.ndjson";
    let (_, narrow, _) = aguify(&["timeline", "--color", "never", "--width", "60", case]);
    assert!(narrow.contains('…'));
    let (_, full, _) = aguify(&[
        "timeline", "--color", "never", "--width", "60", "--full", case,
    ]);
    assert!(full.contains("Done: 20 rows deleted.↵Anything else?"));
    assert!(full.contains("\"Delete 20 rows from orders?\""));
}

/// `--follow --exit-on-end` reads a file while another thread is still writing it.
#[test]
fn follow_reads_a_growing_file() {
    let dir = std::env::temp_dir().join(format!("aguify-follow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let path = dir.join("growing.ndjson");
    let lines: Vec<String> =
        std::fs::read_to_string(root().join("testdata/timeline/agui-run-error.ndjson"))
            .expect("case")
            .lines()
            .map(str::to_string)
            .collect();
    let (head, tail) = lines.split_at(2);
    std::fs::write(&path, format!("{}\n", head.join("\n"))).expect("write head");
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_aguify"))
        .args([
            "timeline",
            "--color",
            "never",
            "--width",
            "110",
            "--follow",
            "--exit-on-end",
        ])
        .arg(&path)
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    // The reader must still be waiting: append the rest in pieces, a line split across writes.
    std::thread::sleep(Duration::from_millis(400));
    assert!(
        child.try_wait().expect("wait").is_none(),
        "follow ended before the run did"
    );
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .expect("append");
    for line in tail {
        let (a, b) = line.split_at(line.len() / 2);
        f.write_all(a.as_bytes()).expect("w");
        f.flush().expect("flush");
        std::thread::sleep(Duration::from_millis(150));
        f.write_all(format!("{b}\n").as_bytes()).expect("w");
        f.flush().expect("flush");
    }
    drop(f);
    // Bounded: the run's RUN_ERROR ends it; never wait more than 20 s.
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("--follow --exit-on-end did not stop after the run ended");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    let text = String::from_utf8_lossy(&out.stdout);
    let (_, whole, _) = aguify(&[
        "timeline",
        "--color",
        "never",
        "--width",
        "110",
        "timeline/agui-run-error.ndjson",
    ]);
    // Same lines as reading the finished file, apart from the file name in the header.
    let body = |s: &str| s.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(body(&text), body(&whole));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Removes ANSI escape sequences (CSI `ESC [ … letter`), as the terminal shows the text.
fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// A line with no JSON is a signal before the run's end by its reason, whatever its words:
/// cut off, invalid, or nested too deeply (explain matched "truncated" and "invalid JSON" in
/// the message before, so the last was not one).
#[test]
fn explain_signals_every_line_that_is_not_json() {
    let dir = tempfile::tempdir().expect("temp dir");
    let head =
        std::fs::read_to_string(root().join("testdata/recordings/v3-js/a_plain_chat.ndjson"))
            .expect("recording");
    let first: Vec<&str> = head.lines().take(3).collect();
    for (bad, words) in [
        ("[".repeat(200) + &"]".repeat(200), "nested too deeply"),
        ("{\"type\":\"event\",".to_string(), "truncated JSON"),
        ("{\"type\":\"event\" x}".to_string(), "invalid JSON"),
    ] {
        let path = dir.path().join("log.ndjson");
        std::fs::write(&path, format!("{}\n{bad}\n", first.join("\n"))).expect("write log");
        let path = path.to_string_lossy().into_owned();
        let (_, out, err) = aguify(&["explain", "--format", "json", &path]);
        let v: serde_json::Value =
            serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
        let signal = &v["explained"][0]["nearestSignal"];
        assert_eq!(signal["kind"], "bad_line", "{words}: {out}");
        assert_eq!(signal["at"]["line"], 4, "{words}");
        assert!(
            signal["message"]
                .as_str()
                .is_some_and(|m| m.contains(words)),
            "{signal}"
        );
    }
}
