//! `Table<T>`: values by string key in insertion order. One `HashMap<String, usize>` under every
//! table (the type the store already uses), so the hash map code is in the wasm once; and
//! iteration is in insertion order, so what the decoders emit never depends on hashing.

use std::collections::HashMap;

#[derive(Debug)]
pub(crate) struct Table<T> {
    index: HashMap<String, usize>,
    items: Vec<(String, T)>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table {
            index: HashMap::new(),
            items: Vec::new(),
        }
    }
}

impl<T> Table<T> {
    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    pub(crate) fn contains(&self, key: &str) -> bool {
        self.index.contains_key(key)
    }

    pub(crate) fn get(&self, key: &str) -> Option<&T> {
        let &i = self.index.get(key)?;
        self.items.get(i).map(|(_, v)| v)
    }

    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut T> {
        let &i = self.index.get(key)?;
        self.items.get_mut(i).map(|(_, v)| v)
    }

    /// Inserts or replaces.
    pub(crate) fn insert(&mut self, key: &str, value: T) {
        match self.index.get(key) {
            Some(&i) => {
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
        let i = match self.index.get(key) {
            Some(&i) => i,
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
}
