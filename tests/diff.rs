//! `aguify diff` and `aguify snapshot`: equal views of one run in different forms, single
//! edited values found at their path and lines, report-format goldens
//! (`testdata/diff-reports/`), and the checked-in golden snapshot of every recording
//! (`testdata/snap/`), stable across runs and `--threads`. `UPDATE_GOLDEN=1` regenerates goldens.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use aguify::diff::report::{Format, Report};
use aguify::diff::{self, Change, Item, Options, RunDiff, Summary};
use aguify::mapper::MapOptions;
use aguify::pipeline::{self, Input};

fn rec(p: &str) -> PathBuf {
    common::testdata().join("recordings").join(p)
}

fn s(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// A scratch directory for this test binary.
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("diff-tests");
    std::fs::create_dir_all(&d).expect("scratch dir");
    d.join(name)
}

fn popts(threads: usize) -> pipeline::Options {
    pipeline::Options {
        parse_threads: threads,
        ..pipeline::Options::default()
    }
}

/// Diffs two sides with the library; every run's comparison in order.
fn diff_with(old: &[PathBuf], new: &[PathBuf], opts: &Options) -> (Summary, Vec<RunDiff>) {
    let mut runs = Vec::new();
    let old: Vec<String> = old.iter().map(|p| s(p)).collect();
    let new: Vec<String> = new.iter().map(|p| s(p)).collect();
    let summary = diff::diff(
        &old,
        &new,
        &popts(1),
        opts,
        &mut |d| {
            runs.push(d.clone());
            Ok(())
        },
        &mut |o, m| panic!("bad line {o}: {m}"),
    )
    .expect("diff");
    (summary, runs)
}

fn diff(old: &[PathBuf], new: &[PathBuf]) -> (Summary, Vec<RunDiff>) {
    diff_with(old, new, &Options::default())
}

/// `(path, change, old line, new line)` of every difference.
fn found(runs: &[RunDiff]) -> Vec<(String, Change, u64, u64)> {
    runs.iter()
        .flat_map(|r| &r.differences)
        .map(|d| (d.pointer.clone(), d.change, d.old_at.line, d.new_at.line))
        .collect()
}

/// `src` with `from` replaced by `to` (`from` must occur `times` times), written to scratch.
fn edited(src: &Path, name: &str, from: &str, to: &str, times: usize) -> PathBuf {
    edited_all(src, name, &[(from, to, times)])
}

/// `src` with each `(from, to, times)` replacement made, written to scratch.
fn edited_all(src: &Path, name: &str, edits: &[(&str, &str, usize)]) -> PathBuf {
    let mut text = std::fs::read_to_string(src).expect("recording");
    for (from, to, times) in edits {
        assert_eq!(
            text.matches(from).count(),
            *times,
            "{from:?} in {}",
            src.display()
        );
        text = text.replace(from, to);
    }
    let out = scratch(name);
    std::fs::write(&out, text).expect("write");
    out
}

/// The 1-based lines of `path` holding `needle`.
fn lines_with(path: &Path, needle: &str) -> Vec<u64> {
    std::fs::read_to_string(path)
        .expect("read")
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(needle))
        .map(|(i, _)| i as u64 + 1)
        .collect()
}

/// `files` converted to AG-UI NDJSON with `map`, written to scratch as `name`.
fn converted(files: &[PathBuf], map: MapOptions, name: &str) -> PathBuf {
    let inputs = files
        .iter()
        .map(|f| Input::open(&s(f)).expect("open"))
        .collect();
    let opts = pipeline::Options {
        map,
        ..pipeline::Options::default()
    };
    let (events, _) = pipeline::convert_to_vec(inputs, &opts).expect("convert");
    let mut text = String::new();
    for e in events {
        text.push_str(&e.to_string());
        text.push('\n');
    }
    let out = scratch(name);
    std::fs::write(&out, text).expect("write");
    out
}

