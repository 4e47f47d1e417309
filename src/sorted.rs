//! Sorting short lists of strings without the standard library's sort.
//!
//! `slice::sort` brings its whole merge/quick sort machinery (~4 KB of wasm per element type);
//! the few lists agentwire sorts (event names, redacted keys, a task's open inputs) are short,
//! so a binary-search insertion (O(n log n) comparisons, O(n²) moves of 12-byte `String`
//! headers) costs nothing measurable and keeps the wasm smaller.

/// The strings in ascending byte order, duplicates removed.
pub(crate) fn sorted_unique(items: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut out = Vec::new();
    for s in items {
        insert_unique(&mut out, s);
    }
    out
}

/// Inserts `s` at its place in the sorted `v`, unless it is already there.
fn insert_unique(v: &mut Vec<String>, s: String) {
    if let Err(at) = v.binary_search(&s) {
        v.insert(at, s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_and_removes_duplicates_like_sort_and_dedup() {
        let words = ["token", "b", "", "a", "token", "é", "Z", "b", "aa"];
        let mut expected: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        expected.sort();
        expected.dedup();
        let got = sorted_unique(words.iter().map(|w| w.to_string()));
        assert_eq!(got, expected);
        assert!(sorted_unique(Vec::new()).is_empty());
    }
}
