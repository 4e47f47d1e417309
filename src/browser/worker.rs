//! Worker mode, the page side: `WorkerClient`, the `AgentClient` API with the connection,
//! parsing, validation and assembly running in a module Web Worker (`worker_host` on the other
//! side). The page keeps a mirror of the state, updated by at most one message per animation
//! frame; this type is the typed face of that mirror (`worker_page.js`).

use super::error::{check_alive, js_error};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/browser/worker_page.js")]
extern "C" {
    type AwRemote;
    #[wasm_bindgen(constructor, catch)]
    fn new(options: &JsValue) -> Result<AwRemote, JsValue>;
    #[wasm_bindgen(method, js_name = getSnapshot)]
    fn get_snapshot(this: &AwRemote) -> JsValue;
    #[wasm_bindgen(method, catch)]
    fn subscribe(this: &AwRemote, listener: &js_sys::Function) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch)]
    fn on(this: &AwRemote, kind: &str, handler: &js_sys::Function) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch, js_name = onAny)]
    fn on_any(this: &AwRemote, handler: &js_sys::Function) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch, js_name = subscribeEvents)]
    fn subscribe_events(
        this: &AwRemote,
        filter: &JsValue,
        handler: &js_sys::Function,
    ) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch)]
    fn events(this: &AwRemote, options: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method)]
    fn call(this: &AwRemote, method: &str, args: &js_sys::Array) -> js_sys::Promise;
    #[wasm_bindgen(method, js_name = send)]
    fn send_call(this: &AwRemote, method: &str, args: &js_sys::Array);
    #[wasm_bindgen(method, catch)]
    fn connect(this: &AwRemote) -> Result<(), JsValue>;
    #[wasm_bindgen(method, catch)]
    fn feed(this: &AwRemote, chunk: &JsValue) -> Result<(), JsValue>;
    #[wasm_bindgen(method, js_name = authRequest)]
    fn auth_request(this: &AwRemote, auth_id: &str) -> JsValue;
    #[wasm_bindgen(method, catch, js_name = onConnectionChange)]
    fn on_connection_change(
        this: &AwRemote,
        listener: &js_sys::Function,
    ) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(method, getter)]
    fn connection(this: &AwRemote) -> JsValue;
    #[wasm_bindgen(method, getter)]
    fn dialect(this: &AwRemote) -> JsValue;
    #[wasm_bindgen(method, getter, js_name = pendingInputs)]
    fn pending_inputs(this: &AwRemote) -> JsValue;
    #[wasm_bindgen(method, getter, js_name = pendingAuths)]
    fn pending_auths(this: &AwRemote) -> JsValue;
    #[wasm_bindgen(method, getter, js_name = listenerCount)]
    fn listener_count(this: &AwRemote) -> f64;
    #[wasm_bindgen(method)]
    fn close(this: &AwRemote);
}

/// `AgentClient` with the work in a Web Worker: the connection, parsing, validation and
/// assembly run there, and the page receives what changed, batched per animation frame. Same
/// API as `AgentClient` (except `store`, `responder` and `coordinator`); snapshots, events and
/// connection changes arrive up to a frame later than they happen in the Worker.
///
/// ```ts
/// const client = new WorkerClient({ url: "/api/stream?scenario=main" });
/// client.subscribe((s) => render(s));
/// client.on("input-required", (e) => client.approve(e.inputId));
/// ```
#[wasm_bindgen]
pub struct WorkerClient {
    remote: AwRemote,
}

/// Checks a filter here, as `AgentClient` does, so a bad one throws `invalid-argument` to the
/// caller (in the Worker it could only be reported, long after the call returned).
fn check_filter(filter: &JsValue) -> Result<(), JsValue> {
    if filter.is_undefined() || filter.is_null() {
        return Ok(());
    }
    let text = super::convert::to_json(filter)?;
    crate::filter::EventFilter::from_json(&text)
        .map(|_| ())
        .map_err(|e| js_error("invalid-argument", &e))
}

fn args(items: &[&JsValue]) -> js_sys::Array {
    items.iter().copied().collect()
}

