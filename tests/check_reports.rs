//! Snapshot tests of every report format over a fixed set of cases
//! (`testdata/check-reports/report.<ext>`; `UPDATE_GOLDEN=1` regenerates them).

use std::path::Path;

use aguify::check::report::{Format, Report};
use aguify::check::{check_bytes, Config};
use aguify::pipeline::Options;

const CASES: &[&str] = &[
    "01-valid-text-message.ndjson",
    "20-schema-interrupt-empty-list.ndjson",
    "35-rule09-text-start-already-open.ndjson",
    "80-sse-crlf-framing.sse",
    "98-lenient-tool-output-in-text-content.ndjson",
];

fn report() -> Report {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/check");
    let files = CASES
        .iter()
        .map(|c| {
            let bytes = std::fs::read(dir.join(c)).expect("case");
            check_bytes(
                &format!("testdata/check/{c}"),
                bytes,
                &Options::default(),
                &Config::default(),
            )
            .expect("check")
        })
        .collect();
    Report {
        files,
        ..Report::default()
    }
}

fn snapshot(format: Format, ext: &str) {
    let got = report().render(format, false);
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("testdata/check-reports/report.{ext}"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &got).expect("write golden");
        return;
    }
    let want = std::fs::read_to_string(&path).expect("golden (UPDATE_GOLDEN=1 to create)");
    assert_eq!(
        got,
        want,
        "{ext} report differs from {} (UPDATE_GOLDEN=1 to accept)",
        path.display()
    );
}

#[test]
fn text() {
    snapshot(Format::Text, "txt");
}

#[test]
fn json() {
    snapshot(Format::Json, "json");
}

#[test]
fn github() {
    snapshot(Format::Github, "github.txt");
}

#[test]
fn junit() {
    snapshot(Format::Junit, "junit.xml");
}

#[test]
fn sarif() {
    snapshot(Format::Sarif, "sarif");
}

#[test]
fn text_colour_only_when_asked() {
    let r = report();
    assert!(!r.render(Format::Text, false).contains('\u{1b}'));
    assert!(r.render(Format::Text, true).contains('\u{1b}'));
}

#[test]
fn markdown() {
    snapshot(Format::Markdown, "md");
}

/// In a GitHub Actions job the links point at the commit's files (`aguify check` passes the
/// base it reads from the job's environment).
#[test]
fn markdown_links_with_a_base() {
    let base = "https://github.com/o/r/blob/0123abc/";
    let md = aguify::check::report::markdown::render(&report(), base);
    assert!(
        md.contains("](https://github.com/o/r/blob/0123abc/testdata/check/35-rule09-text-start-already-open.ndjson#L3)"),
        "{md}"
    );
    assert_eq!(
        md,
        report()
            .render(Format::Markdown, false)
            .replace("](testdata/", &format!("]({base}testdata/"))
    );
}
