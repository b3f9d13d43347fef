//! `aguify report`'s data and page (src/report); the pages are also rendered in headless
//! Chromium by `browser/render-reports.mjs` (CI).

use std::path::Path;

use aguify::pipeline::{self, Input, Options};
use aguify::report::model::{Item, Report, Run};
use aguify::report::{html, Limits, ReportBuilder, LIMITS};

fn path(p: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/recordings")
        .join(p)
        .to_string_lossy()
        .into_owned()
}

fn report_with(files: &[String], limits: Limits) -> Report {
    let inputs = files
        .iter()
        .map(|f| Input::from_bytes(f, std::fs::read(f).expect("recording")))
        .collect();
    let mut b = ReportBuilder::new(files.to_vec(), true, limits);
    pipeline::run(inputs, &Options::default(), &mut b).expect("pipeline");
    b.finish()
}

fn report(files: &[&str]) -> Report {
    let files: Vec<String> = files.iter().map(|f| path(f)).collect();
    report_with(&files, LIMITS)
}

fn page(r: &mut Report) -> String {
    let mut out = Vec::new();
    html::write(r, &mut out).expect("write");
    String::from_utf8(out).expect("utf-8")
}

fn items(run: &Run) -> &[Item] {
    &run.detail.as_ref().expect("detail").items
}

#[test]
fn interrupt_and_resume_link_to_each_other() {
    let r = report(&[
        "v3-js/d_hitl__1_interrupt.ndjson",
        "v3-js/d_hitl__2_resume.ndjson",
    ]);
    assert_eq!(r.runs.len(), 2);
    assert_eq!(r.runs[0].outcome.how.kind(), "interrupt");
    let int = items(&r.runs[0])
        .iter()
        .find(|i| i.kind == "interrupt")
        .expect("interrupt item");
    assert_eq!(int.link, Some(2));
    assert_eq!(int.name.as_deref(), Some("confirmation"));
    assert!(int.args.as_ref().is_some_and(|p| p.text.contains("widget")));
    let resume = &items(&r.runs[1])[0];
    assert_eq!((resume.kind, resume.link), ("resume", Some(1)));
    assert_eq!(resume.id, int.id);
    // One stream over both files: the resume's interrupt is known (no AGX405).
    assert!(r.rule_counts.iter().all(|c| c.rule != "AGX405"));
}

#[test]
fn interrupts_of_one_id_each_show_their_own_payload() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/check/96-lenient-duplicate-interrupt-ids.ndjson")
        .to_string_lossy()
        .into_owned();
    let r = report_with(&[file], LIMITS);
    let payloads: Vec<&str> = items(&r.runs[0])
        .iter()
        .filter(|i| i.kind == "interrupt")
        .filter_map(|i| Some(i.args.as_ref()?.text.as_str()))
        .collect();
    assert_eq!(payloads.len(), 2);
    assert!(payloads[0].contains("tool_approval"), "{payloads:?}");
    assert!(payloads[1].contains("again"), "{payloads:?}");
}

#[test]
fn failed_run_has_explains_diagnosis_and_parallel_tools_take_two_rows() {
    let r = report(&["v3-js/e_error_tool_raises.ndjson"]);
    let run = &r.runs[0];
    assert_eq!(run.outcome.how.kind(), "error");
    let d = run.diagnosis.as_ref().expect("diagnosis");
    assert!(!d.cause.is_empty() && !d.hint.is_empty());

    let r = report(&["v3-js/b_react_parallel.ndjson"]);
    let run = &r.runs[0];
    assert_eq!(items(run)[0].kind, "user");
    assert_eq!(
        items(run)[0].text.as_ref().map(|t| t.text.as_str()),
        Some("Weather in Paris and London?")
    );
    let detail = run.detail.as_ref().expect("detail");
    assert_eq!(detail.axis.unit, "ms");
    let tools = detail
        .lanes
        .iter()
        .find(|l| l.kind == "tool")
        .expect("tool lane");
    assert_eq!(tools.rows.len(), 2, "the two calls overlap in time");
    let model = detail
        .lanes
        .iter()
        .find(|l| l.kind == "model")
        .expect("model lane");
    assert_eq!(model.rows.iter().flatten().count(), 2);
    // Every snapshot after the first says what changed.
    let states: Vec<&Item> = detail
        .items
        .iter()
        .filter(|i| i.kind == "state" && i.state.is_some())
        .collect();
    assert!(states[0].changes.is_none());
    assert!(states[1..].iter().all(|s| s.changes_total > 0));
}

