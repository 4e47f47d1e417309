//! `AgentStore`: the framework-neutral store a UI subscribes to.
//!
//! Feed it bytes (network chunks, any boundaries), strings, or already-parsed events; read
//! immutable snapshots (`getSnapshot()` keeps its identity until something visible changed,
//! and unchanged tasks/artifacts keep theirs too); subscribe to changes; receive events of
//! chosen kinds, filtered in wasm before they cross into JavaScript.
//!
//! Re-entrancy: user callbacks run only after the store released its internal borrow, so a
//! handler may call back into the store.

use super::convert::{from_json, to_json};
use super::error::{check_alive, check_function, js_error};
use super::global::{monotonic_ms, next_frame, report_error};
use crate::browser::options::store::read_options;
use crate::events::AgentEvent;
use crate::filter::EventFilter;
use crate::json::WriteJson;
use crate::pipeline::Session;
use crate::state::{EventMeta, Store};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

mod deliver;
mod objects;
use deliver::{Batch, Handler, HandlerFilter, Sink, Target};
use objects::{ObjectCache, Progress};

struct Inner {
    session: Session,
    next_id: u32,
    listeners: Vec<(u32, js_sys::Function)>,
    handlers: Vec<Handler>,
    /// Union of the handlers' kind masks: events outside it are not looked at again.
    any_mask: u64,
    /// The handlers' functions by slot (a removed handler's slot is `undefined`).
    fns: js_sys::Array,
    next_slot: u32,
    /// Nesting depth of batches being delivered (slots are renumbered only at 0).
    delivering: u32,
    /// Events to deliver after the borrow is released.
    batch: Batch,
    /// Events for sink handlers (Worker mode), until taken.
    sink: Sink,
    /// Called (borrow released) after a change of visible state or new sink events.
    change_hooks: Vec<Rc<dyn Fn()>>,
    snapshot: Option<(u64, JsValue)>,
    /// Coalesce listener calls per animation frame.
    batch_frames: bool,
    frame_pending: bool,
    /// Task and artifact objects by revision (unchanged ones keep their identity).
    objects: ObjectCache,
    /// A snapshot (or task/artifact object) was read: from then on, finished tasks and
    /// artifacts get their objects built as the stream runs (a later read builds only what
    /// still changes, so reading at the end of a long stream is not a long task).
    snapshot_read: bool,
    /// An idle callback that builds finished objects is scheduled.
    idle_build: bool,
    /// When finished objects were last built (`performance.now()`): a stream that keeps the
    /// thread busy builds some inline every IDLE_TIMEOUT_MS (idle callbacks come too rarely).
    last_build_ms: f64,
    closed: bool,
}

/// The framework-neutral agent store: feed it a stream, read snapshots, subscribe.
///
/// ```ts
/// const store = new AgentStore();
/// const stop = store.subscribe(() => render(store.getSnapshot()));
/// store.on("tool-progress", (e) => console.log(e.toolCallId, e.progress));
/// store.feed(new TextEncoder().encode('event: task-created\ndata: {...}\n\n'));
/// ```
#[wasm_bindgen]
pub struct AgentStore {
    inner: Rc<RefCell<Inner>>,
}

impl Inner {
    fn visible_version(&self) -> u64 {
        self.session.store().version()
    }

    /// Registers a handler: a JS function (`f`), or the sink under `sink_id`.
    fn add_handler(
        &mut self,
        filter: HandlerFilter,
        f: Option<js_sys::Function>,
        sink_id: u32,
    ) -> u32 {
        if self.delivering == 0 && self.next_slot as usize > 2 * self.handlers.len() + 32 {
            // Renumber the slots (removed handlers leave holes).
            self.fns = js_sys::Array::new();
            self.next_slot = 0;
            for h in self.handlers.iter_mut() {
                if let Target::Js(slot, f) = &mut h.target {
                    *slot = self.next_slot;
                    self.next_slot += 1;
                    self.fns.push(f);
                }
            }
        }
        self.next_id += 1;
        let id = self.next_id;
        let target = match f {
            Some(f) => {
                let slot = self.next_slot;
                self.next_slot += 1;
                self.fns.set(slot, f.clone().into());
                Target::Js(slot, f)
            }
            None => Target::Sink(sink_id),
        };
        let h = Handler::new(id, target, filter);
        self.any_mask |= h.mask;
        self.handlers.push(h);
        id
    }

