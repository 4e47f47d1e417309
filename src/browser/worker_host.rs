//! Worker mode, the Worker side: `startWorker()` runs in a module Web Worker (the package's
//! `agentwire-worker.js`) and serves one page-side `WorkerClient`.
//!
//! The Worker owns a real `AgentClient` (transport, parsing, validation, assembly all happen
//! here) and sends the page, once per animation frame (and at least every 50 ms while the Worker
//! is too busy for frame callbacks), ONE message with everything that changed since the last
//! one, as UTF-8 JSON in a transferred `ArrayBuffer`:
//! `{"v":version,"t":[[position,task,mode,text]…],"a":[[position,artifact]…],"d":[…],"pi":[…],
//! "pa":[…],"e":[[subscription ids],event,event,…,[subscription ids],event,…]}` where a task's
//! answer is not in its JSON (`"content":""`) but follows it: `mode` 0 = unchanged, 1 = `text`
//! is the whole answer, 2 = `text` is appended (the streamed answer crosses once, not once per
//! frame); `d`/`pi`/`pa` (diagnostics, pending inputs/auths) are present only when they
//! changed; `e` holds the events the page's handlers subscribed to (filters are evaluated here),
//! in runs: an id list, then the events for those subscriptions (objects), until the next id
//! list. Connection state changes go out at once (after the state they follow). Calls from the
//! page (`respond`, `approve`, …) are answered with `{t:"ret", id, ok, v|e}`.

use super::client::AgentClient;
use super::error::js_error;
use super::global::{monotonic_ms, next_frame, report_error};
use super::store::AgentStore;
use crate::filter::EventFilter;
use crate::json::{write_str, WriteJson};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The methods of `AgentClient` the page may call through the Worker.
const CALLABLE: &[&str] = &[
    "respond",
    "approve",
    "deny",
    "select",
    "answer",
    "completeAuth",
    "cancel",
    "send",
    "sendMessage",
    "connect",
];

/// Event JSON sent at once rather than at the next frame (about 1,000 typical events).
const MAX_BATCH_BYTES: usize = 256 * 1024;

/// A batch goes out at least this often while changes keep coming, frame or not.
const MAX_BATCH_MS: f64 = 50.0;

/// What the page already has, to send only what changed.
#[derive(Default)]
struct Sent {
    /// Per task position: (revision, answer length in bytes, hash of those bytes).
    tasks: Vec<(u64, usize, u64)>,
    artifacts: Vec<u64>,
    diagnostics: String,
    pending_inputs: String,
    pending_auths: String,
    version: u64,
    dialect: Option<String>,
}

struct Host {
    client: JsValue,
    store: AgentStore,
    /// (page subscription id, sink handler id).
    subs: Vec<(u32, u32)>,
    flush_pending: bool,
    /// When the last batch went out (`performance.now()`).
    last_flush_ms: f64,
    sent: Sent,
    /// A connection state change to send.
    conn: Option<JsValue>,
    closed: bool,
}

thread_local! {
    static HOST: RefCell<Option<Rc<RefCell<Host>>>> = const { RefCell::new(None) };
}

