//! An output file (`-o PATH`) written whole or not at all: the data goes to a temporary file
//! in the same folder, which is renamed over PATH only once every byte is written and synced.
//! A full disk or any other write error leaves no truncated page and an existing file as it
//! was; the temporary file is removed.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::PathBuf;

/// The temporary file, renamed over the destination by [`Replacing::commit`], removed when
/// dropped without it.
pub struct Replacing {
    file: Option<io::BufWriter<File>>,
    temp: PathBuf,
    dest: PathBuf,
}

impl Replacing {
    /// Creates the temporary file beside `dest` (`.NAME.PID.N.tmp`, created new).
    pub fn create(dest: &str) -> io::Result<Replacing> {
        let dest = PathBuf::from(dest);
        let name = dest
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?
            .to_string_lossy()
            .into_owned();
        let mut n = 0u32;
        loop {
            let temp = dest.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()));
            match OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(f) => {
                    return Ok(Replacing {
                        file: Some(io::BufWriter::with_capacity(64 * 1024, f)),
                        temp,
                        dest,
                    })
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 100 => n += 1,
                Err(e) => return Err(e),
            }
        }
    }

    /// Everything written: flushed, synced and renamed over the destination (on an error,
    /// the temporary file is removed and the destination left as it was).
    pub fn commit(mut self) -> io::Result<()> {
        let Some(w) = self.file.take() else {
            return Ok(());
        };
        let done = w
            .into_inner()
            .map_err(io::IntoInnerError::into_error)
            .and_then(|f| f.sync_all())
            .and_then(|()| fs::rename(&self.temp, &self.dest));
        if done.is_err() {
            let _ = fs::remove_file(&self.temp);
        }
        done
    }
}

impl Write for Replacing {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.file {
            Some(f) => f.write(buf),
            None => Err(io::ErrorKind::BrokenPipe.into()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.file {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for Replacing {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.temp);
        }
    }
}