    fn remove_handler(&mut self, id: u32) {
        if let Some(pos) = self.handlers.iter().position(|h| h.id == id) {
            let h = self.handlers.remove(pos);
            if let Target::Js(slot, _) = h.target {
                self.fns.set(slot, JsValue::UNDEFINED);
            }
            self.any_mask = self.handlers.iter().fold(0, |m, h| m | h.mask);
        }
    }
}

impl AgentStore {
    fn borrow_mut(&self) -> Result<std::cell::RefMut<'_, Inner>, JsValue> {
        check_alive()?;
        let inner = self
            .inner
            .try_borrow_mut()
            .map_err(|_| js_error("invalid-state", "agentwire store is busy"))?;
        if inner.closed {
            return Err(js_error("closed", "this AgentStore was closed"));
        }
        Ok(inner)
    }

    fn borrow(&self) -> Result<std::cell::Ref<'_, Inner>, JsValue> {
        check_alive()?;
        self.inner
            .try_borrow()
            .map_err(|_| js_error("invalid-state", "agentwire store is busy"))
    }

    /// Runs `work` on the session, then (borrow released) delivers queued events and notifies
    /// subscribers if the visible state changed.
    fn update(&self, work: impl FnOnce(&mut Inner)) -> Result<(), JsValue> {
        let (batch, listeners, hooks) = {
            let mut inner = self.borrow_mut()?;
            let before = inner.visible_version();
            let sink_before = inner.sink.len();
            work(&mut inner);
            let changed = inner.visible_version() != before;
            if changed && inner.snapshot_read {
                // A busy stream: Chromium runs an idle callback's timeout only every few
                // hundred ms while network chunks keep coming, so build a little here too.
                let now = monotonic_ms();
                if now - inner.last_build_ms >= IDLE_TIMEOUT_MS {
                    build_some(&mut inner, now, busy_left);
                }
                if !inner.idle_build {
                    inner.idle_build = true;
                    schedule_idle_build(&self.inner);
                }
            }
            let hooks: Vec<Rc<dyn Fn()>> = if changed || inner.sink.len() != sink_before {
                inner.change_hooks.clone()
            } else {
                Vec::new()
            };
            let batch = if inner.batch.is_empty() {
                None
            } else {
                inner.delivering += 1;
                Some((std::mem::take(&mut inner.batch), inner.fns.clone()))
            };
            let listeners: Vec<js_sys::Function> = if !changed {
                Vec::new()
            } else if inner.batch_frames {
                if !inner.frame_pending {
                    inner.frame_pending = true;
                    schedule_frame(&self.inner);
                }
                Vec::new()
            } else {
                inner.listeners.iter().map(|(_, f)| f.clone()).collect()
            };
            (batch, listeners, hooks)
        };
        for hook in hooks {
            hook();
        }
        let mut first_err: Option<JsValue> = None;
        if let Some((mut batch, fns)) = batch {
            // One call: the events are built in JS and handed to their handlers there.
            first_err = batch.deliver(&fns);
            batch.clear();
            if let Ok(mut inner) = self.inner.try_borrow_mut() {
                inner.delivering -= 1;
                if inner.batch.is_empty() {
                    inner.batch = batch; // keep the buffers' capacity
                }
            }
        }
        if !listeners.is_empty() {
            for f in listeners {
                // Read for each listener: an earlier one may have changed the state (a feed from
                // inside a listener), and every listener must end with the latest snapshot.
                // Unchanged, it is the same object.
                let snap = self.get_snapshot()?;
                if let Err(e) = f.call1(&JsValue::NULL, &snap) {
                    first_err.get_or_insert(e);
                }
            }
        }
        match first_err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn feed_bytes(&self, bytes: &[u8]) -> Result<(), JsValue> {
        self.apply_delivering(|session, observe| session.feed(bytes, observe))
    }

    /// Runs `run` on the session with the observer that hands every applied event to the
    /// handlers (through the batch: delivered once the update ends).
    fn apply_delivering(
        &self,
        run: impl FnOnce(&mut Session, &mut dyn FnMut(&AgentEvent<'_>, &EventMeta<'_>, &Store)),
    ) -> Result<(), JsValue> {
        self.update(|inner| {
            let Inner {
                session,
                handlers,
                any_mask,
                batch,
                sink,
                ..
            } = inner;
            // A dialect event without a timestamp gets the time it was received.
            session.set_now_ms(Some(js_sys::Date::now() as i64));
            run(session, &mut |ev, _meta, store| {
                batch.collect(handlers, *any_mask, ev, store, sink)
            });
        })
    }

    fn subscribe_fn(
        &self,
        f: js_sys::Function,
        filter: HandlerFilter,
    ) -> Result<js_sys::Function, JsValue> {
        check_function(&f, "the handler")?;
        let id = self.borrow_mut()?.add_handler(filter, Some(f), 0);
        Ok(unsubscribe_fn(&self.inner, id, false))
    }
}

