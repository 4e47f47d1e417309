//! Runs: the per-run state. Each run has one append-only event log written by its scenario
//! script (a tokio task); every connection reads the log with its own cursor and waits on a
//! `watch` channel for more (no polling). Answers to the agent's input/auth requests and cancel
//! requests arrive through [`Run::answer`] / [`Run::request_cancel`] and wake the script.

use crate::catalog::Scenario;
use hyper::body::Bytes;
use serde_json::Value;
use std::any::Any;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::{watch, Notify};
use tokio::task::JoinHandle;

/// How many runs are kept in memory; creating one more evicts the oldest finished run (or, when
/// none has finished, the oldest run).
pub const MAX_RUNS: usize = 256;

/// Locks a mutex, recovering the data if a panicking thread poisoned it.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// One encoded event of a run's log: its SSE frame (`id:`, `event:`, `data:`, blank line).
#[derive(Debug)]
pub struct Event {
    /// 0-based position in the run's log; also its SSE `id`.
    pub id: u64,
    /// The protocol kind (`internal:` prefix included).
    pub kind: Box<str>,
    /// For chunk events (content-delta, file-write, dataset-write): which stream they belong
    /// to (`content:<taskId>` or `artifact:<artifactId>`), used by the `shuffle` fault.
    pub chunk_stream: Option<Box<str>>,
    /// The complete SSE frame.
    pub frame: Bytes,
    data_at: usize,
}

impl Event {
    /// Encodes event `id` of `kind` whose JSON is `data` (one line).
    pub fn new(id: u64, kind: &str, chunk_stream: Option<String>, data: &str) -> Event {
        let name = kind.strip_prefix("internal:").unwrap_or(kind);
        let head = format!("id: {id}\nevent: {name}\ndata: ");
        let mut frame = String::with_capacity(head.len() + data.len() + 2);
        frame.push_str(&head);
        frame.push_str(data);
        frame.push_str("\n\n");
        Event {
            id,
            kind: kind.into(),
            chunk_stream: chunk_stream.map(String::into_boxed_str),
            frame: Bytes::from(frame),
            data_at: head.len(),
        }
    }

    /// The JSON text of the event.
    pub fn data(&self) -> &str {
        let end = self.frame.len().saturating_sub(2);
        std::str::from_utf8(self.frame.get(self.data_at..end).unwrap_or_default()).unwrap_or("")
    }

    /// The SSE event name: the kind without its `internal:` prefix.
    pub fn name(&self) -> &str {
        self.kind.strip_prefix("internal:").unwrap_or(&self.kind)
    }
}

/// Computes event `i` of a generated log on demand (the `bulk` scenario: no memory per event).
pub type Generator = Arc<dyn Fn(u64) -> Event + Send + Sync>;

#[derive(Default)]
struct Log {
    events: Vec<Arc<Event>>,
    generated: Option<(u64, Generator)>,
    finished: bool,
    waiting: bool,
}

impl Log {
    fn len(&self) -> u64 {
        self.generated
            .as_ref()
            .map_or(self.events.len() as u64, |g| g.0)
    }
}

/// What a run was created with.
#[derive(Debug, Clone)]
pub struct RunSpec {
    /// The run id (client-chosen or `r<N>`); the context id is `ctx-<id>`.
    pub id: String,
    /// The script.
    pub scenario: Scenario,
    /// PRNG seed: same seed and same answers give a byte-identical log.
    pub seed: u64,
    /// Pacing: 0 = instant, 1 = realistic, 2 = twice as fast, 0.5 = half as fast.
    pub speed: f64,
    /// The faults string the run was created with (used by reconnects that give none).
    pub faults: String,
    /// `events=N` for the `bulk` scenario.
    pub events: u64,
    /// scenario|seed|speed|faults|events: how a reconnect without a run id finds its run.
    pub params_key: String,
    /// The script waits for [`Run::start`] (a MyAgent session starts on `user.message`).
    pub deferred: bool,
}

#[derive(Debug)]
enum Request {
    Open,
    Answered(Value),
    Done,
}

