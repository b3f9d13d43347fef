//! A v3 run's `seq` numbers: replays (skipped), reordering and reuse (told), and a `seq`
//! that starts again (the next recorded run), in flat memory.

use serde_json::Value;

use super::{FastIds, V3Adapter};
use crate::input::Record;
use crate::model::ModelEvent;

/// `seq` → (input line, [`crate::input::text_hash`] of the text) of a run's latest
/// [`Seqs::WINDOW`] events, and its highest seq so far with its line: a run of millions of
/// events (a long-running agent's stream, a file with no lifecycle) is checked in flat
/// memory; a replay of an event from further back than that is told as out of order, not as
/// a replay.
#[derive(Default)]
pub(super) struct Seqs {
    seen: crate::recent::Recent<i64, (u64, u64), { Seqs::WINDOW }, FastIds>,
    max: Option<(i64, u64)>,
}

impl Seqs {
    /// Seqs remembered.
    const WINDOW: usize = 1 << 16;

    /// The first use of seq `n` (one above every seq so far is new: nothing looked up).
    fn get(&self, n: i64) -> Option<(u64, u64)> {
        let seen = self.max.is_some_and(|(m, _)| n <= m);
        seen.then(|| self.seen.get(&n).copied()).flatten()
    }

    /// Seq `n` used at `line` by a text of hash `hash` (a seq used before keeps its first use).
    fn insert(&mut self, n: i64, line: u64, hash: u64) {
        if self.max.is_none_or(|(m, _)| n > m) {
            self.max = Some((n, line));
        } else if self.seen.get(&n).is_some() {
            return;
        }
        self.seen.insert(n, (line, hash));
    }

    pub(super) fn clear(&mut self) {
        self.seen.clear();
        self.max = None;
    }
}

impl V3Adapter {
    /// Checks an event's `seq` against the run's earlier events: a `seq` that starts again
    /// ends the run in progress (the next recorded run starts here). `Err` for an exact replay
    /// (skipped); reordering and reuse are converted in file order with a warning.
    pub(super) fn check_seq(
        &mut self,
        rec: &Record,
        seq: Option<&Value>,
        out: &mut Vec<ModelEvent>,
    ) -> Result<(), crate::error::BadLine> {
        let Some(seq) = seq else { return Ok(()) };
        let Some(n) = seq.as_i64() else {
            self.warning = Some(format!(
                "v3 `seq` is {}, expected an integer; converted in file order",
                crate::input::json_kind(seq)
            ));
            return Ok(());
        };
        let text_hash = crate::input::text_hash(rec.text.as_bytes());
        // An exact replay of an earlier event (which does not start the next run).
        let prev = self.seqs.get(n);
        if let Some((first, _)) = prev.filter(|&(_, hash)| hash == text_hash) {
            return Err(crate::error::BadLine::new(
                crate::error::Reason::DuplicateV3Event,
                format!("duplicate v3 event: seq {n} repeats line {first} exactly (a replayed event); skipped"),
            ));
        }
        let restarts = |(first, (max, _))| crate::wire::v3::seq_restarts(n, first, max);
        if self.first_seq.zip(self.seqs.max).is_some_and(restarts) {
            self.end_run(true, out);
        } else if let Some((first, _)) = prev {
            self.warning = Some(format!(
                "v3 seq {n} was already used at line {first} by another event (two recordings in one file?); converted in file order"
            ));
        } else if let Some((max, max_line)) = self.seqs.max.filter(|(m, _)| n < *m) {
            self.warning = Some(format!(
                "v3 seq {n} comes after seq {max} (line {max_line}): out of order; converted in file order, not by seq"
            ));
        }
        self.first_seq.get_or_insert(n);
        self.seqs.insert(n, rec.origin.line, text_hash);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seqs_remember_the_first_use() {
        let mut s = Seqs::default();
        for (n, line) in [(5, 1), (7, 2), (6, 3), (6, 4), (1, 5), (9, 6)] {
            if s.get(n).is_none() {
                s.insert(n, line, 0);
            }
        }
        let first = |n| s.get(n).map(|(l, _)| l);
        assert_eq!(
            [5, 7, 6, 1, 9, 8, 10].map(first),
            [Some(1), Some(2), Some(3), Some(5), Some(6), None, None]
        );
        s.clear();
        assert_eq!(s.get(5), None);
    }

    #[test]
    fn seqs_hold_a_window() {
        let mut s = Seqs::default();
        let w = Seqs::WINDOW as i64;
        for n in 0..3 * w {
            s.insert(n, n as u64, 0);
        }
        assert_eq!(s.seen.len(), Seqs::WINDOW);
        assert_eq!(s.get(2 * w - 1), None, "forgotten");
        assert_eq!(s.get(2 * w), Some((2 * w as u64, 0)));
        assert_eq!(s.get(3 * w - 1), Some((3 * w as u64 - 1, 0)));
        for n in 0..w + 1 {
            s.insert(-n - 1, 0, 0);
        }
        assert!(s.seen.len() <= Seqs::WINDOW);
        assert_eq!(s.get(-w - 1), Some((0, 0)), "the latest kept");
    }
}
