//! The HTTP API: routing, request parsing (never panics on input: a malformed request gets a
//! 400), JSON answers, CORS on every response, and the stream endpoints.

use crate::dialects::{self, Dialect};
use crate::faults::{Faults, StatusFault};
use crate::run::{valid_run_id, AnswerOutcome, Run, RunSpec};
use crate::scenarios::{bulk, Scenario};
use crate::sse::{self, Connection, View, DEFAULT_HEARTBEAT_MS, DEFAULT_RETRY_MS};
use crate::static_files::{self, StaticError, CONTENT_SECURITY_POLICY};
use crate::util::percent_decode;
use crate::App;
use http_body_util::{combinators::BoxBody, BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderMap, HeaderName, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{json, Value};
use std::convert::Infallible;
use std::io;
use std::sync::Arc;

/// Every response body.
pub type RespBody = BoxBody<Bytes, io::Error>;

/// Largest accepted request body.
pub const MAX_BODY: usize = 1 << 20;

/// Largest `events=` of a `bulk` run watched in a dialect (its encoding is kept in memory).
pub const MAX_DIALECT_EVENTS: u64 = 1_000_000;

/// Request headers a cross-origin page may send.
pub const CORS_ALLOW_HEADERS: &str =
    "Content-Type, Authorization, A2A-Version, A2A-Extensions, Last-Event-ID, Cache-Control";

pub(crate) fn full(b: impl Into<Bytes>) -> RespBody {
    Full::new(b.into()).map_err(|never| match never {}).boxed()
}

pub(crate) fn json_response(status: StatusCode, v: &Value) -> Response<RespBody> {
    let mut r = Response::new(full(v.to_string()));
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

pub(crate) fn error(status: StatusCode, msg: impl Into<String>) -> Response<RespBody> {
    json_response(status, &json!({"error": msg.into()}))
}

fn ok() -> Response<RespBody> {
    json_response(StatusCode::OK, &json!({"ok": true}))
}

pub(crate) fn not_allowed(allow: &'static str) -> Response<RespBody> {
    let mut r = error(StatusCode::METHOD_NOT_ALLOWED, "method not allowed");
    r.headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static(allow));
    r
}

/// Adds the CORS headers: the request's Origin echoed (with credentials allowed) or `*`.
pub fn add_cors(h: &mut HeaderMap, origin: Option<&HeaderValue>) {
    match origin {
        Some(o) => {
            h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, o.clone());
            h.insert(
                header::ACCESS_CONTROL_ALLOW_CREDENTIALS,
                HeaderValue::from_static("true"),
            );
        }
        None => {
            h.insert(
                header::ACCESS_CONTROL_ALLOW_ORIGIN,
                HeaderValue::from_static("*"),
            );
        }
    }
    h.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET, POST, OPTIONS"),
    );
    h.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static(CORS_ALLOW_HEADERS),
    );
    h.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static("Retry-After, X-Run-Id"),
    );
    h.append(header::VARY, HeaderValue::from_static("Origin"));
}

/// The service: routes, then adds CORS and logs (with `--verbose`).
pub async fn handle(
    req: Request<Incoming>,
    app: Arc<App>,
) -> Result<Response<RespBody>, Infallible> {
    let origin = req.headers().get(header::ORIGIN).cloned();
    let line = app
        .config
        .verbose
        .then(|| format!("{} {}", req.method(), req.uri()));
    let mut resp = route(req, &app).await;
    add_cors(resp.headers_mut(), origin.as_ref());
    if let Some(line) = line {
        eprintln!("{line} -> {}", resp.status().as_u16());
    }
    Ok(resp)
}

/// A parsed query string (percent-decoded; the last occurrence of a name wins).
pub(crate) struct Query(Vec<(String, String)>);

impl Query {
    pub(crate) fn parse(q: Option<&str>) -> Query {
        Query(
            q.unwrap_or("")
                .split('&')
                .filter(|p| !p.is_empty())
                .map(|p| {
                    let (k, v) = p.split_once('=').unwrap_or((p, ""));
                    (percent_decode(k, true), percent_decode(v, true))
                })
                .collect(),
        )
    }

