//! A new user's third try (issue 37): no silent stdin, CI that fails what is broken, answers
//! that are right; and the directory walk's rules (issue 41 item 9).

mod util;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use util::{aguify, repo, scratch_dir, Run, Scratch, BIN};

/// `aguify ARGS` in `cwd` with `stdin` piped in.
fn aguify_stdin(cwd: &Path, args: &[&str], stdin: &[u8]) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn aguify");
    let mut i = child.stdin.take().expect("stdin");
    // The command may refuse before reading: a closed pipe is no failure of the test.
    let _ = i.write_all(stdin);
    drop(i);
    let o = child.wait_with_output().expect("wait");
    Run {
        code: o.status.code().unwrap_or(-1),
        stdout: o.stdout,
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn scratch(name: &str) -> Scratch {
    scratch_dir("new-user", name)
}

fn recording(rel: &str) -> PathBuf {
    repo().join("testdata/recordings").join(rel)
}

fn put(dir: &Path, rel: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(rel);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).expect("folder");
    }
    std::fs::write(&p, bytes).expect("write");
    p
}

fn out(r: &Run) -> String {
    String::from_utf8_lossy(&r.stdout).into_owned()
}

const CLEAN_RUN: &str = concat!(
    r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#,
    "\n",
    r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#,
    "\n"
);

// ---- 37.1: a folder with no recordings, an empty or missing list ----

#[test]
fn check_of_a_folder_without_recordings_is_a_usage_error_and_never_reads_stdin() {
    let d = scratch("empty-dir");
    std::fs::create_dir_all(d.join("empty")).unwrap();
    put(&d, "only-json/a.json", b"{}\n");
    for dir in ["empty", "only-json"] {
        let r = aguify_stdin(&d, &["check", dir], CLEAN_RUN.as_bytes());
        assert_eq!(r.code, 2, "{dir}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!(
                "no recordings found in {dir} (looked for *.ndjson, *.jsonl, *.sse)"
            )),
            "{}",
            r.stderr
        );
        assert!(!out(&r).contains("1 file"), "{}", out(&r));
    }
}

