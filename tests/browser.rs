//! Browser tests (wasm-bindgen-test in headless Chromium): the JS-facing glue, and a fetch
//! connection to the real scenario server started by scripts/browser-tests.sh (its URL arrives
//! at compile time in AGENTWIRE_TEST_SERVER). The client's full behaviour (every transport,
//! answers, resume, faults) is tested from JavaScript in tests/e2e/.
#![cfg(target_arch = "wasm32")]

use agentwire::browser::client::AgentClient;
use agentwire::browser::decoder::StreamDecoder;
use agentwire::browser::store::AgentStore;
use js_sys::{Array, Function, Reflect};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(f: &Function, ms: i32);
}

async fn sleep(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| set_timeout(&resolve, ms));
    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
}

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

const STREAM: &str = concat!(
    "event: task-created\nid: 0\ndata: {\"kind\":\"task-created\",\"contextId\":\"c\",\"taskId\":\"t\",\"initiator\":\"user\",\"timestamp\":\"2025-11-06T10:30:00Z\"}\n\n",
    "event: tool-start\nid: 1\ndata: {\"kind\":\"tool-start\",\"contextId\":\"c\",\"taskId\":\"t\",\"toolCallId\":\"x\",\"toolName\":\"search\",\"arguments\":{},\"timestamp\":\"2025-11-06T10:30:00Z\"}\n\n",
    "event: tool-progress\nid: 2\ndata: {\"kind\":\"tool-progress\",\"contextId\":\"c\",\"taskId\":\"t\",\"toolCallId\":\"x\",\"progress\":0.5,\"timestamp\":\"2025-11-06T10:30:00Z\"}\n\n",
    "event: content-delta\nid: 3\ndata: {\"kind\":\"content-delta\",\"contextId\":\"c\",\"taskId\":\"t\",\"delta\":\"Hé🙂\",\"index\":0,\"timestamp\":\"2025-11-06T10:30:00Z\"}\n\n",
    "event: llm-call\nid: 4\ndata: {\"kind\":\"internal:llm-call\",\"contextId\":\"c\",\"taskId\":\"t\",\"iteration\":1,\"timestamp\":\"2025-11-06T10:30:00Z\"}\n\n",
    "event: content-delta\nid: 5\ndata: {\"kind\":\"content-delta\",\"contextId\":\"c\",\"taskId\":\"t\",\"delta\":\"!\",\"index\":1,\"timestamp\":\"2025-11-06T10:30:00Z\"}\n\n",
    "data: {not json\n\n",
);

#[wasm_bindgen_test]
fn decoder_yields_events_and_diagnostics_across_any_split() {
    let bytes = STREAM.as_bytes();
    for split in [1usize, 7, 100, 333, bytes.len() - 1] {
        let mut d = StreamDecoder::new(None).expect("decoder");
        let a: Array = d.feed(&bytes[..split]).expect("feed").unchecked_into();
        let b: Array = d.feed(&bytes[split..]).expect("feed").unchecked_into();
        let all: Vec<JsValue> = a.iter().chain(b.iter()).collect();
        assert_eq!(all.len(), 7, "split {split}");
        assert_eq!(get(&get(&all[2], "event"), "progress").as_f64(), Some(0.5));
        assert_eq!(
            get(&get(&all[3], "event"), "delta").as_string().as_deref(),
            Some("Hé🙂")
        );
        assert_eq!(
            get(&get(&all[6], "diagnostic"), "code")
                .as_string()
                .as_deref(),
            Some("invalid-json")
        );
        assert_eq!(d.last_event_id(), "5");
    }
}

