//! The JSON-RPC 2.0 endpoints of the dialects: `POST /api/a2a` (A2A v0.3: `message/stream`,
//! `tasks/resubscribe`, `tasks/cancel`, `tasks/get`) and `POST /api/acp/rpc` (A2A-ACP:
//! `tasks/provideInputAndContinue`, `tasks/cancel`). Every JSON-RPC answer is HTTP 200 (a
//! stream, or a JSON response / error object); malformed requests get JSON-RPC errors, never a
//! panic. See the README, "Dialects".

use crate::args::{Query, StreamArgs};
use crate::dialects::{a2a, acp, Dialect};
use crate::reply::{json_response, RespBody, MAX_BODY};
use crate::run::{AnswerOutcome, Run};
use crate::stream::{open_stream, StreamOpts};
use crate::App;
use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use hyper::header::HeaderMap;
use hyper::{Request, Response, StatusCode};
use serde_json::{json, Map, Value};
use std::sync::Arc;
use std::time::Duration;

/// JSON-RPC: invalid JSON.
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC: not a valid request object.
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC: no such method.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC: bad parameters.
pub const INVALID_PARAMS: i64 = -32602;
/// A2A: no such task.
pub const TASK_NOT_FOUND: i64 = -32001;
/// A2A: the task cannot be canceled (it ended, or a cancel is already under way).
pub const TASK_NOT_CANCELABLE: i64 = -32002;

/// How long `tasks/cancel` waits for the canceled status to reach the log.
const CANCEL_WAIT: Duration = Duration::from_secs(5);

/// A JSON-RPC error response.
pub fn rpc_error(id: &Value, code: i64, message: impl Into<String>) -> Response<RespBody> {
    json_response(
        StatusCode::OK,
        &json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into()}}),
    )
}

/// A JSON-RPC result response.
pub fn rpc_result(id: &Value, result: Value) -> Response<RespBody> {
    json_response(
        StatusCode::OK,
        &json!({"jsonrpc": "2.0", "id": id, "result": result}),
    )
}

/// A JSON-RPC error about to be sent.
pub struct Fail {
    id: Value,
    code: i64,
    message: String,
}

impl Fail {
    fn new(id: &Value, code: i64, message: impl Into<String>) -> Fail {
        Fail {
            id: id.clone(),
            code,
            message: message.into(),
        }
    }

    /// The error response.
    pub fn reply(self) -> Response<RespBody> {
        rpc_error(&self.id, self.code, self.message)
    }
}

/// A checked JSON-RPC request.
pub(crate) struct Call {
    /// `id` (null when absent).
    pub(crate) id: Value,
    /// `method`.
    pub(crate) method: String,
    /// `params` (empty when absent).
    pub(crate) params: Map<String, Value>,
}

/// Reads and checks a JSON-RPC request body.
pub(crate) async fn read_call(req: Request<Incoming>) -> Result<Call, Fail> {
    let bytes = match Limited::new(req.into_body(), MAX_BODY).collect().await {
        Ok(c) => c.to_bytes(),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => {
            return Err(Fail::new(
                &Value::Null,
                INVALID_REQUEST,
                "request body too large",
            ))
        }
        Err(_) => {
            return Err(Fail::new(
                &Value::Null,
                INVALID_REQUEST,
                "could not read the request body",
            ))
        }
    };
    let v: Value = serde_json::from_slice(&bytes)
        .map_err(|e| Fail::new(&Value::Null, PARSE_ERROR, format!("parse error: {e}")))?;
    let o = match v {
        Value::Object(o) => o,
        Value::Array(_) => {
            return Err(Fail::new(
                &Value::Null,
                INVALID_REQUEST,
                "batch requests are not supported",
            ))
        }
        _ => {
            return Err(Fail::new(
                &Value::Null,
                INVALID_REQUEST,
                "the request must be a JSON object",
            ))
        }
    };
    let id = match o.get("id") {
        None => Value::Null,
        Some(i @ (Value::String(_) | Value::Number(_) | Value::Null)) => i.clone(),
        Some(_) => {
            return Err(Fail::new(
                &Value::Null,
                INVALID_REQUEST,
                "id must be a string, a number or null",
            ))
        }
    };
    if o.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(Fail::new(&id, INVALID_REQUEST, "jsonrpc must be \"2.0\""));
    }
    let Some(method) = o.get("method").and_then(Value::as_str).map(str::to_owned) else {
        return Err(Fail::new(&id, INVALID_REQUEST, "method must be a string"));
    };
    let params = match o.get("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(p)) => p.clone(),
        Some(_) => return Err(Fail::new(&id, INVALID_PARAMS, "params must be an object")),
    };
    Ok(Call { id, method, params })
}

