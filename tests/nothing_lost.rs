//! Nothing lost: `--stats` accounts for every input line; output is whole frames even when
//! the run stops early; a reader that closes the pipe early makes aguify exit 0 quietly.

#[path = "util/invariants.rs"]
mod invariants;
mod util;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use util::{aguify, bad_dir, line_count, repo, stats_line, BIN};

fn all_inputs() -> Vec<PathBuf> {
    let mut out = vec![];
    for dir in ["testdata/check", "testdata/bad"] {
        for e in std::fs::read_dir(repo().join(dir))
            .expect("testdata dir")
            .flatten()
        {
            let p = e.path();
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if p.is_file()
                && !name.starts_with('.')
                && !name.ends_with(".expected")
                && !name.ends_with(".json")
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn stats_account_for_every_line_of_every_input() {
    let inputs = all_inputs();
    assert!(inputs.len() > 40);
    for p in inputs {
        let bytes = std::fs::read(&p).expect("read input");
        let path = p.to_string_lossy();
        let run = aguify(&repo(), &["convert", "--stats", "--to", "ndjson", &path]);
        // A file of which nothing is of a known form (empty, binary) exits 2, saying so.
        let unread = run.stderr.contains("no AG-UI or LangGraph records");
        assert_eq!(
            run.code,
            if unread { 2 } else { 0 },
            "{path}: {}",
            run.stderr
        );
        let (lines, mapped, ignored, bad) = stats_line(&run.stderr)
            .unwrap_or_else(|| panic!("{path}: no stats line in {}", run.stderr));
        assert_eq!(lines, line_count(&bytes), "{path}: lines read vs wc -l");
        assert_eq!(mapped + ignored + bad, lines, "{path}: {}", run.stderr);
        let reported = run
            .stderr
            .lines()
            // Bad lines are reported by the inline checker as AGX608 (unreadable), AGX609
            // (a record of no known form), AGX611 (a known form it cannot convert), AGX602 (a
            // replayed v3 event), AGX501 (bad AG-UI frame), AGX201 without an event index (a
            // line of an unknown, not even SCREAMING_SNAKE, type) or AGX503 (an SSE frame
            // without data); its other findings are not.
            .filter(|l| {
                l.contains(&*path)
                    && ([
                        "[AGX501]", "[AGX608]", "[AGX609]", "[AGX611]", "[AGX602]", "[AGX503]",
                    ]
                    .iter()
                    .any(|r| l.contains(r))
                        || (l.contains("[AGX201]") && !l.contains(" event #")))
            })
            .count() as u64;
        assert!(
            reported <= bad,
            "{path}: every reported line is counted bad"
        );
        assert!(
            bad == 0 || reported > 0 || unread,
            "{path}: bad lines are reported"
        );
    }
}

#[test]
fn converted_bad_inputs_still_form_valid_streams() {
    for p in all_inputs()
        .into_iter()
        .filter(|p| p.starts_with(bad_dir()))
    {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.starts_with("18-agui") {
            continue; // AG-UI input passes through as it is
        }
        let run = aguify(&bad_dir(), &["convert", "--to", "ndjson", &name]);
        let events: Vec<serde_json::Value> = String::from_utf8_lossy(&run.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).expect("json line"))
            .collect();
        if let Err(e) = invariants::check_stream(&events) {
            panic!("{name}: {e}");
        }
    }
}

/// Every SSE frame is whole: `data: <JSON>\n\n`, nothing after the last one.
fn assert_whole_sse_frames(out: &[u8], what: &str) {
    let text = std::str::from_utf8(out).expect("utf8 output");
    assert!(
        text.is_empty() || text.ends_with("\n\n"),
        "{what}: output ends mid-frame"
    );
    for frame in text.split_terminator("\n\n") {
        let json = frame
            .strip_prefix("data: ")
            .unwrap_or_else(|| panic!("{what}: frame {frame:?}"));
        serde_json::from_str::<serde_json::Value>(json)
            .unwrap_or_else(|e| panic!("{what}: {e} in {json}"));
    }
}

#[test]
fn output_is_whole_frames_when_a_run_stops_early() {
    // --strict stop.
    let run = aguify(
        &bad_dir(),
        &["convert", "--strict", "10-v2-missing-fields.ndjson"],
    );
    assert_eq!(run.code, 2);
    assert!(!run.stdout.is_empty());
    assert_whole_sse_frames(&run.stdout, "--strict");
    // An input that fails to read after another one converted (a directory).
    let run = aguify(&bad_dir(), &["convert", "05-crlf.ndjson", "."]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("aguify: cannot open .: "),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.is_empty());
    assert_whole_sse_frames(&run.stdout, "read error");
    // Every bad-corpus conversion.
    for p in all_inputs()
        .into_iter()
        .filter(|p| p.starts_with(bad_dir()))
    {
        let path = p.to_string_lossy();
        let run = aguify(&repo(), &["convert", &path]);
        assert_whole_sse_frames(&run.stdout, &path);
    }
}

fn big_input(dir: &Path) -> PathBuf {
    let src = std::fs::read_to_string(bad_dir().join("05-crlf.ndjson")).expect("seed");
    let lines: Vec<&str> = src.lines().filter(|l| !l.trim().is_empty()).collect();
    let path = dir.join("big.ndjson");
    let mut w = std::io::BufWriter::new(std::fs::File::create(&path).expect("create"));
    for i in 0..5000 {
        for l in &lines {
            // Fresh run and message ids per copy, so the inline checker has nothing to say.
            let l = l
                .replace("\"r1\"", &format!("\"r{i}\""))
                .replace("\"msg1\"", &format!("\"msg{i}\""));
            writeln!(w, "{l}").expect("write");
        }
    }
    path
}

#[test]
fn broken_pipe_exits_0_quietly() {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("nothing-lost");
    std::fs::create_dir_all(&tmp).expect("tmp");
    let input = big_input(&tmp);
    for format in ["sse", "ndjson"] {
        let mut child = Command::new(BIN)
            .args(["convert", "--to", format])
            .arg(&input)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn aguify");
        let stdout = child.stdout.take().expect("stdout");
        let mut reader = BufReader::new(stdout);
        let mut first = String::new();
        reader.read_line(&mut first).expect("read one line");
        assert!(first.contains("RUN_STARTED"), "{first}");
        drop(reader); // the reader goes away: aguify's next writes hit a closed pipe
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .expect("stderr")
            .read_to_string(&mut stderr)
            .expect("stderr");
        let status = child.wait().expect("wait");
        assert_eq!(status.code(), Some(0), "{format}: {stderr}");
        assert_eq!(stderr, "", "{format}: quiet");
    }
}