#[derive(Default)]
struct Interaction {
    /// taskId → terminal?
    tasks: HashMap<String, bool>,
    /// `input/<task>/<id>` or `auth/<task>/<id>` → state.
    requests: HashMap<String, Request>,
    /// The task whose cancellation was asked for.
    cancel: Option<String>,
    /// The first task created (the run's root task).
    root: Option<String>,
    /// Request key → log position of its `*-required` event.
    opened_at: HashMap<String, u64>,
    /// MyAgent: the highest `seq` acknowledged with `user.ack`.
    acked_seq: Option<u64>,
}

/// Result of answering an input/auth request or asking for a cancel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerOutcome {
    /// Accepted: the script continues.
    Accepted,
    /// No such request (or task) in this run.
    Unknown,
    /// Already answered (or handled in-band, or the task already ended).
    AlreadyAnswered,
}

/// One agent run: its log, its pending requests, its connections.
pub struct Run {
    /// Creation parameters.
    pub spec: RunSpec,
    /// `ctx-<runId>`.
    pub context_id: String,
    log: Mutex<Log>,
    version: watch::Sender<u64>,
    interaction: Mutex<Interaction>,
    /// Woken on every answer and cancel request (the script waits on it).
    pub(crate) notify: Notify,
    streams: AtomicU32,
    live: AtomicU32,
    script: Mutex<Option<JoinHandle<()>>>,
    started: AtomicBool,
    /// Starts the script ([`crate::scenarios::start`], given by [`Runs::new`]).
    launch: fn(&Arc<Run>),
    /// The run's encodings in other dialects, by dialect name: kept here for
    /// [`crate::dialects`], which owns their type (the run does not depend on the encoders).
    encodings: Mutex<HashMap<&'static str, Arc<dyn Any + Send + Sync>>>,
}

impl Run {
    /// A new, empty run; [`Run::start`] starts its script with `launch`
    /// ([`crate::scenarios::start`]).
    pub fn new(spec: RunSpec, launch: fn(&Arc<Run>)) -> Run {
        Run {
            context_id: format!("ctx-{}", spec.id),
            spec,
            log: Mutex::default(),
            version: watch::Sender::new(0),
            interaction: Mutex::default(),
            notify: Notify::new(),
            streams: AtomicU32::new(0),
            live: AtomicU32::new(0),
            script: Mutex::new(None),
            started: AtomicBool::new(false),
            launch,
            encodings: Mutex::default(),
        }
    }

    /// Starts the script (once; [`Runs::get_or_create`] does it unless the spec is deferred).
    /// Returns `false` when it had already started.
    pub fn start(self: &Arc<Self>) -> bool {
        if self.started.swap(true, Ordering::AcqRel) {
            return false;
        }
        (self.launch)(self);
        true
    }

    /// Whether the script has started.
    pub fn is_started(&self) -> bool {
        self.started.load(Ordering::Acquire)
    }