    pub(crate) fn get(&self, k: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(name, _)| name == k)
            .map(|(_, v)| v.as_str())
    }
}

async fn route(req: Request<Incoming>, app: &Arc<App>) -> Response<RespBody> {
    let path = req.uri().path().to_owned();
    let segs: Vec<String> = path
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| percent_decode(s, false))
        .collect();
    let seg: Vec<&str> = segs.iter().map(String::as_str).collect();
    let method = req.method().clone();
    if method == Method::OPTIONS {
        let mut r = Response::new(full(Bytes::new()));
        *r.status_mut() = StatusCode::NO_CONTENT;
        r.headers_mut().insert(
            header::ACCESS_CONTROL_MAX_AGE,
            HeaderValue::from_static("600"),
        );
        return r;
    }
    let get = method == Method::GET;
    let post = method == Method::POST;
    match seg.as_slice() {
        ["api", "health"] if get => ok(),
        // Test aid: answers 204 only after `ms` milliseconds (a server that accepted the
        // connection but sends no response headers yet).
        ["api", "stall"] if get => {
            let q = Query::parse(req.uri().query());
            let ms = q
                .get("ms")
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(1000)
                .min(60_000);
            tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
            let mut r = Response::new(full(Bytes::new()));
            *r.status_mut() = StatusCode::NO_CONTENT;
            r
        }
        ["api", "scenarios"] if get => {
            json_response(StatusCode::OK, &crate::scenarios::list_json())
        }
        ["api", "stream"] if get => {
            let q = Query::parse(req.uri().query());
            match StreamArgs::from_query(&q) {
                Ok(args) => open_stream(app, args, req.headers(), None, StreamOpts::default()),
                Err(e) => error(StatusCode::BAD_REQUEST, e),
            }
        }
        ["api", "a2a"] if post => crate::rpc::a2a(app, req).await,
        ["api", "a2a", "v1"] if post => crate::a2a_v1::jsonrpc::handle(app, req).await,
        ["api", "a2a", "v1", ".well-known", "agent-card.json"] if get => {
            crate::a2a_v1::card::card(req.headers(), req.uri().query())
        }
        ["api", "a2a", "rest", ..] => crate::a2a_v1::rest::route(app, req, &seg[3..]).await,
        ["api", "acp", "rpc"] if post => crate::rpc::acp(app, req).await,
        ["api", "ag-ui"] if post => crate::ag_ui::handle(app, req).await,
        ["api", "ai-sdk", "chat"] if post => crate::ai_sdk::handle(app, req).await,
        ["api", "ai-sdk", "chat", id, "stream"] if get => crate::ai_sdk::resume(app, &req, id),
        ["api", "myagent", "ws"] if get => crate::myagent_ws::open(app, req),
        ["api", "runs"] if post => {
            let q = Query::parse(req.uri().query());
            let headers = req.headers().clone();
            let body = match read_json(req).await {
                Ok(b) => b,
                Err(r) => return r,
            };
            let args = StreamArgs::from_query(&q).and_then(|mut a| {
                if let Some(b) = &body {
                    a.merge_body(b)?;
                }
                Ok(a)
            });
            match args {
                Ok(args) => open_stream(app, args, &headers, None, StreamOpts::default()),
                Err(e) => error(StatusCode::BAD_REQUEST, e),
            }
        }
        ["api", "ws"] if get => open_ws(app, req),
        ["api", "runs", id] if get => match app.runs.get(id) {
            Some(run) => json_response(StatusCode::OK, &run.info()),
            None => error(StatusCode::NOT_FOUND, format!("unknown run {id:?}")),
        },
        ["api", "runs", id, "stream"] if get => {
            let q = Query::parse(req.uri().query());
            match StreamArgs::from_query(&q) {
                Ok(args) => open_stream(app, args, req.headers(), Some(id), StreamOpts::default()),
                Err(e) => error(StatusCode::BAD_REQUEST, e),
            }
        }
        ["api", "contexts", ctx, "tasks", task, "inputs", id] if post => {
            let (ctx, task, id) = (ctx.to_string(), task.to_string(), id.to_string());
            answer(app, req, &ctx, Answer::Input(task, id)).await
        }
        ["api", "contexts", ctx, "tasks", task, "auth", id] if post => {
            let (ctx, task, id) = (ctx.to_string(), task.to_string(), id.to_string());
            answer(app, req, &ctx, Answer::Auth(task, id)).await
        }
        ["api", "contexts", ctx, "tasks", task, "cancel"] if post => {
            let (ctx, task) = (ctx.to_string(), task.to_string());
            answer(app, req, &ctx, Answer::Cancel(task)).await
        }
        ["api", "health"] | ["api", "scenarios"] | ["api", "stream"] | ["api", "myagent", "ws"] => {
            not_allowed("GET, OPTIONS")
        }
        ["api", "a2a"]
        | ["api", "a2a", "v1"]
        | ["api", "acp", "rpc"]
        | ["api", "ag-ui"]
        | ["api", "ai-sdk", "chat"] => not_allowed("POST, OPTIONS"),
        ["api", "ai-sdk", "chat", _, "stream"] => not_allowed("GET, OPTIONS"),
        ["api", "a2a", "v1", ".well-known", "agent-card.json"] => not_allowed("GET, OPTIONS"),
        ["api", "runs"] => not_allowed("POST, OPTIONS"),
        ["api", "runs", _] | ["api", "runs", _, "stream"] => not_allowed("GET, OPTIONS"),
        ["api", "contexts", _, "tasks", _, "inputs" | "auth", _]
        | ["api", "contexts", _, "tasks", _, "cancel"] => not_allowed("POST, OPTIONS"),
        ["api", ..] => error(StatusCode::NOT_FOUND, format!("no endpoint {path}")),
        _ if get || method == Method::HEAD => match &app.config.static_dir {
            Some(dir) => serve_static(dir, &segs, method == Method::HEAD).await,
            None if seg.is_empty() => json_response(StatusCode::OK, &index()),
            None => error(StatusCode::NOT_FOUND, "not found (no --static directory)"),
        },
        _ => error(StatusCode::NOT_FOUND, "not found"),
    }
}

