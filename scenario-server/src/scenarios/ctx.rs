//! What a scenario script writes through: event emission with a simulated clock, pacing, waiting
//! for the client's answers, cancellation, and deterministic interleaving of concurrent tasks.

use crate::run::{Event, Run};
use crate::util::{push_json_str, timestamp, Rng};
use serde_json::Value;
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

/// The members of an event after `kind`, `contextId` and `taskId`, in order (`timestamp` is
/// appended last by [`Ctx::emit`]).
pub type Fields = Vec<(&'static str, Value)>;

/// Builds [`Fields`] with JSON-like syntax: `fields! { "toolName": name, "progress": (i as f64) }`.
/// Each value is one token tree given to `serde_json::json!` (wrap expressions in parentheses).
macro_rules! fields {
    ($($k:literal : $v:tt),* $(,)?) => {
        vec![$(($k, ::serde_json::json!($v))),*]
    };
}
pub(crate) use fields;

/// The JSON of one event: `{"kind", "contextId", "taskId", ...fields, "timestamp"}` on one line.
pub fn encode(
    kind: &str,
    context_id: &str,
    task: &str,
    fields: &Fields,
    timestamp: &str,
) -> String {
    let mut data = String::with_capacity(192);
    data.push_str("{\"kind\":");
    push_json_str(&mut data, kind);
    data.push_str(",\"contextId\":");
    push_json_str(&mut data, context_id);
    data.push_str(",\"taskId\":");
    push_json_str(&mut data, task);
    for (k, v) in fields {
        data.push(',');
        push_json_str(&mut data, k);
        data.push(':');
        data.push_str(&v.to_string());
    }
    data.push_str(",\"timestamp\":");
    push_json_str(&mut data, timestamp);
    data.push('}');
    data
}

/// Why a script stopped early.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// The client canceled a task (via the cancel endpoint).
    Canceled,
    /// Nobody answered a request in time; the reason goes into `metadata.reason`.
    TimedOut(String),
}

/// Simulated time the user is assumed to take to answer (keeps logs deterministic).
pub const USER_THINK_MS: u64 = 4_200;

#[derive(Debug)]
struct TaskRec {
    id: String,
    terminal: bool,
    created_at: u64,
    open_tools: Vec<(String, String)>,
    content_index: u64,
    thought_index: u64,
}

/// A script's handle on its run.
pub struct Ctx {
    run: Arc<Run>,
    /// `ctx-<runId>`.
    pub context_id: String,
    /// The run's seeded PRNG.
    pub rng: Rng,
    speed: f64,
    clock: u64,
    anchor: (Instant, u64),
    tasks: Vec<TaskRec>,
    ids: HashSet<String>,
}

impl Ctx {
    /// A context writing into `run`.
    pub fn new(run: Arc<Run>) -> Ctx {
        Ctx {
            context_id: run.context_id.clone(),
            rng: Rng::new(run.spec.seed),
            speed: run.spec.speed,
            run,
            clock: 0,
            anchor: (Instant::now(), 0),
            tasks: Vec::new(),
            ids: HashSet::new(),
        }
    }

    /// A fresh id `prefix-xxxxxx` (6 hex digits from the seed), unique in this run.
    pub fn id(&mut self, prefix: &str) -> String {
        loop {
            let id = format!("{prefix}-{:06x}", self.rng.next_u64() & 0xff_ffff);
            if self.ids.insert(id.clone()) {
                return id;
            }
        }
    }

    /// Simulated milliseconds since 2025-11-06T10:30:00Z.
    pub fn now(&self) -> u64 {
        self.clock
    }

    /// ISO 8601 of simulated time `ms`.
    pub fn ts(&self, ms: u64) -> String {
        timestamp(ms)
    }

    /// Simulated milliseconds since `task` was created.
    pub fn elapsed(&self, task: &str) -> u64 {
        self.task(task)
            .map_or(0, |t| self.clock.saturating_sub(t.created_at))
    }

