//! `AgentClient`: a connection (fetch SSE by default, EventSource, WebSocket or manual) feeding
//! an `AgentStore`, plus everything that answers the agent: routed pending requests, `respond`
//! with schema/options checks, approve/deny/select/answer, safe auth URLs, completeAuth,
//! cancel; an async iterator of events; observable connection state.

use super::convert::{from_json, to_json};
use super::error::{check_alive, js_error};
use super::global::report_error;
use super::iter::EventStream;
use super::store::AgentStore;
use super::transport::a2a;
use super::transport::rpc::{self, Call, FirstMessage};
use super::transport::{self, Shared, StreamOptions, TransportKind, CLOSED};
use crate::client::answer::{check_answer, decision_value, RequestShape};
use crate::client::reconnect::ReconnectPolicy;
use crate::client::template::expand;
use crate::dialects::respond::{self, Outgoing, RespondError, Transport};
use crate::dialects::{Dialect, DialectChoice};
use crate::events::url::is_safe_to_open;
use crate::filter::EventFilter;
use crate::json::{parse, write_str, WriteJson};
use crate::state::{RequestKind, RequestState, Routing};
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

/// Where answers go.
struct Endpoints {
    base: String,
    input: String,
    auth: String,
    cancel: String,
    /// JSON-RPC endpoint given as `endpoints.rpc` (else: A2A the stream URL, A2A-ACP
    /// `{base}/acp/rpc`).
    rpc: Option<String>,
}

struct Answers {
    endpoints: Endpoints,
    responder: Option<js_sys::Function>,
    coordinator: Option<js_sys::Function>,
    user_id: Option<String>,
}

type Hook = Closure<dyn FnMut(JsValue)>;
type AbortHook = (web_sys::AbortSignal, Closure<dyn FnMut()>);

struct ClientInner {
    shared: Rc<Shared>,
    answers: Answers,
    store_js: JsValue,
    /// Internal handlers (coordinator hook) to remove on close.
    hooks: RefCell<Vec<js_sys::Function>>,
    hook_closures: RefCell<Vec<Hook>>,
    signal: RefCell<Option<AbortHook>>,
    streams: RefCell<Vec<Weak<RefCell<super::iter::IterState>>>>,
    closed: std::cell::Cell<bool>,
}

/// A connection to an agent server feeding an `AgentStore`, and the way to answer the agent.
///
/// ```ts
/// const client = new AgentClient({ url: "/api/stream?scenario=main" });
/// client.onConnectionChange((c) => console.log(c.state, c.reason));
/// client.store.subscribe(() => render(client.getSnapshot()));
/// client.on("input-required", (e) => client.approve(e.inputId));
/// ```
#[wasm_bindgen]
pub struct AgentClient {
    inner: Rc<ClientInner>,
}

