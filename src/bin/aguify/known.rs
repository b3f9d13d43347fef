//! Whether each input held anything aguify reads: a file of which no record is of a known form
//! (a CSV, a binary file, an empty file, a JSON array, the wrong `--from`) is told once, and
//! the command exits 2.

use std::io;
use std::sync::Arc;

use aguify::adapter::Disposition;
use aguify::agui::Event;
use aguify::input::{Origin, Record};
use aguify::model::ModelEvent;
use aguify::pipeline::Observer;
use aguify::text::printable;

/// What each input held (the library's [`aguify::known::Known`], which it derefs to), and its
/// messages on stderr.
pub struct Known(pub aguify::known::Known);

impl std::ops::Deref for Known {
    type Target = aguify::known::Known;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Known {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl Known {
    pub fn new<'a>(names: impl IntoIterator<Item = &'a Arc<str>>) -> Known {
        Known(aguify::known::Known::new(names))
    }

    /// `--strict` stopped: the bad line it stopped at, on stderr (before the stop itself).
    pub fn tell_last_bad(&self) {
        if let Some((at, why)) = self.0.last_bad() {
            eprintln!("aguify: {}: {}", printable(at), printable(why));
        }
    }

    /// Tells (on stderr) each file of which nothing was read; whether there was one.
    pub fn report(&self) -> bool {
        for (name, why) in self.0.unread_files() {
            eprintln!("aguify: {}: {}", printable(name), printable(&why));
        }
        self.unread() > 0
    }
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
        watch.known.tell_last_bad();
    }
    result?;
    Ok(!watch.known.report())
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
