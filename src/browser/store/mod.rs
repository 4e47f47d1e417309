//! `AgentStore`: the framework-neutral store a UI subscribes to.
//!
//! Feed it bytes (network chunks, any boundaries), strings, or already-parsed events; read
//! immutable snapshots (`getSnapshot()` keeps its identity until something visible changed,
//! and unchanged tasks/artifacts keep theirs too); subscribe to changes; receive events of
//! chosen kinds, filtered in wasm before they cross into JavaScript.
//!
//! Re-entrancy: user callbacks run only after the store released its internal borrow, so a
//! handler may call back into the store.
//!
//! - `api`: the class's methods as JavaScript sees them.
//! - `schedule`: when snapshots' objects are built (idle time, frames).
//! - `deliver`, `objects`: the handlers and the snapshot's object cache.

use crate::browser::convert::from_json;
use crate::browser::error::{check_alive, check_function, js_error};
use crate::browser::global::{monotonic_ms, report_error};
use crate::events::AgentEvent;
use crate::filter::EventFilter;
use crate::json::WriteJson;
use crate::pipeline::Session;
use crate::state::{EventMeta, Store};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

mod api;
mod deliver;
mod objects;
mod schedule;
use deliver::{Batch, Handler, HandlerFilter, Sink, Target};
use objects::{ObjectCache, Progress};
use schedule::{build_some, busy_left, schedule_frame, schedule_idle_build, IDLE_TIMEOUT_MS};

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