#[test]
fn check_files_from_an_empty_or_missing_list_is_a_usage_error() {
    let d = scratch("files-from");
    put(&d, "empty.txt", b"\n");
    let r = aguify(&d, &["check", "--files-from", "empty.txt"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("the list names no files"), "{}", r.stderr);
    let r = aguify(
        &d,
        &["check", "--format", "json", "--files-from", "nope.txt"],
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("--files-from nope.txt: cannot read the list"),
        "{}",
        r.stderr
    );
    // Not a checked recording: nothing is reported on stdout.
    assert!(r.stdout.is_empty(), "{}", out(&r));
}

// ---- 37.17 and 41.9: the walk ----

#[test]
fn walk_skips_hidden_folders_node_modules_and_reads_extensions_in_any_case() {
    let d = scratch("walk-rules");
    put(&d, "runs/a.NDJSON", CLEAN_RUN.as_bytes());
    put(&d, "runs/b.Jsonl", CLEAN_RUN.as_bytes());
    put(&d, "runs/.git/c.ndjson", b"not json\n");
    put(&d, "runs/node_modules/pkg/d.ndjson", b"not json\n");
    put(&d, "runs/.hidden.ndjson", b"not json\n");
    let r = aguify(&d, &["check", "--verbose", "--color", "never", "runs"]);
    assert_eq!(r.code, 0, "{}\n{}", out(&r), r.stderr);
    let text = out(&r);
    assert!(
        text.contains("a.NDJSON") && text.contains("b.Jsonl"),
        "{text}"
    );
    assert!(text.contains("2 files"), "{text}");
}

#[cfg(unix)]
#[test]
fn walk_skips_links_and_fifos_and_follows_links_with_dash_l_once() {
    use std::os::unix::fs::symlink;
    let d = scratch("walk-links");
    put(&d, "runs/a.ndjson", CLEAN_RUN.as_bytes());
    put(&d, "elsewhere/b.ndjson", CLEAN_RUN.as_bytes());
    symlink(d.join("elsewhere"), d.join("runs/link")).unwrap();
    // A cycle: a link back to the folder being walked.
    symlink(d.join("runs"), d.join("runs/loop")).unwrap();
    // A FIFO named like a recording: reading it would block for ever.
    let fifo = d.join("runs/pipe.ndjson");
    let made = Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");

    let started = Instant::now();
    let r = aguify(&d, &["check", "--verbose", "--color", "never", "runs"]);
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(r.code, 0, "{}\n{}", out(&r), r.stderr);
    let text = out(&r);
    assert!(text.contains("1 file"), "{text}");
    assert!(
        !text.contains("b.ndjson") && !text.contains("pipe"),
        "{text}"
    );

    let r = aguify(
        &d,
        &["check", "-L", "--verbose", "--color", "never", "runs"],
    );
    assert_eq!(r.code, 0, "{}\n{}", out(&r), r.stderr);
    let text = out(&r);
    assert!(text.contains("2 files"), "{text}");
    assert!(text.contains("runs/link/b.ndjson"), "{text}");
    assert!(
        r.stderr
            .contains("runs/loop: a link back to runs, not walked again"),
        "{}",
        r.stderr
    );
}

/// A tree with names out of order, a folder among files, names that are not UTF-8, dangling
/// links, a link to the walked folder's parent and hidden links back to the folder.
#[cfg(unix)]
fn walk_edges(d: &Path) {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::symlink;
    for rel in [
        "runs/b.ndjson",
        "runs/a.ndjson",
        "runs/a/z.ndjson",
        "runs/B.ndjson",
        "elsewhere/e.ndjson",
    ] {
        put(d, rel, CLEAN_RUN.as_bytes());
    }
    let runs = d.join("runs");
    let latin1 = runs.join(OsStr::from_bytes(b"caf\xe9.ndjson"));
    std::fs::write(latin1, b"not json\n").unwrap();
    let folder = runs.join(OsStr::from_bytes(b"\xfe"));
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("c.ndjson"), b"not json\n").unwrap();
    symlink(d.join("missing.ndjson"), runs.join("gone.ndjson")).unwrap();
    symlink("itself.ndjson", runs.join("itself.ndjson")).unwrap();
    symlink(d, runs.join("up")).unwrap();
    // Links back to the folder under names the walk never enters: not followed, not told.
    symlink(&runs, runs.join(".self")).unwrap();
    symlink(&runs, runs.join("node_modules")).unwrap();
}

#[cfg(unix)]
#[test]
fn walk_is_in_name_order_and_skips_non_utf8_names_and_dangling_links_silently() {
    let d = scratch("walk-edges");
    walk_edges(&d);
    let listed = "runs/B.ndjson: no findings (2 events)\n\
                  runs/a/z.ndjson: no findings (2 events)\n\
                  runs/a.ndjson: no findings (2 events)\n\
                  runs/b.ndjson: no findings (2 events)\n";
    let r = aguify(&d, &["check", "--verbose", "--color", "never", "runs"]);
    assert_eq!(r.code, 0, "{}\n{}", out(&r), r.stderr);
    assert_eq!(
        out(&r),
        format!("{listed}4 files checked: 0 errors, 0 warnings\n")
    );
    assert_eq!(r.stderr, "");
    // With -L the dangling links are still skipped without a word, and a link out of the
    // folder is followed wherever it leads, its parent too: only a folder being walked stops it.
    let r = aguify(
        &d,
        &["check", "-L", "--verbose", "--color", "never", "runs"],
    );
    assert_eq!(r.code, 0, "{}\n{}", out(&r), r.stderr);
    assert_eq!(
        out(&r),
        format!(
            "{listed}runs/up/elsewhere/e.ndjson: no findings (2 events)\n\
             5 files checked: 0 errors, 0 warnings\n"
        )
    );
    assert_eq!(
        r.stderr,
        "aguify: runs/up/runs: a link back to runs, not walked again\n"
    );
}

