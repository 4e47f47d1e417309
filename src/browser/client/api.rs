//! The methods of `AgentClient` as JavaScript sees them.

use super::routing::{still_open, Target};
use super::*;
use crate::browser::convert::to_json;
use crate::browser::error::{check_alive, js_error};
use crate::browser::iter::EventStream;
use crate::browser::options::endpoints::read_endpoints;
use crate::browser::options::stream::read_stream_options;
use crate::browser::store::AgentStore;
use crate::browser::transport::{self, Shared};
use crate::client::answer::{decision_value, RequestShape};
use crate::dialects::Dialect;
use crate::filter::EventFilter;
use crate::json::write_str;
use crate::state::RequestKind;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::future_to_promise;

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
        crate::browser::panic::register(&inner.shared); // a panic is reported to this client
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
        crate::browser::error::check_function(&listener, "the listener")?;
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
            crate::browser::iter::finish(&state, None);
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
        crate::browser::auth_url::checked(auth_id, url)
    }

    /// Opens the auth URL in a new tab (`noopener`) when it is safe; throws `unsafe-url` otherwise.
    #[wasm_bindgen(js_name = openAuth)]
    pub fn open_auth(&self, auth_id: &str) -> Result<(), JsValue> {
        crate::browser::auth_url::open_in_new_tab(&self.auth_url(auth_id)?)
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