    fn task(&self, id: &str) -> Option<&TaskRec> {
        self.tasks.iter().find(|t| t.id == id)
    }

    fn task_mut(&mut self, id: &str) -> Option<&mut TaskRec> {
        self.tasks.iter_mut().find(|t| t.id == id)
    }

    /// Appends one event `{kind, contextId, taskId, ...fields, timestamp}` to the log. A
    /// `content-delta` or `thought-stream` without `index` gets the task's next index. Keeps
    /// track of tasks, open tools and open requests.
    pub fn emit(&mut self, kind: &str, task: &str, mut fields: Fields) {
        let get = |fields: &Fields, k: &str| -> Option<String> {
            fields
                .iter()
                .find(|(name, _)| *name == k)
                .and_then(|(_, v)| v.as_str().map(str::to_owned))
        };
        let has = |fields: &Fields, k: &str| fields.iter().any(|(name, _)| *name == k);
        match kind {
            "task-created" => {
                self.tasks.push(TaskRec {
                    id: task.to_owned(),
                    terminal: false,
                    created_at: self.clock,
                    open_tools: Vec::new(),
                    content_index: 0,
                    thought_index: 0,
                });
                self.run.register_task(task);
            }
            "task-status" => {
                let status = get(&fields, "status").unwrap_or_default();
                if matches!(status.as_str(), "completed" | "failed" | "canceled") {
                    if let Some(t) = self.task_mut(task) {
                        t.terminal = true;
                    }
                    self.run.mark_terminal(task);
                }
            }
            "tool-start" => {
                let call = get(&fields, "toolCallId").unwrap_or_default();
                let name = get(&fields, "toolName").unwrap_or_default();
                if let Some(t) = self.task_mut(task) {
                    t.open_tools.push((call, name));
                }
            }
            "tool-complete" => {
                let call = get(&fields, "toolCallId").unwrap_or_default();
                if let Some(t) = self.task_mut(task) {
                    t.open_tools.retain(|(c, _)| *c != call);
                }
            }
            "input-required" | "auth-required" => {
                let (prefix, field) = if kind == "input-required" {
                    ("input", "inputId")
                } else {
                    ("auth", "authId")
                };
                let id = get(&fields, field).unwrap_or_default();
                self.run.open_request(format!("{prefix}/{task}/{id}"));
            }
            "input-received" | "auth-completed" => {
                let (prefix, field) = if kind == "input-received" {
                    ("input", "inputId")
                } else {
                    ("auth", "authId")
                };
                let id = get(&fields, field).unwrap_or_default();
                self.run.close_request(&format!("{prefix}/{task}/{id}"));
            }
            "content-delta" if !has(&fields, "index") => {
                let i = self.task_mut(task).map_or(0, |t| {
                    t.content_index += 1;
                    t.content_index - 1
                });
                fields.push(("index", Value::from(i)));
            }
            "thought-stream" if !has(&fields, "index") => {
                let i = self.task_mut(task).map_or(0, |t| {
                    t.thought_index += 1;
                    t.thought_index - 1
                });
                fields.push(("index", Value::from(i)));
            }
            _ => {}
        }
        let chunk_stream = match kind {
            "content-delta" => Some(format!("content:{task}")),
            "file-write" | "dataset-write" => Some(format!(
                "artifact:{}",
                get(&fields, "artifactId").unwrap_or_default()
            )),
            _ => None,
        };
        let data = encode(
            kind,
            &self.context_id,
            task,
            &fields,
            &timestamp(self.clock),
        );
        self.clock += 1;
        let id = self.run.next_id();
        self.run.push(Event::new(id, kind, chunk_stream, &data));
    }

    fn check(&self) -> Result<(), Stop> {
        match self.run.cancel_requested() {
            Some(_) => Err(Stop::Canceled),
            None => Ok(()),
        }
    }

    fn reanchor(&mut self) {
        self.anchor = (Instant::now(), self.clock);
    }