fn index() -> Value {
    json!({
        "name": "agentwire-scenario",
        "endpoints": [
            "GET /api/health",
            "GET /api/scenarios",
            "GET /api/stream?scenario=ID&seed=N&speed=F&run=RUNID&faults=...&events=N&retry=MS&heartbeat=MS&lastEventId=N&dialect=canonical|a2a|acp|unified",
            "POST /api/runs {scenario, seed, speed, faults, run, events, lastEventId, dialect}",
            "POST /api/a2a?scenario=ID&seed=N&speed=F&faults=... (JSON-RPC: message/stream, tasks/resubscribe, tasks/cancel, tasks/get)",
            "POST /api/a2a/v1?scenario=ID&seed=N&speed=F&faults=... (A2A v1.0 JSON-RPC, header A2A-Version: 1.0: SendStreamingMessage, SubscribeToTask, CancelTask, GetTask)",
            "POST /api/a2a/rest/message:stream?scenario=ID&seed=N&speed=F&faults=... {message} (A2A v1.0 HTTP+JSON, header A2A-Version: 1.0)",
            "GET|POST /api/a2a/rest/tasks/{taskId}:subscribe (A2A v1.0 HTTP+JSON)",
            "POST /api/a2a/rest/tasks/{taskId}:cancel (A2A v1.0 HTTP+JSON)",
            "GET /api/a2a/rest/tasks/{taskId} (A2A v1.0 HTTP+JSON)",
            "GET /api/a2a/v1/.well-known/agent-card.json (A2A v1.0 agent card: both interfaces)",
            "POST /api/acp/rpc (JSON-RPC: tasks/provideInputAndContinue, tasks/cancel)",
            "POST /api/ag-ui?scenario=ID&seed=N&speed=F&faults=... {RunAgentInput} (AG-UI 1.0 SSE: one run per POST, a thread per scenario run, interrupts + resume)",
            "POST /api/ai-sdk/chat?scenario=ID&seed=N&speed=F&faults=... {id, messages, trigger, messageId?} (Vercel AI SDK UI message stream: a chat per scenario run, approvals, client-side tools)",
            "GET /api/ai-sdk/chat/{chatId}/stream (AI SDK resume: 204, or the active response replayed)",
            "GET /api/myagent/ws?scenario=ID&seed=N&speed=F&faults=...&heartbeat=MS&start=message|connect (WebSocket)",
            "GET /api/runs/{runId}",
            "GET /api/runs/{runId}/stream (Last-Event-ID)",
            "POST /api/contexts/{contextId}/tasks/{taskId}/inputs/{inputId} {value}",
            "POST /api/contexts/{contextId}/tasks/{taskId}/auth/{authId} {userId?, code?}",
            "POST /api/contexts/{contextId}/tasks/{taskId}/cancel",
        ],
        "scenarios": crate::scenarios::list_json(),
    })
}

