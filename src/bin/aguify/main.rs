//! The `aguify` binary: argument parsing and wiring only; the work lives in the library.

mod bad_lines;
mod check;
mod cli;
mod convert;
mod diff;
mod explain;
mod known;
mod options;
mod output;
mod redact;
mod report;
mod serve;
mod snapshot;
mod terminal;
mod timeline;

use std::io::{self, Write};
use std::process::ExitCode;

use aguify::text::{os_text, printable};
use clap::{CommandFactory, Parser};

/// mimalloc, with `--features mimalloc`: fewer instructions, more memory (Cargo.toml says why
/// it is not the default).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// glibc's mmap threshold fixed at 4 MiB. By default it rises to the largest block freed (up
/// to 32 MiB), after which the buffers of multi-megabyte lines come from the heap and stay
/// resident once freed, by how the heap happens to be laid out (the order blocks are freed in
/// varies from run to run): peak RSS on the 1 GB v3-js-big log with `--threads 1` was 30 or
/// 36-38 MiB from run to run, against issue 36's 32 MiB. Fixed, a block of 4 MiB or more is
/// mapped and unmapped on its own: 29-31 MiB, at about the same CPU time (docs/performance.md).
/// A fixed threshold also stops glibc raising its trim threshold with it (to twice the mmap
/// threshold), which stayed at 128 KiB: the heap's top was given back to the system and
/// faulted in again around every long line (1 GB v3-js-big, default threads: 1.3-1.5 s of
/// system time). Kept up to 4 MiB, the largest block the heap serves: 0.8-1.0 s, same peak.
fn fixed_mmap_threshold() {
    // SAFETY: mallopt only sets allocator parameters; called first, before any thread.
    #[cfg(all(target_os = "linux", target_env = "gnu", not(feature = "mimalloc")))]
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 4 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 4 << 20);
    }
}

fn main() -> ExitCode {
    fixed_mmap_threshold();
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        // `--help`, `--version` and usage errors; clap's own `exit` ignores a failed write.
        Err(e) => {
            let written = e.print().and_then(|()| io::stdout().flush());
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                stdout_written(written)
            };
        }
    };
    let writing = output_of(&cli.command);
    let result = match cli.command {
        cli::Command::Convert(args) => convert::run(args),
        cli::Command::Check(args) => check::run(args),
        cli::Command::Serve(args) => serve::run(args),
        cli::Command::Timeline(args) => timeline::run(args),
        cli::Command::Explain(args) => explain::run(args),
        cli::Command::Diff(args) => diff::run(args),
        cli::Command::Snapshot(args) => snapshot::run(args),
        cli::Command::Report(args) => report::run(args),
        cli::Command::Redact(args) => redact::run(args),
        cli::Command::Completions { shell } => {
            // Written whole to a buffer first: clap_complete panics on a write error.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut cli::Cli::command(), "aguify", &mut script);
            return stdout_written(output::write_to("-", |out| out.write_all(&script)));
        }
    };
    match result {
        Ok(code) => ExitCode::from(code as u8),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            match e.downcast_ref::<Usage>() {
                Some(Usage(usage)) => eprintln!("aguify: {usage}"),
                None => eprintln!("aguify: {}", printable(&message(&e, &writing))),
            }
            ExitCode::from(2)
        }
    }
}

/// A usage error a command found (no input, a bad combination): its message said on stderr as
/// it is, and exit 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Usage(pub String);

/// What a command writes, and where: named when writing it fails.
fn output_of(command: &cli::Command) -> String {
    use cli::Command as C;
    let (what, path) = match command {
        C::Convert(_) => ("the AG-UI events", None),
        C::Check(_) => ("the report", None),
        C::Timeline(_) => ("the timeline", None),
        C::Explain(_) => ("the explanation", None),
        C::Diff(_) => ("the diff", None),
        C::Snapshot(_) => ("the snapshot", None),
        C::Report(a) => ("the HTML report", Some(a.output.as_str())),
        C::Redact(a) => ("the redacted recording", a.output.as_deref()),
        C::Serve(_) | C::Completions { .. } => ("the output", None),
    };
    let to = path.filter(|p| *p != "-").unwrap_or("stdout");
    format!("{what} to {}", printable(to))
}

/// Help, a version or completions written to stdout: a closed pipe is a quiet success, any
/// other write error exit 2.
fn stdout_written(written: io::Result<()>) -> ExitCode {
    match written {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            eprintln!("aguify: writing to stdout: {e}");
            ExitCode::from(2)
        }
        _ => ExitCode::SUCCESS,
    }
}

/// An error as one line, each cause once: an input error reads `cannot open FILE: WHY` (or
/// `cannot read`), an output error `cannot write WHAT to stdout: WHY` (`writing`: what the
/// command writes, [`output_of`]), and the OS's text appears once, without its `(os error
/// N)` suffix.
fn message(e: &anyhow::Error, writing: &str) -> String {
    // A bare I/O error is a command's own write of its output (its inputs are read through
    // the library, whose errors name the file).
    let output = match e.downcast_ref::<aguify::Error>() {
        Some(aguify::Error::Input { path, source }) => {
            let verb = match source.kind() {
                io::ErrorKind::NotFound | io::ErrorKind::PermissionDenied => "open",
                _ if source.raw_os_error() == Some(21) => "open", // EISDIR
                _ => "read",
            };
            return format!("cannot {verb} {path}: {}", os_text(source));
        }
        Some(aguify::Error::Output(source)) => Some(source),
        _ => e.downcast_ref().filter(|_| e.chain().count() == 1),
    };
    if let Some(source) = output {
        return format!("cannot write {writing}: {}", os_text(source));
    }
    let mut out = String::new();
    for cause in e.chain() {
        let io = cause.downcast_ref::<io::Error>();
        let text = io.map_or_else(|| cause.to_string(), os_text);
        if !out.ends_with(&text) {
            let sep = if out.is_empty() { "" } else { ": " };
            out = format!("{out}{sep}{text}");
        }
    }
    out
}

/// A report written after its verdict was known: a closed stdout (`aguify check --format json
/// … | head -1`) ends quietly with the verdict's exit code, whatever the format; other write
/// errors stay errors.
pub fn verdict_written(written: io::Result<()>, verdict: i32) -> anyhow::Result<i32> {
    match written {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(verdict),
    }
}

/// A closed stdout (`aguify convert … | head`) ends quietly with success, as in ripgrep.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        // `aguify::Error::Output` of a closed pipe too: its `io::Error` is next in the chain.
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
