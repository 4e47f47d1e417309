//! Member lookups in big objects without a scan, kept from patch to patch
//! ([`MemberIndex`], for [`super::apply_indexed`]).
//!
//! Objects are member lists in document order ([`Value::Object`]), so finding `/tasks/<id>`
//! scans the `tasks` object: a stream that patches one member of an object of n members n
//! times costs O(n²) (the AG-UI large preset's state has ~1,900 tasks). The index maps the
//! hash of each key of a big object to the position of the last member with that hash, so a
//! lookup is a hash, one probe and one key comparison to confirm it; the document itself, its
//! member order and the lookup rule (the last of a repeated key) are unchanged.
//!
//! # Which object an index belongs to, and when it is dropped
//!
//! An object is known by the address and length of its member buffer. That address does not
//! change when the object itself moves (inside an array that shifts, or with `move`), and the
//! changes that do change it are all made here, each followed by a hook:
//! - a member appended (`add` of a new key): [`MemberIndex::pushed`] records it (the buffer may
//!   have moved: the index follows);
//! - a member inserted or removed anywhere else (`remove`, undoing): [`MemberIndex::changed`]
//!   drops that object's index;
//! - a value that leaves the document (replaced, removed; `move` keeps it in the document):
//!   [`MemberIndex::forget_within`] drops the index of every object inside it, before its
//!   buffers are freed and their addresses can be reused;
//! - an undone patch or a replaced root: [`MemberIndex::clear`].
//!
//! An index is built from the object as it is, the second time a lookup scans it (one lookup
//! in a big object costs a scan, as before). A hash shared by two keys (the index holds the
//! later one) only costs a scan: a hit is confirmed by comparing the key, and a miss is
//! exact (no member has that hash). So hostile keys (chosen to collide) cost what every
//! lookup cost before this index, never a wrong answer.
//!
//! Whoever keeps a `MemberIndex` next to a document must clear it when the document is
//! replaced or changed other than through [`super::apply_indexed`] (the store does, for
//! `state-snapshot`).

use crate::hash::{FastHasher, FastMap};
use crate::json::Value;
use std::borrow::Cow;
use std::hash::{BuildHasher, BuildHasherDefault};

/// Objects with fewer members are scanned: a few comparisons cost less than hashing.
pub(super) const MIN_MEMBERS: usize = 32;

/// Objects indexed at once per document (the oldest index goes first).
const MAX_OBJECTS: usize = 8;

/// The member indexes of one document's big objects (32 members or more): key hash → position
/// of the last member with that hash, so finding `/tasks/<id>` among n tasks is one hash
/// lookup and one key comparison instead of a scan. An object is known by the address and
/// length of its member buffer; every change [`apply_indexed`](super::apply_indexed) makes
/// that could make an index stale (a member removed, a value replaced or removed, an undone
/// patch) drops the indexes concerned. Two keys with one hash cost a scan, never a wrong
/// answer.
///
/// Keep one per document and pass it to every `apply_indexed` of that document; clear it (or
/// make a new one) when the document is replaced or changed by other means.
#[derive(Debug, Default)]
pub struct MemberIndex {
    objects: Vec<Indexed>,
    /// The big object scanned last (address, length): scanned again, it gets an index.
    candidate: (usize, usize),
    /// The undo log's trail buffer, kept between patches (empty).
    pub(super) trail: Vec<usize>,
    /// Lookups answered by an index (the tests check that the indexes were used).
    #[cfg(test)]
    hits: usize,
}

#[derive(Debug)]
struct Indexed {
    ptr: usize,
    len: usize,
    /// Key hash → position of the last member with a key of that hash.
    at: FastMap<u64, usize>,
}

