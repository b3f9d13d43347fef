//! Whether each input held anything aguify reads: a file of which no record is of a known form
//! (a CSV, a binary file, an empty file, a JSON array, the wrong `--from`) is named with why,
//! and the command exits 2 (`check` says it as an AGX505 finding).

use std::sync::Arc;

use indexmap::IndexMap;

use crate::adapter::{classify, Disposition};
use crate::check::nothing_read_message;
use crate::input::{Origin, Record};

/// One input file: whether a record of a known form was read, whether a bad line was a JSON
/// array (for the `jq` hint), and the first record of another form than `--from` asks for.
#[derive(Default)]
struct File {
    read: bool,
    array: bool,
    wrong_form: Option<(crate::adapter::Family, crate::adapter::Family)>,
}

/// What each input held, fed by a pipeline observer.
pub struct Known {
    /// The inputs by name, in input order (a name is found at once, not by a scan of every
    /// file per record: 10,000 files would cost their count squared).
    files: IndexMap<Arc<str>, File>,
    /// The last bad line and what was wrong with it (told when `--strict` stops there).
    last_bad: Option<(String, String)>,
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
        // A record an adapter mapped is of a known form whatever its kind (a platform
        // `messages` frame of `[chunk, metadata]` has no family of its own).
        let known = match disposition {
            Disposition::Mapped => true,
            Disposition::Ignored(_) => classify(rec).family().is_some(),
            Disposition::Bad(_) => false,
        };
        if known {
            self.file(&rec.origin.file).read = true;
        }
    }

    pub fn bad_line(&mut self, origin: &Origin, bad: &crate::error::BadLine) {
        use crate::error::Reason;
        self.last_bad = Some((origin.to_string(), bad.message.clone()));
        let file = self.file(&origin.file);
        file.array |= bad.reason == Reason::Array;
        if let (None, Reason::NotTheForcedForm { forced, found }) = (file.wrong_form, bad.reason) {
            file.wrong_form = Some((forced, found));
        }
    }

    /// The last bad line, `(file:line, why)`.
    pub fn last_bad(&self) -> Option<&(String, String)> {
        self.last_bad.as_ref()
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
        self.files.iter().filter(|(_, f)| !f.read).map(|(name, f)| {
            let why = nothing_read_message(name, f.array, f.wrong_form);
            (&**name, why)
        })
    }
}