fn param_str<'a>(call: &'a Call, k: &str) -> Result<&'a str, Fail> {
    call.params.get(k).and_then(Value::as_str).ok_or_else(|| {
        Fail::new(
            &call.id,
            INVALID_PARAMS,
            format!("params.{k} must be a string"),
        )
    })
}

/// The run of dialect task id `task` (`<taskId>@<runId>`; a bare canonical task id means the
/// latest run that has it) and the canonical task id (A2A v0.3, A2A v1.0, A2A-ACP alike).
pub(crate) fn find_run(app: &App, task: &str) -> Option<(Arc<Run>, String)> {
    match crate::dialects::split_task_id(task) {
        Some((t, r)) => app
            .runs
            .get(r)
            .filter(|run| run.has_task(t))
            .map(|run| (run, t.to_owned())),
        None => app.runs.by_task(task).map(|run| (run, task.to_owned())),
    }
}

/// [`find_run`], or a TaskNotFoundError.
fn run_of(app: &App, call: &Call, task: &str) -> Result<(Arc<Run>, String), Fail> {
    find_run(app, task)
        .ok_or_else(|| Fail::new(&call.id, TASK_NOT_FOUND, format!("task {task:?} not found")))
}

/// The value a user message (A2A `parts`) answers an input with: the first data part's data
/// (`{"value": x}` → x, `{"approved": b}` → `"approve"` / `"deny"`), else the text parts
/// joined.
pub fn message_value(parts: &[Value]) -> Option<Value> {
    if let Some(d) = parts
        .iter()
        .find(|p| p.get("kind").and_then(Value::as_str) == Some("data"))
        .and_then(|p| p.get("data"))
        .filter(|d| !d.is_null())
    {
        if let Some(o) = d.as_object() {
            if let Some(v) = o.get("value").filter(|_| o.len() == 1) {
                return Some(v.clone());
            }
            if let Some(b) = o.get("approved").and_then(Value::as_bool) {
                return Some(Value::from(if b { "approve" } else { "deny" }));
            }
        }
        return Some(d.clone());
    }
    let texts: Vec<&str> = parts
        .iter()
        .filter(|p| p.get("kind").and_then(Value::as_str) == Some("text"))
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect();
    (!texts.is_empty()).then(|| Value::from(texts.join("\n")))
}

/// The body given to [`Run::answer`] for request `key` answered with `value`; `data` is the
/// message's first data part (for an auth request's `userId` / `code`).
pub(crate) fn answer_body(key: &str, value: Value, data: Option<&Value>) -> Value {
    let s = |k: &str| data.and_then(|d| d.get(k)).and_then(Value::as_str);
    if key.starts_with("auth/") {
        let mut o = Map::new();
        for k in ["userId", "code"] {
            if let Some(v) = s(k) {
                o.insert(k.into(), v.into());
            }
        }
        Value::Object(o)
    } else {
        let mut o = Map::new();
        o.insert("value".into(), value);
        if let Some(u) = s("userId") {
            o.insert("userId".into(), u.into());
        }
        Value::Object(o)
    }
}

/// The canonical `options` of the request whose `*-required` event is at `pos`.
fn request_options(run: &Run, pos: u64) -> Option<Vec<Value>> {
    let ev = run.range(pos, pos + 1).into_iter().next()?;
    let v: Value = serde_json::from_str(ev.data()).ok()?;
    v.get("options")?.as_array().cloned()
}

/// The A2A state of `task` from the run's log (its last `task-status`), and that status's
/// timestamp.
pub fn a2a_state(run: &Run, task: &str) -> (&'static str, String) {
    let (len, _, _) = run.status();
    let mut state = ("submitted", String::new());
    let mut from = 0;
    while from < len {
        let to = len.min(from + 4096);
        for ev in run.range(from, to) {
            if &*ev.kind != "task-status" || !ev.data().contains(task) {
                continue;
            }
            let Ok(v) = serde_json::from_str::<Value>(ev.data()) else {
                continue;
            };
            if v["taskId"].as_str() != Some(task) {
                continue;
            }
            let s = match v["status"].as_str().unwrap_or("") {
                "working" | "waiting-subtask" => "working",
                "waiting-input" => "input-required",
                "waiting-auth" => "auth-required",
                "completed" => "completed",
                "failed" => "failed",
                "canceled" => "canceled",
                _ => continue,
            };
            state = (s, v["timestamp"].as_str().unwrap_or("").to_owned());
        }
        from = to;
    }
    state
}

