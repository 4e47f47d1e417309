//! `Table<T>`: values by string key in insertion order. One `FastMap<String, usize>` under every
//! table (the type the store already uses), so the hash map code is in the wasm once; and
//! iteration is in insertion order, so what the decoders emit never depends on hashing.

use crate::hash::FastMap;
use std::cell::Cell;

#[derive(Debug)]
pub(crate) struct Table<T> {
    index: FastMap<String, usize>,
    items: Vec<(String, T)>,
    /// The position the latest lookup found: consecutive events mostly name the same id (every
    /// text delta of a message), so one string comparison often replaces the hashing. It is
    /// only a hint, checked against the key there (keys are unique in `items`), so removals
    /// and reorders need not maintain it.
    last: Cell<usize>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table {
            index: FastMap::default(),
            items: Vec::new(),
            last: Cell::new(0),
        }
    }
}

impl<T> Table<T> {
    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    /// The position of `key` in `items`: the latest hit when it is that key, else the index's
    /// (no hashing at all for an empty table).
    fn position(&self, key: &str) -> Option<usize> {
        if self.items.is_empty() {
            return None;
        }
        let last = self.last.get();
        if self
            .items
            .get(last)
            .is_some_and(|(k, _)| crate::swar::same(k.as_bytes(), key.as_bytes()))
        {
            return Some(last);
        }
        let &i = self.index.get(key)?;
        self.last.set(i);
        Some(i)
    }

    pub(crate) fn contains(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    pub(crate) fn get(&self, key: &str) -> Option<&T> {
        let i = self.position(key)?;
        self.items.get(i).map(|(_, v)| v)
    }

    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut T> {
        let i = self.position(key)?;
        self.items.get_mut(i).map(|(_, v)| v)
    }

    /// Inserts or replaces.
    pub(crate) fn insert(&mut self, key: &str, value: T) {
        match self.position(key) {
            Some(i) => {
                if let Some(slot) = self.items.get_mut(i) {
                    slot.1 = value;
                }
            }
            None => {
                self.index.insert(key.to_owned(), self.items.len());
                self.items.push((key.to_owned(), value));
            }
        }
    }

    /// The value of `key`, inserted with `make` when missing (`None` never happens: the index
    /// only holds positions of the items).
    pub(crate) fn entry(&mut self, key: &str, make: impl FnOnce() -> T) -> Option<&mut T> {
        let i = match self.position(key) {
            Some(i) => i,
            None => {
                let i = self.items.len();
                self.index.insert(key.to_owned(), i);
                self.items.push((key.to_owned(), make()));
                i
            }
        };
        self.items.get_mut(i).map(|(_, v)| v)
    }

    pub(crate) fn remove(&mut self, key: &str) -> Option<T> {
        if self.items.is_empty() {
            return None; // (without hashing the key)
        }
        let i = self.index.remove(key)?;
        if i >= self.items.len() {
            return None;
        }
        let (_, v) = self.items.remove(i);
        for p in self.index.values_mut() {
            if *p > i {
                *p -= 1;
            }
        }
        Some(v)
    }

    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&str, &T) -> bool) {
        self.items.retain(|(k, v)| keep(k, v));
        self.index.clear();
        for (i, (k, _)) in self.items.iter().enumerate() {
            self.index.insert(k.clone(), i);
        }
    }

    /// Keeps the table bounded: past `max` entries, drops those `keep` rejects (finished
    /// ones); when more than `max / 2` are still left, the oldest go too, down to `max / 2`.
    /// So a stream of ever new ids costs amortised O(1) per entry and at most `max` entries,
    /// however many of them never finish.
    pub(crate) fn bound(&mut self, max: usize, keep: impl FnMut(&str, &T) -> bool) {
        if self.items.len() <= max {
            return;
        }
        self.retain(keep);
        // Then the oldest (they come first) down to `max / 2`.
        let mut excess = self.items.len().saturating_sub(max / 2);
        if excess > 0 {
            self.retain(|_, _| {
                let old = excess > 0;
                excess = excess.saturating_sub(1);
                !old
            });
        }
    }

    pub(crate) fn clear(&mut self) {
        self.items.clear();
        self.index.clear();
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &T)> {
        self.items.iter().map(|(k, v)| (k.as_str(), v))
    }

    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = (&str, &mut T)> {
        self.items.iter_mut().map(|(k, v)| (k.as_str(), v))
    }
}

#[cfg(test)]
mod tests {
    use super::Table;

    #[test]
    fn keeps_insertion_order_through_removals() {
        let mut t = Table::default();
        for (i, k) in ["a", "b", "c", "d"].iter().enumerate() {
            t.insert(k, i);
        }
        assert_eq!(t.remove("b"), Some(1));
        assert_eq!(t.get("c"), Some(&2));
        if let Some(e) = t.entry("e", || 9) {
            *e += 1;
        }
        t.retain(|k, _| k != "a");
        let keys: Vec<&str> = t.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["c", "d", "e"]);
        assert_eq!(
            (t.get("e"), t.len(), t.contains("a")),
            (Some(&10), 3, false)
        );
    }

    #[test]
    fn the_latest_hit_is_only_a_hint_removals_and_retain_do_not_mislead() {
        let mut t = Table::default();
        for (i, k) in ["a", "b", "c", "d"].iter().enumerate() {
            t.insert(k, i);
        }
        assert_eq!(t.get("c"), Some(&2)); // hint: position 2
        assert_eq!(t.remove("a"), Some(0)); // "d" is at position 2 now
        assert_eq!(
            (t.get("d"), t.get("c"), t.get("a")),
            (Some(&3), Some(&2), None)
        );
        assert_eq!(t.get("b"), Some(&1)); // hint: position 0
        t.retain(|k, _| k != "b"); // "c" is at position 0 now
        assert_eq!(
            (t.get("c"), t.contains("b"), t.get("d")),
            (Some(&2), false, Some(&3))
        );
        if let Some(v) = t.get_mut("d") {
            *v = 7;
        }
        t.insert("d", 8); // replaces, found by the hint
        t.insert("e", 9);
        let all: Vec<(&str, &usize)> = t.iter().collect();
        assert_eq!(all, [("c", &2), ("d", &8), ("e", &9)]);
        t.clear();
        assert_eq!((t.get("c"), t.contains(""), t.len()), (None, false, 0));
    }

    #[test]
    fn bound_drops_finished_entries_then_the_oldest() {
        let mut t = Table::default();
        for i in 0..10u32 {
            t.insert(&format!("k{i}"), i);
            t.bound(8, |_, v| v % 3 != 0); // multiples of 3 are "finished"
        }
        // At 9 entries: k0, k3, k6 dropped as finished (6 left), then the oldest two (k1, k2).
        let keys: Vec<&str> = t.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["k4", "k5", "k7", "k8", "k9"]);
        assert_eq!((t.get("k7"), t.contains("k1")), (Some(&7), false));
    }
}
