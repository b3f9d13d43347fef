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

/// A fast hash of a text, for the keys of those maps: a v3 record's whole line (to tell an
/// exact replay of a `seq`, on the main thread for every line) and a state message's first
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
