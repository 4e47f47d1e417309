//! The connection options of `AgentClient`: `url`, `transport`, `dialect`, `method`, `body`,
//! `headers`, `credentials`, `resume`, `reconnect`, `message`, `session`, the dialects' options.

use super::a2a::A2aOptions;
use super::ag_ui::AgUiOptions;
use super::ai_sdk::AiSdkOptions;
use super::*;
use crate::browser::convert::to_json;
use crate::browser::error::js_error;
use crate::client::reconnect::ReconnectPolicy;
use crate::dialects::{Dialect, DialectChoice};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Which transport a client uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransportKind {
    /// fetch + ReadableStream SSE.
    Fetch,
    /// `EventSource`.
    EventSource,
    /// `WebSocket`.
    WebSocket,
    /// The app feeds the store.
    Manual,
}

/// The stream request and reconnection settings (read once from the client options).
pub struct StreamOptions {
    /// The stream URL.
    pub url: String,
    /// The transport.
    pub transport: TransportKind,
    /// `GET` or `POST`.
    pub method: String,
    /// The JSON body of a POST.
    pub body: Option<String>,
    /// Extra request headers (e.g. `Authorization`).
    pub headers: Vec<(String, String)>,
    /// `omit` / `same-origin` / `include`.
    pub credentials: Option<String>,
    /// Resume request of a POSTed stream: a URL, or a function returning one.
    pub resume: Option<JsValue>,
    /// Backoff.
    pub policy: ReconnectPolicy,
    /// Reconnect when no byte arrived for this long (ms); 0 = never.
    pub idle_timeout_ms: f64,
    /// WebSocket subprotocols.
    pub protocols: Vec<String>,
    /// The dialect option.
    pub dialect: DialectChoice,
    /// Where JSON-RPC requests go (A2A: the stream URL unless `endpoints.rpc` says otherwise;
    /// A2A-ACP: `{base}/acp/rpc`).
    pub rpc_url: String,
    /// A2A: the first message, sent with `message/stream` instead of the plain stream request.
    pub message: Option<FirstMessage>,
    /// A2A: `a2aVersion`, `a2aBinding`, `agentCard`.
    pub a2a: A2aOptions,
    /// AG-UI: the `agUi` option (the first run's input).
    pub ag_ui: AgUiOptions,
    /// AI SDK: the `aiSdk` option (the chat).
    pub ai_sdk: AiSdkOptions,
    /// MyAgent: `user.create_session` content and metadata (JSON text).
    pub session: (Option<String>, Option<String>),
    /// MyAgent: how often received events are acknowledged (`user.ack`), in ms.
    pub ack_interval_ms: f64,
}

/// The `message` option: what the first `message/stream` sends (JSON texts for data/metadata).
#[derive(Debug, Clone, Default)]
pub struct FirstMessage {
    /// A text part.
    pub text: Option<String>,
    /// A data part (JSON).
    pub data: Option<String>,
    /// The conversation to continue.
    pub context_id: Option<String>,
    /// The task to continue.
    pub task_id: Option<String>,
    /// Message metadata (JSON object).
    pub metadata: Option<String>,
}

fn read_reconnect(o: &JsValue) -> Result<ReconnectPolicy, JsValue> {
    let v = get(o, "reconnect");
    let mut p = ReconnectPolicy::default();
    if absent(&v) {
        return Ok(p);
    }
    if v.as_bool() == Some(false) {
        p.max_attempts = 0;
        return Ok(p);
    }
    if !v.is_object() {
        return Err(js_error(
            "invalid-argument",
            "options.reconnect must be an object or false",
        ));
    }
    if let Some(n) = opt_number(&v, "initialDelayMs", "options.reconnect")? {
        p.initial_delay_ms = n;
    }
    if let Some(n) = opt_number(&v, "maxDelayMs", "options.reconnect")? {
        p.max_delay_ms = n;
    }
    if let Some(n) = opt_number(&v, "maxAttempts", "options.reconnect")? {
        p.max_attempts = n.min(u32::MAX as f64) as u32;
    }
    if let Some(n) = opt_number(&v, "jitter", "options.reconnect")? {
        p.jitter = n.min(1.0);
    }
    Ok(p)
}

/// The `message` option (A2A's first `message/stream`).
fn read_message(o: &JsValue) -> Result<Option<FirstMessage>, JsValue> {
    let v = get(o, "message");
    if absent(&v) {
        return Ok(None);
    }
    if let Some(text) = v.as_string() {
        return Ok(Some(FirstMessage {
            text: Some(text),
            ..FirstMessage::default()
        }));
    }
    if !v.is_object() {
        return Err(js_error(
            "invalid-argument",
            "options.message must be a string or an object",
        ));
    }
    let m = FirstMessage {
        text: opt_string(&v, "text")?,
        data: opt_json(&v, "data")?,
        context_id: opt_string(&v, "contextId")?,
        task_id: opt_string(&v, "taskId")?,
        metadata: opt_json(&v, "metadata")?,
    };
    if m.text.is_none() && m.data.is_none() {
        return Err(js_error(
            "invalid-argument",
            "options.message needs text or data",
        ));
    }
    Ok(Some(m))
}