#[wasm_bindgen_test]
fn store_snapshots_subscriptions_and_typed_handlers() {
    let store = Rc::new(AgentStore::new(None).expect("store"));
    let notified = Rc::new(Cell::new(0));
    let n = notified.clone();
    let listener = Closure::<dyn FnMut()>::new(move || n.set(n.get() + 1));
    let unsubscribe = store
        .subscribe(listener.as_ref().unchecked_ref::<Function>().clone())
        .expect("subscribe");
    let progress = Rc::new(RefCell::new(Vec::<f64>::new()));
    let p = progress.clone();
    // A re-entrant handler: it reads the store while being called by it.
    let s2 = store.clone();
    let handler = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
        p.borrow_mut()
            .push(get(&e, "progress").as_f64().unwrap_or(-1.0));
        let snap = s2.get_snapshot().expect("re-entrant read works");
        assert!(get(&snap, "version").as_f64().unwrap_or(0.0) > 0.0);
    });
    let off = store
        .on_kind(
            "tool-*".into(),
            handler.as_ref().unchecked_ref::<Function>().clone(),
        )
        .expect("on");
    let internal_seen = Rc::new(Cell::new(0));
    let i2 = internal_seen.clone();
    let any = Closure::<dyn FnMut(JsValue)>::new(move |e: JsValue| {
        if get(&e, "kind")
            .as_string()
            .is_some_and(|k| k.starts_with("internal:"))
        {
            i2.set(i2.get() + 1);
        }
    });
    let _off_any = store
        .on_kind("*".into(), any.as_ref().unchecked_ref::<Function>().clone())
        .expect("on *");

    store.feed_text(STREAM).expect("feed");
    assert!(notified.get() >= 1);
    assert_eq!(
        *progress.borrow(),
        vec![-1.0, 0.5],
        "tool-start then tool-progress"
    );
    assert_eq!(
        internal_seen.get(),
        0,
        "internal events are not delivered to `*`"
    );

    let snap1 = store.get_snapshot().expect("snapshot");
    let snap2 = store.get_snapshot().expect("snapshot");
    assert!(
        Object::is(&snap1, &snap2),
        "same object until something changes"
    );
    let task = Array::from(&get(&snap1, "tasks")).get(0);
    assert_eq!(get(&task, "content").as_string().as_deref(), Some("Hé🙂!"));
    assert_eq!(Array::from(&get(&snap1, "diagnostics")).length(), 1);

    // Unsubscribe really stops delivery.
    unsubscribe.call0(&JsValue::NULL).expect("unsubscribe");
    let _ = off.call0(&JsValue::NULL);
    let before = notified.get();
    store
        .feed_text("data: {\"kind\":\"tool-progress\",\"contextId\":\"c\",\"taskId\":\"t\",\"toolCallId\":\"x\",\"progress\":0.9,\"timestamp\":\"2025-11-06T10:30:00Z\"}\n\n")
        .expect("feed");
    assert_eq!(notified.get(), before);
    assert_eq!(progress.borrow().len(), 2);
    let snap3 = store.get_snapshot().expect("snapshot");
    assert!(!Object::is(&snap1, &snap3), "a change gives a new snapshot");
    store.close();
    assert_eq!(store.listener_count(), 0);
    let err = store.feed_text("\n").expect_err("closed store refuses");
    assert_eq!(get(&err, "code").as_string().as_deref(), Some("closed"));
    assert!(err.is_instance_of::<js_sys::Error>());
}

use js_sys::Object;

#[wasm_bindgen_test]
async fn client_over_fetch_against_the_scenario_server() {
    let Some(base) = option_env!("AGENTWIRE_TEST_SERVER") else {
        panic!("AGENTWIRE_TEST_SERVER is not set: run scripts/browser-tests.sh");
    };
    let opts = js_sys::Object::new();
    let url = format!("{base}/api/stream?scenario=quick&seed=7&speed=0");
    Reflect::set(&opts, &"url".into(), &url.into()).unwrap();
    let client = AgentClient::new(opts.into()).expect("client");
    assert_eq!(
        get(&client.connection(), "state").as_string().as_deref(),
        Some("idle"),
        "the constructor does no I/O"
    );
    client.connect().expect("connect");
    let mut state = String::new();
    for _ in 0..200 {
        sleep(50).await;
        state = get(&client.connection(), "state")
            .as_string()
            .unwrap_or_default();
        if state == "closed" || state == "failed" {
            break;
        }
    }
    assert_eq!(state, "closed", "{:?}", get(&client.connection(), "reason"));
    let snap = client.get_snapshot().expect("snapshot");
    let roots = Array::from(&get(&snap, "roots"));
    assert_eq!(
        get(&roots.get(0), "status").as_string().as_deref(),
        Some("completed")
    );
    assert!(Array::from(&get(&snap, "artifacts")).length() >= 3);
    assert_eq!(Array::from(&get(&snap, "diagnostics")).length(), 0);
    client.close();
    assert_eq!(client.listener_count(), 0);
}
