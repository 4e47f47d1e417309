//! The pure part of the client: reconnection policy and response classification, endpoint
//! templates, and checking answers before they are sent. The browser glue (`src/browser/`)
//! does the I/O and asks these what to do.

#[cfg(feature = "a2a")]
pub mod agent_card;
pub mod answer;
pub mod reconnect;
pub mod schema;
pub mod template;

/// `true` when no more events are expected: at least one task exists and every root task is in
/// a terminal state. A clean end of stream before that is an interruption.
pub fn run_finished(store: &crate::state::Store) -> bool {
    let mut any = false;
    for t in store.roots() {
        any = true;
        if !t.status.is_some_and(|s| s.is_terminal()) {
            return false;
        }
    }
    any
}
