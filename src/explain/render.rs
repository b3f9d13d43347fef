//! Explain renderers: text (plain or coloured) and JSON.

use std::io::{self, Write};

use owo_colors::{OwoColorize, Style};

use super::{Explanation, Report};
use crate::text::{count, cut, printable};
use crate::timeline::render::{line_in, ms, one_line};

/// Writes the report as text. `color`: paint headings and the error.
pub fn write_text(report: &Report, color: bool, w: &mut dyn Write) -> io::Result<()> {
    for c in &report.cancelled {
        writeln!(
            w,
            "run {}: cancelled by the caller after {} (not a failure)",
            printable(c.run_id.as_deref().unwrap_or("?")),
            count(c.events as usize, "event"),
        )?;
    }
    if report.explained.is_empty() {
        writeln!(
            w,
            "nothing to explain: {} read, none ended in RUN_ERROR or without a terminal event",
            count(report.runs, "run"),
        )?;
        return Ok(());
    }
    for (i, x) in report.explained.iter().enumerate() {
        if i > 0 {
            writeln!(w)?;
        }
        write_one(x, w, color)?;
    }
    if report.explained.len() > 1 {
        writeln!(w)?;
        writeln!(w, "{}", summary(report))?;
    }
    Ok(())
}

/// One line over many explained runs: "3 of 10 runs explained: 2 RUN_ERROR, 1 no terminal".
pub fn summary(report: &Report) -> String {
    let ended = |e: &str| report.explained.iter().filter(|x| x.ending == e).count();
    let parts: Vec<String> = [
        ("run_error", "ended in RUN_ERROR"),
        ("no_terminal", "stopped without a terminal event"),
        ("error_after_finished", "sent RUN_ERROR after RUN_FINISHED"),
    ]
    .into_iter()
    .filter_map(|(e, what)| match ended(e) {
        0 => None,
        n => Some(format!("{n} {what}")),
    })
    .collect();
    format!(
        "{} of {} explained: {}",
        report.explained.len(),
        count(report.runs, "run"),
        parts.join(", ")
    )
}

/// Headings, the error and locations, painted when colour is on.
fn painted(color: bool, style: Style, s: &str) -> String {
    match color {
        true => s.style(style).to_string(),
        false => s.to_string(),
    }
}

/// Ids and text from the log are written with their control characters escaped.
fn p(s: &str) -> String {
    printable(s).into_owned()
}

const HEAD: Style = Style::new().bold();
const RED: Style = Style::new().red().bold();
const DIM: Style = Style::new().dimmed();

fn write_one(x: &Explanation, w: &mut dyn Write, color: bool) -> io::Result<()> {
    let paint = |style: Style, s: &str| painted(color, style, s);
    let title = match x.ending {
        "run_error" => "run failed",
        "error_after_finished" => "RUN_ERROR after RUN_FINISHED",
        _ => "run stopped with no terminal event",
    };
    let thread = x
        .thread_id
        .as_deref()
        .map(|t| format!(" · thread {}", p(t)));
    writeln!(
        w,
        "{} {}{} (started {})",
        paint(RED, &format!("✖ {title}:")),
        p(x.run_id.as_deref().unwrap_or("?")),
        thread.unwrap_or_default(),
        p(&x.started_at.to_string())
    )?;
    let name = x.error.name.as_deref().map(|n| format!("{n}: "));
    let message = format!("{}{}", name.unwrap_or_default(), x.error.message);
    let code = paint(RED, &p(&x.error.code));
    let error = format!("{code} {}", p(&one_line(&message)));
    row(w, color, "error ", &error)?;
    let line = match (&x.error.carried_by, &x.error.input_ends_at) {
        (Some(c), _) => p(&c.to_string()),
        (None, Some(end)) => format!(
            "none: no input line carries it; the run's input ends at {}",
            p(&end.to_string())
        ),
        (None, None) => "none".into(),
    };
    row(w, color, "line  ", &line)?;
    writeln!(w)?;
    let lines = x.last_records.iter().map(|r| r.at.line.to_string().len());
    let lw = lines.max().unwrap_or(1);
    let records = x.last_records.iter().map(|r| {
        let loc = if r.at.file == x.file {
            format!(":{:>lw$}", r.at.line)
        } else {
            p(&r.at.to_string())
        };
        let summary = p(&cut(&one_line(&r.summary), 90));
        let disposition = format!("[{}]", p(&cut(&one_line(&r.disposition), 60)));
        format!(
            "{}  {summary}  {}",
            paint(DIM, &loc),
            paint(DIM, &disposition)
        )
    });
    let head = format!("last {} input records before it", x.last_records.len());
    let head = format!("{} (oldest first)", paint(HEAD, &head));
    section(w, &head, records, "(none)")?;
    let open = x.open.iter().map(|o| {
        let what = [&o.name, &o.id].into_iter().flatten();
        let what = what.cloned().collect::<Vec<_>>().join(" ");
        let how_long = match o.open_ms {
            Some(m) => format!("open {}", ms(m)),
            None => format!("open for {} events", o.open_events),
        };
        let (kind, since) = (o.kind.replace('_', " "), p(&line_in(&o.since, &x.file)));
        format!(
            "{kind} {}  {} · since {since} · {how_long}",
            p(&what),
            p(&o.state)
        )
    });
    let nothing = "nothing: every node, message and tool call had ended";
    section(w, &paint(HEAD, "open at that moment"), open, nothing)?;
    let signals = x.signals.iter().map(|s| {
        let (at, kind) = (p(&line_in(&s.at, &x.file)), s.kind.replace('_', " "));
        format!(
            "{}  {kind}  {}",
            paint(DIM, &at),
            p(&cut(&one_line(&s.message), 120))
        )
    });
    let none = "none before the error";
    section(w, &paint(HEAD, "upstream signals"), signals, none)?;
    let state = match &x.final_state {
        Some(f) => format!(
            "{} ({})",
            p(&line_in(&f.at, &x.file)),
            match f.messages {
                Some(n) => format!("holds {}", count(n, "message")),
                None => "no messages list".into(),
            }
        ),
        None => "none: the run emitted no full state".into(),
    };
    row(w, color, "last state", &state)?;
    row(w, color, "likely cause", &p(&x.cause))?;
    row(w, color, "fix", &p(&x.hint))
}

/// A section: its heading, its lines (or `none` when it has none), then a blank line.
fn section(
    w: &mut dyn Write,
    heading: &str,
    lines: impl ExactSizeIterator<Item = String>,
    none: &str,
) -> io::Result<()> {
    writeln!(w, "  {heading}")?;
    if lines.len() == 0 {
        writeln!(w, "    {none}")?;
    }
    for line in lines {
        writeln!(w, "    {line}")?;
    }
    writeln!(w)
}

/// A `label  value` row, its label a heading.
fn row(w: &mut dyn Write, color: bool, label: &str, value: &str) -> io::Result<()> {
    writeln!(w, "  {}  {value}", painted(color, HEAD, label))
}

/// Writes the report as one pretty JSON object.
pub fn write_json(report: &Report, w: &mut dyn Write) -> io::Result<()> {
    // An I/O error keeps its kind (a closed pipe stays a closed pipe).
    serde_json::to_writer_pretty(&mut *w, report).map_err(io::Error::from)?;
    writeln!(w)
}