fn get(o: &JsValue, key: &str) -> JsValue {
    if !o.is_object() {
        return JsValue::UNDEFINED;
    }
    js_sys::Reflect::get(o, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn absent(v: &JsValue) -> bool {
    v.is_undefined() || v.is_null()
}

fn opt_string(o: &JsValue, key: &str) -> Result<Option<String>, JsValue> {
    let v = get(o, key);
    if absent(&v) {
        return Ok(None);
    }
    v.as_string().map(Some).ok_or_else(|| {
        js_error(
            "invalid-argument",
            &format!("options.{key} must be a string"),
        )
    })
}

fn opt_number(o: &JsValue, key: &str, what: &str) -> Result<Option<f64>, JsValue> {
    let v = get(o, key);
    if absent(&v) {
        return Ok(None);
    }
    match v.as_f64() {
        Some(n) if n.is_finite() && n >= 0.0 => Ok(Some(n)),
        _ => Err(js_error(
            "invalid-argument",
            &format!("{what}.{key} must be a number >= 0"),
        )),
    }
}

fn opt_function(o: &JsValue, key: &str) -> Result<Option<js_sys::Function>, JsValue> {
    let v = get(o, key);
    if absent(&v) {
        return Ok(None);
    }
    v.dyn_into::<js_sys::Function>().map(Some).map_err(|_| {
        js_error(
            "invalid-argument",
            &format!("options.{key} must be a function"),
        )
    })
}

/// The directory of `url` resolved against the page (`/api/stream?x` → `https://host/api`).
fn default_base(url: &str) -> String {
    let page = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("location"))
        .ok()
        .and_then(|l| js_sys::Reflect::get(&l, &JsValue::from_str("href")).ok())
        .and_then(|h| h.as_string());
    let resolved = match page {
        Some(p) => web_sys::Url::new_with_base(url, &p),
        None => web_sys::Url::new(url),
    };
    match resolved {
        Ok(u) => {
            let mut path = u.pathname();
            if let Some(i) = path.rfind('/') {
                path.truncate(i);
            }
            format!("{}{}", u.origin(), path)
        }
        Err(_) => String::new(),
    }
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

/// Member `key` of `o` as JSON text, when present.
fn opt_json(o: &JsValue, key: &str) -> Result<Option<String>, JsValue> {
    let x = get(o, key);
    if absent(&x) {
        Ok(None)
    } else {
        to_json(&x).map(Some)
    }
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

fn read_stream_options(o: &JsValue) -> Result<StreamOptions, JsValue> {
    let mut dialect = read_dialect(o)?;
    let message = read_message(o)?;
    let ai_sdk = super::ai_sdk_options::read(o)?;
    let a2a = super::a2a_options::read(o)?;
    if let Some(card) = a2a.agent_card() {
        match dialect {
            DialectChoice::Auto => dialect = DialectChoice::Fixed(Dialect::A2a),
            DialectChoice::Fixed(Dialect::A2a) => {}
            DialectChoice::Fixed(d) => {
                return Err(js_error(
                    "invalid-argument",
                    &format!(
                        "options.agentCard is for dialect a2a, not {}",
                        crate::json::Quoted(d.as_str())
                    ),
                ))
            }
        }
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
    let ag_ui = super::ag_ui_options::read(o)?;
    if ag_ui.given {
        match dialect {
            DialectChoice::Auto => dialect = DialectChoice::Fixed(Dialect::AgUi),
            DialectChoice::Fixed(Dialect::AgUi) => {}
            DialectChoice::Fixed(d) => {
                return Err(js_error(
                    "invalid-argument",
                    &format!(
                        "options.agUi is for dialect ag-ui, not {}",
                        crate::json::Quoted(d.as_str())
                    ),
                ))
            }
        }
    }
    if ai_sdk.given {
        match dialect {
            DialectChoice::Auto => dialect = DialectChoice::Fixed(Dialect::AiSdk),
            DialectChoice::Fixed(Dialect::AiSdk) => {}
            DialectChoice::Fixed(d) => {
                return Err(js_error(
                    "invalid-argument",
                    &format!(
                        "options.aiSdk is for dialect ai-sdk, not {}",
                        crate::json::Quoted(d.as_str())
                    ),
                ))
            }
        }
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
    let myagent = dialect == DialectChoice::Fixed(Dialect::MyAgent);
    let transport = match opt_string(o, "transport")?.as_deref() {
        None if dialect == DialectChoice::Fixed(Dialect::MyAgent) => TransportKind::WebSocket,
        None | Some("fetch") => TransportKind::Fetch,
        #[cfg(feature = "eventsource")]
        Some("eventsource") => TransportKind::EventSource,
        #[cfg(feature = "websocket")]
        Some("websocket") => TransportKind::WebSocket,
        // A build without that transport (an entry of one protocol): said at once.
        #[cfg(not(feature = "eventsource"))]
        Some("eventsource") => {
            return Err(js_error(
                "invalid-argument",
                transport::eventsource::UNAVAILABLE,
            ))
        }
        #[cfg(not(feature = "websocket"))]
        Some("websocket") => {
            return Err(js_error(
                "invalid-argument",
                transport::websocket::UNAVAILABLE,
            ))
        }
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

fn read_endpoints(o: &JsValue, url: &str) -> Result<Endpoints, JsValue> {
    let e = get(o, "endpoints");
    let s = |k: &str| -> Result<Option<String>, JsValue> {
        let v = get(&e, k);
        if absent(&v) {
            return Ok(None);
        }
        v.as_string().map(Some).ok_or_else(|| {
            js_error(
                "invalid-argument",
                &format!("options.endpoints.{k} must be a string"),
            )
        })
    };
    Ok(Endpoints {
        base: match s("base")? {
            Some(b) => b,
            None if url.is_empty() => String::new(),
            None => default_base(url),
        },
        input: s("input")?.unwrap_or_else(|| {
            "{base}/contexts/{contextId}/tasks/{taskId}/inputs/{inputId}".into()
        }),
        auth: s("auth")?
            .unwrap_or_else(|| "{base}/contexts/{contextId}/tasks/{taskId}/auth/{authId}".into()),
        cancel: s("cancel")?
            .unwrap_or_else(|| "{base}/contexts/{contextId}/tasks/{taskId}/cancel".into()),
        rpc: s("rpc")?,
    })
}

impl Endpoints {
    /// The JSON-RPC endpoint for `dialect` (A2A: the stream URL unless `endpoints.rpc` is given).
    fn rpc_url(&self, dialect: Dialect, stream_url: &str) -> Result<String, JsValue> {
        let tpl = match (&self.rpc, dialect) {
            (Some(t), _) => t.as_str(),
            (None, Dialect::A2a) => return Ok(stream_url.to_owned()),
            (None, _) => "{base}/acp/rpc",
        };
        expand(tpl, &self.base, &[]).map_err(|m| js_error("invalid-argument", &m))
    }
}

/// An `Error` with `code` and extra string members.
fn error_with(code: &str, message: &str, extra: &[(&str, JsValue)]) -> JsValue {
    let e = js_error(code, message);
    for (k, v) in extra {
        let _ = js_sys::Reflect::set(&e, &JsValue::from_str(k), v);
    }
    e
}

fn rejected(e: JsValue) -> js_sys::Promise {
    js_sys::Promise::reject(&e)
}

/// Hands `req` to the app's responder and waits for it (a throw or rejection is `send-failed`).
async fn call_responder(responder: &js_sys::Function, req: &js_sys::Object) -> Result<(), JsValue> {
    let r = responder
        .call1(&JsValue::NULL, req)
        .map_err(|e| error_with("send-failed", "the responder threw", &[("cause", e)]))?;
    JsFuture::from(js_sys::Promise::resolve(&r))
        .await
        .map_err(|e| error_with("send-failed", "the responder rejected", &[("cause", e)]))?;
    Ok(())
}

/// Wakes the fetch loop when it waits for an answer (a call was queued, or a JSON-RPC result
/// may have finished the run).
fn wake(sh: &Shared) {
    if !sh.awaiting_call.get() {
        return;
    }
    let w = sh.wait.try_borrow_mut().ok().and_then(|mut w| w.take());
    if let Some(w) = w {
        w.cancel();
    }
}

/// What an answer needs from the request it answers.
struct Target {
    kind: &'static str,
    id: String,
    task_id: String,
    context_id: String,
    /// The answer as JSON (the value, or the auth details), for the dialects that send it
    /// their own way.
    value: String,
    /// The user's reason (`deny(id, reason)`), for the dialects whose answer carries one.
    reason: Option<String>,
    /// `deny`: AG-UI answers it with `status: "cancelled"`.
    denied: bool,
}

/// `Ok` while a request is open; `already-answered` or `expired` otherwise (`what` is "input"
/// or "auth", `done` how it ended: "answered", "completed"; `id_js` names it on the error).
fn still_open(
    state: RequestState,
    what: &str,
    id: &str,
    done: &str,
    id_js: &[(&str, JsValue)],
) -> Result<(), JsValue> {
    let id = crate::json::Quoted(id);
    match state {
        RequestState::Open => Ok(()),
        RequestState::Answered => Err(error_with(
            "already-answered",
            &format!("{what} {id} was already {done}"),
            id_js,
        )),
        RequestState::Expired => Err(error_with(
            "expired",
            &format!("{what} {id} expired"),
            id_js,
        )),
    }
}

/// A dialect's refusal as the client's error codes.
fn respond_error(kind: &str, e: &RespondError) -> JsValue {
    let code = match e {
        RespondError::UnknownRequest(_) if kind == "auth" => "unknown-auth",
        RespondError::UnknownRequest(_) => "unknown-input",
        RespondError::NotOpen(_) => "already-answered",
        RespondError::InvalidValue(_) => "invalid-answer",
        RespondError::NoTask => "unknown-task",
        _ => "invalid-state",
    };
    js_error(code, &e.to_string())
}

impl ClientInner {
    fn endpoint(&self, t: &Target) -> Result<String, JsValue> {
        let e = &self.answers.endpoints;
        let (tpl, vars): (&str, Vec<(&str, &str)>) = match t.kind {
            "input" => (
                &e.input,
                vec![
                    ("contextId", &t.context_id),
                    ("taskId", &t.task_id),
                    ("inputId", &t.id),
                ],
            ),
            "auth" => (
                &e.auth,
                vec![
                    ("contextId", &t.context_id),
                    ("taskId", &t.task_id),
                    ("authId", &t.id),
                ],
            ),
            _ => (
                &e.cancel,
                vec![("contextId", &t.context_id), ("taskId", &t.task_id)],
            ),
        };
        expand(tpl, &e.base, &vars).map_err(|m| js_error("invalid-argument", &m))
    }

    /// Builds `t` in the stream's dialect (A2A, A2A-ACP, MyAgent). `None` when the dialect has
    /// no such message (protocol 000, Unified, or not known yet): the canonical endpoints answer.
    fn dialect_message(&self, t: &Target) -> Option<Result<Outgoing, JsValue>> {
        let d = self.shared.dialect()?;
        if !matches!(d, Dialect::A2a | Dialect::Acp | Dialect::MyAgent) {
            return None;
        }
        let built = self.shared.store.with_session_mut(|s| {
            let (dec, store) = s.dialect_parts()?;
            a2a::wire_a2a(&self.shared, dec);
            Some(match t.kind {
                "cancel" => respond::cancel(dec, &t.task_id, None),
                _ => match parse(&t.value) {
                    Ok(v) => respond::answer_with_reason(
                        dec,
                        store,
                        &t.id,
                        &v,
                        None,
                        t.reason.as_deref(),
                    ),
                    Err(_) => Err(RespondError::InvalidValue("the answer is not JSON".into())),
                },
            })
        });
        match built {
            Err(e) => Some(Err(e)),
            Ok(None) | Ok(Some(Err(RespondError::Unsupported(_)))) => None,
            Ok(Some(Err(e))) => Some(Err(respond_error(t.kind, &e))),
            Ok(Some(Ok(o))) => Some(Ok(o)),
        }
    }

    /// Sends a dialect message: a WebSocket frame, a JSON-RPC POST, or (A2A `message/stream`)
    /// the fetch loop's next request, whose stream feeds the session. An answered request is
    /// closed locally once the server accepted the answer (these servers do not echo answers).
    async fn deliver(self: Rc<Self>, out: Outgoing, t: &Target) -> Result<(), JsValue> {
        let sh = &self.shared;
        let answers = matches!(t.kind, "input" | "auth").then(|| t.id.clone());
        let url = match out.transport {
            Transport::WebSocket => String::new(),
            // A2A: the agent card's interface once read (else `endpoints.rpc` or `url`).
            Transport::HttpPost if out.dialect == Dialect::A2a => sh.rpc_url(),
            Transport::HttpPost => self.answers.endpoints.rpc_url(out.dialect, &sh.opts.url)?,
        };
        if let Some(responder) = &self.answers.responder {
            let req = js_sys::Object::new();
            let set = |k: &str, v: &JsValue| {
                let _ = js_sys::Reflect::set(&req, &JsValue::from_str(k), v);
            };
            set("type", &JsValue::from_str(t.kind));
            let full = crate::client::template::join(&url, &out.path);
            set("url", &JsValue::from_str(&full));
            set(
                "body",
                &if out.body.is_empty() {
                    JsValue::UNDEFINED
                } else {
                    from_json(&out.body)?
                },
            );
            if out.http_method != "POST" {
                set("httpMethod", &JsValue::from_str(out.http_method));
            }
            if let Some(v) = out.a2a_version {
                let headers = js_sys::Object::new();
                let _ = js_sys::Reflect::set(
                    &headers,
                    &JsValue::from_str(rpc::A2A_VERSION_HEADER),
                    &JsValue::from_str(v),
                );
                set("headers", &headers);
            }
            set("dialect", &JsValue::from_str(out.dialect.as_str()));
            set("method", &JsValue::from_str(out.method));
            set("contextId", &JsValue::from_str(&t.context_id));
            set("taskId", &JsValue::from_str(&t.task_id));
            match t.kind {
                "input" => set("inputId", &JsValue::from_str(&t.id)),
                "auth" => set("authId", &JsValue::from_str(&t.id)),
                _ => {}
            }
            call_responder(responder, &req).await?;
        } else {
            match out.transport {
                // Sent now, or queued until the socket is open again (a reconnect).
                Transport::WebSocket => {
                    if let Some(sent) = transport::websocket::send_or_queue(sh, &out.body)? {
                        JsFuture::from(sent).await?;
                    }
                }
                Transport::HttpPost if out.streams => {
                    return self
                        .stream_call(rpc::Req::from(&out), answers, t.kind == "message")
                        .await
                }
                Transport::HttpPost => {
                    let reply = rpc::post(sh, &url, &rpc::Req::from(&out)).await?;
                    if let (Dialect::A2a, Some(json)) = (out.dialect, reply.json.as_deref()) {
                        // A2A results and errors are events of the stream (tasks/cancel: the
                        // canceled task).
                        if rpc::push_reply(sh, json) {
                            wake(sh);
                        }
                    }
                    rpc::check(&url, &reply)?;
                }
            }
        }
        if let Some(id) = answers {
            rpc::mark_answered(sh, &id);
            // A2A answered by the responder: the fetch loop, waiting for the answer's call,
            // resumes the task's stream instead.
            wake(sh);
        }
        #[cfg(feature = "myagent")]
        if t.kind == "cancel" && out.dialect == Dialect::MyAgent {
            // MyAgent has no canceled state: the turn's next failure is this cancel.
            let _ = sh.store.with_session_mut(|s| {
                if let Some(m) = s.dialect_parts().and_then(|(d, _)| d.myagent()) {
                    m.note_cancel();
                }
            });
        }
        Ok(())
    }

    /// A2A `message/stream`: the fetch loop's next request when it waits for one (or the run
    /// finished: the loop starts again); an answer sent while a stream is open is POSTed at
    /// once (the open stream carries what follows), a new message waits for the stream's end.
    async fn stream_call(
        self: Rc<Self>,
        req: rpc::Req,
        answers: Option<String>,
        queue: bool,
    ) -> Result<(), JsValue> {
        let sh = &self.shared;
        if sh.running.get() && !sh.awaiting_call.get() && !sh.rpc_stream.get() && !queue {
            let url = sh.rpc_url();
            let reply = rpc::post(sh, &url, &req).await?;
            if let Some(json) = &reply.json {
                let _ = sh.push(json);
            }
            rpc::check(&url, &reply)?;
            if let Some(id) = answers {
                rpc::mark_answered(sh, &id);
            }
            wake(sh);
            return Ok(());
        }
        let (call, promise) = Call::new(req, answers);
        if sh.running.get() {
            sh.calls.borrow_mut().push_back(call);
            wake(sh);
        } else if let Err(call) = transport::restart_with(sh, call) {
            let why = if sh.opts.transport == TransportKind::Manual {
                "the manual transport sends nothing: give a `responder`"
            } else {
                "the connection is closed: nothing to send the message on"
            };
            call.settle(Err(js_error("invalid-state", why)));
        }
        JsFuture::from(promise).await.map(|_| ())
    }

    /// Input `input_id`'s JSON Schema and options (JSON texts, empty when absent).
    fn input_shape(&self, input_id: &str) -> Result<Option<(String, String)>, JsValue> {
        self.shared.store.with_session(|s| {
            s.store().input(input_id).map(|i| {
                (
                    i.schema.as_ref().map(|r| r.0.clone()).unwrap_or_default(),
                    i.options.as_ref().map(|r| r.0.clone()).unwrap_or_default(),
                )
            })
        })
    }

    /// What `select(option)` sends: the option itself when it fits the request, else the
    /// object option's `id` / `value` / `optionId` that does (a string-enum schema over object
    /// options, as A2A-ACP's permission options).
    fn option_value(&self, input_id: &str, option: String) -> String {
        let (Ok(Some((schema, options))), Ok(v)) = (self.input_shape(input_id), parse(&option))
        else {
            return option;
        };
        let shape = RequestShape {
            schema: &schema,
            options: &options,
        };
        if v.as_object().is_none() || check_answer(shape, &v).is_ok() {
            return option;
        }
        ["id", "value", "optionId"]
            .iter()
            .filter_map(|k| v.get(k))
            .find(|x| check_answer(shape, x).is_ok())
            .map_or(option.clone(), |x| x.to_json())
    }

    /// The user's message in the stream's dialect (`None`: the dialect has none).
    fn message_out(&self, text: &str, ctx: Option<&str>) -> Result<Option<Outgoing>, JsValue> {
        check_alive()?;
        if self.closed.get() {
            return Err(js_error("closed", "this AgentClient was closed"));
        }
        let built = self.shared.store.with_session_mut(|s| {
            let (dec, _) = s.dialect_parts()?;
            a2a::wire_a2a(&self.shared, dec);
            Some(respond::send_message(dec, text, ctx, None))
        })?;
        match built {
            None | Some(Err(RespondError::Unsupported(_))) => Ok(None),
            Some(Err(e)) => Err(respond_error("message", &e)),
            Some(Ok(o)) => Ok(Some(o)),
        }
    }

    /// Sends a text frame on the open WebSocket.
    fn send_frame(&self, text: &str) -> Result<(), JsValue> {
        transport::websocket::send_now(&self.shared, text)
    }

    /// Sends `body` (JSON text) for `t` through the responder or an HTTP POST (protocol 000),
    /// or in the stream's dialect.
    async fn send(self: Rc<Self>, t: Target, body: String) -> Result<(), JsValue> {
        if transport::ai_sdk::drives(&self.shared) {
            // AI SDK: the tool part changes now; the next POST continues the message.
            return match t.kind {
                "input" => {
                    transport::ai_sdk::answer(
                        &self.shared,
                        &t.id,
                        &t.value,
                        t.denied,
                        t.reason.as_deref(),
                    )
                    .await
                }
                "cancel" => transport::ai_sdk::stop(&self.shared, &t.task_id),
                _ => Err(js_error(
                    "invalid-state",
                    "the AI SDK chat has no such request",
                )),
            };
        }
        if transport::ag_ui::drives(&self.shared) {
            // AG-UI: the answers go out together as the thread's resume run.
            return match t.kind {
                "input" => transport::ag_ui::answer(&self.shared, &t.id, &t.value, t.denied).await,
                _ => Err(js_error(
                    "invalid-state",
                    "AG-UI has no cancel request (close() aborts the run's stream)",
                )),
            };
        }
        match self.dialect_message(&t) {
            Some(Ok(out)) => return self.clone().deliver(out, &t).await,
            Some(Err(e)) => return Err(e),
            None => {}
        }
        let url = self.endpoint(&t)?;
        if let Some(responder) = &self.answers.responder {
            let req = js_sys::Object::new();
            let set = |k: &str, v: &JsValue| {
                let _ = js_sys::Reflect::set(&req, &JsValue::from_str(k), v);
            };
            set("type", &JsValue::from_str(t.kind));
            set("url", &JsValue::from_str(&url));
            set("body", &from_json(&body)?);
            set("contextId", &JsValue::from_str(&t.context_id));
            set("taskId", &JsValue::from_str(&t.task_id));
            match t.kind {
                "input" => set("inputId", &JsValue::from_str(&t.id)),
                "auth" => set("authId", &JsValue::from_str(&t.id)),
                _ => {}
            }
            return call_responder(responder, &req).await;
        }
        let init = web_sys::RequestInit::new();
        init.set_method("POST");
        let headers = web_sys::Headers::new()?;
        headers.set("Content-Type", "application/json")?;
        for (k, v) in &self.shared.opts.headers {
            headers.set(k, v)?;
        }
        init.set_headers(&headers);
        init.set_body(&JsValue::from_str(&body));
        if self.shared.opts.credentials.as_deref() == Some("include") {
            init.set_credentials(web_sys::RequestCredentials::Include);
        }
        let req = web_sys::Request::new_with_str_and_init(&url, &init)
            .map_err(|e| error_with("invalid-argument", "bad endpoint URL", &[("cause", e)]))?;
        let resp = JsFuture::from(super::global::fetch_request(&req))
            .await
            .map_err(|e| {
                error_with(
                    "send-failed",
                    &format!("could not reach {url}"),
                    &[("cause", e)],
                )
            })?;
        let resp: web_sys::Response = resp.unchecked_into();
        let status = resp.status();
        if resp.ok() {
            return Ok(());
        }
        let code = if status == 409 {
            "already-answered"
        } else {
            "send-failed"
        };
        Err(error_with(
            code,
            &format!("{url} answered HTTP {status}"),
            &[("status", JsValue::from_f64(status as f64))],
        ))
    }

    /// `Err` once the module is poisoned or this client was closed (nothing is sent then).
    fn alive(&self) -> Result<(), JsValue> {
        check_alive()?;
        if self.closed.get() {
            return Err(js_error("closed", "this AgentClient was closed"));
        }
        Ok(())
    }

    /// Marks request `id` as being answered (its `sending` becomes `true`, listeners are
    /// notified). The callers checked that it is open: a refusal here is an answer of this
    /// client in flight (`already-answered`; the request is answerable again if it fails).
    fn begin_answer(&self, kind: RequestKind, id: &str) -> Result<(), JsValue> {
        self.shared
            .store
            .with_store_mut(|s| s.begin_answer(kind, id))?
            .map_err(|_| {
                error_with(
                    "already-answered",
                    "an answer to this request is being sent from this client",
                    &[("id", JsValue::from_str(id))],
                )
            })
    }

    /// Checks and sends an answer to input `input_id` (`value` as JSON text).
    fn respond_json(
        self: &Rc<Self>,
        input_id: &str,
        value: &str,
        by_agent: bool,
        reason: Option<&str>,
        denied: bool,
    ) -> js_sys::Promise {
        match self.prepare_input(input_id, value, by_agent, reason, denied) {
            Err(e) => rejected(e),
            Ok((t, body)) => self.send_marked(t, body),
        }
    }

    /// Sends an answer already marked `sending`; a failed send clears `sending` so the
    /// request, open, may be answered again.
    fn send_marked(self: &Rc<Self>, t: Target, body: String) -> js_sys::Promise {
        let me = self.clone();
        future_to_promise(async move {
            let id = t.id.clone();
            let kind = if t.kind == "auth" {
                RequestKind::Auth
            } else {
                RequestKind::Input
            };
            let r = me.clone().send(t, body).await;
            if r.is_err() {
                let _ = me
                    .shared
                    .store
                    .with_store_mut(|s| s.answer_failed(kind, &id));
            }
            r.map(|_| JsValue::UNDEFINED)
        })
    }

    fn prepare_input(
        &self,
        input_id: &str,
        value: &str,
        by_agent: bool,
        reason: Option<&str>,
        denied: bool,
    ) -> Result<(Target, String), JsValue> {
        check_alive()?;
        if self.closed.get() {
            return Err(js_error("closed", "this AgentClient was closed"));
        }
        let found = self.shared.store.with_session(|s| {
            s.store().input(input_id).map(|i| {
                (
                    i.state,
                    i.task_id.clone(),
                    i.context_id.clone(),
                    i.schema.as_ref().map(|r| r.0.clone()).unwrap_or_default(),
                    i.options.as_ref().map(|r| r.0.clone()).unwrap_or_default(),
                )
            })
        })?;
        let id_js = [("inputId", JsValue::from_str(input_id))];
        let Some((state, task_id, context_id, schema, options)) = found else {
            return Err(error_with(
                "unknown-input",
                &format!("no input request {}", crate::json::Quoted(input_id)),
                &id_js,
            ));
        };
        still_open(state, "input", input_id, "answered", &id_js)?;
        let parsed =
            parse(value).map_err(|_| js_error("invalid-argument", "the answer is not JSON"))?;
        check_answer(
            RequestShape {
                schema: &schema,
                options: &options,
            },
            &parsed,
        )
        .map_err(|e| {
            error_with(
                "invalid-answer",
                &format!(
                    "the answer does not fit the request at {}: {}",
                    crate::json::Quoted(&e.path),
                    e.message
                ),
                &[
                    ("path", JsValue::from_str(&e.path)),
                    ("inputId", JsValue::from_str(input_id)),
                ],
            )
        })?;
        self.begin_answer(RequestKind::Input, input_id)?;
        let mut body = String::from("{\"value\":");
        body.push_str(value);
        if by_agent {
            body.push_str(",\"providedBy\":\"agent\"");
        } else if let Some(u) = &self.answers.user_id {
            body.push_str(",\"userId\":");
            write_str(&mut body, u);
        }
        if let Some(r) = reason {
            // The reason rides along in the body, next to the value.
            body.push_str(",\"reason\":");
            write_str(&mut body, r);
        }
        body.push('}');
        Ok((
            Target {
                kind: "input",
                id: input_id.to_owned(),
                task_id,
                context_id,
                value: value.to_owned(),
                reason: reason.map(str::to_owned),
                denied,
            },
            body,
        ))
    }

    /// The coordinator hook: runs for every input-required a coordinator may answer.
    fn on_input_required(self: &Rc<Self>, event: JsValue) {
        let Some(coordinator) = self.answers.coordinator.clone() else {
            return;
        };
        let Some(id) = get(&event, "inputId").as_string() else {
            return;
        };
        let request = self.shared.store.with_session(|s| {
            s.store().input(&id).and_then(|i| {
                (i.routing == Routing::Coordinator && i.state == RequestState::Open).then(|| {
                    let mut json = String::new();
                    i.write_json(&mut json);
                    json
                })
            })
        });
        let Ok(Some(json)) = request else { return };
        let Ok(req) = from_json(&json) else { return };
        let me = self.clone();
        let result = coordinator.call1(&JsValue::NULL, &req);
        wasm_bindgen_futures::spawn_local(async move {
            let value = match result {
                Ok(v) => JsFuture::from(js_sys::Promise::resolve(&v)).await,
                Err(e) => Err(e),
            };
            let handled = match value {
                Ok(v) if !v.is_undefined() => match to_json(&v) {
                    Ok(text) => {
                        let p = me.respond_json(&id, &text, true, None, false);
                        match JsFuture::from(p).await {
                            Ok(_) => true,
                            Err(e) => {
                                report_error(&e);
                                false
                            }
                        }
                    }
                    Err(e) => {
                        report_error(&e);
                        false
                    }
                },
                Ok(_) => false,
                Err(e) => {
                    report_error(&e);
                    false
                }
            };
            if !handled {
                // Declined: the user's request from now on.
                let _ = me
                    .shared
                    .store
                    .with_store_mut(|s| s.coordinator_declined(&id));
            }
        });
    }

    fn close(&self) {
        if super::panic::poisoned() {
            // After a panic the state may be mid-change: leave it (the hook shut the transport).
            self.closed.set(true);
            return;
        }
        if self.closed.replace(true) {
            return;
        }
        for f in self.hooks.borrow_mut().drain(..) {
            let _ = f.call0(&JsValue::NULL);
        }
        self.hook_closures.borrow_mut().clear();
        if let Some((signal, cb)) = self.signal.borrow_mut().take() {
            let _ =
                signal.remove_event_listener_with_callback("abort", cb.as_ref().unchecked_ref());
        }
        for s in self.streams.borrow_mut().drain(..) {
            if let Some(s) = s.upgrade() {
                super::iter::finish(&s, None);
            }
        }
        self.shared.shutdown(CLOSED, "closed by the app", None);
        self.shared.clear_listeners();
        self.shared.store.close();
    }
}

#[wasm_bindgen]
impl AgentClient {
    /// Creates the client and its store; does no I/O (`connect` starts the connection).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "AgentClientOptions")] options: JsValue,
    ) -> Result<AgentClient, JsValue> {
        check_alive()?;
        if !options.is_object() {
            return Err(js_error("invalid-argument", "options must be an object"));
        }
        let mut opts = read_stream_options(&options)?;
        let endpoints = read_endpoints(&options, &opts.url)?;
        opts.rpc_url = endpoints.rpc_url(Dialect::A2a, &opts.url)?;
        let store = AgentStore::new(Some(options.clone()))?;
        let choice = opts.dialect;
        store.with_session_mut(|s| s.set_dialect(choice))?;
        if let Some(body) = opts.body.as_deref() {
            // Protocol 000: the POSTed prompt is the first task's user message.
            store.with_session_mut(|s| s.store_mut().expect_posted_message(body))?;
        }
        let store_js: JsValue = store.handle().into();
        let inner = Rc::new(ClientInner {
            shared: Rc::new(Shared::new(store, opts)),
            answers: Answers {
                endpoints,
                responder: opt_function(&options, "responder")?,
                coordinator: opt_function(&options, "coordinator")?,
                user_id: opt_string(&options, "userId")?,
            },
            store_js,
            hooks: RefCell::new(Vec::new()),
            hook_closures: RefCell::new(Vec::new()),
            signal: RefCell::new(None),
            streams: RefCell::new(Vec::new()),
            closed: std::cell::Cell::new(false),
        });
        super::panic::register(&inner.shared); // a panic is reported to this client
        if inner.answers.coordinator.is_some() {
            // Requests routed to a coordinator are not the user's until it declines them.
            inner
                .shared
                .store
                .with_store_mut(|s| s.set_coordinator(true))?;
            let weak = Rc::downgrade(&inner);
            let cb: Closure<dyn FnMut(JsValue)> = Closure::new(move |ev: JsValue| {
                if let Some(me) = weak.upgrade() {
                    me.on_input_required(ev);
                }
            });
            let unsub = inner.shared.store.on_internal(
                "input-required",
                cb.as_ref().unchecked_ref::<js_sys::Function>().clone(),
            )?;
            inner.hooks.borrow_mut().push(unsub);
            inner.hook_closures.borrow_mut().push(cb);
        }
        let signal = get(&options, "signal");
        if !absent(&signal) {
            let signal: web_sys::AbortSignal = signal.dyn_into().map_err(|_| {
                js_error("invalid-argument", "options.signal must be an AbortSignal")
            })?;
            if signal.aborted() {
                inner.close();
            } else {
                let weak = Rc::downgrade(&inner);
                let cb: Closure<dyn FnMut()> = Closure::new(move || {
                    if let Some(me) = weak.upgrade() {
                        me.close();
                    }
                });
                signal.add_event_listener_with_callback("abort", cb.as_ref().unchecked_ref())?;
                *inner.signal.borrow_mut() = Some((signal, cb));
            }
        }
        Ok(AgentClient { inner })
    }

    /// Starts connecting (later calls do nothing); `closed` after `close()`.
    pub fn connect(&self) -> Result<(), JsValue> {
        check_alive()?;
        if self.inner.closed.get() {
            return Err(js_error("closed", "this AgentClient was closed"));
        }
        transport::start(&self.inner.shared);
        Ok(())
    }

    /// The store this client feeds (the same object every time).
    #[wasm_bindgen(getter, unchecked_return_type = "AgentStore")]
    pub fn store(&self) -> JsValue {
        self.inner.store_js.clone()
    }

    /// The connection state now.
    #[wasm_bindgen(getter, unchecked_return_type = "ConnectionInfo")]
    pub fn connection(&self) -> JsValue {
        self.inner.shared.info()
    }

    /// Calls `listener(info)` on every connection state change. Returns the unsubscribe function.
    #[wasm_bindgen(js_name = onConnectionChange, unchecked_return_type = "() => void")]
    pub fn on_connection_change(
        &self,
        #[wasm_bindgen(unchecked_param_type = "(info: ConnectionInfo) => void")]
        listener: js_sys::Function,
    ) -> Result<JsValue, JsValue> {
        check_alive()?;
        super::error::check_function(&listener, "the listener")?;
        if self.inner.closed.get() {
            // The state is final: nothing to listen to, nothing to keep.
            return Ok(Closure::<dyn FnMut()>::new(|| {}).into_js_value());
        }
        let id = self.inner.shared.add_listener(listener);
        let weak = Rc::downgrade(&self.inner.shared);
        // Freed when the function is garbage (`once_into_js` would leak unless called).
        Ok(Closure::<dyn FnMut()>::new(move || {
            if let Some(sh) = weak.upgrade() {
                sh.remove_listener(id);
            }
        })
        .into_js_value())
    }

    /// The current state snapshot (see `AgentStore.getSnapshot`).
    #[wasm_bindgen(js_name = getSnapshot, unchecked_return_type = "Snapshot")]
    pub fn get_snapshot(&self) -> Result<JsValue, JsValue> {
        self.inner.shared.store.get_snapshot()
    }

    /// Calls `listener(snapshot)` now and after every change of visible state (the Svelte store
    /// contract; see `AgentStore.subscribe`). Returns the unsubscribe function.
    #[wasm_bindgen(unchecked_return_type = "() => void")]
    pub fn subscribe(
        &self,
        #[wasm_bindgen(unchecked_param_type = "(snapshot: Snapshot) => void")]
        listener: js_sys::Function,
    ) -> Result<js_sys::Function, JsValue> {
        self.inner.shared.store.subscribe(listener)
    }

    /// Calls `handler` with every applied event (internal ones excluded). Returns the unsubscribe function.
    #[wasm_bindgen(js_name = onAny, unchecked_return_type = "() => void")]
    pub fn on_any(
        &self,
        #[wasm_bindgen(unchecked_param_type = "(event: AgentEvent) => void")]
        handler: js_sys::Function,
    ) -> Result<JsValue, JsValue> {
        self.inner.shared.store.on_any(handler)
    }

    /// `on(kind, handler)` (typed in `interface AgentClient` above).
    #[wasm_bindgen(js_name = on, skip_typescript)]
    pub fn on_kind(
        &self,
        kind: String,
        handler: js_sys::Function,
    ) -> Result<js_sys::Function, JsValue> {
        self.inner.shared.store.on_kind(kind, handler)
    }

    /// `events(options)` (typed in `interface AgentClient` above).
    #[wasm_bindgen(skip_typescript)]
    pub fn events(&self, options: JsValue) -> Result<JsValue, JsValue> {
        check_alive()?;
        let filter_v = get(&options, "filter");
        let text = if absent(&filter_v) {
            "{}".to_owned()
        } else {
            to_json(&filter_v)?
        };
        let filter = EventFilter::from_json(&text).map_err(|e| js_error("invalid-argument", &e))?;
        let max = opt_number(&options, "maxBuffered", "options")?.unwrap_or(10_000.0) as usize;
        let signal = get(&options, "signal");
        let signal = if absent(&signal) {
            None
        } else {
            Some(signal.dyn_into::<web_sys::AbortSignal>().map_err(|_| {
                js_error("invalid-argument", "options.signal must be an AbortSignal")
            })?)
        };
        let (stream, state) =
            EventStream::create(&self.inner.shared.store, filter, max.max(1), signal)?;
        if self.inner.closed.get() {
            super::iter::finish(&state, None);
        } else {
            let mut streams = self.inner.streams.borrow_mut();
            streams.retain(|w| w.strong_count() > 0);
            streams.push(Rc::downgrade(&state));
        }
        Ok(stream)
    }

    /// Input requests waiting for the user (routed: those a coordinator is answering are left out).
    #[wasm_bindgen(js_name = pendingInputs, unchecked_return_type = "InputRequest[]")]
    pub fn pending_inputs(&self) -> Result<JsValue, JsValue> {
        self.inner.shared.store.pending_inputs()
    }

    /// Auth requests waiting for the user (auth always goes to the user).
    #[wasm_bindgen(js_name = pendingAuths, unchecked_return_type = "AuthRequest[]")]
    pub fn pending_auths(&self) -> Result<JsValue, JsValue> {
        self.inner.shared.store.pending_auths()
    }

    /// Answers input `inputId` with `value`, after checking it against the request's `schema`
    /// and `options` (rejects with code `invalid-answer` and the failing `path`). Answering
    /// twice rejects with `already-answered` (no second POST). The request stays pending until
    /// the server's `input-received`. AI SDK: `respond(toolCallId, output)` also gives the
    /// output of a client-side tool the message waits for (its part becomes
    /// `output-available`; the next POST continues the message).
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn respond(&self, input_id: &str, value: JsValue) -> js_sys::Promise {
        let sh = &self.inner.shared;
        if transport::ai_sdk::drives(sh) && transport::ai_sdk::awaits_output(sh, input_id) {
            // A client-side tool's output (the official chat's addToolOutput).
            if let Err(e) = self.inner.alive() {
                return rejected(e);
            }
            let output = match to_json(&value) {
                Ok(t) => t,
                Err(e) => return rejected(e),
            };
            let sh = sh.clone();
            let id = input_id.to_owned();
            return future_to_promise(async move {
                transport::ai_sdk::tool_output(&sh, &id, &output)
                    .await
                    .map(|_| JsValue::UNDEFINED)
            });
        }
        match to_json(&value) {
            Ok(text) => self.inner.respond_json(input_id, &text, false, None, false),
            Err(e) => rejected(e),
        }
    }

    /// Approves (the request's own approve option, `true`, or `"approve"`).
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn approve(&self, input_id: &str) -> js_sys::Promise {
        self.decide(input_id, true, None)
    }

    /// Denies (the request's own deny option, `false`, or `"deny"`); `reason` goes along as
    /// `reason` in the answer's body (protocol 000 and Unified), as the `user.response`'s
    /// `feedback` (MyAgent); A2A and ACP answers have no such field and drop it.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn deny(&self, input_id: &str, reason: Option<String>) -> js_sys::Promise {
        self.decide(input_id, false, reason)
    }

    /// Picks one of the request's `options` (the option itself, or an object option's `id`/`value`).
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn select(&self, input_id: &str, option: JsValue) -> js_sys::Promise {
        match to_json(&option) {
            Ok(text) => {
                let text = self.inner.option_value(input_id, text);
                self.inner.respond_json(input_id, &text, false, None, false)
            }
            Err(e) => rejected(e),
        }
    }

    /// Answers with free text.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn answer(&self, input_id: &str, text: &str) -> js_sys::Promise {
        self.respond(input_id, JsValue::from_str(text))
    }

    /// The auth request's URL, only when safe to open (`https:`, or `http:` on localhost);
    /// throws code `unsafe-url` otherwise (the store also has a diagnostic for it).
    #[wasm_bindgen(js_name = authUrl)]
    pub fn auth_url(&self, auth_id: &str) -> Result<String, JsValue> {
        let url = self
            .inner
            .shared
            .store
            .with_session(|s| s.store().auth(auth_id).map(|a| a.auth_url.clone()))?;
        let Some(url) = url else {
            return Err(error_with(
                "unknown-auth",
                &format!("no auth request {}", crate::json::Quoted(auth_id)),
                &[],
            ));
        };
        let Some(url) = url else {
            return Err(error_with(
                "no-auth-url",
                "this auth request has no authUrl",
                &[],
            ));
        };
        if !is_safe_to_open(&url) {
            return Err(error_with(
                "unsafe-url",
                "refusing to open an auth URL that is not https: (or http: on localhost)",
                &[("authId", JsValue::from_str(auth_id))],
            ));
        }
        Ok(url)
    }

    /// Opens the auth URL in a new tab (`noopener`) when it is safe; throws `unsafe-url` otherwise.
    #[wasm_bindgen(js_name = openAuth)]
    pub fn open_auth(&self, auth_id: &str) -> Result<(), JsValue> {
        let url = self.auth_url(auth_id)?;
        let open = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("open"))?;
        let open: js_sys::Function = open
            .dyn_into()
            .map_err(|_| js_error("invalid-state", "window.open is not available here"))?;
        open.call3(
            &js_sys::global(),
            &JsValue::from_str(&url),
            &JsValue::from_str("_blank"),
            &JsValue::from_str("noopener,noreferrer"),
        )?;
        Ok(())
    }

    /// Tells the agent that auth `authId` was completed (`details`: `code`, `userId`).
    #[wasm_bindgen(js_name = completeAuth, unchecked_return_type = "Promise<void>")]
    pub fn complete_auth(
        &self,
        auth_id: &str,
        #[wasm_bindgen(unchecked_param_type = "{ code?: string; userId?: string }")]
        details: JsValue,
    ) -> js_sys::Promise {
        let inner = &self.inner;
        if let Err(e) = inner.alive() {
            return rejected(e);
        }
        let found = inner.shared.store.with_session(|s| {
            s.store()
                .auth(auth_id)
                .map(|a| (a.state, a.task_id.clone(), a.context_id.clone()))
        });
        let (state, task_id, context_id) = match found {
            Err(e) => return rejected(e),
            Ok(None) => {
                return rejected(error_with(
                    "unknown-auth",
                    &format!("no auth request {}", crate::json::Quoted(auth_id)),
                    &[],
                ))
            }
            Ok(Some(f)) => f,
        };
        let id_js = [("authId", JsValue::from_str(auth_id))];
        if let Err(e) = still_open(state, "auth", auth_id, "completed", &id_js) {
            return rejected(e);
        }
        let mut body = String::from("{");
        let mut first = true;
        for key in ["code", "userId"] {
            let v = get(&details, key);
            let v = v.as_string().or_else(|| {
                (key == "userId")
                    .then(|| inner.answers.user_id.clone())
                    .flatten()
            });
            if let Some(v) = v {
                if !first {
                    body.push(',');
                }
                first = false;
                write_str(&mut body, key);
                body.push(':');
                write_str(&mut body, &v);
            }
        }
        body.push('}');
        if let Err(e) = inner.begin_answer(RequestKind::Auth, auth_id) {
            return rejected(e);
        }
        inner.send_marked(
            Target {
                kind: "auth",
                id: auth_id.to_owned(),
                task_id,
                context_id,
                value: body.clone(),
                reason: None,
                denied: false,
            },
            body,
        )
    }

    /// Asks the agent to cancel task `taskId` (the task ends when the server says `canceled`).
    /// AI SDK: the official `stop()` for the message being written (`taskId` = its id): the
    /// request is aborted, the message keeps what arrived and its task ends `canceled`.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn cancel(&self, task_id: &str) -> js_sys::Promise {
        if let Err(e) = self.inner.alive() {
            return rejected(e);
        }
        let found = self
            .inner
            .shared
            .store
            .with_session(|s| s.store().task(task_id).map(|t| t.context_id.clone()));
        let context_id = match found {
            Err(e) => return rejected(e),
            Ok(None) => {
                return rejected(error_with(
                    "unknown-task",
                    &format!("no task {}", crate::json::Quoted(task_id)),
                    &[],
                ))
            }
            Ok(Some(c)) => c,
        };
        let me = self.inner.clone();
        let t = Target {
            kind: "cancel",
            id: String::new(),
            task_id: task_id.to_owned(),
            context_id,
            value: "{}".into(),
            reason: None,
            denied: false,
        };
        future_to_promise(async move { me.send(t, "{}".into()).await.map(|_| JsValue::UNDEFINED) })
    }

    /// Sends a frame over the WebSocket transport (objects are sent as JSON). On a MyAgent
    /// stream a string is the user's message (`user.message`, see `sendMessage`). Throws
    /// `invalid-state` while no socket is open (answers, `cancel` and `sendMessage` wait for it).
    pub fn send(&self, message: JsValue) -> Result<(), JsValue> {
        check_alive()?;
        let text = match message.as_string() {
            Some(s) if self.inner.shared.dialect() == Some(Dialect::MyAgent) => {
                return match self.inner.message_out(&s, None)? {
                    Some(out) => self.inner.send_frame(&out.body),
                    None => Err(js_error("invalid-state", "no MyAgent session")),
                };
            }
            Some(s) => s,
            None => to_json(&message)?,
        };
        self.inner.send_frame(&text)
    }

    /// Sends the user's next message in the stream's dialect: A2A `message/stream` (a new task,
    /// in `contextId` when given; its stream feeds this client), MyAgent `user.message`, AG-UI
    /// the thread's next run (its messages so far plus `{id, role: "user", content: text}`, the
    /// latest `sharedState`; rejects with `invalid-state` while interrupts wait for answers),
    /// AI SDK the chat's next POST (every `UIMessage` of the chat plus `{id, role: "user",
    /// parts: [{type: "text", text}]}`; sent after the response being read, if any).
    /// Rejects with `invalid-state` for the dialects without one (or before the dialect is known).
    #[wasm_bindgen(js_name = sendMessage, unchecked_return_type = "Promise<void>")]
    pub fn send_message(
        &self,
        text: &str,
        #[wasm_bindgen(unchecked_optional_param_type = "{ contextId?: string }")] options: Option<
            JsValue,
        >,
    ) -> js_sys::Promise {
        if transport::ag_ui::drives(&self.inner.shared) {
            return match self.inner.alive() {
                Ok(()) => transport::ag_ui::send_message(&self.inner.shared, text),
                Err(e) => rejected(e),
            };
        }
        if transport::ai_sdk::drives(&self.inner.shared) {
            return match self.inner.alive() {
                Ok(()) => transport::ai_sdk::send_message(&self.inner.shared, text),
                Err(e) => rejected(e),
            };
        }
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let ctx = match opt_string(&options, "contextId") {
            Ok(c) => c,
            Err(e) => return rejected(e),
        };
        let out = match self.inner.message_out(text, ctx.as_deref()) {
            Ok(Some(o)) => o,
            Ok(None) => {
                return rejected(js_error(
                    "invalid-state",
                    "no follow-up message in this dialect (protocol 000: the message is \
                     the body of the POST that opens a run)",
                ))
            }
            Err(e) => return rejected(e),
        };
        let me = self.inner.clone();
        let t = Target {
            kind: "message",
            id: String::new(),
            task_id: String::new(),
            context_id: ctx.unwrap_or_default(),
            value: String::new(),
            reason: None,
            denied: false,
        };
        future_to_promise(async move { me.deliver(out, &t).await.map(|_| JsValue::UNDEFINED) })
    }

    /// The protocol the stream speaks: the `dialect` option, or what `"auto"` detected
    /// (`undefined` until the first telling event).
    #[wasm_bindgen(getter, unchecked_return_type = "Dialect | undefined")]
    pub fn dialect(&self) -> JsValue {
        match self.inner.shared.dialect() {
            Some(d) => JsValue::from_str(d.as_str()),
            None => JsValue::UNDEFINED,
        }
    }

    /// Closes the connection, stops every delivery and removes every listener (idempotent).
    pub fn close(&self) {
        self.inner.close();
    }

    /// State listeners plus store listeners and handlers (leak checks; 0 after close).
    #[wasm_bindgen(getter, js_name = listenerCount)]
    pub fn listener_count(&self) -> usize {
        let internal = self.inner.hooks.borrow().len();
        self.inner.shared.listener_count()
            + self
                .inner
                .shared
                .store
                .listener_count()
                .saturating_sub(internal)
    }
}

impl AgentClient {
    fn decide(&self, input_id: &str, yes: bool, reason: Option<String>) -> js_sys::Promise {
        if let Err(e) = self.inner.alive() {
            return rejected(e);
        }
        let (schema, options) = match self.inner.input_shape(input_id) {
            Err(e) => return rejected(e),
            Ok(None) => {
                return rejected(error_with(
                    "unknown-input",
                    &format!("no input request {}", crate::json::Quoted(input_id)),
                    &[],
                ))
            }
            Ok(Some(s)) => s,
        };
        let value = decision_value(
            RequestShape {
                schema: &schema,
                options: &options,
            },
            yes,
        );
        self.inner
            .respond_json(input_id, &value, false, reason.as_deref(), !yes)
    }
}

impl Drop for AgentClient {
    fn drop(&mut self) {
        // `free()` / `Symbol.dispose` / `using`: the connection ends with its owner.
        self.inner.close();
    }
}

#[cfg(feature = "worker")]
impl AgentClient {
    /// The store this client feeds (Worker mode: `worker_host` attaches its sink and hooks).
    pub(crate) fn store_handle(&self) -> AgentStore {
        self.inner.shared.store.handle()
    }
}
