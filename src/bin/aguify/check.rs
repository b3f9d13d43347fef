//! `aguify check`: each input checked on its own, one combined report on stdout.

use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;

use aguify::check::report::{Counts, Format, Report};
use aguify::check::{self, rules, Config, FileReport};
use aguify::text::os_text;
use aguify::text::printable;
use aguify::walk;

use crate::cli::{CheckArgs, FailOn};
use crate::{options, Usage};

/// Whether findings fail the run under `--fail-on` / `--max-warnings`.
pub fn fails(c: Counts, fail_on: FailOn, max_warnings: Option<u64>) -> bool {
    let by_severity = match fail_on {
        FailOn::Error => c.errors > 0,
        FailOn::Warning => c.errors + c.warnings > 0,
        FailOn::None => false,
    };
    by_severity || max_warnings.is_some_and(|m| c.warnings > m)
}

/// The files to check, and in their place the folders that could not be read (`(path, why)`).
type Inputs = Vec<Result<String, (String, io::Error)>>;

/// What is to be checked: each argument, then `--files-from`'s list, a directory walked
/// (src/walk.rs). Folders that cannot be read become reports of their own, at their
/// place. A usage error (a list that cannot be read, a folder or a list with no recordings)
/// comes back as such: nothing is checked then, and stdin is never read in its stead.
fn inputs(args: &CheckArgs) -> Result<Inputs, Usage> {
    let mut paths = args.input.files.clone();
    if let Some(list) = &args.files_from {
        let text = if list == "-" {
            io::read_to_string(io::stdin())
        } else {
            std::fs::read_to_string(list)
        };
        let at = format!("check: --files-from {}", printable(list));
        let text =
            text.map_err(|e| Usage(format!("{at}: cannot read the list: {}", os_text(&e))))?;
        let listed = text.lines().map(str::trim).filter(|l| !l.is_empty());
        paths.extend(listed.map(String::from));
        if paths.is_empty() {
            return Err(Usage(format!("{at}: the list names no files")));
        }
    }
    let mut files = vec![];
    for f in paths {
        if f == "-" || !Path::new(&f).is_dir() {
            files.push(Ok(f));
            continue;
        }
        let walk = walk::recordings(Path::new(&f), args.follow_links, true);
        for (link, target) in &walk.loops {
            let (link, target) = (printable(link), printable(target));
            eprintln!("aguify: {link}: a link back to {target}, not walked again");
        }
        if walk.entries.is_empty() {
            let (dir, patterns) = (printable(&f), walk::RECORDING_PATTERNS);
            return Err(Usage(format!(
                "check: no recordings found in {dir} (looked for {patterns})"
            )));
        }
        files.extend(walk.entries);
    }
    Ok(files)
}

/// Checks one file; one that cannot be read is a report with one AGX504 finding.
fn check_one(
    f: &str,
    label: &str,
    opts: &aguify::pipeline::Options,
    config: &Config,
) -> FileReport {
    let result = if f == "-" {
        let mut b = vec![];
        let read = io::stdin()
            .read_to_end(&mut b)
            .map_err(aguify::Error::input(label));
        read.and_then(|_| check::check_bytes(label, b, opts, config))
    } else {
        check::check_path(f, opts, config)
    };
    match result {
        Ok(r) => r,
        Err(aguify::Error::Input { path, source }) => {
            FileReport::unreadable(&path, &os_text(&source), config)
        }
        Err(e) => FileReport::unreadable(f, &e.to_string(), config),
    }
}

/// Checks files on up to `jobs` threads; reports come back in input order.
fn check_files(
    files: &Inputs,
    label: &str,
    jobs: usize,
    opts: &aguify::pipeline::Options,
    config: &Config,
) -> Vec<FileReport> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
    use std::sync::OnceLock;
    // stdin cannot be shared between threads; `--strict` stops at the first file with a bad
    // line, so its files are checked one after another.
    let one_by_one = opts.strict || files.iter().any(|f| f.as_ref().is_ok_and(|f| f == "-"));
    let jobs = if one_by_one { 1 } else { jobs }.clamp(1, files.len().max(1));
    // Files in parallel share the cores with the parse threads of each file.
    let opts = &aguify::pipeline::Options {
        parse_threads: (opts.parse_threads / jobs).max(1),
        ..opts.clone()
    };
    let (next, stopped) = (AtomicUsize::new(0), AtomicBool::new(false));
    let done: Vec<OnceLock<FileReport>> = files.iter().map(|_| OnceLock::new()).collect();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Relaxed);
                let Some(f) = files.get(i) else { break };
                // A folder that could not be read is a report with one AGX504 finding.
                let r = match f {
                    Err((path, e)) => FileReport::unreadable(path, &os_text(e), config),
                    _ if stopped.load(Relaxed) => continue,
                    Ok(f) => check_one(f, label, opts, config),
                };
                stopped.fetch_or(r.stopped.is_some(), Relaxed);
                let _ = done[i].set(r);
            });
        }
    });
    done.into_iter().filter_map(OnceLock::into_inner).collect()
}

