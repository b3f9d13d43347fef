//! `--slim`: a run's full states between its first and its last are dropped (a state that
//! carries interrupts stays), and so are AG-UI `RAW` events.
//!
//! Whether a state is a run's last is known only at the next state or the run's end, so the
//! frames after a state wait with it until then: memory holds what lies between two states.

use std::io::{self, Write};

use serde_json::Value;

use crate::json::Field;

/// What a record is to `--slim`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A full state (v3 root `values`, a platform `values` frame, `STATE_SNAPSHOT`).
    State,
    /// The start of a run: states before it belong to the run before.
    RunStart,
    /// Dropped (`RAW`).
    Dropped,
    Other,
}

/// The kind of a parsed record (`last_seq`: the previous v3 `seq`, to see a new run start).
pub fn kind(v: &Value, sse_event: Option<&str>, last_seq: &mut Option<u64>) -> Kind {
    let ty = v.field_str("type");
    let seq = v["seq"].as_u64().filter(|_| ty == Some("event"));
    // A v3 `seq` not above the one before: a new run.
    let restarted = seq.is_some_and(|s| last_seq.replace(s).is_some_and(|l| s <= l));
    let listed = |p| matches!(v.pointer(p), Some(Value::Array(a)) if !a.is_empty());
    // LangGraph.js sends an interrupt as a `values` of `__interrupt__` alone: not a state.
    let state = |d: Option<&Value>| d.is_some_and(|d| d.get("__interrupt__").is_none());
    let v3_state = v["method"] == "values" && state(v.pointer("/params/data"));
    let root = !listed("/params/namespace") && !listed("/params/interrupts");
    match (ty, sse_event) {
        (Some("RAW"), _) => Kind::Dropped,
        (Some("STATE_SNAPSHOT"), _) => Kind::State,
        (Some("RUN_STARTED"), _) | (_, Some("metadata")) if ty != Some("event") => Kind::RunStart,
        _ if restarted => Kind::RunStart,
        (Some("event"), _) if v3_state && root => Kind::State,
        (Some("event"), _) => Kind::Other,
        (_, Some("values")) if state(Some(v)) => Kind::State,
        _ => Kind::Other,
    }
}

/// Holds back a run's latest state (and what followed it) until the next state or run start.
#[derive(Debug, Default)]
pub struct Slim {
    seen_state: bool,
    pending: Option<Vec<u8>>,
    after: Vec<Vec<u8>>,
}

impl Slim {
    /// A frame's bytes and its kind; what may be written now goes to `out`.
    pub fn push(&mut self, kind: Kind, bytes: Vec<u8>, out: &mut dyn Write) -> io::Result<()> {
        match kind {
            Kind::Dropped => Ok(()),
            Kind::RunStart => {
                self.flush(out)?;
                self.seen_state = false;
                out.write_all(&bytes)
            }
            Kind::State if !self.seen_state => {
                self.seen_state = true;
                out.write_all(&bytes)
            }
            Kind::State => {
                // The state held back was not the run's last: it goes, what followed it stays.
                self.pending = None;
                self.flush(out)?;
                self.pending = Some(bytes);
                Ok(())
            }
            Kind::Other if self.pending.is_some() => {
                self.after.push(bytes);
                Ok(())
            }
            Kind::Other => out.write_all(&bytes),
        }
    }

    /// The end of the input (or of a run): what is held back is written.
    pub fn flush(&mut self, out: &mut dyn Write) -> io::Result<()> {
        for b in self.pending.take().into_iter().chain(self.after.drain(..)) {
            out.write_all(&b)?;
        }
        Ok(())
    }
}