/// The position of `key` among `entries` as lookups see it (the last one), by scanning.
pub(super) fn key_position<V>(entries: &[(Cow<'_, str>, V)], key: &str) -> Option<usize> {
    entries.iter().rposition(|(k, _)| k == key)
}

fn hash(key: &str) -> u64 {
    BuildHasherDefault::<FastHasher>::default().hash_one(key)
}

fn id<V>(entries: &[(Cow<'_, str>, V)]) -> (usize, usize) {
    (entries.as_ptr() as usize, entries.len())
}

impl MemberIndex {
    /// Drops every index (the document was replaced, or a patch undone).
    pub fn clear(&mut self) {
        self.objects.clear();
    }

    /// The position of `key` among `entries` as lookups see it (the last one), as
    /// [`key_position`] finds it by scanning.
    pub(super) fn position<V>(
        &mut self,
        entries: &[(Cow<'_, str>, V)],
        key: &str,
    ) -> Option<usize> {
        if entries.len() < MIN_MEMBERS {
            return key_position(entries, key);
        }
        let me = id(entries);
        let found = match self.objects.iter().position(|o| (o.ptr, o.len) == me) {
            Some(i) => self.objects.get(i),
            None if self.candidate == me => {
                let mut at = FastMap::with_capacity_and_hasher(entries.len(), Default::default());
                for (i, (k, _)) in entries.iter().enumerate() {
                    at.insert(hash(k), i);
                }
                if self.objects.len() >= MAX_OBJECTS {
                    self.objects.remove(0);
                }
                self.objects.push(Indexed {
                    ptr: me.0,
                    len: me.1,
                    at,
                });
                self.objects.last()
            }
            None => {
                self.candidate = me;
                return key_position(entries, key);
            }
        };
        #[cfg(test)]
        {
            self.hits += 1;
        }
        let at = *found?.at.get(&hash(key))?;
        if entries.get(at).is_some_and(|(k, _)| k == key) {
            Some(at)
        } else {
            // Another key with the same hash: scan.
            key_position(entries, key)
        }
    }

    /// A member was appended to the object whose buffer was `before` (address, length) and
    /// is `entries` now.
    pub(super) fn pushed<V>(&mut self, before: (usize, usize), entries: &[(Cow<'_, str>, V)]) {
        let Some(o) = self.objects.iter_mut().find(|o| (o.ptr, o.len) == before) else {
            return;
        };
        let Some((key, _)) = entries.last() else {
            return;
        };
        (o.ptr, o.len) = id(entries);
        o.at.insert(hash(key), entries.len() - 1);
    }

    /// A member of the object at address `ptr` was inserted or removed other than at its end.
    pub(super) fn changed<V>(&mut self, entries: &[(Cow<'_, str>, V)]) {
        let ptr = entries.as_ptr() as usize;
        self.objects.retain(|o| o.ptr != ptr);
    }

    /// `v` leaves the document: the indexes of the objects in it go (their buffers will be
    /// freed, and a new object could get the same address and length).
    pub(super) fn forget_within(&mut self, v: &Value<'_>) {
        if self.objects.is_empty() || !matches!(v, Value::Array(_) | Value::Object(_)) {
            return;
        }
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            match v {
                Value::Object(entries) => {
                    if entries.len() >= MIN_MEMBERS {
                        self.changed(entries);
                    }
                    stack.extend(entries.iter().map(|(_, v)| v));
                }
                Value::Array(items) => stack.extend(items.iter()),
                _ => {}
            }
        }
    }

    /// `before` of an object about to be appended to.
    pub(super) fn id_of<V>(entries: &[(Cow<'_, str>, V)]) -> (usize, usize) {
        id(entries)
    }
}

#[cfg(test)]
impl MemberIndex {
    /// How many objects have an index.
    pub(super) fn indexed(&self) -> usize {
        self.objects.len()
    }

    /// How many lookups an index answered.
    pub(super) fn hits(&self) -> usize {
        self.hits
    }
}

#[cfg(test)]
mod tests {
    use super::MemberIndex;
    use crate::json::patch::{apply, apply_indexed};
    use crate::json::{parse, OwnedValue};

    /// xorshift64*: a fixed sequence, so a failure replays.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// An object of `n` members `k0`..`k{n-1}`, starting at `k{rot}` (objects of one length
    /// with their keys in other places: a freed object's address reused by another of the
    /// same length must not find the old positions), `dup`: one key twice.
    fn big(n: usize, rot: usize, dup: bool) -> String {
        let mut members: Vec<String> = (0..n)
            .map(|i| (i + rot) % n)
            .map(|i| format!(r#""k{i}":{{"s":{i}}}"#))
            .collect();
        if dup {
            // A repeated key: lookups see the later one, removal takes both.
            members.push(r#""k5":{"s":"again"}"#.to_owned());
        }
        format!("{{{}}}", members.join(","))
    }

    /// One random patch over objects of 32+ members (indexed), with keys that exist, keys
    /// that do not, moves between and inside objects, copies, tests, whole objects replaced
    /// or removed and re-added, and patches whose last operation fails (undone).
    fn random_patch(r: &mut Rng) -> String {
        let obj = |r: &mut Rng| ["/a", "/b", "/arr/0", "/arr/1"][r.below(4) as usize];
        let key = |r: &mut Rng| format!("k{}", r.below(64));
        let mut ops = Vec::new();
        for _ in 0..=r.below(3) {
            let (o, k) = (obj(r), key(r));
            let op = match r.below(28) {
                0..=5 | 16 | 17 | 24..=27 => format!(
                    r#"{{"op":"add","path":"{o}/{k}","value":{{"s":{}}}}}"#,
                    r.below(9)
                ),
                6..=9 => format!(r#"{{"op":"replace","path":"{o}/{k}/s","value":"x"}}"#),
                10 | 11 => format!(r#"{{"op":"remove","path":"{o}/{k}"}}"#),
                12 | 13 => format!(
                    r#"{{"op":"move","from":"{o}/{k}","path":"{}/{}"}}"#,
                    obj(r),
                    key(r)
                ),
                14 => format!(
                    r#"{{"op":"copy","from":"{o}/{k}","path":"{}/{}"}}"#,
                    obj(r),
                    key(r)
                ),
                15 => format!(
                    r#"{{"op":"test","path":"{o}/{k}","value":{{"s":{}}}}}"#,
                    r.below(9)
                ),
                18 => format!(r#"{{"op":"move","from":"{o}","path":"/c{}"}}"#, r.below(2)),
                19 => format!(r#"{{"op":"move","from":"/c{}","path":"{o}"}}"#, r.below(2)),
                20 => format!(r#"{{"op":"copy","from":"{}","path":"{o}"}}"#, obj(r)),
                21 => format!(
                    r#"{{"op":"add","path":"/arr/{}","value":{}}}"#,
                    r.below(2),
                    big(40, r.below(40) as usize, false)
                ),
                22 => format!(r#"{{"op":"remove","path":"{o}"}}"#),
                _ => format!(
                    r#"{{"op":"add","path":"{o}","value":{}}}"#,
                    big(50, r.below(50) as usize, true)
                ),
            };
            ops.push(op);
        }
        if r.below(30) == 0 {
            ops.push(r#"{"op":"test","path":"","value":0}"#.to_owned());
        }
        format!("[{}]", ops.join(","))
    }

    #[test]
    fn indexed_lookups_give_exactly_what_scans_give_patch_after_patch() {
        let text = format!(
            r#"{{"a":{},"b":{},"arr":[{},{}],"small":{{"x":1}}}}"#,
            big(60, 0, true),
            big(45, 7, false),
            big(33, 0, true),
            big(70, 0, false)
        );
        for seed in 1..=12u64 {
            let mut r = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
            let mut kept: OwnedValue = parse(&text).map(|v| v.into_owned()).unwrap_or_default();
            let mut plain = kept.clone();
            let mut index = MemberIndex::default();
            for step in 0..1500 {
                let p = random_patch(&mut r);
                let patch = parse(&p).unwrap_or_default();
                let a = apply_indexed(&mut kept, &patch, &mut index);
                let b = apply(&mut plain, &patch);
                assert_eq!(a, b, "seed {seed} step {step}: {p}");
                assert!(kept == plain, "seed {seed} step {step}: {p}");
            }
            assert!(
                index.hits() > 300,
                "seed {seed}: {} lookups by index",
                index.hits()
            );
        }
    }

    #[test]
    fn an_index_goes_with_its_object_and_only_with_it() {
        let mut doc: OwnedValue = parse(&format!(r#"{{"a":{},"small":{{}}}}"#, big(40, 0, false)))
            .map(|v| v.into_owned())
            .unwrap_or_default();
        let mut index = MemberIndex::default();
        let run = |doc: &mut OwnedValue, index: &mut MemberIndex, p: &str| {
            let patch = parse(p).unwrap_or_default();
            apply_indexed(doc, &patch, index).is_ok()
        };
        let touch = r#"[{"op":"replace","path":"/a/k1/s","value":1}]"#;
        let build = |doc: &mut OwnedValue, index: &mut MemberIndex| {
            for _ in 0..2 {
                let patch = parse(touch).unwrap_or_default();
                assert!(apply_indexed(doc, &patch, index).is_ok());
            }
            assert_eq!(index.indexed(), 1);
        };
        build(&mut doc, &mut index);
        // Replaced, removed: the index goes (the buffer is freed; its address may come back).
        let other = format!(
            r#"[{{"op":"replace","path":"/a","value":{}}}]"#,
            big(40, 3, false)
        );
        assert!(run(&mut doc, &mut index, &other));
        assert_eq!(index.indexed(), 0);
        build(&mut doc, &mut index);
        assert!(run(
            &mut doc,
            &mut index,
            r#"[{"op":"add","path":"/small/x","value":1}]"#
        ));
        assert_eq!(index.indexed(), 1, "a change elsewhere keeps it");
        assert!(run(
            &mut doc,
            &mut index,
            r#"[{"op":"remove","path":"/a/k7"}]"#
        ));
        assert_eq!(index.indexed(), 0, "a member removed: the positions moved");
        build(&mut doc, &mut index);
        // Moved: it stays (same buffer) and keeps answering, appended to included.
        let hits = index.hits();
        assert!(run(
            &mut doc,
            &mut index,
            r#"[{"op":"move","from":"/a","path":"/c"}]"#
        ));
        assert!(run(
            &mut doc,
            &mut index,
            r#"[{"op":"add","path":"/c/new","value":2}]"#
        ));
        assert!(run(
            &mut doc,
            &mut index,
            r#"[{"op":"test","path":"/c/new","value":2}]"#
        ));
        assert_eq!(index.indexed(), 1);
        assert!(index.hits() >= hits + 2);
        // Inside a removed value: it goes too.
        assert!(run(
            &mut doc,
            &mut index,
            r#"[{"op":"move","from":"/c","path":"/small/c"}]"#
        ));
        assert_eq!(index.indexed(), 1);
        assert!(run(
            &mut doc,
            &mut index,
            r#"[{"op":"remove","path":"/small"}]"#
        ));
        assert_eq!(index.indexed(), 0);
        // A failed patch (undone): all go.
        let mut doc: OwnedValue = parse(&format!(r#"{{"a":{}}}"#, big(40, 0, false)))
            .map(|v| v.into_owned())
            .unwrap_or_default();
        build(&mut doc, &mut index);
        assert!(!run(
            &mut doc,
            &mut index,
            r#"[{"op":"add","path":"/a/z","value":1},{"op":"test","path":"/a/z","value":0}]"#
        ));
        assert_eq!(index.indexed(), 0);
    }
}
