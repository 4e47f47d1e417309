//! `client.events()`: applied events as an async iterator (`for await … of`), filtered in wasm,
//! bounded (a consumer that falls `maxBuffered` events behind gets an `overflow` error rather
//! than unbounded memory), ended by `break`/`return()`, an `AbortSignal`, or `client.close()`.

use super::error::js_error;
use super::store::AgentStore;
use crate::filter::EventFilter;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The iterator's state, shared with the store handler that feeds it.
pub struct IterState {
    queue: VecDeque<JsValue>,
    /// `(resolve, reject)` of a `next()` waiting for an event.
    waiting: Option<(js_sys::Function, js_sys::Function)>,
    done: bool,
    error: Option<JsValue>,
    max: usize,
    unsubscribe: Option<js_sys::Function>,
    handler: Option<Closure<dyn FnMut(JsValue)>>,
    signal: Option<(web_sys::AbortSignal, Closure<dyn FnMut()>)>,
}

/// An iterator dropped without `return()` (its `EventStream` freed, or garbage-collected): its
/// handler closure goes with it, so take it off the store first (a dropped closure throws when
/// the store calls it), and off the abort signal.
impl Drop for IterState {
    fn drop(&mut self) {
        if let Some(u) = self.unsubscribe.take() {
            let _ = u.call0(&JsValue::NULL);
        }
        if let Some((signal, cb)) = self.signal.take() {
            let _ =
                signal.remove_event_listener_with_callback("abort", cb.as_ref().unchecked_ref());
        }
    }
}

fn result(value: &JsValue, done: bool) -> JsValue {
    let o = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&o, &JsValue::from_str("value"), value);
    let _ = js_sys::Reflect::set(&o, &JsValue::from_str("done"), &JsValue::from_bool(done));
    o.into()
}

/// Ends the iteration now (buffered events are dropped; `error`, if any, is thrown by the next
/// `next()`): unsubscribes from the store,
/// removes the abort listener, settles a waiting `next()`.
pub fn finish(st: &Rc<RefCell<IterState>>, error: Option<JsValue>) {
    let (unsub, waiting, handler, signal) = {
        let Ok(mut s) = st.try_borrow_mut() else {
            return;
        };
        if s.done {
            return;
        }
        s.done = true;
        s.queue.clear();
        if error.is_some() {
            s.error = error;
        }
        (
            s.unsubscribe.take(),
            s.waiting.take(),
            s.handler.take(),
            s.signal.take(),
        )
    };
    if let Some(u) = unsub {
        let _ = u.call0(&JsValue::NULL);
    }
    if let Some((signal, cb)) = signal {
        let _ = signal.remove_event_listener_with_callback("abort", cb.as_ref().unchecked_ref());
    }
    if let Some((resolve, reject)) = waiting {
        let err = st.try_borrow_mut().ok().and_then(|mut s| s.error.take());
        match err {
            Some(e) => {
                let _ = reject.call1(&JsValue::NULL, &e);
            }
            None => {
                let _ = resolve.call1(&JsValue::NULL, &result(&JsValue::UNDEFINED, true));
            }
        }
    }
    // The handler closure may be the caller (overflow): free it after this call returns.
    if let Some(h) = handler {
        let keep = h.into_js_value();
        drop(keep);
    }
}

/// The async iterator object `client.events()` returns.
#[wasm_bindgen(skip_typescript)]
pub struct EventStream {
    st: Rc<RefCell<IterState>>,
}

