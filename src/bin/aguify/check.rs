//! `aguify check`: each input checked on its own, one combined report on stdout.

use std::io::{self, IsTerminal, Write};

use aguify::check::report::{Counts, Format, Report};
use aguify::check::{self, rules, Config, Severity};

use crate::cli::{CheckArgs, Color, FailOn, ReportFormat};
use crate::options;

/// Whether findings fail the run under `--fail-on` / `--max-warnings`.
pub fn fails(c: Counts, fail_on: FailOn, max_warnings: Option<u64>) -> bool {
    let by_severity = match fail_on {
        FailOn::Error => c.errors > 0,
        FailOn::Warning => c.errors + c.warnings > 0,
        FailOn::None => false,
    };
    by_severity || max_warnings.is_some_and(|m| c.warnings > m)
}

/// `--color`: auto means stdout is a terminal and NO_COLOR is unset.
pub fn use_color(c: Color, terminal: bool) -> bool {
    match c {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}

/// Checks files on up to `jobs` threads; reports come back in input order. The first error
/// (in input order) wins, as in a sequential run.
fn check_files(
    files: &[String],
    jobs: usize,
    opts: &aguify::pipeline::Options,
    config: &Config,
) -> Result<Vec<check::FileReport>, aguify::Error> {
    let jobs = jobs.clamp(1, files.len().max(1));
    // stdin cannot be shared between threads; one file needs no pool.
    if jobs == 1 || files.iter().any(|f| f == "-") {
        return files
            .iter()
            .map(|f| check::check_path(f, opts, config))
            .collect();
    }
    // Files in parallel share the cores with the parse threads of each file.
    let opts = &aguify::pipeline::Options {
        parse_threads: (opts.parse_threads / jobs).max(1),
        ..opts.clone()
    };
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<Option<Result<check::FileReport, aguify::Error>>> =
        (0..files.len()).map(|_| None).collect();
    let done = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(f) = files.get(i) else { break };
                let r = check::check_path(f, opts, config);
                if let Ok(mut d) = done.lock() {
                    d.push((i, r));
                }
            });
        }
    });
    for (i, r) in done.into_inner().unwrap_or_default() {
        results[i] = Some(r);
    }
    // Every index was taken by a worker (a panicking worker re-panics out of the scope).
    results.into_iter().flatten().collect()
}

/// In a GitHub Actions job, links of the markdown summary point at the checked-out commit:
/// `$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/blob/$GITHUB_SHA/`.
fn github_blob_base() -> Option<String> {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    Some(format!(
        "{}/{}/blob/{}/",
        var("GITHUB_SERVER_URL")?.trim_end_matches('/'),
        var("GITHUB_REPOSITORY")?,
        var("GITHUB_SHA")?
    ))
}

pub fn run(args: CheckArgs) -> anyhow::Result<i32> {
    if let Some(id) = &args.explain {
        let mut out = io::stdout().lock();
        if id.eq_ignore_ascii_case("all") {
            for r in rules::RULES {
                writeln!(out, "{}  {:<7}  {}", r.id, r.severity.as_str(), r.title)?;
            }
            return Ok(0);
        }
        return match rules::find(id) {
            Some(r) => {
                write!(out, "{}", rules::explain(r))?;
                Ok(0)
            }
            None => {
                eprintln!("aguify: unknown rule '{id}' (see `aguify check --explain all`)");
                Ok(2)
            }
        };
    }
    for id in args.allow.iter().chain(&args.deny) {
        if rules::find(id).is_none() {
            eprintln!("aguify: unknown rule '{id}' (see `aguify check --explain all`)");
            return Ok(2);
        }
    }
    let config = Config {
        allow: args.allow.clone(),
        deny: args.deny.clone(),
    };
    let opts = options::pipeline_options(&args.input, &args.map);
    let files = if args.input.files.is_empty() {
        vec!["-".to_string()]
    } else {
        args.input.files.clone()
    };
    let jobs = args.jobs.unwrap_or_else(options::cores);
    let report = Report {
        files: check_files(&files, jobs, &opts, &config)?,
    };
    let format = match args.format {
        ReportFormat::Text => Format::Text,
        ReportFormat::Json => Format::Json,
        ReportFormat::Github => Format::Github,
        ReportFormat::Junit => Format::Junit,
        ReportFormat::Sarif => Format::Sarif,
        ReportFormat::Markdown => Format::Markdown,
    };
    let color = use_color(args.color, io::stdout().is_terminal());
    let mut out = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    match format {
        Format::Markdown => {
            let base = github_blob_base().unwrap_or_default();
            out.write_all(check::report::markdown::render(&report, &base).as_bytes())?;
        }
        _ => report.write_to(format, color, &mut out)?,
    }
    out.flush()?;
    let _ = Severity::Error;
    Ok(if fails(report.counts(), args.fail_on, args.max_warnings) {
        1
    } else {
        0
    })
}
