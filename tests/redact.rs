//! `aguify redact`: over every recording in testdata, the redacted file tells the same story
//! (`diff --ignore-text` equal, `check` the same findings at the same lines), keeps no word
//! of the text it replaced, is its own redaction and the same bytes every time; planted
//! secrets of each kind are gone in every mode; the CLI's output, stderr and flags.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use aguify::redact::{file, Options};

/// A scratch directory for this test binary.
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("redact-tests")
        .join(name);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

/// `bytes` redacted in-process: the output, the bad lines' numbers, the secrets by kind.
fn redact(bytes: &[u8], opts: &Options) -> (Vec<u8>, Vec<u64>, aguify::redact::Counts) {
    let mut out = Vec::new();
    let mut bad = Vec::new();
    let s = file::redact(&mut &bytes[..], "t", &mut out, opts, &mut |line, _| {
        bad.push(line)
    })
    .expect("redacted");
    (out, bad, s.secrets)
}

/// Every recording under testdata/recordings, and the AG-UI captures of testdata/check.
fn recordings() -> Vec<PathBuf> {
    let mut all: Vec<PathBuf> = common::recording_cases()
        .into_iter()
        .flat_map(|c| c.files)
        .collect();
    let check = common::testdata().join("check");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&check)
        .expect("testdata/check")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let n = p.to_string_lossy();
            (n.ends_with(".ndjson") || n.ends_with(".sse")) && !n.contains(".expected")
        })
        .collect();
    cases.sort();
    all.extend(cases);
    assert!(all.len() > 300, "{} recordings", all.len());
    all
}

/// `(rule, line)` of every finding `check` makes of `bytes`.
fn findings(bytes: &[u8]) -> Vec<(&'static str, u64)> {
    let opts = aguify::pipeline::Options {
        parse_threads: 1,
        ..aguify::pipeline::Options::default()
    };
    let config = aguify::check::Config::default();
    let report = aguify::check::check_bytes("t", bytes.to_vec(), &opts, &config).expect("checked");
    report.findings.iter().map(|f| (f.rule, f.line)).collect()
}

/// The `diff --ignore-text` of two files: the differences, as text.
fn differences(old: &Path, new: &Path) -> Vec<String> {
    let popts = aguify::pipeline::Options {
        parse_threads: 1,
        ..aguify::pipeline::Options::default()
    };
    let opts = aguify::diff::Options {
        ignore_text: true,
        ..aguify::diff::Options::default()
    };
    let mut found = Vec::new();
    let s = |p: &Path| vec![p.to_string_lossy().into_owned()];
    let result = aguify::diff::diff(
        &s(old),
        &s(new),
        &popts,
        &opts,
        &mut |d| {
            found.extend(
                d.differences
                    .iter()
                    .map(|x| format!("{} {:?} -> {:?}", x.pointer, x.old, x.new)),
            );
            if d.old.is_none() || d.new.is_none() {
                found.push(format!("run {} on one side only", d.index));
            }
            Ok(())
        },
        &mut |_, _| {},
    );
    if let Err(e) = result {
        // Unreadable as a whole: so must each side be on its own, for the same reason.
        let alone = |p: &Path| {
            aguify::diff::diff(&s(p), &s(p), &popts, &opts, &mut |_| Ok(()), &mut |_, _| {})
                .err()
                .map(|e| e.to_string().replace(&*p.to_string_lossy(), "FILE"))
        };
        let (a, b) = (alone(old), alone(new));
        if a.is_none() || a != b {
            found.push(format!("unreadable: {e} ({a:?} / {b:?})"));
        }
    }
    found
}

/// Words of five or more ASCII letters, lower-cased.
fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() >= 5)
        .map(str::to_ascii_lowercase)
        .collect()
}

/// Words an error message keeps on purpose: the RUN_ERROR code is read from them.
const ERROR_WORDS: &[&str] = &[
    "error",
    "limit",
    "ratelimit",
    "quota",
    "requests",
    "request",
    "authentication",
    "permissiondenied",
    "unauthorized",
    "invalid",
    "incorrect",
    "timeout",
    "timed",
    "deadline",
    "exceeded",
    "etimedout",
    "connection",
    "connectionerror",
    "apiconnectionerror",
    "refused",
    "econnrefused",
    "enotfound",
    "econnreset",
    "reset",
    "connectionreseterror",
    "unreachable",
    "service",
    "known",
    "failed",
    "establish",
    "recursion",
    "reached",
    "operation",
    "aborted",
    "errno",
];

/// The snapshot view's string leaves: `(pointer, value)`.
fn leaves(path: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let popts = aguify::pipeline::Options::default();
    let files = vec![path.to_string_lossy().into_owned()];
    let mut buf = Vec::new();
    aguify::diff::read_side(&files, &popts, false, &mut |item| match item {
        aguify::diff::Item::Run(r) => aguify::snapshot::write::run(&r, &mut buf),
        aguify::diff::Item::Bad { .. } => Ok(()),
    })
    .expect("read");
    for line in String::from_utf8_lossy(&buf).lines() {
        if let Some((p, v)) = line.split_once(' ') {
            if let Ok(serde_json::Value::String(s)) = serde_json::from_str(v) {
                out.push((p.to_string(), s));
            }
        }
    }
    out
}

