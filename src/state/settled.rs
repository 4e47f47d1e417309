//! Which finished tasks/artifacts to materialise ahead of the next snapshot read.
//!
//! The browser store builds a JavaScript object per task and artifact. Building them all when the
//! app reads the snapshot at the end of a long run is one long task (3,400 objects, 12 MB of JSON
//! for the benchmark's large stream), so the store builds the objects of *finished* entries
//! while the stream runs. [`SettledScan`] picks them: every entry is tracked from its creation
//! until its object is built; an entry is built once it is finished and its revision did not
//! change between two scans (a `task-complete` right after the final status would make an
//! object built at once stale). Open entries never block the ones behind them (a root task that
//! stays open for the whole run), and each scan looks at a bounded number of entries.
//! "Between two scans" means two building sessions ([`SettledScan::tick`]): scans within one see
//! the same state.

use std::collections::VecDeque;

/// Entries looked at per [`SettledScan::next`] call at most (round robin over the open ones).
const CHECKS_PER_SCAN: usize = 256;

/// Round-robin tracker of entries (by position) whose object is not built yet.
#[derive(Debug, Default)]
pub struct SettledScan {
    /// Positions below this were added to `open`.
    scanned: usize,
    /// Not yet built, oldest first, with the revision and generation at which a scan first saw
    /// it finished at that revision.
    open: VecDeque<(usize, Option<(u64, u64)>)>,
    /// Scans of the same generation see the same state (see [`SettledScan::tick`]).
    generation: u64,
    /// Entries checked since a scan last built something or saw something newly finished.
    fruitless: usize,
}

/// What one [`SettledScan::next`] call found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Picked {
    /// Positions to build now (finished, settled, object stale), oldest first.
    pub build: Vec<usize>,
    /// Finished entries wait to settle: scan again in a later session ([`SettledScan::tick`]).
    pub settling: bool,
    /// Some entries were not looked at since the last progress: another scan, even in this
    /// session, may find something to build.
    pub unseen: bool,
}

impl Picked {
    /// Whether a later scan may still build something.
    pub fn more(&self) -> bool {
        self.settling || self.unseen
    }
}

impl SettledScan {
    /// Starts a new generation: call it once before the scans of one building session (the
    /// state may have changed since the previous one). An entry counts as settled only when a
    /// scan of an earlier generation saw it finished at the same revision.
    pub fn tick(&mut self) {
        self.generation += 1;
    }

    /// Picks up to `budget` positions to build among `len` entries. `state(i)` gives entry
    /// `i`'s revision and whether it is finished; `fresh(i, rev)` whether its object is already
    /// built at that revision (such entries are done and dropped).
    pub fn next(
        &mut self,
        len: usize,
        state: impl Fn(usize) -> (u64, bool),
        fresh: impl Fn(usize, u64) -> bool,
        budget: usize,
    ) -> Picked {
        if self.scanned < len {
            self.open.extend((self.scanned..len).map(|i| (i, None)));
            self.scanned = len;
            self.fruitless = 0;
        }
        let mut picked = Picked::default();
        let mut pending = false;
        let checks = self.open.len().min(CHECKS_PER_SCAN);
        for _ in 0..checks {
            let Some((i, seen)) = self.open.pop_front() else {
                break;
            };
            if i >= len {
                continue; // (positions only grow; defensive)
            }
            let (rev, finished) = state(i);
            if finished && fresh(i, rev) {
                continue;
            }
            let seen = match seen {
                _ if !finished => None,
                Some((r, g)) if r == rev => {
                    if g < self.generation && picked.build.len() < budget {
                        picked.build.push(i);
                        continue;
                    }
                    pending = true;
                    Some((r, g))
                }
                _ => {
                    pending = true;
                    self.fruitless = 0;
                    Some((rev, self.generation))
                }
            };
            self.open.push_back((i, seen));
        }
        if !picked.build.is_empty() {
            self.fruitless = 0;
        } else {
            self.fruitless = self.fruitless.saturating_add(checks);
        }
        picked.settling = pending;
        picked.unseen = self.fruitless < self.open.len();
        picked
    }

