//! The rule registry: every rule's stable id, severity, title, explanation, spec section and fix
//! hint. Ids are grouped by hundreds:
//!
//! | ids | family |
//! |---|---|
//! | AGX101–AGX124 | the 24 `verifyEvents` rules of `@ag-ui/client` 1.0 (AGX1NN = rule NN) |
//! | AGX130–AGX133 | `transformChunks` errors of the official client |
//! | AGX2xx | the AG-UI 1.0 event schema (`@ag-ui/core` `EventSchema`) |
//! | AGX3xx | what the client lets through but front ends break on |
//! | AGX4xx | interrupts |
//! | AGX5xx | transport: lines and frames the client cannot read |
//! | AGX6xx | raw LangGraph input |
//! | AGX7xx | content leaks (answer-only front ends) |

use std::sync::LazyLock;

pub use crate::text::Severity;

/// One rule; written (as the report's page has its text) as its title, explanation, fix and
/// spec.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Rule {
    #[serde(skip)]
    pub id: &'static str,
    #[serde(skip)]
    pub severity: Severity,
    /// True when the official `@ag-ui/client` 1.0 pipeline (or the schema the conformance harness
    /// applies) rejects what this rule finds: these findings decide the official verdict.
    #[serde(skip)]
    pub official: bool,
    pub title: &'static str,
    pub explanation: &'static str,
    pub fix: &'static str,
    pub spec: &'static str,
}

/// Every rule, in id order, read from `rules.txt` (in one pass over its lines: every command
/// line parsed reads it): a block a rule, blocks apart by a blank line, each of five lines:
/// `ID SEVERITY [official]`, then the title, the spec section, the explanation and the fix
/// (plain text: no escapes).
pub static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    let mut lines = include_str!("rules.txt").lines().filter(|l| !l.is_empty());
    std::iter::from_fn(|| parse(&mut lines)).collect()
});

/// The next rule of `rules.txt`'s lines (blank lines left out).
fn parse(lines: &mut impl Iterator<Item = &'static str>) -> Option<Rule> {
    let mut head = lines.next()?.split(' ');
    let (id, severity) = (head.next()?, head.next()?);
    Some(Rule {
        id,
        severity: match severity {
            "error" => Severity::Error,
            "warning" => Severity::Warning,
            _ => return None,
        },
        official: head.next() == Some("official"),
        title: lines.next()?,
        spec: lines.next()?,
        explanation: lines.next()?,
        fix: lines.next()?,
    })
}

/// Looks a rule up by id (case-insensitive).
pub fn find(id: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.id.eq_ignore_ascii_case(id))
}

/// The rule for an id that must exist (ids used by the checker itself).
pub(crate) fn get(id: &str) -> &'static Rule {
    find(id).unwrap_or(&RULES[0])
}

/// `--explain` text for a rule.
pub fn explain(rule: &Rule) -> String {
    let (id, title, why, spec, fix) = (rule.id, rule.title, rule.explanation, rule.spec, rule.fix);
    let sev = rule.severity.as_str();
    let verdict = match rule.official {
        true => "rejects streams with this finding.",
        false => "accepts these streams; aguify flags them.",
    };
    format!("{id} ({sev}): {title}\n\n{why}\n\nSpec: {spec}\nFix: {fix}\nThe official @ag-ui/client 1.0 {verdict}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_unique_and_sorted() {
        // Every block of rules.txt read, and each of its five lines.
        let blocks: Vec<&str> = include_str!("rules.txt").split("\n\n").collect();
        assert_eq!(RULES.len(), blocks.len());
        assert!(blocks.iter().all(|b| b.trim().lines().count() == 5));
        assert_eq!(RULES.len(), 80);
        for w in RULES.windows(2) {
            assert!(w[0].id < w[1].id, "{} before {}", w[0].id, w[1].id);
        }
        assert_eq!(
            RULES
                .iter()
                .filter(|r| r.id.starts_with("AGX1") && r.id < "AGX130")
                .count(),
            24
        );
    }

    #[test]
    fn find_is_case_insensitive() {
        assert_eq!(find("agx101").map(|r| r.id), Some("AGX101"));
        assert!(find("AGX999").is_none());
    }
}
