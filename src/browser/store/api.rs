//! The methods of `AgentStore` as JavaScript sees them.

use super::*;
use crate::browser::convert::{from_json, to_json};
use crate::browser::error::{check_alive, check_function, js_error};
use crate::browser::options::store::read_options;
use crate::filter::EventFilter;
use crate::pipeline::Session;
use std::cell::RefCell;
use std::rc::Rc;

#[wasm_bindgen]
impl AgentStore {
    /// A new, empty store. `options` sets limits (see `AgentStoreOptions`).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "AgentStoreOptions")] options: Option<
            JsValue,
        >,
    ) -> Result<AgentStore, JsValue> {
        check_alive()?;
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let o = read_options(&options)?;
        let batch_frames = crate::browser::options::store::read_batch(&options)?;
        let mut session = Session::new(o.sse, o.limits);
        if let Some(r) = o.redactor {
            session.store_mut().set_redactor(r);
        }
        Ok(AgentStore {
            inner: Rc::new(RefCell::new(Inner {
                session,
                next_id: 0,
                listeners: Vec::new(),
                handlers: Vec::new(),
                any_mask: 0,
                fns: js_sys::Array::new(),
                next_slot: 0,
                delivering: 0,
                batch: Batch::default(),
                sink: Sink::default(),
                change_hooks: Vec::new(),
                snapshot: None,
                batch_frames,
                frame_pending: false,
                objects: ObjectCache::default(),
                snapshot_read: false,
                idle_build: false,
                last_build_ms: 0.0,
                closed: false,
            })),
        })
    }

    /// Feeds the next bytes of an SSE stream (any chunk boundaries): a `Uint8Array`, an
    /// `ArrayBuffer` or `DataView` (their bytes), or an array of byte values.
    pub fn feed(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | ArrayBuffer | DataView | number[]")]
        chunk: &[u8],
    ) -> Result<(), JsValue> {
        self.feed_bytes(chunk)
    }

    /// Feeds SSE text (e.g. a recording read as a string).
    #[wasm_bindgen(js_name = feedText)]
    pub fn feed_text(&self, text: &str) -> Result<(), JsValue> {
        self.feed_bytes(text.as_bytes())
    }

    /// Applies one already-parsed event (an object or its JSON text), as from a custom transport.
    #[wasm_bindgen(js_name = pushEvent)]
    pub fn push_event(
        &self,
        #[wasm_bindgen(unchecked_param_type = "AgentEvent | Record<string, unknown> | string")]
        event: JsValue,
    ) -> Result<(), JsValue> {
        let text = match event.as_string() {
            Some(s) => s,
            None => to_json(&event)?,
        };
        self.push_text(&text)
    }

    /// Marks the end of the stream: an unterminated event is discarded and chunks that never
    /// arrived are reported as `chunk-gap` diagnostics.
    pub fn finish(&self) -> Result<(), JsValue> {
        self.update(|inner| inner.session.finish())
    }

    /// Forgets a partial event (call when a connection drops, before feeding the next one).
    /// The last event id is kept for the resume.
    #[wasm_bindgen(js_name = resetStream)]
    pub fn reset_stream(&self) -> Result<(), JsValue> {
        self.borrow_mut()?.session.parser().reset();
        Ok(())
    }

    /// The SSE last event id (send it as `Last-Event-ID` to resume).
    #[wasm_bindgen(getter, js_name = lastEventId)]
    pub fn last_event_id(&self) -> Result<String, JsValue> {
        Ok(self
            .borrow_mut()?
            .session
            .parser()
            .last_event_id()
            .to_owned())
    }

    /// The server's `retry:` reconnection time in ms, if it sent one.
    #[wasm_bindgen(getter)]
    pub fn retry(&self) -> Result<Option<f64>, JsValue> {
        Ok(self
            .borrow_mut()?
            .session
            .parser()
            .retry()
            .map(|r| r as f64))
    }

    /// Changes exactly when visible state changed.
    #[wasm_bindgen(getter)]
    pub fn version(&self) -> Result<f64, JsValue> {
        Ok(self.borrow()?.visible_version() as f64)
    }

    /// The current state as a read-only snapshot (see `Snapshot`). Returns the same object until something
    /// visible changed (for React's `useSyncExternalStore`; wrap the method, it needs its `this`).
    #[wasm_bindgen(js_name = getSnapshot, unchecked_return_type = "Snapshot")]
    pub fn get_snapshot(&self) -> Result<JsValue, JsValue> {
        let mut guard = self.borrow_mut_any()?;
        let inner = &mut *guard;
        inner.snapshot_read = true;
        let version = inner.visible_version();
        if let Some((v, snap)) = &inner.snapshot {
            if *v == version {
                return Ok(snap.clone());
            }
        }
        let (task_objs, artifact_objs) = inner.objects.all(inner.session.store_mut())?;
        let store = inner.session.store();
        let tasks = js_sys::Array::new();
        let roots = js_sys::Array::new();
        for (t, v) in store.tasks().zip(&task_objs) {
            if t.parent_id.is_none() {
                roots.push(v);
            }
            tasks.push(v);
        }
        let artifacts = js_sys::Array::new();
        for v in &artifact_objs {
            artifacts.push(v);
        }
        let snap = js_sys::Object::new();
        let set = |k: &str, v: &JsValue| {
            js_sys::Reflect::set(&snap, &JsValue::from_str(k), v).map(|_| ())
        };
        set("version", &JsValue::from_f64(version as f64))?;
        set("tasks", &tasks)?;
        set("roots", &roots)?;
        set("artifacts", &artifacts)?;
        set("diagnostics", &json_array(store.diagnostics())?)?;
        set("pendingInputs", &json_array(store.pending_inputs())?)?;
        set("pendingAuths", &json_array(store.pending_auths())?)?;
        let frozen: JsValue = js_sys::Object::freeze(&snap).into();
        inner.snapshot = Some((version, frozen.clone()));
        Ok(frozen)
    }

    /// Calls `listener(snapshot)` once now and after every change of visible state; returns
    /// the unsubscribe function. That is the Svelte store contract (`$store` works), and React's
    /// `useSyncExternalStore((f) => store.subscribe(f), () => store.getSnapshot())` is happy
    /// with it too.
    #[wasm_bindgen(unchecked_return_type = "() => void")]
    pub fn subscribe(
        &self,
        #[wasm_bindgen(unchecked_param_type = "(snapshot: Snapshot) => void")]
        listener: js_sys::Function,
    ) -> Result<js_sys::Function, JsValue> {
        check_function(&listener, "the listener")?;
        let id = {
            let mut inner = self.borrow_mut()?;
            inner.next_id += 1;
            let id = inner.next_id;
            inner.listeners.push((id, listener.clone()));
            id
        };
        let unsubscribe = unsubscribe_fn(&self.inner, id, true);
        // The caller gets no unsubscribe function when this throws: do not keep the listener.
        if let Err(e) = self
            .get_snapshot()
            .and_then(|snap| listener.call1(&JsValue::NULL, &snap))
        {
            let _ = unsubscribe.call0(&JsValue::NULL);
            return Err(e);
        }
        Ok(unsubscribe)
    }

    /// Calls `handler` with every applied event (internal ones excluded). Same as `on("*", …)`.
    #[wasm_bindgen(js_name = onAny, unchecked_return_type = "() => void")]
    pub fn on_any(
        &self,
        #[wasm_bindgen(unchecked_param_type = "(event: AgentEvent) => void")]
        handler: js_sys::Function,
    ) -> Result<JsValue, JsValue> {
        Ok(self
            .subscribe_fn(handler, HandlerFilter::Kind("*".into()))?
            .into())
    }

    /// `on(kind, handler)` (typed in `interface AgentStore` above).
    #[wasm_bindgen(js_name = on, skip_typescript)]
    pub fn on_kind(
        &self,
        kind: String,
        handler: js_sys::Function,
    ) -> Result<js_sys::Function, JsValue> {
        self.subscribe_fn(handler, HandlerFilter::Kind(kind))
    }

    /// Calls `handler` with every applied event that passes `filter` (evaluated in wasm).
    /// Returns the unsubscribe function.
    #[wasm_bindgen(js_name = subscribeEvents, unchecked_return_type = "() => void")]
    pub fn subscribe_events(
        &self,
        #[wasm_bindgen(unchecked_param_type = "EventFilterSpec")] filter: JsValue,
        #[wasm_bindgen(unchecked_param_type = "(event: AgentEvent) => void")]
        handler: js_sys::Function,
    ) -> Result<JsValue, JsValue> {
        let text = if filter.is_undefined() || filter.is_null() {
            "{}".to_owned()
        } else {
            to_json(&filter)?
        };
        let f = EventFilter::from_json(&text).map_err(|e| js_error("invalid-argument", &e))?;
        Ok(self
            .subscribe_fn(handler, HandlerFilter::Full(Box::new(f)))?
            .into())
    }

    /// One task, or `undefined`.
    #[wasm_bindgen(unchecked_return_type = "Task | undefined")]
    pub fn task(&self, id: &str) -> Result<JsValue, JsValue> {
        let mut guard = self.borrow_mut_any()?;
        let inner = &mut *guard;
        inner.snapshot_read = true;
        inner.objects.task(inner.session.store_mut(), id)
    }

    /// One artifact's description, or `undefined`.
    #[wasm_bindgen(unchecked_return_type = "Artifact | undefined")]
    pub fn artifact(&self, id: &str) -> Result<JsValue, JsValue> {
        let mut guard = self.borrow_mut_any()?;
        let inner = &mut *guard;
        inner.snapshot_read = true;
        inner.objects.artifact(inner.session.store_mut(), id)
    }

    /// A file artifact's bytes (a copy), or `undefined`.
    #[wasm_bindgen(js_name = artifactBytes, unchecked_return_type = "Uint8Array<ArrayBuffer> | undefined")]
    pub fn artifact_bytes(&self, id: &str) -> Result<JsValue, JsValue> {
        Ok(match self.borrow()?.session.store().artifact_bytes(id) {
            Some(b) => js_sys::Uint8Array::from(b).into(),
            None => JsValue::UNDEFINED,
        })
    }

    /// A file artifact's text (UTF-8 decoded, invalid bytes replaced), or `undefined`.
    #[wasm_bindgen(js_name = artifactText)]
    pub fn artifact_text(&self, id: &str) -> Result<Option<String>, JsValue> {
        Ok(self
            .borrow()?
            .session
            .store()
            .artifact_bytes(id)
            .map(|b| String::from_utf8_lossy(b).into_owned()))
    }

    /// A dataset's rows, or `undefined`.
    #[wasm_bindgen(js_name = artifactRows, unchecked_return_type = "Record<string, unknown>[] | undefined")]
    pub fn artifact_rows(&self, id: &str) -> Result<JsValue, JsValue> {
        match self.borrow()?.session.store().artifact_rows_json(id) {
            Some(text) => from_json(&text),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Diagnostics kept (bounded), oldest first.
    #[wasm_bindgen(unchecked_return_type = "Diagnostic[]")]
    pub fn diagnostics(&self) -> Result<JsValue, JsValue> {
        json_array(self.borrow()?.session.store().diagnostics())
    }

    /// The raw-event ring (`rawLogEvents` option), oldest first: each event's data as received
    /// (cut to 2 KiB, secrets redacted) with its position in the stream. Empty when it is off.
    #[wasm_bindgen(js_name = rawEvents, unchecked_return_type = "{ position: number; raw: string }[]")]
    pub fn raw_events(&self) -> Result<JsValue, JsValue> {
        let inner = self.borrow()?;
        let out = js_sys::Array::new();
        for (pos, raw) in inner.session.store().raw_events() {
            let o = js_sys::Object::new();
            js_sys::Reflect::set(
                &o,
                &JsValue::from_str("position"),
                &JsValue::from_f64(*pos as f64),
            )?;
            js_sys::Reflect::set(&o, &JsValue::from_str("raw"), &JsValue::from_str(raw))?;
            out.push(&o);
        }
        Ok(out.into())
    }

    /// Open input requests waiting for the user (not those a coordinator is answering).
    #[wasm_bindgen(js_name = pendingInputs, unchecked_return_type = "InputRequest[]")]
    pub fn pending_inputs(&self) -> Result<JsValue, JsValue> {
        json_array(self.borrow()?.session.store().pending_inputs())
    }

    /// Open auth requests (always for the user).
    #[wasm_bindgen(js_name = pendingAuths, unchecked_return_type = "AuthRequest[]")]
    pub fn pending_auths(&self) -> Result<JsValue, JsValue> {
        json_array(self.borrow()?.session.store().pending_auths())
    }

    /// The whole state as JSON text (debugging, persistence).
    #[wasm_bindgen(js_name = stateJson)]
    pub fn state_json(&self) -> Result<String, JsValue> {
        Ok(self.borrow()?.session.store().state_json())
    }

    /// Advances the store's clock (ms since epoch) so open requests can expire while the
    /// stream is idle. A time that is not a finite number is refused with `invalid-argument`.
    #[wasm_bindgen(js_name = advanceClock)]
    pub fn advance_clock(&self, now_ms: f64) -> Result<(), JsValue> {
        if !now_ms.is_finite() {
            // NaN became 0 (nothing ever expired), Infinity the end of time (everything did).
            return Err(js_error(
                "invalid-argument",
                "advanceClock takes a time in ms since the epoch (a finite number)",
            ));
        }
        self.update(|inner| inner.session.store_mut().advance_clock(now_ms as i64))
    }

    /// Stops delivery: removes every listener and handler; later feeds and registrations fail
    /// with `closed` (reads such as `getSnapshot`, `task`, `stateJson` still give the last state).
    pub fn close(&self) {
        if let Ok(mut inner) = self.inner.try_borrow_mut() {
            inner.closed = true;
            inner.listeners.clear();
            for h in std::mem::take(&mut inner.handlers) {
                if let Target::Js(slot, _) = h.target {
                    inner.fns.set(slot, JsValue::UNDEFINED);
                }
            }
            inner.change_hooks.clear();
            inner.sink.clear();
            inner.any_mask = 0;
        }
    }

    /// Number of listeners plus event handlers currently registered (for leak checks).
    #[wasm_bindgen(getter, js_name = listenerCount)]
    pub fn listener_count(&self) -> usize {
        self.inner
            .try_borrow()
            .map(|i| i.listeners.len() + i.handlers.len())
            .unwrap_or(0)
    }
}