#[test]
fn api_and_dumpd_serialisations_of_one_run_diff_as_equal() {
    let mut pairs = 0;
    for entry in std::fs::read_dir(rec("v2-python-api")).expect("dir") {
        let api = entry.expect("entry").path();
        let dumpd = rec("v2-python-dumpd").join(api.file_name().expect("name"));
        if !dumpd.exists() {
            continue;
        }
        pairs += 1;
        let name = api.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let (summary, runs) = diff(std::slice::from_ref(&api), std::slice::from_ref(&dumpd));
        assert_eq!(summary.runs, 1, "{name}");
        // The dumpd form's tool errors keep only the exception's repr: their message is read
        // from it (issue 22.8), so every pair diffs equal, the tool error results too
        // (`e_error_tool_raises`, `e_error_tool_handled`).
        assert_eq!(found(&runs), vec![], "{name}");
    }
    assert!(pairs >= 20, "only {pairs} api/dumpd pairs");
}

#[test]
fn one_run_converted_with_other_thread_and_run_ids_diffs_as_equal() {
    let files = [
        rec("v3-python/d_hitl__1_interrupt.ndjson"),
        rec("v3-python/d_hitl__2_resume.ndjson"),
    ];
    let with = |t: &str, r: &str, name: &str| {
        let map = MapOptions {
            thread_id: Some(t.into()),
            run_id: Some(r.into()),
            ..MapOptions::default()
        };
        converted(&files, map, name)
    };
    let a = with("thread-a", "run-a", "ids-a.ndjson");
    let b = with("thread-b", "run-b", "ids-b.ndjson");
    let (ta, tb) = (
        std::fs::read_to_string(&a).expect("a"),
        std::fs::read_to_string(&b).expect("b"),
    );
    assert!(ta.contains("\"thread-a\"") && tb.contains("\"thread-b\"") && ta != tb);
    let (summary, runs) = diff(std::slice::from_ref(&a), std::slice::from_ref(&b));
    assert!(summary.is_equal(), "{:?}", found(&runs));
    assert_eq!(summary.runs, 2);
    // Event by event the ids differ, on every run.
    let exact = Options {
        exact: true,
        ..Options::default()
    };
    let (summary, runs) = diff_with(&[a], &[b], &exact);
    assert_eq!(summary.different_runs, 2);
    assert!(found(&runs).iter().any(|(p, ..)| p == "/events/0/threadId"));
}

/// One edited value: exactly one difference, at `path`, on the edited line of both sides.
fn assert_one(old: &Path, new: &Path, path: &str, line_with: &str) -> RunDiff {
    let (summary, runs) = diff(&[old.to_path_buf()], &[new.to_path_buf()]);
    let got = found(&runs);
    let lines = lines_with(new, line_with);
    assert_eq!(got.len(), 1, "{got:?}");
    let (p, change, old_line, new_line) = &got[0];
    assert_eq!((p.as_str(), *change), (path, Change::Changed));
    assert_eq!(old_line, new_line);
    assert!(lines.contains(new_line), "line {new_line} not in {lines:?}");
    assert_eq!(summary.differences, 1);
    runs.into_iter()
        .find(|r| !r.is_equal())
        .expect("a run differs")
}

#[test]
fn one_word_of_the_answer_changed() {
    let old = rec("v2-python-api/b_react_one_tool.ndjson");
    // The word wherever the recording has the answer: its delta, the model's end, the states.
    let new = edited(&old, "answer.ndjson", "sunny", "rainy", 6);
    let d = assert_one(
        &old,
        &new,
        "/messages/assistant-2/text",
        "\"content\":\" rainy\"",
    );
    let x = &d.differences[0];
    assert_eq!(x.old, Some("It is sunny and 22°C in Paris.".into()));
    assert_eq!(x.new, Some("It is rainy and 22°C in Paris.".into()));
    assert!(x.old_at.file.ends_with("b_react_one_tool.ndjson"));
    assert!(x.new_at.file.ends_with("answer.ndjson"));
    // Structure only: equal.
    let opts = Options {
        ignore_text: true,
        ..Options::default()
    };
    assert!(diff_with(&[old], &[new], &opts).0.is_equal());
}