/// The `session` option (MyAgent's `user.create_session` content and metadata, as JSON).
fn read_session(o: &JsValue) -> Result<(Option<String>, Option<String>), JsValue> {
    let v = get(o, "session");
    if absent(&v) {
        return Ok((None, None));
    }
    if !v.is_object() {
        return Err(js_error(
            "invalid-argument",
            "options.session must be an object",
        ));
    }
    Ok((opt_json(&v, "content")?, opt_json(&v, "metadata")?))
}

fn read_dialect(o: &JsValue) -> Result<DialectChoice, JsValue> {
    match opt_string(o, "dialect")? {
        None => Ok(DialectChoice::Auto),
        Some(name) => match DialectChoice::parse(&name) {
            // A protocol's own entry (agentwire/core, agentwire/a2a, ...) is built without the
            // other dialects: say so when the client is created, not as a stream of diagnostics.
            Some(DialectChoice::Fixed(d)) if !d.is_available() => Err(js_error(
                "invalid-argument",
                &format!(
                    "options.dialect {}: this entry is built without it; import \"agentwire\" (every protocol) or \"agentwire/{}\"",
                    crate::json::Quoted(&name),
                    d.as_str()
                ),
            )),
            Some(choice) => Ok(choice),
            None => Err(js_error(
                "invalid-argument",
                &format!(
                    "options.dialect {}: use auto, canonical, a2a, acp, unified, myagent, ag-ui or ai-sdk",
                    crate::json::Quoted(&name)
                ),
            )),
        },
    }
}

/// Reads the connection options (and checks that they fit together).
pub(crate) fn read_stream_options(o: &JsValue) -> Result<StreamOptions, JsValue> {
    let DialectOptions {
        dialect,
        message,
        a2a,
        ag_ui,
        ai_sdk,
        is_ai_sdk,
        is_ag_ui,
    } = read_dialect_options(o)?;
    let myagent = dialect == DialectChoice::Fixed(Dialect::MyAgent);
    let transport = read_transport(o, dialect)?;
    let url = opt_string(o, "url")?
        .or_else(|| a2a.agent_card().map(str::to_owned))
        .unwrap_or_default();
    if url.is_empty() && transport != TransportKind::Manual {
        return Err(js_error("invalid-argument", "options.url is required"));
    }
    let body_v = get(o, "body");
    let body = if absent(&body_v) {
        None
    } else if let Some(s) = body_v.as_string() {
        Some(s)
    } else {
        Some(to_json(&body_v)?)
    };
    // (The manual transport reads nothing itself: the app feeds the AI SDK stream.)
    if is_ai_sdk
        && transport != TransportKind::Manual
        && (body.is_some() || transport != TransportKind::Fetch)
    {
        return Err(js_error(
            "invalid-argument",
            "dialect ai-sdk POSTs each turn's body itself: it needs the fetch transport and no body (give aiSdk.body)",
        ));
    }
    if message.is_some() && !myagent && (transport != TransportKind::Fetch || body.is_some()) {
        return Err(js_error(
            "invalid-argument",
            "options.message is sent with a JSON-RPC POST: it needs the fetch transport and no body",
        ));
    }
    // (The manual transport reads nothing itself: the app feeds the AG-UI stream.)
    if is_ag_ui
        && transport != TransportKind::Manual
        && (body.is_some() || transport != TransportKind::Fetch)
    {
        return Err(js_error(
            "invalid-argument",
            "dialect ag-ui POSTs each run's RunAgentInput itself: it needs the fetch transport and no body",
        ));
    }
    let method = match opt_string(o, "method")? {
        _ if (is_ag_ui || is_ai_sdk) && transport == TransportKind::Fetch => "POST".into(),
        Some(m) if m.eq_ignore_ascii_case("GET") || m.eq_ignore_ascii_case("POST") => {
            m.to_ascii_uppercase()
        }
        Some(m) => {
            return Err(js_error(
                "invalid-argument",
                &format!(
                    "options.method {}: use GET or POST",
                    crate::json::Quoted(&m)
                ),
            ))
        }
        None if body.is_some() => "POST".into(),
        None => "GET".into(),
    };
    if method == "GET" && body.is_some() {
        return Err(js_error(
            "invalid-argument",
            "a GET request cannot have a body",
        ));
    }
    if method == "POST" && transport != TransportKind::Fetch {
        return Err(js_error(
            "invalid-argument",
            "POST streams need the fetch transport",
        ));
    }
    let mut headers = read_headers(o)?;
    if !headers.is_empty() && transport == TransportKind::EventSource {
        return Err(js_error(
            "invalid-argument",
            "EventSource cannot send headers: use the fetch transport",
        ));
    }
    headers.extend(ai_sdk.headers.iter().cloned());
    let credentials = opt_string(o, "credentials")?;
    if let Some(c) = &credentials {
        if !["omit", "same-origin", "include"].contains(&c.as_str()) {
            return Err(js_error(
                "invalid-argument",
                "options.credentials must be omit, same-origin or include",
            ));
        }
    }
    let resume = get(o, "resume");
    let resume = if absent(&resume) {
        None
    } else if resume.is_string() || resume.is_function() {
        Some(resume)
    } else {
        return Err(js_error(
            "invalid-argument",
            "options.resume must be a URL string or a function",
        ));
    };
    let protocols = read_protocols(o)?;
    Ok(StreamOptions {
        url,
        transport,
        method,
        body,
        headers,
        credentials,
        resume,
        policy: read_reconnect(o)?,
        idle_timeout_ms: opt_number(o, "idleTimeoutMs", "options")?.unwrap_or(45_000.0),
        protocols,
        dialect,
        // Set from `endpoints` by the constructor.
        rpc_url: String::new(),
        message,
        a2a,
        ag_ui,
        ai_sdk,
        session: read_session(o)?,
        ack_interval_ms: opt_number(o, "ackIntervalMs", "options")?.unwrap_or(250.0),
    })
}

