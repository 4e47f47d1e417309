//! The A2A v1.0 agent card, `GET /api/a2a/v1/.well-known/agent-card.json`: both interfaces
//! (`supportedInterfaces`: the JSON-RPC endpoint `/api/a2a/v1` and the HTTP+JSON base
//! `/api/a2a/rest`, protocol version 1.0), streaming, one skill per scenario. The URLs are
//! absolute, built from the request's `Host`; the card request's own query (`?scenario=…&seed=…`)
//! is carried into them, so that a client reading the card runs that scenario (otherwise a
//! client adds `?scenario=…` to each request).

use crate::reply::{json_response, RespBody};
use hyper::header::{self, HeaderMap};
use hyper::{Response, StatusCode};
use serde_json::{json, Value};

/// Path of the JSON-RPC interface.
pub const JSONRPC_PATH: &str = "/api/a2a/v1";
/// Base path of the HTTP+JSON interface.
pub const REST_PATH: &str = "/api/a2a/rest";

/// The card for a server reached as `http://{host}`, its interfaces carrying `query`.
pub fn card_json(host: &str, query: Option<&str>) -> Value {
    let base = format!("http://{host}");
    let q = query
        .filter(|q| {
            !q.is_empty()
                && q.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"=&.,-_%+:".contains(&b))
        })
        .map(|q| format!("?{q}"))
        .unwrap_or_default();
    let skills: Vec<Value> = crate::scenarios::list_json()
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            json!({
                "id": s["id"],
                "name": s["title"],
                "description": s["description"],
                "tags": ["scenario"],
            })
        })
        .collect();
    json!({
        "name": "agentwire scenario agent",
        "description": "Scripted agent runs (streamed text, sub-agents, tools, files, data, input and auth requests, failures, cancel) with fault injection, for agentwire's demo and tests. Pick a run with ?scenario=ID&seed=N&speed=F&faults=... on each request.",
        "supportedInterfaces": [
            {"url": format!("{base}{JSONRPC_PATH}{q}"), "protocolBinding": "JSONRPC", "protocolVersion": super::VERSION},
            {"url": format!("{base}{REST_PATH}{q}"), "protocolBinding": "HTTP+JSON", "protocolVersion": super::VERSION},
        ],
        "version": env!("CARGO_PKG_VERSION"),
        "capabilities": {"streaming": true, "pushNotifications": false},
        "defaultInputModes": ["text/plain", "application/json"],
        "defaultOutputModes": ["text/plain", "application/json", "text/markdown", "text/csv"],
        "skills": skills,
    })
}

/// The card answer (`Host` of the request, `127.0.0.1` without one; the request's query carried
/// into the interface URLs).
pub fn card(headers: &HeaderMap, query: Option<&str>) -> Response<RespBody> {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| {
            !h.is_empty()
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b".-:[]_".contains(&b))
        })
        .unwrap_or("127.0.0.1");
    json_response(StatusCode::OK, &card_json(host, query))
}
