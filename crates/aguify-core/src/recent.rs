//! [`Recent`]: a map that keeps only its latest keys, for per-run state that a run of
//! millions of events (a long-running agent's stream) must not grow without bound.

use std::borrow::Borrow;
use std::collections::hash_map::Entry;
use std::collections::hash_map::RandomState;
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasher, Hash};

/// A map of the last `N` keys inserted: a new key past `N` forgets the oldest. Inserting a
/// key already held replaces its value and keeps its place.
#[derive(Default)]
pub struct Recent<K, V, const N: usize, S = RandomState> {
    map: HashMap<K, V, S>,
    order: VecDeque<K>,
    /// A key was forgotten since the map was made or cleared.
    forgot: bool,
}

impl<K: Hash + Eq + Clone, V, const N: usize, S: BuildHasher> Recent<K, V, N, S> {
    /// How many keys are kept.
    pub const WINDOW: usize = N;

    pub fn insert(&mut self, key: K, value: V) {
        // One lookup: a key on record gets its new value, a new one goes last.
        match self.map.entry(key) {
            Entry::Occupied(mut old) => _ = old.insert(value),
            Entry::Vacant(new) => {
                self.order.push_back(new.key().clone());
                new.insert(value);
            }
        }
        if self.order.len() > N {
            if let Some(oldest) = self.order.pop_front() {
                self.map.remove(&oldest);
                self.forgot = true;
            }
        }
    }

    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.map.get(key)
    }

    /// How many keys are held (at most `N`).
    pub fn len(&self) -> usize {
        debug_assert_eq!(self.map.len(), self.order.len());
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Whether a key was forgotten (since the map was made or cleared): a key not held may
    /// then have been inserted long ago.
    pub fn forgot(&self) -> bool {
        self.forgot
    }

    pub fn clear(&mut self) {
        self.map.clear();
        self.order.clear();
        self.forgot = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_latest_keys() {
        let mut r: Recent<u32, u32, 4> = Recent::default();
        for k in 0..6 {
            r.insert(k, k * 10);
        }
        assert_eq!(r.len(), 4);
        assert!(r.forgot());
        assert_eq!(r.get(&1), None, "forgotten");
        assert_eq!(r.get(&2), Some(&20));
        // A key held again: its value replaced, nothing forgotten.
        r.insert(2, 7);
        assert_eq!((r.len(), r.get(&2), r.get(&3)), (4, Some(&7), Some(&30)));
        r.clear();
        assert!(r.is_empty() && !r.forgot());
    }
}
