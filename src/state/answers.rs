//! The client's side of answering: which requests have an answer in flight (`sending`), and
//! which open input requests wait for the user rather than for a coordinator.
//!
//! **Sending.** [`Store::begin_answer`] is called when the app answers (`respond`, `approve`,
//! `deny`, `select`, `answer`, `completeAuth`): the request must be open and not already being
//! answered, and its `sending` becomes `true`. It goes back to `false` when the request is
//! answered (`input-received` / `auth-completed`, the dialect's equivalent, or the local close
//! of the dialects whose servers do not echo answers) or expires, or — through
//! [`Store::answer_failed`] — when the call failed: the request is then open and not sending,
//! and may be answered again. Each flip is a visible change (the task's `revision` and the
//! store's version move), so a UI re-renders.
//!
//! **For the user or a coordinator.** A request with `requireUser: true` (routing `user`) is
//! for the user. A request with routing `coordinator` is for the user only when no
//! coordinator is configured ([`Store::set_coordinator`]), or once the coordinator declined
//! it ([`Store::coordinator_declined`]: it returned nothing, threw, or its answer failed).
//! Until then it is not in [`Store::pending_inputs`], from the event that made it on (there is
//! no moment when a request the coordinator may still answer is listed for the user).

use super::{RequestState, Store};

/// Which kind of request an answer is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestKind {
    /// An input request (`input-required`).
    Input,
    /// An auth request (`auth-required`).
    Auth,
}

/// Why an answer cannot be sent now ([`Store::begin_answer`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnswerRefusal {
    /// No request with this id.
    Unknown,
    /// The request was answered (or completed).
    Answered,
    /// The request expired.
    Expired,
    /// An answer from this client is already in flight.
    Sending,
}

impl Store {
    /// The `(task slot, index)` of request `id`.
    fn request_at(&self, kind: RequestKind, id: &str) -> Option<(usize, usize)> {
        match kind {
            RequestKind::Input => self.input_index.get(id).copied(),
            RequestKind::Auth => self.auth_index.get(id).copied(),
        }
    }

    /// The state and `sending` flag of request `id`.
    fn request_flags(&self, kind: RequestKind, id: &str) -> Option<(RequestState, bool)> {
        let (t, i) = self.request_at(kind, id)?;
        let view = &self.tasks.get(t)?.view;
        match kind {
            RequestKind::Input => view.inputs.get(i).map(|r| (r.state, r.sending)),
            RequestKind::Auth => view.auths.get(i).map(|r| (r.state, r.sending)),
        }
    }

    /// Sets request `id`'s `sending` flag (a visible change when it flips).
    fn set_sending(&mut self, kind: RequestKind, id: &str, on: bool) {
        let Some((t, i)) = self.request_at(kind, id) else {
            return;
        };
        if self.request_flags(kind, id).map(|(_, s)| s) == Some(on) {
            return;
        }
        let Some(slot) = self.touch(t) else { return };
        match kind {
            RequestKind::Input => {
                if let Some(r) = slot.view.inputs.get_mut(i) {
                    r.sending = on;
                }
            }
            RequestKind::Auth => {
                if let Some(r) = slot.view.auths.get_mut(i) {
                    r.sending = on;
                }
            }
        }
    }

    /// An answer to request `id` is about to be sent: `Ok` and `sending: true` when the request
    /// is open and no answer of this client is in flight; otherwise why not (nothing changes).
    pub fn begin_answer(&mut self, kind: RequestKind, id: &str) -> Result<(), AnswerRefusal> {
        match self.request_flags(kind, id) {
            None => Err(AnswerRefusal::Unknown),
            Some((RequestState::Answered, _)) => Err(AnswerRefusal::Answered),
            Some((RequestState::Expired, _)) => Err(AnswerRefusal::Expired),
            Some((RequestState::Open, true)) => Err(AnswerRefusal::Sending),
            Some((RequestState::Open, false)) => {
                self.set_sending(kind, id, true);
                Ok(())
            }
        }
    }

    /// The answer to request `id` could not be sent: `sending` goes back to `false` (the
    /// request, still open, may be answered again). Nothing happens for an unknown request or
    /// one that is not sending.
    pub fn answer_failed(&mut self, kind: RequestKind, id: &str) {
        self.set_sending(kind, id, false);
    }

    /// Says whether a coordinator answers the requests routed to one first (default: no, and
    /// every open request is for the user).
    pub fn set_coordinator(&mut self, on: bool) {
        if self.coordinator != on {
            self.coordinator = on;
            self.bump();
        }
    }

    /// The coordinator declined input request `id` (returned nothing, threw, or its answer
    /// failed): while open, it is for the user from now on.
    pub fn coordinator_declined(&mut self, id: &str) {
        if self.input_index.contains_key(id) && self.declined.insert(id.to_owned()) {
            self.bump();
        }
    }

    /// `true` when open-or-not request `r` is for the user: routing `user`, no coordinator
    /// configured, or the coordinator declined it.
    pub fn is_for_user(&self, r: &super::InputRequest) -> bool {
        r.routing == super::Routing::User || !self.coordinator || self.declined.contains(&r.id)
    }
}

#[cfg(test)]
#[path = "answers_tests.rs"]
mod tests;
