//! An `EventSource`-backed source: the browser's own SSE client feeding an `AgentStore`.
//!
//! The browser parses the stream and reconnects itself (sending `Last-Event-ID`); each message
//! is re-framed and applied to the store with its id, so replayed events are recognised.
//! Listeners and closures belong to the connection and are removed by `close()` (and on drop).

use super::error::{check_alive, js_error};
use super::store::AgentStore;
use crate::events::KINDS;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

type Listener = Closure<dyn FnMut(web_sys::Event)>;

/// A live `EventSource` connection feeding a store.
///
/// ```ts
/// const store = new AgentStore();
/// const conn = new EventSourceConnection(store, "/api/stream?scenario=quick", false);
/// conn.onStateChange = (s) => console.log(s);
/// // ... later
/// conn.close();
/// ```
#[wasm_bindgen]
pub struct EventSourceConnection {
    source: web_sys::EventSource,
    /// (event type, closure) for every listener added, removed on close.
    listeners: Vec<(String, Listener)>,
    state: Rc<RefCell<ConnState>>,
}

struct ConnState {
    name: &'static str,
    on_change: Option<js_sys::Function>,
}

fn set_state(state: &Rc<RefCell<ConnState>>, name: &'static str) {
    let f = {
        let Ok(mut s) = state.try_borrow_mut() else {
            return;
        };
        if s.name == name {
            return;
        }
        s.name = name;
        s.on_change.clone()
    };
    if let Some(f) = f {
        let _ = f.call1(&JsValue::NULL, &JsValue::from_str(name));
    }
}

/// Re-frames one message as SSE bytes (id, event type, data lines) for the store's parser.
fn reframe(event_type: &str, id: &str, data: &str) -> String {
    let mut s = String::with_capacity(data.len() + event_type.len() + id.len() + 24);
    if !id.is_empty() && !id.contains(['\n', '\r']) {
        s.push_str("id: ");
        s.push_str(id);
        s.push('\n');
    }
    s.push_str("event: ");
    s.push_str(event_type);
    s.push('\n');
    for line in data.split('\n') {
        s.push_str("data: ");
        s.push_str(line);
        s.push('\n');
    }
    s.push('\n');
    s
}

#[wasm_bindgen]
impl EventSourceConnection {
    /// Opens `url` with `EventSource` (GET; `withCredentials` sends cookies cross-origin).
    #[wasm_bindgen(constructor)]
    pub fn new(
        store: &AgentStore,
        url: &str,
        with_credentials: bool,
    ) -> Result<EventSourceConnection, JsValue> {
        check_alive()?;
        let init = web_sys::EventSourceInit::new();
        init.set_with_credentials(with_credentials);
        let source =
            web_sys::EventSource::new_with_event_source_init_dict(url, &init).map_err(|e| {
                js_error(
                    "connect-failed",
                    &format!(
                        "cannot open EventSource: {}",
                        e.as_string().unwrap_or_default()
                    ),
                )
            })?;
        let state = Rc::new(RefCell::new(ConnState {
            name: "connecting",
            on_change: None,
        }));
        let mut conn = EventSourceConnection {
            source,
            listeners: Vec::new(),
            state,
        };
        // The protocol names events by kind (internal ones without their prefix), so listen to
        // each known name plus "message" for streams that send no event field.
        let mut names: Vec<String> = KINDS
            .iter()
            .map(|k| k.trim_start_matches("internal:").to_owned())
            .collect();
        names.push("message".to_owned());
        // `tool-start` and `internal:tool-start` share one SSE event name: one listener each.
        names.sort();
        names.dedup();
        for name in names {
            let handle = store.handle();
            let event_type = name.clone();
            let cb: Listener = Closure::new(move |e: web_sys::Event| {
                let Some(m) = e.dyn_ref::<web_sys::MessageEvent>() else {
                    return;
                };
                let data = m.data().as_string().unwrap_or_default();
                let framed = reframe(&event_type, &m.last_event_id(), &data);
                let _ = handle.feed_text(&framed);
            });
            conn.source
                .add_event_listener_with_callback(&name, cb.as_ref().unchecked_ref())?;
            conn.listeners.push((name, cb));
        }
        let st = conn.state.clone();
        let open: Listener = Closure::new(move |_e: web_sys::Event| set_state(&st, "open"));
        conn.source
            .add_event_listener_with_callback("open", open.as_ref().unchecked_ref())?;
        conn.listeners.push(("open".to_owned(), open));
        let st = conn.state.clone();
        let src = conn.source.clone();
        let error: Listener = Closure::new(move |_e: web_sys::Event| {
            // CONNECTING (0) after an error: the browser retries; CLOSED (2): it gave up.
            let name = if src.ready_state() == 2 {
                "failed"
            } else {
                "reconnecting"
            };
            set_state(&st, name);
        });
        conn.source
            .add_event_listener_with_callback("error", error.as_ref().unchecked_ref())?;
        conn.listeners.push(("error".to_owned(), error));
        Ok(conn)
    }

    /// `connecting`, `open`, `reconnecting`, `closed` or `failed`.
    #[wasm_bindgen(getter)]
    pub fn state(&self) -> String {
        self.state
            .try_borrow()
            .map(|s| s.name)
            .unwrap_or("closed")
            .to_owned()
    }

    /// Called with the new state name on every change.
    #[wasm_bindgen(setter, js_name = onStateChange)]
    pub fn set_on_state_change(
        &self,
        #[wasm_bindgen(unchecked_param_type = "((state: string) => void) | undefined")] f: JsValue,
    ) {
        if let Ok(mut s) = self.state.try_borrow_mut() {
            s.on_change = f.dyn_into::<js_sys::Function>().ok();
        }
    }

    /// Listeners currently attached (0 after close).
    #[wasm_bindgen(getter, js_name = listenerCount)]
    pub fn listener_count(&self) -> usize {
        self.listeners.len()
    }

    /// Closes the connection and removes every listener it added.
    pub fn close(&mut self) {
        self.source.close();
        for (name, cb) in self.listeners.drain(..) {
            let _ = self
                .source
                .remove_event_listener_with_callback(&name, cb.as_ref().unchecked_ref());
        }
        set_state(&self.state, "closed");
    }
}

impl Drop for EventSourceConnection {
    fn drop(&mut self) {
        self.close();
    }
}
