//! An output file (`-o PATH`) written whole or not at all: the data goes to a temporary file
//! in the same folder, which is renamed over PATH only once every byte is written and synced.
//! A full disk or any other write error leaves no truncated page and an existing file as it
//! was; the temporary file is removed.

use std::io::{self, BufWriter, Write};
use std::path::Path;

/// Writes to stdout (`-`) or to `path`, whole or not at all ([`replace`]).
pub fn write_to<E: From<io::Error>>(
    path: &str,
    write: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), E> {
    if path != "-" {
        return replace(Path::new(path), write);
    }
    let mut out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    write(&mut out)?;
    Ok(out.flush()?)
}

/// Writes `dest` through `write`: into a temporary file beside it (`.NAME.XXXXXX.tmp`,
/// created new, with the permissions a new file gets; tempfile's, removed when dropped), then
/// flushed, synced and renamed over `dest`. On an error the destination is left as it was.
pub fn replace<E: From<io::Error>>(
    dest: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), E> {
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
    let mut out = BufWriter::with_capacity(64 * 1024, temp);
    write(&mut out)?;
    let temp = out.into_inner().map_err(io::IntoInnerError::into_error)?;
    temp.as_file().sync_all()?;
    temp.persist(dest).map_err(|e| e.error)?;
    Ok(())
}
