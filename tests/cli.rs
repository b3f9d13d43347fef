//! The binary's contract: exit codes, stdin, broken pipe, completions checked in.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_aguify");

fn recording(rel: &str) -> String {
    format!("{}/testdata/recordings/{rel}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn convert_reads_stdin_and_writes_sse_frames() {
    let input = std::fs::read(recording("v2-python-api/a_plain_chat.ndjson")).expect("recording");
    let mut child = Command::new(BIN)
        .args(["convert", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&input)
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("utf8");
    assert!(
        text.starts_with("data: {\"type\":\"RUN_STARTED\""),
        "{text}"
    );
    assert!(text.ends_with("\n\n"));
    assert!(text
        .split("\n\n")
        .filter(|f| !f.is_empty())
        .all(|f| f.starts_with("data: {")));
}

#[test]
fn missing_file_exits_2_naming_it() {
    let out = Command::new(BIN)
        .args(["convert", "no/such/file.ndjson"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no/such/file.ndjson"), "{err}");
}

/// A recording named twice is read twice, a recording both times: the second naming once hid
/// the first, which was then told as holding nothing of a known form (exit 2).
#[test]
fn a_file_named_twice_is_read_as_a_recording() {
    let f = recording("v2-python-api/a_plain_chat.ndjson");
    for cmd in ["convert", "timeline"] {
        let out = Command::new(BIN).args([cmd, &f, &f]).output().expect("run");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{cmd}: {err}");
        assert!(
            !err.contains("no AG-UI or LangGraph records"),
            "{cmd}: {err}"
        );
    }
}

#[test]
fn bad_usage_exits_2() {
    let out = Command::new(BIN)
        .args(["convert", "--to", "xml"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
}

/// Every count that must be at least 1 says so in one wording (`convert --threads`, `serve
/// --max-connections`: one parser).
#[test]
fn a_count_of_zero_is_refused_in_one_wording() {
    for args in [
        ["convert", "--threads", "0"],
        ["serve", "--max-connections", "0"],
    ] {
        let out = Command::new(BIN).args(args).output().expect("run");
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        let want = format!(
            "invalid value '0' for '{} <N>': must be at least 1",
            args[1]
        );
        assert!(err.contains(&want), "{err}");
    }
}

#[test]
fn recorded_failure_still_converts_with_0() {
    let out = Command::new(BIN)
        .args([
            "convert",
            "--to",
            "ndjson",
            &recording("v2-python-api/e_error_tool_raises.ndjson"),
        ])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or_default();
    assert!(last.contains("\"RUN_ERROR\""), "{last}");
}

/// `--compat thinking` asks for THINKING_* events: the inline check does not report them as
/// removed-in-1.0 findings (AGX202), so `--fail-on error` passes.
#[test]
fn compat_thinking_output_is_not_flagged_by_the_inline_check() {
    let file = recording("v3-python/c_reasoning_anthropic.ndjson");
    let run = |compat: &str| {
        Command::new(BIN)
            .args([
                "convert",
                "--to",
                "ndjson",
                "--fail-on",
                "error",
                "--compat",
                compat,
                &file,
            ])
            .output()
            .expect("run")
    };
    let out = run("thinking");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\"THINKING_START\""), "{text}");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Plain output of the same recording is clean too (nothing else was silenced).
    assert_eq!(run("none").status.code(), Some(0));
}

/// Floats are written as `JSON.stringify` writes them (`@ag-ui/encoder`): the recording's
/// `1.0`, `0.0` and `120.0` come out as `1`, `0` and `120`, in events and in states.
#[test]
fn floats_are_written_as_json_stringify_writes_them() {
    for form in ["v2-python-api", "v3-python"] {
        let file = recording(&format!("{form}/g_float_progress.ndjson"));
        let raw = std::fs::read_to_string(&file).expect("recording");
        assert!(
            raw.contains("\"progress\":1.0"),
            "{form}: the recording has 1.0"
        );
        let out = Command::new(BIN)
            .args(["convert", "--to", "sse", &file])
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains(r#"{"progress":1,"stage":"done","eta_s":120,"items":3}"#),
            "{text}"
        );
        assert!(
            text.contains(r#""progress":0}"#) || form == "v2-python-api",
            "{text}"
        );
        assert!(!text.contains(".0,") && !text.contains(".0}"), "{text}");
    }
}

#[test]
fn closed_stdout_is_a_quiet_success() {
    // Many runs so the output exceeds the pipe buffer; the reader takes one line and leaves.
    let file = recording("v2-python-api/b_react_one_tool.ndjson");
    let files: Vec<&str> = std::iter::repeat_n(file.as_str(), 400).collect();
    let mut child = Command::new(BIN)
        .arg("convert")
        .args(&files)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut first = [0u8; 16];
    child
        .stdout
        .as_mut()
        .expect("stdout")
        .read_exact(&mut first)
        .expect("read");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The same run repeated reuses ids (the checker warns about that); nothing about the pipe.
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("os error") && !err.contains("Broken pipe"),
        "{err}"
    );
}

#[test]
fn checked_in_completions_are_current() {
    for (shell, file) in [
        ("bash", "aguify.bash"),
        ("zsh", "_aguify"),
        ("fish", "aguify.fish"),
        ("powershell", "_aguify.ps1"),
        ("elvish", "aguify.elv"),
    ] {
        let out = Command::new(BIN)
            .args(["completions", shell])
            .output()
            .expect("run");
        let path = format!("{}/completions/{file}", env!("CARGO_MANIFEST_DIR"));
        if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
            std::fs::write(&path, &out.stdout).expect("write completions");
            continue;
        }
        let want = std::fs::read(&path).expect("completions file");
        assert!(
            want == out.stdout,
            "{path} is stale: run UPDATE_GOLDEN=1 cargo test --test cli"
        );
    }
}

/// Runs the binary with stdout being a pipe whose read end is already closed.
#[cfg(unix)]
fn run_into_closed_pipe(args: &[&str]) -> std::process::Output {
    use std::os::fd::FromRawFd;
    let mut fds = [0i32; 2];
    // SAFETY: `fds` is a valid two-int array; the fds are owned below.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0, "pipe(2)");
    // SAFETY: both fds were just created by pipe(2) and are owned by nobody else.
    let (read, write) = unsafe {
        (
            std::fs::File::from_raw_fd(fds[0]),
            std::fs::File::from_raw_fd(fds[1]),
        )
    };
    drop(read);
    let out = Command::new(BIN)
        .args(args)
        .stdout(Stdio::from(write))
        .stderr(Stdio::piped())
        .output()
        .expect("run");
    out
}

#[cfg(target_os = "linux")]
fn run_into_full_disk(args: &[&str]) -> std::process::Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    Command::new(BIN)
        .args(args)
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .output()
        .expect("run")
}

#[cfg(unix)]
#[test]
fn completions_and_help_into_a_closed_pipe_are_a_quiet_success() {
    for args in [
        &["completions", "bash"][..],
        &["completions", "zsh"],
        &["--help"],
        &["serve", "--help"],
        &["--version"],
    ] {
        let out = run_into_closed_pipe(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: {err}");
    }
}

/// A report written after its verdict (issue 41 item 10): into a closed pipe, quiet and with
/// the verdict's exit code, whatever the format.
#[cfg(unix)]
#[test]
fn reports_into_a_closed_pipe_keep_the_verdict() {
    let failing = format!(
        "{}/testdata/check/36-rule10-text-content-without-start.ndjson",
        env!("CARGO_MANIFEST_DIR")
    );
    for format in ["text", "json", "sarif", "junit", "github", "markdown"] {
        let out = run_into_closed_pipe(&["check", "--format", format, &failing]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "check --format {format}: {err}");
        assert!(err.is_empty(), "check --format {format}: {err}");
    }
    // 300 failed runs: the JSON is larger than the writer's buffer, so the closed pipe is met
    // inside serde_json's writer (its error had lost its kind: "Broken pipe", exit 2).
    let dir = std::env::temp_dir().join(format!("aguify-closed-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let failed = dir.join("failed.ndjson");
    let runs: String = (0..300)
        .map(|i| {
            format!(
                "{{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r{i}\"}}\n\
                 {{\"type\":\"RUN_ERROR\",\"message\":\"boom\",\"code\":\"X\"}}\n"
            )
        })
        .collect();
    std::fs::write(&failed, runs).expect("write");
    let failed = failed.display().to_string();
    for format in ["text", "json"] {
        let out = run_into_closed_pipe(&["explain", "--format", format, &failed]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(0),
            "explain --format {format}: {err}"
        );
        assert!(err.is_empty(), "explain --format {format}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(target_os = "linux")]
#[test]
fn completions_and_help_onto_a_full_disk_exit_2_with_a_message() {
    for args in [
        &["completions", "bash"][..],
        &["completions", "fish"],
        &["--help"],
        &["check", "--help"],
        &["--version"],
    ] {
        let out = run_into_full_disk(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(
            err.trim_end(),
            "aguify: writing to stdout: No space left on device (os error 28)",
            "{args:?}"
        );
    }
}

/// `report -o` writes a temporary file beside PATH and renames it (issue 41 item 11): a write
/// that fails half-way (here a file size limit, as a full disk would) leaves the existing
/// report as it was and no temporary file; a write that succeeds replaces it.
#[cfg(unix)]
#[test]
fn report_output_is_replaced_whole_or_not_at_all() {
    let dir = std::env::temp_dir().join(format!("aguify-report-o-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let page = dir.join("page.html");
    std::fs::write(&page, "the old report").expect("write");
    let input = recording("v2-python-api/b_react_one_tool.ndjson");
    // SIGXFSZ ignored: a write past the limit fails with EFBIG instead of killing the process.
    let script = format!(
        "trap '' XFSZ; ulimit -f 8; exec '{BIN}' report -o '{}' '{input}'",
        page.display()
    );
    let out = Command::new("sh")
        .args(["-c", &script])
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot write"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&page).expect("read"),
        "the old report"
    );
    let left: Vec<_> = std::fs::read_dir(&dir)
        .expect("list")
        .filter_map(|e| e.ok().map(|e| e.file_name()))
        .collect();
    assert_eq!(left.len(), 1, "{left:?}");

    let out = Command::new(BIN)
        .args(["report", "-o"])
        .arg(&page)
        .arg(&input)
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
    let html = std::fs::read_to_string(&page).expect("read");
    assert!(
        html.starts_with("<!doctype html") || html.starts_with("<!DOCTYPE html"),
        "{}",
        &html[..40.min(html.len())]
    );
    assert_eq!(std::fs::read_dir(&dir).expect("list").count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Many input files under a small descriptor limit (issue 41 item 5): each file is opened
/// when the pipeline reaches it and closed after, so 300 files pass `ulimit -n 64` in every
/// command that reads a list of files.
#[cfg(unix)]
#[test]
fn many_files_are_opened_one_at_a_time() {
    let dir = std::env::temp_dir().join(format!("aguify-many-files-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let mut names = Vec::new();
    for i in 0..300 {
        let p = dir.join(format!("f{i:03}.ndjson"));
        let run = format!(
            "{{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r{i}\"}}\n\
             {{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r{i}\"}}\n"
        );
        std::fs::write(&p, run).expect("write");
        names.push(format!("'{}'", p.display()));
    }
    let files = names.join(" ");
    for cmd in [
        "convert", "check", "timeline", "explain", "snapshot", "report",
    ] {
        let script = format!("ulimit -n 64; exec '{BIN}' {cmd} {files}");
        let out = Command::new("sh")
            .args(["-c", &script])
            .output()
            .expect("run");
        let err = String::from_utf8_lossy(&out.stderr);
        // explain exits 1 when no run failed.
        let want = if cmd == "explain" { 1 } else { 0 };
        assert_eq!(out.status.code(), Some(want), "{cmd}: {err}");
        assert!(!err.contains("Too many open files"), "{cmd}: {err}");
        if cmd == "convert" {
            let text = String::from_utf8_lossy(&out.stdout);
            assert_eq!(text.matches("RUN_FINISHED").count(), 300, "{cmd}");
        }
    }
    let script = format!("ulimit -n 64; exec '{BIN}' diff --old {files} --new {files}");
    let out = Command::new("sh")
        .args(["-c", &script])
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "diff: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}
