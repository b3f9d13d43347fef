//! An output file (`-o PATH`) written whole or not at all: the data goes to a temporary file
//! in the same folder, which is renamed over PATH only once every byte is written and synced.
//! A full disk or any other write error leaves no truncated page and an existing file as it
//! was; the temporary file is removed.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

/// The temporary file (tempfile's, removed when dropped), renamed over the destination by
/// [`Replacing::commit`].
pub struct Replacing {
    file: BufWriter<NamedTempFile>,
    dest: PathBuf,
}

impl Replacing {
    /// Creates the temporary file beside `dest` (`.NAME.XXXXXX.tmp`, created new, with the
    /// permissions a new file gets).
    pub fn create(dest: &str) -> io::Result<Replacing> {
        let dest = PathBuf::from(dest);
        let name = dest
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
        let prefix = format!(".{}.", name.to_string_lossy());
        let mut temp = tempfile::Builder::new();
        temp.prefix(&prefix).suffix(".tmp");
        // tempfile's own default is 0600, for secrets; a report is an ordinary file.
        #[cfg(unix)]
        temp.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let dir = dest.parent().filter(|d| !d.as_os_str().is_empty());
        let temp = temp.tempfile_in(dir.unwrap_or(Path::new(".")))?;
        Ok(Replacing {
            file: BufWriter::with_capacity(64 * 1024, temp),
            dest,
        })
    }

    /// Everything written: flushed, synced and renamed over the destination (on an error,
    /// the temporary file is removed and the destination left as it was).
    pub fn commit(self) -> io::Result<()> {
        let temp = self
            .file
            .into_inner()
            .map_err(io::IntoInnerError::into_error)?;
        temp.as_file().sync_all()?;
        temp.persist(&self.dest).map_err(|e| e.error)?;
        Ok(())
    }
}

impl Write for Replacing {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}