pub(crate) async fn read_json(req: Request<Incoming>) -> Result<Option<Value>, Response<RespBody>> {
    let collected = Limited::new(req.into_body(), MAX_BODY)
        .collect()
        .await
        .map_err(|e| {
            if e.is::<http_body_util::LengthLimitError>() {
                error(StatusCode::PAYLOAD_TOO_LARGE, "request body too large")
            } else {
                error(StatusCode::BAD_REQUEST, "could not read the request body")
            }
        })?;
    let bytes = collected.to_bytes();
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|e| error(StatusCode::BAD_REQUEST, format!("invalid JSON body: {e}")))
}

enum Answer {
    Input(String, String),
    Auth(String, String),
    Cancel(String),
}

async fn answer(app: &App, req: Request<Incoming>, ctx: &str, what: Answer) -> Response<RespBody> {
    let body = match read_json(req).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let Some(run) = app.runs.by_context(ctx) else {
        return error(StatusCode::NOT_FOUND, format!("unknown context {ctx:?}"));
    };
    // A dialect may name the task differently (Unified: the session): the request id decides.
    let key_of = |prefix: &str, task: &str, id: &str| {
        let key = format!("{prefix}/{task}/{id}");
        if run.opened_at(&key).is_some() {
            key
        } else {
            run.find_request(prefix, id).unwrap_or(key)
        }
    };
    let outcome = match what {
        Answer::Input(task, id) => {
            let key = key_of("input", &task, &id);
            let Some(v) = body.filter(|b| b.get("value").is_some()) else {
                return error(
                    StatusCode::BAD_REQUEST,
                    "the body must be a JSON object with a \"value\" member",
                );
            };
            run.answer(&key, v)
        }
        Answer::Auth(task, id) => {
            let key = key_of("auth", &task, &id);
            let v = body.unwrap_or_else(|| json!({}));
            let fine = v.as_object().is_some_and(|o| {
                ["userId", "code"]
                    .iter()
                    .all(|k| o.get(*k).is_none_or(|x| x.is_string() || x.is_null()))
            });
            if !fine {
                return error(
                    StatusCode::BAD_REQUEST,
                    "the body must be a JSON object {\"userId\"?: string, \"code\"?: string}",
                );
            }
            run.answer(&key, v)
        }
        Answer::Cancel(task) => {
            let task = match (run.has_task(&task), run.root_task()) {
                (false, Some(root)) if task == run.context_id => root,
                _ => task,
            };
            run.request_cancel(&task)
        }
    };
    match outcome {
        AnswerOutcome::Accepted => ok(),
        AnswerOutcome::Unknown => error(StatusCode::NOT_FOUND, "unknown task or request id"),
        AnswerOutcome::AlreadyAnswered => error(StatusCode::CONFLICT, "already answered"),
    }
}

