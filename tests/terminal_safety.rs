//! Terminal and CI-log safety (issue 41 item 6): ids, names, codes, reasons and file names from
//! a hostile log reach no output as characters a terminal or a CI log acts on. Each output
//! path is run on a log (and a file name) full of them: no line may start a forged `::error`
//! workflow command, and no ESC, BEL, CR, C1 control, bidi override or line separator may be
//! written.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_aguify");

/// A newline and a forged workflow command, a title-setting OSC sequence, a CR, a bidi
/// override, a line separator and a C1 control.
const HOSTILE: &str =
    "\n::error file=x.rs::forged\u{1b}]0;pwned\u{7}\rCR\u{202e}RTL\u{2028}LS\u{85}";

/// A folder of its own for a test.
fn folder(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("aguify-safety-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// An AG-UI log whose every id, name, code and reason carries [`HOSTILE`]; the first line is
/// not JSON (a bad line, reported with the file's name).
fn hostile_log() -> String {
    let h = |s: &str| format!("{s}{HOSTILE}");
    let events = [
        serde_json::json!({"type":"RUN_STARTED","threadId":h("t"),"runId":h("r")}),
        serde_json::json!({"type":"STEP_STARTED","stepName":h("s")}),
        serde_json::json!({"type":"STEP_FINISHED","stepName":h("s")}),
        serde_json::json!({"type":"TOOL_CALL_START","toolCallId":h("tc"),"toolCallName":h("tool")}),
        serde_json::json!({"type":"TOOL_CALL_ARGS","toolCallId":h("tc"),"delta":"{}"}),
        serde_json::json!({"type":"TOOL_CALL_END","toolCallId":h("tc")}),
        serde_json::json!({"type":"CUSTOM","name":h("custom"),"value":h("v")}),
        serde_json::json!({"type":"RUN_ERROR","message":h("m"),"code":h("code")}),
        serde_json::json!({"type":"RUN_STARTED","threadId":"t2","runId":"r2"}),
        serde_json::json!({"type":"RUN_FINISHED","threadId":"t2","runId":"r2",
            "outcome":{"type":"interrupt","interrupts":[{"id":h("int"),"reason":h("why")}]}}),
    ];
    let mut s = String::from("{bad\n");
    for e in events {
        s.push_str(&e.to_string());
        s.push('\n');
    }
    s
}

/// The hostile log written under a hostile file name, and a second, different copy.
fn fixtures(test: &str) -> (PathBuf, PathBuf) {
    let d = folder(test);
    let a = d.join(format!("a{HOSTILE}.ndjson"));
    let b = d.join(format!("b{HOSTILE}.ndjson"));
    std::fs::write(&a, hostile_log()).expect("write");
    std::fs::write(
        &b,
        hostile_log().replace("\"toolCallName\":\"tool", "\"toolCallName\":\"other"),
    )
    .expect("write");
    (a, b)
}

fn assert_safe(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    for (i, line) in text.lines().enumerate() {
        assert!(
            !line.starts_with("::error file=x.rs"),
            "{what}: line {} is a forged workflow command: {line:?}",
            i + 1
        );
    }
    for bad in ['\u{1b}', '\u{7}', '\r', '\u{85}', '\u{202e}', '\u{2028}'] {
        assert!(
            !text.contains(bad),
            "{what}: writes {bad:?} raw:\n{}",
            text.escape_debug()
        );
    }
}

fn run(what: &str, args: &[&str], files: &[&Path]) -> std::process::Output {
    let out = Command::new(BIN)
        .args(args)
        .args(files)
        .env_remove("GITHUB_ACTIONS")
        .output()
        .expect("run aguify");
    assert!(
        out.status.code().is_some_and(|c| c <= 2),
        "{what}: {:?}",
        out.status
    );
    assert_safe(&format!("{what} stdout"), &out.stdout);
    assert_safe(&format!("{what} stderr"), &out.stderr);
    out
}

#[test]
fn timeline_escapes_ids_names_codes_and_reasons() {
    let (a, _) = fixtures("timeline");
    let out = run("timeline", &["timeline"], &[&a]);
    let text = String::from_utf8_lossy(&out.stdout);
    // Shown, escaped: the text is there, its controls as escapes.
    assert!(
        text.contains("\\n::error file=x.rs::forged\\u{1b}]0;pwned\\u{7}"),
        "{text}"
    );
    assert!(text.contains("\\u{202e}RTL\\u{2028}LS\\u{85}"), "{text}");
    run("timeline --full", &["timeline", "--full"], &[&a]);
}

#[test]
fn explain_escapes_what_it_quotes() {
    let (a, _) = fixtures("explain");
    run("explain", &["explain"], &[&a]);
}

#[test]
fn check_reports_escape_in_every_text_format() {
    let (a, _) = fixtures("check");
    for format in ["text", "markdown", "github"] {
        run(
            &format!("check --format {format}"),
            &["check", "--format", format],
            &[&a],
        );
    }
}

#[test]
fn diff_escapes_file_names_and_values() {
    let (a, b) = fixtures("diff");
    for format in ["text", "github"] {
        let out = run(
            &format!("diff --format {format}"),
            &["diff", "--format", format],
            &[&a, &b],
        );
        assert_eq!(out.status.code(), Some(1), "the sides differ");
    }
}

#[test]
fn snapshot_escapes_file_names_in_its_messages() {
    let (a, _) = fixtures("snapshot");
    let out = run("snapshot", &["snapshot"], &[&a]);
    assert!(!out.stderr.is_empty(), "the bad line is reported");
}

#[test]
fn serve_startup_hint_escapes_file_names() {
    let (a, _) = fixtures("serve");
    let mut child = Command::new(BIN)
        .args(["serve", "--listen", "127.0.0.1:0"])
        .arg(&a)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("spawn serve");
    let stderr = child.stderr.take().expect("stderr");
    let mut hint = Vec::new();
    // The start-up lines end with the bad-line warning (it names the file).
    for line in BufReader::new(stderr).split(b'\n') {
        let line = line.expect("read");
        let done = String::from_utf8_lossy(&line).contains("bad input line");
        hint.extend_from_slice(&line);
        hint.push(b'\n');
        if done {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        String::from_utf8_lossy(&hint).contains("listening"),
        "{hint:?}"
    );
    assert_safe("serve start-up", &hint);
}
