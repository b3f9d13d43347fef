//! Terminal concerns shared by the human-facing commands: colour choice, width, the progress bar
//! for large files, and `--follow` reading.

use std::fs::File;
use std::io::{self, IsTerminal, Read, Seek};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use aguify::pipeline::Input;
use aguify::walk::identity;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};

use clap::ColorChoice;

/// `--color`: an explicit `always`/`never` wins; `auto` honours NO_COLOR (any non-empty value:
/// never) and TERM=dumb, then CLICOLOR_FORCE (non-empty and not `0`: always), then colours a terminal only.
pub fn use_color(choice: ColorChoice, stream_is_terminal: bool) -> bool {
    let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            let never =
                env("NO_COLOR").is_some() || std::env::var_os("TERM").is_some_and(|t| t == "dumb");
            let forced = env("CLICOLOR_FORCE").is_some_and(|v| v != "0");
            !never && (forced || stream_is_terminal)
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
/// to end it.
pub fn stdin_guard(command: &str, files: &[String]) -> Result<(), crate::Usage> {
    if !io::stdin().is_terminal() {
        return Ok(());
    }
    if files.is_empty() {
        let or = match command {
            "check" => "a directory, --files-from LIST, or `-` for stdin",
            _ => "`-` to read stdin",
        };
        return Err(crate::Usage(format!(
            "{command}: no FILE given and stdin is a terminal\n\
             usage: aguify {command} FILE... (or {or})\n\
             see `aguify {command} --help`"
        )));
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

/// Opens the inputs (none: stdin, named `stdin_name` if given: `--stdin-filename`), read
/// through a progress bar for large files (with `progress`) and/or the `--follow` reader
/// (`follow`: the stop flag, and where a followed file that must be read again as a new file
/// is named).
pub fn open_inputs(
    files: &[String],
    stdin_name: Option<&str>,
    progress: bool,
    follow: Option<(&Arc<AtomicBool>, &Restart)>,
) -> Result<Vec<Input>, aguify::Error> {
    let files = crate::options::or_stdin(files);
    let progress = progress.then(|| progress_for(&files)).flatten();
    let open = |f: &String| {
        let mut input = Input::open(f)?;
        if f == "-" {
            input.name = Arc::from(stdin_name.unwrap_or("-"));
        } else if let Some((stop, restart)) = follow {
            let file = File::open(f).map_err(aguify::Error::input(f))?;
            let reader = FollowReader {
                file,
                path: f.clone(),
                stop: stop.clone(),
                waited: false,
                prefix: Vec::new(),
                restart: restart.clone(),
                deleted_told: false,
            };
            input.open =
                Box::new(|| Ok(Box::new(io::BufReader::with_capacity(256 * 1024, reader))));
            input.rereadable = false;
        } else if let Some(pb) = progress.clone() {
            let open = input.open;
            input.open = Box::new(move || Ok(Box::new(pb.wrap_read(open()?))));
        }
        Ok(input)
    };
    files.iter().map(open).collect()
}

/// The followed file to read again as a new file (replaced, truncated or rewritten), if any.
pub type Restart = Arc<std::sync::Mutex<Option<String>>>;

/// Bytes of a followed file's start remembered, to tell a file rewritten in place.
const PREFIX: usize = 4096;

/// Reads a file that may still grow: at its end, waits and polls again, until `stop` is set
/// (Ctrl-C, or the end of a run with `--exit-on-end`); only then reports end of file.
/// Before it starts waiting it reports `WouldBlock` once, so the pipeline first finishes and
/// shows every line read so far (lines may sit in a parse batch).
///
/// Like `tail -F`, it notices a file replaced (rotated: another file at the path), truncated
/// (shorter than what was read) or rewritten in place (its first bytes changed, even when it
/// grew past the old size between two polls): it says so on stderr, ends this input and
/// names the path in `restart`, so the caller reads the file again as a new file (lines from
/// 1, its own runs and form). A deleted file is reported once (what is written to it still
/// shows).
pub struct FollowReader {
    file: File,
    path: String,
    stop: Arc<AtomicBool>,
    /// `WouldBlock` was reported at the current end of the file.
    waited: bool,
    /// The file's first bytes as read (up to [`PREFIX`]).
    prefix: Vec<u8>,
    restart: Restart,
    deleted_told: bool,
}

impl Read for FollowReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            // After a wait, new bytes may be another file's: looked at before they are read.
            if self.waited && self.changed()? {
                return Ok(0);
            }
            let n = self.file.read(buf)?;
            if n > 0 || buf.is_empty() {
                let keep = (PREFIX - self.prefix.len()).min(n);
                self.prefix.extend_from_slice(&buf[..keep]);
                self.waited = false;
                return Ok(n);
            }
            if self.changed()? || self.stop.load(Ordering::SeqCst) {
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
    /// Whether the followed file is no longer the one read (replaced, truncated, rewritten):
    /// then said on stderr and the path named in `restart` (the input ends here).
    fn changed(&mut self) -> io::Result<bool> {
        // A restart already named (this file's or another's) ends this input.
        if self.restart.lock().is_ok_and(|r| r.is_some()) {
            return Ok(true);
        }
        let name = aguify::text::printable(&self.path).into_owned();
        let why = match std::fs::metadata(&self.path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if !std::mem::replace(&mut self.deleted_told, true) {
                    eprintln!(
                        "aguify: {name}: the file was deleted; still reading what is written to it"
                    );
                }
                return Ok(false);
            }
            Err(_) => return Ok(false),
            Ok(now) => {
                self.deleted_told = false;
                if self.replaced(&now) {
                    "the file was replaced (rotated); following the new file from its start as a new file"
                } else if self.file.metadata()?.len() < self.file.stream_position()? {
                    "the file was truncated; reading it again from the start as a new file"
                } else if self.rewritten()? {
                    "the file was rewritten; reading it again from the start as a new file"
                } else {
                    return Ok(false);
                }
            }
        };
        eprintln!("aguify: {name}: {why}");
        if let Ok(mut r) = self.restart.lock() {
            *r = Some(self.path.clone());
        }
        Ok(true)
    }

    /// Whether the file's first bytes are no longer those read (read from the path: a file
    /// replaced there was told before).
    fn rewritten(&self) -> io::Result<bool> {
        let mut now = vec![0u8; self.prefix.len()];
        let Ok(mut file) = File::open(&self.path) else {
            return Ok(false);
        };
        match file.read_exact(&mut now) {
            // Shorter than what was read: not the same start.
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(true),
            read => read.map(|()| now != self.prefix),
        }
    }

    /// Whether another file now sits at the path (a rotation: moved away and created anew).
    fn replaced(&self, now: &std::fs::Metadata) -> bool {
        let open = self.file.metadata();
        open.is_ok_and(|open| identity(&open) != identity(now))
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
