//! The page: one HTML file holding its style, its script and the report's data (JSON), with a
//! content security policy that allows no request at all. The data is cut to fit
//! [`super::model::Limits::max_bytes`] before it is written.

use std::io::{self, Write};

use super::model::Report;
use crate::text::markup_escape;

/// The page with its holes: `{generator}`, `{title}`, `{css}`, `{data}` and `{js}`. Nothing is
/// fetched (its content security policy): styles and the script are inline, images only
/// `data:`.
const PAGE: &str = include_str!("assets/report.html");
const CSS: &str = include_str!("assets/report.css");
const JS: &str = include_str!("assets/report.js");

/// The data as JSON safe inside a `<script>` element: `<` only occurs inside JSON strings,
/// where `\u003c` stands for it (no `</script>` or `<!--` can close the element).
fn data_json(report: &Report) -> String {
    let json = serde_json::to_string(report).unwrap_or_else(|_| "null".into());
    json.replace('<', "\\u003c")
}

/// Drops run detail (lanes, transcript), last runs first and runs that ended well before
/// failed ones, then run headers, until the page fits `max_bytes`.
fn fit(report: &mut Report, room: usize) -> String {
    let mut json = data_json(report);
    if json.len() <= room {
        return json;
    }
    let size = |d: &Option<super::model::Detail>| {
        d.as_ref()
            .map_or(0, |d| serde_json::to_string(d).map_or(0, |s| s.len()))
    };
    let mut over = json.len() - room;
    for failed_too in [false, true] {
        for run in report.runs.iter_mut().rev() {
            if over == 0 {
                break;
            }
            let failed = run.outcome.how.failed();
            if run.detail.is_some() && (failed_too || !failed) {
                over = over.saturating_sub(size(&run.detail));
                run.detail = None;
                report.limits.runs_without_detail += 1;
            }
        }
    }
    json = data_json(report);
    while json.len() > room && !report.runs.is_empty() {
        let drop = (report.runs.len() / 10).max(1);
        report.runs.truncate(report.runs.len() - drop);
        report.runs_omitted += drop;
        json = data_json(report);
    }
    json
}

/// Writes the page.
pub fn write(report: &mut Report, w: &mut dyn Write) -> io::Result<()> {
    let title = match report.inputs.as_slice() {
        [] => "aguify report".to_string(),
        [one] => format!("aguify report: {one}"),
        [first, rest @ ..] => format!("aguify report: {first} and {} more", rest.len()),
    };
    let (head, tail) = PAGE.split_once("{data}").unwrap_or((PAGE, ""));
    // The title (an input's name) is filled in last: nothing in it is taken for a hole.
    let head = (head.replacen("{css}", CSS, 1))
        .replacen("{generator}", &markup_escape(&report.generator), 1)
        .replacen("{title}", &markup_escape(&title), 1);
    let tail = tail.replacen("{js}", JS, 1);
    let room = report
        .limits
        .max_bytes
        .saturating_sub(head.len() + tail.len());
    let json = fit(report, room);
    w.write_all(head.as_bytes())?;
    w.write_all(json.as_bytes())?;
    w.write_all(tail.as_bytes())
}
