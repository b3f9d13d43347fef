//! Whether each input held anything aguify reads: a file of which no record is of a known form
//! (a CSV, a binary file, an empty file, a JSON array, the wrong `--from`) is told once, and
//! the command exits 2.

use std::io;
use std::sync::Arc;

use aguify::adapter::{classify, Disposition};
use aguify::agui::Event;
use aguify::check::nothing_read_message;
use aguify::check::report::text::printable;
use aguify::input::{Origin, Record};
use aguify::model::ModelEvent;
use aguify::pipeline::Observer;

/// Per input file: whether a record of a known form was read, and whether a bad line was a
/// JSON array (for the `jq` hint).
pub struct Known {
    files: Vec<(Arc<str>, bool, bool)>,
    /// Each name's (last) place in `files`: found at once, not by a scan of every file per
    /// record (10,000 files cost their count squared).
    at: std::collections::HashMap<Arc<str>, usize>,
    /// The last bad line and what was wrong with it (told when `--strict` stops there).
    last_bad: Option<(String, String)>,
}

impl Known {
    pub fn new<'a>(names: impl IntoIterator<Item = &'a Arc<str>>) -> Known {
        let files: Vec<(Arc<str>, bool, bool)> = names
            .into_iter()
            .map(|n| (n.clone(), false, false))
            .collect();
        let at = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.0.clone(), i))
            .collect();
        Known {
            files,
            at,
            last_bad: None,
        }
    }

    /// Where `name` is in `files` (the last such entry).
    fn find(&self, name: &str) -> Option<usize> {
        self.at.get(name).copied()
    }

    fn file(&mut self, name: &Arc<str>) -> &mut (Arc<str>, bool, bool) {
        let at = match self.find(name) {
            Some(at) => at,
            None => {
                self.files.push((name.clone(), false, false));
                self.at.insert(name.clone(), self.files.len() - 1);
                self.files.len() - 1
            }
        };
        &mut self.files[at]
    }

    pub fn record(&mut self, rec: &Record, disposition: &Disposition) {
        // A record an adapter mapped is of a known form whatever its kind (a platform
        // `messages` frame of `[chunk, metadata]` has no family of its own).
        let known = match disposition {
            Disposition::Mapped => true,
            Disposition::Ignored(_) => classify(rec).family().is_some(),
            Disposition::Bad(_) => false,
        };
        if known {
            self.file(&rec.origin.file).1 = true;
        }
    }

    pub fn bad_line(&mut self, origin: &Origin, message: &str) {
        self.last_bad = Some((origin.to_string(), message.to_string()));
        if message.contains("found an array") {
            self.file(&origin.file).2 = true;
        }
    }

    /// `--strict` stopped: the bad line it stopped at, on stderr (before the stop itself).
    pub fn tell_last_bad(&self) {
        if let Some((at, why)) = &self.last_bad {
            eprintln!("aguify: {}: {}", printable(at), printable(why));
        }
    }

    /// Whether `file` held a record of a known form (`None`: not an input, e.g. `(input)`).
    pub fn state(&self, file: &str) -> Option<bool> {
        self.find(file).map(|i| self.files[i].1)
    }

    /// How many inputs held nothing of a known form.
    pub fn unread(&self) -> usize {
        self.files.iter().filter(|f| !f.1).count()
    }

    /// Tells (on stderr) each file of which nothing was read; whether there was one.
    pub fn report(&self) -> bool {
        for (name, _, array) in self.files.iter().filter(|f| !f.1) {
            let why = nothing_read_message(name, *array);
            eprintln!("aguify: {}: {why}", printable(name));
        }
        self.unread() > 0
    }
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
    fn bad_line(&mut self, origin: &Origin, message: &str) {
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