fn get(o: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(o, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// `postMessage(message, transfer)` on the Worker's global scope.
fn post(message: &JsValue, transfer: Option<&js_sys::Array>) {
    let g = js_sys::global();
    let Ok(f) = get(&g, "postMessage").dyn_into::<js_sys::Function>() else {
        return;
    };
    let r = match transfer {
        Some(t) => f.call2(&g, message, t),
        None => f.call1(&g, message),
    };
    if let Err(e) = r {
        report_error(&e);
    }
}

fn object(pairs: &[(&str, &JsValue)]) -> JsValue {
    let o = js_sys::Object::new();
    for (k, v) in pairs {
        let _ = js_sys::Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o.into()
}

/// An error as a structured-clone-safe object (`Error`s lose `code` and friends otherwise).
fn error_data(e: &JsValue) -> JsValue {
    let props = js_sys::Object::assign(&js_sys::Object::new(), &js_sys::Object::from(e.clone()));
    let message = match e.dyn_ref::<js_sys::Error>() {
        Some(err) => JsValue::from(err.message()),
        None => JsValue::from(js_sys::JSON::stringify(e).unwrap_or_default()),
    };
    object(&[("message", &message), ("props", &props.into())])
}

fn reply(id: &JsValue, result: Result<JsValue, JsValue>) {
    let msg = match result {
        Ok(v) => object(&[
            ("t", &"ret".into()),
            ("id", id),
            ("ok", &true.into()),
            ("v", &v),
        ]),
        Err(e) => object(&[
            ("t", &"ret".into()),
            ("id", id),
            ("ok", &false.into()),
            ("e", &error_data(&e)),
        ]),
    };
    post(&msg, None);
}

/// A cheap 64-bit hash of bytes and their length (recognising an answer that was only appended
/// to): the crate's fast hasher (`crate::hash`).
fn hash(bytes: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut h = crate::hash::FastHasher::default();
    h.write_usize(bytes.len());
    h.write(bytes);
    h.finish()
}

fn json_list<'a, T: WriteJson + 'a>(items: impl Iterator<Item = &'a T>) -> String {
    let mut s = String::from("[");
    for (i, it) in items.enumerate() {
        if i > 0 {
            s.push(',');
        }
        it.write_json(&mut s);
    }
    s.push(']');
    s
}

impl Host {
    /// Everything that changed since the last flush, as the JSON described in the module docs;
    /// `None` when nothing did.
    fn delta(&mut self) -> Option<String> {
        let version = self.store.visible_version();
        let events = self.store.take_sink();
        let sent = &mut self.sent;
        let mut out = String::new();
        let changed = version != sent.version;
        if changed {
            let _ = self.store.with_session_mut(|session| {
                let store = session.store_mut();
                out.push_str(&format!("{{\"v\":{version},\"t\":["));
                let mut first = true;
                for (i, slot) in store.tasks.iter_mut().enumerate() {
                    let rev = slot.view.revision;
                    let prev = sent.tasks.get(i).copied();
                    if prev.is_some_and(|(r, _, _)| r == rev) {
                        continue;
                    }
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    out.push_str(&format!("[{i},"));
                    let content = std::mem::take(&mut slot.view.content);
                    slot.view.write_json(&mut out);
                    let bytes = content.as_bytes();
                    match prev {
                        Some((_, len, h)) if bytes.len() >= len && hash(&bytes[..len]) == h => {
                            match content.get(len..) {
                                Some("") => out.push_str(",0,\"\"]"),
                                Some(tail) => {
                                    out.push_str(",2,");
                                    write_str(&mut out, tail);
                                    out.push(']');
                                }
                                None => {
                                    out.push_str(",1,");
                                    write_str(&mut out, &content);
                                    out.push(']');
                                }
                            }
                        }
                        _ => {
                            out.push_str(",1,");
                            write_str(&mut out, &content);
                            out.push(']');
                        }
                    }
                    let entry = (rev, bytes.len(), hash(bytes));
                    if i < sent.tasks.len() {
                        sent.tasks[i] = entry;
                    } else {
                        sent.tasks.resize(i, (u64::MAX, 0, 0));
                        sent.tasks.push(entry);
                    }
                    slot.view.content = content;
                }
                out.push_str("],\"a\":[");
                let mut first = true;
                for (i, slot) in store.artifacts.iter().enumerate() {
                    let rev = slot.view.revision;
                    if sent.artifacts.get(i) == Some(&rev) {
                        continue;
                    }
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    out.push_str(&format!("[{i},"));
                    slot.view.write_json(&mut out);
                    out.push(']');
                    if i < sent.artifacts.len() {
                        sent.artifacts[i] = rev;
                    } else {
                        sent.artifacts.resize(i, u64::MAX);
                        sent.artifacts.push(rev);
                    }
                }
                out.push(']');
                for (key, text, last) in [
                    ("d", json_list(store.diagnostics()), &mut sent.diagnostics),
                    (
                        "pi",
                        json_list(store.pending_inputs()),
                        &mut sent.pending_inputs,
                    ),
                    (
                        "pa",
                        json_list(store.pending_auths()),
                        &mut sent.pending_auths,
                    ),
                ] {
                    if text != *last {
                        out.push_str(&format!(",\"{key}\":"));
                        out.push_str(&text);
                        *last = text;
                    }
                }
            });
            sent.version = version;
        }
        if events.is_empty() && !changed {
            return None;
        }
        if !changed {
            out.push_str(&format!("{{\"v\":{version}"));
        }
        out.push_str(",\"e\":[");
        out.push_str(&events);
        out.push_str("]}");
        Some(out)
    }

    /// Sends what changed (and a pending connection change) now.
    fn flush(&mut self) {
        self.flush_pending = false;
        self.last_flush_ms = monotonic_ms();
        let delta = self.delta();
        let conn = self.conn.take();
        let dialect = get(&self.client, "dialect").as_string();
        let dialect_changed = dialect != self.sent.dialect;
        if delta.is_none() && conn.is_none() && !dialect_changed {
            return;
        }
        let msg = object(&[("t", &"batch".into())]);
        let transfer = js_sys::Array::new();
        if let Some(json) = delta {
            let bytes = js_sys::Uint8Array::from(json.as_bytes());
            let buffer = bytes.buffer();
            let _ = js_sys::Reflect::set(&msg, &"b".into(), &buffer);
            transfer.push(&buffer);
        }
        if let Some(c) = conn {
            let _ = js_sys::Reflect::set(&msg, &"c".into(), &c);
        }
        if dialect_changed {
            let d = dialect
                .as_deref()
                .map_or(JsValue::UNDEFINED, JsValue::from_str);
            let _ = js_sys::Reflect::set(&msg, &"d".into(), &d);
            self.sent.dialect = dialect;
        }
        post(&msg, Some(&transfer));
    }
}

fn host() -> Option<Rc<RefCell<Host>>> {
    HOST.with(|h| h.borrow().clone())
}

/// Flushes at the next frame (once, however many changes come before it).
fn schedule_flush() {
    let Some(h) = host() else { return };
    {
        let Ok(mut hh) = h.try_borrow_mut() else {
            return;
        };
        if hh.flush_pending || hh.closed {
            return;
        }
        hh.flush_pending = true;
    }
    let cb = Closure::once_into_js(move || {
        if let Ok(mut hh) = h.try_borrow_mut() {
            if hh.flush_pending {
                hh.flush();
            }
        };
    });
    next_frame(cb.unchecked_into());
}

/// Whether the last batch is older than MAX_BATCH_MS.
fn flush_due() -> bool {
    host()
        .and_then(|h| {
            h.try_borrow()
                .ok()
                .map(|hh| monotonic_ms() - hh.last_flush_ms >= MAX_BATCH_MS)
        })
        .unwrap_or(false)
}

fn flush_now() {
    if let Some(h) = host() {
        if let Ok(mut hh) = h.try_borrow_mut() {
            hh.flush();
        }
    }
}

fn init(options: &JsValue) -> Result<(), JsValue> {
    let client = AgentClient::new(options.clone())?;
    let store = client.store_handle();
    let client: JsValue = client.into();
    let h = Rc::new(RefCell::new(Host {
        client: client.clone(),
        store: store.handle(),
        subs: Vec::new(),
        flush_pending: false,
        last_flush_ms: 0.0,
        sent: Sent::default(),
        conn: None,
        closed: false,
    }));
    HOST.with(|slot| *slot.borrow_mut() = Some(h));
    let sized = store.handle();
    store.add_change_hook(Rc::new(move || {
        // Events pile up faster than frames (a fast stream): send them now, in pieces the page
        // parses in well under a long task, instead of one huge batch at the next frame.
        // A stream that keeps the Worker busy starves its frame callbacks (the large benchmark
        // stream got none in 1.3 s: the page then received the whole state, 12 MB, in one
        // long task at the end): send at least every MAX_BATCH_MS.
        if sized.sink_len() > MAX_BATCH_BYTES || flush_due() {
            flush_now();
        } else {
            schedule_flush();
        }
    }))?;
    let on_conn: Closure<dyn FnMut(JsValue)> = Closure::new(|info: JsValue| {
        if let Some(h) = host() {
            if let Ok(mut hh) = h.try_borrow_mut() {
                hh.conn = Some(info);
                hh.flush();
            }
        }
    });
    let f = get(&client, "onConnectionChange").dyn_into::<js_sys::Function>()?;
    f.call1(&client, on_conn.as_ref())?;
    on_conn.forget(); // lives as long as the Worker (one client per Worker)
                      // The state right after construction (`connecting` or `idle`).
    if let Some(h) = host() {
        let mut hh = h.borrow_mut();
        hh.conn = Some(get(&client, "connection"));
        hh.flush();
    }
    Ok(())
}

fn subscribe(msg: &JsValue) -> Result<(), JsValue> {
    let h = host().ok_or_else(|| js_error("invalid-state", "not initialised"))?;
    let id = get(msg, "id").as_f64().unwrap_or(0.0) as u32;
    let kind = get(msg, "kind").as_string();
    let filter = get(msg, "filter");
    let filter = if kind.is_none() && !filter.is_undefined() && !filter.is_null() {
        let text = js_sys::JSON::stringify(&filter)
            .ok()
            .and_then(|s| s.as_string())
            .unwrap_or_else(|| "{}".into());
        Some(EventFilter::from_json(&text).map_err(|e| js_error("invalid-argument", &e))?)
    } else {
        None
    };
    let mut hh = h.borrow_mut();
    let handler = hh.store.add_sink(id, kind, filter)?;
    hh.subs.push((id, handler));
    Ok(())
}

fn unsubscribe(msg: &JsValue) {
    let Some(h) = host() else { return };
    let id = get(msg, "id").as_f64().unwrap_or(0.0) as u32;
    let mut hh = h.borrow_mut();
    let removed: Vec<u32> = hh
        .subs
        .iter()
        .filter(|(s, _)| *s == id)
        .map(|(_, handler)| *handler)
        .collect();
    hh.subs.retain(|(s, _)| *s != id);
    for handler in removed {
        hh.store.remove_sink(handler);
    }
}

/// Calls an `AgentClient` method for the page; the reply follows the state it produced.
fn call(msg: &JsValue) {
    let id = get(msg, "id");
    let method = get(msg, "m").as_string().unwrap_or_default();
    let args: js_sys::Array = get(msg, "a").dyn_into().unwrap_or_default();
    let Some(h) = host() else {
        return reply(&id, Err(js_error("invalid-state", "not initialised")));
    };
    let (client, store) = {
        let hh = h.borrow();
        (hh.client.clone(), hh.store.handle())
    };
    let result: Result<JsValue, JsValue> = match method.as_str() {
        "feed" => {
            let bytes: js_sys::Uint8Array = get(msg, "b").dyn_into().unwrap_or_default();
            let r = store.feed(&bytes.to_vec()).map(|_| JsValue::UNDEFINED);
            if let Err(e) = r {
                report_error(&e);
            }
            return; // no reply: fire and forget
        }
        "finish" => store.finish().map(|_| JsValue::UNDEFINED),
        "flush" => Ok(JsValue::UNDEFINED),
        "close" => {
            if let Ok(f) = get(&client, "close").dyn_into::<js_sys::Function>() {
                let _ = f.call0(&client);
            }
            flush_now();
            if let Ok(mut hh) = h.try_borrow_mut() {
                hh.closed = true;
            }
            Ok(JsValue::UNDEFINED)
        }
        m if CALLABLE.contains(&m) => match get(&client, m).dyn_into::<js_sys::Function>() {
            Ok(f) => f.apply(&client, &args),
            Err(_) => Err(js_error(
                "invalid-state",
                &format!("{m}() is not available in this version"),
            )),
        },
        other => Err(js_error(
            "invalid-argument",
            &format!("{other}() cannot be called through the Worker"),
        )),
    };
    // State first: the page's promise resolves with its mirror up to date.
    flush_now();
    match result {
        Ok(v) if v.has_type::<js_sys::Promise>() => {
            let p: js_sys::Promise = v.unchecked_into();
            let id2 = id.clone();
            let ok = Closure::once_into_js(move |_: JsValue| {
                flush_now();
                reply(&id, Ok(JsValue::UNDEFINED));
            });
            let err = Closure::once_into_js(move |e: JsValue| {
                flush_now();
                reply(&id2, Err(e));
            });
            if let Ok(then) = get(&p, "then").dyn_into::<js_sys::Function>() {
                let _ = then.call2(&p, &ok, &err);
            }
        }
        Ok(_) => reply(&id, Ok(JsValue::UNDEFINED)),
        Err(e) => reply(&id, Err(e)),
    }
}

fn on_message(event: JsValue) {
    let msg = get(&event, "data");
    match get(&msg, "t").as_string().as_deref() {
        Some("init") => {
            if let Err(e) = init(&get(&msg, "o")) {
                post(
                    &object(&[("t", &"fail".into()), ("e", &error_data(&e))]),
                    None,
                );
            }
        }
        Some("sub") => {
            if let Err(e) = subscribe(&msg) {
                report_error(&e);
            }
        }
        Some("unsub") => unsubscribe(&msg),
        // A page that took over an already started Worker missed its first `ready`.
        Some("hello") => post(&object(&[("t", &"ready".into())]), None),
        Some("call") => call(&msg),
        _ => {}
    }
}

/// Starts the Worker side of Worker mode (call once, in a module Worker that loaded this
/// package; the package's `agentwire-worker.js` does it). The page talks to it through
/// `WorkerClient`.
#[wasm_bindgen(js_name = startWorker)]
pub fn start_worker() -> Result<(), JsValue> {
    super::error::check_alive()?;
    let cb: Closure<dyn FnMut(JsValue)> = Closure::new(on_message);
    js_sys::Reflect::set(&js_sys::global(), &"onmessage".into(), cb.as_ref())?;
    cb.forget(); // the Worker's message handler for as long as the Worker lives
    post(&object(&[("t", &"ready".into())]), None);
    Ok(())
}
