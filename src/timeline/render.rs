//! Timeline renderers: entries → text lines, plain or coloured (owo-colors).
//!
//! Both renderers build the same [`Segment`]s and differ only in how a segment is painted, so the
//! coloured output with its escape codes stripped is the plain output, byte for byte.

use std::io::{self, Write};
use std::sync::Arc;

use owo_colors::{OwoColorize, Style};
use unicode_width::UnicodeWidthStr;

use super::{Entry, Kind, Line, Outcome, RunSummary, ToolCall};
use crate::check::Finding;
use crate::input::Origin;
use crate::text::{count, cut, Severity};

/// How a segment is painted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paint {
    Plain,
    Dim,
    Kind(Kind),
    Strong(Kind),
    Severity(Severity),
}

/// A piece of a line.
#[derive(Debug, Clone)]
pub struct Segment {
    pub paint: Paint,
    pub text: String,
    /// How the piece gives way when the line is too wide (see [`fit`]).
    pub fit: Fit,
}

/// How a piece gives way when its line is too wide; [`fit`] takes the classes in this order,
/// each from the line's end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// ` · 23 chars`, ` · 0ms`: what is least missed, dropped whole with its separator, but
    /// only while the line would be too wide with its ids cut.
    Detail,
    /// A detail kept longer: dropped after every [`Fit::Detail`] of the line (a run's
    /// duration).
    LastDetail,
    /// An id (a run's, a tool call's, an interrupt's): cut to [`MIN_ID`] columns, with the
    /// fixed pieces after that.
    Id,
    /// A preview (or a RUN_ERROR's message): cut to a fair share of the room, then to `…`.
    Preview,
    Fixed,
    /// A path: cut from the left, so its file name and line stay.
    Path,
    /// `tool error`, the RUN_ERROR code, an interrupt's reason: what gives way last.
    Status,
}

/// A piece of text, every character a terminal or a CI log would act on escaped (ids, names,
/// codes and reasons come from the log as they are).
fn piece(fit: Fit, paint: Paint, text: impl AsRef<str>) -> Segment {
    let text = crate::text::printable(text.as_ref()).into_owned();
    Segment { paint, text, fit }
}

fn seg(paint: Paint, text: impl AsRef<str>) -> Segment {
    piece(Fit::Fixed, paint, text)
}

/// A preview, cut with `…` to fit the width.
fn preview(paint: Paint, text: impl AsRef<str>) -> Segment {
    piece(Fit::Preview, paint, text)
}

/// ` · text`, dropped whole (with its ` · `) when the line is too wide.
fn detail(v: &mut Vec<Segment>, paint: Paint, text: impl AsRef<str>) {
    dotted(v, piece(Fit::Detail, paint, text));
}

/// Rendering options.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    /// Cut lines to this many columns (previews shrink first). `None`: never cut.
    pub width: Option<usize>,
    /// Show previews whole and ids in full.
    pub full: bool,
    pub color: bool,
}

/// Renders entries, remembering which file the last run header named.
pub struct Renderer {
    opts: RenderOptions,
    last_file: Option<Arc<str>>,
}

/// Shortest width a cut preview keeps.
const MIN_PREVIEW: usize = 12;

/// Shortest width a cut id keeps (its `…` included).
const MIN_ID: usize = 9;

impl Renderer {
    pub fn new(opts: RenderOptions) -> Self {
        Renderer {
            opts,
            last_file: None,
        }
    }

    /// Writes entries (and their notes).
    pub fn write_all(&mut self, entries: &[Entry], w: &mut dyn Write) -> io::Result<()> {
        entries.iter().try_for_each(|e| self.write_entry(e, w))
    }

    /// Writes one entry (and its notes).
    fn write_entry(&mut self, e: &Entry, w: &mut dyn Write) -> io::Result<()> {
        if matches!(e.line, Line::RunStart(_)) && self.last_file.as_ref() != Some(&e.run_file) {
            self.last_file = Some(e.run_file.clone());
            let name = format!("{} ", one_line(&e.run_file));
            let width = self.opts.width.unwrap_or(80).min(80);
            let pad = "─".repeat(width.saturating_sub(3 + name.width()));
            let title = [
                seg(Paint::Dim, "── "),
                piece(Fit::Path, Paint::Dim, name),
                seg(Paint::Dim, pad),
            ];
            self.write_segments(&title, w)?;
        }
        if !matches!(e.line, Line::Notes) {
            self.write_segments(&self.segments(e), w)?;
        }
        // A footer: the outcome on the entry's line, the counts on the next.
        if let Line::RunEnd(run) = &e.line {
            let mut next = vec![seg(Paint::Plain, " ".repeat(19)), seg(Paint::Dim, "  ")];
            counts(&mut next, run);
            self.write_segments(&next, w)?;
        }
        for n in &e.notes {
            self.write_segments(&note_segments(e, n), w)?;
        }
        Ok(())
    }