/// `aguify ARGS` in `cwd` as a user that file permissions apply to (`nobody` when the tests
/// run as root).
#[cfg(unix)]
fn aguify_unprivileged(cwd: &Path, args: &[&str]) -> Run {
    let root = Command::new("id").arg("-u").output().expect("id -u").stdout == b"0\n";
    let mut c = if root {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", BIN]);
        c
    } else {
        Command::new(BIN)
    };
    let o = c
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("spawn aguify");
    Run {
        code: o.status.code().unwrap_or(-1),
        stdout: o.stdout,
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

#[cfg(unix)]
#[test]
fn walk_reports_an_unreadable_folder_at_its_place_and_walks_on() {
    use std::os::unix::fs::{symlink, PermissionsExt};
    let d = scratch("walk-unreadable");
    put(&d, "runs/a.ndjson", CLEAN_RUN.as_bytes());
    put(&d, "runs/locked/x.ndjson", CLEAN_RUN.as_bytes());
    put(&d, "runs/z.ndjson", CLEAN_RUN.as_bytes());
    symlink("locked", d.join("runs/via")).unwrap();
    let locked = d.join("runs/locked");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let denied = "  error[AGX504] cannot read: Permission denied\n";
    let tail = "runs/z.ndjson: no findings (2 events)\nFindings by rule:\n";
    for (args, want) in [
        (
            &["check", "--verbose", "--color", "never", "runs"][..],
            format!(
                "runs/a.ndjson: no findings (2 events)\nruns/locked\n{denied}{tail}       \
                 1  AGX504  error    file cannot be read\n\
                 3 files checked: 1 error, 0 warnings (2 clean)\n"
            ),
        ),
        // Through a followed link: the link is named.
        (
            &["check", "-L", "--verbose", "--color", "never", "runs"],
            format!(
                "runs/a.ndjson: no findings (2 events)\nruns/locked\n{denied}runs/via\n\
                 {denied}{tail}       2  AGX504  error    file cannot be read\n\
                 4 files checked: 2 errors, 0 warnings (2 clean)\n"
            ),
        ),
        (
            &["check", "--color", "never", "runs/locked"],
            format!(
                "runs/locked\n{denied}Findings by rule:\n       \
                 1  AGX504  error    file cannot be read\n1 file checked: 1 error, 0 warnings\n"
            ),
        ),
    ] {
        let r = aguify_unprivileged(&d, args);
        assert_eq!(r.code, 2, "{args:?}: {}\n{}", out(&r), r.stderr);
        assert_eq!(out(&r), want, "{args:?}");
        assert_eq!(r.stderr, "", "{args:?}");
    }
    // The scratch folder's clean-up needs to enter it.
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
}

// ---- 37.4: --exit-on-end after a custom event ----

#[test]
fn follow_exit_on_end_stops_when_a_custom_event_follows_the_root_completion() {
    let d = scratch("follow-custom");
    let mut log = std::fs::read(recording("v3-js/a_plain_chat.ndjson")).unwrap();
    log.extend_from_slice(
        br#"{"type":"event","seq":23,"method":"custom","params":{"namespace":[],"timestamp":1795994517844,"data":{"name":"progress","payload":{"pct":100}}}}"#,
    );
    log.push(b'\n');
    let file = put(&d, "run.ndjson", &log);
    let mut child = Command::new(BIN)
        .args(["timeline", "--no-check", "--color", "never", "--follow"])
        .arg("--exit-on-end")
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > Duration::from_secs(15) {
            let _ = child.kill();
            panic!("--follow --exit-on-end did not stop after the run completed");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let o = child.wait_with_output().expect("output");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("■ success"), "{text}");
}

// ---- 37.3: a cut-off LangGraph log fails check ----

#[test]
fn check_fails_a_langgraph_log_cut_before_its_end() {
    let d = scratch("cut-off");
    let log = std::fs::read_to_string(recording("v3-js/b_react_one_tool.ndjson")).unwrap();
    let head: String = log.lines().take(20).map(|l| format!("{l}\n")).collect();
    put(&d, "cut.ndjson", head.as_bytes());
    let r = aguify(&d, &["check", "--color", "never", "cut.ndjson"]);
    assert_eq!(r.code, 1, "{}", out(&r));
    assert!(out(&r).contains("error[AGX607]"), "{}", out(&r));
    // The whole log passes.
    let whole = recording("v3-js/b_react_one_tool.ndjson");
    let r = aguify(&d, &["check", &whole.to_string_lossy()]);
    assert_eq!(r.code, 0, "{}", out(&r));
}

// ---- 37.5: nothing of a known form in report, snapshot and diff ----

#[test]
fn report_snapshot_and_diff_refuse_empty_binary_and_csv_input() {
    let d = scratch("unknown-input");
    put(&d, "empty.ndjson", b"");
    put(&d, "table.csv", b"a,b\n1,2\n");
    put(
        &d,
        "blob.ndjson",
        &[0xff, 0xfe, 0x00, 0x9c, b'\n', 0x80, 0x81, b'\n'],
    );
    let good = recording("v2-python-api/a_plain_chat.ndjson");
    let good = good.to_string_lossy();
    for file in ["empty.ndjson", "table.csv", "blob.ndjson"] {
        let want = format!("{file}: no AG-UI or LangGraph records");
        let r = aguify(&d, &["report", file, "-o", "page.html"]);
        assert_eq!(r.code, 2, "report {file}: {}", r.stderr);
        assert!(r.stderr.contains(&want), "report {file}: {}", r.stderr);
        assert!(!d.join("page.html").exists(), "report {file} wrote a page");
        let r = aguify(&d, &["snapshot", file]);
        assert_eq!(r.code, 2, "snapshot {file}: {}", r.stderr);
        assert!(r.stderr.contains(&want), "snapshot {file}: {}", r.stderr);
        for (old, new) in [(file, file), (&*good, file)] {
            let r = aguify(&d, &["diff", old, new]);
            assert_eq!(r.code, 2, "diff {old} {new}: {}", out(&r));
            assert!(r.stderr.contains(&want), "diff {file}: {}", r.stderr);
            assert!(!out(&r).contains("equal"), "{}", out(&r));
        }
    }
}

// ---- 37.6: --strict says why ----

#[test]
fn strict_says_why_it_stopped_in_every_command() {
    let d = scratch("strict");
    let log = std::fs::read_to_string(recording("v2-python-api/a_plain_chat.ndjson")).unwrap();
    let mut lines: Vec<&str> = log.lines().collect();
    lines.insert(3, "{bad");
    put(&d, "s.ndjson", (lines.join("\n") + "\n").as_bytes());
    for args in [
        &["convert", "--strict", "s.ndjson"][..],
        &["snapshot", "--strict", "s.ndjson"],
        &["report", "--strict", "s.ndjson", "-o", "p.html"],
        &["timeline", "--strict", "s.ndjson"],
        &["explain", "--strict", "s.ndjson"],
    ] {
        let r = aguify(&d, args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr
                .contains("stopping at the first bad line (--strict)"),
            "{args:?}: {}",
            r.stderr
        );
        assert!(
            r.stderr.contains("s.ndjson:4: invalid JSON"),
            "{args:?} does not say why: {}",
            r.stderr
        );
        assert_eq!(r.stderr.matches("invalid JSON").count(), 1, "{}", r.stderr);
    }
}

// ---- 37.7: a failed write said once, with what was written ----

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_said_once_with_what_was_being_written() {
    let rec = recording("v2-python-api/e_error_tool_raises.ndjson");
    let rec = rec.to_string_lossy();
    for (cmd, what) in [
        ("convert", "the AG-UI events"),
        ("check", "the report"),
        ("timeline", "the timeline"),
        ("explain", "the explanation"),
        ("snapshot", "the snapshot"),
        ("report", "the HTML report"),
    ] {
        let full = std::fs::File::create("/dev/full").expect("/dev/full");
        let o = Command::new(BIN)
            .args([cmd, &rec])
            .stdin(Stdio::null())
            .stdout(full)
            .output()
            .expect("run");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {err}");
        assert!(
            err.contains(&format!(
                "cannot write {what} to stdout: No space left on device"
            )),
            "{cmd}: {err}"
        );
        assert_eq!(err.matches("No space left").count(), 1, "{cmd}: {err}");
    }
}

// ---- 37.8: unreadable lines capped in diff and snapshot ----

#[test]
fn diff_and_snapshot_tell_a_few_unreadable_lines_and_count_the_rest() {
    let d = scratch("many-bad");
    let mut log = std::fs::read(recording("v2-python-api/a_plain_chat.ndjson")).unwrap();
    for _ in 0..30 {
        log.extend_from_slice(b"\xff\xfe not text\n");
    }
    put(&d, "bad.ndjson", &log);
    let r = aguify(&d, &["snapshot", "bad.ndjson"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(r.stderr.matches("invalid UTF-8").count(), 5, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("… and 25 more unreadable lines in bad.ndjson"),
        "{}",
        r.stderr
    );
    let good = recording("v2-python-api/a_plain_chat.ndjson");
    let r = aguify(&d, &["diff", &good.to_string_lossy(), "bad.ndjson"]);
    assert_eq!(r.stderr.matches("invalid UTF-8").count(), 5, "{}", r.stderr);
    assert!(r.stderr.contains("… and 25 more"), "{}", r.stderr);
}

// ---- 37.9: the width drops what matters least ----

#[test]
fn timeline_at_80_and_60_columns_keeps_the_interrupt_and_the_footer() {
    let d = repo();
    let one = "testdata/recordings/v3-python/d_hitl__1_interrupt.ndjson";
    let two = "testdata/recordings/v3-python/d_hitl__2_resume.ndjson";
    let r = aguify(
        &d,
        &[
            "timeline",
            "--no-check",
            "--color",
            "never",
            "--width",
            "80",
            one,
            two,
        ],
    );
    let text = out(&r);
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    let line = |s: &str| {
        text.lines()
            .find(|l| l.contains(s))
            .unwrap_or_default()
            .to_string()
    };
    assert!(line("⏸ interrupt").contains("\"Approve order?\""), "{text}");
    assert!(line("■ interrupt").ends_with("(confirmation)"), "{text}");
    assert!(
        line("▶ run run-f32").contains("resumes 1 interrupt"),
        "{text}"
    );
    assert!(
        text.contains("1 message · 0 tool calls · 0 reasoning · 21 tokens · 3ms"),
        "{text}"
    );
    let r = aguify(
        &d,
        &[
            "timeline",
            "--no-check",
            "--color",
            "never",
            "--width",
            "60",
            one,
        ],
    );
    let text = out(&r);
    assert!(text.lines().all(|l| l.chars().count() <= 60), "{text}");
    let line = |s: &str| {
        text.lines()
            .find(|l| l.contains(s))
            .unwrap_or_default()
            .to_string()
    };
    assert!(line("⏸ interrupt").contains("confirmation"), "{text}");
    assert!(line("■ interrupt").ends_with("(confirmation)"), "{text}");
    // A detail goes before a preview is cut.
    assert!(!line("text assistant").contains("chars"), "{text}");
}

#[test]
fn timeline_width_0_is_no_limit() {
    let d = scratch("width-0");
    let long = "x".repeat(300);
    let run = format!(
        "{}\n{}\n{}\n{}\n{}\n",
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#,
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}"#,
        format_args!(r#"{{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"{long}"}}"#),
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m"}"#,
        r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#
    );
    put(&d, "long.ndjson", run.as_bytes());
    let r = aguify(
        &d,
        &[
            "timeline",
            "--width",
            "0",
            "--color",
            "never",
            "long.ndjson",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(out(&r).contains(&long), "{}", out(&r));
    let r = aguify(
        &d,
        &[
            "timeline",
            "--width",
            "40",
            "--color",
            "never",
            "long.ndjson",
        ],
    );
    assert!(
        out(&r).lines().all(|l| l.chars().count() <= 40),
        "{}",
        out(&r)
    );
}

// ---- 37.10: THINKING_* points at --compat thinking ----

#[test]
fn check_of_thinking_output_names_compat_thinking() {
    let d = scratch("thinking");
    let rec = recording("v2-python-api/c_reasoning_anthropic.ndjson");
    let r = aguify(
        &d,
        &[
            "convert",
            "--compat",
            "thinking",
            "--to",
            "ndjson",
            &rec.to_string_lossy(),
        ],
    );
    put(&d, "think.ndjson", &r.stdout);
    let r = aguify(&d, &["check", "--color", "never", "think.ndjson"]);
    assert_eq!(r.code, 1);
    assert!(
        out(&r).contains("`aguify check --compat thinking` checks such a stream"),
        "{}",
        out(&r)
    );
    let r = aguify(&d, &["check", "--compat", "thinking", "think.ndjson"]);
    assert_eq!(r.code, 0, "{}", out(&r));
}

// ---- 37.11: a wrong --from names the form found ----

#[test]
fn a_wrong_from_names_the_form_found() {
    let rec = recording("v3-js/a_plain_chat.ndjson");
    let rec = rec.to_string_lossy();
    let r = aguify(&repo(), &["convert", "--from", "v2", &rec]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains(
            "its records are v3 protocol records, not the v2 astream_events records --from asks for"
        ),
        "{}",
        r.stderr
    );
    let r = aguify(&repo(), &["snapshot", "--from", "agui", &rec]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("its records are v3 protocol records, not the AG-UI records"),
        "{}",
        r.stderr
    );
}

// ---- 37.12: one key style ----

/// Every object key in `v` (recursively), for the key style.
fn keys(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                out.push(k.clone());
                keys(x, out);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| keys(x, out)),
        _ => {}
    }
}

fn assert_camel(what: &str, v: &serde_json::Value) {
    let mut all = vec![];
    keys(v, &mut all);
    assert!(!all.is_empty(), "{what}: no keys");
    // The report's `rules` are keyed by rule id (AGX101): no key has an underscore.
    let snake: Vec<&String> = all.iter().filter(|k| k.contains('_')).collect();
    assert!(snake.is_empty(), "{what}: snake_case keys {snake:?}");
}

#[test]
fn every_json_the_tool_writes_has_camel_case_keys() {
    let d = scratch("camel");
    let a = recording("v2-python-api/b_react_one_tool.ndjson");
    let b = recording("v2-python-api/b_react_parallel.ndjson");
    let failed = recording("v3-js/e_error_tool_raises.ndjson");
    let (a, b, failed) = (
        a.to_string_lossy(),
        b.to_string_lossy(),
        failed.to_string_lossy(),
    );
    let r = aguify(&d, &["diff", "--format", "json", &a, &b]);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).expect("diff json");
    assert!(v["summary"]["differentRuns"].is_u64(), "{v}");
    assert_camel("diff --format json", &v);
    let r = aguify(&d, &["check", "--format", "json", &failed]);
    assert_camel(
        "check --format json",
        &serde_json::from_slice(&r.stdout).unwrap(),
    );
    let r = aguify(&d, &["explain", "--format", "json", &failed]);
    assert_camel(
        "explain --format json",
        &serde_json::from_slice(&r.stdout).unwrap(),
    );
    // The report's embedded data.
    let r = aguify(&d, &["report", &failed, &a, "-o", "page.html"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let page = std::fs::read_to_string(d.join("page.html")).unwrap();
    let start = page.find("id=\"aguify-data\"").expect("data script");
    let json = &page[start..];
    let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
    let v: serde_json::Value = serde_json::from_str(json).expect("report data");
    assert!(
        v["runs"][0]["diagnosis"]["error"]["carriedBy"]["line"].is_u64(),
        "{v}"
    );
    assert_camel("report data", &v);
}

// ---- 37.13: one failure per finding in JUnit ----

#[test]
fn junit_counts_one_error_as_one_failure() {
    let d = scratch("junit");
    put(
        &d,
        "one.ndjson",
        concat!(
            r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#,
            "\n",
            r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[]}}"#,
            "\n"
        )
        .as_bytes(),
    );
    let r = aguify(&d, &["check", "--format", "json", "one.ndjson"]);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["summary"]["errors"], 1, "{v}");
    let r = aguify(&d, &["check", "--format", "junit", "one.ndjson"]);
    assert_eq!(r.code, 1);
    let xml = out(&r);
    assert!(xml.contains("failures=\"1\""), "{xml}");
    assert_eq!(xml.matches("<failure").count(), 1, "{xml}");
}

// ---- 37.14: quiet and statistics ----

#[test]
fn check_quiet_prints_nothing_and_statistics_only_counts() {
    let d = scratch("quiet");
    let failed = recording("v3-js/e_error_tool_raises.ndjson");
    put(
        &d,
        "bad.ndjson",
        b"{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\"}\n",
    );
    let r = aguify(&d, &["check", "-q", "bad.ndjson"]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.is_empty(), "{}", out(&r));
    let r = aguify(&d, &["check", "-q", &failed.to_string_lossy()]);
    assert_eq!((r.code, r.stdout.len()), (0, 0), "{}", out(&r));
    let r = aguify(&d, &["check", "--statistics", "bad.ndjson"]);
    assert_eq!(r.code, 1);
    let text = out(&r);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 2, "{text}");
    assert!(
        lines.last().unwrap().starts_with("1 file checked: "),
        "{text}"
    );
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit())),
        "{text}"
    );
    assert!(!text.contains("bad.ndjson"), "{text}");
}