#[test]
fn one_tool_argument_changed() {
    let old = rec("v3-python/i_tool_output_delta.ndjson");
    // The argument wherever the recording has it: its last delta, the call's end, the states.
    let new = edited_all(
        &old,
        "args.ndjson",
        &[
            ("\"args\":\"tall\\\"}\"", "\"args\":\"tead\\\"}\"", 1),
            (
                "\"args\":{\"query\":\"install\"}",
                "\"args\":{\"query\":\"instead\"}",
                7,
            ),
        ],
    );
    // Named at the delta where the argument's value begins (`": "ins`, both sides).
    assert_one(&old, &new, "/toolCalls/call-1/args/query", "\\\"ins\"");
    let opts = Options {
        ignore: vec!["/toolCalls/*/args/query".into()],
        ..Options::default()
    };
    assert!(diff_with(&[old], &[new], &opts).0.is_equal());
}

#[test]
fn one_interrupt_reason_changed() {
    let capture = converted(
        &[rec("v2-python-api/d_hitl__1_interrupt.ndjson")],
        MapOptions::default(),
        "interrupt.ndjson",
    );
    let new = edited(
        &capture,
        "interrupt-edited.ndjson",
        "\"reason\":\"confirmation\"",
        "\"reason\":\"review\"",
        1,
    );
    let d = assert_one(
        &capture,
        &new,
        "/interrupts/interrupt-1/reason",
        "\"reason\":\"review\"",
    );
    assert_eq!(d.differences[0].new, Some("review".into()));
}

#[test]
fn one_state_field_changed() {
    let old = rec("v3-python/h_state.ndjson");
    let new = edited(
        &old,
        "state.ndjson",
        "\"status\":\"done\"",
        "\"status\":\"failed\"",
        1,
    );
    assert_one(&old, &new, "/state/status", "\"status\":\"failed\"");
    let opts = Options {
        ignore: vec!["/state/status".into()],
        ..Options::default()
    };
    assert!(diff_with(&[old], &[new], &opts).0.is_equal());
}

#[test]
fn a_run_only_one_side_has_is_a_difference() {
    let one = rec("v2-python-api/d_hitl__1_interrupt.ndjson");
    let two = rec("v2-python-api/d_hitl__2_resume.ndjson");
    let (summary, runs) = diff(&[one.clone(), two], &[one]);
    assert_eq!((summary.runs, summary.different_runs), (2, 1));
    assert!(runs[0].is_equal());
    assert!(runs[1].old.is_some() && runs[1].new.is_none());
}

// ---- report formats -------------------------------------------------------------------------

/// A fixed diff with a changed answer, a changed state field, an added tool call and a run only
/// the new side has, rendered in `format` (scratch paths written as `TMP/`).
fn report(format: Format) -> String {
    let old = [
        rec("v3-python/h_state.ndjson"),
        rec("v2-python-api/b_react_one_tool.ndjson"),
    ];
    let new = [
        edited(
            &old[0],
            "r-state.ndjson",
            "\"status\":\"done\"",
            "\"status\":\"failed\"",
            1,
        ),
        rec("v2-python-api/b_react_parallel.ndjson"),
        rec("v2-python-api/a_plain_chat.ndjson"),
    ];
    let old: Vec<String> = old.iter().map(|p| s(p)).collect();
    let new: Vec<String> = new.iter().map(|p| s(p)).collect();
    let mut out = Vec::new();
    let mut r = Report::new(format, false, &mut out);
    let summary = diff::diff(
        &old,
        &new,
        &popts(1),
        &Options::default(),
        &mut |d| r.run(d),
        &mut |_, _| {},
    )
    .expect("diff");
    r.end(&summary, &old, &new).expect("end");
    let text = String::from_utf8(out).expect("utf-8");
    let tmp = s(&scratch(""));
    let root = format!("{}/", env!("CARGO_MANIFEST_DIR"));
    text.replace(&tmp, "TMP/").replace(&root, "")
}

