//! The HTTP API: routing to every endpoint, CORS on every response, the run API's answers and
//! cancels, the WebSocket view of a run and static files. What the endpoints share is below it:
//! [`crate::reply`] (responses), [`crate::args`] (request parameters), [`crate::stream`] (SSE
//! streams of a run).

use crate::args::{parse_u64, Query, StreamArgs};
use crate::reply::{add_cors, error, full, json_response, not_allowed, ok, read_json, RespBody};
use crate::run::{valid_run_id, AnswerOutcome, RunSpec};
use crate::scenarios::Scenario;
use crate::static_files::{self, StaticError, CONTENT_SECURITY_POLICY};
use crate::stream::{open_stream, StreamOpts};
use crate::util::percent_decode;
use crate::App;
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{json, Value};
use std::convert::Infallible;
use std::sync::Arc;

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
