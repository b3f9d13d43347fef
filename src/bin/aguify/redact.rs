//! `aguify redact FILE... [-o OUT]`: each input redacted in its own form, to stdout or OUT;
//! bad lines and the secrets replaced reported on stderr.

use std::io::Write;
use std::path::Path;

use aguify::redact::file;
use aguify::text::count;

use crate::cli::RedactArgs;
use crate::{options, output};

pub fn run(args: RedactArgs) -> anyhow::Result<i32> {
    let opts = &args.redact;
    let files = options::or_stdin(&args.files);
    let to_dir = args.output.as_deref().filter(|o| Path::new(o).is_dir());
    let mut total = file::Summary::default();
    // Redacts one input into `out`, counting into `total`, reporting its bad lines.
    let mut each = |f: &String, out: &mut dyn Write| -> anyhow::Result<()> {
        let input = aguify::pipeline::Input::open(f)?;
        let shown = args.stdin.stdin_filename.as_deref().filter(|_| f == "-");
        let shown = shown.unwrap_or(f);
        let mut bad =
            |line, why: &str| eprintln!("aguify: {shown}:{line}: {why} (passed through redacted)");
        let redacted =
            (input.open)().and_then(|mut r| file::redact(&mut r, out, opts, &mut total, &mut bad));
        Ok(redacted.map_err(aguify::Error::input(shown))?)
    };
    match to_dir {
        Some(dir) => {
            for f in &files {
                let name = Path::new(f).file_name().filter(|_| f != "-");
                let Some(name) = name else {
                    return Err(crate::Usage(format!(
                        "-o {dir}: stdin has no name to write it under in a directory"
                    ))
                    .into());
                };
                output::replace(&Path::new(dir).join(name), |out| each(f, out))?;
            }
        }
        // stdout (no `-o`, or `-o -`), or one file.
        None => output::write_to(args.output.as_deref().unwrap_or("-"), |out| {
            files.iter().try_for_each(|f| each(f, out))
        })?,
    }
    let (secrets, bad_lines) = (total.secrets, total.bad_lines);
    if !secrets.is_empty() {
        let total = count(secrets.values().sum::<u64>() as usize, "secret");
        let kinds: Vec<String> = secrets.iter().map(|(k, n)| format!("{n} {k}")).collect();
        eprintln!("aguify: redact: {total} replaced: {}", kinds.join(", "));
    }
    if bad_lines > 0 {
        let lines = count(bad_lines as usize, "bad line");
        eprintln!("aguify: redact: {lines} passed through redacted");
    }
    Ok(0)
}
