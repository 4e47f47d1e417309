//! AG-UI 1.0 over SSE: `POST /api/ag-ui?scenario=&seed=&speed=&faults=&events=` with a
//! `RunAgentInput` body, answered like an agent built on the official `@ag-ui/encoder` 1.0.0
//! (`data: <JSON>\n\n` per event, nothing else; see `tests/ag-ui/WIRE.md`).
//!
//! A thread (`threadId`) is one scenario run: the first POST of a thread creates it (with the
//! query's scenario, seed, speed), later POSTs continue it. Every POST is one AG-UI run:
//! `RUN_STARTED {threadId, runId}` (the request's `runId`), `STATE_SNAPSHOT`, the scenario's
//! events translated by [`crate::dialects::ag_ui`], then:
//!
//! - `RUN_FINISHED {outcome: {type: "interrupt", interrupts}}` when the script waits for the
//!   client (an approval, a sign-in). The next POST of the thread must carry `resume` entries
//!   covering every pending interrupt (else 409); `resolved` answers with `payload`,
//!   `cancelled` denies a confirmation that has a `deny` option and cancels the run otherwise.
//!   Its run streams the continuation.
//! - `RUN_FINISHED {outcome: {type: "success"}, result}` / `RUN_ERROR {message, code:
//!   "task_failed"}` / `RUN_FINISHED {outcome: {type: "cancelled"}}` when the root task ends
//!   completed / failed / canceled.
//! - Once the scenario ended, a POST whose last message is a user message plays a short
//!   scripted follow-up turn (text echoing the question).
//!
//! Errors are JSON `{"error": …}`: 400 malformed body or query, 404 unknown scenario, 409 a run
//! of the thread still streaming, interrupts not covered, `resume` without pending interrupts,
//! or nothing to answer; 413 body over 1 MiB. See [`stream`] for the faults.

pub mod stream;

use crate::args::{conversation_query, conversation_status_fault, ConversationQuery};
use crate::dialects::ag_ui::{AgUiEncoder, Pending};
use crate::faults::Faults;
use crate::reply::{error, read_json, RespBody};
use crate::run::{lock, Run, RunSpec};
use crate::App;
use hyper::body::Incoming;
use hyper::header::{self, HeaderName, HeaderValue};
use hyper::{Request, Response, StatusCode};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// How many threads are kept; a new one evicts the oldest.
pub const MAX_THREADS: usize = 256;

/// The roles of AG-UI 1.0 messages.
const ROLES: [&str; 7] = [
    "developer",
    "system",
    "assistant",
    "user",
    "tool",
    "activity",
    "reasoning",
];

/// One AG-UI thread: its scenario run and where its translation stands.
pub struct Thread {
    /// The scenario run.
    pub run: Arc<Run>,
    /// The translator (its state spans the thread's runs).
    pub(crate) enc: AgUiEncoder,
    /// The next canonical position to translate.
    pub(crate) pos: u64,
    /// The interrupts the last run finished with.
    pub(crate) pending: Vec<Pending>,
    /// The scenario's end was delivered.
    pub(crate) ended: bool,
    /// POSTs so far that streamed the scenario (the first one gets `drop=K`, `silent=K`).
    pub(crate) posts: u32,
    /// Conversation turns (1: the scenario).
    pub(crate) turn: u64,
}

type Shared = Arc<tokio::sync::Mutex<Thread>>;

/// Every thread, by `threadId` (bounded by [`MAX_THREADS`]).
#[derive(Default)]
pub struct Threads {
    inner: Mutex<VecDeque<(String, Shared)>>,
}

impl Threads {
    fn get_or_create(&self, id: &str, create: impl FnOnce() -> Thread) -> Shared {
        let mut v = lock(&self.inner);
        if let Some((_, t)) = v.iter().find(|(k, _)| k == id) {
            return t.clone();
        }
        while v.len() >= MAX_THREADS {
            v.pop_front();
        }
        let t = Arc::new(tokio::sync::Mutex::new(create()));
        v.push_back((id.to_owned(), t.clone()));
        t
    }
}

/// One resume entry.
#[derive(Debug, Clone)]
pub struct ResumeEntry {
    /// `interruptId`.
    pub id: String,
    /// `status == "resolved"`.
    pub resolved: bool,
    /// `payload`.
    pub payload: Option<Value>,
}

/// The members of a `RunAgentInput` this server reads.
#[derive(Debug, Clone)]
pub struct Input {
    /// `threadId`.
    pub thread_id: String,
    /// `runId`.
    pub run_id: String,
    /// The text of the last message when it is a user message.
    pub user_text: Option<String>,
    /// `resume` (empty when absent).
    pub resume: Vec<ResumeEntry>,
}