fn golden(path: &Path, got: &str) {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, got).expect("write golden");
        return;
    }
    let want = std::fs::read_to_string(path)
        .unwrap_or_else(|_| panic!("{} missing (UPDATE_GOLDEN=1 to create)", path.display()));
    assert_eq!(
        got,
        want,
        "{} differs (UPDATE_GOLDEN=1 to accept)",
        path.display()
    );
}

#[test]
fn report_text() {
    let got = report(Format::Text);
    assert!(got.contains("/state/status changed"));
    golden(&common::testdata().join("diff-reports/report.txt"), &got);
}

#[test]
fn report_json() {
    let got = report(Format::Json);
    let v: serde_json::Value = serde_json::from_str(&got).expect("one JSON document");
    assert_eq!(v["equal"], false);
    assert_eq!(v["summary"]["runs"], 3);
    golden(&common::testdata().join("diff-reports/report.json"), &got);
}

#[test]
fn report_github() {
    let got = report(Format::Github);
    assert!(got.lines().all(|l| l.starts_with("::error ")));
    golden(
        &common::testdata().join("diff-reports/report.github.txt"),
        &got,
    );
}

// ---- golden snapshots -----------------------------------------------------------------------

/// The snapshot of `files` read with `threads` parse threads.
fn snapshot(files: &[PathBuf], threads: usize) -> String {
    let files: Vec<String> = files.iter().map(|p| s(p)).collect();
    let mut out = Vec::new();
    aguify::snapshot::write::header(&mut out).expect("header");
    diff::read_side(&files, &popts(threads), false, &mut |item| match item {
        Item::Run(r) => aguify::snapshot::write::run(&r, &mut out),
        Item::Bad { .. } => Ok(()),
    })
    .expect("snapshot");
    String::from_utf8(out).expect("utf-8")
}

fn snap_path(case: &common::Case) -> PathBuf {
    common::testdata()
        .join("snap")
        .join(format!("{}.snap", case.name))
}

#[test]
fn golden_snapshots_of_every_recording_are_stable() {
    let cases = common::recording_cases();
    assert!(cases.len() > 100, "{} cases", cases.len());
    for case in &cases {
        let one = snapshot(&case.files, 1);
        assert_eq!(one, snapshot(&case.files, 1), "{}: a second run", case.name);
        assert_eq!(one, snapshot(&case.files, 3), "{}: --threads 3", case.name);
        assert!(!one.contains("lc_run--"), "{}: an id left in", case.name);
        golden(&snap_path(case), &one);
    }
}

#[test]
fn a_snapshot_is_either_side_of_a_diff() {
    for name in [
        "v2-python-api/d_hitl",
        "v3-js/b_react_parallel",
        "sse/platform-v3-protocol.h_state",
    ] {
        let case = common::recording_cases()
            .into_iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no case {name}"));
        let snap = snap_path(&case);
        let (a, _) = diff(std::slice::from_ref(&snap), &case.files);
        let (b, _) = diff(&case.files, std::slice::from_ref(&snap));
        assert!(a.is_equal() && b.is_equal(), "{name}");
        assert!(a.runs >= 1);
    }
    // An edited value in the golden is found at its line there.
    let old = rec("v3-python/h_state.ndjson");
    let case = common::recording_cases()
        .into_iter()
        .find(|c| c.name == "v3-python/h_state")
        .expect("case");
    let snap = edited(
        &snap_path(&case),
        "h_state.snap",
        "/state/status \"done\"",
        "/state/status \"new\"",
        1,
    );
    let (_, runs) = diff(std::slice::from_ref(&snap), &[old]);
    let line = lines_with(&snap, "/state/status")[0];
    assert_eq!(
        found(&runs),
        [("/state/status".to_string(), Change::Changed, line, 11)]
    );
}

