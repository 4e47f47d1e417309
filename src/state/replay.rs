//! Recognising a replayed event by what it is, where nothing else tells (a server that sends no
//! SSE ids, drops the connection and replays the run from its start; a dialect's resubscribe
//! snapshot; a MyAgent replay after `seq` was lost).
//!
//! An event is a replay when the state already holds exactly what it says:
//!
//! | event | already applied when |
//! |---|---|
//! | `task-created` | the task was created (not only announced) at the same time |
//! | `task-status` | it repeats the latest change, or an earlier one older than the latest |
//! | `task-complete` | one of the same time and content was applied |
//! | `content-complete` | the task's content is confirmed complete |
//! | `tool-start` | the tool call exists with the same name, started at the same time |
//! | `tool-progress` | it is older than the call's end or than the latest progress, or says the same at the same time |
//! | `tool-complete` | the tool call ended the same way |
//! | `input-required` / `auth-required` | the request exists with the same prompt |
//! | `input-received` / `auth-completed` | the request was answered at the same time |
//! | `data-write` | the artifact saw this record at this time (the latest 64 versions) |
//! | `subtask-created` | the child is linked under the same parent with the same prompt |
//! | `thought-stream` | the task holds the thought (its id) |
//! | `content-delta` | the same index was applied with the same text |
//! | `file-write` / `dataset-write` | the same index was admitted from the same event text |
//! | any content, chunk, status or thought of an ended task | its timestamp is earlier than the task's end |
//! | an internal or unknown event | the same text is among the latest `dedupeWindow` of them |
//!
//! A replay is counted in `duplicatesIgnored`, is not applied, raises no
//! diagnostic and is not delivered to handlers. What contradicts the state (the same id with
//! other content) is not a replay: it is applied or refused as before, with its diagnostic.
//! Memory: nothing beyond the state itself (and one timestamp per tool call).

use super::model::{RequestState, Task, Tool, ToolState};
use super::{EventMeta, Store};
use crate::events::timestamp::to_epoch_ms;
use crate::events::*;

