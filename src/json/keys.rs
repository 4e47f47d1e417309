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
//! (about 40 KB with the set), kept for the life of the program (one pool per thread: the wasm
//! has one). Once it is full, or for a longer key, a key is copied as before: a stream that
//! sends thousands of distinct keys costs what it cost without the pool, never more memory.

use crate::hash::FastSet;
use std::borrow::Cow;
use std::cell::RefCell;

/// The most keys the pool keeps.
pub const MAX_KEYS: usize = 1024;

/// The longest key the pool keeps, in bytes.
pub const MAX_KEY_BYTES: usize = 32;

thread_local! {
    static POOL: RefCell<FastSet<&'static str>> = RefCell::new(FastSet::default());
}

/// `key` detached from the text it came from: the pool's copy (shared, no allocation once
/// pooled) when it is short and the pool has room, else a copy of its own.
pub fn owned_key(key: &str) -> Cow<'static, str> {
    if key.len() <= MAX_KEY_BYTES {
        let pooled = POOL
            .try_with(|pool| {
                let mut pool = pool.try_borrow_mut().ok()?;
                if let Some(&k) = pool.get(key) {
                    return Some(k);
                }
                if pool.len() >= MAX_KEYS {
                    return None;
                }
                let k: &'static str = Box::leak(Box::from(key));
                pool.insert(k);
                Some(k)
            })
            .ok()
            .flatten();
        if let Some(k) = pooled {
            return Cow::Borrowed(k);
        }
    }
    Cow::Owned(key.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_key_is_pooled_once_and_shared() {
        let a = owned_key("region");
        let b = owned_key(&String::from("region"));
        match (&a, &b) {
            (Cow::Borrowed(x), Cow::Borrowed(y)) => assert!(std::ptr::eq(*x, *y)),
            _ => panic!("not pooled: {a:?} {b:?}"),
        }
    }

    #[test]
    fn a_long_key_and_a_full_pool_copy_the_key() {
        let long = "k".repeat(MAX_KEY_BYTES + 1);
        assert!(matches!(owned_key(&long), Cow::Owned(s) if s == long));
        // Fill this thread's pool (tests run on threads of their own).
        for i in 0..MAX_KEYS {
            let _ = owned_key(&format!("fill-{i}"));
        }
        let extra = owned_key("not-in-the-full-pool");
        assert!(matches!(extra, Cow::Owned(s) if s == "not-in-the-full-pool"));
        // What was pooled stays shared.
        assert!(matches!(owned_key("fill-0"), Cow::Borrowed("fill-0")));
    }
}