    /// Entries not built yet.
    pub fn open(&self) -> usize {
        self.open.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (revision, finished) per entry; `built` holds the revision each object was built at.
    struct World {
        entries: Vec<(u64, bool)>,
        built: Vec<Option<u64>>,
    }

    impl World {
        /// Entries `(revision, finished)`, no object built yet; and a fresh scan.
        fn new(entries: Vec<(u64, bool)>) -> (World, SettledScan) {
            let built = Vec::new();
            (World { entries, built }, SettledScan::default())
        }

        fn scan(&mut self, s: &mut SettledScan, budget: usize) -> Picked {
            s.tick();
            let p = s.next(
                self.entries.len(),
                |i| self.entries[i],
                |i, r| self.built.get(i).copied().flatten() == Some(r),
                budget,
            );
            self.built.resize(self.entries.len(), None);
            for &i in &p.build {
                self.built[i] = Some(self.entries[i].0);
            }
            p
        }
    }

    #[test]
    fn finished_entries_build_once_settled_and_open_ones_do_not_block_the_rest() {
        // Entry 0 stays open the whole run (a root task); 1..300 finish.
        let (mut w, mut s) = World::new(vec![(1, false)]);
        w.entries.extend((1..300).map(|_| (5, true)));
        let first = w.scan(&mut s, usize::MAX);
        assert!(first.build.is_empty(), "nothing is built on first sight");
        assert!(first.settling);
        let mut built = 0;
        for _ in 0..4 {
            built += w.scan(&mut s, usize::MAX).build.len();
        }
        assert_eq!(
            built, 299,
            "every finished entry behind the open one is built"
        );
        assert_eq!(s.open(), 1, "only the open entry is still tracked");
        assert!(w.built[0].is_none());
    }

    #[test]
    fn an_entry_that_changed_since_the_last_scan_waits_again() {
        let (mut w, mut s) = World::new(vec![(1, true)]);
        w.scan(&mut s, 8);
        w.entries[0].0 = 2; // task-complete right after the final status
        assert!(w.scan(&mut s, 8).build.is_empty());
        assert_eq!(w.scan(&mut s, 8).build, vec![0]);
        assert_eq!(w.built[0], Some(2));
        assert_eq!(s.open(), 0);
    }

    #[test]
    fn the_budget_and_the_checks_per_scan_bound_each_call() {
        let (mut w, mut s) = World::new((0..1000).map(|_| (1, true)).collect());
        let mut calls = 0;
        let mut total = 0;
        while total < 1000 {
            let p = w.scan(&mut s, 50);
            assert!(p.build.len() <= 50);
            total += p.build.len();
            calls += 1;
            assert!(calls < 100, "progress stalled at {total}");
        }
        assert!(w.built.iter().all(|b| *b == Some(1)));
    }

    #[test]
    fn entries_built_by_a_read_are_dropped_without_building_again() {
        let (mut w, mut s) = World::new(vec![(3, true), (3, true)]);
        w.built = vec![Some(3), None];
        w.scan(&mut s, 8);
        assert_eq!(w.scan(&mut s, 8).build, vec![1]);
        assert_eq!(s.open(), 0);
    }

    #[test]
    fn scans_within_one_generation_do_not_settle_an_entry() {
        // Seen finished for the first time: a second scan of the same session (nothing could
        // have changed in between) must not count as "unchanged since the last scan".
        let (mut w, mut s) = World::new(vec![(7, true)]);
        s.tick();
        let a = s.next(1, |i| w.entries[i], |_, _| false, 8);
        let b = s.next(1, |i| w.entries[i], |_, _| false, 8);
        assert!(a.build.is_empty() && b.build.is_empty());
        assert!(b.settling);
        w.entries[0].0 = 8; // task-complete in the next chunk
        assert!(w.scan(&mut s, 8).build.is_empty(), "changed: waits again");
        assert_eq!(w.scan(&mut s, 8).build, vec![0]);
        assert_eq!(w.built[0], Some(8));
    }

    #[test]
    fn finished_entries_behind_many_open_ones_are_reached_and_then_scanning_stops() {
        // 300 entries that never finish, then 10 finished ones: scanning continues until
        // every entry was looked at, builds the 10, then reports nothing left to do.
        let (mut w, mut s) = World::new((0..300).map(|_| (1, false)).collect());
        w.entries.extend((0..10).map(|_| (1, true)));
        let mut built = 0;
        let mut rounds = 0;
        loop {
            let p = w.scan(&mut s, 32);
            built += p.build.len();
            rounds += 1;
            if !p.more() && p.build.is_empty() {
                break;
            }
            assert!(rounds < 20, "never settles down");
        }
        assert_eq!(built, 10);
        assert_eq!(s.open(), 300);
    }
}
