//! Terminal concerns shared by the human-facing commands: colour choice, width, the progress bar
//! for large files, and `--follow` reading.

use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use aguify::pipeline::Input;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};

use crate::cli::Color;

/// `--color`: an explicit `always`/`never` wins; `auto` honours NO_COLOR (any non-empty value:
/// never) and TERM=dumb, then CLICOLOR_FORCE (non-empty and not `0`: always), then colours a terminal only.
pub fn use_color(choice: Color, stream_is_terminal: bool) -> bool {
    let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    match choice {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            if env("NO_COLOR").is_some() || std::env::var_os("TERM").is_some_and(|t| t == "dumb") {
                false
            } else if env("CLICOLOR_FORCE").is_some_and(|v| v != "0") {
                true
            } else {
                stream_is_terminal
            }
        }
    }
}

/// Line width: `--width` (0: no limit, as 0 means elsewhere); else on a terminal its width
/// (or `COLUMNS`, or 120); output to a pipe or a file is not cut (`None`).
pub fn width(explicit: Option<usize>) -> Option<usize> {
    if let Some(w) = explicit {
        return (w > 0).then(|| w.max(20));
    }
    if !io::stdout().is_terminal() {
        return None;
    }
    if let Some((terminal_size::Width(w), _)) = terminal_size::terminal_size() {
        return Some(usize::from(w).max(20));
    }
    let columns = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|w| *w >= 20);
    Some(columns.unwrap_or(120))
}

/// Stdin read from a terminal is said, never waited on in silence: with no FILE it is a
/// usage error (exit 2, as `check` has it); an explicit `-` is read, after a line saying how
/// to end it. `Err` holds the exit code.
pub fn stdin_guard(command: &str, files: &[String]) -> Result<(), i32> {
    if !io::stdin().is_terminal() {
        return Ok(());
    }
    if files.is_empty() {
        eprintln!(
            "aguify: {command}: no FILE given and stdin is a terminal\n\
             usage: aguify {command} FILE... (or `-` to read stdin)\n\
             see `aguify {command} --help`"
        );
        return Err(2);
    }
    if files.iter().any(|f| f == "-") {
        eprintln!("aguify: {command}: reading stdin from the terminal (end it with Ctrl-D)");
    }
    Ok(())
}

/// Inputs at least this large (all files together) get a progress bar.
const PROGRESS_MIN_BYTES: u64 = 16 * 1024 * 1024;

/// A progress bar on stderr for large files, only when stderr is a terminal and not in CI;
/// cleared once every reader holding it is dropped.
fn progress_for(files: &[String]) -> Option<ProgressBar> {
    if !io::stderr().is_terminal() || std::env::var_os("CI").is_some() {
        return None;
    }
    let total: u64 = files
        .iter()
        .filter(|f| f.as_str() != "-")
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    if total < PROGRESS_MIN_BYTES {
        return None;
    }
    let pb = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
        .with_finish(ProgressFinish::AndClear);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {eta} {msg}") {
        pb.set_style(style);
    }
    Some(pb)
}

/// Opens the inputs (none: stdin), read through a progress bar for large files (with
/// `progress`) and/or the `--follow` reader.
pub fn open_inputs(
    files: &[String],
    progress: bool,
    follow: Option<&Arc<AtomicBool>>,
) -> Result<Vec<Input>, aguify::Error> {
    let files = crate::options::or_stdin(files);
    let progress = progress.then(|| progress_for(&files)).flatten();
    let mut out = Vec::new();
    for f in &files {
        if f == "-" || (progress.is_none() && follow.is_none()) {
            out.push(Input::open(f)?);
            continue;
        }
        let file = File::open(f).map_err(|source| aguify::Error::Input {
            path: f.clone(),
            source,
        })?;
        let reader: Box<dyn Read + Send> = match follow {
            Some(stop) => Box::new(FollowReader {
                file,
                path: f.clone(),
                pos: 0,
                stop: stop.clone(),
                waited: false,
            }),
            None => Box::new(file),
        };
        let reader: Box<dyn Read + Send> = match &progress {
            Some(pb) => Box::new(pb.wrap_read(reader)),
            None => reader,
        };
        out.push(Input {
            name: Arc::from(f.as_str()),
            reader: Box::new(io::BufReader::with_capacity(256 * 1024, reader)),
            rereadable: false,
        });
    }
    Ok(out)
}

/// Reads a file that may still grow: at its end, waits and polls again, until `stop` is set
/// (Ctrl-C, or the end of a run with `--exit-on-end`); only then reports end of file.
/// Before it starts waiting it reports `WouldBlock` once, so the pipeline first finishes and
/// shows every line read so far (lines may sit in a parse batch).
///
/// Like `tail -F`, it notices a file truncated under it (shorter than what was read) or
/// replaced (rotated: another file at the path), says so on stderr and reads from the start.
pub struct FollowReader {
    file: File,
    path: String,
    /// Bytes read from `file`.
    pos: u64,
    stop: Arc<AtomicBool>,
    /// `WouldBlock` was reported at the current end of the file.
    waited: bool,
}

impl Read for FollowReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let n = self.file.read(buf)?;
            if n > 0 || buf.is_empty() {
                self.waited = false;
                self.pos += n as u64;
                return Ok(n);
            }
            if self.reopened()? {
                continue;
            }
            if self.stop.load(Ordering::SeqCst) {
                return Ok(0);
            }
            if !self.waited {
                self.waited = true;
                return Err(io::ErrorKind::WouldBlock.into());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl FollowReader {
    /// At the end of the data: when the file was truncated or replaced, starts again from
    /// the beginning (of the new file) and says so.
    fn reopened(&mut self) -> io::Result<bool> {
        let name = aguify::check::report::text::printable(&self.path).into_owned();
        if self.replaced() {
            if let Ok(f) = File::open(&self.path) {
                eprintln!("aguify: {name}: the file was replaced (rotated); following the new file from its start");
                self.file = f;
                self.pos = 0;
                return Ok(true);
            }
        }
        let len = self.file.metadata()?.len();
        if len < self.pos {
            eprintln!("aguify: {name}: the file was truncated; reading it again from the start");
            io::Seek::seek(&mut self.file, io::SeekFrom::Start(0))?;
            self.pos = 0;
            return Ok(true);
        }
        Ok(false)
    }

    /// Whether another file now sits at the path (a rotation: moved away and created anew).
    #[cfg(unix)]
    fn replaced(&self) -> bool {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(&self.path), self.file.metadata()) {
            (Ok(now), Ok(open)) => now.ino() != open.ino() || now.dev() != open.dev(),
            _ => false,
        }
    }

    #[cfg(not(unix))]
    fn replaced(&self) -> bool {
        false
    }
}

/// Sets `stop` on Ctrl-C, so a followed file ends like a finished one (open runs get their
/// footer). A thread with a small runtime waits for the signal.
pub fn stop_on_ctrl_c(stop: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        let Ok(rt) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        if rt.block_on(tokio::signal::ctrl_c()).is_ok() {
            stop.store(true, Ordering::SeqCst);
        }
    });
}