    /// Advances simulated time by `ms` and sleeps `ms / speed` of real time (nothing at speed
    /// 0). Returns `Err` once the client asked for a cancel.
    pub async fn pause(&mut self, ms: u64) -> Result<(), Stop> {
        self.clock += ms;
        self.check()?;
        if self.speed <= 0.0 || !self.speed.is_finite() {
            return Ok(());
        }
        let real_ms = (self.clock - self.anchor.1) as f64 / self.speed;
        let deadline = self.anchor.0 + Duration::from_micros((real_ms * 1000.0).min(1e15) as u64);
        loop {
            let notified = self.run.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            self.check()?;
            tokio::select! {
                _ = tokio::time::sleep_until(deadline) => return Ok(()),
                _ = &mut notified => {}
            }
        }
    }

    /// Pauses a random `lo..=hi` ms.
    pub async fn pause_between(&mut self, lo: u64, hi: u64) -> Result<(), Stop> {
        let ms = self.rng.range(lo, hi);
        self.pause(ms).await
    }

    /// Blocks until the client answers request `key` (`input/<task>/<id>` or
    /// `auth/<task>/<id>`, opened by the matching `*-required` event), the client cancels, or
    /// `timeout_s` real seconds pass. Returns the POST body.
    pub async fn wait_answer(&mut self, key: &str, timeout_s: u64) -> Result<Value, Stop> {
        self.run.set_waiting(true);
        let deadline = Instant::now() + Duration::from_secs(timeout_s);
        let result = loop {
            let notified = self.run.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if let Err(stop) = self.check() {
                break Err(stop);
            }
            if let Some(v) = self.run.take_answer(key) {
                break Ok(v);
            }
            tokio::select! {
                _ = tokio::time::sleep_until(deadline) => {
                    break Err(Stop::TimedOut(format!("no answer to {key} within {timeout_s} s")));
                }
                _ = &mut notified => {}
            }
        };
        self.run.set_waiting(false);
        self.clock += USER_THINK_MS;
        self.reanchor();
        result
    }

    /// Blocks (real time, whatever the speed) until the client cancels (`Err(Stop::Canceled)`)
    /// or `max` passes (`Ok`).
    pub async fn hold_for_cancel(&mut self, max: Duration) -> Result<(), Stop> {
        self.run.set_waiting(true);
        let deadline = Instant::now() + max;
        let result = loop {
            let notified = self.run.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if let Err(stop) = self.check() {
                break Err(stop);
            }
            tokio::select! {
                _ = tokio::time::sleep_until(deadline) => break Ok(()),
                _ = &mut notified => {}
            }
        };
        self.run.set_waiting(false);
        self.reanchor();
        result
    }

    /// Ends every task that is not terminal yet, latest-created first (children before their
    /// parents): open tools get a failed `tool-complete`, then the task a `canceled` (or, on a
    /// timeout, `failed`) status with `metadata.reason`.
    pub fn stop_all(&mut self, stop: &Stop) {
        let (status, reason, error) = match stop {
            Stop::Canceled => ("canceled", "canceled by user".to_owned(), "canceled"),
            Stop::TimedOut(why) => ("failed", why.clone(), "timed out"),
        };
        let open: Vec<(String, Vec<(String, String)>)> = self
            .tasks
            .iter()
            .rev()
            .filter(|t| !t.terminal)
            .map(|t| (t.id.clone(), t.open_tools.clone()))
            .collect();
        for (task, tools) in open {
            for (call, name) in tools {
                self.emit(
                    "tool-complete",
                    &task,
                    fields! {"toolCallId": call, "toolName": name, "success": false, "error": error},
                );
            }
            let message = if status == "canceled" {
                "Canceled by the user"
            } else {
                "Timed out"
            };
            self.emit(
                "task-status",
                &task,
                fields! {"status": status, "message": message, "metadata": {"reason": reason}},
            );
        }
    }