/// The dialect and the options that name or need one (`message`, `agentCard`, `agUi`, `aiSdk`),
/// checked against each other.
struct DialectOptions {
    dialect: DialectChoice,
    message: Option<FirstMessage>,
    a2a: A2aOptions,
    ag_ui: AgUiOptions,
    ai_sdk: AiSdkOptions,
    is_ai_sdk: bool,
    is_ag_ui: bool,
}

/// Reads the dialect options ([`DialectOptions`]): an option for one dialect fixes it when the
/// dialect is `auto`, and is refused with another.
fn read_dialect_options(o: &JsValue) -> Result<DialectOptions, JsValue> {
    let mut dialect = read_dialect(o)?;
    let message = read_message(o)?;
    let ai_sdk = crate::browser::options::ai_sdk::read(o)?;
    let a2a = crate::browser::options::a2a::read(o)?;
    if let Some(card) = a2a.agent_card() {
        fix_dialect(&mut dialect, Dialect::A2a, "agentCard")?;
        if message.is_none() {
            return Err(js_error(
                "invalid-argument",
                "options.agentCard needs options.message (the first message to send)",
            ));
        }
        if card.is_empty() {
            return Err(js_error("invalid-argument", "options.agentCard is empty"));
        }
    }
    if message.is_some() {
        match dialect {
            // With `aiSdk`, the chat's first message.
            DialectChoice::Auto if ai_sdk.given => {}
            DialectChoice::Auto => dialect = DialectChoice::Fixed(Dialect::A2a),
            DialectChoice::Fixed(Dialect::A2a | Dialect::MyAgent | Dialect::AiSdk) => {}
            DialectChoice::Fixed(d) => {
                return Err(js_error(
                    "invalid-argument",
                    &format!(
                        "options.message is for dialect a2a (message/stream), myagent (user.message) or ai-sdk (the first user message), not {}",
                        crate::json::Quoted(d.as_str())
                    ),
                ))
            }
        }
    }
    let ag_ui = crate::browser::options::ag_ui::read(o)?;
    if ag_ui.given {
        fix_dialect(&mut dialect, Dialect::AgUi, "agUi")?;
    }
    if ai_sdk.given {
        fix_dialect(&mut dialect, Dialect::AiSdk, "aiSdk")?;
    }
    let is_ai_sdk = dialect == DialectChoice::Fixed(Dialect::AiSdk);
    if is_ai_sdk {
        if let Some(m) = &message {
            if m.text.is_none() || m.data.is_some() || m.context_id.is_some() || m.task_id.is_some()
            {
                return Err(js_error(
                    "invalid-argument",
                    "options.message with dialect ai-sdk is the first user message's text (a string or {text})",
                ));
            }
        }
    }
    let is_ag_ui = dialect == DialectChoice::Fixed(Dialect::AgUi);
    if is_ag_ui && message.is_some() {
        return Err(js_error(
            "invalid-argument",
            "options.message is not for dialect ag-ui: give agUi.messages (or call sendMessage)",
        ));
    }
    Ok(DialectOptions {
        dialect,
        message,
        a2a,
        ag_ui,
        ai_sdk,
        is_ai_sdk,
        is_ag_ui,
    })
}

