//! What a request asks for: the query string, the parameters of a stream request (query merged
//! with a POST body), the AG-UI / AI SDK conversation query and its status faults, and
//! `Last-Event-ID`. Malformed values are errors for a 400, never panics.

use crate::dialects::{self};
use crate::faults::{Faults, StatusFault};
use crate::reply::{error, full, json_response, RespBody};
use crate::scenarios::{bulk, Scenario};
use crate::util::percent_decode;
use hyper::body::Bytes;
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::{Response, StatusCode};
use serde_json::{json, Value};

/// Largest `events=` of a `bulk` run watched in a dialect (its encoding is kept in memory).
pub const MAX_DIALECT_EVENTS: u64 = 1_000_000;

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

pub(crate) fn parse_speed(v: &str) -> Result<f64, String> {
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
    pub(crate) fn merge_body(&mut self, body: &Value) -> Result<(), String> {
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