/// `tasks/cancel` of both dialects: asks for the cancel, waits for the canceled status, and
/// answers with the A2A `Task`.
async fn cancel(app: &App, call: &Call, task: &str) -> Response<RespBody> {
    let (run, canonical) = match run_of(app, call, task) {
        Ok(r) => r,
        Err(f) => return f.reply(),
    };
    match run.request_cancel(&canonical) {
        AnswerOutcome::Accepted => {}
        AnswerOutcome::Unknown => {
            return rpc_error(&call.id, TASK_NOT_FOUND, format!("task {task:?} not found"))
        }
        AnswerOutcome::AlreadyAnswered => {
            return rpc_error(
                &call.id,
                TASK_NOT_CANCELABLE,
                format!("task {task:?} cannot be canceled: it ended, or a cancel is under way"),
            )
        }
    }
    let mut rx = run.subscribe();
    let deadline = tokio::time::Instant::now() + CANCEL_WAIT;
    loop {
        rx.borrow_and_update();
        // Until the canceled status is in the run's log (what the answer is read from), not
        // only in its interaction state: under load the two are apart for a moment, and a Task
        // answered from the log before it would say the task still waits.
        let logged = matches!(
            a2a_state(&run, &canonical).0,
            "canceled" | "completed" | "failed" | "rejected"
        );
        if logged || (run.status().1 && run.task_terminal(&canonical) != Some(false)) {
            break;
        }
        tokio::select! {
            _ = rx.changed() => {}
            _ = tokio::time::sleep_until(deadline) => break,
        }
    }
    let (state, ts) = a2a_state(&run, &canonical);
    rpc_result(
        &call.id,
        a2a::task_object(task, &run.context_id, state, &ts),
    )
}

/// Turns the HTTP errors of the stream endpoints (bad query parameters) into JSON-RPC errors;
/// injected statuses (fault `status=`) stay as they are.
fn as_rpc(call: &Call, resp: Response<RespBody>, body_hint: &str) -> Response<RespBody> {
    match resp.status() {
        StatusCode::BAD_REQUEST | StatusCode::NOT_FOUND => rpc_error(
            &call.id,
            INVALID_PARAMS,
            format!("{body_hint} (see the query parameters)"),
        ),
        _ => resp,
    }
}

fn stream_opts(call: &Call, from: Option<u64>) -> StreamOpts {
    StreamOpts {
        dialect: Some(Dialect::A2a),
        rpc_id: Some(call.id.clone()),
        stop_at_final: true,
        from,
        ..StreamOpts::default()
    }
}

/// Checks the stream query parameters alone (so that errors are JSON-RPC errors).
fn check_query(call: &Call, q: &Query) -> Result<StreamArgs, Fail> {
    let args = StreamArgs::from_query(q).map_err(|e| Fail::new(&call.id, INVALID_PARAMS, e))?;
    if let Some(s) = &args.scenario {
        if crate::scenarios::Scenario::from_id(s).is_none() {
            return Err(Fail::new(
                &call.id,
                INVALID_PARAMS,
                format!("unknown scenario {s:?}"),
            ));
        }
    }
    if let Some(f) = &args.faults {
        crate::faults::Faults::parse(f)
            .map_err(|e| Fail::new(&call.id, INVALID_PARAMS, format!("faults: {e}")))?;
    }
    Ok(args)
}

