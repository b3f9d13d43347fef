//! Whether each input held anything aguify reads: a file of which no record is of a known form
//! (a CSV, a binary file, an empty file, a JSON array, the wrong `--from`) is told once, and
//! the command exits 2.

use aguify::known::{Known, Watch};
use aguify::pipeline::Observer;
use aguify::text::printable;

/// `--strict` stopped: the bad line it stopped at, on stderr (before the stop itself).
pub fn tell_last_bad(known: &Known) {
    if let Some((at, why)) = &known.last_bad {
        eprintln!("aguify: {}: {}", printable(at), printable(why));
    }
}

/// Tells (on stderr) each file of which nothing was read; whether there was one.
pub fn report(known: &Known) -> bool {
    for (name, why) in known.unread_files() {
        eprintln!("aguify: {}: {}", printable(name), printable(&why));
    }
    known.unread() > 0
}

/// Runs the pipeline into `inner` while keeping [`Known`]: under `--strict`, the bad line it
/// stopped at is told first; `Ok(false)` when an input held nothing of a known form (told on
/// stderr: the command exits 2).
pub fn run_watched<O: Observer>(
    inputs: Vec<aguify::pipeline::Input>,
    opts: &aguify::pipeline::Options,
    inner: &mut O,
) -> Result<bool, aguify::Error> {
    let mut watch = Watch(Known::new(inputs.iter().map(|i| &i.name)), inner);
    let result = aguify::pipeline::run(inputs, opts, &mut watch);
    if let Err(aguify::Error::Strict(_)) = &result {
        tell_last_bad(&watch.0);
    }
    result?;
    Ok(!report(&watch.0))
}