    /// The cached encoding of this run in the dialect named `dialect`, created by `init` the
    /// first time (`None` if `init` gives none, or if a cached one is not a `T`).
    pub fn encoding<T: Send + 'static>(
        &self,
        dialect: &'static str,
        init: impl FnOnce() -> Option<T>,
    ) -> Option<Arc<Mutex<T>>> {
        let mut m = lock(&self.encodings);
        if let Some(e) = m.get(dialect) {
            return e.clone().downcast::<Mutex<T>>().ok();
        }
        let e = Arc::new(Mutex::new(init()?));
        m.insert(dialect, e.clone());
        Some(e)
    }

    /// The run's root task (the first task created), once known.
    pub fn root_task(&self) -> Option<String> {
        lock(&self.interaction).root.clone()
    }

    /// Whether `task` is a task of this run.
    pub fn has_task(&self, task: &str) -> bool {
        lock(&self.interaction).tasks.contains_key(task)
    }

    /// Whether `task` reached a terminal status (`None`: unknown task).
    pub fn task_terminal(&self, task: &str) -> Option<bool> {
        lock(&self.interaction).tasks.get(task).copied()
    }

    /// The open request of `task` (`input/<task>/<id>` or `auth/<task>/<id>`) and the log
    /// position of its `*-required` event.
    pub fn open_request_of(&self, task: &str) -> Option<(String, u64)> {
        let i = lock(&self.interaction);
        let mut open: Vec<(&String, u64)> = i
            .requests
            .iter()
            .filter(|(k, r)| matches!(r, Request::Open) && k.split('/').nth(1) == Some(task))
            .map(|(k, _)| (k, i.opened_at.get(k).copied().unwrap_or(0)))
            .collect();
        open.sort_by_key(|x| x.1);
        open.last().map(|(k, p)| ((*k).clone(), *p))
    }

    /// The key of request `id` of kind `prefix` (`input` / `auth`) on any task of this run.
    pub fn find_request(&self, prefix: &str, id: &str) -> Option<String> {
        let i = lock(&self.interaction);
        let mut keys: Vec<&String> = i
            .requests
            .keys()
            .filter(|k| {
                let mut p = k.splitn(3, '/');
                p.next() == Some(prefix) && p.nth(1) == Some(id)
            })
            .collect();
        keys.sort();
        keys.first().map(|k| (*k).clone())
    }

    /// Whether request `key` is open (asked and not answered).
    pub fn is_open(&self, key: &str) -> bool {
        matches!(
            lock(&self.interaction).requests.get(key),
            Some(Request::Open)
        )
    }

    /// The log position of the `*-required` event of request `key`.
    pub fn opened_at(&self, key: &str) -> Option<u64> {
        lock(&self.interaction).opened_at.get(key).copied()
    }

    /// MyAgent: records a `user.ack`.
    pub fn ack(&self, seq: u64) {
        let mut i = lock(&self.interaction);
        i.acked_seq = Some(i.acked_seq.map_or(seq, |a| a.max(seq)));
    }

    /// MyAgent: the highest acknowledged `seq`.
    pub fn acked(&self) -> Option<u64> {
        lock(&self.interaction).acked_seq
    }

    fn bump(&self) {
        self.version.send_modify(|v| *v = v.wrapping_add(1));
    }

    /// The next event id.
    pub fn next_id(&self) -> u64 {
        lock(&self.log).len()
    }

    /// Appends an event (its id must be [`Run::next_id`]) and wakes the readers.
    pub fn push(&self, ev: Event) {
        lock(&self.log).events.push(Arc::new(ev));
        self.bump();
    }

    /// Makes the whole log a generated one of `len` events, already finished.
    pub fn set_generated(&self, len: u64, generator: Generator) {
        {
            let mut log = lock(&self.log);
            log.generated = Some((len, generator));
            log.finished = true;
        }
        self.bump();
    }

    /// Marks the script as ended: connections end their response once they reach the end;
    /// requests still open can no longer be answered (409).
    pub fn finish(&self) {
        for r in lock(&self.interaction).requests.values_mut() {
            if matches!(r, Request::Open) {
                *r = Request::Done;
            }
        }
        lock(&self.log).finished = true;
        self.bump();
    }

    /// Marks the script as blocked on (or no longer blocked on) an answer from the client.
    pub fn set_waiting(&self, waiting: bool) {
        lock(&self.log).waiting = waiting;
        self.bump();
    }

    /// (events so far, script finished, script waiting for an answer).
    pub fn status(&self) -> (u64, bool, bool) {
        let log = lock(&self.log);
        (log.len(), log.finished, log.waiting)
    }

    /// Events `from..to` (clamped to the log).
    pub fn range(&self, from: u64, to: u64) -> Vec<Arc<Event>> {
        let log = lock(&self.log);
        let to = to.min(log.len());
        if from >= to {
            return Vec::new();
        }
        match &log.generated {
            Some((_, g)) => {
                let g = g.clone();
                drop(log);
                (from..to).map(|i| Arc::new(g(i))).collect()
            }
            None => log.events[from as usize..to as usize].to_vec(),
        }
    }

    /// A receiver that changes whenever the log or the waiting flag changes.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.version.subscribe()
    }

    /// The index of a new streaming connection to this run (0 for the first).
    pub fn next_stream_index(&self) -> u32 {
        self.streams.fetch_add(1, Ordering::Relaxed)
    }

    /// A connection started (`true`) or ended (`false`) writing this run.
    pub fn connection_live(&self, live: bool) {
        if live {
            self.live.fetch_add(1, Ordering::Relaxed);
        } else {
            self.live.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// Connections currently writing this run.
    pub fn live_connections(&self) -> u32 {
        self.live.load(Ordering::Relaxed)
    }

    /// Records the script's task handle (aborted when the run is evicted).
    pub fn set_script(&self, handle: JoinHandle<()>) {
        *lock(&self.script) = Some(handle);
    }

    fn abort(&self) {
        if let Some(h) = lock(&self.script).take() {
            h.abort();
        }
        self.finish();
    }

    /// A task of this run was created.
    pub fn register_task(&self, task: &str) {
        let mut i = lock(&self.interaction);
        if i.root.is_none() {
            i.root = Some(task.to_owned());
        }
        i.tasks.entry(task.to_owned()).or_insert(false);
    }

    /// A task reached a terminal status.
    pub fn mark_terminal(&self, task: &str) {
        lock(&self.interaction).tasks.insert(task.to_owned(), true);
    }

    /// The script asked for input/auth under `key` (`input/<task>/<id>`, `auth/<task>/<id>`).
    pub fn open_request(&self, key: String) {
        let at = self.next_id();
        let mut i = lock(&self.interaction);
        i.opened_at.insert(key.clone(), at);
        i.requests.insert(key, Request::Open);
    }

    /// The request was answered in-band (an `input-received`/`auth-completed` in the log).
    pub fn close_request(&self, key: &str) {
        if let Some(r) = lock(&self.interaction).requests.get_mut(key) {
            *r = Request::Done;
        }
    }

    /// Takes the client's answer to `key`, if it came.
    pub fn take_answer(&self, key: &str) -> Option<Value> {
        let mut i = lock(&self.interaction);
        let r = i.requests.get_mut(key)?;
        match std::mem::replace(r, Request::Done) {
            Request::Answered(v) => Some(v),
            other => {
                *r = other;
                None
            }
        }
    }

    /// A client answers request `key` with `value` (the POST body).
    pub fn answer(&self, key: &str, value: Value) -> AnswerOutcome {
        let outcome = {
            let mut i = lock(&self.interaction);
            match i.requests.get_mut(key) {
                None => AnswerOutcome::Unknown,
                Some(r @ Request::Open) => {
                    *r = Request::Answered(value);
                    AnswerOutcome::Accepted
                }
                Some(_) => AnswerOutcome::AlreadyAnswered,
            }
        };
        if outcome == AnswerOutcome::Accepted {
            // Not blocked on the client any more (streams that end when the run waits).
            self.set_waiting(false);
            self.notify.notify_waiters();
        }
        outcome
    }

    /// A client asks to cancel `task` (and with it the run).
    pub fn request_cancel(&self, task: &str) -> AnswerOutcome {
        let outcome = {
            let mut i = lock(&self.interaction);
            let finished = lock(&self.log).finished;
            match i.tasks.get(task) {
                None => AnswerOutcome::Unknown,
                Some(true) => AnswerOutcome::AlreadyAnswered,
                Some(false) if finished || i.cancel.is_some() => AnswerOutcome::AlreadyAnswered,
                Some(false) => {
                    i.cancel = Some(task.to_owned());
                    AnswerOutcome::Accepted
                }
            }
        };
        if outcome == AnswerOutcome::Accepted {
            self.set_waiting(false);
            self.notify.notify_waiters();
        }
        outcome
    }

    /// The task whose cancellation was requested, if any.
    pub fn cancel_requested(&self) -> Option<String> {
        lock(&self.interaction).cancel.clone()
    }

    /// `GET /api/runs/{id}`: a JSON summary.
    pub fn info(&self) -> Value {
        let (events, finished, waiting) = self.status();
        let i = lock(&self.interaction);
        let mut open: Vec<&String> = i
            .requests
            .iter()
            .filter(|(_, r)| matches!(r, Request::Open))
            .map(|(k, _)| k)
            .collect();
        open.sort();
        serde_json::json!({
            "run": self.spec.id,
            "contextId": self.context_id,
            "scenario": self.spec.scenario.id(),
            "seed": self.spec.seed,
            "speed": self.spec.speed,
            "faults": self.spec.faults,
            "events": events,
            "finished": finished,
            "waiting": waiting,
            "openRequests": open,
            "connections": self.streams.load(Ordering::Relaxed),
            "liveConnections": self.live_connections(),
            "streamUrl": format!("/api/runs/{}/stream", self.spec.id),
        })
    }
}

#[derive(Default)]
struct RunsInner {
    order: VecDeque<Arc<Run>>,
    counter: u64,
    attempts: HashMap<String, u32>,
}

/// Every live run, by id (bounded by [`MAX_RUNS`]).
pub struct Runs {
    inner: Mutex<RunsInner>,
    /// What starts a run's script ([`crate::scenarios::start`]).
    launch: fn(&Arc<Run>),
}

/// Whether `id` is acceptable as a run id (`[A-Za-z0-9._-]{1,64}`).
pub fn valid_run_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

impl Runs {
    /// No runs yet; `launch` starts a run's script ([`crate::scenarios::start`]).
    pub fn new(launch: fn(&Arc<Run>)) -> Runs {
        Runs {
            inner: Mutex::default(),
            launch,
        }
    }

    /// The run `id`.
    pub fn get(&self, id: &str) -> Option<Arc<Run>> {
        lock(&self.inner)
            .order
            .iter()
            .find(|r| r.spec.id == id)
            .cloned()
    }

    /// The most recent run created with these parameters (reconnects without a run id).
    pub fn latest_with_params(&self, params_key: &str) -> Option<Arc<Run>> {
        lock(&self.inner)
            .order
            .iter()
            .rev()
            .find(|r| r.spec.params_key == params_key)
            .cloned()
    }

    /// Counts a stream request under `key`; returns how many came before it.
    pub fn attempt(&self, key: &str) -> u32 {
        let mut inner = lock(&self.inner);
        if inner.attempts.len() > 4 * MAX_RUNS && !inner.attempts.contains_key(key) {
            inner.attempts.clear();
        }
        let n = inner.attempts.entry(key.to_owned()).or_insert(0);
        *n = n.saturating_add(1);
        *n - 1
    }

    /// The run `spec.id` if it exists; otherwise a new run (with id `r<N>` when `spec.id` is
    /// empty) whose script starts now. Must be called inside the tokio runtime.
    pub fn get_or_create(&self, mut spec: RunSpec) -> Arc<Run> {
        let mut inner = lock(&self.inner);
        if !spec.id.is_empty() {
            if let Some(r) = inner.order.iter().find(|r| r.spec.id == spec.id) {
                return r.clone();
            }
        } else {
            loop {
                inner.counter += 1;
                let id = format!("r{}", inner.counter);
                if !inner.order.iter().any(|r| r.spec.id == id) {
                    spec.id = id;
                    break;
                }
            }
        }
        while inner.order.len() >= MAX_RUNS {
            let victim = inner.order.iter().position(|r| r.status().1).unwrap_or(0);
            if let Some(old) = inner.order.remove(victim) {
                old.abort();
            }
        }
        let deferred = spec.deferred;
        let run = Arc::new(Run::new(spec, self.launch));
        inner.order.push_back(run.clone());
        drop(inner);
        if !deferred {
            run.start();
        }
        run
    }

    /// The run that has a task `task`.
    pub fn by_task(&self, task: &str) -> Option<Arc<Run>> {
        lock(&self.inner)
            .order
            .iter()
            .rev()
            .find(|r| r.has_task(task))
            .cloned()
    }

    /// The run whose context id is `ctx-<id>`.
    pub fn by_context(&self, context_id: &str) -> Option<Arc<Run>> {
        self.get(context_id.strip_prefix("ctx-")?)
    }

    /// How many runs are in memory.
    pub fn len(&self) -> usize {
        lock(&self.inner).order.len()
    }

    /// Whether no run is in memory.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