/// `GET /api/ws`: a run's events as WebSocket text frames (see [`crate::ws`]).
fn open_ws(app: &App, mut req: Request<Incoming>) -> Response<RespBody> {
    let q = Query::parse(req.uri().query());
    let args = match StreamArgs::from_query(&q) {
        Ok(a) => a,
        Err(e) => return error(StatusCode::BAD_REQUEST, e),
    };
    let from = match q.get("from").map(|v| parse_u64("from", v)).transpose() {
        Ok(f) => f.unwrap_or(0),
        Err(e) => return error(StatusCode::BAD_REQUEST, e),
    };
    let scenario = match args.scenario.as_deref().map(Scenario::from_id) {
        Some(None) => return error(StatusCode::NOT_FOUND, "unknown scenario"),
        Some(Some(s)) => s,
        None => Scenario::Quick,
    };
    if let Some(id) = &args.run {
        if !valid_run_id(id) {
            return error(
                StatusCode::BAD_REQUEST,
                "run: 1 to 64 characters among A-Z a-z 0-9 . _ -",
            );
        }
    }
    let Some(resp) = crate::ws::upgrade_response::<RespBody>(&req) else {
        return error(
            StatusCode::BAD_REQUEST,
            "expected a WebSocket upgrade request",
        );
    };
    let seed = args.seed.unwrap_or(1);
    let speed = args.speed.unwrap_or(app.config.default_speed);
    let events = args.events.unwrap_or(1000);
    let run = match args.run.as_deref().and_then(|id| app.runs.get(id)) {
        Some(r) => r,
        None => app.runs.get_or_create(RunSpec {
            id: args.run.clone().unwrap_or_default(),
            scenario,
            seed,
            speed,
            faults: String::new(),
            events,
            params_key: format!("ws|{}|{seed}|{speed}|{events}", scenario.id()),
            deferred: false,
        }),
    };
    run.next_stream_index();
    tokio::spawn(async move {
        if let Ok(up) = hyper::upgrade::on(&mut req).await {
            crate::ws::stream_run(crate::ws::WsConn::new(up), run, from).await;
        }
    });
    resp
}

/// The parameters of a stream request (query string, merged with a POST body).
#[derive(Debug, Default)]
pub(crate) struct StreamArgs {
    pub(crate) dialect: Option<String>,
    pub(crate) run: Option<String>,
    pub(crate) scenario: Option<String>,
    pub(crate) seed: Option<u64>,
    pub(crate) speed: Option<f64>,
    pub(crate) faults: Option<String>,
    pub(crate) events: Option<u64>,
    pub(crate) last_event_id: Option<(u64, Option<usize>)>,
    pub(crate) retry: Option<u64>,
    pub(crate) heartbeat: Option<u64>,
}

pub(crate) fn parse_u64(name: &str, v: &str) -> Result<u64, String> {
    v.trim()
        .parse()
        .map_err(|_| format!("{name}: {v:?} is not a non-negative integer"))
}

fn parse_speed(v: &str) -> Result<f64, String> {
    match v.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && (0.0..=10_000.0).contains(&s) => Ok(s),
        _ => Err(format!("speed: {v:?} is not a number in 0..=10000")),
    }
}

impl StreamArgs {
    pub(crate) fn from_query(q: &Query) -> Result<StreamArgs, String> {
        let u = |name: &str| q.get(name).map(|v| parse_u64(name, v)).transpose();
        Ok(StreamArgs {
            dialect: q.get("dialect").map(str::to_owned),
            run: q.get("run").map(str::to_owned),
            scenario: q.get("scenario").map(str::to_owned),
            seed: u("seed")?,
            speed: q.get("speed").map(parse_speed).transpose()?,
            faults: q.get("faults").map(str::to_owned),
            events: u("events")?,
            // Lenient, like an EventSource's Last-Event-ID: garbage means "from the start".
            last_event_id: q.get("lastEventId").and_then(dialects::parse_event_id),
            retry: u("retry")?,
            heartbeat: u("heartbeat")?,
        })
    }