impl Store {
    /// `true` when `ev` repeats what the state already holds (see the module table).
    pub(super) fn is_replay(&self, ev: &AgentEvent<'_>, meta: &EventMeta<'_>) -> bool {
        match ev {
            AgentEvent::TaskCreated(e) => {
                self.task_view(&e.task_id).is_some_and(|(t, announced)| {
                    !announced && t.created_at.as_deref() == Some(&*e.timestamp)
                })
            }
            AgentEvent::TaskStatusEvent(e) => self.task_view(&e.task_id).is_some_and(|(t, _)| {
                let same = |h: &&super::model::StatusChange| {
                    h.status == e.status
                        && h.timestamp == *e.timestamp
                        && h.message.as_deref() == e.message.as_deref()
                };
                // The latest change again (sent twice), or an earlier one when the stream has
                // moved on since (a replay from the start): not a change made later at the
                // same time as an earlier one (working → waiting → working within a second).
                let last = t.history.back();
                last.as_ref().is_some_and(same)
                    || (t.history.iter().any(|h| same(&h))
                        && last
                            .and_then(|l| to_epoch_ms(&l.timestamp))
                            .zip(to_epoch_ms(&e.timestamp))
                            .is_some_and(|(l, at)| at < l))
                    || self.before_end(&e.task_id, &e.timestamp)
            }),
            AgentEvent::TaskComplete(e) => self
                .task_index
                .get(&*e.task_id)
                .and_then(|&t| self.tasks.get(t))
                .is_some_and(|s| {
                    let print = data_print(&e.timestamp, e.content.as_deref().unwrap_or(""));
                    s.complete_prints.contains(&print)
                }),
            AgentEvent::ContentComplete(e) => self
                .task_view(&e.task_id)
                .is_some_and(|(t, _)| t.content_complete),
            AgentEvent::ToolStart(e) => self.tool_view(&e.tool_call_id).is_some_and(|tool| {
                tool.name == *e.tool_name && tool.started_at.as_deref() == Some(&*e.timestamp)
            }),
            AgentEvent::ToolProgress(e) => {
                let at = to_epoch_ms(&e.timestamp);
                self.tool_view(&e.tool_call_id).is_some_and(|tool| {
                    // Earlier than the call's end (the end itself is later: a progress after
                    // it is the server's mistake), or not later than the latest progress.
                    let before = |ts: Option<&str>| {
                        ts.and_then(to_epoch_ms)
                            .zip(at)
                            .is_some_and(|(end, at)| at < end)
                    };
                    // At the same time as the latest: a replay only when it says the same (a
                    // server with second-granularity times sends several updates a second).
                    let same = tool.progress == e.progress.clamp(0.0, 1.0)
                        && tool.message.as_deref() == e.message.as_deref();
                    (tool.state != ToolState::Running && before(tool.ended_at.as_deref()))
                        || self
                            .tool_progress_ms
                            .get(&*e.tool_call_id)
                            .zip(at)
                            .is_some_and(|(last, at)| {
                                let at = at.max(0) as u64;
                                at < *last || (at == *last && same)
                            })
                })
            }
            AgentEvent::ToolComplete(e) => self.tool_view(&e.tool_call_id).is_some_and(|tool| {
                let ended = if e.success {
                    ToolState::Succeeded
                } else {
                    ToolState::Failed
                };
                tool.state == ended
            }),
            AgentEvent::InputRequired(e) => self
                .input(&e.input_id)
                .is_some_and(|r| r.prompt == *e.prompt && r.task_id == *e.task_id),
            AgentEvent::AuthRequired(e) => self
                .auth(&e.auth_id)
                .is_some_and(|r| r.prompt == *e.prompt && r.task_id == *e.task_id),
            AgentEvent::InputReceived(e) => {
                self.input(&e.input_id)
                    .is_some_and(|r| r.state == RequestState::Answered)
                    && self.answered_at.get(&*e.input_id).copied()
                        == Some(super::dedupe::hash_of(&e.timestamp))
            }
            AgentEvent::AuthCompleted(e) => {
                self.auth(&e.auth_id)
                    .is_some_and(|r| r.state == RequestState::Answered)
                    && self.answered_at.get(&*e.auth_id).copied()
                        == Some(super::dedupe::hash_of(&e.timestamp))
            }
            AgentEvent::DataWrite(e) => {
                let print = data_print(&e.timestamp, &e.data.0.to_json());
                self.artifact_index
                    .get(&*e.artifact_id)
                    .and_then(|&a| self.artifacts.get(a))
                    .is_some_and(|a| a.data_prints.contains(&print))
            }
            AgentEvent::SubtaskCreated(e) => self.task_view(&e.subtask_id).is_some_and(|(t, _)| {
                t.parent_id.as_deref() == Some(&*e.task_id)
                    && t.prompt.as_deref() == Some(&*e.prompt)
            }),
            AgentEvent::ThoughtStream(e) => {
                let id = super::dedupe::hash_of(&e.thought_id);
                self.task_index
                    .get(&*e.task_id)
                    .and_then(|&t| self.tasks.get(t))
                    .is_some_and(|s| s.thought_ids.contains(&id))
                    || self.before_end(&e.task_id, &e.timestamp)
            }
            AgentEvent::ContentDelta(e) => {
                self.delta_applied(&e.task_id, e.index, &e.delta)
                    || self.before_end(&e.task_id, &e.timestamp)
            }
            AgentEvent::FileWrite(e) => {
                self.chunk_applied(&e.artifact_id, e.index, meta)
                    || self.before_end(&e.task_id, &e.timestamp)
            }
            AgentEvent::DatasetWrite(e) => {
                self.chunk_applied(&e.artifact_id, e.index, meta)
                    || self.before_end(&e.task_id, &e.timestamp)
            }
            _ => false,
        }
    }

