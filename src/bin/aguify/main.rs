//! The `aguify` binary: argument parsing and wiring only; the work lives in the library.

mod check;
mod cli;
mod convert;
mod explain;
mod options;
mod serve;
mod terminal;
mod timeline;

use std::io;
use std::process::ExitCode;

use clap::{CommandFactory, Parser};

/// mimalloc, with `--features mimalloc`: fewer instructions, more memory (Cargo.toml says why
/// it is not the default).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    let result = match cli.command {
        cli::Command::Convert(args) => convert::run(args),
        cli::Command::Check(args) => check::run(args),
        cli::Command::Serve(args) => serve::run(args),
        cli::Command::Timeline(args) => timeline::run(args),
        cli::Command::Explain(args) => explain::run(args),
        cli::Command::Completions { shell } => {
            clap_complete::generate(shell, &mut cli::Cli::command(), "aguify", &mut io::stdout());
            Ok(0)
        }
    };
    match result {
        Ok(code) => ExitCode::from(code as u8),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("aguify: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// A closed stdout (`aguify convert … | head`) ends quietly with success, as in ripgrep.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<aguify::Error>()
            .is_some_and(aguify::Error::is_broken_pipe)
            || c.downcast_ref::<io::Error>()
                .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
