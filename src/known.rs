//! Whether each input held anything aguify reads: a file of which no record is of a known form
//! (a CSV, a binary file, an empty file, a JSON array, the wrong `--from`) is named with why,
//! and the command exits 2 (`check` says it as an AGX505 finding).

use std::io;
use std::sync::Arc;

use indexmap::IndexMap;

use crate::adapter::{classify, Disposition, Family};
use crate::agui::Event;
use crate::error::{BadLine, Reason};
use crate::input::{Origin, Record};
use crate::model::ModelEvent;
use crate::pipeline::Observer;

/// One input file: whether a record of a known form was read, whether a bad line was a JSON
/// array (for the `jq` hint), and the first record of another form than `--from` asks for
/// (`check`'s [`Checker`](crate::check::Checker) keeps one for its stream).
#[derive(Default)]
pub(crate) struct File {
    pub(crate) read: bool,
    array: bool,
    wrong_form: Option<(Family, Family)>,
}

/// Whether a record read with `disposition` is of a known form: a record an adapter mapped is,
/// whatever its kind (a platform `messages` frame of `[chunk, metadata]` has no family of its
/// own).
pub(crate) fn is_known(rec: &Record, disposition: &Disposition) -> bool {
    match disposition {
        Disposition::Mapped => true,
        Disposition::Ignored(_) => classify(rec).family().is_some(),
        Disposition::Bad(_) => false,
    }
}

impl File {
    /// A bad line of this file: the JSON array hint, the first record of another form.
    pub(crate) fn bad_line(&mut self, bad: &BadLine) {
        self.array |= bad.reason == Reason::Array;
        if let (None, Reason::NotTheForcedForm { forced, found }) = (self.wrong_form, bad.reason) {
            self.wrong_form = Some((forced, found));
        }
    }

    /// What is said of file `name` when none of its records is of a known form (after
    /// `FILE: `): the form found instead of the one `--from` asks for, or the `jq` hint for a
    /// JSON array.
    pub(crate) fn why(&self, name: &str) -> String {
        if let Some((forced, found)) = self.wrong_form.map(|(a, b)| (a.name(), b.name())) {
            return format!(
                "its records are {found} records, not the {forced} records --from asks for \
                 (without --from the form is detected per file)"
            );
        }
        let array =
            format!("; it holds a JSON array: `jq -c '.[]' {name}` writes one record a line");
        let array = if self.array { array.as_str() } else { "" };
        format!("no AG-UI or LangGraph records (is it NDJSON or SSE?){array}")
    }
}

/// What each input held, fed by a pipeline observer.
pub struct Known {
    /// The inputs by name, in input order (a name is found at once, not by a scan of every
    /// file per record: 10,000 files would cost their count squared).
    files: IndexMap<Arc<str>, File>,
    /// The last bad line, `(file:line, why)` (told when `--strict` stops there).
    pub last_bad: Option<(String, String)>,
}

impl Known {
    pub fn new<'a>(names: impl IntoIterator<Item = &'a Arc<str>>) -> Known {
        Known {
            files: names
                .into_iter()
                .map(|n| (n.clone(), File::default()))
                .collect(),
            last_bad: None,
        }
    }

    fn file(&mut self, name: &Arc<str>) -> &mut File {
        self.files.entry(name.clone()).or_default()
    }

    pub fn record(&mut self, rec: &Record, disposition: &Disposition) {
        if is_known(rec, disposition) {
            self.file(&rec.origin.file).read = true;
        }
    }

    pub fn bad_line(&mut self, origin: &Origin, bad: &BadLine) {
        self.last_bad = Some((origin.to_string(), bad.message.clone()));
        self.file(&origin.file).bad_line(bad);
    }

    /// Whether `file` held a record of a known form (`None`: not an input, e.g. `(input)`).
    pub fn state(&self, file: &str) -> Option<bool> {
        self.files.get(file).map(|f| f.read)
    }

    /// How many inputs held nothing of a known form.
    pub fn unread(&self) -> usize {
        self.files.values().filter(|f| !f.read).count()
    }

    /// `(file, why)` of each input that held nothing of a known form, in input order.
    pub fn unread_files(&self) -> impl Iterator<Item = (&str, String)> {
        let unread = self.files.iter().filter(|(_, f)| !f.read);
        unread.map(|(name, f)| (&**name, f.why(name)))
    }
}

/// An observer that also keeps [`Known`]: `Watch(known, inner)` tells [`Known`] of each
/// record and bad line before `inner`, and passes everything else on to `inner`.
pub struct Watch<'a, O: Observer>(pub Known, pub &'a mut O);

impl<O: Observer> Observer for Watch<'_, O> {
    fn record(&mut self, rec: &Record, disposition: &Disposition) {
        self.0.record(rec, disposition);
        self.1.record(rec, disposition)
    }
    fn bad_line(&mut self, origin: &Origin, message: &BadLine) {
        self.0.bad_line(origin, message);
        self.1.bad_line(origin, message)
    }
    fn warning(&mut self, origin: &Origin, message: &str) {
        self.1.warning(origin, message)
    }
    fn model(&mut self, ev: &ModelEvent, origin: &Origin) {
        self.1.model(ev, origin)
    }
    fn event(&mut self, ev: &Event, origin: &Origin) -> io::Result<()> {
        self.1.event(ev, origin)
    }
    fn input_idle(&mut self) -> io::Result<()> {
        self.1.input_idle()
    }
    fn end_of_file(&mut self, file: &str) -> io::Result<()> {
        self.1.end_of_file(file)
    }
}
