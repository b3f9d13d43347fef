//! A LangGraph event log on stdin, AG-UI SSE on stdout, through the aguify-core library alone:
//! what a server embedding the conversion does with a stream it receives.
//!
//! `cargo run --example stream_sse < testdata/recordings/v3-python/a_plain_chat.ndjson`
//!
//! Events leave as soon as the line that completes them is read; lines that cannot be read
//! are told on stderr as `file:line: message`, and the stream goes on.

use std::io::{self, BufWriter, Read, Write};

use aguify_core::{Converter, Event, Format, FrameSink, Options, Problem, Sink};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut converter = Converter::new(Options::default());
    let mut sse = FrameSink::new(Format::Sse, BufWriter::new(io::stdout().lock()));
    let mut stdin = io::stdin().lock();
    let mut chunk = vec![0; 64 * 1024];
    loop {
        let n = match stdin.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        let events = converter.feed(&chunk[..n])?;
        write(&mut sse, &events, converter.take_problems())?;
    }
    let (events, stats) = converter.finish()?;
    write(&mut sse, &events, converter.take_problems())?;
    eprintln!(
        "{} lines: {} mapped, {} ignored, {} bad; {} events",
        stats.lines,
        stats.mapped,
        stats.ignored_total(),
        stats.bad,
        stats.events
    );
    Ok(())
}

/// Writes `events` as SSE frames and flushes them, so a client sees them now; tells
/// `problems` on stderr.
fn write<W: Write>(
    sse: &mut FrameSink<W>,
    events: &[Event],
    problems: Vec<Problem>,
) -> io::Result<()> {
    for p in problems {
        eprintln!("{}: {}", p.origin, p.message);
    }
    for event in events {
        sse.write_event(event)?;
    }
    sse.flush()
}