#[wasm_bindgen]
impl WorkerClient {
    /// Creates the page side; does no I/O (the Worker starts with `connect` or the first call).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "WorkerClientOptions")] options: JsValue,
    ) -> Result<WorkerClient, JsValue> {
        check_alive()?;
        Ok(WorkerClient {
            remote: AwRemote::new(&options)?,
        })
    }

    /// Starts connecting in the Worker (later calls do nothing).
    pub fn connect(&self) -> Result<(), JsValue> {
        check_alive()?;
        self.remote.connect()
    }

    /// The connection state (updated when the Worker reports a change).
    #[wasm_bindgen(getter, unchecked_return_type = "ConnectionInfo")]
    pub fn connection(&self) -> JsValue {
        self.remote.connection()
    }

    /// Calls `listener(info)` on every connection state change. Returns the unsubscribe function.
    #[wasm_bindgen(js_name = onConnectionChange, unchecked_return_type = "() => void")]
    pub fn on_connection_change(
        &self,
        #[wasm_bindgen(unchecked_param_type = "(info: ConnectionInfo) => void")]
        listener: js_sys::Function,
    ) -> Result<JsValue, JsValue> {
        super::error::check_function(&listener, "the listener")?;
        self.remote.on_connection_change(&listener)
    }

    /// The current state as a read-only snapshot (see `Snapshot`; the same object until something changed).
    #[wasm_bindgen(js_name = getSnapshot, unchecked_return_type = "Snapshot")]
    pub fn get_snapshot(&self) -> JsValue {
        self.remote.get_snapshot()
    }

    /// Calls `listener(snapshot)` now and after every change; returns the unsubscribe function.
    #[wasm_bindgen(unchecked_return_type = "() => void")]
    pub fn subscribe(
        &self,
        #[wasm_bindgen(unchecked_param_type = "(snapshot: Snapshot) => void")]
        listener: js_sys::Function,
    ) -> Result<JsValue, JsValue> {
        super::error::check_function(&listener, "the listener")?;
        self.remote.subscribe(&listener)
    }

    /// Calls `handler` with every applied event (internal ones excluded). Same as `on("*", …)`.
    #[wasm_bindgen(js_name = onAny, unchecked_return_type = "() => void")]
    pub fn on_any(
        &self,
        #[wasm_bindgen(unchecked_param_type = "(event: AgentEvent) => void")]
        handler: js_sys::Function,
    ) -> Result<JsValue, JsValue> {
        super::error::check_function(&handler, "the handler")?;
        self.remote.on_any(&handler)
    }

    /// `on(kind, handler)` (typed in `interface WorkerClient` above).
    #[wasm_bindgen(js_name = on, skip_typescript)]
    pub fn on_kind(&self, kind: &str, handler: js_sys::Function) -> Result<JsValue, JsValue> {
        super::error::check_function(&handler, "the handler")?;
        self.remote.on(kind, &handler)
    }

    /// Calls `handler` with every applied event that passes `filter` (evaluated in the Worker).
    #[wasm_bindgen(js_name = subscribeEvents, unchecked_return_type = "() => void")]
    pub fn subscribe_events(
        &self,
        #[wasm_bindgen(unchecked_param_type = "EventFilterSpec")] filter: JsValue,
        #[wasm_bindgen(unchecked_param_type = "(event: AgentEvent) => void")]
        handler: js_sys::Function,
    ) -> Result<JsValue, JsValue> {
        check_filter(&filter)?;
        super::error::check_function(&handler, "the handler")?;
        self.remote.subscribe_events(&filter, &handler)
    }

    /// `events(options)` (typed in `interface WorkerClient` above).
    #[wasm_bindgen(skip_typescript)]
    pub fn events(&self, options: JsValue) -> Result<JsValue, JsValue> {
        if options.is_object() {
            check_filter(&js_sys::Reflect::get(&options, &"filter".into())?)?;
        }
        self.remote.events(&options)
    }

    /// Open input requests waiting for the user.
    #[wasm_bindgen(js_name = pendingInputs, unchecked_return_type = "InputRequest[]")]
    pub fn pending_inputs(&self) -> JsValue {
        self.remote.pending_inputs()
    }

    /// Open auth requests.
    #[wasm_bindgen(js_name = pendingAuths, unchecked_return_type = "AuthRequest[]")]
    pub fn pending_auths(&self) -> JsValue {
        self.remote.pending_auths()
    }

    /// Answers input request `inputId` (checked in the Worker against its schema/options).
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn respond(&self, input_id: &str, value: JsValue) -> js_sys::Promise {
        self.remote
            .call("respond", &args(&[&input_id.into(), &value]))
    }

    /// Approves a confirmation request.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn approve(&self, input_id: &str) -> js_sys::Promise {
        self.remote.call("approve", &args(&[&input_id.into()]))
    }

    /// Denies a confirmation request, with an optional reason.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn deny(&self, input_id: &str, reason: Option<String>) -> js_sys::Promise {
        let reason = reason.map_or(JsValue::UNDEFINED, JsValue::from);
        self.remote
            .call("deny", &args(&[&input_id.into(), &reason]))
    }

    /// Answers a selection request with one of its options.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn select(&self, input_id: &str, option: JsValue) -> js_sys::Promise {
        self.remote
            .call("select", &args(&[&input_id.into(), &option]))
    }

    /// Answers a clarification request with text.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn answer(&self, input_id: &str, text: &str) -> js_sys::Promise {
        self.remote
            .call("answer", &args(&[&input_id.into(), &text.into()]))
    }

    /// The auth request's URL, only when safe to open (`https:`, or `http:` on localhost);
    /// throws code `unsafe-url` otherwise.
    #[wasm_bindgen(js_name = authUrl)]
    pub fn auth_url(&self, auth_id: &str) -> Result<String, JsValue> {
        let auth = self.remote.auth_request(auth_id);
        if auth.is_undefined() {
            return Err(js_error(
                "unknown-auth",
                &format!("no auth request {}", crate::json::Quoted(auth_id)),
            ));
        }
        let url = js_sys::Reflect::get(&auth, &"authUrl".into())?;
        super::auth_url::checked(auth_id, url.as_string())
    }

    /// Opens the auth URL in a new tab (`noopener`) when it is safe; throws `unsafe-url` otherwise.
    #[wasm_bindgen(js_name = openAuth)]
    pub fn open_auth(&self, auth_id: &str) -> Result<(), JsValue> {
        super::auth_url::open_in_new_tab(&self.auth_url(auth_id)?)
    }

    /// Tells the agent that auth `authId` was completed (`details`: `code`, `userId`).
    #[wasm_bindgen(js_name = completeAuth, unchecked_return_type = "Promise<void>")]
    pub fn complete_auth(
        &self,
        auth_id: &str,
        #[wasm_bindgen(unchecked_param_type = "{ code?: string; userId?: string }")]
        details: JsValue,
    ) -> js_sys::Promise {
        self.remote
            .call("completeAuth", &args(&[&auth_id.into(), &details]))
    }

    /// Asks the agent to cancel task `taskId`.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn cancel(&self, task_id: &str) -> js_sys::Promise {
        self.remote.call("cancel", &args(&[&task_id.into()]))
    }

    /// Sends a frame over the WebSocket transport (errors are reported, not thrown: the
    /// socket is in the Worker).
    pub fn send(&self, message: JsValue) {
        self.remote.send_call("send", &args(&[&message]));
    }

    /// Sends the user's next message in the stream's dialect (see `AgentClient.sendMessage`).
    #[wasm_bindgen(js_name = sendMessage, unchecked_return_type = "Promise<void>")]
    pub fn send_message(
        &self,
        text: &str,
        #[wasm_bindgen(unchecked_optional_param_type = "{ contextId?: string }")] options: Option<
            JsValue,
        >,
    ) -> js_sys::Promise {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        self.remote
            .call("sendMessage", &args(&[&text.into(), &options]))
    }

    /// With `transport: "manual"`: the next bytes of an SSE stream (copied to the Worker).
    pub fn feed(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] chunk: JsValue,
    ) -> Result<(), JsValue> {
        self.remote.feed(&chunk)
    }

    /// With `transport: "manual"`: the end of the stream. Resolves once the Worker applied
    /// everything fed before and this page's snapshot shows it.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn finish(&self) -> js_sys::Promise {
        self.remote.call("finish", &args(&[]))
    }

    /// Resolves once the page's snapshot shows everything the Worker has applied so far.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn flush(&self) -> js_sys::Promise {
        self.remote.call("flush", &args(&[]))
    }

    /// The protocol the stream speaks (`undefined` until known).
    #[wasm_bindgen(getter, unchecked_return_type = "Dialect | undefined")]
    pub fn dialect(&self) -> JsValue {
        self.remote.dialect()
    }

    /// Closes the connection, ends the Worker and removes every listener (idempotent).
    pub fn close(&self) {
        self.remote.close();
    }

    /// Listeners and handlers registered on this page (leak checks; 0 after close).
    #[wasm_bindgen(getter, js_name = listenerCount)]
    pub fn listener_count(&self) -> f64 {
        self.remote.listener_count()
    }
}
