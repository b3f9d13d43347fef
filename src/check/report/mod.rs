//! Report formats: one file per format. Every renderer is deterministic: findings come in file
//! order, then input line, then event index.

mod github;
mod json;
mod junit;
pub mod markdown;
mod sarif;
pub mod text;

use super::{FileReport, Finding, RuleCount};
use crate::text::count;

/// A report over one or more files.
#[derive(Debug, Clone)]
pub struct Report {
    pub files: Vec<FileReport>,
    /// Findings shown per file and rule in the text, GitHub and JUnit formats (the rest are
    /// summed up in one line); 0 shows every finding kept.
    pub max_per_rule: usize,
    /// `--max-warnings`, when given.
    pub max_warnings: Option<u64>,
    /// `--verbose`: the text report lists clean files too.
    pub verbose: bool,
}

/// Findings shown per file and rule by default.
pub const DEFAULT_MAX_PER_RULE: usize = 5;

impl Default for Report {
    fn default() -> Self {
        Report {
            files: vec![],
            max_per_rule: DEFAULT_MAX_PER_RULE,
            max_warnings: None,
            verbose: false,
        }
    }
}

/// Output format of `aguify check` (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
    Github,
    Junit,
    Sarif,
    /// A summary for a CI job page (`$GITHUB_STEP_SUMMARY`); see docs/check.md
    Markdown,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub errors: u64,
    pub warnings: u64,
}

impl Report {
    /// The summary line of the whole report.
    fn summary(&self) -> String {
        summary_line(self.counts(), self.files.len())
    }

    /// Every finding counted (shown or not).
    pub fn counts(&self) -> Counts {
        super::counts(self.files.iter().flat_map(|f| &f.rule_counts))
    }

    /// The findings kept, file after file, each file's in line order.
    pub fn findings(&self) -> impl Iterator<Item = &Finding> {
        self.files.iter().flat_map(|f| &f.findings)
    }

    /// Files the official client would reject (of those read).
    pub fn official_invalid(&self) -> usize {
        self.files
            .iter()
            .filter(|f| f.read && !f.official_valid)
            .count()
    }

    /// `--max-warnings` exceeded: what to say ("too many warnings: 12 > 0").
    pub fn too_many_warnings(&self) -> Option<String> {
        let max = self.max_warnings?;
        let n = self.counts().warnings;
        (n > max).then(|| format!("too many warnings: {n} > {max}"))
    }

    /// Every rule found, with its count over all files, in rule order.
    pub fn by_rule(&self) -> Vec<RuleCount> {
        super::merged(self.files.iter().flat_map(|f| &f.rule_counts))
    }

    /// The findings of `file` to show: the first [`Report::max_per_rule`] of each rule, in
    /// line order; and per rule, how many more there are.
    pub fn shown<'a>(&self, file: &'a FileReport) -> (Vec<&'a Finding>, Vec<(&'static str, u64)>) {
        let limit = match self.max_per_rule {
            0 => usize::MAX,
            n => n,
        };
        let mut seen: std::collections::BTreeMap<&'static str, usize> = Default::default();
        let shown = file
            .findings
            .iter()
            .filter(|f| {
                let n = seen.entry(f.rule).or_default();
                *n += 1;
                *n <= limit
            })
            .collect::<Vec<_>>();
        let more = file
            .rule_counts
            .iter()
            .filter_map(|r| {
                let shown = seen.get(r.rule).map_or(0, |n| (*n).min(limit) as u64);
                (r.count > shown).then_some((r.rule, r.count - shown))
            })
            .collect();
        (shown, more)
    }

    /// Writes the rendered report to `w`; the JSON report is streamed, not built in memory.
    /// `color` applies to the text format only.
    pub fn write_to(
        &self,
        format: Format,
        color: bool,
        w: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let page = match format {
            Format::Json => return json::write(self, w),
            Format::Text => text::render(self, color),
            Format::Github => github::render(self),
            Format::Junit => junit::render(self),
            Format::Sarif => sarif::render(self),
            Format::Markdown => markdown::render(self, ""),
        };
        w.write_all(page.as_bytes())
    }

    /// The report [`Report::write_to`] writes, as a string.
    pub fn render(&self, format: Format, color: bool) -> String {
        let mut page = vec![];
        let _ = self.write_to(format, color, &mut page);
        String::from_utf8(page).unwrap_or_default()
    }
}

/// Where a finding is: `file:line`, or the file alone for a finding about the whole file.
pub fn place(f: &Finding) -> String {
    match f.line {
        0 => f.file.to_string(),
        n => format!("{}:{n}", f.file),
    }
}

/// ` event #i TYPE` for a finding about an event (`""` for one about a line), its type as
/// `ty` writes it (the text and Markdown finding lines).
fn event_part(f: &Finding, ty: impl Fn(&str) -> String) -> String {
    match (f.event_index, &f.event_type) {
        (Some(i), Some(t)) => format!(" event #{i} {}", ty(t)),
        (Some(i), None) => format!(" event #{i}"),
        (None, _) => String::new(),
    }
}

/// "… and 497 more AGX303 in FILE".
pub fn more_line(n: u64, rule: &str, file: &str) -> String {
    format!("… and {n} more {rule} in {file}")
}

/// The one-line summary shared by `check` and `convert`.
pub fn summary_line(c: Counts, files: usize) -> String {
    format!("{} checked: {}", count(files, "file"), c.said())
}

impl Counts {
    /// "2 errors, 1 warning".
    fn said(self) -> String {
        let (e, w) = (self.errors as usize, self.warnings as usize);
        format!("{}, {}", count(e, "error"), count(w, "warning"))
    }
}