    fn write_segments(&self, segs: &[Segment], w: &mut dyn Write) -> io::Result<()> {
        let mut fitted = fit(segs, self.opts.width.filter(|_| !self.opts.full));
        // No trailing blanks, trimmed before painting so both renderers agree.
        while let Some(last) = fitted.last_mut() {
            let t = last.text.trim_end().len();
            last.text.truncate(t);
            if !last.text.is_empty() {
                break;
            }
            fitted.pop();
        }
        let mut out = String::new();
        for s in &fitted {
            let p = if self.opts.color {
                s.paint
            } else {
                Paint::Plain
            };
            out.push_str(&paint(p, &s.text));
        }
        writeln!(w, "{out}")
    }

    /// An id cut to 24 columns, unless `--full`.
    fn id(&self, id: &str) -> String {
        cut(id, if self.opts.full { usize::MAX } else { 24 })
    }

    /// The segments of one entry's line.
    fn segments(&self, e: &Entry) -> Vec<Segment> {
        let at = format!("{:>7}  ", line_in(&e.origin, &e.run_file));
        let mut v = vec![
            seg(Paint::Dim, format!("{:>9} ", time_col(e))),
            piece(Fit::Path, Paint::Dim, at),
            seg(Paint::Plain, "  ".repeat(e.depth)),
        ];
        let k = e.kind;
        match &e.line {
            Line::RunStart(run) => {
                v.push(seg(Paint::Strong(Kind::Run), "▶ run "));
                let run_id = self.id(run.run_id.as_deref().unwrap_or("?"));
                v.push(piece(Fit::Id, Paint::Kind(k), run_id));
                if let Some(t) = &run.thread_id {
                    detail(&mut v, Paint::Plain, format!("thread {}", self.id(t)));
                }
                if !run.resumes.is_empty() {
                    let resumes = format!("resumes {}", count(run.resumes.len(), "interrupt"));
                    status(&mut v, Paint::Kind(Kind::Interrupt), resumes);
                }
            }
            Line::RunEnd(run) => footer(&mut v, run),
            Line::StepStart { name, .. } => v.push(seg(Paint::Strong(k), format!("▸ {name}"))),
            Line::StepEnd {
                name,
                duration_ms,
                events,
            } => {
                v.push(seg(Paint::Kind(k), format!("◂ {name}")));
                if let Some(d) = duration_ms {
                    detail(&mut v, Paint::Dim, ms(*d));
                }
                detail(&mut v, Paint::Dim, format!("{events} events"));
            }
            // A message or a reasoning block: its text, then how long, how it ended.
            Line::Text {
                role,
                text,
                encrypted,
                cut,
                ..
            } => {
                let head = match k {
                    Kind::Text => format!("text {role} "),
                    _ => "reasoning ".into(),
                };
                v.push(seg(Paint::Strong(k), head));
                if text.is_empty() {
                    v.push(seg(Paint::Dim, "(no text)"));
                } else {
                    v.push(preview(Paint::Kind(k), quote(text)));
                    detail(&mut v, Paint::Dim, count(text.chars().count(), "char"));
                }
                if *encrypted > 0 {
                    detail(&mut v, Paint::Dim, count(*encrypted, "encrypted value"));
                }
                push_duration(&mut v, e);
                if *cut {
                    dotted(&mut v, seg(Paint::Strong(Kind::Error), "cut off (no END)"));
                }
            }
            Line::Tool(t) => self.tool(&mut v, e, t),
            Line::State { what, detail, .. } => headed(&mut v, k, what, detail.clone()),
            Line::Custom { name, value } => {
                headed(&mut v, k, format!("custom {name}"), one_line(value))
            }
            Line::Interrupt {
                id,
                reason,
                message,
                ..
            } => {
                v.push(seg(Paint::Strong(k), "⏸ interrupt "));
                v.push(piece(Fit::Id, Paint::Strong(k), self.id(id)));
                v.push(seg(Paint::Strong(k), " "));
                v.push(piece(Fit::Status, Paint::Kind(k), reason.clone()));
                if let Some(m) = message {
                    v.push(seg(Paint::Plain, " "));
                    v.push(preview(Paint::Plain, quote(m)));
                }
            }
            Line::Error { code, message } => {
                v.push(seg(Paint::Strong(k), "✖ RUN_ERROR "));
                if let Some(c) = code {
                    v.push(piece(Fit::Status, Paint::Strong(k), format!("{c} ")));
                }
                v.push(piece(Fit::Preview, Paint::Kind(k), one_line(message)));
            }
            Line::BadLine { message } => headed(&mut v, k, "⚠ bad line:", one_line(message)),
            Line::Notes => {}
            Line::Other { what, detail } => headed(&mut v, k, what, one_line(detail)),
        }
        v
    }

