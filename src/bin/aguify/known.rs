//! Whether each input held anything aguify reads: a file of which no record is of a known form
//! (a CSV, a binary file, an empty file, a JSON array, the wrong `--from`) is told once, and
//! the command exits 2.

use std::io;
use std::sync::Arc;

use aguify::adapter::Disposition;
use aguify::agui::Event;
use aguify::input::{Origin, Record};
use aguify::known::Known;
use aguify::model::ModelEvent;
use aguify::pipeline::Observer;
use aguify::text::printable;

/// `--strict` stopped: the bad line it stopped at, on stderr (before the stop itself).
pub fn tell_last_bad(known: &Known) {
    if let Some((at, why)) = known.last_bad() {
        eprintln!("aguify: {}: {}", printable(at), printable(why));
    }
}

/// Tells (on stderr) each file of which nothing was read; whether there was one.
pub fn report(known: &Known) -> bool {
    for (name, why) in known.unread_files() {
        eprintln!("aguify: {}: {}", printable(name), printable(&why));
    }
    known.unread() > 0
}

/// Runs the pipeline into `inner` while keeping [`Known`]: under `--strict`, the bad line it
/// stopped at is told first; `Ok(false)` when an input held nothing of a known form (told on
/// stderr: the command exits 2).
pub fn run_watched<O: Observer>(
    inputs: Vec<aguify::pipeline::Input>,
    opts: &aguify::pipeline::Options,
    inner: &mut O,
) -> Result<bool, aguify::Error> {
    let names: Vec<Arc<str>> = inputs.iter().map(|i| i.name.clone()).collect();
    let mut watch = Watch {
        inner,
        known: Known::new(&names),
    };
    let result = aguify::pipeline::run(inputs, opts, &mut watch);
    if let Err(aguify::Error::Strict(_)) = &result {
        tell_last_bad(&watch.known);
    }
    result?;
    Ok(!report(&watch.known))
}

/// An observer that also keeps [`Known`] (for `explain`, whose observer is the library's).
pub struct Watch<'a, O: Observer> {
    pub inner: &'a mut O,
    pub known: Known,
}

impl<O: Observer> Observer for Watch<'_, O> {
    fn record(&mut self, rec: &Record, disposition: &Disposition) {
        self.known.record(rec, disposition);
        self.inner.record(rec, disposition)
    }
    fn bad_line(&mut self, origin: &Origin, message: &aguify::error::BadLine) {
        self.known.bad_line(origin, message);
        self.inner.bad_line(origin, message)
    }
    fn warning(&mut self, origin: &Origin, message: &str) {
        self.inner.warning(origin, message)
    }
    fn model(&mut self, ev: &ModelEvent, origin: &Origin) {
        self.inner.model(ev, origin)
    }
    fn event(&mut self, ev: &Event, origin: &Origin) -> io::Result<()> {
        self.inner.event(ev, origin)
    }
    fn input_idle(&mut self) -> io::Result<()> {
        self.inner.input_idle()
    }
    fn end_of_file(&mut self, file: &str) -> io::Result<()> {
        self.inner.end_of_file(file)
    }
}