/// Whether a snapshot pointer holds a name, a kind or an id, not text.
fn structural(pointer: &str) -> bool {
    let last = pointer.rsplit('/').next().unwrap_or_default();
    pointer.starts_with("/steps")
        || pointer.contains("/steps/")
        || matches!(
            last,
            "name"
                | "outcome"
                | "code"
                | "reason"
                | "toolCall"
                | "toolCallId"
                | "subagentRunId"
                | "parentToolCall"
                | "status"
                | "type"
                | "interruptId"
                | "encrypted"
        )
        || (pointer.ends_with("/message") && pointer.contains("/toolCalls/"))
        || pointer.contains("allowed")
        || pointer.contains("/interrupts/") && pointer.ends_with(|c: char| c.is_ascii_digit())
}

/// Every string of a JSON value under a key of `names` (and every key), into `out`.
fn kept_words(v: &serde_json::Value, names: &[&str], under: bool, out: &mut BTreeSet<String>) {
    match v {
        serde_json::Value::String(s) => {
            if under {
                out.extend(words(s));
            }
            // A Python repr's keys and keyword arguments.
            for (i, _) in s.match_indices(['\'', '=']) {
                let before = &s[..i];
                let start = before
                    .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .map_or(0, |j| j + 1);
                if s[i..].starts_with("':") || s[i..].starts_with('=') {
                    out.extend(words(&before[start..]));
                }
            }
            if let Ok(inner) = serde_json::from_str::<serde_json::Value>(s) {
                if inner.is_object() || inner.is_array() {
                    kept_words(&inner, names, false, out);
                }
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| kept_words(x, names, under, out)),
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                out.extend(words(k));
                let u = under
                    || names.contains(&k.as_str())
                    || k.starts_with("ls_")
                    || k.starts_with("langgraph_");
                kept_words(x, names, u, out);
            }
        }
        _ => {}
    }
}

/// What the redaction keeps of a record, named independently of it: keys, envelope fields,
/// names, ids and kinds.
const KEPT_FIELDS: &[&str] = &[
    "event",
    "name",
    "type",
    "id",
    "run_id",
    "parent_ids",
    "tags",
    "metadata",
    "method",
    "namespace",
    "tool_name",
    "graph_name",
    "model_name",
    "response_metadata",
    "finish_reason",
    "error",
    "role",
    "toolCallName",
    "stepName",
    "code",
    "reason",
    "status",
    "tool_call_id",
    "usage",
    "usage_metadata",
    "messageId",
    "toolCallId",
    "threadId",
    "runId",
    "lg_name",
    "allowed_decisions",
    "allowedDecisions",
    "action_name",
    "actionName",
    "signature",
    "subagentRunId",
    "parentMessageId",
    "encryptedValue",
    "entityId",
    "interruptId",
];

/// Whether a word of the text the redaction replaced is still in `redacted`.
fn leaked(original: &Path, redacted: &Path) -> Vec<String> {
    let bytes = std::fs::read(original).expect("read");
    let text = String::from_utf8_lossy(&bytes);
    let mut kept = BTreeSet::new();
    for line in text.lines() {
        let data = line.strip_prefix("data:").unwrap_or(line);
        if let Some(name) = line.strip_prefix("event:") {
            kept.extend(words(name));
        }
        if let Ok(v) = serde_json::from_str::<serde_json::Value>(data.trim()) {
            kept_words(&v, KEPT_FIELDS, false, &mut kept);
        }
    }
    kept.extend(ERROR_WORDS.iter().map(|w| w.to_string()));
    let mut replaced = BTreeSet::new();
    for (p, v) in leaves(original) {
        if structural(&p) {
            kept.extend(words(&v));
        } else {
            replaced.extend(words(&v));
        }
    }
    let out = words(&String::from_utf8_lossy(
        &std::fs::read(redacted).expect("read"),
    ));
    replaced
        .difference(&kept)
        .filter(|w| out.contains(*w))
        .cloned()
        .collect()
}

/// The whole corpus: each recording redacted tells the same story and leaks none of its text.
#[test]
fn every_recording_keeps_its_story_and_loses_its_text() {
    let dir = scratch("corpus");
    let opts = Options::default();
    let mut failures = Vec::new();
    let started = std::time::Instant::now();
    for path in recordings() {
        let name = path.strip_prefix(common::testdata()).unwrap_or(&path);
        let flat = name.to_string_lossy().replace('/', "__");
        let original = std::fs::read(&path).expect("read");
        let (once, _, _) = redact(&original, &opts);
        let out = dir.join(&flat);
        std::fs::write(&out, &once).expect("write");
        let (twice, _, _) = redact(&once, &opts);
        if twice != once {
            failures.push(format!("{flat}: redacting again changed it"));
        }
        let (again, _, _) = redact(&original, &opts);
        if again != once {
            failures.push(format!("{flat}: not the same bytes twice"));
        }
        let (a, b) = (findings(&original), findings(&once));
        if a != b {
            failures.push(format!("{flat}: check findings {a:?} became {b:?}"));
        }
        let d = differences(&path, &out);
        if !d.is_empty() {
            failures.push(format!("{flat}: diff --ignore-text: {}", d.join("; ")));
        }
        let l = leaked(&path, &out);
        if !l.is_empty() {
            failures.push(format!("{flat}: words kept: {l:?}"));
        }
    }
    eprintln!("corpus: {:?}", started.elapsed());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
