//! When the snapshot's objects are built: in idle time (`requestIdleCallback`, or a timer)
//! in short sessions, and once per frame when events are batched.

use super::*;
use crate::browser::global::{monotonic_ms, next_frame, report_error};
use std::cell::RefCell;
use std::rc::Rc;

/// One building session: builds objects of finished tasks/artifacts in batches of 32 while
/// `left(started)` (the milliseconds left) stays at 3 or more and a further batch may find
/// something. Returns whether it built anything, and whether a later session may build more.
pub(super) fn build_some(i: &mut Inner, started: f64, left: impl Fn(f64) -> f64) -> (bool, bool) {
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
pub(super) fn schedule_idle_build(inner: &Rc<RefCell<Inner>>) {
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
pub(super) fn busy_left(started: f64) -> f64 {
    BUSY_BUILD_MS + 3.0 - (monotonic_ms() - started)
}

/// How long the building of finished objects waits for an idle period before it runs anyway.
pub(super) const IDLE_TIMEOUT_MS: f64 = 50.0;
/// Wall time spent building when it runs without an idle period.
pub(super) const BUSY_BUILD_MS: f64 = 4.0;

/// Calls the listeners once at the next frame (batch mode).
pub(super) fn schedule_frame(inner: &Rc<RefCell<Inner>>) {
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