fn text_of(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter(|p| p["type"] == "text")
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

/// Checks a `RunAgentInput` (the shapes of `RunAgentInputSchema`, leniently for what this
/// server does not read).
pub fn parse_input(v: &Value) -> Result<Input, String> {
    let o = v
        .as_object()
        .ok_or("the body must be a RunAgentInput object")?;
    let id = |k: &str| -> Result<String, String> {
        match o.get(k) {
            Some(Value::String(s)) if !s.is_empty() && s.len() <= 256 => Ok(s.clone()),
            _ => Err(format!(
                "{k} must be a non-empty string (at most 256 bytes)"
            )),
        }
    };
    let thread_id = id("threadId")?;
    let run_id = id("runId")?;
    let messages = o
        .get("messages")
        .and_then(Value::as_array)
        .ok_or("messages must be an array")?;
    for (i, m) in messages.iter().enumerate() {
        if m.get("id").and_then(Value::as_str).is_none() {
            return Err(format!("messages[{i}].id must be a string"));
        }
        match m.get("role").and_then(Value::as_str) {
            Some(r) if ROLES.contains(&r) => {}
            _ => return Err(format!("messages[{i}].role must be one of {ROLES:?}")),
        }
    }
    for k in ["tools", "context"] {
        match o.get(k) {
            None | Some(Value::Array(_)) => {}
            Some(_) => return Err(format!("{k} must be an array")),
        }
    }
    let mut resume = Vec::new();
    match o.get("resume") {
        None => {}
        Some(Value::Array(entries)) => {
            for (i, e) in entries.iter().enumerate() {
                let Some(id) = e.get("interruptId").and_then(Value::as_str) else {
                    return Err(format!("resume[{i}].interruptId must be a string"));
                };
                let resolved = match e.get("status").and_then(Value::as_str) {
                    Some("resolved") => true,
                    Some("cancelled") => false,
                    _ => {
                        return Err(format!(
                            "resume[{i}].status must be \"resolved\" or \"cancelled\""
                        ))
                    }
                };
                let payload = match e.get("payload") {
                    Some(Value::Null) => {
                        return Err(format!("resume[{i}].payload must not be null"))
                    }
                    p => p.cloned(),
                };
                resume.push(ResumeEntry {
                    id: id.to_owned(),
                    resolved,
                    payload,
                });
            }
        }
        Some(_) => return Err("resume must be an array".into()),
    }
    let user_text = messages
        .last()
        .filter(|m| m["role"] == "user")
        .map(|m| text_of(&m["content"]));
    Ok(Input {
        thread_id,
        run_id,
        user_text,
        resume,
    })
}

/// The faults that mean something on `/api/ag-ui`; the others are refused (a typo or a fault
/// of another transport must not silently test the happy path).
fn check_faults(f: &Faults) -> Result<(), String> {
    let kept = Faults {
        drop: f.drop,
        drop_every: f.drop_every,
        lose: f.lose.clone(),
        malformed: f.malformed,
        drip: f.drip,
        status: f.status,
        ctype: f.ctype.clone(),
        silent: f.silent,
        linger: f.linger,
        newline: f.newline,
        ..Faults::default()
    };
    if &kept == f {
        Ok(())
    } else {
        Err("on /api/ag-ui only drop, dropEvery, lose, malformed, drip, status, ctype, silent, linger, crlf and cr apply".into())
    }
}

/// The value a `resolved` payload answers input request `p` with: a string as such,
/// `{"value": x}` → x, `{"approved": b}` → `"approve"` / `"deny"`, another object as such, no
/// payload → the first option (or `true`).
fn payload_value(p: &Pending, payload: Option<&Value>) -> Value {
    match payload {
        Some(Value::Object(o)) if o.len() == 1 && o.contains_key("value") => o["value"].clone(),
        Some(Value::Object(o)) if o.get("approved").is_some_and(Value::is_boolean) => {
            let yes = o["approved"].as_bool() == Some(true);
            Value::from(if yes { "approve" } else { "deny" })
        }
        Some(v) => v.clone(),
        None => p
            .options
            .first()
            .map_or(Value::Bool(true), |o| Value::from(o.as_str())),
    }
}

/// Answers the pending interrupts of `t` with `resume` (every one is covered).
fn apply_resume(t: &mut Thread, resume: &[ResumeEntry]) {
    for p in std::mem::take(&mut t.pending) {
        let Some(e) = resume.iter().find(|e| p.interrupt["id"] == e.id.as_str()) else {
            continue;
        };
        let is_auth = p.key.starts_with("auth/");
        if e.resolved {
            let value = if is_auth {
                Value::Null
            } else {
                payload_value(&p, e.payload.as_ref())
            };
            let body = crate::rpc::answer_body(&p.key, value, e.payload.as_ref());
            t.run.answer(&p.key, body);
        } else if !is_auth && p.options.iter().any(|o| o == "deny") {
            t.run.answer(&p.key, json!({"value": "deny"}));
        } else if let Some(root) = t.run.root_task() {
            t.run.request_cancel(&root);
        }
    }
}

/// `POST /api/ag-ui`.
pub async fn handle(app: &App, req: Request<Incoming>) -> Response<RespBody> {
    let ConversationQuery {
        args,
        scenario,
        faults_str,
        faults,
        events,
    } = match conversation_query(req.uri().query(), check_faults) {
        Ok(c) => c,
        Err(r) => return *r,
    };
    let body = match read_json(req).await {
        Ok(Some(b)) => b,
        Ok(None) => return error(StatusCode::BAD_REQUEST, "the body must be a RunAgentInput"),
        Err(r) => return r,
    };
    let input = match parse_input(&body) {
        Ok(i) => i,
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("invalid RunAgentInput: {e}"),
            )
        }
    };
    if let Some(r) = conversation_status_fault(app, &faults, &format!("ag-ui:{}", input.thread_id))
    {
        return r;
    }
    let seed = args.seed.unwrap_or(1);
    let speed = args.speed.unwrap_or(app.config.default_speed);
    let shared = app.ag_ui.get_or_create(&input.thread_id, || {
        let run = app.runs.get_or_create(RunSpec {
            id: String::new(),
            scenario,
            seed,
            speed,
            faults: faults_str.clone(),
            events,
            params_key: format!("ag-ui|{}", input.thread_id),
            deferred: false,
        });
        let info =
            json!({"id": run.spec.id, "contextId": run.context_id, "scenario": scenario.id()});
        Thread {
            run,
            enc: AgUiEncoder::new(info),
            pos: 0,
            pending: Vec::new(),
            ended: false,
            posts: 0,
            turn: 1,
        }
    });
    let Ok(mut t) = shared.try_lock_owned() else {
        return error(
            StatusCode::CONFLICT,
            "a run of this thread is still streaming",
        );
    };
    let mode = if !t.pending.is_empty() {
        let missing: Vec<&str> = t
            .pending
            .iter()
            .filter_map(|p| p.interrupt["id"].as_str())
            .filter(|id| !input.resume.iter().any(|e| e.id == *id))
            .collect();
        if !missing.is_empty() {
            return error(
                StatusCode::CONFLICT,
                format!(
                    "Thread has {} pending interrupt(s) not addressed by resume: {}",
                    missing.len(),
                    missing.join(",")
                ),
            );
        }
        if let Some(e) = input
            .resume
            .iter()
            .find(|e| !t.pending.iter().any(|p| p.interrupt["id"] == e.id.as_str()))
        {
            return error(
                StatusCode::BAD_REQUEST,
                format!("resume: unknown interrupt {:?}", e.id),
            );
        }
        apply_resume(&mut t, &input.resume);
        stream::Mode::Scenario
    } else if !input.resume.is_empty() {
        return error(
            StatusCode::CONFLICT,
            "resume: this thread has no pending interrupts",
        );
    } else if t.ended {
        match &input.user_text {
            Some(q) => stream::Mode::FollowUp(q.clone()),
            None => {
                return error(
                    StatusCode::CONFLICT,
                    "this thread's scenario run has ended: add a user message for another turn",
                )
            }
        }
    } else {
        stream::Mode::Scenario
    };
    let run_id = t.run.spec.id.clone();
    let ctype = faults
        .ctype
        .clone()
        .unwrap_or_else(|| "text/event-stream".to_owned());
    let body = stream::start(t, mode, input, faults);
    let mut r = Response::new(body);
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(&ctype)
            .unwrap_or_else(|_| HeaderValue::from_static("text/event-stream")),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        HeaderName::from_static("x-accel-buffering"),
        HeaderValue::from_static("no"),
    );
    if let Ok(v) = HeaderValue::from_str(&run_id) {
        h.insert(HeaderName::from_static("x-run-id"), v);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs() {
        let ok = json!({"threadId": "t", "runId": "r", "messages": [{"id": "u", "role": "user", "content": [{"type": "text", "text": "hi"}]}],
            "resume": [{"interruptId": "i", "status": "cancelled"}]});
        let i = parse_input(&ok).expect("valid");
        assert_eq!(i.user_text.as_deref(), Some("hi"));
        assert!(!i.resume[0].resolved);
        for bad in [
            json!([]),
            json!({"threadId": "t", "runId": "r"}),
            json!({"threadId": "", "runId": "r", "messages": []}),
            json!({"threadId": "t", "runId": "r", "messages": [{"id": "u", "role": "robot"}]}),
            json!({"threadId": "t", "runId": "r", "messages": [], "resume": [{"interruptId": "i", "status": "ok"}]}),
            json!({"threadId": "t", "runId": "r", "messages": [], "resume": [{"interruptId": "i", "status": "resolved", "payload": null}]}),
            json!({"threadId": "t", "runId": "r", "messages": [], "tools": {}}),
        ] {
            assert!(parse_input(&bad).is_err(), "{bad} should be refused");
        }
        assert!(check_faults(&Faults::parse("drop=3,crlf").expect("ok")).is_ok());
        assert!(check_faults(&Faults::parse("dup=3").expect("ok")).is_err());
    }
}
