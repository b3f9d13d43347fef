//! Whether each input held anything aguify reads: a file of which no record is of a known form
//! (a CSV, a binary file, an empty file, a JSON array, the wrong `--from`) is told once, and
//! the command exits 2.

use aguify::pipeline::{Input, Observer, Options, Stats};
use aguify::text::printable;

/// `--strict` stopped: the bad line it stopped at, on stderr (before the stop itself).
pub fn tell_last_bad<T>(result: &Result<T, aguify::Error>) {
    if let Err(aguify::Error::Strict { at, message }) = result {
        eprintln!("aguify: {}: {}", printable(at), printable(message));
    }
}

/// Tells (on stderr) each file of which nothing was read; whether there was one.
pub fn report(stats: &Stats) -> bool {
    let told = aguify::known::unread_files(stats)
        .inspect(|(name, why)| eprintln!("aguify: {}: {}", printable(name), printable(why)));
    told.count() > 0
}

/// Runs the pipeline into `obs`: under `--strict`, the bad line it stopped at is told first;
/// `Ok(false)` when an input held nothing of a known form (told on stderr: the command exits
/// 2).
pub fn run(
    inputs: Vec<Input>,
    opts: &Options,
    obs: &mut dyn Observer,
) -> Result<bool, aguify::Error> {
    let result = aguify::pipeline::run(inputs, opts, obs);
    tell_last_bad(&result);
    Ok(!report(&result?))
}