/// One building session: builds objects of finished tasks/artifacts in batches of 32 while
/// `left(started)` (the milliseconds left) stays at 3 or more and a further batch may find
/// something. Returns whether it built anything, and whether a later session may build more.
fn build_some(i: &mut Inner, started: f64, left: impl Fn(f64) -> f64) -> (bool, bool) {
    i.last_build_ms = started;
    let Inner {
        objects, session, ..
    } = i;
    objects.tick();
    let mut built = false;
    loop {
        let p = objects
            .build_finished(session.store_mut(), 32)
            .unwrap_or_else(|e| {
                report_error(&e);
                Progress::default()
            });
        built |= p.built;
        if !(p.built || p.unseen) || left(started) < 3.0 {
            return (built, p.settling || p.unseen);
        }
    }
}

/// Builds the objects of finished tasks/artifacts when the thread is idle
/// (`requestIdleCallback`, for as long as the deadline allows; `setTimeout` where there is
/// none). A stream that keeps the thread busy also gets BUSY_BUILD_MS of building every
/// IDLE_TIMEOUT_MS, inline in `update()`.
fn schedule_idle_build(inner: &Rc<RefCell<Inner>>) {
    let weak = Rc::downgrade(inner);
    let cb = Closure::once_into_js(move |deadline: JsValue| {
        let Some(rc) = weak.upgrade() else { return };
        let again = {
            let Ok(mut i) = rc.try_borrow_mut() else {
                return;
            };
            i.idle_build = false;
            let remaining = js_sys::Reflect::get(&deadline, &"timeRemaining".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
            // Called because the thread was never idle for IDLE_TIMEOUT_MS (a stream keeping it
            // busy): build for a few milliseconds of wall time instead, so the objects do not all
            // pile up for the next read.
            let busy = js_sys::Reflect::get(&deadline, &"didTimeout".into())
                .ok()
                .and_then(|v| v.as_bool())
                .unwrap_or(false);
            let (built, waiting) = build_some(&mut i, monotonic_ms(), |started| {
                if busy {
                    busy_left(started)
                } else {
                    remaining
                        .as_ref()
                        .and_then(|f| f.call0(&deadline).ok())
                        .and_then(|v| v.as_f64())
                        .unwrap_or(0.0)
                }
            });
            // Again while it builds, or while finished entries wait to settle (seen once; built
            // on the next call if nothing changed them).
            if (built || waiting) && !i.idle_build && !i.closed {
                i.idle_build = true;
                true
            } else {
                false
            }
        };
        if again {
            schedule_idle_build(&rc);
        }
    });
    let g = js_sys::global();
    match js_sys::Reflect::get(&g, &"requestIdleCallback".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    {
        Some(ric) => {
            let opts = js_sys::Object::new();
            let _ = js_sys::Reflect::set(
                &opts,
                &"timeout".into(),
                &JsValue::from_f64(IDLE_TIMEOUT_MS),
            );
            let _ = ric.call2(&g, &cb, &opts);
        }
        None => {
            if let Ok(st) = js_sys::Reflect::get(&g, &"setTimeout".into())
                .and_then(|f| f.dyn_into::<js_sys::Function>())
            {
                let _ = st.call2(&g, &cb, &JsValue::from_f64(0.0));
            }
        }
    }
}

/// The milliseconds `build_some` has left of a BUSY_BUILD_MS budget begun at `started` (it stops
/// below 3).
fn busy_left(started: f64) -> f64 {
    BUSY_BUILD_MS + 3.0 - (monotonic_ms() - started)
}

/// How long the building of finished objects waits for an idle period before it runs anyway.
const IDLE_TIMEOUT_MS: f64 = 50.0;
/// Wall time spent building when it runs without an idle period.
const BUSY_BUILD_MS: f64 = 4.0;

/// Calls the listeners once at the next frame (batch mode).
fn schedule_frame(inner: &Rc<RefCell<Inner>>) {
    let weak = Rc::downgrade(inner);
    let cb = Closure::once_into_js(move || {
        let Some(rc) = weak.upgrade() else { return };
        let listeners: Vec<js_sys::Function> = match rc.try_borrow_mut() {
            Ok(mut i) => {
                i.frame_pending = false;
                i.listeners.iter().map(|(_, f)| f.clone()).collect()
            }
            Err(_) => return,
        };
        if listeners.is_empty() {
            return;
        }
        let Ok(snap) = (AgentStore { inner: rc }).get_snapshot() else {
            return;
        };
        for f in listeners {
            if let Err(e) = f.call1(&JsValue::NULL, &snap) {
                report_error(&e);
            }
        }
    });
    next_frame(cb.unchecked_into());
}

/// A JS function that removes listener/handler `id` (idempotent).
fn unsubscribe_fn(inner: &Rc<RefCell<Inner>>, id: u32, listener: bool) -> js_sys::Function {
    let weak = Rc::downgrade(inner);
    // Not `once_into_js`: that one leaks (with the store it points to) unless called, and
    // apps rarely call it after close(). This one is freed when the function is garbage.
    let cb = Closure::<dyn FnMut()>::new(move || {
        if let Some(rc) = weak.upgrade() {
            if let Ok(mut i) = rc.try_borrow_mut() {
                if listener {
                    i.listeners.retain(|(x, _)| *x != id);
                } else {
                    i.remove_handler(id);
                }
            }
        }
    })
    .into_js_value();
    cb.unchecked_into()
}

fn json_array<'a, T: WriteJson + 'a>(
    items: impl Iterator<Item = &'a T>,
) -> Result<JsValue, JsValue> {
    let mut s = String::from("[");
    for (i, it) in items.enumerate() {
        if i > 0 {
            s.push(',');
        }
        it.write_json(&mut s);
    }
    s.push(']');
    from_json(&s)
}

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

impl AgentStore {
    /// Mutable access for read paths that fill caches (allowed after close).
    fn borrow_mut_any(&self) -> Result<std::cell::RefMut<'_, Inner>, JsValue> {
        check_alive()?;
        self.inner
            .try_borrow_mut()
            .map_err(|_| js_error("invalid-state", "agentwire store is busy"))
    }

    /// Shared handle for sources that feed this store.
    pub(crate) fn handle(&self) -> AgentStore {
        AgentStore {
            inner: self.inner.clone(),
        }
    }

    /// Feeds network bytes for a transport: exceptions thrown by user handlers are reported
    /// (`reportError`) instead of stopping the stream. Returns the number of SSE events
    /// dispatched by this chunk.
    pub(crate) fn feed_network(&self, bytes: &[u8]) -> Result<u64, JsValue> {
        let before = self.borrow()?.session.position();
        if let Err(e) = self.feed_bytes(bytes) {
            if is_closed_error(&e) {
                return Err(e);
            }
            report_error(&e);
        }
        Ok(self.borrow()?.session.position() - before)
    }

    /// Applies one JSON event text from a transport (WebSocket frame); handler exceptions are
    /// reported, not returned.
    pub(crate) fn push_network(&self, text: &str) -> Result<(), JsValue> {
        if let Err(e) = self.push_text(text) {
            if is_closed_error(&e) {
                return Err(e);
            }
            report_error(&e);
        }
        Ok(())
    }

    /// Applies one JSON event text (`pushEvent` with a string, a WebSocket frame).
    fn push_text(&self, text: &str) -> Result<(), JsValue> {
        self.apply_delivering(|session, observe| session.push_json(text, observe))
    }

    #[cfg(feature = "websocket")]
    /// Records a WebSocket frame dropped for being over `maxEventBytes` (a diagnostic).
    pub(crate) fn frame_too_large(&self, bytes: usize) -> Result<(), JsValue> {
        self.update(|inner| inner.session.frame_too_large(bytes))
    }

    /// Runs `f` on the core session (read-only).
    pub(crate) fn with_session<R>(&self, f: impl FnOnce(&Session) -> R) -> Result<R, JsValue> {
        Ok(f(&self.borrow()?.session))
    }

    /// Runs `f` on the core session, mutable (glue-internal: the dialect layer's clock and the
    /// messages built from its state). Applied events are not delivered from here: feed them.
    pub(crate) fn with_session_mut<R>(
        &self,
        f: impl FnOnce(&mut Session) -> R,
    ) -> Result<R, JsValue> {
        Ok(f(&mut self.borrow_mut()?.session))
    }

    /// Runs `f` on the core store and notifies listeners when visible state changed
    /// (glue-internal: answers in flight, the coordinator's routing).
    pub(crate) fn with_store_mut<R>(
        &self,
        f: impl FnOnce(&mut crate::state::Store) -> R,
    ) -> Result<R, JsValue> {
        let mut f = Some(f);
        let mut out = None;
        self.update_store(&mut |s| {
            if let Some(f) = f.take() {
                out = Some(f(s));
            }
        })?;
        out.ok_or_else(|| js_error("internal", "the store update did not run"))
    }

    /// [`AgentStore::with_store_mut`]'s one instance of `update` (it is large: one per caller
    /// would cost wasm size).
    fn update_store(&self, f: &mut dyn FnMut(&mut crate::state::Store)) -> Result<(), JsValue> {
        self.update(|inner| f(inner.session.store_mut()))
    }

    /// Subscribes a handler for events of `kind` (glue-internal: the client's own hooks).
    pub(crate) fn on_internal(
        &self,
        kind: &str,
        f: js_sys::Function,
    ) -> Result<js_sys::Function, JsValue> {
        self.subscribe_fn(f, HandlerFilter::Kind(kind.to_owned()))
    }

    /// Subscribes a handler with a full filter (glue-internal: async iterators).
    pub(crate) fn on_filter(
        &self,
        filter: EventFilter,
        f: js_sys::Function,
    ) -> Result<js_sys::Function, JsValue> {
        self.subscribe_fn(f, HandlerFilter::Full(Box::new(filter)))
    }

    #[cfg(feature = "worker")]
    /// Worker mode: events passing `filter` (a kind pattern when `kind` is given) are written
    /// to the sink under `sink_id` instead of being delivered in this thread. Returns the handler
    /// id for [`AgentStore::remove_sink`].
    pub(crate) fn add_sink(
        &self,
        sink_id: u32,
        kind: Option<String>,
        filter: Option<EventFilter>,
    ) -> Result<u32, JsValue> {
        let filter = match (kind, filter) {
            (Some(k), _) => HandlerFilter::Kind(k),
            (None, Some(f)) => HandlerFilter::Full(Box::new(f)),
            (None, None) => HandlerFilter::Kind("*".into()),
        };
        Ok(self.borrow_mut()?.add_handler(filter, None, sink_id))
    }

    #[cfg(feature = "worker")]
    /// Removes a sink handler added by [`AgentStore::add_sink`].
    pub(crate) fn remove_sink(&self, handler_id: u32) {
        if let Ok(mut i) = self.inner.try_borrow_mut() {
            i.remove_handler(handler_id);
        }
    }

    #[cfg(feature = "worker")]
    /// Takes the sink's events: the `e` array's elements, comma-separated (no brackets), as
    /// described at [`Sink`].
    pub(crate) fn take_sink(&self) -> String {
        self.inner
            .try_borrow_mut()
            .map(|mut i| i.sink.take())
            .unwrap_or_default()
    }

    #[cfg(feature = "worker")]
    /// Bytes of sink events waiting to be taken.
    pub(crate) fn sink_len(&self) -> usize {
        self.inner.try_borrow().map(|i| i.sink.len()).unwrap_or(0)
    }

    #[cfg(feature = "worker")]
    /// Calls `hook` (outside any borrow) after every change of visible state or new sink events.
    pub(crate) fn add_change_hook(&self, hook: Rc<dyn Fn()>) -> Result<(), JsValue> {
        self.borrow_mut()?.change_hooks.push(hook);
        Ok(())
    }

    #[cfg(feature = "worker")]
    /// The visible version (changes exactly when visible state changed).
    pub(crate) fn visible_version(&self) -> u64 {
        self.inner
            .try_borrow()
            .map(|i| i.visible_version())
            .unwrap_or(0)
    }

    /// `true` once `close()` was called.
    pub(crate) fn is_closed(&self) -> bool {
        self.inner.try_borrow().map(|i| i.closed).unwrap_or(false)
    }
}

fn is_closed_error(e: &JsValue) -> bool {
    js_sys::Reflect::get(e, &JsValue::from_str("code"))
        .ok()
        .and_then(|c| c.as_string())
        .is_some_and(|c| c == "closed" || c == "internal")
}