/// `POST /api/a2a`.
pub async fn a2a(app: &App, req: Request<Incoming>) -> Response<RespBody> {
    let q = Query::parse(req.uri().query());
    let headers: HeaderMap = req.headers().clone();
    let call = match read_call(req).await {
        Ok(c) => c,
        Err(f) => return f.reply(),
    };
    let args = match check_query(&call, &q) {
        Ok(a) => a,
        Err(f) => return f.reply(),
    };
    match call.method.as_str() {
        "message/stream" => message_stream(app, &call, args, &headers),
        "tasks/resubscribe" => {
            let task = match param_str(&call, "id") {
                Ok(t) => t.to_owned(),
                Err(f) => return f.reply(),
            };
            let (run, _) = match run_of(app, &call, &task) {
                Ok(r) => r,
                Err(f) => return f.reply(),
            };
            let resp = open_stream(
                app,
                args,
                &headers,
                Some(&run.spec.id),
                stream_opts(&call, None),
            );
            as_rpc(&call, resp, "cannot resubscribe")
        }
        "tasks/cancel" => match param_str(&call, "id") {
            Ok(t) => {
                let t = t.to_owned();
                cancel(app, &call, &t).await
            }
            Err(f) => f.reply(),
        },
        "tasks/get" => {
            let task = match param_str(&call, "id") {
                Ok(t) => t.to_owned(),
                Err(f) => return f.reply(),
            };
            match run_of(app, &call, &task) {
                Ok((run, canonical)) => {
                    let (state, ts) = a2a_state(&run, &canonical);
                    rpc_result(
                        &call.id,
                        a2a::task_object(&task, &run.context_id, state, &ts),
                    )
                }
                Err(f) => f.reply(),
            }
        }
        other => rpc_error(
            &call.id,
            METHOD_NOT_FOUND,
            format!("method {other:?} not found (message/stream, tasks/resubscribe, tasks/cancel, tasks/get)"),
        ),
    }
}

fn message_stream(
    app: &App,
    call: &Call,
    args: StreamArgs,
    headers: &HeaderMap,
) -> Response<RespBody> {
    let Some(m) = call.params.get("message").and_then(Value::as_object) else {
        return rpc_error(&call.id, INVALID_PARAMS, "params.message must be an object");
    };
    if m.get("kind").is_some_and(|k| k.as_str() != Some("message")) {
        return rpc_error(&call.id, INVALID_PARAMS, "message.kind must be \"message\"");
    }
    if m.get("role").and_then(Value::as_str) != Some("user") {
        return rpc_error(&call.id, INVALID_PARAMS, "message.role must be \"user\"");
    }
    if m.get("messageId").and_then(Value::as_str).is_none() {
        return rpc_error(
            &call.id,
            INVALID_PARAMS,
            "message.messageId must be a string",
        );
    }
    let Some(parts) = m.get("parts").and_then(Value::as_array) else {
        return rpc_error(&call.id, INVALID_PARAMS, "message.parts must be an array");
    };
    let Some(task) = m.get("taskId").and_then(Value::as_str) else {
        // A new task: a new run of the query's scenario, streamed from its start.
        let resp = open_stream(app, args, headers, None, stream_opts(call, Some(0)));
        return as_rpc(call, resp, "cannot start the run");
    };
    let (run, canonical) = match run_of(app, call, task) {
        Ok(r) => r,
        Err(f) => return f.reply(),
    };
    if let Some(c) = m.get("contextId").and_then(Value::as_str) {
        if c != run.context_id {
            return rpc_error(
                &call.id,
                INVALID_PARAMS,
                format!(
                    "task {task:?} belongs to context {:?}, not {c:?}",
                    run.context_id
                ),
            );
        }
    }
    let Some((key, pos)) = run.open_request_of(&canonical) else {
        return rpc_error(
            &call.id,
            INVALID_PARAMS,
            format!("task {task:?} is not waiting for input or authentication"),
        );
    };
    let data = parts
        .iter()
        .find(|p| p.get("kind").and_then(Value::as_str) == Some("data"))
        .and_then(|p| p.get("data"));
    let value = match message_value(parts) {
        Some(v) => v,
        None if key.starts_with("auth/") => Value::Null,
        None => {
            return rpc_error(
                &call.id,
                INVALID_PARAMS,
                "the message has no text or data part to answer the input with",
            )
        }
    };
    match run.answer(&key, answer_body(&key, value, data)) {
        AnswerOutcome::Accepted => {}
        _ => {
            return rpc_error(
                &call.id,
                INVALID_PARAMS,
                format!("the request of task {task:?} was already answered"),
            )
        }
    }
    let resp = open_stream(
        app,
        args,
        headers,
        Some(&run.spec.id),
        stream_opts(call, Some(pos + 1)),
    );
    as_rpc(call, resp, "cannot stream the task")
}

