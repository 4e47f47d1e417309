//! Recognising replayed events by their SSE id, in bounded memory.

use crate::hash::FastSet;
use std::collections::VecDeque;
use std::hash::{DefaultHasher, Hash, Hasher};

/// Longer ids are remembered by their hash.
pub const MAX_KEPT_ID_BYTES: usize = 64;

/// The SSE ids of recently applied events (the last `window`), plus, for numeric ids, a floor:
/// once a numeric id leaves the window, every numeric id at or below it counts as seen. That
/// catches a server that ignores `Last-Event-ID` and replays a long stream from the start.
/// An id longer than `MAX_KEPT_ID_BYTES` (64) is remembered by a 64-bit hash, so the memory is
/// bounded by the window whatever the ids (an SSE id can be as long as a line).
///
/// Fast path: while every id so far was a number larger than the one before (what servers
/// send), the window is a sorted run: a new id costs one comparison and a push, no hashing; a
/// replay inside the window is a binary search. The first id that breaks the run (not a
/// number, or a smaller number not seen) moves the window into the general sets for good.
#[derive(Debug, Default)]
pub struct SeenIds {
    window: usize,
    numbers: FastSet<u64>,
    strings: FastSet<String>,
    hashes: FastSet<u64>,
    order: VecDeque<Key>,
    floor: Option<u64>,
    /// The window while the ids are increasing numbers (`order` is empty until `general`).
    run: VecDeque<u64>,
    general: bool,
}

#[derive(Debug)]
enum Key {
    Num(u64),
    Str(String),
    Hash(u64),
}

pub(crate) fn hash_of(id: &str) -> u64 {
    let mut h = DefaultHasher::new();
    id.hash(&mut h);
    h.finish()
}

fn as_number(id: &str) -> Option<u64> {
    if id.is_empty()
        || id.len() > 18
        || (id.len() > 1 && id.starts_with('0'))
        || !id.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    id.parse().ok()
}

impl SeenIds {
    /// Remembers up to `window` ids.
    pub fn new(window: usize) -> Self {
        SeenIds {
            window,
            ..SeenIds::default()
        }
    }

    /// Adds `id`; returns `false` when it was already seen.
    pub fn insert(&mut self, id: &str) -> bool {
        if self.window == 0 {
            return true;
        }
        let number = as_number(id);
        if !self.general {
            if let Some(n) = number {
                if self.floor.is_some_and(|f| n <= f) {
                    return false;
                }
                if self.run.back().is_none_or(|&last| n > last) {
                    self.run.push_back(n);
                    if self.run.len() > self.window {
                        if let Some(out) = self.run.pop_front() {
                            self.floor = Some(self.floor.map_or(out, |f| f.max(out)));
                        }
                    }
                    return true;
                }
                if self.run.binary_search(&n).is_ok() {
                    return false;
                }
            }
            // The run is broken: the general sets take over (the floor stays).
            self.general = true;
            for n in std::mem::take(&mut self.run) {
                self.numbers.insert(n);
                self.order.push_back(Key::Num(n));
            }
        }
        let key = match number {
            Some(n) => {
                if self.floor.is_some_and(|f| n <= f) || !self.numbers.insert(n) {
                    return false;
                }
                Key::Num(n)
            }
            None if id.len() > MAX_KEPT_ID_BYTES => {
                let h = hash_of(id);
                if !self.hashes.insert(h) {
                    return false;
                }
                Key::Hash(h)
            }
            None => {
                if self.strings.contains(id) {
                    return false;
                }
                self.strings.insert(id.to_owned());
                Key::Str(id.to_owned())
            }
        };
        self.order.push_back(key);
        while self.order.len() > self.window {
            match self.order.pop_front() {
                Some(Key::Num(n)) => {
                    self.numbers.remove(&n);
                    self.floor = Some(self.floor.map_or(n, |f| f.max(n)));
                }
                Some(Key::Str(s)) => {
                    self.strings.remove(&s);
                }
                Some(Key::Hash(h)) => {
                    self.hashes.remove(&h);
                }
                None => break,
            }
        }
        true
    }

    /// Ids currently remembered.
    pub fn len(&self) -> usize {
        self.order.len() + self.run.len()
    }

    /// `true` when nothing is remembered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::SeenIds;

    #[test]
    fn replays_are_recognised_in_bounded_memory() {
        let mut s = SeenIds::new(4);
        for id in ["1", "2", "a", "3"] {
            assert!(s.insert(id));
        }
        assert!(!s.insert("2"));
        assert!(!s.insert("a"));
        for id in ["4", "5", "6"] {
            assert!(s.insert(id));
        }
        assert_eq!(s.len(), 4);
        // "1" and "2" left the window but stay below the numeric floor.
        assert!(!s.insert("1"));
        assert!(!s.insert("2"));
        // Shuffled delivery inside the window is fine.
        assert!(s.insert("8"));
        assert!(s.insert("7"));
        // Non-canonical numbers are plain strings.
        assert!(s.insert("007"));
    }

    #[test]
    fn long_ids_are_remembered_by_hash() {
        let mut s = SeenIds::new(2);
        let long = "x".repeat(super::MAX_KEPT_ID_BYTES + 1);
        let other = "y".repeat(100_000);
        assert!(s.insert(&long));
        assert!(!s.insert(&long));
        assert!(s.insert(&other));
        assert!(!s.insert(&other));
        assert!(s.insert("a"));
        assert!(s.insert(&long), "left the window");
        assert_eq!(s.len(), 2);
    }

    /// The increasing-number fast path and the general sets agree on every sequence.
    #[test]
    fn fast_path_matches_the_general_sets() {
        let seqs: &[&[&str]] = &[
            &["1", "2", "3", "2", "4", "1", "9", "5", "9", "10"],
            &["1", "2", "3", "4", "5", "6", "3", "7", "x", "7", "x", "8"],
            &["5", "6", "7", "1", "2", "8", "1", "6"],
            &["a", "1", "2", "a", "1"],
            &["10", "20", "15", "15", "30", "20", "25"],
            &["1", "3", "2", "3", "1", "4"],
        ];
        for window in [1, 2, 3, 4, 100] {
            for seq in seqs {
                let mut fast = SeenIds::new(window);
                let mut general = SeenIds::new(window);
                general.general = true;
                for id in seq.iter() {
                    assert_eq!(
                        fast.insert(id),
                        general.insert(id),
                        "id {id} of {seq:?}, window {window}"
                    );
                    assert_eq!(fast.len(), general.len());
                }
            }
        }
    }
}
