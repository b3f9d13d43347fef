//! A hasher for maps whose keys are already hashes (`u64`s made by the caller): the map uses
//! them as they are instead of hashing them again.

use std::hash::{BuildHasherDefault, Hasher};

/// Passes a `u64` key through (other keys: their last 8 bytes).
#[derive(Default)]
pub struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The `BuildHasher` of maps keyed by hashes.
pub type IdBuildHasher = BuildHasherDefault<Identity>;
