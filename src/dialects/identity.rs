//! Recognising a replayed dialect event by its identity in its protocol, for streams without
//! SSE ids (a server that replays a run from its start after a reconnect):
//!
//! | dialect | identity | a repeat with other content |
//! |---|---|---|
//! | `unified` | `event_id` (unique by the schema; without one, the whole event) | a `duplicate-event` warning, not applied |
//! | `acp` | the whole event (its `task_id`, `timestamp` and data): A2A-ACP events carry no id | — |
//!
//! A recognised replay is not decoded at all (the decoder's own counters do not move), is
//! counted in `duplicatesIgnored`, and reaches no handler. MyAgent has `seq` (its own module),
//! A2A replays by resubscribing (a task snapshot first, recognised by the store), AG-UI has no
//! replay. Memory is bounded: the latest `window` identities are remembered (`dedupeWindow`).

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};

/// What an identity check found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seen {
    /// Not seen (now remembered).
    New,
    /// Seen with the same content: a replay.
    Repeat,
    /// Seen with other content: a contradiction.
    Conflict,
}

fn hash(s: &str) -> u64 {
    let mut h = DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

/// The identities of the latest `window` events (hashes: memory per event is constant).
#[derive(Debug)]
pub(crate) struct Identities {
    order: VecDeque<u64>,
    content: HashMap<u64, u64>,
    window: usize,
}

impl Default for Identities {
    fn default() -> Self {
        Identities {
            order: VecDeque::new(),
            content: HashMap::new(),
            window: 65_536,
        }
    }
}

impl Identities {
    /// Sets how many identities are remembered (0: replay recognition off).
    pub(crate) fn set_window(&mut self, window: usize) {
        self.window = window;
        while self.order.len() > window {
            if let Some(k) = self.order.pop_front() {
                self.content.remove(&k);
            }
        }
    }

    /// Checks and remembers the event whose identity is `key` and whose content is `content`.
    pub(crate) fn check(&mut self, key: &str, content: &str) -> Seen {
        if self.window == 0 {
            return Seen::New;
        }
        let (k, c) = (hash(key), hash(content));
        match self.content.get(&k) {
            Some(&old) if old == c => return Seen::Repeat,
            Some(_) => return Seen::Conflict,
            None => {}
        }
        if self.order.len() >= self.window {
            if let Some(old) = self.order.pop_front() {
                self.content.remove(&old);
            }
        }
        self.order.push_back(k);
        self.content.insert(k, c);
        Seen::New
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_conflicts_and_the_window() {
        let mut ids = Identities::default();
        ids.set_window(2);
        assert_eq!(ids.check("e1", "a"), Seen::New);
        assert_eq!(ids.check("e1", "a"), Seen::Repeat);
        assert_eq!(ids.check("e1", "b"), Seen::Conflict);
        assert_eq!(ids.check("e2", "x"), Seen::New);
        assert_eq!(ids.check("e3", "y"), Seen::New);
        // e1 fell out of the window of 2.
        assert_eq!(ids.check("e1", "a"), Seen::New);
        ids.set_window(0);
        assert_eq!(ids.check("e3", "y"), Seen::New);
    }
}
