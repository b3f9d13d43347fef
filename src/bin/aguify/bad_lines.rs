//! Unreadable lines told on stderr by `diff` and `snapshot`: the first few of each file, as
//! the other commands show the first few findings of each rule; the rest counted in one line
//! per file (a binary file is not a thousand lines of "invalid UTF-8").

use aguify::check::report::DEFAULT_MAX_PER_RULE;
use aguify::input::Origin;
use aguify::text::count;
use aguify::text::printable;
use indexmap::IndexMap;

/// Unreadable lines met per file, in the order the files were met.
#[derive(Default)]
pub struct BadLines {
    files: IndexMap<String, u64>,
}

impl BadLines {
    /// Tells a bad line, unless its file has had its share.
    pub fn tell(&mut self, origin: &Origin, message: &str) {
        let n = self.files.entry(origin.file.to_string()).or_default();
        *n += 1;
        if *n <= DEFAULT_MAX_PER_RULE as u64 {
            eprintln!(
                "aguify: {}: {}",
                printable(&origin.to_string()),
                printable(message)
            );
        }
    }

    /// The lines left out, one line per file.
    pub fn finish(&self) {
        let shown = DEFAULT_MAX_PER_RULE as u64;
        for (file, n) in self.files.iter().filter(|(_, n)| **n > shown) {
            let more = count((n - shown) as usize, "more unreadable line");
            eprintln!("aguify: … and {more} in {}", printable(file));
        }
    }
}
