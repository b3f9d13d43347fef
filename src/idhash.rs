//! A hasher for maps whose keys are already hashes (`u64`s made by the caller): the map uses
//! them as they are instead of hashing them again; and [`text_hash`], which makes such keys.

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

/// The `BuildHasher` of the maps keyed by ids that the reading thread looks up for every
/// event (open messages, tool calls, the verifier's state): a multiply-rotate hash of 8 bytes
/// a step, ~5× cheaper than the standard SipHash on ids of a few dozen bytes. Seeded once per
/// process, so a crafted log cannot aim its ids at one bucket without knowing the seed; no
/// output depends on a map's order (those that have one are insertion-ordered).
#[derive(Clone, Copy)]
pub struct FastIds(u64);

impl Default for FastIds {
    fn default() -> Self {
        static SEED: std::sync::LazyLock<u64> = std::sync::LazyLock::new(|| {
            use std::hash::BuildHasher;
            std::collections::hash_map::RandomState::new().hash_one(0x5eed_u64)
        });
        FastIds(*SEED)
    }
}

impl std::hash::BuildHasher for FastIds {
    type Hasher = FastIdHasher;
    fn build_hasher(&self) -> FastIdHasher {
        FastIdHasher(self.0)
    }
}

/// The hasher of [`FastIds`].
pub struct FastIdHasher(u64);

impl FastIdHasher {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;

    #[inline]
    fn mix(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(Self::K).rotate_left(26);
    }
}

impl Hasher for FastIdHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.mix(u64::from_le_bytes(w.try_into().unwrap_or_default()));
        }
        let rest = words.remainder();
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        self.mix(u64::from_le_bytes(last) ^ ((bytes.len() as u64) << 56));
    }
    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.mix(u64::from(n));
    }
    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.mix(n);
    }
    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.mix(n as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        let h = self.0;
        (h ^ (h >> 31)).wrapping_mul(Self::K) ^ (h >> 29)
    }
}

/// A fast hash of a text, for the keys of those maps: a v3 record's whole line (to tell an
/// exact replay of a `seq`, made on the parse thread for every line) and a state message's first
/// bytes (the message cache's buckets). It reads 32 bytes a step in four independent lanes
/// (one lane's multiply chain ran at ~1.6 bytes a cycle, 4 % of a v3 convert). Not keyed:
/// the cache compares the texts its hashes pick; the replay check trusts 64 bits, which a
/// log does not collide by chance.
pub fn text_hash(b: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    fn mix(h: u64, bytes: &[u8]) -> u64 {
        let mut w = [0u8; 8];
        w[..bytes.len()].copy_from_slice(bytes);
        (h.rotate_left(23) ^ u64::from_le_bytes(w)).wrapping_mul(K)
    }
    let len = b.len() as u64;
    let mut lanes = [len, len ^ 1, len ^ 2, len ^ 3].map(|l| l.wrapping_mul(K));
    let mut blocks = b.chunks_exact(32);
    for block in &mut blocks {
        for (lane, word) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            *lane = mix(*lane, word);
        }
    }
    let mut h = lanes
        .iter()
        .fold(len.wrapping_mul(K), |h, &l| mix(h, &l.to_le_bytes()));
    for word in blocks.remainder().chunks(8) {
        h = mix(h, word);
    }
    h ^ (h >> 29)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_ids_tell_ids_apart() {
        use std::collections::HashSet;
        use std::hash::BuildHasher;
        let s = FastIds::default();
        let mut seen = HashSet::new();
        // Ids that differ in one byte, in length only (trailing zero bytes) or by a prefix.
        let mut ids: Vec<String> = (0..20_000)
            .map(|i| format!("lc_run--01a2299c-{i:012x}"))
            .collect();
        ids.extend((0..24).map(|n| "\0".repeat(n)));
        ids.extend((1..24).map(|n| "a".repeat(n)));
        for id in &ids {
            assert!(seen.insert(s.hash_one(id.as_str())), "{id:?} collides");
        }
        assert_eq!(
            s.hash_one("x"),
            FastIds::default().hash_one("x"),
            "one seed a process"
        );
    }

    #[test]
    fn text_hash_tells_a_changed_byte_anywhere() {
        // Every length around the 32-byte blocks and 8-byte words, every position changed.
        for len in 0..100usize {
            let text: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            let h = text_hash(&text);
            assert_eq!(h, text_hash(&text.clone()));
            for i in 0..len {
                let mut other = text.clone();
                other[i] ^= 0x20;
                assert_ne!(h, text_hash(&other), "len {len}, byte {i}");
            }
            let mut longer = text.clone();
            longer.push(0);
            assert_ne!(h, text_hash(&longer), "len {len} and a NUL more");
        }
    }
}