    /// A tool call's line: its name, id, arguments, streamed output and result.
    fn tool(&self, v: &mut Vec<Segment>, e: &Entry, t: &ToolCall) {
        let k = e.kind;
        v.push(seg(Paint::Strong(k), format!("tool {} ", t.name)));
        v.push(piece(Fit::Id, Paint::Dim, self.id(&t.id)));
        v.push(seg(Paint::Dim, " "));
        if !t.args.is_empty() {
            v.push(preview(Paint::Kind(k), one_line(&t.args)));
        }
        if t.streamed_output > 0 {
            let streamed = format!("streamed {}", count(t.streamed_output, "char"));
            detail(v, Paint::Dim, streamed);
        }
        match &t.result {
            Some(r) => {
                let arrow = if t.args.is_empty() { "→ " } else { " → " };
                v.push(seg(Paint::Dim, arrow));
                let p = match t.error {
                    true => Paint::Kind(Kind::Error),
                    false => Paint::Plain,
                };
                v.push(preview(p, quote(r)));
                if t.error {
                    status(v, Paint::Strong(Kind::Error), "tool error");
                }
            }
            None => status(v, Paint::Strong(Kind::Error), "no result"),
        }
        push_duration(v, e);
    }
}

/// A finding's line under its entry: its rule, message and ids, and the input line it names
/// when that is not the entry's own.
fn note_segments(e: &Entry, n: &Finding) -> Vec<Segment> {
    let ids = (!n.ids.is_empty()).then(|| format!(" [{}]", n.ids.join(", ")));
    let message = format!("{}{}", n.message, ids.unwrap_or_default());
    let mut v = vec![
        seg(Paint::Plain, " ".repeat(19)),
        seg(Paint::Plain, "  ".repeat(e.depth + 1)),
        seg(
            Paint::Strong(match n.severity {
                Severity::Error => Kind::Error,
                Severity::Warning => Kind::Interrupt,
            }),
            format!("! {} {}: ", n.rule, n.severity.as_str()),
        ),
        preview(Paint::Severity(n.severity), one_line(&message)),
    ];
    match n.line {
        0 => {}
        line if n.file == e.run_file => v.push(seg(Paint::Dim, format!(" (:{line})"))),
        line => v.push(piece(
            Fit::Path,
            Paint::Dim,
            format!(" ({}:{line})", n.file),
        )),
    }
    v
}

fn footer(v: &mut Vec<Segment>, run: &RunSummary) {
    v.push(seg(Paint::Strong(Kind::Run), "■ "));
    match &run.outcome {
        Outcome::Success { pending_tool_calls } => {
            v.push(seg(Paint::Strong(Kind::Text), "success"));
            if !pending_tool_calls.is_empty() {
                let pending = format!(" (pending tool calls: {})", pending_tool_calls.join(", "));
                v.push(seg(Paint::Plain, pending));
            }
        }
        Outcome::Interrupt { interrupts: list } => {
            v.push(seg(Paint::Strong(Kind::Interrupt), "interrupt"));
            // The ids give way before the reasons.
            for (i, (id, reason)) in list.iter().enumerate() {
                let paint = Paint::Kind(Kind::Interrupt);
                v.push(seg(paint, if i == 0 { " " } else { ", " }));
                v.push(piece(Fit::Id, paint, id.clone()));
                v.push(piece(Fit::Status, paint, format!(" ({reason})")));
            }
        }
        Outcome::Cancelled => v.push(seg(Paint::Strong(Kind::Run), "cancelled")),
        Outcome::Error { code, .. } => {
            v.push(seg(Paint::Strong(Kind::Error), "error"));
            if let Some(c) = code {
                v.push(seg(Paint::Kind(Kind::Error), format!(" {c}")));
            }
        }
        Outcome::NoTerminal => v.push(seg(Paint::Strong(Kind::Error), "no terminal event")),
    }
}

