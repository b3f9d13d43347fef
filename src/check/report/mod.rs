//! Report formats: one file per format. Every renderer is deterministic: findings come in file
//! order, then input line, then event index.

mod github;
mod json;
mod junit;
pub mod markdown;
mod sarif;
pub mod text;

use super::{FileReport, Finding, Severity};

/// A report over one or more files.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub files: Vec<FileReport>,
}

/// Output format of `aguify check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Github,
    Junit,
    Sarif,
    /// A CI job summary ([`markdown`]); links relative to the repository root.
    Markdown,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub errors: u64,
    pub warnings: u64,
}

impl Report {
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for f in self.files.iter().flat_map(|f| &f.findings) {
            match f.severity {
                Severity::Error => c.errors += 1,
                Severity::Warning => c.warnings += 1,
            }
        }
        c
    }

    /// Files the official client would reject.
    pub fn official_invalid(&self) -> usize {
        self.files.iter().filter(|f| !f.official_valid).count()
    }

    /// Writes the rendered report to `w`; the JSON report is streamed, not built in memory.
    pub fn write_to(
        &self,
        format: Format,
        color: bool,
        w: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        match format {
            Format::Json => json::write(self, w),
            _ => w.write_all(self.render(format, color).as_bytes()),
        }
    }

    /// Renders the report. `color` applies to the text format only.
    pub fn render(&self, format: Format, color: bool) -> String {
        match format {
            Format::Text => text::render(self, color),
            Format::Json => json::render(self),
            Format::Github => github::render(self),
            Format::Junit => junit::render(self),
            Format::Sarif => sarif::render(self),
            Format::Markdown => markdown::render(self, ""),
        }
    }
}

/// The one-line summary shared by `check` and `convert`.
pub fn summary_line(c: Counts, files: usize) -> String {
    let plural = |n: u64, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    format!(
        "{} checked: {}, {}",
        plural(files as u64, "file"),
        plural(c.errors, "error"),
        plural(c.warnings, "warning")
    )
}
