//! [`Converter`]: the conversion fed by the caller, a chunk of bytes or a line at a time, for a
//! server that receives a LangGraph stream and sends AG-UI on.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read};
use std::sync::Arc;

use crate::agui::Event;
use crate::error::Error;
use crate::pipeline::{Collect, Conversion, FileRead, Options, Problem, Stats};

/// Converts one LangGraph event log, fed in pieces, into AG-UI 1.0 [`Event`]s.
///
/// Feed it bytes as they arrive ([`feed`](Self::feed): any split, even inside a line or a
/// UTF-8 character) or whole lines ([`feed_line`](Self::feed_line)); each call returns the
/// events the input so far completes. [`finish`](Self::finish) ends the input: what the log
/// left open is closed (a run without its end is finished as truncated), and the counts of
/// what became of every line are returned.
///
/// The input's form (v2 `astream_events`, v3 protocol events, platform SSE or SDK stream
/// parts, AG-UI events) and framing (NDJSON or SSE) are told from its first line unless
/// [`Options`] forces them. A line that cannot be read is a [`Problem`], never an error: the
/// rest of the stream still converts.
///
/// ```
/// use aguify_core::{Converter, Event, Options};
///
/// let mut converter = Converter::new(Options::default());
/// let mut events = Vec::new();
/// events.extend(converter.feed_line(
///     r#"{"event":"on_chain_start","name":"agent","run_id":"r1","data":{"input":{"messages":[]}},"metadata":{"thread_id":"t1"},"parent_ids":[]}"#,
/// )?);
/// events.extend(converter.feed_line(
///     r#"{"event":"on_chain_end","name":"agent","run_id":"r1","data":{"output":{"messages":[]}},"metadata":{"thread_id":"t1"},"parent_ids":[]}"#,
/// )?);
/// let (last, stats) = converter.finish()?;
/// events.extend(last);
/// let types: Vec<&str> = events.iter().map(Event::type_name).collect();
/// assert_eq!(types.first(), Some(&"RUN_STARTED"));
/// assert_eq!(types.last(), Some(&"RUN_FINISHED"));
/// assert_eq!((stats.lines, stats.bad), (2, 0));
/// # Ok::<(), aguify_core::Error>(())
/// ```
pub struct Converter {
    /// The input and the conversion; `None` once finished or stopped at an error.
    running: Option<(FileRead<Feed>, Conversion)>,
    collect: Collect,
}

impl Converter {
    /// A converter of one input, named `-` in [`Problem`]s.
    pub fn new(options: Options) -> Self {
        Converter::named("-", options)
    }

    /// A converter of one input named `name` (shown in [`Problem`]s: `name:line`).
    pub fn named(name: &str, options: Options) -> Self {
        let file = FileRead::new(Arc::from(name), false, Feed::default(), &options);
        Converter {
            running: Some((file, Conversion::new(&options))),
            collect: Collect::default(),
        }
    }

    /// Feeds the next bytes of the input; returns the events they complete. A line split
    /// across calls is converted once its end arrives.
    ///
    /// # Errors
    ///
    /// Only [`Error::Strict`], when [`Options::strict`] is set and a line is bad; a
    /// converter that returned an error converts nothing more.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<Event>, Error> {
        self.pump(|feed| feed.bytes.extend(bytes))
    }

    /// Feeds one line (without its line end); returns the events it completes.
    ///
    /// # Errors
    ///
    /// As [`feed`](Self::feed).
    pub fn feed_line(&mut self, line: &str) -> Result<Vec<Event>, Error> {
        self.pump(|feed| feed.bytes.extend(line.as_bytes().iter().chain(b"\n")))
    }

    /// The problems found since last asked, in input order.
    pub fn take_problems(&mut self) -> Vec<Problem> {
        std::mem::take(&mut self.collect.problems)
    }

    /// Ends the input: its last line (even without a line end) is converted, what the log
    /// left open is closed, and the last events are returned with the [`Stats`] of the whole
    /// input. Its problems are still there to [take](Self::take_problems); feeding more is
    /// an error.
    ///
    /// # Errors
    ///
    /// As [`feed`](Self::feed).
    pub fn finish(&mut self) -> Result<(Vec<Event>, Stats), Error> {
        let mut events = self.pump(|feed| feed.closed = true)?;
        let (file, mut conversion) = self.running.take().ok_or(Error::Stopped)?;
        conversion.end_file(file, &mut self.collect)?;
        let stats = conversion.finish(&mut self.collect)?;
        events.append(&mut self.collect.events);
        Ok((events, stats))
    }

    /// Adds to the input (`add`), then converts every frame the bytes fed so far make, and
    /// returns the events made since last taken; an error stops the converter.
    fn pump(&mut self, add: impl FnOnce(&mut Feed)) -> Result<Vec<Event>, Error> {
        let (file, conversion) = self.running.as_mut().ok_or(Error::Stopped)?;
        add(&mut file.framer.lines.reader);
        if let Err(e) = conversion.pump(file, &mut self.collect) {
            self.running = None;
            return Err(e);
        }
        Ok(std::mem::take(&mut self.collect.events))
    }
}