/// A footer's counts: all but messages, tool calls and tokens are details, dropped from the end.
fn counts(v: &mut Vec<Segment>, run: &RunSummary) {
    v.push(seg(Paint::Plain, count(run.messages as usize, "message")));
    let calls = count(run.tool_calls as usize, "tool call");
    dotted(v, seg(Paint::Plain, calls));
    detail(v, Paint::Plain, format!("{} reasoning", run.reasoning));
    if let Some(t) = run.tokens {
        dotted(v, seg(Paint::Plain, format!("{} tokens", t.total)));
        let split = format!(" ({} in, {} out)", t.input, t.output);
        v.push(piece(Fit::Detail, Paint::Plain, split));
    }
    detail(v, Paint::Plain, format!("{} events", run.events));
    if let Some(d) = run.duration_ms() {
        dotted(v, piece(Fit::LastDetail, Paint::Plain, ms(d)));
    }
}

/// An entry's head and a space, bold, then its preview, both in its kind's colour.
fn headed(v: &mut Vec<Segment>, k: Kind, head: impl AsRef<str>, text: String) {
    v.push(seg(Paint::Strong(k), format!("{} ", head.as_ref())));
    v.push(preview(Paint::Kind(k), text));
}

/// ` · ` and `s`.
fn dotted(v: &mut Vec<Segment>, s: Segment) {
    v.push(seg(Paint::Dim, " · "));
    v.push(s);
}

/// ` · status` (`tool error`, `no result`): what gives way last.
fn status(v: &mut Vec<Segment>, paint: Paint, text: impl AsRef<str>) {
    dotted(v, piece(Fit::Status, paint, text));
}

fn push_duration(v: &mut Vec<Segment>, e: &Entry) {
    if let Some(d) = e.duration_ms() {
        detail(v, Paint::Dim, ms(d));
    }
}

/// A duration: `850ms`, `1.250s`.
pub fn ms(d: i64) -> String {
    if d.abs() < 1000 {
        format!("{d}ms")
    } else {
        format!("{}.{:03}s", d / 1000, (d % 1000).abs())
    }
}

/// The time column: relative to the run's first timestamp, or the event's sequence number.
fn time_col(e: &Entry) -> String {
    match e.ts.zip(e.run_base_ts) {
        Some((ts, base)) => {
            let (sign, r) = (if ts < base { "-" } else { "+" }, (ts - base).abs());
            format!("{sign}{}.{:03}s", r / 1000, r % 1000)
        }
        None => format!("#{}", e.index + 1),
    }
}

/// An input line as `:line` when it is in `file`, else as `file:line`.
pub fn line_in(at: &Origin, file: &str) -> String {
    if *at.file == *file {
        format!(":{}", at.line)
    } else {
        at.to_string()
    }
}