#[test]
fn logs_without_timestamps_use_the_event_sequence() {
    let r = report(&["v2-python-api/b_react_one_tool.ndjson"]);
    let detail = r.runs[0].detail.as_ref().expect("detail");
    assert_eq!(detail.axis.unit, "event");
    assert!(detail.lanes.iter().any(|l| l.kind == "step"));
}

#[test]
fn the_page_is_self_contained_and_deterministic() {
    let files = ["v3-js/b_react_parallel.ndjson"];
    let a = page(&mut report(&files));
    let b = page(&mut report(&files));
    assert_eq!(a, b);
    assert!(a.contains("Content-Security-Policy\" content=\"default-src 'none'"));
    // Nothing outside the data refers to another resource.
    let (head, rest) = a.split_once("id=\"aguify-data\">").expect("data");
    let (_, tail) = rest.split_once("</script>").expect("end of data");
    for part in [head, tail] {
        for bad in [
            "http:",
            "https:",
            "src=",
            "url(",
            "@import",
            "fetch(",
            "XMLHttpRequest",
        ] {
            assert!(!part.contains(bad), "page refers to {bad}");
        }
    }
}

/// Two model calls left open by a cut stream are completed at the root's end; the order they
/// were completed in once hung on the hasher's seed, so the page differed between runs.
#[test]
fn open_model_calls_complete_in_start_order_every_time() {
    let files = ["sse/platform-classic-events.k_stream_cut_no_model_end.sse"];
    let first = page(&mut report(&files));
    for _ in 0..12 {
        assert_eq!(page(&mut report(&files)), first);
    }
}

#[test]
fn the_page_stays_within_its_byte_bound() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/recordings/v3-js");
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").path().to_string_lossy().into_owned())
        .filter(|p| !p.contains("truncated"))
        .collect();
    files.sort();
    let limits = Limits {
        max_bytes: 120_000,
        ..LIMITS
    };
    let mut r = report_with(&files, limits);
    let runs = r.runs.len();
    let html = page(&mut r);
    assert!(html.len() <= 120_000, "{} bytes", html.len());
    assert!(r.limits.runs_without_detail > 0);
    assert_eq!(r.runs.len() + r.runs_omitted, runs);
    // A failed run keeps its detail longer than one that ended well.
    let kept = |failed: bool| {
        r.runs
            .iter()
            .filter(|x| matches!(x.outcome.how.kind(), "error" | "no_terminal") == failed)
            .filter(|x| x.detail.is_some())
            .count()
    };
    assert!(kept(true) > 0, "{} {}", kept(true), kept(false));
}

#[test]
fn findings_sit_at_their_event_with_the_rules_text() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/check/35-rule09-text-start-already-open.ndjson")
        .to_string_lossy()
        .into_owned();
    let r = report_with(std::slice::from_ref(&file), LIMITS);
    assert_eq!((r.errors, r.warnings), (1, 0));
    let run = &r.runs[0];
    assert_eq!(run.errors, 1);
    let with: Vec<&Item> = items(run)
        .iter()
        .filter(|i| !i.findings.is_empty())
        .collect();
    assert_eq!(with.len(), 1);
    assert_eq!(with[0].kind, "assistant");
    let f = &with[0].findings[0];
    assert_eq!((f.rule, f.event), ("AGX109", Some(2)));
    assert_eq!(f.at, format!("{file}:3"));
    let rule = &r.rules["AGX109"];
    assert!(!rule.explanation.is_empty() && !rule.fix.is_empty());
}
