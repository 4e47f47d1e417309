//! Answer routing of `AgentClient`: the request an answer is for, the dialect's message for
//! it, where it goes (endpoint templates, JSON-RPC, the app's responder) and how it is sent.

use super::*;
use crate::browser::convert::{from_json, to_json};
use crate::browser::error::{check_alive, js_error};
use crate::browser::global::report_error;
use crate::browser::transport::a2a;
use crate::browser::transport::rpc::{self, Call};
use crate::browser::transport::{self, TransportKind, CLOSED};
use crate::client::answer::{check_answer, RequestShape};
use crate::client::template::expand;
use crate::dialects::respond::{self, Outgoing, RespondError, Transport};
use crate::dialects::Dialect;
use crate::json::{parse, write_str, WriteJson};
use crate::state::{RequestKind, RequestState, Routing};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

/// What an answer needs from the request it answers.
pub(super) struct Target {
    pub(super) kind: &'static str,
    pub(super) id: String,
    pub(super) task_id: String,
    pub(super) context_id: String,
    /// The answer as JSON (the value, or the auth details), for the dialects that send it
    /// their own way.
    pub(super) value: String,
    /// The user's reason (`deny(id, reason)`), for the dialects whose answer carries one.
    pub(super) reason: Option<String>,
    /// `deny`: AG-UI answers it with `status: "cancelled"`.
    pub(super) denied: bool,
}

/// `Ok` while a request is open; `already-answered` or `expired` otherwise (`what` is "input"
/// or "auth", `done` how it ended: "answered", "completed"; `id_js` names it on the error).
pub(super) fn still_open(
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
pub(super) fn respond_error(kind: &str, e: &RespondError) -> JsValue {
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
    pub(super) fn endpoint(&self, t: &Target) -> Result<String, JsValue> {
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
    pub(super) fn dialect_message(&self, t: &Target) -> Option<Result<Outgoing, JsValue>> {
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
    pub(super) async fn deliver(self: Rc<Self>, out: Outgoing, t: &Target) -> Result<(), JsValue> {
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
    pub(super) async fn stream_call(
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
    pub(super) fn input_shape(&self, input_id: &str) -> Result<Option<(String, String)>, JsValue> {
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
    pub(super) fn option_value(&self, input_id: &str, option: String) -> String {
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
    pub(super) fn message_out(
        &self,
        text: &str,
        ctx: Option<&str>,
    ) -> Result<Option<Outgoing>, JsValue> {
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
    pub(super) fn send_frame(&self, text: &str) -> Result<(), JsValue> {
        transport::websocket::send_now(&self.shared, text)
    }

    /// Sends `body` (JSON text) for `t` through the responder or an HTTP POST (protocol 000),
    /// or in the stream's dialect.
    pub(super) async fn send(self: Rc<Self>, t: Target, body: String) -> Result<(), JsValue> {
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
        let resp = JsFuture::from(crate::browser::global::fetch_request(&req))
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
    pub(super) fn alive(&self) -> Result<(), JsValue> {
        check_alive()?;
        if self.closed.get() {
            return Err(js_error("closed", "this AgentClient was closed"));
        }
        Ok(())
    }

    /// Marks request `id` as being answered (its `sending` becomes `true`, listeners are
    /// notified). The callers checked that it is open: a refusal here is an answer of this
    /// client in flight (`already-answered`; the request is answerable again if it fails).
    pub(super) fn begin_answer(&self, kind: RequestKind, id: &str) -> Result<(), JsValue> {
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
    pub(super) fn respond_json(
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
    pub(super) fn send_marked(self: &Rc<Self>, t: Target, body: String) -> js_sys::Promise {
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

    pub(super) fn prepare_input(
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
    pub(super) fn on_input_required(self: &Rc<Self>, event: JsValue) {
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

    pub(super) fn close(&self) {
        if crate::browser::error::poisoned() {
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
                crate::browser::iter::finish(&s, None);
            }
        }
        self.shared.shutdown(CLOSED, "closed by the app", None);
        self.shared.clear_listeners();
        self.shared.store.close();
    }
}