    /// An internal or unknown event (no state of its own): `true` when the same event text is
    /// among the latest `dedupeWindow` of them (a replay), else it is remembered.
    pub(super) fn seen_stateless(&mut self, ev: &AgentEvent<'_>, meta: &EventMeta<'_>) -> bool {
        if !is_stateless(ev) || meta.raw.is_empty() {
            return false;
        }
        let print = super::dedupe::hash_of(meta.raw);
        let window = self.limits().dedupe_window;
        let (order, set) = &mut self.stateless_seen;
        if set.contains(&print) {
            return true;
        }
        if window == 0 {
            return false;
        }
        if order.len() >= window {
            if let Some(old) = order.pop_front() {
                set.remove(&old);
            }
        }
        order.push_back(print);
        set.insert(print);
        false
    }

    /// The task's view, and whether it was only announced (a placeholder).
    fn task_view(&self, id: &str) -> Option<(&Task, bool)> {
        let s = self.tasks.get(*self.task_index.get(id)?)?;
        Some((&s.view, s.announced_only))
    }

    fn tool_view(&self, id: &str) -> Option<&Tool> {
        let &(t, i) = self.tool_index.get(id)?;
        self.tasks.get(t)?.view.tools.get(i)
    }

    /// `true` when content delta `index` of task `id` was applied with this very text.
    fn delta_applied(&self, id: &str, index: u64, delta: &str) -> bool {
        let Some(slot) = self.task_index.get(id).and_then(|&t| self.tasks.get(t)) else {
            return false;
        };
        if index >= slot.content.next_index() {
            return false;
        }
        let Ok(i) = usize::try_from(index) else {
            return false;
        };
        let (Some(&start), end) = (
            slot.delta_offsets.get(i),
            slot.delta_offsets.get(i + 1).copied(),
        ) else {
            return false;
        };
        let end = end.map_or(slot.view.content.len(), |e| e as usize);
        slot.view.content.get(start as usize..end) == Some(delta)
    }

    /// `true` when chunk `index` of file or dataset `id` was admitted from this very event.
    fn chunk_applied(&self, id: &str, index: u64, meta: &EventMeta<'_>) -> bool {
        let Ok(i) = usize::try_from(index) else {
            return false;
        };
        self.artifact_index
            .get(id)
            .and_then(|&a| self.artifacts.get(a))
            .is_some_and(|a| a.chunk_prints.get(i) == Some(&chunk_print(meta)))
    }

    /// `true` when task `id` ended and `ts` is earlier than its end: an event from before the
    /// end, which was applied then (an event of an ended task at or after its end is the
    /// server's mistake, refused with a diagnostic).
    fn before_end(&self, id: &str, ts: &str) -> bool {
        let Some((t, _)) = self.task_view(id) else {
            return false;
        };
        if !t.status.is_some_and(TaskStatus::is_terminal) {
            return false;
        }
        let end = t.history.back().and_then(|h| to_epoch_ms(&h.timestamp));
        matches!((to_epoch_ms(ts), end), (Some(at), Some(end)) if at < end)
    }
}

/// An event without state of its own: an unknown kind or an `internal:` one (by variant: no
/// string comparison on every event).
pub(super) fn is_stateless(ev: &AgentEvent<'_>) -> bool {
    matches!(
        ev,
        AgentEvent::Unknown(_)
            | AgentEvent::InternalThoughtProcess(_)
            | AgentEvent::InternalLlmCall(_)
            | AgentEvent::InternalCheckpoint(_)
            | AgentEvent::InternalToolStart(_)
            | AgentEvent::InternalToolComplete(_)
    )
}

/// A chunk's fingerprint: a hash of the event as it arrived (a replay is the same text; 0 is
/// kept for "not remembered").
pub(super) fn chunk_print(meta: &EventMeta<'_>) -> u64 {
    super::dedupe::hash_of(meta.raw).max(1)
}

/// A data version's fingerprint: its time and its record.
pub(super) fn data_print(timestamp: &str, record: &str) -> u64 {
    let mut key = String::with_capacity(timestamp.len() + record.len() + 1);
    key.push_str(timestamp);
    key.push('\u{0}');
    key.push_str(record);
    super::dedupe::hash_of(&key)
}
