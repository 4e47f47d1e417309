//! The A2A v1.0 JSON-RPC binding: `POST /api/a2a/v1?scenario=&seed=&speed=&faults=` with
//! methods `SendStreamingMessage`, `SubscribeToTask`, `CancelTask`, `GetTask`.
//!
//! As in the official servers, every answer is HTTP 200: a stream of
//! `{"jsonrpc":"2.0","id":…,"result":<StreamResponse>}` frames, a JSON result, or a JSON
//! error object (errors before the first event are plain JSON, never a stream). The
//! `A2A-Version: 1.0` header is checked before the method: without it a request gets -32009
//! with an `ErrorInfo` of reason `VERSION_NOT_SUPPORTED`; the v0.3 method names get -32601.

use super::{cancel, check_version, get, history_length, send_streaming, subscribe, Cx, V1Error};
use crate::args::Query;
use crate::reply::{json_response, RespBody};
use crate::rpc::{read_call, rpc_error, rpc_result, Call, INVALID_PARAMS, METHOD_NOT_FOUND};
use crate::App;
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use serde_json::{json, Value};

/// The JSON-RPC error response of an A2A error.
fn reply(id: &Value, e: &V1Error) -> Response<RespBody> {
    json_response(
        StatusCode::OK,
        &json!({"jsonrpc": "2.0", "id": id, "error": e.rpc_error()}),
    )
}

fn task_param(call: &Call) -> Option<String> {
    call.params
        .get("id")
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// `POST /api/a2a/v1`.
pub async fn handle(app: &App, req: Request<Incoming>) -> Response<RespBody> {
    let query = Query::parse(req.uri().query());
    let headers = req.headers().clone();
    let call = match read_call(req).await {
        Ok(c) => c,
        Err(f) => return f.reply(),
    };
    if let Err(e) = check_version(&headers) {
        return reply(&call.id, &e);
    }
    let cx = Cx {
        app,
        query,
        headers,
        rpc_id: Some(call.id.clone()),
    };
    let done = |r: Result<Response<RespBody>, V1Error>| r.unwrap_or_else(|e| reply(&call.id, &e));
    let value = |r: Result<Value, V1Error>| match r {
        Ok(v) => rpc_result(&call.id, v),
        Err(e) => reply(&call.id, &e),
    };
    match call.method.as_str() {
        "SendStreamingMessage" => done(send_streaming(&cx, call.params.get("message"))),
        "SubscribeToTask" | "CancelTask" | "GetTask" => {
            let Some(t) = task_param(&call) else {
                return rpc_error(&call.id, INVALID_PARAMS, "params.id must be a string");
            };
            match call.method.as_str() {
                "SubscribeToTask" => done(subscribe(&cx, &t)),
                "CancelTask" => value(cancel(&cx, &t).await),
                _ => value(get(&cx, &t, history_length(call.params.get("historyLength")))),
            }
        }
        other => rpc_error(
            &call.id,
            METHOD_NOT_FOUND,
            format!(
                "method {other:?} not found (SendStreamingMessage, SubscribeToTask, CancelTask, GetTask)"
            ),
        ),
    }
}
