//! Ordering of chunked streams (content deltas, file chunks, dataset batches): chunks that
//! arrive early are held in a bounded window and applied in index order; duplicates are
//! recognised; gaps that never fill are reported and skipped so what is known still shows.

use std::collections::VecDeque;

/// What happened to a pushed chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Admit {
    /// It was the next one: apply it now (then call [`Sequencer::pop_ready`] until empty).
    Apply,
    /// It arrived early and is held.
    Held,
    /// Its index was already applied (or is already held).
    Duplicate,
    /// It comes after the chunk marked complete.
    AfterComplete,
}

/// Orders one chunked stream. `T` is the held payload (owned copy of an early chunk).
#[derive(Debug)]
pub(crate) struct Sequencer<T> {
    next: u64,
    /// Held chunks sorted by index: (index, payload, complete). A sorted deque rather than a
    /// BTreeMap: the window is small (`Limits::max_pending_chunks`), the in-order case never
    /// touches it, and each BTreeMap instance costs ~4 KB of wasm.
    pending: VecDeque<(u64, T, bool)>,
    /// Index of the chunk flagged `complete: true`, once seen.
    last: Option<u64>,
    /// Held chunks dropped because the final chunk came with a lower index (not yet reported).
    dropped_after_final: usize,
}

impl<T> Default for Sequencer<T> {
    fn default() -> Self {
        Sequencer {
            next: 0,
            pending: VecDeque::new(),
            last: None,
            dropped_after_final: 0,
        }
    }
}

/// A range of chunk indices that never arrived: `from..=to`.
pub(crate) type Gap = (u64, u64);

impl<T> Sequencer<T> {
    /// The next index expected.
    pub(crate) fn next_index(&self) -> u64 {
        self.next
    }

    /// Whether the final chunk (flagged complete) has been applied.
    pub(crate) fn is_complete(&self) -> bool {
        self.last.is_some_and(|l| self.next > l)
    }

    /// Whether the chunk flagged complete has been seen (applied or held).
    pub(crate) fn has_final(&self) -> bool {
        self.last.is_some()
    }

    /// Number of held chunks.
    pub(crate) fn held(&self) -> usize {
        self.pending.len()
    }

    /// Admits chunk `index`; `make` builds the owned payload only when it has to be held.
    /// `complete` marks the stream's final chunk.
    pub(crate) fn push(&mut self, index: u64, complete: bool, make: impl FnOnce() -> T) -> Admit {
        let at = match self.verdict(index, complete) {
            Ok(at) => at,
            Err(refused) => return refused,
        };
        if complete {
            // Before the insertion: it only drops held chunks after `index`, all behind `at`.
            self.set_last(index);
        }
        match at {
            None => {
                self.next += 1;
                Admit::Apply
            }
            Some(at) => {
                self.pending.insert(at, (index, make(), complete));
                Admit::Held
            }
        }
    }

    /// Whether chunk `index` would be applied or held (not refused as a duplicate or as
    /// coming after the final chunk): only such a chunk may set the stream's metadata.
    pub(crate) fn accepts(&self, index: u64, complete: bool) -> bool {
        self.verdict(index, complete).is_ok()
    }

    /// What [`Sequencer::push`] does with chunk `index`, without doing it: `Ok(None)` apply it
    /// now, `Ok(Some(at))` hold it at position `at`, `Err` refuse it as a duplicate or as
    /// coming after the final chunk.
    fn verdict(&self, index: u64, complete: bool) -> Result<Option<usize>, Admit> {
        if let Some(last) = self.last {
            if index > last || (complete && index != last) {
                return Err(Admit::AfterComplete);
            }
        }
        if index < self.next {
            return Err(Admit::Duplicate);
        }
        if index == self.next {
            return Ok(None);
        }
        match self.pending.binary_search_by_key(&index, |p| p.0) {
            Ok(_) => Err(Admit::Duplicate),
            Err(at) => Ok(Some(at)),
        }
    }

    /// Marks `index` as the final chunk. Chunks held with a higher index came after the end:
    /// they are dropped, as they would have been refused had they arrived after it (counted
    /// for [`Sequencer::take_dropped`]).
    fn set_last(&mut self, index: u64) {
        self.last = Some(index);
        let keep = self.pending.partition_point(|p| p.0 <= index);
        self.dropped_after_final += self.pending.len() - keep;
        self.pending.truncate(keep);
    }

    /// How many held chunks the final chunk dropped since the last call (then 0).
    pub(crate) fn take_dropped(&mut self) -> usize {
        std::mem::take(&mut self.dropped_after_final)
    }

    /// The next held chunk that is now in order, if any.
    pub(crate) fn pop_ready(&mut self) -> Option<T> {
        if self.pending.front()?.0 != self.next {
            return None;
        }
        let (_, item, _) = self.pending.pop_front()?;
        self.next += 1;
        Some(item)
    }

    /// Gives up on the missing chunks before the first held one: returns the gap, and the
    /// held chunks become applicable (call [`Sequencer::pop_ready`]).
    pub(crate) fn skip_gap(&mut self) -> Option<Gap> {
        let first = self.pending.front()?.0;
        if first <= self.next {
            return None;
        }
        let gap = (self.next, first - 1);
        self.next = first;
        Some(gap)
    }

    /// After draining: the indices still missing before the chunk flagged complete.
    pub(crate) fn trailing_gap(&self) -> Option<Gap> {
        match self.last {
            Some(last) if self.pending.is_empty() && self.next <= last => Some((self.next, last)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(s: &mut Sequencer<u64>, out: &mut Vec<u64>) {
        while let Some(x) = s.pop_ready() {
            out.push(x);
        }
    }

    #[test]
    fn reorders_within_the_window_and_ignores_duplicates() {
        let mut s = Sequencer::default();
        let mut out = Vec::new();
        for (i, c) in [
            (0u64, false),
            (2, false),
            (1, false),
            (1, false),
            (4, true),
            (3, false),
        ] {
            match s.push(i, c, || i) {
                Admit::Apply => {
                    out.push(i);
                    drain(&mut s, &mut out);
                }
                Admit::Held => {}
                Admit::Duplicate => assert_eq!(i, 1),
                Admit::AfterComplete => panic!("unexpected"),
            }
        }
        assert_eq!(out, vec![0, 1, 2, 3, 4]);
        assert!(s.is_complete());
        assert_eq!(s.push(5, false, || 5), Admit::AfterComplete);
        assert_eq!(s.push(2, true, || 2), Admit::AfterComplete);
    }

    #[test]
    fn gaps_are_skipped_and_reported() {
        let mut s = Sequencer::default();
        let mut out = Vec::new();
        assert_eq!(s.push(0, false, || 0), Admit::Apply);
        out.push(0);
        assert_eq!(s.push(3, false, || 3), Admit::Held);
        assert_eq!(s.push(5, true, || 5), Admit::Held);
        assert_eq!(s.held(), 2);
        assert_eq!(s.skip_gap(), Some((1, 2)));
        drain(&mut s, &mut out);
        assert_eq!(s.skip_gap(), Some((4, 4)));
        drain(&mut s, &mut out);
        assert_eq!(out, vec![0, 3, 5]);
        assert!(s.is_complete());
        assert_eq!(s.trailing_gap(), None);
        let mut t: Sequencer<u64> = Sequencer::default();
        assert_eq!(t.push(0, false, || 0), Admit::Apply);
        assert_eq!(t.push(3, true, || 3), Admit::Held);
        assert_eq!(t.skip_gap(), Some((1, 2)));
        assert_eq!(t.pop_ready(), Some(3));
        assert_eq!(t.trailing_gap(), None);
    }
}
