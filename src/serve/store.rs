//! Recorded conversations: input files run through the pipeline once at start-up, split into
//! runs, with the interrupt ids each run stops at.

use std::io;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail};

use super::stream::Frames;
use crate::agui::{Event, EventType};
use crate::pipeline::{self, Collect, Input, Options, Severity};

/// One recorded run: its AG-UI events, from RUN_STARTED to its terminal.
#[derive(Debug, Clone)]
pub struct RecordedRun {
    pub frames: Frames,
    /// How it ended, as `GET` lists it: `finished` (RUN_FINISHED), `interrupt` (RUN_FINISHED
    /// with `outcome.type == "interrupt"`), `error` (RUN_ERROR) or `open` (no terminal event:
    /// never from the pipeline, which always writes one; a hand-made event list may have none).
    pub ending: &'static str,
    /// The ids of the RUN_FINISHED interrupt outcome: what the next request on the thread
    /// must answer in `resume[]`.
    pub interrupts: Vec<String>,
}

/// One conversation: the runs of one recorded thread, served in order.
#[derive(Debug, Clone)]
pub struct Conversation {
    pub name: String,
    pub files: Vec<String>,
    pub runs: Vec<RecordedRun>,
    /// Input lines that could not be read (skipped): how many, and the first one's
    /// `FILE:LINE: why`.
    pub bad_lines: Option<(usize, String)>,
}

/// Whether `name` can be a path segment as it is (`POST /<name>`).
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 128
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && name != "."
        && name != ".."
}

fn bad_name(name: &str) -> anyhow::Error {
    anyhow!("invalid conversation name '{name}': use letters, digits, '-', '_' and '.' (not '.' or '..' alone), at most 128; name it with --conversation NAME=DIR")
}

/// A file or folder that could not be opened or read (`verb`).
fn cannot(verb: &str, path: &str, e: &io::Error) -> anyhow::Error {
    anyhow!("cannot {verb} {path}: {}", crate::text::os_text(e))
}

impl Conversation {
    /// Converts `files` (in order, as consecutive runs of one thread) with the pipeline.
    /// Bad input lines are skipped and counted ([`Conversation::bad_lines`]).
    pub fn load(name: &str, files: &[String], opts: &Options) -> anyhow::Result<Conversation> {
        // An input file that cannot be opened or read is named; any other error is the
        // conversation's.
        let error = |verb, e| match e {
            crate::Error::Input { path, source } => cannot(verb, &path, &source),
            e => anyhow!("conversation '{name}': {e}"),
        };
        let inputs = files
            .iter()
            .map(|f| Input::open(f))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| error("open", e))?;
        let mut collect = Collect::default();
        pipeline::run(inputs, opts, &mut collect).map_err(|e| error("read", e))?;
        let mut bad = (collect.problems.iter()).filter(|p| p.severity == Severity::Bad);
        let first = bad.next().map(|p| format!("{}: {}", p.origin, p.message));
        let bad_lines = first.map(|first| (1 + bad.count(), first));
        if let (true, Some((n, first))) = (collect.events.is_empty(), &bad_lines) {
            bail!(
                "conversation '{name}': the recording holds no AG-UI run: {} could not be read, the first at {first}",
                crate::text::count(*n, "input line"),
            );
        }
        Ok(Conversation {
            bad_lines,
            ..Conversation::from_events(name, files.to_vec(), collect.events)?
        })
    }

    /// Builds a conversation from AG-UI events already converted (split at each RUN_STARTED).
    pub fn from_events(
        name: &str,
        files: Vec<String>,
        events: Vec<Event>,
    ) -> anyhow::Result<Conversation> {
        if !valid_name(name) {
            return Err(bad_name(name));
        }
        let runs = split_runs(events);
        if runs.is_empty() {
            bail!("conversation '{name}': the recording holds no AG-UI run");
        }
        Ok(Conversation {
            name: name.to_string(),
            files,
            runs,
            bad_lines: None,
        })
    }

    /// `--conversation [NAME=]DIR`: the `*.ndjson`, `*.jsonl` and `*.sse` files of DIR (any
    /// case) in name order (paths as DIR gives them); the name defaults to the folder's name (`.`:
    /// the current folder's). `NAME=` with an invalid NAME is refused, unless the whole
    /// spec is a folder (a folder named `a=b`).
    pub fn load_dir(spec: &str, opts: &Options) -> anyhow::Result<Conversation> {
        let (name, dir) = match spec.split_once('=') {
            Some((n, d)) if valid_name(n) => (n.to_string(), PathBuf::from(d)),
            Some((n, _)) if !Path::new(spec).is_dir() => return Err(bad_name(n)),
            _ => {
                let dir = PathBuf::from(spec);
                let name = dir
                    .canonicalize()
                    .ok()
                    .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                    .unwrap_or_else(|| spec.to_string());
                (name, dir)
            }
        };
        Conversation::load(&name, &recording_files(&dir)?, opts)
    }
}

