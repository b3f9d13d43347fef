//! `convert` reading a pipe sends its first events before the input ends (issue 6).

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

#[test]
fn first_frame_leaves_before_stdin_closes() {
    let run = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/testdata/recordings/v2-python-api/a_plain_chat.ndjson"
    ))
    .expect("recording present");
    let mut child = Command::new(env!("CARGO_BIN_EXE_aguify"))
        .args(["convert", "--to", "sse", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("aguify starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let mut stdout = child.stdout.take().expect("piped stdout");
    stdin.write_all(&run).expect("write one run");
    stdin.flush().expect("flush stdin");

    // Read the first SSE frame on another thread, while stdin stays open.
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut got = Vec::new();
        let mut byte = [0u8; 1];
        while !got.ends_with(b"\n\n") {
            match stdout.read(&mut byte) {
                Ok(1) => got.push(byte[0]),
                _ => break,
            }
        }
        let _ = tx.send(got);
        stdout
    });
    let first = rx.recv_timeout(Duration::from_secs(20));
    drop(stdin); // closing stdin ends the run in any case
    let _ = child.wait();
    let _ = reader.join();
    let first = first.expect("a frame arrived while stdin was still open");
    let text = String::from_utf8(first).expect("utf-8 output");
    assert!(
        text.starts_with("data: {\"type\":\"RUN_STARTED\""),
        "first frame: {text}"
    );
}

/// `convert --pace` flushes every frame: the first one leaves while the next still waits.
#[test]
fn paced_frames_leave_one_by_one() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_aguify"))
        .args(["convert", "--to", "sse", "--pace", "--interval", "5000"])
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/testdata/recordings/v2-python-api/a_plain_chat.ndjson"
        ))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("aguify starts");
    let mut stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut got = Vec::new();
        let mut byte = [0u8; 1];
        while !got.ends_with(b"\n\n") && matches!(stdout.read(&mut byte), Ok(1)) {
            got.push(byte[0]);
        }
        let _ = tx.send(got);
    });
    let first = rx.recv_timeout(Duration::from_secs(4));
    let still_running = child.try_wait().expect("child status").is_none();
    let _ = child.kill();
    let _ = child.wait();
    let first = String::from_utf8(first.expect("the first frame before the second's gap"));
    assert!(first
        .expect("utf-8")
        .starts_with("data: {\"type\":\"RUN_STARTED\""));
    assert!(
        still_running,
        "the paced run waits 5 s before its second event"
    );
}
