//! The few global functions the transports use, bound without `window` so they work in a page
//! and in a Web Worker alike: `fetch`, timers, `navigator.onLine`, the `online` event.

use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// The global `fetch(request)` (window or worker).
    #[wasm_bindgen(js_name = fetch)]
    pub fn fetch_request(request: &web_sys::Request) -> js_sys::Promise;
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(handler: &js_sys::Function, ms: f64) -> JsValue;
    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(id: &JsValue);
    #[wasm_bindgen(js_name = addEventListener)]
    fn add_global_listener(kind: &str, f: &js_sys::Function);
    #[wasm_bindgen(js_name = removeEventListener)]
    fn remove_global_listener(kind: &str, f: &js_sys::Function);
}

/// `Date.now()`: wall-clock time (deadlines compared with event timestamps).
pub fn now_ms() -> f64 {
    js_sys::Date::now()
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// `performance.now()`: monotonic, sub-millisecond (budgets and intervals of work; unlike
/// `Date.now()` it never steps back when the system clock is adjusted).
pub fn monotonic_ms() -> f64 {
    performance_now()
}

/// `navigator.onLine`, `true` when unknown.
pub fn online() -> bool {
    let nav = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("navigator"))
        .unwrap_or(JsValue::UNDEFINED);
    if nav.is_undefined() {
        return true;
    }
    js_sys::Reflect::get(&nav, &JsValue::from_str("onLine"))
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(true)
}

/// Lets the browser run what is waiting (input, rendering, other tasks) before continuing:
/// `scheduler.yield()` where there is one (Chromium 129+; the continuation keeps its priority),
/// else a zero-delay timer.
pub async fn yield_to_browser() {
    let scheduler = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("scheduler"))
        .ok()
        .filter(JsValue::is_object);
    let promise = scheduler
        .and_then(|s| {
            let f = js_sys::Reflect::get(&s, &JsValue::from_str("yield"))
                .ok()?
                .dyn_into::<js_sys::Function>()
                .ok()?;
            f.call0(&s).ok()?.dyn_into::<js_sys::Promise>().ok()
        })
        .unwrap_or_else(|| {
            js_sys::Promise::new(&mut |resolve, _reject| {
                let _ = set_timeout(&resolve, 0.0);
            })
        });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// A pending wait (timer and/or the `online` event) that `cancel` ends early.
pub struct Wait {
    resolve: js_sys::Function,
    timer: Option<JsValue>,
    online: bool,
}

impl Wait {
    /// Ends the wait now (the awaiting future resumes) and removes its timer/listener.
    pub fn cancel(self) {
        if let Some(t) = &self.timer {
            clear_timeout(t);
        }
        if self.online {
            remove_global_listener("online", &self.resolve);
        }
        let _ = self.resolve.call0(&JsValue::NULL);
    }
}

/// Waits `ms` (or, when `until_online`, until the `online` event), storing the wait in `slot`
/// so that `close()` can end it. No closure is allocated: the promise's own resolve function is
/// the timer callback.
pub async fn wait(slot: &RefCell<Option<Wait>>, ms: f64, until_online: bool) {
    let mut resolve: Option<js_sys::Function> = None;
    let promise = js_sys::Promise::new(&mut |res, _rej| resolve = Some(res));
    let Some(resolve) = resolve else { return };
    let mut w = Wait {
        resolve: resolve.clone(),
        timer: None,
        online: false,
    };
    if until_online {
        add_global_listener("online", &resolve);
        w.online = true;
    } else {
        w.timer = Some(set_timeout(&resolve, ms.max(0.0)));
    }
    if let Some(old) = slot.replace(Some(w)) {
        old.cancel();
    }
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    if let Some(w) = slot.borrow_mut().take() {
        if w.online {
            remove_global_listener("online", &w.resolve);
        }
    }
}

/// A repeating check every `ms` until dropped (used for idle detection).
pub struct Interval {
    id: JsValue,
    _cb: Closure<dyn FnMut()>,
}

impl Interval {
    /// Calls `f` after `ms`, then every `ms` while it returns `true`.
    pub fn new(ms: f64, f: impl FnMut() + 'static) -> Interval {
        let cb: Closure<dyn FnMut()> = Closure::new(f);
        let id = set_interval(cb.as_ref().unchecked_ref(), ms);
        Interval { id, _cb: cb }
    }
}

impl Drop for Interval {
    fn drop(&mut self) {
        clear_interval(&self.id);
    }
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = setInterval)]
    fn set_interval(handler: &js_sys::Function, ms: f64) -> JsValue;
    #[wasm_bindgen(js_name = clearInterval)]
    fn clear_interval(id: &JsValue);
    #[wasm_bindgen(js_name = requestAnimationFrame)]
    fn request_animation_frame(f: &js_sys::Function) -> JsValue;
}

/// Runs `f` once at the next animation frame (or after 16 ms where there are no frames, e.g.
/// in a Worker).
pub fn next_frame(f: js_sys::Function) {
    let has_raf = js_sys::Reflect::has(
        &js_sys::global(),
        &JsValue::from_str("requestAnimationFrame"),
    )
    .unwrap_or(false);
    if has_raf {
        request_animation_frame(&f);
    } else {
        set_timeout(&f, 16.0);
    }
}

/// Reports an exception thrown by user code without stopping the stream (`reportError` where
/// available, so it reaches `window.onerror` and the console like an uncaught error).
pub fn report_error(e: &JsValue) {
    let g = js_sys::global();
    if let Ok(f) = js_sys::Reflect::get(&g, &JsValue::from_str("reportError")) {
        if let Some(f) = f.dyn_ref::<js_sys::Function>() {
            let _ = f.call1(&JsValue::NULL, e);
            return;
        }
    }
    web_sys::console::error_1(e);
}

/// A new id (`crypto.randomUUID()`, else random hex).
pub fn random_uuid() -> String {
    let crypto = js_sys::Reflect::get(&js_sys::global(), &"crypto".into()).ok();
    if let Some(c) = crypto.filter(|c| c.is_object()) {
        if let Ok(f) = js_sys::Reflect::get(&c, &"randomUUID".into()) {
            if let Some(f) = f.dyn_ref::<js_sys::Function>() {
                if let Some(s) = f.call0(&c).ok().and_then(|v| v.as_string()) {
                    return s;
                }
            }
        }
    }
    let mut s = String::new();
    for _ in 0..4 {
        s.push_str(&format!(
            "{:08x}",
            (js_sys::Math::random() * 4_294_967_296.0) as u64
        ));
    }
    s
}
