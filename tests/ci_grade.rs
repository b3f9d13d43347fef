//! CI-grade behaviour (issue 23) and the reliability items of issue 26 the commands own:
//! exit codes that fail what breaks, diagnostics a person (and a CI log) can read.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

mod util;
use util::{scratch_dir, Scratch};

const BIN: &str = env!("CARGO_BIN_EXE_aguify");

struct Run {
    code: i32,
    out: String,
    err: String,
}

fn run_in(dir: &Path, args: &[&str], stdin: Option<&[u8]>, env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("COLUMNS")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("spawn aguify");
    if let Some(bytes) = stdin {
        let mut i = child.stdin.take().expect("stdin");
        i.write_all(bytes).expect("write stdin");
    }
    let o = child.wait_with_output().expect("wait");
    Run {
        code: o.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn run(dir: &Path, args: &[&str]) -> Run {
    run_in(dir, args, None, &[])
}

fn scratch(name: &str) -> Scratch {
    scratch_dir("ci", name)
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("write file");
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

const START: &str = r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#;
const FINISH: &str = r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#;

/// A run with one warning (AGX211, an unknown key).
fn warned_run() -> String {
    let start = r#"{"type":"RUN_STARTED","threadId":"t","runId":"r","foo":1}"#;
    format!("{start}\n{FINISH}\n")
}

fn clean_run() -> String {
    format!(
        "{START}\n{}\n{}\n{}\n{FINISH}\n",
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hi"}"#,
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m"}"#
    )
}

/// A run with `n` unreadable lines inside it (AGX501 each).
fn run_with_bad_lines(n: usize) -> String {
    let mut s = format!("{START}\n");
    for i in 0..n {
        s.push_str(&format!("{{bad {i}\n"));
    }
    s.push_str(FINISH);
    s.push('\n');
    s
}

// ---- 23.2: nothing of a known form ----

#[test]
fn nothing_of_a_known_form_exits_2_with_one_message_in_every_command() {
    let d = scratch("unknown");
    write(&d, "table.csv", "a,b\n1,2\n3,4\n");
    write(&d, "empty.ndjson", "");
    write(
        &d,
        "array.json",
        "[{\"type\":\"RUN_STARTED\"},{\"type\":\"RUN_FINISHED\"}]\n",
    );
    std::fs::write(
        d.join("blob.bin"),
        [0xffu8, 0xfe, 0x00, 0x9c, b'\n', 0x80, 0x81],
    )
    .unwrap();
    write(&d, "agui.ndjson", &clean_run());
    let cases: [(&str, &[&str]); 5] = [
        ("table.csv", &[]),
        ("empty.ndjson", &[]),
        ("array.json", &[]),
        ("blob.bin", &[]),
        ("agui.ndjson", &["--from", "v3"]),
    ];
    for (file, extra) in cases {
        let want = if extra.is_empty() {
            format!("{file}: no AG-UI or LangGraph records (is it NDJSON or SSE?)")
        } else {
            // A wrong `--from` names the form found (issue 37 item 11).
            format!("{file}: its records are AG-UI records, not the v3 protocol records --from asks for")
        };
        for cmd in ["convert", "timeline", "explain"] {
            let mut args = vec![cmd];
            args.extend_from_slice(extra);
            args.push(file);
            let r = run(&d, &args);
            assert_eq!(r.code, 2, "{cmd} {file}: {}", r.err);
            assert_eq!(r.err.matches(&want).count(), 1, "{cmd} {file}: {}", r.err);
            // One message per file: the lines of a file that is no recording are not listed.
            assert!(!r.err.contains("[AGX608]"), "{cmd} {file}: {}", r.err);
        }
        let mut args = vec!["check", "--format", "json"];
        args.extend_from_slice(extra);
        args.push(file);
        let r = run(&d, &args);
        assert_eq!(r.code, 2, "check {file}: {}", r.out);
        let v: serde_json::Value = serde_json::from_str(&r.out).expect("json");
        assert!(
            v["files"][0]["officialValid"].is_null(),
            "{file}: {}",
            r.out
        );
        let rules: Vec<&str> = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|f| f["rule"].as_str())
            .collect();
        assert_eq!(rules, ["AGX505"], "{file}");
    }
    // A JSON array gets the jq hint.
    let r = run(&d, &["convert", "array.json"]);
    assert!(r.err.contains("jq -c '.[]'"), "{}", r.err);
    // One bad line among good ones stays as it was: reported, converted, exit 0.
    let mut mixed = clean_run();
    mixed.insert_str(START.len() + 1, "{oops\n");
    write(&d, "mixed.ndjson", &mixed);
    let r = run(&d, &["convert", "mixed.ndjson"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.err.contains("mixed.ndjson:2"), "{}", r.err);
}

// ---- 23.3: unreadable files, directories, --files-from ----

#[test]
fn check_reports_an_unreadable_file_as_a_finding_and_checks_the_others() {
    let d = scratch("missing");
    write(&d, "good.ndjson", &clean_run());
    let r = run(
        &d,
        &["check", "--format", "json", "nope.ndjson", "good.ndjson"],
    );
    assert_eq!(r.code, 2, "{}", r.err);
    let v: serde_json::Value = serde_json::from_str(&r.out).expect("json on stdout");
    assert_eq!(v["summary"]["files"], 2);
    assert_eq!(v["files"][0]["file"], "nope.ndjson");
    assert_eq!(v["files"][1]["officialValid"], true);
    assert_eq!(v["findings"][0]["rule"], "AGX504");
    let r = run(&d, &["check", "--format", "github", "nope.ndjson"]);
    assert!(
        r.out.contains("::error file=nope.ndjson,title=AGX504::"),
        "{}",
        r.out
    );
}

#[test]
fn check_walks_directories_and_reads_files_from_a_list() {
    let d = scratch("walk");
    std::fs::create_dir_all(d.join("runs/sub")).unwrap();
    write(&d, "runs/a.ndjson", &clean_run());
    write(&d, "runs/sub/b.jsonl", &clean_run());
    write(
        &d,
        "runs/c.sse",
        &format!("data: {START}\n\ndata: {FINISH}\n\n"),
    );
    write(&d, "runs/notes.txt", "not a recording");
    let r = run(&d, &["check", "--verbose", "runs"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    for f in ["runs/a.ndjson", "runs/c.sse", "runs/sub/b.jsonl"] {
        assert!(r.out.contains(f), "{f} in {}", r.out);
    }
    assert!(!r.out.contains("notes.txt"), "{}", r.out);
    assert!(r.out.contains("3 files checked"), "{}", r.out);
    write(&d, "list.txt", "runs/a.ndjson\n\nruns/c.sse\n");
    let r = run(&d, &["check", "--files-from", "list.txt"]);
    assert!(r.out.contains("2 files checked"), "{}", r.out);
    let r = run_in(
        &d,
        &["check", "--files-from", "-"],
        Some(b"runs/a.ndjson\n"),
        &[],
    );
    assert!(r.out.contains("1 file checked"), "{}", r.out);
}

// ---- 23.4: --compat thinking ----

#[test]
fn compat_thinking_is_that_modes_vocabulary() {
    let rec = repo().join("testdata/recordings/v2-js/c_reasoning_anthropic.ndjson");
    let rec = rec.to_string_lossy();
    let r = run(
        &repo(),
        &[
            "convert",
            "--compat",
            "thinking",
            "--fail-on",
            "error",
            &rec,
        ],
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(!r.err.contains("AGX202"), "{}", r.err);
    let r = run(&repo(), &["check", "--compat", "thinking", &rec]);
    assert_eq!(r.code, 0, "{}", r.out);
}

// ---- 23.5: --max-warnings says so ----

#[test]
fn max_warnings_exceeded_is_said_in_every_format() {
    let d = scratch("maxwarn");
    write(&d, "warn.ndjson", &warned_run());
    for (format, want) in [
        ("text", "too many warnings: 1 > 0"),
        ("json", "\"tooManyWarnings\": \"too many warnings: 1 > 0\""),
        ("github", "::error title=aguify::too many warnings: 1 > 0"),
        ("junit", "too many warnings: 1 &gt; 0"),
        ("sarif", "too many warnings: 1 > 0"),
    ] {
        let r = run(
            &d,
            &[
                "check",
                "--fail-on",
                "none",
                "--max-warnings",
                "0",
                "--format",
                format,
                "warn.ndjson",
            ],
        );
        assert_eq!(r.code, 1, "{format}");
        assert!(r.out.contains(want), "{format}: {}", r.out);
    }
}

// ---- 23.6: no file on a terminal ----

#[test]
fn check_with_no_file_on_a_terminal_prints_a_usage_hint() {
    // `script` gives aguify a terminal for stdin; without it (not util-linux) there is no
    // terminal to test with.
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` to make a terminal");
        return;
    }
    let mut child = Command::new("script")
        .args(["-qec", &format!("{BIN} check"), "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script");
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            let o = child.wait_with_output().expect("output");
            let text = String::from_utf8_lossy(&o.stdout);
            assert!(text.contains("usage: aguify check FILE"), "{text}");
            assert_eq!(status.code(), Some(2), "{text}");
            return;
        }
        if started.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("`aguify check` waited on a terminal's stdin");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

// ---- 23.7 and 26.10: repeats collapse, counts by rule ----

#[test]
fn repeated_findings_collapse_with_counts_by_rule() {
    let d = scratch("collapse");
    write(&d, "bad.ndjson", &run_with_bad_lines(20));
    let r = run(&d, &["check", "bad.ndjson"]);
    assert_eq!(r.code, 1);
    assert_eq!(r.out.matches("[AGX501]").count(), 5, "{}", r.out);
    assert!(
        r.out.contains("… and 15 more AGX501 in bad.ndjson"),
        "{}",
        r.out
    );
    assert!(r.out.contains("Findings by rule:"), "{}", r.out);
    assert!(r.out.contains("      20  AGX501  error"), "{}", r.out);
    assert!(r.out.contains("20 errors"), "{}", r.out);
    let r = run(&d, &["check", "--format", "github", "bad.ndjson"]);
    assert_eq!(
        r.out.matches("::error file=bad.ndjson").count(),
        5,
        "{}",
        r.out
    );
    assert!(
        r.out.contains("… and 15 more AGX501 in bad.ndjson"),
        "{}",
        r.out
    );
    assert!(r.out.contains("      20  AGX501"), "{}", r.out);
    let r = run(&d, &["check", "--max-per-rule", "0", "bad.ndjson"]);
    assert_eq!(r.out.matches("[AGX501]").count(), 20, "{}", r.out);
    // convert: the same limit, --quiet, --allow, --deny.
    let r = run(&d, &["convert", "bad.ndjson"]);
    assert_eq!(r.err.matches("[AGX501]").count(), 5, "{}", r.err);
    assert!(
        r.err.contains("… and 15 more AGX501 in bad.ndjson"),
        "{}",
        r.err
    );
    assert!(r.err.contains("20 errors"), "{}", r.err);
    let r = run(
        &d,
        &["convert", "--quiet", "--fail-on", "error", "bad.ndjson"],
    );
    assert_eq!(r.err, "");
    assert_eq!(r.code, 1);
    let r = run(&d, &["convert", "--allow", "AGX501,AGX301", "bad.ndjson"]);
    assert!(!r.err.contains("AGX501"), "{}", r.err);
    write(&d, "open.ndjson", &format!("{START}\n"));
    let r = run(&d, &["convert", "--deny", "agx301", "open.ndjson"]);
    assert!(r.err.contains("error[AGX301]"), "{}", r.err);
}

#[test]
fn timeline_and_check_keep_counts_not_every_finding() {
    let d = scratch("bounded");
    write(&d, "bad.ndjson", &run_with_bad_lines(3000));
    let r = run(&d, &["timeline", "--no-check", "bad.ndjson"]);
    assert_eq!(
        r.out.matches("bad line: invalid JSON").count(),
        5,
        "{}",
        r.out
    );
    assert!(r.out.contains("… and 2995 more bad lines\n"), "{}", r.out);
    write(&d, "six.ndjson", &run_with_bad_lines(6));
    let r = run(&d, &["timeline", "--no-check", "six.ndjson"]);
    assert!(r.out.contains("… and 1 more bad line\n"), "{}", r.out);
    let r = run(&d, &["timeline", "bad.ndjson"]);
    assert!(
        r.out.contains("… and 2995 more AGX501 in bad.ndjson"),
        "{}",
        r.out
    );
    // The JSON report counts every finding and lists at most KEEP_PER_RULE (1000) a rule.
    let r = run(&d, &["check", "--format", "json", "bad.ndjson"]);
    let v: serde_json::Value = serde_json::from_str(&r.out).expect("json");
    assert_eq!(v["summary"]["errors"], 3000);
    assert_eq!(v["files"][0]["byRule"]["AGX501"], 3000);
    assert_eq!(v["files"][0]["omitted"], 2000);
    assert_eq!(v["findings"].as_array().map(Vec::len), Some(1000));
}

// ---- 23.8: one finding per fact, every finding with a rule id, one count ----

#[test]
fn one_finding_per_fact_each_with_a_rule_id_and_one_count() {
    let bad = repo().join("testdata/bad");
    let r = run(
        &bad,
        &["convert", "--stats", "--to", "ndjson", "12-v3-seq.ndjson"],
    );
    let findings: Vec<&str> = r
        .err
        .lines()
        .filter(|l| l.starts_with("aguify: 12-v3-seq.ndjson:"))
        .collect();
    for l in &findings {
        assert!(l.contains("[AGX"), "no rule id: {l}");
    }
    // The replayed event at line 4 is one finding (AGX602), not AGX609 and AGX602.
    let at4: Vec<&&str> = findings
        .iter()
        .filter(|l| l.contains(".ndjson:4:"))
        .collect();
    assert_eq!(at4.len(), 1, "{at4:?}");
    assert!(at4[0].contains("[AGX602]"));
    // --stats and the checker give one count.
    let stats = r
        .err
        .lines()
        .find(|l| l.contains("lines read"))
        .expect("stats");
    let summary = r
        .err
        .lines()
        .find(|l| l.contains("file checked"))
        .expect("summary");
    let n = findings.iter().filter(|l| l.contains("warning[")).count();
    assert!(stats.ends_with(&format!("; {n} warnings")), "{stats}");
    assert!(summary.ends_with(&format!("{n} warnings")), "{summary}");
    // AGX609 is a record of no known form only; a known form it cannot convert is AGX611.
    let r = run(&bad, &["convert", "10-v2-missing-fields.ndjson"]);
    assert!(!r.err.contains("AGX609"), "{}", r.err);
    assert!(
        r.err.contains("[AGX611] on_chat_model_stream without"),
        "{}",
        r.err
    );
}

// ---- 23.9: --strict ----

#[test]
fn strict_prints_the_bad_line_then_stops_in_every_command() {
    let bad = repo().join("testdata/bad");
    let file = "10-v2-missing-fields.ndjson";
    let diag = "10-v2-missing-fields.ndjson:3: on_chat_model_stream without `data.chunk`";
    for cmd in ["timeline", "explain"] {
        let r = run(&bad, &[cmd, "--strict", file]);
        assert_eq!(r.code, 2, "{cmd}");
        let lines: Vec<&str> = r.err.lines().collect();
        assert_eq!(lines.len(), 2, "{cmd}: {}", r.err);
        assert!(lines[0].contains(diag), "{cmd}: {}", r.err);
        assert!(lines[1].contains("stopping at the first bad line (--strict)"));
    }
    let r = run(&bad, &["check", "--strict", file]);
    assert_eq!(r.code, 2);
    assert!(
        r.out
            .contains("3: warning[AGX611] on_chat_model_stream without"),
        "{}",
        r.out
    );
    // Stopped: the later bad lines (4, 5, 7, 8) are not checked.
    assert!(!r.out.contains("4: warning"), "{}", r.out);
    assert!(
        r.err.contains("stopping at the first bad line"),
        "{}",
        r.err
    );
}

// ---- 23.10: OS errors once, with the file ----

#[test]
fn os_errors_are_told_once_with_the_file() {
    let d = scratch("oserr");
    for cmd in ["convert", "timeline", "explain"] {
        let r = run(&d, &[cmd, "nope.ndjson"]);
        assert_eq!(r.code, 2);
        assert_eq!(
            r.err, "aguify: cannot open nope.ndjson: No such file or directory\n",
            "{cmd}"
        );
    }
}

// ---- 23.11: the text report ----

#[test]
fn text_report_is_silent_on_clean_files_and_names_a_path_once() {
    let d = scratch("textreport");
    write(&d, "clean.ndjson", &clean_run());
    write(&d, "warn.ndjson", &warned_run());
    let r = run(&d, &["check", "clean.ndjson", "warn.ndjson"]);
    assert!(!r.out.contains("clean.ndjson"), "{}", r.out);
    assert_eq!(r.out.matches("warn.ndjson").count(), 1, "{}", r.out);
    assert!(
        r.out
            .contains("\n  1 event #0 RUN_STARTED: warning[AGX211]"),
        "{}",
        r.out
    );
    assert!(
        r.out
            .ends_with("2 files checked: 0 errors, 1 warning (1 clean)\n"),
        "{}",
        r.out
    );
    let r = run(&d, &["check", "--verbose", "clean.ndjson", "warn.ndjson"]);
    assert!(
        r.out.contains("clean.ndjson: no findings (5 events)"),
        "{}",
        r.out
    );
}

// ---- 23.12: several files are one thread in timeline ----

#[test]
fn timeline_reads_several_files_as_one_thread() {
    let rec = |p: &str| {
        repo()
            .join("testdata/recordings")
            .join(p)
            .to_string_lossy()
            .into_owned()
    };
    let r = run(
        &repo(),
        &[
            "timeline",
            &rec("v3-python/d_hitl__1_interrupt.ndjson"),
            &rec("v3-python/d_hitl__2_resume.ndjson"),
        ],
    );
    assert!(!r.out.contains("AGX405"), "{}", r.out);
    assert!(
        r.out
            .contains("thread-37cfed74b09e927f · resumes 1 interrupt"),
        "{}",
        r.out
    );
    // An unrelated file (no thread id recorded, resuming nothing) is not shown under the
    // first file's thread.
    let r = run(
        &repo(),
        &[
            "timeline",
            "--no-check",
            &rec("v3-js/a_plain_chat.ndjson"),
            &rec("v3-python/b_react_one_tool.ndjson"),
        ],
    );
    assert_eq!(
        r.out.matches("thread thread-22cab3ada3b2f557").count(),
        1,
        "{}",
        r.out
    );
}

// ---- 23.13: width ----

#[test]
fn short_width_keeps_the_status_and_pipes_are_not_cut() {
    let rec = repo().join("testdata/recordings/sdk-parts/e_error_tool_raises.ndjson");
    let rec = rec.to_string_lossy();
    let r = run(
        &repo(),
        &["timeline", "--color", "never", "--width", "50", &rec],
    );
    let tool = r
        .out
        .lines()
        .find(|l| l.contains("tool lookup"))
        .expect("tool line");
    assert!(tool.ends_with("tool error"), "{tool}");
    assert!(r.out.lines().all(|l| l.chars().count() <= 50), "{}", r.out);
    // A pipe is not cut.
    let r = run(&repo(), &["timeline", "--color", "never", &rec]);
    assert!(r.out.contains("order service unavailable"), "{}", r.out);
    assert!(r.out.lines().any(|l| l.chars().count() > 120), "{}", r.out);
    // A path is cut from the left: the file name stays.
    let d = scratch("paths");
    let long = "a-very-long-directory-name-for-a-recording-of-a-run";
    std::fs::create_dir_all(d.join(long)).unwrap();
    write(&d, &format!("{long}/x.ndjson"), &format!("{START}\n"));
    let r = run(
        &d,
        &[
            "timeline",
            "--color",
            "never",
            "--width",
            "40",
            &format!("{long}/x.ndjson"),
        ],
    );
    let head = r.out.lines().next().unwrap_or_default();
    assert!(head.contains("…") && head.contains("x.ndjson"), "{}", r.out);
}

// ---- 23.14 and 26.5: --follow ----

fn follow(file: &Path, extra: &[&str]) -> std::process::Child {
    Command::new(BIN)
        .args(["timeline", "--no-check", "--color", "never", "--follow"])
        .args(extra)
        .arg(file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn")
}

fn wait_for(mut child: std::process::Child, secs: u64) -> Option<(String, String)> {
    let started = std::time::Instant::now();
    while started.elapsed() < Duration::from_secs(secs) {
        if child.try_wait().expect("wait").is_some() {
            let o = child.wait_with_output().expect("output");
            return Some((
                String::from_utf8_lossy(&o.stdout).into_owned(),
                String::from_utf8_lossy(&o.stderr).into_owned(),
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    None
}

#[test]
fn follow_exit_on_end_stops_when_a_v3_js_run_completes() {
    let d = scratch("follow-v3");
    let file = d.join("run.ndjson");
    std::fs::copy(
        repo().join("testdata/recordings/v3-js/a_plain_chat.ndjson"),
        &file,
    )
    .unwrap();
    let child = follow(&file, &["--exit-on-end"]);
    let (out, _) = wait_for(child, 15).expect("exits once the run completed");
    assert!(out.contains("■ success"), "{out}");
}

#[test]
fn follow_notices_truncation_and_reads_from_the_start() {
    let d = scratch("follow-trunc");
    let file = d.join("run.ndjson");
    let a = r#"{"type":"RUN_STARTED","threadId":"t","runId":"first"}"#;
    std::fs::write(&file, format!("{a}\n")).unwrap();
    let child = follow(&file, &["--exit-on-end"]);
    std::thread::sleep(Duration::from_millis(800));
    // Truncated (`truncate -s 0`), then new writes: before, nothing showed until the file
    // passed the old offset, and reading resumed mid-line.
    std::fs::write(&file, "").unwrap();
    std::thread::sleep(Duration::from_millis(500));
    std::fs::write(
        &file,
        format!(
            "{}\n{}\n",
            r#"{"type":"RUN_STARTED","threadId":"t","runId":"b"}"#,
            r#"{"type":"RUN_FINISHED","threadId":"t","runId":"b"}"#
        ),
    )
    .unwrap();
    let (out, err) = wait_for(child, 15).expect("the new run is read and ends");
    assert!(
        err.contains("the file was truncated; reading it again from the start"),
        "{err}"
    );
    assert!(out.contains("▶ run b"), "{out}");
    assert!(out.contains("■ success"), "{out}");
}

/// Issue 41 item 8: a file rewritten in place that grows past the old size between two polls
/// is noticed (it was read on from the old offset, mid-line), and read as a new file: its
/// lines counted from 1 and its run its own (not the old file's thread).
#[test]
fn follow_reads_a_rewritten_file_as_a_new_file() {
    let d = scratch("follow-rewrite");
    let file = d.join("run.ndjson");
    let first = r#"{"type":"RUN_STARTED","threadId":"old-thread","runId":"first"}"#;
    std::fs::write(&file, format!("{first}\n")).unwrap();
    let child = follow(&file, &["--exit-on-end"]);
    std::thread::sleep(Duration::from_millis(800));
    // One write, longer than what was read: no poll sees the file shorter.
    let pad = "x".repeat(200);
    let start =
        format!(r#"{{"type":"RUN_STARTED","threadId":"new-thread","runId":"b","pad":"{pad}"}}"#);
    let end = r#"{"type":"RUN_FINISHED","threadId":"new-thread","runId":"b"}"#;
    std::fs::write(&file, format!("{start}\n{end}\n")).unwrap();
    let (out, err) = wait_for(child, 15).expect("the new run is read and ends");
    assert!(
        err.contains("the file was rewritten; reading it again from the start as a new file"),
        "{err}"
    );
    let b = out
        .lines()
        .find(|l| l.contains("▶ run b"))
        .unwrap_or_default();
    assert!(
        b.contains(":1 ") && b.contains("thread new-thread"),
        "{out}"
    );
    assert!(out.contains("■ success"), "{out}");
}

/// A rotated file (moved away, a new one created at the path) is read as a new file; a
/// deleted file is reported once.
#[test]
fn follow_reads_a_rotated_file_as_a_new_file_and_reports_deletion() {
    let d = scratch("follow-rotate");
    let file = d.join("run.ndjson");
    let line = |run: &str, kind: &str| {
        format!(r#"{{"type":"{kind}","threadId":"t-{run}","runId":"{run}"}}"#)
    };
    std::fs::write(
        &file,
        format!(
            "{}\n{}\n",
            line("a", "RUN_STARTED"),
            line("a", "RUN_FINISHED")
        ),
    )
    .unwrap();
    let child = follow(&file, &[]);
    std::thread::sleep(Duration::from_millis(800));
    std::fs::remove_file(&file).unwrap();
    std::thread::sleep(Duration::from_millis(600));
    std::fs::write(&file, format!("{}\n", line("b", "RUN_STARTED"))).unwrap();
    std::thread::sleep(Duration::from_millis(800));
    let child_id = child.id();
    // SAFETY: the child is ours and still running; SIGINT ends --follow like Ctrl-C.
    unsafe {
        libc::kill(child_id as i32, libc::SIGINT);
    }
    let (out, err) = wait_for(child, 15).expect("stops on SIGINT");
    assert!(err.contains("the file was deleted"), "{err}");
    assert!(err.contains("the file was replaced (rotated)"), "{err}");
    let b = out
        .lines()
        .find(|l| l.contains("▶ run b"))
        .unwrap_or_default();
    assert!(b.contains(":1 ") && b.contains("thread t-b"), "{out}");
}

// ---- 23.15: explain ----

#[test]
fn explain_says_run_error_after_run_finished_and_sums_up_many_runs() {
    let d = scratch("explain");
    let after = format!(
        "{}{}\n",
        clean_run(),
        r#"{"type":"RUN_ERROR","message":"boom after finish","code":"X"}"#
    );
    write(&d, "after.ndjson", &after);
    let r = run(&d, &["explain", "after.ndjson"]);
    assert_eq!(r.code, 0);
    assert!(
        r.out
            .starts_with("✖ RUN_ERROR after RUN_FINISHED: r · thread t"),
        "{}",
        r.out
    );
    assert!(
        r.out.contains("the run had finished at after.ndjson:5"),
        "{}",
        r.out
    );
    let two = format!(
        "{START}\n{}\n{}\n{}\n",
        r#"{"type":"RUN_ERROR","message":"one"}"#,
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r2"}"#,
        r#"{"type":"RUN_ERROR","message":"two"}"#
    );
    write(&d, "two.ndjson", &two);
    let r = run(&d, &["explain", "two.ndjson"]);
    assert!(
        r.out
            .ends_with("\n2 of 2 runs explained: 2 ended in RUN_ERROR\n"),
        "{}",
        r.out
    );
}

// ---- 23.17: formats ----

#[test]
fn report_formats_follow_one_style() {
    let d = scratch("formats");
    write(&d, "open.ndjson", &format!("{START}\n"));
    let r = run(&d, &["explain", "--format", "json", "open.ndjson"]);
    let v: serde_json::Value = serde_json::from_str(&r.out).expect("json");
    assert_eq!(v["schema"], "aguify-explain/1");
    assert!(
        v.get("badLines").is_some() && v.get("bad_lines").is_none(),
        "{}",
        r.out
    );
    assert!(v["explained"][0].get("runId").is_some(), "{}", r.out);
    let r = run(&d, &["check", "--format", "sarif", "open.ndjson"]);
    let v: serde_json::Value = serde_json::from_str(&r.out).expect("sarif");
    let driver = &v["runs"][0]["tool"]["driver"];
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    assert!(driver.get("informationUri").is_none(), "{}", r.out);
    let r = run(&d, &["check", "--format", "junit", "open.ndjson"]);
    for c in r.out.split("classname=\"").skip(1) {
        let name = c.split('"').next().unwrap_or_default();
        assert!(!name.contains('.'), "dotted classname {name}");
    }
    let r = run_in(
        &d,
        &["check", "--stdin-filename", "run.ndjson", "-"],
        Some(format!("{START}\n").as_bytes()),
        &[],
    );
    assert!(r.out.starts_with("run.ndjson\n"), "{}", r.out);
    let r = run_in(
        &d,
        &["convert", "--stdin-filename", "run.ndjson"],
        Some(format!("{START}\n").as_bytes()),
        &[],
    );
    assert!(r.err.contains("aguify: run.ndjson:1"), "{}", r.err);
}

// ---- 23.18: flags, completions, colour, docs ----

#[test]
fn flags_refuse_zero_and_take_comma_lists() {
    let d = scratch("flags");
    write(&d, "open.ndjson", &format!("{START}\n"));
    for args in [
        &["convert", "--threads", "0", "open.ndjson"][..],
        &["convert", "--max-line-bytes", "0", "open.ndjson"],
        &["check", "-j", "0", "open.ndjson"],
        &["check", "--allow", "AGX999", "open.ndjson"],
    ] {
        let r = run(&d, args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.err);
    }
    let r = run(&d, &["check", "--allow", "AGX301,agx303", "open.ndjson"]);
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let bash = std::fs::read_to_string(repo().join("completions/aguify.bash")).unwrap();
    let allow = bash
        .split("--allow)")
        .nth(1)
        .and_then(|s| s.split(";;").next())
        .unwrap_or_default();
    assert!(
        allow.contains("AGX301"),
        "completions offer rule ids: {allow}"
    );
}

#[test]
fn term_dumb_means_no_colour_and_convert_has_color() {
    let d = scratch("color");
    write(&d, "open.ndjson", &format!("{START}\n"));
    let r = run_in(
        &d,
        &["timeline", "open.ndjson"],
        None,
        &[("CLICOLOR_FORCE", "1"), ("TERM", "dumb")],
    );
    assert!(!r.out.contains('\x1b'), "{}", r.out);
    let r = run(&d, &["convert", "--color", "always", "open.ndjson"]);
    assert!(r.err.contains('\x1b'), "{}", r.err);
    let r = run(&d, &["convert", "--color", "never", "open.ndjson"]);
    assert!(!r.err.contains('\x1b'), "{}", r.err);
}

#[test]
fn help_docs_and_readme_agree() {
    let r = run(&repo(), &["check", "--help"]);
    assert!(r.out.contains("each checked on its own"), "{}", r.out);
    let check_md = std::fs::read_to_string(repo().join("docs/check.md")).unwrap();
    assert!(check_md.contains("Each file is checked on its own"));
    let timeline_md = std::fs::read_to_string(repo().join("docs/timeline.md")).unwrap();
    assert!(
        !timeline_md.contains("AGX104 warning: tool args"),
        "docs/timeline.md"
    );
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    assert!(
        readme.contains("completions/aguify.bash"),
        "README: installing completions"
    );
    let cargo = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    let msrv = cargo
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("Cargo.toml states rust-version");
    assert!(
        readme.contains(&format!("Rust {msrv}")),
        "README states the minimum Rust"
    );
    // 23.19
    assert!(readme.contains("## At scale"), "README: At scale");
    assert!(readme.contains("--files-from") && readme.contains("parallel"));
}

// ---- 26.16: control characters from a log ----

#[test]
fn control_characters_from_a_log_are_escaped_for_people() {
    let d = scratch("inject");
    let evil = "m\\n::error file=evil.py,line=1::INJECTED\\u001b]0;title\\u0007";
    let log = format!(
        "{START}\n{}\n{}\n{}\n",
        format_args!(r#"{{"type":"TEXT_MESSAGE_START","messageId":"{evil}","role":"assistant"}}"#),
        format_args!(r#"{{"type":"TEXT_MESSAGE_START","messageId":"{evil}","role":"assistant"}}"#),
        format_args!(r#"{{"type":"RUN_ERROR","message":"x","runId":"{evil}"}}"#),
    );
    write(&d, "evil.ndjson", &log);
    let clean = |what: &str, s: &str| {
        assert!(!s.contains('\x1b') && !s.contains('\x07'), "{what}: {s:?}");
        assert!(
            !s.lines().any(|l| l.starts_with("::error file=evil.py")),
            "{what}: {s}"
        );
    };
    let r = run(&d, &["check", "evil.ndjson"]);
    assert!(r.out.contains("INJECTED"), "{}", r.out);
    clean("check", &r.out);
    let r = run(&d, &["check", "--format", "github", "evil.ndjson"]);
    clean("check github", &r.out);
    let r = run(&d, &["convert", "evil.ndjson"]);
    assert!(r.err.contains("INJECTED"), "{}", r.err);
    clean("convert", &r.err);
    let r = run(&d, &["explain", "evil.ndjson"]);
    clean("explain", &r.out);
}

/// A file whose records are mapped is of a known form even when its records have no family of
/// their own: a platform stream of `messages` frames (`[chunk, metadata]`) converts with 0.
#[test]
fn a_stream_of_message_frames_is_a_known_form() {
    let d = scratch("message-frames");
    write(
        &d,
        "stream.sse",
        "event: messages\n\
         data: [{\"content\":\"Hi\",\"type\":\"AIMessageChunk\",\"id\":\"m1\",\"tool_call_chunks\":[]},{\"langgraph_node\":\"agent\"}]\n\n\
         event: messages\n\
         data: [{\"content\":\" there\",\"type\":\"AIMessageChunk\",\"id\":\"m1\",\"tool_call_chunks\":[]},{\"langgraph_node\":\"agent\"}]\n\n",
    );
    let r = run(&d, &["convert", "--to", "ndjson", "stream.sse"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        !r.err.contains("no AG-UI or LangGraph records"),
        "{}",
        r.err
    );
    assert!(r.out.contains("TEXT_MESSAGE_CONTENT"), "{}", r.out);
}

// ---- 26.6: timestamps a client cannot hold ----

/// A v3 run whose records carry `timestamps` (JSON text each), one record per timestamp.
fn v3_run_with_timestamps(timestamps: &[&str]) -> String {
    let data = |i: usize| match i {
        0 => r#"{"event":"message-start","role":"ai","id":"m"}"#.to_string(),
        i if i + 1 == timestamps.len() => r#"{"event":"message-finish"}"#.to_string(),
        _ => {
            r#"{"event":"content-block-delta","index":0,"delta":{"type":"text-delta","text":"x"}}"#
                .to_string()
        }
    };
    timestamps
        .iter()
        .enumerate()
        .map(|(i, ts)| {
            format!(
                "{{\"type\":\"event\",\"seq\":{},\"method\":\"messages\",\"params\":{{\"namespace\":[],\"timestamp\":{ts},\"data\":{}}}}}\n",
                i + 1,
                data(i)
            )
        })
        .collect()
}

/// A timestamp that is no integer from 0 to 2^53 − 1 is left out of every event (the official
/// client rejects 2^53; a string, a fraction, a negative, a 30-digit number used to vanish
/// silently), with one warning per file; safe timestamps around it are kept.
#[test]
fn timestamps_a_client_cannot_hold_are_left_out_with_one_warning_per_file() {
    let d = scratch("timestamps");
    let too_big = "9007199254740992";
    write(
        &d,
        "a.ndjson",
        &v3_run_with_timestamps(&["1000", too_big, "\"1001\"", too_big, "1002.0", "1003"]),
    );
    write(
        &d,
        "b.ndjson",
        &v3_run_with_timestamps(&[
            "2000",
            "123456789012345678901234567890",
            "-5",
            "2000.5",
            "null",
            "2001",
        ]),
    );
    let r = run(&d, &["convert", "--to", "ndjson", "a.ndjson", "b.ndjson"]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(!r.out.contains(too_big), "{}", r.out);
    assert!(!r.err.contains("AGX206"), "{}", r.err);
    let stamps: Vec<i64> = r
        .out
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|e| e.get("timestamp").map(|t| t.as_i64().expect("integer")))
        .collect();
    for kept in [1000, 1002, 1003, 2000, 2001] {
        assert!(stamps.contains(&kept), "{kept} in {stamps:?}");
    }
    assert!(stamps.iter().all(|&t| t <= 2001), "{stamps:?}");
    let warnings: Vec<&str> = r.err.lines().filter(|l| l.contains("[AGX612]")).collect();
    assert_eq!(warnings.len(), 2, "one per file: {}", r.err);
    assert!(warnings[0].contains("a.ndjson:2:"), "{}", warnings[0]);
    assert!(warnings[0].contains(too_big), "{}", warnings[0]);
    assert!(warnings[1].contains("b.ndjson:2:"), "{}", warnings[1]);
    // `check` reports the same finding; `--fail-on warning` fails on it.
    let r = run(&d, &["check", "--fail-on", "warning", "a.ndjson"]);
    assert_eq!(r.code, 1, "{}", r.out);
    assert_eq!(r.out.matches("warning[AGX612]").count(), 1, "{}", r.out);
}

// ---- 26.9: --max-line-bytes bounds an SSE frame ----

/// A frame of many short `data:` lines longer than `--max-line-bytes` together is skipped and
/// reported with its file:line (its data is not kept); the frames after it are converted.
#[test]
fn max_line_bytes_bounds_a_multi_line_sse_frame() {
    let d = scratch("sse-frame-bound");
    let frame = |seq: u32, data: &str| {
        format!(
            "event: messages\ndata: {{\"type\":\"event\",\"seq\":{seq},\"method\":\"messages\",\"params\":{{\"namespace\":[],\"data\":{data}}}}}\n\n"
        )
    };
    let mut big = String::from("event: custom\ndata: {\"type\":\"event\",\"seq\":2,\"method\":\"custom\",\"params\":{\"namespace\":[],\"data\":[\n");
    for _ in 0..100 {
        big.push_str("data: 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,\n");
    }
    big.push_str("data: 0]}}\n\n");
    let sse = [
        frame(1, r#"{"event":"message-start","role":"ai","id":"m"}"#),
        big,
        frame(3, r#"{"event":"content-block-delta","index":0,"delta":{"type":"text-delta","text":"after"}}"#),
        frame(4, r#"{"event":"message-finish"}"#),
    ]
    .concat();
    write(&d, "big.sse", &sse);
    let r = run(
        &d,
        &[
            "convert",
            "--to",
            "ndjson",
            "--max-line-bytes",
            "1000",
            "--stats",
            "big.sse",
        ],
    );
    assert!(
        r.err
            .contains("big.sse:4: error[AGX608] SSE frame's data is ")
            && r.err
                .contains("bytes, over the --max-line-bytes limit of 1000 bytes; skipped"),
        "{}",
        r.err
    );
    assert!(r.out.contains(r#""delta":"after""#), "{}", r.out);
    assert!(!r.out.contains("CUSTOM"), "{}", r.out);
    // Under the default bound the frame is converted.
    let r = run(&d, &["convert", "--to", "ndjson", "big.sse"]);
    assert!(r.out.contains("CUSTOM"), "{}{}", r.out, r.err);
}