/// `POST /api/acp/rpc`.
pub async fn acp(app: &App, req: Request<Incoming>) -> Response<RespBody> {
    let call = match read_call(req).await {
        Ok(c) => c,
        Err(f) => return f.reply(),
    };
    match call.method.as_str() {
        "tasks/provideInputAndContinue" => provide_input(app, &call),
        "tasks/cancel" => {
            let task = call
                .params
                .get("id")
                .or_else(|| call.params.get("taskId"))
                .and_then(Value::as_str)
                .map(str::to_owned);
            match task {
                Some(t) => cancel(app, &call, &t).await,
                None => rpc_error(&call.id, INVALID_PARAMS, "params.id must be a string"),
            }
        }
        other => rpc_error(
            &call.id,
            METHOD_NOT_FOUND,
            format!("method {other:?} not found (tasks/provideInputAndContinue, tasks/cancel)"),
        ),
    }
}

fn provide_input(app: &App, call: &Call) -> Response<RespBody> {
    let task = match param_str(call, "taskId") {
        Ok(t) => t.to_owned(),
        Err(f) => return f.reply(),
    };
    let (run, canonical) = match run_of(app, call, &task) {
        Ok(r) => r,
        Err(f) => return f.reply(),
    };
    let Some((key, pos)) = run.open_request_of(&canonical) else {
        return rpc_error(
            &call.id,
            INVALID_PARAMS,
            format!("task {task:?} is not waiting for input"),
        );
    };
    let (value, data) = if let Some(opt) = call.params.get("permissionOptionId") {
        let Some(opt) = opt.as_str() else {
            return rpc_error(
                &call.id,
                INVALID_PARAMS,
                "params.permissionOptionId must be a string",
            );
        };
        if key.starts_with("input/") {
            if let Some(options) = request_options(&run, pos) {
                let ids: Vec<String> = acp::permission_options(&options)
                    .iter()
                    .filter_map(|o| o["optionId"].as_str().map(str::to_owned))
                    .collect();
                if !ids.is_empty() && !ids.iter().any(|i| i == opt) {
                    return rpc_error(
                        &call.id,
                        INVALID_PARAMS,
                        format!(
                            "permissionOptionId {opt:?} is not one of {}",
                            ids.join(", ")
                        ),
                    );
                }
            }
        }
        (Value::from(opt), None)
    } else if let Some(input) = call.params.get("input") {
        let parts = input
            .get("parts")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let data = parts
            .iter()
            .find(|p| p.get("kind").and_then(Value::as_str) == Some("data"))
            .and_then(|p| p.get("data"))
            .cloned();
        match message_value(&parts) {
            Some(v) => (v, data),
            None if key.starts_with("auth/") => (Value::Null, data),
            None => {
                return rpc_error(
                    &call.id,
                    INVALID_PARAMS,
                    "params.input.parts has no text or data part",
                )
            }
        }
    } else {
        return rpc_error(
            &call.id,
            INVALID_PARAMS,
            "params needs permissionOptionId or input",
        );
    };
    match run.answer(&key, answer_body(&key, value, data.as_ref())) {
        AnswerOutcome::Accepted => rpc_result(
            &call.id,
            json!({"taskId": task, "contextId": run.context_id, "accepted": true}),
        ),
        _ => rpc_error(
            &call.id,
            INVALID_PARAMS,
            format!("the request of task {task:?} was already answered"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_of_messages() {
        assert_eq!(
            message_value(&[json!({"kind": "text", "text": "approve"})]),
            Some(json!("approve"))
        );
        assert_eq!(
            message_value(&[
                json!({"kind": "text", "text": "x"}),
                json!({"kind": "data", "data": {"value": 3}})
            ]),
            Some(json!(3))
        );
        assert_eq!(
            message_value(&[json!({"kind": "data", "data": {"approved": false}})]),
            Some(json!("deny"))
        );
        assert_eq!(
            message_value(&[json!({"kind": "data", "data": {"a": 1, "b": 2}})]),
            Some(json!({"a": 1, "b": 2}))
        );
        assert_eq!(message_value(&[json!({"kind": "file"})]), None);
        assert_eq!(
            answer_body(
                "auth/t/a",
                Value::Null,
                Some(&json!({"userId": "u", "x": 1}))
            ),
            json!({"userId": "u"})
        );
        assert_eq!(
            answer_body("input/t/i", json!("approve"), None),
            json!({"value": "approve"})
        );
    }
}
