//! Build script: the version `aguify --version` prints, with the commit it was built from.
//!
//! `AGUIFY_VERSION` is `0.1.0 (fd8fa3f26 2026-12-04)`: the package version, then the first 9
//! hex digits of the commit and its date, as `cargo -V` writes them. The commit is taken from
//! `AGUIFY_BUILD_COMMIT` when that is set (a release building from an sdist or a crates.io
//! tarball, which carry no `.git`), else from git when this package's directory is the top of a
//! git work tree (a vendored copy inside another repository does not take that repository's
//! commit). With neither it is the bare version. Nothing here reads the clock or the work tree's
//! edits: the same commit always prints the same line.

use std::path::Path;
use std::process::Command;

fn main() {
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    println!("cargo:rerun-if-env-changed=AGUIFY_BUILD_COMMIT");
    let commit = match std::env::var("AGUIFY_BUILD_COMMIT") {
        Ok(given) if !given.trim().is_empty() => Some(given.trim().to_string()),
        _ => git_commit(),
    };
    match commit {
        Some(commit) => println!("cargo:rustc-env=AGUIFY_VERSION={version} ({commit})"),
        None => println!("cargo:rustc-env=AGUIFY_VERSION={version}"),
    }
}

/// `<short hash> <commit date>` of HEAD, when this package's directory is a git work tree's top.
/// Asks cargo to run this again when HEAD moves (only files that exist: a missing one would make
/// every build rerun it).
fn git_commit() -> Option<String> {
    let dir = std::env::var("CARGO_MANIFEST_DIR").ok()?;
    let top = git(&dir, &["rev-parse", "--show-toplevel"])?;
    if Path::new(&top).canonicalize().ok()? != Path::new(&dir).canonicalize().ok()? {
        return None;
    }
    let mut watched = vec![git(&dir, &["rev-parse", "--git-path", "HEAD"])?];
    if let Some(branch) = git(&dir, &["symbolic-ref", "-q", "HEAD"]) {
        watched.extend(git(&dir, &["rev-parse", "--git-path", &branch]));
    }
    watched.extend(git(&dir, &["rev-parse", "--git-path", "packed-refs"]));
    for path in watched {
        let path = Path::new(&dir).join(path);
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    let line = git(&dir, &["log", "-1", "--format=%H %cs"])?;
    let (hash, date) = line.split_once(' ')?;
    Some(format!("{} {date}", hash.get(..9)?))
}

/// One git command's trimmed output, or None when git is missing or says no.
fn git(dir: &str, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (out.status.success() && !text.is_empty()).then(|| text.to_string())
}
