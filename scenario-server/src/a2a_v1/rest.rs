//! The A2A v1.0 HTTP+JSON binding ("REST") under `/api/a2a/rest` (the scenario options go in
//! the query of each request):
//!
//! | request | answer |
//! |---|---|
//! | `POST message:stream` `{message}` | SSE of bare `StreamResponse`s |
//! | `GET` or `POST tasks/{id}:subscribe` | SSE: the `Task` snapshot, then live events |
//! | `POST tasks/{id}:cancel` | the `Task` (JSON) |
//! | `GET tasks/{id}` (`?historyLength=N`) | the `Task` (JSON) |
//!
//! JSON answers are `application/a2a+json`, like the official JS server's; errors are HTTP
//! 4xx with a `google.rpc.Status` body (`{"error":{"code","status","message","details":
//! [ErrorInfo]}}`), also before the first event of a stream.

use super::{cancel, check_version, get, history_length, send_streaming, subscribe, Cx, V1Error};
use crate::args::Query;
use crate::reply::{json_response, not_allowed, RespBody, MAX_BODY};
use crate::App;
use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{json, Value};

/// The media type of A2A JSON answers.
pub const A2A_JSON: &str = "application/a2a+json";

/// A JSON answer as `application/a2a+json`.
fn a2a_json(status: StatusCode, v: &Value) -> Response<RespBody> {
    let mut r = json_response(status, v);
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(A2A_JSON));
    r
}

/// The `google.rpc.Status` answer of an A2A error.
fn reply(e: &V1Error) -> Response<RespBody> {
    a2a_json(e.kind.http_status(), &e.status_body())
}

/// A `google.rpc.Status` answer without details (no A2A error: a path or a body problem).
fn plain(status: StatusCode, name: &str, message: impl Into<String>) -> Response<RespBody> {
    let body = json!({"error": {
        "code": status.as_u16(),
        "status": name,
        "message": message.into(),
        "details": [],
    }});
    a2a_json(status, &body)
}

/// Reads a JSON request body (empty: `{}`); the error answer when it cannot.
async fn body(req: Request<Incoming>) -> Result<Value, Box<Response<RespBody>>> {
    let bytes = match Limited::new(req.into_body(), MAX_BODY).collect().await {
        Ok(c) => c.to_bytes(),
        Err(_) => {
            return Err(Box::new(plain(
                StatusCode::BAD_REQUEST,
                "INVALID_ARGUMENT",
                "could not read the request body (at most 1 MiB)",
            )))
        }
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    serde_json::from_slice(&bytes).map_err(|e| {
        Box::new(plain(
            StatusCode::BAD_REQUEST,
            "INVALID_ARGUMENT",
            format!("invalid JSON body: {e}"),
        ))
    })
}

/// What a path under `/api/a2a/rest` names.
enum Route {
    Stream,
    Subscribe(String),
    Cancel(String),
    Get(String),
}

fn parse(path: &[&str]) -> Option<Route> {
    match path {
        ["message:stream"] => Some(Route::Stream),
        ["tasks", t] => Some(match t.rsplit_once(':') {
            Some((id, "subscribe")) if !id.is_empty() => Route::Subscribe(id.to_owned()),
            Some((id, "cancel")) if !id.is_empty() => Route::Cancel(id.to_owned()),
            _ => Route::Get((*t).to_owned()),
        }),
        _ => None,
    }
}

/// Serves `req` to `/api/a2a/rest/<path>`.
pub async fn route(app: &App, req: Request<Incoming>, path: &[&str]) -> Response<RespBody> {
    let Some(what) = parse(path) else {
        return plain(
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
            format!("no endpoint {}", req.uri().path()),
        );
    };
    let method = req.method().clone();
    let (get_ok, post_ok) = match &what {
        Route::Stream | Route::Cancel(_) => (false, true),
        Route::Subscribe(_) => (true, true),
        Route::Get(_) => (true, false),
    };
    if !((method == Method::GET && get_ok) || (method == Method::POST && post_ok)) {
        return not_allowed(match (get_ok, post_ok) {
            (true, true) => "GET, POST, OPTIONS",
            (true, false) => "GET, OPTIONS",
            _ => "POST, OPTIONS",
        });
    }
    let query = Query::parse(req.uri().query());
    let headers = req.headers().clone();
    let history = history_length(query.get("historyLength").map(Value::from).as_ref());
    let message = match what {
        Route::Stream => match body(req).await {
            Ok(b) => Some(b.get("message").cloned().unwrap_or(Value::Null)),
            Err(r) => return *r,
        },
        _ => None,
    };
    if let Err(e) = check_version(&headers) {
        return reply(&e);
    }
    let cx = Cx {
        app,
        query,
        headers,
        rpc_id: None,
    };
    let result = match what {
        Route::Stream => send_streaming(&cx, message.as_ref()),
        Route::Subscribe(t) => subscribe(&cx, &t),
        Route::Cancel(t) => cancel(&cx, &t).await.map(|v| a2a_json(StatusCode::OK, &v)),
        Route::Get(t) => get(&cx, &t, history).map(|v| a2a_json(StatusCode::OK, &v)),
    };
    result.unwrap_or_else(|e| reply(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        assert!(matches!(parse(&["message:stream"]), Some(Route::Stream)));
        assert!(
            matches!(parse(&["tasks", "t@r:subscribe"]), Some(Route::Subscribe(t)) if t == "t@r")
        );
        assert!(matches!(parse(&["tasks", "t@r:cancel"]), Some(Route::Cancel(t)) if t == "t@r"));
        assert!(matches!(parse(&["tasks", "t@r"]), Some(Route::Get(t)) if t == "t@r"));
        assert!(parse(&["tasks"]).is_none());
        assert!(parse(&["message:send"]).is_none());
    }
}