fn recording_files(dir: &Path) -> anyhow::Result<Vec<String>> {
    let walk = crate::walk::recordings(dir, true, false)
        .entries
        .into_iter();
    let files: Vec<String> = walk
        .map(|f| f.map_err(|(path, e)| cannot("read", &path, &e)))
        .collect::<anyhow::Result<_>>()?;
    if files.is_empty() {
        bail!(
            "{}: no *.ndjson, *.jsonl or *.sse recordings in this folder",
            dir.display()
        );
    }
    Ok(files)
}

/// Splits an event list into runs: each RUN_STARTED opens one; events before the first
/// RUN_STARTED (none from the pipeline) stay with the first run.
pub fn split_runs(events: Vec<Event>) -> Vec<RecordedRun> {
    let mut runs: Vec<Vec<Event>> = vec![];
    for ev in events {
        match runs.last_mut() {
            Some(run) if ev.kind() != Some(EventType::RunStarted) => run.push(ev),
            _ => runs.push(vec![ev]),
        }
    }
    runs.into_iter()
        .map(|events| {
            let (mut ending, mut interrupts) = ("open", vec![]);
            for ev in &events {
                match ev.kind() {
                    Some(EventType::RunError) => ending = "error",
                    Some(EventType::RunFinished) => (ending, interrupts) = finished(ev),
                    _ => {}
                }
            }
            RecordedRun {
                frames: super::stream::frames(events),
                ending,
                interrupts,
            }
        })
        .collect()
}

/// How a RUN_FINISHED ends its run, with the ids of its interrupt outcome (read as JSON: a
/// capture's event is served as recorded).
fn finished(ev: &Event) -> (&'static str, Vec<String>) {
    let ev = ev.to_value();
    let outcome = &ev["outcome"];
    if outcome["type"] != "interrupt" {
        return ("finished", vec![]);
    }
    let ids = outcome["interrupts"].as_array().into_iter().flatten();
    let ids = ids.filter_map(|i| i["id"].as_str()).map(str::to_string);
    ("interrupt", ids.collect())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;

    /// A run that stops at interrupt `i1`, then the run that resumes it (captured events).
    pub fn interrupt_then_resume() -> Vec<RecordedRun> {
        let events = [
            json!({"type":"RUN_STARTED","threadId":"t","runId":"r1"}),
            json!({"type":"RUN_FINISHED","threadId":"t","runId":"r1","outcome":{"type":"interrupt","interrupts":[{"id":"i1","reason":"x"}]}}),
            json!({"type":"RUN_STARTED","threadId":"t","runId":"r2"}),
            json!({"type":"RUN_FINISHED","threadId":"t","runId":"r2"}),
        ];
        split_runs(events.into_iter().map(Event::Passthrough).collect())
    }

    #[test]
    fn splits_runs_and_reads_interrupts() {
        let runs = interrupt_then_resume();
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0].ending, "interrupt");
        assert_eq!(runs[0].interrupts, ["i1"]);
        assert_eq!(runs[1].ending, "finished");
        assert!(runs[1].interrupts.is_empty());
    }
}
