//! Shared test helpers: the recordings under testdata/, id normalisation, golden comparison.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

pub fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata")
}

/// One conversion case: the files of one conversation, in order (resume pairs `X__1_*`,
/// `X__2_*` go together).
#[derive(Debug, Clone)]
pub struct Case {
    /// `<form>/<stem>`, e.g. `v2-python-api/d_hitl`.
    pub name: String,
    pub files: Vec<PathBuf>,
}

/// Every recording under `testdata/recordings`, grouped into conversations.
pub fn recording_cases() -> Vec<Case> {
    let root = testdata().join("recordings");
    let mut cases: Vec<Case> = vec![];
    let Ok(forms) = std::fs::read_dir(&root) else {
        return cases;
    };
    let mut forms: Vec<PathBuf> = forms
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    forms.sort();
    for form in forms {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&form)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.retain(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("ndjson" | "sse")
            )
        });
        files.sort();
        let form_name = form
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let mut by_stem: Vec<(String, Vec<PathBuf>)> = vec![];
        for f in files {
            let fname = f
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_string();
            let stem = match fname.find("__") {
                Some(i) => fname[..i].to_string(),
                None => fname
                    .rsplit_once('.')
                    .map(|(s, _)| s.to_string())
                    .unwrap_or(fname.clone()),
            };
            match by_stem.iter_mut().find(|(s, _)| *s == stem) {
                Some((_, list)) => list.push(f),
                None => by_stem.push((stem, vec![f])),
            }
        }
        for (stem, files) in by_stem {
            cases.push(Case {
                name: format!("{form_name}/{stem}"),
                files,
            });
        }
    }
    cases
}

const ID_KEYS: [&str; 11] = [
    "threadId",
    "parentToolCallId",
    "subagentRunId",
    "runId",
    "messageId",
    "toolCallId",
    "parentMessageId",
    "entityId",
    "interruptId",
    "parentRunId",
    "id",
];

/// Replaces ids with `id-1`, `id-2`… in order of first appearance (prefix-preserving for
/// derived ids such as `<message id>:reasoning:0`), and timestamps with offsets from the first.
pub struct Normalizer {
    ids: HashMap<String, String>,
    first_ts: Option<i64>,
}

impl Normalizer {
    pub fn new() -> Self {
        Normalizer {
            ids: HashMap::new(),
            first_ts: None,
        }
    }

    fn id(&mut self, raw: &str) -> String {
        if let Some(t) = self.ids.get(raw) {
            return t.clone();
        }
        if let Some((prefix, rest)) = raw.split_once(':') {
            if let Some(t) = self.ids.get(prefix) {
                return format!("{t}:{rest}");
            }
        }
        let t = format!("id-{}", self.ids.len() + 1);
        self.ids.insert(raw.to_string(), t.clone());
        t
    }

    pub fn event(&mut self, v: &mut Value) {
        self.walk(v);
    }

    fn walk(&mut self, v: &mut Value) {
        match v {
            Value::Object(m) => {
                for (k, val) in m.iter_mut() {
                    if k == "snapshot" || k == "rawEvent" {
                        continue; // recorded state: kept as recorded
                    }
                    if k == "timestamp" {
                        if let Some(ts) = val.as_i64() {
                            let first = *self.first_ts.get_or_insert(ts);
                            *val = Value::from(ts - first);
                        }
                        continue;
                    }
                    if ID_KEYS.contains(&k.as_str()) {
                        if let Value::String(s) = val {
                            *s = self.id(s);
                            continue;
                        }
                    }
                    if k == "pendingToolCallIds" || k == "interruptIds" {
                        if let Value::Array(a) = val {
                            for x in a.iter_mut() {
                                if let Value::String(s) = x {
                                    *s = self.id(s);
                                }
                            }
                        }
                        continue;
                    }
                    self.walk(val);
                }
            }
            Value::Array(a) => a.iter_mut().for_each(|x| self.walk(x)),
            _ => {}
        }
    }
}

/// Compares `actual` with the golden file, or writes it when `UPDATE_GOLDEN=1`.
/// Returns a description of the mismatch.
pub fn check_golden(path: &Path, actual: &str) -> Result<(), String> {
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        std::fs::write(path, actual).map_err(|e| e.to_string())?;
        return Ok(());
    }
    let expected = std::fs::read_to_string(path).map_err(|e| {
        format!(
            "{}: {e} (run with UPDATE_GOLDEN=1 to create it)",
            path.display()
        )
    })?;
    if expected == actual {
        return Ok(());
    }
    let (mut line, mut e_iter, mut a_iter) = (1, expected.lines(), actual.lines());
    loop {
        match (e_iter.next(), a_iter.next()) {
            (Some(e), Some(a)) if e == a => line += 1,
            (e, a) => {
                return Err(format!(
                    "{} differs at line {line}:\n  expected: {}\n  actual:   {}",
                    path.display(),
                    e.unwrap_or("<end>"),
                    a.unwrap_or("<end>")
                ))
            }
        }
    }
}