// ---- 37.15 and 37.16: a terminal is said, never waited on ----

/// Runs `command` (a shell line) with stdin and stdout on a terminal (util-linux `script`);
/// `None` when `script` is not there.
fn on_a_terminal(cwd: &Path, command: &str) -> Option<(i32, String)> {
    let o = Command::new("script")
        .args(["-qec", command, "/dev/null"])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .ok()?;
    Some((
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    ))
}

#[test]
fn commands_say_stdin_is_a_terminal_and_report_will_not_write_html_to_one() {
    let d = scratch("terminal");
    put(&d, "a.ndjson", CLEAN_RUN.as_bytes());
    let bin = BIN;
    if on_a_terminal(&d, "true").is_none() {
        eprintln!("skipped: no util-linux `script` to give the command a terminal");
        return;
    }
    for cmd in [
        "convert", "timeline", "explain", "snapshot", "report", "check",
    ] {
        // `timeout` bounds a command that waits on the terminal after all.
        let line = format!("timeout 10 {bin} {cmd} < /dev/tty");
        let (code, text) = on_a_terminal(&d, &line).expect("script");
        assert_eq!(code, 2, "{cmd}: {text}");
        assert!(text.contains("stdin is a terminal"), "{cmd}: {text}");
    }
    let (code, text) = on_a_terminal(&d, &format!("timeout 10 {bin} report a.ndjson")).unwrap();
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("not writing an HTML page to the terminal"),
        "{text}"
    );
    assert!(!text.contains("<html"), "{text}");
}