// ---- the command ----------------------------------------------------------------------------

fn aguify(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_aguify"))
        .args(args)
        .output()
        .expect("run aguify");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn exit_codes() {
    let a = s(&rec("v2-python-api/a_plain_chat.ndjson"));
    let b = s(&rec("v2-python-dumpd/a_plain_chat.ndjson"));
    let c = s(&rec("v2-python-api/h_state.ndjson"));
    let (code, out, _) = aguify(&["diff", &a, &b]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("equal: 1 run"), "{out}");
    let (code, out, _) = aguify(&["diff", "--color", "never", &a, &c]);
    assert_eq!(code, 1);
    assert!(out.contains("/messages/user-1/text changed"), "{out}");
    let (code, _, err) = aguify(&["diff", &a, "/nonexistent/x.ndjson"]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/x.ndjson"), "{err}");
    let (code, _, err) = aguify(&[
        "diff",
        "--exact",
        &snap_path_of("v2-python-api/a_plain_chat"),
        &a,
    ]);
    assert_eq!(code, 2, "{err}");
    let garbage = scratch("garbage.ndjson");
    std::fs::write(&garbage, "not json\n{\"neither\": 1\n").expect("write");
    let (code, _, err) = aguify(&["diff", &a, &s(&garbage)]);
    assert_eq!(code, 2, "{err}");
    // One message for a file of which nothing is of a known form, as every command has it
    // (issue 37 item 5), not one per line.
    assert!(
        err.contains("garbage.ndjson: no AG-UI or LangGraph records"),
        "{err}"
    );
    // Its unreadable lines are held (untold) for its first record up to 1,000, then told as
    // they come: memory is not the file's size.
    assert!(!err.contains("garbage.ndjson:1:"), "{err}");
    let long = scratch("long-garbage.ndjson");
    std::fs::write(&long, "not json\n".repeat(1500)).expect("write");
    let (code, _, err) = aguify(&["diff", &a, &s(&long)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("long-garbage.ndjson:1: invalid JSON"), "{err}");
    assert!(err.contains("… and 1495 more unreadable lines"), "{err}");
    assert!(
        err.contains("long-garbage.ndjson: no AG-UI or LangGraph records"),
        "{err}"
    );
    let (code, out, _) = aguify(&["diff", "--old", &a, &c, "--new", &b, &c]);
    assert_eq!(code, 0, "{out}");
    let (code, _, err) = aguify(&["diff", "--ignore", "state", &a, &b]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("invalid value 'state' for '--ignore <POINTER>': expected a JSON pointer starting with /"),
        "{err}"
    );
}

fn snap_path_of(name: &str) -> String {
    s(&common::testdata().join("snap").join(format!("{name}.snap")))
}

#[test]
fn snapshot_command_writes_the_golden() {
    let case = "v2-python-api/d_hitl";
    let (code, out, _) = aguify(&[
        "snapshot",
        &s(&rec("v2-python-api/d_hitl__1_interrupt.ndjson")),
        &s(&rec("v2-python-api/d_hitl__2_resume.ndjson")),
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        std::fs::read_to_string(snap_path_of(case)).expect("golden")
    );
}

/// A corrupt snapshot whose item index is far past the array's end: one added value at its
/// pointer. Before, aligning the array's items allocated that many items and aborted.
#[test]
fn a_snapshot_item_index_far_past_the_end_is_one_difference() {
    let head = "# aguify snapshot 1\nrun 1\n/outcome \"success\"\n/steps []\n/steps/0 \"a\"\n";
    let old = scratch("corrupt-old.snap");
    let new = scratch("corrupt-new.snap");
    std::fs::write(&old, head).expect("write");
    std::fs::write(&new, format!("{head}/steps/4000000000 \"b\"\n")).expect("write");
    let (_, runs) = diff(&[old], &[new]);
    assert_eq!(
        found(&runs),
        [("/steps/4000000000".to_string(), Change::Added, 4, 6)]
    );
}
