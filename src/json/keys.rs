//! The object keys of long-lived documents (a task's shared state, copied out of the events
//! that patch it), interned: one `&'static str` per distinct short key instead of one
//! allocation per member.
//!
//! A state document is mostly rows of the same few members (a dataset's 18,000 rows of
//! `date`, `amount`, `region`, `sku`, `qty` in the benchmark's medium stream): copying a patch
//! value into the document allocated every key of every row, which made the key copies about
//! half of all the allocations of an AG-UI stream. Keys are few and repeat; values do not
//! (they are not interned).
//!
//! The pool is bounded: at most [`MAX_KEYS`] keys of at most [`MAX_KEY_BYTES`] bytes each
//! (about 40 KB with the set), kept for the life of the program. Once it is full, or for a longer key, a key is copied as before: a stream that
//! sends thousands of distinct keys costs what it cost without the pool, never more memory.

use crate::hash::FastSet;
use std::borrow::Cow;
use std::sync::Mutex;

/// The most keys the pool keeps.
pub const MAX_KEYS: usize = 1024;

/// The longest key the pool keeps, in bytes.
pub const MAX_KEY_BYTES: usize = 32;

/// The pool: one per program (the wasm has one thread; natively the lock is uncontended). A
/// global, not a thread-local: what it holds stays reachable, which is what leak checkers (the
/// fuzz targets' LeakSanitizer) look for.
static POOL: Mutex<Option<FastSet<&'static str>>> = Mutex::new(None);

/// `key` detached from the text it came from: the pool's copy (shared, no allocation once
/// pooled) when it is short and the pool has room, else a copy of its own.
pub fn owned_key(key: &str) -> Cow<'static, str> {
    if key.len() <= MAX_KEY_BYTES {
        // (A poisoned lock, impossible without a panic inside, copies the key.)
        if let Ok(mut pool) = POOL.lock() {
            let pool = pool.get_or_insert_with(FastSet::default);
            if let Some(&k) = pool.get(key) {
                return Cow::Borrowed(k);
            }
            if pool.len() < MAX_KEYS {
                let k: &'static str = Box::leak(Box::from(key));
                pool.insert(k);
                return Cow::Borrowed(k);
            }
        }
    }
    Cow::Owned(key.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    // One test: the pool is the program's, and filling it is part of what is checked.
    #[test]
    fn keys_are_pooled_once_and_shared_until_the_pool_is_full() {
        let a = owned_key("region");
        let b = owned_key(&String::from("region"));
        match (&a, &b) {
            (Cow::Borrowed(x), Cow::Borrowed(y)) => assert!(std::ptr::eq(*x, *y)),
            _ => panic!("not pooled: {a:?} {b:?}"),
        }
        let long = "k".repeat(MAX_KEY_BYTES + 1);
        assert!(matches!(owned_key(&long), Cow::Owned(s) if s == long));
        for i in 0..MAX_KEYS {
            let _ = owned_key(&format!("fill-{i}"));
        }
        let extra = owned_key("not-in-the-full-pool");
        assert!(matches!(extra, Cow::Owned(s) if s == "not-in-the-full-pool"));
        // What was pooled stays shared.
        assert!(matches!(owned_key("region"), Cow::Borrowed(k) if std::ptr::eq(k, &*a)));
    }
}