    /// Merges a POST body `{scenario, seed, speed, faults, run, events, lastEventId, retry,
    /// heartbeat}` (numbers may be given as strings); body members win over the query.
    fn merge_body(&mut self, body: &Value) -> Result<(), String> {
        let Some(o) = body.as_object() else {
            return Err("the body must be a JSON object".into());
        };
        let text = |k: &str| -> Result<Option<String>, String> {
            match o.get(k) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(Value::Number(n)) => Ok(Some(n.to_string())),
                Some(other) => Err(format!("{k}: expected a string or a number, got {other}")),
            }
        };
        let uint = |k: &str| -> Result<Option<u64>, String> {
            text(k)?.map(|v| parse_u64(k, &v)).transpose()
        };
        if let Some(v) = text("run")? {
            self.run = Some(v);
        }
        if let Some(v) = text("dialect")? {
            self.dialect = Some(v);
        }
        if let Some(v) = text("scenario")? {
            self.scenario = Some(v);
        }
        if let Some(v) = uint("seed")? {
            self.seed = Some(v);
        }
        if let Some(v) = text("speed")? {
            self.speed = Some(parse_speed(&v)?);
        }
        if let Some(v) = text("faults")? {
            self.faults = Some(v);
        }
        if let Some(v) = uint("events")? {
            self.events = Some(v);
        }
        if let Some(v) = text("lastEventId")? {
            self.last_event_id = Some(
                dialects::parse_event_id(&v)
                    .ok_or_else(|| format!("lastEventId: {v:?} is not N or N.k"))?,
            );
        }
        if let Some(v) = uint("retry")? {
            self.retry = Some(v);
        }
        if let Some(v) = uint("heartbeat")? {
            self.heartbeat = Some(v);
        }
        Ok(())
    }
}

/// What a conversation endpoint (`/api/ag-ui`, `/api/ai-sdk/chat`) reads from its query: the
/// stream arguments, the scenario, the faults (as written and parsed, checked by the
/// endpoint's `check`) and the bulk event count; or the error response to send (boxed: a
/// response is large).
pub(crate) struct ConversationQuery {
    pub args: StreamArgs,
    pub scenario: Scenario,
    pub faults_str: String,
    pub faults: Faults,
    pub events: u64,
}

pub(crate) fn conversation_query(
    query: Option<&str>,
    check: fn(&Faults) -> Result<(), String>,
) -> Result<ConversationQuery, Box<Response<RespBody>>> {
    let q = Query::parse(query);
    let args =
        StreamArgs::from_query(&q).map_err(|e| Box::new(error(StatusCode::BAD_REQUEST, e)))?;
    let scenario = match args.scenario.as_deref().map(Scenario::from_id) {
        None => Scenario::Quick,
        Some(Some(s)) => s,
        Some(None) => return Err(Box::new(error(StatusCode::NOT_FOUND, "unknown scenario"))),
    };
    let faults_str = args.faults.clone().unwrap_or_default();
    let faults = Faults::parse(&faults_str)
        .and_then(|f| check(&f).map(|()| f))
        .map_err(|e| Box::new(error(StatusCode::BAD_REQUEST, format!("faults: {e}"))))?;
    let events = args.events.unwrap_or(1000);
    if !(bulk::MIN_EVENTS..=bulk::MAX_EVENTS).contains(&events) {
        return Err(Box::new(error(
            StatusCode::BAD_REQUEST,
            format!(
                "events: {events} is outside {}..={}",
                bulk::MIN_EVENTS,
                bulk::MAX_EVENTS
            ),
        )));
    }
    Ok(ConversationQuery {
        args,
        scenario,
        faults_str,
        faults,
        events,
    })
}

/// The `status` fault of a conversation endpoint, counted per conversation (`key`): the
/// response to send while it applies.
pub(crate) fn conversation_status_fault(
    app: &crate::App,
    faults: &Faults,
    key: &str,
) -> Option<Response<RespBody>> {
    let st = faults.status?;
    let n = app.runs.attempt(key);
    st.count
        .is_none_or(|c| n < c)
        .then(|| status_fault_response(st))
}