/// Text on one line: newlines shown as `↵`, other control characters dropped.
pub fn one_line(s: &str) -> String {
    s.chars()
        .filter_map(|c| match c {
            '\n' => Some('↵'),
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

fn quote(s: &str) -> String {
    format!("\"{}\"", one_line(s))
}

/// Fits a line to `width`: the pieces give way class by class in [`Fit`]'s order, each from
/// the line's end, as far as the line needs: details whole, ids to [`MIN_ID`] columns,
/// previews to a fair share (at least [`MIN_PREVIEW`]) and then to `…`, the fixed pieces and
/// statuses to nothing, paths to `…`. What is still too wide is cut at its end.
fn fit(segs: &[Segment], width: Option<usize>) -> Vec<Segment> {
    let mut out = segs.to_vec();
    let Some(width) = width else { return out };
    let excess = |v: &[Segment]| {
        let total: usize = v.iter().map(|s| s.text.width()).sum();
        total.saturating_sub(width)
    };
    // What the ids give when cut to MIN_ID: the details go only while that is not enough.
    let ids = out.iter().filter(|s| s.fit == Fit::Id);
    let id_room: usize = ids.map(|s| s.text.width().saturating_sub(MIN_ID)).sum();
    use Fit::*;
    for class in [Detail, LastDetail, Id, Preview, Fixed, Path, Status] {
        if class == Preview && excess(&out) > 0 {
            share_previews(&mut out, width);
        }
        let room = if matches!(class, Detail | LastDetail) {
            id_room
        } else {
            0
        };
        let mut i = out.len();
        while i > 0 && excess(&out) > room {
            i -= 1;
            // Past its few characters an id gives way as the fixed pieces do.
            if out[i].fit != class && (out[i].fit, class) != (Id, Fixed) {
                continue;
            }
            if matches!(class, Detail | LastDetail) {
                out.remove(i);
                if i > 0 && out[i - 1].text == " · " {
                    i -= 1;
                    out.remove(i);
                }
                continue;
            }
            let w = out[i].text.width();
            let least = match class {
                Id => MIN_ID.min(w),
                Preview | Path => usize::from(w > 0),
                _ => 0,
            };
            let keep = w.saturating_sub(excess(&out)).max(least);
            out[i].text = match class {
                Path => cut_left(&out[i].text, keep),
                _ => cut(&out[i].text, keep),
            };
        }
    }
    // Narrower than the pieces' `…`s: cut the line's end. `over` spends each piece's width
    // from `left` while it fits; the first piece that does not is cut to what is left, and the
    // pieces after it go.
    let mut left = width;
    let over = |s: &Segment| left.checked_sub(s.text.width()).map(|l| left = l).is_none();
    if let Some(i) = out.iter().position(over) {
        out[i].text = cut(&out[i].text, left);
        out.truncate(i + 1);
    }
    out
}

/// Previews cut to a fair share of the room the other pieces leave: the shortest keep their
/// length, the rest split what is left (at least [`MIN_PREVIEW`] each).
fn share_previews(out: &mut [Segment], width: usize) {
    let others = out.iter().filter(|s| s.fit != Fit::Preview);
    let fixed: usize = others.map(|s| s.text.width()).sum();
    let mut widths: Vec<(usize, usize)> = out
        .iter()
        .enumerate()
        .filter(|(_, s)| s.fit == Fit::Preview)
        .map(|(i, s)| (i, s.text.width()))
        .collect();
    let mut avail = width.saturating_sub(fixed);
    widths.sort_by_key(|(_, w)| *w);
    let mut left = widths.len();
    for (i, w) in widths {
        let share = (avail / left.max(1)).max(MIN_PREVIEW);
        let b = w.min(share);
        out[i].text = cut(&out[i].text, b);
        avail = avail.saturating_sub(b);
        left -= 1;
    }
}

/// Cuts `s` to `max` columns from the left, starting with `…` when cut (a path keeps its
/// file name and line): [`cut`] of the text reversed.
pub fn cut_left(s: &str, max: usize) -> String {
    let reversed: String = s.chars().rev().collect();
    cut(&reversed, max).chars().rev().collect()
}

fn kind_style(k: Kind) -> Style {
    let s = Style::new();
    match k {
        Kind::Run => s.blue(),
        Kind::Step => s.cyan(),
        Kind::Text => s.green(),
        Kind::Reasoning => s.magenta(),
        Kind::Tool => s.yellow(),
        Kind::State => s.bright_blue(),
        Kind::Custom => s.bright_cyan(),
        Kind::Interrupt => s.bright_yellow(),
        Kind::Error => s.red(),
        Kind::Other => s,
    }
}

fn paint(p: Paint, text: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    let style = match p {
        Paint::Plain => return text.to_string(),
        Paint::Dim => Style::new().dimmed(),
        Paint::Kind(k) => kind_style(k),
        Paint::Strong(k) => kind_style(k).bold(),
        Paint::Severity(Severity::Error) => Style::new().red(),
        Paint::Severity(Severity::Warning) => Style::new().yellow(),
    };
    text.style(style).to_string()
}