/// The bytes fed so far and not yet framed: `WouldBlock` when they run out before the input
/// is closed, so the framer waits for more with a half-read line kept.
#[derive(Default)]
struct Feed {
    bytes: VecDeque<u8>,
    closed: bool,
}

impl Read for Feed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.fill_buf()?;
        self.bytes.read(buf)
    }
}

impl BufRead for Feed {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.bytes.is_empty() && !self.closed {
            return Err(io::ErrorKind::WouldBlock.into());
        }
        self.bytes.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.bytes.consume(amt);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::{convert_to_vec, Input, Severity};

    const LOG: &str = concat!(
        r#"{"event":"on_chain_start","name":"agent","run_id":"r1","data":{"input":{"messages":[{"type":"human","content":"hi"}]}},"metadata":{"thread_id":"t1"},"parent_ids":[]}"#,
        "\n",
        "not json\n",
        r#"{"event":"on_chat_model_stream","name":"m","run_id":"c1","data":{"chunk":{"content":"héllo","id":"m1"}},"metadata":{"thread_id":"t1"},"parent_ids":["r1"]}"#,
        "\n",
        r#"{"event":"on_chain_end","name":"agent","run_id":"r1","data":{"output":{"messages":[]}},"metadata":{"thread_id":"t1"},"parent_ids":[]}"#,
    );

    fn all_at_once() -> (Vec<serde_json::Value>, Stats) {
        let input = Input::from_bytes("-", LOG.as_bytes().to_vec());
        convert_to_vec(vec![input], &Options::default()).expect("in memory")
    }

    fn values(events: &[Event]) -> Vec<serde_json::Value> {
        events.iter().map(|e| e.to_value().into_owned()).collect()
    }

    /// Fed in chunks of any size (split inside lines and inside a UTF-8 character), the
    /// converter makes what the pipeline makes of the whole input.
    #[test]
    fn any_split_converts_as_the_whole() {
        let (want, want_stats) = all_at_once();
        assert!(want.len() > 3, "the log converts: {want:?}");
        for size in [1, 2, 7, 64, LOG.len()] {
            let mut c = Converter::new(Options::default());
            let mut got = vec![];
            for chunk in LOG.as_bytes().chunks(size) {
                got.extend(c.feed(chunk).expect("not strict"));
            }
            let (last, stats) = c.finish().expect("not strict");
            let problems = c.take_problems();
            got.extend(last);
            assert_eq!(values(&got), want, "chunks of {size}");
            assert_eq!(stats, want_stats, "chunks of {size}");
            assert_eq!(problems.len(), 1, "chunks of {size}: {problems:?}");
            assert_eq!(problems[0].origin.line, 2);
            assert_eq!(problems[0].severity, Severity::Bad);
        }
    }

    /// Events leave as soon as their line is complete, not at the end.
    #[test]
    fn events_leave_with_their_line() {
        let mut c = Converter::new(Options::default());
        let first = LOG.lines().next().expect("a line");
        let got = c.feed_line(first).expect("not strict");
        assert_eq!(got.first().map(Event::type_name), Some("RUN_STARTED"));
        assert!(c.feed(b"{\"event\":").expect("not strict").is_empty());
    }

    /// `strict`: the first bad line is an error, and the converter stops.
    #[test]
    fn strict_stops_at_the_first_bad_line() {
        let opts = Options {
            strict: true,
            ..Options::default()
        };
        let mut c = Converter::named("log.ndjson", opts);
        let err = c.feed(LOG.as_bytes()).expect_err("line 2 is bad");
        assert_eq!(
            err.to_string(),
            "log.ndjson:2: stopping at the first bad line (--strict)"
        );
        assert!(matches!(c.feed(b"\n"), Err(Error::Stopped)));
    }

    /// A last line without its end is read at the end; its problem is there to take after,
    /// and a finished converter takes nothing more.
    #[test]
    fn the_last_lines_problem_is_told_after_finish() {
        let mut c = Converter::new(Options::default());
        assert!(c
            .feed(b"{\"event\":\"on_chain_st")
            .expect("not strict")
            .is_empty());
        assert!(c.take_problems().is_empty());
        let (_, stats) = c.finish().expect("not strict");
        assert_eq!((stats.lines, stats.bad), (1, 1));
        let problems = c.take_problems();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].message.starts_with("truncated JSON"),
            "{problems:?}"
        );
        assert!(matches!(c.finish(), Err(Error::Stopped)));
        assert!(matches!(c.feed_line("{}"), Err(Error::Stopped)));
    }
}
