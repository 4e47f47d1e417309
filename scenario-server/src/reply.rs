//! The responses every endpoint builds: bodies, JSON answers, errors, CORS, and reading a
//! JSON request body (bounded by [`MAX_BODY`]).

use http_body_util::{combinators::BoxBody, BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::{Request, Response, StatusCode};
use serde_json::{json, Value};
use std::io;

/// Every response body.
pub type RespBody = BoxBody<Bytes, io::Error>;

/// Largest accepted request body.
pub const MAX_BODY: usize = 1 << 20;

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

pub(crate) fn ok() -> Response<RespBody> {
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