impl EventStream {
    /// Creates the iterator, subscribed to `store` with `filter`; returns it as a JS object
    /// with `[Symbol.asyncIterator]`.
    pub fn create(
        store: &AgentStore,
        filter: EventFilter,
        max: usize,
        signal: Option<web_sys::AbortSignal>,
    ) -> Result<(JsValue, Rc<RefCell<IterState>>), JsValue> {
        let st = Rc::new(RefCell::new(IterState {
            queue: VecDeque::new(),
            waiting: None,
            done: false,
            error: None,
            max,
            unsubscribe: None,
            handler: None,
            signal: None,
        }));
        let weak = Rc::downgrade(&st);
        let handler: Closure<dyn FnMut(JsValue)> = Closure::new(move |ev: JsValue| {
            let Some(st) = weak.upgrade() else { return };
            let waiting = {
                let Ok(mut s) = st.try_borrow_mut() else {
                    return;
                };
                if s.done {
                    return;
                }
                match s.waiting.take() {
                    Some(w) => Some(w),
                    None => {
                        s.queue.push_back(ev.clone());
                        if s.queue.len() > s.max {
                            drop(s);
                            finish(
                                &st,
                                Some(js_error(
                                    "overflow",
                                    "the event iterator fell more than maxBuffered events behind",
                                )),
                            );
                        }
                        return;
                    }
                }
            };
            if let Some((resolve, _)) = waiting {
                let _ = resolve.call1(&JsValue::NULL, &result(&ev, false));
            }
        });
        let unsub = store.on_filter(
            filter,
            handler.as_ref().unchecked_ref::<js_sys::Function>().clone(),
        )?;
        {
            let mut s = st.borrow_mut();
            s.unsubscribe = Some(unsub);
            s.handler = Some(handler);
        }
        if let Some(signal) = signal {
            if signal.aborted() {
                finish(&st, None);
            } else {
                let weak = Rc::downgrade(&st);
                let cb: Closure<dyn FnMut()> = Closure::new(move || {
                    if let Some(st) = weak.upgrade() {
                        finish(&st, None);
                    }
                });
                signal.add_event_listener_with_callback("abort", cb.as_ref().unchecked_ref())?;
                st.borrow_mut().signal = Some((signal, cb));
            }
        }
        let obj: JsValue = EventStream { st: st.clone() }.into();
        // [Symbol.asyncIterator]() returns the iterator itself: `Object(obj)` is `obj`, so a
        // bound `Object` is an identity function without a closure or eval.
        let object_fn: js_sys::Function =
            js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("Object"))?.unchecked_into();
        let identity = object_fn.bind1(&JsValue::NULL, &obj);
        js_sys::Reflect::set(&obj, &js_sys::Symbol::async_iterator(), &identity)?;
        Ok((obj, st))
    }
}

#[wasm_bindgen]
impl EventStream {
    /// The next event (`{value, done: false}`), or `{done: true}` once the iteration ended.
    pub fn next(&self) -> js_sys::Promise {
        let st = self.st.clone();
        let mut out: Option<js_sys::Promise> = None;
        {
            let Ok(mut s) = st.try_borrow_mut() else {
                return js_sys::Promise::reject(&js_error("invalid-state", "iterator busy"));
            };
            if let Some(ev) = s.queue.pop_front() {
                out = Some(js_sys::Promise::resolve(&result(&ev, false)));
            } else if let Some(e) = s.error.take() {
                out = Some(js_sys::Promise::reject(&e));
            } else if s.done {
                out = Some(js_sys::Promise::resolve(&result(&JsValue::UNDEFINED, true)));
            } else if s.waiting.is_some() {
                out = Some(js_sys::Promise::reject(&js_error(
                    "invalid-state",
                    "next() called again before the previous next() settled",
                )));
            }
        }
        if let Some(p) = out {
            return p;
        }
        js_sys::Promise::new(&mut |resolve, reject| {
            if let Ok(mut s) = st.try_borrow_mut() {
                s.waiting = Some((resolve, reject));
            }
        })
    }

    /// Ends the iteration (called by `break` in `for await`).
    #[wasm_bindgen(js_name = return)]
    pub fn return_(&self) -> js_sys::Promise {
        finish(&self.st, None);
        js_sys::Promise::resolve(&result(&JsValue::UNDEFINED, true))
    }
}
