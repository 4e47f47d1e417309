//! Opening (or attaching to) a run and answering with its SSE stream, in the dialect asked for:
//! what the stream endpoints of every protocol share.

use crate::args::{header_last_event_id, status_fault_response, StreamArgs, MAX_DIALECT_EVENTS};
use crate::dialects::{self, Dialect};
use crate::faults::Faults;
use crate::reply::{error, RespBody};
use crate::run::{valid_run_id, Run, RunSpec};
use crate::scenarios::{bulk, Scenario};
use crate::sse::{self, Connection, View, DEFAULT_HEARTBEAT_MS, DEFAULT_RETRY_MS};
use crate::App;
use http_body_util::BodyExt;
use hyper::body::Bytes;
use hyper::header::{self, HeaderMap, HeaderName, HeaderValue};
use hyper::{Response, StatusCode};
use serde_json::Value;
use std::sync::Arc;

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
    let dialect = match stream_dialect(opts.dialect, &args) {
        Ok(d) => d,
        Err(r) => return *r,
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
    if let Err(r) = check_events(dialect, args.events) {
        return *r;
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

/// The dialect a stream request asks for: `dialect` (the endpoint's) or `dialect=`; a 400 for
/// an unknown one or MyAgent (served over the WebSocket).
fn stream_dialect(
    dialect: Option<Dialect>,
    args: &StreamArgs,
) -> Result<Dialect, Box<Response<RespBody>>> {
    Ok(match (dialect, args.dialect.as_deref()) {
        (Some(d), _) => d,
        (None, None) => Dialect::Canonical,
        (None, Some(name)) => match Dialect::parse(name) {
            Some(Dialect::MyAgent) => {
                return Err(Box::new(error(
                    StatusCode::BAD_REQUEST,
                    "dialect myagent is served over the WebSocket at /api/myagent/ws",
                )))
            }
            Some(d) => d,
            None => {
                return Err(Box::new(error(
                    StatusCode::BAD_REQUEST,
                    format!("dialect: {name:?} is not one of canonical, a2a, a2a-v1, acp, unified"),
                )))
            }
        },
    })
}

/// A 400 unless `events=` (of a `bulk` run) is within bounds, and small enough to keep its
/// encoding in memory in a dialect.
fn check_events(dialect: Dialect, events: Option<u64>) -> Result<(), Box<Response<RespBody>>> {
    if let Some(n) = events {
        if dialect != Dialect::Canonical && n > MAX_DIALECT_EVENTS {
            return Err(Box::new(error(
                StatusCode::BAD_REQUEST,
                format!("events: at most {MAX_DIALECT_EVENTS} in a dialect (the encoding is kept in memory)"),
            )));
        }
        if !(bulk::MIN_EVENTS..=bulk::MAX_EVENTS).contains(&n) {
            return Err(Box::new(error(
                StatusCode::BAD_REQUEST,
                format!(
                    "events: {n} is outside {}..={}",
                    bulk::MIN_EVENTS,
                    bulk::MAX_EVENTS
                ),
            )));
        }
    }
    Ok(())
}