/// A finding's link in the markdown summary. In a GitHub Actions job (a job summary's page
/// is not in the repository, so a relative link leads nowhere) the file's path in the
/// repository, from `$GITHUB_WORKSPACE`, after the checked-out commit's blob URL
/// (`$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/blob/$GITHUB_SHA/`); a file outside the workspace
/// gets no link. Elsewhere the path as given, relative.
fn markdown_link(file: &str, line: u64) -> Option<String> {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    let vars = ["GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA"].map(var);
    let [Some(server), Some(repo), Some(sha)] = vars else {
        return Some(check::report::markdown::target("", file, line));
    };
    let base = format!("{}/{repo}/blob/{sha}/", server.trim_end_matches('/'));
    let workspace = std::env::var_os("GITHUB_WORKSPACE").filter(|w| !w.is_empty())?;
    let workspace = Path::new(&workspace).canonicalize().ok()?;
    let file = Path::new(file).canonicalize().ok()?;
    let in_repo = file
        .strip_prefix(&workspace)
        .ok()?
        .to_str()?
        .replace('\\', "/");
    Some(check::report::markdown::target(&base, &in_repo, line))
}

pub fn run(args: CheckArgs) -> anyhow::Result<i32> {
    if let Some(id) = &args.explain {
        let mut out = io::stdout().lock();
        if id.eq_ignore_ascii_case("all") {
            for r in rules::RULES.iter() {
                writeln!(out, "{}  {:<7}  {}", r.id, r.severity.as_str(), r.title)?;
            }
            return Ok(0);
        }
        // clap takes only rule ids (any case) and `all`.
        let r = rules::find(id).expect("clap gives a rule id");
        write!(out, "{}", rules::explain(r))?;
        return Ok(0);
    }
    // A list of files to check is input enough.
    if args.files_from.is_none() || !args.input.files.is_empty() {
        crate::terminal::stdin_guard("check", &args.input.files)?;
    }
    let opts = options::pipeline_options(&args.input, &args.map);
    let keep = match args.rules.max_per_rule {
        0 => 0,
        n => n.max(check::KEEP_PER_RULE),
    };
    let config = options::check_config(&args.rules, &args.map.policy, keep);
    let mut files = inputs(&args)?;
    if files.is_empty() {
        files.push(Ok("-".to_string()));
    }
    let label = args.stdin.stdin_filename.as_deref().unwrap_or("-");
    let jobs = args.jobs.unwrap_or_else(options::cores);
    let report = Report {
        files: check_files(&files, label, jobs, &opts, &config),
        max_per_rule: args.rules.max_per_rule,
        max_warnings: args.max_warnings,
        verbose: args.verbose,
    };
    let color = crate::terminal::use_color(args.color, io::stdout().is_terminal());
    let written = crate::output::write_to("-", |out| match args.format {
        _ if args.quiet => Ok(()),
        _ if args.statistics => out.write_all(check::report::text::statistics(&report).as_bytes()),
        Format::Markdown => {
            let page = check::report::markdown::render_linked(&report, &markdown_link);
            out.write_all(page.as_bytes())
        }
        _ => report.write_to(args.format, color, out),
    });
    crate::verdict_written(written, verdict(&report, &args))
}

/// The exit code of a checked report: 2 when a file stopped at a bad line (`--strict`) or
/// could not be used, else 1 when it fails the `--fail-on` / `--max-warnings` bar.
fn verdict(report: &Report, args: &CheckArgs) -> i32 {
    if let Some(at) = report.files.iter().find_map(|f| f.stopped.as_ref()) {
        let at = printable(at);
        eprintln!("aguify: {at}: stopping at the first bad line (--strict)");
        return 2;
    }
    // A file that could not be read or held nothing of a known form.
    if report.files.iter().any(|f| !f.read) {
        return 2;
    }
    fails(report.counts(), args.fail_on, args.max_warnings).into()
}