    /// Plays `tracks` concurrently in simulated time: at each step the track whose local clock
    /// is earliest emits (ties go to the earlier track), so interleaving is realistic and still
    /// deterministic.
    pub async fn interleave(&mut self, tracks: Vec<Track>) -> Result<(), Stop> {
        let mut local: Vec<u64> = vec![self.clock; tracks.len()];
        let mut pos: Vec<usize> = vec![0; tracks.len()];
        loop {
            for (i, t) in tracks.iter().enumerate() {
                while let Some(Step::Wait(ms)) = t.0.get(pos[i]) {
                    local[i] += ms;
                    pos[i] += 1;
                }
            }
            let next = (0..tracks.len())
                .filter(|&i| pos[i] < tracks[i].0.len())
                .min_by_key(|&i| (local[i], i));
            let Some(i) = next else { break };
            if local[i] > self.clock {
                self.pause(local[i] - self.clock).await?;
            }
            if let Some(Step::Emit(kind, task, fields)) = tracks[i].0.get(pos[i]) {
                self.emit(kind, task, fields.clone());
            }
            local[i] = self.clock;
            pos[i] += 1;
        }
        Ok(())
    }
}

/// One step of a [`Track`].
#[derive(Debug, Clone)]
pub enum Step {
    /// Emit an event (kind, task, fields).
    Emit(&'static str, String, Fields),
    /// Let simulated time pass on this track.
    Wait(u64),
}

/// The scripted events of one concurrently running task (see [`Ctx::interleave`]).
#[derive(Debug, Clone, Default)]
pub struct Track(pub Vec<Step>);

impl Track {
    /// Adds an event.
    pub fn emit(&mut self, kind: &'static str, task: &str, fields: Fields) -> &mut Self {
        self.0.push(Step::Emit(kind, task.to_owned(), fields));
        self
    }

    /// Adds a pause.
    pub fn wait(&mut self, ms: u64) -> &mut Self {
        self.0.push(Step::Wait(ms));
        self
    }

    /// Streams `text` for `task` as content deltas `lo..=hi` ms apart, then `content-complete`.
    pub fn text(&mut self, rng: &mut Rng, task: &str, text: &str, lo: u64, hi: u64) -> &mut Self {
        for tok in tokens(text, rng) {
            self.wait(rng.range(lo, hi));
            self.emit("content-delta", task, fields! {"delta": tok});
        }
        self.emit("content-complete", task, fields! {"content": text})
    }
}

/// Splits `text` into LLM-like tokens: each word with the whitespace before it, long words
/// sometimes in two pieces (always at character boundaries). The concatenation is `text`.
pub fn tokens(text: &str, rng: &mut Rng) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    for c in text.chars() {
        if c.is_whitespace() && cur.chars().any(|x| !x.is_whitespace()) {
            words.push(std::mem::take(&mut cur));
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    let mut out = Vec::with_capacity(words.len() * 5 / 4);
    for w in words {
        let n = w.chars().count();
        if n >= 8 && rng.chance(1, 2) {
            let cut = w.char_indices().nth(n / 2).map_or(w.len(), |(i, _)| i);
            out.push(w[..cut].to_owned());
            out.push(w[cut..].to_owned());
        } else {
            out.push(w);
        }
    }
    out
}

/// Streams `text` for `task` now (content deltas `lo..=hi` ms apart, then `content-complete`).
pub async fn stream_text(
    ctx: &mut Ctx,
    task: &str,
    text: &str,
    lo: u64,
    hi: u64,
) -> Result<(), Stop> {
    for tok in tokens(text, &mut ctx.rng) {
        ctx.pause_between(lo, hi).await?;
        ctx.emit("content-delta", task, fields! {"delta": tok});
    }
    ctx.emit("content-complete", task, fields! {"content": text});
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_concatenate_to_the_text() {
        let text = "Café \"quoted\" 🚀 — extraordinarily long words\n\n## Heading\n- item";
        for seed in 0..20 {
            let toks = tokens(text, &mut Rng::new(seed));
            assert_eq!(toks.concat(), text);
            assert!(toks.iter().all(|t| !t.is_empty()));
            assert!(toks.len() >= 10);
        }
    }
}
