//! The bad-input corpus (`testdata/bad/`): every hazard a crashed recorder, a hand edit or a
//! misbehaving server can produce, each with its expected diagnostics (`NAME.expected`: exit
//! code, stderr with `--stats`, and the AG-UI event types still written). `UPDATE_GOLDEN=1`
//! rewrites the expectations; review the diff before committing.

mod util;

use std::path::Path;

use util::{aguify, bad_dir, event_types, golden};

/// What a golden file holds for one run of `aguify convert --stats --to ndjson ARGS… FILE`.
fn report(dir: &Path, args: &[&str]) -> String {
    let run = aguify(dir, args);
    let mut s = format!("$ aguify {}\nexit: {}\nstderr:\n", args.join(" "), run.code);
    for l in run.stderr.lines() {
        s.push_str("  ");
        s.push_str(l);
        s.push('\n');
    }
    s.push_str("events:");
    for t in event_types(&run.stdout) {
        s.push(' ');
        s.push_str(&t);
    }
    s.push('\n');
    s
}

fn inputs() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(bad_dir())
        .expect("testdata/bad exists")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".expected") && !n.starts_with('.'))
        .collect();
    names.sort();
    names
}

#[test]
fn bad_corpus_matches_expected_diagnostics() {
    let dir = bad_dir();
    let names = inputs();
    assert!(names.len() >= 20, "the bad corpus is there");
    for name in names {
        let actual = report(&dir, &["convert", "--stats", "--to", "ndjson", &name]);
        golden(&dir.join(format!("{name}.expected")), &actual);
    }
}

#[test]
fn strict_stops_at_the_first_bad_line_with_exit_2() {
    let dir = bad_dir();
    let name = "10-v2-missing-fields.ndjson";
    let actual = report(
        &dir,
        &["convert", "--strict", "--stats", "--to", "ndjson", name],
    );
    golden(&dir.join("strict.expected"), &actual);
    let run = aguify(&dir, &["convert", "--strict", "--to", "ndjson", name]);
    assert_eq!(run.code, 2);
    // The bad line is reported once, then the stop.
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{}", run.stderr);
    assert!(lines[0].starts_with(&format!("aguify: {name}:3: ")));
    assert!(lines[1].contains("--strict"));
    // What was converted before the stop is written, in whole lines.
    assert!(run.stdout.ends_with(b"\n"));
    assert!(!event_types(&run.stdout).is_empty());
}

#[test]
fn strict_passes_a_clean_file() {
    let run = aguify(
        &bad_dir(),
        &["convert", "--strict", "--to", "ndjson", "05-crlf.ndjson"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr, "");
}

#[test]
fn max_line_bytes_names_the_limit() {
    let dir = bad_dir();
    let actual = report(
        &dir,
        &[
            "convert",
            "--stats",
            "--max-line-bytes",
            "200",
            "--to",
            "ndjson",
            "03-blank-lines.ndjson",
        ],
    );
    golden(&dir.join("max-line-bytes.expected"), &actual);
}

/// A 100 MB line between valid lines: skipped with a message at the default
/// `--max-line-bytes` (64 MiB) without holding it in memory; the lines around it convert.
#[test]
fn a_100_mb_line_is_skipped_and_reported() {
    use std::io::Write;
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bad-input");
    std::fs::create_dir_all(&tmp).expect("tmp dir");
    let name = "06-100mb-line.ndjson";
    let src = std::fs::read(bad_dir().join("05-crlf.ndjson")).expect("seed file");
    let text = String::from_utf8(src).expect("utf8");
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    {
        let f = std::fs::File::create(tmp.join(name)).expect("create");
        let mut w = std::io::BufWriter::new(f);
        writeln!(w, "{}", lines[0]).expect("write");
        // A custom event whose payload is 100 MB of text.
        write!(
            w,
            "{{\"event\":\"on_custom_event\",\"name\":\"huge\",\"data\":\""
        )
        .expect("write");
        let block = vec![b'x'; 1 << 20];
        for _ in 0..100 {
            w.write_all(&block).expect("write");
        }
        writeln!(w, "\"}}").expect("write");
        for l in &lines[1..] {
            writeln!(w, "{l}").expect("write");
        }
    }
    let actual = report(&tmp, &["convert", "--stats", "--to", "ndjson", name]);
    golden(&bad_dir().join("06-100mb-line.expected"), &actual);
    std::fs::remove_file(tmp.join(name)).ok();
}