/// `headers`: a plain object or a `Headers`.
fn read_headers(o: &JsValue) -> Result<Vec<(String, String)>, JsValue> {
    let mut headers = Vec::new();
    let h = get(o, "headers");
    if !absent(&h) {
        if !h.is_object() {
            return Err(js_error(
                "invalid-argument",
                "options.headers must be an object",
            ));
        }
        if let Some(hs) = h.dyn_ref::<web_sys::Headers>() {
            // What fetch takes too: its entries (Object.keys of a Headers is empty).
            if let Ok(Some(entries)) = js_sys::try_iter(hs) {
                for pair in entries.flatten() {
                    let pair: js_sys::Array = pair.unchecked_into();
                    if let (Some(k), Some(v)) = (pair.get(0).as_string(), pair.get(1).as_string()) {
                        headers.push((k, v));
                    }
                }
            }
        }
        for key in js_sys::Object::keys(h.unchecked_ref::<js_sys::Object>()).iter() {
            let k = key.as_string().unwrap_or_default();
            let v = js_sys::Reflect::get(&h, &key)
                .ok()
                .and_then(|v| v.as_string())
                .ok_or_else(|| {
                    js_error(
                        "invalid-argument",
                        &format!("header {} must be a string", crate::json::Quoted(&k)),
                    )
                })?;
            headers.push((k, v));
        }
    }
    Ok(headers)
}

/// `protocols`: the WebSocket subprotocols.
fn read_protocols(o: &JsValue) -> Result<Vec<String>, JsValue> {
    let mut protocols = Vec::new();
    let p = get(o, "protocols");
    if !absent(&p) {
        let arr: js_sys::Array = p.dyn_into().map_err(|_| {
            js_error(
                "invalid-argument",
                "options.protocols must be an array of strings",
            )
        })?;
        for v in arr.iter() {
            protocols.push(v.as_string().ok_or_else(|| {
                js_error(
                    "invalid-argument",
                    "options.protocols must be an array of strings",
                )
            })?);
        }
    }
    Ok(protocols)
}

/// Why: this build has no EventSource transport.
#[cfg(not(feature = "eventsource"))]
pub const EVENTSOURCE_UNAVAILABLE: &str =
    "this build of agentwire has no EventSource transport: use the fetch transport (the default)";

/// Why: this build has no WebSocket transport.
#[cfg(not(feature = "websocket"))]
pub const WEBSOCKET_UNAVAILABLE: &str =
    "this build of agentwire has no WebSocket transport: import agentwire or agentwire/myagent";

/// `transport` (MyAgent's default: `websocket`; else `fetch`); a transport this build leaves
/// out is refused at once.
fn read_transport(o: &JsValue, dialect: DialectChoice) -> Result<TransportKind, JsValue> {
    let transport = match opt_string(o, "transport")?.as_deref() {
        None if dialect == DialectChoice::Fixed(Dialect::MyAgent) => TransportKind::WebSocket,
        None | Some("fetch") => TransportKind::Fetch,
        #[cfg(feature = "eventsource")]
        Some("eventsource") => TransportKind::EventSource,
        #[cfg(feature = "websocket")]
        Some("websocket") => TransportKind::WebSocket,
        // A build without that transport (an entry of one protocol): said at once.
        #[cfg(not(feature = "eventsource"))]
        Some("eventsource") => return Err(js_error("invalid-argument", EVENTSOURCE_UNAVAILABLE)),
        #[cfg(not(feature = "websocket"))]
        Some("websocket") => return Err(js_error("invalid-argument", WEBSOCKET_UNAVAILABLE)),
        Some("manual") => TransportKind::Manual,
        Some(other) => {
            return Err(js_error(
                "invalid-argument",
                &format!(
                    "options.transport {}: use fetch, eventsource, websocket or manual",
                    crate::json::Quoted(other)
                ),
            ))
        }
    };
    Ok(transport)
}

/// An option for one dialect (`option`): fixes the dialect when it is `auto`, and is refused
/// with another.
fn fix_dialect(dialect: &mut DialectChoice, wanted: Dialect, option: &str) -> Result<(), JsValue> {
    match *dialect {
        DialectChoice::Auto => *dialect = DialectChoice::Fixed(wanted),
        DialectChoice::Fixed(d) if d == wanted => {}
        DialectChoice::Fixed(d) => {
            return Err(js_error(
                "invalid-argument",
                &format!(
                    "options.{option} is for dialect {}, not {}",
                    wanted.as_str(),
                    crate::json::Quoted(d.as_str())
                ),
            ))
        }
    }
    Ok(())
}