// ---- 37.17: smaller ----

#[test]
fn convert_summary_is_not_prefixed_check() {
    let d = scratch("summary");
    put(
        &d,
        "bad.ndjson",
        b"{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\"}\n",
    );
    let r = aguify(&d, &["convert", "bad.ndjson"]);
    assert!(
        r.stderr.contains("aguify: 1 file checked: "),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("aguify: check:"), "{}", r.stderr);
}

#[test]
fn markdown_links_in_a_github_job_are_paths_in_the_repository() {
    let d = scratch("markdown");
    put(
        &d,
        "sub/bad.ndjson",
        b"{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\"}\n",
    );
    let o = Command::new(BIN)
        .args(["check", "--format", "markdown", "bad.ndjson"])
        .current_dir(d.join("sub"))
        .env("GITHUB_SERVER_URL", "https://github.com")
        .env("GITHUB_REPOSITORY", "o/r")
        .env("GITHUB_SHA", "abc")
        .env("GITHUB_WORKSPACE", &*d)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(
        md.contains("(https://github.com/o/r/blob/abc/sub/bad.ndjson#L1)"),
        "{md}"
    );
    // Outside the workspace: named, not linked.
    let o = Command::new(BIN)
        .args(["check", "--format", "markdown", "bad.ndjson"])
        .current_dir(d.join("sub"))
        .env("GITHUB_SERVER_URL", "https://github.com")
        .env("GITHUB_REPOSITORY", "o/r")
        .env("GITHUB_SHA", "abc")
        .env("GITHUB_WORKSPACE", "/nonexistent-workspace")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let md = String::from_utf8_lossy(&o.stdout);
    assert!(
        md.contains("`bad.ndjson:1`") && !md.contains("](http"),
        "{md}"
    );
}