pub(crate) fn status_fault_response(st: StatusFault) -> Response<RespBody> {
    let code = StatusCode::from_u16(st.code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut r = if code == StatusCode::NO_CONTENT {
        let mut r = Response::new(full(Bytes::new()));
        *r.status_mut() = code;
        r
    } else {
        json_response(
            code,
            &json!({"error": format!("injected status {}", st.code), "status": st.code}),
        )
    };
    if code == StatusCode::TOO_MANY_REQUESTS {
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    }
    r
}

pub(crate) fn header_last_event_id(h: &HeaderMap) -> Option<(u64, Option<usize>)> {
    dialects::parse_event_id(h.get("last-event-id")?.to_str().ok()?)
}

/// How a stream endpoint serves its run beyond the query (the JSON-RPC endpoints).
#[derive(Default)]
pub(crate) struct StreamOpts {
    /// The dialect, overriding `dialect=`.
    pub(crate) dialect: Option<Dialect>,
    /// JSON-RPC id to wrap the events with.
    pub(crate) rpc_id: Option<Value>,
    /// End at the root task's final status-update (see [`View::stop_at_final`]).
    pub(crate) stop_at_final: bool,
    /// Start at this canonical position whatever `Last-Event-ID` says (answer streams).
    pub(crate) from: Option<u64>,
    /// Bare `data:` frames, no `retry:` / `id:` lines (A2A v1.0).
    pub(crate) no_ids: bool,
    /// A dialect event sent first (A2A v1.0: the `Task` snapshot).
    pub(crate) prelude: Option<Value>,
}

/// Opens (or attaches to) a run and answers with its SSE stream. `existing`: the run id of
/// `GET /api/runs/{id}/stream` (no run is created then).
pub(crate) fn open_stream(
    app: &App,
    args: StreamArgs,
    headers: &HeaderMap,
    existing: Option<&str>,
    opts: StreamOpts,
) -> Response<RespBody> {
    let dialect = match (opts.dialect, args.dialect.as_deref()) {
        (Some(d), _) => d,
        (None, None) => Dialect::Canonical,
        (None, Some(name)) => match Dialect::parse(name) {
            Some(Dialect::MyAgent) => {
                return error(
                    StatusCode::BAD_REQUEST,
                    "dialect myagent is served over the WebSocket at /api/myagent/ws",
                )
            }
            Some(d) => d,
            None => {
                return error(
                    StatusCode::BAD_REQUEST,
                    format!("dialect: {name:?} is not one of canonical, a2a, a2a-v1, acp, unified"),
                )
            }
        },
    };
    let last_id = header_last_event_id(headers).or(args.last_event_id);
    let run_id = existing.map(str::to_owned).or(args.run.clone());
    if let Some(id) = &run_id {
        if !valid_run_id(id) {
            return error(
                StatusCode::BAD_REQUEST,
                "run: 1 to 64 characters among A-Z a-z 0-9 . _ -",
            );
        }
    }
    let scenario = match &args.scenario {
        Some(s) => match Scenario::from_id(s) {
            Some(sc) => Some(sc),
            None => return error(StatusCode::NOT_FOUND, format!("unknown scenario {s:?}")),
        },
        None => None,
    };
    if let Some(n) = args.events {
        if dialect != Dialect::Canonical && n > MAX_DIALECT_EVENTS {
            return error(
                StatusCode::BAD_REQUEST,
                format!("events: at most {MAX_DIALECT_EVENTS} in a dialect (the encoding is kept in memory)"),
            );
        }
        if !(bulk::MIN_EVENTS..=bulk::MAX_EVENTS).contains(&n) {
            return error(
                StatusCode::BAD_REQUEST,
                format!(
                    "events: {n} is outside {}..={}",
                    bulk::MIN_EVENTS,
                    bulk::MAX_EVENTS
                ),
            );
        }
    }
    let scenario_eff = scenario.unwrap_or(Scenario::Quick);
    let seed = args.seed.unwrap_or(1);
    let speed = args.speed.unwrap_or(app.config.default_speed);
    let events = args.events.unwrap_or(1000);
    let params_key = format!(
        "{}|{seed}|{speed}|{}|{events}",
        scenario_eff.id(),
        args.faults.as_deref().unwrap_or("")
    );
    let found: Option<Arc<Run>> = match &run_id {
        Some(id) => app.runs.get(id),
        None if last_id.is_some() && opts.rpc_id.is_none() => {
            app.runs.latest_with_params(&params_key)
        }
        None => None,
    };
    if existing.is_some() && found.is_none() {
        return error(StatusCode::NOT_FOUND, "unknown run");
    }
    let faults_str = args
        .faults
        .clone()
        .or_else(|| found.as_ref().map(|r| r.spec.faults.clone()))
        .unwrap_or_default();
    let faults = match Faults::parse(&faults_str) {
        Ok(f) => f,
        Err(e) => return error(StatusCode::BAD_REQUEST, format!("faults: {e}")),
    };
    if let Some(st) = faults.status {
        let key = match &run_id {
            Some(id) => format!("run:{id}"),
            None => format!("params:{params_key}"),
        };
        let n = app.runs.attempt(&key);
        if st.count.is_none_or(|c| n < c) {
            return status_fault_response(st);
        }
    }
    let run = match found {
        Some(r) => r,
        None => app.runs.get_or_create(RunSpec {
            id: run_id.unwrap_or_default(),
            scenario: scenario_eff,
            seed,
            speed,
            faults: faults_str,
            events,
            params_key,
            deferred: false,
        }),
    };
    let index = run.next_stream_index();
    let last_id = if opts.from.is_some() { None } else { last_id };
    let resumed = last_id.is_some();
    // A dialect stream may resume in the middle of the frames of one canonical event.
    let mut skip = None;
    let mut start = match last_id {
        Some(_) if faults.restart => 0,
        // `N.k` with k the largest index: nothing of event N is left (and k + 1 overflows).
        Some((id, Some(k))) if dialect != Dialect::Canonical && k < usize::MAX => {
            skip = Some((id, k + 1));
            id
        }
        Some((id, _)) => id.saturating_add(1),
        None => opts.from.unwrap_or(0),
    };
    if let (Some(k), true) = (faults.dup, resumed) {
        if k > 0 {
            skip = None;
        }
        start = start.saturating_sub(k);
    }
    let view = dialects::encoded(&run, dialect).map(|enc| View {
        dialect,
        enc,
        rpc_id: opts.rpc_id.clone(),
        stop_at_final: opts.stop_at_final,
        skip,
        no_ids: opts.no_ids,
        prelude: opts.prelude.as_ref().map(|p| Bytes::from(p.to_string())),
    });
    let ctype = faults
        .ctype
        .clone()
        .unwrap_or_else(|| "text/event-stream".to_owned());
    let conn = Connection {
        run: run.clone(),
        start,
        first: index == 0,
        retry_ms: args.retry.unwrap_or(DEFAULT_RETRY_MS),
        heartbeat_ms: args
            .heartbeat
            .or(faults.heartbeat)
            .unwrap_or(DEFAULT_HEARTBEAT_MS)
            .max(10),
        faults,
        view,
    };
    let mut r = Response::new(sse::open(conn).boxed());
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
    if let Ok(v) = HeaderValue::from_str(&run.spec.id) {
        h.insert(HeaderName::from_static("x-run-id"), v);
    }
    r
}

async fn serve_static(dir: &std::path::Path, segs: &[String], head: bool) -> Response<RespBody> {
    let url_path = segs.join("/");
    if segs.iter().any(|s| s == ".." || s.contains('/')) {
        return error(StatusCode::FORBIDDEN, "forbidden path");
    }
    match static_files::load(dir.to_path_buf(), url_path).await {
        Ok((bytes, mime, html)) => {
            let len = bytes.len();
            let mut r = Response::new(if head {
                full(Bytes::new())
            } else {
                full(bytes)
            });
            let h = r.headers_mut();
            h.insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
            h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            h.insert(
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            );
            if head {
                h.insert(header::CONTENT_LENGTH, HeaderValue::from(len));
            }
            if html {
                h.insert(
                    header::CONTENT_SECURITY_POLICY,
                    HeaderValue::from_static(CONTENT_SECURITY_POLICY),
                );
                h.insert(
                    header::REFERRER_POLICY,
                    HeaderValue::from_static("no-referrer"),
                );
            }
            r
        }
        Err(StaticError::Forbidden) => error(StatusCode::FORBIDDEN, "forbidden path"),
        Err(StaticError::NotFound) => error(StatusCode::NOT_FOUND, "not found"),
    }
}
