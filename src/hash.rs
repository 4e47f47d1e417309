//! The hasher under the store's and the dialects' id maps (task, message, tool call, artifact
//! ids; [`crate::dialects`]' `Table`s) and the partial-JSON reader's key index: a word-at-a-time multiply-rotate hash (FxHash's step)
//! with a strong 64-bit finaliser (MurmurHash3's `fmix64`), instead of std's SipHash-1-3.
//!
//! Why: every text delta looks up two or three ids; SipHash was 6-7% of the native feed time
//! of an AG-UI stream and ~3.5% in wasm. This one hashes a 36-byte id in five multiplies
//! plus the finaliser, all plain 64-bit arithmetic (native wasm `i64` operations).
//!
//! The finaliser spreads every input bit over the low bits that pick a bucket and the high
//! bits hashbrown keeps as a tag, so ids that differ only in one character (`msg-000123`,
//! `msg-000124`) land in different buckets.
//!
//! # Hostile keys
//!
//! This hash is not keyed: whoever chooses the ids can choose ids with equal hashes (for the
//! multiply-rotate step that is a few lines of arithmetic). Then every lookup among those ids
//! compares the key with each of them: n colliding ids cost O(n) per lookup and O(n²) to
//! insert. That is no worse than what the shipped build had: on `wasm32-unknown-unknown`
//! std's `RandomState` has no entropy source and uses fixed keys, so SipHash's keys are public
//! and an attacker finds ids that share a bucket and the 7-bit tag (which is all that forces
//! the key comparisons) by brute force in ~2^(7 + log2 buckets) tries per id. What bounds the
//! damage is the size of each map, in both cases: every map here is capped by a limit
//! (`maxTasks` 10,000, `maxArtifacts` 10,000, `maxMessagesPerTask`, the dialects' tables by
//! `Table::bound`), so the worst a hostile stream can do is n²/2 comparisons of short
//! strings once per map (10,000 colliding task ids: 5·10^7 comparisons, in the order of a
//! second of CPU), never unbounded memory or a panic. A server that can send 10,000 tasks
//! can make the client do that much work by honest means too.
//!
//! Natively (tests, tools) SipHash had random keys; this hasher does not. Nothing in the
//! crate depends on iteration order of these maps (the `Table`s iterate in insertion order,
//! the store in slot order), so the change of hasher changes no output.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` with [`FastHasher`].
pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// A `HashSet` with [`FastHasher`].
pub(crate) type FastSet<K> = HashSet<K, BuildHasherDefault<FastHasher>>;

/// FxHash's constant (an odd 64-bit number with well spread bits).
const K: u64 = 0xf135_7aea_2e62_a9c5;

/// See the [module](self) docs.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct FastHasher(u64);

impl FastHasher {
    #[inline]
    fn mix(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.mix(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        // The tail in one word, with its length on top (so "a" and "a\0" differ).
        let mut tail = (rest.len() as u64) << 56;
        for (i, &b) in rest.iter().enumerate() {
            tail |= u64::from(b) << (8 * i);
        }
        self.mix(tail);
    }

    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.mix(u64::from(n));
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
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

    /// MurmurHash3's `fmix64`: every input bit affects every output bit.
    #[inline]
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

#[cfg(test)]
mod tests {
    use super::{FastHasher, FastMap};
    use std::hash::{BuildHasher, BuildHasherDefault};

    fn hash(s: &str) -> u64 {
        BuildHasherDefault::<FastHasher>::default().hash_one(s)
    }

    #[test]
    fn ids_differing_in_one_character_spread_over_buckets_and_tags() {
        // 4096 ids like the ones streams carry: the low 12 bits (bucket of a 4096-slot
        // table) and the top 7 bits (hashbrown's tag) must both be well spread.
        let mut low = std::collections::HashSet::new();
        let mut tags = std::collections::HashSet::new();
        for i in 0..4096 {
            let h = hash(&format!("msg-{i:06}-911ab0"));
            low.insert(h & 0xfff);
            tags.insert(h >> 57);
        }
        assert!(low.len() > 2400, "{} distinct buckets of 4096", low.len());
        assert_eq!(tags.len(), 128);
        assert_ne!(hash("a"), hash("a\0"));
        assert_ne!(hash(""), hash("\0"));
    }

    #[test]
    fn a_map_finds_what_it_holds() {
        let mut m: FastMap<String, usize> = FastMap::default();
        for i in 0..1000 {
            m.insert(format!("task-{i}"), i);
        }
        assert!((0..1000).all(|i| m.get(format!("task-{i}").as_str()) == Some(&i)));
        assert_eq!(m.get("task-1000"), None);
    }
}
