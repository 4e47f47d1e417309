//! MyAgent sessions and sequence numbers: each session's replay window, what was
//! acknowledged, a new session announced on the connection, a `user.reconnect` under way.

use super::{Cx, MyAgentDecoder};
use crate::dialects::emit::Obj;
use crate::dialects::emit::{get_str, Sink};
use crate::events::DiagCode;
use crate::json::Value;
use crate::state::SeenIds;

/// Sequence numbers remembered to recognise replays.
pub(super) const SEQ_WINDOW: usize = 4096;

/// Sessions whose seq windows are kept besides the current one.
pub(super) const MAX_SESSIONS: usize = 4;

/// The replay window and acknowledgement state of a session left.
#[derive(Debug)]
pub(super) struct SeqWindow {
    session: String,
    scope: u64,
    seen: SeenIds,
    last_seq: Option<u64>,
    acked_seq: Option<u64>,
}

impl MyAgentDecoder {
    /// A `user.reconnect` for the current session goes out: until one of its events arrives,
    /// another session announced on the socket (the fresh one a new connection starts with)
    /// is not taken for a new session of this client.
    pub(crate) fn begin_resume(&mut self) {
        self.resuming = self.session_id.clone();
    }

    /// The server announced a new session on this connection (`agent.session_created` with
    /// another `session_id`): sequence numbers start again, so the replay window and the
    /// acknowledgement state start afresh.
    /// Each session keeps its own window: the one left is kept (the last [`MAX_SESSIONS`]) and
    /// found again if the server goes back to it.
    pub(super) fn new_session(&mut self, id: &str) {
        let (fresh_scope, window) = match self.past.iter().position(|w| w.session == id) {
            Some(i) => {
                let w = self.past.remove(i);
                (w.scope, Some(w))
            }
            None => {
                self.sessions_before += 1;
                (self.sessions_before, None)
            }
        };
        let old = SeqWindow {
            session: self.session_id.clone().unwrap_or_default(),
            scope: self.scope,
            seen: std::mem::replace(&mut self.seen, SeenIds::new(SEQ_WINDOW)),
            last_seq: self.last_seq.take(),
            acked_seq: self.acked_seq.take(),
        };
        if self.past.len() >= MAX_SESSIONS {
            self.past.remove(0);
        }
        self.past.push(old);
        self.unacked = 0;
        self.scope = fresh_scope;
        if let Some(w) = window {
            self.seen = w.seen;
            self.last_seq = w.last_seq;
            self.acked_seq = w.acked_seq;
        }
        self.session_id = Some(id.to_owned());
    }

    /// `system.error` `SESSION_NOT_FOUND` (the answer to a `user.reconnect` for a session the
    /// server forgot): the turn that was running cannot go on. It ends `failed` with the
    /// reason (its parts first), and [`Self::session_lost`] tells the transport to stop; a
    /// new session the server may announce next is never taken for the old turn.
    pub(super) fn session_not_found(
        &mut self,
        cx: &Cx<'_>,
        code: &str,
        msg: &str,
        sink: &mut Sink<'_>,
    ) {
        let lost = self
            .resuming
            .take()
            .or_else(|| self.session_id.clone())
            .unwrap_or_default();
        let why = format!(
            "the server no longer knows session {} ({code}: {msg}): the turn cannot be resumed",
            crate::json::Quoted(&lost)
        );
        if let Some(task) = self.running_turn().map(str::to_owned) {
            sink.task = Some(task.clone());
            self.end_unfinished(cx, &task, "failed", &why, sink);
            let mut m = Obj::new();
            m.str("reason", &why);
            self.status(cx, &task, "failed", Some(&why), m, sink);
            self.end_turn();
        }
        self.session_lost = Some(why);
    }

    /// Why the client's session is gone (`SESSION_NOT_FOUND`), once the server said so: the
    /// transport ends the connection `failed` with this reason.
    pub fn session_lost(&self) -> Option<&str> {
        self.session_lost.as_deref()
    }

    /// Whether an event of `session_id` (if it names one) is this client's: the first session
    /// named is; a new session announced while none of this client's work waits replaces it;
    /// an event of another session is ignored with a `session-mismatch` warning (`false`).
    pub(super) fn admit_session(
        &mut self,
        event: &str,
        v: &Value<'_>,
        sink: &mut Sink<'_>,
    ) -> bool {
        let session = get_str(Some(v), "session_id");
        if let Some(s) = session {
            if self.resuming.as_deref() == Some(s) {
                self.resuming = None;
            }
            match self.session_id.as_deref() {
                None => self.session_id = Some(s.to_owned()),
                Some(own) if own == s => {}
                Some(own) => {
                    let idle = self.resuming.is_none() && self.running_turn().is_none();
                    if event == "agent.session_created" && idle {
                        self.new_session(s);
                    } else if !event.starts_with("system.") {
                        let why = if event == "agent.session_created" {
                            if self.resuming.is_some() {
                                "a user.reconnect waits for this session's events"
                            } else {
                                "a turn of this session is running"
                            }
                        } else {
                            "not applied, not acknowledged"
                        };
                        sink.warn(
                            DiagCode::SessionMismatch,
                            format!(
                            "{event} of session {} ignored: this client's session is {} ({why})",
                            crate::json::Quoted(s),
                            crate::json::Quoted(own)
                        ),
                            "$.session_id",
                        );
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Records the event's sequence number, if any: `false` for a replay (already applied),
    /// a `sequence-gap` warning for a jump.
    pub(super) fn admit_seq(&mut self, seq: Option<u64>, sink: &mut Sink<'_>) -> bool {
        if let Some(seq) = seq {
            sink.out.seq = Some(seq);
            sink.out.seq_scope = self.scope;
            if !self.seen.insert(&seq.to_string()) {
                sink.out.duplicate = true;
                return false;
            }
            if let Some(last) = self.last_seq {
                if seq > last.saturating_add(1) {
                    let msg = if seq == last + 2 {
                        format!("event seq {} never arrived", last + 1)
                    } else {
                        format!("events seq {}..={} never arrived", last + 1, seq - 1)
                    };
                    sink.warn(DiagCode::SequenceGap, msg, "$.seq");
                }
            }
            self.last_seq = Some(self.last_seq.map_or(seq, |l| l.max(seq)));
            self.unacked += 1;
        }
        true
    }
}