#[test]
fn explain_of_a_langgraph_js_recursion_error_names_recursion_limit_as_js_spells_it() {
    let rec = recording("v2-js/e_recursion_limit.ndjson");
    let r = aguify(
        &repo(),
        &["explain", "--color", "never", &rec.to_string_lossy()],
    );
    assert!(out(&r).contains("Raise `recursionLimit`"), "{}", out(&r));
    let rec = recording("v2-python-api/e_recursion_limit.ndjson");
    let r = aguify(
        &repo(),
        &["explain", "--color", "never", &rec.to_string_lossy()],
    );
    assert!(out(&r).contains("Raise `recursion_limit`"), "{}", out(&r));
}

#[test]
fn a_finding_about_a_whole_file_has_no_line() {
    let d = scratch("file-level");
    put(&d, "empty.ndjson", b"");
    let r = aguify(
        &d,
        &[
            "check",
            "--format",
            "json",
            "empty.ndjson",
            "missing.ndjson",
        ],
    );
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    let findings = v["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 2, "{v}");
    assert!(findings.iter().all(|f| f["line"].is_null()), "{v}");
    let r = aguify(&d, &["check", "--format", "junit", "empty.ndjson"]);
    assert!(!out(&r).contains("empty.ndjson:0"), "{}", out(&r));
}

#[test]
fn serve_listen_takes_a_bare_port() {
    let r = aguify(
        &repo(),
        &["serve", "--listen", "8000", "/nonexistent/x.ndjson"],
    );
    assert_eq!(r.code, 2);
    assert!(!r.stderr.contains("expected HOST:PORT"), "{}", r.stderr);
    assert!(r.stderr.contains("/nonexistent/x.ndjson"), "{}", r.stderr);
    let r = aguify(&repo(), &["serve", "--listen", "localhost", "x.ndjson"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("expected HOST:PORT or PORT"),
        "{}",
        r.stderr
    );
}

#[test]
fn counts_in_messages_are_singular_for_one() {
    let rec = recording("v3-python/e_truncated_stream.ndjson");
    let r = aguify(
        &repo(),
        &["check", "--color", "never", &rec.to_string_lossy()],
    );
    let text = out(&r);
    assert!(
        text.contains("with 1 message and 0 tool calls still open"),
        "{text}"
    );
    assert!(!text.contains("(s)"), "{text}");
}
